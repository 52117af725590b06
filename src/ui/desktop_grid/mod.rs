//! The desktop-grid family on the page ([Anglano09], "Anglano & Canonico 2009"): the family switch, the
//! desktop-grid controls, the cards of a run and its two live charts (machines up, replicas running). The run goes
//! through the same worker and Run bar as a multi-cluster one; only its `DgDetail` and `DgReport` are its own.

pub(crate) mod figures;
mod pinned;

use pinned::{pin_finished, pinned_scenarios};
mod readings;

use crate::family::contract::{Header, Start};
use crate::family::desktop_grid::availability::AvailabilityLevel;
use crate::family::desktop_grid::config::{CheckpointStore, Heterogeneity, LongIdleRule};
use crate::family::desktop_grid::policy::{BotPolicy, BotSelection};
use crate::family::desktop_grid::workload::Mix;
use crate::family::desktop_grid::{DgConfig, DgDetail, DgReport, DgSample};
use crate::registry::{AnyDetail, AnyReport, Family};
use crate::scenario::Scenario;
use crate::script::ScriptSource;
use crate::ui::contract::PageFamily;
use crate::ui::form::{number, number_field, parse, select_field, Ctl};
use crate::ui::lab::{fmt_time, Lab, Throttle};
use crate::ui::lazy::LazyPanel;
use crate::ui::measured;
use crate::ui::not_modelled::NotModelled;
use crate::ui::script_box::{policy_field, PolicyKey};
use crate::ui::split::Part;
use leptos::prelude::*;
use plotters::prelude::*;
use wasm_bindgen::JsCast;

/// A chart: canvas id, title, y axis, value of a sample.
type ChartSpec = (&'static str, &'static str, &'static str, fn(&DgSample) -> f64);

const CHARTS: [ChartSpec; 2] = [
    ("dg-chart-machines", "Machines up", "machines available", |s| f64::from(s.machines_up)),
    ("dg-chart-replicas", "Replicas running", "replicas (busy machines)", |s| f64::from(s.replicas_running)),
];

/// The run's samples, outside the reactive graph (a run streams thousands).
/// Where the run stands: the shared header and the BoT counts.
#[derive(Clone)]
struct Standing {
    header: Header,
    bots: u64,
    finished_bots: u64,
}

#[derive(Default)]
struct Live {
    run_id: u32,
    samples: Vec<DgSample>,
    /// Finished runs kept on the charts (pinned.rs).
    pinned: Vec<crate::ui::pins::PinnedRun<DgSample>>,
}

/// The desktop-grid family's store on the page: made once by the page's list of families (`families.rs`), it is
/// the family's [`PageFamily`]. Every field is a handle, so it is passed by copy.
#[derive(Clone, Copy)]
pub struct DgPage {
    /// The page's shared state (the scenario shown, the run bar).
    lab: Lab,
    progress: RwSignal<Option<Standing>>,
    report: RwSignal<Option<Box<DgReport>>>,
    version: RwSignal<u64>,
    /// The run's samples and the pinned runs, outside the reactive graph (a run streams thousands).
    live: StoredValue<Live, LocalStorage>,
    redraw: StoredValue<Throttle, LocalStorage>,
}

impl DgPage {
    /// The store, within the shell's reactive owner (it reads the page's state from context).
    pub fn new() -> DgPage {
        DgPage {
            lab: expect_context::<Lab>(),
            progress: RwSignal::new(None),
            report: RwSignal::new(None),
            version: RwSignal::new(0),
            live: StoredValue::new_local(Live::default()),
            redraw: StoredValue::new_local(Throttle::new()),
        }
    }
}

fn is_dg(lab: Lab) -> bool {
    lab.scenario.with(|s| s.family() == Family::DesktopGrid)
}

/// A desktop-grid run's progress: its samples join the live charts (`ui::Lab::on_message` passes them on).
pub(crate) fn on_progress(st: DgPage, lab: Lab, header: &Header, d: DgDetail) {
    let current = lab.run_id.get_untracked();
    let force = d.finished_bots == d.bots;
    st.live.update_value(|l| {
        if l.run_id != current {
            l.run_id = current;
            l.samples.clear();
        }
        l.samples.extend_from_slice(&d.samples);
    });
    st.progress.set(Some(Standing { header: *header, bots: d.bots, finished_bots: d.finished_bots }));
    redraw(st, force);
}

/// A desktop-grid run ended with its report.
pub(crate) fn on_finished(st: DgPage, report: Box<DgReport>) {
    st.report.set(Some(report));
    redraw(st, true);
}

/// Asks the charts to redraw, as the page's throttle allows.
fn redraw(st: DgPage, force: bool) {
    if st.redraw.with_value(|t| t.due(force)) {
        st.version.update(|v| *v += 1);
    }
}

type DrawResult<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// The runs' series over simulated time (days): the current run first (colour 0), then the pinned ones, each
/// with its colour, dash and marker; a legend names them once a run is pinned.
fn draw_series<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    (title, y_label, pick): (&str, &str, fn(&DgSample) -> f64),
    runs: &[&[DgSample]],
    labels: &[String],
) -> DrawResult<DB> {
    root.fill(&WHITE)?;
    if runs.iter().all(|s| s.is_empty()) {
        root.draw(&Text::new(format!("{title}: no data yet"), (20, 30), ("sans-serif", 15).into_font()))?;
        return Ok(());
    }
    let lines: Vec<Vec<(f64, f64)>> =
        runs.iter().map(|samples| samples.iter().map(|s| (s.time / 86_400.0, pick(s))).collect()).collect();
    // Replicas start and end at every task: drawn per window (mean, min–max) once the run has many samples.
    let band = title == "Replicas running";
    crate::ui::axes::time_lines(root, title, y_label, &lines, labels, None, band)
}

