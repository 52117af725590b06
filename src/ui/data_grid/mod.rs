//! The data-grid family on the page ([Liu10], "Liu et al. 2010"): its controls, the cards of a run, its live charts
//! (mean turnaround so far, queued jobs and busy processors per site), a Gantt view of one site and the three
//! metascheduling schemes side by side. The run goes through the same worker and Run bar as every family; only its
//! detail and report are its own.

mod charts;
pub(crate) mod compare;
mod controls;
pub(crate) mod figures;
mod pinned;

use crate::ui::lab::Repaint;
pub use controls::DdControls;
use controls::{cfg_of, dg, SCHEME_EXAMPLES};
use pinned::{pin_finished, pinned_scenarios};

use crate::family::contract::{Header, Start};
use crate::family::data_grid::{DdDetail, DdReport, JobRecord, Pending, Sample};
use crate::registry::{AnyDetail, AnyReport, Family};
use crate::scenario::Scenario;
use crate::ui::contract::PageFamily;
use crate::ui::lab::{fmt_time, Lab, Throttle};
use crate::ui::lazy::LazyPanel;
use crate::ui::not_modelled::NotModelled;
use crate::ui::split::Part;
use leptos::prelude::*;

/// The run's samples and finished jobs, outside the reactive graph (a run streams thousands).
#[derive(Default)]
struct Live {
    run_id: u32,
    samples: Vec<Sample>,
    jobs: Vec<JobRecord>,
    /// Jobs running now and the next reservations (the latest progress message's).
    pending: Vec<Pending>,
    /// Finished runs kept for comparison (pinned.rs).
    pinned: Vec<crate::ui::pins::PinnedRun<Sample>>,
}

/// The data-grid family's store on the page: made once by the page's list of families (`families.rs`), it is the
/// family's [`PageFamily`]. Every field is a handle, so it is passed by copy.
#[derive(Clone, Copy)]
pub struct DdPage {
    /// The page's shared state (the scenario shown, the run bar).
    lab: Lab,
    header: RwSignal<Option<Header>>,
    report: RwSignal<Option<Box<DdReport>>>,
    repaint: Repaint,
    /// The site the Gantt view shows.
    site: RwSignal<usize>,
    /// The run's samples and finished jobs and the pinned runs, outside the reactive graph.
    live: StoredValue<Live, LocalStorage>,
    redraw: StoredValue<Throttle, LocalStorage>,
    zoom: charts::GanttZoom,
}

impl DdPage {
    /// The store, within the shell's reactive owner (it reads the page's state from context).
    pub fn new() -> DdPage {
        DdPage {
            lab: expect_context::<Lab>(),
            header: RwSignal::new(None),
            report: RwSignal::new(None),
            repaint: Repaint::new(),
            site: RwSignal::new(0),
            live: StoredValue::new_local(Live::default()),
            redraw: StoredValue::new_local(Throttle::new()),
            zoom: StoredValue::new_local((0.0, 1.0)),
        }
    }
}

fn is_data_grid(lab: Lab) -> bool {
    lab.scenario.with(|s| s.family() == Family::DataGrid)
}

/// A data-grid run's progress: its samples and finished jobs join the live charts.
pub(crate) fn on_progress(st: DdPage, lab: Lab, header: &Header, d: DdDetail) {
    let current = lab.run_id.get_untracked();
    st.live.update_value(|l| {
        if l.run_id != current {
            let pinned = std::mem::take(&mut l.pinned);
            *l = Live { run_id: current, pinned, ..Live::default() };
        }
        l.samples.extend_from_slice(&d.samples);
        l.jobs.extend_from_slice(&d.jobs);
        l.pending = d.pending;
    });
    st.header.set(Some(*header));
    redraw(st, header.finished_tasks == header.tasks);
}

/// A data-grid run ended with its report.
pub(crate) fn on_finished(st: DdPage, report: Box<DdReport>) {
    st.report.set(Some(report));
    redraw(st, true);
}

fn redraw(st: DdPage, force: bool) {
    if st.redraw.with_value(|t| t.due(force)) {
        st.repaint.ask();
    }
}

