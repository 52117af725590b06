//! The data-grid charts and cards: mean turnaround so far, queued jobs and busy processors per site over simulated
//! time, and the Gantt view of one site (jobs as boxes over processors × time).

use super::Live;
use crate::family::data_grid::gantt::{layout, Hold};
use crate::family::data_grid::{DataGridReport, JobRecord, Pending, Sample};
use crate::ui::charts::{short_number, PALETTE};
use crate::ui::fmt_time;
use crate::ui::measured;
use plotters::prelude::*;
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
/// canvas's `data-draw-ms` (read by the browser test and quoted in the README).
pub fn draw_all(live: &Live, sites: &[u32], site: usize) {
    let t0 = crate::ui::now_ms();
    for (i, &(id, title)) in CHARTS.iter().enumerate() {
        if let Some(backend) = canvas(id).and_then(measured::canvas) {
            let root = backend.into_drawing_area();
            let _ = draw_series(&root, i, title, &live.samples, sites);
            let _ = root.present();
        }
    }
    if let Some(backend) = canvas(GANTT).and_then(measured::canvas) {
        let root = backend.into_drawing_area();
        let _ = draw_gantt(&root, &live.jobs, &live.pending, site, sites.get(site).copied().unwrap_or(1));
        let _ = root.present();
    }
    if let Some(c) = canvas(GANTT) {
        let _ = c.set_attribute("data-draw-ms", &format!("{:.1}", crate::ui::now_ms() - t0));
    }
}

