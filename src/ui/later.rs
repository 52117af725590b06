//! On a first open, the parts of the page below the first screen (lessons, size-class table, sweep, trace lab,
//! paper figures, references) wait: the phone's one busy thread goes to showing the first result. They are built,
//! one per task as always, once that result is in, or as soon as the visitor does anything (scrolls, points,
//! touches, types), or after [`AT_MOST`], whichever comes first. Any other open builds them while it loads.

use leptos::prelude::*;
use std::cell::RefCell;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// The longest they wait.
const AT_MOST: std::time::Duration = std::time::Duration::from_secs(15);

/// What the visitor may do first.
const EVENTS: [&str; 5] = ["scroll", "wheel", "pointerdown", "touchstart", "keydown"];

/// Parts of the page to build, one per task, in order.
type Stages = Vec<Box<dyn FnOnce()>>;

thread_local! {
    static HELD: RefCell<Option<Stages>> = const { RefCell::new(None) };
}

/// Keeps `stages` until [`release`] (called by the first open when its result is in), the visitor's first action,
/// or [`AT_MOST`].
pub(crate) fn hold(stages: Stages) {
    HELD.with(|h| *h.borrow_mut() = Some(stages));
    if let Some(window) = web_sys::window() {
        let on_action = Closure::<dyn FnMut()>::new(release);
        for event in EVENTS {
            let _ = window.add_event_listener_with_callback(event, on_action.as_ref().unchecked_ref());
        }
        // One closure for the page's life, shared by the listeners (a released page ignores it).
        on_action.forget();
    }
    set_timeout(release, AT_MOST);
}

/// Builds what [`hold`] keeps, once.
pub(crate) fn release() {
    if let Some(stages) = HELD.with(|h| h.borrow_mut().take()) {
        crate::ui::lab::reveal(stages);
    }
}
