//! The event handlers: a BoT's arrival at the resource managers of the architecture, a copy's end (cancelling
//! the other copies, freeing processors, feeding the predictors), the periodic pass and the monitoring refresh.

use super::rm::Part;
use super::{Event, Simulation, NONE};
use crate::family::multi_cluster::architecture::{Architecture, FcondorMove};
use crate::family::multi_cluster::policy::predictor::{PredictorInput, PredictorState};

impl Simulation {
    pub(super) fn on_arrival(&mut self, b: usize) {
        if b + 1 == self.workload.bots.len() {
            // The last submission: the busy area so far is the submission period's (once per run, not per event).
            self.account_busy(self.now());
            self.submitted_area = self.busy_area;
        }
        if self.tape.is_some() {
            self.tape_arrived(b);
        }
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
        let (w, inaccuracy) = (&self.workload, &self.inaccuracy);
        self.rms[r].enqueue(part, user, &|t| inaccuracy.estimate(w, t));
        if self.tape.is_some() {
            self.tape_entered(r);
        }
    }

    pub(super) fn ensure_tick(&mut self) {
        if self.stale_view && !self.tick_pending && self.rms[0].waiting > 0 {
            self.tick_pending = true;
            let t = self.now() + self.cfg.scheduling_period;
            self.queue.schedule(t, Event::Tick).expect("future");
        }
    }

    pub(super) fn refresh_view(&mut self) {
        for c in 0..self.clusters.len() {
            let free = self.clusters[c].free.len() as u32;
            self.rms[0].set_view(c as u32, free);
        }
        for c in 0..self.clusters.len() as u32 {
            self.serve_reservation(0, c);
        }
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

    pub(super) fn on_task_end(&mut self, p: u32) {
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
            if self.tape.is_some() {
                self.tape_ended(q, crate::story::BarEnd::Cancelled);
            }
            self.wasted_cpu += self.release(q);
            self.proc_next_copy[q as usize] = q;
            self.replicas_cancelled += 1;
            freed.push(qc);
            q = next;
        }
        self.proc_next_copy[pi] = p;
        if self.jobs.is_some() {
            self.write_job(p, task, bot, now);
        }
        if self.tape.is_some() {
            self.tape_ended(p, crate::story::BarEnd::Completed);
        }
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
        self.note_failure(r);
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
}
