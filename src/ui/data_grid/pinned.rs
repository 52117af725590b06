//! What the multi-cluster results offer, for data-grid runs: "Pin this run" keeps a finished run's mean-turnaround
//! line on its chart beside the next runs' (the bar, legend and comparison of ui/pins.rs; the per-site charts show
//! the current run, one line per site), and each chart's "Numbers" shows the values it plots.

use super::{charts, state, LIVE};
use crate::family::data_grid::{DataGridReport, DataGridScenario, Sample};
use crate::ui::charts::PALETTE;
use crate::ui::pins::{Pin, PinBar};
use leptos::prelude::*;

/// A finished run kept for comparison: its name and numbers, and its samples for the turnaround chart.
pub(super) struct PinnedRun {
    pub pin: Pin,
    pub samples: Vec<Sample>,
}

/// A run's name in the legends and the comparison: what tells it from the runs beside it.
pub(super) fn run_label(s: &DataGridScenario) -> String {
    let c = &s.data_grid;
    format!("{} · {} · {} jobs · seed {}", c.scheme.label(), c.local_policy.name(), c.jobs, s.seed)
}

/// A finished run's name and numbers, as its cards show them.
fn as_pin(r: &DataGridReport) -> Pin {
    Pin {
        label: run_label(&r.scenario),
        numbers: charts::cards(r).into_iter().map(|(_, title, _, _, shown)| (title, shown)).collect(),
    }
}

/// The pinned runs, oldest first.
fn pins() -> Vec<Pin> {
    LIVE.with(|l| l.borrow().pinned.iter().map(|p| p.pin.clone()).collect())
}

/// Pin and Clear, the legend and the comparison, over the data grid's runs.
#[component]
pub fn DdPinBar(done: Signal<bool>) -> impl IntoView {
    let st = state();
    let listed = RwSignal::new(pins());
    let (report, version) = (st.report.clone(), st.version.clone());
    let changed = move || {
        listed.set(pins());
        version.update(|v| *v += 1);
    };
    let pin = {
        let (report, changed) = (report.clone(), changed.clone());
        Callback::new(move |()| {
            let Some(r) = report.get_untracked() else { return };
            LIVE.with(|l| {
                let mut l = l.borrow_mut();
                if l.pinned.len() >= PALETTE.len() - 1 {
                    l.pinned.remove(0);
                }
                let samples = l.samples.clone();
                l.pinned.push(PinnedRun { pin: as_pin(&r), samples });
            });
            changed();
        })
    };
    let clear = Callback::new(move |()| {
        LIVE.with(|l| l.borrow_mut().pinned.clear());
        changed();
    });
    let current = Signal::derive(move || report.with(|r| r.as_deref().map(as_pin)));
    view! { <PinBar prefix="dd-" done=done pins=Signal::from(listed) current=current pin=pin clear=clear/> }
}

/// The tables chart `k` plots: the turnaround per run (pinned first), or per site for the current run.
fn tables(k: usize, sites: &[u32]) -> Vec<(String, Vec<String>, Vec<Vec<String>>)> {
    let current = state().report.with_untracked(|r| r.as_ref().map(|r| run_label(&r.scenario)));
    let current = current.unwrap_or_else(|| "current run".into());
    LIVE.with(|l| {
        let l = l.borrow();
        let day = |s: &Sample| format!("{:.3}", s.time / 86_400.0);
        if k == 0 {
            let mut runs: Vec<(String, &[Sample])> =
                l.pinned.iter().map(|p| (p.pin.label.clone(), p.samples.as_slice())).collect();
            runs.push((current, l.samples.as_slice()));
            return runs
                .into_iter()
                .filter(|(_, s)| !s.is_empty())
                .map(|(label, samples)| {
                    let rows = samples
                        .iter()
                        .filter(|s| s.finished > 0)
                        .map(|s| vec![day(s), format!("{:.3}", s.mean_turnaround / 3600.0)])
                        .collect();
                    (label, vec!["simulated time [days]".into(), "mean turnaround [h]".into()], rows)
                })
                .collect();
        }
        if l.samples.is_empty() {
            return Vec::new();
        }
        let mut head = vec!["simulated time [days]".to_string()];
        head.extend((1..=sites.len()).map(|i| format!("site {i}")));
        let rows = l
            .samples
            .iter()
            .map(|s| {
                let mut row = vec![day(s)];
                row.extend((0..sites.len()).map(|i| {
                    if k == 1 {
                        s.queued.get(i).map_or(String::new(), u32::to_string)
                    } else {
                        let b = s.busy.get(i).map_or(0.0, |&b| f64::from(b));
                        format!("{:.3}", b / f64::from(sites[i].max(1)))
                    }
                }));
                row
            })
            .collect();
        let what = if k == 1 { "queued jobs per site" } else { "busy processors per site (share of the site)" };
        vec![(format!("{current}: {what}"), head, rows)]
    })
}

/// The "Numbers" button of chart `k` and, when pressed, its plotted values.
#[component]
pub fn DdChartNumbers(k: usize, sites: Signal<Vec<u32>>) -> impl IntoView {
    let (id, title) = charts::CHARTS[k];
    let version = state().version;
    let open = RwSignal::new(false);
    let region = format!("{id}-numbers");
    view! {
        <button class="small numbers-toggle" id=format!("{id}-numbers-toggle") aria-controls=region.clone()
            aria-expanded=move || open.get().to_string()
            on:click=move |_| open.update(|o| *o = !*o)>"Numbers"</button>
        <div class="numbers" id=region role="region" aria-label=format!("{title}: plotted values") tabindex="0" hidden=move || !open.get()>
            {move || {
                if !open.get() {
                    return None;
                }
                version.track();
                let tables = tables(k, &sites.get());
                Some(if tables.is_empty() {
                    view! { <p>"No data yet: run a scenario."</p> }.into_any()
                } else {
                    tables.into_iter().map(|(caption, head, rows)| view! {
                        <table class="mini">
                            <caption>{caption}</caption>
                            <thead><tr>{head.into_iter().map(|h| view! { <th scope="col">{h}</th> }).collect_view()}</tr></thead>
                            <tbody>{rows.into_iter().map(|r| view! {
                                <tr>{r.into_iter().map(|c| view! { <td>{c}</td> }).collect_view()}</tr>
                            }).collect_view()}</tbody>
                        </table>
                    }).collect_view().into_any()
                })
            }}
        </div>
    }
}
