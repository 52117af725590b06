//! What the multi-cluster results offer, for desktop-grid runs: "Pin this run" keeps a finished run on the two
//! charts beside the next ones (the bar, legend and comparison of ui/pins.rs), and each chart's "Numbers" shows the
//! values it plots, per run.

use super::{cards, state, CHARTS, LIVE};
use crate::family::desktop_grid::{DgReport, DgSample, DgScenario};
use crate::ui::charts::PALETTE;
use crate::ui::pins::{Pin, PinBar};
use leptos::prelude::*;

/// A finished run kept for comparison: its name and numbers, and its series for the charts.
pub(super) struct PinnedRun {
    pub pin: Pin,
    pub samples: Vec<DgSample>,
}

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
fn pin(report: &DgReport) {
    LIVE.with(|l| {
        let mut l = l.borrow_mut();
        if l.pinned.len() >= PALETTE.len() - 1 {
            l.pinned.remove(0);
        }
        let samples = l.samples.clone();
        l.pinned.push(PinnedRun { pin: as_pin(report), samples });
    });
}

/// A finished run's name and numbers, as its cards show them.
fn as_pin(r: &DgReport) -> Pin {
    Pin { label: run_label(&r.scenario), numbers: cards(r).into_iter().map(|c| (c.title, c.shown)).collect() }
}

/// The pinned runs, oldest first.
fn pins() -> Vec<Pin> {
    LIVE.with(|l| l.borrow().pinned.iter().map(|p| p.pin.clone()).collect())
}

/// Pin and Clear, the legend and the comparison (ui/pins.rs), over the desktop grid's runs.
#[component]
pub fn DgPinBar(done: Signal<bool>) -> impl IntoView {
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
            if let Some(r) = report.get_untracked() {
                pin(&r);
                changed();
            }
        })
    };
    let clear = Callback::new(move |()| {
        LIVE.with(|l| l.borrow_mut().pinned.clear());
        changed();
    });
    let current = Signal::derive(move || report.with(|r| r.as_deref().map(as_pin)));
    view! { <PinBar prefix="dg-" done=done pins=Signal::from(listed) current=current pin=pin clear=clear/> }
}

/// The "Numbers" button of chart `k` and, when pressed, its plotted values per run (pinned runs first).
#[component]
pub fn DgChartNumbers(k: usize) -> impl IntoView {
    let (id, title, y, pick) = CHARTS[k];
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
                let tables = LIVE.with(|l| {
                    let l = l.borrow();
                    let current = state().report.with_untracked(|r| r.as_ref().map(|r| run_label(&r.scenario)));
                    let mut runs: Vec<(String, &[DgSample])> =
                        l.pinned.iter().map(|p| (p.pin.label.clone(), p.samples.as_slice())).collect();
                    runs.push((current.unwrap_or_else(|| "current run".into()), l.samples.as_slice()));
                    runs.into_iter()
                        .filter(|(_, s)| !s.is_empty())
                        .map(|(label, samples)| {
                            let rows: Vec<(String, String)> =
                                samples.iter().map(|s| (format!("{:.3}", s.time / 86_400.0), format!("{}", pick(s)))).collect();
                            (label, rows)
                        })
                        .collect::<Vec<_>>()
                });
                Some(if tables.is_empty() {
                    view! { <p>"No data yet: run a scenario."</p> }.into_any()
                } else {
                    tables.into_iter().map(|(label, rows)| view! {
                        <table class="mini">
                            <caption>{format!("{label}: {} over simulated time", title.to_lowercase())}</caption>
                            <thead><tr><th scope="col">"simulated time [days]"</th><th scope="col">{y}</th></tr></thead>
                            <tbody>{rows.into_iter().map(|(t, v)| view! { <tr><td>{t}</td><td>{v}</td></tr> }).collect_view()}</tbody>
                        </table>
                    }).collect_view().into_any()
                })
            }}
        </div>
    }
}
