//! "Paper figures": the experiments of Iosup et al. 2008 §5 (Figures 3–11) run in the page's worker pool and drawn
//! live with the code of `bagsim reproduce` (`Figure::runs`, `RunResult::of`, `figure_svg`, `to_csv`, `claims`),
//! so the page and the CLI give the same bytes; next to the figure, the paper's setup and findings against ours.

use crate::family::multi_cluster::figures::claims::{claims, Claim};
use crate::family::multi_cluster::figures::measured::{measured, MEASURED_ON};
use crate::family::multi_cluster::figures::svg::figure_svg;
use crate::family::multi_cluster::figures::{
    base_of_period, Axis, Base, FigureId, FigureResult, RunResult, RunSpec, DEFAULT_SEEDS, PAGE_PERIODS,
};
use crate::registry::AnyReport;
use crate::ui::download;
use crate::ui::form::Refused;
use crate::ui::lab::now_ms;
use crate::ui::pool::{Job, OnDone, Outcome, Pool};
use crate::ui::readings::findings_rows;
use leptos::prelude::*;
use std::rc::Rc;
use std::time::Duration;

/// Seeds per point the page allows: more would keep a browser tab busy for hours (the CLI allows 100).
const MAX_SEEDS: u32 = 20;
/// While runs come in, the figure and the findings are recomputed at most this often, ms.
const REDRAW_MS: f64 = 250.0;

/// Where the figure's runs stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Idle,
    Running,
    Finished,
    Cancelled,
}

impl Phase {
    fn as_str(self) -> &'static str {
        match self {
            Phase::Idle => "idle",
            Phase::Running => "running",
            Phase::Finished => "finished",
            Phase::Cancelled => "cancelled",
        }
    }
}

/// The results and the workers, outside the reactive graph (large, and not Send).
struct State {
    result: FigureResult,
    specs: Vec<RunSpec>,
    pool: Option<Pool>,
    ticker: Option<IntervalHandle>,
    /// Which start the pool's reports belong to (a cancelled pool's late reports are ignored).
    generation: u32,
    started_ms: f64,
    last_draw: f64,
    draw_pending: bool,
}

/// The section's reactive state.
#[derive(Clone, Copy)]
struct Paper {
    figure: RwSignal<FigureId>,
    seeds: RwSignal<String>,
    /// Submission period of every run, s (one of `PAGE_PERIODS`).
    period: RwSignal<f64>,
    phase: RwSignal<Phase>,
    done: RwSignal<usize>,
    total: RwSignal<usize>,
    failures: RwSignal<Vec<String>>,
    elapsed: RwSignal<f64>,
    svg: RwSignal<String>,
    csv: RwSignal<String>,
    claims: RwSignal<Vec<Claim>>,
    /// Why nothing started (a worker could not be created).
    message: RwSignal<String>,
    /// The results and the workers; disposed with the section, which ends its workers.
    state: StoredValue<Option<State>, LocalStorage>,
}

/// Seeds per point from the input, or a message that says what is allowed.
fn parse_seeds(text: &str) -> Result<u32, Refused> {
    match text.trim().parse::<u32>() {
        Ok(n) if (1..=MAX_SEEDS).contains(&n) => Ok(n),
        _ => {
            Err(format!("Seeds per point must be a whole number from 1 to {MAX_SEEDS}; {:?} is not.", text.trim())
                .into())
        }
    }
}

fn figure_label(id: FigureId) -> String {
    format!("{} — {}", id.name().replace("fig", "Figure "), id.figure().title)
}

impl Paper {
    fn new() -> Self {
        Paper {
            figure: RwSignal::new(FigureId::Fig3),
            seeds: RwSignal::new(DEFAULT_SEEDS.to_string()),
            period: RwSignal::new(PAGE_PERIODS[0].0),
            phase: RwSignal::new(Phase::Idle),
            done: RwSignal::new(0),
            total: RwSignal::new(0),
            failures: RwSignal::new(Vec::new()),
            elapsed: RwSignal::new(0.0),
            svg: RwSignal::new(String::new()),
            csv: RwSignal::new(String::new()),
            claims: RwSignal::new(Vec::new()),
            message: RwSignal::new(String::new()),
            state: StoredValue::new_local(None),
        }
    }

