//! The family's policies: what [Liu10] calls metascheduling schemes. The metascheduler (§III–IV) asks every site
//! when it could start or finish the job, from the site's own reservation profile, and dispatches the job to the
//! best answer (ties to the lowest site index). The three schemes differ in what the job holds on its processors
//! and in what they compare. A scenario's scheme may also be a user's script (`SchemePolicy`, built in
//! `scheme_policy.rs`; the script in `script.rs`).

mod scheme_policy;
mod script;

pub use super::config::SchemePolicy;
pub use script::{script_error, ChooseSite, SiteOffer, SiteView};

use super::config::Scheme;
use super::site::Ask;
use super::workload::Job;

/// What a job asks of site `k` under a scheme that `overlaps` the transfer with the queueing or not, given its transfer
/// time `transfer` to that site and the dispatch time: the schemes that leave the transfer to the job reserve it on the
/// processors (Fig. 1(a)); the data-aware one moves the data from dispatch and reserves only the computation, from the
/// data's arrival on (Eq. 3).
pub fn ask(overlaps: bool, job: &Job, transfer: f64, dispatch: f64) -> Ask {
    if overlaps {
        Ask { procs: job.procs, data_at: dispatch + transfer, len: job.estimate, early: false }
    } else {
        Ask { procs: job.procs, data_at: f64::NEG_INFINITY, len: transfer + job.estimate, early: false }
    }
}

/// The site the job goes to, what it asks there and the hold that site answered. start_time_no_data_aware compares
/// the earliest starts; the two finish-time schemes compare the earliest finishes (Eq. 4, no stage-out). `answer`
/// is site k's answer (of `widths[k]` processors) for an ask, from whatever its local policy can promise
/// (`sim/local.rs`).
pub fn choose(
    scheme: Scheme,
    widths: &[u32],
    job: &Job,
    transfers: &[f64],
    dispatch: f64,
    mut answer: impl FnMut(usize, &Ask) -> (f64, f64),
) -> (usize, Ask, (f64, f64)) {
    let mut best: Option<(f64, usize, Ask, (f64, f64))> = None;
    for (k, &width) in widths.iter().enumerate() {
        if job.procs > width {
            continue;
        }
        let a = ask(scheme.overlaps(), job, transfers[k], dispatch);
        let (start, end) = answer(k, &a);
        let key = match scheme {
            Scheme::StartTimeNoDataAware => start,
            Scheme::FinishTimeNoOverlap | Scheme::FinishTimeDataAware => end,
        };
        if best.as_ref().is_none_or(|b| key < b.0) {
            best = Some((key, k, a, (start, end)));
        }
    }
    // The workload keeps only jobs that fit on the widest site, so some site always answers.
    let (_, k, a, hold) = best.unwrap_or_else(|| {
        let a = ask(scheme.overlaps(), job, transfers[0], dispatch);
        (0.0, 0, a, answer(0, &a))
    });
    (k, a, hold)
}
