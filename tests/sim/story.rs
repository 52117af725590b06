//! A task's story (docs/story.md) tells the numbers of its per-task record: for every completed task of a run, the
//! record its story gives is the row `bagsim run --jobs` writes for it, column by column, in every family that
//! records a tape; and a tape cut short is the whole run's up to its end.

use bagsim::family::contract::{jobs_in_memory, tape_of, FamilyRun};
use bagsim::registry::AnyRun;
use bagsim::scenario::Scenario;
use bagsim::story::{story, BarEnd};
use std::collections::HashMap;

/// The rows of a jobs.csv by job_id, each as column → value.
fn rows(csv: &str) -> HashMap<String, HashMap<String, String>> {
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    lines
        .map(|l| {
            let cells: HashMap<String, String> =
                header.iter().zip(l.split(',')).map(|(k, v)| (k.to_string(), v.to_string())).collect();
            (cells["job_id"].clone(), cells)
        })
        .collect()
}

/// Every completed task's story gives its jobs.csv row's numbers; returns how many tasks were checked.
fn stories_match_records(json: &str) -> usize {
    let s = Scenario::from_json(json).unwrap();
    let csv = jobs_in_memory(&mut AnyRun::build(&s, None).unwrap()).unwrap();
    let rows = rows(&csv);
    let tape = tape_of(&mut AnyRun::build(&s, None).unwrap()).unwrap();
    assert!(!tape.cut, "{json}: a small run's tape is whole");
    let mut checked = 0;
    for task in 0..tape.tasks.len() as u32 {
        let st = story(&tape, task).unwrap();
        let Some(row) = rows.get(&task.to_string()) else {
            assert!(st.record.is_empty(), "{json}: task {task} has no row but its story gives a record");
            continue;
        };
        assert!(!st.record.is_empty(), "{json}: task {task} has a row but no record in its story");
        for (k, v) in &st.record {
            assert_eq!(row.get(k), Some(v), "{json}: task {task}, column {k}");
        }
        checked += 1;
    }
    assert_eq!(checked, rows.len(), "{json}: every row is some task's story");
    checked
}

#[test]
fn a_multi_cluster_tasks_story_gives_its_record() {
    for json in [
        r#"{"seed": 4, "workload": {"submission_period": 1800}}"#,
        r#"{"seed": 5, "workload": {"submission_period": 1800, "load": 0.9}, "scheduling": "WQR-2"}"#,
        r#"{"seed": 6, "workload": {"submission_period": 1800}, "architecture": {"kind": "sep-c"},
            "scheduling": "ECT"}"#,
    ] {
        assert!(stories_match_records(json) > 100, "{json}");
    }
}

#[test]
fn a_multi_cluster_story_names_its_decisions_and_its_copies() {
    let s = Scenario::from_json(
        r#"{"seed": 5, "workload": {"submission_period": 1800, "load": 0.9}, "scheduling": "WQR-2"}"#,
    )
    .unwrap();
    let tape = tape_of(&mut AnyRun::build(&s, None).unwrap()).unwrap();
    // A task with a cancelled replica: its story says so, and names the policy's placement.
    let task = tape.bars.iter().find(|b| b.ended == BarEnd::Cancelled).expect("WQR-2 cancels replicas").task;
    let text: Vec<String> = story(&tape, task).unwrap().lines.into_iter().map(|l| l.text).collect();
    assert!(text.iter().any(|l| l.starts_with("WQR-2 placed it on cluster")), "{text:#?}");
    assert!(text.iter().any(|l| l.contains("was stopped: another copy had completed the task")), "{text:#?}");
    assert!(text.iter().any(|l| l.starts_with("It entered the eligible set")), "{text:#?}");
}

#[test]
fn a_cut_tape_is_the_whole_runs_up_to_its_end() {
    // The default scenario's day has some 250 000 tasks: the tape stops after 20 000 have arrived.
    let s = Scenario::from_json(r#"{"seed": 3}"#).unwrap();
    let mut run = AnyRun::build(&s, None).unwrap();
    let tape = tape_of(&mut run).unwrap();
    assert!(tape.cut && tape.tasks.len() as u64 >= bagsim::story::MAX_TAPE_TASKS, "{} tasks", tape.tasks.len());
    // The whole run's records: every task the tape saw complete has the same numbers there.
    let csv = jobs_in_memory(&mut AnyRun::build(&s, None).unwrap());
    let rows = match csv {
        Ok(csv) => rows(&csv),
        Err(_) => return, // more records than memory holds: nothing to compare here
    };
    let mut checked = 0;
    for task in (0..tape.tasks.len() as u32).step_by(97) {
        let st = story(&tape, task).unwrap();
        for (k, v) in &st.record {
            assert_eq!(rows[&task.to_string()].get(k), Some(v), "task {task}, column {k}");
        }
        checked += usize::from(!st.record.is_empty());
    }
    assert!(checked > 100, "{checked}");
    let _ = run.header();
}

/// Small desktop grids with failures (low availability: machines up half the time), checkpoints and replication
/// (RepThresh 2; FCFS-Excl unlimited).
const DESKTOP_GRIDS: [&str; 3] = [
    r#"{"family": "desktop_grid", "seed": 5, "desktop_grid": {"bots": 20}}"#,
    r#"{"family": "desktop_grid", "seed": 6, "desktop_grid": {"bots": 12, "availability": "low",
        "checkpoint_period": 600, "bot_selection": "long_idle"}}"#,
    r#"{"family": "desktop_grid", "seed": 7, "desktop_grid": {"bots": 12, "availability": "low", "load": 0.8,
        "heterogeneity": "heterogeneous", "bot_selection": "fcfs_excl", "checkpoint_store": "blocking"}}"#,
];

