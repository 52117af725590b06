//! The list of scenario families: the one place a family is registered (ARCHITECTURE.md, "How to add a family").
//! Everything that drives a run (the CLI, the worker, the tests) goes through `AnyRun`, which dispatches the family
//! contract (`family::contract::FamilyRun`) to the scenario's family.

use crate::family::contract::Estimate;
use crate::family::contract::{Budget, ErrorKind, FamilyRun, Header, Start, Unused};
use crate::family::data_grid::{DataGridDetail, DataGridReport, DataGridRun};
use crate::family::desktop_grid::figures::{Bar, BarJob};
use crate::family::desktop_grid::{DgDetail, DgReport, DgRun};
use crate::family::multi_cluster::live::McDetail;
use crate::family::Family;
use crate::run::{McRun, Report};
use crate::scenario::{Scenario, ScenarioError};
use crate::trace::{Trace, TraceSize};
use serde::{Deserialize, Serialize};

/// The keys of `s` whose value changes nothing under its other settings.
pub fn unused(s: &Scenario) -> Vec<Unused> {
    match s.family {
        Family::MultiCluster => s.multi_cluster.unused(),
        Family::DesktopGrid => s.desktop_grid_scenario().desktop_grid.unused(),
        Family::DataGrid => s.data_grid_scenario().data_grid.unused(),
    }
}

/// A warning for each key of `s` that is set away from its family's default but changes nothing under the other
/// settings: the summary then does not read as if it applied.
pub fn unused_warnings(s: &Scenario) -> Vec<String> {
    unused(s).into_iter().filter(|u| u.set).map(|u| format!("{} is set but has no effect: {}", u.path, u.why)).collect()
}

/// What a run says before it starts: its budget's warnings, then the keys set to no effect.
fn warnings(s: &Scenario, budget: &Estimate) -> Vec<String> {
    let mut w = budget.warnings();
    w.extend(unused_warnings(s));
    w
}

/// A run of any family.
pub enum AnyRun {
    MultiCluster(Box<McRun>),
    DesktopGrid(Box<DgRun>),
    DataGrid(Box<DataGridRun>),
}

/// What a run of any family draws live (the family's `FamilyRun::Detail`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum AnyDetail {
    MultiCluster(McDetail),
    DesktopGrid(DgDetail),
    DataGrid(DataGridDetail),
}

/// The report of a run of any family (the family's `FamilyRun::Report`). Its JSON (`to_json`) is the family's own
/// report, as `bagsim run --out` writes it; across the worker boundary it carries its family's tag.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum AnyReport {
    MultiCluster(Box<Report>),
    DesktopGrid(Box<DgReport>),
    DataGrid(Box<DataGridReport>),
}

impl AnyReport {
    /// The family's report as pretty JSON, without the family tag.
    pub fn to_json(&self) -> serde_json::Result<String> {
        match self {
            AnyReport::MultiCluster(r) => serde_json::to_string_pretty(r),
            AnyReport::DesktopGrid(r) => serde_json::to_string_pretty(r),
            AnyReport::DataGrid(r) => serde_json::to_string_pretty(r),
        }
    }

    /// Wall-clock seconds of the simulation.
    pub fn wall_time_s(&self) -> f64 {
        match self {
            AnyReport::MultiCluster(r) => r.wall_time_s,
            AnyReport::DesktopGrid(r) => r.wall_time_s,
            AnyReport::DataGrid(r) => r.wall_time_s,
        }
    }

    /// Simulated time at the end of the run, s.
    pub fn end_time(&self) -> f64 {
        match self {
            AnyReport::MultiCluster(r) => r.metrics.system.end_time,
            AnyReport::DesktopGrid(r) => r.metrics.end_time,
            AnyReport::DataGrid(r) => r.metrics.end_time,
        }
    }
}

/// One job of a family's paper figure that a worker runs whole, with the family's own code (a desktop-grid bar adds
/// seeds until its intervals are narrow enough). A multi-cluster figure's jobs are plain runs (`ToWorker::Run`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum AnyFigureJob {
    DesktopGrid(Box<BarJob>),
}

