//! A scenario's `bot_selection`: one of the five policies of [Anglano09] §III-C, written as its name, or a user's
//! own, written `{"script": "…"}` (docs/policies.md).

use super::{script, BotSelection, FcfsShareRule, SelectBag};
use crate::script::{Builtin, BuiltinOrScript, ScriptError};
use crate::workload::Workload;

/// The BoT selection a scenario asks for: a built-in or a script (`script.rs`), read and written as every such
/// key is (`script::BuiltinOrScript`).
pub type BotPolicy = BuiltinOrScript<BotSelection>;

impl Builtin for BotSelection {
    const ALL: &'static [BotSelection] = &BotSelection::ALL;
    const WHAT: &'static str = "BoT selection policy";
    fn name(self) -> &'static str {
        BotSelection::name(self)
    }
}

impl BotPolicy {
    /// The policy's decision procedure for a run of `workload` under RepThresh `thresh`.
    pub fn build(&self, fcfs_share: FcfsShareRule, workload: &Workload, thresh: u32) -> Box<dyn SelectBag> {
        match self {
            BotPolicy::Builtin(p) => p.build(fcfs_share),
            BotPolicy::Script(source) => script::build(source, workload, thresh),
        }
    }

    /// Compiles a scripted policy; a built-in is always fine.
    pub fn check(&self) -> Result<(), ScriptError> {
        match self {
            BotPolicy::Builtin(_) => Ok(()),
            BotPolicy::Script(source) => script::check(source),
        }
    }

    /// The paper's label ("script" for a script).
    pub fn label(&self) -> &'static str {
        self.builtin().map_or("script", BotSelection::label)
    }

    /// RepThresh when the scenario leaves it null: the built-in's, 2 for a script.
    pub fn default_threshold(&self) -> u32 {
        self.builtin().map_or(2, BotSelection::default_threshold)
    }

    /// Whether the simulation must keep the idle-time index.
    pub fn needs_idle_times(&self) -> bool {
        self.builtin().is_some_and(BotSelection::needs_idle_times)
    }

    /// Whether the simulation must keep the set of BoTs with a task without a running replica.
    pub fn needs_unreplicated(&self, fcfs_share: FcfsShareRule) -> bool {
        self.builtin().is_some_and(|p| p.needs_unreplicated(fcfs_share))
    }
}
