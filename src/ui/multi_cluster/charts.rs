//! The multi-cluster family's live charts: what one run contributes to them (`RunData`, with running sums so that
//! a redraw costs the same at any size) and how each is drawn (queued tasks and utilization over time, mean NSL
//! and makespan per size class, the CDFs of BoT makespan and NSL), on any plotters backend.

use crate::family::multi_cluster::live::BotDone;
use crate::family::multi_cluster::sim::Sample;
use crate::ui::axes::DrawResult;
use crate::ui::axes::{self, at, builder, fit, legend_below, lin, log, mesh, Entry, Ticks};
use crate::ui::chart_style::Pen;
use crate::ui::charts::*;
use crate::ui::charts::{cdf_points, empty, points_chart, run_line, run_markers};
use crate::workload::size_class::SIZE_CLASSES;
use plotters::coord::Shift;
use plotters::prelude::*;

/// What one run contributes to the charts and the live cards, with running sums kept as results stream in, so
/// that a redraw costs the same whether 100 or 400 000 BoTs have finished.
#[derive(Clone, Debug, Default)]
pub struct RunData {
    pub label: String,
    pub colour: usize,
    pub samples: Vec<Sample>,
    pub bots: Vec<BotDone>,
    /// Per size class: (BoTs, Σ NSL, Σ makespan).
    classes: [(u64, f64, f64); 10],
    /// Σ makespan, Σ NSL, Σ wait over the BoTs.
    bot_sums: (f64, f64, f64),
    /// Σ utilization over the samples.
    utilization_sum: f64,
}

impl RunData {
    pub fn new(label: &str, colour: usize) -> Self {
        RunData { label: label.to_string(), colour, ..Default::default() }
    }

    /// A copy under another label and colour (a pinned run).
    pub fn relabelled(&self, label: &str, colour: usize) -> Self {
        RunData { label: label.to_string(), colour, ..self.clone() }
    }

    /// Adds what a progress message brought.
    pub fn extend(&mut self, samples: &[Sample], bots: &[BotDone]) {
        for s in samples {
            self.utilization_sum += s.utilization;
        }
        for b in bots {
            let c = &mut self.classes[crate::workload::size_class::size_class_index(b.size)];
            c.0 += 1;
            c.1 += b.nsl;
            c.2 += b.makespan;
            self.bot_sums.0 += b.makespan;
            self.bot_sums.1 += b.nsl;
            self.bot_sums.2 += b.wait;
        }
        self.samples.extend_from_slice(samples);
        self.bots.extend_from_slice(bots);
    }

    /// Per size class with finished BoTs: (class index, mean NSL, mean makespan).
    pub fn class_means(&self) -> Vec<(usize, f64, f64)> {
        let a = &self.classes;
        (0..a.len()).filter(|&i| a[i].0 > 0).map(|i| (i, a[i].1 / a[i].0 as f64, a[i].2 / a[i].0 as f64)).collect()
    }

    /// Mean makespan, NSL and wait of the finished BoTs (NaN before the first).
    pub fn bot_means(&self) -> (f64, f64, f64) {
        let n = self.bots.len() as f64;
        if n == 0.0 {
            return (f64::NAN, f64::NAN, f64::NAN);
        }
        (self.bot_sums.0 / n, self.bot_sums.1 / n, self.bot_sums.2 / n)
    }

    /// Mean utilization over the samples so far (NaN before the first).
    pub fn mean_utilization(&self) -> f64 {
        if self.samples.is_empty() {
            f64::NAN
        } else {
            self.utilization_sum / self.samples.len() as f64
        }
    }
}

/// At most this many BoTs per CDF curve (an even stride over them): the curve is drawn at 400 points, and sorting
/// more would only make a live redraw slower.
const CDF_SAMPLE: usize = 10_000;

/// The y value of cluster c in a sample.
pub type PerCluster<'a> = &'a dyn Fn(&Sample, usize) -> f64;

