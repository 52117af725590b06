//! The one error of a scenario, whichever part of the code refuses it: the field (as a JSON path), the kind of
//! refusal and why. The families' checks, the workload generators and distributions, and the trace rules all
//! return it, so a front end treats the kinds apart (the page marks an over-budget run differently from a typing
//! error; a test asks for the kind rather than the words) and the CLI names the field the same way everywhere.
//! Data that cannot be analysed (a fit, a view) is a `DataError`; a study's point that gave no outcome, a
//! `PointError` (the family contract and the readings share it). Knows no family.

use crate::words::tidy_message;

/// A scenario value that cannot be simulated: the field (as a JSON path), what kind of refusal, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct ScenarioError {
    pub kind: ErrorKind,
    pub field: String,
    pub message: String,
}

/// Why a scenario is refused, for a front end that treats the kinds apart (the page marks an over-budget run
/// differently from a typing error; a test asks for the kind rather than the words).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// A number outside its allowed range, or one that makes a derived time or count not finite.
    OutOfRange,
    /// A value that is not one of the allowed ones, or text that is not a scenario (JSON, a damaged link).
    NotAllowed,
    /// A run larger than the budget allows (events, memory, samples).
    OverBudget,
    /// A trace or log that cannot be read or gives nothing to simulate.
    Trace,
    /// Values that cannot hold together (a section of another family, a trace and a generator at once).
    Inconsistent,
    /// A user's policy script that does not compile, or that failed or made an impossible decision during the run
    /// (`script::ScriptError`: its line and column, and the simulated time).
    Script,
}

impl ScenarioError {
    pub fn new(kind: ErrorKind, field: impl Into<String>, message: impl Into<String>) -> ScenarioError {
        ScenarioError { kind, field: field.into(), message: message.into() }
    }

    /// The error with its field placed under `prefix` (a part of the scenario checked on its own, such as a
    /// generator or a distribution, names its fields from itself): `runtime` under `workload.generator.x` is
    /// `workload.generator.x.runtime`; an error that names no field takes the prefix as its field.
    pub fn under(self, prefix: &str) -> ScenarioError {
        let field = match (prefix.is_empty(), self.field.is_empty()) {
            (true, _) => self.field,
            (false, true) => prefix.to_string(),
            (false, false) => format!("{prefix}.{}", self.field),
        };
        ScenarioError { field, ..self }
    }

    /// A number outside its allowed range.
    pub fn out_of_range(field: impl Into<String>, message: impl Into<String>) -> ScenarioError {
        ScenarioError::new(ErrorKind::OutOfRange, field, message)
    }
}

impl std::fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.field.is_empty() {
            return f.write_str(&tidy_message(&self.message));
        }
        write!(f, "{}: {}", tidy_message(&self.field), tidy_message(&self.message))
    }
}

impl std::error::Error for ScenarioError {}

/// Why data (an imported trace, a generated workload) cannot give what was asked of it: a fitted row, a view, a
/// burstiness measure. The message says what is wrong with the data and where; nothing in a scenario is refused.
#[derive(Clone, Debug, PartialEq)]
pub struct DataError(pub String);

impl std::fmt::Display for DataError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DataError {}

/// A name (a policy, an architecture, a trace format) that names nothing: what it should name, the name as given,
/// and the names allowed; or a name of the right form whose number is out of its range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NameError {
    Unknown { what: &'static str, given: String, allowed: String },
    OutOfRange { given: String, rule: String },
}

impl std::fmt::Display for NameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NameError::Unknown { what, given, allowed } => write!(f, "unknown {what} {given:?}; allowed: {allowed}"),
            NameError::OutOfRange { given, rule } => write!(f, "{given:?}: {rule}"),
        }
    }
}

impl std::error::Error for NameError {}

/// The page's form edits still speak in text: a name refused keeps its message there.
impl From<NameError> for String {
    fn from(e: NameError) -> String {
        e.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_is_placed_under_its_prefix() {
        let e = ScenarioError::out_of_range("runtime", "mean 0: must be > 0");
        assert_eq!(e.clone().under("workload.generator.x").field, "workload.generator.x.runtime");
        assert_eq!(ScenarioError::out_of_range("", "shape 0").under("iat").field, "iat");
        assert_eq!(e.clone().under("").field, "runtime");
        assert_eq!(e.under("a").kind, ErrorKind::OutOfRange);
    }
}

/// Why a point of a study gave no outcome. A shard's file carries it as its message (`{"Err": "…"}`, as before it
/// was typed), so one read back from a file is `Reported`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(into = "String", from = "String")]
pub enum PointError {
    /// The point's job is not one its study's kind runs (a damaged manifest, a figure that does not exist).
    Job(String),
    /// The point's scenario is refused, or its run stopped (a script's impossible decision, a budget).
    Run(ScenarioError),
    /// A file of the point (its jobs.csv) could not be written: the path and the system's reason.
    File(String),
    /// A failure read back from a shard's file: its message.
    Reported(String),
}

impl std::fmt::Display for PointError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PointError::Job(m) | PointError::File(m) | PointError::Reported(m) => f.write_str(m),
            PointError::Run(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PointError {}

impl From<ScenarioError> for PointError {
    fn from(e: ScenarioError) -> PointError {
        PointError::Run(e)
    }
}

impl From<PointError> for String {
    fn from(e: PointError) -> String {
        e.to_string()
    }
}

impl From<String> for PointError {
    fn from(message: String) -> PointError {
        PointError::Reported(message)
    }
}
