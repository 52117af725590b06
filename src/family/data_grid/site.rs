//! A site's local scheduler: FCFS with advance reservations and conservative backfilling (Mu'alem & Feitelson 2001,
//! cited as [18] by [Liu10]). Every queued job holds a reservation in the site's profile from its arrival on; a job
//! starts at its reservation; when a job ends before its estimate, the schedule is compressed: the queued jobs, in
//! order of arrival, are each taken out and put back at their earliest start, which is never later than before.

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
    /// The earliest hold [start, end) for this ask on `profile` from `now`.
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
    pub profile: Profile,
    pub queue: BTreeSet<u32>,
    /// Queued jobs by (reservation start as `f64::to_bits`, job).
    pub starts: BTreeSet<(u64, u32)>,
    /// The pending wake: its time (infinity when none) and version.
    pub wake: (f64, u32),
    /// Jobs holding processors now.
    pub running: BTreeSet<u32>,
    /// Processors held now.
    pub busy: u32,
}

impl Site {
    pub fn new(processors: u32) -> Site {
        Site {
            profile: Profile::new(processors),
            queue: BTreeSet::new(),
            starts: BTreeSet::new(),
            wake: (f64::INFINITY, 0),
            running: BTreeSet::new(),
            busy: 0,
        }
    }
}
