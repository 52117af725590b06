//! "Open a study": the CSV of a sweep run elsewhere (`bagsim sweep`, or a Slurm study merged by `bagsim merge`) drawn
//! like the page's own sweeps, for any family: one column against a numeric axis, a line per policy (or per
//! combination of the other axes), and over several seeds the mean with its 95% interval.

use crate::study::table::StudyTable;
use crate::ui::charts;
use crate::ui::measured;
use leptos::prelude::*;
use plotters::prelude::*;
use wasm_bindgen::JsCast;

/// Larger files are refused before they are read: a study of a million runs is still well under this.
const MAX_BYTES: f64 = 200e6;

#[component]
pub fn OpenStudy() -> impl IntoView {
    let table: RwSignal<Option<(String, StudyTable)>> = RwSignal::new(None);
    let error = RwSignal::new(String::new());
    let x = RwSignal::new(0usize);
    let column = RwSignal::new(0usize);
    let open = move |ev: leptos::ev::Event| {
        let Some(file) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
            .and_then(|i| i.files())
            .and_then(|f| f.get(0))
        else {
            return;
        };
        let file = gloo_file::File::from(file);
        let name = file.name();
        if file.size() as f64 > MAX_BYTES {
            error.set(format!(
                "{name}: {} MB is more than this page reads (200 MB); the study shown stays.",
                file.size() / 1_000_000
            ));
            return;
        }
        wasm_bindgen_futures::spawn_local(async move {
            let parsed = match gloo_file::futures::read_as_text(&file).await {
                Ok(text) => StudyTable::from_csv(&text).map_err(|e| e.to_string()),
                Err(e) => Err(format!("could not read the file: {e}")),
            };
            match parsed {
                Ok(t) => {
                    error.set(String::new());
                    x.set(t.default_x().unwrap_or(0));
                    column.set(t.default_column());
                    table.set(Some((name, t)));
                }
                // The study shown before stays.
                Err(e) => error.set(format!("{name}: {e}")),
            }
        });
    };
    Effect::new(move |_| {
        let (xi, ci) = (x.get(), column.get());
        table.with(|t| {
            let Some((name, t)) = t else { return };
            let Some(canvas) = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.get_element_by_id("chart-study"))
                .and_then(|e| e.dyn_into::<web_sys::HtmlCanvasElement>().ok())
            else {
                return;
            };
            let lines = if t.numeric_axes().contains(&xi) { t.lines(xi, ci) } else { Vec::new() };
            // The plotted numbers, for whoever wants to check them (the browser test does, against the CSV).
            type Points = Vec<(f64, f64, f64, f64, usize)>;
            let data: Vec<(&str, Points)> = lines
                .iter()
                .map(|l| {
                    (l.label.as_str(), l.points.iter().map(|p| (p.x, p.y.mean, p.y.low, p.y.high, p.y.n)).collect())
                })
                .collect();
            let _ = canvas.set_attribute("data-series", &serde_json::to_string(&data).unwrap_or_default());
            if let Some((b, pen)) = measured::canvas(canvas) {
                let root = b.into_drawing_area();
                let title = format!("{name}: {}", t.columns[ci]);
                let _ = charts::draw_study(&root, pen, &title, &t.axes[xi].0, &t.columns[ci], &lines);
                let _ = root.present();
            }
        });
    });
    let summary = move || {
        table.with(|t| {
            t.as_ref().map(|(name, t)| {
                let seeds = t.axes.iter().find(|(k, _)| k == "seed").map_or(1, |(_, v)| v.len());
                let axes: Vec<String> = t.axes.iter().map(|(k, v)| format!("{k} ({})", v.len())).collect();
                format!(
                    "{name}: {} family, {} runs; axes {}; {}",
                    t.family.name(),
                    t.rows.len(),
                    axes.join(", "),
                    if seeds > 1 {
                        format!("{seeds} seeds per point: mean and 95% interval")
                    } else {
                        "one seed per point".into()
                    }
                )
            })
        })
    };
    let x_options = move || {
        table.with(|t| {
            t.as_ref().map(|(_, t)| {
                t.numeric_axes()
                    .into_iter()
                    .map(|a| {
                        view! {
                            <option value=a.to_string() selected=move || x.get() == a>
                                {t.axes[a].0.clone()}
                            </option>
                        }
                    })
                    .collect_view()
            })
        })
    };
    let column_options = move || {
        table.with(|t| {
            t.as_ref().map(|(_, t)| {
                t.columns
                    .iter()
                    .enumerate()
                    .map(|(i, c)| {
                        view! {
                            <option value=i.to_string() selected=move || column.get() == i>
                                {c.clone()}
                            </option>
                        }
                    })
                    .collect_view()
            })
        })
    };
    let drawable = move || table.with(|t| t.as_ref().is_some_and(|(_, t)| !t.numeric_axes().is_empty()));
    view! {
        <details class="study" id="study">
            <summary>"Open a study: a sweep run on the command line or on a Slurm cluster"</summary>
            <p class="help">
                "The CSV that "<code>"bagsim sweep"</code>" or "<code>"bagsim merge"</code>
                " writes, of any family: one column against a numeric axis (the load, by default), a line per \
                    combination of the other axes, and where the study has a seed axis the mean over its seeds with \
                    its 95% Student-t interval. The file is read on this computer; nothing is uploaded."
            </p>
            <label>"Study CSV "<input type="file" id="study-file" accept=".csv,text/csv" on:change=open /></label>
            <p id="study-error" class="error" role="alert">
                {move || error.get()}
            </p>
            <p id="study-summary">{summary}</p>
            <Show when=move || table.with(Option::is_some)>
                <label>
                    "x "<select id="study-x" on:change=move |ev| x.set(event_target_value(&ev).parse().unwrap_or(0))>
                        {x_options}
                    </select>
                </label>
                <label>
                    " y "
                    <select
                        id="study-column"
                        on:change=move |ev| column.set(event_target_value(&ev).parse().unwrap_or(0))
                    >
                        {column_options}
                    </select>
                </label>
                <Show when=move || !drawable()>
                    <p class="help">"This study has no numeric axis but the seed to draw against."</p>
                </Show>
            </Show>
            <div class="charts">
                <figure class="chart">
                    <canvas
                        id="chart-study"
                        width="560"
                        height="320"
                        role="img"
                        aria-label="the opened study's chart"
                    ></canvas>
                </figure>
            </div>
        </details>
    }
}
