//! The per-task records of a run in Batsim's `jobs.csv` columns (docs/jobs.md), one row written as each task
//! completes: the replica that completed it, on its machine's index; the task's other executions (replicas
//! cancelled, killed by a machine failure) in the family's own columns.

use super::DgSimulation;
use crate::jobs::{Cell, FinalState, JobsCsv, JobsEnd, Row};

/// The family's own columns, after Batsim's.
pub const OWN_COLUMNS: &[&str] = &["bot", "executions", "failed_executions", "first_start", "work", "machine_power"];

/// The stream and what a row needs that the run does not keep per task: 16 bytes a task, only while streaming.
pub(super) struct TaskLog {
    csv: JobsCsv,
    /// First replica start of each task, s (NaN: none yet).
    first_start: Vec<f64>,
    /// Replicas started, and killed by a machine failure, of each task.
    executions: Vec<u32>,
    failed: Vec<u32>,
}

impl TaskLog {
    pub(super) fn started(&mut self, t: u32, now: f64) {
        let t = t as usize;
        if self.first_start[t].is_nan() {
            self.first_start[t] = now;
        }
        self.executions[t] += 1;
    }

    pub(super) fn failed(&mut self, t: u32) {
        self.failed[t as usize] += 1;
    }
}

impl DgSimulation {
    /// From now on, writes one row per completed task to `out` (the header first).
    pub fn stream_jobs(&mut self, out: Box<dyn std::io::Write>) {
        let n = self.workload.runtimes.len();
        self.jobs = Some(Box::new(TaskLog {
            csv: JobsCsv::new(out, OWN_COLUMNS),
            first_start: vec![f64::NAN; n],
            executions: vec![0; n],
            failed: vec![0; n],
        }));
    }

    /// Ends the stream started by `stream_jobs` (None if none was): flushed, with the tasks left out.
    pub fn end_jobs(&mut self) -> Option<std::io::Result<JobsEnd>> {
        let tasks = self.workload.runtimes.len() as u64;
        self.jobs.take().map(|j| j.csv.finish(tasks))
    }

    /// The row of task `t` of BoT `b`, completed now by the replica on machine `m`.
    pub(super) fn write_job(&mut self, m: u32, t: u32, b: u32, now: f64) {
        let Some(log) = self.jobs.as_mut() else { return };
        let ti = t as usize;
        let row = Row {
            job_id: u64::from(t),
            profile: "delay",
            submission_time: self.workload.bots[b as usize].arrival,
            requested_number_of_resources: 1,
            requested_time: -1.0,
            final_state: FinalState::CompletedSuccessfully,
            starting_time: self.slots[m as usize].start,
            finish_time: now,
            allocated: &[(m, m)],
        };
        let cells = [
            Cell::Int(u64::from(b)),
            Cell::Int(u64::from(log.executions[ti])),
            Cell::Int(u64::from(log.failed[ti])),
            Cell::Num(log.first_start[ti]),
            Cell::Num(self.workload.runtimes[ti]),
            Cell::Num(self.power[m as usize]),
        ];
        log.csv.row(&row, &cells);
    }
}
