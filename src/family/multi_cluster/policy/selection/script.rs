//! Your own task selection, written as a Rhai script (docs/policies.md, "Task selection"): the script's
//! `select(view)` reads the users with waiting tasks and their consumption and returns which waiting tasks form the
//! RM's next eligible set (`all_tasks()`, `oldest_bot()`, `user_tasks(u)`, `user_oldest_bot(u)`,
//! `one_task_per_user(after)`); its optional `index()` and `absorbs_arrivals()` declare what the built-ins declare.
//! A decision the RM cannot carry out stops the run with the script's line, the simulated time and the decision.

use super::{QueueIndex, Selection, SelectionView, TaskSelection};
use crate::family::contract::{ErrorKind, ScenarioError};
use crate::script::{ScriptError, ScriptSource};

#[cfg(feature = "scripts")]
mod scripted;
#[cfg(feature = "scripts")]
pub use scripted::ScriptedSelection;

/// A selection script's error as the scenario's (`selection.script: line L, column C: …`).
pub fn script_error(e: &ScriptError) -> ScenarioError {
    ScenarioError::new(ErrorKind::Script, "selection.script", e.to_string())
}

/// The policy a script gives: the scripted one, or one that stops the run with the script's error.
#[cfg(feature = "scripts")]
pub(super) fn build(source: &ScriptSource) -> Box<dyn TaskSelection> {
    match ScriptedSelection::new(source.as_str()) {
        Ok(p) => Box::new(p),
        Err(e) => Box::new(Refused(e)),
    }
}

/// Compiles the script and asks it what it declares.
#[cfg(feature = "scripts")]
pub(super) fn check(source: &ScriptSource) -> Result<(), ScriptError> {
    ScriptedSelection::new(source.as_str()).map(|_| ())
}

#[cfg(not(feature = "scripts"))]
pub(super) fn build(_: &ScriptSource) -> Box<dyn TaskSelection> {
    Box::new(Refused(ScriptError::new(0, 0, crate::script::NO_ENGINE)))
}

/// Without the engine a script is checked where it runs (the worker).
#[cfg(not(feature = "scripts"))]
pub(super) fn check(_: &ScriptSource) -> Result<(), ScriptError> {
    Ok(())
}

/// A script that does not compile, as a policy: it selects nothing, and says why.
pub struct Refused(pub ScriptError);

impl TaskSelection for Refused {
    fn select(&mut self, _: &SelectionView) -> Selection {
        Selection::Nothing
    }
    fn index(&self) -> QueueIndex {
        QueueIndex::Fifo
    }
    fn failure(&self) -> Option<&ScriptError> {
        Some(&self.0)
    }
}
