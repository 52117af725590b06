//! Text measured without laying out the page. plotters measures a text on the web by adding a `<span>` to the document
//! and reading its size, which makes the browser lay out the whole page once per caption and tick label: on a phone a
//! live chart's redraw spent most of its time there. [`Measured`] wraps any backend and measures with a detached
//! canvas's `measureText` (no layout), remembering each (font, text) for the drawing. No chart uses plotters'
//! `configure_series_labels` (whose legend measures its own way, not through the backend): every legend is
//! `axes::legend_below`, measured here.

use super::chart_style::Pen;
use plotters::prelude::DrawingBackend;
use plotters_backend::{BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind};
use std::cell::RefCell;
use std::collections::HashMap;
use wasm_bindgen::JsCast;

/// What measures texts for one drawing: a detached canvas's 2D context (made once per drawing, never added to the
/// page) and the sizes it has measured, by (font, text). Nothing of it outlives the drawing.
struct Meter {
    context: Option<web_sys::CanvasRenderingContext2d>,
    sizes: RefCell<HashMap<(String, String), (u32, u32)>>,
}

impl Meter {
    fn new() -> Meter {
        let context = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.create_element("canvas").ok())
            .and_then(|c| c.dyn_into::<web_sys::HtmlCanvasElement>().ok())
            .and_then(|c| c.get_context("2d").ok().flatten())
            .and_then(|c| c.dyn_into().ok());
        Meter { context, sizes: RefCell::new(HashMap::new()) }
    }

    /// Width and height in pixels of `text` in `font`: the advance width and the font's ascent plus descent (the
    /// height of a line of it), rounded as the browser rounds an element's size; `None` where there is no canvas.
    fn measure(&self, font: &str, text: &str) -> Option<(u32, u32)> {
        let key = (font.to_string(), text.to_string());
        if let Some(size) = self.sizes.borrow().get(&key).copied() {
            return Some(size);
        }
        let c = self.context.as_ref()?;
        c.set_font(font);
        let m = c.measure_text(text).ok()?;
        let height = m.font_bounding_box_ascent() + m.font_bounding_box_descent();
        let size = (m.width().round() as u32, height.round() as u32);
        self.sizes.borrow_mut().insert(key, size);
        Some(size)
    }
}

/// The CSS font a canvas backend draws `style` in (plotters-canvas's own format).
fn css_font<S: BackendTextStyle>(style: &S) -> String {
    format!("{} {}px {}", style.style().as_str(), style.size(), style.family().as_str())
}

/// A backend whose texts are measured by a [`Meter`] of its own; everything else is the wrapped backend's.
pub struct Measured<B>(B, Meter);

impl<B: DrawingBackend> Measured<B> {
    /// `backend`, its texts measured without laying out the page.
    pub fn new(backend: B) -> Measured<B> {
        Measured(backend, Meter::new())
    }
}

impl<B: DrawingBackend> DrawingBackend for Measured<B> {
    type ErrorType = B::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.0.get_size()
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.present()
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.0.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.draw_path(path, style)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.draw_circle(center, radius, style, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.fill_polygon(vert, style)
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.draw_text(text, style, pos)
    }

    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<Self::ErrorType>> {
        match self.1.measure(&css_font(style), text) {
            Some(size) => Ok(size),
            None => self.0.estimate_text_size(text, style),
        }
    }

    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        size: (u32, u32),
        src: &[u8],
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.blit_bitmap(pos, size, src)
    }
}

/// The backend of a page canvas, measuring its texts with a [`Meter`], and the pen to draw on it with.
pub fn canvas(canvas: web_sys::HtmlCanvasElement) -> Option<(Measured<plotters_canvas::CanvasBackend>, Pen)> {
    let pen = Pen::of_canvas(&canvas);
    plotters_canvas::CanvasBackend::with_canvas_object(canvas).map(|b| (Measured::new(b), pen))
}
