//! "Why did a task wait?" on the built page in headless Chromium (docs/story.md): after a multi-cluster run, the
//! Gantt view draws the run's executions; a task clicked on the canvas, or typed in, tells its story, and the
//! record in it is the task's row of the run's per-task records (`jobs.csv`, made natively here), column by column.
//! The view is looked at on a desktop and a phone, and axe-core finds nothing in it.
//!
//! Run with scripts/test-browser.sh (it builds the page first). One browser per test; `--test-threads=1`.

use std::collections::HashMap;
use std::time::Duration;

use bagsim::family::contract::jobs_in_memory;
use bagsim::registry::AnyRun;
use bagsim::scenario::Scenario;
use e2e::*;

/// Three clusters at a high load for two hours: tasks wait, and a run lasts well under a second.
const SCENARIO: &str = r#"{"seed": 5, "platform": {"clusters": [{"name": "small", "processors": 16, "speed": 1.0},
    {"name": "mid", "processors": 48, "speed": 1.25}, {"name": "big", "processors": 64, "speed": 1.5}]},
    "workload": {"load": 0.9, "submission_period": 7200, "load_split": "equal"}, "architecture": {"kind": "sep-c"}}"#;

/// The run's records natively: job_id → column → value.
fn records(s: &Scenario) -> HashMap<String, HashMap<String, String>> {
    let csv = jobs_in_memory(&mut AnyRun::build(s, None).unwrap()).unwrap();
    let mut lines = csv.lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(str::to_string).collect();
    lines
        .map(|l| {
            let row: HashMap<String, String> = header.iter().cloned().zip(l.split(',').map(str::to_string)).collect();
            (row["job_id"].clone(), row)
        })
        .collect()
}

/// The story shown: its task, its lines, and its record (column → value).
async fn shown_story(client: &fantoccini::Client) -> (String, Vec<String>, HashMap<String, String>) {
    let v = js(
        client,
        "const s = document.getElementById('gantt-story'); if (!s) return null;
         const lines = [...s.querySelectorAll('#gantt-story-lines li')].map(l => l.textContent);
         const rec = {}; s.querySelectorAll('#gantt-record td').forEach(td => rec[td.dataset.col] = td.textContent);
         return [s.dataset.task, lines, rec];",
        vec![],
    )
    .await;
    let task = v[0].as_str().unwrap_or_default().to_string();
    let lines =
        v[1].as_array().map(|a| a.iter().filter_map(|l| l.as_str().map(str::to_string)).collect()).unwrap_or_default();
    let rec = v[2]
        .as_object()
        .map(|o| o.iter().map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string())).collect())
        .unwrap_or_default();
    (task, lines, rec)
}

