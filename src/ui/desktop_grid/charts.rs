//! The desktop-grid family's live charts ([Anglano09]): machines up and replicas running over simulated time, the
//! current run and the pinned ones, drawn on the page's canvases.

use super::DgPage;
use crate::family::desktop_grid::DgSample;
use crate::ui::axes::DrawResult;
use crate::ui::chart_style::Pen;
use crate::ui::measured;
use leptos::prelude::*;
use plotters::prelude::*;
use wasm_bindgen::JsCast;

/// A chart: canvas id, title, y axis, value of a sample.
type ChartSpec = (&'static str, &'static str, &'static str, fn(&DgSample) -> f64);

pub(super) const CHARTS: [ChartSpec; 2] = [
    ("dg-chart-machines", "Machines up", "machines available", |s| f64::from(s.machines_up)),
    ("dg-chart-replicas", "Replicas running", "replicas (busy machines)", |s| f64::from(s.replicas_running)),
];

/// The runs' series over simulated time (days): the current run first (colour 0), then the pinned ones, each
/// with its colour, dash and marker; a legend names them once a run is pinned.
fn draw_series<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    pen: Pen,
    (title, y_label, pick): (&str, &str, fn(&DgSample) -> f64),
    runs: &[&[DgSample]],
    labels: &[String],
) -> DrawResult<DB> {
    if runs.iter().all(|s| s.is_empty()) {
        return crate::ui::charts::empty(root, pen, title);
    }
    let lines: Vec<Vec<(f64, f64)>> =
        runs.iter().map(|samples| samples.iter().map(|s| (s.time / 86_400.0, pick(s))).collect()).collect();
    // Replicas start and end at every task: drawn per window (mean, min–max) once the run has many samples.
    let band = title == "Replicas running";
    crate::ui::axes::time_lines(root, pen, (title, y_label), &lines, labels, None, band)
}

/// Draws the live charts of the current run and the pinned ones.
pub(super) fn draw_charts(st: DgPage) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let current = st.report.with_untracked(|r| r.as_ref().map(|r| super::pinned::run_label(&r.scenario)));
    st.live.with_value(|l| {
        let mut runs: Vec<&[DgSample]> = vec![l.samples.as_slice()];
        runs.extend(l.pinned.iter().map(|p| p.samples.as_slice()));
        let labels: Vec<String> = if l.pinned.is_empty() {
            Vec::new()
        } else {
            std::iter::once(current.unwrap_or_else(|| "current run".into()))
                .chain(l.pinned.iter().map(|p| p.pin.label.clone()))
                .collect()
        };
        for (id, title, y, pick) in CHARTS {
            let Some(canvas) =
                document.get_element_by_id(id).and_then(|e| e.dyn_into::<web_sys::HtmlCanvasElement>().ok())
            else {
                continue;
            };
            if let Some((backend, pen)) = measured::canvas(canvas) {
                let root = backend.into_drawing_area();
                let _ = draw_series(&root, pen, (title, y, pick), &runs, &labels);
                let _ = root.present();
            }
        }
    });
}
