//! The data-grid charts and cards: mean turnaround so far, queued jobs and busy processors per site over simulated
//! time, and the Gantt view of one site (jobs as boxes over processors × time).

use super::Live;
use crate::family::data_grid::gantt::{layout, Hold};
use crate::family::data_grid::{DdReport, JobRecord, Pending, Sample};
use crate::stats::window::{zoom, Zoom};
use crate::ui::axes::{self, Ticks};
use crate::ui::chart_style::Pen;
use crate::ui::charts::PALETTE;
use crate::ui::lab::fmt_time;
use crate::ui::measured;
use leptos::prelude::{GetValue as _, LocalStorage, StoredValue, UpdateValue as _};
use plotters::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// The live charts: canvas id and title.
pub const CHARTS: [(&str, &str); 3] = [
    ("dd-chart-turnaround", "Mean turnaround of the jobs finished so far"),
    ("dd-chart-queue", "Queued jobs per site"),
    ("dd-chart-busy", "Busy processors per site (share of the site)"),
];

/// The Gantt view's canvas.
pub const GANTT: &str = "dd-gantt";

/// What the Gantt view shows.
pub const GANTT_CAPTION: &str = "Each box is a job on the processors it held (rows) over simulated time, the latest \
    2 000 jobs of the site. Blue: computation; orange: data moved by the job on its own processors; grey: processors \
    held while the job's data was still arriving (the data-aware backfill rule); a thin orange line: a transfer that \
    overlapped the job's queueing (finish_time_data_aware); a dark outline: a job that started before the \
    reservation it was first given (backfilled into a hole). While the run goes on: pale blue, a job running until \
    its reservation ends at the latest; purple, the next reservations of the queue.";

/// Most jobs the Gantt view draws, so that a busy site draws within a frame.
const GANTT_JOBS: usize = 2_000;

type DrawResult<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

fn canvas(id: &str) -> Option<web_sys::HtmlCanvasElement> {
    web_sys::window()?.document()?.get_element_by_id(id)?.dyn_into::<web_sys::HtmlCanvasElement>().ok()
}

/// Redraws every chart and the Gantt view of `site`; the main-thread milliseconds it took go into the Gantt
/// canvas's `data-draw-ms` (read by the browser test and quoted in the README). `current` names the current run in
/// the turnaround chart's legend once a run is pinned beside it.
pub fn draw_all(live: &Live, sites: &[u32], site: usize, current: &str, window: GanttZoom) {
    let t0 = crate::ui::lab::now_ms();
    for (i, &(id, title)) in CHARTS.iter().enumerate() {
        if let Some((backend, pen)) = canvas(id).and_then(measured::canvas) {
            let root = backend.into_drawing_area();
            let _ = draw_series(&root, pen, (i, title), live, sites, current);
            let _ = root.present();
        }
    }
    if let Some((backend, pen)) = canvas(GANTT).and_then(measured::canvas) {
        let root = backend.into_drawing_area();
        let _ = draw_gantt(&root, pen, &live.jobs, &live.pending, site, sites.get(site).copied().unwrap_or(1), window);
        let _ = root.present();
    }
    if let Some(c) = canvas(GANTT) {
        let _ = c.set_attribute("data-draw-ms", &format!("{:.1}", crate::ui::lab::now_ms() - t0));
        wire_zoom(&c, window);
    }
}

