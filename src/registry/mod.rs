//! The list of scenario families: the one place a family is registered (ARCHITECTURE.md, "How to add a family").
//! `families!` (families.rs) generates from it the family enum, the scenario (the seed and one family's section),
//! `AnyRun`, `AnyReport`, `AnyDetail` and every dispatch to the family's `FamilyDef`. Everything that drives a run
//! (the CLI, the worker, the tests) goes through `AnyRun`, which implements the run contract
//! (`family::contract::FamilyRun`) for the scenario's family.

mod families;

use crate::family::contract::{ErrorKind, FamilyDef, Param, PointError, ScenarioError, Unused};
use crate::family::desktop_grid::figures::{Bar, BarJob};
use crate::trace::TraceSize;
use serde::{Deserialize, Serialize};

crate::families! {
    /// Multi-cluster grids of [Iosup08] (the default: its keys are a file's top level).
    MultiCluster(multi_cluster, multi_cluster_mut) => crate::family::multi_cluster::def::Def,
    /// Desktop grids of [Anglano09].
    DesktopGrid(desktop_grid, desktop_grid_mut) => crate::family::desktop_grid::def::Def,
    /// Data grids of [Liu10].
    DataGrid(data_grid, data_grid_mut) => crate::family::data_grid::def::Def,
}

// The multi-cluster section's types, under the names `crate::scenario` has always given them (the page and the
// tests still use them).
pub use crate::family::multi_cluster::config::{
    ArchitectureConfig, McScenario, PredictorConfig, TraceConfig, WorkloadConfig, DAY, MAX_PERIOD,
};

impl From<McScenario> for Scenario {
    fn from(multi_cluster: McScenario) -> Scenario {
        Scenario::MultiCluster(multi_cluster)
    }
}

impl Scenario {
    /// The multi-cluster section, for what only that family has (workload generation and views); an error names
    /// the scenario's family otherwise.
    pub fn as_multi_cluster(&self) -> Result<&McScenario, ScenarioError> {
        self.multi_cluster().ok_or_else(|| {
            ScenarioError::new(
                ErrorKind::Inconsistent,
                "family",
                format!("{} has no multi-cluster workload; this needs family multi_cluster", self.family().name()),
            )
        })
    }
}

/// The keys every scenario has, whatever its family; `families` lists the family names.
pub fn common(families: &'static str) -> [Param; 2] {
    [
        Param {
            path: "seed",
            unit: "",
            allowed: "0 – 2^64−1",
            meaning: "seed of every random stream; same seed, same workload under every policy",
        },
        Param {
            path: "family",
            unit: "",
            allowed: families,
            meaning: "scenario family: the multi-cluster grid of [Iosup08] (default), the desktop grid of [Anglano09] \
                      or the data grid of [Liu10]",
        },
    ]
}

/// A value of the wrong kind where a name was expected (`"mix": 5`, `"family": null`) reads in serde_json as
/// "expected value"; the refusal says instead which names the field allows, from the documented parameters.
pub fn with_allowed<'a>(e: ScenarioError, params: impl IntoIterator<Item = &'a Param>) -> ScenarioError {
    if !e.message.starts_with("expected value") {
        return e;
    }
    match params.into_iter().find(|p| p.path == e.field) {
        Some(p) => ScenarioError {
            kind: ErrorKind::NotAllowed,
            message: format!("not one of the allowed values ({}); {}", p.allowed, e.message),
            ..e
        },
        None => e,
    }
}

pub use crate::family::contract::build;

/// The keys of `s` whose value changes nothing under its other settings.
pub fn unused(s: &Scenario) -> Vec<Unused> {
    s.unused()
}

/// A warning for each key of `s` that is set away from its family's default but changes nothing under the other
/// settings: the summary then does not read as if it applied.
pub fn unused_warnings(s: &Scenario) -> Vec<String> {
    crate::family::contract::said(s.unused())
}

