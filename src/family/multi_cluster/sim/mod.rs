//! The run loop: events, the resource managers of each architecture, task starts, completions and replicas.
//!
//! Cost per event: O(log n) for the event heap and the per-cluster end-time heaps, plus O(C) for policies that
//! compare clusters (ECT, ECT-P, DFPLT; C = number of clusters, 20 in the preset) and O(users with waiting tasks)
//! when S-U-T or S-U-BoT form a new eligible set. Nothing scans queues or processors.

mod accounting;
mod config;
mod dheap;
mod dispatch;
mod events;
mod inaccuracy;
mod jobs;
mod outcome;
mod rm;
mod tape;

use crate::engine::{stream_seed, EventQueue, Model};
use crate::family::multi_cluster::architecture::{Architecture, SitePolicy};
use crate::family::multi_cluster::platform::Cluster;
use crate::family::multi_cluster::policy::predictor::{PredictorInput, PredictorModel, PredictorState};
use crate::family::multi_cluster::policy::scheduling::{site_fcfs, Estimate};
use crate::resources::gantt::{Gantt, Planned};
use crate::script::ScriptError;
use crate::workload::Workload;
pub use config::{InaccuracyOn, SimConfig};
use inaccuracy::Inaccuracy;
pub use inaccuracy::{mean_factor, perturbed};
pub use outcome::{Outcome, Sample, UserAccounts};
use rm::Rm;

#[derive(Clone, Copy, Debug)]
enum Event {
    /// A copy of a task ends on processor `proc`, unless the processor has moved on (`gen` differs).
    TaskEnd { proc: u32, gen: u32 },
    /// Periodic scheduling pass of the global RM (stale information only).
    Tick,
    /// The monitoring service refreshes the global RM's view (csp with a monitoring period).
    Monitor,
}

const NONE: u32 = u32::MAX;

/// Per-cluster state.
struct ClusterState {
    speed: f64,
    first_proc: u32,
    processors: u32,
    free: Vec<u32>,
    busy: u32,
    /// Tasks sent by the global RM that found no free processor (csp with stale information), FCFS, with their
    /// place in ECT's chart.
    local_queue: std::collections::VecDeque<(u32, u32, Option<Planned>)>,
    /// ECT's Gantt chart of the cluster (None for the other policies).
    chart: Option<Gantt>,
    /// Busy processor-seconds up to `last_change`.
    busy_area: f64,
    last_change: f64,
}

/// A simulation in progress.
pub struct Simulation {
    cfg: SimConfig,
    workload: Workload,
    clusters_spec: Vec<Cluster>,
    clusters: Vec<ClusterState>,
    speed: Vec<f64>,
    total_processors: u64,
    // Processors, indexed globally.
    proc_task: Vec<u32>,
    proc_gen: Vec<u32>,
    proc_start: Vec<f64>,
    proc_cluster: Vec<u32>,
    /// BoT of the task a processor runs (saves a search on every completion).
    proc_bot: Vec<u32>,
    /// Ring of processors running copies of the same task.
    proc_next_copy: Vec<u32>,
    /// Where ECT planned the task a processor runs (empty for the other policies).
    proc_plan: Vec<Option<Planned>>,
    // Tasks.
    task_start: Vec<f64>,
    task_end: Vec<f64>,
    task_copies: Vec<u8>,
    // BoTs.
    bot_done: Vec<u32>,
    finished_bots: Vec<u32>,
    // Resource managers: csp has one (global); sep-c and fcondor one per cluster.
    rms: Vec<Rm>,
    /// The RM that schedules onto each cluster.
    rm_of_cluster: Vec<u32>,
    /// fcondor: the RM each user submits to now.
    user_rm: Vec<u32>,
    users: UserAccounts,
    queue: EventQueue<Event>,
    next_arrival: usize,
    inaccuracy: Inaccuracy,
    // Predictors (ECT-P).
    uses_prediction: bool,
    tracks_ends: bool,
    bot_predictor: Vec<Option<Box<PredictorState>>>,
    user_predictor: Vec<PredictorState>,
    global_mean: PredictorState,
    // Monitoring (csp).
    stale_view: bool,
    tick_pending: bool,
    // Counters.
    finished_tasks: u64,
    events: u64,
    stale_events: u64,
    useful_cpu: f64,
    wasted_cpu: f64,
    replicas_started: u64,
    replicas_cancelled: u64,
    done: bool,
    /// Why the run stopped early: a scripted policy failed or decided the impossible (docs/policies.md).
    failure: Option<ScriptError>,
    /// The failure is the task selection's (else the task scheduling's).
    failed_in_selection: bool,
    scratch_clusters: Vec<u32>,
    // Time series.
    samples: Vec<Sample>,
    next_sample: f64,
    arrived_since_sample: u64,
    finished_since_sample: u64,
    busy_area_at_sample: f64,
    busy: u64,
    busy_area: f64,
    busy_changed: f64,
    /// Busy processor-seconds up to the last BoT's arrival (NaN until it arrives): the utilization while
    /// submitting, apart from the drain after it.
    submitted_area: f64,
    /// The per-task records, streamed as tasks finish (`bagsim run --jobs`, docs/jobs.md); None when not asked for.
    jobs: Option<crate::jobs::JobsCsv>,
    /// The run's tape (docs/story.md); None when not asked for.
    tape: Option<Box<tape::TapeRec>>,
}

