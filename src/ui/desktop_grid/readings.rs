//! "Which assumption carries this result?" for the desktop-grid figure chosen above: its findings of §IV-C under
//! every value of one reading (docs/desktop_grid.md, "Readings"), the bars run in the page's worker pool with the
//! code of `bagsim dg-figure N --readings KEY=all` (`study::plan`, `Plan::table`).

use crate::family::desktop_grid::figures::study::{plan, Plan};
use crate::family::desktop_grid::figures::{Bar, CiRule};
use crate::family::desktop_grid::readings::READINGS;
use crate::readings::{combinations, parse_axis, ReadingsTable};
use crate::registry::AnyFigureJob;
use crate::registry::Scenario;
use crate::ui::pool::{Job, JobError, OnDone, Pool};
use crate::ui::readings::{reading_options, rests_on, FlipsList, ReadingsTableView};
use leptos::prelude::*;
use std::rc::Rc;

struct State {
    plan: Plan,
    results: Vec<Option<Result<Bar, JobError>>>,
    pool: Option<Pool>,
}

/// The readings study of figure `figure`, on the controls' other settings and at most `cap` seeds per bar.
#[component]
pub fn DgReadings(figure: RwSignal<u32>, scenario: Signal<Scenario>, cap: RwSignal<usize>) -> impl IntoView {
    let key = RwSignal::new(READINGS[0].key.to_string());
    let running = RwSignal::new(false);
    let status = RwSignal::new(String::new());
    let table: RwSignal<Option<ReadingsTable>> = RwSignal::new(None);
    // The plan, its bars and its workers; disposed with the section, which ends its workers.
    let state = StoredValue::new_local(None::<State>);
    let cancel = move || {
        if let Some(pool) = state.try_update_value(|s| s.take().and_then(|st| st.pool)).flatten() {
            pool.cancel();
        }
        running.set(false);
    };
    let start = move |_| {
        cancel();
        table.set(None);
        let base = scenario.with_untracked(|s| s.desktop_grid().map(|d| d.desktop_grid.clone()).unwrap_or_default());
        let rule = CiRule { max_seeds: cap.get_untracked(), ..CiRule::default() };
        let planned = parse_axis(&format!("{}=all", key.get_untracked()), READINGS)
            .and_then(|axis| plan(figure.get_untracked(), &base, &combinations(&[axis]), rule));
        let p = match planned {
            Ok(p) => p,
            Err(e) => return status.set(e.to_string()),
        };
        let jobs: Vec<Job> =
            p.jobs.iter().map(|(_, j)| Job::Figure(AnyFigureJob::DesktopGrid(Box::new(j.clone())))).collect();
        let n = jobs.len();
        let on_done: OnDone = Rc::new(move |i, outcome| {
            let r = outcome.figure().and_then(|r| r.bar().ok_or(JobError::Unexpected("not a bar")));
            let finished = state.try_update_value(|s| {
                let st = s.as_mut()?;
                *st.results.get_mut(i)? = Some(r);
                let done = st.results.iter().filter(|r| r.is_some()).count();
                if done < n {
                    return Some((done, None, None));
                }
                let all: Vec<Result<Bar, JobError>> = st.results.iter().flatten().cloned().collect();
                Some((done, Some(st.plan.table(&all)), st.pool.take()))
            });
            let Some((done, t, pool)) = finished.flatten() else { return };
            status.set(format!("{done} of {n} bars computed"));
            if let Some(t) = t {
                table.set(Some(t));
                running.set(false);
                status.set(format!("finished: {n} bars"));
                // Called from a worker's own message handler: end the workers after it returns.
                set_timeout(move || drop(pool), std::time::Duration::ZERO);
            }
        });
        state.set_value(Some(State { plan: p, results: vec![None; n], pool: None }));
        match Pool::start(jobs, on_done) {
            Ok(pool) => {
                state.update_value(|s| {
                    if let Some(st) = s.as_mut() {
                        st.pool = Some(pool);
                    }
                });
                running.set(true);
                status.set(format!("0 of {n} bars computed…"));
            }
            Err(e) => status.set(e.to_string()),
        }
    };
    Effect::new(move |_| {
        figure.track();
        cancel();
        table.set(None);
        status.set(String::new());
    });
    on_cleanup(cancel);
    view! {
        <div class="readings" id="dg-readings">
            <h2 class="readings-title">"Which assumption carries this result?"</h2>
            <p class="help">
                "Where the paper leaves a decision open, bagsim makes it a named reading ("
                <a href="docs/desktop_grid.html#readings-decisions-the-paper-leaves-open" target="_blank">
                    "docs/desktop_grid: Readings"
                </a>
                "). Run this figure's findings under every value of one reading, the default first, on the controls' \
                    other settings. The same code as " <code>"bagsim dg-figure N --readings KEY=all"</code>"."
            </p>
            <div class="paper-bar">
                <label>
                    "Reading "
                    <select
                        id="dg-readings-key"
                        disabled=move || running.get()
                        on:change=move |ev| key.set(event_target_value(&ev))
                    >
                        {reading_options(READINGS, key)}
                    </select>
                </label>
                <button id="dg-readings-run" disabled=move || running.get() on:click=start>
                    "Run under each reading"
                </button>
                <button
                    id="dg-readings-cancel"
                    class="small"
                    disabled=move || !running.get()
                    on:click=move |_| {
                        cancel();
                        status.set("cancelled".into())
                    }
                >
                    "Cancel"
                </button>
                <span id="dg-readings-status" aria-live="polite" data-running=move || running.get().to_string()>
                    {move || status.get()}
                </span>
            </div>
            <p class="help" id="dg-readings-rests">
                {move || rests_on(READINGS, &key.get())}
            </p>
            <ReadingsTableView table=table id="dg-readings-table" />
            <FlipsList table=table id="dg-readings-flips" />
        </div>
    }
}
