//! Your own BoT selection, written as a Rhai script (docs/policies.md, "Desktop grid"): the script's
//! `select(view)` reads the BoTs in the queue and returns `bot(b)` or `idle()`. A decision the simulation cannot
//! carry out (a BoT that is not in the queue, or whose every pending task already has RepThresh replicas) stops the
//! run with the script's line, the simulated time and the decision.

use super::{BotView, SelectBag};
use crate::family::contract::{ErrorKind, ScenarioError};
use crate::script::{ScriptError, ScriptSource};
use crate::workload::Workload;

#[cfg(feature = "scripts")]
mod scripted;
#[cfg(feature = "scripts")]
pub use scripted::ScriptedBotSelection;

/// A BoT selection script's error as the scenario's (`desktop_grid.bot_selection.script: line L, column C: …`).
pub fn script_error(e: &ScriptError) -> ScenarioError {
    ScenarioError::new(ErrorKind::Script, "desktop_grid.bot_selection.script", e.to_string())
}

/// The policy a script gives: the scripted one, or one that stops the run with the script's error.
#[cfg(feature = "scripts")]
pub(super) fn build(source: &ScriptSource, workload: &Workload, thresh: u32) -> Box<dyn SelectBag> {
    match ScriptedBotSelection::new(source.as_str(), workload, thresh) {
        Ok(p) => Box::new(p),
        Err(e) => Box::new(Refused(e)),
    }
}

/// Compiles the script and checks that it defines `select`.
#[cfg(feature = "scripts")]
pub(super) fn check(source: &ScriptSource) -> Result<(), ScriptError> {
    ScriptedBotSelection::new(source.as_str(), &Workload::default(), 2).map(|_| ())
}

#[cfg(not(feature = "scripts"))]
pub(super) fn build(_: &ScriptSource, _: &Workload, _: u32) -> Box<dyn SelectBag> {
    Box::new(Refused(ScriptError::new(0, 0, crate::script::NO_ENGINE)))
}

/// Without the engine a script is checked where it runs (the worker).
#[cfg(not(feature = "scripts"))]
pub(super) fn check(_: &ScriptSource) -> Result<(), ScriptError> {
    Ok(())
}

/// A script that does not compile, as a policy: it names no BoT, and says why (scenarios are validated before they
/// are built, so only code that skips the check builds one).
pub struct Refused(pub ScriptError);

impl SelectBag for Refused {
    fn select(&mut self, _: &BotView) -> Option<u32> {
        None
    }
    fn failure(&self) -> Option<&ScriptError> {
        Some(&self.0)
    }
}
