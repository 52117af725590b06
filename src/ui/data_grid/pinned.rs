//! What the multi-cluster results offer, for data-grid runs: "Pin this run" keeps a finished run's mean-turnaround
//! line on its chart beside the next runs' (the bar, legend and comparison of ui/pins.rs; the per-site charts show
//! the current run, one line per site), and each chart's "Numbers" shows the values it plots.

use super::{charts, DdPage};
use crate::family::data_grid::{DdReport, DdScenario, Sample};
use crate::registry::Scenario;
use crate::ui::pins::{keep, scenarios, FamilyPins, NumbersToggle, Pin, PinnedRun, Table};
use leptos::prelude::*;

/// A run's name in the legends and the comparison: what tells it from the runs beside it.
pub(super) fn run_label(s: &DdScenario) -> String {
    let c = &s.data_grid;
    format!("{} · {} · {} jobs · seed {}", c.scheme.label(), c.local_policy.name(), c.jobs, s.seed)
}

/// A finished run's name and numbers, as its cards show them.
fn as_pin(r: &DdReport) -> Pin {
    Pin {
        label: run_label(&r.scenario),
        numbers: charts::cards(r).into_iter().map(|(_, title, _, _, shown)| (title, shown)).collect(),
    }
}

/// Pins a finished run; the oldest pinned run leaves once the palette is used up.
fn pin(st: DdPage, r: &DdReport) {
    st.live.update_value(|l| {
        let scenario = Scenario::DataGrid(r.scenario.clone());
        let run = PinnedRun { pin: as_pin(r), samples: l.samples.clone(), scenario };
        keep(&mut l.pinned, run);
    });
}

/// Pins the run that has just finished, as "Pin this run" does (a link's pinned runs, ui/replay.rs).
pub(crate) fn pin_finished(st: DdPage) {
    if let Some(r) = st.report.get_untracked() {
        pin(st, &r);
        st.repaint.ask();
    }
}

/// The pinned runs' scenarios, oldest first.
pub(crate) fn pinned_scenarios(st: DdPage) -> Vec<Scenario> {
    st.live.with_value(|l| scenarios(&l.pinned))
}

/// The pinned runs, oldest first.
fn pins(st: DdPage) -> Vec<Pin> {
    st.live.with_value(|l| l.pinned.iter().map(|p| p.pin.clone()).collect())
}

/// Pin and Clear, the legend and the comparison (ui/pins.rs), over the data grid's runs.
#[component]
pub fn DdPinBar(done: Signal<bool>, st: DdPage) -> impl IntoView {
    let report = st.report;
    let keep = Callback::new(move |()| {
        if let Some(r) = report.get_untracked() {
            pin(st, &r);
        }
    });
    let current = Signal::derive(move || report.with(|r| r.as_deref().map(as_pin)));
    let list = Callback::new(move |()| pins(st));
    // Drops every pinned run.
    let forget = Callback::new(move |()| st.live.update_value(|l| l.pinned.clear()));
    view! { <FamilyPins prefix="dd-" done=done current=current repaint=st.repaint list=list keep=keep forget=forget /> }
}

/// The tables chart `k` plots: the turnaround per run (pinned first), or per site for the current run.
fn tables(st: DdPage, k: usize, sites: &[u32]) -> Vec<Table> {
    let current = st.report.with_untracked(|r| r.as_ref().map(|r| run_label(&r.scenario)));
    let current = current.unwrap_or_else(|| "current run".into());
    st.live.with_value(|l| {
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
                    Table {
                        caption: label,
                        head: vec!["simulated time [days]".into(), "mean turnaround [h]".into()],
                        rows,
                    }
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
        vec![Table { caption: format!("{current}: {what}"), head, rows }]
    })
}

/// The "Numbers" button of chart `k` and, when pressed, its plotted values.
#[component]
pub fn DdChartNumbers(k: usize, sites: Signal<Vec<u32>>, st: DdPage) -> impl IntoView {
    let (id, title) = charts::CHARTS[k];
    let repaint = st.repaint;
    let tables = Callback::new(move |()| tables(st, k, &sites.get()));
    view! { <NumbersToggle id=id title=title repaint=repaint tables=tables /> }
}
