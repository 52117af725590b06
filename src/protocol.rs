//! The messages between the page and the simulation worker: the only types that cross the worker boundary.

use crate::run::Report;
use crate::scenario::Scenario;
use crate::simulation::Sample;
use serde::{Deserialize, Serialize};

/// Page → worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ToWorker {
    /// Start a run (a new run replaces the current one). `speed` is simulated seconds per wall-clock second; None
    /// runs as fast as possible.
    /// `live` = false sends only counters in progress messages (sweeps).
    Run {
        run_id: u32,
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
    /// Send the per-BoT results of the last finished run as CSV.
    ExportBots {
        run_id: u32,
    },
    /// Send the full report of the last finished run (with `predictors`) as JSON, as `bagsim run --out` writes it.
    ExportReport {
        run_id: u32,
    },
    /// Fault injection: the worker panics, as a bug or an out-of-memory abort would end it. Lets the page's browser
    /// test check that a dead worker is reported and replaced (`window.__bagsimCrashWorker()`).
    Crash,
}

/// A BoT that finished: its size, makespan (s), NSL and wait (s).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BotDone {
    pub size: u32,
    pub makespan: f64,
    pub nsl: f64,
    pub wait: f64,
}

/// Where a run stands, with what happened since the previous progress message.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    pub run_id: u32,
    /// Simulated time, s.
    pub now: f64,
    /// End of the run at the latest, s.
    pub horizon: f64,
    pub events: u64,
    pub finished_tasks: u64,
    pub tasks: u64,
    pub queued: u64,
    pub running: u64,
    /// Wall-clock seconds spent simulating so far.
    pub wall: f64,
    /// New time-series samples.
    pub samples: Vec<Sample>,
    /// BoTs finished since the previous message.
    pub bots: Vec<BotDone>,
}

/// Worker → page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum FromWorker {
    /// The worker's wasm is loaded and it listens: messages sent before this are lost.
    Ready,
    /// The workload is generated and the run starts.
    Started {
        run_id: u32,
        bots: u64,
        tasks: u64,
        achieved_load: f64,
        warnings: Vec<String>,
        /// Wall-clock seconds the worker spent validating the scenario and generating the workload.
        generate_s: f64,
    },
    Progress(Box<Progress>),
    Paused {
        run_id: u32,
    },
    /// The run ended. `report.predictors` is empty here (see `run::report_without_predictors`); `ExportReport`
    /// gives the full report.
    Finished {
        run_id: u32,
        report: Box<Report>,
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
    /// The full report of the last finished run, pretty-printed JSON.
    ReportJson {
        run_id: u32,
        json: String,
    },
    /// The worker panicked (sent from its panic hook, just before it dies): the reason the page shows.
    Panicked {
        message: String,
    },
}
