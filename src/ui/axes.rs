//! What every chart of the page shares for its axes and legends: ticks by range (`stats::ticks`, one formatter for
//! every chart) bound as plotters' key points, label areas sized to their labels so that an axis title never lies on
//! a tick label, the legend in a strip below the plot (never over the data), and a spiky series summarised per
//! window of time (mean line, min–max band).

use super::chart_style::{Pen, PALETTE};
pub use crate::stats::ticks::Ticks;
use plotters::coord::combinators::{IntoLogRange, LogCoord};
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged, ValueFormatter};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::ops::Range;

pub type DrawResult<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;
type AreaResult<DB> = Result<DrawingArea<DB, Shift>, DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// An axis whose tick marks are exactly `ticks` (its labels come from [`mesh`]'s formatters), over a linear or a
/// log coordinate.
#[derive(Clone)]
pub struct Axis<R> {
    inner: R,
    ticks: Vec<f64>,
}

impl<R: Ranged<ValueType = f64>> Ranged for Axis<R> {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, v: &f64, limit: (i32, i32)) -> i32 {
        self.inner.map(v, limit)
    }

    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> Range<f64> {
        self.inner.range()
    }

    fn axis_pixel_range(&self, limit: (i32, i32)) -> Range<i32> {
        self.inner.axis_pixel_range(limit)
    }
}

/// A linear axis over [lo, hi] with ticks `t`.
pub fn lin(lo: f64, hi: f64, t: &Ticks) -> Axis<RangedCoordf64> {
    Axis { inner: (lo..hi).into(), ticks: t.values.clone() }
}

/// A log axis over [lo, hi] with ticks `t`.
pub fn log(lo: f64, hi: f64, t: &Ticks) -> Axis<LogCoord<f64>> {
    Axis { inner: (lo..hi).log_scale().into(), ticks: t.values.clone() }
}

/// A linear axis over [lo, hi] with ticks at `ticks` (labelled by the caller: class names, say).
pub fn at(lo: f64, hi: f64, ticks: Vec<f64>) -> Axis<RangedCoordf64> {
    Axis { inner: (lo..hi).into(), ticks }
}

/// How many ticks fit along `pixels` at about one per 70 pixels of the page's usual type (2 at least).
pub fn fit(pen: Pen, pixels: u32) -> usize {
    (pixels as usize / pen.font(70).max(1) as usize).clamp(2, 10)
}

/// The width of a y label area: its widest tick label, a gap, the rotated axis title and a margin, at `px` type.
pub fn y_area(widest: usize, px: u32) -> u32 {
    (widest as f64 * 0.62 * f64::from(px)) as u32 + 2 * px + 10
}

/// The height of an x label area: a row of tick labels, a gap and the axis title.
pub fn x_area(px: u32) -> u32 {
    2 * px + 16
}

/// A chart builder on `area` with the page's caption, margin and label areas for a y axis of `widest` characters.
pub fn builder<'a, 'b, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    pen: Pen,
    title: &str,
    widest: usize,
) -> ChartBuilder<'a, 'b, DB> {
    let mut b = ChartBuilder::on(area);
    b.caption(title, ("sans-serif", pen.font(16)))
        .margin(8)
        .margin_right(16)
        .x_label_area_size(x_area(pen.font(12)))
        .y_label_area_size(y_area(widest, pen.font(12)));
    b
}

/// Draws the mesh: tick labels from each axis's formatter, the axis titles outside them, no light lines.
pub fn mesh<DB: DrawingBackend, X, Y>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<X, Y>>,
    pen: Pen,
    x: (&str, &dyn Fn(&f64) -> String),
    y: (&str, &dyn Fn(&f64) -> String),
) -> DrawResult<DB>
where
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    chart
        .configure_mesh()
        .label_style(("sans-serif", pen.font(12)))
        .axis_desc_style(("sans-serif", pen.font(12)))
        .x_desc(x.0)
        .y_desc(y.0)
        .x_label_formatter(x.1)
        .y_label_formatter(y.1)
        .bold_line_style(BLACK.mix(0.12))
        .draw()
}

