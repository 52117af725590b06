//! The family switch: which scenario family the page shows. Each family's controls and results sit in a
//! `FamilyPanel` that the switch shows or hides. A panel is built when its family is first shown; a hidden panel
//! stays in the document, so its charts, imports and figures are there again when its family comes back, and a
//! family's settings are kept while another is shown.

use super::form::{apply, error_view};
use crate::protocol::ToWorker;
use crate::registry::{Family, Scenario};
use crate::ui::lab::{Bar, Lab, Status};
use leptos::prelude::*;

/// The run bar follows the family shown: the family left keeps its bar (a run of it still going is cancelled, so
/// that no message of it reaches the other family's bar), and the family shown gets its own back, or a fresh one.
fn switch_bar(lab: Lab, from: Family, to: Family) {
    let mut status = lab.status.get_untracked();
    if status == Status::Loading {
        return;
    }
    if matches!(status, Status::Running | Status::Paused | Status::Generating) {
        lab.send(&ToWorker::Cancel { run_id: lab.run_id.get_untracked() });
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
    let back = lab.kept.try_update_value(|k| {
        let back = k.bars.iter().position(|(f, _)| *f == to).map(|i| k.bars.swap_remove(i).1);
        k.bars.push((from, left));
        back
    });
    let back = back.flatten();
    let bar =
        back.unwrap_or(Bar { status: Status::Ready, message: String::new(), warnings: Vec::new(), progress: None });
    lab.status.set(bar.status);
    lab.message.set(bar.message);
    lab.warnings.set(bar.warnings);
    lab.progress.set(bar.progress);
}

/// The "Grid family" select.
#[component]
pub fn FamilySwitch() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let family = Memo::new(move |_| lab.scenario.with(|s| s.family()));
    let switch = move |ev: leptos::ev::Event| {
        let text = event_target_value(&ev);
        lab.errors.set(Default::default());
        let from = lab.scenario.with_untracked(|s| s.family());
        apply(lab, "family", |s| {
            let to = lab.families.by_key(&text).ok_or_else(|| format!("{text:?} is not a scenario family"))?.family();
            if to == s.family() {
                return Ok(());
            }
            // The family's scenario as it was left, with the seed shown now.
            let seed = s.seed();
            let left = std::mem::replace(s, Scenario::default_for(to));
            if let Some(kept) = lab.kept.try_update_value(|k| k.swap(left, to)).flatten() {
                *s = kept;
            }
            s.set_seed(seed);
            Ok(())
        });
        let to = lab.scenario.with_untracked(|s| s.family());
        if to != from {
            switch_bar(lab, from, to);
        }
    };
    view! {
        <div class="family-switch field">
            <label for="family" title="which kind of grid the scenario simulates">
                "Grid family"
            </label>
            <select id="family" prop:value=move || family.get().name() on:change=switch>
                {lab
                    .families
                    .all()
                    .iter()
                    .map(|f| {
                        view! { <option value=f.family().name()>{f.label()}</option> }
                    })
                    .collect_view()}
            </select>
            {error_view("family")}
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
            lab.kept.update_value(|k| {
                k.swap(left, to);
            });
        }
        Ok(())
    });
    if to != from {
        switch_bar(lab, from, to);
    }
}

/// Which part of a family's page a [`FamilyPanel`] holds.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Slot {
    Controls,
    Results,
    Below,
}

/// One family's part of the page, shown while the scenario is of that family. It is built the first time its
/// family is shown (a page opened on one family does not build the others' controls and charts while it loads)
/// and kept from then on.
#[component]
pub fn FamilyPanel(family: Family, part: Slot) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let shown = Memo::new(move |_| lab.scenario.with(|s| s.family() == family));
    let built = Memo::new(move |before: Option<&bool>| before.copied().unwrap_or(false) || shown.get());
    let built_part = move || {
        let page = lab.families.of(family);
        match part {
            Slot::Controls => page.controls(),
            Slot::Results => page.results(),
            Slot::Below => page.below(),
        }
    };
    view! {
        <div
            class="family-panel"
            data-family=family.name()
            style:display=move || if shown.get() { "contents" } else { "none" }
        >
            <Show when=move || built.get()>{built_part}</Show>
        </div>
    }
}

/// Every family's panel of one slot, in the order of the page's list.
pub(crate) fn panels(lab: Lab, slot: Slot) -> impl IntoView {
    let families: Vec<Family> = lab.families.all().iter().map(|f| f.family()).collect();
    families.into_iter().map(|family| view! { <FamilyPanel family=family part=slot /> }).collect_view()
}

/// Shows `next` as the scenario, of the same family or another: the family left keeps its scenario and its run
/// bar, as the switch keeps them (the Workload lab's replay of a log's rigid jobs in the data grid).
pub(crate) fn show_scenario(lab: Lab, next: Scenario) {
    let (from, to) = (lab.scenario.with_untracked(|s| s.family()), next.family());
    let left = lab.scenario.get_untracked();
    if to != from {
        lab.kept.update_value(|k| {
            k.swap(left, to);
        });
    }
    lab.scenario.set(next);
    if to != from {
        switch_bar(lab, from, to);
    }
}
