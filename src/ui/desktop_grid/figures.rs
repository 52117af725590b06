//! The desktop-grid paper figures (Anglano & Canonico 2009, §IV-C, Figs. 2–17) on the page: each bar (a mix and a
//! BoT selection policy) runs in a pool worker through `figures::run_bar`, the code and confidence rule of
//! `bagsim dg-figure` (95% intervals within 2.5% of the mean, seeds added up to a cap); bars grouped per mix, one
//! per policy, "unbounded" for saturated bars. Below them, every finding sentence of §IV-C as measured on the
//! defaults (`measured.tsv`, the table of docs/desktop_grid.md "Claim by claim").

use crate::family::desktop_grid::figures::claims::claims;
use crate::family::desktop_grid::figures::measured::{rows, MEASURED_ON, NONE, TALLIES};
use crate::family::desktop_grid::figures::svg::{chart, INDICES};
use crate::family::desktop_grid::figures::{figures, Bar, BarJob, CiRule};
use crate::family::desktop_grid::policy::BotSelection;
use crate::registry::AnyFigureJob;
use crate::registry::Scenario;
use crate::ui::pool::{Job, JobError, OnDone, Pool};
use crate::ui::readings::{badge, findings_rows};
use leptos::prelude::*;
use std::rc::Rc;

