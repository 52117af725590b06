//! On a first open, the parts of the page below the first screen (lessons, size-class table, sweep, trace lab,
//! paper figures, references) wait: the phone's one busy thread goes to showing the first result. They are built,
//! one per task as always, once that result is in, or as soon as the visitor does anything (scrolls, points,
//! touches, types), or after [`AT_MOST`], whichever comes first. Any other open builds them while it loads.

use crate::ui::lab::{Reveal, Stages};
use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// The longest they wait.
const AT_MOST: std::time::Duration = std::time::Duration::from_secs(15);

/// What the visitor may do first.
const EVENTS: [&str; 5] = ["scroll", "wheel", "pointerdown", "touchstart", "keydown"];

/// Keeps `stages` until [`release`] (called by the first open when its result is in), the visitor's first action,
/// or [`AT_MOST`].
pub(crate) fn hold(reveal: Reveal, stages: Stages) {
    reveal.held.set_value(Some(stages));
    if let Some(window) = web_sys::window() {
        let on_action = Closure::<dyn FnMut()>::new(move || release(reveal));
        for event in EVENTS {
            let _ = window.add_event_listener_with_callback(event, on_action.as_ref().unchecked_ref());
        }
        // One closure for the page's life, shared by the listeners (a released page ignores it).
        on_action.forget();
    }
    set_timeout(move || release(reveal), AT_MOST);
}

/// Builds what [`hold`] keeps, once.
pub(crate) fn release(reveal: Reveal) {
    if let Some(stages) = reveal.held.try_update_value(Option::take).flatten() {
        crate::ui::lab::reveal(stages);
    }
}