fn draw_series<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    pen: Pen,
    (which, title): (usize, &str),
    live: &Live,
    sites: &[u32],
    current: &str,
) -> DrawResult<DB> {
    let samples = &live.samples;
    root.fill(&WHITE)?;
    if samples.is_empty() && (which != 0 || live.pinned.is_empty()) {
        root.draw(&Text::new(format!("{title}: no data yet"), (20, 30), ("sans-serif", 15).into_font()))?;
        return Ok(());
    }
    let turnaround = |samples: &[Sample]| -> Vec<(f64, f64)> {
        samples.iter().filter(|s| s.finished > 0).map(|s| (s.time / 86_400.0, s.mean_turnaround / 3600.0)).collect()
    };
    // The turnaround of the current run and of every pinned one (colour 0, then 1, 2, …), or one line per site.
    let lines: Vec<Vec<(f64, f64)>> = match which {
        0 => std::iter::once(turnaround(samples)).chain(live.pinned.iter().map(|p| turnaround(&p.samples))).collect(),
        1 => (0..sites.len())
            .map(|k| {
                samples.iter().map(|s| (s.time / 86_400.0, s.queued.get(k).map_or(0.0, |&q| f64::from(q)))).collect()
            })
            .collect(),
        _ => (0..sites.len())
            .map(|k| {
                let p = f64::from(sites[k].max(1));
                samples.iter().map(|s| (s.time / 86_400.0, s.busy.get(k).map_or(0.0, |&b| f64::from(b) / p))).collect()
            })
            .collect(),
    };
    let y_desc = ["hours", "jobs", "busy / processors"][which.min(2)];
    let labels: Vec<String> = match which {
        0 if live.pinned.is_empty() => Vec::new(),
        0 => std::iter::once(current.to_string()).chain(live.pinned.iter().map(|p| p.pin.label.clone())).collect(),
        _ => (1..=lines.len()).map(|k| format!("site {k}")).collect(),
    };
    // Busy processors swing between none and all at each job's start and end: drawn per window (mean, min–max).
    axes::time_lines(root, pen, (title, y_desc), &lines, &labels, (which == 2).then_some(1.0), which == 2)
}

/// The jobs of `site` the Gantt view draws: the latest `GANTT_JOBS` to take their processors.
pub fn gantt_jobs(jobs: &[JobRecord], site: usize) -> Vec<&JobRecord> {
    let mut of_site: Vec<&JobRecord> = jobs.iter().filter(|j| j.site as usize == site).collect();
    of_site.sort_by(|a, b| a.hold_start.total_cmp(&b.hold_start));
    let skip = of_site.len().saturating_sub(GANTT_JOBS);
    of_site.split_off(skip)
}