/// The "Paper figures" panel of the desktop-grid family.
#[component]
pub fn DgFigures(scenario: Signal<Scenario>) -> impl IntoView {
    // The workers computing what is shown; dropping the pool (or leaving the family, which disposes this) ends them.
    let pool = StoredValue::new_local(None::<Pool>);
    let all = figures();
    let chosen = RwSignal::new(2u32);
    let index = RwSignal::new(0usize);
    let cap = RwSignal::new(CiRule::default().max_seeds);
    let bars: RwSignal<Vec<Option<Result<Bar, JobError>>>> = RwSignal::new(Vec::new());
    let shown_figure = RwSignal::new(None::<u32>);
    let status = RwSignal::new(String::new());
    let cap_error = RwSignal::new(String::new());
    let start = move |_| {
        let Some(f) = figures().into_iter().find(|f| f.number == chosen.get_untracked()) else { return };
        let base = scenario.with_untracked(|s| s.desktop_grid().map(|d| d.desktop_grid.clone()).unwrap_or_default());
        let rule = CiRule { max_seeds: cap.get_untracked(), ..CiRule::default() };
        let jobs: Vec<Job> = f
            .mixes
            .iter()
            .flat_map(|&mix| BotSelection::ALL.iter().map(move |&policy| (mix, policy)))
            .map(|(mix, policy)| {
                let bar = BarJob { figure: f.number, mix, policy: policy.into(), base: base.clone(), rule };
                Job::Figure(AnyFigureJob::DesktopGrid(Box::new(bar)))
            })
            .collect();
        let n = jobs.len();
        bars.set(vec![None; n]);
        shown_figure.set(Some(f.number));
        status.set(format!("0 of {n} bars computed…"));
        let on_done: OnDone = Rc::new(move |i, outcome| {
            let r = outcome.figure().and_then(|r| r.bar().ok_or(JobError::Unexpected("not a bar")));
            bars.update(|b| {
                if let Some(slot) = b.get_mut(i) {
                    *slot = Some(r);
                }
            });
            let (done, failed) = bars.with_untracked(|b| {
                (b.iter().filter(|x| x.is_some()).count(), b.iter().filter(|x| matches!(x, Some(Err(_)))).count())
            });
            let failed = if failed > 0 { format!(" ({failed} failed)") } else { String::new() };
            if done == n {
                status.set(format!("finished: {n} bars{failed}"));
                // Ends the workers after this handler returns.
                leptos::task::spawn_local(async move {
                    pool.try_update_value(Option::take);
                });
            } else {
                status.set(format!("{done} of {n} bars computed…{failed}"));
            }
        });
        pool.try_update_value(Option::take);
        match Pool::start(jobs, on_done) {
            Ok(p) => pool.set_value(Some(p)),
            Err(e) => status.set(e.to_string()),
        }
    };
    let cancel = move |_| {
        pool.try_update_value(Option::take);
        status.set("cancelled".into());
    };
    let svg = move || {
        let n = shown_figure.get()?;
        let f = figures().into_iter().find(|f| f.number == n)?;
        Some(bars.with(|b| chart(&f, b, index.get()).svg()))
    };
    let csv_rows = move || {
        bars.with(|b| {
            b.iter()
                .flatten()
                .flatten()
                .map(|b| {
                    let (_, _, pick, scale, unit, can_be_unbounded) = INDICES[index.get()];
                    let (m, low, high) = pick(b);
                    let value = if can_be_unbounded && b.unbounded {
                        "unbounded".to_string()
                    } else {
                        format!("{:.3} ({:.3} – {:.3}) {unit}", m * scale, low * scale, high * scale)
                    };
                    view! {
                        <tr
                            data-mix=b.mix.name()
                            data-policy=b.policy.name()
                            data-mean=m.to_string()
                            data-seeds=b.seeds.to_string()
                            data-unbounded=b.unbounded.to_string()
                        >
                            <td>{b.mix.label()}</td>
                            <td>{b.policy.label()}</td>
                            <td>{value}</td>
                            <td>{b.seeds}{if b.cap_hit { " (cap)" } else { "" }}</td>
                            <td>{format!("{} ({} of {} seeds)", b.saturation.label(), b.saturated_seeds, b.seeds)}</td>
                        </tr>
                    }
                })
                .collect_view()
        })
    };
    let findings = move || {
        let n = shown_figure.get()?;
        let f = figures().into_iter().find(|f| f.number == n)?;
        let done: Vec<Bar> =
            bars.with(|b| b.iter().all(Option::is_some).then(|| b.iter().flatten().flatten().cloned().collect()))?;
        let rows = findings_rows(claims(&f, &done), None, Some("dg-readings"));
        Some(view! {
            <table class="readings-table" id="dg-figure-claims">
                <caption>"Paper and bagsim: the findings of §IV-C this figure can test"</caption>
                <thead>
                    <tr>
                        <th>"The paper reports"</th>
                        <th>"bagsim"</th>
                        <th>"Verdict"</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        })
    };
    view! {
        <details class="dg-figures" id="dg-figures">
            <summary>"Paper figures (Anglano & Canonico 2009, §IV-C)"</summary>
            <p class="help">
                "Each bar is a task mix and a BoT selection policy on the figure's configuration, with the other \
                    settings of the controls (number of BoTs, checkpoints, …). Seeds are added until every 95% \
                    confidence interval is within 2.5% of its mean, as in the paper, up to the cap; a bar is \
                    \"unbounded\" when the 95% interval of its seeds' queue growth lies above one BoT in ten ("
                <a href="docs/desktop_grid.html#saturation-of-a-bar-a-test-over-the-seeds" target="_blank">
                    "docs/desktop_grid: Saturation"
                </a> "), and its execution makespan is still shown. The same code as " <code>"bagsim dg-figure"</code>
                "."
            </p>
            <div class="field">
                <label for="dg-figure">"Figure"</label>
                <select
                    id="dg-figure"
                    on:change=move |ev| {
                        if let Ok(n) = event_target_value(&ev).parse() {
                            chosen.set(n)
                        }
                    }
                >
                    {all
                        .iter()
                        .map(|f| {
                            view! {
                                <option value=f.number.to_string()>{format!("Fig. {}: {}", f.number, f.title)}</option>
                            }
                        })
                        .collect_view()}
                </select>
            </div>
            <div class="field">
                <label for="dg-figure-index">"Index shown"</label>
                <select
                    id="dg-figure-index"
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        if let Some(i) = INDICES.iter().position(|x| x.0 == v) {
                            index.set(i)
                        }
                    }
                >
                    {INDICES.iter().map(|x| view! { <option value=x.0>{x.1}</option> }).collect_view()}
                </select>
            </div>
            <div class="field">
                <label for="dg-figure-cap">"Most seeds per bar"</label>
                <input
                    type="number"
                    id="dg-figure-cap"
                    min="3"
                    max="30"
                    step="1"
                    prop:value=move || cap.get().to_string()
                    on:change=move |ev| {
                        match event_target_value(&ev).trim().parse::<usize>() {
                            Ok(v) if (3..=30).contains(&v) => {
                                cap.set(v);
                                cap_error.set(String::new())
                            }
                            _ => {
                                cap_error
                                    .set("a whole number from 3 to 30 (the paper's rule needs at least 3 seeds)".into())
                            }
                        }
                    }
                />
                <div class="field-error" data-field="dg-figure-cap">
                    {move || cap_error.get()}
                </div>
            </div>
            <button id="dg-figure-run" on:click=start>
                "Run figure"
            </button>
            " "
            <button id="dg-figure-cancel" class="small" on:click=cancel>
                "Cancel"
            </button>
            <p id="dg-figure-status" aria-live="polite">
                {move || status.get()}
            </p>
            <div class="dg-figure-svg" id="dg-figure-svg" inner_html=move || svg().unwrap_or_default()></div>
            <table class="dg-figure-table">
                <caption>"The bars as numbers (mean, 95% interval)"</caption>
                <thead>
                    <tr>
                        <th>"Mix"</th>
                        <th>"Policy"</th>
                        <th>"Value"</th>
                        <th>"Seeds"</th>
                        <th>"Saturation (seeds saturated)"</th>
                    </tr>
                </thead>
                <tbody>{csv_rows}</tbody>
            </table>
            {findings}
            <super::readings::DgReadings figure=chosen scenario=scenario cap=cap />
            <MeasuredClaims />
        </details>
    }
}

