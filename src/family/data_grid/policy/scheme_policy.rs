//! What a scenario's `scheme` (`config::SchemePolicy`) builds: nothing for the three of [Liu10] §IV, which
//! `policy::choose` runs, or a user's script (docs/policies.md).

use super::super::config::SchemePolicy;
use super::script::{self, ChooseSite};
use crate::script::ScriptError;

impl SchemePolicy {
    /// The scripted scheme's decision procedure (None for a built-in, which `policy::choose` runs).
    pub fn build(&self) -> Option<Box<dyn ChooseSite>> {
        match self {
            SchemePolicy::Builtin(_) => None,
            SchemePolicy::Script(source) => Some(script::build(source)),
        }
    }

    /// Compiles a scripted scheme; a built-in is always fine.
    pub fn check(&self) -> Result<(), ScriptError> {
        match self {
            SchemePolicy::Builtin(_) => Ok(()),
            SchemePolicy::Script(source) => script::check(source),
        }
    }
}
