//! The page: scenario controls, the live run (progress, cards, charts), pinned runs, sweeps, sharing and export.
//! Only this module and the worker touch web APIs; the simulator is reached through the protocol types.

mod charts;
mod client;
mod controls;
mod desktop_grid;
mod dg_figures;
mod download;
mod family_switch;
mod fit_plots;
mod form;
mod login_logout;
mod numbers;
mod paper;
mod pool;
mod present;
mod references;
mod section;
mod trace_lab;
mod views;

use crate::family::multi_cluster::platform;
use crate::family::multi_cluster::simulation::Sample;
use crate::family::Family;
use crate::protocol::{FromWorker, Progress, ToWorker};
use crate::registry::{AnyDetail, AnyReport};
use crate::run::Report;
use crate::scenario::Scenario;
use crate::share;
use charts::RunData;
use client::{Client, Event};
use family_switch::{FamilyPanel, FamilySwitch};
use gloo_storage::{LocalStorage, Storage};
use leptos::prelude::*;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::rc::Rc;
use wasm_bindgen::JsCast;

const STORAGE_KEY: &str = "bagsim.scenario";

/// Where the current run stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Loading,
    Ready,
    Generating,
    Running,
    Paused,
    Finished,
    Cancelled,
    Failed,
}

impl Status {
    fn as_str(self) -> &'static str {
        match self {
            Status::Loading => "loading",
            Status::Ready => "ready",
            Status::Generating => "generating",
            Status::Running => "running",
            Status::Paused => "paused",
            Status::Finished => "finished",
            Status::Cancelled => "cancelled",
            Status::Failed => "failed",
        }
    }
}

/// A run kept for comparison.
#[derive(Clone)]
struct Pinned {
    data: RunData,
}

/// Large live data kept outside the reactive graph; `version` tells the charts to redraw.
#[derive(Default)]
struct Live {
    /// The current run (colour 0).
    current: RunData,
    pinned: Vec<Pinned>,
    sweep: Vec<(String, f64, Box<Report>)>,
}

/// The page's redraw throttle: a live run's charts redraw at most four times a second (a forced redraw, at the end
/// of a run, at once). Each family's results hold one.
pub(crate) struct Throttle(Cell<f64>);

impl Throttle {
    pub(crate) const fn new() -> Throttle {
        Throttle(Cell::new(f64::NEG_INFINITY))
    }

    /// Whether to redraw now; if so, the time is noted.
    pub(crate) fn due(&self, force: bool) -> bool {
        let t = now_ms();
        let due = force || t - self.0.get() > 250.0;
        if due {
            self.0.set(t);
        }
        due
    }
}

thread_local! {
    /// The multi-cluster results' redraws.
    static REDRAW: Throttle = const { Throttle::new() };
    static LIVE: RefCell<Live> = RefCell::new(Live::default());
    static CLIENT: RefCell<Option<Rc<Client>>> = const { RefCell::new(None) };
    static SWEEP_POOL: RefCell<Option<pool::Pool>> = const { RefCell::new(None) };
}

/// The page's reactive state; every field is a signal, so the struct is Copy and shared through context.
#[derive(Clone, Copy)]
pub struct Lab {
    pub scenario: RwSignal<Scenario>,
    pub errors: RwSignal<BTreeMap<String, String>>,
    pub status: RwSignal<Status>,
    pub message: RwSignal<String>,
    pub banner: RwSignal<Option<String>>,
    pub progress: RwSignal<Option<Progress>>,
    pub report: RwSignal<Option<Box<Report>>>,
    pub run_id: RwSignal<u32>,
    pub version: RwSignal<u64>,
    pub speed: RwSignal<Option<f64>>,
    pub pinned_labels: RwSignal<Vec<String>>,
    pub warnings: RwSignal<Vec<String>>,
    pub autorun: RwSignal<bool>,
    pub sweep_status: RwSignal<String>,
    pub sweep_version: RwSignal<u64>,
    /// Why the last worker died, until the next run starts.
    pub crashed: RwSignal<Option<String>>,
    /// Wall-clock seconds the worker spent generating the workload and computing the report of the current run.
    pub phase_times: RwSignal<(Option<f64>, Option<f64>)>,
    /// Main-thread milliseconds of the last redraw of the charts, and the longest since the run started.
    pub draw_ms: RwSignal<(f64, f64)>,
}

fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// `window.__bagsimCrashWorker()` makes the simulation worker panic (fault injection for the browser test of the
/// page's recovery; harmless otherwise: it ends the visitor's own run, as a crash would).
fn expose_crash_hook() {
    let Some(window) = web_sys::window() else { return };
    let hook = wasm_bindgen::closure::Closure::<dyn Fn()>::new(|| send(&ToWorker::Crash));
    let _ = js_sys::Reflect::set(&window, &"__bagsimCrashWorker".into(), hook.as_ref());
    hook.forget();
}

fn send(msg: &ToWorker) {
    CLIENT.with(|c| {
        if let Some(c) = c.borrow().as_ref() {
            c.send(msg)
        }
    });
}

