//! The run contract every scenario family implements once (ARCHITECTURE.md, "The family contract"). The worker's
//! chunk loop, the CLI's `run`, `sweep` and figure commands, and the tests drive any family's run through it, and
//! know nothing else of the family. Knows no family.

mod def;
mod estimate;
mod figures;
mod json_at;
mod keys;
mod plan;

use crate::engine::Model;
use serde::{Deserialize, Serialize};

pub use crate::words::{
    bytes_words, count_words, factor_words, group_digits, seconds_words, short_number, tidy_line, tidy_message,
};
pub use def::{
    at_default, build, canonical_json, read_scenario, run_to_end, said, scenario_from_json, Checked, FamilyDef, Others,
    ScriptCheckError, Tournament, Valid,
};
pub use estimate::{
    Driver, Estimate, Part, EVENTS_PER_S, LARGE_MEMORY, LONG_EVENTS, MAX_EVENTS, MAX_MEMORY, PAGE_EVENTS_PER_S,
};
pub use figures::{
    figure_numbers, finish_readings, planned_seeds, FigureCommand, FigureError, FigureFailure, FigureOut,
    FigureOutcome, FigureRequest,
};
pub use keys::{
    documented, json_error, objects_as_objects, parse_json, parse_rewritten_json, ErrorKind, Param, ScenarioError,
    Unused,
};
pub use plan::{Axis, FigurePlan, Kind, Point, PointError};

/// The seed of a scenario that gives none, in every family.
pub const DEFAULT_SEED: u64 = 1;

/// How far one step of a run goes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// At most this many events.
    Events(u64),
    /// Every event up to this simulated time, s.
    Until(f64),
    /// Every event to the end of the run.
    ToEnd,
}

impl Budget {
    /// Plays a simulation's events within the budget, through the engine's one run loop (`engine::Model`), which
    /// every family's simulator implements; true when the run is over. Each family's `FamilyRun::step` is this on
    /// its simulator (plus what it writes between chunks), so a budget means the same in every family.
    pub fn play<M: Model>(self, sim: &mut M) -> bool {
        match self {
            Budget::Events(n) => sim.run_events(n),
            Budget::Until(t) => sim.run_until(t),
            Budget::ToEnd => {
                sim.run();
                true
            }
        }
    }
}

/// Where a run stands, in the terms every family shares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// Simulated time, s.
    pub now: f64,
    /// End of the run at the latest, s.
    pub horizon: f64,
    pub events: u64,
    /// Tasks of the workload, and how many have finished.
    pub tasks: u64,
    pub finished_tasks: u64,
    /// Tasks waiting for a processor (a machine) now.
    pub queued: u64,
    /// Processors (machines) busy now.
    pub busy: u64,
}

impl Header {
    /// Finished tasks over all tasks (1 for an empty workload).
    pub fn done_fraction(&self) -> f64 {
        if self.tasks == 0 {
            1.0
        } else {
            self.finished_tasks as f64 / self.tasks as f64
        }
    }
}

/// What a run's workload turned out to be, in the terms every family shares (the `Started` message).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Start {
    pub bots: u64,
    pub tasks: u64,
    /// The offered load the workload achieved (for a desktop grid, the load factor L, exact by construction).
    pub achieved_load: f64,
    pub warnings: Vec<String>,
}

/// A family's run, built from its scenario, stepped by a budget, asked where it stands, what is new since the last
/// call, and for its report. Pause, resume, cancel and speed are the driver's: a paused run is one that is not
/// stepped, a cancelled one is dropped, and a speed is a budget of simulated time per tick.
pub trait FamilyRun {
    /// What the page draws live: the samples and results that are new since the previous `take_detail`.
    type Detail;
    /// The family's report of a finished run (the JSON of `bagsim run --out`).
    type Report;