    /// Ends the workers and the clock of the current runs, if any; the results so far stay.
    fn stop(self, phase: Phase) {
        let (pool, ticker, started) = self
            .state
            .try_update_value(|s| match s.as_mut() {
                Some(st) => (st.pool.take(), st.ticker.take(), Some(st.started_ms)),
                None => (None, None, None),
            })
            .unwrap_or((None, None, None));
        if let Some(t) = ticker {
            t.clear();
        }
        if let Some(started) = started.filter(|_| pool.is_some()) {
            self.elapsed.set((now_ms() - started) / 1000.0);
        }
        if let Some(pool) = pool {
            // Called from a worker's own message handler when the last run is in: end the workers after it returns.
            set_timeout(move || drop(pool), Duration::ZERO);
            self.phase.set(phase);
        }
    }

    /// Shows the chosen figure without results (what the runs will fill in).
    fn reset(self) {
        if self.phase.get_untracked() == Phase::Running {
            return;
        }
        let seeds = parse_seeds(&self.seeds.get_untracked()).unwrap_or(DEFAULT_SEEDS);
        let base = base_of_period(self.period.get_untracked());
        let result = FigureResult::new(self.figure.get_untracked().figure(), seeds).on_base(&base);
        self.total.set(result.total());
        self.state.update_value(|s| {
            let generation = s.as_ref().map_or(0, |st| st.generation);
            *s = Some(State {
                result,
                specs: Vec::new(),
                pool: None,
                ticker: None,
                generation,
                started_ms: now_ms(),
                last_draw: 0.0,
                draw_pending: false,
            });
        });
        self.phase.set(Phase::Idle);
        self.done.set(0);
        self.failures.set(Vec::new());
        self.elapsed.set(0.0);
        self.draw();
    }

    fn start(self) {
        self.message.set(String::new());
        let seeds = match parse_seeds(&self.seeds.get_untracked()) {
            Ok(s) => s,
            Err(e) => {
                self.message.set(e.to_string());
                return;
            }
        };
        self.stop(Phase::Cancelled);
        self.phase.set(Phase::Idle);
        self.reset();
        let figure = self.figure.get_untracked().figure();
        let specs = figure.runs_on(&base_of_period(self.period.get_untracked()), 1..=seeds);
        let jobs = specs.iter().map(|s| Job::Run(Box::new(s.scenario.clone().into()))).collect();
        let generation = self.state.with_value(|s| s.as_ref().map_or(0, |st| st.generation)) + 1;
        let on_done: OnDone = Rc::new(move |job, outcome| self.on_done(generation, job, outcome));
        let pool = match Pool::start(jobs, on_done) {
            Ok(pool) => pool,
            Err(e) => {
                self.message.set(e.to_string());
                return;
            }
        };
        let started_ms = now_ms();
        let ticker = set_interval_with_handle(
            move || self.elapsed.set((now_ms() - started_ms) / 1000.0),
            Duration::from_millis(500),
        )
        .ok();
        self.state.update_value(|s| {
            if let Some(st) = s.as_mut() {
                st.specs = specs;
                st.pool = Some(pool);
                st.ticker = ticker;
                st.generation = generation;
                st.started_ms = started_ms;
            }
        });
        self.phase.set(Phase::Running);
    }

