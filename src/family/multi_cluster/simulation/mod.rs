//! The run loop: events, the resource managers of each architecture, task starts, completions and replicas.
//!
//! Cost per event: O(log n) for the event heap and the per-cluster end-time heaps, plus O(C) for policies that
//! compare clusters (ECT, ECT-P, DFPLT; C = number of clusters, 20 in the preset) and O(users with waiting tasks)
//! when S-U-T or S-U-BoT form a new eligible set. Nothing scans queues or processors.

mod dheap;

mod rm;

use crate::engine::{stream_seed, EventQueue};
use crate::family::multi_cluster::architecture::{Architecture, EligibleSet, FcondorMove};
use crate::family::multi_cluster::platform::Cluster;
use crate::family::multi_cluster::policy::options::PolicyOptions;
use crate::family::multi_cluster::policy::predictor::{PredictorInput, PredictorModel, PredictorState};
use crate::family::multi_cluster::policy::scheduling::{Choice, Estimate, ResourceView, SchedulingPolicy};
use crate::family::multi_cluster::policy::selection::{SelectionPolicy, SelectionView};
use crate::resources::gantt::{Gantt, Planned};
use crate::workload::Workload;
use rm::{Part, PlannedTask, Rm};

/// What the run loop needs besides the workload and the clusters.
#[derive(Clone, Debug, PartialEq)]
pub struct SimConfig {
    pub architecture: Architecture,
    /// csp: period of the monitoring service, s (0 = the global RM always sees the true free counts).
    pub monitoring_period: f64,
    /// When an RM forms its next eligible set.
    pub eligible_set: EligibleSet,
    /// fcondor: when a user moves to the next RM.
    pub fcondor_move: FcondorMove,
    pub selection: SelectionPolicy,
    pub scheduling: SchedulingPolicy,
    /// The readings of the policies' definitions (DFPLT's unranked clusters, WQR4x, S-U-Prio's order).
    pub policy_options: PolicyOptions,
    pub predictor: PredictorModel,
    pub predictor_input: PredictorInput,
    /// Maximum estimate inaccuracy I, percent.
    pub inaccuracy: f64,
    /// Periodic scheduling pass, s (only when information can be stale).
    pub scheduling_period: f64,
    /// The run stops at this time, s.
    pub horizon: f64,
    /// Time-series sampling interval, s.
    pub sample_interval: f64,
    /// Seed of the inaccuracy stream.
    pub seed: u64,
}

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

/// Raw per-user accounting.
#[derive(Clone, Debug, Default)]
pub struct UserAccounts {
    /// CPU-seconds of finished or cancelled copies.
    pub done_cpu: Vec<f64>,
    /// Running copies.
    pub running: Vec<u32>,
    /// Σ start times of running copies (so consumption at t is done + running·t − Σ starts).
    pub start_sum: Vec<f64>,
}

impl UserAccounts {
    /// CPU time consumed by user u up to `now`, CPU-seconds.
    pub fn consumption(&self, u: u32, now: f64) -> f64 {
        let u = u as usize;
        self.done_cpu[u] + f64::from(self.running[u]) * now - self.start_sum[u]
    }
}

/// One time-series sample: the state at `time`, and counts over the interval that ends there.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Sample {
    /// s.
    pub time: f64,
    /// Tasks waiting anywhere (global and local queues).
    pub queued: u64,
    /// Running task copies (= busy processors).
    pub running: u64,
    /// Busy processor-seconds / available processor-seconds over the interval.
    pub utilization: f64,
    /// Tasks that arrived in the interval.
    pub arrived_tasks: u64,
    /// Tasks that finished in the interval.
    pub finished_tasks: u64,
    /// Tasks waiting per cluster (its RM's queue for sep-c/fcondor; its local queue for csp).
    pub cluster_queued: Vec<u32>,
    /// Busy processors per cluster.
    pub cluster_running: Vec<u32>,
}

