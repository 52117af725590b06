//! The Gantt canvas: rows of the lanes shown (all, or one) over a window of simulated time, every execution a box
//! coloured by its BoT (job) or its user; stopped copies faded, a failed run with a dark red end, the chosen task
//! outlined. And the way back from a point of the canvas to the execution under it.

use crate::story::{BarEnd, Tape};
use wasm_bindgen::JsCast;

/// Left margin (lane names), top and bottom (time axis) margins, px.
const LEFT: f64 = 118.0;
const TOP: f64 = 4.0;
const AXIS: f64 = 24.0;
/// Tallest a canvas grows, px.
const MOST_HEIGHT: f64 = 520.0;

/// What is shown: a time window, the lane (None: every lane), the colouring, the chosen task.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    pub t0: f64,
    pub t1: f64,
    pub lane: Option<usize>,
    pub by_user: bool,
    pub chosen: Option<u32>,
}

/// The rows a frame shows: the first global row and how many.
pub fn rows_shown(tape: &Tape, lane: Option<usize>) -> (u32, u32) {
    match lane.filter(|&l| l < tape.lanes.len()) {
        Some(l) => (tape.lanes[..l].iter().map(|x| x.rows).sum(), tape.lanes[l].rows),
        None => (0, tape.rows()),
    }
}

/// The canvas height for `rows` rows: up to 14 px a row, at least 160 px and at most `MOST_HEIGHT`.
pub fn height_for(rows: u32) -> f64 {
    (f64::from(rows) * 14.0).clamp(160.0 - TOP - AXIS, MOST_HEIGHT - TOP - AXIS) + TOP + AXIS
}

/// A colour per group: hues spread by the golden angle.
fn colour(key: u32, faded: bool) -> String {
    // From blue, so that the first group is not the red of a failure.
    let hue = (210.0 + f64::from(key) * 137.508) % 360.0;
    let alpha = if faded { 0.35 } else { 0.9 };
    format!("hsla({hue:.0}, 62%, 52%, {alpha})")
}

/// A round step for about six ticks over `span` seconds.
fn tick_step(span: f64) -> f64 {
    let raw = span / 6.0;
    let p = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0].into_iter().map(|m| m * p).find(|&s| s >= raw).unwrap_or(10.0 * p)
}

