//! The per-task records of a run in Batsim's `jobs.csv` columns (docs/jobs.md), one row written as each task
//! finishes: the copy that completed it, on its processor's global index.

use super::Simulation;
use crate::jobs::{Cell, FinalState, JobsCsv, JobsEnd, Row};
use crate::workload::size_class::size_class;

/// The family's own columns, after Batsim's.
pub const OWN_COLUMNS: &[&str] =
    &["bot", "user", "cluster", "size_class", "executions", "first_start", "reference_runtime"];

impl Simulation {
    /// From now on, writes one row per finished task to `out` (the header first).
    pub fn stream_jobs(&mut self, out: Box<dyn std::io::Write>) {
        self.jobs = Some(JobsCsv::new(out, OWN_COLUMNS));
    }

    /// Ends the stream started by `stream_jobs` (None if none was): flushed, with the tasks left out.
    pub fn end_jobs(&mut self) -> Option<std::io::Result<JobsEnd>> {
        let tasks = self.workload.tasks() as u64;
        self.jobs.take().map(|j| j.finish(tasks))
    }

    /// The row of `task` (of BoT `bot`), completed now by the copy on processor `p`.
    pub(super) fn write_job(&mut self, p: u32, task: usize, bot: usize, now: f64) {
        let Some(mut jobs) = self.jobs.take() else { return };
        let b = &self.workload.bots[bot];
        let c = self.proc_cluster[p as usize] as usize;
        let row = Row {
            job_id: task as u64,
            profile: "delay",
            submission_time: b.arrival,
            requested_number_of_resources: 1,
            requested_time: -1.0,
            final_state: FinalState::CompletedSuccessfully,
            starting_time: self.proc_start[p as usize],
            finish_time: now,
            allocated: &[(p, p)],
        };
        let cells = [
            Cell::Int(bot as u64),
            Cell::Int(u64::from(b.user)),
            Cell::Text(&self.clusters_spec[c].name),
            Cell::Text(size_class(b.size)),
            Cell::Int(u64::from(self.task_copies[task])),
            Cell::Num(self.task_start[task]),
            Cell::Num(self.workload.runtimes[task]),
        ];
        jobs.row(&row, &cells);
        self.jobs = Some(jobs);
    }
}
