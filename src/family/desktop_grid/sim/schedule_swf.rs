//! The simulated schedule of a desktop-grid run as SWF v2.2 (`bagsim run --swf`, docs/traces.md "Writing"): one
//! job per task, its final execution (the replica that completed it), written in submit order, each BoT once it
//! and every BoT submitted before it have completed.
//!
//! A task's line: job number = the task's index + 1 (the jobs.csv `job_id` + 1); submit = its BoT's arrival;
//! wait = the start of the completing replica − submit; run = its completion − that start (the jobs.csv row's
//! waiting and execution time); 1 processor; status 1; user (field 12) = the BoT's user + 1; executable (field 14)
//! = the BoT's index + 1, as in a multi-cluster schedule. The task's other executions (replicas cancelled or killed
//! by a machine failure) are not lines; jobs.csv counts them. A task the run did not complete: status 5, wait and
//! run −1.
//!
//! The lines are the shared writer's (`trace::schedule::BotSwf`), from each task's completing replica's start and
//! its completion, both NaN for a task not completed.
//!
//! Memory: 8 bytes a task (the start of its completing replica), only while writing; completions are the run's own.

use super::DgSimulation;
use crate::trace::schedule::{BotSwf, SwfEnd};

/// What the header's notes say the fields hold.
const NOTES: [&str; 3] = [
    "one job per task, its final execution; wait = start of the completing replica - submit; run = end - that start",
    "field 12 (user) = BoT user + 1; field 14 (executable) = BoT index + 1",
    "status 5 with wait and run -1 = not completed when the run ended",
];

/// The stream and the start of each task's completing replica (NaN: not completed).
pub(super) struct TaskSwf {
    out: BotSwf,
    final_start: Vec<f64>,
}

impl DgSimulation {
    /// From now on, writes the schedule to `out` as SWF (the header first).
    pub fn stream_swf(&mut self, out: Box<dyn std::io::Write>, what: &str) {
        let out = BotSwf::new(out, what, &NOTES, &self.workload, self.power.len() as u64);
        self.swf = Some(Box::new(TaskSwf { out, final_start: vec![f64::NAN; self.workload.tasks()] }));
    }

    /// Ends the stream started by `stream_swf` (None if none was): the BoTs not written yet, flushed.
    pub fn end_swf(&mut self) -> Option<std::io::Result<SwfEnd>> {
        let swf = self.swf.take()?;
        let (start, end) = (&swf.final_start, &self.task_end);
        Some(swf.out.finish(&self.workload, |t| completed(start[t], end[t])))
    }

    /// Task `t` was completed now by a replica started at `start`; the BoTs completed, in submit order, since the
    /// last one written are written.
    pub(super) fn swf_completed(&mut self, t: u32, start: f64) {
        let Some(swf) = self.swf.as_mut() else { return };
        swf.final_start[t as usize] = start;
        let (start, end, bot_end) = (&swf.final_start, &self.task_end, &self.bot_end);
        swf.out.write_finished(&self.workload, |b| !bot_end[b].is_nan(), |t| completed(start[t], end[t]));
    }
}

/// A task's (start, end) as its line reads them: both, once it completed; neither before.
fn completed(start: f64, end: f64) -> (f64, f64) {
    if start.is_nan() || end.is_nan() {
        (f64::NAN, f64::NAN)
    } else {
        (start, end)
    }
}