fn draw_gantt<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    pen: Pen,
    jobs: &[JobRecord],
    pending: &[Pending],
    site: usize,
    processors: u32,
    window: GanttZoom,
) -> DrawResult<DB> {
    root.fill(&WHITE)?;
    let shown = gantt_jobs(jobs, site);
    let pending: Vec<&Pending> = pending.iter().filter(|p| p.site as usize == site).collect();
    if shown.is_empty() && pending.is_empty() {
        root.draw(&Text::new(
            format!("Site {}: no job has finished there yet", site + 1),
            (20, 30),
            ("sans-serif", 15).into_font(),
        ))?;
        return Ok(());
    }
    // Ended jobs first (indices below `n`), then the pending ones: one layout, so no two boxes share a row.
    let n = shown.len();
    let holds: Vec<Hold> = shown
        .iter()
        .map(|j| (j.hold_start, j.end, j.procs))
        .chain(pending.iter().map(|p| (p.start, p.end, p.procs)))
        .enumerate()
        .map(|(i, (start, end, procs))| Hold { job: i as u32, start, end, procs })
        .collect();
    let rows = layout(&holds, processors);
    let day = 86_400.0;
    let t0 =
        holds.iter().map(|h| h.start).chain(shown.iter().map(|j| j.transfer_start)).fold(f64::INFINITY, f64::min) / day;
    let t1 = holds.iter().map(|h| h.end).fold(0.0, f64::max) / day;
    let t1 = if t1 > t0 { t1 } else { t0 + 0.01 };
    // The zoom's window of the span, in days.
    let (fa, fb) = window.try_get_value().unwrap_or((0.0, 1.0));
    let (lo, hi) = (t0 + fa * (t1 - t0), t0 + fb * (t1 - t0));
    if let Some(c) = canvas(GANTT) {
        let _ = c.set_attribute("data-window", &format!("{lo} {hi}"));
        let _ = c.set_attribute("data-span", &format!("{t0} {t1}"));
    }
    let (w, h) = root.dim_in_pixel();
    let p = f64::from(processors);
    let (xt, yt) = (Ticks::linear(lo, hi, axes::fit(pen, w)), Ticks::linear(0.0, p, axes::fit(pen, h * 3 / 2)));
    let mut title = format!("Site {} ({} processors)", site + 1, processors);
    if fb - fa < 1.0 {
        title += &format!(", days {}–{} of {}–{}", xt.label(lo), xt.label(hi), xt.label(t0), xt.label(t1));
    }
    let mut chart = axes::builder(root, pen, &title, yt.widest())
        .build_cartesian_2d(axes::lin(lo, hi, &xt), axes::lin(0.0, p, &yt))?;
    axes::mesh(&mut chart, pen, ("simulated time [days]", &|v| xt.label(*v)), ("processor", &|v| yt.label(*v)))?;
    // A box from a to b (seconds) on rows y0..y1, cut to the window; none outside it.
    let boxed = |a: f64, b: f64, y0: f64, y1: f64| {
        let (a, b) = (a / day, b / day);
        (b >= lo && a <= hi).then(|| [(a.max(lo), y0), (b.min(hi), y1)])
    };
    let compute = PALETTE[0];
    let transfer = RGBColor(230, 140, 20);
    let waiting = RGBColor(170, 170, 170);
    let queued = RGBColor(150, 110, 200);
    for r in rows.iter().filter(|r| r.job as usize >= n) {
        let p = pending[r.job as usize - n];
        let Some(corners) = boxed(p.start, p.end, f64::from(r.first), f64::from(r.first + r.count)) else { continue };
        let fill = if p.running { compute.mix(0.3) } else { queued.mix(0.35) };
        chart.draw_series([Rectangle::new(corners, fill.filled()), Rectangle::new(corners, WHITE.stroke_width(1))])?;
    }
    for r in rows.iter().filter(|r| (r.job as usize) < n) {
        let j = shown[r.job as usize];
        let (y0, y1) = (f64::from(r.first), f64::from(r.first + r.count));
        let Some(whole) = boxed(j.hold_start, j.end, y0, y1) else { continue };
        // Processors held before the computation: the job's own transfer (data moved on its processors) or the
        // rest of a transfer the data-aware rule let it wait for on its processors.
        if j.compute_start > j.hold_start {
            let on_processors = j.transfer_start >= j.hold_start;
            let colour = if on_processors { transfer } else { waiting };
            if let Some(held) = boxed(j.hold_start, j.compute_start, y0, y1) {
                chart.draw_series(std::iter::once(Rectangle::new(held, colour.filled())))?;
            }
        }
        if let Some(computing) = boxed(j.compute_start, j.end, y0, y1) {
            chart.draw_series(std::iter::once(Rectangle::new(computing, compute.mix(0.75).filled())))?;
        }
        let backfilled = j.hold_start + 1e-9 < j.reservation;
        let border = if backfilled { BLACK.stroke_width(2) } else { WHITE.stroke_width(1) };
        chart.draw_series(std::iter::once(Rectangle::new(whole, border)))?;
    }
    // Transfers that overlapped the queueing: a thin line ending where the job took its processors.
    for r in rows.iter().filter(|r| (r.job as usize) < n) {
        let j = shown[r.job as usize];
        if j.transfer_end > j.transfer_start && j.transfer_start < j.hold_start {
            let y = f64::from(r.first) + 0.5 * f64::from(r.count);
            if let Some([(a, _), (b, _)]) = boxed(j.transfer_start, j.transfer_end.min(j.hold_start), y, y) {
                chart.draw_series(std::iter::once(PathElement::new([(a, y), (b, y)], transfer.stroke_width(1))))?;
            }
        }
    }
    Ok(())
}

/// The Gantt view's window of the time its jobs span, as fractions of it (the whole span at first); the page's
/// (`DdPage`), so that it stays while the run goes on and when another site is shown.
pub type GanttZoom = StoredValue<(f64, f64), LocalStorage>;

