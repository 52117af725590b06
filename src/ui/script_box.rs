//! "Your own policy" on the page (docs/policies.md): a decision of a family written as a Rhai script, edited in a
//! text box that starts from an example. The page has no script engine: each edit goes to the worker, which
//! compiles the script for the family's key and says at which line and column it fails, before Run. The script is
//! part of the scenario, so Run, Pin, Copy link and the exports carry it like any other setting. Knows no family:
//! each family's controls give the key, the examples and how the scenario holds the script.

use crate::protocol::{FromWorker, ToWorker};
use crate::registry::Family;
use crate::ui::form::Refused;
use crate::ui::lab::{Heard, Lab, Status};
use leptos::prelude::*;
use std::rc::Rc;

/// What the worker said of one box's latest edit.
#[derive(Clone)]
struct Verdict {
    /// The latest check asked for; an answer to an older one is dropped.
    asked: ArcRwSignal<u32>,
    /// None while the worker has not answered; Some(None) when the script compiles; Some(Some(e)) its error.
    said: ArcRwSignal<Option<Option<String>>>,
}

/// The script boxes' checks: one verdict per box, by its element id (a box built again keeps its verdict), and
/// the number of the next check. Made by the shell, provided through context, and told the worker's answers.
#[derive(Clone, Copy)]
pub(crate) struct Checks {
    lab: Lab,
    verdicts: StoredValue<Vec<(&'static str, Verdict)>, LocalStorage>,
    next: StoredValue<u32, LocalStorage>,
}

impl Checks {
    /// Provides the checks to the page's script boxes and listens to the worker's verdicts.
    pub(crate) fn start(lab: Lab) {
        let checks = Checks { lab, verdicts: StoredValue::new_local(Vec::new()), next: StoredValue::new_local(1) };
        provide_context(checks);
        lab.listen(Rc::new(move |heard| match heard {
            Heard::Message(FromWorker::ScriptChecked { check_id, error }) => {
                checks.on_checked(check_id, error);
                None
            }
            other => Some(other),
        }));
    }

    fn verdict(self, id: &'static str) -> Verdict {
        let found = self.verdicts.with_value(|v| v.iter().find(|(k, _)| *k == id).map(|(_, f)| f.clone()));
        found.unwrap_or_else(|| {
            let new = Verdict { asked: ArcRwSignal::new(0), said: ArcRwSignal::new(None) };
            self.verdicts.update_value(|v| v.push((id, new.clone())));
            new
        })
    }

    /// Asks the worker to compile `source` as the script of `family`'s `key`.
    fn check(self, id: &'static str, family: Family, key: &'static str, source: &str) {
        let check_id = self.next.get_value();
        self.next.set_value(check_id + 1);
        let v = self.verdict(id);
        v.asked.set(check_id);
        v.said.set(None);
        self.lab.send(&ToWorker::CheckScript { check_id, family, key: key.into(), source: source.to_string() });
    }

