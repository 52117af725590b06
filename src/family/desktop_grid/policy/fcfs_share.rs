//! FCFS-Share: BoTs in arrival order, but a machine the first BoT cannot use goes to the next ([Anglano09] §III-C).
//! When the first BoT "has no longer pending tasks" is a reading (`FcfsShareRule`, docs/desktop_grid.md).

use super::{BotView, SelectBag};
use serde::{Deserialize, Serialize};

/// When FCFS-Share gives a machine to a BoT after the oldest (a reading of [Anglano09] §III-C, "if the first BoT in
/// FCFS order has no longer pending tasks"; docs/desktop_grid.md, "Readings").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FcfsShareRule {
    /// Once every task of the oldest BoT has RepThresh running replicas: the oldest BoT with a task below RepThresh
    /// (the default: under `OneReplica` FCFS-Share could not be unbounded where [Anglano09] §IV-C says it is;
    /// docs/desktop_grid.md, "Capacity").
    #[default]
    RepThresh,
    /// Once every task of the oldest BoT has a running replica: the oldest BoT with a task without one; when every
    /// BoT's tasks have one, the oldest BoT with a task below RepThresh ("no longer pending tasks" as FCFS-Excl's
    /// definition uses the phrase).
    OneReplica,
}

impl FcfsShareRule {
    pub const ALL: [FcfsShareRule; 2] = [FcfsShareRule::RepThresh, FcfsShareRule::OneReplica];

    pub fn name(self) -> &'static str {
        match self {
            FcfsShareRule::OneReplica => "one_replica",
            FcfsShareRule::RepThresh => "rep_thresh",
        }
    }
}

pub struct FcfsShare {
    pub rule: FcfsShareRule,
}

impl SelectBag for FcfsShare {
    fn select(&mut self, v: &BotView) -> Option<u32> {
        match self.rule {
            // Every task without a replica comes before any second replica; both in arrival order.
            FcfsShareRule::OneReplica => v.pool.unreplicated_bots().first().or_else(|| v.pool.ready.first()).copied(),
            FcfsShareRule::RepThresh => v.pool.ready.first().copied(),
        }
    }
}
