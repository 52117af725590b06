//! The simulated schedule of a multi-cluster run as SWF v2.2 (`bagsim run --swf`): one job per task, written in
//! submit order while the run goes on, each BoT as soon as it and every BoT submitted before it have finished.
//!
//! A task's line ([`crate::trace::swf::Line`]): submit = its BoT's arrival; wait = the first start of a copy of it
//! − submit; run = its completion − that start (with replication, the span from its first copy's start to the end
//! of the copy that finished first); 1 processor; status 1. The user (field 12) is the BoT's user + 1; the BoT is
//! field 14, executable (application) number, BoT index + 1: SWF numbers an application from 1, and a BoT is one
//! application run over many inputs ([Iosup08] §1: jobs "that share the same executable"); field 15 (queue) and 16
//! (partition) are −1. A task the run did not finish (the horizon came first) is written with status 5 (cancelled) and
//! run time −1, its wait when it started; an importer skips it ("unknown run time").
//!
//! Memory: the writer holds its output buffer and the index of the next BoT to write; the times are the
//! simulation's own arrays.

use super::sim::Simulation;
use crate::trace::schedule::{SwfEnd, SwfStream};
use crate::trace::swf::Line;
use std::io::Write;

/// What the header's notes say the fields hold.
const NOTES: [&str; 3] = [
    "one job per task; wait = first start of a copy - submit; run = end - that start",
    "field 12 (user) = BoT user + 1; field 14 (executable) = BoT index + 1",
    "status 5 with run -1 = not finished when the run ended",
];

/// An SWF schedule being written.
pub struct ScheduleSwf {
    out: SwfStream,
    next_bot: usize,
}

impl ScheduleSwf {
    /// Writes the header: `Version`, `Computer`, `Note` (what the fields hold), `MaxJobs` and `MaxProcs`.
    pub fn start(out: Box<dyn Write>, sim: &Simulation, what: &str) -> Self {
        let out = SwfStream::new(out, what, &NOTES, sim.workload().tasks() as u64, sim.processors());
        ScheduleSwf { out, next_bot: 0 }
    }

    /// Writes every BoT not written yet whose tasks and whose predecessors' tasks have all finished.
    pub fn write_finished(&mut self, sim: &Simulation) {
        while self.next_bot < sim.workload().bots.len() && sim.bot_figures(self.next_bot).is_some() {
            self.write_bot(sim, self.next_bot);
            self.next_bot += 1;
        }
    }

    /// Writes the rest (after the run's end) and flushes.
    pub fn finish(mut self, sim: &Simulation) -> std::io::Result<SwfEnd> {
        for b in self.next_bot..sim.workload().bots.len() {
            self.write_bot(sim, b);
        }
        self.out.finish()
    }

    fn write_bot(&mut self, sim: &Simulation, b: usize) {
        let bot = &sim.workload().bots[b];
        for t in bot.first_task as usize..(bot.first_task + bot.size) as usize {
            let (start, end) = (sim.task_start(t), sim.task_end(t));
            self.out.line(&Line {
                job: t as u64 + 1,
                submit: bot.arrival,
                wait: if start.is_nan() { -1.0 } else { start - bot.arrival },
                run: if end.is_nan() { -1.0 } else { end - start },
                procs: 1,
                req_time: -1.0,
                status: if end.is_nan() { 5 } else { 1 },
                user: i64::from(bot.user) + 1,
                executable: b as i64 + 1,
                queue: -1,
                partition: -1,
            });
        }
    }
}
