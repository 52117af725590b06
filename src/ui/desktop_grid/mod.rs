//! The desktop-grid family on the page ([Anglano09], "Anglano & Canonico 2009"): the family switch, the
//! desktop-grid controls, the cards of a run and its two live charts (machines up, replicas running). The run goes
//! through the same worker and Run bar as a multi-cluster one; only its `DgDetail` and `DgReport` are its own.

mod charts;
use charts::{draw_charts, CHARTS};
mod controls;
pub(crate) mod figures;
mod pinned;

use crate::ui::lab::Repaint;
pub use controls::DgControls;
use controls::BOT_SELECTION_EXAMPLES;
use pinned::{pin_finished, pinned_scenarios};
mod readings;

use crate::family::contract::{Header, Start};
use crate::family::desktop_grid::{DgDetail, DgReport, DgSample};
use crate::registry::{AnyDetail, AnyReport, Family};
use crate::scenario::Scenario;
use crate::ui::contract::PageFamily;
use crate::ui::lab::{fmt_time, Lab, Throttle};
use crate::ui::lazy::LazyPanel;
use crate::ui::not_modelled::NotModelled;
use crate::ui::split::Part;
use leptos::prelude::*;

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
    repaint: Repaint,
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
            repaint: Repaint::new(),
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
        st.repaint.ask();
    }
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
                st.repaint.ask();
            }
            id
        });
    }
    Effect::new(move |_| {
        st.repaint.track();
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
                            <div
                                class="card"
                                id=c.id
                                title=c.help
                                data-value=c.value.to_string()
                                data-saturated=saturated.to_string()
                            >
                                <div class="card-title">{c.title}</div>
                                <div class="card-value">{c.shown}</div>
                                <div class="card-note">{c.help}</div>
                            </div>
                        }
                    })
                    .collect_view()
                    .into_any()
            }
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
                <p class="dg-live" id="dg-live" aria-live="polite">
                    {live}
                </p>
                <div class="cards" id="dg-cards">
                    {show_cards}
                </div>
                <crate::ui::run_tools::RunTools prefix="dg-" done=done rows=None charts=charts_list() />
                <pinned::DgPinBar done=done st=st />
                <crate::ui::present::ChartStepper prefix="dg-" />
                <div class="charts">
                    {CHARTS
                        .iter()
                        .enumerate()
                        .map(|(i, &(id, title, _, _))| {
                            view! {
                                <figure class=move || if present.is_current(i) { "chart current" } else { "chart" }>
                                    <canvas
                                        id=id
                                        width="560"
                                        height="320"
                                        role="img"
                                        aria-label=format!("{title} over simulated time: chart")
                                    ></canvas>
                                    <figcaption>{title}" "<pinned::DgChartNumbers k=i st=st /></figcaption>
                                </figure>
                            }
                        })
                        .collect_view()}
                </div>
                <LazyPanel part=Part::DgFigures />
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
            <DgControls />
            <NotModelled id="not-modelled-dg" text=NOT_MODELLED />
        }
        .into_any()
    }

    fn results(&self) -> AnyView {
        let st = *self;
        view! { <DgResults st=st /> }.into_any()
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
    leptos::mount::mount_to(element, move || view! { <figures::DgFigures scenario=scenario /> }).forget();
    None
}

/// The script box of the policy key a lesson may ask the class to write: its first example and the box's id.
pub(crate) fn your_own_box(key: &str) -> Option<(&'static str, &'static str)> {
    (key == "bot_selection").then_some((BOT_SELECTION_EXAMPLES[0].1, "dg-policy-script-editor"))
}

/// The charts projector mode steps through (canvas id, title).
pub(crate) fn charts_list() -> Vec<(&'static str, &'static str)> {
    CHARTS.iter().map(|&(id, title, _, _)| (id, title)).collect()
}