/// What a figure job gives.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum AnyFigureResult {
    DesktopGrid(Box<Bar>),
}

impl AnyFigureJob {
    /// Runs the job; `clock` gives seconds.
    pub fn run(&self, clock: &dyn Fn() -> f64) -> Result<AnyFigureResult, String> {
        match self {
            AnyFigureJob::DesktopGrid(job) => job.run(clock).map(|b| AnyFigureResult::DesktopGrid(Box::new(b))),
        }
    }
}

impl AnyRun {
    /// Validates the scenario, checks its budget (`estimate`: a run over it is refused before anything is generated
    /// or simulated) and builds its family's run, whose warnings then begin with the budget's (a long or large run).
    /// `trace` is a trace imported already under a name (the page's worker, which cannot read files), used when the
    /// scenario's trace (`workload.trace.path`, `data_grid.trace`) names it.
    pub fn build(s: &Scenario, trace: Option<(&str, &Trace)>) -> Result<AnyRun, ScenarioError> {
        s.validate()?;
        let named = |name: &str| trace.filter(|(n, _)| *n == name).map(|(_, t)| t);
        match s.family {
            Family::MultiCluster => {
                let m = &s.multi_cluster;
                let run = match &m.workload.trace {
                    Some(t) => {
                        // The trace is read first: its size is not in the scenario.
                        let read;
                        let trace = match named(&t.path) {
                            Some(trace) => trace,
                            None => {
                                read = crate::run::read_scenario_trace(t)?;
                                &read
                            }
                        };
                        let budget = estimate(s, Some(&trace.report.size));
                        budget.check()?;
                        let mut run = McRun::build(m, Some((&t.path, trace)))?;
                        run.warn(warnings(s, &budget));
                        run
                    }
                    None => {
                        let budget = estimate(s, None);
                        budget.check()?;
                        let mut run = McRun::build(m, None)?;
                        run.warn(warnings(s, &budget));
                        run
                    }
                };
                Ok(AnyRun::MultiCluster(Box::new(run)))
            }
            Family::DesktopGrid => {
                let budget = estimate(s, None);
                budget.check()?;
                let mut run = DgRun::new(&s.desktop_grid_scenario())?;
                run.warn(warnings(s, &budget));
                Ok(AnyRun::DesktopGrid(Box::new(run)))
            }
            Family::DataGrid => {
                let d = s.data_grid_scenario();
                let name = d.data_grid.trace.as_str();
                let read;
                let log = match named(name) {
                    Some(t) => t,
                    None => {
                        read = log(name)?;
                        &read
                    }
                };
                let budget = estimate(s, Some(&log.report.size));
                budget.check()?;
                let mut run = DataGridRun::new(&d, log)?;
                run.warn(warnings(s, &budget));
                Ok(AnyRun::DataGrid(Box::new(run)))
            }
        }
    }

    /// What the workload turned out to be.
    pub fn start(&self) -> Start {
        match self {
            AnyRun::MultiCluster(r) => r.start(),
            AnyRun::DesktopGrid(r) => r.start(),
            AnyRun::DataGrid(r) => r.start(),
        }
    }

    /// The report `bagsim run --out` writes, from the report `FamilyRun::report` gave (a multi-cluster run adds
    /// the predictors' accuracy, which the page asks for only on export).
    pub fn full_report(&self, report: AnyReport) -> AnyReport {
        match (self, report) {
            (AnyRun::MultiCluster(run), AnyReport::MultiCluster(r)) => {
                AnyReport::MultiCluster(Box::new(run.full_report(*r)))
            }
            (_, r) => r,
        }
    }

    /// The run's rows as CSV (per BoT for a multi-cluster run), for the families that have them.
    pub fn rows_csv(&self) -> Option<String> {
        match self {
            AnyRun::MultiCluster(r) => Some(r.bots_csv()),
            AnyRun::DesktopGrid(_) => None,
            AnyRun::DataGrid(r) => Some(r.jobs_csv()),
        }
    }
}