/// A legend entry: its label and the palette index whose colour, dash and (with `marker`) marker it shows.
pub struct Entry {
    pub label: String,
    pub colour: usize,
    pub marker: bool,
}

/// Draws the legend in a strip at the bottom of `root` (entries side by side, wrapped into rows) and returns the
/// area above it for the chart, so that no legend covers the data. No entries: `root` whole.
pub fn legend_below<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, pen: Pen, entries: &[Entry]) -> AreaResult<DB> {
    let (w, h) = root.dim_in_pixel();
    if entries.is_empty() {
        return Ok(root.clone());
    }
    let px = pen.font(12);
    let style = TextStyle::from(("sans-serif", px).into_font()).color(&BLACK);
    let sample = 3 * px as i32;
    let row_h = (1.6 * f64::from(px)) as i32;
    // Each entry's place: (row, x).
    let mut places = Vec::with_capacity(entries.len());
    let (mut row, mut x) = (0, 8);
    for e in entries {
        let text_w = root.estimate_text_size(&e.label, &style)?.0 as i32;
        let entry_w = sample + 6 + text_w;
        if x > 8 && x + entry_w > w as i32 - 8 {
            row += 1;
            x = 8;
        }
        places.push((row, x));
        x += entry_w + px as i32 + 4;
    }
    let strip = (row + 1) * row_h + 6;
    let (chart, strip_area) = root.split_vertically(h as i32 - strip);
    for (e, &(row, x)) in entries.iter().zip(&places) {
        let mid = 3 + row * row_h + row_h / 2;
        sample_line(&strip_area, pen, e.colour, (x, mid), sample)?;
        if e.marker {
            marker_at(&strip_area, pen, e.colour, (x + sample / 2, mid))?;
        }
        let text_h = strip_area.estimate_text_size(&e.label, &style)?.1 as i32;
        strip_area.draw(&Text::new(e.label.clone(), (x + sample + 6, mid - text_h / 2), style.clone()))?;
    }
    Ok(chart)
}

/// A `length`-pixel sample of run `colour`'s line (its colour, width and dash) from `(x, y)`.
fn sample_line<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    pen: Pen,
    colour: usize,
    (x, y): (i32, i32),
    length: i32,
) -> DrawResult<DB> {
    let style = PALETTE[colour % PALETTE.len()].stroke_width(pen.width());
    let (d, g) = pen.dash(colour);
    if d == 0 {
        return area.draw(&PathElement::new(vec![(x, y), (x + length, y)], style));
    }
    let mut a = x;
    while a < x + length {
        area.draw(&PathElement::new(vec![(a, y), ((a + d).min(x + length), y)], style))?;
        a += d + g;
    }
    Ok(())
}

/// Run `colour`'s marker (circle, triangle, cross, square in turn) at a pixel.
pub fn marker_at<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    pen: Pen,
    colour: usize,
    p: (i32, i32),
) -> DrawResult<DB> {
    let c = PALETTE[colour % PALETTE.len()];
    let s = if pen.font(10) > 10 { 8 } else { 4 };
    match colour % 4 {
        0 => area.draw(&Circle::new(p, s, c.filled())),
        1 => area.draw(&TriangleMarker::new(p, s + 2, c.filled())),
        2 => area.draw(&Cross::new(p, s + 1, c.stroke_width(pen.width()))),
        _ => area.draw(&Rectangle::new([(p.0 - s, p.1 - s), (p.0 + s, p.1 + s)], c.filled())),
    }
}

