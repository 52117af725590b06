//! Batsim JSON workloads in and out (`trace::batsim`, `bagsim generate --format batsim`) and a run's simulated
//! schedule as SWF (`bagsim run --swf`), read back by the trace importer (docs/traces.md).

use crate::common::{config, workload};
use crate::jobs_csv::Buffer;
use bagsim::family::contract::{Budget, FamilyRun};
use bagsim::family::multi_cluster::architecture::Architecture::Csp;
use bagsim::family::multi_cluster::config::McScenario;
use bagsim::family::multi_cluster::policy::scheduling::SchedulingPolicy as P;
use bagsim::family::multi_cluster::policy::selection::SelectionPolicy as S;
use bagsim::family::multi_cluster::run::{self, McRun};
use bagsim::family::multi_cluster::schedule_swf::ScheduleSwf;
use bagsim::family::multi_cluster::sim::Simulation;
use bagsim::trace::{batsim, import, import_as, Format, ImportError};
use std::path::PathBuf;

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("bagsim-batsim-{}-{name}", std::process::id()))
}

fn bagsim(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_bagsim")).args(args).output().unwrap()
}

/// Three jobs, written as a Batsim user would: an integer id, a walltime, a shared profile, a workload-prefixed id.
const THREE: &str = r#"{
  "nb_res": 4,
  "jobs": [
    {"id": 1, "subtime": 0, "res": 1, "walltime": 100, "profile": "short"},
    {"id": "2", "subtime": 10.5, "res": 2, "profile": "long", "user": "alice", "bot": "7"},
    {"id": "w0!3", "subtime": 20, "res": 1, "walltime": -1, "profile": "short"}
  ],
  "profiles": {
    "short": {"type": "delay", "delay": 5},
    "long": {"type": "delay", "delay": 42.25}
  }
}"#;

#[test]
fn a_hand_written_workload_imports_to_its_jobs() {
    let t = import(THREE.as_bytes()).unwrap();
    let r = &t.report;
    assert_eq!(r.format, Format::Batsim, "a JSON object is sniffed as Batsim");
    assert_eq!((r.lines, r.jobs, r.skipped, r.comments), (3, 3, 0, 0));
    assert_eq!(r.header_value("nb_res"), Some("4"));
    let j = &t.jobs;
    assert_eq!(j.iter().map(|j| j.id).collect::<Vec<_>>(), [1, 2, 3]);
    assert_eq!(j.iter().map(|j| j.submit).collect::<Vec<_>>(), [0.0, 10.5, 20.0]);
    assert_eq!(j.iter().map(|j| j.run).collect::<Vec<_>>(), [5.0, 42.25, 5.0]);
    assert_eq!(j.iter().map(|j| j.procs).collect::<Vec<_>>(), [1, 2, 1]);
    assert_eq!(j.iter().map(|j| j.req_time).collect::<Vec<_>>(), [100.0, -1.0, -1.0]);
    assert_eq!((t.name(j[1].user), t.name(j[1].executable)), ("alice", "7"));
    assert_eq!((t.name(j[0].user), t.name(j[0].executable)), ("-1", "-1"));
    // Work: 5 + 2 × 42.25 + 5 processor-seconds.
    assert_eq!(r.size.work, 94.5);
}

/// The one skip of `THREE` with job `i`'s field `field` replaced by `value`.
fn skip_of(i: usize, field: &str, value: &str) -> String {
    let mut doc: serde_json::Value = serde_json::from_str(THREE).unwrap();
    doc["jobs"][i][field] = serde_json::from_str(value).unwrap();
    let t = import_as(doc.to_string().as_bytes(), Format::Batsim).unwrap();
    assert_eq!((t.report.lines, t.report.jobs, t.report.skipped), (3, 2, 1), "{field} = {value}");
    t.report.first_skips[0].to_string()
}