/// Small data grids under conservative backfilling, EASY and FCFS, with data moved two ways.
const DATA_GRIDS: [&str; 3] = [
    r#"{"family": "data_grid", "seed": 5, "data_grid": {"jobs": 400}}"#,
    r#"{"family": "data_grid", "seed": 6, "data_grid": {"jobs": 400, "local_policy": "easy",
        "scheme": "finish_time_data_aware"}}"#,
    r#"{"family": "data_grid", "seed": 7, "data_grid": {"jobs": 300, "local_policy": "fcfs"}}"#,
];

#[test]
fn a_desktop_grid_tasks_story_gives_its_record() {
    for json in DESKTOP_GRIDS {
        assert!(stories_match_records(json) > 100, "{json}");
    }
}

#[test]
fn a_data_grid_jobs_story_gives_its_record() {
    for json in DATA_GRIDS {
        assert!(stories_match_records(json) > 100, "{json}");
    }
}

/// The tape and the jobs.csv rows of a scenario.
fn tape_and_rows(json: &str) -> (bagsim::story::Tape, HashMap<String, HashMap<String, String>>) {
    let s = Scenario::from_json(json).unwrap();
    let csv = jobs_in_memory(&mut AnyRun::build(&s, None).unwrap()).unwrap();
    (tape_of(&mut AnyRun::build(&s, None).unwrap()).unwrap(), rows(&csv))
}

fn texts(tape: &bagsim::story::Tape, task: u32) -> Vec<String> {
    story(tape, task).unwrap().lines.into_iter().map(|l| l.text).collect()
}

#[test]
fn a_desktop_grid_story_names_its_failures_checkpoints_and_replicas() {
    let (tape, rows) = tape_and_rows(DESKTOP_GRIDS[1]);
    // Every failed execution is one of the row's failed_executions, and the story tells each failure.
    for (id, row) in &rows {
        let task: u32 = id.parse().unwrap();
        let failed = tape.bars_of(task).filter(|b| b.ended == BarEnd::Failed).count();
        assert_eq!(row["failed_executions"], failed.to_string(), "task {task}");
        let told = texts(&tape, task).iter().filter(|l| l.contains("failed (it left the grid)")).count();
        assert_eq!(told, failed, "task {task}");
    }
    // A task that failed after storing a checkpoint and resumed from it on another start.
    let resumed = (0..tape.tasks.len() as u32)
        .find(|&t| {
            let bars: Vec<_> = tape.bars_of(t).collect();
            let failed_at = bars.iter().find(|b| b.ended == BarEnd::Failed).map(|b| b.end);
            let lines = texts(&tape, t);
            failed_at.is_some_and(|f| bars.iter().any(|b| b.start >= f))
                && lines.iter().any(|l| l.contains("reached the checkpoint server: the task's best"))
                && lines.iter().any(|l| l.contains("It resumes from the task's best checkpoint"))
        })
        .expect("at availability low, some task fails after a checkpoint and resumes from it");
    let lines = texts(&tape, resumed);
    let failure = lines.iter().position(|l| l.contains("failed (it left the grid)")).unwrap();
    let resume = lines.iter().rposition(|l| l.contains("It resumes from the task's best checkpoint")).unwrap();
    assert!(failure < resume, "{lines:#?}");
    assert!(lines.iter().any(|l| l.starts_with("LongIdle chose its BoT")), "{lines:#?}");
    // A replica's dispatch says WQR-FT replicated it.
    let replica = tape.bars.iter().find(|b| b.replica).expect("RepThresh 2 replicates").task;
    assert!(texts(&tape, replica).iter().any(|l| l.contains("WQR-FT replicated it")));
}

/// Whether a job's story says it was backfilled, and under which rule; checked against the jobs.csv rows: a job
/// backfilled at its site started no later than one that reached the site before it (a smaller id, the same site),
/// and a job not backfilled started no earlier than any of them.
fn check_backfilling(json: &str, rule: &str) {
    let (tape, rows) = tape_and_rows(json);
    let start = |r: &HashMap<String, String>| r["starting_time"].parse::<f64>().unwrap();
    let mut backfilled = 0;
    for (id, row) in &rows {
        let j: u32 = id.parse().unwrap();
        let earlier: Vec<f64> = rows
            .values()
            .filter(|r| r["site"] == row["site"] && r["job_id"].parse::<u32>().unwrap() < j)
            .map(start)
            .collect();
        let lines = texts(&tape, j);
        if lines.iter().any(|l| l.starts_with("Backfilled")) {
            assert!(lines.iter().any(|l| l.starts_with(&format!("Backfilled ({rule})"))), "{json}: {lines:#?}");
            assert!(earlier.iter().any(|&s| s >= start(row)), "{json}: job {j} was not backfilled");
            backfilled += 1;
        } else {
            assert!(earlier.iter().all(|&s| s <= start(row)), "{json}: job {j} was backfilled: {lines:#?}");
        }
    }
    assert!(backfilled > 0, "{json}: some job is backfilled");
}

#[test]
fn a_data_grid_story_names_the_backfilling_rule() {
    check_backfilling(DATA_GRIDS[0], "conservative backfilling");
    check_backfilling(DATA_GRIDS[1], "EASY");
    let (tape, _) = tape_and_rows(DATA_GRIDS[1]);
    let lines = texts(&tape, 7);
    assert!(lines.iter().any(|l| l.starts_with("The metascheduler sent it to site")), "{lines:#?}");
    assert!(lines.iter().any(|l| l.contains("'s queue (EASY backfilling)")), "{lines:#?}");
}
