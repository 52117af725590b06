//! "Workload lab": import a real trace (SWF or GWF, plain or gzip) by file picker or drag and drop, parsed in the
//! simulation worker chunk by chunk with a progress bar; its import report, its BoTs by the Δ rule of Minh & Wolters
//! 2010 and how they change with Δ, the model row fitted to them (Iosup et al. 2008 §3.1); then run the trace itself,
//! its fitted model (its synthetic twin, at any load), or on the platform its header describes.
//!
//! The page never holds the file: it reads one slice at a time (`gloo-file`) and sends it when the worker has
//! parsed the previous one, so a 100 MB trace costs the main thread a few milliseconds per slice.

mod view;

use crate::family::multi_cluster::platform::Cluster;
use crate::protocol::{FromWorker, PageMessage, ToWorker, ViewsError};
use crate::scenario::TraceConfig;
use crate::trace::bots::{BotKey, BotReport, BotRule, MultiProc};
use crate::trace::{Format, ImportReport};
use crate::ui::address::remember;
use crate::ui::form::mcm;
use crate::ui::form::Refused;
use crate::ui::lab::{Heard, Lab};
use crate::workload::burstiness::JobsBurstiness;
use crate::workload::fit::FittedModel;
use crate::workload::fit_workload::FitCandidates;
use crate::workload::model::Calibration;
use crate::workload::views::WorkloadViews;
use leptos::prelude::*;

pub use view::TraceLabView;

/// Bytes per slice sent to the worker: small enough that parsing one keeps the worker answering within ~0.2 s.
const SLICE: u64 = 4 << 20;

/// Where the import stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Idle,
    Importing,
    Imported,
    Failed,
}

impl Phase {
    fn as_str(self) -> &'static str {
        match self {
            Phase::Idle => "idle",
            Phase::Importing => "importing",
            Phase::Imported => "imported",
            Phase::Failed => "failed",
        }
    }
}

/// The file being sent, outside the reactive graph.
struct Sending {
    import_id: u32,
    file: gloo_file::File,
    offset: u64,
}

/// The file being sent and the numbers of the section's requests, outside the reactive graph.
#[derive(Default)]
struct Io {
    sending: Option<Sending>,
    next_id: u32,
    /// The file being imported (once the worker holds it, sweeps stream it to their pool workers: `shown.rs`).
    pending_file: Option<(u32, crate::ui::pool::TraceFile)>,
}

/// The section's reactive state.
#[derive(Clone, Copy)]
struct TraceLab {
    lab: Lab,
    io: StoredValue<Io, LocalStorage>,
    phase: RwSignal<Phase>,
    /// The import in flight, or the last one that succeeded.
    import_id: RwSignal<u32>,
    /// Name and size of the file being imported.
    file: RwSignal<(String, u64)>,
    /// Bytes, lines, jobs and skipped lines so far.
    progress: RwSignal<(u64, u64, u64, u64)>,
    message: RwSignal<String>,
    /// The imported trace's name, report and import time.
    imported: RwSignal<Option<(String, ImportReport, f64)>>,
    format: RwSignal<String>,
    delta: RwSignal<String>,
    split: RwSignal<bool>,
    same_user: RwSignal<bool>,
    bots: RwSignal<Option<BotReport>>,
    fit: RwSignal<Option<FittedModel>>,
    fit_error: RwSignal<Option<String>>,
    /// Every candidate family of every characteristic, with the data's CDF against each.
    candidates: RwSignal<Option<FitCandidates>>,
    /// BoT counts per size class at the Δs of [`DELTAS`], filled in as the answers come.
    by_delta: RwSignal<Vec<(f64, BotReport)>>,
    /// The views of the trace's BoT workload and the burstiness of its own jobs.
    views: RwSignal<Option<WorkloadViews>>,
    jobs: RwSignal<Option<JobsBurstiness>>,
    /// The views of the scenario's generated workload: the request in flight, the result, or why not.
    scenario_request: RwSignal<u32>,
    scenario_views: RwSignal<Option<WorkloadViews>>,
    scenario_message: RwSignal<String>,
    /// The row fitted to the scenario's workload, with every candidate; or why it could not be fitted.
    scenario_fit: RwSignal<Option<Result<(FittedModel, FitCandidates), ViewsError>>>,
    /// The longest the page took to take in a `TraceBots` answer and redraw the tables, ms.
    handle_ms: RwSignal<f64>,
}

/// The Δs of the "BoTs against Δ" table, seconds.
const DELTAS: [f64; 8] = [0.0, 10.0, 30.0, 60.0, 100.0, 300.0, 900.0, 3600.0];

