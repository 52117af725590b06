//! Scenario families: each folder holds one family's platform, policies and run loop; what families share
//! (engine, workload models, metrics skeleton, scenario, protocol, page controls) stays at the crate's top.
//! No family uses another family's code (ARCHITECTURE.md).

pub mod contract;
pub mod data_grid;
pub mod desktop_grid;
pub mod multi_cluster;
