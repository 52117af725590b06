//! The page's per-task records (`family::contract::jobs_in_memory`, what the worker sends for "Records
//! (jobs.csv)") are the bytes `bagsim run --jobs` writes for the same scenario, in every family; a run with more
//! records than the page makes in memory is refused with the command that streams them.

use bagsim::family::contract::{jobs_in_memory, MAX_JOBS_IN_MEMORY};
use bagsim::registry::AnyRun;
use bagsim::scenario::Scenario;

fn bagsim(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_bagsim")).current_dir(dir).args(args).output().unwrap()
}

#[test]
fn the_pages_records_are_the_clis_bytes() {
    let dir = std::env::temp_dir().join(format!("bagsim-jobs-memory-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let scenarios = [
        r#"{"seed": 7, "workload": {"submission_period": 7200}}"#,
        r#"{"family": "desktop_grid", "seed": 7, "desktop_grid": {"bots": 10}}"#,
        r#"{"family": "data_grid", "seed": 7, "data_grid": {"jobs": 200}}"#,
    ];
    for json in scenarios {
        std::fs::write(dir.join("s.json"), json).unwrap();
        let o = bagsim(&dir, &["run", "s.json", "--jobs", "jobs.csv"]);
        assert!(o.status.success(), "{json}: {}", String::from_utf8_lossy(&o.stderr));
        let cli = std::fs::read_to_string(dir.join("jobs.csv")).unwrap();
        let s = Scenario::from_json(json).unwrap();
        let page = jobs_in_memory(&mut AnyRun::build(&s, None).unwrap()).expect("made in memory");
        assert!(cli.lines().count() > 10, "{json}: {} lines", cli.lines().count());
        assert!(page == cli, "{json}: the records made in memory differ from the CLI's");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn too_many_records_for_memory_are_refused_with_the_streaming_command() {
    // A day at the default load has some 250 000 tasks; a week well over the page's limit.
    let s = Scenario::from_json(r#"{"workload": {"submission_period": 1209600}}"#).unwrap();
    let mut run = AnyRun::build(&s, None).unwrap();
    use bagsim::family::contract::FamilyRun;
    let tasks = run.header().tasks;
    assert!(tasks > MAX_JOBS_IN_MEMORY, "{tasks} tasks: pick a larger scenario for this test");
    let e = jobs_in_memory(&mut run).expect_err("refused").to_string();
    assert!(e.contains("--jobs jobs.csv") && e.contains("500 000"), "{e}");
}
