//! The family's policies: what [Anglano09] calls BoT selection. The BoT selection policies of §III-C (Select_Bag
//! of Fig. 1, line 21): one file each; `BotSelection::build` is the only list. A policy reads a `BotView` and names
//! a BoT; the simulation acts. A scenario's `bot_selection` is one of them or a user's script (`BotPolicy` in
//! `bot_policy.rs`, the script in `script.rs`).

mod bot_policy;
mod fcfs_excl;
mod fcfs_share;
mod long_idle;
mod rr;
mod rr_nrf;
mod script;

pub use bot_policy::BotPolicy;
pub use fcfs_share::FcfsShareRule;
pub use script::script_error;

use super::wqr_ft::TaskPool;
use crate::script::ScriptError;
use serde::{Deserialize, Serialize};

/// What a BoT selection policy may read: the pool of pending tasks (read-only) and the time.
pub struct BotView<'a> {
    pub now: f64,
    pub pool: &'a TaskPool,
}

/// A BoT selection policy: names the BoT whose task is scheduled next, or none (machines stay idle).
pub trait SelectBag {
    fn select(&mut self, view: &BotView) -> Option<u32>;
    /// Why the policy stopped deciding (a user's script that failed or decided the impossible); the simulation
    /// stops the run when a policy that names no BoT has a failure.
    fn failure(&self) -> Option<&ScriptError> {
        None
    }
    /// Whether the policy reads the idle times of the tasks (`TaskPool::longest_idle`), which the pool then keeps
    /// (a script's `uses_idle_times()`; the built-in LongIdle says so through `BotSelection::needs_idle_times`).
    fn uses_idle_times(&self) -> bool {
        false
    }
}

/// The five policies of the paper.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BotSelection {
    /// FCFS-Excl: the oldest BoT alone, replicated without limit.
    FcfsExcl,
    /// FCFS-Share: the oldest BoT with a candidate task.
    FcfsShare,
    /// RR: BoTs in turn, circularly, oldest first.
    Rr,
    /// RR-NRF: RR, but BoTs with no running replica first.
    RrNrf,
    /// LongIdle: the BoT holding the task that has been without a replica the longest.
    LongIdle,
}

impl BotSelection {
    pub const ALL: [BotSelection; 5] = [
        BotSelection::FcfsExcl,
        BotSelection::FcfsShare,
        BotSelection::Rr,
        BotSelection::RrNrf,
        BotSelection::LongIdle,
    ];

    /// The policy's decision procedure; `fcfs_share` is FCFS-Share's move-on rule (read by no other policy).
    pub fn build(self, fcfs_share: FcfsShareRule) -> Box<dyn SelectBag> {
        match self {
            BotSelection::FcfsExcl => Box::new(fcfs_excl::FcfsExcl),
            BotSelection::FcfsShare => Box::new(fcfs_share::FcfsShare { rule: fcfs_share }),
            BotSelection::Rr => Box::new(rr::Rr::default()),
            BotSelection::RrNrf => Box::new(rr_nrf::RrNrf::default()),
            BotSelection::LongIdle => Box::new(long_idle::LongIdle),
        }
    }

    /// The name used in scenario files and sweeps.
    pub fn name(self) -> &'static str {
        match self {
            BotSelection::FcfsExcl => "fcfs_excl",
            BotSelection::FcfsShare => "fcfs_share",
            BotSelection::Rr => "rr",
            BotSelection::RrNrf => "rr_nrf",
            BotSelection::LongIdle => "long_idle",
        }
    }

    /// The paper's label.
    pub fn label(self) -> &'static str {
        match self {
            BotSelection::FcfsExcl => "FCFS-Excl",
            BotSelection::FcfsShare => "FCFS-Share",
            BotSelection::Rr => "RR",
            BotSelection::RrNrf => "RR-NRF",
            BotSelection::LongIdle => "LongIdle",
        }
    }

    /// RepThresh when the scenario leaves it null: 2, unlimited for FCFS-Excl ([Anglano09] §IV-C).
    pub fn default_threshold(self) -> u32 {
        match self {
            BotSelection::FcfsExcl => u32::MAX,
            _ => 2,
        }
    }

    /// Whether the simulation must keep the idle-time index.
    pub fn needs_idle_times(self) -> bool {
        self == BotSelection::LongIdle
    }

    /// Whether the simulation must keep the set of BoTs with a task without a running replica.
    pub fn needs_unreplicated(self, fcfs_share: FcfsShareRule) -> bool {
        self == BotSelection::FcfsShare && fcfs_share == FcfsShareRule::OneReplica
    }
}