impl Simulation {
    /// Sets up a run of `workload` on `clusters`.
    pub fn new(cfg: SimConfig, clusters: Vec<Cluster>, mut workload: Workload) -> Self {
        let inaccuracy = Inaccuracy::new(&cfg, stream_seed(cfg.seed, "inaccuracy"), &mut workload);
        let speed: Vec<f64> = clusters.iter().map(|c| c.speed).collect();
        let total_processors: u64 = clusters.iter().map(|c| u64::from(c.processors)).sum();
        // Under sep-c and fcondor every RM is a site's, so all run the scenario's policies or all their own FCFS.
        let own_fcfs = cfg.architecture != Architecture::Csp && cfg.site_policy == SitePolicy::Fcfs;
        let probe = if own_fcfs { site_fcfs() } else { cfg.scheduling.build(&cfg.policy_options) };
        let tracks_ends = probe.uses_end_estimates();
        let uses_prediction = probe.estimate() == Estimate::Predicted;
        let mut states = Vec::with_capacity(clusters.len());
        let mut proc_cluster = Vec::with_capacity(total_processors as usize);
        let mut first = 0u32;
        for (i, c) in clusters.iter().enumerate() {
            // Pop order from the end: processor first_proc is used first.
            let free: Vec<u32> = (first..first + c.processors).rev().collect();
            proc_cluster.extend(std::iter::repeat_n(i as u32, c.processors as usize));
            states.push(ClusterState {
                speed: c.speed,
                first_proc: first,
                processors: c.processors,
                free,
                busy: 0,
                local_queue: Default::default(),
                chart: tracks_ends.then(|| Gantt::new(c.processors)),
                busy_area: 0.0,
                last_change: 0.0,
            });
            first += c.processors;
        }
        let n_users = workload.users.max(workload.bots.iter().map(|b| b.user + 1).max().unwrap_or(0)) as usize;
        // Per-cluster streams number user r of stream c as c · n + r (S-U-Prio's rank order needs n).
        let per_stream = if !workload.bots.is_empty() && workload.bots.iter().all(|b| b.home.is_some()) {
            Some(workload.users / clusters.len() as u32).filter(|&n| n * clusters.len() as u32 == workload.users)
        } else {
            None
        };
        let per_stream = per_stream.unwrap_or(0);
        let (rms, rm_of_cluster) = match cfg.architecture {
            Architecture::Csp => {
                let mut all: Vec<u32> = (0..clusters.len() as u32).collect();
                all.sort_by(|&a, &b| speed[b as usize].total_cmp(&speed[a as usize]).then(a.cmp(&b)));
                (vec![Rm::new(&cfg, all, &speed, n_users, per_stream, false)], vec![0; clusters.len()])
            }
            Architecture::SepC | Architecture::Fcondor => (
                (0..clusters.len() as u32)
                    .map(|c| Rm::new(&cfg, vec![c], &speed, n_users, per_stream, own_fcfs))
                    .collect(),
                (0..clusters.len() as u32).collect(),
            ),
        };
        let stale_view = cfg.architecture == Architecture::Csp && cfg.monitoring_period > 0.0;
        let tasks = workload.tasks();
        let bots = workload.bots.len();
        let n_clusters = clusters.len();
        let mut sim = Simulation {
            inaccuracy,
            user_rm: first_homes(&workload, n_users, n_clusters),
            bot_predictor: if uses_prediction { vec![None; bots] } else { Vec::new() },
            user_predictor: if uses_prediction && cfg.predictor_input == PredictorInput::User {
                vec![PredictorState::new(cfg.predictor); n_users]
            } else {
                Vec::new()
            },
            global_mean: PredictorState::new(PredictorModel::Mean),
            next_sample: cfg.sample_interval,
            cfg,
            clusters_spec: clusters,
            clusters: states,
            speed,
            total_processors,
            proc_task: vec![NONE; total_processors as usize],
            proc_gen: vec![0; total_processors as usize],
            proc_start: vec![0.0; total_processors as usize],
            proc_next_copy: (0..total_processors as u32).collect(),
            proc_bot: vec![0; total_processors as usize],
            proc_plan: if tracks_ends { vec![None; total_processors as usize] } else { Vec::new() },
            proc_cluster,
            task_start: vec![f64::NAN; tasks],
            task_end: vec![f64::NAN; tasks],
            task_copies: vec![0; tasks],
            bot_done: vec![0; bots],
            finished_bots: Vec::new(),
            rms,
            rm_of_cluster,
            users: UserAccounts {
                done_cpu: vec![0.0; n_users],
                running: vec![0; n_users],
                start_sum: vec![0.0; n_users],
            },
            // Arrivals live outside the heap and own the sequence numbers below the number of BoTs, so
            // that an arrival precedes any event scheduled during the run at the same time.
            queue: EventQueue::with_first_sequence(bots as u64),
            next_arrival: 0,
            uses_prediction,
            tracks_ends,
            stale_view,
            tick_pending: false,
            finished_tasks: 0,
            events: 0,
            stale_events: 0,
            useful_cpu: 0.0,
            wasted_cpu: 0.0,
            replicas_started: 0,
            replicas_cancelled: 0,
            done: false,
            failure: None,
            failed_in_selection: false,
            scratch_clusters: Vec::new(),
            samples: Vec::new(),
            arrived_since_sample: 0,
            finished_since_sample: 0,
            busy_area_at_sample: 0.0,
            busy: 0,
            busy_area: 0.0,
            busy_changed: 0.0,
            submitted_area: f64::NAN,
            jobs: None,
            tape: None,
            workload,
        };
        for r in 0..sim.rms.len() {
            for &c in &sim.rms[r].managed.clone() {
                let free = sim.clusters[c as usize].free.len() as u32;
                sim.rms[r].set_view(c, free);
            }
        }
        if stale_view {
            sim.queue.schedule(sim.cfg.monitoring_period, Event::Monitor).expect("future");
        }
        sim.done = sim.all_done();
        sim
    }

