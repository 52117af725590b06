//! The desktop-grid family of [Anglano09]: volatile machines (Table II), BoTs of the Table III mixes, WQR-FT with
//! checkpoints and five BoT selection policies. Uses the shared engine, workload type, statistics and scenario;
//! nothing of `family::multi_cluster` (ARCHITECTURE.md). docs/desktop_grid.md gives every decision.

pub mod availability;
pub mod capacity;
pub mod config;
pub mod def;
pub mod figures;
pub mod machines;
pub mod metrics;
pub mod policy;
pub mod readings;
pub mod report;
pub mod run;
pub mod sim;
pub mod summary;
pub mod sweep;
pub mod workload;
pub mod wqr_ft;

pub use config::{DgConfig, DgScenario};
pub use report::{DgReport, DgWorkloadSummary};
#[cfg(not(target_arch = "wasm32"))]
pub use run::run;
pub use run::{report, run_with_clock, settings, simulation, DgDetail, DgRun, MAX_SAMPLES};
pub use sim::{DgSample, DgSettings, DgSimulation};
