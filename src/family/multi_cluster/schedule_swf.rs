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
//! The lines are the shared writer's (`trace::schedule::BotSwf`), from each task's first start and its end.

use super::sim::Simulation;
use crate::trace::schedule::{BotSwf, SwfEnd};
use std::io::Write;

/// What the header's notes say the fields hold.
const NOTES: [&str; 3] = [
    "one job per task; wait = first start of a copy - submit; run = end - that start",
    "field 12 (user) = BoT user + 1; field 14 (executable) = BoT index + 1",
    "status 5 with run -1 = not finished when the run ended",
];

/// An SWF schedule being written.
pub struct ScheduleSwf(BotSwf);

impl ScheduleSwf {
    /// Writes the header: `Version`, `Computer`, `Note` (what the fields hold), `MaxJobs` and `MaxProcs`.
    pub fn start(out: Box<dyn Write>, sim: &Simulation, what: &str) -> Self {
        ScheduleSwf(BotSwf::new(out, what, &NOTES, sim.workload(), sim.processors()))
    }

    /// Writes every BoT not written yet whose tasks and whose predecessors' tasks have all finished.
    pub fn write_finished(&mut self, sim: &Simulation) {
        self.0.write_finished(sim.workload(), |b| sim.bot_figures(b).is_some(), times(sim));
    }

    /// Writes the rest (after the run's end) and flushes.
    pub fn finish(self, sim: &Simulation) -> std::io::Result<SwfEnd> {
        self.0.finish(sim.workload(), times(sim))
    }
}

/// A task's line reads its first copy's start and its completion.
fn times(sim: &Simulation) -> impl Fn(usize) -> (f64, f64) + '_ {
    move |t| (sim.task_start(t), sim.task_end(t))
}
