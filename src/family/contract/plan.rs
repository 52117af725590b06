//! What a study's points are (`Kind`, `Point`, `Axis`; `study` re-exports them) and a family's figure planned as
//! one (`FigurePlan`, which the CLI writes as a manifest of some shards): a family's figure code plans and merges its
//! studies with these alone, so that it never imports the registry that lists it. Knows no family.

pub use crate::error::PointError;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One `--set KEY=V1,V2,…` axis: the key as given and its values, in order.
pub type Axis = (String, Vec<String>);

/// One point of a study: its axis values and what it runs, whole: a scenario with its seed (a sweep, `reproduce`)
/// or a family's figure job (`dg-figure`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Point {
    pub labels: Vec<String>,
    pub job: Value,
}

/// The kinds of study: what a point's job is, how it runs and how the outcomes merge. Written in a manifest by
/// these names (`"kind": "dg-figure"`), as before they were typed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// A point is a scenario; its outcome a `RunRow`.
    #[default]
    Sweep,
    /// A run of a figure of [Iosup08] §5 (`bagsim figure multi_cluster`, `reproduce`).
    Reproduce,
    /// The same under readings.
    ReproduceReadings,
    /// A bar of a figure of [Anglano09] §IV-C (`bagsim figure desktop_grid`, `dg-figure`).
    DgFigure,
    DgReadings,
    /// A run of a figure of [Liu10] §IV (`bagsim figure data_grid`, `dd-figure`).
    DdFigure,
    DdReadings,
}

/// A family's figure as a study, before the CLI makes it a manifest of some shards: its kind, its kind's own
/// `spec` (what the merge needs), its axes (named, their values in the points' labels) and its points.
#[derive(Clone, Debug, PartialEq)]
pub struct FigurePlan {
    pub kind: Kind,
    pub spec: Value,
    pub axes: Vec<Axis>,
    pub points: Vec<Point>,
}
