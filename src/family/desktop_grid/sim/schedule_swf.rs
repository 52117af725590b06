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
//! Memory: 8 bytes a task (the start of its completing replica), only while writing; completions are the run's own.

use super::DgSimulation;
use crate::trace::schedule::{SwfEnd, SwfStream};
use crate::trace::swf::Line;

/// What the header's notes say the fields hold.
const NOTES: [&str; 3] = [
    "one job per task, its final execution; wait = start of the completing replica - submit; run = end - that start",
    "field 12 (user) = BoT user + 1; field 14 (executable) = BoT index + 1",
    "status 5 with wait and run -1 = not completed when the run ended",
];

/// The stream, the next BoT to write and the start of each task's completing replica (NaN: not completed).
pub(super) struct TaskSwf {
    out: SwfStream,
    next_bot: usize,
    final_start: Vec<f64>,
}

impl DgSimulation {
    /// From now on, writes the schedule to `out` as SWF (the header first).
    pub fn stream_swf(&mut self, out: Box<dyn std::io::Write>, what: &str) {
        let tasks = self.workload.runtimes.len();
        let out = SwfStream::new(out, what, &NOTES, tasks as u64, self.power.len() as u64);
        self.swf = Some(Box::new(TaskSwf { out, next_bot: 0, final_start: vec![f64::NAN; tasks] }));
    }

    /// Ends the stream started by `stream_swf` (None if none was): the BoTs not written yet, flushed.
    pub fn end_swf(&mut self) -> Option<std::io::Result<SwfEnd>> {
        let mut swf = self.swf.take()?;
        for b in swf.next_bot..self.workload.bots.len() {
            self.write_swf_bot(&mut swf, b);
        }
        Some(swf.out.finish())
    }

    /// Task `t` was completed now by a replica started at `start`; the BoTs completed, in submit order, since the
    /// last one written are written.
    pub(super) fn swf_completed(&mut self, t: u32, start: f64) {
        let Some(mut swf) = self.swf.take() else { return };
        swf.final_start[t as usize] = start;
        while swf.next_bot < self.workload.bots.len() && !self.bot_end[swf.next_bot].is_nan() {
            let b = swf.next_bot;
            self.write_swf_bot(&mut swf, b);
            swf.next_bot += 1;
        }
        self.swf = Some(swf);
    }

    fn write_swf_bot(&self, swf: &mut TaskSwf, b: usize) {
        let bot = &self.workload.bots[b];
        for t in bot.first_task as usize..(bot.first_task + bot.size) as usize {
            let (start, end) = (swf.final_start[t], self.task_end[t]);
            let done = !start.is_nan() && !end.is_nan();
            swf.out.line(&Line {
                job: t as u64 + 1,
                submit: bot.arrival,
                wait: if done { start - bot.arrival } else { -1.0 },
                run: if done { end - start } else { -1.0 },
                procs: 1,
                req_time: -1.0,
                status: if done { 1 } else { 5 },
                user: i64::from(bot.user) + 1,
                executable: b as i64 + 1,
                queue: -1,
                partition: -1,
            });
        }
    }
}
