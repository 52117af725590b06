//! The page's charts, drawn by plotters on any backend (canvas on the page, SVG for export).

use crate::family::multi_cluster::live::BotDone;
use crate::family::multi_cluster::simulation::Sample;
use crate::workload::size_class::SIZE_CLASSES;
use plotters::coord::ranged1d::{Ranged, ValueFormatter};
use plotters::coord::Shift;
use plotters::prelude::*;

/// Colours of the current run (index 0) and of pinned runs: the Okabe–Ito palette, which readers with any
/// common colour-vision deficiency can tell apart; pinned runs also differ by dash pattern and marker ([`dash`],
/// [`marker`]), so no run is told from another by colour alone.
pub const PALETTE: [RGBColor; 8] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(0, 0, 0),
    RGBColor(120, 120, 120),
];

/// Dash and gap lengths (pixels, before projector scaling) of run `colour`'s line; (0, 0) is solid.
pub const DASHES: [(i32, i32); 8] = [(0, 0), (12, 6), (3, 4), (16, 4), (8, 8), (2, 8), (20, 8), (6, 3)];

/// The SVG `stroke-dasharray` of run `colour`'s line, for the legend on the page ("none" when solid).
pub fn dash_array(colour: usize) -> String {
    match DASHES[colour % DASHES.len()] {
        (0, _) => "none".to_string(),
        (d, g) => format!("{d} {g}"),
    }
}

/// The marker of run `colour` on point charts: circle, triangle, cross, square, in turn.
pub fn marker(colour: usize) -> &'static str {
    ["circle", "triangle", "cross", "square"][colour % 4]
}

thread_local! {
    static PROJECTOR: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Projector mode draws thicker lines and larger type.
pub fn set_projector(on: bool) {
    PROJECTOR.with(|p| p.set(on));
}

fn projector() -> bool {
    PROJECTOR.with(|p| p.get())
}

/// Line width of a run's line.
fn width() -> u32 {
    if projector() {
        5
    } else {
        2
    }
}

/// A font size, larger in projector mode.
fn font(px: u32) -> u32 {
    if projector() {
        px * 8 / 5
    } else {
        px
    }
}

/// The dash and gap of run `colour`, scaled with the line width.
fn dash(colour: usize) -> (i32, i32) {
    let (d, g) = DASHES[colour % DASHES.len()];
    let k = if projector() { 2 } else { 1 };
    (d * k, g * k)
}

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

/// Axis labels: three significant digits without trailing zeros, no float noise ("0.0312", "45.2", "2", "1.2e5").
pub(crate) fn short_number(v: f64) -> String {
    let a = v.abs();
    if a == 0.0 {
        "0".into()
    } else if !(1e-3..1e5).contains(&a) {
        format!("{v:.1e}")
    } else {
        // Three significant digits, without trailing zeros: 45000, 2, 0.5, 0.04.
        let digits = (2 - libm::floor(libm::log10(a)) as i32).max(0) as usize;
        let s = format!("{v:.digits$}");
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    }
}

/// The y value of cluster c in a sample.
pub type PerCluster<'a> = &'a dyn Fn(&Sample, usize) -> f64;

type DrawResult<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

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
/// per cluster for the current run (the last of `runs`: drawn last, it lies on top of the pinned ones).
pub fn draw_time_series<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    y_label: &str,
    runs: &[&RunData],
    pick: &dyn Fn(&Sample) -> f64,
    per_cluster: Option<PerCluster>,
) -> DrawResult<DB> {
    if runs.iter().all(|r| r.samples.is_empty()) {
        return empty(root, title);
    }
    root.fill(&WHITE)?;
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
    let mut chart = ChartBuilder::on(root)
        .caption(title, ("sans-serif", font(16)))
        .margin(8)
        .x_label_area_size(font(32))
        .y_label_area_size(font(56))
        .build_cartesian_2d(0.0..x_max, 0.0..y_max)?;
    chart
        .configure_mesh()
        .label_style(("sans-serif", font(12)))
        .axis_desc_style(("sans-serif", font(12)))
        .x_desc("simulated time [days]")
        .y_desc(y_label)
        .x_label_formatter(&|v| short_number(*v))
        .y_label_formatter(&|v| short_number(*v))
        .light_line_style(WHITE.mix(0.0))
        .draw()?;
    if let (Some(f), Some(r)) = (per_cluster, runs.last()) {
        let clusters = r.samples.first().map_or(0, |s| s.cluster_queued.len());
        let colour = PALETTE[r.colour % PALETTE.len()].mix(0.25);
        for c in 0..clusters {
            chart.draw_series(LineSeries::new(r.samples.iter().map(|s| (s.time / 86_400.0, f(s, c))), colour))?;
        }
    }
    for r in runs {
        let pts: Vec<(f64, f64)> = r.samples.iter().map(|s| (s.time / 86_400.0, pick(s))).collect();
        // A few markers along the line, offset per run so that overlapping runs stay apart.
        let stride = (pts.len() / 10).max(1);
        let marks: Vec<(f64, f64)> =
            pts.iter().skip((r.colour * stride / 4) % stride).step_by(stride).copied().collect();
        run_line!(chart, pts, r.colour);
        if r.colour > 0 {
            run_markers!(chart, marks, r.colour);
        }
    }
    let entries: Vec<(&str, ShapeStyle, i32)> = runs
        .iter()
        .map(|r| {
            let (d, _) = dash(r.colour);
            (
                r.label.as_str(),
                PALETTE[r.colour % PALETTE.len()].stroke_width(width()),
                if d == 0 { 20 } else { d.min(20) },
            )
        })
        .collect();
    legend(&chart.plotting_area().strip_coord_spec(), &entries, font(12))
}