impl FamilyRun for AnyRun {
    type Detail = AnyDetail;
    type Report = AnyReport;

    fn step(&mut self, budget: Budget) -> bool {
        match self {
            AnyRun::MultiCluster(r) => r.step(budget),
            AnyRun::DesktopGrid(r) => r.step(budget),
            AnyRun::DataGrid(r) => r.step(budget),
        }
    }

    fn header(&self) -> Header {
        match self {
            AnyRun::MultiCluster(r) => r.header(),
            AnyRun::DesktopGrid(r) => r.header(),
            AnyRun::DataGrid(r) => r.header(),
        }
    }

    fn take_detail(&mut self) -> AnyDetail {
        match self {
            AnyRun::MultiCluster(r) => AnyDetail::MultiCluster(r.take_detail()),
            AnyRun::DesktopGrid(r) => AnyDetail::DesktopGrid(r.take_detail()),
            AnyRun::DataGrid(r) => AnyDetail::DataGrid(r.take_detail()),
        }
    }

    fn report(&self, wall_s: f64) -> AnyReport {
        match self {
            AnyRun::MultiCluster(r) => AnyReport::MultiCluster(Box::new(r.report(wall_s))),
            AnyRun::DesktopGrid(r) => AnyReport::DesktopGrid(Box::new(r.report(wall_s))),
            AnyRun::DataGrid(r) => AnyReport::DataGrid(Box::new(r.report(wall_s))),
        }
    }
}

/// What a run of the scenario will cost, estimated before anything runs (docs/budget.md): the events it takes and
/// what it holds in memory, each with the key that drives it. `trace` is the size of the trace the scenario names
/// (`workload.trace.path`, `data_grid.trace`) when it has been read; the bundled log's is known. The one estimate
/// the CLI (`run`, every `sweep` point), the worker and the page check (`Estimate::check`) and show.
pub fn estimate(s: &Scenario, trace: Option<&TraceSize>) -> Estimate {
    match s.family {
        Family::MultiCluster => crate::family::multi_cluster::budget::estimate(&s.multi_cluster, trace),
        Family::DesktopGrid => s.desktop_grid.clone().unwrap_or_default().estimate(),
        Family::DataGrid => {
            let d = s.data_grid.clone().unwrap_or_default();
            let bundled = crate::trace::bundled::HPC2N_SIZE;
            d.estimate(if d.trace == crate::trace::bundled::HPC2N { Some(&bundled) } else { trace })
        }
    }
}

/// The trace a scenario's run reads, by the name the scenario gives it (a multi-cluster trace or a data-grid log),
/// when it is not the bundled log: its size is needed for the scenario's estimate.
pub fn trace_named(s: &Scenario) -> Option<&str> {
    match s.family {
        Family::MultiCluster => s.multi_cluster.workload.trace.as_ref().map(|t| t.path.as_str()),
        Family::DesktopGrid => None,
        Family::DataGrid => {
            s.data_grid.as_ref().map(|d| d.trace.as_str()).filter(|&n| n != crate::trace::bundled::HPC2N)
        }
    }
}

/// A log by name: the bundled one, else (natively) a file; the page's worker has only the bundled log and the
/// trace imported in the Workload lab (passed to `AnyRun::build`).
fn log(name: &str) -> Result<Trace, ScenarioError> {
    let fail = |m: String| ScenarioError::new(ErrorKind::Trace, "data_grid.trace", m);
    if name == crate::trace::bundled::HPC2N {
        return crate::trace::bundled::hpc2n().map_err(|e| fail(e.to_string()));
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        crate::trace::import_path(std::path::Path::new(name), None).map_err(|e| fail(format!("{name}: {e}")))
    }
    #[cfg(target_arch = "wasm32")]
    {
        Err(fail(format!("{name}: load this log in the Workload lab first, or use {}", crate::trace::bundled::HPC2N)))
    }
}

