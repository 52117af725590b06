//! The load sweep (as [Iosup08] Figures 4 and 11): the scenario shown at loads 20–95% under the policies ticked,
//! each run in the page's pool of workers, its mean makespan and NSL drawn against the load. It lives in the page's
//! second module (`ui/lazy.rs`) and sees the page's scenario, the form's state and an imported trace through the
//! window (`ui/shown.rs`).

use crate::family::multi_cluster::policy::scheduling::SchedulingPolicy;
use crate::registry::AnyReport;
use crate::run::Report;
use crate::scenario::Scenario;
use crate::ui::charts;
use crate::ui::lab::Repaint;
use crate::ui::measured;
use crate::ui::pool;
use crate::ui::shown;
use leptos::prelude::*;
use plotters::prelude::IntoDrawingArea;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use wasm_bindgen::JsCast;

/// The sweep's series of the scenario's own scripted policy.
const YOUR_POLICY: &str = "Your policy";

/// The sweep's results and workers, its status, and what asks its chart to redraw.
#[derive(Clone, Copy)]
struct State {
    results: StoredValue<Vec<(String, f64, Box<Report>)>, LocalStorage>,
    repaint: Repaint,
    status: RwSignal<String>,
    /// The workers, while it runs; disposed with the section, which ends them.
    pool: StoredValue<Option<pool::Pool>, LocalStorage>,
}

/// The load sweep of the scenario the page shows (`scenario`); `form_ok` is false while a control of the form holds
/// a refused value.
#[component]
pub fn Sweep(scenario: Signal<Scenario>, form_ok: Signal<bool>) -> impl IntoView {
    let st = State {
        results: StoredValue::new_local(Vec::new()),
        repaint: Repaint::new(),
        status: RwSignal::new(String::new()),
        pool: StoredValue::new_local(None),
    };
    let policies = RwSignal::new(
        [SchedulingPolicy::Fplt, SchedulingPolicy::Ect, SchedulingPolicy::Rr].map(|p| p.name().to_string()).to_vec(),
    );
    let loads = [0.2, 0.35, 0.5, 0.65, 0.8, 0.95];
    // The scenario's own policy when it is a script: one more series of the sweep, beside the paper's.
    let script = move || {
        scenario.with(|s| match s.multi_cluster().map(|m| &m.scheduling) {
            Some(p @ SchedulingPolicy::Script(_)) => Some(p.clone()),
            _ => None,
        })
    };
    let all = move || {
        let mut names: Vec<&'static str> = SchedulingPolicy::ALL.iter().map(|p| p.name()).collect();
        if script().is_some() {
            names.push(YOUR_POLICY);
        }
        names
    };
    let start = move |_| {
        let base = scenario.get_untracked();
        let mut jobs = Vec::new();
        for p in policies.get_untracked() {
            let policy = if p == YOUR_POLICY {
                match script() {
                    Some(s) => s,
                    None => continue,
                }
            } else {
                p.parse().expect("a policy of SchedulingPolicy::ALL")
            };
            for &load in &loads {
                let mut s = base.clone();
                if let Some(m) = s.multi_cluster_mut() {
                    m.scheduling = policy.clone();
                    m.workload.load = Some(load);
                }
                jobs.push((p.clone(), load, s));
            }
        }
        st.results.set_value(Vec::new());
        start_sweep(st, jobs);
    };
    // The charts are drawn while the section is open: closed, as the page opens, they would be drawn unseen.
    let open = RwSignal::new(false);
    Effect::new(move |_| {
        st.repaint.track();
        if !open.get() {
            return;
        }
        let (ms, nsl) = st.results.with_value(|sweep| {
            let mut ms: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
            let mut nsl: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
            for (p, load, r) in sweep {
                ms.entry(p.clone()).or_default().push((*load, r.metrics.overall.makespan.mean));
                nsl.entry(p.clone()).or_default().push((*load, r.metrics.overall.nsl.mean));
            }
            let sort = |m: BTreeMap<String, Vec<(f64, f64)>>| -> Vec<(String, Vec<(f64, f64)>)> {
                m.into_iter()
                    .map(|(k, mut v)| {
                        v.sort_by(|a, b| a.0.total_cmp(&b.0));
                        (k, v)
                    })
                    .collect()
            };
            (sort(ms), sort(nsl))
        });
        for (id, title, y, lines) in [
            ("chart-sweep-ms", "Mean makespan vs load", "makespan [s]", &ms),
            ("chart-sweep-nsl", "Mean NSL vs load", "NSL", &nsl),
        ] {
            if let Some(canvas) = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.get_element_by_id(id))
                .and_then(|e| e.dyn_into::<web_sys::HtmlCanvasElement>().ok())
            {
                // The plotted numbers, for whoever wants to check them (the browser test does, against native runs).
                let _ = canvas.set_attribute("data-series", &serde_json::to_string(lines).unwrap_or_default());
                if let Some((b, pen)) = measured::canvas(canvas) {
                    let root = b.into_drawing_area();
                    let _ = charts::draw_sweep(&root, pen, title, y, lines);
                    let _ = root.present();
                }
            }
        }
    });
    view! {
        <details
            class="sweep"
            on:toggle=move |ev| {
                let now = ev
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::HtmlDetailsElement>().ok())
                    .is_some_and(|d| d.open());
                if now != open.get_untracked() {
                    open.set(now);
                }
            }
        >
            <summary>"Sweep: load 20–95% × policies, in parallel workers (as the paper's Figures 4 and 11)"</summary>
            <div class="sweep-policies">
                {move || {
                    all()
                        .into_iter()
                        .map(|p| {
                            view! {
                                <label>
                                    <input
                                        type="checkbox"
                                        prop:checked=move || policies.with(|v| v.iter().any(|x| x == p))
                                        on:change=move |ev| {
                                            let on = event_target_checked(&ev);
                                            policies
                                                .update(|v| {
                                                    v.retain(|x| x != p);
                                                    if on {
                                                        v.push(p.to_string());
                                                    }
                                                });
                                        }
                                    />
                                    {p}
                                </label>
                            }
                        })
                        .collect_view()
                }} <button id="sweep-run" on:click=start disabled=move || !form_ok.get()>
                    "Run sweep"
                </button> <span id="sweep-status">{move || st.status.get()}</span>
            </div>
            <div class="charts">
                <figure class="chart">
                    <canvas id="chart-sweep-ms" width="560" height="320"></canvas>
                </figure>
                <figure class="chart">
                    <canvas id="chart-sweep-nsl" width="560" height="320"></canvas>
                </figure>
            </div>
        </details>
    }
}

