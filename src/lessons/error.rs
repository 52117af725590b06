//! Why a lesson cannot be opened, run or read; each says what the CLI and the page print.

use super::questions::QuestionError;
use crate::error::ScenarioError;
use crate::readings::PathError;

/// Why a lesson cannot be opened, run or read.
#[derive(Clone, Debug, PartialEq)]
pub enum LessonError {
    /// A lesson file that does not parse, or whose lesson is refused: the file's name and why.
    File { name: String, why: String },
    /// A lesson file that parses but whose lesson breaks a rule: the file's name and the rule's error.
    Invalid { name: String, error: Box<LessonError> },
    /// No lesson has this id: the id and the lessons' ids, joined.
    NotFound { id: String, ids: String },
    /// A field that breaks a lesson's rules (empty text, seeds, variants, metric, claim, unit, your_own).
    Field(String),
    /// A question of the lesson (its index in `questions`, from 0) that breaks a rule.
    Question { index: usize, error: QuestionError },
    /// A variant the lesson does not have.
    NoVariant(usize),
    /// A variant whose keys or scenario are refused: its label and why.
    Variant { label: String, why: String },
    /// The scenario of the class's own script refused: the lesson's `your_own` key and why.
    YourOwn { key: String, error: ScenarioError },
    /// A key path of the lesson that does not fit its scenario (`seed`, `your_own`).
    Path(PathError),
    /// A run of the lesson that failed.
    Run(ScenarioError),
    /// A run's report that holds no number at the lesson's metric (its JSON pointer), or cannot be read as JSON.
    Report(String),
}

impl std::fmt::Display for LessonError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LessonError::File { name, why } => write!(f, "lessons/{name}: {why}"),
            LessonError::Invalid { name, error } => write!(f, "lessons/{name}: {error}"),
            LessonError::Question { index, error } => write!(f, "questions[{index}]: {error}"),
            LessonError::NotFound { id, ids } => write!(f, "no lesson {id:?}; the lessons are {ids}"),
            LessonError::Field(m) | LessonError::Report(m) => f.write_str(m),
            LessonError::NoVariant(v) => write!(f, "no variant {v}"),
            LessonError::Variant { label, why } => write!(f, "variant {label:?}: {why}"),
            LessonError::YourOwn { key, error } => write!(f, "your own {key}: {error}"),
            LessonError::Path(e) => e.fmt(f),
            LessonError::Run(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for LessonError {}

impl From<PathError> for LessonError {
    fn from(e: PathError) -> LessonError {
        LessonError::Path(e)
    }
}

impl From<ScenarioError> for LessonError {
    fn from(e: ScenarioError) -> LessonError {
        LessonError::Run(e)
    }
}
