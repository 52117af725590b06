//! The family switch: which scenario family the page shows. Each family's controls and results sit in a
//! `FamilyPanel` that the switch shows or hides. A panel is built when its family is first shown; a hidden panel
//! stays in the document, so its charts, imports and figures are there again when its family comes back, and a
//! family's settings are kept while another is shown.

use super::form::{apply, error_view};
use crate::protocol::{Progress, ToWorker};
use crate::registry::{Family, Scenario};
use crate::ui::lab::{send, Lab, Status};
use leptos::prelude::*;
use std::cell::RefCell;

thread_local! {
    /// The scenarios of the families not shown, as they were left (a scenario holds only its own family's section).
    static STASH: RefCell<Vec<Scenario>> = const { RefCell::new(Vec::new()) };
    /// The run bar of each family not shown, as it was left.
    static BARS: RefCell<Vec<(Family, Bar)>> = const { RefCell::new(Vec::new()) };
}

/// What the run bar says of a family's last run: its status, message, warnings and progress.
struct Bar {
    status: Status,
    message: String,
    warnings: Vec<String>,
    progress: Option<Progress>,
}

/// The run bar follows the family shown: the family left keeps its bar (a run of it still going is cancelled, so
/// that no message of it reaches the other family's bar), and the family shown gets its own back, or a fresh one.
fn switch_bar(lab: Lab, from: Family, to: Family) {
    let mut status = lab.status.get_untracked();
    if status == Status::Loading {
        return;
    }
    if matches!(status, Status::Running | Status::Paused | Status::Generating) {
        send(&ToWorker::Cancel { run_id: lab.run_id.get_untracked() });
        lab.run_id.update(|id| *id += 1);
        status = Status::Cancelled;
        lab.message.set("cancelled: the family was switched during the run".into());
    }
    let left = Bar {
        status,
        message: lab.message.get_untracked(),
        warnings: lab.warnings.get_untracked(),
        progress: lab.progress.get_untracked(),
    };
    let back = BARS.with(|b| {
        let mut b = b.borrow_mut();
        let back = b.iter().position(|(f, _)| *f == to).map(|i| b.swap_remove(i).1);
        b.push((from, left));
        back
    });
    let bar =
        back.unwrap_or(Bar { status: Status::Ready, message: String::new(), warnings: Vec::new(), progress: None });
    lab.status.set(bar.status);
    lab.message.set(bar.message);
    lab.warnings.set(bar.warnings);
    lab.progress.set(bar.progress);
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
        let from = lab.scenario.with_untracked(|s| s.family());
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
        let to = lab.scenario.with_untracked(|s| s.family());
        if to != from {
            switch_bar(lab, from, to);
        }
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

/// Opens `next` in the lab (a lesson's "Write your own policy"): the scenario shown now is kept as the family's
/// when `next` is of another family, whose run bar then follows, as the switch does.
pub(crate) fn open_scenario(lab: Lab, next: Scenario) {
    lab.errors.set(Default::default());
    let from = lab.scenario.with_untracked(|s| s.family());
    let to = next.family();
    apply(lab, "family", |s| {
        let left = std::mem::replace(s, next);
        if to != from {
            STASH.with(|st| {
                let mut st = st.borrow_mut();
                st.retain(|k| k.family() != to && k.family() != from);
                st.push(left);
            });
        }
        Ok(())
    });
    if to != from {
        switch_bar(lab, from, to);
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

/// Shows `next` as the scenario, of the same family or another: the family left keeps its scenario and its run
/// bar, as the switch keeps them (the Workload lab's replay of a log's rigid jobs in the data grid).
pub(crate) fn show_scenario(lab: Lab, next: Scenario) {
    let (from, to) = (lab.scenario.with_untracked(|s| s.family()), next.family());
    let left = lab.scenario.get_untracked();
    if to != from {
        STASH.with(|st| {
            let mut st = st.borrow_mut();
            st.retain(|k| k.family() != to && k.family() != from);
            st.push(left);
        });
    }
    lab.scenario.set(next);
    if to != from {
        switch_bar(lab, from, to);
    }
}

/// What a family's runs are made of, in the run bar ("tasks", or a data grid's "jobs").
pub(crate) fn work_unit(family: Family) -> &'static str {
    match family {
        Family::DataGrid => "jobs",
        Family::MultiCluster | Family::DesktopGrid => "tasks",
    }
}

/// The run bar's line when a run's workload is ready, in its family's terms.
pub(crate) fn started_text(family: Family, start: &crate::family::contract::Start, generate_s: f64) -> String {
    let took = format!("generated in {generate_s:.2} s");
    match family {
        Family::MultiCluster => {
            format!("{} BoTs, {} tasks, achieved load {:.4} ({took})", start.bots, start.tasks, start.achieved_load)
        }
        Family::DesktopGrid => {
            format!("{} BoTs, {} tasks, load factor L {:.4} ({took})", start.bots, start.tasks, start.achieved_load)
        }
        Family::DataGrid => {
            format!("{} jobs, offered load {:.4} (read in {generate_s:.2} s)", start.tasks, start.achieved_load)
        }
    }
}