/// Draws windows (of `stats::window::windows`) as a pale min–max band (`opacity`: paler where several overlap) and
/// a mean line in run `colour`'s colour and dash.
pub fn draw_band<DB: DrawingBackend, X, Y>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<X, Y>>,
    pen: Pen,
    win: &[(f64, f64, f64, f64)],
    colour: usize,
    opacity: f64,
) -> DrawResult<DB>
where
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
{
    let c = PALETTE[colour % PALETTE.len()];
    let band: Vec<(f64, f64)> = win.iter().map(|w| (w.0, w.3)).chain(win.iter().rev().map(|w| (w.0, w.2))).collect();
    chart.draw_series(std::iter::once(Polygon::new(band, c.mix(opacity).filled())))?;
    draw_line(chart, pen, win.iter().map(|w| (w.0, w.1)).collect(), colour)
}

/// Draws run `colour`'s line (its colour, width and dash) through `pts`.
pub fn draw_line<DB: DrawingBackend, X, Y>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<X, Y>>,
    pen: Pen,
    pts: Vec<(f64, f64)>,
    colour: usize,
) -> DrawResult<DB>
where
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
{
    let style = PALETTE[colour % PALETTE.len()].stroke_width(pen.width());
    match pen.dash(colour) {
        (0, _) => chart.draw_series(LineSeries::new(pts, style))?,
        (d, g) => chart.draw_series(DashedLineSeries::new(pts, d, g, style))?,
    };
    Ok(())
}

/// The opacity of a band among `n` series: bands of more than two overlap into a blur at 18%.
pub fn band_opacity(n: usize) -> f64 {
    if n > 2 {
        0.1
    } else {
        0.18
    }
}

/// Windows a banded series is cut into, and the fewest points that make a series banded.
pub const BINS: usize = 120;
pub const BAND_FROM: usize = 240;

/// Lines over simulated time (x in days), each in its palette colour and dash, named by `labels` in a legend
/// below the plot (none: no legend); the y axis runs to `y_top` or just above the data. With `band`, a line of
/// more than `BAND_FROM` points is drawn as its mean and min–max per window (1/`BINS` of the span), and the title
/// says how long a window is.
pub fn time_lines<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    pen: Pen,
    (title, y_desc): (&str, &str),
    lines: &[Vec<(f64, f64)>],
    labels: &[String],
    y_top: Option<f64>,
    band: bool,
) -> DrawResult<DB> {
    root.fill(&WHITE)?;
    let x_max = lines.iter().flat_map(|l| l.last()).map(|p| p.0).fold(0.01, f64::max);
    let data_max = lines.iter().flatten().map(|p| p.1).fold(0.0, f64::max);
    let y_max = y_top.unwrap_or(if data_max > 0.0 { data_max * 1.05 } else { 1.0 });
    let banded = band && lines.iter().any(|l| l.len() > BAND_FROM);
    let title = if banded {
        format!("{title}: mean and min–max per {}", crate::ui::lab::fmt_time(x_max * 86_400.0 / BINS as f64))
    } else {
        title.to_string()
    };
    let entries: Vec<Entry> =
        labels.iter().enumerate().map(|(k, l)| Entry { label: l.clone(), colour: k, marker: false }).collect();
    let area = legend_below(root, pen, &entries)?;
    let (w, h) = area.dim_in_pixel();
    let (xt, yt) = (Ticks::linear(0.0, x_max, fit(pen, w)), Ticks::linear(0.0, y_max, fit(pen, h * 3 / 2)));
    let mut chart =
        builder(&area, pen, &title, yt.widest()).build_cartesian_2d(lin(0.0, x_max, &xt), lin(0.0, y_max, &yt))?;
    mesh(&mut chart, pen, ("simulated time [days]", &|v| xt.label(*v)), (y_desc, &|v| yt.label(*v)))?;
    for (k, line) in lines.iter().enumerate() {
        if banded {
            draw_band(
                &mut chart,
                pen,
                &crate::stats::window::windows(line, 0.0, x_max, BINS),
                k,
                band_opacity(lines.len()),
            )?;
        } else {
            draw_line(&mut chart, pen, line.clone(), k)?;
        }
    }
    Ok(())
}
