//! The page's shell: the app (the run bar, the family switch and every part of the page, revealed one task after
//! another), the simulation worker and what its messages do, and running a scenario. It knows no family: it asks
//! the page's list of families (`families.rs`) through their contract (`contract.rs`).

use super::address::{self, remember};
use super::client::{Client, Event};
use super::contract::Families;
use super::family_switch::{panels, FamilySwitch, Slot};
use super::lab::{fmt_time, reveal, Heard, Hooks, Lab, Reveal, Status};
use super::lazy::LazyPanel;
use super::split::Part;
use super::{budget, download, families, later, lessons, present, replay, run_tools, script_box};
use crate::protocol::{FromWorker, PageMessage, ToWorker};
use crate::scenario::Scenario;
use crate::share;
use gloo_storage::{LocalStorage, Storage};
use leptos::prelude::*;
use std::rc::Rc;
use wasm_bindgen::JsCast;

/// Reads `?scenario=` (with its pinned runs, `&pin=`) and `?autorun=1`, else the last scenario from localStorage;
/// on a first open (neither, and no `?lesson=`), the first-open runs unless `?autorun=0`.
fn initial_scenario(lab: &Lab) -> Scenario {
    let window = web_sys::window().expect("a window");
    let search = window.location().search().unwrap_or_default();
    let params = web_sys::UrlSearchParams::new_with_str(&search).ok();
    let get = |k: &str| params.as_ref().and_then(|p| p.get(k));
    // A stored scenario that no longer parses or validates (an older version's) is ignored.
    let stored =
        || LocalStorage::raw().get_item(address::STORAGE_KEY).ok().flatten().and_then(|t| Scenario::from_json(&t).ok());
    if let Some(link) = get("scenario") {
        match share::from_link(&link) {
            Ok(s) => {
                lab.autorun.set(get("autorun").as_deref() == Some("1"));
                match params.as_ref().map_or(Ok(Vec::new()), |p| replay::read(p, s.family())) {
                    Ok(pins) => lab.replay.set(pins),
                    Err(e) => lab.banner.set(Some(format!(
                        "This link's pinned runs could not be loaded ({e}). Its scenario is shown without them."
                    ))),
                }
                return s;
            }
            Err(e) => {
                lab.banner.set(Some(format!(
                    "This link's scenario could not be loaded ({e}). Nothing was run; the last scenario is shown \
                        instead."
                )));
                return stored().unwrap_or_default();
            }
        }
    }
    match stored() {
        Some(s) => s,
        None if get("autorun").as_deref() != Some("0") && get("lesson").is_none() => {
            lab.families.all().iter().find_map(|f| f.first_open()).unwrap_or_default()
        }
        None => Scenario::default(),
    }
}

/// `window.__bagsimCrashWorker()` makes the simulation worker panic (fault injection for the browser test of the
/// page's recovery; harmless otherwise: it ends the visitor's own run, as a crash would).
fn expose_crash_hook(lab: Lab) {
    let Some(window) = web_sys::window() else { return };
    let hook = wasm_bindgen::closure::Closure::<dyn Fn()>::new(move || lab.send(&ToWorker::Crash));
    let _ = js_sys::Reflect::set(&window, &"__bagsimCrashWorker".into(), hook.as_ref());
    hook.forget();
}

/// Runs the scenario shown, or first the link's pinned runs still waiting (ui/replay.rs).
fn start_run(lab: Lab) {
    if !lab.errors.with_untracked(|e| e.is_empty()) {
        return;
    }
    let (scenario, pinned) = replay::next(lab);
    let run_id = lab.run_id.get_untracked() + 1;
    lab.run_id.set(run_id);
    lab.crashed.set(None);
    lab.note.set(String::new());
    lab.phase_times.set((None, None));
    lab.draw_ms.set((0.0, 0.0));
    lab.families.of(scenario.family()).on_start(&scenario);
    lab.progress.set(None);
    lab.warnings.set(Vec::new());
    lab.status.set(Status::Generating);
    lab.message.set("generating the workload…".into());
    lab.run_family.set(scenario.family());
    if !pinned {
        remember(lab, &scenario);
    }
    // The run's own scenario, for its per-task records (`records.rs`), whatever the form holds later.
    super::split::tell(&super::split::ToPanels::Ran(Box::new(scenario.clone())));
    lab.send(&ToWorker::Run { run_id, scenario: Box::new(scenario), speed: lab.speed.get_untracked(), live: true });
}

