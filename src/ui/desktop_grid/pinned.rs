//! What the multi-cluster results offer, for desktop-grid runs: "Pin this run" keeps a finished run on the two
//! charts beside the next ones (each run its colour, dash and marker, named in a legend), a table compares the
//! pinned runs' numbers with the current run's, and each chart's "Numbers" shows the values it plots.

use super::{cards, state, CHARTS, LIVE};
use crate::family::desktop_grid::{DgReport, DgSample, DgScenario};
use crate::ui::charts::PALETTE;
use crate::ui::run_tools::swatch;
use leptos::prelude::*;

/// A finished run kept for comparison.
pub(super) struct PinnedRun {
    pub label: String,
    pub samples: Vec<DgSample>,
    /// Its cards as shown: (title, value).
    pub numbers: Vec<(&'static str, String)>,
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
        let numbers = cards(report).into_iter().map(|c| (c.title, c.shown)).collect();
        l.pinned.push(PinnedRun { label: run_label(&report.scenario), samples, numbers });
    });
}

/// The labels of the pinned runs, oldest first.
fn pinned_labels() -> Vec<String> {
    LIVE.with(|l| l.borrow().pinned.iter().map(|p| p.label.clone()).collect())
}

/// Pin and Clear, the legend of the runs on the charts, and the comparison table once a run is pinned.
#[component]
pub fn PinBar(done: Signal<bool>) -> impl IntoView {
    let st = state();
    let version = st.version.clone();
    let report = st.report.clone();
    let labels = RwSignal::new(pinned_labels());
    let bump = {
        let version = version.clone();
        move || {
            labels.set(pinned_labels());
            version.update(|v| *v += 1);
        }
    };
    let on_pin = {
        let report = report.clone();
        let bump = bump.clone();
        move |_| {
            if let Some(r) = report.get_untracked() {
                pin(&r);
                bump();
            }
        }
    };
    let on_clear = move |_| {
        LIVE.with(|l| l.borrow_mut().pinned.clear());
        bump();
    };
    let current_label = {
        let report = report.clone();
        move || report.with(|r| r.as_ref().map(|r| run_label(&r.scenario)))
    };
    let compare = move || {
        let names = labels.get();
        if names.is_empty() {
            return None;
        }
        let current = report.with(|r| r.as_ref().map(|r| cards(r)));
        let rows = LIVE.with(|l| {
            let l = l.borrow();
            let titles: Vec<&'static str> = l.pinned[0].numbers.iter().map(|n| n.0).collect();
            titles
                .into_iter()
                .enumerate()
                .map(|(k, title)| {
                    let mut cells: Vec<String> = l.pinned.iter().map(|p| p.numbers[k].1.clone()).collect();
                    if let Some(c) = &current {
                        cells.push(c[k].shown.clone());
                    }
                    (title, cells)
                })
                .collect::<Vec<_>>()
        });
        let has_current = current.is_some();
        Some(view! {
            <table class="mini" id="dg-compare">
                <caption>"The pinned runs beside the current one"</caption>
                <thead><tr><th scope="col">""</th>
                    {names.into_iter().enumerate().map(|(i, n)| view! { <th scope="col">{swatch(i + 1)}{n}</th> }).collect_view()}
                    {has_current.then(|| view! { <th scope="col">{swatch(0)}"current run"</th> })}
                </tr></thead>
                <tbody>{rows.into_iter().map(|(title, cells)| view! {
                    <tr><th scope="row">{title}</th>{cells.into_iter().map(|c| view! { <td>{c}</td> }).collect_view()}</tr>
                }).collect_view()}</tbody>
            </table>
        })
    };
    view! {
        <div class="compare">
            <button id="dg-pin" disabled=move || !done.get()
                title="Keep this run on the charts to compare it with the next ones" on:click=on_pin>"Pin this run"</button>
            <button id="dg-unpin" disabled=move || labels.with(Vec::is_empty) on:click=on_clear>"Clear pinned"</button>
            <ul class="pinned">
                <li id="dg-current-run-label">{move || match current_label() {
                    Some(l) => view! { {swatch(0)}{l} }.into_any(),
                    None => view! { <span class="note">"No run yet: press Run, then Pin to keep a run beside the next."</span> }.into_any(),
                }}</li>
                {move || labels.get().into_iter().enumerate().map(|(i, l)| view! { <li>{swatch(i + 1)}{l}</li> }).collect_view()}
            </ul>
        </div>
        <div class="table-scroll">{compare}</div>
    }
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
                        l.pinned.iter().map(|p| (p.label.clone(), p.samples.as_slice())).collect();
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