/// A legend as plotters' `configure_series_labels` draws one (middle right of the plot, on a white box): a line
/// sample of `length` pixels in its style and the label, per entry. Its text is measured by the backend (the
/// canvas's own measure); plotters' legend measures each label by laying out the whole page, on every redraw.
fn legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[(&str, ShapeStyle, i32)],
    size: u32,
) -> DrawResult<DB> {
    if entries.is_empty() {
        return Ok(());
    }
    let style = TextStyle::from(("sans-serif", size).into_font()).color(&BLACK);
    let step = (1.25 * f64::from(size)).round() as i32;
    let sizes =
        entries.iter().map(|(label, ..)| area.estimate_text_size(label, &style)).collect::<Result<Vec<_>, _>>()?;
    let text_w = sizes.iter().map(|s| s.0 as i32).max().unwrap_or(0);
    let last_h = sizes.last().map_or(0, |s| s.1 as i32);
    // plotters' sizes: a margin of 10, a legend area of 30, the box 5 pixels from the plot's right edge.
    let (margin, sample_w) = (10, 30);
    let n = entries.len() as i32;
    let (w, h) = (text_w + sample_w + 2 * margin, step * (n - 1) + last_h + 2 * margin);
    let (area_w, area_h) = area.dim_in_pixel();
    let (x, y) = (area_w as i32 - w - 5, (area_h as i32 - h) / 2);
    area.draw(&Rectangle::new([(x, y), (x + w, y + h)], WHITE.mix(0.85).filled()))?;
    area.draw(&Rectangle::new([(x, y), (x + w, y + h)], BLACK.mix(0.3)))?;
    for (i, ((label, line, length), (_, text_h))) in entries.iter().zip(&sizes).enumerate() {
        let top = y + margin + step * i as i32;
        area.draw(&Text::new(label.to_string(), (x + margin + sample_w, top), style.clone()))?;
        let mid = top + *text_h as i32 / 2;
        area.draw(&PathElement::new(vec![(x + margin, mid), (x + margin + length, mid)], *line))?;
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
    let mut builder = ChartBuilder::on(root);
    builder.caption(title, ("sans-serif", font(16))).margin(8).x_label_area_size(font(36)).y_label_area_size(font(56));
    let class_name = |x: &f64| {
        let i = x.round();
        if (x - i).abs() < 1e-6 && (0.0..10.0).contains(&i) {
            SIZE_CLASSES[i as usize].0.to_string()
        } else {
            String::new()
        }
    };
    let (lo, hi) = y_range(&ys);
    if hi / lo > 20.0 {
        let chart = builder.build_cartesian_2d(-0.5f64..9.5f64, (lo / 1.3..hi * 1.3).log_scale())?;
        lines(chart, "BoT size class", y_label, &class_name, 10, &per_run)
    } else {
        let pad = (hi - lo).max(hi * 0.1) * 0.15;
        let chart = builder.build_cartesian_2d(-0.5f64..9.5f64, (lo - pad).max(0.0)..hi + pad)?;
        lines(chart, "BoT size class", y_label, &class_name, 10, &per_run)
    }
}

fn y_range(ys: &[f64]) -> (f64, f64) {
    let lo = ys.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = ys.iter().copied().fold(0.0, f64::max);
    (lo, hi.max(lo * 1.0001))
}

/// Draws lines of points on a chart whose y axis may be log or linear.
fn lines<DB: DrawingBackend, Y>(
    mut chart: ChartContext<'_, DB, Cartesian2d<plotters::coord::types::RangedCoordf64, Y>>,
    x_desc: &str,
    y_desc: &str,
    x_format: &dyn Fn(&f64) -> String,
    x_labels: usize,
    series: &[(usize, Vec<(f64, f64)>)],
) -> DrawResult<DB>
where
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    chart
        .configure_mesh()
        .label_style(("sans-serif", font(12)))
        .axis_desc_style(("sans-serif", font(12)))
        .x_labels(x_labels)
        .x_label_formatter(x_format)
        .x_desc(x_desc)
        .y_desc(y_desc)
        .y_labels(8)
        .y_label_formatter(&|v| short_number(*v))
        .draw()?;
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
        let mut chart = ChartBuilder::on(&area)
            .caption(if nsl { "CDF of BoT NSL" } else { "CDF of BoT makespan [s]" }, ("sans-serif", font(16)))
            .margin(8)
            .x_label_area_size(font(32))
            .y_label_area_size(font(44))
            .build_cartesian_2d((lo..hi).log_scale(), 0.0..1.0)?;
        chart
            .configure_mesh()
            .label_style(("sans-serif", font(12)))
            .axis_desc_style(("sans-serif", font(12)))
            .x_desc(if nsl { "NSL" } else { "makespan [s]" })
            .y_desc("fraction of BoTs")
            .y_label_formatter(&|v| short_number(*v))
            .x_labels(8)
            .x_label_formatter(&|v| short_number(*v))
            .draw()?;
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
    let mut builder = ChartBuilder::on(root);
    builder.caption(title, ("sans-serif", font(16))).margin(8).x_label_area_size(font(32)).y_label_area_size(font(56));
    let x_format = |x: &f64| format!("{x:.1}");
    let (lo, hi) = y_range(&ys);
    if hi / lo > 20.0 {
        let chart = builder.build_cartesian_2d(0.15f64..1.0f64, (lo / 1.3..hi * 1.3).log_scale())?;
        lines(chart, "load", y_label, &x_format, 9, &series)?;
    } else {
        let pad = (hi - lo).max(hi * 0.1) * 0.15;
        let chart = builder.build_cartesian_2d(0.15f64..1.0f64, (lo - pad).max(0.0)..hi + pad)?;
        lines(chart, "load", y_label, &x_format, 9, &series)?;
    }
    // The legend: policy names in their colours, top left.
    for (i, (label, _)) in lines_in.iter().enumerate() {
        let c = PALETTE[i % PALETTE.len()];
        let y = 34 + 16 * i as i32;
        root.draw(&Rectangle::new([(70, y), (84, y + 10)], c.filled()))?;
        root.draw(&Text::new(label.clone(), (90, y - 1), ("sans-serif", font(13)).into_font().color(&BLACK)))?;
    }
    Ok(())
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
        if p.y.half_width.is_finite() {
            ys.extend([p.y.low(), p.y.high()]);
        }
    }
    if xs.is_empty() {
        return empty(root, title);
    }
    root.fill(&WHITE)?;
    let (x_lo, x_hi) =
        (xs.iter().copied().fold(f64::INFINITY, f64::min), xs.iter().copied().fold(f64::NEG_INFINITY, f64::max));
    let x_pad = ((x_hi - x_lo) * 0.05).max(x_lo.abs() * 0.05).max(1e-9);
    let (y_lo, y_hi) =
        (ys.iter().copied().fold(f64::INFINITY, f64::min), ys.iter().copied().fold(f64::NEG_INFINITY, f64::max));
    let y_pad = ((y_hi - y_lo) * 0.1).max(y_hi.abs() * 0.05).max(1e-9);
    let mut chart = ChartBuilder::on(root)
        .caption(title, ("sans-serif", font(16)))
        .margin(8)
        .x_label_area_size(font(32))
        .y_label_area_size(font(56))
        .build_cartesian_2d(
            x_lo - x_pad..x_hi + x_pad,
            (y_lo - y_pad).min(if y_lo >= 0.0 { 0.0 } else { y_lo - y_pad })..y_hi + y_pad,
        )?;
    chart
        .configure_mesh()
        .label_style(("sans-serif", font(12)))
        .axis_desc_style(("sans-serif", font(12)))
        .x_desc(x_label)
        .y_desc(y_label)
        .x_label_formatter(&|v| short_number(*v))
        .y_label_formatter(&|v| short_number(*v))
        .draw()?;
    for (colour, line) in lines_in.iter().enumerate() {
        let pts: Vec<(f64, f64)> = line.points.iter().filter(finite).map(|p| (p.x, p.y.mean)).collect();
        run_line!(chart, pts.clone(), colour);
        run_markers!(chart, pts, colour);
        let c = PALETTE[colour % PALETTE.len()].stroke_width(width());
        chart.draw_series(
            line.points
                .iter()
                .filter(|p| p.y.mean.is_finite() && p.y.half_width.is_finite())
                .map(|p| PathElement::new(vec![(p.x, p.y.low()), (p.x, p.y.high())], c)),
        )?;
    }
    for (i, line) in lines_in.iter().enumerate() {
        let c = PALETTE[i % PALETTE.len()];
        let y = 34 + 16 * i as i32;
        root.draw(&Rectangle::new([(70, y), (84, y + 10)], c.filled()))?;
        root.draw(&Text::new(line.label.clone(), (90, y - 1), ("sans-serif", font(13)).into_font().color(&BLACK)))?;
    }
    Ok(())
}
