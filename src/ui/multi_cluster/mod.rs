//! The multi-cluster family's part of the page ([Iosup08]): its controls (`controls.rs`), its live cards, charts,
//! comparison of pinned runs and size-class table (here), its load sweep (`sweep.rs`) and paper figures
//! (`paper.rs`).

pub(crate) mod cards;
pub(crate) mod charts;
pub(crate) mod controls;
pub(crate) mod first_open;
pub(crate) mod numbers;
mod page;

pub(crate) use page::{mount_part, your_own_box};
pub(crate) mod paper;
pub(crate) mod readings;
pub(crate) mod script_editor;
pub(crate) mod sweep;
mod trace_lab;

use crate::family::multi_cluster::live::McDetail;
use crate::family::multi_cluster::run::Report;
use crate::family::multi_cluster::sim::Sample;
use crate::protocol::ToWorker;
use crate::registry::Family;
use crate::scenario::Scenario;
use crate::ui::chart_style::Pen;
use crate::ui::download;
use crate::ui::lab::Repaint;
use crate::ui::lab::{fmt_time, now_ms, Lab, Reveal, Throttle};
use crate::ui::measured;
use crate::ui::present;
use crate::ui::run_tools::swatch;
use crate::ui::run_tools::{GanttButton, RecordsButton};
use crate::words::number_words;
use charts::RunData;
use leptos::prelude::*;
use plotters::prelude::*;
use std::cell::Cell;
use wasm_bindgen::JsCast;

/// A run kept for comparison, and its scenario (for the links that hold the pinned runs, ui/replay.rs).
#[derive(Clone)]
struct Pinned {
    data: RunData,
    scenario: Scenario,
}

/// Large live data kept outside the reactive graph; `repaint` tells the charts to redraw.
#[derive(Default)]
struct Live {
    /// The current run (colour 0).
    current: RunData,
    pinned: Vec<Pinned>,
}

/// The multi-cluster family's store on the page: made once by the page's list of families (`families.rs`), it is
/// the family's [`PageFamily`](crate::ui::contract::PageFamily) (`page.rs`). Every field is a handle, so it is
/// passed by copy.
#[derive(Clone, Copy)]
pub struct McPage {
    /// The page's shared state (the scenario shown, the run bar).
    lab: Lab,
    /// The stages the page is built in (a first open holds some back).
    reveal: Reveal,
    /// The current run's report, once it is in.
    report: RwSignal<Option<Box<Report>>>,
    /// Asks the charts, the cards and the numbers to read the runs again.
    repaint: Repaint,
    /// The current and pinned runs' series and the load sweep's reports; `repaint` tells the charts to redraw.
    live: StoredValue<Live, LocalStorage>,
    /// The redraws' throttle, and the state of a redraw under way.
    redraw: StoredValue<Throttle, LocalStorage>,
    redrawing: StoredValue<Redraw, LocalStorage>,
    /// Where the first open's two runs stand (`first_open.rs`).
    first_open: StoredValue<first_open::Stage, LocalStorage>,
}

impl McPage {
    /// The store, within the shell's reactive owner (it reads the page's state from context).
    pub fn new() -> McPage {
        McPage {
            lab: expect_context::<Lab>(),
            reveal: expect_context::<Reveal>(),
            report: RwSignal::new(None),
            repaint: Repaint::new(),
            live: StoredValue::new_local(Live::default()),
            redraw: StoredValue::new_local(Throttle::new()),
            redrawing: StoredValue::new_local(Redraw::default()),
            first_open: StoredValue::new_local(first_open::Stage::Off),
        }
    }
}

/// A new run starts: its live data replaces the current run's (pinned runs stay); `s` names it in the legends.
pub(crate) fn on_start(mc: McPage, s: &Scenario) {
    mc.report.set(None);
    let label = s.multi_cluster().map_or_else(|| "current run".to_string(), run_label);
    mc.live.update_value(|l| l.current = RunData::new(&label, 0));
}

/// A run's name in the legends and the pinned list: what tells it from the runs beside it.
pub(crate) fn run_label(s: &crate::scenario::McScenario) -> String {
    format!(
        "{} {} {} load {}",
        s.architecture.kind.name(),
        s.selection.name(),
        s.scheduling,
        s.workload.load.map_or("-".into(), |l| format!("{l}"))
    )
}

