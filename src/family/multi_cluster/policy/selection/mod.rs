//! The seven task-selection policies of [Iosup08] §2.3: which waiting tasks form an RM's next eligible set; and a
//! user's own, written as a script (`script.rs`).

mod s_bot;
mod s_t;
mod s_u_bot;
mod s_u_grr;
mod s_u_prio;
mod s_u_rr;
mod s_u_t;
mod script;

pub use script::script_error;

use crate::script::{ScriptError, ScriptSource};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// What a selection policy may look at.
pub struct SelectionView<'a> {
    /// Users with waiting tasks at this RM (user id u has rank u + 1, so ascending id is descending priority).
    pub waiting_users: &'a BTreeSet<u32>,
    /// Resource consumption of user u: CPU time of its finished task replicas plus the elapsed time of its running
    /// ones, in CPU-seconds ([Iosup08] §2.3).
    pub consumption: &'a dyn Fn(u32) -> f64,
}

/// The decision: which waiting tasks become the eligible set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selection {
    /// Every waiting task.
    AllTasks,
    /// The tasks of the earliest-arrived waiting BoT.
    OldestBot,
    /// Every waiting task of one user.
    UserTasks(u32),
    /// The tasks of the earliest-arrived waiting BoT of one user.
    UserOldestBot(u32),
    /// One task (the oldest) of every user with waiting tasks, starting with the first user after `after` in
    /// ascending id order, wrapping around.
    OneTaskPerUser { after: Option<u32> },
    /// Nothing is waiting.
    Nothing,
}

/// How the RM must index its waiting tasks for the policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueIndex {
    /// One FIFO of BoT arrivals.
    Fifo,
    /// A FIFO per user and the set of users with waiting tasks.
    PerUser,
}

/// A task-selection policy.
pub trait TaskSelection {
    /// The next eligible set, called only when the current one is empty and some task is waiting.
    fn select(&mut self, view: &SelectionView) -> Selection;
    /// The waiting-task index the policy needs.
    fn index(&self) -> QueueIndex;
    /// True when arriving tasks join the current eligible set at once (S-T).
    fn absorbs_arrivals(&self) -> bool {
        false
    }
    /// Why the policy stopped deciding (a user's script that failed or decided the impossible); the simulation
    /// stops the run when a selection leaves the eligible set empty and the policy has a failure.
    fn failure(&self) -> Option<&ScriptError> {
        None
    }
}

/// The selection policies, by their names in [Iosup08] §2.3 ("S-T", …), and a user's own, written
/// `{"script": "…"}` (docs/policies.md).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SelectionPolicy {
    ST,
    SBot,
    SUPrio,
    SUT,
    SUBot,
    SUGrr,
    SURr,
    /// A user's policy: a Rhai script (`script.rs`).
    Script(ScriptSource),
}

impl SelectionPolicy {
    pub const ALL: [SelectionPolicy; 7] = [
        SelectionPolicy::ST,
        SelectionPolicy::SBot,
        SelectionPolicy::SUPrio,
        SelectionPolicy::SUT,
        SelectionPolicy::SUBot,
        SelectionPolicy::SUGrr,
        SelectionPolicy::SURr,
    ];

    pub fn name(&self) -> &'static str {
        match self {
            SelectionPolicy::ST => "S-T",
            SelectionPolicy::SBot => "S-BoT",
            SelectionPolicy::SUPrio => "S-U-Prio",
            SelectionPolicy::SUT => "S-U-T",
            SelectionPolicy::SUBot => "S-U-BoT",
            SelectionPolicy::SUGrr => "S-U-GRR",
            SelectionPolicy::SURr => "S-U-RR",
            SelectionPolicy::Script(_) => "script",
        }
    }

    /// One line with the paper's definition ([Iosup08] §2.3).
    pub fn description(&self) -> &'static str {
        match self {
            SelectionPolicy::ST => "All waiting tasks; arriving tasks join the current eligible set.",
            SelectionPolicy::SBot => "The tasks of the oldest waiting BoT, BoT after BoT in arrival order.",
            SelectionPolicy::SUPrio => {
                "All tasks of the highest-priority user with waiting tasks (priority = Zipf rank)."
            }
            SelectionPolicy::SUT => "All tasks of the user with the lowest resource consumption.",
            SelectionPolicy::SUBot => "The oldest BoT of the user with the lowest resource consumption.",
            SelectionPolicy::SUGrr => "All waiting tasks of the next user in round-robin order.",
            SelectionPolicy::SURr => "One task of every user with waiting tasks per round.",
            SelectionPolicy::Script(_) => "Your own policy: a script forms each eligible set (docs/policies.md).",
        }
    }

    /// The one place that builds a policy.
    pub fn build(&self) -> Box<dyn TaskSelection> {
        match self {
            SelectionPolicy::ST => Box::new(s_t::SelectTasks),
            SelectionPolicy::SBot => Box::new(s_bot::SelectBots),
            SelectionPolicy::SUPrio => Box::new(s_u_prio::SelectUserPriority),
            SelectionPolicy::SUT => Box::new(s_u_t::SelectUserTasks),
            SelectionPolicy::SUBot => Box::new(s_u_bot::SelectUserBot),
            SelectionPolicy::SUGrr => Box::new(s_u_grr::SelectUserGlobalRoundRobin::default()),
            SelectionPolicy::SURr => Box::new(s_u_rr::SelectUserRoundRobin::default()),
            SelectionPolicy::Script(source) => script::build(source),
        }
    }

    /// Compiles a scripted policy and asks it what it declares; a built-in is always fine.
    pub fn check(&self) -> Result<(), ScriptError> {
        match self {
            SelectionPolicy::Script(source) => script::check(source),
            _ => Ok(()),
        }
    }

    /// The script's source, for a scripted policy.
    pub fn script(&self) -> Option<&str> {
        match self {
            SelectionPolicy::Script(source) => Some(source.as_str()),
            _ => None,
        }
    }
}

