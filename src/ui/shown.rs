//! What the page shows, as the panels of the second wasm module see it (`lazy.rs`, `panels.rs`): the scenario and
//! projector mode. The two modules share no memory; the page writes the scenario as JSON into a property of the
//! window and fires an event on the window after every change, and the panels' module keeps a signal of its own
//! in step with it.

use crate::registry::Scenario;
use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

/// The window's property that holds the scenario shown, as JSON.
const SCENARIO: &str = "bagsimScenario";
/// The event fired on the window after the scenario or projector mode changed.
const EVENT: &str = "bagsim-shown";

/// The page's side: writes the scenario shown where the panels' module reads it, and tells it.
pub fn publish(scenario: &Scenario) {
    let Some(window) = web_sys::window() else { return };
    let Ok(json) = serde_json::to_string(scenario) else { return };
    let _ = js_sys::Reflect::set(&window, &JsValue::from_str(SCENARIO), &JsValue::from_str(&json));
    if let Ok(event) = web_sys::Event::new(EVENT) {
        let _ = window.dispatch_event(&event);
    }
}

/// The page's side, when projector mode changes: the panels follow it (the root's `present` class says which).
pub fn projector_changed() {
    if let (Some(window), Ok(event)) = (web_sys::window(), web_sys::Event::new(EVENT)) {
        let _ = window.dispatch_event(&event);
    }
}

/// The scenario the page shows, read from the window (the default one before the page has written it, or if what
/// it wrote does not read).
fn read() -> Scenario {
    web_sys::window()
        .and_then(|w| js_sys::Reflect::get(&w, &JsValue::from_str(SCENARIO)).ok())
        .and_then(|v| v.as_string())
        .and_then(|json| Scenario::from_json(&json).ok())
        .unwrap_or_default()
}

/// Whether the page is in projector mode.
fn projector() -> bool {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
        .is_some_and(|root| root.class_list().contains("present"))
}

/// The panels' side: a signal of the scenario the page shows, kept in step with it; projector mode too (the
/// charts' style). Made once, when the panels' module loads.
pub fn mirror() -> Signal<Scenario> {
    let scenario = RwSignal::new(read());
    super::chart_style::set_projector(projector());
    let on_change = Closure::<dyn FnMut()>::new(move || {
        super::chart_style::set_projector(projector());
        let next = read();
        if scenario.with_untracked(|s| *s != next) {
            scenario.set(next);
        }
    });
    if let Some(window) = web_sys::window() {
        let _ = window.add_event_listener_with_callback(EVENT, on_change.as_ref().unchecked_ref());
    }
    on_change.forget();
    scenario.into()
}
