//! The simulated schedule of a data-grid run as SWF v2.2 (`bagsim run --swf`, docs/traces.md "Writing"): the
//! log's parallel jobs in their native form, written in submit order, each once it and every job submitted before
//! it have ended.
//!
//! A job's line: job number = its index in the window + 1 (the jobs.csv `job_id` + 1); submit; wait = the start of
//! its hold on the processors − submit; run = its end − that start (the data transfer it makes on its processors
//! included: the jobs.csv row's waiting and execution time); processors (fields 5 and 8); requested time (field 9) =
//! what the site reserves for its computation (jobs.csv's `requested_time`); status 1 completed, 0 stopped at its
//! requested time (walltime `kill`), 5 not ended when the run stopped (wait, run and partition −1); partition
//! (field 16) = its site + 1. The window keeps no user or executable: fields 12 and 14 are −1, and the log's own job
//! number is in jobs.csv's `log_job`.
//!
//! Memory: 1 byte a job (whether it has ended), only while writing; the times are the run's own records.

use super::{JobRecord, Simulation};
use crate::trace::schedule::{SwfEnd, SwfStream};
use crate::trace::swf::Line;

/// What the header's notes say the fields hold.
const NOTES: [&str; 4] = [
    "one job per job of the window; field 1 = jobs.csv job_id + 1; wait = hold start - submit; run = end - that start",
    "field 9 = the time the site reserves; field 16 (partition) = site + 1",
    "status 1 completed, 0 stopped at its requested time (walltime kill)",
    "status 5 with wait and run -1 = not ended when the run stopped",
];

/// The stream, the next job to write and which jobs have ended.
pub(super) struct JobSwf {
    out: SwfStream,
    next: usize,
    ended: Vec<bool>,
}

impl Simulation {
    /// From now on, writes the schedule to `out` as SWF (the header first); `processors` per site.
    pub fn stream_swf(&mut self, out: Box<dyn std::io::Write>, what: &str, processors: &[u32]) {
        let total = processors.iter().map(|&p| u64::from(p)).sum();
        let out = SwfStream::new(out, what, &NOTES, self.w.jobs.len() as u64, total);
        self.swf = Some(Box::new(JobSwf { out, next: 0, ended: vec![false; self.w.jobs.len()] }));
    }

    /// Ends the stream started by `stream_swf` (None if none was): the jobs not ended as status 5, flushed.
    pub fn end_swf(&mut self) -> Option<std::io::Result<SwfEnd>> {
        let mut swf = self.swf.take()?;
        for j in swf.next..self.records.len() {
            swf.out.line(&line(&self.records[j], swf.ended[j]));
        }
        Some(swf.out.finish())
    }

    /// Job `j` has ended: it and the ended jobs after the last one written are written, in submit order.
    pub(super) fn swf_ended(&mut self, j: usize) {
        let Some(swf) = self.swf.as_mut() else { return };
        swf.ended[j] = true;
        while swf.next < swf.ended.len() && swf.ended[swf.next] {
            swf.out.line(&line(&self.records[swf.next], true));
            swf.next += 1;
        }
    }
}

/// The line of job `r`, ended or not.
fn line(r: &JobRecord, ended: bool) -> Line {
    let (wait, run, status) = match (ended, r.killed) {
        (false, _) => (-1.0, -1.0, 5),
        (true, killed) => (r.hold_start - r.submit, r.end - r.hold_start, if killed { 0 } else { 1 }),
    };
    Line {
        job: u64::from(r.job) + 1,
        submit: r.submit,
        wait,
        run,
        procs: r.procs,
        req_time: r.estimate,
        status,
        user: -1,
        executable: -1,
        queue: -1,
        partition: if ended { i64::from(r.site) + 1 } else { -1 },
    }
}
