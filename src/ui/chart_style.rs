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

/// How the drawing under way looks beyond its run colours: projector mode's thicker lines and larger type, and the
/// larger type of a canvas shown smaller than it is drawn (a phone). Made for each drawing ([`Pen::of_canvas`],
/// [`Pen::svg`]) and handed to every drawing function: nothing of it is kept between drawings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pen {
    projector: bool,
    scale: f64,
}

impl Pen {
    /// A pen for a drawing in projector mode or not, its type `scale` times larger (clamped to 1–2; 1 if not finite).
    pub fn new(projector: bool, scale: f64) -> Pen {
        Pen { projector, scale: if scale.is_finite() { scale.clamp(1.0, 2.0) } else { 1.0 } }
    }

    /// The pen of a drawing on `canvas`: projector mode as the page is in, and type up to twice as large on a
    /// canvas shown at less than 85% of its drawn width (a phone), so that its labels stay about as large on
    /// screen; a hidden canvas (no width shown) keeps the type as it is.
    pub fn of_canvas(canvas: &web_sys::HtmlCanvasElement) -> Pen {
        let shown = f64::from(canvas.client_width()) / f64::from(canvas.width().max(1));
        Pen::new(page_in_projector_mode(), if shown > 0.0 { 0.85 / shown } else { 1.0 })
    }

    /// The pen of an SVG drawing (a download, a figure drawn as SVG): its type as drawn.
    pub fn svg() -> Pen {
        Pen::new(page_in_projector_mode(), 1.0)
    }

    /// Whether the drawing is for projector mode.
    pub fn projector(self) -> bool {
        self.projector
    }

    /// Line width of a run's line.
    pub fn width(self) -> u32 {
        if self.projector {
            5
        } else {
            2
        }
    }

    /// A font size, larger in projector mode and on a canvas shown small.
    pub fn font(self, px: u32) -> u32 {
        let px = if self.projector { px * 8 / 5 } else { px };
        (f64::from(px) * self.scale).round() as u32
    }

    /// The dash and gap of run `colour`, scaled with the line width.
    pub fn dash(self, colour: usize) -> (i32, i32) {
        let (d, g) = DASHES[colour % DASHES.len()];
        let k = if self.projector { 2 } else { 1 };
        (d * k, g * k)
    }
}

/// Whether the page is in projector mode: its root element has the class `present` (projector mode sets it).
pub fn page_in_projector_mode() -> bool {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
        .is_some_and(|root| root.class_list().contains("present"))
}