#[test]
fn bad_jobs_are_skipped_naming_the_job_and_the_field() {
    assert_eq!(skip_of(1, "subtime", "-5"), r#"jobs[1] (id "2"), subtime: -5 is out of range; allowed 0–1e11 s"#);
    assert_eq!(skip_of(0, "res", "0"), r#"jobs[0] (id "1"), res: 0 is out of range; allowed 1–1000000"#);
    assert_eq!(skip_of(0, "res", "1.5"), r#"jobs[0] (id "1"), res: 1.5 is not a whole number"#);
    assert_eq!(
        skip_of(2, "profile", r#""medium""#),
        r#"jobs[2] (id "w0!3"), profile: "medium" is not defined in "profiles" (2 profiles there)"#
    );
    assert_eq!(skip_of(1, "subtime", r#""soon""#), r#"jobs[1] (id "2"), subtime: "soon" is a string, not a number"#);
    assert_eq!(skip_of(1, "subtime", "null"), r#"jobs[1] (id "2"), subtime: missing; a job needs its submit time (s)"#);
    assert_eq!(skip_of(1, "id", "[1]"), r#"jobs[1], id: a list is not a string"#);
    assert_eq!(
        skip_of(0, "walltime", "-3"),
        r#"jobs[0] (id "1"), walltime: -3 is out of range; allowed 0–1e11 s, or -1 = none"#
    );
    // A profile of another type has no run time to replay.
    let text = THREE.replace(
        r#""long": {"type": "delay", "delay": 42.25}"#,
        r#""long": {"type": "parallel_homogeneous", "cpu": 1e9}"#,
    );
    let t = import(text.as_bytes()).unwrap();
    assert_eq!(t.report.by_reason["not a delay profile"], 1);
    assert_eq!(
        t.report.first_skips[0].to_string(),
        concat!(
            r#"jobs[1] (id "2"), profile: profile "long" is of type "parallel_homogeneous"; only "delay" "#,
            r#"profiles give a run time bagsim can replay"#
        )
    );
    // Every entry bad: no job, with the counts and the first reason.
    let e = import(br#"{"jobs": [{"id": "a", "subtime": 0, "res": 1, "profile": "p"}]}"#).unwrap_err();
    assert_eq!(
        e.to_string(),
        concat!(
            r#"no job in the file: 1 lines read, 0 comment or blank, 1 skipped; first: jobs[0] (id "a"), "#,
            r#"profile: "p" is not defined in "profiles" (0 profiles there)"#
        )
    );
}

#[test]
fn a_file_that_is_not_a_batsim_workload_is_an_error_that_says_why() {
    let e = import(br#"{"nb_res": 4, "profiles": {}}"#).unwrap_err();
    assert!(matches!(e, ImportError::Malformed(_)), "{e:?}");
    assert!(e.to_string().starts_with(r#"not a Batsim JSON workload: no "jobs" list"#), "{e}");
    let e = import_as(b"1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n", Format::Batsim).unwrap_err();
    assert!(e.to_string().starts_with("not a Batsim JSON workload: "), "{e}");
    let e = import(br#"{"jobs": {"id": 1}}"#).unwrap_err();
    assert!(e.to_string().starts_with("not a Batsim JSON workload: at jobs: invalid type: map"), "{e}");
    let e = import(br#"{"jobs": [3]}"#).unwrap_err();
    assert!(e.to_string().starts_with("not a Batsim JSON workload: at jobs[0]: invalid type: integer"), "{e}");
    let e = import(br#"{"jobs": [], "profiles": {}} x"#).unwrap_err();
    assert!(e.to_string().contains("text after the workload's object"), "{e}");
    assert_eq!(import_as(b"", Format::Batsim).unwrap_err(), ImportError::Empty);
    // The CLI says it and exits with 2; --format batsim forces the format.
    let bad = temp("bad.json");
    std::fs::write(&bad, r#"{"nb_res": 4}"#).unwrap();
    let o = bagsim(&["trace", bad.to_str().unwrap()]);
    std::fs::remove_file(&bad).unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains(r#"no "jobs" list"#), "{}", String::from_utf8_lossy(&o.stderr));
}

/// A small multi-cluster scenario where tasks wait: two clusters of 4 and 2 processors at load 0.9 over a day, one
/// global stream (a Batsim job carries no home cluster).
fn busy_scenario() -> McScenario {
    McScenario::from_json(
        r#"{"seed": 3,
            "platform": {"clusters": [{"name": "a", "processors": 4, "speed": 1.0},
                                      {"name": "b", "processors": 2, "speed": 2.0}]},
            "workload": {"load": 0.9, "submission_period": 86400, "streams": "global", "max_size": 20}}"#,
    )
    .unwrap()
}

#[test]
fn a_generated_workload_round_trips_through_batsim_json() {
    let s = busy_scenario();
    let p = run::prepare(&s).unwrap();
    let w = &p.generated.workload;
    let mut text = Vec::new();
    batsim::write_workload(&mut text, w, 6, "test").unwrap();
    let t = import(&text).unwrap();
    assert_eq!(t.report.skipped, 0);
    assert_eq!(t.jobs.len(), w.tasks());
    let mut k = 0;
    for (b, bot) in w.bots.iter().enumerate() {
        for &r in w.bot_runtimes(b) {
            let j = &t.jobs[k];
            k += 1;
            assert_eq!((j.id, j.submit, j.run, j.procs), (k as i64, bot.arrival, r, 1), "task {k}");
            assert_eq!((t.name(j.user), t.name(j.executable)), (bot.user.to_string().as_str(), b.to_string().as_str()));
        }
    }
    // Same bytes for the same workload, and `bagsim generate --format batsim` writes them (nb_res: 4 + 2).
    let mut again = Vec::new();
    batsim::write_workload(&mut again, w, 6, "test").unwrap();
    assert_eq!(text, again);
    let scenario = temp("generate-scenario.json");
    std::fs::write(&scenario, serde_json::to_string(&s).unwrap()).unwrap();
    let o = bagsim(&["generate", scenario.to_str().unwrap(), "--format", "batsim"]);
    std::fs::remove_file(&scenario).unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut expected = Vec::new();
    let what = "bagsim workload, seed 3; one job per task, delays on the reference processor";
    batsim::write_workload(&mut expected, w, 6, what).unwrap();
    assert_eq!(String::from_utf8(o.stdout).unwrap(), String::from_utf8(expected).unwrap());
}

#[test]
fn a_batsim_workload_we_wrote_replays_to_the_same_report() {
    let s = busy_scenario();
    let path = temp("busy.json");
    let mut text = Vec::new();
    batsim::write_workload(&mut text, &run::prepare(&s).unwrap().generated.workload, 6, "test").unwrap();
    std::fs::write(&path, &text).unwrap();
    let mut replay = s.clone();
    replay.workload.trace =
        Some(serde_json::from_value(serde_json::json!({ "path": path.to_str().unwrap() })).unwrap());
    let (direct, replayed) = (run::run(&s).unwrap(), run::run(&replay));
    std::fs::remove_file(&path).unwrap();
    let replayed = replayed.unwrap();
    let (a, b) = (&direct.metrics, &replayed.metrics);
    assert!(a.tasks.finished > 0 && a.overall.wait.max > 0.0, "the case must make tasks wait");
    assert_eq!(a.overall, b.overall);
    assert_eq!(a.per_class, b.per_class);
    assert_eq!(a.tasks, b.tasks);
    // The import numbers users by their BoTs (most first), so Jain's index over users sums in another order.
    let (mut sa, mut sb) = (a.system.clone(), b.system.clone());
    assert!((sa.jain_slowdown - sb.jain_slowdown).abs() <= 1e-12 * sa.jain_slowdown);
    (sa.jain_slowdown, sb.jain_slowdown) = (0.0, 0.0);
    assert_eq!(sa, sb);
    assert_eq!(a.users.len(), b.users.len());
}

/// A run's schedule as SWF text, written while it runs (the chunks of `bagsim run --swf`).
fn schedule_swf(sim: &mut Simulation) -> Vec<u8> {
    use bagsim::engine::Model;
    let buf = Buffer::default();
    let mut swf = ScheduleSwf::start(Box::new(buf.clone()), sim, "test");
    while !sim.run_events(1) {
        swf.write_finished(sim);
    }
    swf.finish(sim).unwrap();
    buf.bytes()
}

#[test]
fn a_hand_worked_schedule_reads_back_with_its_waits_and_runs() {
    // One processor of speed 1, FCFS. BoT 0 (user 0) at 0 s: tasks of 10 and 5 s; BoT 1 (user 1) at 2 s: 4 s.
    // Task 1 runs 0–10 (wait 0), task 2 10–15 (wait 10), task 3 15–19 (wait 15 − 2 = 13).
    let mut cfg = config(Csp, S::ST, P::Fplt);
    cfg.horizon = 1e6;
    let mut sim = Simulation::new(
        cfg,
        crate::common::clusters(&[(1, 1.0)]),
        workload(&[(0.0, 0, &[10.0, 5.0]), (2.0, 1, &[4.0])]),
    );
    let text = schedule_swf(&mut sim);
    let t = import(&text).unwrap();
    assert_eq!(t.report.format, Format::Swf);
    let got: Vec<(i64, f64, f64, f64, i32)> =
        t.jobs.iter().map(|j| (j.id, j.submit, j.wait, j.run, j.status)).collect();
    assert_eq!(got, [(1, 0.0, 0.0, 10.0, 1), (2, 0.0, 10.0, 5.0, 1), (3, 2.0, 13.0, 4.0, 1)]);
    // BoT in field 14 and user in field 12, both from 1.
    let names: Vec<(&str, &str)> = t.jobs.iter().map(|j| (t.name(j.user), t.name(j.executable))).collect();
    assert_eq!(names, [("1", "1"), ("1", "1"), ("2", "2")]);
    // Ended at 12 s: task 1 done, task 2 running since 10 s, task 3 never started; the unfinished are status 5,
    // run −1, and the importer skips them for their unknown run time.
    let mut cfg = config(Csp, S::ST, P::Fplt);
    cfg.horizon = 12.0;
    let mut sim = Simulation::new(
        cfg,
        crate::common::clusters(&[(1, 1.0)]),
        workload(&[(0.0, 0, &[10.0, 5.0]), (2.0, 1, &[4.0])]),
    );
    let text = String::from_utf8(schedule_swf(&mut sim)).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with(';')).collect();
    assert_eq!(lines[1], "2 0 10 -1 1 -1 -1 1 -1 -1 5 1 -1 1 -1 -1 -1 -1");
    assert_eq!(lines[2], "3 2 -1 -1 1 -1 -1 1 -1 -1 5 2 -1 2 -1 -1 -1 -1");
    let t = import(text.as_bytes()).unwrap();
    assert_eq!((t.report.jobs, t.report.by_reason["unknown run time"]), (1, 2));
}

#[test]
fn run_swf_reads_back_to_the_simulations_waits_and_runs() {
    let s = busy_scenario();
    let mut r = McRun::build(&s, None).unwrap();
    let buf = Buffer::default();
    r.stream_swf(Box::new(buf.clone()), "test");
    let mut chunks = 0;
    while !r.step(Budget::Events(50)) {
        chunks += 1;
    }
    r.end_swf().expect("streamed").unwrap();
    let text = buf.bytes();
    assert!(chunks > 1);
    let sim = r.simulation();
    let t = import(&text).unwrap();
    assert_eq!(t.jobs.len(), sim.workload().tasks());
    let mut waited = 0;
    for (b, bot) in sim.workload().bots.iter().enumerate() {
        for task in bot.first_task as usize..(bot.first_task + bot.size) as usize {
            let j = &t.jobs[task];
            assert_eq!(j.id, task as i64 + 1);
            assert_eq!(j.submit, bot.arrival);
            assert_eq!(j.wait, sim.task_start(task) - bot.arrival, "task {task}");
            assert_eq!(j.run, sim.task_end(task) - sim.task_start(task), "task {task}");
            assert_eq!(t.name(j.executable), (b + 1).to_string());
            waited += usize::from(j.wait > 0.0);
        }
    }
    assert!(waited > 0, "the case must make tasks wait");
    // The CLI writes the same file, and `bagsim trace` reads it.
    let (scenario, out) = (temp("busy-scenario.json"), temp("busy.swf"));
    std::fs::write(&scenario, serde_json::to_string(&s).unwrap()).unwrap();
    let o = bagsim(&["run", scenario.to_str().unwrap(), "--swf", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let cli = std::fs::read(&out).unwrap();
    let o = bagsim(&["trace", out.to_str().unwrap()]);
    std::fs::remove_file(&scenario).unwrap();
    std::fs::remove_file(&out).unwrap();
    let body =
        |b: &[u8]| String::from_utf8_lossy(b).lines().filter(|l| !l.starts_with(';')).collect::<Vec<_>>().join("\n");
    assert_eq!(body(&cli), body(&text));
    assert!(o.status.success());
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains(&format!("{} jobs kept + 0 skipped", t.jobs.len())), "{stdout}");
}
