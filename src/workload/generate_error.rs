//! Why a workload cannot be generated: too large for the memory bounds, a load target that cannot be met, or a
//! cluster's stream that failed. The scenario's check turns it into a `ScenarioError` naming the workload's field.

/// Why a workload cannot be generated; each says what the user reads.
#[derive(Clone, Debug, PartialEq)]
pub enum GenerateError {
    /// More tasks, BoTs, jobs, sessions or user ids than allowed would be made: what and what to lower.
    TooLarge(String),
    /// The load target cannot be reached or placed in the submission period: why.
    Unreachable(String),
    /// A cluster's own stream that cannot be generated: the cluster's index and name, and why.
    Stream { cluster: usize, name: String, error: Box<GenerateError> },
}

impl std::fmt::Display for GenerateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GenerateError::TooLarge(m) | GenerateError::Unreachable(m) => f.write_str(m),
            GenerateError::Stream { cluster, name, error } => write!(f, "cluster {cluster} ({name}): {error}"),
        }
    }
}

impl std::error::Error for GenerateError {}