/// What a run of the scenario will cost, estimated before anything runs (docs/budget.md): the events it takes and
/// what it holds in memory, each with the key that drives it. `trace` is the size of the trace the scenario names
/// (`workload.trace.path`, `data_grid.trace`) when it has been read; the bundled log's is known. The one estimate
/// the CLI (`run`, every `sweep` point), the worker and the page check (`Estimate::check`) and show.
pub fn estimate(s: &Scenario, trace: Option<&TraceSize>) -> crate::family::contract::Estimate {
    s.estimate(trace)
}

/// The line shown under the page's run bar before Run ("Before Run: …"), and whether Run would be refused: the
/// estimate on the trace the scenario names when `imported` holds it (its name and size), its time from
/// `seconds_per_event` (the last run timed in this tab, `Estimate::summary_timed`). A scenario that names a trace
/// not imported is refused, as is one over budget, naming the key that drives it.
pub fn before_run(
    s: &Scenario,
    imported: Option<(&str, &TraceSize)>,
    seconds_per_event: Option<f64>,
) -> (String, bool) {
    let Some(e) = estimate_imported(s, imported) else {
        return (format!("Before Run: {}", missing_trace(s.trace_named().unwrap_or("a trace"))), true);
    };
    match e.check() {
        Err(err) => (format!("Before Run: over budget, Run is refused: {err}"), true),
        Ok(()) => (format!("Before Run: {}.", e.summary_timed(seconds_per_event)), false),
    }
}

/// The estimate of `s` where the page's worker holds the trace `imported` (its name and size): on that trace when
/// `s` replays it; None when `s` names a trace that is not the one imported.
pub fn estimate_imported(
    s: &Scenario,
    imported: Option<(&str, &TraceSize)>,
) -> Option<crate::family::contract::Estimate> {
    match s.trace_named() {
        None => Some(s.estimate(None)),
        Some(name) => imported.filter(|(n, _)| *n == name).map(|(_, size)| s.estimate(Some(size))),
    }
}

/// What a scenario that replays `name`, a trace not imported in the page, needs (a link or a reload keeps the
/// settings, not the file).
pub fn missing_trace(name: &str) -> String {
    format!("this scenario replays {name}, which is not loaded here: import the file in the Workload lab, then Run.")
}

/// Why the page's worker refuses to build a run, as the page says it: a run over budget is "refused before it
/// started", naming the key that drives it (the estimate under the run bar gives the count and the limit).
pub fn refusal(e: &ScenarioError) -> String {
    match e.kind {
        ErrorKind::OverBudget => format!("Refused before it started: over budget at {} (see below).", e.field),
        _ => e.to_string(),
    }
}

/// The trace a scenario's run reads, by the name the scenario gives it, when it is not the bundled log.
pub fn trace_named(s: &Scenario) -> Option<&str> {
    s.trace_named()
}

/// A log's rigid jobs replayed whole, each on as many processors as it asked: the data grid's scenario of one site
/// of `processors` processors, no input data and `jobs` jobs of the log `trace` (the workload lab's "replay in
/// the data grid").
pub fn rigid_replay(trace: String, processors: u32, jobs: u32, seed: u64) -> Scenario {
    let sites = vec![processors];
    let cfg = crate::family::data_grid::DdConfig { trace, sites, data_share: 0.0, jobs, ..Default::default() };
    Scenario::DataGrid(crate::family::data_grid::DdScenario::new(seed, cfg))
}

/// Runs a scenario of any family natively.
#[cfg(not(target_arch = "wasm32"))]
pub fn run_any(s: &Scenario) -> Result<AnyReport, ScenarioError> {
    let start = std::time::Instant::now();
    run_any_with_clock(s, &move || start.elapsed().as_secs_f64())
}

/// The readings of a family: the decisions its paper leaves open, as scenario keys with named values.
pub fn readings(family: Family) -> &'static [crate::readings::Reading] {
    family.readings()
}

/// A sweep's `--set KEY` as the JSON path it sets in a scenario of `family` (e.g. `load` → `workload.load`).
pub fn sweep_path(family: Family, key: &str) -> String {
    family.sweep_path(key)
}

/// The CSV columns of a sweep of `family`, after the axis columns.
pub fn sweep_header(family: Family) -> String {
    family.sweep_header()
}