fn assert_record(rec: &HashMap<String, String>, rows: &HashMap<String, HashMap<String, String>>, task: &str) {
    let row = rows.get(task).unwrap_or_else(|| panic!("task {task} has no row in the run's records"));
    assert!(rec.len() >= 7, "task {task}'s story shows a record of {} columns: {rec:?}", rec.len());
    for (k, v) in rec {
        assert_eq!(row.get(k), Some(v), "task {task}, column {k}: the story says {v}, the records {:?}", row.get(k));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clicked_task_tells_its_story_with_its_records_numbers() {
    let s = Scenario::from_json(SCENARIO).expect("valid");
    let rows = records(&s);
    with_browser(|client, base| async move {
        client.set_window_size(1400, 1000).await.expect("a desktop's width");
        open_ready(&client, &format!("{base}?scenario={}", scenario_param(&s))).await;
        run_to_the_end(&client).await;
        click(&client, "#gantt-open").await;
        let said = wait_for(&client, Duration::from_secs(60), "the Gantt view's tape", || async {
            text(&client, "#gantt-status").await.filter(|t| t.contains("executions of"))
        })
        .await;
        assert!(said.contains("on 3 clusters."), "the status says {said:?}");
        assert!(non_white_pixels(&client, "#gantt-canvas").await > 5_000, "the Gantt view is blank");

        // Click across the canvas's first rows until a task answers.
        let mut told = None;
        'grid: for y in [12, 40, 90, 150, 220] {
            for x in [300, 450, 600, 750, 900] {
                js(
                    &client,
                    "const c = document.getElementById('gantt-canvas'); const r = c.getBoundingClientRect();
                     c.dispatchEvent(new MouseEvent('click', {bubbles: true, clientX: r.left + arguments[0],
                       clientY: r.top + arguments[1]}));",
                    vec![x.into(), y.into()],
                )
                .await;
                let (task, lines, rec) = shown_story(&client).await;
                if !task.is_empty() {
                    told = Some((task, lines, rec));
                    break 'grid;
                }
            }
        }
        let (task, lines, rec) = told.expect("a click on the drawn run tells some task's story");
        assert!(lines.iter().any(|l| l.contains("was submitted")), "task {task}'s story: {lines:#?}");
        assert_record(&rec, &rows, &task);
        assert_eq!(prop(&client, "#gantt-task", "value").await.as_str(), Some(task.as_str()));
        screenshot(&client, "gantt-desktop.png").await;

        // A task that waited, typed in: who started before it and why.
        let waited = rows
            .values()
            .filter(|r| r["waiting_time"].parse::<f64>().unwrap() > 100.0 && r["executions"] == "1")
            .map(|r| r["job_id"].clone())
            .min_by_key(|id| id.parse::<u32>().unwrap())
            .expect("a task that waited");
        set_control(&client, "#gantt-task", &waited).await;
        click(&client, "#gantt-tell").await;
        let (task, lines, rec) = wait_for(&client, Duration::from_secs(5), "the typed task's story", || async {
            let s = shown_story(&client).await;
            (s.0 == waited).then_some(s)
        })
        .await;
        let while_waiting = lines.iter().find(|l| l.starts_with("While it waited")).cloned().unwrap_or_default();
        assert!(while_waiting.contains("other tasks started"), "task {task} waited; its story: {lines:#?}");
        assert!(lines.iter().any(|l| l.contains("placed it on cluster")), "task {task}'s story: {lines:#?}");
        assert_record(&rec, &rows, &task);
        let v = axe_violations(&client, "with a task's story shown").await;
        assert!(v.is_empty(), "axe-core finds violations:\n  {}", v.join("\n  "));

        client.set_window_size(360, 800).await.expect("a phone's width");
        js(&client, "document.getElementById('gantt').scrollIntoView();", vec![]).await;
        screenshot(&client, "gantt-phone.png").await;
        let overflow = js(&client, "return document.documentElement.scrollWidth - window.innerWidth;", vec![]).await;
        assert!(overflow.as_f64().unwrap_or(1.0) <= 0.0, "the page scrolls sideways on a phone by {overflow} px");
    })
    .await;
}

/// Opens `json`'s scenario, runs it, opens its Gantt view (`prefix`'s button), tells the story of the first task
/// whose record satisfies `pick`, and checks the record shown against the native run's; returns the story's lines.
async fn typed_story(
    client: &fantoccini::Client,
    base: &str,
    json: &str,
    prefix: &str,
    pick: impl Fn(&HashMap<String, String>) -> bool,
) -> Vec<String> {
    let s = Scenario::from_json(json).expect("valid");
    let rows = records(&s);
    open_ready(client, &format!("{base}?scenario={}", scenario_param(&s))).await;
    run_to_the_end(client).await;
    click(client, &format!("#{prefix}gantt-open")).await;
    wait_for(client, Duration::from_secs(60), "the Gantt view's tape", || async {
        text(client, "#gantt-status").await.filter(|t| t.contains("executions of"))
    })
    .await;
    let task = rows
        .values()
        .filter(|r| pick(r))
        .map(|r| r["job_id"].clone())
        .min_by_key(|id| id.parse::<u32>().unwrap())
        .unwrap_or_else(|| panic!("{json}: no task to pick"));
    set_control(client, "#gantt-task", &task).await;
    click(client, "#gantt-tell").await;
    let (_, lines, rec) = wait_for(client, Duration::from_secs(5), "the typed task's story", || async {
        let s = shown_story(client).await;
        (s.0 == task).then_some(s)
    })
    .await;
    assert_record(&rec, &rows, &task);
    lines
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_desktop_grid_and_a_data_grid_task_tell_their_stories() {
    with_browser(|client, base| async move {
        client.set_window_size(1400, 1000).await.expect("a desktop's width");
        // A desktop-grid task whose machine failed: its story tells the failure and its checkpoints.
        let dg = r#"{"family": "desktop_grid", "seed": 6, "desktop_grid": {"bots": 12, "availability": "low",
            "checkpoint_period": 600, "bot_selection": "long_idle"}}"#;
        let lines = typed_story(&client, &base, dg, "dg-", |r| r["failed_executions"] != "0").await;
        assert!(lines.iter().any(|l| l.contains("failed")), "a failed task's story: {lines:#?}");
        assert!(lines.iter().any(|l| l.contains("checkpoint")), "a failed task's story: {lines:#?}");
        screenshot(&client, "gantt-desktop-grid.png").await;
        // A data-grid job that waited under EASY: its site's queue and how it started.
        let dd = r#"{"family": "data_grid", "seed": 6, "data_grid": {"jobs": 400, "local_policy": "easy",
            "scheme": "finish_time_data_aware"}}"#;
        let lines = typed_story(&client, &base, dd, "dd-", |r| r["waiting_time"].parse::<f64>().unwrap() > 0.0).await;
        assert!(lines.iter().any(|l| l.contains("queue (EASY backfilling)")), "a waiting job's story: {lines:#?}");
        screenshot(&client, "gantt-data-grid.png").await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lesson_tells_the_story_of_the_task_that_waited_longest() {
    // The task the lesson picks, natively: the same run (its variant, seed 1), the same tape, the same story.
    let lesson = bagsim::lessons::find("task-story").expect("the lesson");
    let s = lesson.story_scenario().expect("a story").expect("its scenario");
    let tape = bagsim::family::contract::tape_of(&mut AnyRun::build(&s, None).unwrap()).unwrap();
    let task = lesson.story.as_ref().unwrap().task(&tape).expect("a task started");
    let native = bagsim::story::story(&tape, task).unwrap();
    with_browser(|client, base| async move {
        client.set_window_size(1400, 1000).await.expect("a desktop's width");
        open_ready(&client, &format!("{base}?lesson=task-story")).await;
        click(&client, "#lesson-run").await;
        wait_for(&client, Duration::from_secs(120), "#lesson-status finished", || async {
            text(&client, "#lesson-status").await.filter(|s| s.starts_with("finished"))
        })
        .await;
        click(&client, "#lesson-story-open").await;
        let (shown, lines, rec) = wait_for(&client, Duration::from_secs(60), "the lesson's story", || async {
            let s = shown_story(&client).await;
            (!s.0.is_empty()).then_some(s)
        })
        .await;
        assert_eq!(shown, task.to_string(), "the page picked another task than the lesson's");
        let waited = lines.iter().find(|l| l.starts_with("While it waited")).cloned().unwrap_or_default();
        let native_waited = native.lines.iter().find(|l| l.text.starts_with("While it waited")).unwrap();
        assert_eq!(waited, native_waited.text, "the page's story differs from the native one");
        for (k, v) in &native.record {
            assert_eq!(rec.get(k), Some(v), "column {k}");
        }
        js(&client, "document.getElementById('lesson-story').scrollIntoView();", vec![]).await;
        screenshot(&client, "gantt-lesson.png").await;
        let v = axe_violations(&client, "with the lesson's story shown").await;
        assert!(v.is_empty(), "axe-core finds violations:\n  {}", v.join("\n  "));
    })
    .await;
}
