//! Your own policy: task scheduling written as a Rhai script (docs/policies.md). The script's `choose(estimate,
//! view)` gets the same read-only view the built-in policies get and returns `start(c)`, `reserve(c)` or `wait()`;
//! its optional `order()`, `estimate()`, `uses_end_estimates()` and `max_replicas()` declare what the built-ins
//! declare, and `observe_completion(cluster, estimate, elapsed)` sees each completion. A decision the simulation
//! cannot carry out stops the run with the script's line, the simulated time and the decision.
use super::{Choice, Estimate, ResourceView, TaskOrder, TaskScheduling};
use crate::family::contract::{ErrorKind, ScenarioError};
use crate::script::ScriptError;
pub use crate::script::ScriptSource;

#[cfg(feature = "scripts")]
mod scripted;
#[cfg(feature = "scripts")]
pub use scripted::ScriptedScheduling;

/// A scheduling script's error as the scenario's (`scheduling.script: line L, column C: …`).
pub fn script_error(e: &ScriptError) -> ScenarioError {
    ScenarioError::new(ErrorKind::Script, "scheduling.script", e.to_string())
}

/// The policy a script gives: the scripted one, or one that stops the run with the script's error.
#[cfg(feature = "scripts")]
pub(super) fn build(source: &ScriptSource) -> Box<dyn TaskScheduling> {
    match ScriptedScheduling::new(&source.0) {
        Ok(p) => Box::new(p),
        Err(e) => Box::new(Refused(e)),
    }
}

/// Compiles the script and asks it what it declares.
#[cfg(feature = "scripts")]
pub(super) fn check(source: &ScriptSource) -> Result<(), ScriptError> {
    ScriptedScheduling::new(&source.0).map(|_| ())
}

/// Whether the script asks for predicted runtimes.
#[cfg(feature = "scripts")]
pub(super) fn predicts(source: &ScriptSource) -> bool {
    ScriptedScheduling::new(&source.0).is_ok_and(|p| p.estimate() == Estimate::Predicted)
}

#[cfg(not(feature = "scripts"))]
pub(super) fn build(_: &ScriptSource) -> Box<dyn TaskScheduling> {
    Box::new(Refused(ScriptError::new(0, 0, crate::script::NO_ENGINE)))
}

/// Without the engine a script is checked where it runs (the worker).
#[cfg(not(feature = "scripts"))]
pub(super) fn check(_: &ScriptSource) -> Result<(), ScriptError> {
    Ok(())
}

#[cfg(not(feature = "scripts"))]
pub(super) fn predicts(_: &ScriptSource) -> bool {
    false
}

/// A script that does not compile, as a policy: it only waits, and says why (scenarios are validated before they
/// are built, so only code that skips the check builds one).
pub struct Refused(pub ScriptError);

impl TaskScheduling for Refused {
    fn order(&self) -> TaskOrder {
        TaskOrder::Fcfs
    }
    fn choose(&mut self, _estimate: f64, _view: &ResourceView) -> Choice {
        Choice::Wait
    }
    fn estimate(&self) -> Estimate {
        Estimate::None
    }
    fn failure(&self) -> Option<&ScriptError> {
        Some(&self.0)
    }
}
