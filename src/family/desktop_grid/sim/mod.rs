//! The event-driven scheduler of [Anglano09] Fig. 1 on `crate::engine::EventQueue`: BoT arrivals, replica phases
//! (checkpoint retrieval, computation, checkpoint storage), machine failures and repairs. After every event the
//! scheduling loop (lines 20–29) asks the BoT selection policy for a BoT, WQR-FT for its task and draws a free
//! machine at random. O(log n) per event (LongIdle: plus O(BoTs with a candidate) per dispatch).

use super::availability::GroupLaw;
use super::config::{CheckpointStore, LongIdleRule};
use super::machines::Platform;
use super::policy::{BotPolicy, BotView, FcfsShareRule, SelectBag};
use super::wqr_ft::TaskPool;
use crate::engine::{EventQueue, Model, Rng};
use crate::script::ScriptError;
use crate::workload::Workload;
use slot::{Ev, Phase, Slot};

mod counters;
mod invariants;
mod jobs;
mod schedule_swf;
mod slot;
mod tape;

pub use counters::{DgCounters, DgSample};

const NONE: u32 = u32::MAX;

/// The simulator's settings (from `DgConfig`).
#[derive(Clone, Debug, PartialEq)]
pub struct DgSettings {
    pub selection: BotPolicy,
    /// RepThresh (u32::MAX = unlimited).
    pub thresh: u32,
    /// Seconds of a replica's execution between two checkpoints.
    pub checkpoint_period: f64,
    /// Checkpoint transfer time range, s.
    pub transfer: [f64; 2],
    /// Whether computing stops while a checkpoint is stored.
    pub checkpoint_store: CheckpointStore,
    /// LongIdle's idle-time rule.
    pub long_idle: LongIdleRule,
    /// FCFS-Share's move-on rule.
    pub fcfs_share: FcfsShareRule,
    pub horizon: f64,
    pub sample_interval: f64,
    pub seed: u64,
    /// Stop once every BoT has completed (true), or play failures and repairs up to the horizon (tests).
    pub stop_when_done: bool,
}

/// A desktop-grid simulation in progress (the page's worker steps it in chunks, as the multi-cluster one).
pub struct DgSimulation {
    s: DgSettings,
    workload: Workload,
    power: Vec<f64>,
    machine_group: Vec<u32>,
    groups: Vec<GroupLaw>,
    slots: Vec<Slot>,
    free: Vec<u32>,
    pool: TaskPool,
    policy: Box<dyn SelectBag>,
    /// The policy is a user's script, which may fail (`failure`).
    scripted: bool,
    failure: Option<ScriptError>,
    /// Best stored checkpoint of each task, s of work.
    best: Vec<f64>,
    /// First machine running a replica of each task (list through `Slot::next`).
    head: Vec<u32>,
    task_end: Vec<f64>,
    bot_start: Vec<f64>,
    bot_end: Vec<f64>,
    queue: EventQueue<Ev>,
    ties: Rng,
    choice: Rng,
    transfers: Rng,
    avail: Vec<Rng>,
    c: DgCounters,
    up: u32,
    busy: u32,
    samples: Vec<DgSample>,
    next_sample: f64,
    done: bool,
    end_time: f64,
    /// The per-task records, streamed as tasks complete (`bagsim run --jobs`, docs/jobs.md); None when not asked for.
    jobs: Option<Box<jobs::TaskLog>>,
    /// The schedule, written as SWF as BoTs complete (`bagsim run --swf`, docs/traces.md); None when not asked for.
    swf: Option<Box<schedule_swf::TaskSwf>>,
    /// The run's tape (docs/story.md), recorded when asked; None when not.
    tape: Option<Box<tape::TapeRec>>,
}