/// Runs the sweep's jobs on the worker pool (a new sweep ends the previous one), without live data.
fn start_sweep(st: State, jobs: Vec<(String, f64, Scenario)>) {
    let total = jobs.len();
    let (labels, scenarios): (Vec<(String, f64)>, Vec<Scenario>) =
        jobs.into_iter().map(|(p, l, s)| ((p, l), s)).unzip();
    let done = Rc::new(RefCell::new(0usize));
    // Runs that failed or whose worker died: the sweep goes on without them and says so.
    let lost: Rc<RefCell<Vec<String>>> = Rc::new(RefCell::new(Vec::new()));
    let status = move |done: usize, lost: &[String]| {
        let mut s = format!("{done} of {total} runs done");
        if let Some(last) = lost.last() {
            s += &format!("; {} lost ({last})", lost.len());
        }
        st.status.set(s);
    };
    status(0, &[]);
    st.pool.set_value(None);
    let on_done: pool::OnDone = Rc::new(move |job, outcome| {
        match outcome {
            pool::Outcome::Finished(report) => {
                let AnyReport::MultiCluster(report) = *report else {
                    lost.borrow_mut().push("a run gave another family's report".into());
                    return status(*done.borrow(), &lost.borrow());
                };
                if let Some((p, load)) = labels.get(job).cloned() {
                    st.results.update_value(|r| r.push((p, load, report)));
                }
                *done.borrow_mut() += 1;
                st.repaint.ask();
            }
            pool::Outcome::Failed(message) => lost.borrow_mut().push(format!("a run failed: {message}")),
            pool::Outcome::Figure(_) => lost.borrow_mut().push("a run gave a figure job's result".into()),
        }
        status(*done.borrow(), &lost.borrow());
    });
    let trace = scenarios.first().and_then(shown::trace_file_for);
    let jobs = scenarios.into_iter().map(|s| pool::Job::Run(Box::new(s))).collect();
    match pool::Pool::start_with_trace(jobs, on_done, trace) {
        Ok(p) => st.pool.set_value(Some(p)),
        Err(e) => st.status.set(e.to_string()),
    }
}
