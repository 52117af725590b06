//! The page: scenario controls, the live run (progress, cards, charts), pinned runs, sweeps, sharing and export.
//! Only this module and the worker touch web APIs; the simulator is reached through the protocol types.

mod address;
pub(crate) mod axes;
mod budget;
mod chart_style;
mod charts;
mod client;
mod data_grid;
mod desktop_grid;
mod download;
mod family_switch;
mod fit_plots;
mod form;
mod later;
mod lessons;
mod login_logout;
pub mod measured;
mod multi_cluster;
mod not_modelled;
mod pins;
mod pool;
mod present;
mod readings;
mod references;
mod replay;
mod run_tools;
mod script_box;
mod section;
mod study;
mod trace_lab;
mod views;

use crate::family::multi_cluster::platform;
use crate::protocol::{FromWorker, Progress, ToWorker};
use crate::registry::Family;
use crate::registry::{AnyDetail, AnyReport};
use crate::run::Report;
use crate::scenario::Scenario;
use address::remember;
use client::{Client, Event};
use family_switch::{FamilyPanel, FamilySwitch};
use leptos::prelude::*;
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::rc::Rc;
use wasm_bindgen::JsCast;

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
    static CLIENT: RefCell<Option<Rc<Client>>> = const { RefCell::new(None) };
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
    /// What the runs just shown compare, in plain words (the first open's two runs), above the warnings.
    pub note: RwSignal<String>,
    /// The family of the last run started: the worker keeps that run alone for the exports.
    pub run_family: RwSignal<Family>,
    /// Wall-clock seconds the worker spent generating the workload and computing the report of the current run.
    pub phase_times: RwSignal<(Option<f64>, Option<f64>)>,
    /// Main-thread milliseconds of the last redraw of the charts, and the longest since the run started.
    pub draw_ms: RwSignal<(f64, f64)>,
    /// The pinned runs of the link opened that Run has still to run and pin, oldest first (ui/replay.rs).
    pub replay: RwSignal<Vec<Scenario>>,
}

/// The scenarios of the pinned runs of `family`, oldest first (a link holds them, ui/replay.rs).
fn pinned_scenarios(family: Family) -> Vec<Scenario> {
    match family {
        Family::MultiCluster => multi_cluster::pinned_scenarios(),
        Family::DesktopGrid => desktop_grid::pinned_scenarios(),
        Family::DataGrid => data_grid::pinned_scenarios(),
    }
}

/// Pins the run of `family` that has just finished, as its "Pin this run" does.
fn pin_finished(lab: Lab, family: Family) {
    match family {
        Family::MultiCluster => lab.pin(),
        Family::DesktopGrid => desktop_grid::pin_finished(),
        Family::DataGrid => data_grid::pin_finished(),
    }
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
            note: RwSignal::new(String::new()),
            run_family: RwSignal::new(Family::default()),
            phase_times: RwSignal::new((None, None)),
            draw_ms: RwSignal::new((0.0, 0.0)),
            replay: RwSignal::new(Vec::new()),
        }
    }

    /// Runs the scenario shown, or first the link's pinned runs still waiting (ui/replay.rs).
    fn start_run(self) {
        if !self.errors.with_untracked(|e| e.is_empty()) {
            return;
        }
        let (scenario, pinned) = replay::next(self);
        // Over budget: refused here, before a worker is asked (docs/budget.md).
        if let Some(why) = budget::refusal(&scenario) {
            self.status.set(Status::Failed);
            self.message.set(why);
            return;
        }
        let run_id = self.run_id.get_untracked() + 1;
        self.run_id.set(run_id);
        self.crashed.set(None);
        self.note.set(String::new());
        self.phase_times.set((None, None));
        self.draw_ms.set((0.0, 0.0));
        multi_cluster::on_start(&scenario);
        self.report.set(None);
        self.progress.set(None);
        self.warnings.set(Vec::new());
        self.status.set(Status::Generating);
        self.message.set("generating the workload…".into());
        self.version.update(|v| *v += 1);
        self.run_family.set(scenario.family());
        if !pinned {
            remember(self, &scenario);
        }
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
                    None => self.message.set(replay::waiting_text(self).unwrap_or_default()),
                }
                if self.crashed.get_untracked().is_none()
                    && self.autorun.get_untracked()
                    && self.banner.with_untracked(|b| b.is_none())
                {
                    self.start_run();
                }
            }
            FromWorker::Panicked { message } => self.crashed.set(Some(message)),
            m @ FromWorker::ScriptChecked { .. } => script_box::on_checked(m),
            FromWorker::Started { run_id, start, generate_s } if run_id == current => {
                self.status.set(Status::Running);
                self.phase_times.set((Some(generate_s), None));
                let family = self.scenario.with_untracked(|s| s.family());
                self.message.set(replay::running_text(self, family_switch::started_text(family, &start, generate_s)));
                self.warnings.set(start.warnings);
            }
            FromWorker::Progress(p) if p.run_id == current => {
                let mut p = *p;
                match p.detail.take() {
                    Some(AnyDetail::MultiCluster(d)) => {
                        multi_cluster::on_progress(self, p.header.finished_tasks == p.header.tasks, d)
                    }
                    Some(AnyDetail::DesktopGrid(d)) => desktop_grid::on_progress(self, &p.header, d),
                    Some(AnyDetail::DataGrid(d)) => data_grid::on_progress(self, &p.header, d),
                    None => {}
                }
                self.progress.set(Some(p));
            }
            FromWorker::Paused { run_id } if run_id == current => self.status.set(Status::Paused),
            FromWorker::Cancelled { run_id } if run_id == current => {
                self.status.set(Status::Cancelled);
                self.message.set("cancelled".into());
                replay::on_stopped(self);
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
                    AnyReport::MultiCluster(r) => multi_cluster::on_finished(self, r),
                    AnyReport::DesktopGrid(r) => desktop_grid::on_finished(r),
                    AnyReport::DataGrid(r) => data_grid::on_finished(r),
                }
                replay::on_finished(self);
            }
            FromWorker::Failed { run_id, message } if run_id == current || run_id == 0 => {
                self.status.set(Status::Failed);
                self.message.set(message);
                replay::on_stopped(self);
            }
            FromWorker::BotsCsv { run_id, csv } if run_id == current => {
                let name = match self.scenario.with_untracked(|s| s.family()) {
                    Family::DataGrid => "bagsim-jobs.csv",
                    _ => "bagsim-bots.csv",
                };
                download::text(name, "text/csv", &csv);
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
}

