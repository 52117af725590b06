//! What the page shows, as the panels of the second wasm module see it (`lazy.rs`, `panels.rs`): the scenario,
//! projector mode, whether the form is accepted and the imported trace's file. The page tells the first three as
//! messages (`split::ToPanels`) and the panels' module keeps a signal of its own in step with each; the trace file,
//! a JavaScript object, is left in a property of the window of its own (`split::window` is the plumbing under
//! both).

use super::pool::TraceFile;
use super::split::{self, Channel, ToPanels};
use crate::registry::Scenario;
use crate::trace::Format;
use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};

/// The page's side: tells the panels the scenario shown.
pub fn publish(scenario: &Scenario) {
    split::tell(&ToPanels::Shown(Box::new(scenario.clone())));
}

/// The page's side, when projector mode changes: the panels follow it (the root's `present` class says which).
pub fn projector_changed() {
    Channel::Shown.ping();
}

/// The scenario the page shows (the default one before the page has told it, or if what it wrote does not read).
fn scenario() -> Scenario {
    match split::last(Channel::Shown) {
        Some(ToPanels::Shown(s)) => *s,
        _ => Scenario::default(),
    }
}

/// The panels' side: a signal of the scenario the page shows, kept in step with it; projector mode too (the
/// charts' style).
pub fn mirror() -> Signal<Scenario> {
    let shown = RwSignal::new(scenario());
    split::listen(Channel::Shown, move || {
        let next = scenario();
        if shown.with_untracked(|s| *s != next) {
            shown.set(next);
        }
    });
    shown.into()
}

/// The page's side: whether the form's controls all hold accepted values (a sweep is not started otherwise).
pub fn publish_form(ok: bool) {
    split::tell(&ToPanels::FormOk(ok));
}

/// The panels' side: whether the form's controls all hold accepted values, kept in step.
pub fn form_ok() -> Signal<bool> {
    let read = || !matches!(split::last(Channel::FormOk), Some(ToPanels::FormOk(false)));
    let ok = RwSignal::new(read());
    split::listen(Channel::FormOk, move || {
        let next = read();
        if ok.get_untracked() != next {
            ok.set(next);
        }
    });
    ok.into()
}

/// The window's property that holds the trace the page's worker imported, as `[name, format, File]`: a sweep's pool
/// workers import the same file before their runs.
const TRACE_FILE: &str = "bagsimTraceFile";

/// The page's side: the trace file its worker holds now, or none.
pub fn publish_trace_file(file: Option<&TraceFile>) {
    let Some(window) = web_sys::window() else { return };
    let value = match file {
        Some(f) => {
            let file: &web_sys::File = f.file.as_ref();
            js_sys::Array::of3(&JsValue::from_str(&f.name), &JsValue::from_str(f.format.name()), file).into()
        }
        None => JsValue::UNDEFINED,
    };
    let _ = js_sys::Reflect::set(&window, &JsValue::from_str(TRACE_FILE), &value);
}

/// The panels' side: the imported trace's file, when `s` replays it (its `workload.trace.path` is the file's name).
pub fn trace_file_for(s: &Scenario) -> Option<TraceFile> {
    let path = s.multi_cluster()?.workload.trace.as_ref()?.path.clone();
    let window = web_sys::window()?;
    let v: js_sys::Array = js_sys::Reflect::get(&window, &JsValue::from_str(TRACE_FILE)).ok()?.dyn_into().ok()?;
    let name = v.get(0).as_string().filter(|n| *n == path)?;
    let format = match v.get(1).as_string()?.as_str() {
        "GWF" => Format::Gwf,
        "Batsim JSON" => Format::Batsim,
        _ => Format::Swf,
    };
    let file: web_sys::File = v.get(2).dyn_into().ok()?;
    Some(TraceFile { name, format, file: gloo_file::File::from(file) })
}
