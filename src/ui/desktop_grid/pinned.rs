//! What the multi-cluster results offer, for desktop-grid runs: "Pin this run" keeps a finished run on the two
//! charts beside the next ones (the bar, legend and comparison of ui/pins.rs), and each chart's "Numbers" shows the
//! values it plots, per run.

use super::{cards, DgPage, CHARTS};
use crate::family::desktop_grid::{DgReport, DgSample, DgScenario};
use crate::registry::Scenario;
use crate::ui::pins::{keep, scenarios, FamilyPins, NumbersToggle, Pin, PinnedRun, Table};
use leptos::prelude::*;

/// A run's name in the legends and the comparison: what tells it from the runs beside it.
pub(super) fn run_label(s: &DgScenario) -> String {
    let c = &s.desktop_grid;
    format!(
        "{} · {} availability · {} · load {} · seed {}",
        c.bot_selection.label(),
        c.availability.name(),
        c.mix.label(),
        c.load,
        s.seed
    )
}

/// Pins the finished current run; the oldest pinned run leaves once the palette is used up.
fn pin(st: DgPage, report: &DgReport) {
    st.live.update_value(|l| {
        let scenario = Scenario::DesktopGrid(report.scenario.clone());
        let run = PinnedRun { pin: as_pin(report), samples: l.samples.clone(), scenario };
        keep(&mut l.pinned, run);
    });
}

/// Pins the run that has just finished, as "Pin this run" does (a link's pinned runs, ui/replay.rs).
pub(crate) fn pin_finished(st: DgPage) {
    if let Some(r) = st.report.get_untracked() {
        pin(st, &r);
        st.repaint.ask();
    }
}

/// The pinned runs' scenarios, oldest first.
pub(crate) fn pinned_scenarios(st: DgPage) -> Vec<Scenario> {
    st.live.with_value(|l| scenarios(&l.pinned))
}

/// A finished run's name and numbers, as its cards show them.
fn as_pin(r: &DgReport) -> Pin {
    Pin { label: run_label(&r.scenario), numbers: cards(r).into_iter().map(|c| (c.title, c.shown)).collect() }
}

/// The pinned runs, oldest first.
fn pins(st: DgPage) -> Vec<Pin> {
    st.live.with_value(|l| l.pinned.iter().map(|p| p.pin.clone()).collect())
}

/// Pin and Clear, the legend and the comparison (ui/pins.rs), over the desktop grid's runs.
#[component]
pub fn DgPinBar(done: Signal<bool>, st: DgPage) -> impl IntoView {
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
    view! { <FamilyPins prefix="dg-" done=done current=current repaint=st.repaint list=list keep=keep forget=forget /> }
}

/// The "Numbers" button of chart `k` and, when pressed, its plotted values per run (pinned runs first).
#[component]
pub fn DgChartNumbers(k: usize, st: DgPage) -> impl IntoView {
    let (id, title, y, pick) = CHARTS[k];
    let repaint = st.repaint;
    let tables = Callback::new(move |()| {
        let current = st.report.with_untracked(|r| r.as_ref().map(|r| run_label(&r.scenario)));
        st.live.with_value(|l| {
            let mut runs: Vec<(String, &[DgSample])> =
                l.pinned.iter().map(|p| (p.pin.label.clone(), p.samples.as_slice())).collect();
            runs.push((current.unwrap_or_else(|| "current run".into()), l.samples.as_slice()));
            runs.into_iter()
                .filter(|(_, s)| !s.is_empty())
                .map(|(label, samples)| Table {
                    caption: format!("{label}: {} over simulated time", title.to_lowercase()),
                    head: vec!["simulated time [days]".into(), y.into()],
                    rows: samples
                        .iter()
                        .map(|s| vec![format!("{:.3}", s.time / 86_400.0), format!("{}", pick(s))])
                        .collect(),
                })
                .collect()
        })
    });
    view! { <NumbersToggle id=id title=title repaint=repaint tables=tables /> }
}
