//! What a study's points are (`Kind`, `Point`, `Axis`; `study` re-exports them) and a family's figure planned as
//! one (`FigurePlan`, which the CLI writes as a manifest of some shards): a family's figure code plans and merges its
//! studies with these alone, so that it never imports the registry that lists it. Knows no family.

use crate::error::ScenarioError;
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

/// Why a point of a study gave no outcome. A shard's file carries it as its message (`{"Err": "…"}`, as before it
/// was typed), so one read back from a file is `Reported`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(into = "String", from = "String")]
pub enum PointError {
    /// The point's job is not one its study's kind runs (a damaged manifest, a figure that does not exist).
    Job(String),
    /// The point's scenario is refused, or its run stopped (a script's impossible decision, a budget).
    Run(ScenarioError),
    /// A file of the point (its jobs.csv) could not be written: the path and the system's reason.
    File(String),
    /// A failure read back from a shard's file: its message.
    Reported(String),
}

impl std::fmt::Display for PointError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PointError::Job(m) | PointError::File(m) | PointError::Reported(m) => f.write_str(m),
            PointError::Run(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PointError {}

impl From<ScenarioError> for PointError {
    fn from(e: ScenarioError) -> PointError {
        PointError::Run(e)
    }
}

impl From<PointError> for String {
    fn from(e: PointError) -> String {
        e.to_string()
    }
}

impl From<String> for PointError {
    fn from(message: String) -> PointError {
        PointError::Reported(message)
    }
}
