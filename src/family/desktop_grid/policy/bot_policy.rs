//! A scenario's `bot_selection`: one of the five policies of [Anglano09] §III-C, written as its name, or a user's
//! own, written `{"script": "…"}` (docs/policies.md).

use super::{script, BotSelection, FcfsShareRule, SelectBag};
use crate::script::{ScriptError, ScriptSource};
use crate::workload::Workload;
use serde::{Deserialize, Serialize};

/// The BoT selection a scenario asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotPolicy {
    Builtin(BotSelection),
    /// A user's policy: a Rhai script (`script.rs`).
    Script(ScriptSource),
}

impl From<BotSelection> for BotPolicy {
    fn from(p: BotSelection) -> BotPolicy {
        BotPolicy::Builtin(p)
    }
}

impl BotPolicy {
    /// The built-in policy, if it is one.
    pub fn builtin(&self) -> Option<BotSelection> {
        match self {
            BotPolicy::Builtin(p) => Some(*p),
            BotPolicy::Script(_) => None,
        }
    }

    /// The script's source, for a scripted policy.
    pub fn script(&self) -> Option<&str> {
        match self {
            BotPolicy::Script(s) => Some(s.as_str()),
            BotPolicy::Builtin(_) => None,
        }
    }

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

    /// The name used in scenario files and sweeps ("script" for a script).
    pub fn name(&self) -> &'static str {
        self.builtin().map_or("script", BotSelection::name)
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

/// A built-in is written as its name, a script as `{"script": "…source…"}`.
impl Serialize for BotPolicy {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            BotPolicy::Builtin(p) => p.serialize(s),
            BotPolicy::Script(source) => source.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for BotPolicy {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(Visitor)
    }
}

struct Visitor;

impl<'de> serde::de::Visitor<'de> for Visitor {
    type Value = BotPolicy;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(
            "a BoT selection policy's name (fcfs_excl, fcfs_share, rr, rr_nrf, long_idle) or {\"script\": \"…\"}",
        )
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<BotPolicy, E> {
        match BotSelection::ALL.iter().find(|p| p.name() == v) {
            Some(&p) => Ok(BotPolicy::Builtin(p)),
            None => Err(E::custom(format!(
                "unknown BoT selection policy {v:?}; allowed: fcfs_excl, fcfs_share, rr, rr_nrf, long_idle, or your \
                 own as {{\"script\": \"…\"}} (docs/policies.md)"
            ))),
        }
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<BotPolicy, A::Error> {
        ScriptSource::read_map(map).map(BotPolicy::Script)
    }
}