fn on_event(lab: Lab, ev: Event) {
    match ev {
        Event::Died(why) => {
            // The run is lost; Run stays disabled until the replacement worker says Ready (messages sent before
            // that would be lost too). The worker's own panic message, if it came first, says more than the
            // error event.
            let why = lab.crashed.get_untracked().unwrap_or(why);
            lab.status.set(Status::Loading);
            lab.crashed.set(Some(why.clone()));
            lab.message.set(format!("The simulation worker stopped ({why}); starting a new one…"));
            lab.hand_on(Heard::Died);
        }
        Event::Message(m) => on_message(lab, m),
    }
}

fn on_message(lab: Lab, m: PageMessage) {
    let current = lab.run_id.get_untracked();
    match m {
        FromWorker::Ready if lab.status.get_untracked() == Status::Loading => {
            lab.status.set(Status::Ready);
            match lab.crashed.get_untracked() {
                Some(why) => lab.message.set(format!(
                    "The simulation worker stopped ({why}); a new one is ready. Press Run to start again."
                )),
                None => lab.message.set(replay::waiting_text(lab).unwrap_or_default()),
            }
            if lab.crashed.get_untracked().is_none()
                && lab.autorun.get_untracked()
                && lab.banner.with_untracked(|b| b.is_none())
            {
                lab.start_run();
            }
        }
        FromWorker::Panicked { message } => lab.crashed.set(Some(message)),
        FromWorker::Started { run_id, start, generate_s } if run_id == current => {
            lab.status.set(Status::Running);
            lab.phase_times.set((Some(generate_s), None));
            let family = lab.families.of(lab.run_family.get_untracked());
            lab.message.set(replay::running_text(lab, family.started_text(&start, generate_s)));
            lab.warnings.set(start.warnings);
        }
        FromWorker::Progress(p) if p.run_id == current => {
            let mut p = *p;
            if let Some(detail) = p.detail.take() {
                lab.families.of(lab.run_family.get_untracked()).on_progress(&p.header, detail);
            }
            lab.progress.set(Some(p));
        }
        FromWorker::Paused { run_id } if run_id == current => lab.status.set(Status::Paused),
        FromWorker::Cancelled { run_id } if run_id == current => {
            lab.status.set(Status::Cancelled);
            lab.message.set("cancelled".into());
            replay::on_stopped(lab);
        }
        FromWorker::Finished { run_id, report, report_s } if run_id == current => {
            lab.status.set(Status::Finished);
            lab.phase_times.update(|t| t.1 = Some(report_s));
            let generated = lab.phase_times.get_untracked().0.map_or(String::new(), |g| {
                format!(" (workload generated in {g:.2} s, report computed in {report_s:.2} s)")
            });
            lab.message.set(format!(
                "finished: simulated {:.1} days in {:.2} s{generated}",
                report.end_time() / 86_400.0,
                report.wall_time_s()
            ));
            lab.families.of(lab.run_family.get_untracked()).on_finished(*report);
            replay::on_finished(lab);
        }
        FromWorker::Failed { run_id, message } if run_id == current || run_id == 0 => {
            lab.status.set(Status::Failed);
            lab.message.set(message);
            replay::on_stopped(lab);
        }
        FromWorker::BotsCsv { run_id, csv } if run_id == current => {
            let name = lab.families.of(lab.run_family.get_untracked()).rows_file();
            download::text(name, "text/csv", &csv);
        }
        FromWorker::Estimated { line, over } => lab.estimate.set((over, line)),
        FromWorker::ReportJson { run_id, json } if run_id == current => {
            download::text("bagsim-report.json", "application/json", &json);
        }
        // A script's verdict, the workload lab's import: the parts that asked listen.
        m @ (FromWorker::ScriptChecked { .. }
        | FromWorker::ImportProgress { .. }
        | FromWorker::Imported { .. }
        | FromWorker::ImportFailed { .. }
        | FromWorker::TraceBots { .. }
        | FromWorker::Views { .. }) => lab.hand_on(Heard::Message(m)),
        _ => {}
    }
}

