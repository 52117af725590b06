//! "Your own policy" on the page (docs/policies.md): the task-scheduling policy as a Rhai script, edited in a text
//! box that starts from the FPLT or ECT example. The page has no script engine: each edit goes to the worker, which
//! compiles the script and says at which line and column it fails, before Run. The script is part of the scenario,
//! so Run, Pin, Copy link and the exports carry it like any other setting.

use crate::family::multi_cluster::policy::scheduling::{SchedulingPolicy, ScriptSource};
use crate::protocol::{FromWorker, ToWorker};
use crate::registry::Family;
use crate::ui::form::{apply, mc, mcm};
use crate::ui::{send, Lab, Status};
use leptos::prelude::*;
use std::cell::Cell;

/// The examples a user starts from: (name, source), the first the default.
pub const EXAMPLES: [(&str, &str); 2] = [
    ("FPLT", include_str!("../../../examples/policies/fplt.rhai")),
    ("ECT", include_str!("../../../examples/policies/ect.rhai")),
];

/// The script's state: what the worker said of the latest edit.
#[derive(Clone)]
struct Checked {
    /// The latest check asked for; an answer to an older one is dropped.
    asked: ArcRwSignal<u32>,
    /// None while the worker has not answered; Some(None) when the script compiles; Some(Some(e)) its error.
    said: ArcRwSignal<Option<Option<String>>>,
}

thread_local! {
    static CHECKED: Checked = Checked { asked: ArcRwSignal::new(0), said: ArcRwSignal::new(None) };
    static NEXT: Cell<u32> = const { Cell::new(1) };
}

fn checked() -> Checked {
    CHECKED.with(Clone::clone)
}

/// Asks the worker to compile `source`.
fn check(source: &str) {
    let id = NEXT.with(|n| {
        let id = n.get();
        n.set(id + 1);
        id
    });
    let c = checked();
    c.asked.set(id);
    c.said.set(None);
    send(&ToWorker::CheckScript {
        check_id: id,
        family: Family::MultiCluster,
        key: "scheduling".into(),
        source: source.to_string(),
    });
}

/// The worker's answer (`Lab::on_message` passes it on).
pub(crate) fn on_checked(m: FromWorker) {
    if let FromWorker::ScriptChecked { check_id, error } = m {
        let c = checked();
        if c.asked.get_untracked() == check_id {
            c.said.set(Some(error));
        }
    }
}

/// The policy the scheduling menu's "your own policy" entry starts from: the FPLT example.
pub(crate) fn default_script() -> SchedulingPolicy {
    SchedulingPolicy::Script(ScriptSource::new(EXAMPLES[0].1))
}

/// The script's text box, its example buttons and the worker's verdict, shown while the policy is a script.
#[component]
pub(crate) fn ScriptEditor(lab: Lab) -> impl IntoView {
    let sc = lab.scenario;
    let source = Memo::new(move |_| sc.with(|s| mc(s).scheduling.script().map(str::to_string)));
    // Each script the scenario takes (typed, chosen, or opened by a link) is checked once the worker listens, and
    // again by a worker that replaced one that stopped.
    Effect::new(move |prev: Option<(bool, Option<String>)>| {
        let now = source.get();
        let ready = lab.status.get() != Status::Loading;
        let asked_before = prev.as_ref().is_some_and(|(was_ready, was)| *was_ready && was == &now);
        if ready && !asked_before {
            if let Some(text) = &now {
                check(text);
            }
        }
        (ready, now)
    });
    let said = checked().said;
    let verdict = move || match said.get() {
        None => ("script-status", "checking the script…".to_string()),
        Some(None) => ("script-status", "the script compiles; Run runs it in the worker".to_string()),
        Some(Some(e)) => ("script-status field-error", e),
    };
    let set = move |text: String| {
        apply(lab, "scheduling", |s| {
            mcm(s)?.scheduling = SchedulingPolicy::Script(ScriptSource::new(&text));
            Ok(())
        })
    };
    view! {
        <div class="field script-editor" id="script-editor" hidden=move || source.with(Option::is_none)>
            <label for="policy-script">"Your policy, a Rhai script"</label>
            <p class="help">"What "<code>"view"</code>" holds, what "<code>"choose"</code>" may return and the limits: "
                <a href="docs/policies.html" target="_blank" rel="noopener">"docs/policies"</a>"."</p>
            <div class="paper-bar">"Start from: "
                {EXAMPLES.iter().map(|&(name, text)| view! {
                    <button class="small" id=format!("script-example-{}", name.to_lowercase()) on:click=move |_| set(text.to_string())>{format!("the {name} example")}</button>
                }).collect_view()}
            </div>
            <textarea id="policy-script" rows="14" spellcheck="false" prop:value=move || source.get().unwrap_or_default()
                on:input=move |ev| set(event_target_value(&ev))></textarea>
            {move || { let (class, text) = verdict(); view! { <p class=class id="policy-script-status" role="status">{text}</p> } }}
        </div>
    }
}