/// Lines over simulated time (days): `pick` extracts the y values of a sample; `per_cluster` draws one thin line
/// per cluster for the current run (the last of `runs`: drawn last, it lies on top of the pinned ones). With
/// `band`, a run of many samples is drawn as its mean and min–max per window (`axes::BINS` windows; the title says
/// how long one is): a series that swings at every task start and end is otherwise a wall of spikes.
pub fn draw_time_series<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    pen: Pen,
    (title, y_label): (&str, &str),
    runs: &[&RunData],
    pick: &dyn Fn(&Sample) -> f64,
    per_cluster: Option<PerCluster>,
    band: bool,
) -> DrawResult<DB> {
    if runs.iter().all(|r| r.samples.is_empty()) {
        return empty(root, pen, title);
    }
    root.fill(&WHITE)?;
    let entries: Vec<Entry> =
        runs.iter().map(|r| Entry { label: r.label.clone(), colour: r.colour, marker: r.colour > 0 }).collect();
    let area = legend_below(root, pen, &entries)?;
    let x_max = runs.iter().flat_map(|r| r.samples.last()).map(|s| s.time / 86_400.0).fold(0.1, f64::max);
    let mut y_max = runs.iter().flat_map(|r| r.samples.iter().map(pick)).fold(0.0, f64::max);
    if let (Some(f), Some(r)) = (per_cluster, runs.last()) {
        for s in &r.samples {
            for c in 0..s.cluster_queued.len() {
                y_max = y_max.max(f(s, c));
            }
        }
    }
    let y_max = if y_max > 0.0 { y_max * 1.05 } else { 1.0 };
    let (w, h) = area.dim_in_pixel();
    let (xt, yt) = (Ticks::linear(0.0, x_max, fit(pen, w)), Ticks::linear(0.0, y_max, fit(pen, h * 3 / 2)));
    let band = band && runs.iter().any(|r| r.samples.len() > axes::BAND_FROM);
    let title = if band {
        format!("{title}: mean and min–max per {}", crate::ui::lab::fmt_time(x_max * 86_400.0 / axes::BINS as f64))
    } else {
        title.to_string()
    };
    let mut chart =
        builder(&area, pen, &title, yt.widest()).build_cartesian_2d(lin(0.0, x_max, &xt), lin(0.0, y_max, &yt))?;
    mesh(&mut chart, pen, ("simulated time [days]", &|v| xt.label(*v)), (y_label, &|v| yt.label(*v)))?;
    if let (Some(f), Some(r)) = (per_cluster, runs.last()) {
        let clusters = r.samples.first().map_or(0, |s| s.cluster_queued.len());
        let colour = PALETTE[r.colour % PALETTE.len()].mix(0.25);
        for c in 0..clusters {
            chart.draw_series(LineSeries::new(r.samples.iter().map(|s| (s.time / 86_400.0, f(s, c))), colour))?;
        }
    }
    for r in runs {
        let mut pts: Vec<(f64, f64)> = r.samples.iter().map(|s| (s.time / 86_400.0, pick(s))).collect();
        if band {
            let win = crate::stats::window::windows(&pts, 0.0, x_max, axes::BINS);
            axes::draw_band(&mut chart, pen, &win, r.colour, axes::band_opacity(runs.len()))?;
            pts = win.iter().map(|w| (w.0, w.1)).collect();
        }
        // A few markers along the line, offset per run so that overlapping runs stay apart.
        let stride = (pts.len() / 10).max(1);
        let marks: Vec<(f64, f64)> =
            pts.iter().skip((r.colour * stride / 4) % stride).step_by(stride).copied().collect();
        if !band {
            run_line!(chart, pen, pts, r.colour);
        }
        if r.colour > 0 {
            run_markers!(chart, pen, marks, r.colour);
        }
    }
    Ok(())
}

