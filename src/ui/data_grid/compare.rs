//! The three metascheduling schemes of [Liu10] §IV side by side: the scenario shown, run once under each scheme on
//! the page's pool of workers (the same seed, so the same jobs, data and bandwidths), as a table and bars.

use super::{cfg_of, dg};
use crate::family::data_grid::{DdReport, Scheme};
use crate::registry::AnyReport;
use crate::registry::Scenario;
use crate::ui::lab::fmt_time;
use crate::ui::pool::{Job, OnDone, Outcome, Pool};
use leptos::prelude::*;
use std::rc::Rc;

/// One scheme's figures: average and worst turnaround, average waiting, utilization.
#[derive(Clone, Debug, PartialEq)]
struct Row {
    scheme: Scheme,
    mean_tt: f64,
    worst_tt: f64,
    mean_wait: f64,
    utilization: f64,
}

impl Row {
    fn of(scheme: Scheme, r: &DdReport) -> Row {
        let m = &r.metrics;
        Row {
            scheme,
            mean_tt: m.turnaround.mean,
            worst_tt: m.turnaround.max,
            mean_wait: m.waiting.mean,
            utilization: m.utilization,
        }
    }
}

/// Bars of the average turnaround per scheme, as SVG (the longest bar fills the width).
fn bars_svg(rows: &[Row]) -> String {
    let max = rows.iter().map(|r| r.mean_tt).fold(0.0, f64::max).max(1e-9);
    let height = 44 * rows.len() + 10;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"{height}\" viewBox=\"0 0 640 {height}\" \
         style=\"max-width: 100%\" role=\"img\" aria-label=\"average turnaround per scheme\">"
    );
    // Each scheme's words above its bar, so that a long label never runs into the bar.
    for (i, r) in rows.iter().enumerate() {
        let y = 10 + 44 * i;
        let w = 480.0 * r.mean_tt / max;
        svg.push_str(&format!(
            "<text x=\"0\" y=\"{}\" font-size=\"13\">{}</text>\
             <rect x=\"0\" y=\"{}\" width=\"{w:.1}\" height=\"18\" fill=\"#1f77b4\"/>\
             <text x=\"{:.1}\" y=\"{}\" font-size=\"12\">{}</text>",
            y + 12,
            r.scheme.label(),
            y + 18,
            6.0 + w,
            y + 32,
            fmt_time(r.mean_tt)
        ));
    }
    svg.push_str("</svg>");
    svg
}

/// "Run the three schemes" and its table.
#[component]
pub fn Compare(scenario: Signal<Scenario>) -> impl IntoView {
    // The workers computing what is shown; dropping the pool (or leaving the family, which disposes this) ends them.
    let pool = StoredValue::new_local(None::<Pool>);
    let rows: RwSignal<Vec<Option<Row>>> = RwSignal::new(Vec::new());
    let status = RwSignal::new(String::new());
    let start = move |_| {
        let base = scenario.get_untracked();
        let schemes = Scheme::ALL;
        let jobs = schemes
            .iter()
            .map(|&scheme| {
                let mut s = base.clone();
                if let Ok(d) = dg(&mut s) {
                    d.scheme = scheme.into();
                }
                Job::Run(Box::new(s))
            })
            .collect();
        rows.set(vec![None; schemes.len()]);
        status.set(format!("running the {} schemes…", schemes.len()));
        let on_done: OnDone = Rc::new(move |i, outcome| {
            match outcome {
                Outcome::Finished(r) => {
                    if let AnyReport::DataGrid(r) = *r {
                        rows.update(|rows| rows[i] = Some(Row::of(schemes[i], &r)));
                    }
                }
                Outcome::Failed(m) => status.set(format!("{}: {m}", schemes[i].name())),
                Outcome::Figure(_) => {}
            }
            if rows.with_untracked(|r| r.iter().all(Option::is_some)) {
                status.set("done: the same jobs, data and bandwidths under each scheme".into());
            }
        });
        pool.try_update_value(Option::take);
        match Pool::start(jobs, on_done) {
            Ok(p) => pool.set_value(Some(p)),
            Err(e) => status.set(e.to_string()),
        }
    };
    let table = move || {
        rows.with(|rows| {
            rows.iter()
                .flatten()
                .map(|r| {
                    view! {
                        <tr data-scheme=r.scheme.name()>
                            <th scope="row">{r.scheme.label()}</th>
                            <td data-value=r.mean_tt.to_string()>{fmt_time(r.mean_tt)}</td>
                            <td data-value=r.worst_tt.to_string()>{fmt_time(r.worst_tt)}</td>
                            <td data-value=r.mean_wait.to_string()>{fmt_time(r.mean_wait)}</td>
                            <td data-value=r.utilization.to_string()>{format!("{:.1}%", 100.0 * r.utilization)}</td>
                        </tr>
                    }
                })
                .collect_view()
        })
    };
    let svg = move || rows.with(|rows| bars_svg(&rows.iter().flatten().cloned().collect::<Vec<_>>()));
    let share = move || scenario.with(|s| cfg_of(s).data_share);
    view! {
        <section class="dd-compare" id="dd-compare" aria-label="the three schemes">
            <h2>"The three schemes on these jobs"</h2>
            <p class="help">
                {move || {
                    format!(
                        "Liu et al. 2010 (§IV-B): with data up to 800 GB on half of the jobs, the data-aware scheme's \
                            average turnaround (data moved while the job queues) is about 10% of that of the \
                            earliest-start scheme and 50% of that of the earliest-finish scheme that moves the data on \
                            the job's processors. Here {:.0}% of the jobs carry data.",
                        100.0 * share(),
                    )
                }}
            </p>
            <button id="dd-compare-run" on:click=start>
                "Run the three schemes"
            </button>
            <span id="dd-compare-status" role="status">
                {move || status.get()}
            </span>
            <table id="dd-compare-table">
                <thead>
                    <tr>
                        <th scope="col">"scheme"</th>
                        <th scope="col">"average turnaround"</th>
                        <th scope="col">"worst turnaround"</th>
                        <th scope="col">"average waiting"</th>
                        <th scope="col">"utilization"</th>
                    </tr>
                </thead>
                <tbody>{table}</tbody>
            </table>
            <div class="dd-bars" inner_html=svg></div>
        </section>
    }
}