/// Raw outcome of a run, from which the report is computed.
pub struct Outcome<'a> {
    pub workload: &'a Workload,
    pub clusters: &'a [Cluster],
    /// Time of the first start of a copy of each task (NaN: never started).
    pub task_start: &'a [f64],
    /// Completion time of each task (NaN: unfinished).
    pub task_end: &'a [f64],
    pub users: &'a UserAccounts,
    pub end_time: f64,
    pub busy_area: f64,
    pub useful_cpu: f64,
    pub wasted_cpu: f64,
    pub replicas_started: u64,
    pub replicas_cancelled: u64,
    pub events: u64,
    pub stale_events: u64,
    pub samples: &'a [Sample],
    pub finished_bots: &'a [u32],
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
    inaccuracy_seed: u64,
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
}

impl Simulation {
    /// Sets up a run of `workload` on `clusters`.
    pub fn new(cfg: SimConfig, clusters: Vec<Cluster>, workload: Workload) -> Self {
        let speed: Vec<f64> = clusters.iter().map(|c| c.speed).collect();
        let total_processors: u64 = clusters.iter().map(|c| u64::from(c.processors)).sum();
        let probe = cfg.scheduling.build(&cfg.policy_options);
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
                (vec![Rm::new(&cfg, all, &speed, n_users, per_stream)], vec![0; clusters.len()])
            }
            Architecture::SepC | Architecture::Fcondor => (
                (0..clusters.len() as u32).map(|c| Rm::new(&cfg, vec![c], &speed, n_users, per_stream)).collect(),
                (0..clusters.len() as u32).collect(),
            ),
        };
        let stale_view = cfg.architecture == Architecture::Csp && cfg.monitoring_period > 0.0;
        let tasks = workload.tasks();
        let bots = workload.bots.len();
        let n_clusters = clusters.len();
        let mut sim = Simulation {
            inaccuracy_seed: stream_seed(cfg.seed, "inaccuracy"),
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
            scratch_clusters: Vec::new(),
            samples: Vec::new(),
            arrived_since_sample: 0,
            finished_since_sample: 0,
            busy_area_at_sample: 0.0,
            busy: 0,
            busy_area: 0.0,
            busy_changed: 0.0,
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

    /// True once every task has finished or the horizon is reached.
    pub fn finished(&self) -> bool {
        self.done
    }

    /// Events processed so far (arrivals, completions, cancellations are part of completions, ticks, refreshes).
    pub fn events(&self) -> u64 {
        self.events
    }

    pub fn finished_tasks(&self) -> u64 {
        self.finished_tasks
    }

    pub fn workload(&self) -> &Workload {
        &self.workload
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

    /// Processes events until the clock would pass `until` or the run ends; returns whether it ended.
    pub fn run_until(&mut self, until: f64) -> bool {
        while !self.done {
            let next = self.next_event_time();
            if next > until {
                break;
            }
            self.step();
        }
        self.done
    }

    /// Processes at most `n` events; returns whether the run ended.
    pub fn run_events(&mut self, n: u64) -> bool {
        let target = self.events + n;
        while !self.done && self.events < target {
            self.step();
        }
        self.done
    }

    /// Runs to the end.
    pub fn run(&mut self) {
        while !self.done {
            self.step();
        }
    }

    fn next_event_time(&self) -> f64 {
        let arrival = self.workload.bots.get(self.next_arrival).map_or(f64::INFINITY, |b| b.arrival);
        let event = self.queue.peek_key().map_or(f64::INFINITY, |k| k.0);
        arrival.min(event).min(self.cfg.horizon)
    }

    /// Processes one event.
    pub fn step(&mut self) {
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
        if self.all_done() {
            self.finish(self.now());
        }
    }

    fn all_done(&self) -> bool {
        self.next_arrival >= self.workload.bots.len() && self.finished_tasks as usize == self.workload.tasks()
    }

    fn finish(&mut self, t: f64) {
        if self.done {
            return;
        }
        let t = t.max(self.now());
        self.sample_until(t);
        self.account_busy(t);
        for c in 0..self.clusters.len() {
            let cs = &mut self.clusters[c];
            cs.busy_area += f64::from(cs.busy) * (t - cs.last_change);
            cs.last_change = t;
        }
        // Copies still running at the horizon: their CPU time so far counts for their users.
        for p in 0..self.proc_task.len() {
            if self.proc_task[p] != NONE {
                let u = self.workload.bots[self.proc_bot[p] as usize].user as usize;
                self.users.done_cpu[u] += t - self.proc_start[p];
                self.users.running[u] -= 1;
                self.users.start_sum[u] -= self.proc_start[p];
            }
        }
        self.queue.advance_to(t).ok();
        self.done = true;
    }

    fn account_busy(&mut self, t: f64) {
        self.busy_area += self.busy as f64 * (t - self.busy_changed);
        self.busy_changed = t;
    }

    fn sample_until(&mut self, t: f64) {
        let dt = self.cfg.sample_interval;
        while self.next_sample <= t {
            let ts = self.next_sample;
            let area = self.busy_area + self.busy as f64 * (ts - self.busy_changed);
            let utilization = (area - self.busy_area_at_sample) / (self.total_processors as f64 * dt);
            self.busy_area_at_sample = area;
            let cluster_queued: Vec<u32> = match self.cfg.architecture {
                Architecture::Csp => self.clusters.iter().map(|c| c.local_queue.len() as u32).collect(),
                _ => self.rms.iter().map(|r| (r.waiting + r.reserved_count) as u32).collect(),
            };
            let queued = self.rms.iter().map(|r| r.waiting + r.reserved_count).sum::<u64>()
                + self.clusters.iter().map(|c| c.local_queue.len() as u64).sum::<u64>();
            self.samples.push(Sample {
                time: ts,
                queued,
                running: self.busy,
                utilization,
                arrived_tasks: self.arrived_since_sample,
                finished_tasks: self.finished_since_sample,
                cluster_queued,
                cluster_running: self.clusters.iter().map(|c| c.busy).collect(),
            });
            self.arrived_since_sample = 0;
            self.finished_since_sample = 0;
            self.next_sample += dt;
        }
    }

    /// The runtime estimate of a task under the inaccuracy model, max(R + (E/100)·R, 1) with E ~ U[−I, I]. Drawn
    /// from a counter-based stream (a hash of the seed and the task index), so it costs no memory and is the
    /// same for a task whatever the policy.
    fn known_estimate(&self, task: usize) -> f64 {
        known_estimate(&self.workload, &self.cfg, self.inaccuracy_seed, task as u32)
    }

    /// ECT-P's prediction for a task: the BoT's or the user's predictor; with no history yet, the mean of every
    /// runtime observed in the system so far, else 1 s.
    fn predicted_estimate(&self, bot: usize) -> f64 {
        let own = match self.cfg.predictor_input {
            PredictorInput::Batch => self.bot_predictor[bot].as_ref().and_then(|p| p.predict()),
            PredictorInput::User => self.user_predictor[self.workload.bots[bot].user as usize].predict(),
        };
        own.or_else(|| self.global_mean.predict()).unwrap_or(1.0)
    }

    fn estimate_for(&self, kind: Estimate, task: usize, bot: usize) -> f64 {
        match kind {
            Estimate::Known => self.known_estimate(task),
            Estimate::Predicted => self.predicted_estimate(bot),
            Estimate::None => 0.0,
        }
    }

    fn on_arrival(&mut self, b: usize) {
        let bot = self.workload.bots[b].clone();
        self.arrived_since_sample += u64::from(bot.size);
        let part = Part { bot: b as u32, start: bot.first_task, end: bot.first_task + bot.size };
        match self.cfg.architecture {
            Architecture::Csp => {
                self.enqueue(0, part, bot.user);
                self.pass(0);
                self.ensure_tick();
            }
            Architecture::SepC => {
                let r = bot.home_cluster(self.clusters.len());
                self.enqueue(r, part, bot.user);
                self.pass(r);
            }
            Architecture::Fcondor if self.cfg.fcondor_move == FcondorMove::Bot => {
                // BoT by BoT: the whole BoT goes to the user's RM; the user moves on if some task had to queue.
                let r = self.user_rm[bot.user as usize] as usize;
                self.enqueue(r, part, bot.user);
                self.pass(r);
                if (part.start..part.end).any(|t| self.task_copies[t as usize] == 0) {
                    self.user_rm[bot.user as usize] = ((r + 1) % self.rms.len()) as u32;
                }
            }
            Architecture::Fcondor => {
                // Task by task: the user stays with an RM while it starts tasks at once, and moves on to the
                // next RM as soon as one has to queue.
                for t in part.start..part.end {
                    let r = self.user_rm[bot.user as usize] as usize;
                    self.enqueue(r, Part { bot: b as u32, start: t, end: t + 1 }, bot.user);
                    self.pass(r);
                    if self.task_copies[t as usize] == 0 {
                        self.user_rm[bot.user as usize] = ((r + 1) % self.rms.len()) as u32;
                    }
                }
            }
        }
    }

    fn enqueue(&mut self, r: usize, part: Part, user: u32) {
        let (w, cfg, seed) = (&self.workload, &self.cfg, self.inaccuracy_seed);
        self.rms[r].enqueue(part, user, &|t| known_estimate(w, cfg, seed, t));
    }

    fn ensure_tick(&mut self) {
        if self.stale_view && !self.tick_pending && self.rms[0].waiting > 0 {
            self.tick_pending = true;
            let t = self.now() + self.cfg.scheduling_period;
            self.queue.schedule(t, Event::Tick).expect("future");
        }
    }

    fn refresh_view(&mut self) {
        for c in 0..self.clusters.len() {
            let free = self.clusters[c].free.len() as u32;
            self.rms[0].set_view(c as u32, free);
        }
        for c in 0..self.clusters.len() as u32 {
            self.serve_reservation(0, c);
        }
    }

    /// One scheduling pass of RM r: form eligible sets and place their tasks while resources are free; then, for
    /// replicating policies with nothing waiting, replicate running tasks on what is left.
    fn pass(&mut self, r: usize) {
        loop {
            // A new eligible set is formed lazily, when a resource is free to take its first task, so that
            // priority and fair-share selections see the latest queue and consumption.
            if self.rms[r].free_set.is_empty() {
                break;
            }
            if self.rms[r].eligible_is_empty() {
                if self.rms[r].waiting == 0 {
                    break;
                }
                // Read literally, a new set waits until every task of the current one has finished.
                if self.cfg.eligible_set == EligibleSet::Completed && self.rms[r].unfinished > 0 {
                    break;
                }
                let now = self.now();
                let users = &self.users;
                let consumption = |u: u32| users.consumption(u, now);
                let rm = &mut self.rms[r];
                let decision = {
                    let view = SelectionView { waiting_users: &rm.waiting_users, consumption: &consumption };
                    rm.selection.select(&view)
                };
                let (w, cfg, seed) = (&self.workload, &self.cfg, self.inaccuracy_seed);
                rm.apply_selection(decision, &|t| known_estimate(w, cfg, seed, t));
                if self.rms[r].eligible_is_empty() {
                    break;
                }
            }
            let (task, bot) = self.rms[r].peek_eligible();
            let kind = self.rms[r].scheduling.estimate();
            let estimate = self.estimate_for(kind, task as usize, bot as usize);
            match self.choose(r, estimate) {
                Choice::Start(c) => {
                    self.rms[r].pop_eligible();
                    let plan = self.plan(c, estimate);
                    self.dispatch(r, task, bot, c, plan);
                }
                Choice::Reserve(c) => {
                    self.rms[r].pop_eligible();
                    let plan = self.plan(c, estimate).expect("only policies with a chart queue at a cluster");
                    self.rms[r].reserve(c, PlannedTask { task, bot, plan });
                }
                Choice::Wait => break,
            }
        }
        if self.rms[r].waiting == 0 && self.rms[r].max_replicas > 0 {
            self.replicate(r);
        }
    }

    /// The tasks queued at cluster c start, first come first served, while it has free processors (as its RM
    /// sees them).
    fn serve_reservation(&mut self, r: usize, c: u32) {
        while self.rms[r].queued[c as usize] > 0 && self.rms[r].free_set.contains(c) {
            let q = self.rms[r].take_reservation(c).expect("queued");
            self.dispatch(r, q.task, q.bot, c, Some(q.plan));
        }
    }

    /// Enters a task placed on cluster c in the cluster's chart (policies that keep one).
    fn plan(&mut self, c: u32, estimate: f64) -> Option<Planned> {
        let now = self.now();
        let speed = self.speed[c as usize];
        self.clusters[c as usize].chart.as_mut().map(|g| g.plan(now, estimate / speed).0)
    }

    /// RM r's scheduling policy places a task of runtime estimate `estimate`, on the RM's view of the clusters.
    fn choose(&mut self, r: usize, estimate: f64) -> Choice {
        let clusters = &self.clusters;
        let now = self.queue.now();
        let free_at = |c: u32| clusters[c as usize].chart.as_ref().map_or(now, |g| g.free_at(now));
        let rm = &mut self.rms[r];
        let view = ResourceView {
            now,
            speed: &self.speed,
            managed: &rm.managed,
            free: &rm.free_set,
            free_count: &rm.view,
            free_at: &free_at,
            queued: &rm.queued,
        };
        rm.scheduling.choose(estimate, &view)
    }

    /// The RM sends a task to a cluster: it starts at once if a processor is free, else it joins the cluster's
    /// FCFS queue (only possible when the RM's information is stale).
    fn dispatch(&mut self, r: usize, task: u32, bot: u32, c: u32, plan: Option<Planned>) {
        if self.stale_view {
            let v = self.rms[r].view(c);
            self.rms[r].set_view(c, v.saturating_sub(1));
        }
        if self.clusters[c as usize].free.is_empty() {
            self.clusters[c as usize].local_queue.push_back((task, bot, plan));
        } else {
            self.start(task, bot, c, None, plan);
        }
    }

    fn start(&mut self, task: u32, bot: u32, c: u32, copy_of: Option<u32>, plan: Option<Planned>) {
        let now = self.now();
        let cs = &mut self.clusters[c as usize];
        let p = cs.free.pop().expect("a free processor");
        cs.busy_area += f64::from(cs.busy) * (now - cs.last_change);
        cs.last_change = now;
        cs.busy += 1;
        let speed = cs.speed;
        let free_left = cs.free.len() as u32;
        self.account_busy(now);
        self.busy += 1;
        let pi = p as usize;
        self.proc_task[pi] = task;
        self.proc_gen[pi] = self.proc_gen[pi].wrapping_add(1);
        self.proc_start[pi] = now;
        self.proc_bot[pi] = bot;
        if self.tracks_ends {
            self.proc_plan[pi] = plan;
        }
        match copy_of {
            Some(q) => {
                self.proc_next_copy[pi] = self.proc_next_copy[q as usize];
                self.proc_next_copy[q as usize] = p;
                self.replicas_started += 1;
            }
            None => {
                self.proc_next_copy[pi] = p;
                let r = self.rm_of_cluster[c as usize] as usize;
                if self.rms[r].max_replicas > 0 {
                    self.rms[r].note_started(task, p, &self.task_end);
                }
            }
        }
        let ti = task as usize;
        if self.task_copies[ti] == 0 {
            self.task_start[ti] = now;
        }
        self.task_copies[ti] = self.task_copies[ti].saturating_add(1);
        let u = self.workload.bots[bot as usize].user as usize;
        self.users.running[u] += 1;
        self.users.start_sum[u] += now;
        if !self.stale_view {
            let r = self.rm_of_cluster[c as usize] as usize;
            self.rms[r].set_view(c, free_left);
        }
        let end = now + self.workload.runtimes[ti] / speed;
        let gen = self.proc_gen[pi];
        self.queue.schedule(end, Event::TaskEnd { proc: p, gen }).expect("runtimes are positive");
    }

    /// Frees processor p; returns its copy's CPU time.
    fn release(&mut self, p: u32) -> f64 {
        let now = self.now();
        let pi = p as usize;
        let elapsed = now - self.proc_start[pi];
        let u = self.workload.bots[self.proc_bot[pi] as usize].user as usize;
        self.users.running[u] -= 1;
        self.users.start_sum[u] -= self.proc_start[pi];
        self.users.done_cpu[u] += elapsed;
        self.proc_task[pi] = NONE;
        self.proc_gen[pi] = self.proc_gen[pi].wrapping_add(1);
        let c = self.proc_cluster[pi];
        let cs = &mut self.clusters[c as usize];
        cs.busy_area += f64::from(cs.busy) * (now - cs.last_change);
        cs.last_change = now;
        cs.busy -= 1;
        if let (Some(g), Some(plan)) = (cs.chart.as_mut(), self.proc_plan.get_mut(pi).and_then(Option::take)) {
            g.ended(plan, now);
        }
        cs.free.push(p);
        let free_now = cs.free.len() as u32;
        self.account_busy(now);
        self.busy -= 1;
        if !self.stale_view {
            let r = self.rm_of_cluster[c as usize] as usize;
            self.rms[r].set_view(c, free_now);
        }
        elapsed
    }

    fn on_task_end(&mut self, p: u32) {
        let now = self.now();
        let pi = p as usize;
        let task = self.proc_task[pi] as usize;
        let c = self.proc_cluster[pi];
        let bot = self.proc_bot[pi] as usize;
        // Cancel the other copies first: the first copy to finish completes the task.
        let mut q = self.proc_next_copy[pi];
        let mut freed = std::mem::take(&mut self.scratch_clusters);
        freed.clear();
        freed.push(c);
        while q != p {
            let next = self.proc_next_copy[q as usize];
            let qc = self.proc_cluster[q as usize];
            self.wasted_cpu += self.release(q);
            self.proc_next_copy[q as usize] = q;
            self.replicas_cancelled += 1;
            freed.push(qc);
            q = next;
        }
        self.proc_next_copy[pi] = p;
        let elapsed = self.release(p);
        self.useful_cpu += elapsed;
        self.task_end[task] = now;
        self.finished_tasks += 1;
        self.finished_since_sample += 1;
        self.bot_done[bot] += 1;
        if self.bot_done[bot] == self.workload.bots[bot].size {
            self.finished_bots.push(bot as u32);
            if self.uses_prediction && !self.bot_predictor.is_empty() {
                self.bot_predictor[bot] = None;
            }
        }
        let r = self.rm_of_cluster[c as usize] as usize;
        self.rms[r].unfinished -= 1;
        let known = self.known_estimate(task);
        self.rms[r].scheduling.observe_completion(c, known, elapsed);
        if self.uses_prediction {
            // The observed reference runtime: elapsed time × speed (the SPEC CPU model).
            let observed = elapsed * self.speed[c as usize];
            self.global_mean.observe(observed);
            match self.cfg.predictor_input {
                PredictorInput::Batch => self.bot_predictor[bot]
                    .get_or_insert_with(|| Box::new(PredictorState::new(self.cfg.predictor)))
                    .observe(observed),
                PredictorInput::User => {
                    let u = self.workload.bots[bot].user as usize;
                    self.user_predictor[u].observe(observed);
                }
            }
        }
        // Freed processors first serve their cluster's local FCFS queue, then the RMs schedule.
        for &fc in &freed {
            while !self.clusters[fc as usize].local_queue.is_empty() && !self.clusters[fc as usize].free.is_empty() {
                let (t, b, plan) = self.clusters[fc as usize].local_queue.pop_front().expect("non-empty");
                self.start(t, b, fc, None, plan);
            }
        }
        for &fc in &freed {
            let r = self.rm_of_cluster[fc as usize] as usize;
            if self.rms[r].reserved_count > 0 {
                self.serve_reservation(r, fc);
            }
        }
        for fc in freed.iter_mut() {
            *fc = self.rm_of_cluster[*fc as usize];
        }
        freed.sort_unstable();
        freed.dedup();
        for &r in &freed {
            self.pass(r as usize);
        }
        self.scratch_clusters = freed;
        if self.cfg.architecture == Architecture::Csp {
            self.ensure_tick();
        }
    }

    /// Replicates running tasks of RM r, round-robin over them, while it has free processors.
    fn replicate(&mut self, r: usize) {
        let limit = 1 + self.rms[r].max_replicas;
        while !self.rms[r].free_set.is_empty() {
            let Some((task, proc)) = self.rms[r].next_replicable(&self.task_end, &self.task_copies, limit) else {
                break;
            };
            let Choice::Start(c) = self.choose(r, 0.0) else { break };
            if self.clusters[c as usize].free.is_empty() {
                // Stale information: a replica is not worth queueing; put the task back and stop.
                self.rms[r].push_replicable(task, proc);
                let v = self.rms[r].view(c);
                self.rms[r].set_view(c, v.saturating_sub(1));
                continue;
            }
            if self.stale_view {
                let v = self.rms[r].view(c);
                self.rms[r].set_view(c, v.saturating_sub(1));
            }
            let bot = self.proc_bot[proc as usize];
            self.start(task, bot, c, Some(proc), None);
            if self.task_copies[task as usize] < limit as u8 {
                self.rms[r].push_replicable(task, proc);
            }
        }
    }

    /// The raw outcome, for the report.
    pub fn outcome(&self) -> Outcome<'_> {
        Outcome {
            workload: &self.workload,
            clusters: &self.clusters_spec,
            task_start: &self.task_start,
            task_end: &self.task_end,
            users: &self.users,
            end_time: self.now(),
            busy_area: self.busy_area,
            useful_cpu: self.useful_cpu,
            wasted_cpu: self.wasted_cpu,
            replicas_started: self.replicas_started,
            replicas_cancelled: self.replicas_cancelled,
            events: self.events,
            stale_events: self.stale_events,
            samples: &self.samples,
            finished_bots: &self.finished_bots,
        }
    }

    /// Checks the run's invariants; returns the first violation. Used by tests; O(processors + tasks).
    pub fn check_invariants(&self) -> Result<(), String> {
        let mut running_copies = vec![0u32; self.task_copies.len()];
        for (p, &t) in self.proc_task.iter().enumerate() {
            if t != NONE {
                running_copies[t as usize] += 1;
                if !self.task_end[t as usize].is_nan() {
                    return Err(format!("processor {p} still runs task {t}, which finished"));
                }
            }
        }
        for (c, cs) in self.clusters.iter().enumerate() {
            let busy = (cs.first_proc..cs.first_proc + cs.processors).filter(|&p| self.proc_task[p as usize] != NONE);
            if busy.count() as u32 != cs.busy || cs.busy + cs.free.len() as u32 != cs.processors {
                return Err(format!("cluster {c}: busy/free counts disagree with the processors"));
            }
        }
        for (t, &copies) in running_copies.iter().enumerate() {
            if !self.task_end[t].is_nan() && copies > 0 {
                return Err(format!("task {t} finished but still has running copies"));
            }
            if !self.task_end[t].is_nan() && self.task_end[t] < self.task_start[t] {
                return Err(format!("task {t} ends before it starts"));
            }
        }
        Ok(())
    }
}

/// The runtime estimate of a task under the inaccuracy model, max(R + (E/100)·R, 1) with E ~ U[−I, I] ([Iosup08] §5.3).
/// Drawn from a counter-based stream (a hash of the seed and the task index), so it costs no memory and is the
/// same for a task whatever the policy.
fn known_estimate(w: &Workload, cfg: &SimConfig, seed: u64, task: u32) -> f64 {
    let r = w.runtimes[task as usize];
    if cfg.inaccuracy == 0.0 {
        return r;
    }
    let mut z = seed ^ u64::from(task).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    let u = (z >> 11) as f64 * (1.0 / (1u64 << 53) as f64);
    let e = cfg.inaccuracy * (2.0 * u - 1.0);
    (r + e / 100.0 * r).max(1.0)
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