fn draw_charts(st: DgPage) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let current = st.report.with_untracked(|r| r.as_ref().map(|r| pinned::run_label(&r.scenario)));
    st.live.with_value(|l| {
        let mut runs: Vec<&[DgSample]> = vec![l.samples.as_slice()];
        runs.extend(l.pinned.iter().map(|p| p.samples.as_slice()));
        let labels: Vec<String> = if l.pinned.is_empty() {
            Vec::new()
        } else {
            std::iter::once(current.unwrap_or_else(|| "current run".into()))
                .chain(l.pinned.iter().map(|p| p.pin.label.clone()))
                .collect()
        };
        for (id, title, y, pick) in CHARTS {
            let Some(canvas) =
                document.get_element_by_id(id).and_then(|e| e.dyn_into::<web_sys::HtmlCanvasElement>().ok())
            else {
                continue;
            };
            if let Some(backend) = measured::canvas(canvas) {
                let root = backend.into_drawing_area();
                let _ = draw_series(&root, (title, y, pick), &runs, &labels);
                let _ = root.present();
            }
        }
    });
}

/// A card: id, title, help, exact value (`data-value`), the value as shown, and whether it stands for "unbounded".
pub struct Card {
    pub id: &'static str,
    pub title: &'static str,
    pub help: &'static str,
    pub value: f64,
    pub shown: String,
}