impl DgSimulation {
    /// A run of `workload` on `platform`. Streams: `dg-ties` (WQR-FT's ties), `dg-machine-choice`, `dg-transfers`
    /// (checkpoint transfer times) and `dg-avail-<i>` per machine (its failures and repairs), none of them read by
    /// the workload, so neither a policy nor the workload changes the failure trace.
    pub fn new(s: DgSettings, platform: &Platform, workload: Workload) -> DgSimulation {
        let n = platform.machines.len();
        let bots = workload.bots.len();
        let tasks = workload.runtimes.len();
        let mut queue = EventQueue::new();
        queue.reserve(bots + 2 * n);
        for (b, bot) in workload.bots.iter().enumerate() {
            queue.schedule(bot.arrival, Ev::Arrival(b as u32)).expect("arrivals are finite and not negative");
        }
        let groups = platform.groups.clone();
        let mut avail: Vec<Rng> = Vec::new();
        if !groups.is_empty() {
            for (i, m) in platform.machines.iter().enumerate() {
                let mut r = Rng::stream(s.seed, &format!("dg-avail-{i}"));
                let ttf = groups[m.group as usize].time_to_failure(&mut r);
                queue.schedule(ttf, Ev::Fail(i as u32)).expect("failure times are finite");
                avail.push(r);
            }
        }
        let slots = (0..n)
            .map(|i| Slot {
                up: true,
                task: NONE,
                bot: NONE,
                gen: 0,
                phase: Phase::Idle,
                start: 0.0,
                progress: 0.0,
                phase_start: 0.0,
                improved: false,
                storing: false,
                prev: NONE,
                next: NONE,
                free_pos: i as u32,
                up_since: 0.0,
                up_total: 0.0,
            })
            .collect();
        let policy = s.selection.build(s.fcfs_share, &workload, s.thresh);
        let idle_times = s.selection.needs_idle_times() || policy.uses_idle_times();
        let mut pool = TaskPool::new(bots, tasks, s.thresh, idle_times);
        pool.set_unreplicated_only(s.long_idle == LongIdleRule::Unreplicated);
        pool.set_track_unreplicated(s.selection.needs_unreplicated(s.fcfs_share));
        DgSimulation {
            pool,
            policy,
            scripted: s.selection.script().is_some(),
            failure: None,
            power: platform.machines.iter().map(|m| m.power).collect(),
            machine_group: platform.machines.iter().map(|m| m.group).collect(),
            groups,
            slots,
            free: (0..n as u32).collect(),
            best: vec![0.0; tasks],
            head: vec![NONE; tasks],
            task_end: vec![f64::NAN; tasks],
            bot_start: vec![f64::NAN; bots],
            bot_end: vec![f64::NAN; bots],
            queue,
            ties: Rng::stream(s.seed, "dg-ties"),
            choice: Rng::stream(s.seed, "dg-machine-choice"),
            transfers: Rng::stream(s.seed, "dg-transfers"),
            avail,
            c: DgCounters::default(),
            up: n as u32,
            busy: 0,
            samples: Vec::new(),
            next_sample: 0.0,
            done: bots == 0 && s.stop_when_done,
            end_time: 0.0,
            jobs: None,
            swf: None,
            tape: None,
            workload,
            s,
        }
    }

    pub fn now(&self) -> f64 {
        self.queue.now()
    }

    pub fn settings(&self) -> &DgSettings {
        &self.s
    }

    pub fn workload(&self) -> &Workload {
        &self.workload
    }

    pub fn counters(&self) -> &DgCounters {
        &self.c
    }

    /// Samples taken so far.
    pub fn samples(&self) -> &[DgSample] {
        &self.samples
    }

    /// Completion time of each task (NaN: unfinished).
    pub fn task_end(&self) -> &[f64] {
        &self.task_end
    }

    /// First dispatch of each BoT (NaN: never started).
    pub fn bot_start(&self) -> &[f64] {
        &self.bot_start
    }

    /// Completion of each BoT (NaN: unfinished).
    pub fn bot_end(&self) -> &[f64] {
        &self.bot_end
    }

    /// When the run ended (last event, or the horizon).
    pub fn end_time(&self) -> f64 {
        self.end_time
    }

    /// Best stored checkpoint of each task, s of work.
    pub fn best_checkpoints(&self) -> &[f64] {
        &self.best
    }

    /// Fraction of time each machine group was up so far (machines of the group pooled); empty without failures.
    pub fn observed_availability(&self) -> Vec<f64> {
        let now = self.now();
        let mut up = vec![0.0; self.groups.len()];
        let mut count = vec![0.0; self.groups.len()];
        for (i, sl) in self.slots.iter().enumerate() {
            let g = self.machine_group[i] as usize;
            if g < up.len() {
                up[g] += sl.up_total + if sl.up { now - sl.up_since } else { 0.0 };
                count[g] += 1.0;
            }
        }
        up.iter().zip(&count).map(|(u, c)| u / (c * now)).collect()
    }

