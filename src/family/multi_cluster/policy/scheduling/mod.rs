//! The eight task-scheduling policies of [Iosup08] §2.4 (Table 1) plus WQR-n: which eligible task goes to which
//! cluster.

mod dfplt;
mod ect;
mod fcfs;
mod fpf;
mod fplt;
mod replicating;
mod script;

#[cfg(feature = "scripts")]
pub use script::ScriptedScheduling;
pub use script::{script_error, ScriptSource};

use super::options::PolicyOptions;
use crate::error::NameError;
use crate::resources::freeset::FreeSet;
use crate::script::ScriptError;
use serde::{Deserialize, Serialize};

/// How much a policy knows of a piece of information ([Iosup08] Table 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Info {
    /// Known a priori.
    K,
    /// From historical records.
    H,
    /// Unknown.
    U,
}

impl Info {
    /// In words: "known", "from history", "unknown".
    pub fn words(self) -> &'static str {
        match self {
            Info::K => "known",
            Info::H => "from history",
            Info::U => "unknown",
        }
    }
}

/// The order in which a policy takes tasks from the eligible set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TaskOrder {
    /// The initial order of the eligible set.
    Fcfs,
    /// Largest runtime estimate first (ties: earlier task).
    LargestFirst,
    /// Smallest runtime estimate first (ties: earlier task).
    ShortestFirst,
}

/// What a policy may look at when it places a task.
pub struct ResourceView<'a> {
    /// Current simulated time, s.
    pub now: f64,
    /// Relative speed of every cluster.
    pub speed: &'a [f64],
    /// The clusters this RM schedules onto, fastest first (equal speeds in index order).
    pub managed: &'a [u32],
    /// Managed clusters with a free processor, as the RM sees them (its information may be stale), fastest first.
    pub free: &'a FreeSet,
    /// The same clusters in the platform's listed order, for policies that know no speeds.
    pub free_listed: &'a FreeSet,
    /// The same information as counts per cluster (free processors as the RM sees them).
    pub free_count: &'a [u32],
    /// The earliest time (≥ now) a task planned now could start on a cluster, from the RM's Gantt chart of the
    /// estimated ends of the cluster's running tasks and of the tasks already planned there. Only meaningful for
    /// policies with `uses_end_estimates`.
    pub free_at: &'a dyn Fn(u32) -> f64,
    /// Per cluster: tasks planned there that wait in its queue for a processor (ECT's cluster queues).
    pub queued: &'a [u32],
}

/// The decision for the task at the head of the eligible order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Send it to this cluster now.
    Start(u32),
    /// Send it to this cluster's queue, behind the tasks planned there; the RM goes on with the next task.
    Reserve(u32),
    /// Keep it, and everything behind it, until the next scheduling pass.
    Wait,
}

/// Which runtime figure the simulation hands to the policy as the task's estimate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Estimate {
    /// The runtime as known a priori, through the inaccuracy model ([Iosup08] §5.3).
    Known,
    /// A prediction from the runtimes of completed tasks ([Iosup08] §3.7).
    Predicted,
    /// Not used.
    None,
}

/// A task-scheduling policy.
pub trait TaskScheduling {
    fn order(&self) -> TaskOrder;
    /// Places the task whose runtime estimate (reference processor, s) is `estimate`; called only when `free`
    /// is not empty.
    fn choose(&mut self, estimate: f64, view: &ResourceView) -> Choice;
    /// Replicas beyond the original a task may get once no task is waiting (0 = no replication).
    fn max_replicas(&self) -> u32 {
        0
    }
    /// Which estimate the policy wants.
    fn estimate(&self) -> Estimate;
    /// True when the Gantt chart behind `ResourceView::free_at` must be maintained.
    fn uses_end_estimates(&self) -> bool {
        false
    }
    /// A task with runtime estimate `estimate` finished on `cluster` after `elapsed` seconds.
    fn observe_completion(&mut self, _cluster: u32, _estimate: f64, _elapsed: f64) {}
    /// Why the policy stopped deciding (a user's script that failed or decided the impossible); the simulation
    /// stops the run when a policy that waits has a failure.
    fn failure(&self) -> Option<&ScriptError> {
        None
    }
}

