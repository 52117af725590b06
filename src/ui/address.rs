//! The page's address: the scenario written back into the address and the browser's storage as it changes, so
//! that the address is always a link that reproduces what is shown. (The scenario the page opens with is the
//! shell's, `app::initial_scenario`.)

use super::replay;
use crate::scenario::Scenario;
use crate::share;
use crate::ui::lab::Lab;
use gloo_storage::{LocalStorage, Storage};
use leptos::prelude::*;

/// Where the browser keeps the last scenario.
pub(crate) const STORAGE_KEY: &str = "bagsim.scenario";

/// Keeps the scenario in the URL (with its family's pinned runs, `&present=1` in projector mode, and the lesson and
/// its step when it steps through one) and in localStorage.
pub(crate) fn remember(lab: Lab, s: &Scenario) {
    let Some(window) = web_sys::window() else { return };
    // Private browsing or a full quota refuses to store: the link in the URL still holds the scenario.
    let _ = LocalStorage::set(STORAGE_KEY, s);
    let url = format!(
        "?scenario={}{}{}",
        share::to_link(s),
        replay::address_suffix(lab, s),
        lab.address_extra.get_untracked()
    );
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}
