//! The data-grid family of [Liu10]: rigid parallel jobs of a real log, some with input data, sent by a
//! metascheduler to sites that run FCFS with advance reservations and conservative backfilling; three
//! metascheduling schemes (`policy/`) and the data-aware backfill rule (`site.rs`). Uses the shared engine,
//! resources (the reservation profile), statistics and traces; nothing of another family (ARCHITECTURE.md).
//! docs/data_grid.md gives every decision.

pub mod config;
pub mod def;
pub mod figures;
pub mod gantt;
pub mod metrics;
pub mod params;
pub mod policy;
pub mod readings;
pub mod run;
pub mod sim;
pub mod site;
pub mod summary;
pub mod sweep;
pub mod workload;

pub use config::{BackfillRule, DdConfig, DdScenario, Estimates, LocalPolicy, Scheme, Walltime};
pub use metrics::DdMetrics;
pub use run::{run_with_clock, DdDetail, DdReport, DdRun};
pub use sim::{JobRecord, Pending, Sample};
