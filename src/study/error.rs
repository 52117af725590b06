//! Why a study cannot be planned, read or run, by kind; each says what the CLI prints after `bagsim: `.

use crate::error::ScenarioError;
use crate::family::contract::PointError;

/// Why a study cannot be planned or read.
#[derive(Clone, Debug, PartialEq)]
pub enum StudyError {
    /// A `--set` argument that is not an axis: its form, its key, a value given twice, the product's size, a key
    /// that no point reads.
    Axis(String),
    /// An axis value whose JSON could not be made (a policy's FILE.rhai that could not be read): its key, the value
    /// as given and why.
    Value { key: String, value: String, why: String },
    /// A point whose scenario is refused: the axis key and value that made it, and why.
    Point { key: String, value: String, error: ScenarioError },
    /// A shard count or index out of range, or a study of more points than allowed.
    Size(String),
    /// A manifest or shard file this bagsim does not read: not a study file, of another version or format, edited
    /// after it was written, or holding a reference to a script it does not hold.
    File(String),
}

impl std::fmt::Display for StudyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StudyError::Axis(m) | StudyError::Size(m) | StudyError::File(m) => f.write_str(m),
            StudyError::Value { key, value, why } => write!(f, "--set {key}={value}: {why}"),
            StudyError::Point { key, value, error } => write!(f, "--set {key}={value}: {error}"),
        }
    }
}

impl std::error::Error for StudyError {}

/// A point whose job refers to a script its study does not hold: its job is damaged.
impl From<StudyError> for PointError {
    fn from(e: StudyError) -> PointError {
        PointError::Job(e.to_string())
    }
}