fn parse_delta(text: &str) -> Result<f64, Refused> {
    match text.trim().parse::<f64>() {
        Ok(d) if (0.0..=86_400.0).contains(&d) => Ok(d),
        _ => Err(format!("Δ must be a number of seconds from 0 to 86 400; {:?} is not.", text.trim()).into()),
    }
}

impl TraceLab {
    fn rule(self, delta: f64) -> BotRule {
        BotRule {
            delta,
            key: if self.same_user.get_untracked() { BotKey::User } else { BotKey::Attributes },
            multi_proc: if self.split.get_untracked() { MultiProc::Split } else { MultiProc::Reject },
        }
    }

    /// Starts importing `file`; the trace imported before stays until this one succeeds.
    fn start(self, file: web_sys::File) {
        let file = gloo_file::File::from(file);
        let name = file.name();
        let format = match self.format.get_untracked().as_str() {
            "gwf" => Format::Gwf,
            "swf" => Format::Swf,
            "batsim" => Format::Batsim,
            _ => Format::from_name(&name).unwrap_or(Format::Swf),
        };
        let import_id = self.next_id();
        if let Some(old) = self.io.try_update_value(|io| io.sending.take()).flatten() {
            self.lab.send(&ToWorker::ImportCancel { import_id: old.import_id });
        }
        self.import_id.set(import_id);
        self.file.set((name.clone(), file.size()));
        self.progress.set((0, 0, 0, 0));
        self.message.set(String::new());
        self.phase.set(Phase::Importing);
        let pending = crate::ui::pool::TraceFile { name: name.clone(), format, file: file.clone() };
        self.lab.send(&ToWorker::ImportBegin { import_id, name, format, size: file.size() });
        self.io.update_value(|io| io.pending_file = Some((import_id, pending)));
        self.io.update_value(|io| io.sending = Some(Sending { import_id, file, offset: 0 }));
        self.send_next(import_id);
    }

    /// Asks the worker for the views of the current scenario's workload (generated as a run would).
    fn ask_scenario_views(self) {
        let request_id = self.next_id();
        self.scenario_request.set(request_id);
        self.scenario_message.set("generating the workload…".into());
        self.lab.send(&ToWorker::ScenarioViews { request_id, scenario: Box::new(self.lab.scenario.get_untracked()) });
    }

    fn cancel(self) {
        if let Some(old) = self.io.try_update_value(|io| io.sending.take()).flatten() {
            self.lab.send(&ToWorker::ImportCancel { import_id: old.import_id });
        }
        let back = if self.imported.with_untracked(Option::is_some) { Phase::Imported } else { Phase::Idle };
        self.phase.set(back);
        self.message.set("Import cancelled; nothing already loaded was changed.".into());
    }

    /// Asks the worker for the BoTs under the current rule, and for the BoT counts at every Δ of the table.
    fn ask_bots(self) {
        let Ok(delta) = parse_delta(&self.delta.get_untracked()) else { return };
        if self.imported.with_untracked(Option::is_none) {
            return;
        }
        let import_id = self.import_id.get_untracked();
        self.by_delta.set(Vec::new());
        self.lab.send(&ToWorker::TraceBots { import_id, rule: self.rule(delta), fit: true });
        for d in DELTAS.into_iter().filter(|&d| d != delta) {
            self.lab.send(&ToWorker::TraceBots { import_id, rule: self.rule(d), fit: false });
        }
    }