    fn on_done(self, generation: u32, job: usize, outcome: Outcome) {
        let counts = self.state.try_update_value(|s| {
            let st = s.as_mut().filter(|st| st.generation == generation && st.pool.is_some())?;
            let spec = st.specs.get(job)?;
            match outcome {
                Outcome::Finished(report) => match *report {
                    AnyReport::MultiCluster(r) => st.result.add(spec, RunResult::of(&r)),
                    _ => st.result.failures.push("a run gave another family's report".into()),
                },
                Outcome::Figure(_) => st.result.failures.push("a run gave a figure job's result".into()),
                Outcome::Failed(message) => {
                    let f = &st.result.figure;
                    let at = if f.axis == Axis::SizeClass {
                        String::new()
                    } else {
                        format!(" at {}", f.x_names[spec.point])
                    };
                    let what = format!("{}{at}, seed {}: {message}", f.series[spec.series], spec.seed);
                    st.result.failures.push(what);
                }
            }
            Some((st.result.done(), st.result.failures.clone(), st.result.total()))
        });
        let counts = counts.flatten();
        let Some((done, failures, total)) = counts else { return };
        let all_in = done + failures.len() >= total;
        // The figure and the CSV first, so that whoever sees `done == total` reads the final CSV.
        self.redraw(all_in);
        self.failures.set(failures);
        self.done.set(done);
        if all_in {
            self.stop(Phase::Finished);
        }
    }

    /// Redraws now when forced or when the last redraw is old enough, else once, a little later.
    fn redraw(self, force: bool) {
        let now = now_ms();
        let wait = self.state.try_update_value(|s| {
            let st = s.as_mut()?;
            if force || (!st.draw_pending && now - st.last_draw >= REDRAW_MS) {
                st.last_draw = now;
                Some(None)
            } else if st.draw_pending {
                None
            } else {
                st.draw_pending = true;
                Some(Some(REDRAW_MS - (now - st.last_draw)))
            }
        });
        let wait = wait.flatten();
        match wait {
            Some(None) => self.draw(),
            Some(Some(ms)) => set_timeout(
                move || {
                    self.state.try_update_value(|s| {
                        if let Some(st) = s.as_mut() {
                            st.draw_pending = false;
                            st.last_draw = now_ms();
                        }
                    });
                    self.draw();
                },
                Duration::from_millis(ms.max(0.0) as u64),
            ),
            None => {}
        }
    }

    fn draw(self) {
        let drawn = self
            .state
            .try_with_value(|s| s.as_ref().map(|st| (figure_svg(&st.result), st.result.to_csv(), claims(&st.result))))
            .flatten();
        if let Some((svg, csv, found)) = drawn {
            self.svg.set(svg);
            self.csv.set(csv);
            self.claims.set(found);
        }
    }
}

fn download(p: Paper, csv: bool) {
    let file = p.state.with_value(|s| {
        s.as_ref().map(|st| {
            let name = st.result.figure.id.name();
            if csv {
                (format!("bagsim-{name}.csv"), "text/csv", st.result.to_csv())
            } else {
                (format!("bagsim-{name}.svg"), "image/svg+xml", figure_svg(&st.result))
            }
        })
    });
    if let Some((name, mime, text)) = file {
        download::text(&name, mime, &text);
    }
}

/// The section: picker, seeds, Run and Cancel, the live figure, and the "Paper and bagsim" panel.
/// What a finding left open says (`stats::Parting`).
const RESOLVE: &str = "A finding \"not resolved\" names the intervals that overlap and what would resolve it: about \
    how many seeds per point would part them if their means and spreads held (the seeds field above), or that more \
    seeds alone would not.";