/// Runs a scenario of any family to the end and gives the report `bagsim run --out` writes; `clock` returns seconds.
pub fn run_any_with_clock(s: &Scenario, clock: &dyn Fn() -> f64) -> Result<AnyReport, ScenarioError> {
    let mut run = AnyRun::build(s, None)?;
    let report = crate::family::contract::run_to_report(&mut run, clock);
    Ok(run.full_report(report))
}

/// Runs a scenario of any family natively.
#[cfg(not(target_arch = "wasm32"))]
pub fn run_any(s: &Scenario) -> Result<AnyReport, ScenarioError> {
    let start = std::time::Instant::now();
    run_any_with_clock(s, &move || start.elapsed().as_secs_f64())
}

/// The readings of a family: the decisions its paper leaves open, as scenario keys with named values.
pub fn readings(family: Family) -> &'static [crate::readings::Reading] {
    match family {
        Family::MultiCluster => crate::family::multi_cluster::readings::READINGS,
        Family::DesktopGrid => crate::family::desktop_grid::readings::READINGS,
        Family::DataGrid => crate::family::data_grid::readings::READINGS,
    }
}

/// A sweep's `--set KEY` as the JSON path it sets in a scenario of `family` (e.g. `load` → `workload.load`).
pub fn sweep_path(family: Family, key: &str) -> String {
    match family {
        Family::MultiCluster => crate::family::multi_cluster::sweep::path_of(key).to_string(),
        Family::DesktopGrid => crate::family::desktop_grid::sweep::path_of(key),
        Family::DataGrid => crate::family::data_grid::sweep::path_of(key),
    }
}

/// The CSV columns of a sweep of `family`, after the axis columns.
pub fn sweep_header(family: Family) -> String {
    match family {
        Family::MultiCluster => crate::family::multi_cluster::sweep::sweep_header(),
        Family::DesktopGrid => crate::family::desktop_grid::sweep::SWEEP_HEADER.to_string(),
        Family::DataGrid => crate::family::data_grid::sweep::SWEEP_HEADER.to_string(),
    }
}

impl AnyReport {
    /// The report's CSV row in a sweep (the columns of `sweep_header`).
    pub fn sweep_row(&self) -> String {
        match self {
            AnyReport::MultiCluster(r) => crate::family::multi_cluster::sweep::sweep_row(r),
            AnyReport::DesktopGrid(r) => crate::family::desktop_grid::sweep::sweep_row(r),
            AnyReport::DataGrid(r) => crate::family::data_grid::sweep::sweep_row(r),
        }
    }

    /// The report without its time series and a multi-cluster run's per-user table: what the page is sent when a
    /// run ends, and what a sweep keeps of each run. The page has every sample already (the progress messages
    /// carried them) and shows no per-user figure, and decoding them (half a megabyte for a month of the default
    /// workload's users) held the page's one thread for tens of milliseconds; an export asks the worker for the
    /// whole report.
    pub fn lean(self) -> AnyReport {
        match self {
            AnyReport::MultiCluster(mut r) => {
                r.metrics.series.clear();
                r.metrics.users.clear();
                AnyReport::MultiCluster(r)
            }
            AnyReport::DesktopGrid(mut r) => {
                r.metrics.series.clear();
                AnyReport::DesktopGrid(r)
            }
            AnyReport::DataGrid(mut r) => {
                r.metrics.series.clear();
                AnyReport::DataGrid(r)
            }
        }
    }

    /// The family's [`lean`](Self::lean) report as JSON, without the family tag: what a sweep keeps of each run.
    pub fn slim_json(self) -> serde_json::Value {
        match self.lean() {
            AnyReport::MultiCluster(r) => serde_json::to_value(r),
            AnyReport::DesktopGrid(r) => serde_json::to_value(r),
            AnyReport::DataGrid(r) => serde_json::to_value(r),
        }
        .expect("a report is plain data")
    }
}