    /// The worker's answer, to the box that asked.
    fn on_checked(self, check_id: u32, error: Option<String>) {
        self.verdicts.with_value(|v| {
            if let Some((_, found)) = v.iter().find(|(_, f)| f.asked.get_untracked() == check_id) {
                found.said.set(Some(error));
            }
        });
    }
}

/// A script box: `source` is the script the scenario holds for `key` (None: a built-in is chosen, and the box is
/// hidden), `set` puts an edited script in the scenario. `id` names the text box (`#{id}`), its verdict
/// (`#{id}-status`) and the example buttons (`#{id}-example-NAME`); `box_id` the whole box.
#[component]
pub(crate) fn ScriptBox(
    family: Family,
    key: &'static str,
    id: &'static str,
    box_id: &'static str,
    label: &'static str,
    examples: &'static [(&'static str, &'static str)],
    source: Memo<Option<String>>,
    set: Callback<String>,
) -> impl IntoView {
    let (lab, checks) = (expect_context::<Lab>(), expect_context::<Checks>());
    // Each script the scenario takes (typed, chosen, or opened by a link) is checked once the worker listens, and
    // again by a worker that replaced one that stopped.
    Effect::new(move |prev: Option<(bool, Option<String>)>| {
        let now = source.get();
        let ready = lab.status.get() != Status::Loading;
        let asked_before = prev.as_ref().is_some_and(|(was_ready, was)| *was_ready && was == &now);
        if ready && !asked_before {
            if let Some(text) = &now {
                checks.check(id, family, key, text);
            }
        }
        (ready, now)
    });
    let said = checks.verdict(id).said;
    let words = move || match said.get() {
        None => ("script-status", "checking the script…".to_string()),
        Some(None) => ("script-status", "the script compiles; Run runs it in the worker".to_string()),
        Some(Some(e)) => ("script-status field-error", e),
    };
    view! {
        <div class="field script-editor" id=box_id hidden=move || source.with(Option::is_none)>
            <label for=id>{label}</label>
            <p class="help">
                "What the script sees, what it may return and the limits: "
                <a href="docs/policies.html" target="_blank" rel="noopener">
                    "docs/policies"
                </a>"."
            </p>
            <div class="paper-bar">
                "Start from: "
                {examples
                    .iter()
                    .map(|&(name, text)| {
                        view! {
                            <button
                                class="small"
                                id=format!("{id}-example-{}", name.to_lowercase().replace(' ', "-"))
                                on:click=move |_| set.run(text.to_string())
                            >
                                {format!("the {name} example")}
                            </button>
                        }
                    })
                    .collect_view()}
            </div>
            <textarea
                id=id
                rows="14"
                spellcheck="false"
                prop:value=move || source.get().unwrap_or_default()
                on:input=move |ev| set.run(event_target_value(&ev))
            ></textarea>
            {move || {
                let (class, text) = words();
                view! {
                    <p class=class id=format!("{id}-status") role="status">
                        {text}
                    </p>
                }
            }}
        </div>
    }
}

/// How a family's policy key is read and written by a menu with a script entry: the built-ins (`choices`), the
/// built-in the scenario holds (None: a script), and the scenario's script (None: a built-in).
pub(crate) struct PolicyKey<T: 'static> {
    pub family: Family,
    /// The key in the family's section (`bot_selection`), as the worker's check takes it.
    pub key: &'static str,
    pub choices: crate::ui::form::Choices<T>,
    pub builtin: fn(&crate::scenario::Scenario) -> Option<T>,
    pub script: fn(&crate::scenario::Scenario) -> Option<String>,
    pub set_builtin: fn(&mut crate::scenario::Scenario, T) -> Result<(), Refused>,
    pub set_script: fn(&mut crate::scenario::Scenario, &str) -> Result<(), Refused>,
    /// The examples a user starts from, the first the one "Your own policy" opens with.
    pub examples: &'static [(&'static str, &'static str)],
    /// The ids of the script's text box and of the whole box.
    pub script_id: &'static str,
    pub box_id: &'static str,
}

/// A policy menu with a last entry "Your own policy (a script)" and, under it while chosen, the script's box.
pub(crate) fn policy_field<T: Copy + PartialEq + Send + Sync + 'static>(
    c: crate::ui::form::Ctl,
    k: PolicyKey<T>,
) -> impl IntoView {
    let lab = expect_context::<Lab>();
    use crate::ui::form::{apply, field, select_options};
    let (all, name, show) = k.choices;
    let (builtin, set_builtin, set_script, path) = (k.builtin, k.set_builtin, k.set_script, c.path);
    let first = k.examples.first().map_or("", |e| e.1);
    let value = Memo::new(move |_| lab.scenario.with(|s| builtin(s).map_or("script", name)));
    let script = k.script;
    let source = Memo::new(move |_| lab.scenario.with(script));
    let set = Callback::new(move |text: String| apply(lab, path, |s| set_script(s, &text)));
    let (ids, box_id) = (k.script_id, k.box_id);
    let input = view! {
        <select
            id=c.id
            prop:value=move || value.get()
            on:change=move |ev| {
                let text = event_target_value(&ev);
                apply(
                    lab,
                    path,
                    |s| {
                        if text == "script" {
                            return set_script(s, first);
                        }
                        match all.iter().find(|&&v| name(v) == text) {
                            Some(&v) => set_builtin(s, v),
                            None => {
                                Err(Refused::NotAChoice {
                                    text: text.clone(),
                                })
                            }
                        }
                    },
                )
            }
        >
            {select_options(all, name, show)}
            <option value="script">"Your own policy (a script)"</option>
        </select>
        <ScriptBox
            family=k.family
            key=k.key
            id=ids
            box_id=box_id
            label="Your policy, a Rhai script"
            examples=k.examples
            source=source
            set=set
        />
    }
    .into_any();
    field(c, input)
}