/// The scheduling policies ([Iosup08] Table 1), written in scenarios as their names: "ECT", "WQR-4", …, and a
/// user's own, written `{"script": "…"}` (docs/policies.md).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SchedulingPolicy {
    Ect,
    Fplt,
    Rr,
    /// Work Queue with Replication, up to `replicas` extra copies per task (WQR-1 = RR).
    Wqr {
        replicas: u32,
    },
    /// The paper's naming "WQRnx" (its figures show WQR4x): n replicas or n copies in all, as
    /// `policy_options.wqr_nx` reads it.
    WqrX {
        n: u32,
    },
    Dfplt,
    EctP,
    Stfr,
    Fpf,
    /// A user's policy: a Rhai script (`script.rs`).
    Script(ScriptSource),
}

/// Largest replica count accepted for WQR-n, and largest n of "WQRnx".
pub const MAX_REPLICAS: u32 = 16;

/// Smallest n of "WQRnx": under the `copies` reading WQR1x would make no replica (write WQR-1 or RR instead).
pub const MIN_NX: u32 = 2;

/// The sites' own policy under `architecture.site_policy = "fcfs"` ([Iosup08] §4.3, *"all sites employ the FCFS
/// policy"*): tasks in the order they reached the site, each to any free processor of it. Not one of Table 1's
/// policies, so not in the menu.
pub fn site_fcfs() -> Box<dyn TaskScheduling> {
    Box::new(fcfs::SiteFcfs)
}

impl SchedulingPolicy {
    /// The policies of [Iosup08] Table 1 with the paper's WQR4x.
    pub const ALL: [SchedulingPolicy; 8] = [
        SchedulingPolicy::Ect,
        SchedulingPolicy::Fplt,
        SchedulingPolicy::Rr,
        SchedulingPolicy::WqrX { n: 4 },
        SchedulingPolicy::Dfplt,
        SchedulingPolicy::EctP,
        SchedulingPolicy::Stfr,
        SchedulingPolicy::Fpf,
    ];

    /// The page's menu: the paper's eight and WQR-n with a replica count of one's own.
    pub const MENU: [SchedulingPolicy; 9] = [
        SchedulingPolicy::Ect,
        SchedulingPolicy::Fplt,
        SchedulingPolicy::Rr,
        SchedulingPolicy::WqrX { n: 4 },
        SchedulingPolicy::Wqr { replicas: 2 },
        SchedulingPolicy::Dfplt,
        SchedulingPolicy::EctP,
        SchedulingPolicy::Stfr,
        SchedulingPolicy::Fpf,
    ];

