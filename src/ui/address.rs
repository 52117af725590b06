//! The page's address: the scenario it opens with (a link's, else the browser's last, else the first open's), and
//! the scenario written back into the address and the browser's storage as it changes, so that the address is
//! always a link that reproduces what is shown.

use super::{multi_cluster, present, replay, Lab};
use crate::scenario::Scenario;
use crate::share;
use gloo_storage::{LocalStorage, Storage};
use leptos::prelude::*;

const STORAGE_KEY: &str = "bagsim.scenario";

/// Reads `?scenario=` (with its pinned runs, `&pin=`) and `?autorun=1`, else the last scenario from localStorage;
/// on a first open (neither, and no `?lesson=`), the first-open runs unless `?autorun=0`.
pub(super) fn initial_scenario(lab: &Lab) -> Scenario {
    let window = web_sys::window().expect("a window");
    let search = window.location().search().unwrap_or_default();
    let params = web_sys::UrlSearchParams::new_with_str(&search).ok();
    let get = |k: &str| params.as_ref().and_then(|p| p.get(k));
    // A stored scenario that no longer parses or validates (an older version's) is ignored.
    let stored = || LocalStorage::raw().get_item(STORAGE_KEY).ok().flatten().and_then(|t| Scenario::from_json(&t).ok());
    if let Some(link) = get("scenario") {
        match share::from_link(&link) {
            Ok(s) => {
                lab.autorun.set(get("autorun").as_deref() == Some("1"));
                match params.as_ref().map_or(Ok(Vec::new()), |p| replay::read(p, s.family())) {
                    Ok(pins) => lab.replay.set(pins),
                    Err(e) => lab.banner.set(Some(format!(
                        "This link's pinned runs could not be loaded ({e}). Its scenario is shown without them."
                    ))),
                }
                return s;
            }
            Err(e) => {
                lab.banner.set(Some(format!(
                    "This link's scenario could not be loaded ({e}). Nothing was run; the last scenario is shown instead."
                )));
                return stored().unwrap_or_default();
            }
        }
    }
    match stored() {
        Some(s) => s,
        None if get("autorun").as_deref() != Some("0") && get("lesson").is_none() => {
            multi_cluster::first_open::start(*lab)
        }
        None => Scenario::default(),
    }
}

/// Keeps the scenario in the URL (with its family's pinned runs, `&present=1` in projector mode, and the lesson and
/// its step when it steps through one) and in localStorage.
pub(crate) fn remember(lab: Lab, s: &Scenario) {
    let Some(window) = web_sys::window() else { return };
    // Private browsing or a full quota refuses to store: the link in the URL still holds the scenario.
    let _ = LocalStorage::set(STORAGE_KEY, s);
    let url = format!("?scenario={}{}{}", share::to_link(s), replay::address_suffix(lab, s), present::address_suffix());
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}
