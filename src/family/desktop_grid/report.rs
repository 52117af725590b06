//! The report of a desktop-grid run, with the skeleton of `run::Report`: version, scenario, workload summary,
//! metrics, wall time.

use super::config::DgScenario;
use super::metrics::DgMetrics;
use serde::{Deserialize, Serialize};

/// What the platform and the workload turned out to be.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DgWorkloadSummary {
    pub bots: u64,
    pub tasks: u64,
    /// Σ task work, s on a machine of power 1.
    pub total_work: f64,
    pub machines: u64,
    /// ΣP_i.
    pub total_power: f64,
    /// ΣEP_i = Σ P_i · A_i ([Anglano09] Eq. 9).
    pub effective_power: f64,
    /// C = AS / ΣEP_i, s (Eq. 8).
    pub occupancy: f64,
    /// λ = L / C, BoTs per second (Eq. 7).
    pub bot_rate: f64,
    /// Load factor L asked for.
    pub load: f64,
    /// Ā = mean of the A_i (Eq. 2).
    pub mean_availability: f64,
    pub warnings: Vec<String>,
}

/// The full report (the JSON of `bagsim run --out` for a desktop-grid scenario).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DgReport {
    pub bagsim_version: String,
    pub scenario: DgScenario,
    pub workload: DgWorkloadSummary,
    pub metrics: DgMetrics,
    /// Wall-clock time of the simulation, s; the only figure that varies between identical runs.
    pub wall_time_s: f64,
}