    /// The name a scenario writes (`WQR-n`, or `WQRnx` as written); every menu, list and label takes it from here.
    pub fn name(&self) -> &'static str {
        const WQR: [&str; MAX_REPLICAS as usize] = [
            "WQR-1", "WQR-2", "WQR-3", "WQR-4", "WQR-5", "WQR-6", "WQR-7", "WQR-8", "WQR-9", "WQR-10", "WQR-11",
            "WQR-12", "WQR-13", "WQR-14", "WQR-15", "WQR-16",
        ];
        const WQR_X: [&str; (MAX_REPLICAS - MIN_NX + 1) as usize] = [
            "WQR2x", "WQR3x", "WQR4x", "WQR5x", "WQR6x", "WQR7x", "WQR8x", "WQR9x", "WQR10x", "WQR11x", "WQR12x",
            "WQR13x", "WQR14x", "WQR15x", "WQR16x",
        ];
        match self {
            SchedulingPolicy::Ect => "ECT",
            SchedulingPolicy::Fplt => "FPLT",
            SchedulingPolicy::Rr => "RR",
            SchedulingPolicy::Wqr { replicas } => {
                replicas.checked_sub(1).and_then(|i| WQR.get(i as usize).copied()).unwrap_or("WQR-n")
            }
            SchedulingPolicy::WqrX { n } => {
                n.checked_sub(MIN_NX).and_then(|i| WQR_X.get(i as usize).copied()).unwrap_or("WQRnx")
            }
            SchedulingPolicy::Dfplt => "DFPLT",
            SchedulingPolicy::EctP => "ECT-P",
            SchedulingPolicy::Stfr => "STFR",
            SchedulingPolicy::Fpf => "FPF",
            SchedulingPolicy::Script(_) => "script",
        }
    }

    /// The policy without its parameter: `WQR` for every WQR-n, else its name (the page's menu; WQR4x is its own
    /// entry).
    pub fn kind(&self) -> &'static str {
        match self {
            SchedulingPolicy::Wqr { .. } => "WQR",
            p => p.name(),
        }
    }

    /// (resource information, task information), [Iosup08] Table 1.
    /// A script is counted as knowing both: it reads the view and the estimate it declares.
    pub fn information(&self) -> (Info, Info) {
        match self {
            SchedulingPolicy::Ect | SchedulingPolicy::Fplt | SchedulingPolicy::Script(_) => (Info::K, Info::K),
            SchedulingPolicy::Rr | SchedulingPolicy::Wqr { .. } | SchedulingPolicy::WqrX { .. } => (Info::U, Info::U),
            SchedulingPolicy::Dfplt => (Info::H, Info::K),
            SchedulingPolicy::EctP => (Info::K, Info::H),
            SchedulingPolicy::Stfr => (Info::U, Info::K),
            SchedulingPolicy::Fpf => (Info::K, Info::U),
        }
    }

    /// One line with the paper's definition ([Iosup08] §2.4).
    pub fn description(&self) -> &'static str {
        match self {
            SchedulingPolicy::Ect => {
                "Earliest Completion Time: each task to the cluster where it would finish first, counting the time \
                 until a processor there frees."
            }
            SchedulingPolicy::Fplt => "Fastest Processor Largest Task: the largest task to the fastest free processor.",
            SchedulingPolicy::Rr => {
                "Round-robin Replication: tasks in order on any free processor; once none waits, replicate each \
                 running task once."
            }
            SchedulingPolicy::Wqr { .. } => "Work Queue with Replication: as RR, but up to n replicas per task.",
            SchedulingPolicy::WqrX { .. } => {
                "The paper's WQRnx (its figures show WQR4x): WQR with n replicas per task (or n copies in all, a \
                 reading)."
            }
            SchedulingPolicy::Dfplt => {
                "Dynamic FPLT: the largest task to the free cluster with the best speed observed from completed tasks."
            }
            SchedulingPolicy::EctP => "ECT with runtimes predicted from completed tasks instead of known.",
            SchedulingPolicy::Stfr => {
                "Shortest Task First with Replication: shortest task first on any free processor; replicate once."
            }
            SchedulingPolicy::Fpf => "Fastest Processor First: tasks in order, each to the fastest free processor.",
            SchedulingPolicy::Script(_) => "Your own policy: a script places each task (docs/policies.md).",
        }
    }

    /// The one place that builds a policy, under the scenario's policy readings.
    pub fn build(&self, options: &PolicyOptions) -> Box<dyn TaskScheduling> {
        match self {
            SchedulingPolicy::Ect => Box::new(ect::EarliestCompletion { predicted: false }),
            SchedulingPolicy::EctP => Box::new(ect::EarliestCompletion { predicted: true }),
            SchedulingPolicy::Fplt => Box::new(fplt::FastestProcessorLargestTask),
            SchedulingPolicy::Dfplt => Box::new(dfplt::DynamicFplt::new(options.dfplt_unranked)),
            SchedulingPolicy::Fpf => Box::new(fpf::FastestProcessorFirst),
            SchedulingPolicy::Rr => {
                Box::new(replicating::Replicating::new(TaskOrder::Fcfs, 1, Estimate::None, options.rr_ring))
            }
            SchedulingPolicy::Wqr { replicas } => {
                Box::new(replicating::Replicating::new(TaskOrder::Fcfs, *replicas, Estimate::None, options.rr_ring))
            }
            SchedulingPolicy::WqrX { n } => Box::new(replicating::Replicating::new(
                TaskOrder::Fcfs,
                options.wqr_nx.replicas(*n),
                Estimate::None,
                options.rr_ring,
            )),
            SchedulingPolicy::Stfr => {
                Box::new(replicating::Replicating::new(TaskOrder::ShortestFirst, 1, Estimate::Known, options.rr_ring))
            }
            SchedulingPolicy::Script(source) => script::build(source),
        }
    }

    /// Compiles a scripted policy and asks it what it declares; a built-in is always fine.
    pub fn check(&self) -> Result<(), ScriptError> {
        match self {
            SchedulingPolicy::Script(source) => script::check(source),
            _ => Ok(()),
        }
    }

    /// True for the policies that go round the clusters (RR, WQR-n, WQRnx, STFR: no resource information), whose
    /// ring order `policy_options.rr_ring` reads.
    pub fn rings(&self) -> bool {
        matches!(
            self,
            SchedulingPolicy::Rr
                | SchedulingPolicy::Wqr { .. }
                | SchedulingPolicy::WqrX { .. }
                | SchedulingPolicy::Stfr
        )
    }

    /// True when the policy asks for predicted runtimes (ECT-P, a script whose `estimate()` is "predicted"), so
    /// that the scenario's predictor is read.
    pub fn predicts(&self) -> bool {
        match self {
            SchedulingPolicy::EctP => true,
            SchedulingPolicy::Script(source) => script::predicts(source),
            _ => false,
        }
    }

    /// The script's source, for a scripted policy.
    pub fn script(&self) -> Option<&str> {
        match self {
            SchedulingPolicy::Script(source) => Some(&source.0),
            _ => None,
        }
    }
}