/// The cards of a finished run. A saturated run ([Anglano09] §IV: the BoTs in the system grow without bound)
/// shows "unbounded" and the growth rate instead of its time figures.
fn cards(r: &DgReport) -> Vec<Card> {
    let m = &r.metrics;
    let w = &r.workload;
    let time = |v: f64| {
        if m.saturated {
            format!("unbounded (+{:.1} BoTs/day)", m.growth_rate)
        } else if v.is_nan() {
            "—".to_string()
        } else {
            fmt_time(v)
        }
    };
    vec![
        Card {
            id: "dg-card-tt",
            title: "Mean turnaround time (TT)",
            help: "per BoT: last task completion − submission (Anglano & Canonico 2009, Eq. 1)",
            value: m.turnaround.mean,
            shown: time(m.turnaround.mean),
        },
        Card {
            id: "dg-card-wt",
            title: "Mean waiting time (WT)",
            help: "per BoT: first task dispatch − submission",
            value: m.waiting.mean,
            shown: time(m.waiting.mean),
        },
        Card {
            id: "dg-card-ms",
            title: "Mean execution makespan",
            help: "per BoT: last task completion − first task dispatch (TT = WT + execution makespan)",
            value: m.execution_makespan.mean,
            shown: time(m.execution_makespan.mean),
        },
        Card {
            id: "dg-card-rwt",
            title: "Relative wasted time (RWT)",
            help: "machine time of useless replicas / machine time of all replicas",
            value: m.rwt,
            shown: if m.rwt.is_finite() {
                format!("{}%", crate::words::number_words(100.0 * m.rwt))
            } else {
                "undefined (no replica ran)".into()
            },
        },
        Card {
            id: "dg-card-ep",
            title: "Effective power ΣEP",
            help: "Σ P_i · A_i over the machines (Anglano & Canonico 2009, Eq. 9)",
            value: w.effective_power,
            shown: crate::words::number_words(w.effective_power),
        },
        Card {
            id: "dg-card-c",
            title: "Occupancy C",
            help: "application size / ΣEP: how long the grid takes to run one BoT, s (Eq. 8)",
            value: w.occupancy,
            shown: fmt_time(w.occupancy),
        },
        Card {
            id: "dg-card-lambda",
            title: "BoT arrival rate λ",
            help: "λ = L / C, BoTs per second (Eq. 7); shown per hour",
            value: w.bot_rate,
            shown: format!("{} BoTs/h", crate::words::number_words(w.bot_rate * 3600.0)),
        },
    ]
}

/// The scenario's desktop-grid section to change; one of its controls used while another family is shown
/// (they are hidden then) is refused.
/// The BoT-selection scripts a user starts from ([Anglano09]'s RR-NRF written as a script).
const BOT_SELECTION_EXAMPLES: [(&str, &str); 1] = [("RR-NRF", include_str!("../../../examples/policies/rr_nrf.rhai"))];

fn dg(s: &mut Scenario) -> Result<&mut DgConfig, String> {
    let family = s.family().name();
    s.desktop_grid_mut()
        .map(|d| &mut d.desktop_grid)
        .ok_or_else(|| format!("a desktop_grid setting, and the scenario is of family {family}"))
}

/// The scenario's desktop-grid section, or its defaults while another family is shown.
fn cfg_of(s: &Scenario) -> DgConfig {
    s.desktop_grid().map(|d| d.desktop_grid.clone()).unwrap_or_default()
}

/// The charts projector mode steps through (canvas id, title).
pub(crate) fn charts_list() -> Vec<(&'static str, &'static str)> {
    CHARTS.iter().map(|&(id, title, _, _)| (id, title)).collect()
}

