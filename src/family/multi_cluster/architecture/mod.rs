//! The resource-management architectures of [Iosup08] §2.2: who queues a task and which clusters each RM may use.

use serde::{Deserialize, Serialize};

/// How the clusters are managed together.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Architecture {
    /// SEparated Clusters: one RM and queue per cluster; each user submits to exactly one RM, its home cluster.
    #[serde(rename = "sep-c")]
    SepC,
    /// Centralized Scheduler with Processor monitoring: users submit to a global RM, which moves one task at a time
    /// to a cluster that the monitoring service reports as having an idle processor.
    #[serde(rename = "csp")]
    Csp,
    /// Condor-like with flocking: per-cluster RMs; a user keeps submitting to one RM while it starts tasks at once
    /// and moves to the next RM (round-robin) when a task has to queue.
    #[serde(rename = "fcondor")]
    Fcondor,
}

impl Architecture {
    pub const ALL: [Architecture; 3] = [Architecture::SepC, Architecture::Csp, Architecture::Fcondor];

    pub fn name(self) -> &'static str {
        match self {
            Architecture::SepC => "sep-c",
            Architecture::Csp => "csp",
            Architecture::Fcondor => "fcondor",
        }
    }

    pub fn description(self) -> &'static str {
        match self {
            Architecture::SepC => "Separated clusters: each user submits to the RM of its home cluster only.",
            Architecture::Csp => {
                "Centralized: a global queue; tasks move to clusters the monitoring service reports idle."
            }
            Architecture::Fcondor => {
                "Condor-like flocking: a user moves to the next cluster's RM when its tasks start to queue."
            }
        }
    }
}

impl std::str::FromStr for Architecture {
    type Err = crate::error::NameError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Architecture::ALL.into_iter().find(|a| a.name().eq_ignore_ascii_case(s)).ok_or_else(|| {
            crate::error::NameError::Unknown {
                what: "architecture",
                given: s.to_string(),
                allowed: "sep-c, csp, fcondor".into(),
            }
        })
    }
}

/// When an RM forms its next eligible set (a reading of [Iosup08] §2.2, docs/model.md "Readings").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EligibleSet {
    /// Once every task of the current set has been sent to a processor.
    #[default]
    Dispatched,
    /// Once every task of the current set has finished ("Only after all the tasks in the schedule are completed").
    Completed,
}

impl EligibleSet {
    pub const ALL: [EligibleSet; 2] = [EligibleSet::Dispatched, EligibleSet::Completed];

    pub fn name(self) -> &'static str {
        match self {
            EligibleSet::Dispatched => "dispatched",
            EligibleSet::Completed => "completed",
        }
    }
}

/// What the sites' own RMs run under sep-c and fcondor (a reading of [Iosup08] §2.2 and §4.3, docs/model.md
/// "Readings"); csp's global RM always runs the scenario's policies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SitePolicy {
    /// The scenario's selection and scheduling policies: *"Each RM in the system executes the same scheduling
    /// procedure"* (§2.2).
    #[default]
    Scenario,
    /// S-T and first come first served, on any free processor, with no runtime estimates: *"all sites employ the
    /// FCFS policy, without backfilling"* (§4.3).
    Fcfs,
}

impl SitePolicy {
    pub const ALL: [SitePolicy; 2] = [SitePolicy::Scenario, SitePolicy::Fcfs];

    pub fn name(self) -> &'static str {
        match self {
            SitePolicy::Scenario => "scenario",
            SitePolicy::Fcfs => "fcfs",
        }
    }
}

/// When an fcondor user moves to the next RM (a reading of [Iosup08] §2.2, docs/model.md "Readings").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FcondorMove {
    /// Task by task: the user moves as soon as one of its tasks has to queue; that task stays queued where it is.
    #[default]
    Task,
    /// BoT by BoT: each BoT goes whole to the user's RM, where its queued tasks stay; the user moves after a BoT of
    /// which some task queued, so only its next BoT goes to the next RM.
    Bot,
}

impl FcondorMove {
    pub const ALL: [FcondorMove; 2] = [FcondorMove::Task, FcondorMove::Bot];

    pub fn name(self) -> &'static str {
        match self {
            FcondorMove::Task => "task",
            FcondorMove::Bot => "bot",
        }
    }
}
