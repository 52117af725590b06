//! The page's shared chart drawing, by plotters on any backend (canvas on the page, SVG for export): each run's
//! line, dash and marker, an empty chart, lines of points over an x axis, a CDF's points, and the sweep's and the
//! study's figures. Knows no family; each family's own charts are in its folder.

use super::axes::{builder, fit, legend_below, lin, log, mesh, Entry, Ticks};
use plotters::coord::ranged1d::{Ranged, ValueFormatter};
use plotters::coord::Shift;
use plotters::prelude::*;

pub use super::chart_style::*;

/// Draws a run's line (solid or dashed by its colour index) and returns its series annotation.
macro_rules! run_line {
    ($chart:expr, $pen:expr, $pts:expr, $colour:expr) => {{
        let colour: usize = $colour;
        let pen: $crate::ui::chart_style::Pen = $pen;
        let style = PALETTE[colour % PALETTE.len()].stroke_width(pen.width());
        match pen.dash(colour) {
            (0, _) => $chart.draw_series(LineSeries::new($pts, style))?,
            (d, g) => $chart.draw_series(DashedLineSeries::new($pts, d, g, style))?,
        }
    }};
}

/// Draws run `colour`'s marker at each point.
macro_rules! run_markers {
    ($chart:expr, $pen:expr, $pts:expr, $colour:expr) => {{
        let colour: usize = $colour;
        let pen: $crate::ui::chart_style::Pen = $pen;
        let c = PALETTE[colour % PALETTE.len()];
        let s = if pen.projector() { 8 } else { 4 };
        let pts: Vec<(f64, f64)> = $pts;
        match colour % 4 {
            0 => {
                $chart.draw_series(pts.iter().map(|&p| Circle::new(p, s, c.filled())))?;
            }
            1 => {
                $chart.draw_series(pts.iter().map(|&p| TriangleMarker::new(p, s + 2, c.filled())))?;
            }
            2 => {
                $chart.draw_series(pts.iter().map(|&p| Cross::new(p, s + 1, c.stroke_width(pen.width()))))?;
            }
            _ => {
                $chart.draw_series(
                    pts.iter().map(|&p| EmptyElement::at(p) + Rectangle::new([(-s, -s), (s, s)], c.filled())),
                )?;
            }
        }
    }};
}

pub(crate) use {run_line, run_markers};

use super::axes::DrawResult;

pub(crate) fn empty<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, pen: Pen, title: &str) -> DrawResult<DB> {
    root.fill(&WHITE)?;
    root.draw(&Text::new(
        format!("{title}: no data yet"),
        (20, 30),
        ("sans-serif", pen.font(15)).into_font().color(&BLACK),
    ))?;
    Ok(())
}

/// Lines of points (each run's colour, dash and marker) over an x axis, on a log y axis when the values span more
/// than 20×, linear otherwise.
pub(crate) fn points_chart<DB: DrawingBackend, X>(
    root: &DrawingArea<DB, Shift>,
    pen: Pen,
    (title, y_label): (&str, &str),
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
        let yt = Ticks::log(lo, hi, fit(pen, h * 3 / 2));
        let mut chart = builder(root, pen, title, yt.widest()).build_cartesian_2d(x, log(lo, hi, &yt))?;
        mesh(&mut chart, pen, x_axis, (y_label, &|v| yt.label(*v)))?;
        lines(&mut chart, pen, series)
    } else {
        let pad = (hi - lo).max(hi * 0.1) * 0.15;
        let (lo, hi) = ((lo - pad).max(0.0), hi + pad);
        let yt = Ticks::linear(lo, hi, fit(pen, h * 3 / 2));
        let mut chart = builder(root, pen, title, yt.widest()).build_cartesian_2d(x, lin(lo, hi, &yt))?;
        mesh(&mut chart, pen, x_axis, (y_label, &|v| yt.label(*v)))?;
        lines(&mut chart, pen, series)
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
    pen: Pen,
    series: &[(usize, Vec<(f64, f64)>)],
) -> DrawResult<DB>
where
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
{
    for (colour, pts) in series {
        run_line!(chart, pen, pts.clone(), *colour);
        run_markers!(chart, pen, pts.clone(), *colour);
    }
    Ok(())
}

