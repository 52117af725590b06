//! The messages between the page and the simulation worker: the only types that cross the worker boundary.

use crate::family::desktop_grid::bot_selection::BotSelection;
use crate::family::desktop_grid::figures::{Bar, CiRule};
use crate::family::desktop_grid::workload::Mix;
use crate::family::desktop_grid::{DesktopGridConfig, DgReport, DgSample};
use crate::family::multi_cluster::simulation::Sample;
use crate::run::Report;
use crate::scenario::Scenario;
use crate::trace::bots::{BotReport, BotRule};
use crate::trace::{Format, ImportReport};
use crate::workload::burstiness::JobsBurstiness;
use crate::workload::fit::FittedModel;
use crate::workload::fit_workload::FitCandidates;
use crate::workload::views::WorkloadViews;
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
        scenario: Box<Scenario>,
    },
    /// One bar of a desktop-grid paper figure ([Anglano09] Figs. 2–17): the figure's `mix` and `policy` on `base`'s
    /// other settings, seeds added under `rule` (`figures::run_bar`, as `bagsim dg-figure`): answered by `DgBar`.
    DgBar {
        job_id: u32,
        figure: u32,
        mix: Mix,
        policy: BotSelection,
        base: Box<DesktopGridConfig>,
        rule: CiRule,
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
    #[serde(with = "packed_bots")]
    pub bots: Vec<BotDone>,
}

/// Where a desktop-grid run stands ([Anglano09]), with the samples taken since the previous message.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DgProgress {
    pub run_id: u32,
    /// Simulated time, s.
    pub now: f64,
    /// End of the run at the latest, s.
    pub horizon: f64,
    pub events: u64,
    pub bots: u64,
    pub finished_bots: u64,
    pub tasks: u64,
    pub finished_tasks: u64,
    /// Replicas running now (= busy machines).
    pub replicas_running: u32,
    /// Tasks without a running replica now.
    pub queued: u64,
    /// Wall-clock seconds spent simulating so far.
    pub wall: f64,
    /// New time-series samples (machines up, replicas running, queue length, BoTs in the system, tasks done).
    pub samples: Vec<DgSample>,
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
        result: Result<Box<WorkloadViews>, String>,
        /// The model row fitted to that workload ([Iosup08] §3.1), with every candidate; or why it could not be.
        fit: Result<Box<(FittedModel, FitCandidates)>, String>,
    },
    /// A desktop-grid run's progress (its `Started`, `Paused`, `Cancelled` and `Failed` are the shared ones).
    DgProgress(Box<DgProgress>),
    /// A desktop-grid run ended: the report `bagsim run --out` writes for the scenario (but the wall time).
    DgFinished {
        run_id: u32,
        report: Box<DgReport>,
        /// Wall-clock seconds the worker spent computing the report after the simulation.
        report_s: f64,
    },
    /// A bar of a desktop-grid paper figure, or why it could not be computed.
    DgBar {
        job_id: u32,
        result: Result<Box<Bar>, String>,
    },
    /// The worker panicked (sent from its panic hook, just before it dies): the reason the page shows.
    Panicked {
        message: String,
    },
}

/// BoT results cross the worker boundary as one byte buffer (a `Uint8Array` in the browser), 28 bytes a BoT
/// (size u32, makespan, NSL and wait f64, little-endian): a month of results is a few hundred thousand BoTs, and
/// one JavaScript object per BoT cost the worker more time than the simulation between two progress messages.
mod packed_bots {
    use super::BotDone;
    use serde::de::{Error, SeqAccess, Visitor};
    use serde::{Deserializer, Serializer};

    const RECORD: usize = 28;

    pub fn serialize<S: Serializer>(bots: &[BotDone], s: S) -> Result<S::Ok, S::Error> {
        let mut buf = Vec::with_capacity(bots.len() * RECORD);
        for b in bots {
            buf.extend_from_slice(&b.size.to_le_bytes());
            for x in [b.makespan, b.nsl, b.wait] {
                buf.extend_from_slice(&x.to_le_bytes());
            }
        }
        s.serialize_bytes(&buf)
    }

    fn unpack<E: Error>(bytes: &[u8]) -> Result<Vec<BotDone>, E> {
        if bytes.len() % RECORD != 0 {
            return Err(E::custom(format!("BoT results of {} bytes, not a multiple of {RECORD}", bytes.len())));
        }
        let f = |r: &[u8], at: usize| f64::from_le_bytes(r[at..at + 8].try_into().expect("8 bytes"));
        Ok(bytes
            .chunks_exact(RECORD)
            .map(|r| BotDone {
                size: u32::from_le_bytes(r[0..4].try_into().expect("4 bytes")),
                makespan: f(r, 4),
                nsl: f(r, 12),
                wait: f(r, 20),
            })
            .collect())
    }

    struct Packed;

    impl<'de> Visitor<'de> for Packed {
        type Value = Vec<BotDone>;

        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            write!(f, "packed BoT results ({RECORD} bytes a BoT)")
        }

        fn visit_bytes<E: Error>(self, v: &[u8]) -> Result<Self::Value, E> {
            unpack(v)
        }

        fn visit_byte_buf<E: Error>(self, v: Vec<u8>) -> Result<Self::Value, E> {
            unpack(&v)
        }

        // Formats without a byte type (JSON) give a sequence of numbers.
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let mut v = Vec::with_capacity(seq.size_hint().unwrap_or(0));
            while let Some(b) = seq.next_element::<u8>()? {
                v.push(b);
            }
            unpack(&v)
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<BotDone>, D::Error> {
        d.deserialize_bytes(Packed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn progress(bots: Vec<BotDone>) -> Progress {
        Progress {
            run_id: 1,
            now: 0.5,
            horizon: 2.0,
            events: 3,
            finished_tasks: 4,
            tasks: 5,
            queued: 6,
            running: 7,
            wall: 0.25,
            samples: Vec::new(),
            bots,
        }
    }

    #[test]
    fn packed_bot_results_round_trip_exactly() {
        let bots = vec![
            BotDone { size: 1, makespan: 12.5, nsl: 0.1 + 0.2, wait: 0.0 },
            BotDone { size: u32::MAX, makespan: f64::MAX, nsl: f64::MIN_POSITIVE, wait: -0.0 },
            BotDone { size: 4000, makespan: 1e-300, nsl: 3.0e7, wait: 86_400.123456789 },
        ];
        let p = progress(bots.clone());
        let json = serde_json::to_string(&p).unwrap();
        let back: Progress = serde_json::from_str(&json).unwrap();
        assert_eq!(back.bots.len(), 3);
        for (a, b) in back.bots.iter().zip(&bots) {
            assert_eq!(
                (a.size, a.makespan.to_bits(), a.nsl.to_bits(), a.wait.to_bits()),
                (b.size, b.makespan.to_bits(), b.nsl.to_bits(), b.wait.to_bits())
            );
        }
        let empty: Progress = serde_json::from_str(&serde_json::to_string(&progress(Vec::new())).unwrap()).unwrap();
        assert!(empty.bots.is_empty());
    }

    #[test]
    fn a_truncated_buffer_is_an_error_not_a_panic() {
        let json = serde_json::to_string(&progress(vec![BotDone { size: 2, makespan: 1.0, nsl: 1.0, wait: 1.0 }]))
            .unwrap()
            .replacen("[2,0,0,0,", "[2,0,0,", 1);
        let err = serde_json::from_str::<Progress>(&json).unwrap_err().to_string();
        assert!(err.contains("not a multiple of 28"), "{err}");
    }
}