/// Mean NSL or makespan per BoT size class, one line of points per run (log scale when values span > 20×).
pub fn draw_classes<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    pen: Pen,
    title: &str,
    y_label: &str,
    runs: &[&RunData],
    nsl: bool,
) -> DrawResult<DB> {
    let per_run: Vec<(usize, Vec<(f64, f64)>)> = runs
        .iter()
        .map(|r| {
            let pts = r.class_means().into_iter().map(|(i, n, m)| (i as f64, if nsl { n } else { m }));
            (r.colour, pts.filter(|p| p.1 > 0.0 && p.1.is_finite()).collect())
        })
        .collect();
    let ys: Vec<f64> = per_run.iter().flat_map(|(_, v)| v.iter().map(|p| p.1)).collect();
    if ys.is_empty() {
        return empty(root, pen, title);
    }
    root.fill(&WHITE)?;
    // Every class named where there is room (about 56 pixels a name), every other one where not.
    let every = if root.dim_in_pixel().0 < 10 * 56 + 100 { 2 } else { 1 };
    let class_name = move |x: &f64| {
        let i = x.round();
        if (x - i).abs() < 1e-6 && (0.0..10.0).contains(&i) && i as usize % every == 0 {
            SIZE_CLASSES[i as usize].0.to_string()
        } else {
            String::new()
        }
    };
    let x = at(-0.5, 9.5, (0..10).map(f64::from).collect());
    let x_axis: (&str, &dyn Fn(&f64) -> String) = ("BoT size class", &class_name);
    points_chart(root, pen, (title, y_label), x, x_axis, &ys, &per_run)
}

/// The CDF curve of a run's BoT makespans (or NSLs) as drawn: (value, fraction of BoTs) points.
pub fn cdf_curve(r: &RunData, nsl: bool) -> Vec<(f64, f64)> {
    let stride = r.bots.len().div_ceil(CDF_SAMPLE).max(1);
    let mut v: Vec<f64> = r.bots.iter().step_by(stride).map(|b| if nsl { b.nsl } else { b.makespan }).collect();
    cdf_points(&mut v)
}

/// The queued tasks of a sample (the queue chart's y).
pub fn queued(s: &Sample) -> f64 {
    s.queued as f64
}

/// The utilization of a sample (the utilization chart's y).
pub fn utilization(s: &Sample) -> f64 {
    s.utilization
}

/// The CDFs of BoT makespan and NSL, side by side (log x).
pub fn draw_cdfs<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, pen: Pen, runs: &[&RunData]) -> DrawResult<DB> {
    if runs.iter().all(|r| r.bots.is_empty()) {
        return empty(root, pen, "CDF of BoT makespan and NSL");
    }
    root.fill(&WHITE)?;
    let (left, right) = root.split_horizontally(root.dim_in_pixel().0 / 2);
    for (area, nsl) in [(left, false), (right, true)] {
        let curves: Vec<(usize, Vec<(f64, f64)>)> = runs.iter().map(|r| (r.colour, cdf_curve(r, nsl))).collect();
        let xs: Vec<f64> = curves.iter().flat_map(|c| c.1.iter().map(|p| p.0)).collect();
        if xs.is_empty() {
            continue;
        }
        let lo = xs.iter().copied().fold(f64::INFINITY, f64::min).max(1e-3);
        let hi = xs.iter().copied().fold(0.0, f64::max).max(lo * 10.0);
        let (w, h) = area.dim_in_pixel();
        let (xt, yt) = (Ticks::log(lo, hi, fit(pen, w * 3 / 2)), Ticks::linear(0.0, 1.0, fit(pen, h * 3 / 2)));
        let title = if nsl { "CDF of BoT NSL" } else { "CDF of BoT makespan [s]" };
        let mut chart =
            builder(&area, pen, title, yt.widest()).build_cartesian_2d(log(lo, hi, &xt), lin(0.0, 1.0, &yt))?;
        let x_desc = if nsl { "NSL" } else { "makespan [s]" };
        mesh(&mut chart, pen, (x_desc, &|v| xt.label(*v)), ("fraction of BoTs", &|v| yt.label(*v)))?;
        for (colour, pts) in curves {
            let stride = (pts.len() / 8).max(1);
            let marks: Vec<(f64, f64)> =
                pts.iter().skip((colour * stride / 4) % stride).step_by(stride).copied().collect();
            run_line!(chart, pen, pts, colour);
            if colour > 0 {
                run_markers!(chart, pen, marks, colour);
            }
        }
    }
    Ok(())
}
