//! The page's charts, drawn by plotters on any backend (canvas on the page, SVG for export).

use super::axes::{self, at, builder, fit, legend_below, lin, log, mesh, Entry, Ticks};
use crate::family::multi_cluster::live::BotDone;
use crate::family::multi_cluster::simulation::Sample;
use crate::workload::size_class::SIZE_CLASSES;
use plotters::coord::ranged1d::{Ranged, ValueFormatter};
use plotters::coord::Shift;
use plotters::prelude::*;

pub use super::chart_style::*;

/// Draws a run's line (solid or dashed by its colour index) and returns its series annotation.
macro_rules! run_line {
    ($chart:expr, $pts:expr, $colour:expr) => {{
        let colour: usize = $colour;
        let style = PALETTE[colour % PALETTE.len()].stroke_width(width());
        match dash(colour) {
            (0, _) => $chart.draw_series(LineSeries::new($pts, style))?,
            (d, g) => $chart.draw_series(DashedLineSeries::new($pts, d, g, style))?,
        }
    }};
}

/// Draws run `colour`'s marker at each point.
macro_rules! run_markers {
    ($chart:expr, $pts:expr, $colour:expr) => {{
        let colour: usize = $colour;
        let c = PALETTE[colour % PALETTE.len()];
        let s = if projector() { 8 } else { 4 };
        let pts: Vec<(f64, f64)> = $pts;
        match colour % 4 {
            0 => {
                $chart.draw_series(pts.iter().map(|&p| Circle::new(p, s, c.filled())))?;
            }
            1 => {
                $chart.draw_series(pts.iter().map(|&p| TriangleMarker::new(p, s + 2, c.filled())))?;
            }
            2 => {
                $chart.draw_series(pts.iter().map(|&p| Cross::new(p, s + 1, c.stroke_width(width()))))?;
            }
            _ => {
                $chart.draw_series(
                    pts.iter().map(|&p| EmptyElement::at(p) + Rectangle::new([(-s, -s), (s, s)], c.filled())),
                )?;
            }
        }
    }};
}

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

use super::axes::DrawResult;

fn empty<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, title: &str) -> DrawResult<DB> {
    root.fill(&WHITE)?;
    root.draw(&Text::new(
        format!("{title}: no data yet"),
        (20, 30),
        ("sans-serif", font(15)).into_font().color(&BLACK),
    ))?;
    Ok(())
}

/// Lines over simulated time (days): `pick` extracts the y values of a sample; `per_cluster` draws one thin line
/// per cluster for the current run (the last of `runs`: drawn last, it lies on top of the pinned ones). With
/// `band`, a run of many samples is drawn as its mean and min–max per window (`axes::BINS` windows; the title says
/// how long one is): a series that swings at every task start and end is otherwise a wall of spikes.
pub fn draw_time_series<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    y_label: &str,
    runs: &[&RunData],
    pick: &dyn Fn(&Sample) -> f64,
    per_cluster: Option<PerCluster>,
    band: bool,
) -> DrawResult<DB> {
    if runs.iter().all(|r| r.samples.is_empty()) {
        return empty(root, title);
    }
    root.fill(&WHITE)?;
    let entries: Vec<Entry> =
        runs.iter().map(|r| Entry { label: r.label.clone(), colour: r.colour, marker: r.colour > 0 }).collect();
    let area = legend_below(root, &entries)?;
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
    let (xt, yt) = (Ticks::linear(0.0, x_max, fit(w)), Ticks::linear(0.0, y_max, fit(h * 3 / 2)));
    let band = band && runs.iter().any(|r| r.samples.len() > axes::BAND_FROM);
    let title = if band {
        format!("{title}: mean and min–max per {}", crate::ui::lab::fmt_time(x_max * 86_400.0 / axes::BINS as f64))
    } else {
        title.to_string()
    };
    let mut chart =
        builder(&area, &title, yt.widest()).build_cartesian_2d(lin(0.0, x_max, &xt), lin(0.0, y_max, &yt))?;
    mesh(&mut chart, ("simulated time [days]", &|v| xt.label(*v)), (y_label, &|v| yt.label(*v)))?;
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
            axes::draw_band(&mut chart, &win, r.colour, axes::band_opacity(runs.len()))?;
            pts = win.iter().map(|w| (w.0, w.1)).collect();
        }
        // A few markers along the line, offset per run so that overlapping runs stay apart.
        let stride = (pts.len() / 10).max(1);
        let marks: Vec<(f64, f64)> =
            pts.iter().skip((r.colour * stride / 4) % stride).step_by(stride).copied().collect();
        if !band {
            run_line!(chart, pts, r.colour);
        }
        if r.colour > 0 {
            run_markers!(chart, marks, r.colour);
        }
    }
    Ok(())
}