/// The CDF of `values` as drawn: at most about 400 (value, fraction) points, the last at 1.
pub(crate) fn cdf_points(values: &mut [f64]) -> Vec<(f64, f64)> {
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

/// One sweep line per policy: a figure against the load, as in Figures 4, 9 and 11 of Iosup et al. 2008.
pub fn draw_sweep<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    pen: Pen,
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
        return empty(root, pen, title);
    }
    root.fill(&WHITE)?;
    let entries: Vec<Entry> = lines_in
        .iter()
        .enumerate()
        .map(|(i, (label, _))| Entry { label: label.clone(), colour: i, marker: true })
        .collect();
    let area = legend_below(root, pen, &entries)?;
    let xt = Ticks::linear(0.15, 1.0, fit(pen, area.dim_in_pixel().0));
    let x_axis: (&str, &dyn Fn(&f64) -> String) = ("load", &|v| xt.label(*v));
    points_chart(&area, pen, (title, y_label), lin(0.15, 1.0, &xt), x_axis, &ys, &series)
}

/// A study's lines (`study::table::Line`): the mean of each point, and its 95% interval as a vertical bar where it
/// has two seeds or more.
pub fn draw_study<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    pen: Pen,
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
        return empty(root, pen, title);
    }
    root.fill(&WHITE)?;
    let entries: Vec<Entry> =
        lines_in.iter().enumerate().map(|(i, l)| Entry { label: l.label.clone(), colour: i, marker: true }).collect();
    let area = legend_below(root, pen, &entries)?;
    let (x_lo, x_hi) =
        (xs.iter().copied().fold(f64::INFINITY, f64::min), xs.iter().copied().fold(f64::NEG_INFINITY, f64::max));
    let x_pad = ((x_hi - x_lo) * 0.05).max(x_lo.abs() * 0.05).max(1e-9);
    let (y_lo, y_hi) =
        (ys.iter().copied().fold(f64::INFINITY, f64::min), ys.iter().copied().fold(f64::NEG_INFINITY, f64::max));
    let y_pad = ((y_hi - y_lo) * 0.1).max(y_hi.abs() * 0.05).max(1e-9);
    let (x0, x1) = (x_lo - x_pad, x_hi + x_pad);
    let (y0, y1) = ((y_lo - y_pad).min(if y_lo >= 0.0 { 0.0 } else { y_lo - y_pad }), y_hi + y_pad);
    let (w, h) = area.dim_in_pixel();
    let (xt, yt) = (Ticks::linear(x0, x1, fit(pen, w)), Ticks::linear(y0, y1, fit(pen, h * 3 / 2)));
    let mut chart = builder(&area, pen, title, yt.widest()).build_cartesian_2d(lin(x0, x1, &xt), lin(y0, y1, &yt))?;
    mesh(&mut chart, pen, (x_label, &|v| xt.label(*v)), (y_label, &|v| yt.label(*v)))?;
    for (colour, line) in lines_in.iter().enumerate() {
        let pts: Vec<(f64, f64)> = line.points.iter().filter(finite).map(|p| (p.x, p.y.mean)).collect();
        run_line!(chart, pen, pts.clone(), colour);
        run_markers!(chart, pen, pts, colour);
        let c = PALETTE[colour % PALETTE.len()].stroke_width(pen.width());
        chart.draw_series(
            line.points
                .iter()
                .filter(|p| p.y.mean.is_finite() && p.y.has_bounds())
                .map(|p| PathElement::new(vec![(p.x, p.y.low), (p.x, p.y.high)], c)),
        )?;
    }
    Ok(())
}
