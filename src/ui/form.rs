//! What every scenario form of the page shares: applying an edit (kept only if the scenario stays valid, else
//! reported at its field), the error line under a control, and labelled number and select controls. Used by every
//! family's controls and the Login/Logout editor, so that the editors need not import each other.

use crate::scenario::Scenario;
use crate::ui::address::remember;
use crate::ui::lab::Lab;
use leptos::prelude::*;
use std::fmt;

/// Why the page refused a value typed or chosen in a control. Its words are shown under the control (what, where,
/// the allowed range); the scenario is left as it was.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Refused {
    /// Text that does not read as the number the control takes; `what` says which numbers it takes.
    NotANumber { text: String, what: String },
    /// A number that is not finite.
    NotFinite { value: f64, what: String },
    /// A value the control does not offer.
    NotAChoice { text: String },
    /// A setting of one family while the scenario is of another (its control is hidden then).
    OtherFamily { setting: &'static str, family: &'static str },
    /// A value the scenario's rules refuse, in the rule's own words (most come from the library's typed errors).
    Rule(String),
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refused::NotANumber { text, what } => write!(f, "{text:?} is not a valid number; {what}"),
            Refused::NotFinite { value, what } => write!(f, "{value} is not finite; {what}"),
            Refused::NotAChoice { text } => write!(f, "{text:?} is not one of the choices"),
            Refused::OtherFamily { setting, family } => {
                write!(f, "a {setting} setting, and the scenario is of family {family}")
            }
            Refused::Rule(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for Refused {}

/// A rule's words (a library error's `to_string`, or the page's own sentence).
impl From<String> for Refused {
    fn from(m: String) -> Refused {
        Refused::Rule(m)
    }
}

/// The library's typed errors a control's edit meets, shown in their own words (a family's own: in its folder).
macro_rules! refused_from {
    ($($e:ty),*) => {
        $(impl From<$e> for Refused {
            fn from(e: $e) -> Refused {
                Refused::Rule(e.to_string())
            }
        })*
    };
}

pub(crate) use refused_from;

refused_from!(crate::error::NameError, crate::error::ScenarioError);

impl From<&str> for Refused {
    fn from(m: &str) -> Refused {
        Refused::Rule(m.to_string())
    }
}

/// Applies an edit to a copy of the scenario; keeps it only if the result is valid, else reports at `field`.
pub(crate) fn apply(lab: Lab, field: &'static str, edit: impl FnOnce(&mut Scenario) -> Result<(), Refused>) {
    let mut s = lab.scenario.get_untracked();
    let outcome = edit(&mut s).map_err(|m| (field.to_string(), m.to_string())).and_then(|()| {
        s.validate().map_err(|e| {
            (
                if e.field.starts_with(field) || field.starts_with(&e.field) { field.to_string() } else { e.field },
                e.message,
            )
        })
    });
    match outcome {
        Ok(()) => {
            lab.errors.update(|e| {
                e.remove(field);
            });
            remember(lab, &s);
            lab.scenario.set(s);
        }
        Err((f, m)) => lab.errors.update(|e| {
            e.insert(f, m);
        }),
    }
}

/// The error line of the control that sets `field`: the message of its last rejected edit, or nothing.
pub(crate) fn error_view(field: &'static str) -> impl IntoView {
    let lab = expect_context::<Lab>();
    view! {
        <div class="field-error" data-field=field>
            {move || lab.errors.with(|e| e.get(field).cloned().unwrap_or_default())}
        </div>
    }
}

pub(crate) fn select_options<T: Copy + PartialEq + 'static>(
    all: &'static [T],
    name: fn(T) -> &'static str,
    label: fn(T) -> String,
) -> impl IntoView {
    all.iter().map(|&v| view! { <option value=name(v)>{label(v)}</option> }).collect_view()
}

/// `text` read as a `T`, or why not (`what`: which numbers the control takes).
pub(crate) fn parse<T: std::str::FromStr>(text: &str, what: &str) -> Result<T, Refused> {
    let t = text.trim();
    t.parse::<T>().map_err(|_| Refused::NotANumber { text: t.to_string(), what: what.to_string() })
}