    /// Current simulated time, s.
    pub fn now(&self) -> f64 {
        self.queue.now()
    }

    pub fn finished_tasks(&self) -> u64 {
        self.finished_tasks
    }

    pub fn workload(&self) -> &Workload {
        &self.workload
    }

    /// Processors of the platform, all clusters.
    pub fn processors(&self) -> u64 {
        self.total_processors
    }

    pub fn config(&self) -> &SimConfig {
        &self.cfg
    }

    /// Samples taken so far.
    pub fn samples(&self) -> &[Sample] {
        &self.samples
    }

    /// BoTs in the order they finished.
    pub fn finished_bots(&self) -> &[u32] {
        &self.finished_bots
    }

    /// Completion time of task t (NaN if unfinished).
    pub fn task_end(&self, t: usize) -> f64 {
        self.task_end[t]
    }

    /// First start of task t (NaN if never started).
    pub fn task_start(&self, t: usize) -> f64 {
        self.task_start[t]
    }

    /// Makespan (s), NSL and wait (s) of BoT b, once all its tasks finished ([Iosup08] §4.1).
    pub fn bot_figures(&self, b: usize) -> Option<(f64, f64, f64)> {
        let bot = &self.workload.bots[b];
        if self.bot_done[b] < bot.size {
            return None;
        }
        let range = bot.first_task as usize..(bot.first_task + bot.size) as usize;
        let last = self.task_end[range.clone()].iter().fold(f64::NEG_INFINITY, |a, &e| a.max(e));
        let first = self.task_start[range.clone()].iter().fold(f64::INFINITY, |a, &s| a.min(s));
        let work: f64 = self.workload.runtimes[range].iter().sum();
        let makespan = last - bot.arrival;
        Some((makespan, makespan / work, first - bot.arrival))
    }

    /// Tasks waiting anywhere and copies running now.
    pub fn queued_and_running(&self) -> (u64, u64) {
        let queued = self.rms.iter().map(|r| r.waiting + r.reserved_count).sum::<u64>()
            + self.clusters.iter().map(|c| c.local_queue.len() as u64).sum::<u64>();
        (queued, self.busy)
    }