/// The Gantt view's numbers: the jobs it draws, as a table (its text alternative), built when opened.
#[component]
fn GanttNumbers(st: DdPage) -> impl IntoView {
    let (site, repaint) = (st.site, st.repaint);
    let open = RwSignal::new(false);
    let rows = move || {
        if !open.get() {
            return Vec::new();
        }
        repaint.track();
        let k = site.get();
        st.live.with_value(|l| {
            charts::gantt_jobs(&l.jobs, k)
                .into_iter()
                .map(|j| {
                    view! {
                        <tr>
                            <td>{j.job}</td>
                            <td>{j.procs}</td>
                            <td>{format!("{:.0}", j.submit)}</td>
                            <td>{format!("{:.0}", j.reservation)}</td>
                            <td>{format!("{:.0}", j.hold_start)}</td>
                            <td>{format!("{:.0}", j.compute_start)}</td>
                            <td>{format!("{:.0}", j.end)}</td>
                            <td>
                                {if j.data_mb > 0.0 {
                                    format!("{:.0}–{:.0}", j.transfer_start, j.transfer_end)
                                } else {
                                    "—".to_string()
                                }}
                            </td>
                        </tr>
                    }
                })
                .collect::<Vec<_>>()
        })
    };
    view! {
        <details
            class="numbers"
            id="dd-gantt-numbers"
            on:toggle=move |ev| {
                use wasm_bindgen::JsCast;
                let opened = ev
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                    .is_some_and(|d| d.has_attribute("open"));
                open.set(opened);
            }
        >
            <summary>"Numbers of the Gantt view"</summary>
            <table>
                <thead>
                    <tr>
                        <th scope="col">"job"</th>
                        <th scope="col">"processors"</th>
                        <th scope="col">"submitted [s]"</th>
                        <th scope="col">"first reservation [s]"</th>
                        <th scope="col">"took processors [s]"</th>
                        <th scope="col">"computed from [s]"</th>
                        <th scope="col">"ended [s]"</th>
                        <th scope="col">"transfer [s]"</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </details>
    }
}

/// The cards, live charts, Gantt view and scheme comparison of a data-grid run.
/// The charts projector mode steps through (canvas id, title): the time series, then the Gantt view.
pub(crate) fn charts_list() -> Vec<(&'static str, &'static str)> {
    let mut list = charts::CHARTS.to_vec();
    list.push((charts::GANTT, "Gantt view of a site"));
    list
}

#[component]
pub fn DdResults(st: DdPage) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let present = expect_context::<crate::ui::present::Present>();
    {
        Effect::new(move |prev: Option<u32>| {
            let id = lab.run_id.get();
            if prev.is_some_and(|p| p != id) {
                st.report.set(None);
                st.header.set(None);
                st.live.update_value(|l| {
                    let pinned = std::mem::take(&mut l.pinned);
                    *l = Live { run_id: id, pinned, ..Live::default() };
                });
                st.repaint.ask();
            }
            id
        });
    }
    {
        Effect::new(move |_| {
            st.repaint.track();
            let site = st.site.get();
            if is_data_grid(lab) {
                let sites = lab.scenario.with_untracked(|s| cfg_of(s).sites.clone());
                let current = st.report.with_untracked(|r| r.as_ref().map(|r| pinned::run_label(&r.scenario)));
                let current = current.unwrap_or_else(|| "current run".into());
                st.live.with_value(|l| {
                    charts::draw_all(l, &sites, site.min(sites.len().saturating_sub(1)), &current, st.zoom)
                });
            }
        });
    }
    let (report, header) = (st.report, st.header);
    let cards = move || {
        report.with(|r| match r {
            Some(r) => charts::cards(r)
                .into_iter()
                .map(|(id, title, help, value, shown)| {
                    view! {
                        <div class="card" id=id title=help data-value=value.to_string()>
                            <div class="card-title">{title}</div>
                            <div class="card-value">{shown}</div>
                            <div class="card-note">{help}</div>
                        </div>
                    }
                })
                .collect_view()
                .into_any(),
            None => view! {
                <div class="card">
                    <div class="card-title">"Results"</div>
                    <div class="card-value">"—"</div>
                </div>
            }
            .into_any(),
        })
    };
    let live = move || {
        header.with(|h| match h {
            Some(h) => format!(
                "{} of {} jobs done; {} processors busy, {} jobs queued; simulated {}",
                h.finished_tasks,
                h.tasks,
                h.busy,
                h.queued,
                fmt_time(h.now)
            ),
            None => String::new(),
        })
    };
    let site = st.site;
    let site_names = move || lab.scenario.with(|s| cfg_of(s).sites.clone());
    let sites_signal = Signal::derive(site_names);
    let done = Signal::derive(move || st.report.with(|r| r.is_some()) && lab.run_family.get() == Family::DataGrid);
    view! {
        <Show when=move || is_data_grid(lab)>
            <div class="dg-results" id="dd-results">
                <p class="dg-live" id="dd-live" aria-live="polite">
                    {live}
                </p>
                <div class="cards" id="dd-cards">
                    {cards}
                </div>
                <crate::ui::present::ChartStepper prefix="dd-" />
                <div class="charts">
                    {charts::CHARTS
                        .iter()
                        .enumerate()
                        .map(|(i, &(id, title))| {
                            view! {
                                <figure class=move || if present.is_current(i) { "chart current" } else { "chart" }>
                                    <canvas
                                        id=id
                                        width="560"
                                        height="320"
                                        role="img"
                                        aria-label=format!("{title}: chart")
                                    ></canvas>
                                    <figcaption>
                                        {title}" "<pinned::DdChartNumbers k=i sites=sites_signal st=st />
                                    </figcaption>
                                </figure>
                            }
                        })
                        .collect_view()}
                </div>
                <figure class=move || {
                    if present.is_current(charts::CHARTS.len()) { "chart gantt current" } else { "chart gantt" }
                }>
                    <div class="field">
                        <label for="dd-gantt-site">"Gantt view of site "</label>
                        <select
                            id="dd-gantt-site"
                            prop:value=move || site.get().to_string()
                            on:change=move |ev| site.set(event_target_value(&ev).parse().unwrap_or(0))
                        >
                            {move || {
                                site_names()
                                    .iter()
                                    .enumerate()
                                    .map(|(i, p)| {
                                        view! {
                                            <option value=i.to_string()>{format!("{} ({p} processors)", i + 1)}</option>
                                        }
                                    })
                                    .collect_view()
                            }}
                        </select>
                    </div>
                    <canvas
                        id=charts::GANTT
                        width="1120"
                        height="420"
                        role="img"
                        aria-label="Gantt chart of the chosen site: jobs as boxes over processors and time"
                    ></canvas>
                    <figcaption>{charts::GANTT_CAPTION}</figcaption>
                </figure>
                <GanttNumbers st=st />
                <crate::ui::run_tools::RunTools
                    prefix="dd-"
                    done=done
                    rows=Some("Per-job results (CSV)")
                    charts=charts_list()
                />
                <pinned::DdPinBar done=done st=st />
                <LazyPanel part=Part::DdCompare />
                <LazyPanel part=Part::DdFigures />
            </div>
        </Show>
    }
}

