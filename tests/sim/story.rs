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
        r#"{"seed": 6, "workload": {"submission_period": 1800}, "architecture": {"kind": "sep-c"}, "scheduling": "ECT"}"#,
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
