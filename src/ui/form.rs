//! What every scenario form of the page shares: applying an edit (kept only if the scenario stays valid, else
//! reported at its field) and the error line under a control. Used by controls.rs, login_logout.rs and
//! desktop_grid.rs, so that the editors need not import each other.

use super::{remember, Lab};
use crate::scenario::Scenario;
use leptos::prelude::*;

/// Applies an edit to a copy of the scenario; keeps it only if the result is valid, else reports at `field`.
pub(super) fn apply(lab: Lab, field: &'static str, edit: impl FnOnce(&mut Scenario) -> Result<(), String>) {
    let mut s = lab.scenario.get_untracked();
    let outcome = edit(&mut s).map_err(|m| (field.to_string(), m)).and_then(|()| {
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
            remember(&s);
            lab.scenario.set(s);
        }
        Err((f, m)) => lab.errors.update(|e| {
            e.insert(f, m);
        }),
    }
}

/// The error line of the control that sets `field`: the message of its last rejected edit, or nothing.
pub(super) fn error_view(lab: Lab, field: &'static str) -> impl IntoView {
    view! {
        <div class="field-error" data-field=field>{move || lab.errors.with(|e| e.get(field).cloned().unwrap_or_default())}</div>
    }
}
