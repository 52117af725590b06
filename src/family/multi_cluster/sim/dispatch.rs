//! Scheduling and dispatch: a task's runtime estimate (known with inaccuracy, or predicted), the scheduling pass
//! of a resource manager (eligible sets, the policy's choice), reservations, starting a copy on a processor,
//! and replication.

use super::rm::PlannedTask;
use super::{Event, Simulation};
use crate::family::multi_cluster::architecture::EligibleSet;
use crate::family::multi_cluster::policy::predictor::PredictorInput;
use crate::family::multi_cluster::policy::scheduling::{Choice, Estimate, ResourceView};
use crate::family::multi_cluster::policy::selection::{SelectionPolicy, SelectionView};
use crate::resources::gantt::Planned;

impl Simulation {
    /// The runtime estimate of task `task` for a policy with known runtimes: under `inaccuracy_on = estimate`,
    /// max(R + (E/100)·R, 1) with E ~ U[−I, I] ([Iosup08] §5.3); under `runtime`, R while the task runs the
    /// perturbed value.
    pub fn known_estimate(&self, task: usize) -> f64 {
        self.inaccuracy.estimate(&self.workload, task as u32)
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

    /// One scheduling pass of RM r: form eligible sets and place their tasks while resources are free; then, for
    /// replicating policies with nothing waiting, replicate running tasks on what is left.
    pub(super) fn pass(&mut self, r: usize) {
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
                let (w, inaccuracy) = (&self.workload, &self.inaccuracy);
                rm.apply_selection(decision, &|t| inaccuracy.estimate(w, t));
                if self.tape.is_some() {
                    self.tape_entered(r);
                }
                if self.rms[r].eligible_is_empty() {
                    // Only a script can fail; a built-in's empty set costs no call here.
                    if matches!(self.cfg.selection, SelectionPolicy::Script(_)) {
                        self.note_selection_failure(r);
                    }
                    break;
                }
            }
            let (task, bot) = self.rms[r].peek_eligible();
            let kind = self.rms[r].scheduling.estimate();
            let estimate = self.estimate_for(kind, task as usize, bot as usize);
            let choice = self.choose(r, estimate);
            if self.tape.is_some() {
                self.tape_placed(r, task, choice, estimate);
            }
            match choice {
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
                Choice::Wait => {
                    self.note_failure(r);
                    break;
                }
            }
        }
        if self.rms[r].waiting == 0 && self.rms[r].max_replicas > 0 {
            self.replicate(r);
        }
    }

    /// The tasks queued at cluster c start, first come first served, while it has free processors (as its RM
    /// sees them).
    pub(super) fn serve_reservation(&mut self, r: usize, c: u32) {
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
            free_listed: &rm.free_listed,
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
            if self.tape.is_some() {
                self.tape_queued(task, c);
            }
        } else {
            self.start(task, bot, c, None, plan);
        }
    }

    pub(super) fn start(&mut self, task: u32, bot: u32, c: u32, copy_of: Option<u32>, plan: Option<Planned>) {
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
        if self.tape.is_some() {
            self.tape_started(task, p, copy_of.is_some());
        }
        let end = now + self.workload.runtimes[ti] / speed;
        let gen = self.proc_gen[pi];
        self.queue.schedule(end, Event::TaskEnd { proc: p, gen }).expect("runtimes are positive");
    }

    /// Replicates running tasks of RM r, round-robin over them, while it has free processors.
    fn replicate(&mut self, r: usize) {
        let limit = 1 + self.rms[r].max_replicas;
        while !self.rms[r].free_set.is_empty() {
            let Some((task, proc)) = self.rms[r].next_replicable(&self.task_end, &self.task_copies, limit) else {
                break;
            };
            let Choice::Start(c) = self.choose(r, 0.0) else {
                self.note_failure(r);
                break;
            };
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
}