/// Every finding sentence of §IV-C as measured on the defaults, with the readings that flip it: the table
/// docs/desktop_grid.md prints ("Claim by claim"), from the same data.
#[component]
fn MeasuredClaims() -> impl IntoView {
    let body = rows()
        .into_iter()
        .map(|r| {
            let class = r.verdict().map_or("badge unresolved", badge);
            let before = (r.before != NONE).then(|| format!(" (before: {})", r.before));
            view! {
                <tr data-id=r.id data-verdict=r.verdict>
                    <th scope="row">{r.label()}</th>
                    <td class="quote">{r.sentence}</td>
                    <td>{r.checked_in}</td>
                    <td>
                        <span class=class>{r.verdict}</span>
                        {before}
                    </td>
                    <td>{r.flipped_by}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <section class="readings" id="dg-measured">
            <h3>"Claim by claim: every finding of [Anglano09] §IV-C"</h3>
            <p class="paper-note" id="dg-measured-base">
                "Measured on the defaults, not on the controls above; the figure you run gives its own verdicts."
            </p>
            <p class="paper-section">{MEASURED_ON.trim()}" Tallies "{TALLIES.trim()}</p>
            <p class="paper-section">
                "\"Checked in\": the figures whose findings test the sentence and the verdict in each (A agrees, D \
                    disagrees, ? not resolved after 10 seeds); over several figures a sentence agrees when it agrees \
                    in all and disagrees when it disagrees in any. \"Flipped by\": reading=value→verdict (figures). "
                <code>"one_replica"</code>", "<code>"unreplicated"</code>" and "<code>"blocking"</code>
                " are ruled out by logic and listed only to show what they carry. "
                <a href="docs/desktop_grid.html#claim-by-claim-issue-42" target="_blank">
                    "docs/desktop_grid: Claim by claim"
                </a>" says what the table shows."
            </p>
            <div class="table-scroll">
                <table class="paper-claims readings-table" id="dg-measured-table">
                    <thead>
                        <tr>
                            <th scope="col">"Finding"</th>
                            <th scope="col">"The paper reports (§IV-C)"</th>
                            <th scope="col">"Checked in"</th>
                            <th scope="col">"Verdict (before issue #42)"</th>
                            <th scope="col">"Flipped by"</th>
                        </tr>
                    </thead>
                    <tbody>{body}</tbody>
                </table>
            </div>
        </section>
    }
}
