//! Scenario families: each folder holds one family's platform, policies and run loop, in one layout (`mod.rs`,
//! `def.rs`, `config.rs`, `workload.rs`, `sim/`, `policy/`, `run.rs`, `metrics.rs`, `summary.rs`, `readings.rs`,
//! `sweep.rs`, `figures/`: ARCHITECTURE.md, "How to add a family"); what families share (engine, workload models,
//! metrics skeleton, scenario, protocol, page controls) stays at the crate's top. No family uses another family's
//! code (ARCHITECTURE.md).

pub mod contract;
pub mod data_grid;
pub mod desktop_grid;
pub mod multi_cluster;