    /// Plays events within the budget; true when the run is over (nothing left, or the horizon reached).
    fn step(&mut self, budget: Budget) -> bool;
    /// Where the run stands.
    fn header(&self) -> Header;
    /// The samples and results since the previous call.
    fn take_detail(&mut self) -> Self::Detail;
    /// The report, with the wall-clock seconds the simulation took.
    fn report(&self, wall_s: f64) -> Self::Report;
    /// What the workload turned out to be.
    fn start(&self) -> Start;
    /// Adds warnings said before the run starts (its budget's, keys set to no effect), first.
    fn warn(&mut self, warnings: Vec<String>);
    /// The report `bagsim run --out` writes, from the one `report` gave (as it is, unless the family adds what
    /// only an export needs).
    fn full_report(&self, report: Self::Report) -> Self::Report {
        report
    }
    /// The run's rows as CSV (per BoT, per job), for the families that have them.
    fn rows_csv(&self) -> Option<String> {
        None
    }
    /// From now on, streams one row per finished task (data grid: per ended job) to `out` in Batsim's `jobs.csv`
    /// columns, then the family's own (docs/jobs.md). Call it before the first `step` to have every row.
    fn stream_jobs(&mut self, out: Box<dyn std::io::Write>);
    /// Ends the stream `stream_jobs` started (None if none was): flushed, with the rows written and the tasks left
    /// out (unfinished when the run stopped: Batsim writes only complete jobs).
    fn end_jobs(&mut self) -> Option<std::io::Result<crate::jobs::JobsEnd>>;
    /// From now on, records the run's tape (docs/story.md): every execution of a task as a bar on its rows, and
    /// each task's decisions as its story's steps. False if the family records none. Call it before the first
    /// `step`.
    fn record_tape(&mut self) -> bool {
        false
    }
    /// The tape recorded since `record_tape`, with the bars of executions still running closed at the current time
    /// (None if none was recorded).
    fn take_tape(&mut self) -> Option<crate::story::Tape> {
        None
    }
    /// From now on, writes the simulated schedule to `out` as SWF v2.2 (docs/traces.md, "Writing"): one job per
    /// task (data grid: per job) in submit order, each once it and every job submitted before it have ended, with
    /// `what` (the run's name) in the header. Call it before the first `step`.
    fn stream_swf(&mut self, out: Box<dyn std::io::Write>, what: &str);
    /// Ends the stream `stream_swf` started (None if none was): the jobs not written yet (those unfinished with
    /// status 5), flushed, with the lines written.
    fn end_swf(&mut self) -> Option<std::io::Result<crate::trace::schedule::SwfEnd>>;
    /// Why the run stopped before its end: a user's policy script failed or decided the impossible
    /// (`ErrorKind::Script`). A driver checks it once `step` says the run is over, and reports it instead of the
    /// report.
    fn failure(&self) -> Option<ScenarioError> {
        None
    }
}

/// Runs a family's run to the end and reports it; `clock` gives seconds (std's `Instant` natively,
/// `performance.now` in a browser), and the report's wall time covers the simulation only.
pub fn run_to_report<R: FamilyRun>(run: &mut R, clock: &dyn Fn() -> f64) -> R::Report {
    let t0 = clock();
    run.step(Budget::ToEnd);
    let wall = clock() - t0;
    run.report(wall)
}

/// Most rows a run's per-task records may have to be made in memory (the page's download): about 150 bytes a row,
/// so some 75 MB of text, held twice as it crosses to the page. A larger run's records are streamed to a file by
/// `bagsim run SCENARIO.json --jobs FILE.csv`.
pub const MAX_JOBS_IN_MEMORY: u64 = 500_000;

/// Why a run's records could not be made in memory.
#[derive(Debug)]
pub enum JobsError {
    /// More rows than `MAX_JOBS_IN_MEMORY`.
    TooMany { rows: u64 },
    /// The run stopped (a script's refused decision or its budget).
    Run(ScenarioError),
    /// A row could not be written, or the bytes are not text.
    Write(String),
}