/// Reads `?scenario=` and `?autorun=1`, else the last scenario from localStorage.
fn initial_scenario(lab: &Lab) -> Scenario {
    let window = web_sys::window().expect("a window");
    let search = window.location().search().unwrap_or_default();
    let params = web_sys::UrlSearchParams::new_with_str(&search).ok();
    let get = |k: &str| params.as_ref().and_then(|p| p.get(k));
    // A stored scenario that no longer parses or validates (an older version's) is ignored.
    let stored = || LocalStorage::get::<Scenario>(STORAGE_KEY).ok().filter(|s| s.validate().is_ok());
    if let Some(link) = get("scenario") {
        match share::from_link(&link) {
            Ok(s) => {
                lab.autorun.set(get("autorun").as_deref() == Some("1"));
                return s;
            }
            Err(e) => {
                lab.banner.set(Some(format!(
                    "This link's scenario could not be loaded ({e}). Nothing was run; the last scenario is shown instead."
                )));
                return stored().unwrap_or_default();
            }
        }
    }
    stored().unwrap_or_default()
}

thread_local! {
    /// Projector mode is on (`present::Present`): the address keeps `&present=1`.
    static PRESENTING: Cell<bool> = const { Cell::new(false) };
}

/// Keeps the scenario in the URL (with `&present=1` in projector mode) and in localStorage.
fn remember(s: &Scenario) {
    let Some(window) = web_sys::window() else { return };
    // Private browsing or a full quota refuses to store: the link in the URL still holds the scenario.
    let _ = LocalStorage::set(STORAGE_KEY, s);
    let present = if PRESENTING.with(Cell::get) { "&present=1" } else { "" };
    let url = format!("?scenario={}{present}", share::to_link(s));
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

impl Lab {
    fn new() -> Self {
        Lab {
            scenario: RwSignal::new(Scenario::default()),
            errors: RwSignal::new(BTreeMap::new()),
            status: RwSignal::new(Status::Loading),
            message: RwSignal::new(String::new()),
            banner: RwSignal::new(None),
            progress: RwSignal::new(None),
            report: RwSignal::new(None),
            run_id: RwSignal::new(0),
            version: RwSignal::new(0),
            speed: RwSignal::new(None),
            pinned_labels: RwSignal::new(Vec::new()),
            warnings: RwSignal::new(Vec::new()),
            autorun: RwSignal::new(false),
            sweep_status: RwSignal::new(String::new()),
            sweep_version: RwSignal::new(0),
            crashed: RwSignal::new(None),
            phase_times: RwSignal::new((None, None)),
            draw_ms: RwSignal::new((0.0, 0.0)),
        }
    }

    fn start_run(self) {
        if !self.errors.with_untracked(|e| e.is_empty()) {
            return;
        }
        let run_id = self.run_id.get_untracked() + 1;
        self.run_id.set(run_id);
        self.crashed.set(None);
        self.phase_times.set((None, None));
        self.draw_ms.set((0.0, 0.0));
        LIVE.with(|l| l.borrow_mut().current = RunData::new("current run", 0));
        self.report.set(None);
        self.progress.set(None);
        self.warnings.set(Vec::new());
        self.status.set(Status::Generating);
        self.message.set("generating the workload…".into());
        self.version.update(|v| *v += 1);
        let scenario = self.scenario.get_untracked();
        remember(&scenario);
        send(&ToWorker::Run { run_id, scenario: Box::new(scenario), speed: self.speed.get_untracked(), live: true });
    }

    fn on_event(self, ev: Event) {
        match ev {
            Event::Died(why) => {
                // The run is lost; Run stays disabled until the replacement worker says Ready (messages sent before
                // that would be lost too). The worker's own panic message, if it came first, says more than the
                // error event.
                let why = self.crashed.get_untracked().unwrap_or(why);
                self.status.set(Status::Loading);
                self.crashed.set(Some(why.clone()));
                self.message.set(format!("The simulation worker stopped ({why}); starting a new one…"));
                trace_lab::on_worker_died();
            }
            Event::Message(m) => self.on_message(m),
        }
    }

    fn on_message(self, m: FromWorker) {
        let current = self.run_id.get_untracked();
        match m {
            FromWorker::Ready if self.status.get_untracked() == Status::Loading => {
                self.status.set(Status::Ready);
                match self.crashed.get_untracked() {
                    Some(why) => self.message.set(format!(
                        "The simulation worker stopped ({why}); a new one is ready. Press Run to start again."
                    )),
                    None => self.message.set(String::new()),
                }
                if self.crashed.get_untracked().is_none()
                    && self.autorun.get_untracked()
                    && self.banner.with_untracked(|b| b.is_none())
                {
                    self.start_run();
                }
            }
            FromWorker::Panicked { message } => self.crashed.set(Some(message)),
            FromWorker::Started { run_id, start, generate_s } if run_id == current => {
                self.status.set(Status::Running);
                self.phase_times.set((Some(generate_s), None));
                self.message.set(format!(
                    "{} BoTs, {} tasks, achieved load {:.4} (generated in {generate_s:.2} s)",
                    start.bots, start.tasks, start.achieved_load
                ));
                self.warnings.set(start.warnings);
            }
            FromWorker::Progress(p) if p.run_id == current => {
                let mut p = *p;
                match p.detail.take() {
                    Some(AnyDetail::MultiCluster(d)) => {
                        LIVE.with(|l| l.borrow_mut().current.extend(&d.samples, &d.bots));
                        self.redraw(p.header.finished_tasks == p.header.tasks);
                    }
                    Some(AnyDetail::DesktopGrid(d)) => desktop_grid::on_progress(self, &p.header, d),
                    None => {}
                }
                self.progress.set(Some(p));
            }
            FromWorker::Paused { run_id } if run_id == current => self.status.set(Status::Paused),
            FromWorker::Cancelled { run_id } if run_id == current => {
                self.status.set(Status::Cancelled);
                self.message.set("cancelled".into());
            }
            FromWorker::Finished { run_id, report, report_s } if run_id == current => {
                self.status.set(Status::Finished);
                self.phase_times.update(|t| t.1 = Some(report_s));
                let generated = self.phase_times.get_untracked().0.map_or(String::new(), |g| {
                    format!(" (workload generated in {g:.2} s, report computed in {report_s:.2} s)")
                });
                self.message.set(format!(
                    "finished: simulated {:.1} days in {:.2} s{generated}",
                    report.end_time() / 86_400.0,
                    report.wall_time_s()
                ));
                match *report {
                    AnyReport::MultiCluster(r) => {
                        self.report.set(Some(r));
                        self.redraw(true);
                    }
                    AnyReport::DesktopGrid(r) => desktop_grid::on_finished(r),
                }
            }
            FromWorker::Failed { run_id, message } if run_id == current || run_id == 0 => {
                self.status.set(Status::Failed);
                self.message.set(message);
            }
            FromWorker::BotsCsv { run_id, csv } if run_id == current => {
                download::text("bagsim-bots.csv", "text/csv", &csv);
            }
            FromWorker::ReportJson { run_id, json } if run_id == current => {
                download::text("bagsim-report.json", "application/json", &json);
            }
            m @ (FromWorker::ImportProgress { .. }
            | FromWorker::Imported { .. }
            | FromWorker::ImportFailed { .. }
            | FromWorker::TraceBots { .. }
            | FromWorker::Views { .. }) => trace_lab::on_message(m),
            _ => {}
        }
    }

    /// Asks the charts to redraw, at most four times a second while a run streams.
    fn redraw(self, force: bool) {
        if REDRAW.with(|t| t.due(force)) {
            self.version.update(|v| *v += 1);
        }
    }

    fn pin(self) {
        let Some(report) = self.report.get_untracked() else { return };
        let s = &report.scenario;
        let label = format!(
            "{} {} {} load {}",
            s.architecture.kind.name(),
            s.selection.name(),
            s.scheduling,
            s.workload.load.map_or("-".into(), |l| format!("{l}"))
        );
        LIVE.with(|l| {
            let mut l = l.borrow_mut();
            if l.pinned.len() >= charts::PALETTE.len() - 1 {
                l.pinned.remove(0);
            }
            let colour = 1 + l.pinned.len();
            let data = l.current.relabelled(&label, colour);
            l.pinned.push(Pinned { data });
            let labels = l.pinned.iter().map(|p| p.data.label.clone()).collect();
            self.pinned_labels.set(labels);
        });
        self.version.update(|v| *v += 1);
    }
}

/// Calls `f` with the runs drawn (borrowed, not copied): the pinned ones, then the current one, which is drawn
/// last so that it lies on top.
fn with_runs<T>(f: impl FnOnce(&[&RunData]) -> T) -> T {
    LIVE.with(|l| {
        let l = l.borrow();
        let runs: Vec<&RunData> = l.pinned.iter().map(|p| &p.data).chain(std::iter::once(&l.current)).collect();
        f(&runs)
    })
}

/// The five charts, by canvas id.
pub const CHARTS: [(&str, &str); 5] = [
    ("chart-queue", "Queued tasks over time (thin lines: per cluster)"),
    ("chart-util", "Utilization over time"),
    ("chart-nsl-class", "Mean NSL per BoT size class"),
    ("chart-ms-class", "Mean makespan per BoT size class"),
    ("chart-cdf", "CDF of BoT makespan and NSL"),
];

/// Draws chart `id` on any backend.
fn draw_chart<DB: DrawingBackend>(id: &str, root: &DrawingArea<DB, plotters::coord::Shift>, runs: &[&RunData]) {
    let _ = match id {
        "chart-queue" => charts::draw_time_series(
            root,
            "Queued tasks",
            "tasks",
            runs,
            &charts::queued,
            Some(&|s: &Sample, c: usize| f64::from(s.cluster_queued[c])),
        ),
        "chart-util" => {
            charts::draw_time_series(root, "Utilization", "busy / processors", runs, &charts::utilization, None)
        }
        "chart-nsl-class" => charts::draw_classes(root, "Mean NSL per size class", "NSL", runs, true),
        "chart-ms-class" => charts::draw_classes(root, "Mean makespan per size class", "makespan [s]", runs, false),
        _ => charts::draw_cdfs(root, runs),
    };
    let _ = root.present();
}

fn draw_on_canvas(id: &str, runs: &[&RunData]) {
    let Some(canvas) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
        .and_then(|e| e.dyn_into::<web_sys::HtmlCanvasElement>().ok())
    else {
        return;
    };
    if let Some(backend) = CanvasBackend::with_canvas_object(canvas) {
        draw_chart(id, &backend.into_drawing_area(), runs);
    }
}

fn export_chart(id: &str, svg: bool) {
    if svg {
        let mut out = String::new();
        with_runs(|runs| {
            let backend = SVGBackend::with_string(&mut out, (900, 450));
            draw_chart(id, &backend.into_drawing_area(), runs);
        });
        download::text(&format!("bagsim-{id}.svg"), "image/svg+xml", &out);
    } else if let Some(canvas) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
        .and_then(|e| e.dyn_into::<web_sys::HtmlCanvasElement>().ok())
    {
        if let Ok(url) = canvas.to_data_url() {
            download::url_download(&format!("bagsim-{id}.png"), &url);
        }
    }
}

fn fmt_time(s: f64) -> String {
    if s < 120.0 {
        format!("{s:.1} s")
    } else if s < 7200.0 {
        format!("{:.1} min", s / 60.0)
    } else if s < 2.0 * 86_400.0 {
        format!("{:.1} h", s / 3600.0)
    } else {
        format!("{:.1} days", s / 86_400.0)
    }
}

/// The card values: the final report when there is one, else live figures from the stream.
fn card_values(lab: &Lab) -> [(f64, String); 5] {
    if let Some(r) = lab.report.get() {
        let m = &r.metrics;
        return [
            (m.tasks.finished_fraction, format!("{:.2}%", 100.0 * m.tasks.finished_fraction)),
            (m.system.utilization, format!("{:.1}%", 100.0 * m.system.utilization)),
            (m.overall.makespan.mean, fmt_time(m.overall.makespan.mean)),
            (m.overall.nsl.mean, format!("{:.3}", m.overall.nsl.mean)),
            (m.tasks.wait.mean, fmt_time(m.tasks.wait.mean)),
        ];
    }
    lab.version.track();
    let p = lab.progress.get();
    LIVE.with(|l| {
        let l = l.borrow();
        let fin = p.as_ref().map_or(f64::NAN, |p| p.header.finished_tasks as f64 / p.header.tasks.max(1) as f64);
        let util = l.current.mean_utilization();
        let (ms, nsl, wait) = l.current.bot_means();
        let show = |v: f64, f: &dyn Fn(f64) -> String| if v.is_nan() { "—".to_string() } else { f(v) };
        [
            (fin, show(fin, &|v| format!("{:.2}%", 100.0 * v))),
            (util, show(util, &|v| format!("{:.1}%", 100.0 * v))),
            (ms, show(ms, &fmt_time)),
            (nsl, show(nsl, &|v| format!("{v:.3}"))),
            (wait, show(wait, &fmt_time)),
        ]
    })
}

#[component]
fn Cards(lab: Lab) -> impl IntoView {
    let values = Memo::new(move |_| card_values(&lab));
    let cards = [
        ("card-finished", "Finished tasks", "finished / all tasks; unfinished work is never hidden"),
        ("card-utilization", "Utilization", "busy processor-seconds / available processor-seconds"),
        ("card-makespan", "Mean makespan", "per BoT: latest completion − submission (Iosup et al. 2008, §4.1)"),
        (
            "card-nsl",
            "Mean NSL",
            "per BoT: makespan / Σ task runtimes on the reference processor (Iosup et al. 2008, §4.1)",
        ),
        ("card-wait", "Mean wait", "per task: first start − submission (live: per BoT)"),
    ];
    view! {
        <div class="cards">
            {cards
                .into_iter()
                .enumerate()
                .map(|(i, (id, title, help))| {
                    view! {
                        <div class="card" id=id title=help data-value=move || values.with(|v| v[i].0.to_string())>
                            <div class="card-title">{title}</div>
                            <div class="card-value">{move || values.with(|v| v[i].1.clone())}</div>
                        </div>
                    }
                })
                .collect_view()}
            <div class="card" id="card-wall" title="wall-clock time the worker spent simulating (not generating the workload or computing the report)"
                data-value=move || lab.report.with(|r| r.as_ref().map_or(String::new(), |r| r.wall_time_s.to_string()))
                data-generate=move || lab.phase_times.get().0.map_or(String::new(), |t| t.to_string())
                data-report=move || lab.phase_times.get().1.map_or(String::new(), |t| t.to_string())>
                <div class="card-title">"Wall time"</div>
                <div class="card-value">
                    {move || lab.report.with(|r| r.as_ref().map_or("—".to_string(), |r| format!("{:.2} s", r.wall_time_s)))}
                </div>
            </div>
        </div>
    }
}

#[component]
fn RunBar(lab: Lab, present: present::Present) -> impl IntoView {
    let speeds: [(&str, Option<f64>); 5] = [
        ("as fast as possible", None),
        ("1 hour per second", Some(3600.0)),
        ("6 hours per second", Some(21_600.0)),
        ("1 day per second", Some(86_400.0)),
        ("1 week per second", Some(604_800.0)),
    ];
    let progress_value =
        move || lab.progress.with(|p| p.as_ref().map_or(0.0, |p| 1000.0 * p.header.now / p.header.horizon.max(1.0)));
    let finished = move || lab.status.get() == Status::Finished;
    view! {
        <div class="runbar">
            <button id="run" class="primary"
                disabled=move || lab.status.get() == Status::Loading || !lab.errors.with(|e| e.is_empty())
                on:click=move |_| lab.start_run()>"Run"</button>
            <button id="pause" disabled=move || lab.status.get() != Status::Running
                on:click=move |_| send(&ToWorker::Pause { run_id: lab.run_id.get_untracked() })>"Pause"</button>
            <button id="resume" disabled=move || lab.status.get() != Status::Paused
                on:click=move |_| {
                    lab.status.set(Status::Running);
                    send(&ToWorker::Resume { run_id: lab.run_id.get_untracked() })
                }>"Resume"</button>
            <button id="cancel" disabled=move || !matches!(lab.status.get(), Status::Running | Status::Paused | Status::Generating)
                on:click=move |_| send(&ToWorker::Cancel { run_id: lab.run_id.get_untracked() })>"Cancel"</button>
            <label class="speed">"Speed "
                <select id="speed" on:change=move |ev| {
                    let i: usize = event_target_value(&ev).parse().unwrap_or(0);
                    let speed = speeds[i.min(speeds.len() - 1)].1;
                    lab.speed.set(speed);
                    send(&ToWorker::Speed { run_id: lab.run_id.get_untracked(), speed });
                }>
                    {speeds.iter().enumerate().map(|(i, (name, _))| view! { <option value=i.to_string()>{*name}</option> }).collect_view()}
                </select>
            </label>
            <span id="status" role="status" class=move || format!("status {}", lab.status.get().as_str())>{move || lab.status.get().as_str()}</span>
            <present::PresentButton p=present/>
        </div>
        <div class="progressline">
            <progress id="progress" aria-label="simulated time" max="1000" prop:value=move || if finished() { 1000.0 } else { progress_value() }></progress>
            <span id="sim-time">{move || lab.progress.with(|p| p.as_ref().map_or(String::new(), |p| format!("simulated {} of {}", fmt_time(p.header.now), fmt_time(p.header.horizon))))}</span>
            <span id="events-per-s">{move || lab.progress.with(|p| p.as_ref().map_or(String::new(), |p| {
                let (h, wall) = (&p.header, p.wall);
                let rate = if wall > 0.0 { h.events as f64 / wall } else { 0.0 };
                let left = if h.now > 0.0 && wall > 0.0 && h.finished_tasks < h.tasks { (h.horizon - h.now) / (h.now / wall) } else { f64::NAN };
                let left = if left.is_finite() { format!(", at most {} left", fmt_time(left)) } else { String::new() };
                format!("{:.2} M events/s, {} events, {} of {} tasks done, {} queued, {} running{left}", rate / 1e6, h.events, h.finished_tasks, h.tasks, h.queued, h.busy)
            }))}</span>
        </div>
        <div id="message" class="message">{move || lab.message.get()}
            {move || lab.warnings.get().into_iter().map(|w| view! { <div class="warning">"⚠ " {w}</div> }).collect_view()}
        </div>
    }
}

#[component]
fn Charts(lab: Lab, present: present::Present) -> impl IntoView {
    Effect::new(move |_| {
        // The first view is painted before the charts are drawn (`App` bumps the version once it is).
        if lab.version.get() == 0 {
            return;
        }
        let t0 = now_ms();
        with_runs(|runs| {
            for (id, _) in CHARTS {
                draw_on_canvas(id, runs);
            }
        });
        let ms = now_ms() - t0;
        lab.draw_ms.update(|d| *d = (ms, d.1.max(ms)));
    });
    view! {
        <present::ChartStepper p=present/>
        <div class="charts" id="charts" data-draw-ms=move || lab.draw_ms.get().0.to_string()
            data-draw-ms-max=move || lab.draw_ms.get().1.to_string()>
            {CHARTS.iter().enumerate().map(|(i, &(id, title))| {
                let wide = id == "chart-cdf";
                let class = move || {
                    let current = if present.index.get() == i { " current" } else { "" };
                    format!("chart{}{current}", if wide { " wide" } else { "" })
                };
                // Projector mode draws at the size it is shown, so that type and lines stay sharp.
                let width = move || if present.on.get() { "1600" } else if wide { "1000" } else { "560" };
                let height = move || if present.on.get() { "760" } else { "320" };
                view! {
                    <figure class=class>
                        <canvas id=id width=width height=height role="img"
                            aria-label=format!("{title}: chart; press Numbers for its values")></canvas>
                        <figcaption>{title}
                            <button class="small" id=format!("{id}-png") aria-label=format!("download {title} as PNG") on:click=move |_| export_chart(id, false)>"PNG"</button>
                            <button class="small" id=format!("{id}-svg") aria-label=format!("download {title} as SVG") on:click=move |_| export_chart(id, true)>"SVG"</button>
                            <numbers::ChartNumbers lab=lab id=id title=title/>
                        </figcaption>
                    </figure>
                }
            }).collect_view()}
        </div>
    }
}

#[component]
fn Compare(lab: Lab) -> impl IntoView {
    let share_note = RwSignal::new(String::new());
    view! {
        <div class="compare">
            <button id="pin" disabled=move || lab.report.with(|r| r.is_none()) on:click=move |_| lab.pin()
                title="Keep this run on the charts to compare it with the next ones">"Pin this run"</button>
            <button id="unpin" disabled=move || lab.pinned_labels.with(|p| p.is_empty()) on:click=move |_| {
                LIVE.with(|l| l.borrow_mut().pinned.clear());
                lab.pinned_labels.set(Vec::new());
                lab.version.update(|v| *v += 1);
            }>"Clear pinned"</button>
            <button id="share" on:click=move |_| {
                remember(&lab.scenario.get_untracked());
                let href = web_sys::window().and_then(|w| w.location().href().ok()).unwrap_or_default();
                if let Some(w) = web_sys::window() {
                    let _ = w.navigator().clipboard().write_text(&href);
                }
                share_note.set("link copied: it reproduces this scenario exactly".into());
            }>"Copy link"</button>
            <button id="export-json" disabled=move || lab.report.with(|r| r.is_none())
                title="The full report, as `bagsim run --out` writes it (the worker adds the predictors' accuracy)"
                on:click=move |_| send(&ToWorker::ExportReport { run_id: lab.run_id.get_untracked() })>"Report (JSON)"</button>
            <button id="export-csv" disabled=move || lab.report.with(|r| r.is_none())
                on:click=move |_| send(&ToWorker::ExportBots { run_id: lab.run_id.get_untracked() })>"Per-BoT results (CSV)"</button>
            <span class="note">{move || share_note.get()}</span>
            <ul class="pinned">
                <li>{swatch(0)}"current run"</li>
                {move || lab.pinned_labels.get().into_iter().enumerate().map(|(i, l)| view! {
                    <li>{swatch(i + 1)}{l}</li>
                }).collect_view()}
            </ul>
        </div>
    }
}

/// A run's line in the legend: its colour, dash pattern and marker, as on the charts.
fn swatch(i: usize) -> impl IntoView {
    let c = charts::PALETTE[i % charts::PALETTE.len()];
    let colour = format!("rgb({},{},{})", c.0, c.1, c.2);
    let mark = match charts::marker(i) {
        "circle" => format!("<circle cx='14' cy='6' r='4' fill='{colour}'/>"),
        "triangle" => format!("<polygon points='14,1 19,10 9,10' fill='{colour}'/>"),
        "cross" => format!("<path d='M10 2 L18 10 M18 2 L10 10' stroke='{colour}' stroke-width='2'/>"),
        _ => format!("<rect x='10' y='2' width='8' height='8' fill='{colour}'/>"),
    };
    let svg = format!(
        "<svg class='swatch' width='28' height='12' aria-hidden='true'><line x1='0' y1='6' x2='28' y2='6' stroke='{colour}' stroke-width='3' stroke-dasharray='{}'/>{mark}</svg>",
        charts::dash_array(i)
    );
    view! { <span class="swatch-line" inner_html=svg></span> }
}

#[component]
fn ClassTable(lab: Lab) -> impl IntoView {
    view! {
        {move || lab.report.get().map(|r| view! {
            <table class="classes" id="class-table">
                <thead><tr><th>"size class"</th><th>"BoTs"</th><th>"finished"</th><th>"mean MS"</th><th>"p90 MS"</th><th>"mean NSL"</th><th>"p90 NSL"</th><th>"mean wait"</th></tr></thead>
                <tbody>
                    {r.metrics.per_class.iter().chain(std::iter::once(&r.metrics.overall)).map(|g| view! {
                        <tr><td>{g.class.clone()}</td><td>{g.bots}</td><td>{g.finished}</td>
                        <td>{fmt_time(g.makespan.mean)}</td><td>{fmt_time(g.makespan.p90)}</td>
                        <td>{format!("{:.3}", g.nsl.mean)}</td><td>{format!("{:.3}", g.nsl.p90)}</td><td>{fmt_time(g.wait.mean)}</td></tr>
                    }).collect_view()}
                </tbody>
            </table>
        })}
    }
}

#[component]
fn Sweep(lab: Lab) -> impl IntoView {
    let policies = RwSignal::new(vec!["FPLT".to_string(), "ECT".to_string(), "RR".to_string()]);
    let loads = [0.2, 0.35, 0.5, 0.65, 0.8, 0.95];
    let all = ["ECT", "FPLT", "RR", "WQR-3", "DFPLT", "ECT-P", "STFR", "FPF"];
    let start = move |_| {
        let base = lab.scenario.get_untracked();
        let mut jobs = Vec::new();
        for p in policies.get_untracked() {
            for &load in &loads {
                let mut s = base.clone();
                s.multi_cluster.scheduling = p.parse().expect("listed policy");
                s.multi_cluster.workload.load = Some(load);
                jobs.push((p.clone(), load, s));
            }
        }
        LIVE.with(|l| l.borrow_mut().sweep.clear());
        start_sweep(lab, jobs);
    };
    Effect::new(move |_| {
        lab.sweep_version.track();
        let (ms, nsl) = LIVE.with(|l| {
            let l = l.borrow();
            let mut ms: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
            let mut nsl: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
            for (p, load, r) in &l.sweep {
                ms.entry(p.clone()).or_default().push((*load, r.metrics.overall.makespan.mean));
                nsl.entry(p.clone()).or_default().push((*load, r.metrics.overall.nsl.mean));
            }
            let sort = |m: BTreeMap<String, Vec<(f64, f64)>>| -> Vec<(String, Vec<(f64, f64)>)> {
                m.into_iter()
                    .map(|(k, mut v)| {
                        v.sort_by(|a, b| a.0.total_cmp(&b.0));
                        (k, v)
                    })
                    .collect()
            };
            (sort(ms), sort(nsl))
        });
        for (id, title, y, lines) in [
            ("chart-sweep-ms", "Mean makespan vs load", "makespan [s]", &ms),
            ("chart-sweep-nsl", "Mean NSL vs load", "NSL", &nsl),
        ] {
            if let Some(canvas) = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.get_element_by_id(id))
                .and_then(|e| e.dyn_into::<web_sys::HtmlCanvasElement>().ok())
            {
                // The plotted numbers, for whoever wants to check them (the browser test does, against native runs).
                let _ = canvas.set_attribute("data-series", &serde_json::to_string(lines).unwrap_or_default());
                if let Some(b) = CanvasBackend::with_canvas_object(canvas) {
                    let root = b.into_drawing_area();
                    let _ = charts::draw_sweep(&root, title, y, lines);
                    let _ = root.present();
                }
            }
        }
    });
    view! {
        <details class="sweep">
            <summary>"Sweep: load 20–95% × policies, in parallel workers (as the paper's Figures 4 and 11)"</summary>
            <div class="sweep-policies">
                {all.iter().map(|&p| view! {
                    <label><input type="checkbox" prop:checked=move || policies.with(|v| v.iter().any(|x| x == p))
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            policies.update(|v| { v.retain(|x| x != p); if on { v.push(p.to_string()); } });
                        }/>{p}</label>
                }).collect_view()}
                <button id="sweep-run" on:click=start disabled=move || !lab.errors.with(|e| e.is_empty())>"Run sweep"</button>
                <span id="sweep-status">{move || lab.sweep_status.get()}</span>
            </div>
            <div class="charts">
                <figure class="chart"><canvas id="chart-sweep-ms" width="560" height="320"></canvas></figure>
                <figure class="chart"><canvas id="chart-sweep-nsl" width="560" height="320"></canvas></figure>
            </div>
        </details>
    }
}

