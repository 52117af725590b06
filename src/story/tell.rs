//! A task's story, told from a tape: its arrival, the family's decisions about it, who started while it waited and
//! why, each of its executions, and its per-task record as `bagsim run --jobs` writes it (the same columns, the same
//! digits: docs/jobs.md).

use super::{BarEnd, Tape};
use crate::stats::csv_number;
use serde::{Deserialize, Serialize};

/// Most of the tasks that started while it waited that a story names one by one (it counts them all).
const NAMED: usize = 5;

/// One line of a story: at a simulated time, or (`at` None) a summary.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoryLine {
    pub at: Option<f64>,
    pub text: String,
}

/// A task's story.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Story {
    pub task: u32,
    pub title: String,
    pub lines: Vec<StoryLine>,
    /// The task's per-task record: (column of `jobs.csv`, its value as the file writes it); empty while the task
    /// has not completed (the file has a row only for completed tasks).
    pub record: Vec<(String, String)>,
}

/// A time as every bagsim CSV writes it.
fn t(x: f64) -> String {
    csv_number(x)
}

/// The story of task `task` (None if the tape has no such task).
pub fn story(tape: &Tape, task: u32) -> Option<Story> {
    let facts = tape.tasks.get(task as usize)?;
    let w = &tape.words;
    let mut timed: Vec<StoryLine> = Vec::new();
    timed.push(StoryLine {
        at: Some(facts.arrival),
        text: format!("Its {} {} (user {}) was submitted.", w.group, facts.group, facts.user),
    });
    timed.extend(facts.steps.iter().map(|s| StoryLine { at: Some(s.at), text: s.text.clone() }));
    let mine: Vec<_> = tape.bars_of(task).copied().collect();
    for b in &mine {
        let (lane, row) = tape.lane_of(b.row).unwrap_or((0, b.row));
        let place = match tape.lanes.get(lane) {
            Some(l) if b.rows == 1 => format!("{} {} ({}), {} {}", w.lane, l.name, l.note, w.row, row),
            Some(l) => format!("{} {} ({}), {} {} {}s", w.lane, l.name, l.note, b.rows, w.row, row),
            None => format!("{} {}", w.row, b.row),
        };
        let what = if b.replica { "A replica started" } else { "An execution started" };
        timed.push(StoryLine { at: Some(b.start), text: format!("{what} on {place}.") });
        let end = match b.ended {
            BarEnd::Completed => format!("The execution on {place} completed the task."),
            BarEnd::Cancelled => format!("The execution on {place} was stopped: another copy had completed the task."),
            BarEnd::Failed => {
                format!(
                    "The {} of the execution on {place} failed; the work since its last checkpoint was lost.",
                    w.row
                )
            }
            BarEnd::Running => format!("The execution on {place} was still running when the run ended."),
        };
        timed.push(StoryLine { at: Some(b.end), text: end });
    }
    // A stable sort keeps, at equal times, arrival before the family's steps before the executions.
    timed.sort_by(|a, b| a.at.unwrap_or(0.0).total_cmp(&b.at.unwrap_or(0.0)));
    let first_start = mine.first().map_or(f64::INFINITY, |b| b.start);
    let mut lines = timed;
    lines.push(StoryLine { at: None, text: while_waiting(tape, task, first_start) });
    let done = mine.iter().find(|b| b.ended == BarEnd::Completed);
    let record = match done {
        Some(b) => {
            let (lane, _) = tape.lane_of(b.row).unwrap_or((0, b.row));
            let rows = if b.rows == 1 { b.row.to_string() } else { format!("{}-{}", b.row, b.row + b.rows - 1) };
            lines.push(StoryLine {
                at: None,
                text: format!(
                    "It waited {} s from submission to its first start and completed {} s after submission.",
                    t(first_start - facts.arrival),
                    t(b.end - facts.arrival)
                ),
            });
            let lane = tape.lanes.get(lane).map_or(String::new(), |l| l.name.clone());
            [
                ("job_id", task.to_string()),
                ("submission_time", t(facts.arrival)),
                ("starting_time", t(b.start)),
                ("finish_time", t(b.end)),
                ("waiting_time", t(b.start - facts.arrival)),
                ("allocated_resources", rows),
                (w.lane.as_str(), lane),
                ("executions", mine.len().to_string()),
            ]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect()
        }
        None => Vec::new(),
    };
    Some(Story { task, title: format!("Task {task} of {} {}", w.group, facts.group), lines, record })
}

