//! The workload lab's section: the file picker and drop zone, the import's progress and report, the BoTs and
//! their fitted row, the runs of the trace, and the scenario's own workload views.

use super::{parse_delta, Phase, TraceLab};
use crate::trace::bots::DEFAULT_DELTA;
use crate::ui::lab::Lab;
use crate::workload::fit::{notation, FittedModel};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

fn kb(bytes: u64) -> String {
    if bytes >= 1 << 20 {
        format!("{:.1} MB", bytes as f64 / f64::from(1 << 20))
    } else {
        format!("{:.0} kB", bytes as f64 / 1024.0)
    }
}

fn file_of_input(ev: &leptos::ev::Event) -> Option<web_sys::File> {
    let input: web_sys::HtmlInputElement = ev.target()?.dyn_into().ok()?;
    input.files()?.get(0)
}

/// The section.
#[component]
pub fn TraceLabView() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let t = TraceLab {
        lab,
        io: StoredValue::new_local(Default::default()),
        phase: RwSignal::new(Phase::Idle),
        import_id: RwSignal::new(0),
        file: RwSignal::new((String::new(), 0)),
        progress: RwSignal::new((0, 0, 0, 0)),
        message: RwSignal::new(String::new()),
        imported: RwSignal::new(None),
        format: RwSignal::new("auto".into()),
        delta: RwSignal::new(DEFAULT_DELTA.to_string()),
        split: RwSignal::new(false),
        same_user: RwSignal::new(false),
        bots: RwSignal::new(None),
        fit: RwSignal::new(None),
        fit_error: RwSignal::new(None),
        candidates: RwSignal::new(None),
        by_delta: RwSignal::new(Vec::new()),
        views: RwSignal::new(None),
        jobs: RwSignal::new(None),
        scenario_request: RwSignal::new(0),
        scenario_views: RwSignal::new(None),
        scenario_message: RwSignal::new(String::new()),
        scenario_fit: RwSignal::new(None),
        handle_ms: RwSignal::new(0.0),
    };
    t.listen();
    // The workload views are drawn by the page's second module (`ui/lazy.rs`) from what the lab hands it.
    crate::ui::views::publish("trace-views", t.views.into(), t.jobs.into());
    crate::ui::views::publish("scenario-views", t.scenario_views.into(), Signal::derive(|| None));
    let importing = move || t.phase.get() == Phase::Importing;
    let ready = move || lab.status.get() != crate::ui::lab::Status::Loading;
    let delta_error = move || parse_delta(&t.delta.get()).err().map(|e| e.to_string());
    let fraction = move || {
        let (done, _, _, _) = t.progress.get();
        let size = t.file.with(|f| f.1);
        if size == 0 {
            0.0
        } else {
            (done as f64 / size as f64).min(1.0)
        }
    };
    let status = move || {
        let (bytes, lines, jobs, skipped) = t.progress.get();
        match t.phase.get() {
            Phase::Idle => "No trace imported.".to_string(),
            Phase::Importing => format!(
                "Importing {}: {} of {}, {lines} lines, {jobs} jobs, {skipped} skipped…",
                t.file.with(|f| f.0.clone()),
                kb(bytes),
                kb(t.file.with(|f| f.1))
            ),
            Phase::Imported => t.imported.with(|i| {
                i.as_ref().map_or(String::new(), |(name, r, secs)| {
                    format!(
                        "{name}: {} lines read = {} jobs kept + {} skipped + {} comment or blank ({}{}, {:.2} s)",
                        r.lines,
                        r.jobs,
                        r.skipped,
                        r.comments,
                        r.format.name().to_uppercase(),
                        if r.gzip { ", gzip" } else { "" },
                        secs
                    )
                })
            }),
            Phase::Failed => "Import failed.".to_string(),
        }
    };
    let on_drop = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        if let Some(f) = ev.data_transfer().and_then(|d| d.files()).and_then(|f| f.get(0)) {
            t.start(f);
        }
    };
    let report_view = move || {
        t.imported.with(|i| {
            i.as_ref().map(|(_, r, _)| {
                let reasons: Vec<(String, u64)> = r.by_reason.iter().map(|(k, v)| (k.clone(), *v)).collect();
                let skips: Vec<String> = r.first_skips.iter().take(10).map(|s| s.to_string()).collect();
                let header: Vec<(String, String)> = r.header.iter().take(14).cloned().collect();
                let extra = r.extra_columns;
                view! {
                    <div
                        class="trace-report"
                        id="trace-report"
                        data-lines=r.lines.to_string()
                        data-jobs=r.jobs.to_string()
                        data-skipped=r.skipped.to_string()
                        data-comments=r.comments.to_string()
                    >
                        {(extra > 0)
                            .then(|| {
                                view! {
                                    <p>
                                        {format!(
                                            "{extra} lines had more columns than the format; the extra columns were \
                                                ignored.",
                                        )}
                                    </p>
                                }
                            })}
                        {(!reasons.is_empty())
                            .then(|| {
                                view! {
                                    <table class="mini">
                                        <thead>
                                            <tr>
                                                <th>"skipped because"</th>
                                                <th>"lines"</th>
                                            </tr>
                                        </thead>
                                        <tbody>
                                            {reasons
                                                .into_iter()
                                                .map(|(k, v)| {
                                                    view! {
                                                        <tr>
                                                            <td>{k}</td>
                                                            <td>{v}</td>
                                                        </tr>
                                                    }
                                                })
                                                .collect_view()}
                                        </tbody>
                                    </table>
                                }
                            })}
                        {(!skips.is_empty())
                            .then(|| {
                                view! {
                                    <details>
                                        <summary>"First skipped lines"</summary>
                                        <ul class="skips">
                                            {skips.into_iter().map(|s| view! { <li>{s}</li> }).collect_view()}
                                        </ul>
                                    </details>
                                }
                            })}
                        {(!header.is_empty())
                            .then(|| {
                                view! {
                                    <details>
                                        <summary>"Header"</summary>
                                        <table class="mini">
                                            <tbody>
                                                {header
                                                    .into_iter()
                                                    .map(|(k, v)| {
                                                        view! {
                                                            <tr>
                                                                <td>{k}</td>
                                                                <td>{v}</td>
                                                            </tr>
                                                        }
                                                    })
                                                    .collect_view()}
                                            </tbody>
                                        </table>
                                    </details>
                                }
                            })}
                    </div>
                }
            })
        })
    };
    let bots_view = move || {
        t.bots.with(|b| {
            b.as_ref().map(|b| {
                view! {
                    <p
                        id="trace-bots"
                        data-bots=b.bots.to_string()
                        data-tasks=b.tasks.to_string()
                        data-users=b.users.to_string()
                    >
                        {format!(
                            "{} jobs → {} BoTs by the Δ rule; {}. Workload: {} BoTs, {} tasks, {} users.",
                            b.jobs,
                            b.groups,
                            b.multi_proc_note,
                            b.bots,
                            b.tasks,
                            b.users,
                        )}
                    </p>
                }
            })
        })
    };
    let delta_table = move || {
        let rows = t.by_delta.get();
        (!rows.is_empty()).then(|| {
            let classes: Vec<String> = rows[0].1.size_classes.iter().map(|c| c.class.clone()).collect();
            view! {
                <table class="mini" id="trace-deltas">
                    <thead>
                        <tr>
                            <th>"Δ [s]"</th>
                            <th>"BoTs"</th>
                            <th>"mean size"</th>
                            {classes.iter().map(|c| view! { <th>{c.clone()}</th> }).collect_view()}
                        </tr>
                    </thead>
                    <tbody>
                        {rows
                            .into_iter()
                            .map(|(d, r)| {
                                let mean = if r.bots > 0 { r.tasks as f64 / r.bots as f64 } else { 0.0 };
                                view! {
                                    <tr data-delta=d.to_string() data-bots=r.bots.to_string()>
                                        <td>{d.to_string()}</td>
                                        <td>{r.bots}</td>
                                        <td>{format!("{mean:.1}")}</td>
                                        {r.size_classes.iter().map(|c| view! { <td>{c.bots}</td> }).collect_view()}
                                    </tr>
                                }
                            })
                            .collect_view()}
                    </tbody>
                </table>
            }
        })
    };
    let fit_view = move || {
        if let Some(e) = t.fit_error.get() {
            return view! {
                <p class="field-error" id="trace-fit-error">
                    {format!("No model row could be fitted: {e}")}
                </p>
            }
            .into_any();
        }
        t.fit.with(|f| f.as_ref().map_or(().into_any(), |f| fit_table(f, "trace-fit").into_any()))
    };
    let scenario_fit_view = move || {
        t.scenario_fit.with(|f| match f {
            None => ().into_any(),
            Some(Err(e)) => view! {
                <p class="field-error" id="scenario-fit-error">
                    {format!("No model row could be fitted: {e}")}
                </p>
            }
            .into_any(),
            Some(Ok((f, _))) => view! {
                <h3>"Fitted model row"</h3>
                {fit_table(f, "scenario-fit")}
            }
            .into_any(),
        })
    };
    let scenario_candidates =
        Signal::derive(move || t.scenario_fit.with(|f| f.as_ref().and_then(|f| f.as_ref().ok()).map(|f| f.1.clone())));
    view! {
        <details class="trace-lab" id="trace-lab" open>
            <summary>"Workload lab — import a real trace"</summary>
            <p class="help">
                "A log in the Standard Workload Format (Parallel Workloads Archive, .swf) or the Grid Workloads Format \
                    (Grid Workloads Archive, .gwf), plain or gzip. It is parsed in the simulation worker, on this \
                    computer; nothing is uploaded. BoTs are found with the Δ rule of Minh & Wolters 2010 §II-C: \
                    consecutive jobs of the same user, group, queue, executable, requested time and processors, each \
                    at most Δ after the previous one. The model row is fitted as Iosup et al. 2008 §3.1 does (six \
                    families by maximum likelihood, the lowest Kolmogorov–Smirnov D)."
            </p>
            <div
                class="trace-drop"
                id="trace-drop"
                on:dragover=move |ev: leptos::ev::DragEvent| ev.prevent_default()
                on:drop=on_drop
            >
                <label>
                    "Trace file "
                    <input
                        type="file"
                        id="trace-file"
                        accept=".swf,.gwf,.json,.gz,.txt"
                        disabled=move || importing() || !ready()
                        on:change=move |ev| {
                            if let Some(f) = file_of_input(&ev) {
                                t.start(f);
                            }
                        }
                    />
                </label>
                <label>
                    " format " <select id="trace-format" on:change=move |ev| t.format.set(event_target_value(&ev))>
                        <option value="auto">"from the name (.gwf, .json, else SWF)"</option>
                        <option value="swf">"SWF"</option>
                        <option value="gwf">"GWF"</option>
                        <option value="batsim">"Batsim JSON"</option>
                    </select>
                </label>
                <span class="help">" — or drop the file here."</span>
                <button id="trace-cancel" class="small" disabled=move || !importing() on:click=move |_| t.cancel()>
                    "Cancel import"
                </button>
            </div>
            <progress id="trace-progress" max="1000" prop:value=move || (fraction() * 1000.0).round()></progress>
            <p
                id="trace-status"
                class=move || format!("status {}", t.phase.get().as_str())
                data-state=move || t.phase.get().as_str()
                data-handle-ms=move || format!("{:.1}", t.handle_ms.get())
            >
                {status}
            </p>
            <p id="trace-message" class="help">
                {move || t.message.get()}
            </p>
            {report_view}
            <div class="trace-rule" style=move || if t.imported.with(Option::is_some) { "" } else { "display:none" }>
                <label>
                    "Δ [s] "
                    <input
                        type="number"
                        id="trace-delta"
                        min="0"
                        max="86400"
                        step="10"
                        prop:value=move || t.delta.get()
                        on:change=move |ev| {
                            t.delta.set(event_target_value(&ev));
                            t.ask_bots();
                        }
                    />
                </label>
                <label>
                    <input
                        type="checkbox"
                        id="trace-split"
                        prop:checked=move || t.split.get()
                        on:change=move |ev| {
                            t.split.set(event_target_checked(&ev));
                            t.ask_bots();
                        }
                    />
                    " split a job of p processors into p tasks"
                </label>
                {move || {
                    t.bots
                        .with(|b| {
                            b.as_ref()
                                .filter(|b| b.parallel_jobs > 0 && !t.split.get())
                                .map(|b| {
                                    view! {
                                        <p class="warning" id="trace-parallel">
                                            {format!(
                                                "⚠ {} of the {} jobs use more than one processor, and a multi-cluster \
                                                    replay drops them: \
                         tick “split” to keep their work as tasks, or replay the log's jobs whole in the data grid.",
                                                b.parallel_jobs,
                                                b.jobs,
                                            )}
                                        </p>
                                    }
                                })
                        })
                }}
                <label>
                    <input
                        type="checkbox"
                        id="trace-same-user"
                        prop:checked=move || t.same_user.get()
                        on:change=move |ev| {
                            t.same_user.set(event_target_checked(&ev));
                            t.ask_bots();
                        }
                    />
                    " group by user only"
                </label>
                <div class="field-error" id="trace-delta-error">
                    {move || delta_error().unwrap_or_default()}
                </div>
                {bots_view}
                <h3>"BoTs against Δ"</h3>
                {delta_table}
                <h3>"Fitted model row"</h3>
                {fit_view}
                <crate::ui::fit_plots::CandidatesPanel candidates=t.candidates.into() id="trace-candidates" />
                <crate::ui::lazy::LazyPanel part=crate::ui::split::Part::TraceViews />
                <div class="trace-actions">
                    <button
                        id="trace-use"
                        disabled=move || delta_error().is_some()
                        on:click=move |_| t.use_trace()
                        title="Replay the trace's own submit and run times on the platform set under Platform."
                    >
                        "Run this trace"
                    </button>
                    <button
                        id="trace-use-data-grid"
                        disabled=move || t.max_procs().is_none()
                        on:click=move |_| t.use_data_grid()
                        title="The data-grid family runs each job whole, on as many processors as it asked: one site \
                        of the header's MaxProcs processors, no input data."
                    >
                        "Replay its jobs whole (data grid)"
                    </button>
                    <button
                        id="trace-use-model"
                        disabled=move || t.fit.with(Option::is_none)
                        on:click=move |_| t.use_model()
                        title="Generate a synthetic workload from the fitted row, at the load set under Workload."
                    >
                        "Use the fitted model"
                    </button>
                    <button
                        id="trace-use-platform"
                        disabled=move || t.max_procs().is_none()
                        on:click=move |_| t.use_platform()
                        title="One cluster of the header's MaxProcs processors, speed 1; edit it under Platform."
                    >
                        {move || {
                            t.max_procs()
                                .map_or(
                                    "No MaxProcs in the header".to_string(),
                                    |p| format!("Use the trace's platform ({p} processors)"),
                                )
                        }}
                    </button>
                </div>
            </div>
            <h3>"The current scenario's workload"</h3>
            <p class="help">
                "The same views of the workload the next run would simulate (generated, or the trace it replays)." " "
                <button
                    id="scenario-views-button"
                    class="small"
                    disabled=move || !ready()
                    on:click=move |_| t.ask_scenario_views()
                >
                    "Show its views"
                </button> " "<span id="scenario-views-message">{move || t.scenario_message.get()}</span>
            </p>
            <crate::ui::lazy::LazyPanel part=crate::ui::split::Part::ScenarioViews />
            {scenario_fit_view}
            <crate::ui::fit_plots::CandidatesPanel candidates=scenario_candidates id="scenario-candidates" />
        </details>
    }
}