    fn on_message(self, m: PageMessage) {
        let current = self.import_id.get_untracked();
        match m {
            FromWorker::ImportProgress { import_id, bytes, lines, jobs, skipped } if import_id == current => {
                self.progress.set((bytes, lines, jobs, skipped));
                self.send_next(import_id);
            }
            FromWorker::Imported { import_id, name, report, import_s } if import_id == current => {
                self.io.update_value(|io| io.sending = None);
                let file =
                    self.io.try_update_value(|io| io.pending_file.take()).flatten().filter(|(id, _)| *id == import_id);
                crate::ui::shown::publish_trace_file(file.map(|(_, f)| f).as_ref());
                self.progress.set((report.input_bytes, report.lines, report.jobs, report.skipped));
                self.imported.set(Some((name, *report, import_s)));
                self.bots.set(None);
                self.fit.set(None);
                self.fit_error.set(None);
                self.candidates.set(None);
                self.phase.set(Phase::Imported);
                self.message.set(String::new());
                self.ask_bots();
            }
            FromWorker::ImportFailed { import_id, message } if import_id == current => {
                self.io.update_value(|io| io.sending = None);
                let kept = self.imported.with_untracked(|i| i.as_ref().map(|(n, ..)| n.clone()));
                self.phase.set(if kept.is_some() { Phase::Imported } else { Phase::Failed });
                self.message.set(match kept {
                    Some(n) => format!("{message}. The trace imported before ({n}) is kept."),
                    None => message,
                });
            }
            FromWorker::Views { request_id, result, fit } if request_id == self.scenario_request.get_untracked() => {
                self.scenario_fit.set(Some(fit.map(|f| *f)));
                match result {
                    Ok(v) => {
                        self.scenario_message.set(String::new());
                        self.scenario_views.set(Some(*v));
                    }
                    Err(e) => {
                        self.scenario_views.set(None);
                        self.scenario_message.set(format!("No views: {e}"));
                    }
                }
            }
            FromWorker::TraceBots { import_id, rule, report, fit, fit_error, views, jobs, candidates }
                if import_id == current =>
            {
                let t0 = crate::ui::lab::now_ms();
                let asked = parse_delta(&self.delta.get_untracked()).ok().map(|d| self.rule(d));
                let table_rule = |r: &BotRule| DELTAS.contains(&r.delta) && self.rule(r.delta) == *r;
                if table_rule(&rule) && self.by_delta.with_untracked(|v| v.iter().all(|(d, _)| *d != rule.delta)) {
                    let mut v = self.by_delta.get_untracked();
                    v.push((rule.delta, (*report).clone()));
                    v.sort_by(|a, b| a.0.total_cmp(&b.0));
                    self.by_delta.set(v);
                }
                if asked == Some(rule) && (fit.is_some() || fit_error.is_some()) {
                    self.bots.set(Some(*report));
                    self.fit.set(fit.map(|f| *f));
                    self.fit_error.set(fit_error);
                    self.candidates.set(candidates.map(|c| *c));
                    self.views.set(views.map(|v| *v));
                    self.jobs.set(jobs.map(|j| *j));
                }
                let ms = crate::ui::lab::now_ms() - t0;
                self.handle_ms.update(|m| *m = m.max(ms));
            }
            _ => {}
        }
    }

    /// The trace as the workload of the next run, with the Δ rule shown.
    fn use_trace(self) {
        let Some((name, ..)) = self.imported.get_untracked() else { return };
        let Ok(delta) = parse_delta(&self.delta.get_untracked()) else { return };
        let format = self.imported.with_untracked(|i| i.as_ref().map(|(_, r, _)| r.format));
        let mut s = self.lab.scenario.get_untracked();
        let Ok(m) = mcm(&mut s) else { return };
        m.workload.generator = None;
        m.workload.trace = Some(TraceConfig {
            path: name,
            delta,
            split_parallel: self.split.get_untracked(),
            same_user: self.same_user.get_untracked(),
            format,
        });
        if self.apply(s, "This run replays the trace: its own submit times and run times.") {
            self.lab.start_run();
        }
    }

    /// The log's rigid jobs in the data-grid family: one site of the header's MaxProcs processors (or the widest
    /// job's), no input data, every job of the log; then runs it.
    fn use_data_grid(self) {
        let Some((name, report, _)) = self.imported.get_untracked() else { return };
        let Some(procs) = self.max_procs() else {
            return self.message.set("The log's header gives no MaxProcs: set the data grid's sites by hand.".into());
        };
        let seed = self.lab.scenario.with_untracked(|s| s.seed());
        let jobs = u32::try_from(report.jobs).unwrap_or(u32::MAX);
        let s = crate::registry::rigid_replay(name, procs, jobs, seed);
        if let Err(e) = s.validate() {
            return self.message.set(format!("Not applied: {e}"));
        }
        remember(self.lab, &s);
        crate::ui::family_switch::show_scenario(self.lab, s);
        self.message.set("The data grid replays the log's jobs whole, each on as many processors as it asked.".into());
        self.lab.start_run();
    }

    /// The fitted row as the model of the next run (its runtimes are in seconds).
    fn use_model(self) {
        let Some(fit) = self.fit.get_untracked() else { return };
        let mut s = self.lab.scenario.get_untracked();
        let Ok(m) = mcm(&mut s) else { return };
        m.workload.trace = None;
        m.workload.generator = None;
        m.workload.model = Some(fit.to_model());
        m.workload.calibration = Calibration::Seconds;
        self.apply(
            s,
            "The next run generates a synthetic workload from the fitted row (runtimes in seconds), at the load set \
             under Workload.",
        );
    }