/// The desktop-grid controls.
#[component]
pub fn DgControls() -> impl IntoView {
    view! {
        <div class="dg-panel" id="dg-controls">
            <p class="help">"Volatile desktop machines that fail and come back; BoTs scheduled by WQR-FT (replication with fault tolerance and checkpoints), as in Anglano & Canonico 2009, §III–IV."</p>
            <p class="help" id="dg-combinations">"Which policies run where: the five BoT selection policies below run with WQR-FT on desktop grids only, and the selection and scheduling policies of Iosup et al. 2008 on multi-cluster grids only. WQR-FT knows nothing of speeds or runtimes and replaces lost work by replicas and checkpoints; the multi-cluster policies rely on speeds, runtime estimates and machines that never fail, which a desktop grid does not give."</p>
            {select_field(Ctl { id: "dg-availability", label: "Availability level", help: "Table II: High (enterprise desktop grids, about 98% availability), Medium (75%), Low (volunteer computing, 50%)", path: "desktop_grid.availability" }, (&AvailabilityLevel::ALL, AvailabilityLevel::name,
                |v| match v {
                    AvailabilityLevel::High => "High-Avail".into(),
                    AvailabilityLevel::Medium => "Med-Avail".into(),
                    AvailabilityLevel::Low => "Low-Avail".into(),
                    AvailabilityLevel::AlwaysUp => "Always up (no failures; not in the paper)".into(),
                }),
                |s| cfg_of(s).availability, |s, v| { dg(s)?.availability = v; Ok(()) })}
            {select_field(Ctl { id: "dg-heterogeneity", label: "Machine heterogeneity", help: "Homogeneous: every machine of power 10; Heterogeneous: powers uniform in [2.3, 17.7]; machines are added until the total power is 1 000", path: "desktop_grid.heterogeneity" }, (&Heterogeneity::ALL, Heterogeneity::name,
                |v| match v { Heterogeneity::Homogeneous => "Homogeneous".into(), Heterogeneity::Heterogeneous => "Heterogeneous".into() }),
                |s| cfg_of(s).heterogeneity, |s, v| { dg(s)?.heterogeneity = v; Ok(()) })}
            {select_field(Ctl { id: "dg-mix", label: "Task mix (Table III)", help: "the share of Very Small, Small, Medium and Large tasks in every BoT", path: "desktop_grid.mix" }, (&Mix::ALL, Mix::name,
                |m| { let [vs, s, md, l] = m.shares(); format!("{} (VS {vs}%, S {s}%, M {md}%, L {l}%)", m.label()) }),
                |s| cfg_of(s).mix, |s, v| { dg(s)?.mix = v; Ok(()) })}
            {number_field(Ctl { id: "dg-load", label: "Load factor L", help: "L = λ · C: the arrival rate of BoTs relative to what the grid can serve (0.5, 0.75, 0.95 in the paper; Eq. 7)", path: "desktop_grid.load" }, "0.05", |s| cfg_of(s).load.to_string(),
                |s, t| { dg(s)?.load = number(t, "the load factor L, e.g. 0.75")?; Ok(()) })}
            {policy_field(Ctl { id: "dg-policy", label: "BoT selection policy", help: "which BoT the next free machine serves (§III-C): FCFS-Excl, FCFS-Share, RR, RR-NRF, LongIdle, or your own policy written as a script (docs/policies.md)", path: "desktop_grid.bot_selection" }, PolicyKey {
                family: Family::DesktopGrid, key: "bot_selection", choices: (&BotSelection::ALL, BotSelection::name, |p| p.label().to_string()),
                builtin: |s| cfg_of(s).bot_selection.builtin(), script: |s| cfg_of(s).bot_selection.script().map(str::to_string),
                set_builtin: |s, v| { dg(s)?.bot_selection = v.into(); Ok(()) },
                set_script: |s, text| { dg(s)?.bot_selection = BotPolicy::Script(ScriptSource::new(text)); Ok(()) },
                examples: &BOT_SELECTION_EXAMPLES, script_id: "dg-policy-script", box_id: "dg-policy-script-editor" })}
            {number_field(Ctl { id: "dg-threshold", label: "Replication threshold (RepThresh)", help: "the most replicas of one task WQR-FT runs at once; empty = 2, unlimited for FCFS-Excl (§IV-C)", path: "desktop_grid.rep_thresh" }, "1", |s| cfg_of(s).rep_thresh.map_or(String::new(), |r| r.to_string()),
                |s, t| { dg(s)?.rep_thresh = if t.trim().is_empty() { None } else { Some(parse(t, "a whole number of replicas, at least 1")?) }; Ok(()) })}
            {number_field(Ctl { id: "dg-weibull", label: "Weibull shape of the time to failure", help: "shape of the machines' Weibull time to failure; its scale keeps the mean at the group's MTTF (Table II)", path: "desktop_grid.weibull_shape" }, "0.05", |s| cfg_of(s).weibull_shape.to_string(),
                |s, t| { dg(s)?.weibull_shape = number(t, "a shape such as 0.7")?; Ok(()) })}
            {number_field(Ctl { id: "dg-checkpoint", label: "Checkpoint period [s]", help: "a running replica saves a checkpoint after every this many seconds of its own execution", path: "desktop_grid.checkpoint_period" }, "60", |s| cfg_of(s).checkpoint_period.to_string(),
                |s, t| { dg(s)?.checkpoint_period = number(t, "seconds, e.g. 1800")?; Ok(()) })}
            {select_field(Ctl { id: "dg-store", label: "Checkpoint store (a reading)", help: "blocking: the replica stops computing while its checkpoint is stored (U[240, 720] s); async: it computes on and the checkpoint counts once stored. The paper does not say; docs/desktop_grid.md, Readings", path: "desktop_grid.checkpoint_store" }, (&CheckpointStore::ALL, CheckpointStore::name,
                |v| v.name().to_string()), |s| cfg_of(s).checkpoint_store, |s, v| { dg(s)?.checkpoint_store = v; Ok(()) })}
            {select_field(Ctl { id: "dg-long-idle", label: "LongIdle's idle time (a reading)", help: "accumulated: every candidate task's time without a replica, frozen while it has one; unreplicated: only tasks without a replica now compete (§III-C)", path: "desktop_grid.long_idle" }, (&LongIdleRule::ALL, LongIdleRule::name,
                |v| v.name().to_string()), |s| cfg_of(s).long_idle, |s, v| { dg(s)?.long_idle = v; Ok(()) })}
            {number_field(Ctl { id: "dg-bots", label: "Number of BoTs", help: "how many BoTs the run submits; each holds work of the application size", path: "desktop_grid.bots" }, "1", |s| cfg_of(s).bots.to_string(),
                |s, t| { dg(s)?.bots = parse(t, "a whole number of BoTs")?; Ok(()) })}
            {number_field(Ctl { id: "dg-horizon", label: "Horizon [days]", help: "the run stops here at the latest; empty = 4 × the expected submission window", path: "desktop_grid.horizon" }, "1", |s| cfg_of(s).horizon.map_or(String::new(), |h| (h / 86_400.0).to_string()),
                |s, t| { dg(s)?.horizon = if t.trim().is_empty() { None } else { Some(number(t, "days")? * 86_400.0) }; Ok(()) })}
            {number_field(Ctl { id: "dg-seed", label: "Seed", help: "the seed of every random stream: the same seed gives the same run", path: "seed" }, "1", |s| s.seed().to_string(),
                |s, t| { s.set_seed(parse(t, "a whole number ≥ 0")?); Ok(()) })}
        </div>
    }
}

