//! Scenario families: each folder holds one family's platform, policies and run loop; what families share
//! (engine, workload models, metrics skeleton, scenario, protocol, page controls) stays at the crate's top.
//! No family uses another family's code (ARCHITECTURE.md).

pub mod contract;
pub mod data_grid;
pub mod desktop_grid;
pub mod multi_cluster;

use serde::{Deserialize, Serialize};

/// Which family a scenario belongs to (`"family"` in the scenario JSON; absent = multi_cluster).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Family {
    /// Multi-cluster grids of [Iosup08].
    #[default]
    MultiCluster,
    /// Desktop grids of [Anglano09].
    DesktopGrid,
    /// Data grids of [Liu10].
    DataGrid,
}

impl Family {
    /// The family's name in a scenario file.
    pub fn name(self) -> &'static str {
        match self {
            Family::MultiCluster => "multi_cluster",
            Family::DesktopGrid => "desktop_grid",
            Family::DataGrid => "data_grid",
        }
    }

    pub fn is_multi_cluster(&self) -> bool {
        *self == Family::MultiCluster
    }
}
