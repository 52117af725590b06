//! A site's local scheduler. Under conservative backfilling (Mu'alem & Feitelson 2001, cited as [18] by [Liu10]),
//! the default, every queued job holds a reservation in the site's profile from its arrival on; a job starts at its
//! reservation; when a job ends before its estimate, the schedule is compressed: the queued jobs, in order of
//! arrival, are each taken out and put back at their earliest start, which is never later than before. FCFS is the
//! same with no job starting before one that arrived earlier; under EASY only the first queued job holds a
//! reservation (`sim/local.rs`).

use super::config::LocalPolicy;
use crate::resources::profile::Profile;
use std::collections::BTreeSet;

/// What a job asks of a site: processors, and the hold its reservation must cover.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ask {
    pub procs: u32,
    /// The job cannot compute before this (its data arrives then; `-inf` when it needs none or moves it itself).
    pub data_at: f64,
    /// Reserved time on the processors after the data is there: the estimate, plus the transfer when the job moves
    /// its own data.
    pub len: f64,
    /// May the hold begin before `data_at` (the data-aware backfill rule of [Liu10] §III)?
    pub early: bool,
}

impl Ask {
    /// The earliest hold [start, end) for this ask on `profile` that begins at `now` or later. Inlined: it sits in
    /// the compression loop of conservative backfilling (`sim/local.rs`).
    #[inline]
    pub fn place(&self, profile: &Profile, now: f64) -> (f64, f64) {
        if self.early && self.data_at > now {
            if let Some(s) = profile.earliest_ending(now, self.data_at, self.procs, self.len) {
                return (s, self.data_at + self.len);
            }
        }
        let s = profile.earliest(now.max(self.data_at), self.procs, self.len);
        (s, s + self.len)
    }
}

/// One site: its profile, its queue (job indices in order of arrival) and the same jobs by reservation start.
#[derive(Clone, Debug)]
pub struct Site {
    pub policy: LocalPolicy,
    /// Backfill depth: how many queued jobs, the first included, a scheduling pass, a compression or a forecast
    /// considers (Slurm's `bf_max_job_test`); `usize::MAX` when unbounded.
    pub depth: usize,
    /// Running jobs and reservations: every queued job's (conservative, FCFS), or the first queued job's (EASY).
    pub profile: Profile,
    /// EASY: the profile with every queued job placed in order of arrival as conservative backfilling would place
    /// it, from which the site forecasts a new job's start for the metascheduler; None when it must be rebuilt.
    pub plan: Option<Profile>,
    /// EASY: a scheduling pass is due at the current time.
    pub pass_due: bool,
    pub queue: BTreeSet<u32>,
    /// Queued jobs that hold a reservation, by (its start as `f64::to_bits`, job).
    pub starts: BTreeSet<(u64, u32)>,
    /// The pending wake: its time (infinity when none) and version.
    pub wake: (f64, u32),
    /// Jobs holding processors now.
    pub running: BTreeSet<u32>,
    /// Processors held now.
    pub busy: u32,
}

impl Site {
    pub fn new(processors: u32, policy: LocalPolicy) -> Site {
        Site {
            policy,
            depth: usize::MAX,
            profile: Profile::new(processors),
            plan: None,
            pass_due: false,
            queue: BTreeSet::new(),
            starts: BTreeSet::new(),
            wake: (f64::INFINITY, 0),
            running: BTreeSet::new(),
            busy: 0,
        }
    }
}
