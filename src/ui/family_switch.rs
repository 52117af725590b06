//! The family switch: which scenario family the page shows. Each family's controls and results sit in a
//! `FamilyPanel` that the switch shows or hides. A panel is built when its family is first shown; a hidden panel
//! stays in the document, so its charts, imports and figures are there again when its family comes back, and a
//! family's settings are kept while another is shown.

use super::form::{apply, error_view};
use super::Lab;
use crate::registry::{Family, Scenario};
use leptos::prelude::*;
use std::cell::RefCell;

thread_local! {
    /// The scenarios of the families not shown, as they were left (a scenario holds only its own family's section).
    static STASH: RefCell<Vec<Scenario>> = const { RefCell::new(Vec::new()) };
}

/// The families the page offers, with their menu labels.
const FAMILIES: [(Family, &str, &str); 3] = [
    (Family::MultiCluster, "multi_cluster", "Multi-cluster grid (Iosup et al. 2008)"),
    (Family::DesktopGrid, "desktop_grid", "Desktop grid (Anglano & Canonico 2009)"),
    (Family::DataGrid, "data_grid", "Data grid (Liu et al. 2010)"),
];

fn key(family: Family) -> &'static str {
    FAMILIES.iter().find(|f| f.0 == family).map_or("multi_cluster", |f| f.1)
}

/// The "Grid family" select.
#[component]
pub fn FamilySwitch(lab: Lab) -> impl IntoView {
    let family = Memo::new(move |_| lab.scenario.with(|s| s.family()));
    let switch = move |ev: leptos::ev::Event| {
        let text = event_target_value(&ev);
        lab.errors.set(Default::default());
        apply(lab, "family", |s| {
            let to =
                FAMILIES.iter().find(|f| f.1 == text).ok_or_else(|| format!("{text:?} is not a scenario family"))?.0;
            if to == s.family() {
                return Ok(());
            }
            // The family's scenario as it was left, with the seed shown now.
            STASH.with(|st| {
                let mut st = st.borrow_mut();
                let kept = st.iter().position(|k| k.family() == to).map(|i| st.swap_remove(i));
                let mut next = kept.unwrap_or_else(|| Scenario::default_for(to));
                next.set_seed(s.seed());
                st.push(std::mem::replace(s, next));
            });
            Ok(())
        });
    };
    view! {
        <div class="family-switch field">
            <label for="family" title="which kind of grid the scenario simulates">"Grid family"</label>
            <select id="family" prop:value=move || key(family.get()) on:change=switch>
                {FAMILIES.iter().map(|&(_, value, label)| view! { <option value=value>{label}</option> }).collect_view()}
            </select>
            {error_view(lab, "family")}
        </div>
    }
}

/// One family's part of the page, shown while the scenario is of that family. It is built the first time its
/// family is shown (a page opened on one family does not build the others' controls and charts while it loads)
/// and kept from then on.
#[component]
pub fn FamilyPanel(lab: Lab, family: Family, children: ChildrenFn) -> impl IntoView {
    let shown = Memo::new(move |_| lab.scenario.with(|s| s.family() == family));
    let built = Memo::new(move |before: Option<&bool>| before.copied().unwrap_or(false) || shown.get());
    view! {
        <div class="family-panel" data-family=key(family) style:display=move || if shown.get() { "contents" } else { "none" }>
            <Show when=move || built.get()>{children()}</Show>
        </div>
    }
}
