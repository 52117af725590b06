//! The per-job records of a run in Batsim's `jobs.csv` columns (docs/jobs.md), one row written as each job ends.
//! The sites' schedules count processors, not which ones; while streaming, each site also hands out processor
//! indices: a starting job takes the lowest-numbered free ones and gives them back when it ends, which is a valid
//! allocation (never two jobs on one processor at once) at a cost of O(procs · log P) per start and end.

use super::Simulation;
use crate::jobs::{ranges_of, Cell, FinalState, JobsCsv, JobsEnd, Row};
use std::collections::{BTreeMap, BTreeSet};

/// The family's own columns, after Batsim's.
pub const OWN_COLUMNS: &[&str] =
    &["log_job", "site", "data_mb", "transfer_start", "transfer_end", "compute_start", "runtime", "reservation"];

/// The stream and the processors it hands out.
pub(super) struct JobLog {
    csv: JobsCsv,
    /// Free processors of each site, by global index (site k's are `offset[k] ..`).
    free: Vec<BTreeSet<u32>>,
    /// Processors each running job holds, sorted.
    held: BTreeMap<u32, Vec<u32>>,
    ranges: Vec<(u32, u32)>,
}

impl JobLog {
    /// Job `j` starts at site `k` on `procs` processors: the lowest-numbered free ones.
    pub(super) fn take(&mut self, k: usize, j: u32, procs: u32) {
        let free = &mut self.free[k];
        let got: Vec<u32> = (0..procs).map_while(|_| free.pop_first()).collect();
        debug_assert_eq!(got.len(), procs as usize, "a site starts a job only on processors it has free");
        self.held.insert(j, got);
    }
}

impl Simulation {
    /// From now on, writes one row per ended job to `out` (the header first); `processors` per site.
    pub fn stream_jobs(&mut self, out: Box<dyn std::io::Write>, processors: &[u32]) {
        let mut first = 0u32;
        let free = processors
            .iter()
            .map(|&p| {
                let set = (first..first + p).collect();
                first += p;
                set
            })
            .collect();
        self.jobs = Some(Box::new(JobLog {
            csv: JobsCsv::new(out, OWN_COLUMNS),
            free,
            held: BTreeMap::new(),
            ranges: Vec::new(),
        }));
    }

    /// Ends the stream started by `stream_jobs` (None if none was): flushed, with the jobs left out.
    pub fn end_jobs(&mut self) -> Option<std::io::Result<JobsEnd>> {
        let jobs = self.w.jobs.len() as u64;
        self.jobs.take().map(|j| j.csv.finish(jobs))
    }

    /// The row of job `j`, ended now; its processors are free again.
    pub(super) fn write_job(&mut self, j: usize) {
        let Some(log) = self.jobs.as_mut() else { return };
        let r = &self.records[j];
        let held = log.held.remove(&(j as u32)).unwrap_or_default();
        ranges_of(&held, &mut log.ranges);
        log.free[r.site as usize].extend(held);
        let row = Row {
            job_id: u64::from(r.job),
            profile: "delay",
            submission_time: r.submit,
            requested_number_of_resources: r.procs,
            requested_time: r.estimate,
            final_state: if r.killed {
                FinalState::CompletedWalltimeReached
            } else {
                FinalState::CompletedSuccessfully
            },
            starting_time: r.hold_start,
            finish_time: r.end,
            allocated: &log.ranges,
        };
        let cells = [
            Cell::Signed(r.log_job),
            Cell::Int(u64::from(r.site)),
            Cell::Num(r.data_mb),
            Cell::Num(r.transfer_start),
            Cell::Num(r.transfer_end),
            Cell::Num(r.compute_start),
            Cell::Num(r.runtime),
            Cell::Num(r.reservation),
        ];
        log.csv.row(&row, &cells);
    }
}