/// New samples and finished BoTs of the current run.
pub(crate) fn on_progress(mc: McPage, finished: bool, d: McDetail) {
    mc.live.update_value(|l| l.current.extend(&d.samples, &d.bots));
    redraw(mc, finished);
}

/// The current run's report.
pub(crate) fn on_finished(mc: McPage, lab: Lab, r: Box<Report>) {
    mc.report.set(Some(r));
    redraw(mc, true);
    first_open::on_finished(mc, lab);
}

/// Asks the charts to redraw, at most four times a second while a run streams; a `force`d redraw (the end of a
/// run) is asked for at once and begins at once, ending a redraw under way.
pub(crate) fn redraw(mc: McPage, force: bool) {
    if mc.redraw.with_value(|t| t.due(force)) {
        mc.redrawing.with_value(|r| r.forced.set(force));
        mc.repaint.ask();
    }
}

/// The pinned runs' scenarios, oldest first.
pub(crate) fn pinned_scenarios(mc: McPage) -> Vec<Scenario> {
    mc.live.with_value(|l| l.pinned.iter().map(|p| p.scenario.clone()).collect())
}

/// Pins the finished current run (also a link's pinned runs, ui/replay.rs).
pub(crate) fn pin(mc: McPage, lab: Lab) {
    let Some(report) = mc.report.get_untracked() else { return };
    let label = run_label(&report.scenario);
    mc.live.update_value(|l| {
        if l.pinned.len() >= crate::ui::charts::PALETTE.len() - 1 {
            l.pinned.remove(0);
        }
        let colour = 1 + l.pinned.len();
        let data = l.current.relabelled(&label, colour);
        l.pinned.push(Pinned { data, scenario: Scenario::from(report.scenario.clone()) });
        let labels = l.pinned.iter().map(|p| p.data.label.clone()).collect();
        lab.pinned_labels.set(labels);
    });
    mc.repaint.ask();
}