    /// Replicas running and tasks queued now.
    pub fn replicas_and_queue(&self) -> (u32, u64) {
        (self.busy, self.queued_tasks())
    }

    fn queued_tasks(&self) -> u64 {
        self.pool.active.iter().map(|&b| u64::from(self.pool.unreplicated(b))).sum()
    }

    fn finish(&mut self, t: f64) {
        self.sample_until(t);
        self.end_time = t;
        self.done = true;
    }

    fn sample_until(&mut self, t: f64) {
        while self.next_sample <= t {
            let sample = DgSample {
                time: self.next_sample,
                machines_up: self.up,
                replicas_running: self.busy,
                queued_tasks: self.queued_tasks(),
                bots_in_system: self.pool.active.len() as u32,
                finished_tasks: self.c.finished_tasks,
            };
            self.samples.push(sample);
            self.next_sample += self.s.sample_interval;
        }
    }

    /// Processes one event and the scheduling loop that follows it.
    fn play(&mut self) {
        if self.done {
            return;
        }
        let next = self.queue.peek_key().map(|k| k.0);
        match next {
            None => return self.finish(self.now()),
            Some(t) if t > self.s.horizon => return self.finish(self.s.horizon),
            Some(t) => self.sample_until(t),
        }
        let (now, ev) = self.queue.pop().expect("peeked");
        self.c.events += 1;
        match ev {
            Ev::Arrival(b) => {
                let bot = &self.workload.bots[b as usize];
                self.pool.arrive(b, bot.first_task, bot.size, now);
                if self.tape.is_some() {
                    self.tape_arrived(b, now);
                }
            }
            Ev::Fail(m) => self.fail(m, now),
            Ev::Repair(m) => self.repair(m, now),
            Ev::Phase { m, gen } => self.phase_end(m, gen, now),
            Ev::Stored { m, gen, progress } => self.stored(m, gen, progress),
        }
        self.dispatch_loop(now);
        if self.s.stop_when_done && self.c.finished_bots == self.workload.bots.len() as u64 {
            self.finish(now);
        }
    }

    fn dispatch_loop(&mut self, now: f64) {
        while !self.free.is_empty() {
            let Some(b) = self.policy.select(&BotView { now, pool: &self.pool }) else {
                if self.scripted {
                    self.stop_on_failure(now);
                }
                break;
            };
            let Some(t) = self.pool.pick(b, &mut self.ties) else { break };
            let i = if self.free.len() == 1 { 0 } else { self.choice.below(self.free.len() as u64) as usize };
            let m = self.free[i];
            self.dispatch(b, t, m, now);
        }
    }

    /// A scripted policy that named no BoT because it failed ends the run now, with its error.
    fn stop_on_failure(&mut self, now: f64) {
        if let Some(e) = self.policy.failure() {
            self.failure = Some(e.clone());
            self.finish(now);
        }
    }

    /// Why a scripted policy stopped the run, if it did.
    pub fn failure(&self) -> Option<&ScriptError> {
        self.failure.as_ref()
    }

    fn schedule(&mut self, t: f64, ev: Ev) {
        self.queue.schedule(t, ev).expect("durations are finite and not negative");
    }

    fn transfer_time(&mut self) -> f64 {
        let [a, b] = self.s.transfer;
        a + (b - a) * self.transfers.uniform()
    }

    fn remove_free(&mut self, m: u32) {
        let i = self.slots[m as usize].free_pos as usize;
        self.free.swap_remove(i);
        if let Some(&moved) = self.free.get(i) {
            self.slots[moved as usize].free_pos = i as u32;
        }
    }

    fn push_free(&mut self, m: u32) {
        self.slots[m as usize].free_pos = self.free.len() as u32;
        self.free.push(m);
    }

