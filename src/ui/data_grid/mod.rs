//! The data-grid family on the page ([Liu10], "Liu et al. 2010"): its controls, the cards of a run, its live charts
//! (mean turnaround so far, queued jobs and busy processors per site), a Gantt view of one site and the three
//! metascheduling schemes side by side. The run goes through the same worker and Run bar as every family; only its
//! detail and report are its own.

mod charts;
pub(crate) mod compare;
pub(crate) mod figures;
mod pinned;

use pinned::{pin_finished, pinned_scenarios};

use crate::family::contract::{Header, Start};
use crate::family::data_grid::policy::SchemePolicy;
use crate::family::data_grid::{DdConfig, DdDetail, DdReport, JobRecord, Pending, Sample};
use crate::registry::{AnyDetail, AnyReport, Family};
use crate::scenario::Scenario;
use crate::script::ScriptSource;
use crate::ui::contract::PageFamily;
use crate::ui::form::{number, number_field, parse, select_field, Ctl};
use crate::ui::lab::{fmt_time, Lab, Throttle};
use crate::ui::lazy::LazyPanel;
use crate::ui::not_modelled::NotModelled;
use crate::ui::script_box::{policy_field, PolicyKey};
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
    version: RwSignal<u64>,
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
            version: RwSignal::new(0),
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
        st.version.update(|v| *v += 1);
    }
}

/// The scenario's data-grid section to change; one of its controls used while another family is shown
/// (they are hidden then) is refused.
/// The metascheduling scripts a user starts from ([Liu10]'s finish_time_data_aware written as a script).
const SCHEME_EXAMPLES: [(&str, &str); 1] =
    [("finish_time_data_aware", include_str!("../../../examples/policies/finish_time_data_aware.rhai"))];

fn dg(s: &mut Scenario) -> Result<&mut DdConfig, String> {
    let family = s.family().name();
    s.data_grid_mut()
        .map(|d| &mut d.data_grid)
        .ok_or_else(|| format!("a data_grid setting, and the scenario is of family {family}"))
}

/// The scenario's data-grid section, or its defaults while another family is shown.
fn cfg_of(s: &Scenario) -> DdConfig {
    s.data_grid().map(|d| d.data_grid.clone()).unwrap_or_default()
}

/// A list of whole numbers written "130, 64, 64".
fn parse_sites(text: &str) -> Result<Vec<u32>, String> {
    text.split(',').map(|p| parse::<u32>(p, "processors per site, e.g. 130, 64, 64, 128, 32")).collect()
}