/// The Table-3-like row of a fit (Iosup et al. 2008 Table 3), with the KS D of each characteristic.
fn fit_table(f: &FittedModel, id: &'static str) -> impl IntoView {
    let rows = [
        ("users", f.users.notation(), f.users.ks),
        ("log2 IAT [s]", notation(&f.iat.dist), f.iat.ks),
        ("daily cycle [slot]", notation(&f.daily_cycle.dist), f.daily_cycle.ks),
        ("log2 size", notation(&f.size.dist), f.size.ks),
        ("log2 ART [s]", notation(&f.art.dist), f.art.ks),
        ("log2 RTV [s²]", notation(&f.rtv.dist), f.rtv.ks),
    ];
    view! {
        <table class="mini" id=id>
            <thead>
                <tr>
                    <th scope="col">"characteristic"</th>
                    <th scope="col">"best fit (lowest KS D)"</th>
                    <th scope="col">"KS D"</th>
                </tr>
            </thead>
            <tbody>
                {rows
                    .into_iter()
                    .map(|(c, d, ks)| {
                        view! {
                            <tr data-char=c>
                                <td>{c}</td>
                                <td class="dist">{d}</td>
                                <td>{format!("{ks:.3}")}</td>
                            </tr>
                        }
                    })
                    .collect_view()}
            </tbody>
        </table>
    }
}