    /// Lines 24–28: a replica of task `t` starts on machine `m` from the task's best checkpoint.
    fn dispatch(&mut self, b: u32, t: u32, m: u32, now: f64) {
        if self.tape.is_some() {
            self.tape_dispatch(b, t, m, now);
        }
        self.remove_free(m);
        let from = self.best[t as usize];
        let head = self.head[t as usize];
        {
            let sl = &mut self.slots[m as usize];
            sl.task = t;
            sl.bot = b;
            sl.gen = sl.gen.wrapping_add(1);
            sl.start = now;
            sl.progress = from;
            sl.improved = false;
            sl.storing = false;
            sl.prev = NONE;
            sl.next = head;
        }
        if head != NONE {
            self.slots[head as usize].prev = m;
        }
        self.head[t as usize] = m;
        self.pool.add_replica(b, t, now);
        if let Some(j) = self.jobs.as_mut() {
            j.started(t, now);
        }
        self.busy += 1;
        self.c.replicas_started += 1;
        if self.bot_start[b as usize].is_nan() {
            self.bot_start[b as usize] = now;
        }
        if from > 0.0 {
            self.c.checkpoints_restored += 1;
            let d = self.transfer_time();
            self.slots[m as usize].phase = Phase::Retrieve;
            self.slots[m as usize].phase_start = now;
            let gen = self.slots[m as usize].gen;
            self.schedule(now + d, Ev::Phase { m, gen });
        } else {
            self.compute(m, now);
        }
    }

    /// The next computing segment of machine `m`'s replica: up to a checkpoint or to the end of the task.
    fn compute(&mut self, m: u32, now: f64) {
        let sl = &self.slots[m as usize];
        let remaining = (self.workload.runtimes[sl.task as usize] - sl.progress).max(0.0);
        let need = remaining / self.power[m as usize];
        let (seg, completes) =
            if need <= self.s.checkpoint_period { (need, true) } else { (self.s.checkpoint_period, false) };
        let gen = sl.gen;
        let sl = &mut self.slots[m as usize];
        sl.phase = Phase::Compute { completes };
        sl.phase_start = now;
        self.schedule(now + seg, Ev::Phase { m, gen });
    }

    fn phase_end(&mut self, m: u32, gen: u32, now: f64) {
        let sl = &self.slots[m as usize];
        if sl.gen != gen || sl.task == NONE {
            self.c.stale_events += 1;
            return;
        }
        match sl.phase {
            Phase::Retrieve => self.compute(m, now),
            Phase::Compute { completes: true } => self.complete(m, now),
            Phase::Compute { completes: false } if self.s.checkpoint_store == CheckpointStore::Async => {
                // The store goes on beside the computation; a checkpoint due while one is in flight is skipped.
                let progress = sl.progress + (now - sl.phase_start) * self.power[m as usize];
                let storing = sl.storing;
                self.slots[m as usize].progress = progress;
                if !storing {
                    let d = self.transfer_time();
                    self.slots[m as usize].storing = true;
                    self.schedule(now + d, Ev::Stored { m, gen, progress });
                }
                self.compute(m, now);
            }
            Phase::Compute { completes: false } => {
                let progress = sl.progress + (now - sl.phase_start) * self.power[m as usize];
                let d = self.transfer_time();
                let sl = &mut self.slots[m as usize];
                sl.progress = progress;
                sl.phase = Phase::Upload { progress };
                sl.phase_start = now;
                self.schedule(now + d, Ev::Phase { m, gen });
            }
            Phase::Upload { progress } => {
                self.checkpoint_stored(m, progress);
                self.compute(m, now);
            }
            Phase::Idle => self.c.stale_events += 1,
        }
    }

    /// A checkpoint of `progress` s of work has reached the server.
    fn checkpoint_stored(&mut self, m: u32, progress: f64) {
        self.c.checkpoints_taken += 1;
        let t = self.slots[m as usize].task as usize;
        let best = progress > self.best[t];
        if best {
            self.best[t] = progress;
            self.slots[m as usize].improved = true;
        }
        if self.tape.is_some() {
            self.tape_checkpoint(m, progress, best);
        }
    }