/// The data-grid controls.
#[component]
pub fn DdControls() -> impl IntoView {
    let lab = expect_context::<Lab>();
    use crate::family::data_grid::{BackfillRule, Estimates, LocalPolicy, Scheme, Walltime};
    view! {
        <div class="dg-panel" id="dd-controls">
            <p class="help">"Rigid parallel jobs of a real log sent by a metascheduler to five sites, each running FCFS with advance reservations and conservative backfilling (or EASY backfilling, or plain FCFS); half of the jobs first need input data moved to the site, as in Liu et al. 2010, §III–IV."</p>
            <p class="help" id="dd-log">"The jobs come from the HPC2N log (Seth, HPC2N, Sweden, 2002), bundled with bagsim; the paper used the CTC and SDSC logs, which are not bundled, so numbers differ from the paper's figures. "
                <a href="hpc2n.swf" download="hpc2n.swf">"Download the log"</a>"."</p>
            {policy_field(Ctl { id: "dd-scheme", label: "Metascheduling scheme", help: "Earliest start, data ignored (start_time_no_data_aware in a scenario file): the site that can start the job first; the job moves its own data on its processors. Earliest finish, data moved on the job's processors (finish_time_no_overlap): the site that can finish it first counting the transfer, which still runs on its processors. Earliest finish, data moved while the job queues (finish_time_data_aware): the site that finishes it first, the data moving from dispatch on, while the job waits in the queue (§IV). Or your own scheme written as a script (docs/policies.md)", path: "data_grid.scheme" },
                PolicyKey { family: Family::DataGrid, key: "scheme", choices: (&Scheme::ALL, Scheme::name, |v| v.label().to_string()),
                builtin: |s| cfg_of(s).scheme.builtin(), script: |s| cfg_of(s).scheme.script().map(str::to_string),
                set_builtin: |s, v| { dg(s)?.scheme = v.into(); Ok(()) },
                set_script: |s, text| { dg(s)?.scheme = SchemePolicy::Script(ScriptSource::new(text)); Ok(()) },
                examples: &SCHEME_EXAMPLES, script_id: "dd-scheme-script", box_id: "dd-scheme-script-editor" })}
            {select_field(Ctl { id: "dd-local-policy", label: "Local scheduler of each site", help: "conservative: every queued job holds a reservation, and a job may start early only where it delays none (the paper's, §IV-A); easy: only the first queued job holds one, and a later job starts now if it does not delay that one; fcfs: jobs start in the order they reached the site", path: "data_grid.local_policy" },
                (&LocalPolicy::ALL, LocalPolicy::name, |v| v.name().to_string()), |s| cfg_of(s).local_policy, |s, v| { dg(s)?.local_policy = v; Ok(()) })}
            {number_field(Ctl { id: "dd-depth", label: "Backfill depth", help: "queued jobs a site's scheduler considers per pass (Slurm's bf_max_job_test); 0: all, as in the paper", path: "data_grid.backfill_depth" }, "10", |s| cfg_of(s).backfill_depth.to_string(),
                |s, t| { dg(s)?.backfill_depth = parse(t, "a whole number of jobs, 0 for all")?; Ok(()) })}
            {select_field(Ctl { id: "dd-backfill", label: "Backfill rule", help: "data_aware: a job whose data is still arriving may take a hole that holds its remaining transfer and its computation (§III); data_arrived: only jobs whose data has arrived, or that need none", path: "data_grid.backfill_rule" },
                (&BackfillRule::ALL, BackfillRule::name, |v| v.name().to_string()), |s| cfg_of(s).backfill_rule, |s, v| { dg(s)?.backfill_rule = v; Ok(()) })}
            {number_field(Ctl { id: "dd-share", label: "Share of jobs with data", help: "the fraction of jobs that need input data moved (0.5 in the paper; Fig. 9 varies it)", path: "data_grid.data_share" }, "0.1", |s| cfg_of(s).data_share.to_string(),
                |s, t| { dg(s)?.data_share = number(t, "a fraction between 0 and 1")?; Ok(()) })}
            {number_field(Ctl { id: "dd-data-max", label: "Largest data size [GB]", help: "sizes are uniform from 10 MB to this (10 GB or 800 GB in the paper)", path: "data_grid.data_mb" }, "10", |s| (cfg_of(s).data_mb[1] / 1000.0).to_string(),
                |s, t| { dg(s)?.data_mb[1] = number(t, "gigabytes, e.g. 10 or 800")? * 1000.0; Ok(()) })}
            {number_field(Ctl { id: "dd-factor", label: "Runtime factor (load)", help: "every runtime and estimate multiplied by this: 1 is the log's load, 3 the paper's high load (§IV-A)", path: "data_grid.runtime_factor" }, "1", |s| cfg_of(s).runtime_factor.to_string(),
                |s, t| { dg(s)?.runtime_factor = number(t, "a factor such as 1 or 3")?; Ok(()) })}
            {select_field(Ctl { id: "dd-estimates", label: "Runtime estimates", help: "requested: the log's requested time, as users give it; accurate: the actual runtime (Fig. 7)", path: "data_grid.estimates" },
                (&Estimates::ALL, Estimates::name, |v| v.name().to_string()), |s| cfg_of(s).estimates, |s, v| { dg(s)?.estimates = v; Ok(()) })}
            {select_field(Ctl { id: "dd-walltime", label: "Job past its request", help: "run_to_log: the job runs to its logged time, its request raised to it (the site then knows its runtime); kill: stopped at its requested time, as batch systems do, the site seeing only requests", path: "data_grid.walltime" },
                (&Walltime::ALL, Walltime::name, |v| v.name().to_string()), |s| cfg_of(s).walltime, |s, v| { dg(s)?.walltime = v; Ok(()) })}
            <div class="field">
                <label for="dd-sites" title="processors of each site">"Sites (processors each)"</label>
                <input id="dd-sites" prop:value=move || lab.scenario.with(|s| cfg_of(s).sites.iter().map(u32::to_string).collect::<Vec<_>>().join(", "))
                    on:change=move |ev| { let text = event_target_value(&ev); crate::ui::form::apply(lab, "data_grid.sites", |s| { dg(s)?.sites = parse_sites(&text)?; Ok(()) }) }/>
                <div class="help">"130, 64, 64, 128, 32 in the paper (§IV-A)"</div>
                {crate::ui::form::error_view("data_grid.sites")}
            </div>
            <div class="field">
                <label for="dd-trace" title="the workload log the jobs come from">"Log"</label>
                <input id="dd-trace" prop:value=move || lab.scenario.with(|s| cfg_of(s).trace)
                    on:change=move |ev| { let text = event_target_value(&ev); crate::ui::form::apply(lab, "data_grid.trace", |s| { dg(s)?.trace = text.trim().to_string(); Ok(()) }) }/>
                <div class="help">"hpc2n.swf (bundled), or the file name of a log loaded in the multi-cluster family's Workload lab"</div>
                {crate::ui::form::error_view("data_grid.trace")}
            </div>
            {number_field(Ctl { id: "dd-jobs", label: "Jobs", help: "how many consecutive jobs of the log the run takes (5 000 in the paper; the bundled log has 3 170)", path: "data_grid.jobs" }, "100", |s| cfg_of(s).jobs.to_string(),
                |s, t| { dg(s)?.jobs = parse(t, "a whole number of jobs")?; Ok(()) })}
            {number_field(Ctl { id: "dd-seed", label: "Seed", help: "the seed of the data and bandwidth draws: the same seed gives the same run under every scheme", path: "seed" }, "1", |s| s.seed().to_string(),
                |s, t| { s.set_seed(parse(t, "a whole number ≥ 0")?); Ok(()) })}
        </div>
    }
}