/// Who started between the task's arrival and its first start (`first_start`, ∞ if it never started), in three
/// kinds: ready before it (ahead of it in the scheduler's order), replicas of running tasks, and ready after it
/// (the family's `overtaking` says how that can be).
fn while_waiting(tape: &Tape, task: u32, first_start: f64) -> String {
    let facts = &tape.tasks[task as usize];
    let from = tape.bars.partition_point(|b| b.start < facts.arrival);
    let to = tape.bars.partition_point(|b| b.start < first_start);
    let (mut ahead, mut replicas, mut later) = (0usize, 0usize, Vec::new());
    for b in &tape.bars[from..to.max(from)] {
        if b.task == task {
            continue;
        }
        let other = &tape.tasks[b.task as usize];
        if b.replica {
            replicas += 1;
        } else if other.ready <= facts.ready {
            ahead += 1;
        } else {
            later.push(*b);
        }
    }
    if ahead + replicas + later.len() == 0 {
        return "Nothing else started while it waited.".into();
    }
    let w = &tape.words;
    let mut s = format!(
        "While it waited, {} other tasks started: {ahead} were ready no later than it (ahead of it in the \
         scheduler's order), {replicas} were replicas of running tasks, {} became ready after it",
        ahead + replicas + later.len(),
        later.len()
    );
    if later.is_empty() {
        s.push('.');
        return s;
    }
    s.push_str(&format!(" ({})", w.overtaking));
    let named: Vec<String> = later
        .iter()
        .take(NAMED)
        .map(|b| {
            let lane = tape.lane_of(b.row).and_then(|(l, _)| tape.lanes.get(l)).map_or("", |l| l.name.as_str());
            format!(
                "task {} of {} {} at {} s on {} {lane}",
                b.task,
                w.group,
                tape.tasks[b.task as usize].group,
                t(b.start),
                w.lane
            )
        })
        .collect();
    s.push_str(&format!(", first {}.", named.join("; ")));
    s
}

#[cfg(test)]
mod tests {
    use super::super::{Bar, Lane, Step, TapeWords, TaskFacts};
    use super::*;

    /// Two processors; task 0 runs 0–10 on row 0, task 1 (ready later) 0–4 on row 1, task 2 waits for row 1.
    fn tape() -> Tape {
        let facts = |ready: f64| TaskFacts { group: 0, user: 0, arrival: 0.0, ready, steps: Vec::new() };
        let bar =
            |task, row, start, end| Bar { task, row, rows: 1, start, end, ended: BarEnd::Completed, replica: false };
        Tape {
            words: TapeWords {
                lane: "cluster".into(),
                row: "processor".into(),
                group: "BoT".into(),
                overtaking: "another queue".into(),
            },
            lanes: vec![Lane { name: "a".into(), rows: 2, note: "speed 1".into() }],
            bars: vec![bar(0, 0, 0.0, 10.0), bar(1, 1, 0.0, 4.0), bar(2, 1, 4.0, 9.0)],
            tasks: vec![
                facts(0.0),
                TaskFacts { steps: vec![Step { at: 0.0, text: "Placed.".into() }], ..facts(1.0) },
                facts(0.5),
            ],
            end: 10.0,
            cut: false,
        }
    }

    #[test]
    fn a_waiting_task_names_who_overtook_it() {
        let s = story(&tape(), 2).unwrap();
        let waited = &s.lines.iter().find(|l| l.text.starts_with("While it waited")).unwrap().text;
        assert!(waited.contains("2 other tasks started: 1 were ready no later than it"), "{waited}");
        assert!(waited.contains("1 became ready after it (another queue), first task 1 of BoT 0 at 0 s"), "{waited}");
        let rec: std::collections::HashMap<_, _> = s.record.iter().cloned().collect();
        assert_eq!(rec["starting_time"], "4");
        assert_eq!(rec["waiting_time"], "4");
        assert_eq!(rec["allocated_resources"], "1");
    }

    #[test]
    fn the_bar_under_a_point_is_found() {
        let tp = tape();
        assert_eq!(tp.bar_at(1, 5.0), Some(2));
        assert_eq!(tp.bar_at(1, 3.0), Some(1));
        assert_eq!(tp.bar_at(0, 11.0), None);
        assert_eq!(tp.lane_of(1), Some((0, 1)));
        assert!(story(&tp, 3).is_none());
        let first = story(&tp, 0).unwrap();
        assert!(first.lines.iter().any(|l| l.text == "Nothing else started while it waited."));
    }
}