/// Mean NSL or makespan per BoT size class, one line of points per run (log scale when values span > 20×).
pub fn draw_classes<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
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
        return empty(root, title);
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
    points_chart(root, title, y_label, x, x_axis, &ys, &per_run)
}

/// Lines of points (each run's colour, dash and marker) over an x axis, on a log y axis when the values span more
/// than 20×, linear otherwise.
fn points_chart<DB: DrawingBackend, X>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    y_label: &str,
    x: X,
    x_axis: (&str, &dyn Fn(&f64) -> String),
    ys: &[f64],
    series: &[(usize, Vec<(f64, f64)>)],
) -> DrawResult<DB>
where
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let (lo, hi) = y_range(ys);
    let h = root.dim_in_pixel().1;
    if hi / lo > 20.0 {
        let (lo, hi) = (lo / 1.3, hi * 1.3);
        let yt = Ticks::log(lo, hi, fit(h * 3 / 2));
        let mut chart = builder(root, title, yt.widest()).build_cartesian_2d(x, log(lo, hi, &yt))?;
        mesh(&mut chart, x_axis, (y_label, &|v| yt.label(*v)))?;
        lines(&mut chart, series)
    } else {
        let pad = (hi - lo).max(hi * 0.1) * 0.15;
        let (lo, hi) = ((lo - pad).max(0.0), hi + pad);
        let yt = Ticks::linear(lo, hi, fit(h * 3 / 2));
        let mut chart = builder(root, title, yt.widest()).build_cartesian_2d(x, lin(lo, hi, &yt))?;
        mesh(&mut chart, x_axis, (y_label, &|v| yt.label(*v)))?;
        lines(&mut chart, series)
    }
}

fn y_range(ys: &[f64]) -> (f64, f64) {
    let lo = ys.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = ys.iter().copied().fold(0.0, f64::max);
    (lo, hi.max(lo * 1.0001))
}

/// Draws each series' line and markers.
fn lines<DB: DrawingBackend, X, Y>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<X, Y>>,
    series: &[(usize, Vec<(f64, f64)>)],
) -> DrawResult<DB>
where
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
{
    for (colour, pts) in series {
        run_line!(chart, pts.clone(), *colour);
        run_markers!(chart, pts.clone(), *colour);
    }
    Ok(())
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

fn cdf_points(values: &mut [f64]) -> Vec<(f64, f64)> {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    let step = (n / 400).max(1);
    let mut pts: Vec<(f64, f64)> =
        values.iter().enumerate().step_by(step).map(|(i, &v)| (v.max(1e-3), (i + 1) as f64 / n as f64)).collect();
    if let Some(&last) = values.last() {
        pts.push((last.max(1e-3), 1.0));
    }
    pts
}

/// The CDFs of BoT makespan and NSL, side by side (log x).
pub fn draw_cdfs<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, runs: &[&RunData]) -> DrawResult<DB> {
    if runs.iter().all(|r| r.bots.is_empty()) {
        return empty(root, "CDF of BoT makespan and NSL");
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
        let (xt, yt) = (Ticks::log(lo, hi, fit(w * 3 / 2)), Ticks::linear(0.0, 1.0, fit(h * 3 / 2)));
        let title = if nsl { "CDF of BoT NSL" } else { "CDF of BoT makespan [s]" };
        let mut chart = builder(&area, title, yt.widest()).build_cartesian_2d(log(lo, hi, &xt), lin(0.0, 1.0, &yt))?;
        let x_desc = if nsl { "NSL" } else { "makespan [s]" };
        mesh(&mut chart, (x_desc, &|v| xt.label(*v)), ("fraction of BoTs", &|v| yt.label(*v)))?;
        for (colour, pts) in curves {
            let stride = (pts.len() / 8).max(1);
            let marks: Vec<(f64, f64)> =
                pts.iter().skip((colour * stride / 4) % stride).step_by(stride).copied().collect();
            run_line!(chart, pts, colour);
            if colour > 0 {
                run_markers!(chart, marks, colour);
            }
        }
    }
    Ok(())
}