    /// An asynchronous store arrives: it counts if its replica is still running.
    fn stored(&mut self, m: u32, gen: u32, progress: f64) {
        let sl = &mut self.slots[m as usize];
        if sl.gen != gen || sl.task == NONE {
            self.c.stale_events += 1;
            return;
        }
        sl.storing = false;
        self.checkpoint_stored(m, progress);
    }

    /// Ends machine `m`'s replica (completed, cancelled or killed), accounting its time; the machine keeps its state.
    fn end_replica(&mut self, m: u32, now: f64, useful: bool) {
        let sl = &mut self.slots[m as usize];
        let elapsed = now - sl.start;
        self.c.replica_time += elapsed;
        if !useful && !sl.improved {
            self.c.wasted_time += elapsed;
        }
        let (prev, next, t) = (sl.prev, sl.next, sl.task);
        sl.task = NONE;
        sl.bot = NONE;
        sl.phase = Phase::Idle;
        sl.storing = false;
        sl.gen = sl.gen.wrapping_add(1);
        sl.prev = NONE;
        sl.next = NONE;
        if prev != NONE {
            self.slots[prev as usize].next = next;
        } else {
            self.head[t as usize] = next;
        }
        if next != NONE {
            self.slots[next as usize].prev = prev;
        }
        self.busy -= 1;
    }

    /// Lines 8–15: the first replica to finish completes the task; the others are terminated.
    fn complete(&mut self, m: u32, now: f64) {
        let t = self.slots[m as usize].task;
        let b = self.slots[m as usize].bot;
        if self.jobs.is_some() {
            self.write_job(m, t, b, now);
        }
        let start = self.slots[m as usize].start;
        if self.tape.is_some() {
            self.tape_completed(m, t, now);
        }
        self.end_replica(m, now, true);
        self.push_free(m);
        while self.head[t as usize] != NONE {
            let r = self.head[t as usize];
            self.end_replica(r, now, false);
            self.c.replicas_cancelled += 1;
            self.push_free(r);
        }
        self.task_end[t as usize] = now;
        self.c.finished_tasks += 1;
        if self.pool.complete(b, t) {
            self.bot_end[b as usize] = now;
            self.c.finished_bots += 1;
            if self.tape.is_some() {
                self.tape_bot_done(b, t, now);
            }
        }
        if self.swf.is_some() {
            self.swf_completed(t, start);
        }
    }

    /// Lines 16–17: the machine leaves; its replica, if any, dies with the work since its last stored checkpoint.
    fn fail(&mut self, m: u32, now: f64) {
        let (task, bot) = (self.slots[m as usize].task, self.slots[m as usize].bot);
        if task != NONE {
            if self.tape.is_some() {
                self.tape_failed(m, now);
            }
            self.end_replica(m, now, false);
            self.c.replicas_killed += 1;
            if let Some(j) = self.jobs.as_mut() {
                j.failed(task);
            }
            self.pool.remove_replica(bot, task, now);
        } else {
            self.remove_free(m);
        }
        let sl = &mut self.slots[m as usize];
        sl.up = false;
        sl.gen = sl.gen.wrapping_add(1);
        sl.up_total += now - sl.up_since;
        self.up -= 1;
        self.c.failures += 1;
        let law = self.groups[self.machine_group[m as usize] as usize];
        let d = law.repair_time(&mut self.avail[m as usize]);
        self.schedule(now + d, Ev::Repair(m));
    }

    /// Line 18: the machine is back.
    fn repair(&mut self, m: u32, now: f64) {
        let sl = &mut self.slots[m as usize];
        sl.up = true;
        sl.up_since = now;
        self.up += 1;
        self.c.repairs += 1;
        self.push_free(m);
        let law = self.groups[self.machine_group[m as usize] as usize];
        let d = law.time_to_failure(&mut self.avail[m as usize]);
        self.schedule(now + d, Ev::Fail(m));
    }
}

/// The run loop (`engine::Model`): the next event is the queue's head; the run ends when every BoT completed, at
/// the horizon, or when nothing is left.
impl Model for DgSimulation {
    fn step(&mut self) {
        self.play();
    }

    fn next_time(&self) -> Option<f64> {
        self.queue.peek_key().map(|k| k.0)
    }

    fn is_over(&self) -> bool {
        self.done
    }

    fn events(&self) -> u64 {
        self.c.events
    }
}
