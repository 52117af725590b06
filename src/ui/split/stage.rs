//! What the page tells the lessons' part of a lesson's stage (`lesson_stage.rs`), as messages cross between the two
//! modules: the lesson a link asks for, and projector mode with the lesson and part shown.

use serde::{Deserialize, Serialize};

/// The lesson asked for by the address (`?lesson=ID`, read once when the page opens) and the part `&step=K` asks
/// for (0-based), or why that step cannot be shown.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Requested {
    pub id: String,
    pub part: Result<Option<usize>, NoSuchStep>,
}

/// A link's `&step=K` that is no step of a lesson (steps 1 to `parts`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct NoSuchStep {
    pub step: String,
    pub parts: usize,
}

impl std::fmt::Display for NoSuchStep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "The link's step {:?} is not a step of a lesson; allowed 1–{}. The lesson opens at its question.",
            self.step, self.parts
        )
    }
}

/// Projector mode, and the lesson it steps through with the part shown (0-based).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StageState {
    pub on: bool,
    pub lesson: Option<(String, usize)>,
}
