//! Resources a family may build its platform from: clusters of identical processors with relative speeds, the set
//! of clusters with a free processor in speed order (`freeset`), and an indexed heap of estimated end times over a
//! cluster's processors (`endheap`), a Gantt chart of planned work over a cluster's processors (`gantt`), and the
//! availability profile of a site for advance reservations and conservative backfilling (`profile`). Knows no family.

pub mod endheap;
pub mod freeset;
pub mod gantt;
pub mod profile;

use serde::{Deserialize, Serialize};

/// A cluster: `processors` identical processors of relative speed `speed` (1.0 = reference processor; a task of
/// reference runtime R runs R / speed seconds here, the SPEC CPU model of [Iosup08] §2.1).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cluster {
    pub name: String,
    pub processors: u32,
    pub speed: f64,
}

/// Σ processors × speed: the platform's capacity in reference processors.
pub fn capacity(clusters: &[Cluster]) -> f64 {
    clusters.iter().map(|c| f64::from(c.processors) * c.speed).sum()
}
