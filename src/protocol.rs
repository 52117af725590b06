//! The messages between the page and the simulation worker: the only types that cross the worker boundary.

use crate::error::{DataError, ScenarioError};
use crate::family::contract::{Header, PointError, Start};
use crate::registry::{AnyDetail, AnyFigureJob, AnyFigureResult, AnyReport, Family};
use crate::scenario::Scenario;
use crate::trace::bots::{BotReport, BotRule};
use crate::trace::{Format, ImportReport};
use crate::workload::burstiness::JobsBurstiness;
use crate::workload::fit::FittedModel;
use crate::workload::fit_workload::FitCandidates;
use crate::workload::views::WorkloadViews;
use serde::{Deserialize, Serialize};

use crate::scenario::tagged;

/// Page → worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ToWorker {
    /// Start a run (a new run replaces the current one). `speed` is simulated seconds per wall-clock second; None
    /// runs as fast as possible.
    /// `live` = false sends only counters in progress messages (sweeps).
    Run {
        run_id: u32,
        #[serde(with = "tagged")]
        scenario: Box<Scenario>,
        speed: Option<f64>,
        live: bool,
    },
    Pause {
        run_id: u32,
    },
    Resume {
        run_id: u32,
    },
    Cancel {
        run_id: u32,
    },
    /// Change the speed of the current run.
    Speed {
        run_id: u32,
        speed: Option<f64>,
    },
    /// Estimate a run of this scenario before Run (docs/budget.md): the worker answers `Estimated`, its time at
    /// the speed of the last run it timed, on the trace it holds when the scenario names one.
    Estimate {
        #[serde(with = "tagged")]
        scenario: Box<Scenario>,
    },
    /// Send the per-BoT results of the last finished run as CSV.
    ExportBots {
        run_id: u32,
    },
    /// Send the full report of the last finished run (with `predictors`) as JSON, as `bagsim run --out` writes it.
    ExportReport {
        run_id: u32,
    },
    /// Start importing a trace file (SWF or GWF, plain or gzip) under `name`; the previous import, if any, is kept
    /// until this one succeeds.
    ImportBegin {
        import_id: u32,
        name: String,
        format: Format,
        /// The file's size in bytes, for the progress bar.
        size: u64,
    },
    /// The next bytes of the file; the worker answers each with `ImportProgress`, and the page then sends the next
    /// (so neither side ever holds more than a chunk in flight).
    ImportChunk {
        import_id: u32,
        #[serde(with = "serde_bytes")]
        bytes: Vec<u8>,
    },
    /// The whole file was sent: the worker finishes the import and answers `Imported` or `ImportFailed`.
    ImportEnd {
        import_id: u32,
    },
    /// Abandon an import in progress (the previously imported trace stays).
    ImportCancel {
        import_id: u32,
    },
    /// BoTs of the imported trace by the Δ rule, and with `fit` the model row fitted to them: answered by
    /// `TraceBots`.
    TraceBots {
        import_id: u32,
        rule: BotRule,
        fit: bool,
    },
    /// The workload views of a scenario's generated workload: answered by `Views`.
    ScenarioViews {
        request_id: u32,
        #[serde(with = "tagged")]
        scenario: Box<Scenario>,
    },
    /// One job of a family's paper figure (`registry::AnyFigureJob`), run whole: answered by `FigureDone`.
    Figure {
        job_id: u32,
        job: Box<AnyFigureJob>,
    },
    /// Check a user's script for the scenario key `key` of `family` (`FamilyDef::check_script`: the page has no
    /// script engine; the worker has): answered by `ScriptChecked` with the same `check_id`.
    CheckScript {
        check_id: u32,
        family: Family,
        key: String,
        source: String,
    },
    /// Fault injection: the worker panics, as a bug or an out-of-memory abort would end it. Lets the page's browser
    /// test check that a dead worker is reported and replaced (`window.__bagsimCrashWorker()`).
    Crash,
}

/// Where a run of any family stands (the header every family shares) and, for a live run, what its family draws
/// that is new since the previous message.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    pub run_id: u32,
    pub header: Header,
    /// Wall-clock seconds spent simulating so far.
    pub wall: f64,
    /// None when the run is not live (sweeps send only the header).
    pub detail: Option<AnyDetail>,
}

