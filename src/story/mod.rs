//! A run's tape: every execution of every task as a bar on a row of the platform (what a Gantt view draws), and per
//! task the facts its story is told from (docs/story.md). A family records it when asked (`FamilyRun::record_tape`)
//! and tells its own decisions as steps; what the families share — who started while a task waited, and why — is
//! computed here from the bars. Knows no family.

use serde::{Deserialize, Serialize};

mod tell;

pub use tell::{story, Story, StoryLine};

/// Most tasks a tape records: a Gantt view reads well for a few hundred tasks in a window, and a tape of this many
/// crosses the worker boundary in a few megabytes. A longer run's tape stops once this many have arrived.
pub const MAX_TAPE_TASKS: u64 = 20_000;

/// What a family calls its parts, for the story's sentences.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TapeWords {
    /// A lane: "cluster", "site", "machine".
    pub lane: String,
    /// A row of a lane: "processor", "machine".
    pub row: String,
    /// A group of tasks: "BoT", "job".
    pub group: String,
    /// Why a task that became ready after another can start before it in this family (e.g. "backfilled: it fit in
    /// the hole before the first waiting job's reservation").
    pub overtaking: String,
    /// The column of the family's per-task record (`bagsim run --jobs`) that names the lane a task completed in,
    /// valued by the lane's name; empty when the record has none.
    #[serde(default)]
    pub lane_column: String,
    /// The column of that record counting a task's executions; empty when the record has none.
    #[serde(default)]
    pub executions_column: String,
}

/// A group of rows: a cluster's processors, a site's, a desktop grid's machines.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Lane {
    pub name: String,
    /// Rows of the lane; the tape's rows are the lanes' rows one after another.
    pub rows: u32,
    /// What sets the lane apart, e.g. "speed 1.25".
    pub note: String,
}

/// How an execution ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BarEnd {
    /// It completed its task.
    Completed,
    /// Another copy completed first and this one was stopped.
    Cancelled,
    /// Its machine failed or left; the work since the last checkpoint is lost.
    Failed,
    /// Still running when the run ended (the horizon).
    Running,
}

/// One execution of a task (a copy, a replica, a run between failures) on rows `row .. row + rows`. An execution on
/// rows that are not contiguous (a parallel job) is several bars, one per run of rows, the first one's followed
/// at once by the others with `continues`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Bar {
    pub task: u32,
    pub row: u32,
    pub rows: u32,
    pub start: f64,
    pub end: f64,
    pub ended: BarEnd,
    /// A replica of a task already running elsewhere (not its first execution).
    pub replica: bool,
    /// Goes on with the execution of the bar before it (the same task, start and end) on further rows.
    #[serde(default)]
    pub continues: bool,
}

/// A decision or an event of a task's life, as the family tells it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Step {
    pub at: f64,
    pub text: String,
}

/// What the tape knows of one task.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskFacts {
    /// Its group (BoT, job) and the group's user.
    pub group: u32,
    pub user: u32,
    /// When its group was submitted, s.
    pub arrival: f64,
    /// When it could first be started by the scheduler (it entered the eligible set, reached the head of its
    /// queue), s; its arrival where the family has no such stage.
    pub ready: f64,
    /// The family's own account of its decisions, in time order.
    pub steps: Vec<Step>,
}

/// A run's tape.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Tape {
    pub words: TapeWords,
    pub lanes: Vec<Lane>,
    /// Every execution, by start time (ties in the order they started).
    pub bars: Vec<Bar>,
    /// By task id.
    pub tasks: Vec<TaskFacts>,
    /// Simulated time at which the tape ends, s: the run's end, or where it was cut (`cut`).
    pub end: f64,
    /// The run went on after `end`: the tape stopped once `MAX_TAPE_TASKS` tasks had arrived. Everything on it is
    /// what the whole run does up to `end` (a run's events before a time do not depend on what comes after).
    pub cut: bool,
}

impl Tape {
    /// Rows of every lane.
    pub fn rows(&self) -> u32 {
        self.lanes.iter().map(|l| l.rows).sum()
    }

    /// The lane of row `row` and the row's index within it.
    pub fn lane_of(&self, row: u32) -> Option<(usize, u32)> {
        let mut first = 0;
        for (i, l) in self.lanes.iter().enumerate() {
            if row < first + l.rows {
                return Some((i, row - first));
            }
            first += l.rows;
        }
        None
    }

    /// The bar on row `row` at time `t` (the last to start there at or before `t`, if it still runs).
    pub fn bar_at(&self, row: u32, t: f64) -> Option<usize> {
        let upto = self.bars.partition_point(|b| b.start <= t);
        (0..upto).rev().find(|&i| {
            let b = &self.bars[i];
            row >= b.row && row < b.row + b.rows && t <= b.end
        })
    }

    /// The bars of task `task`, in start order (the bars of one execution one after another).
    pub fn bars_of(&self, task: u32) -> impl Iterator<Item = &Bar> {
        self.bars.iter().filter(move |b| b.task == task)
    }
}