/// Draws `frame` of `tape` on `canvas`, `width` px wide.
pub fn draw(canvas: &web_sys::HtmlCanvasElement, tape: &Tape, frame: &Frame, width: f64) {
    let (first, count) = rows_shown(tape, frame.lane);
    let height = height_for(count);
    canvas.set_width(width as u32);
    canvas.set_height(height as u32);
    let Some(cx) =
        canvas.get_context("2d").ok().flatten().and_then(|c| c.dyn_into::<web_sys::CanvasRenderingContext2d>().ok())
    else {
        return;
    };
    let plot_w = (width - LEFT - 8.0).max(10.0);
    let plot_h = height - TOP - AXIS;
    let row_h = plot_h / f64::from(count.max(1));
    let span = (frame.t1 - frame.t0).max(1e-9);
    let x = |t: f64| LEFT + (t - frame.t0) / span * plot_w;
    cx.set_fill_style_str("#ffffff");
    cx.fill_rect(0.0, 0.0, width, height);
    // Lanes: a band each, its name at the left.
    cx.set_font("12px system-ui, sans-serif");
    let mut top_row = first;
    for (i, l) in tape.lanes.iter().enumerate() {
        if frame.lane.is_some_and(|s| s != i) {
            continue;
        }
        let y = TOP + f64::from(top_row - first) * row_h;
        let h = f64::from(l.rows) * row_h;
        cx.set_fill_style_str(if i % 2 == 0 { "#f4f5f7" } else { "#e9ebef" });
        cx.fill_rect(LEFT, y, plot_w, h);
        if h >= 11.0 {
            cx.set_fill_style_str("#222");
            let _ = cx.fill_text(&format!("{} ({})", l.name, l.rows), 4.0, y + h.min(24.0) / 2.0 + 4.0);
        }
        top_row += l.rows;
    }
    // Executions in the window.
    let upto = tape.bars.partition_point(|b| b.start < frame.t1);
    for b in &tape.bars[..upto] {
        if b.end < frame.t0 || b.row + b.rows <= first || b.row >= first + count {
            continue;
        }
        let group = tape.tasks.get(b.task as usize).map_or(0, |f| if frame.by_user { f.user } else { f.group });
        let x0 = x(b.start).max(LEFT);
        let x1 = x(b.end).min(LEFT + plot_w).max(x0 + 1.0);
        let y = TOP + f64::from(b.row.max(first) - first) * row_h;
        let h = (f64::from(b.rows) * row_h - if row_h > 3.0 { 1.0 } else { 0.0 }).max(1.0);
        cx.set_fill_style_str(&colour(group, matches!(b.ended, BarEnd::Cancelled | BarEnd::Running)));
        cx.fill_rect(x0, y, x1 - x0, h);
        if b.ended == BarEnd::Failed {
            // A failure: a dark red end, the work since the last checkpoint lost there.
            cx.set_fill_style_str("#8b0000");
            cx.fill_rect((x1 - 3.0).max(x0), y, (x1 - x0).min(3.0), h);
        }
    }
    // The chosen task's executions, outlined.
    if let Some(task) = frame.chosen {
        cx.set_stroke_style_str("#000");
        cx.set_line_width(2.5);
        for b in tape.bars_of(task) {
            if b.row + b.rows <= first || b.row >= first + count {
                continue;
            }
            let y = TOP + f64::from(b.row.max(first) - first) * row_h;
            let (x0, x1) = (x(b.start).max(LEFT - 2.0), x(b.end).min(LEFT + plot_w + 2.0));
            cx.stroke_rect(x0, y - 1.0, (x1 - x0).max(3.0), (f64::from(b.rows) * row_h).max(3.0) + 1.0);
        }
    }
    // Time axis.
    cx.set_fill_style_str("#222");
    cx.set_stroke_style_str("#555");
    cx.set_line_width(1.0);
    let step = tick_step(span);
    let mut t = (frame.t0 / step).ceil() * step;
    while t <= frame.t1 {
        let tx = x(t);
        cx.begin_path();
        cx.move_to(tx, TOP + plot_h);
        cx.line_to(tx, TOP + plot_h + 4.0);
        cx.stroke();
        let _ = cx.fill_text(&crate::words::short_number(t), tx - 8.0, TOP + plot_h + 16.0);
        t += step;
    }
    let _ = cx.fill_text("time (s)", width - 60.0, TOP + plot_h + 16.0);
}

/// The time and global row under canvas point (`px`, `py`) of a `width`-px canvas showing `frame`.
pub fn point(tape: &Tape, frame: &Frame, width: f64, px: f64, py: f64) -> Option<(f64, u32)> {
    let (first, count) = rows_shown(tape, frame.lane);
    let plot_w = (width - LEFT - 8.0).max(10.0);
    let plot_h = height_for(count) - TOP - AXIS;
    if px < LEFT || px > LEFT + plot_w || py < TOP || py >= TOP + plot_h {
        return None;
    }
    let t = frame.t0 + (px - LEFT) / plot_w * (frame.t1 - frame.t0);
    let row = ((py - TOP) / plot_h * f64::from(count)).floor() as u32;
    Some((t, first + row.min(count.saturating_sub(1))))
}

/// The execution under a click: at the point, else within 4 px of it along the row.
pub fn hit(tape: &Tape, frame: &Frame, width: f64, px: f64, py: f64) -> Option<usize> {
    let (t, row) = point(tape, frame, width, px, py)?;
    let plot_w = (width - LEFT - 8.0).max(10.0);
    let slack = 4.0 / plot_w * (frame.t1 - frame.t0);
    tape.bar_at(row, t).or_else(|| tape.bar_at(row, t + slack)).or_else(|| tape.bar_at(row, t - slack))
}

/// The time at horizontal canvas position `px` (for zooming around the pointer).
pub fn time_at(frame: &Frame, width: f64, px: f64) -> f64 {
    let plot_w = (width - LEFT - 8.0).max(10.0);
    frame.t0 + ((px - LEFT) / plot_w).clamp(0.0, 1.0) * (frame.t1 - frame.t0)
}
