//! A resource manager: its waiting tasks (indexed as its selection policy needs), its eligible set (ordered as
//! its scheduling policy needs), its view of free processors, and its policies.

use super::config::SimConfig;
use super::dheap::{DHeap, Entry};
use crate::family::multi_cluster::policy::scheduling::{site_fcfs, TaskOrder, TaskScheduling};
use crate::family::multi_cluster::policy::selection::{QueueIndex, Selection, SelectionPolicy, TaskSelection};
use crate::resources::freeset::FreeSet;
use crate::resources::gantt::Planned;
use std::collections::{BTreeSet, VecDeque};

/// A task planned on a cluster by ECT: the task, its BoT and its place in the chart.
#[derive(Clone, Copy, Debug)]
pub struct PlannedTask {
    pub task: u32,
    pub bot: u32,
    pub plan: Planned,
}

/// Consecutive tasks `start..end` of BoT `bot` waiting at one RM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Part {
    pub bot: u32,
    pub start: u32,
    pub end: u32,
}

impl Part {
    fn len(&self) -> u64 {
        u64::from(self.end - self.start)
    }
}

/// The eligible set. FCFS policies keep whole parts (no per-task entries); sorted ones keep a heap of tasks keyed
/// by the runtime estimate's bits (non-negative floats order like their bits), inverted for shortest-first.
enum Eligible {
    Fifo(VecDeque<Part>),
    Heap(DHeap),
}

pub struct Rm {
    pub managed: Vec<u32>,
    /// Free processors per cluster as this RM sees them (indexed by global cluster id).
    pub(super) view: Vec<u32>,
    pub free_set: FreeSet,
    /// The same clusters in the platform's listed order (the ring of policies that know no speeds).
    pub free_listed: FreeSet,
    pub selection: Box<dyn TaskSelection>,
    pub scheduling: Box<dyn TaskScheduling>,
    index: QueueIndex,
    absorbs: bool,
    order: TaskOrder,
    pub max_replicas: u32,
    fifo: VecDeque<Part>,
    per_user: Vec<VecDeque<Part>>,
    /// Users with waiting tasks, by their key: the user id, or S-U-Prio's priority (`prio`).
    pub waiting_users: BTreeSet<u32>,
    /// S-U-Prio: (key of each user, user of each key), so that the set's first user is the highest priority.
    prio: Option<(Vec<u32>, Vec<u32>)>,
    /// Tasks waiting at this RM: in its queue or its eligible set, not yet dispatched.
    pub waiting: u64,
    /// Tasks that entered this RM's eligible set and have not finished (sent or not).
    pub unfinished: u64,
    eligible: Eligible,
    /// Running tasks that may get another copy, with a processor running one, in dispatch order.
    replicable: VecDeque<(u32, u32)>,
    /// ECT: per cluster, the tasks planned there that wait for a processor, first come first served.
    planned: Vec<VecDeque<PlannedTask>>,
    /// planned[c].len(), as the policies see it.
    pub queued: Vec<u32>,
    /// Tasks planned on clusters and not started, over all clusters.
    pub reserved_count: u64,
    /// Parts that entered the eligible set since the tape last read them (None unless a tape is recorded).
    pub entered: Option<Vec<Part>>,
}

impl Rm {
    /// An RM of `managed`; `own_fcfs`: a site that runs its own FCFS (S-T, first come first served) instead of the
    /// scenario's policies (`architecture.site_policy`).
    pub fn new(
        cfg: &SimConfig,
        managed: Vec<u32>,
        speed: &[f64],
        users: usize,
        per_stream: u32,
        own_fcfs: bool,
    ) -> Self {
        let selection_policy = if own_fcfs { SelectionPolicy::ST } else { cfg.selection.clone() };
        let selection = selection_policy.build();
        let scheduling = if own_fcfs { site_fcfs() } else { cfg.scheduling.build(&cfg.policy_options) };
        let index = selection.index();
        let order = scheduling.order();
        Rm {
            view: vec![0; speed.len()],
            free_set: FreeSet::new(speed),
            free_listed: FreeSet::listed(speed.len()),
            absorbs: selection.absorbs_arrivals(),
            max_replicas: scheduling.max_replicas(),
            index,
            order,
            selection,
            scheduling,
            managed,
            fifo: VecDeque::new(),
            per_user: if index == QueueIndex::PerUser { vec![VecDeque::new(); users] } else { Vec::new() },
            waiting_users: BTreeSet::new(),
            prio: (selection_policy == SelectionPolicy::SUPrio).then(|| {
                let streams = (users as u32).checked_div(per_stream).unwrap_or(1);
                let key: Vec<u32> =
                    (0..users as u32).map(|u| cfg.policy_options.prio_order.key(u, per_stream, streams)).collect();
                let mut user = vec![0; users];
                for (u, &k) in key.iter().enumerate() {
                    user[k as usize] = u as u32;
                }
                (key, user)
            }),
            waiting: 0,
            unfinished: 0,
            eligible: match order {
                TaskOrder::Fcfs => Eligible::Fifo(VecDeque::new()),
                _ => Eligible::Heap(DHeap::default()),
            },
            replicable: VecDeque::new(),
            planned: vec![VecDeque::new(); speed.len()],
            queued: vec![0; speed.len()],
            reserved_count: 0,
            entered: None,
        }
    }