    /// Processes one event.
    fn play(&mut self) {
        if self.done {
            return;
        }
        let arrival = self.workload.bots.get(self.next_arrival).map(|b| (b.arrival, self.next_arrival as u64));
        let event = self.queue.peek_key();
        let take_arrival = match (arrival, event) {
            (Some(a), Some(e)) => a < e,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => {
                self.finish(self.now());
                return;
            }
        };
        let t = if take_arrival { arrival.expect("some").0 } else { event.expect("some").0 };
        if t > self.cfg.horizon {
            self.finish(self.cfg.horizon);
            return;
        }
        self.sample_until(t);
        if take_arrival {
            self.queue.advance_to(t).expect("arrivals are sorted and never in the past");
            let b = self.next_arrival;
            self.next_arrival += 1;
            self.events += 1;
            self.on_arrival(b);
        } else {
            let (_, ev) = self.queue.pop().expect("peeked");
            match ev {
                Event::TaskEnd { proc, gen } => {
                    if self.proc_gen[proc as usize] != gen {
                        self.stale_events += 1;
                        return;
                    }
                    self.events += 1;
                    self.on_task_end(proc);
                }
                Event::Tick => {
                    self.events += 1;
                    self.tick_pending = false;
                    self.pass(0);
                    self.ensure_tick();
                }
                Event::Monitor => {
                    self.events += 1;
                    self.refresh_view();
                    self.pass(0);
                    if !self.all_done() {
                        let next = self.now() + self.cfg.monitoring_period;
                        self.queue.schedule(next, Event::Monitor).expect("future");
                    }
                }
            }
        }
        if self.all_done() || self.failure.is_some() {
            self.finish(self.now());
        }
    }

    /// Keeps RM r's policy's failure, with the simulated time, if it has one (called when it waits or observes).
    pub(super) fn note_failure(&mut self, r: usize) {
        if self.failure.is_none() {
            if let Some(e) = self.rms[r].scheduling.failure() {
                let mut e = e.clone();
                e.sim_time.get_or_insert(self.queue.now());
                self.failure = Some(e);
            }
        }
    }

    /// Keeps RM r's selection policy's failure, with the simulated time, if it has one (called when a selection
    /// left the eligible set empty).
    pub(super) fn note_selection_failure(&mut self, r: usize) {
        if self.failure.is_none() {
            if let Some(e) = self.rms[r].selection.failure() {
                let mut e = e.clone();
                e.sim_time.get_or_insert(self.queue.now());
                self.failure = Some(e);
                self.failed_in_selection = true;
            }
        }
    }

    /// Why the run stopped early, if a scripted policy failed.
    pub fn failure(&self) -> Option<&ScriptError> {
        self.failure.as_ref()
    }

    /// Whether the failure is the task selection's script (`selection.script`) rather than the scheduling's.
    pub fn failed_in_selection(&self) -> bool {
        self.failed_in_selection
    }

    fn all_done(&self) -> bool {
        self.next_arrival >= self.workload.bots.len() && self.finished_tasks as usize == self.workload.tasks()
    }
}

/// Where each user starts under fcondor: the home cluster of its first BoT (users who submit nothing: by rank).
fn first_homes(w: &Workload, users: usize, clusters: usize) -> Vec<u32> {
    let mut home: Vec<u32> = (0..users).map(|u| (u % clusters) as u32).collect();
    let mut seen = vec![false; users];
    for b in &w.bots {
        let u = b.user as usize;
        if !seen[u] {
            seen[u] = true;
            home[u] = b.home_cluster(clusters) as u32;
        }
    }
    home
}

/// The run loop (`engine::Model`): an event is an arrival, a completion, a tick or a refresh; the next one is the
/// earlier of the next BoT's arrival and the queue's head, and at the latest the horizon, where the run ends.
impl Model for Simulation {
    fn step(&mut self) {
        self.play();
    }

    fn next_time(&self) -> Option<f64> {
        let arrival = self.workload.bots.get(self.next_arrival).map_or(f64::INFINITY, |b| b.arrival);
        let event = self.queue.peek_key().map_or(f64::INFINITY, |k| k.0);
        Some(arrival.min(event).min(self.cfg.horizon))
    }

    /// Every task has finished or the horizon is reached.
    fn is_over(&self) -> bool {
        self.done
    }

    /// Arrivals, completions (cancellations are part of them), ticks and refreshes processed so far.
    fn events(&self) -> u64 {
        self.events
    }
}
