//! "Which assumption carries this result?": the findings of the chosen paper figure under every value of one
//! reading (docs/model.md, "Readings"), run in the page's worker pool with the code of `bagsim reproduce
//! --readings` (`figures::study::Study`), round by round when seeds are added until the verdicts resolve.

use crate::family::multi_cluster::figures::study::Study;
use crate::family::multi_cluster::figures::{base_of_period, Base, FigureId, RunResult, RunSpec, DEFAULT_SEEDS};
use crate::family::multi_cluster::readings::READINGS;
use crate::readings::{combinations, parse_axis, ReadingsTable, Seeds, AUTO_CAP};
use crate::registry::AnyReport;
use crate::ui::pool::{Job, JobError, OnDone, Outcome, Pool};
use crate::ui::readings::{reading_options, rests_on, FlipsList, ReadingsTableView};
use leptos::prelude::*;
use std::rc::Rc;

/// The study and the workers of its round, outside the reactive graph.
struct State {
    study: Study,
    round: Vec<(usize, RunSpec)>,
    left: usize,
    pool: Option<Pool>,
    generation: u32,
}

#[derive(Clone, Copy)]
struct Readings {
    figure: Signal<FigureId>,
    /// Submission period of every run, s (the paper figures' choice).
    period: Signal<f64>,
    key: RwSignal<String>,
    auto: RwSignal<bool>,
    running: RwSignal<bool>,
    status: RwSignal<String>,
    table: RwSignal<Option<ReadingsTable>>,
    /// The study and its round's workers; disposed with the section, which ends its workers.
    state: StoredValue<Option<State>, LocalStorage>,
    /// Which start the pool's reports belong to (a cancelled round's late reports are ignored).
    generation: StoredValue<u32, LocalStorage>,
}

impl Readings {
    fn start(self) {
        self.cancel();
        let seeds = if self.auto.get_untracked() {
            Seeds::Auto { start: DEFAULT_SEEDS, cap: AUTO_CAP }
        } else {
            Seeds::Fixed(DEFAULT_SEEDS)
        };
        let axis = match parse_axis(&format!("{}=all", self.key.get_untracked()), READINGS) {
            Ok(a) => a,
            Err(e) => return self.status.set(e.to_string()),
        };
        let base = base_of_period(self.period.get_untracked());
        let study = match Study::new(self.figure.get_untracked(), &base, &combinations(&[axis]), seeds) {
            Ok(s) => s,
            Err(e) => return self.status.set(e.to_string()),
        };
        self.generation.update_value(|g| *g += 1);
        let generation = self.generation.get_value();
        self.state.set_value(Some(State { study, round: Vec::new(), left: 0, pool: None, generation }));
        self.table.set(None);
        self.running.set(true);
        self.next_round(generation);
    }

    /// Starts the next round's runs, or ends the study when none are left.
    fn next_round(self, generation: u32) {
        let round =
            self.state.try_with_value(|s| s.as_ref().map(|st| st.study.next_round())).flatten().unwrap_or_default();
        if round.is_empty() {
            return self.finish();
        }
        let jobs: Vec<Job> = round.iter().map(|(_, spec)| Job::Run(Box::new(spec.scenario.clone().into()))).collect();
        let n = jobs.len();
        let on_done: OnDone = Rc::new(move |job, outcome| self.on_done(generation, job, outcome));
        match Pool::start(jobs, on_done) {
            Ok(pool) => {
                self.state.try_update_value(|s| {
                    if let Some(st) = s.as_mut() {
                        st.round = round;
                        st.left = n;
                        st.pool = Some(pool);
                    }
                });
                self.status.set(format!("running {n} runs…"));
            }
            Err(e) => {
                self.status.set(e.to_string());
                self.running.set(false);
            }
        }
    }