#[component]
fn RunBar() -> impl IntoView {
    let lab = expect_context::<Lab>();
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
            <button
                id="run"
                class="primary"
                disabled=move || lab.status.get() == Status::Loading || !lab.errors.with(|e| e.is_empty())
                on:click=move |_| lab.start_run()
            >
                "Run"
            </button>
            <button
                id="pause"
                disabled=move || lab.status.get() != Status::Running
                on:click=move |_| {
                    lab.send(
                        &ToWorker::Pause {
                            run_id: lab.run_id.get_untracked(),
                        },
                    )
                }
            >
                "Pause"
            </button>
            <button
                id="resume"
                disabled=move || lab.status.get() != Status::Paused
                on:click=move |_| {
                    lab.status.set(Status::Running);
                    lab.send(
                        &ToWorker::Resume {
                            run_id: lab.run_id.get_untracked(),
                        },
                    )
                }
            >
                "Resume"
            </button>
            <button
                id="cancel"
                disabled=move || !matches!(lab.status.get(), Status::Running | Status::Paused | Status::Generating)
                on:click=move |_| {
                    lab.send(
                        &ToWorker::Cancel {
                            run_id: lab.run_id.get_untracked(),
                        },
                    )
                }
            >
                "Cancel"
            </button>
            <label class="speed">
                "Speed "
                <select
                    id="speed"
                    on:change=move |ev| {
                        let i: usize = event_target_value(&ev).parse().unwrap_or(0);
                        let speed = speeds[i.min(speeds.len() - 1)].1;
                        lab.speed.set(speed);
                        lab.send(
                            &ToWorker::Speed {
                                run_id: lab.run_id.get_untracked(),
                                speed,
                            },
                        );
                    }
                >
                    {speeds
                        .iter()
                        .enumerate()
                        .map(|(i, (name, _))| view! { <option value=i.to_string()>{*name}</option> })
                        .collect_view()}
                </select>
            </label>
            <span id="status" role="status" class=move || format!("status {}", lab.status.get().as_str())>
                {move || lab.status.get().as_str()}
            </span>
            <present::PresentButton />
        </div>
        <div class="progressline">
            <progress
                id="progress"
                aria-label="simulated time"
                max="1000"
                prop:value=move || if finished() { 1000.0 } else { progress_value() }
            ></progress>
            <span id="sim-time">
                {move || {
                    lab.progress
                        .with(|p| {
                            p.as_ref()
                                .map_or(
                                    String::new(),
                                    |p| {
                                        format!(
                                            "simulated {} of {}",
                                            fmt_time(p.header.now),
                                            fmt_time(p.header.horizon),
                                        )
                                    },
                                )
                        })
                }}
            </span>
            <span id="events-per-s">
                {move || {
                    lab.progress
                        .with(|p| {
                            p.as_ref()
                                .map_or(
                                    String::new(),
                                    |p| {
                                        let (h, wall) = (&p.header, p.wall);
                                        let rate = if wall > 0.0 { h.events as f64 / wall } else { 0.0 };
                                        let left = if !finished() && h.now > 0.0 && wall > 0.0
                                            && h.finished_tasks < h.tasks
                                        {
                                            (h.horizon - h.now) / (h.now / wall)
                                        } else {
                                            f64::NAN
                                        };
                                        let left = if left.is_finite() {
                                            format!(", at most {} left", fmt_time(left))
                                        } else {
                                            String::new()
                                        };
                                        let unit = lab
                                            .families
                                            .of(lab.scenario.with_untracked(|s| s.family()))
                                            .work_unit();
                                        let n = |v: u64| crate::words::number_words(v as f64);
                                        format!(
                                            "{} events/s, {} events, {} of {} {unit} done, {} queued, {} running{left}",
                                            n(rate as u64),
                                            n(h.events),
                                            n(h.finished_tasks),
                                            n(h.tasks),
                                            n(h.queued),
                                            n(h.busy),
                                        )
                                    },
                                )
                        })
                }}
            </span>
        </div>
        <div id="message" class="message">
            {move || lab.message.get()}
            <Show when=move || lab.note.with(|n| !n.is_empty())>
                <p class="explain" id="run-note">
                    {move || lab.note.get()}
                </p>
            </Show>
            {move || run_tools::warnings_view(lab.warnings.get())}
        </div>
        <budget::EstimateLine />
    }
}