/// The cards and the live charts of a desktop-grid run.
#[component]
pub fn DgResults(st: DgPage) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let present = expect_context::<crate::ui::present::Present>();
    // A new run empties the results.
    {
        Effect::new(move |prev: Option<u32>| {
            let id = lab.run_id.get();
            if prev.is_some_and(|p| p != id) {
                st.report.set(None);
                st.progress.set(None);
                st.live.update_value(|l| {
                    l.run_id = id;
                    l.samples.clear();
                });
                st.version.update(|v| *v += 1);
            }
            id
        });
    }
    Effect::new(move |_| {
        st.version.track();
        if is_dg(lab) {
            draw_charts(st);
        }
    });
    let done = Signal::derive(move || st.report.with(|r| r.is_some()) && lab.run_family.get() == Family::DesktopGrid);
    let (report, progress) = (st.report, st.progress);
    let show_cards = move || {
        report.with(|r| match r {
            Some(r) => {
                let saturated = r.metrics.saturated;
                cards(r)
                    .into_iter()
                    .map(|c| {
                        view! {
                            <div class="card" id=c.id title=c.help data-value=c.value.to_string()
                                data-saturated=saturated.to_string()>
                                <div class="card-title">{c.title}</div>
                                <div class="card-value">{c.shown}</div>
                                <div class="card-note">{c.help}</div>
                            </div>
                        }
                    })
                    .collect_view()
                    .into_any()
            }
            None => view! { <div class="card"><div class="card-title">"Results"</div><div class="card-value">"—"</div></div> }.into_any(),
        })
    };
    let live = move || {
        progress.with(|p| match p {
            Some(p) => format!(
                "{} of {} BoTs done ({} of {} tasks); {} replicas running, {} tasks waiting; simulated {:.2} days",
                p.finished_bots,
                p.bots,
                p.header.finished_tasks,
                p.header.tasks,
                p.header.busy,
                p.header.queued,
                p.header.now / 86_400.0
            ),
            None => String::new(),
        })
    };
    view! {
        <Show when=move || is_dg(lab)>
            <div class="dg-results" id="dg-results">
                <p class="dg-live" id="dg-live" aria-live="polite">{live}</p>
                <div class="cards" id="dg-cards">{show_cards}</div>
                <crate::ui::run_tools::RunTools prefix="dg-" done=done rows=None charts=charts_list()/>
                <pinned::DgPinBar done=done st=st/>
                <crate::ui::present::ChartStepper prefix="dg-"/>
                <div class="charts">
                    {CHARTS.iter().enumerate().map(|(i, &(id, title, _, _))| view! {
                        <figure class=move || if present.is_current(i) { "chart current" } else { "chart" }>
                            <canvas id=id width="560" height="320" role="img" aria-label=format!("{title} over simulated time: chart")></canvas>
                            <figcaption>{title}" "<pinned::DgChartNumbers k=i st=st/></figcaption>
                        </figure>
                    }).collect_view()}
                </div>
                <LazyPanel part=Part::DgFigures/>
            </div>
        </Show>
    }
}

