//! "Pin this run" and "Numbers" for every family, written once: Pin and Clear, the legend of the runs on the charts
//! (each its colour, dash and marker), a table of the pinned runs' numbers beside the current run's, and each
//! chart's plotted values as tables. The family keeps the pinned runs' series for its own charts and says here what
//! a run is called, what its numbers are and what a chart plots.

use super::charts::PALETTE;
use super::run_tools::swatch;
use crate::registry::Scenario;
use crate::ui::lab::Repaint;
use leptos::prelude::*;

/// A run as the legend and the comparison show it: its name and its numbers as the cards show them.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Pin {
    pub label: String,
    pub numbers: Vec<(&'static str, String)>,
}

/// A finished run a family keeps for comparison: its name and numbers, its series for the family's charts, and its
/// scenario (a link holds it, ui/replay.rs).
pub(crate) struct PinnedRun<S> {
    pub pin: Pin,
    pub samples: Vec<S>,
    pub scenario: Scenario,
}

/// Keeps `run` after the runs pinned already; the oldest leaves once the charts' palette is used up.
pub(crate) fn keep<T>(pinned: &mut Vec<T>, run: T) {
    if pinned.len() >= PALETTE.len() - 1 {
        pinned.remove(0);
    }
    pinned.push(run);
}

/// The scenarios of the pinned runs, oldest first.
pub(crate) fn scenarios<S>(pinned: &[PinnedRun<S>]) -> Vec<Scenario> {
    pinned.iter().map(|p| p.scenario.clone()).collect()
}