/// `text` read as a finite number, or why not.
pub(crate) fn number(text: &str, what: &str) -> Result<f64, Refused> {
    parse::<f64>(text, what).and_then(|v| {
        if v.is_finite() {
            Ok(v)
        } else {
            Err(Refused::NotFinite { value: v, what: what.to_string() })
        }
    })
}

/// What every control has: its id, label (the paper's wording), help, and the scenario field it sets.
#[derive(Clone, Copy)]
pub(crate) struct Ctl {
    pub id: &'static str,
    pub label: &'static str,
    pub help: &'static str,
    pub path: &'static str,
}

/// Help text in which each mention of a project doc (`docs/model.md`) links to its page published with the site
/// (`docs/model.html`), so a page user can follow it.
pub(crate) fn help_text(text: &'static str) -> impl IntoView {
    let mut parts = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("docs/") {
        let tail = &rest[i..];
        let Some(end) = tail.find(".md") else { break };
        let name = &tail[5..end];
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
            break;
        }
        parts.push(
            view! {
                {&rest[..i]}
                <a href=format!("docs/{name}.html") target="_blank">
                    {format!("docs/{name}")}
                </a>
            }
            .into_any(),
        );
        rest = &tail[end + 3..];
    }
    parts.push(view! { {rest} }.into_any());
    parts
}

/// A labelled control with its help text and its error line.
pub(crate) fn field(c: Ctl, input: AnyView) -> impl IntoView {
    view! {
        <div class="field">
            <label for=c.id title=c.help>
                {c.label}
            </label>
            {input}
            <div class="help">{help_text(c.help)}</div>
            {error_view(c.path)}
        </div>
    }
}

pub(crate) type Edit = fn(&mut Scenario, &str) -> Result<(), Refused>;

/// A number input bound to `path`; `get` shows the scenario's value.
pub(crate) fn number_field(c: Ctl, step: &'static str, get: fn(&Scenario) -> String, edit: Edit) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let value = Memo::new(move |_| lab.scenario.with(get));
    let path = c.path;
    let input = view! {
        <input
            type="number"
            id=c.id
            step=step
            prop:value=move || value.get()
            on:change=move |ev| {
                let text = event_target_value(&ev);
                apply(lab, path, |s| edit(s, &text))
            }
        />
    }
    .into_any();
    field(c, input)
}

/// The choices of a select: every value, its name in the scenario, its label.
pub(crate) type Choices<T> = (&'static [T], fn(T) -> &'static str, fn(T) -> String);

/// A select bound to `path`; `get` reads the value from the scenario, `set` writes it (or says why it cannot).
pub(crate) fn select_field<T: Copy + PartialEq + Send + Sync + 'static>(
    c: Ctl,
    (all, name, show): Choices<T>,
    get: fn(&Scenario) -> T,
    set: fn(&mut Scenario, T) -> Result<(), Refused>,
) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let path = c.path;
    let value = Memo::new(move |_| lab.scenario.with(|s| name(get(s))));
    let input = view! {
        <select
            id=c.id
            prop:value=move || value.get()
            on:change=move |ev| {
                let text = event_target_value(&ev);
                apply(
                    lab,
                    path,
                    |s| match all.iter().find(|&&v| name(v) == text) {
                        Some(&v) => set(s, v),
                        None => {
                            Err(Refused::NotAChoice {
                                text: text.clone(),
                            })
                        }
                    },
                )
            }
        >
            {select_options(all, name, show)}
        </select>
    }
    .into_any();
    field(c, input)
}

/// The page's multi-cluster section, or the family's defaults while another family is shown (its panel stays in the
/// document, hidden, and its memos still read).
pub(crate) fn mc(s: &Scenario) -> &crate::scenario::McScenario {
    static DEFAULT: std::sync::OnceLock<crate::scenario::McScenario> = std::sync::OnceLock::new();
    s.multi_cluster().unwrap_or_else(|| DEFAULT.get_or_init(Default::default))
}

/// The page's multi-cluster section to change; a multi-cluster control used while another family is shown (it is
/// hidden then) is refused.
pub(crate) fn mcm(s: &mut Scenario) -> Result<&mut crate::scenario::McScenario, Refused> {
    let family = s.family().name();
    s.multi_cluster_mut().ok_or(Refused::OtherFamily { setting: "multi-cluster", family })
}
