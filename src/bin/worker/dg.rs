//! The worker's desktop-grid runs ([Anglano09]): the same chunked, interruptible loop as the multi-cluster runs,
//! with `DgProgress` / `DgFinished` for their own samples and report.

use crate::worker::{advance, now_ms, post, schedule, stop_multi_cluster_run, Advance, TICK_MS};
use bagsim::family::desktop_grid::figures::{figures, run_bar};
use bagsim::family::desktop_grid::{self, DgReport, DgSimulation, DgWorkloadSummary};
use bagsim::family::Family;
use bagsim::protocol::{DgProgress, FromWorker, ToWorker};
use bagsim::scenario::Scenario;
use std::cell::RefCell;

struct Current {
    run_id: u32,
    scenario: Scenario,
    summary: DgWorkloadSummary,
    sim: DgSimulation,
    live: bool,
    paused: bool,
    speed: Option<f64>,
    demo_clock: f64,
    chunk: u64,
    wall: f64,
    sent_samples: usize,
}

thread_local! {
    static CURRENT: RefCell<Option<Current>> = const { RefCell::new(None) };
    /// The last finished desktop-grid run's report, for `ExportReport`.
    static LAST: RefCell<Option<(u32, DgReport)>> = const { RefCell::new(None) };
}

fn same_run(run_id: u32) -> bool {
    CURRENT.with(|c| c.borrow().as_ref().is_some_and(|c| c.run_id == run_id))
}

/// Takes the messages that concern a desktop-grid run; gives back the others (a multi-cluster `Run` first ends
/// the desktop-grid run in progress, as any new run replaces the current one).
pub fn handle(m: ToWorker) -> Option<ToWorker> {
    match m {
        ToWorker::Run { run_id, scenario, speed, live } if scenario.family == Family::DesktopGrid => {
            stop_multi_cluster_run();
            start(run_id, *scenario, speed, live);
            None
        }
        m @ ToWorker::Run { .. } => {
            CURRENT.with(|c| *c.borrow_mut() = None);
            Some(m)
        }
        ToWorker::Pause { run_id } if same_run(run_id) => {
            CURRENT.with(|c| c.borrow_mut().as_mut().map(|c| c.paused = true));
            post(&FromWorker::Paused { run_id });
            None
        }
        ToWorker::Resume { run_id } if same_run(run_id) => {
            CURRENT.with(|c| c.borrow_mut().as_mut().map(|c| c.paused = false));
            schedule(0);
            None
        }
        ToWorker::Cancel { run_id } if same_run(run_id) => {
            CURRENT.with(|c| *c.borrow_mut() = None);
            post(&FromWorker::Cancelled { run_id });
            None
        }
        ToWorker::Speed { run_id, speed } if same_run(run_id) => {
            CURRENT.with(|c| {
                if let Some(c) = c.borrow_mut().as_mut() {
                    c.speed = speed;
                    c.demo_clock = c.sim.now();
                }
            });
            None
        }
        ToWorker::ExportReport { run_id } if LAST.with(|l| l.borrow().as_ref().is_some_and(|l| l.0 == run_id)) => {
            let json = LAST.with(|l| l.borrow().as_ref().map(|(_, r)| serde_json::to_string_pretty(r)));
            match json {
                Some(Ok(json)) => post(&FromWorker::ReportJson { run_id, json }),
                _ => post(&FromWorker::Failed { run_id, message: "cannot write the report".into() }),
            }
            None
        }
        ToWorker::DgBar { job_id, figure, mix, policy, base, rule } => {
            let result = match figures().into_iter().find(|f| f.number == figure) {
                None => Err(format!("Fig. {figure}: no such figure; Anglano & Canonico 2009 has Figs. 2–17")),
                Some(f) => {
                    let runner = |s: &Scenario| {
                        desktop_grid::run_with_clock(s, &|| now_ms() / 1000.0).map_err(|e| e.to_string())
                    };
                    run_bar(&f, &base, mix, policy, rule, &runner).map(Box::new)
                }
            };
            post(&FromWorker::DgBar { job_id, result });
            None
        }
        m => Some(m),
    }
}

fn start(run_id: u32, scenario: Scenario, speed: Option<f64>, live: bool) {
    CURRENT.with(|c| *c.borrow_mut() = None);
    let t0 = now_ms();
    match desktop_grid::simulation(&scenario) {
        Err(e) => post(&FromWorker::Failed { run_id, message: e.to_string() }),
        Ok((sim, summary)) => {
            post(&FromWorker::Started {
                run_id,
                bots: summary.bots,
                tasks: summary.tasks,
                // The load of a desktop-grid workload is exact by construction (λ = L / C, Eq. 7).
                achieved_load: summary.load,
                warnings: summary.warnings.clone(),
                generate_s: (now_ms() - t0) / 1000.0,
            });
            CURRENT.with(|c| {
                *c.borrow_mut() = Some(Current {
                    run_id,
                    scenario,
                    summary,
                    sim,
                    live,
                    paused: false,
                    speed,
                    demo_clock: 0.0,
                    chunk: 20_000,
                    wall: 0.0,
                    sent_samples: 0,
                })
            });
            schedule(0);
        }
    }
}

/// Runs one chunk of the desktop-grid run, if there is one, and posts what is new.
pub fn chunk() {
    let next = CURRENT.with(|c| {
        let mut guard = c.borrow_mut();
        let cur = guard.as_mut()?;
        if cur.paused {
            return None;
        }
        let sim = &mut cur.sim;
        let done = advance((&mut cur.chunk, cur.speed, &mut cur.demo_clock, &mut cur.wall), |a| match a {
            Advance::Events(n) => sim.run_events(n),
            Advance::Until(t) => sim.run_until(t),
        });
        post_progress(cur);
        if done {
            let t0 = now_ms();
            let report = desktop_grid::report(&cur.scenario, cur.summary.clone(), &cur.sim, cur.wall);
            let report_s = (now_ms() - t0) / 1000.0;
            post(&FromWorker::DgFinished { run_id: cur.run_id, report: Box::new(report.clone()), report_s });
            LAST.with(|l| *l.borrow_mut() = Some((cur.run_id, report)));
            *guard = None;
            None
        } else {
            Some(if cur.speed.is_some() { TICK_MS } else { 0 })
        }
    });
    if let Some(delay) = next {
        schedule(delay);
    }
}

fn post_progress(cur: &mut Current) {
    let samples = if cur.live {
        let new = cur.sim.samples()[cur.sent_samples..].to_vec();
        cur.sent_samples = cur.sim.samples().len();
        new
    } else {
        Vec::new()
    };
    let (replicas_running, queued) = cur.sim.replicas_and_queue();
    let horizon = cur.sim.settings().horizon;
    let now = if cur.speed.is_some() { cur.demo_clock.max(cur.sim.now()) } else { cur.sim.now() };
    let counters = cur.sim.counters();
    post(&FromWorker::DgProgress(Box::new(DgProgress {
        run_id: cur.run_id,
        now: now.min(horizon),
        horizon,
        events: cur.sim.events(),
        bots: cur.summary.bots,
        finished_bots: counters.finished_bots,
        tasks: cur.summary.tasks,
        finished_tasks: counters.finished_tasks,
        replicas_running,
        queued,
        wall: cur.wall,
        samples,
    })));
}