/// The pin bar of a family's results; ids start with `prefix` (`dg-pin`, `dd-compare`). `pins` are the pinned
/// runs, oldest first (colours 1, 2, …), `current` the current run once it has ended (colour 0); `pin` keeps the
/// current run, `clear` drops every pinned one.
#[component]
pub(crate) fn PinBar(
    prefix: &'static str,
    done: Signal<bool>,
    pins: Signal<Vec<Pin>>,
    current: Signal<Option<Pin>>,
    pin: Callback<()>,
    clear: Callback<()>,
) -> impl IntoView {
    let compare = move || {
        let pinned = pins.get();
        if pinned.is_empty() {
            return None;
        }
        let now = current.get();
        let titles: Vec<&'static str> = pinned[0].numbers.iter().map(|n| n.0).collect();
        let cell = |p: &Pin, k: usize| p.numbers.get(k).map_or(String::new(), |n| n.1.clone());
        let rows: Vec<(&'static str, Vec<String>)> = titles
            .into_iter()
            .enumerate()
            .map(|(k, title)| (title, pinned.iter().chain(now.as_ref()).map(|p| cell(p, k)).collect()))
            .collect();
        Some(view! {
            <table class="mini" id=format!("{prefix}pinned-compare")>
                <caption>"The pinned runs beside the current one"</caption>
                <thead>
                    <tr>
                        <th scope="col">"Result"</th>
                        {pinned
                            .iter()
                            .enumerate()
                            .map(|(i, p)| view! { <th scope="col">{swatch(i + 1)}{p.label.clone()}</th> })
                            .collect_view()}
                        {now.is_some().then(|| view! { <th scope="col">{swatch(0)}"current run"</th> })}
                    </tr>
                </thead>
                <tbody>
                    {rows
                        .into_iter()
                        .map(|(title, cells)| {
                            view! {
                                <tr>
                                    <th scope="row">{title}</th>
                                    {cells.into_iter().map(|c| view! { <td>{c}</td> }).collect_view()}
                                </tr>
                            }
                        })
                        .collect_view()}
                </tbody>
            </table>
        })
    };
    view! {
        <div class="compare">
            <button
                id=format!("{prefix}pin")
                disabled=move || !done.get()
                title="Keep this run on the charts to compare it with the next ones"
                on:click=move |_| pin.run(())
            >
                "Pin this run"
            </button>
            <button
                id=format!("{prefix}unpin")
                disabled=move || pins.with(Vec::is_empty)
                on:click=move |_| clear.run(())
            >
                "Clear pinned"
            </button>
            <ul class="pinned">
                <li id=format!(
                    "{prefix}current-run-label",
                )>
                    {move || match current.get() {
                        Some(p) => {
                            view! {
                                {swatch(0)}
                                {p.label}
                            }
                                .into_any()
                        }
                        None => view! { <span class="note">"No run yet"</span> }.into_any(),
                    }}
                </li>
                {move || {
                    pins.get()
                        .into_iter()
                        .enumerate()
                        .map(|(i, p)| view! { <li>{swatch(i + 1)}{p.label}</li> })
                        .collect_view()
                }}
            </ul>
        </div>
        <div class="table-scroll">{compare}</div>
    }
}

/// A family's pin bar over its own store of pinned runs: `list` reads them (oldest first), `keep` pins the current
/// run (the family keeps its series), `forget` drops them all; `repaint` redraws the family's charts after either.
#[component]
pub(crate) fn FamilyPins(
    prefix: &'static str,
    done: Signal<bool>,
    current: Signal<Option<Pin>>,
    repaint: Repaint,
    list: Callback<(), Vec<Pin>>,
    keep: Callback<()>,
    forget: Callback<()>,
) -> impl IntoView {
    // Read again whenever the family's charts are asked to redraw: a link's pinned runs are pinned from outside
    // this bar (ui/replay.rs).
    let listed = Signal::derive(move || {
        repaint.track();
        list.run(())
    });
    let pin = Callback::new(move |()| {
        keep.run(());
        repaint.ask();
    });
    let clear = Callback::new(move |()| {
        forget.run(());
        repaint.ask();
    });
    view! { <PinBar prefix=prefix done=done pins=listed current=current pin=pin clear=clear /> }
}

/// A table of a chart's plotted values: caption, column headers, rows of cells.
pub struct Table {
    pub caption: String,
    pub head: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

/// The "Numbers" button of chart `id` (in its caption) and, when pressed, the tables `tables` gives, read again
/// at every `repaint` while they are shown.
#[component]
pub(crate) fn NumbersToggle(
    id: &'static str,
    title: &'static str,
    repaint: Repaint,
    tables: Callback<(), Vec<Table>>,
) -> impl IntoView {
    let open = RwSignal::new(false);
    let region = format!("{id}-numbers");
    view! {
        <button
            class="small numbers-toggle"
            id=format!("{id}-numbers-toggle")
            aria-controls=region.clone()
            aria-expanded=move || open.get().to_string()
            on:click=move |_| open.update(|o| *o = !*o)
        >
            "Numbers"
        </button>
        <div
            class="numbers"
            id=region
            role="region"
            aria-label=format!("{title}: plotted values")
            tabindex="0"
            hidden=move || !open.get()
        >
            {move || {
                if !open.get() {
                    return None;
                }
                repaint.track();
                let tables = tables.run(());
                Some(
                    if tables.is_empty() {
                        view! { <p>"No data yet: run a scenario."</p> }.into_any()
                    } else {
                        tables
                            .into_iter()
                            .map(|t| {
                                view! {
                                    <table class="mini">
                                        <caption>{t.caption}</caption>
                                        <thead>
                                            <tr>
                                                {t
                                                    .head
                                                    .into_iter()
                                                    .map(|h| view! { <th scope="col">{h}</th> })
                                                    .collect_view()}
                                            </tr>
                                        </thead>
                                        <tbody>
                                            {t
                                                .rows
                                                .into_iter()
                                                .map(|r| {
                                                    view! {
                                                        <tr>
                                                            {r
                                                                .into_iter()
                                                                .map(|c| view! { <td>{c}</td> })
                                                                .collect_view()}
                                                        </tr>
                                                    }
                                                })
                                                .collect_view()}
                                        </tbody>
                                    </table>
                                }
                            })
                            .collect_view()
                            .into_any()
                    },
                )
            }}
        </div>
    }
}
