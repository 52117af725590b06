//! The multi-cluster scripts on the page (docs/policies.md): the task-scheduling policy (from the FPLT or ECT
//! example) and the task selection (from the S-BoT example) as Rhai scripts, in the shared script box
//! (`ui/script_box.rs`).

use crate::family::multi_cluster::policy::scheduling::{SchedulingPolicy, ScriptSource};
use crate::family::multi_cluster::policy::selection::SelectionPolicy;
use crate::registry::Family;
use crate::ui::form::{apply, mc, mcm};
use crate::ui::lab::Lab;
use crate::ui::script_box::ScriptBox;
use leptos::prelude::*;

/// The examples a user starts from: (name, source), the first the default.
pub const EXAMPLES: [(&str, &str); 2] = [
    ("FPLT", include_str!("../../../examples/policies/fplt.rhai")),
    ("ECT", include_str!("../../../examples/policies/ect.rhai")),
];

/// The policy the scheduling menu's "your own policy" entry starts from: the FPLT example.
pub(crate) fn default_script() -> SchedulingPolicy {
    SchedulingPolicy::Script(ScriptSource::new(EXAMPLES[0].1))
}

/// The task-scheduling script's box, shown while the policy is a script.
#[component]
pub(crate) fn ScriptEditor() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let sc = lab.scenario;
    let source = Memo::new(move |_| sc.with(|s| mc(s).scheduling.script().map(str::to_string)));
    let set = Callback::new(move |text: String| {
        apply(lab, "scheduling", |s| {
            mcm(s)?.scheduling = SchedulingPolicy::Script(ScriptSource::new(&text));
            Ok(())
        })
    });
    view! {
        <ScriptBox
            family=Family::MultiCluster
            key="scheduling"
            id="policy-script"
            box_id="script-editor"
            label="Your policy, a Rhai script"
            examples=&EXAMPLES
            source=source
            set=set
        />
    }
}

/// The task-selection examples: S-BoT written as a script.
pub const SELECTION_EXAMPLES: [(&str, &str); 1] = [("S-BoT", include_str!("../../../examples/policies/s_bot.rhai"))];

/// The selection the menu's "your own policy" entry starts from: the S-BoT example.
pub(crate) fn default_selection_script() -> SelectionPolicy {
    SelectionPolicy::Script(ScriptSource::new(SELECTION_EXAMPLES[0].1))
}

/// The task-selection script's box, shown while the selection is a script.
#[component]
pub(crate) fn SelectionEditor() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let sc = lab.scenario;
    let source = Memo::new(move |_| sc.with(|s| mc(s).selection.script().map(str::to_string)));
    let set = Callback::new(move |text: String| {
        apply(lab, "selection", |s| {
            mcm(s)?.selection = SelectionPolicy::Script(ScriptSource::new(&text));
            Ok(())
        })
    });
    view! {
        <ScriptBox
            family=Family::MultiCluster
            key="selection"
            id="selection-script"
            box_id="selection-script-editor"
            label="Your task selection, a Rhai script"
            examples=&SELECTION_EXAMPLES
            source=source
            set=set
        />
    }
}
