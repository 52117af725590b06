//! Accounting of a run: busy processor-time, the time series, the end of the run (copies still running count for
//! their users), the raw outcome, and the run's invariants.

use super::outcome::{Outcome, Sample};
use super::{Simulation, NONE};
use crate::family::multi_cluster::architecture::Architecture;

impl Simulation {
    pub(super) fn finish(&mut self, t: f64) {
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

    pub(super) fn account_busy(&mut self, t: f64) {
        self.busy_area += self.busy as f64 * (t - self.busy_changed);
        self.busy_changed = t;
    }

    pub(super) fn sample_until(&mut self, t: f64) {
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
            submitted_area: self.submitted_area,
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
    pub fn check_invariants(&self) -> Result<(), crate::engine::Broken> {
        let mut running_copies = vec![0u32; self.task_copies.len()];
        for (p, &t) in self.proc_task.iter().enumerate() {
            if t != NONE {
                running_copies[t as usize] += 1;
                if !self.task_end[t as usize].is_nan() {
                    return Err(crate::engine::Broken(format!("processor {p} still runs task {t}, which finished")));
                }
            }
        }
        for (c, cs) in self.clusters.iter().enumerate() {
            let busy = (cs.first_proc..cs.first_proc + cs.processors).filter(|&p| self.proc_task[p as usize] != NONE);
            if busy.count() as u32 != cs.busy || cs.busy + cs.free.len() as u32 != cs.processors {
                return Err(crate::engine::Broken(format!(
                    "cluster {c}: busy/free counts disagree with the processors"
                )));
            }
        }
        for (t, &copies) in running_copies.iter().enumerate() {
            if !self.task_end[t].is_nan() && copies > 0 {
                return Err(crate::engine::Broken(format!("task {t} finished but still has running copies")));
            }
            if !self.task_end[t].is_nan() && self.task_end[t] < self.task_start[t] {
                return Err(crate::engine::Broken(format!("task {t} ends before it starts")));
            }
        }
        Ok(())
    }
}