/// One sweep line per policy: a figure against the load, as in Figures 4, 9 and 11 of Iosup et al. 2008.
pub fn draw_sweep<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    y_label: &str,
    lines_in: &[(String, Vec<(f64, f64)>)],
) -> DrawResult<DB> {
    let series: Vec<(usize, Vec<(f64, f64)>)> = lines_in
        .iter()
        .enumerate()
        .map(|(i, (_, pts))| (i, pts.iter().copied().filter(|p| p.1.is_finite() && p.1 > 0.0).collect()))
        .collect();
    let ys: Vec<f64> = series.iter().flat_map(|s| s.1.iter().map(|p| p.1)).collect();
    if ys.is_empty() {
        return empty(root, title);
    }
    root.fill(&WHITE)?;
    let entries: Vec<Entry> = lines_in
        .iter()
        .enumerate()
        .map(|(i, (label, _))| Entry { label: label.clone(), colour: i, marker: true })
        .collect();
    let area = legend_below(root, &entries)?;
    let xt = Ticks::linear(0.15, 1.0, fit(area.dim_in_pixel().0));
    let x_axis: (&str, &dyn Fn(&f64) -> String) = ("load", &|v| xt.label(*v));
    points_chart(&area, title, y_label, lin(0.15, 1.0, &xt), x_axis, &ys, &series)
}

/// A study's lines (`study::table::Line`): the mean of each point, and its 95% interval as a vertical bar where it
/// has two seeds or more.
pub fn draw_study<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    x_label: &str,
    y_label: &str,
    lines_in: &[crate::study::table::Line],
) -> DrawResult<DB> {
    let finite = |p: &&crate::study::table::LinePoint| p.y.mean.is_finite();
    let xs: Vec<f64> = lines_in.iter().flat_map(|l| l.points.iter().filter(finite).map(|p| p.x)).collect();
    let mut ys: Vec<f64> = Vec::new();
    for p in lines_in.iter().flat_map(|l| l.points.iter().filter(finite)) {
        ys.push(p.y.mean);
        if p.y.has_bounds() {
            ys.extend([p.y.low, p.y.high]);
        }
    }
    if xs.is_empty() {
        return empty(root, title);
    }
    root.fill(&WHITE)?;
    let entries: Vec<Entry> =
        lines_in.iter().enumerate().map(|(i, l)| Entry { label: l.label.clone(), colour: i, marker: true }).collect();
    let area = legend_below(root, &entries)?;
    let (x_lo, x_hi) =
        (xs.iter().copied().fold(f64::INFINITY, f64::min), xs.iter().copied().fold(f64::NEG_INFINITY, f64::max));
    let x_pad = ((x_hi - x_lo) * 0.05).max(x_lo.abs() * 0.05).max(1e-9);
    let (y_lo, y_hi) =
        (ys.iter().copied().fold(f64::INFINITY, f64::min), ys.iter().copied().fold(f64::NEG_INFINITY, f64::max));
    let y_pad = ((y_hi - y_lo) * 0.1).max(y_hi.abs() * 0.05).max(1e-9);
    let (x0, x1) = (x_lo - x_pad, x_hi + x_pad);
    let (y0, y1) = ((y_lo - y_pad).min(if y_lo >= 0.0 { 0.0 } else { y_lo - y_pad }), y_hi + y_pad);
    let (w, h) = area.dim_in_pixel();
    let (xt, yt) = (Ticks::linear(x0, x1, fit(w)), Ticks::linear(y0, y1, fit(h * 3 / 2)));
    let mut chart = builder(&area, title, yt.widest()).build_cartesian_2d(lin(x0, x1, &xt), lin(y0, y1, &yt))?;
    mesh(&mut chart, (x_label, &|v| xt.label(*v)), (y_label, &|v| yt.label(*v)))?;
    for (colour, line) in lines_in.iter().enumerate() {
        let pts: Vec<(f64, f64)> = line.points.iter().filter(finite).map(|p| (p.x, p.y.mean)).collect();
        run_line!(chart, pts.clone(), colour);
        run_markers!(chart, pts, colour);
        let c = PALETTE[colour % PALETTE.len()].stroke_width(width());
        chart.draw_series(
            line.points
                .iter()
                .filter(|p| p.y.mean.is_finite() && p.y.has_bounds())
                .map(|p| PathElement::new(vec![(p.x, p.y.low), (p.x, p.y.high)], c)),
        )?;
    }
    Ok(())
}
