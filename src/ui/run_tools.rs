//! What every family's results offer, written once: a link that reproduces the scenario, the run's report as
//! JSON (as `bagsim run --out` writes it), its rows as CSV where the family has them, and each chart as a PNG.

use super::download;
use super::lazy::LazyPanel;
use super::split::Part;
use crate::protocol::ToWorker;
use crate::ui::address::remember;
use crate::ui::lab::Lab;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Writes the scenario into the address and copies the address; says what it did.
pub(crate) fn copy_link(lab: Lab) -> String {
    let s = lab.scenario.get_untracked();
    remember(lab, &s);
    let trace = s.trace_named().map(str::to_string);
    let href = web_sys::window().and_then(|w| w.location().href().ok()).unwrap_or_default();
    match web_sys::window() {
        Some(w) => {
            let _ = w.navigator().clipboard().write_text(&href);
            // The address just written holds a `pin=` per pinned run (ui/replay.rs).
            let pinned = match href.matches("&pin=").count() {
                0 => String::new(),
                1 => " and its pinned run".into(),
                n => format!(" and its {n} pinned runs"),
            };
            match trace {
                Some(name) => format!(
                    "link copied: it holds every setting{pinned}; whoever opens it imports {name} in \
                    the Workload lab to run it"
                ),
                None => format!("link copied: it reproduces this scenario{pinned} exactly"),
            }
        }
        None => String::new(),
    }
}

/// Downloads the canvas `id` as a PNG.
pub(crate) fn chart_png(id: &str) {
    let canvas = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
        .and_then(|e| e.dyn_into::<web_sys::HtmlCanvasElement>().ok());
    if let Some(url) = canvas.and_then(|c| c.to_data_url().ok()) {
        download::url_download(&format!("bagsim-{id}.png"), &url);
    }
}

/// The tools under a family's results; `prefix` starts their ids (`dg-`), `done` says whether a run has ended,
/// `rows` names the family's per-row CSV (None: it has none) and `charts` lists its canvases (id, title).
#[component]
pub(crate) fn RunTools(
    prefix: &'static str,
    done: Signal<bool>,
    rows: Option<&'static str>,
    charts: Vec<(&'static str, &'static str)>,
) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let note = RwSignal::new(String::new());
    view! {
        <div class="compare run-tools">
            <button id=format!("{prefix}share") on:click=move |_| note.set(copy_link(lab))>
                "Copy link"
            </button>
            <button
                id=format!("{prefix}export-json")
                disabled=move || !done.get()
                title="The full report, as `bagsim run --out` writes it"
                on:click=move |_| {
                    lab.send(
                        &ToWorker::ExportReport {
                            run_id: lab.run_id.get_untracked(),
                        },
                    )
                }
            >
                "Report (JSON)"
            </button>
            {rows
                .map(|label| {
                    view! {
                        <button
                            id=format!("{prefix}export-csv")
                            disabled=move || !done.get()
                            on:click=move |_| {
                                lab.send(
                                    &ToWorker::ExportBots {
                                        run_id: lab.run_id.get_untracked(),
                                    },
                                )
                            }
                        >
                            {label}
                        </button>
                    }
                })}
            <RecordsButton prefix=prefix done=done />
            <GanttButton prefix=prefix done=done />
            {charts
                .into_iter()
                .map(|(id, title)| {
                    view! {
                        <button
                            class="small"
                            id=format!("{id}-png")
                            disabled=move || !done.get()
                            aria-label=format!("download {title} as PNG")
                            on:click=move |_| chart_png(id)
                        >
                            {format!("{title} (PNG)")}
                        </button>
                    }
                })
                .collect_view()}
            <span class="note" role="status">
                {move || note.get()}
            </span>
        </div>
    }
}

/// "Per-task records (CSV)": the records are made by the second module (`records.rs`), loaded the first time they
/// are asked for, which then offers "Download again" in the button's place.
#[component]
pub(crate) fn RecordsButton(prefix: &'static str, done: Signal<bool>) -> impl IntoView {
    let asked = RwSignal::new(false);
    view! {
        <button
            id=format!("{prefix}export-jobs")
            disabled=move || !done.get()
            hidden=move || asked.get()
            on:click=move |_| asked.set(true)
        >
            "Per-task records (CSV)"
        </button>
        {move || asked.get().then(|| view! { <LazyPanel part=Part::Records /> })}
    }
}

/// "Why did a task wait?": the Gantt view of the run and a task's story (`gantt/`, in the second module), shown the
/// first time it is asked for.
#[component]
pub(crate) fn GanttButton(prefix: &'static str, done: Signal<bool>) -> impl IntoView {
    let asked = RwSignal::new(false);
    view! {
        <button
            id=format!("{prefix}gantt-open")
            disabled=move || !done.get()
            hidden=move || asked.get()
            on:click=move |_| asked.set(true)
        >
            "Why did a task wait? (Gantt)"
        </button>
        {move || asked.get().then(|| view! { <LazyPanel part=Part::Gantt /> })}
    }
}

/// A run's warnings: one line for a single warning; for several, one line that counts them and says the first,
/// with the whole list behind a disclosure (a wall of warnings hides the results).
pub(crate) fn warnings_view(warnings: Vec<String>) -> impl IntoView {
    match warnings.len() {
        0 => ().into_any(),
        1 => view! { <div class="warning">"⚠ " {warnings[0].clone()}</div> }.into_any(),
        n => {
            let first: String = warnings[0].chars().take(140).collect();
            let more = if warnings[0].chars().count() > 140 { "…" } else { "" };
            view! {
                <details class="warnings" id="warnings">
                    <summary class="warning">{format!("⚠ {n} warnings; the first: {first}{more}")}</summary>
                    {warnings.into_iter().map(|w| view! { <div class="warning">"⚠ " {w}</div> }).collect_view()}
                </details>
            }
            .into_any()
        }
    }
}

/// A run's line in the legend: its colour, dash pattern and marker, as on the charts.
pub(crate) fn swatch(i: usize) -> impl IntoView {
    let c = super::charts::PALETTE[i % super::charts::PALETTE.len()];
    let colour = format!("rgb({},{},{})", c.0, c.1, c.2);
    let mark = match super::charts::marker(i) {
        "circle" => format!("<circle cx='14' cy='6' r='4' fill='{colour}'/>"),
        "triangle" => format!("<polygon points='14,1 19,10 9,10' fill='{colour}'/>"),
        "cross" => format!("<path d='M10 2 L18 10 M18 2 L10 10' stroke='{colour}' stroke-width='2'/>"),
        _ => format!("<rect x='10' y='2' width='8' height='8' fill='{colour}'/>"),
    };
    let svg = format!(
        "<svg class='swatch' width='28' height='12' aria-hidden='true'><line x1='0' y1='6' x2='28' y2='6' \
            stroke='{colour}' stroke-width='3' stroke-dasharray='{}'/>{mark}</svg>",
        super::charts::dash_array(i)
    );
    view! { <span class="swatch-line" inner_html=svg></span> }
}
