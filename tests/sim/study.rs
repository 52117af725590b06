//! Studies spread over shards: for every family, shards run separately and written to their files' text merge into
//! the same CSV and JSON as the study run whole (a local sweep), and a study with a shard missing is not merged.

use bagsim::scenario::Scenario;
use bagsim::study::{axes, plan, Manifest, ShardOutput};

/// Shard `i` run and passed through its file's JSON text, as `bagsim merge` reads it.
fn shard_through_file(m: &Manifest, i: usize) -> ShardOutput {
    let out = m.run_shard(i, |idx| idx.iter().map(|&k| bagsim::study::run_point(&m.points[k])).collect()).unwrap();
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
    assert_eq!(without_wall_times(&csv1, &json1), without_wall_times(&csv2, &json2), "{}", base.family.name());
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

/// `bagsim reproduce FIG --plan N`, its shards and `bagsim merge` write the very files `bagsim reproduce` writes.
#[test]
fn a_planned_figure_merges_to_the_files_reproduce_writes() {
    let dir = std::env::temp_dir().join(format!("bagsim-study-fig-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bagsim = |args: &[&str]| {
        let out =
            std::process::Command::new(env!("CARGO_BIN_EXE_bagsim")).args(args).current_dir(&dir).output().unwrap();
        assert!(out.status.success(), "bagsim {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let local = bagsim(&["reproduce", "fig3", "--seeds", "2", "--out", "local"]);
    bagsim(&["reproduce", "fig3", "--seeds", "2", "--plan", "3", "--out", "st"]);
    for i in ["0", "1", "2"] {
        bagsim(&["sweep", "--manifest", "st.manifest.json", "--shard", i]);
    }
    let merged = bagsim(&["merge", "st.manifest.json"]);
    for ext in ["csv", "svg", "md"] {
        let a = std::fs::read(dir.join(format!("local-fig3.{ext}"))).unwrap();
        let b = std::fs::read(dir.join(format!("st-fig3.{ext}"))).unwrap();
        assert!(a == b, "fig3.{ext} differs");
    }
    // The findings printed are the same (the local run adds its times).
    let verdicts = |s: &str| s.lines().filter(|l| l.contains("bagsim:")).map(str::to_string).collect::<Vec<_>>();
    assert!(!verdicts(&local).is_empty());
    assert_eq!(verdicts(&local), verdicts(&merged));
    std::fs::remove_dir_all(&dir).unwrap();
}