/// What the family does not model (docs/limits.md), under its controls.
const NOT_MODELLED: &str =
    "a busy checkpoint server (each store or retrieval takes U[240, 720] s, whatever else moves), task input \
     and output data. Machine failures and checkpoints are modelled. See docs/limits.md.";

impl PageFamily for DgPage {
    fn family(&self) -> Family {
        Family::DesktopGrid
    }

    fn label(&self) -> &'static str {
        "Desktop grid (Anglano & Canonico 2009)"
    }

    fn prefix(&self) -> &'static str {
        "dg-"
    }

    fn controls(&self) -> AnyView {
        view! {
            <DgControls/>
            <NotModelled id="not-modelled-dg" text=NOT_MODELLED/>
        }
        .into_any()
    }

    fn results(&self) -> AnyView {
        let st = *self;
        view! { <DgResults st=st/> }.into_any()
    }

    fn charts(&self) -> Vec<(&'static str, &'static str)> {
        charts_list()
    }

    fn started_text(&self, start: &Start, generate_s: f64) -> String {
        format!(
            "{} BoTs, {} tasks, load factor L {:.4} (generated in {generate_s:.2} s)",
            start.bots, start.tasks, start.achieved_load
        )
    }

    fn on_progress(&self, header: &Header, detail: AnyDetail) {
        if let AnyDetail::DesktopGrid(d) = detail {
            on_progress(*self, self.lab, header, d);
        }
    }

    fn on_finished(&self, report: AnyReport) {
        if let AnyReport::DesktopGrid(r) = report {
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

/// Mounts the family's part of the page's second module, its paper figures; gives `element` back for any other.
pub(crate) fn mount_part(part: Part, element: web_sys::HtmlElement) -> Option<web_sys::HtmlElement> {
    if part != Part::DgFigures {
        return Some(element);
    }
    let scenario = crate::ui::shown::mirror();
    leptos::mount::mount_to(element, move || view! { <figures::DgFigures scenario=scenario/> }).forget();
    None
}

/// The script box of the policy key a lesson may ask the class to write: its first example and the box's id.
pub(crate) fn your_own_box(key: &str) -> Option<(&'static str, &'static str)> {
    (key == "bot_selection").then_some((BOT_SELECTION_EXAMPLES[0].1, "dg-policy-script-editor"))
}
