//! What the page shows, as the panels of the second wasm module see it (`lazy.rs`, `panels.rs`): the scenario and
//! projector mode. The two modules share no memory; the page writes the scenario as JSON into a property of the
//! window and fires an event on the window after every change, and the panels' module keeps a signal of its own
//! in step with it.

use crate::registry::Scenario;
use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

/// The window's property that holds the scenario shown, as JSON, and the event fired after it or projector mode
/// changed.
const SCENARIO: (&str, &str) = ("bagsimScenario", "bagsim-shown");

/// Writes `text` into the window's property `key`, then fires `event` on the window (none if empty); the listeners
/// of both modules run before this returns.
pub fn post(key: &str, event: &str, text: &str) {
    let Some(window) = web_sys::window() else { return };
    let _ = js_sys::Reflect::set(&window, &JsValue::from_str(key), &JsValue::from_str(text));
    if let (false, Ok(e)) = (event.is_empty(), web_sys::Event::new(event)) {
        let _ = window.dispatch_event(&e);
    }
}

/// The text in the window's property `key`, if any.
pub fn read(key: &str) -> Option<String> {
    web_sys::window().and_then(|w| js_sys::Reflect::get(&w, &JsValue::from_str(key)).ok()).and_then(|v| v.as_string())
}

/// Calls `f` after every `event` fired on the window, for the page's life.
pub fn listen(event: &str, f: impl FnMut() + 'static) {
    let f = Closure::<dyn FnMut()>::new(f);
    if let Some(window) = web_sys::window() {
        let _ = window.add_event_listener_with_callback(event, f.as_ref().unchecked_ref());
    }
    f.forget();
}

/// The page's side: writes the scenario shown where the panels' module reads it, and tells it.
pub fn publish(scenario: &Scenario) {
    if let Ok(json) = serde_json::to_string(scenario) {
        post(SCENARIO.0, SCENARIO.1, &json);
    }
}

/// The page's side, when projector mode changes: the panels follow it (the root's `present` class says which).
pub fn projector_changed() {
    if let (Some(window), Ok(event)) = (web_sys::window(), web_sys::Event::new(SCENARIO.1)) {
        let _ = window.dispatch_event(&event);
    }
}

/// The scenario the page shows (the default one before the page has written it, or if what it wrote does not
/// read).
fn scenario() -> Scenario {
    read(SCENARIO.0).and_then(|json| Scenario::from_json(&json).ok()).unwrap_or_default()
}

/// Whether the page is in projector mode.
fn projector() -> bool {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
        .is_some_and(|root| root.class_list().contains("present"))
}

/// The panels' side: a signal of the scenario the page shows, kept in step with it; projector mode too (the
/// charts' style).
pub fn mirror() -> Signal<Scenario> {
    let shown = RwSignal::new(scenario());
    super::chart_style::set_projector(projector());
    listen(SCENARIO.1, move || {
        super::chart_style::set_projector(projector());
        let next = scenario();
        if shown.with_untracked(|s| *s != next) {
            shown.set(next);
        }
    });
    shown.into()
}