/// Worker → page. `F` is what a figure job's result is read as: `AnyFigureResult` where figure jobs are sent (the
/// pools' workers), [`NoFigure`] where they never are (the page's own worker), so that the page's module carries no
/// reader of figure results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum FromWorker<F = AnyFigureResult> {
    /// The worker's wasm is loaded and it listens: messages sent before this are lost.
    Ready,
    /// A scheduling script compiled (`error` None) or not (`line L, column C: …`), answering `CheckScript`.
    ScriptChecked {
        check_id: u32,
        error: Option<String>,
    },
    /// The workload is generated and the run starts.
    Started {
        run_id: u32,
        start: Start,
        /// Wall-clock seconds the worker spent validating the scenario and generating the workload.
        generate_s: f64,
    },
    Progress(Box<Progress>),
    Paused {
        run_id: u32,
    },
    /// The run ended with its family's report (`FamilyRun::report`: for a multi-cluster run without
    /// `predictors`, see `run::report_without_predictors`), without its time series and per-user table
    /// (`AnyReport::lean`); `ExportReport` gives the full report.
    Finished {
        run_id: u32,
        report: Box<AnyReport>,
        /// Wall-clock seconds the worker spent computing the report after the simulation.
        report_s: f64,
    },
    Cancelled {
        run_id: u32,
    },
    Failed {
        run_id: u32,
        message: String,
    },
    BotsCsv {
        run_id: u32,
        csv: String,
    },
    /// The estimate asked for by `Estimate`: the line shown under the run bar ("Before Run: …"), and whether the
    /// run would be refused (over budget, or a trace that is not imported).
    Estimated {
        line: String,
        over: bool,
    },
    /// The full report of the last finished run, pretty-printed JSON.
    ReportJson {
        run_id: u32,
        json: String,
    },
    /// An import's progress: bytes received so far and what the parser has found.
    ImportProgress {
        import_id: u32,
        bytes: u64,
        lines: u64,
        jobs: u64,
        skipped: u64,
    },
    /// The trace is imported and replaces the previous one; runs with `workload.trace.path == name` use it.
    Imported {
        import_id: u32,
        name: String,
        report: Box<ImportReport>,
        /// Wall-clock seconds from `ImportBegin` to the end of parsing.
        import_s: f64,
    },
    /// The import failed as a whole (an empty file, corrupt gzip, no job); the previous trace, if any, stays.
    ImportFailed {
        import_id: u32,
        message: String,
    },
    /// The BoTs of the imported trace under `rule`, and the model row fitted to them (or why it could not be).
    TraceBots {
        import_id: u32,
        rule: BotRule,
        report: Box<BotReport>,
        fit: Option<Box<FittedModel>>,
        fit_error: Option<String>,
        /// With the fit: the views of the BoT workload, and the burstiness of the trace's own jobs ([Minh10] §V).
        views: Option<Box<WorkloadViews>>,
        jobs: Option<Box<JobsBurstiness>>,
        /// With the fit: every candidate family of every characteristic, with the data's CDF against each.
        candidates: Option<Box<FitCandidates>>,
    },
    /// The views of a scenario's workload, or why it could not be generated.
    Views {
        request_id: u32,
        result: Result<Box<WorkloadViews>, ViewsError>,
        /// The model row fitted to that workload ([Iosup08] §3.1), with every candidate; or why it could not be.
        fit: Result<Box<(FittedModel, FitCandidates)>, ViewsError>,
    },
    /// A figure job's result, or why it could not be computed.
    FigureDone {
        job_id: u32,
        result: Result<Box<F>, PointError>,
    },
    /// The worker panicked (sent from its panic hook, just before it dies): the reason the page shows.
    Panicked {
        message: String,
    },
}

/// A figure job's result where none is ever sent: reading one is refused. The page's own worker runs no figure job
/// (the pools' workers do, `ui/pool.rs`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum NoFigure {}

impl<'de> Deserialize<'de> for NoFigure {
    fn deserialize<D: serde::Deserializer<'de>>(_: D) -> Result<NoFigure, D::Error> {
        Err(serde::de::Error::custom("a figure job's result, which this worker is never asked for"))
    }
}

/// What the page's own worker sends.
pub type PageMessage = FromWorker<NoFigure>;

/// Why a scenario's workload has no views or fit: its scenario refused, or its workload's data not analysable. It
/// crosses to the page as its message, so one read on the page is `Said`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(into = "String", from = "String")]
pub enum ViewsError {
    Scenario(ScenarioError),
    Data(DataError),
    Said(String),
}

impl std::fmt::Display for ViewsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ViewsError::Scenario(e) => write!(f, "{e}"),
            ViewsError::Data(e) => write!(f, "{e}"),
            ViewsError::Said(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for ViewsError {}

impl From<ViewsError> for String {
    fn from(e: ViewsError) -> String {
        e.to_string()
    }
}

impl From<String> for ViewsError {
    fn from(message: String) -> ViewsError {
        ViewsError::Said(message)
    }
}