impl std::fmt::Display for JobsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            JobsError::TooMany { rows } => write!(
                f,
                "the run has {} tasks or jobs, more than the {} whose records are made in memory; `bagsim run \
                 SCENARIO.json --jobs jobs.csv` writes them to a file as they end",
                group_digits(&rows.to_string()),
                group_digits(&MAX_JOBS_IN_MEMORY.to_string())
            ),
            JobsError::Run(e) => write!(f, "{e}"),
            JobsError::Write(e) => write!(f, "cannot write the records: {e}"),
        }
    }
}

/// A run's per-task (per-job) records in Batsim's `jobs.csv` columns (docs/jobs.md), made in memory by running it
/// to its end: the bytes `bagsim run --jobs` writes for the same scenario. `run` is freshly built and not stepped
/// yet; more than `MAX_JOBS_IN_MEMORY` tasks (jobs) are refused, naming the command that streams them.
pub fn jobs_in_memory<R: FamilyRun>(run: &mut R) -> Result<String, JobsError> {
    let rows = run.header().tasks;
    if rows > MAX_JOBS_IN_MEMORY {
        return Err(JobsError::TooMany { rows });
    }
    /// A writer into a buffer the caller keeps (the run owns its writer until `end_jobs`).
    struct Shared(std::rc::Rc<std::cell::RefCell<Vec<u8>>>);
    impl std::io::Write for Shared {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.borrow_mut().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let buffer = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    run.stream_jobs(Box::new(Shared(buffer.clone())));
    run.step(Budget::ToEnd);
    if let Some(e) = run.failure() {
        return Err(JobsError::Run(e));
    }
    if let Some(Err(e)) = run.end_jobs() {
        return Err(JobsError::Write(e.to_string()));
    }
    let bytes = buffer.take();
    String::from_utf8(bytes).map_err(|e| JobsError::Write(e.to_string()))
}

/// Why a run gave no tape.
#[derive(Clone, Debug, PartialEq)]
pub enum TapeError {
    /// The family records no tape.
    NoTape,
    /// The run stopped early: a policy script failed.
    Run(ScenarioError),
}

impl std::fmt::Display for TapeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TapeError::NoTape => write!(f, "this family records no tape"),
            TapeError::Run(e) => write!(f, "{e}"),
        }
    }
}

/// Runs a run recording its tape (docs/story.md), what `bagsim story` tells and the page's Gantt view draws: to
/// its end, or until `MAX_TAPE_TASKS` tasks have arrived (the tape says it was cut, and where).
pub fn tape_of<R: FamilyRun>(run: &mut R) -> Result<crate::story::Tape, TapeError> {
    if !run.record_tape() {
        return Err(TapeError::NoTape);
    }
    let mut cut = false;
    while !run.step(Budget::Events(4096)) {
        let h = run.header();
        if h.finished_tasks + h.queued + h.busy >= crate::story::MAX_TAPE_TASKS {
            cut = true;
            break;
        }
    }
    if let Some(e) = run.failure() {
        return Err(TapeError::Run(e));
    }
    let mut tape = run.take_tape().ok_or(TapeError::NoTape)?;
    tape.cut = cut;
    Ok(tape)
}

#[cfg(test)]
mod tests {
    use super::Budget;
    use crate::engine::Model;

    /// Events at 1, 2, …, 10 s.
    struct Ticks(u64);

    impl Model for Ticks {
        fn step(&mut self) {
            self.0 += u64::from(self.0 < 10);
        }
        fn next_time(&self) -> Option<f64> {
            (self.0 < 10).then(|| (self.0 + 1) as f64)
        }
        fn is_over(&self) -> bool {
            self.0 == 10
        }
        fn events(&self) -> u64 {
            self.0
        }
    }

    #[test]
    fn a_budget_plays_what_it_says() {
        let mut m = Ticks(0);
        assert!(!Budget::Events(3).play(&mut m));
        assert_eq!(m.0, 3);
        assert!(!Budget::Until(6.5).play(&mut m));
        assert_eq!(m.0, 6, "events at 4, 5 and 6 s, none after 6.5 s");
        assert!(Budget::ToEnd.play(&mut m));
        assert_eq!(m.0, 10);
    }
}