/// Runs the sweep's jobs on the worker pool (a new sweep ends the previous one), without live data.
fn start_sweep(lab: Lab, jobs: Vec<(String, f64, Scenario)>) {
    let total = jobs.len();
    let (labels, scenarios): (Vec<(String, f64)>, Vec<Scenario>) =
        jobs.into_iter().map(|(p, l, s)| ((p, l), s)).unzip();
    let done = Rc::new(RefCell::new(0usize));
    // Runs that failed or whose worker died: the sweep goes on without them and says so.
    let lost: Rc<RefCell<Vec<String>>> = Rc::new(RefCell::new(Vec::new()));
    let status = move |done: usize, lost: &[String]| {
        let mut s = format!("{done} of {total} runs done");
        if let Some(last) = lost.last() {
            s += &format!("; {} lost ({last})", lost.len());
        }
        lab.sweep_status.set(s);
    };
    status(0, &[]);
    SWEEP_POOL.with(|p| p.borrow_mut().take());
    let on_done: pool::OnDone = Rc::new(move |job, outcome| {
        match outcome {
            pool::Outcome::Finished(report) => {
                let AnyReport::MultiCluster(report) = *report else {
                    lost.borrow_mut().push("a run gave another family's report".into());
                    return status(*done.borrow(), &lost.borrow());
                };
                if let Some((p, load)) = labels.get(job).cloned() {
                    LIVE.with(|l| l.borrow_mut().sweep.push((p, load, report)));
                }
                *done.borrow_mut() += 1;
                lab.sweep_version.update(|v| *v += 1);
            }
            pool::Outcome::Failed(message) => lost.borrow_mut().push(format!("a run failed: {message}")),
            pool::Outcome::Figure(_) => lost.borrow_mut().push("a run gave a figure job's result".into()),
        }
        status(*done.borrow(), &lost.borrow());
    });
    let trace = scenarios.first().and_then(trace_lab::trace_file_for);
    let jobs = scenarios.into_iter().map(|s| pool::Job::Run(Box::new(s))).collect();
    match pool::Pool::start_with_trace(jobs, on_done, trace) {
        Ok(p) => SWEEP_POOL.with(|slot| *slot.borrow_mut() = Some(p)),
        Err(e) => lab.sweep_status.set(e),
    }
}