#[component]
fn App() -> impl IntoView {
    // Read before the scenario replaces the address (`remember`).
    let lesson = super::lesson_stage::requested();
    // The shell's state first, then the families' stores, which read it from context, then projector mode.
    let families = Families::new();
    let lab = Lab::new(Hooks { start_run: Callback::new(start_run) }, families);
    let stage = Reveal::new();
    provide_context(lab);
    provide_context(stage);
    families.register(families::list());
    // Before the scenario is written back into the address, which drops `?present=1`.
    let present = present::Present::start(lab);
    provide_context(present);
    let initial = initial_scenario(&lab);
    lab.scenario.set(initial.clone());
    // The panels of the page's second module (`lazy.rs`) follow the scenario shown.
    Effect::new(move |_| lab.scenario.with(super::shown::publish));
    Effect::new(move |_| super::shown::publish_form(lab.errors.with(|e| e.is_empty())));
    // The first view (run bar, cards) comes first, in the task after the mount; then each other part of the page is
    // rendered in a task of its own, and the worker and the charts start last, so that no task holds the page for
    // long (the first call of any code also compiles it, in the browsers that compile WebAssembly lazily). The
    // lessons and the paper figures come after the simulator, so rendering them later moves nothing in view; a
    // lesson asked for by the address is part of the first view. On a first open the parts below the first screen
    // wait until its result is in or the visitor acts (`later.rs`).
    stage.lessons.set(lesson.is_some());
    lessons::wire_intro_link(stage);
    script_box::Checks::start(lab);
    // The lessons' panel is the second module's: it sees projector mode and the address's lesson through the window.
    super::lesson_stage::serve(present, lab, lesson.clone());
    let show = |on: RwSignal<bool>| Box::new(move || on.set(true)) as Box<dyn FnOnce()>;
    // The mount builds the page's frame, hidden (index.html's `#app hidden`); in the next task the run bar and the
    // cards are built and the page takes the static skeleton's place, at once: no frame shows both or neither, so
    // nothing in view moves. The scenario goes into the address and the browser's storage next.
    let replace_skeleton = move || {
        stage.first_view.set(true);
        if let Some(skeleton) = document().get_element_by_id("skeleton") {
            skeleton.remove();
        }
        if let Some(app) = document().get_element_by_id("app") {
            let _ = app.remove_attribute("hidden");
        }
    };
    let mut stages: Vec<Box<dyn FnOnce()>> = vec![
        Box::new(replace_skeleton),
        Box::new(move || remember(lab, &initial)),
        show(stage.charts),
        show(stage.controls),
    ];
    let below: Vec<Box<dyn FnOnce()>> =
        [stage.lessons, stage.table, stage.sweep, stage.trace, stage.paper, stage.footer]
            .into_iter()
            .map(show)
            .collect();
    let all = families.all();
    if all.iter().any(|f| f.first_open_active()) {
        later::hold(stage, below);
    } else {
        stages.extend(below);
    }
    stages.push(Box::new(move || start_worker(lab)));
    stages.extend(all.iter().flat_map(|f| f.after_start()));
    request_animation_frame(move || reveal(stages));
    // The switch waits for the controls' stage on the first family, whose controls are built then; on another
    // family it comes with the page.
    let first = all.first().map(|f| f.family());
    view! {
        // The title and the explanation are the static shell of index.html, painted before any wasm runs.
        {move || {
            lab.banner
                .get()
                .map(|b| {
                    view! {
                        <section aria-label="link error">
                            <div id="banner-error" class="banner" role="alert">
                                {b}
                            </div>
                        </section>
                    }
                })
        }}
        <main>
            <aside class="controls" aria-label="scenario">
                <Show when=move || stage.controls.get() || lab.scenario.with(|s| Some(s.family()) != first)>
                    <FamilySwitch />
                </Show>
                {panels(lab, Slot::Controls)}
            </aside>
            <section class="results" aria-label="results">
                <Show when=move || stage.first_view.get()>
                    <RunBar />
                </Show>
                {panels(lab, Slot::Results)}
                <Show when=move || stage.sweep.get()>
                    <LazyPanel part=Part::Study />
                </Show>
                <Show when=move || stage.sweep.get()>
                    <LazyPanel part=Part::Tournament />
                </Show>
            </section>
        </main>
        // The simulator first at every width; then the lessons and the paper's figures.
        <Show when=move || stage.lessons.get()>
            <LazyPanel part=Part::Lessons />
        </Show>
        {panels(lab, Slot::Below)}
        <Show when=move || stage.footer.get()>
            <footer>
                <p>
                    "Workload model and policies: Iosup et al. 2008 (Table 3 presets, §2–§5). Notation: W(k, λ) \
                        Weibull \
                     shape k scale λ; N(μ, σ); LN(μ, σ); G(k, θ); Z(α, n). Times in seconds of simulated time."
                </p>
                <LazyPanel part=Part::References />
            </footer>
        </Show>
    }
}

