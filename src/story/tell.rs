//! A task's story, told from a tape: its arrival, the family's decisions about it, who started while it waited and
//! why, each of its executions, and its per-task record as `bagsim run --jobs` writes it (the same columns, the same
//! digits: docs/jobs.md).

use super::{Bar, BarEnd, Tape};
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

/// One execution of a task: its first bar and every run of rows it held (global row indices, inclusive).
struct Execution {
    bar: Bar,
    ranges: Vec<(u32, u32)>,
}

/// The executions of task `task`, in start order: each bar, with the bars that continue it on further rows.
fn executions(tape: &Tape, task: u32) -> Vec<Execution> {
    let mut out: Vec<Execution> = Vec::new();
    for b in tape.bars_of(task) {
        let range = (b.row, b.row + b.rows.max(1) - 1);
        match out.last_mut() {
            Some(e) if b.continues => e.ranges.push(range),
            _ => out.push(Execution { bar: *b, ranges: vec![range] }),
        }
    }
    for e in &mut out {
        e.ranges.sort_unstable();
        e.ranges.dedup_by(|next, prev| {
            let joins = next.0 <= prev.1 + 1;
            if joins {
                prev.1 = prev.1.max(next.1);
            }
            joins
        });
    }
    out
}

/// Ranges as Batsim writes an interval set, shifted down by `first` (`0-3 7`).
fn intervals(ranges: &[(u32, u32)], first: u32) -> String {
    let one = |&(a, b): &(u32, u32)| {
        if a == b {
            (a - first).to_string()
        } else {
            format!("{}-{}", a - first, b - first)
        }
    };
    ranges.iter().map(one).collect::<Vec<_>>().join(" ")
}

/// Where an execution ran, in the family's words.
fn place(tape: &Tape, e: &Execution) -> String {
    let w = &tape.words;
    let rows: u32 = e.ranges.iter().map(|r| r.1 - r.0 + 1).sum();
    let first_row = e.ranges[0].0;
    match tape.lane_of(first_row).and_then(|(i, r)| tape.lanes.get(i).map(|l| (l, first_row - r))) {
        Some((l, first)) if rows == 1 => format!("{} {} ({}), {} {}", w.lane, l.name, l.note, w.row, first_row - first),
        Some((l, first)) => {
            format!("{} {} ({}), {rows} {}s {}", w.lane, l.name, l.note, w.row, intervals(&e.ranges, first))
        }
        None => format!("{} {}", w.row, intervals(&e.ranges, 0)),
    }
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
    let mine = executions(tape, task);
    for e in &mine {
        let (b, place) = (&e.bar, place(tape, e));
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
    let first_start = mine.first().map_or(f64::INFINITY, |e| e.bar.start);
    let mut lines = timed;
    lines.push(StoryLine { at: None, text: while_waiting(tape, task, first_start) });
    let done = mine.iter().find(|e| e.bar.ended == BarEnd::Completed);
    let record = match done {
        Some(e) => {
            let b = &e.bar;
            lines.push(StoryLine {
                at: None,
                text: if b.start > first_start {
                    format!(
                        "It waited {} s from submission to its first start and completed {} s after submission; the \
                         execution that completed it started {} s after submission (its record's waiting_time).",
                        t(first_start - facts.arrival),
                        t(b.end - facts.arrival),
                        t(b.start - facts.arrival)
                    )
                } else {
                    format!(
                        "It waited {} s from submission to its first start and completed {} s after submission.",
                        t(first_start - facts.arrival),
                        t(b.end - facts.arrival)
                    )
                },
            });
            let mut record = vec![
                ("job_id", task.to_string()),
                ("submission_time", t(facts.arrival)),
                ("starting_time", t(b.start)),
                ("finish_time", t(b.end)),
                ("waiting_time", t(b.start - facts.arrival)),
                ("allocated_resources", intervals(&e.ranges, 0)),
            ];
            if !w.lane_column.is_empty() {
                let lane = tape.lane_of(b.row).and_then(|(l, _)| tape.lanes.get(l));
                record.push((w.lane_column.as_str(), lane.map_or(String::new(), |l| l.name.clone())));
            }
            if !w.executions_column.is_empty() {
                record.push((w.executions_column.as_str(), mine.len().to_string()));
            }
            record.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
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
        if b.task == task || b.continues {
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
    use super::super::{Lane, Step, TapeWords, TaskFacts};
    use super::*;

    /// Two processors; task 0 runs 0–10 on row 0, task 1 (ready later) 0–4 on row 1, task 2 waits for row 1.
    fn tape() -> Tape {
        let facts = |ready: f64| TaskFacts { group: 0, user: 0, arrival: 0.0, ready, steps: Vec::new() };
        let bar = |task, row, start, end| Bar {
            task,
            row,
            rows: 1,
            start,
            end,
            ended: BarEnd::Completed,
            replica: false,
            continues: false,
        };
        Tape {
            words: TapeWords {
                lane: "cluster".into(),
                row: "processor".into(),
                group: "BoT".into(),
                overtaking: "another queue".into(),
                lane_column: "cluster".into(),
                executions_column: "executions".into(),
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

    #[test]
    fn an_execution_on_rows_apart_is_one_execution_with_every_range() {
        // Task 3 holds rows 0 and 2–3 of a second lane (rows 2..6) as two bars; task 4 waits for it.
        let mut tp = tape();
        tp.lanes.push(Lane { name: "b".into(), rows: 4, note: "speed 2".into() });
        tp.words.executions_column = String::new();
        let facts = TaskFacts { group: 1, user: 0, arrival: 1.0, ready: 1.0, steps: Vec::new() };
        tp.tasks.extend([facts.clone(), facts]);
        let bar = |task, row, rows, continues| Bar {
            task,
            row,
            rows,
            start: 10.0,
            end: 12.0,
            ended: BarEnd::Completed,
            replica: false,
            continues,
        };
        tp.bars.extend([bar(3, 2, 1, false), bar(3, 4, 2, true), bar(4, 2, 4, false)]);
        tp.bars[5].start = 12.0;
        let s = story(&tp, 3).unwrap();
        let rec: std::collections::HashMap<_, _> = s.record.iter().cloned().collect();
        assert_eq!(rec["allocated_resources"], "2 4-5");
        assert_eq!(rec["cluster"], "b");
        assert!(!rec.contains_key("executions"));
        assert!(s.lines.iter().any(|l| l.text == "An execution started on cluster b (speed 2), 3 processors 0 2-3."));
        let waited = story(&tp, 4).unwrap();
        let waited = &waited.lines.iter().find(|l| l.text.starts_with("While it waited")).unwrap().text;
        assert!(waited.contains("2 other tasks started"), "{waited}");
    }
}