impl std::fmt::Display for SchedulingPolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            // Beyond the named range (only code builds such a policy; a scenario cannot).
            SchedulingPolicy::Wqr { replicas } if !(1..=MAX_REPLICAS).contains(replicas) => {
                write!(f, "WQR-{replicas}")
            }
            SchedulingPolicy::WqrX { n } if !(MIN_NX..=MAX_REPLICAS).contains(n) => write!(f, "WQR{n}x"),
            p => f.write_str(p.name()),
        }
    }
}

impl std::str::FromStr for SchedulingPolicy {
    type Err = NameError;
    fn from_str(s: &str) -> Result<Self, NameError> {
        let up = s.trim().to_ascii_uppercase();
        let out_of_range = |rule: String| NameError::OutOfRange { given: s.to_string(), rule };
        Ok(match up.as_str() {
            "ECT" => SchedulingPolicy::Ect,
            "FPLT" => SchedulingPolicy::Fplt,
            "RR" => SchedulingPolicy::Rr,
            "DFPLT" => SchedulingPolicy::Dfplt,
            "ECT-P" => SchedulingPolicy::EctP,
            "STFR" => SchedulingPolicy::Stfr,
            "FPF" => SchedulingPolicy::Fpf,
            _ => {
                // "WQR-n" is n replicas; "WQRnx" (the paper's figures) is kept as written, and what its n counts is
                // the reading policy_options.wqr_nx, one rule for every n.
                let x = up.strip_prefix("WQR").filter(|n| !n.starts_with('-')).and_then(|n| n.strip_suffix('X'));
                if let Some(n) = x {
                    return match n.parse::<u32>() {
                        Ok(n) if (MIN_NX..=MAX_REPLICAS).contains(&n) => Ok(SchedulingPolicy::WqrX { n }),
                        _ => Err(out_of_range(format!(
                            "the n of WQRnx must be {MIN_NX}..{MAX_REPLICAS} (for one replica write WQR-1 or RR)"
                        ))),
                    };
                }
                match up.strip_prefix("WQR-").or_else(|| up.strip_prefix("WQR")).map(str::parse::<u32>) {
                    Some(Ok(replicas)) if (1..=MAX_REPLICAS).contains(&replicas) => SchedulingPolicy::Wqr { replicas },
                    Some(_) => {
                        return Err(out_of_range(format!("the replica count of WQR-n must be 1..{MAX_REPLICAS}")))
                    }
                    None => {
                        return Err(NameError::Unknown {
                            what: "task-scheduling policy",
                            given: s.to_string(),
                            allowed: "ECT, FPLT, RR, WQR-n (n = 1..16), WQRnx (n = 2..16, e.g. WQR4x), DFPLT, ECT-P, \
                                      STFR, FPF, or your own as {\"script\": \"…\"} (docs/policies.md)"
                                .into(),
                        })
                    }
                }
            }
        })
    }
}

/// A built-in is written as its name, a script as `{"script": "…source…"}`.
impl Serialize for SchedulingPolicy {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            SchedulingPolicy::Script(source) => source.serialize(s),
            p => s.collect_str(p),
        }
    }
}

impl<'de> Deserialize<'de> for SchedulingPolicy {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(PolicyVisitor)
    }
}

struct PolicyVisitor;

impl<'de> serde::de::Visitor<'de> for PolicyVisitor {
    type Value = SchedulingPolicy;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a policy's name (ECT, FPLT, …) or {\"script\": \"…\"}")
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<SchedulingPolicy, E> {
        v.parse().map_err(E::custom)
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<SchedulingPolicy, A::Error> {
        ScriptSource::read_map(map).map(SchedulingPolicy::Script)
    }
}

#[cfg(test)]
mod tests;
