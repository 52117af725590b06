//! The page's budget (docs/budget.md): the estimate of the scenario's run, shown under the run bar before Run. The
//! simulation worker makes it (`registry::before_run`, the code the CLI checks), on the trace it holds and at the
//! speed of the last run it timed in this tab, and refuses a run over budget before building it; the page asks
//! again whenever the scenario or the run's status changes (a finished run gives the tab's speed).

use crate::protocol::ToWorker;
use crate::ui::lab::Lab;
use leptos::prelude::*;

/// "Before Run: at most about … events …", or the refusal a run would meet.
#[component]
pub(crate) fn EstimateLine() -> impl IntoView {
    let lab = expect_context::<Lab>();
    Effect::new(move |_| {
        lab.status.track();
        lab.scenario.with(|s| match s.validate() {
            Ok(()) => lab.send(&ToWorker::Estimate { scenario: Box::new(s.clone()) }),
            Err(_) => lab.estimate.set((false, String::new())),
        })
    });
    let over = move || lab.estimate.with(|e| e.0);
    view! {
        <p
            id="estimate"
            class=move || if over() { "estimate over" } else { "estimate" }
            aria-live="polite"
            data-over=move || over().to_string()
        >
            {move || lab.estimate.with(|e| e.1.clone())}
        </p>
    }
}