/// The Gantt view's numbers: the jobs it draws, as a table (its text alternative), built when opened.
#[component]
fn GanttNumbers(st: DdPage) -> impl IntoView {
    let (site, version) = (st.site, st.version);
    let open = RwSignal::new(false);
    let rows = move || {
        if !open.get() {
            return Vec::new();
        }
        version.track();
        let k = site.get();
        st.live.with_value(|l| {
            charts::gantt_jobs(&l.jobs, k)
                .into_iter()
                .map(|j| {
                    view! {
                        <tr>
                            <td>{j.job}</td><td>{j.procs}</td><td>{format!("{:.0}", j.submit)}</td>
                            <td>{format!("{:.0}", j.reservation)}</td><td>{format!("{:.0}", j.hold_start)}</td>
                            <td>{format!("{:.0}", j.compute_start)}</td><td>{format!("{:.0}", j.end)}</td>
                            <td>{if j.data_mb > 0.0 { format!("{:.0}–{:.0}", j.transfer_start, j.transfer_end) } else { "—".to_string() }}</td>
                        </tr>
                    }
                })
                .collect::<Vec<_>>()
        })
    };
    view! {
        <details class="numbers" id="dd-gantt-numbers" on:toggle=move |ev| {
            use wasm_bindgen::JsCast;
            let opened = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).is_some_and(|d| d.has_attribute("open"));
            open.set(opened);
        }>
            <summary>"Numbers of the Gantt view"</summary>
            <table>
                <thead><tr><th scope="col">"job"</th><th scope="col">"processors"</th><th scope="col">"submitted [s]"</th><th scope="col">"first reservation [s]"</th><th scope="col">"took processors [s]"</th><th scope="col">"computed from [s]"</th><th scope="col">"ended [s]"</th><th scope="col">"transfer [s]"</th></tr></thead>
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
                st.version.update(|v| *v += 1);
            }
            id
        });
    }
    {
        Effect::new(move |_| {
            st.version.track();
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
            None => view! { <div class="card"><div class="card-title">"Results"</div><div class="card-value">"—"</div></div> }.into_any(),
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
                <p class="dg-live" id="dd-live" aria-live="polite">{live}</p>
                <div class="cards" id="dd-cards">{cards}</div>
                <crate::ui::present::ChartStepper prefix="dd-"/>
                <div class="charts">
                    {charts::CHARTS.iter().enumerate().map(|(i, &(id, title))| view! {
                        <figure class=move || if present.is_current(i) { "chart current" } else { "chart" }>
                            <canvas id=id width="560" height="320" role="img" aria-label=format!("{title}: chart")></canvas>
                            <figcaption>{title}" "<pinned::DdChartNumbers k=i sites=sites_signal st=st/></figcaption>
                        </figure>
                    }).collect_view()}
                </div>
                <figure class=move || if present.is_current(charts::CHARTS.len()) { "chart gantt current" } else { "chart gantt" }>
                    <div class="field">
                        <label for="dd-gantt-site">"Gantt view of site "</label>
                        <select id="dd-gantt-site" prop:value=move || site.get().to_string()
                            on:change=move |ev| site.set(event_target_value(&ev).parse().unwrap_or(0))>
                            {move || site_names().iter().enumerate().map(|(i, p)| view! { <option value=i.to_string()>{format!("{} ({p} processors)", i + 1)}</option> }).collect_view()}
                        </select>
                    </div>
                    <canvas id=charts::GANTT width="1120" height="420" role="img" aria-label="Gantt chart of the chosen site: jobs as boxes over processors and time"></canvas>
                    <figcaption>{charts::GANTT_CAPTION}</figcaption>
                </figure>
                <GanttNumbers st=st/>
                <crate::ui::run_tools::RunTools prefix="dd-" done=done
                    rows=Some("Per-job results (CSV)") charts=charts_list()/>
                <pinned::DdPinBar done=done st=st/>
                <LazyPanel part=Part::DdCompare/>
                <LazyPanel part=Part::DdFigures/>
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
            <DdControls/>
            <NotModelled id="not-modelled-dd" text=NOT_MODELLED/>
        }
        .into_any()
    }

    fn results(&self) -> AnyView {
        let st = *self;
        view! { <DdResults st=st/> }.into_any()
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
        leptos::mount::mount_to(element, move || view! { <figures::DdFigures scenario=scenario/> }).forget();
    } else {
        leptos::mount::mount_to(element, move || view! { <compare::Compare scenario=scenario/> }).forget();
    }
    None
}

/// The script box of the policy key a lesson may ask the class to write: its first example and the box's id.
pub(crate) fn your_own_box(key: &str) -> Option<(&'static str, &'static str)> {
    (key == "scheme").then_some((SCHEME_EXAMPLES[0].1, "dd-scheme-script-editor"))
}
