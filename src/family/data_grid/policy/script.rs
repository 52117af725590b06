//! Your own metascheduling scheme, written as a Rhai script (docs/policies.md, "Data grid"): the script's
//! `choose(view)` reads, per site, what the built-in schemes compare (the site's answer for when the job could
//! start and finish there, the transfer time, the processors) and returns `site(k)`. A decision the simulation
//! cannot carry out (a site out of range, or too small for the job) stops the run with the script's line, the
//! simulated time and the decision.

use super::super::site::Ask;
use super::super::workload::Job;
use crate::script::{ScriptError, ScriptSource};

#[cfg(feature = "scripts")]
mod scripted;
#[cfg(feature = "scripts")]
pub use scripted::ScriptedScheme;

/// What a site offers the job: the figures the built-in schemes compare.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SiteOffer {
    /// Processors of the site.
    pub processors: u32,
    /// Whether the job's processors fit on the site (else `start` and `finish` are NaN).
    pub fits: bool,
    /// Time to move the job's input data to the site, s.
    pub transfer: f64,
    /// The site's answer: the earliest hold [start, finish) it can give the job's ask, s.
    pub start: f64,
    pub finish: f64,
    /// Jobs waiting in the site's queue, and processors held, now.
    pub queued: u32,
    pub busy: u32,
    /// What the job asks there (the simulation's, not shown to the script).
    pub ask: Ask,
}

/// What a scripted scheme reads: the job, when it is dispatched, and every site's offer.
pub struct SiteView<'a> {
    pub now: f64,
    /// When the job reaches the site it is sent to (now + the dispatch delay), s.
    pub dispatch: f64,
    /// The job's index in the window.
    pub job_index: u32,
    pub job: &'a Job,
    pub sites: &'a [SiteOffer],
}

/// A metascheduling decision procedure other than the built-in schemes' (`policy::choose`).
pub trait ChooseSite {
    /// Whether the job's data moves from dispatch on, while it queues (as finish_time_data_aware), or on its
    /// processors once its hold begins.
    fn overlaps(&self) -> bool;
    /// The site the job goes to; None when the policy failed (`failure`).
    fn choose(&mut self, view: &SiteView) -> Option<usize>;
    /// Why the policy stopped deciding.
    fn failure(&self) -> Option<&ScriptError>;
}

pub use super::super::config::script_error;

/// The scheme a script gives: the scripted one, or one that stops the run with the script's error.
#[cfg(feature = "scripts")]
pub(super) fn build(source: &ScriptSource) -> Box<dyn ChooseSite> {
    match ScriptedScheme::new(source.as_str()) {
        Ok(p) => Box::new(p),
        Err(e) => Box::new(Refused(e)),
    }
}

/// Compiles the script and asks it what it declares.
#[cfg(feature = "scripts")]
pub(super) fn check(source: &ScriptSource) -> Result<(), ScriptError> {
    ScriptedScheme::new(source.as_str()).map(|_| ())
}

#[cfg(not(feature = "scripts"))]
pub(super) fn build(_: &ScriptSource) -> Box<dyn ChooseSite> {
    Box::new(Refused(ScriptError::new(0, 0, crate::script::NO_ENGINE)))
}

/// Without the engine a script is checked where it runs (the worker).
#[cfg(not(feature = "scripts"))]
pub(super) fn check(_: &ScriptSource) -> Result<(), ScriptError> {
    Ok(())
}

/// A script that does not compile, as a scheme: it chooses no site, and says why.
pub struct Refused(pub ScriptError);

impl ChooseSite for Refused {
    fn overlaps(&self) -> bool {
        false
    }
    fn choose(&mut self, _: &SiteView) -> Option<usize> {
        None
    }
    fn failure(&self) -> Option<&ScriptError> {
        Some(&self.0)
    }
}