    /// A task planned on cluster c joins the back of its queue (ECT's Gantt chart).
    pub fn reserve(&mut self, c: u32, task: PlannedTask) {
        self.planned[c as usize].push_back(task);
        self.queued[c as usize] += 1;
        self.reserved_count += 1;
    }

    /// Takes the first task queued at cluster c, if any.
    pub fn take_reservation(&mut self, c: u32) -> Option<PlannedTask> {
        let r = self.planned[c as usize].pop_front();
        if r.is_some() {
            self.queued[c as usize] -= 1;
            self.reserved_count -= 1;
        }
        r
    }

    pub fn view(&self, c: u32) -> u32 {
        self.view[c as usize]
    }

    pub fn set_view(&mut self, c: u32, free: u32) {
        let old = std::mem::replace(&mut self.view[c as usize], free);
        // The set only changes when the count crosses zero (it starts empty with every count at zero).
        if (old == 0) != (free == 0) {
            if free > 0 {
                self.free_set.insert(c);
                self.free_listed.insert(c);
            } else {
                self.free_set.remove(c);
                self.free_listed.remove(c);
            }
        }
    }

    fn heap_key(&self, estimate: f64) -> u64 {
        let bits = (estimate + 0.0).to_bits();
        if self.order == TaskOrder::ShortestFirst {
            !bits
        } else {
            bits
        }
    }

    /// A part arrives; `estimate` gives the sort key of a task for sorted eligible sets.
    pub fn enqueue(&mut self, part: Part, user: u32, estimate: &dyn Fn(u32) -> f64) {
        self.waiting += part.len();
        if self.absorbs {
            self.push_eligible(part, estimate);
            return;
        }
        match self.index {
            QueueIndex::Fifo => self.fifo.push_back(part),
            QueueIndex::PerUser => {
                self.per_user[user as usize].push_back(part);
                let key = self.key(user);
                self.waiting_users.insert(key);
            }
        }
    }

    fn push_eligible(&mut self, part: Part, estimate: &dyn Fn(u32) -> f64) {
        self.unfinished += part.len();
        if let Some(log) = self.entered.as_mut() {
            log.push(part);
        }
        match self.order {
            TaskOrder::Fcfs => {
                if let Eligible::Fifo(q) = &mut self.eligible {
                    q.push_back(part);
                }
            }
            _ => {
                for task in part.start..part.end {
                    let key = self.heap_key(estimate(task));
                    if let Eligible::Heap(h) = &mut self.eligible {
                        h.push(Entry { key, task, bot: part.bot });
                    }
                }
            }
        }
    }

    pub fn eligible_is_empty(&self) -> bool {
        match &self.eligible {
            Eligible::Fifo(q) => q.is_empty(),
            Eligible::Heap(h) => h.is_empty(),
        }
    }

    /// The task the scheduling policy considers next, and its BoT.
    pub fn peek_eligible(&self) -> (u32, u32) {
        match &self.eligible {
            Eligible::Fifo(q) => {
                let p = q.front().expect("non-empty");
                (p.start, p.bot)
            }
            Eligible::Heap(h) => {
                let e = h.peek().expect("non-empty");
                (e.task, e.bot)
            }
        }
    }