#[component]
fn App() -> impl IntoView {
    let lab = Lab::new();
    // Before the scenario is written back into the address, which drops `?present=1`.
    let present = present::Present::start(lab);
    let initial = initial_scenario(&lab);
    lab.scenario.set(initial.clone());
    remember(&initial);
    // The first view (run bar, cards, empty charts) is painted first; then each other part of the page is rendered
    // in a task of its own, and the worker and the charts start last, so that no task holds the page for long.
    // Wide, the paper figures come first, so they are part of the first view (rendered later, they would push the
    // rest down); narrow, they come after the results and the controls.
    let wide =
        web_sys::window().and_then(|w| w.inner_width().ok()).and_then(|w| w.as_f64()).is_some_and(|w| w > 1100.0);
    let [controls_on, paper_on, table_on, trace_on, sweep_on, footer_on] = [(); 6].map(|_| RwSignal::new(false));
    paper_on.set(wide);
    let mut stages: Vec<Box<dyn FnOnce()>> = [controls_on, paper_on, table_on, sweep_on, trace_on, footer_on]
        .into_iter()
        .map(|s| Box::new(move || s.set(true)) as Box<dyn FnOnce()>)
        .collect();
    stages.push(Box::new(move || start_worker(lab)));
    // The empty charts, one per task; the next redraw (a run) draws them all.
    for (id, _) in CHARTS {
        stages.push(Box::new(move || with_runs(|runs| draw_on_canvas(id, runs))));
    }
    request_animation_frame(move || reveal(stages));
    let processors = move || {
        lab.scenario.with(|s| {
            s.multi_cluster
                .platform
                .clusters()
                .map(|c| (c.len(), c.iter().map(|c| u64::from(c.processors)).sum::<u64>(), platform::capacity(&c)))
        })
    };
    view! {
        // The title and the explanation are the static shell of index.html, painted before any wasm runs.
        {move || lab.banner.get().map(|b| view! {
            <section aria-label="link error"><div id="banner-error" class="banner" role="alert">{b}</div></section>
        })}
        <FamilyPanel lab=lab family=Family::MultiCluster>
            <Show when=move || paper_on.get()><paper::PaperFigures/></Show>
        </FamilyPanel>
        <main>
            <aside class="controls" aria-label="scenario">
                <FamilySwitch lab=lab/>
                <FamilyPanel lab=lab family=Family::DesktopGrid>
                    <desktop_grid::DgControls lab=lab/>
                </FamilyPanel>
                <FamilyPanel lab=lab family=Family::MultiCluster>
                    <Show when=move || controls_on.get()>
                        <controls::Controls lab=lab/>
                        <div class="platform-summary">{move || match processors() {
                            Ok((c, p, cap)) => format!("{c} clusters, {p} processors, capacity {cap:.0} reference processors"),
                            Err(e) => e,
                        }}</div>
                    </Show>
                </FamilyPanel>
            </aside>
            <section class="results" aria-label="results">
                <RunBar lab=lab present=present/>
                <FamilyPanel lab=lab family=Family::DesktopGrid>
                    <desktop_grid::DgResults lab=lab/>
                </FamilyPanel>
                <FamilyPanel lab=lab family=Family::MultiCluster>
                    <Cards lab=lab/>
                    <Compare lab=lab/>
                    <Charts lab=lab present=present/>
                    <Show when=move || table_on.get()><ClassTable lab=lab/></Show>
                    <Show when=move || trace_on.get()><trace_lab::TraceLabView lab=lab/></Show>
                    <Show when=move || sweep_on.get()><Sweep lab=lab/></Show>
                </FamilyPanel>
            </section>
        </main>
        <Show when=move || footer_on.get()><footer>
            <p>"Workload model and policies: Iosup et al. 2008 (Table 3 presets, §2–§5). Notation: W(k, λ) Weibull shape k scale λ; N(μ, σ); LN(μ, σ); G(k, θ); Z(α, n). Times in seconds of simulated time."</p>
            <references::References/>
        </footer></Show>
    }
}