    /// One cluster as the trace's header describes it (MaxProcs processors of speed 1), editable under Platform.
    fn use_platform(self) {
        let Some(procs) = self.max_procs() else { return };
        let name = self
            .imported
            .with_untracked(|i| i.as_ref().and_then(|(_, r, _)| r.header_value("Computer").map(str::to_string)))
            .unwrap_or_else(|| "trace".into());
        let mut s = self.lab.scenario.get_untracked();
        let Ok(m) = mcm(&mut s) else { return };
        m.platform.preset = None;
        m.platform.clusters = Some(vec![Cluster { name, processors: procs, speed: 1.0 }]);
        self.apply(s, &format!("The platform is now one cluster of {procs} processors of speed 1 (MaxProcs)."));
    }

    fn max_procs(self) -> Option<u32> {
        self.imported.with(|i| {
            let r = &i.as_ref()?.1;
            let v = r.header_value("MaxProcs").or_else(|| r.header_value("MaxNodes"))?;
            v.trim().parse::<u32>().ok().filter(|&p| p > 0)
        })
    }

    /// Makes `s` the scenario if it is valid; says what happened, and whether it was applied.
    fn apply(self, s: crate::scenario::Scenario, done: &str) -> bool {
        match s.validate() {
            Ok(()) => {
                remember(self.lab, &s);
                self.lab.scenario.set(s);
                self.message.set(done.to_string());
                true
            }
            Err(e) => {
                self.message.set(format!("Not applied: {e}"));
                false
            }
        }
    }

    /// Reads the next slice of the file being sent and posts it; after the last slice, ends the import.
    fn send_next(self, import_id: u32) {
        let next = self.io.try_update_value(|io| {
            let s = &mut io.sending;
            let sending = s.as_mut().filter(|x| x.import_id == import_id)?;
            let size = sending.file.size();
            if sending.offset >= size {
                *s = None;
                return Some(None);
            }
            let end = (sending.offset + SLICE).min(size);
            let blob: gloo_file::Blob = sending.file.slice(sending.offset, end).into();
            sending.offset = end;
            Some(Some(blob))
        });
        let next = next.flatten();
        match next {
            None => {}
            Some(None) => self.lab.send(&ToWorker::ImportEnd { import_id }),
            Some(Some(blob)) => wasm_bindgen_futures::spawn_local(async move {
                match gloo_file::futures::read_as_bytes(&blob).await {
                    Ok(bytes) => {
                        if self.io.with_value(|io| io.sending.as_ref().is_some_and(|x| x.import_id == import_id)) {
                            self.lab.send(&ToWorker::ImportChunk { import_id, bytes });
                        }
                    }
                    Err(e) => {
                        self.io.update_value(|io| io.sending = None);
                        self.lab.send(&ToWorker::ImportCancel { import_id });
                        let kept = self.imported.with_untracked(Option::is_some);
                        self.phase.set(if kept { Phase::Imported } else { Phase::Failed });
                        self.message.set(format!("The file could not be read ({e}); nothing already loaded changed."));
                    }
                }
            }),
        }
    }

    /// Listens to the worker: its import messages and its death.
    fn listen(self) {
        self.lab.listen(std::rc::Rc::new(move |heard| match heard {
            Heard::Message(
                m @ (FromWorker::ImportProgress { .. }
                | FromWorker::Imported { .. }
                | FromWorker::ImportFailed { .. }
                | FromWorker::TraceBots { .. }
                | FromWorker::Views { .. }),
            ) => {
                self.on_message(m);
                None
            }
            Heard::Died => {
                self.on_worker_died();
                Some(Heard::Died)
            }
            other => Some(other),
        }));
    }

    /// The number of the section's next request (an import, the scenario's views).
    fn next_id(self) -> u32 {
        self.io.update_value(|io| io.next_id += 1);
        self.io.with_value(|io| io.next_id)
    }

    /// The worker died: an import in flight is lost, and so is the imported trace (it lived in that worker).
    fn on_worker_died(self) {
        let t = self;
        self.io.update_value(|io| io.sending = None);
        crate::ui::shown::publish_trace_file(None);
        if t.phase.get_untracked() == Phase::Importing || t.imported.with_untracked(Option::is_some) {
            t.imported.set(None);
            t.bots.set(None);
            t.fit.set(None);
            t.by_delta.set(Vec::new());
            t.phase.set(Phase::Failed);
            t.message
                .set("The simulation worker stopped, and the trace it held is gone: import the file again.".into());
        }
    }
}
