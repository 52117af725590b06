//! A figure as SVG, written by hand so that the CLI and the page draw the same bytes: one panel per metric
//! (average MS and average NSL, as the paper's figures), lines for sweeps and grouped bars for categories and
//! size classes, with 95% intervals as error bars.

use super::{Axis, FigureResult, Metric};
use std::fmt::Write;

/// Nine: the paper's eight scheduling policies, then the base's own script (black, dotted) when it is drawn.
const COLOURS: [&str; 9] =
    ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#000000"];
/// Each series' dash pattern and marker as well as its colour: lines that lie on each other (FPLT under ECT and FPF
/// in Figure 4) stay apart, in print and for readers who do not tell the colours apart.
const DASHES: [&str; 9] = ["", "7 3", "2 3", "9 3 2 3", "4 4", "12 4", "1 2", "6 2 2 2", "3 1"];

/// A marker of shape `k % 4` (circle, square, triangle, diamond) at (x, y).
fn marker(k: usize, x: f64, y: f64, colour: &str) -> String {
    match k % 4 {
        0 => format!(r#"<circle cx="{x:.2}" cy="{y:.2}" r="3.5" fill="{colour}"/>"#),
        1 => format!(r#"<rect x="{:.2}" y="{:.2}" width="7" height="7" fill="{colour}"/>"#, x - 3.5, y - 3.5),
        2 => format!(
            r#"<path d="M{x:.2},{:.2} L{:.2},{:.2} L{:.2},{:.2} Z" fill="{colour}"/>"#,
            y - 4.5,
            x + 4.0,
            y + 3.0,
            x - 4.0,
            y + 3.0
        ),
        _ => format!(
            r#"<path d="M{x:.2},{:.2} L{:.2},{y:.2} L{x:.2},{:.2} L{:.2},{y:.2} Z" fill="{colour}"/>"#,
            y - 4.5,
            x + 4.5,
            y + 4.5,
            x - 4.5
        ),
    }
}
const PANEL_W: f64 = 460.0;
const PANEL_H: f64 = 300.0;
const LEFT: f64 = 70.0;
const TOP: f64 = 60.0;
const BOTTOM: f64 = 50.0;

/// The SVG of a figure's results (runs not in yet are left out).
pub fn figure_svg(r: &FigureResult) -> String {
    let f = &r.figure;
    let legend_rows = f.series.len().div_ceil(4);
    let width = 2.0 * (PANEL_W + LEFT) + 20.0;
    let height = TOP + PANEL_H + BOTTOM + 22.0 * legend_rows as f64 + 20.0;
    let mut s = String::new();
    let _ = write!(s, r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" "#);
    let _ = write!(s, r#"viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">"#);
    let _ = write!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = write!(
        s,
        r#"<text x="10" y="22" font-size="15" font-weight="bold">{} — {}</text>"#,
        esc(&f.id.name().replace("fig", "Figure ")),
        esc(f.title)
    );
    for (p, metric) in [Metric::Makespan, Metric::Nsl].into_iter().enumerate() {
        panel(&mut s, r, metric, LEFT + p as f64 * (PANEL_W + LEFT + 20.0), TOP);
    }
    for (i, name) in f.series.iter().enumerate() {
        let x = LEFT + (i % 4) as f64 * 220.0;
        let y = TOP + PANEL_H + BOTTOM + 10.0 + 22.0 * (i / 4) as f64;
        let colour = COLOURS[i % COLOURS.len()];
        let _ = write!(
            s,
            r#"<line x1="{x}" y1="{}" x2="{}" y2="{}" stroke="{colour}" stroke-width="2" stroke-dasharray="{}"/>"#,
            y - 4.0,
            x + 26.0,
            y - 4.0,
            DASHES[i % DASHES.len()],
        );
        let _ = write!(
            s,
            r#"{}<text x="{}" y="{}">{}</text>"#,
            marker(i, x + 13.0, y - 4.0, colour),
            x + 32.0,
            y,
            esc(&label(name))
        );
    }
    s.push_str("</svg>\n");
    s
}

/// The paper's name for a series.
pub fn label(name: &str) -> String {
    name.into()
}

fn panel(s: &mut String, r: &FigureResult, metric: Metric, x0: f64, y0: f64) {
    let f = &r.figure;
    let nx = r.x_count();
    let ns = f.series.len();
    let cells: Vec<Vec<crate::stats::Interval>> =
        (0..ns).map(|k| (0..nx).map(|x| r.interval(k, x, metric)).collect()).collect();
    let highs = cells.iter().flatten().map(|i| if i.has_bounds() { i.high } else { i.mean });
    let lows = cells.iter().flatten().map(|i| if i.has_bounds() { i.low } else { i.mean });
    let max = highs.filter(|v| v.is_finite()).fold(0.0f64, f64::max);
    let min_pos = lows.filter(|v| v.is_finite() && *v > 0.0).fold(f64::INFINITY, f64::min);
    let log = max > 0.0 && min_pos.is_finite() && max / min_pos > 100.0;
    let (lo, hi) = if log {
        (libm::floor(libm::log10(min_pos)), libm::ceil(libm::log10(max)))
    } else {
        (0.0, if max > 0.0 { nice(max * 1.05) } else { 1.0 })
    };
    let y_of = |v: f64| {
        let t = if log { (libm::log10(v.max(libm::pow(10.0, lo))) - lo) / (hi - lo).max(1e-9) } else { v / hi };
        y0 + PANEL_H - t.clamp(0.0, 1.0) * PANEL_H
    };
    let _ = write!(s, r##"<rect x="{x0}" y="{y0}" width="{PANEL_W}" height="{PANEL_H}" fill="none" stroke="#444"/>"##);
    let _ = write!(
        s,
        r#"<text x="{}" y="{}" text-anchor="middle" font-weight="bold">{}{}</text>"#,
        x0 + PANEL_W / 2.0,
        y0 - 8.0,
        metric.title(),
        if log { " (log scale)" } else { "" }
    );
    // Y ticks.
    let ticks: Vec<f64> = if log {
        (lo as i32..=hi as i32).map(|e| libm::pow(10.0, f64::from(e))).collect()
    } else {
        (0..=5).map(|k| hi * f64::from(k) / 5.0).collect()
    };
    for t in ticks {
        let y = y_of(t);
        let _ = write!(s, r##"<line x1="{x0}" y1="{y}" x2="{}" y2="{y}" stroke="#ddd"/>"##, x0 + PANEL_W);
        let _ = write!(s, r#"<text x="{}" y="{}" text-anchor="end">{}</text>"#, x0 - 6.0, y + 4.0, tick(t));
    }
    let slot = PANEL_W / nx as f64;
    for (x, name) in f.x_names.iter().enumerate() {
        let _ = write!(
            s,
            r#"<text x="{}" y="{}" text-anchor="middle" font-size="{}">{}</text>"#,
            x0 + slot * (x as f64 + 0.5),
            y0 + PANEL_H + 16.0,
            if nx > 7 { 10 } else { 12 },
            esc(name)
        );
    }
    let _ = write!(
        s,
        r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#,
        x0 + PANEL_W / 2.0,
        y0 + PANEL_H + 34.0,
        esc(f.x_label)
    );
    let bars = f.axis == Axis::SizeClass || f.axis == Axis::ArrivalPattern;
    for (k, row) in cells.iter().enumerate() {
        let colour = COLOURS[k % COLOURS.len()];
        let mut path = String::new();
        for (x, i) in row.iter().enumerate() {
            if !i.mean.is_finite() {
                continue;
            }
            let cx = if bars {
                x0 + slot * x as f64 + slot * (0.1 + 0.8 * (k as f64 + 0.5) / ns as f64)
            } else {
                x0 + slot * (x as f64 + 0.5)
            };
            let y = y_of(i.mean);
            if bars {
                let w = 0.8 * slot / ns as f64;
                let _ = write!(
                    s,
                    r#"<rect x="{:.2}" y="{:.2}" width="{:.2}" height="{:.2}" fill="{colour}"/>"#,
                    cx - w / 2.0,
                    y,
                    w,
                    (y0 + PANEL_H - y).max(0.0)
                );
            } else {
                let _ = write!(path, "{}{:.2},{:.2}", if path.is_empty() { "M" } else { " L" }, cx, y);
                s.push_str(&marker(k, cx, y, colour));
            }
            if i.has_bounds() {
                let (ya, yb) = (y_of(i.low), y_of(i.high));
                // The interval's bar, then its two caps, in one path.
                let _ = write!(s, r#"<path d="M{cx:.2},{ya:.2} L{cx:.2},{yb:.2} "#);
                let _ = write!(
                    s,
                    r#"M{:.2},{ya:.2} L{:.2},{ya:.2} M{:.2},{yb:.2} L{:.2},{yb:.2}" stroke="{}" fill="none"/>"#,
                    cx - 3.0,
                    cx + 3.0,
                    cx - 3.0,
                    cx + 3.0,
                    if bars { "#000" } else { colour }
                );
            }
        }
        if !path.is_empty() {
            let dash = DASHES[k % DASHES.len()];
            let _ = write!(
                s,
                r#"<path d="{path}" stroke="{colour}" stroke-width="2" stroke-dasharray="{dash}" fill="none"/>"#
            );
        }
    }
}

/// A round upper bound: 1, 2 or 5 times a power of ten.
fn nice(v: f64) -> f64 {
    let e = libm::floor(libm::log10(v));
    let b = libm::pow(10.0, e);
    [1.0, 2.0, 5.0, 10.0].into_iter().map(|m| m * b).find(|c| *c >= v).unwrap_or(10.0 * b)
}

fn tick(v: f64) -> String {
    if v == 0.0 {
        "0".into()
    } else if v >= 1e7 {
        format!("{:.1e}", v)
    } else if v >= 10.0 {
        format!("{v:.0}")
    } else if v >= 0.1 {
        format!("{v:.2}")
    } else {
        format!("{v:.0e}")
    }
}

fn esc(t: &str) -> String {
    t.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}