    pub fn pop_eligible(&mut self) {
        match &mut self.eligible {
            Eligible::Fifo(q) => {
                let front = q.front_mut().expect("non-empty");
                front.start += 1;
                if front.start == front.end {
                    q.pop_front();
                }
            }
            Eligible::Heap(h) => {
                h.pop();
            }
        }
        self.waiting -= 1;
    }

    /// The key of user u in `waiting_users`.
    fn key(&self, u: u32) -> u32 {
        self.prio.as_ref().map_or(u, |(key, _)| key[u as usize])
    }

    /// The user of a key of `waiting_users`.
    fn user(&self, k: u32) -> u32 {
        self.prio.as_ref().map_or(k, |(_, user)| user[k as usize])
    }

    /// Carries out a selection decision: moves waiting parts into the (empty) eligible set.
    pub fn apply_selection(&mut self, decision: Selection, estimate: &dyn Fn(u32) -> f64) {
        match decision {
            Selection::Nothing => {}
            Selection::AllTasks => match self.index {
                QueueIndex::Fifo => {
                    while let Some(p) = self.fifo.pop_front() {
                        self.push_eligible(p, estimate);
                    }
                }
                QueueIndex::PerUser => {
                    while let Some(k) = self.waiting_users.pop_first() {
                        let u = self.user(k);
                        while let Some(p) = self.per_user[u as usize].pop_front() {
                            self.push_eligible(p, estimate);
                        }
                    }
                }
            },
            Selection::OldestBot => {
                // fcondor may have queued a BoT as several pieces: take every piece of the oldest BoT in a row.
                if let Some(first) = self.fifo.pop_front() {
                    let bot = first.bot;
                    self.push_eligible(first, estimate);
                    while self.fifo.front().is_some_and(|p| p.bot == bot) {
                        let p = self.fifo.pop_front().expect("non-empty");
                        self.push_eligible(p, estimate);
                    }
                }
            }
            Selection::UserTasks(k) => {
                let u = self.user(k);
                while let Some(p) = self.per_user[u as usize].pop_front() {
                    self.push_eligible(p, estimate);
                }
                self.waiting_users.remove(&k);
            }
            Selection::UserOldestBot(u) => {
                if let Some(first) = self.per_user[u as usize].pop_front() {
                    let bot = first.bot;
                    self.push_eligible(first, estimate);
                    while self.per_user[u as usize].front().is_some_and(|p| p.bot == bot) {
                        let p = self.per_user[u as usize].pop_front().expect("non-empty");
                        self.push_eligible(p, estimate);
                    }
                }
                if self.per_user[u as usize].is_empty() {
                    self.waiting_users.remove(&u);
                }
            }
            Selection::OneTaskPerUser { after } => {
                let start = after.map_or(0, |a| a + 1);
                let order: Vec<u32> =
                    self.waiting_users.range(start..).chain(self.waiting_users.range(..start)).copied().collect();
                for u in order {
                    let q = &mut self.per_user[u as usize];
                    let front = q.front_mut().expect("waiting users have parts");
                    let one = Part { bot: front.bot, start: front.start, end: front.start + 1 };
                    front.start += 1;
                    if front.start == front.end {
                        q.pop_front();
                    }
                    if q.is_empty() {
                        self.waiting_users.remove(&u);
                    }
                    self.push_eligible(one, estimate);
                }
            }
        }
    }

    /// Remembers a started task as a replication candidate, with its processor (replicating policies only).
    pub fn note_started(&mut self, task: u32, proc: u32, task_end: &[f64]) {
        // Drop finished tasks at the front so the queue stays proportional to the running ones.
        while self.replicable.front().is_some_and(|&(t, _)| !task_end[t as usize].is_nan()) {
            self.replicable.pop_front();
        }
        self.replicable.push_back((task, proc));
    }

    pub fn push_replicable(&mut self, task: u32, proc: u32) {
        self.replicable.push_back((task, proc));
    }

    /// The next running task with fewer than `limit` copies, round-robin; removes it from the queue.
    pub fn next_replicable(&mut self, task_end: &[f64], copies: &[u8], limit: u32) -> Option<(u32, u32)> {
        while let Some((t, p)) = self.replicable.pop_front() {
            if task_end[t as usize].is_nan() && u32::from(copies[t as usize]) < limit {
                return Some((t, p));
            }
        }
        None
    }
}
