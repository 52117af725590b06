//! Studies spread over shards: for every family, shards run separately and written to their files' text merge into
//! the same CSV and JSON as the study run whole (a local sweep), and a study with a shard missing is not merged.

use bagsim::scenario::Scenario;
use bagsim::study::{axes, plan, Manifest, PointError, ShardOutput};

/// Shard `i` run and passed through its file's JSON text, as `bagsim merge` reads it.
fn shard_through_file(m: &Manifest, i: usize) -> ShardOutput {
    let run = |k: usize| m.point(k).map_err(PointError::from).and_then(|p| bagsim::study::run_point(&p));
    let out = m.run_shard(i, |idx| idx.iter().map(|&k| run(k)).collect()).unwrap();
    let text = serde_json::to_string(&out).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// The CSV and JSON with every wall time blanked (the one figure that differs from run to run).
fn without_wall_times(csv: &str, json: &str) -> (String, serde_json::Value) {
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let w = header.iter().position(|h| *h == "wall_time_s").expect("a wall_time_s column");
    let csv = csv
        .lines()
        .map(|l| l.split(',').enumerate().filter(|(i, _)| *i != w).map(|(_, c)| c).collect::<Vec<_>>().join(","))
        .collect::<Vec<_>>()
        .join("\n");
    let mut json: serde_json::Value = serde_json::from_str(json).unwrap();
    for run in json["runs"].as_array_mut().unwrap() {
        run["report"]["wall_time_s"] = serde_json::Value::Null;
    }
    (csv, json)
}

fn check_family(base: &str, sets: &[&str], shards: usize) {
    let base = Scenario::from_json(base).unwrap();
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    let whole = plan(&base, axes(&sets).unwrap(), 1).unwrap();
    let (csv1, json1) = whole.merge(&[Ok(Some(shard_through_file(&whole, 0)))]).unwrap();
    let m = plan(&base, axes(&sets).unwrap(), shards).unwrap();
    let outs: Vec<_> = (0..shards).map(|i| Ok(Some(shard_through_file(&m, i)))).collect();
    let (csv2, json2) = m.merge(&outs).unwrap();
    assert_eq!(csv1.lines().count(), m.points.len() + 1);
    assert_eq!(without_wall_times(&csv1, &json1), without_wall_times(&csv2, &json2), "{}", base.family().name());
    let mut partial = outs;
    partial[shards - 1] = Ok(None);
    let problems = m.merge(&partial).unwrap_err();
    assert_eq!(problems.missing, vec![shards - 1]);
}

#[test]
fn every_family_merges_to_the_local_sweep() {
    check_family(r#"{"workload": {"submission_period": 21600}}"#, &["load=0.3,0.9", "scheduling=ECT,RR"], 3);
    check_family(
        r#"{"family": "desktop_grid", "desktop_grid": {"bots": 4}}"#,
        &["bot_selection=fcfs_excl,rr", "seed=1,2"],
        3,
    );
    check_family(
        r#"{"family": "data_grid", "data_grid": {"jobs": 40}}"#,
        &["scheme=start_time_no_data_aware,finish_time_data_aware"],
        2,
    );
}

/// Runs `command` (e.g. `reproduce fig3 --seeds 2`) locally and as a study of `shards` shards merged, in `dir`, and
/// checks the files `files` (with `STEM` for the output stem) are byte for byte the same and so are the findings.
fn planned_equals_local(dir: &std::path::Path, command: &[&str], shards: usize, files: &[&str]) {
    let bagsim = |args: &[String]| {
        let out =
            std::process::Command::new(env!("CARGO_BIN_EXE_bagsim")).args(args).current_dir(dir).output().unwrap();
        assert!(out.status.success(), "bagsim {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let args = |extra: &[&str]| command.iter().chain(extra).map(|a| a.to_string()).collect::<Vec<_>>();
    let local = bagsim(&args(&["--out", "local"]));
    bagsim(&args(&["--plan", &shards.to_string(), "--out", "st"]));
    for i in 0..shards {
        bagsim(&["sweep", "--manifest", "st.manifest.json", "--shard", &i.to_string()].map(String::from));
    }
    let merged = bagsim(&["merge", "st.manifest.json"].map(String::from));
    for f in files {
        let a = std::fs::read(dir.join(f.replace("STEM", "local"))).unwrap();
        let b = std::fs::read(dir.join(f.replace("STEM", "st"))).unwrap();
        assert!(a == b, "{command:?}: {f} differs");
    }
    // The findings printed are the same (the local run adds its times).
    let verdicts = |s: &str| {
        let verdict = |l: &&str| ["agrees", "disagrees", "not resolved", "bagsim:"].iter().any(|w| l.contains(w));
        s.lines().filter(verdict).map(str::to_string).collect::<Vec<_>>()
    };
    assert!(!verdicts(&local).is_empty(), "{command:?} printed no finding");
    assert_eq!(verdicts(&local), verdicts(&merged), "{command:?}");
}

/// `bagsim reproduce FIG --plan N`, `bagsim dg-figure N --plan N` and `bagsim dd-figure N --plan N`, with and without
/// `--readings`, their shards and `bagsim merge` write the very files the commands write.
#[test]
fn planned_figures_merge_to_the_files_their_commands_write() {
    let dir = std::env::temp_dir().join(format!("bagsim-study-fig-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Half a day: the default month holds millions of tasks, too many for the test command.
    std::fs::write(dir.join("day.json"), r#"{"workload": {"submission_period": 43200}}"#).unwrap();
    planned_equals_local(
        &dir,
        &["reproduce", "fig3", "--seeds", "2", "--base", "day.json"],
        3,
        &["STEM-fig3.csv", "STEM-fig3.svg", "STEM-fig3.md"],
    );
    planned_equals_local(&dir, &["dg-figure", "2", "--bots", "30", "--max-seeds", "4"], 4, &["STEM-fig2.csv"]);
    // Under a reading that only WQR4x reads, the local command simulates the other policies' runs once for both
    // readings; the planned study runs every point: the files are the same.
    planned_equals_local(
        &dir,
        &["reproduce", "fig3", "--seeds", "2", "--readings", "policy_options.wqr_nx=all", "--base", "day.json"],
        2,
        &["STEM-fig3-readings.md", "STEM-fig3-readings.csv"],
    );
    planned_equals_local(
        &dir,
        &["reproduce", "fig11", "--seeds", "2", "--readings", "load_split=all", "--base", "day.json"],
        3,
        &["STEM-fig11-readings.md", "STEM-fig11-readings.csv"],
    );
    planned_equals_local(
        &dir,
        &["dg-figure", "2", "--bots", "30", "--max-seeds", "4", "--readings", "checkpoint_store=all"],
        5,
        &["STEM-fig2-readings.md", "STEM-fig2-readings.csv"],
    );
    std::fs::write(dir.join("dd.json"), r#"{"family": "data_grid", "data_grid": {"jobs": 200}}"#).unwrap();
    planned_equals_local(
        &dir,
        &["dd-figure", "7", "--scenario", "dd.json", "--seeds", "2"],
        3,
        &["STEM-fig7.csv", "STEM-fig7.md"],
    );
    planned_equals_local(
        &dir,
        &["dd-figure", "9", "--scenario", "dd.json", "--seeds", "2", "--readings", "walltime=all"],
        4,
        &["STEM-fig9-readings.md", "STEM-fig9-readings.csv"],
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
