//! The experiments of [Liu10] §IV on the page: a figure's runs (every scheme under each setting, over seeds) on the
//! page's pool of workers, its bars with 95% intervals and the paper's findings with verdicts, computed by the
//! family's own figure code (`family::data_grid::figures`, which `bagsim dd-figure` runs too).

use super::cfg_of;
use crate::family::data_grid::figures::{figures, FigureResult};
use crate::family::data_grid::Scheme;
use crate::registry::AnyReport;
use crate::registry::Scenario;
use crate::stats::Claim;
use crate::ui::pool::{Job, OnDone, Outcome, Pool};
use crate::ui::readings::findings_rows;
use leptos::prelude::*;
use std::cell::RefCell;
use std::rc::Rc;

/// Seeds per bar on the page (the CLI's default is 5).
const SEEDS: u64 = 3;

/// The "Paper figures" panel of the data-grid family.
#[component]
pub fn DdFigures(scenario: Signal<Scenario>) -> impl IntoView {
    // The workers computing what is shown; dropping the pool (or leaving the family, which disposes this) ends them.
    let pool = StoredValue::new_local(None::<Pool>);
    let number = RwSignal::new(4u32);
    // values[group][scheme][seed − 1], for the figure run last (None until that run is in). By seed, not in the
    // order the runs come back: the pool's workers finish them in any order, and a mean summed in another order
    // can differ in its last bit from the CLI's.
    let values: RwSignal<Vec<[Vec<Option<f64>>; 3]>> = RwSignal::new(Vec::new());
    let shown = RwSignal::new(None::<u32>);
    let status = RwSignal::new(String::new());
    let start = move |_| {
        let n = number.get_untracked();
        let all = figures();
        let Some(f) = all.iter().find(|f| f.number == n) else { return };
        let base = scenario.with_untracked(|s| (s.clone(), cfg_of(s)));
        let mut specs = Vec::new();
        let mut jobs = Vec::new();
        for g in 0..f.groups.len() {
            for (k, &scheme) in Scheme::ALL.iter().enumerate() {
                for seed in 1..=SEEDS {
                    let mut s = base.0.clone();
                    s.set_seed(seed);
                    if let Some(d) = s.data_grid_mut() {
                        d.data_grid = f.config(&base.1, g, &scheme.into());
                    }
                    specs.push((g, k, seed as usize - 1));
                    jobs.push(Job::Run(Box::new(s)));
                }
            }
        }
        let total = jobs.len();
        values.set((0..f.groups.len()).map(|_| std::array::from_fn(|_| vec![None; SEEDS as usize])).collect());
        shown.set(Some(n));
        status.set(format!("running {total} runs…"));
        let metric = f.metric;
        let done = Rc::new(RefCell::new(0usize));
        let on_done: OnDone = Rc::new(move |i, outcome| {
            let (g, k, seed) = specs[i];
            match outcome {
                Outcome::Finished(r) => {
                    if let AnyReport::DataGrid(r) = *r {
                        values.update(|v| v[g][k][seed] = Some(metric.of(&r)));
                    }
                }
                Outcome::Failed(m) => status.set(format!("a run failed: {m}")),
                Outcome::Figure(_) => {}
            }
            *done.borrow_mut() += 1;
            let d = *done.borrow();
            if d == total {
                status.set(format!("finished: {total} runs"));
            } else {
                status.set(format!("{d} of {total} runs"));
            }
        });
        pool.try_update_value(Option::take);
        match Pool::start(jobs, on_done) {
            Ok(p) => pool.set_value(Some(p)),
            Err(e) => status.set(e.to_string()),
        }
    };
    let table = move || {
        let n = shown.get()?;
        let all = figures();
        let f = all.into_iter().find(|f| f.number == n)?;
        values.with(|v| {
            // The values in, in seed order.
            let v: Vec<Vec<Vec<f64>>> =
                v.iter().map(|g| g.iter().map(|s| s.iter().flatten().copied().collect()).collect()).collect();
            if v.iter().any(|g| g.iter().any(|s| s.len() < 2)) {
                return None;
            }
            let r = FigureResult::of(&f, &v);
            let rows = r
                .bars
                .iter()
                .zip(&f.groups)
                .map(|(bars, g)| {
                    view! {
                        <tr>
                            <th scope="row">{g.0}</th>
                            {bars
                                .iter()
                                .zip(Scheme::ALL)
                                .map(|(i, s)| {
                                    view! {
                                        <td data-scheme=s.name() data-mean=i.mean.to_string()>
                                            {format!("{:.4} ({:.4} – {:.4})", i.mean, i.low, i.high)}
                                        </td>
                                    }
                                })
                                .collect_view()}
                        </tr>
                    }
                })
                .collect_view();
            let claims: Vec<Claim> =
                r.claims().into_iter().map(|(paper, ours, verdict)| Claim { paper, ours, verdict }).collect();
            Some(view! {
                <table id="dd-figure-table">
                    <caption>
                        {format!(
                            "Fig. {}: {} ({}), mean (95% interval) over {SEEDS} seeds",
                            f.number,
                            f.caption,
                            f.metric.title(),
                        )}
                    </caption>
                    <thead>
                        <tr>
                            <th scope="col">"setting"</th>
                            {Scheme::ALL.iter().map(|s| view! { <th scope="col">{s.label()}</th> }).collect_view()}
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
                <table class="paper-claims readings-table" id="dd-figure-claims">
                    <caption>"Paper and bagsim: the findings of §IV this figure can test"</caption>
                    <thead>
                        <tr>
                            <th scope="col">"The paper reports"</th>
                            <th scope="col">"bagsim"</th>
                            <th scope="col">"Verdict"</th>
                        </tr>
                    </thead>
                    <tbody>{findings_rows(claims, None, None)}</tbody>
                </table>
            })
        })
    };
    view! {
        <details class="dd-figures" id="dd-figures">
            <summary>"Paper figures (Liu et al. 2010, §IV)"</summary>
            <p class="help">
                "Figs. 4–9 of Liu et al. 2010 on the bundled HPC2N log; the paper used the CTC log (Figs. 10–11: \
                    SDSC), so numbers differ and only the findings are compared. An ordering counts only where the 95% \
                    intervals are apart."
            </p>
            <div class="field">
                <label for="dd-figure">"Figure"</label>
                <select
                    id="dd-figure"
                    prop:value=move || number.get().to_string()
                    on:change=move |ev| number.set(event_target_value(&ev).parse().unwrap_or(4))
                >
                    {figures()
                        .into_iter()
                        .map(|f| {
                            view! {
                                <option value=f
                                    .number
                                    .to_string()>{format!("Fig. {}: {}", f.number, f.caption)}</option>
                            }
                        })
                        .collect_view()}
                </select>
            </div>
            <button id="dd-figure-run" on:click=start>
                "Run the figure"
            </button>
            <span id="dd-figure-status" role="status">
                {move || status.get()}
            </span>
            {table}
        </details>
    }
}