/// What the family does not model (docs/limits.md), under its controls.
const NOT_MODELLED: &str =
    "local policies other than conservative backfilling, EASY and FCFS; machine failures; transfers sharing a \
     link (each gets its own bandwidth); stage-out; a job spread over sites. See docs/limits.md.";

impl PageFamily for DdPage {
    fn family(&self) -> Family {
        Family::DataGrid
    }

    fn label(&self) -> &'static str {
        "Data grid (Liu et al. 2010)"
    }

    fn prefix(&self) -> &'static str {
        "dd-"
    }

    fn controls(&self) -> AnyView {
        view! {
            <DdControls />
            <NotModelled id="not-modelled-dd" text=NOT_MODELLED />
        }
        .into_any()
    }

    fn results(&self) -> AnyView {
        let st = *self;
        view! { <DdResults st=st /> }.into_any()
    }

    fn charts(&self) -> Vec<(&'static str, &'static str)> {
        charts_list()
    }

    fn work_unit(&self) -> &'static str {
        "jobs"
    }

    fn rows_file(&self) -> &'static str {
        "bagsim-jobs.csv"
    }

    fn started_text(&self, start: &Start, generate_s: f64) -> String {
        format!("{} jobs, offered load {:.4} (read in {generate_s:.2} s)", start.tasks, start.achieved_load)
    }

    fn on_progress(&self, header: &Header, detail: AnyDetail) {
        if let AnyDetail::DataGrid(d) = detail {
            on_progress(*self, self.lab, header, d);
        }
    }

    fn on_finished(&self, report: AnyReport) {
        if let AnyReport::DataGrid(r) = report {
            on_finished(*self, r);
        }
    }

    fn pinned_scenarios(&self) -> Vec<Scenario> {
        pinned_scenarios(*self)
    }

    fn pin_finished(&self) {
        pin_finished(*self);
    }
}

/// Mounts the family's parts of the page's second module, its paper figures and its comparison of the schemes;
/// gives `element` back for any other part.
pub(crate) fn mount_part(part: Part, element: web_sys::HtmlElement) -> Option<web_sys::HtmlElement> {
    let scenario = match part {
        Part::DdFigures | Part::DdCompare => crate::ui::shown::mirror(),
        _ => return Some(element),
    };
    if part == Part::DdFigures {
        leptos::mount::mount_to(element, move || view! { <figures::DdFigures scenario=scenario /> }).forget();
    } else {
        leptos::mount::mount_to(element, move || view! { <compare::Compare scenario=scenario /> }).forget();
    }
    None
}

/// The script box of the policy key a lesson may ask the class to write: its first example and the box's id.
pub(crate) fn your_own_box(key: &str) -> Option<(&'static str, &'static str)> {
    (key == "scheme").then_some((SCHEME_EXAMPLES[0].1, "dd-scheme-script-editor"))
}
