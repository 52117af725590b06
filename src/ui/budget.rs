//! The page's budget (docs/budget.md): the estimate of the scenario's run, shown under the run bar before Run, and
//! the refusal of a run over budget before anything is sent to a worker. The estimate and the check are the
//! registry's, the code the CLI and the worker run; the page adds the size of a trace it has imported.

use super::trace_lab;
use crate::family::contract::Estimate;
use crate::registry;
use crate::scenario::Scenario;
use crate::ui::lab::Lab;
use leptos::prelude::*;

/// The scenario's estimate, with the size of the trace it names when the Workload lab has imported it; None when
/// the scenario names a trace that is not imported (its run would be refused for that).
fn estimate(s: &Scenario) -> Option<Estimate> {
    match registry::trace_named(s) {
        Some(name) => trace_lab::imported_size(name).map(|size| registry::estimate(s, Some(&size))),
        None => Some(registry::estimate(s, None)),
    }
}

/// Why a run of the scenario is refused before it starts (over budget), naming the key that drives it; the
/// estimate's line under the run bar gives the count and the limit.
pub(crate) fn refusal(s: &Scenario) -> Option<String> {
    match estimate(s) {
        None => Some(format!("Refused before it started: {}", missing_trace(s))),
        Some(e) => {
            e.check().err().map(|e| format!("Refused before it started: over budget at {} (see below).", e.field))
        }
    }
}

/// What a scenario that names a trace the page has not imported needs (a link or a reload keeps the settings, not
/// the file).
fn missing_trace(s: &Scenario) -> String {
    format!(
        "this scenario replays {}, which is not loaded here: import the file in the Workload lab, then Run.",
        registry::trace_named(s).unwrap_or("a trace")
    )
}

/// "Before Run: at most about … events …", or the refusal a run would meet.
#[component]
pub(crate) fn EstimateLine(lab: Lab) -> impl IntoView {
    let line = Memo::new(move |_| {
        lab.scenario.with(|s| {
            if s.validate().is_err() {
                return (false, String::new());
            }
            match estimate(s) {
                None => (true, format!("Before Run: {}", missing_trace(s))),
                Some(e) => match e.check() {
                    Err(err) => (true, format!("Before Run: over budget, Run is refused: {err}")),
                    Ok(()) => (false, format!("Before Run: {}.", e.summary())),
                },
            }
        })
    });
    view! {
        <p id="estimate" class=move || if line.get().0 { "estimate over" } else { "estimate" } aria-live="polite"
            data-over=move || line.get().0.to_string()>{move || line.get().1}</p>
    }
}