/// A built-in is written as its name, a script as `{"script": "…source…"}`.
impl Serialize for SelectionPolicy {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            SelectionPolicy::Script(source) => source.serialize(s),
            p => s.serialize_str(p.name()),
        }
    }
}

impl<'de> Deserialize<'de> for SelectionPolicy {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(PolicyVisitor)
    }
}

struct PolicyVisitor;

impl<'de> serde::de::Visitor<'de> for PolicyVisitor {
    type Value = SelectionPolicy;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a policy's name (S-T, S-BoT, …) or {\"script\": \"…\"}")
    }

    /// The names exactly as written (scenario files always were; `FromStr`, for the CLI, ignores case).
    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<SelectionPolicy, E> {
        SelectionPolicy::ALL.into_iter().find(|p| p.name() == v).ok_or_else(|| {
            E::custom(format!(
                "unknown task-selection policy {v:?}; allowed: S-T, S-BoT, S-U-Prio, S-U-T, S-U-BoT, S-U-GRR, \
                 S-U-RR, or your own as {{\"script\": \"…\"}} (docs/policies.md)"
            ))
        })
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<SelectionPolicy, A::Error> {
        ScriptSource::read_map(map).map(SelectionPolicy::Script)
    }
}

impl std::str::FromStr for SelectionPolicy {
    type Err = crate::error::NameError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        SelectionPolicy::ALL.into_iter().find(|p| p.name().eq_ignore_ascii_case(s)).ok_or_else(|| {
            crate::error::NameError::Unknown {
                what: "task-selection policy",
                given: s.to_string(),
                allowed: "S-T, S-BoT, S-U-Prio, S-U-T, S-U-BoT, S-U-GRR, S-U-RR".into(),
            }
        })
    }
}

/// The waiting user with the lowest consumption; ties go to the lower id (higher rank).
fn least_consuming(view: &SelectionView) -> Option<u32> {
    let mut best: Option<(f64, u32)> = None;
    for &u in view.waiting_users {
        let c = (view.consumption)(u);
        if best.is_none_or(|(bc, _)| c < bc) {
            best = Some((c, u));
        }
    }
    best.map(|(_, u)| u)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view<'a>(users: &'a BTreeSet<u32>, cons: &'a dyn Fn(u32) -> f64) -> SelectionView<'a> {
        SelectionView { waiting_users: users, consumption: cons }
    }

    #[test]
    fn each_policy_on_a_hand_built_queue() {
        let users: BTreeSet<u32> = [1, 4, 7].into_iter().collect();
        // User 4 has consumed least, user 1 most.
        let cons = |u: u32| match u {
            1 => 500.0,
            4 => 10.0,
            _ => 20.0,
        };
        let v = view(&users, &cons);
        assert_eq!(SelectionPolicy::ST.build().select(&v), Selection::AllTasks);
        assert!(SelectionPolicy::ST.build().absorbs_arrivals());
        assert_eq!(SelectionPolicy::SBot.build().select(&v), Selection::OldestBot);
        assert_eq!(SelectionPolicy::SUPrio.build().select(&v), Selection::UserTasks(1));
        assert_eq!(SelectionPolicy::SUT.build().select(&v), Selection::UserTasks(4));
        assert_eq!(SelectionPolicy::SUBot.build().select(&v), Selection::UserOldestBot(4));
        let mut grr = SelectionPolicy::SUGrr.build();
        assert_eq!(grr.select(&v), Selection::UserTasks(1));
        assert_eq!(grr.select(&v), Selection::UserTasks(4));
        assert_eq!(grr.select(&v), Selection::UserTasks(7));
        assert_eq!(grr.select(&v), Selection::UserTasks(1));
        let mut rr = SelectionPolicy::SURr.build();
        assert_eq!(rr.select(&v), Selection::OneTaskPerUser { after: None });
        assert_eq!(rr.select(&v), Selection::OneTaskPerUser { after: Some(1) });
        assert_eq!(rr.select(&v), Selection::OneTaskPerUser { after: Some(4) });
        for p in SelectionPolicy::ALL {
            assert_eq!(p.name().parse::<SelectionPolicy>().unwrap(), p);
            let needs_users = !matches!(p, SelectionPolicy::ST | SelectionPolicy::SBot);
            assert_eq!(p.build().index() == QueueIndex::PerUser, needs_users, "{p:?}");
        }
    }

    #[test]
    fn consumption_ties_go_to_the_higher_rank() {
        let users: BTreeSet<u32> = [3, 2].into_iter().collect();
        let cons = |_u: u32| 0.0;
        assert_eq!(SelectionPolicy::SUT.build().select(&view(&users, &cons)), Selection::UserTasks(2));
    }
}