fn draw_series<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    which: usize,
    title: &str,
    samples: &[Sample],
    sites: &[u32],
) -> DrawResult<DB> {
    root.fill(&WHITE)?;
    if samples.is_empty() {
        root.draw(&Text::new(format!("{title}: no data yet"), (20, 30), ("sans-serif", 15).into_font()))?;
        return Ok(());
    }
    let x_max = samples.last().map_or(0.1, |s| s.time / 86_400.0).max(0.01);
    // One line (the turnaround) or one line per site.
    let lines: Vec<Vec<(f64, f64)>> = match which {
        0 => vec![samples
            .iter()
            .filter(|s| s.finished > 0)
            .map(|s| (s.time / 86_400.0, s.mean_turnaround / 3600.0))
            .collect()],
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
    let y_max = lines.iter().flatten().map(|p| p.1).fold(0.0, f64::max);
    let y_max = if which == 2 {
        1.0
    } else if y_max > 0.0 {
        y_max * 1.05
    } else {
        1.0
    };
    let y_desc = ["hours", "jobs", "busy / processors"][which.min(2)];
    let mut chart = ChartBuilder::on(root)
        .caption(title, ("sans-serif", 16))
        .margin(8)
        .x_label_area_size(32)
        .y_label_area_size(56)
        .build_cartesian_2d(0.0..x_max, 0.0..y_max)?;
    chart
        .configure_mesh()
        .label_style(("sans-serif", 12))
        .axis_desc_style(("sans-serif", 12))
        .x_desc("simulated time [days]")
        .y_desc(y_desc)
        .x_label_formatter(&|v| short_number(*v))
        .y_label_formatter(&|v| short_number(*v))
        .light_line_style(WHITE.mix(0.0))
        .draw()?;
    for (k, line) in lines.into_iter().enumerate() {
        let colour = PALETTE[k % PALETTE.len()];
        let series = chart.draw_series(LineSeries::new(line, colour.stroke_width(2)))?;
        if which != 0 {
            series
                .label(format!("site {}", k + 1))
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 14, y)], colour.stroke_width(2)));
        }
    }
    if which != 0 {
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK.mix(0.3))
            .label_font(("sans-serif", 11))
            .draw()?;
    }
    Ok(())
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
    jobs: &[JobRecord],
    pending: &[Pending],
    site: usize,
    processors: u32,
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
    let mut chart = ChartBuilder::on(root)
        .caption(format!("Site {} ({} processors)", site + 1, processors), ("sans-serif", 16))
        .margin(8)
        .x_label_area_size(32)
        .y_label_area_size(48)
        .build_cartesian_2d(t0..t1, 0.0..f64::from(processors))?;
    chart
        .configure_mesh()
        .label_style(("sans-serif", 12))
        .axis_desc_style(("sans-serif", 12))
        .x_desc("simulated time [days]")
        .x_label_formatter(&|v| short_number(*v))
        .y_desc("processor")
        .y_label_formatter(&|y| format!("{y:.0}"))
        .light_line_style(WHITE.mix(0.0))
        .draw()?;
    let compute = PALETTE[0];
    let transfer = RGBColor(230, 140, 20);
    let waiting = RGBColor(170, 170, 170);
    let queued = RGBColor(150, 110, 200);
    for r in rows.iter().filter(|r| r.job as usize >= n) {
        let p = pending[r.job as usize - n];
        let (y0, y1) = (f64::from(r.first), f64::from(r.first + r.count));
        let fill = if p.running { compute.mix(0.3) } else { queued.mix(0.35) };
        chart.draw_series(std::iter::once(Rectangle::new([(p.start / day, y0), (p.end / day, y1)], fill.filled())))?;
        chart.draw_series(std::iter::once(Rectangle::new(
            [(p.start / day, y0), (p.end / day, y1)],
            WHITE.stroke_width(1),
        )))?;
    }
    for r in rows.iter().filter(|r| (r.job as usize) < n) {
        let j = shown[r.job as usize];
        let (y0, y1) = (f64::from(r.first), f64::from(r.first + r.count));
        // Processors held before the computation: the job's own transfer (data moved on its processors) or the
        // rest of a transfer the data-aware rule let it wait for on its processors.
        if j.compute_start > j.hold_start {
            let on_processors = j.transfer_start >= j.hold_start;
            let colour = if on_processors { transfer } else { waiting };
            chart.draw_series(std::iter::once(Rectangle::new(
                [(j.hold_start / day, y0), (j.compute_start / day, y1)],
                colour.filled(),
            )))?;
        }
        chart.draw_series(std::iter::once(Rectangle::new(
            [(j.compute_start / day, y0), (j.end / day, y1)],
            compute.mix(0.75).filled(),
        )))?;
        let backfilled = j.hold_start + 1e-9 < j.reservation;
        let border = if backfilled { BLACK.stroke_width(2) } else { WHITE.stroke_width(1) };
        chart.draw_series(std::iter::once(Rectangle::new([(j.hold_start / day, y0), (j.end / day, y1)], border)))?;
    }
    // Transfers that overlapped the queueing: a thin line ending where the job took its processors.
    for r in rows.iter().filter(|r| (r.job as usize) < n) {
        let j = shown[r.job as usize];
        if j.transfer_end > j.transfer_start && j.transfer_start < j.hold_start {
            let y = f64::from(r.first) + 0.5 * f64::from(r.count);
            let end = j.transfer_end.min(j.hold_start);
            chart.draw_series(std::iter::once(PathElement::new(
                [(j.transfer_start / day, y), (end / day, y)],
                transfer.stroke_width(1),
            )))?;
        }
    }
    Ok(())
}

/// The cards of a finished run: id, title, help, exact value, value as shown.
pub fn cards(r: &DataGridReport) -> Vec<(&'static str, &'static str, &'static str, f64, String)> {
    let m = &r.metrics;
    vec![
        (
            "dd-card-tt",
            "Average turnaround",
            "per job: end − submission, averaged over the jobs (Liu et al. 2010, Fig. 4)",
            m.turnaround.mean,
            fmt_time(m.turnaround.mean),
        ),
        (
            "dd-card-worst",
            "Worst turnaround",
            "the longest turnaround of any job (Fig. 6)",
            m.turnaround.max,
            fmt_time(m.turnaround.max),
        ),
        (
            "dd-card-wait",
            "Average waiting",
            "per job: taking its processors − submission",
            m.waiting.mean,
            fmt_time(m.waiting.mean),
        ),
        (
            "dd-card-transfer",
            "Average transfer",
            "per job with data: size / bandwidth (Eq. 1)",
            m.transfer.mean,
            fmt_time(m.transfer.mean),
        ),
        (
            "dd-card-util",
            "Utilization",
            "Σ runtime × processors / Σ over sites (makespan × processors) (§IV-B)",
            m.utilization,
            format!("{:.1}%", 100.0 * m.utilization),
        ),
    ]
}