/// Calls `f` with the runs drawn (borrowed, not copied): the pinned ones, then the current one, which is drawn
/// last so that it lies on top.
pub(crate) fn with_runs<T>(mc: McPage, f: impl FnOnce(&[&RunData]) -> T) -> T {
    mc.live.with_value(|l| {
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
fn draw_chart<DB: DrawingBackend>(
    id: &str,
    pen: Pen,
    root: &DrawingArea<DB, plotters::coord::Shift>,
    runs: &[&RunData],
) {
    let _ = match id {
        "chart-queue" => charts::draw_time_series(
            root,
            pen,
            ("Queued tasks", "tasks"),
            runs,
            &charts::queued,
            Some(&|s: &Sample, c: usize| f64::from(s.cluster_queued[c])),
            false,
        ),
        "chart-util" => charts::draw_time_series(
            root,
            pen,
            ("Utilization", "busy / processors"),
            runs,
            &charts::utilization,
            None,
            true,
        ),
        "chart-nsl-class" => charts::draw_classes(root, pen, "Mean NSL per size class", "NSL", runs, true),
        "chart-ms-class" => {
            charts::draw_classes(root, pen, "Mean makespan per size class", "makespan [s]", runs, false)
        }
        _ => charts::draw_cdfs(root, pen, runs),
    };
    let _ = root.present();
}

pub(crate) fn draw_on_canvas(id: &str, runs: &[&RunData]) {
    let Some(canvas) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
        .and_then(|e| e.dyn_into::<web_sys::HtmlCanvasElement>().ok())
    else {
        return;
    };
    if let Some((backend, pen)) = measured::canvas(canvas) {
        draw_chart(id, pen, &backend.into_drawing_area(), runs);
    }
}

fn export_chart(mc: McPage, id: &str, svg: bool) {
    if svg {
        let mut out = String::new();
        let pen = Pen::svg();
        with_runs(mc, |runs| {
            let backend = measured::Measured::new(SVGBackend::with_string(&mut out, (900, 450)));
            draw_chart(id, pen, &backend.into_drawing_area(), runs);
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

/// A redraw draws one chart per task, so that the page answers between them (on a phone, all five at once held
/// the page for half a second). New data during a redraw is drawn by another one after it; a forced redraw (the
/// end of a run) begins at once, ending the one under way. `#charts` says `data-drawing="1"` meanwhile.
#[derive(Default)]
struct Redraw {
    /// Counts the redraws begun; a redraw's next chart is drawn only while it is the latest.
    generation: Cell<u64>,
    /// A redraw is under way.
    busy: Cell<bool>,
    /// New data came during it: another redraw follows.
    again: Cell<bool>,
    /// The next redraw begins at once.
    forced: Cell<bool>,
}

fn set_drawing(on: bool) {
    if let Some(e) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("charts")) {
        let _ = if on { e.set_attribute("data-drawing", "1") } else { e.remove_attribute("data-drawing") };
    }
}

/// Draws chart `i` of [`CHARTS`] and, while this redraw is the latest, the next ones in tasks of their own; `ms` is
/// the main-thread time spent so far.
fn draw_from(mc: McPage, lab: Lab, generation: u64, i: usize, ms: f64) {
    if mc.redrawing.with_value(|r| r.generation.get()) != generation {
        return;
    }
    let t0 = now_ms();
    with_runs(mc, |runs| draw_on_canvas(CHARTS[i].0, runs));
    let ms = ms + now_ms() - t0;
    if i + 1 < CHARTS.len() {
        set_timeout(move || draw_from(mc, lab, generation, i + 1, ms), std::time::Duration::ZERO);
        return;
    }
    lab.draw_ms.update(|d| *d = (ms, d.1.max(ms)));
    if mc.redrawing.with_value(|r| r.again.replace(false)) {
        begin(mc, lab);
    } else {
        mc.redrawing.with_value(|r| r.busy.set(false));
        set_drawing(false);
    }
}

fn begin(mc: McPage, lab: Lab) {
    let generation = mc.redrawing.with_value(|r| {
        r.busy.set(true);
        r.again.set(false);
        r.generation.set(r.generation.get() + 1);
        r.generation.get()
    });
    set_drawing(true);
    draw_from(mc, lab, generation, 0, 0.0);
}

#[component]
pub(crate) fn Charts(mc: McPage) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let present = expect_context::<present::Present>();
    Effect::new(move |_| {
        // The first view is painted before the charts are drawn (`App` asks for a repaint once it is).
        mc.repaint.track();
        if !mc.repaint.asked() {
            return;
        }
        let forced = mc.redrawing.with_value(|r| r.forced.replace(false));
        if forced || !mc.redrawing.with_value(|r| r.busy.get()) {
            begin(mc, lab);
        } else {
            mc.redrawing.with_value(|r| r.again.set(true));
        }
    });
    // The canvases change size with projector mode, which clears them: redraw once they have (at start, the page
    // draws them itself).
    Effect::new(move |before: Option<bool>| {
        let on = present.on.get();
        if before.is_some() {
            set_timeout(move || mc.repaint.ask(), std::time::Duration::ZERO);
        }
        on
    });
    // The first chart is built with the section, the others one per task, so that none holds the page for long.
    let built = RwSignal::new(1usize);
    for k in 2..=CHARTS.len() {
        set_timeout(move || built.set(k), std::time::Duration::ZERO);
    }
    view! {
        <present::ChartStepper />
        <div
            class="charts"
            id="charts"
            data-draw-ms=move || lab.draw_ms.get().0.to_string()
            data-draw-ms-max=move || lab.draw_ms.get().1.to_string()
        >
            {CHARTS
                .iter()
                .enumerate()
                .map(|(i, &(id, title))| {
                    let shown = move || built.get() > i;
                    let wide = id == "chart-cdf";
                    let class = move || {
                        let current = if present.is_current(i) { " current" } else { "" };
                        format!("chart{}{current}", if wide { " wide" } else { "" })
                    };
                    let width = move || if present.on.get() { "1600" } else if wide { "1000" } else { "560" };
                    let height = move || if present.on.get() { "760" } else { "320" };
                    // Projector mode draws at the size it is shown, so that type and lines stay sharp.
                    view! {
                        <Show when=shown>
                            <figure class=class>
                                <canvas
                                    id=id
                                    width=width
                                    height=height
                                    role="img"
                                    aria-label=format!("{title}: chart; press Numbers for its values")
                                ></canvas>
                                <figcaption>
                                    {title}
                                    <button
                                        class="small"
                                        id=format!("{id}-png")
                                        aria-label=format!("download {title} as PNG")
                                        on:click=move |_| export_chart(mc, id, false)
                                    >
                                        "PNG"
                                    </button>
                                    <button
                                        class="small"
                                        id=format!("{id}-svg")
                                        aria-label=format!("download {title} as SVG")
                                        on:click=move |_| export_chart(mc, id, true)
                                    >
                                        "SVG"
                                    </button> <numbers::ChartNumbers id=id title=title mc=mc />
                                </figcaption>
                            </figure>
                        </Show>
                    }
                })
                .collect_view()}
        </div>
    }
}

#[component]
pub(crate) fn Compare(mc: McPage) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let share_note = RwSignal::new(String::new());
    view! {
        <div class="compare">
            <button
                id="pin"
                disabled=move || mc.report.with(|r| r.is_none())
                on:click=move |_| pin(mc, lab)
                title="Keep this run on the charts to compare it with the next ones"
            >
                "Pin this run"
            </button>
            <button
                id="unpin"
                disabled=move || lab.pinned_labels.with(|p| p.is_empty())
                on:click=move |_| {
                    mc.live.update_value(|l| l.pinned.clear());
                    lab.pinned_labels.set(Vec::new());
                    mc.repaint.ask();
                }
            >
                "Clear pinned"
            </button>
            <button id="share" on:click=move |_| share_note.set(crate::ui::run_tools::copy_link(lab))>
                "Copy link"
            </button>
            <button
                id="export-json"
                disabled=move || mc.report.with(|r| r.is_none()) || lab.run_family.get() != Family::MultiCluster
                title="The full report, as `bagsim run --out` writes it"
                on:click=move |_| {
                    lab.send(
                        &ToWorker::ExportReport {
                            run_id: lab.run_id.get_untracked(),
                        },
                    )
                }
            >
                "Report (JSON)"
            </button>
            <button
                id="export-csv"
                disabled=move || mc.report.with(|r| r.is_none()) || lab.run_family.get() != Family::MultiCluster
                on:click=move |_| {
                    lab.send(
                        &ToWorker::ExportBots {
                            run_id: lab.run_id.get_untracked(),
                        },
                    )
                }
            >
                "Per-BoT results (CSV)"
            </button>
            <RecordsButton prefix="" done=Signal::derive(move || mc.report.with(Option::is_some)) />
            <GanttButton prefix="" done=Signal::derive(move || mc.report.with(Option::is_some)) />
            <span class="note">{move || share_note.get()}</span>
            <ul class="pinned">
                <li id="current-run-label">
                    {move || {
                        mc.repaint.track();
                        let label = mc.live.with_value(|l| l.current.label.clone());
                        if label.is_empty() {
                            // Before the first run there is no line on the charts to name.
                            view! { <span class="note">"No run yet"</span> }
                                .into_any()
                        } else {
                            view! {
                                {swatch(0)}
                                {label}
                            }
                                .into_any()
                        }
                    }}
                </li>
                {move || {
                    lab.pinned_labels
                        .get()
                        .into_iter()
                        .enumerate()
                        .map(|(i, l)| view! { <li>{swatch(i + 1)}{l}</li> })
                        .collect_view()
                }}
            </ul>
        </div>
    }
}

#[component]
pub(crate) fn ClassTable(mc: McPage) -> impl IntoView {
    view! {
        {move || {
            mc.report
                .get()
                .map(|r| {
                    view! {
                        <table class="classes" id="class-table">
                            <thead>
                                <tr>
                                    <th>"size class"</th>
                                    <th>"BoTs"</th>
                                    <th>"finished"</th>
                                    <th>"mean MS"</th>
                                    <th>"p90 MS"</th>
                                    <th>"mean NSL"</th>
                                    <th>"p90 NSL"</th>
                                    <th>"mean wait"</th>
                                </tr>
                            </thead>
                            <tbody>
                                {r
                                    .metrics
                                    .per_class
                                    .iter()
                                    .chain(std::iter::once(&r.metrics.overall))
                                    .map(|g| {
                                        view! {
                                            <tr>
                                                <td>{g.class.clone()}</td>
                                                <td>{g.bots}</td>
                                                <td>{g.finished}</td>
                                                <td>{fmt_time(g.makespan.mean)}</td>
                                                <td>{fmt_time(g.makespan.p90)}</td>
                                                <td>{number_words(g.nsl.mean)}</td>
                                                <td>{number_words(g.nsl.p90)}</td>
                                                <td>{fmt_time(g.wait.mean)}</td>
                                            </tr>
                                        }
                                    })
                                    .collect_view()}
                            </tbody>
                        </table>
                    }
                })
        }}
    }
}
