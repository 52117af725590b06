//! Why a lesson's question is refused when the lessons load (`QuestionError`: what, at which key, and what is
//! allowed), and why a student's answer cannot be marked (`AnswerError`).

/// A question that breaks the rules of docs/lessons.md, "Questions". Its message starts with the key at fault
/// (under the question, `questions[i]`, which `LessonError::Question` adds).
#[derive(Clone, Debug, PartialEq)]
pub enum QuestionError {
    /// `prompt` or `hint` is empty.
    Empty { key: &'static str },
    /// Not exactly one of `number`, `choice`, `order`: the ones given.
    Kind { given: Vec<&'static str> },
    /// A choice that asks for neither or both of `lowest` and `highest`.
    Pick { lowest: bool, highest: bool },
    /// A label that no variant has: the key, the label and the variants' labels.
    UnknownLabel { key: &'static str, label: String, labels: Vec<String> },
    /// A ratio of a variant to itself.
    SameLabel { label: String },
    /// A number question without its `tolerance`.
    NoTolerance,
    /// A tolerance outside (0, 1].
    Tolerance { value: f64 },
    /// A tolerance on a question that is not a number: its kind.
    ToleranceUnused { kind: &'static str },
    /// A choice or an order over fewer than 2 variants.
    TooFewVariants { key: &'static str, variants: usize },
    /// A choice or an order in a lesson of fewer than 2 seeds: no intervals to tell the variants apart.
    TooFewSeeds { key: &'static str, seeds: u32 },
}

impl std::fmt::Display for QuestionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            QuestionError::Empty { key } => write!(f, "{key} is empty"),
            QuestionError::Kind { given } if given.is_empty() => {
                f.write_str("no kind: give one of number, choice or order")
            }
            QuestionError::Kind { given } => {
                write!(f, "{} given: give exactly one of number, choice or order", given.join(" and "))
            }
            QuestionError::Pick { lowest, highest } => write!(
                f,
                "choice asks for lowest: {lowest} and highest: {highest}; allowed {{\"lowest\": true}} or \
                 {{\"highest\": true}}"
            ),
            QuestionError::UnknownLabel { key, label, labels } => {
                let labels: Vec<String> = labels.iter().map(|l| format!("{l:?}")).collect();
                write!(f, "{key}: {label:?} is not a variant's label; allowed {}", labels.join(", "))
            }
            QuestionError::SameLabel { label } => {
                write!(f, "number.ratio: {label:?} over itself; allowed two different variants' labels")
            }
            QuestionError::NoTolerance => {
                f.write_str("tolerance is missing; a number question needs one in (0, 1] (0.1: answers within ±10%)")
            }
            QuestionError::Tolerance { value } => write!(
                f,
                "tolerance {} is out of range; allowed (0, 1] (0.1: answers within ±10% of the computed one)",
                crate::words::short_number(*value)
            ),
            QuestionError::ToleranceUnused { kind } => {
                write!(f, "tolerance given to a {kind} question; allowed with number only")
            }
            QuestionError::TooFewVariants { key, variants } => {
                write!(f, "{key} over {variants} variant(s); allowed with at least 2")
            }
            QuestionError::TooFewSeeds { key, seeds } => write!(
                f,
                "{key} in a lesson of {seeds} seed(s); allowed with at least 2 (the intervals that tell the variants \
                 apart need them)"
            ),
        }
    }
}

impl std::error::Error for QuestionError {}

/// Why an answer cannot be computed or a student's answer cannot be marked.
#[derive(Clone, Debug, PartialEq)]
pub enum AnswerError {
    /// The question does not fit its lesson (the lessons' check refuses it too).
    Question(QuestionError),
    /// No question at this index in the lesson.
    NoQuestion { index: usize, questions: usize },
    /// Results for another number of variants than the lesson has.
    Results { variants: usize, intervals: usize },
    /// A student's answer of another kind than the question's.
    WrongKind { asked: &'static str, given: &'static str },
    /// A label that no variant has.
    UnknownLabel { label: String, labels: Vec<String> },
    /// An order that misses a variant or names one twice.
    NotAnOrder { missing: Vec<String>, repeated: Vec<String> },
    /// A number that is not finite.
    NotFinite,
}

impl std::fmt::Display for AnswerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AnswerError::Question(e) => write!(f, "the question does not fit its lesson: {e}"),
            AnswerError::NoQuestion { index, questions } => {
                write!(f, "no question {index}; the lesson has {questions} (numbered from 0)")
            }
            AnswerError::Results { variants, intervals } => {
                write!(f, "results for {intervals} variant(s); the lesson has {variants}")
            }
            AnswerError::WrongKind { asked, given } => write!(f, "a {given} given to a {asked} question"),
            AnswerError::UnknownLabel { label, labels } => {
                write!(f, "{label:?} is not a variant's label; the labels are {}", labels.join(", "))
            }
            AnswerError::NotAnOrder { missing, repeated } => write!(
                f,
                "an order names every variant once: missing {}; repeated {}",
                if missing.is_empty() { "none".into() } else { missing.join(", ") },
                if repeated.is_empty() { "none".into() } else { repeated.join(", ") }
            ),
            AnswerError::NotFinite => f.write_str("the answer is not a finite number"),
        }
    }
}

impl std::error::Error for AnswerError {}