/// Runs each step (render a part of the page, start the worker, draw the charts) in a task of its own, in order.
fn reveal(mut stages: Vec<Box<dyn FnOnce()>>) {
    if stages.is_empty() {
        return;
    }
    set_timeout(
        move || {
            let step = stages.remove(0);
            step();
            reveal(stages);
        },
        std::time::Duration::ZERO,
    );
}

/// Starts the simulation worker; Run stays disabled until it says Ready.
fn start_worker(lab: Lab) {
    let handler: Rc<dyn Fn(Event)> = Rc::new(move |ev| lab.on_event(ev));
    match Client::new(handler) {
        Ok(c) => {
            CLIENT.with(|slot| *slot.borrow_mut() = Some(c));
            expose_crash_hook();
        }
        Err(_) => {
            lab.status.set(Status::Failed);
            lab.message.set("This browser could not start the simulation worker.".into());
        }
    }
}

/// Mounts the page into index.html's `#app`, over the static shell: the skeleton of the cards makes way for the
/// live ones, the title and the explanation stay.
pub fn mount() {
    console_error_panic_hook::set_once();
    let document = web_sys::window().and_then(|w| w.document()).expect("a document");
    if let Some(skeleton) = document.get_element_by_id("skeleton") {
        skeleton.remove();
    }
    match document.get_element_by_id("app").and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
        Some(root) => leptos::mount::mount_to(root, App).forget(),
        None => leptos::mount::mount_to_body(App),
    }
}