/// Starts the simulation worker; Run stays disabled until it says Ready.
fn start_worker(lab: Lab) {
    let handler: Rc<dyn Fn(Event)> = Rc::new(move |ev| on_event(lab, ev));
    match Client::new(handler) {
        Ok(c) => {
            lab.client.set_value(Some(c));
            expose_crash_hook(lab);
        }
        Err(_) => {
            lab.status.set(Status::Failed);
            lab.message.set("This browser could not start the simulation worker.".into());
        }
    }
}

/// A family's page module tried alone, as the toy family of `tests/web.rs` is: the family switch and every
/// family's controls, results and parts below the simulator, each family's page made by `list` (within the bench's
/// reactive owner, after the shell's state is provided), without the simulation worker, the run bar or the staged
/// build (every stage is built at once).
pub struct Bench {
    lab: Lab,
}

impl Bench {
    /// Starts a run of the scenario shown, as Run does (no worker hears it).
    pub fn run(&self) {
        start_run(self.lab);
    }

    /// Hands a message of the worker to the shell, as the page's worker would.
    pub fn hear(&self, m: PageMessage) {
        on_message(self.lab, m);
    }
}

/// Mounts a [`Bench`] of the families `list` makes into `element`.
pub fn mount_bench(list: fn() -> Vec<Rc<dyn super::contract::PageFamily>>, element: web_sys::HtmlElement) -> Bench {
    let lab = RwSignal::new(None);
    leptos::mount::mount_to(element, move || {
        let families = Families::new();
        let shell = Lab::new(Hooks { start_run: Callback::new(start_run) }, families);
        let stage = Reveal::new();
        for on in [stage.first_view, stage.charts, stage.controls, stage.table, stage.trace, stage.sweep, stage.paper] {
            on.set(true);
        }
        provide_context(shell);
        provide_context(stage);
        families.register(list());
        provide_context(present::Present::start(shell));
        script_box::Checks::start(shell);
        shell.status.set(Status::Ready);
        lab.set(Some(shell));
        view! {
            <FamilySwitch />
            <aside class="controls">{panels(shell, Slot::Controls)}</aside>
            <section class="results">{panels(shell, Slot::Results)}</section>
            {panels(shell, Slot::Below)}
        }
    })
    .forget();
    Bench { lab: lab.get_untracked().expect("the bench's view is built as it is mounted") }
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