/// One job that a pool's worker (`ui/pool.rs`) runs whole and the page's own worker never does: a job of a family's
/// paper figure, with the family's own code (a desktop-grid bar adds seeds until its intervals are narrow enough; a
/// multi-cluster figure's jobs are plain runs, `ToWorker::Run`), or a scenario's per-task records.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum AnyFigureJob {
    DesktopGrid(Box<BarJob>),
    /// The per-task (per-job) records of a run of this scenario in Batsim's `jobs.csv` columns, the bytes `bagsim run
    /// --jobs` writes (`family::contract::jobs_in_memory`): the page's download of a run's records.
    Records(#[serde(with = "tagged")] Box<Scenario>),
    /// The tape of a run of this scenario (`family::contract::tape_of`, docs/story.md): the page's Gantt view and
    /// its tasks' stories.
    Tape(#[serde(with = "tagged")] Box<Scenario>),
}

/// What such a job gives.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum AnyFigureResult {
    DesktopGrid(Box<Bar>),
    /// The CSV text of `AnyFigureJob::Records`.
    Records(String),
    /// The tape of `AnyFigureJob::Tape`.
    Tape(Box<crate::story::Tape>),
}

impl AnyFigureResult {
    /// A desktop-grid bar, if that is what came.
    pub fn bar(self) -> Option<Bar> {
        match self {
            AnyFigureResult::DesktopGrid(bar) => Some(*bar),
            AnyFigureResult::Records(_) | AnyFigureResult::Tape(_) => None,
        }
    }

    /// A run's per-task records, if that is what came.
    pub fn records(self) -> Option<String> {
        match self {
            AnyFigureResult::Records(csv) => Some(csv),
            AnyFigureResult::DesktopGrid(_) | AnyFigureResult::Tape(_) => None,
        }
    }

    /// A run's tape, if that is what came.
    pub fn tape(self) -> Option<crate::story::Tape> {
        match self {
            AnyFigureResult::Tape(t) => Some(*t),
            AnyFigureResult::DesktopGrid(_) | AnyFigureResult::Records(_) => None,
        }
    }
}

impl AnyFigureJob {
    /// Runs the job; `clock` gives seconds; `imported` is the trace the worker holds (a scenario may replay it).
    pub fn run(
        &self,
        clock: &dyn Fn() -> f64,
        imported: Option<(&str, &crate::trace::Trace)>,
    ) -> Result<AnyFigureResult, PointError> {
        use crate::family::contract::JobsError;
        match self {
            AnyFigureJob::DesktopGrid(job) => job.run(clock).map(|b| AnyFigureResult::DesktopGrid(Box::new(b))),
            AnyFigureJob::Records(scenario) => {
                let mut run = AnyRun::build(scenario, imported)?;
                crate::family::contract::jobs_in_memory(&mut run).map(AnyFigureResult::Records).map_err(|e| match e {
                    JobsError::Run(e) => PointError::Run(e),
                    e => PointError::Job(e.to_string()),
                })
            }
            AnyFigureJob::Tape(scenario) => {
                use crate::family::contract::TapeError;
                let mut run = AnyRun::build(scenario, imported)?;
                crate::family::contract::tape_of(&mut run).map(|t| AnyFigureResult::Tape(Box::new(t))).map_err(|e| {
                    match e {
                        TapeError::Run(e) => PointError::Run(e),
                        e => PointError::Job(e.to_string()),
                    }
                })
            }
        }
    }
}

#[cfg(all(test, not(feature = "scripts"), not(target_arch = "wasm32")))]
mod no_engine;

/// A boxed scenario as it crosses the worker boundary (`#[serde(with = "crate::registry::tagged")]`): under its
/// family's tag (`Scenario::serialize_tagged`), which the worker reads without buffering the message.
pub mod tagged {
    use super::Scenario;

    #[allow(clippy::borrowed_box)]
    pub fn serialize<S: serde::Serializer>(s: &Box<Scenario>, serializer: S) -> Result<S::Ok, S::Error> {
        s.serialize_tagged(serializer)
    }

    pub fn deserialize<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Box<Scenario>, D::Error> {
        Scenario::deserialize_tagged(deserializer).map(Box::new)
    }
}
