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
    procs: Procs,
    ranges: Vec<(u32, u32)>,
}

impl JobLog {
    /// Job `j` starts at site `k` on `procs` processors: the lowest-numbered free ones.
    pub(super) fn take(&mut self, k: usize, j: u32, procs: u32) {
        self.procs.take(k, j, procs);
    }
}

/// Which processors each running job holds, handed out as the jobs start and end: the lowest-numbered free ones of
/// its site (the run's tape hands them out the same way, so that its bars are the rows of `allocated_resources`).
pub(super) struct Procs {
    /// Free processors of each site, by global index (site k's are `offset[k] ..`).
    free: Vec<BTreeSet<u32>>,
    /// Processors each running job holds, sorted.
    held: BTreeMap<u32, Vec<u32>>,
}

impl Procs {
    /// Every processor of the sites (`processors` each) free.
    pub(super) fn new(processors: impl Iterator<Item = u32>) -> Procs {
        let mut first = 0u32;
        let free = processors
            .map(|p| {
                let set = (first..first + p).collect();
                first += p;
                set
            })
            .collect();
        Procs { free, held: BTreeMap::new() }
    }

    /// Job `j` starts at site `k` on `procs` processors: the lowest-numbered free ones, sorted.
    pub(super) fn take(&mut self, k: usize, j: u32, procs: u32) -> &[u32] {
        let free = &mut self.free[k];
        let got: Vec<u32> = (0..procs).map_while(|_| free.pop_first()).collect();
        debug_assert_eq!(got.len(), procs as usize, "a site starts a job only on processors it has free");
        self.held.entry(j).or_insert(got)
    }

    /// Job `j` of site `k` ended: its processors, sorted, are free again.
    pub(super) fn give_back(&mut self, k: usize, j: u32) -> Vec<u32> {
        let held = self.held.remove(&j).unwrap_or_default();
        self.free[k].extend(held.iter().copied());
        held
    }
}

impl Simulation {
    /// From now on, writes one row per ended job to `out` (the header first); `processors` per site.
    pub fn stream_jobs(&mut self, out: Box<dyn std::io::Write>, processors: &[u32]) {
        self.jobs = Some(Box::new(JobLog {
            csv: JobsCsv::new(out, OWN_COLUMNS),
            procs: Procs::new(processors.iter().copied()),
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
        let held = log.procs.give_back(r.site as usize, j as u32);
        ranges_of(&held, &mut log.ranges);
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