#[component]
pub fn PaperFigures() -> impl IntoView {
    let p = Paper::new();
    p.reset();
    let running = move || p.phase.get() == Phase::Running;
    let seeds_error = move || parse_seeds(&p.seeds.get()).err().map(|e| e.to_string());
    let status = move || {
        let failed = p.failures.with(Vec::len);
        let state = match p.phase.get() {
            Phase::Idle => String::new(),
            phase => format!(" — {}", phase.as_str()),
        };
        format!("{} / {} runs done, {:.1} s, {failed} failed{state}", p.done.get(), p.total.get(), p.elapsed.get())
    };
    let figure = move || p.figure.get().figure();
    view! {
        <section class="paper" id="paper" aria-labelledby="paper-title">
            <h2 id="paper-title">
                "Paper figures "
                <span class="subtitle">
                    "— rerun the experiments of Iosup et al. 2008 (§5, Figures 3–11) here, with several seeds per \
                        point and 95% confidence intervals"
                </span>
            </h2>
            <div class="paper-bar">
                <label>
                    "Figure "
                    <select
                        id="paper-figure"
                        disabled=running
                        on:change=move |ev| {
                            if let Ok(id) = event_target_value(&ev).parse::<FigureId>() {
                                p.figure.set(id);
                                p.reset();
                            }
                        }
                    >
                        {FigureId::ALL
                            .into_iter()
                            .map(|id| {
                                view! {
                                    <option value=id.name() selected=move || p.figure.get() == id>
                                        {figure_label(id)}
                                    </option>
                                }
                            })
                            .collect_view()}
                    </select>
                </label>
                <label>
                    "Seeds per point "
                    <input
                        id="paper-seeds"
                        type="number"
                        min="1"
                        max=MAX_SEEDS.to_string()
                        step="1"
                        disabled=running
                        prop:value=move || p.seeds.get()
                        on:input=move |ev| {
                            p.seeds.set(event_target_value(&ev));
                            if parse_seeds(&p.seeds.get_untracked()).is_ok() {
                                p.reset();
                            }
                        }
                    />
                </label>
                <label>
                    "Runs of "
                    <select
                        id="paper-period"
                        disabled=running
                        on:change=move |ev| {
                            if let Ok(v) = event_target_value(&ev).parse::<f64>() {
                                p.period.set(v);
                                p.reset();
                            }
                        }
                    >
                        {PAGE_PERIODS
                            .into_iter()
                            .map(|(v, label)| {
                                view! {
                                    <option value=v.to_string() selected=move || p.period.get() == v>
                                        {label}
                                    </option>
                                }
                            })
                            .collect_view()}
                    </select>
                </label>
                <button
                    id="paper-run"
                    class="primary"
                    disabled=move || running() || seeds_error().is_some()
                    on:click=move |_| p.start()
                >
                    "Run"
                </button>
                <button id="paper-cancel" disabled=move || !running() on:click=move |_| p.stop(Phase::Cancelled)>
                    "Cancel"
                </button>
                <span
                    id="paper-status"
                    class=move || format!("status {}", p.phase.get().as_str())
                    data-done=move || p.done.get().to_string()
                    data-total=move || p.total.get().to_string()
                    data-failed=move || p.failures.with(Vec::len).to_string()
                    data-state=move || p.phase.get().as_str()
                >
                    {status}
                </span>
                <button id="paper-download-csv" class="small" on:click=move |_| download(p, true)>
                    "CSV"
                </button>
                <button id="paper-download-svg" class="small" on:click=move |_| download(p, false)>
                    "SVG"
                </button>
            </div>
            <div class="field-error" id="paper-error">
                {move || seeds_error().unwrap_or_else(|| p.message.get())}
            </div>
            {move || {
                p.failures
                    .with(|f| {
                        f.first()
                            .map(|first| {
                                view! {
                                    <div class="paper-failed">
                                        {format!(
                                            "{} run(s) failed and are left out of the figure; the first: {first}",
                                            f.len(),
                                        )}
                                    </div>
                                }
                            })
                    })
            }}
            <div class="paper-body">
                <div id="paper-svg" class="paper-svg" inner_html=move || p.svg.get()></div>
                <div class="paper-panel">
                    <h3>"Paper and bagsim"</h3>
                    <table class="paper-setup">
                        <thead>
                            <tr>
                                <th>"The paper's setup"</th>
                                <th>"Ours"</th>
                            </tr>
                        </thead>
                        <tbody>
                            <tr>
                                <td>{move || figure().paper_setup}</td>
                                <td>{move || figure().our_setup}</td>
                            </tr>
                        </tbody>
                    </table>
                    <p class="paper-note" id="paper-conflict">
                        "Two sentences of the paper cannot both hold here. Its workloads have \"between 20,000 and \
                            175,000 tasks\" (§4.2), yet the task-selection policy matters \"for loads of 50% and \
                            higher\" (§5.4), which needs tasks to wait. Runtimes long enough for those counts never \
                            queue on a platform of this size, so bagsim reads Table 3's N(2.73, 6.1) with 6.1 as a \
                            variance: tasks wait from 70% load, and a month holds 1.5–7.5 million tasks. The readings \
                            panel runs the other readings; docs/model.md, \"Which runtime reading\"."
                    </p>
                    <p class="paper-section">
                        "Iosup et al. 2008, " {move || figure().section}
                        ". Each point: the mean over the seeds with its 95% t-interval; an ordering counts only where \
                            the intervals are apart."
                    </p>
                    <p class="paper-note" id="paper-provisional">
                        {move || {
                            let (done, total, failed) = (p.done.get(), p.total.get(), p.failures.with(Vec::len));
                            let seeds = parse_seeds(&p.seeds.get()).unwrap_or(DEFAULT_SEEDS);
                            let one = if seeds < 2 {
                                " With one seed per point there are no intervals, so orderings stay \"not resolved\"."
                            } else {
                                ""
                            };
                            if done == 0 {
                                format!("No runs in yet: press Run.{one}")
                            } else if done + failed < total {
                                format!("Provisional: {done} of {total} runs in; the verdicts may still change.{one}")
                            } else {
                                format!("All runs in ({done} of {total}).{one}")
                            }
                        }}
                    </p>
                    <p
                        class="paper-note"
                        id="paper-base"
                        data-base=move || Base::of(&base_of_period(p.period.get())).name()
                    >
                        {move || {
                            let base = Base::of(&base_of_period(p.period.get()));
                            let cli = if base == Base::Month {
                                ""
                            } else {
                                " These are the quick base's verdicts: `bagsim figure multi_cluster` and docs/model.md \
                                    judge on the month, the first choice of \"Runs of\"."
                            };
                            format!("Verdicts on {}.{cli} {RESOLVE}", base.name())
                        }}
                    </p>
                    <table class="paper-claims" id="paper-claims">
                        <thead>
                            <tr>
                                <th>"The paper reports"</th>
                                <th>"bagsim"</th>
                                <th>"Verdict"</th>
                            </tr>
                        </thead>
                        <tbody>
                            {move || {
                                let waiting = (p.done.get() == 0).then(|| "no runs in yet".to_string());
                                findings_rows(p.claims.get(), waiting, Some("mc-readings"))
                            }}
                        </tbody>
                    </table>
                </div>
            </div>
            <details class="paper-measured" id="paper-measured">
                <summary>
                    "Claim by claim: this figure's findings as measured on the CLI's base, and the readings that flip \
                        them"
                </summary>
                <p class="paper-section">
                    {MEASURED_ON.trim()}" The same table, for every figure: "
                    <a href="docs/model.html#claim-by-claim" target="_blank">
                        "docs/model: Claim by claim"
                    </a>"."
                </p>
                <table class="paper-claims" id="paper-measured-table">
                    <thead>
                        <tr>
                            <th>"The paper reports"</th>
                            <th>"Readings that give another verdict"</th>
                            <th>"Verdict"</th>
                        </tr>
                    </thead>
                    <tbody>{move || findings_rows(measured(p.figure.get()), None, None)}</tbody>
                </table>
            </details>
            <super::readings::McReadings figure=p.figure period=p.period />
            <pre id="paper-csv" hidden>
                {move || p.csv.get()}
            </pre>
        </section>
    }
}
