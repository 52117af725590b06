//! How a run looks on every chart, a leaf the chart modules share: its colour, dash and marker, and the line width
//! and type size of the drawing under way (larger in projector mode and on a canvas shown small).

use plotters::prelude::RGBColor;

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
    /// How much larger the type of the chart being drawn is, so that a canvas shown smaller than it is drawn (a
    /// phone) keeps readable labels ([`set_scale`]).
    static SCALE: std::cell::Cell<f64> = const { std::cell::Cell::new(1.0) };
}

/// The type scale of the next drawings: `measured::canvas` sets it from how small the canvas is shown, an SVG
/// drawing sets it back to 1.
pub fn set_scale(s: f64) {
    SCALE.with(|c| c.set(if s.is_finite() { s.clamp(1.0, 2.0) } else { 1.0 }));
}

/// Projector mode draws thicker lines and larger type.
pub fn set_projector(on: bool) {
    PROJECTOR.with(|p| p.set(on));
}

pub(crate) fn projector() -> bool {
    PROJECTOR.with(|p| p.get())
}

/// Line width of a run's line.
pub(crate) fn width() -> u32 {
    if projector() {
        5
    } else {
        2
    }
}

/// A font size, larger in projector mode.
pub(crate) fn font(px: u32) -> u32 {
    let px = if projector() { px * 8 / 5 } else { px };
    (f64::from(px) * SCALE.with(std::cell::Cell::get)).round() as u32
}

/// The dash and gap of run `colour`, scaled with the line width.
pub(crate) fn dash(colour: usize) -> (i32, i32) {
    let (d, g) = DASHES[colour % DASHES.len()];
    let k = if projector() { 2 } else { 1 };
    (d * k, g * k)
}