/// The zoom's buttons (id, text, what it does, step) and the keys of the focused Gantt view that do the same.
type ZoomButton = (&'static str, &'static str, &'static str, Zoom, &'static [&'static str]);
const ZOOM_BUTTONS: [ZoomButton; 5] = [
    ("dd-gantt-in", "+", "zoom in: half the time, around the middle", Zoom::In, &["+", "="]),
    ("dd-gantt-out", "−", "zoom out: twice the time", Zoom::Out, &["-", "_"]),
    ("dd-gantt-earlier", "◀", "earlier: half a window back", Zoom::Earlier, &["ArrowLeft"]),
    ("dd-gantt-later", "▶", "later: half a window on", Zoom::Later, &["ArrowRight"]),
    ("dd-gantt-all", "all", "all: the whole run", Zoom::All, &["0", "Home"]),
];

/// Gives the Gantt view its zoom, once per canvas: buttons above it and keys on it (+ − ← → 0, the canvas takes
/// the focus). A step redraws through the site select's change, which redraws the charts of the current run.
/// The zoom's window stays while the run goes on and when another site is shown.
fn wire_zoom(canvas: &web_sys::HtmlCanvasElement, window: GanttZoom) -> Option<()> {
    if canvas.has_attribute("data-zoom") {
        return Some(());
    }
    let document = web_sys::window()?.document()?;
    let step = move |z: Zoom| {
        window.try_update_value(|w| *w = zoom(*w, z));
        let select = web_sys::window()?.document()?.get_element_by_id("dd-gantt-site")?;
        select.dispatch_event(&web_sys::Event::new("change").ok()?).ok()
    };
    let bar = document.create_element("div").ok()?;
    bar.set_class_name("gantt-zoom");
    bar.set_attribute("role", "group").ok()?;
    bar.set_attribute("aria-label", "zoom of the Gantt view").ok()?;
    for (id, text, what, z, _) in ZOOM_BUTTONS {
        let b = document.create_element("button").ok()?;
        b.set_id(id);
        b.set_class_name("small");
        b.set_text_content(Some(text));
        b.set_attribute("title", what).ok()?;
        b.set_attribute("aria-label", what).ok()?;
        let on_click = Closure::<dyn FnMut()>::new(move || {
            step(z);
        });
        b.add_event_listener_with_callback("click", on_click.as_ref().unchecked_ref()).ok()?;
        on_click.forget();
        bar.append_child(&b).ok()?;
    }
    let hint = document.create_element("span").ok()?;
    hint.set_class_name("help");
    hint.set_text_content(Some(" zoom and move in time; on the chart, the + − ← → 0 keys"));
    bar.append_child(&hint).ok()?;
    canvas.before_with_node_1(&bar).ok()?;
    canvas.set_tab_index(0);
    let on_key = Closure::<dyn FnMut(web_sys::KeyboardEvent)>::new(move |e: web_sys::KeyboardEvent| {
        let key = e.key();
        if let Some(&(.., z, _)) = ZOOM_BUTTONS.iter().find(|b| b.4.contains(&key.as_str())) {
            e.prevent_default();
            step(z);
        }
    });
    canvas.add_event_listener_with_callback("keydown", on_key.as_ref().unchecked_ref()).ok()?;
    on_key.forget();
    canvas.set_attribute("data-zoom", "wired").ok()
}

/// A card's time, or "— (no job)" as the CLI says it when no job has one (a log with no data has no transfer).
fn time_of(s: &crate::stats::Stats, v: f64) -> String {
    if s.count == 0 {
        "— (no job)".to_string()
    } else {
        fmt_time(v)
    }
}

/// The cards of a finished run: id, title, help, exact value, value as shown.
pub fn cards(r: &DdReport) -> Vec<(&'static str, &'static str, &'static str, f64, String)> {
    let m = &r.metrics;
    vec![
        (
            "dd-card-tt",
            "Average turnaround",
            "per job: end − submission, averaged over the jobs (Liu et al. 2010, Fig. 4)",
            m.turnaround.mean,
            time_of(&m.turnaround, m.turnaround.mean),
        ),
        (
            "dd-card-worst",
            "Worst turnaround",
            "the longest turnaround of any job (Fig. 6)",
            m.turnaround.max,
            time_of(&m.turnaround, m.turnaround.max),
        ),
        (
            "dd-card-wait",
            "Average waiting",
            "per job: taking its processors − submission",
            m.waiting.mean,
            time_of(&m.waiting, m.waiting.mean),
        ),
        (
            "dd-card-transfer",
            "Average transfer",
            "per job with data: size / bandwidth (Eq. 1)",
            m.transfer.mean,
            time_of(&m.transfer, m.transfer.mean),
        ),
        (
            "dd-card-util",
            "Utilization",
            "Σ runtime × processors / Σ over sites (makespan × processors) (§IV-B)",
            m.utilization,
            format!("{}%", crate::words::number_words(100.0 * m.utilization)),
        ),
    ]
}