pub(crate) fn fmt_time(s: f64) -> String {
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
                let left = if !finished() && h.now > 0.0 && wall > 0.0 && h.finished_tasks < h.tasks { (h.horizon - h.now) / (h.now / wall) } else { f64::NAN };
                let left = if left.is_finite() { format!(", at most {} left", fmt_time(left)) } else { String::new() };
                let unit = family_switch::work_unit(lab.scenario.with_untracked(|s| s.family()));
                format!("{:.2} M events/s, {} events, {} of {} {unit} done, {} queued, {} running{left}", rate / 1e6, h.events, h.finished_tasks, h.tasks, h.queued, h.busy)
            }))}</span>
        </div>
        <div id="message" class="message">{move || lab.message.get()}
            <Show when=move || lab.note.with(|n| !n.is_empty())><p class="explain" id="run-note">{move || lab.note.get()}</p></Show>
            {move || run_tools::warnings_view(lab.warnings.get())}
        </div>
        <budget::EstimateLine lab=lab/>
    }
}

#[component]
fn App() -> impl IntoView {
    // Read before the scenario replaces the address (`remember`).
    let lesson = lessons::requested();
    let lab = Lab::new();
    // Before the scenario is written back into the address, which drops `?present=1`.
    let present = present::Present::start(lab, |family| match family {
        Family::MultiCluster => multi_cluster::CHARTS.to_vec(),
        Family::DesktopGrid => desktop_grid::charts_list(),
        Family::DataGrid => data_grid::charts_list(),
    });
    let initial = address::initial_scenario(&lab);
    lab.scenario.set(initial.clone());
    // The first view (run bar, cards) comes first, in the task after the mount; then each other part of the page is
    // rendered in a task of its own, and the worker and the charts start last, so that no task holds the page for long
    // (the first call of any code also compiles it, in the browsers that compile WebAssembly lazily). The lessons and
    // the paper figures come after the simulator, so rendering them later moves nothing in view; a lesson asked for by
    // the address is part of the first view. On a first open the parts below the first screen wait until its result is
    // in or the visitor acts (`later.rs`).
    let [first_view, charts_on, controls_on, lessons_on, paper_on, table_on, trace_on, sweep_on, footer_on] =
        [(); 9].map(|_| RwSignal::new(false));
    lessons_on.set(lesson.is_some());
    lessons::wire_intro_link();
    let show = |on: RwSignal<bool>| Box::new(move || on.set(true)) as Box<dyn FnOnce()>;
    // The mount builds the page's frame, hidden (index.html's `#app hidden`); in the next task the run bar and the
    // cards are built and the page takes the static skeleton's place, at once: no frame shows both or neither, so
    // nothing in view moves. The scenario goes into the address and the browser's storage next.
    let replace_skeleton = move || {
        first_view.set(true);
        if let Some(skeleton) = document().get_element_by_id("skeleton") {
            skeleton.remove();
        }
        if let Some(app) = document().get_element_by_id("app") {
            let _ = app.remove_attribute("hidden");
        }
    };
    let mut stages: Vec<Box<dyn FnOnce()>> =
        vec![Box::new(replace_skeleton), Box::new(move || remember(lab, &initial)), show(charts_on), show(controls_on)];
    let below: Vec<Box<dyn FnOnce()>> =
        [lessons_on, table_on, sweep_on, trace_on, paper_on, footer_on].into_iter().map(show).collect();
    let first_open = multi_cluster::first_open::active();
    if first_open {
        later::hold(below);
    } else {
        stages.extend(below);
    }
    stages.push(Box::new(move || start_worker(lab)));
    // The empty charts, one per task; the next redraw (a run) draws them all. A first open's run draws them within
    // a second or two: empty axes first would only hold the page longer.
    if !first_open {
        for (id, _) in multi_cluster::CHARTS {
            stages.push(Box::new(move || multi_cluster::with_runs(|runs| multi_cluster::draw_on_canvas(id, runs))));
        }
    }
    request_animation_frame(move || reveal(stages));
    let processors = move || {
        lab.scenario.with(|s| {
            form::mc(s)
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
        <main>
            <aside class="controls" aria-label="scenario">
                <Show when=move || controls_on.get() || lab.scenario.with(|s| s.family() != Family::MultiCluster)>
                    <FamilySwitch lab=lab/>
                </Show>
                <FamilyPanel lab=lab family=Family::DesktopGrid>
                    <desktop_grid::DgControls lab=lab/>
                    <not_modelled::NotModelled family=Family::DesktopGrid/>
                </FamilyPanel>
                <FamilyPanel lab=lab family=Family::DataGrid>
                    <data_grid::DataGridControls lab=lab/>
                    <not_modelled::NotModelled family=Family::DataGrid/>
                </FamilyPanel>
                <FamilyPanel lab=lab family=Family::MultiCluster>
                    <Show when=move || controls_on.get()>
                        <multi_cluster::controls::Controls lab=lab/>
                        <div class="platform-summary">{move || match processors() {
                            Ok((c, p, cap)) => format!("{c} clusters, {p} processors, capacity {cap:.0} reference processors"),
                            Err(e) => e,
                        }}</div>
                        <not_modelled::NotModelled family=Family::MultiCluster/>
                    </Show>
                </FamilyPanel>
            </aside>
            <section class="results" aria-label="results">
                <Show when=move || first_view.get()><RunBar lab=lab present=present/></Show>
                <FamilyPanel lab=lab family=Family::DesktopGrid>
                    <desktop_grid::DgResults lab=lab present=present/>
                </FamilyPanel>
                <FamilyPanel lab=lab family=Family::DataGrid>
                    <data_grid::DataGridResults lab=lab present=present/>
                </FamilyPanel>
                <FamilyPanel lab=lab family=Family::MultiCluster>
                    <Show when=move || first_view.get()><multi_cluster::cards::Cards lab=lab/></Show>
                    <Show when=move || charts_on.get()>
                        <multi_cluster::Compare lab=lab/>
                        <multi_cluster::Charts lab=lab present=present/>
                    </Show>
                    <Show when=move || table_on.get()><multi_cluster::ClassTable lab=lab/></Show>
                    <Show when=move || trace_on.get()><trace_lab::TraceLabView lab=lab/></Show>
                    <Show when=move || sweep_on.get()><multi_cluster::Sweep lab=lab/></Show>
                </FamilyPanel>
                <Show when=move || sweep_on.get()><study::OpenStudy/></Show>
            </section>
        </main>
        // The simulator first at every width; then the lessons and the paper's figures.
        <Show when=move || lessons_on.get()><lessons::Lessons initial=lesson.clone() present=present lab=lab/></Show>
        <FamilyPanel lab=lab family=Family::MultiCluster>
            <Show when=move || paper_on.get()><multi_cluster::paper::PaperFigures/></Show>
        </FamilyPanel>
        <Show when=move || footer_on.get()><footer>
            <p>"Workload model and policies: Iosup et al. 2008 (Table 3 presets, §2–§5). Notation: W(k, λ) Weibull shape k scale λ; N(μ, σ); LN(μ, σ); G(k, θ); Z(α, n). Times in seconds of simulated time."</p>
            <references::References/>
        </footer></Show>
    }
}

/// Runs each step (render a part of the page, start the worker, draw the charts) in a task of its own, in order.
pub(crate) fn reveal(mut stages: Vec<Box<dyn FnOnce()>>) {
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

/// Mounts the page into index.html's `#app`, under the static shell: the title and the explanation stay, and the
/// skeleton of the run bar and the cards makes way for the live ones in the next task (`App`).
pub fn mount() {
    console_error_panic_hook::set_once();
    match document().get_element_by_id("app").and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
        Some(root) => leptos::mount::mount_to(root, App).forget(),
        None => leptos::mount::mount_to_body(App),
    }
}