    fn on_done(self, generation: u32, job: usize, outcome: Outcome) {
        let left = self.state.try_update_value(|s| {
            let st = s.as_mut().filter(|st| st.generation == generation)?;
            let (combo, spec) = st.round.get(job)?.clone();
            let result = match outcome {
                Outcome::Finished(r) => match *r {
                    AnyReport::MultiCluster(r) => Ok(RunResult::of(&r)),
                    _ => Err(JobError::Unexpected("a run gave another family's report")),
                },
                Outcome::Figure(_) => Err(JobError::Unexpected("a run gave a figure job's result")),
                Outcome::Failed(m) => Err(m),
            };
            st.study.add(combo, &spec, result);
            st.left -= 1;
            Some((st.left, st.round.len()))
        });
        let Some((left, n)) = left.flatten() else { return };
        self.status.set(format!("{} of {n} runs of this round in", n - left));
        if left > 0 {
            return;
        }
        let all_final = self.state.try_update_value(|s| {
            let st = s.as_mut()?;
            let done = st.study.end_round();
            Some((st.pool.take(), done, st.study.table()))
        });
        if let Some((pool, done, table)) = all_final.flatten() {
            // Called from a worker's own message handler: end the round's workers after it returns.
            set_timeout(move || drop(pool), std::time::Duration::ZERO);
            self.table.set(Some(table));
            if done {
                self.finish();
            } else {
                self.next_round(generation);
            }
        }
    }

    fn finish(self) {
        self.running.set(false);
        self.status.set("finished".into());
    }

    fn cancel(self) {
        if let Some(pool) = self.state.try_update_value(|s| s.take().and_then(|st| st.pool)).flatten() {
            pool.cancel();
        }
        if self.running.get_untracked() {
            self.running.set(false);
            self.status.set("cancelled".into());
        }
    }
}

/// The readings study of the paper figure chosen above.
#[component]
pub fn McReadings(#[prop(into)] figure: Signal<FigureId>, #[prop(into)] period: Signal<f64>) -> impl IntoView {
    let r = Readings {
        figure,
        period,
        key: RwSignal::new(READINGS[0].key.to_string()),
        auto: RwSignal::new(false),
        running: RwSignal::new(false),
        status: RwSignal::new(String::new()),
        table: RwSignal::new(None),
        state: StoredValue::new_local(None),
        generation: StoredValue::new_local(0),
    };
    Effect::new(move |_| {
        figure.track();
        r.cancel();
        r.table.set(None);
        r.status.set(String::new());
    });
    on_cleanup(move || r.cancel());
    view! {
        <div class="readings" id="mc-readings">
            <h3>"Which assumption carries this result?"</h3>
            <p class="paper-section">
                "Where the paper leaves a decision open, bagsim makes it a named reading ("
                <a href="docs/model.html#readings-the-decisions-the-paper-leaves-open" target="_blank">
                    "docs/model: Readings"
                </a>
                "). Run this figure's findings under every value of one reading, the default first; the other settings \
                    stay at their defaults. The same code as " <code>"bagsim reproduce FIG --readings KEY=all"</code>
                ". Verdicts on " {move || Base::of(&base_of_period(r.period.get())).name()}" (\"Runs of\" above)."
            </p>
            <div class="paper-bar">
                <label>
                    "Reading "
                    <select
                        id="mc-readings-key"
                        disabled=move || r.running.get()
                        on:change=move |ev| r.key.set(event_target_value(&ev))
                    >
                        {reading_options(READINGS, r.key)}
                    </select>
                </label>
                <label>
                    <input
                        type="checkbox"
                        id="mc-readings-auto"
                        disabled=move || r.running.get()
                        prop:checked=move || r.auto.get()
                        on:change=move |ev| r.auto.set(event_target_checked(&ev))
                    />
                    {format!(" add seeds until resolved (5 → {AUTO_CAP})")}
                </label>
                <button
                    id="mc-readings-run"
                    class="primary"
                    disabled=move || r.running.get()
                    on:click=move |_| r.start()
                >
                    "Run under each reading"
                </button>
                <button id="mc-readings-cancel" disabled=move || !r.running.get() on:click=move |_| r.cancel()>
                    "Cancel"
                </button>
                <span id="mc-readings-status" class="status" data-running=move || r.running.get().to_string()>
                    {move || r.status.get()}
                </span>
            </div>
            <p class="paper-section" id="mc-readings-rests">
                {move || rests_on(READINGS, &r.key.get())}
            </p>
            <ReadingsTableView table=r.table id="mc-readings-table" />
            <FlipsList table=r.table id="mc-readings-flips" />
        </div>
    }
}
