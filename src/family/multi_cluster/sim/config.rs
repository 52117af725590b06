//! What the run loop needs besides the workload and the clusters.

use crate::family::multi_cluster::architecture::{Architecture, EligibleSet, FcondorMove, SitePolicy};
use crate::family::multi_cluster::policy::options::PolicyOptions;
use crate::family::multi_cluster::policy::predictor::{PredictorInput, PredictorModel};
use crate::family::multi_cluster::policy::scheduling::SchedulingPolicy;
use crate::family::multi_cluster::policy::selection::SelectionPolicy;
use serde::{Deserialize, Serialize};

/// What the run loop needs besides the workload and the clusters.
#[derive(Clone, Debug, PartialEq)]
pub struct SimConfig {
    pub architecture: Architecture,
    /// csp: period of the monitoring service, s (0 = the global RM always sees the true free counts).
    pub monitoring_period: f64,
    /// When an RM forms its next eligible set.
    pub eligible_set: EligibleSet,
    /// fcondor: when a user moves to the next RM.
    pub fcondor_move: FcondorMove,
    /// sep-c and fcondor: what the sites' RMs run (the scenario's policies, or their own FCFS).
    pub site_policy: SitePolicy,
    pub selection: SelectionPolicy,
    pub scheduling: SchedulingPolicy,
    /// The readings of the policies' definitions (DFPLT's unranked clusters, WQRnx, S-U-Prio's order, RR's ring).
    pub policy_options: PolicyOptions,
    pub predictor: PredictorModel,
    pub predictor_input: PredictorInput,
    /// Maximum inaccuracy I, percent.
    pub inaccuracy: f64,
    /// What the inaccuracy perturbs: the estimate or the runtime.
    pub inaccuracy_on: InaccuracyOn,
    /// Periodic scheduling pass, s (only when information can be stale).
    pub scheduling_period: f64,
    /// The run stops at this time, s.
    pub horizon: f64,
    /// Time-series sampling interval, s.
    pub sample_interval: f64,
    /// Seed of the inaccuracy stream.
    pub seed: u64,
}

/// What the inaccuracy perturbs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InaccuracyOn {
    /// The task runs R; the scheduler's estimate is max(R(1 + E/100), 1) (the default).
    #[default]
    Estimate,
    /// The task runs max(R(1 + E/100), 1); the scheduler's estimate is R.
    Runtime,
}

impl InaccuracyOn {
    pub const ALL: [InaccuracyOn; 2] = [InaccuracyOn::Estimate, InaccuracyOn::Runtime];

    pub fn name(self) -> &'static str {
        match self {
            InaccuracyOn::Estimate => "estimate",
            InaccuracyOn::Runtime => "runtime",
        }
    }
}
