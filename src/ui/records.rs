//! The per-task records of a run, downloaded from the page: the last run's scenario is run again by a worker of this
//! part's own (same scenario and seed, same run) that writes its records in Batsim's `jobs.csv` columns, the bytes
//! `bagsim run S.json --jobs F.csv` writes (docs/jobs.md). A family's run tools ask for it (`run_tools.rs`); it lives
//! in the second module (`split::Part::Records`) so that the first screen does not carry it.

use super::pool::{Job, JobError, OnDone, Pool};
use super::split::{self, Channel, ToPanels};
use super::{download, shown};
use crate::family::contract::MAX_JOBS_IN_MEMORY;
use crate::registry::AnyFigureJob;
use crate::scenario::Scenario;
use crate::words::group_digits;
use leptos::prelude::*;
use std::rc::Rc;

/// The file the records download as.
const FILE: &str = "bagsim-jobs.csv";

/// Runs the last run's scenario for its records when mounted, and again on "Download again".
#[component]
pub fn Records(scenario: Signal<Scenario>) -> impl IntoView {
    let pool = StoredValue::new_local(None::<Pool>);
    let status = RwSignal::new(String::new());
    let busy = RwSignal::new(false);
    let start = move || {
        // The last run's scenario (the page tells it when a run starts), else the one shown.
        let s = match split::last(Channel::Ran) {
            Some(ToPanels::Ran(s)) => *s,
            _ => scenario.get_untracked(),
        };
        let trace = shown::trace_file_for(&s);
        busy.set(true);
        status.set("Running the scenario again for its per-task records…".into());
        let on_done: OnDone = Rc::new(move |_, outcome| {
            let csv = outcome.figure().and_then(|r| r.records().ok_or(JobError::Unexpected("no records came")));
            match csv {
                Ok(csv) => {
                    download::text(FILE, "text/csv", &csv);
                    let rows = csv.lines().count().saturating_sub(1);
                    status.set(format!(
                        "Downloaded {FILE}: {} rows, one per finished task (the bytes `bagsim run S.json --jobs \
                         {FILE}` writes for this scenario; docs/jobs.md)",
                        group_digits(&rows.to_string())
                    ));
                }
                Err(e) => status.set(format!("No records: {e}")),
            }
            busy.set(false);
            // Ends the worker after this handler returns.
            leptos::task::spawn_local(async move {
                pool.try_update_value(Option::take);
            });
        });
        pool.try_update_value(Option::take);
        match Pool::start_with_trace(vec![Job::Figure(AnyFigureJob::Records(Box::new(s)))], on_done, trace) {
            Ok(p) => pool.set_value(Some(p)),
            Err(e) => {
                status.set(e.to_string());
                busy.set(false);
            }
        }
    };
    start();
    let most = format!("Runs the last run again; up to {} tasks", group_digits(&MAX_JOBS_IN_MEMORY.to_string()));
    view! {
        <div class="records" id="records">
            <span class="note" role="status" id="records-status">
                {move || status.get()}
            </span>
            " "
            <button class="small" id="records-again" disabled=move || busy.get() on:click=move |_| start() title=most>
                "Download again"
            </button>
        </div>
    }
}
