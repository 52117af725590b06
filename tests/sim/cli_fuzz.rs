//! Generated cases through the built binary, one generator per defect class of the issue "Trust at the edges":
//! each case is refused naming what is wrong (exit code 2, a message) or runs to outputs with only finite numbers
//! and the right labels; no panic, abort or hang. Seeded, so a failure reproduces. The test command runs
//! `CASES` of them; `BAGSIM_CLI_FUZZ=10000 cargo test --release --test sim cli_fuzz -- --nocapture` runs more and
//! prints the count per class.

use super::cli_edges::{bagsim, clean, clean_files, dir, text};
use bagsim::engine::Rng;
use serde_json::{json, Value};
use std::path::Path;

/// Cases in the test command (about 15 s in a debug build).
const CASES: usize = 90;

const TINY: &str = r#"{"workload": {"submission_period": 3600}}"#;

fn pick<'a, T>(rng: &mut Rng, items: &'a [T]) -> &'a T {
    &items[rng.below(items.len() as u64) as usize]
}

/// A number an odd user might type: ordinary, tiny, huge, negative or zero.
fn odd_number(rng: &mut Rng) -> Value {
    pick(rng, &[json!(5e-324), json!(1.797e308), json!(-1), json!(0), json!(1e-9), json!(1e15), json!(0.5), json!(3)])
        .clone()
}

/// Class 1: figure commands of every family on bases in which little or nothing finishes.
fn no_data(rng: &mut Rng, d: &Path) -> String {
    match rng.below(3) {
        0 => {
            let horizon = pick(rng, &[1.0, 10.0, 100.0]);
            std::fs::write(
                d.join("input.json"),
                json!({"horizon": horizon, "workload": {"submission_period": 3600}}).to_string(),
            )
            .unwrap();
            let fig = pick(rng, &["fig3", "fig5", "fig8", "fig9", "fig10", "fig11"]);
            let o = bagsim(d, &["reproduce", fig, "--base", "input.json", "--seeds", "2", "--out", "r"]);
            clean(&format!("reproduce {fig} horizon {horizon}"), &o);
            assert!(o.status.success(), "{}", text(&o));
            format!("reproduce {fig}")
        }
        1 => {
            let horizon = pick(rng, &[1.0, 60.0, 3600.0]);
            let bots = pick(rng, &[2, 4, 8]);
            std::fs::write(
                d.join("input.json"),
                json!({"family": "desktop_grid", "desktop_grid": {"horizon": horizon, "bots": bots}}).to_string(),
            )
            .unwrap();
            let fig = pick(rng, &["2", "3", "9"]);
            let o = bagsim(d, &["dg-figure", fig, "--scenario", "input.json", "--max-seeds", "3", "--out", "g"]);
            clean(&format!("dg-figure {fig} horizon {horizon}"), &o);
            format!("dg-figure {fig}")
        }
        _ => {
            let base = pick(rng, &[TINY, r#"{"family": "desktop_grid", "desktop_grid": {"bots": 2}}"#]);
            std::fs::write(d.join("input.json"), base).unwrap();
            let o = bagsim(d, &["dd-figure", "4", "--scenario", "input.json", "--seeds", "2", "--out", "x"]);
            clean("dd-figure with a base of another family", &o);
            assert_eq!(o.status.code(), Some(2), "{}", text(&o));
            "dd-figure of another family".into()
        }
    }
}

/// Class 2: sweeps with repeated and aliased keys, odd stems and odd labels.
fn sweeps(rng: &mut Rng, d: &Path) -> String {
    std::fs::write(
        d.join("input.json"),
        concat!(
            r#"{"workload": {"submission_period": 3600}, "platform": {"clusters": [{"name": "a", "#,
            r#""processors": 4, "speed": 1}]}}"#
        ),
    )
    .unwrap();
    let keys = [
        ("load", "0.2,0.5"),
        ("workload.load", "0.3"),
        ("seed", "1,2"),
        ("scheduling", "ECT,FPLT"),
        ("platform.clusters.0.name", "q\"t,a b,x"),
        ("workload", "null"),
        ("inaccuracy", "0,50"),
    ];
    let n = 1 + rng.below(3) as usize;
    let sets: Vec<String> = (0..n).map(|_| pick(rng, &keys)).map(|(k, v)| format!("{k}={v}")).collect();
    let stem = pick(rng, &["run.1", "a.b.c", "plain", "ünï", "s p"]).to_string();
    let mut args = vec!["sweep", "input.json", "--out", &stem];
    for s in &sets {
        args.extend(["--set", s]);
    }
    let o = bagsim(d, &args);
    clean(&format!("{args:?}"), &o);
    if o.status.success() {
        let csv = std::fs::read_to_string(d.join(format!("{stem}.csv"))).unwrap();
        let rows: Vec<Vec<String>> = csv.lines().map(|l| bagsim::stats::csv_cells(l).unwrap()).collect();
        assert!(rows.iter().all(|r| r.len() == rows[0].len()), "{args:?}: ragged CSV\n{csv}");
        let json: Value =
            serde_json::from_str(&std::fs::read_to_string(d.join(format!("{stem}.json"))).unwrap()).unwrap();
        // Each run's scenario holds the values its labels say (for the keys whose path the test knows).
        for run in json["runs"].as_array().unwrap() {
            for (k, (key, _)) in sets.iter().map(|s| s.split_once('=').unwrap()).enumerate() {
                let label = run["point"][k].as_str().unwrap();
                if key == "load" || key == "workload.load" {
                    let got = run["report"]["scenario"]["workload"]["load"].as_f64().unwrap();
                    assert_eq!(got, label.parse::<f64>().unwrap(), "{args:?}: labelled {label}, ran {got}");
                }
            }
        }
        clean_files(&format!("{args:?}"), d);
    } else {
        let t = text(&o);
        assert!(t.contains("a key may appear once") || t.contains("--set"), "{args:?}: {t}");
    }
    "sweep".into()
}

/// Class 3: a planned study's manifest or shard edited at one random leaf; merge and slurm with hostile text.
fn studies(rng: &mut Rng, d: &Path) -> String {
    std::fs::write(d.join("input.json"), TINY).unwrap();
    let o = bagsim(d, &["sweep", "input.json", "--set", "load=0.2,0.5", "--plan", "2", "--out", "st"]);
    assert!(o.status.success(), "{}", text(&o));
    for i in ["0", "1"] {
        assert!(bagsim(d, &["sweep", "--manifest", "st.manifest.json", "--shard", i]).status.success());
    }
    let which = if rng.below(2) == 0 { "st.manifest.json" } else { "st.shard-1.json" };
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(d.join(which)).unwrap()).unwrap();
    let mut leaves = Vec::new();
    collect_leaves(&v, String::new(), &mut leaves);
    let leaf = pick(rng, &leaves).clone();
    let replacement =
        pick(rng, &[json!(0), json!("desktop_grid"), json!(1e9), json!("x\nrm -rf /"), json!(null)]).clone();
    if let Some(slot) = v.pointer_mut(&leaf) {
        if *slot == replacement {
            return "edit (no change)".into();
        }
        *slot = replacement;
    }
    std::fs::write(d.join(which), serde_json::to_string(&v).unwrap()).unwrap();
    let o = bagsim(d, &["merge", "st.manifest.json"]);
    clean(&format!("{which} {leaf}"), &o);
    // The wall time of a run is the one number an edit may change unseen: it is not part of the results.
    if !leaf.ends_with("wall_time_s") {
        // An edited manifest is refused (2); an edited shard leaves the study incomplete, to be run again (5).
        let code = if which.contains("shard") { 5 } else { 2 };
        assert_eq!(o.status.code(), Some(code), "{which} {leaf} edited, merged: {}", text(&o));
        assert!(!d.join("st.csv").exists());
    }
    let extra = pick(rng, &["--extra=--account=ABC", "--extra=--x=a b", "--extra=--x=$(id)", "--extra=--x=1\n2"]);
    let o = bagsim(d, &["slurm", "st.manifest.json", extra]);
    clean(&format!("slurm {extra:?}"), &o);
    if let Ok(script) = std::fs::read_to_string(d.join("st.sbatch")) {
        assert!(script.lines().all(|l| l.starts_with('#') || l.starts_with("exec ")), "{script}");
    }
    format!("edit {which}")
}

fn collect_leaves(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Object(o) => o.iter().for_each(|(k, v)| collect_leaves(v, format!("{at}/{k}"), out)),
        Value::Array(a) => a.iter().enumerate().for_each(|(i, v)| collect_leaves(v, format!("{at}/{i}"), out)),
        _ => out.push(at),
    }
}

/// Classes 4 and 6: scenarios with odd numbers where runtimes and speeds are built, and arrays for objects.
fn scenarios(rng: &mut Rng, d: &Path) -> String {
    let mut s = json!({"workload": {"submission_period": 3600}});
    match rng.below(4) {
        0 => {
            s["platform"] = json!({"clusters": [
                {"name": "a", "processors": 4, "speed": odd_number(rng)},
                {"name": "b", "processors": 4, "speed": 1.0}]});
        }
        1 => {
            s["workload"]["mean_runtime"] = odd_number(rng);
            s["inaccuracy"] = pick(rng, &[json!(0), json!(10000)]).clone();
        }
        2 => {
            s["workload"]["generator"] = json!({"login_logout": {
                "users": [{"name": "u", "lambda": 0.0002, "delta": 0.02, "mu": 0.08}],
                "runtime": {"family": "exponential", "mean": odd_number(rng)}}});
            s["workload"]["load"] = Value::Null;
        }
        _ => {
            let at = pick(rng, &["workload", "architecture", "predictor", "platform"]);
            s[*at] = json!([]);
        }
    }
    std::fs::write(d.join("input.json"), s.to_string()).unwrap();
    let cmd = pick(rng, &["run", "generate"]);
    let o = bagsim(d, &[cmd, "input.json"]);
    clean(&format!("{cmd} {s}"), &o);
    "scenario".into()
}

/// Classes 5 and 9: traces with odd line ends and headers, plain or gzip, and truncated gzip.
fn traces(rng: &mut Rng, d: &Path) -> String {
    let sep = pick(rng, &["\n", "\r", "\r\n"]);
    let header = pick(rng, &["1e308", "nan", "-1", "1262304000", "x"]);
    let jobs = 1 + rng.below(5);
    let mut t = format!("; UnixStartTime: {header}{sep}");
    for j in 0..jobs {
        let run = pick(rng, &["0", "100", "1e308", "-1", "nan"]);
        t.push_str(&format!("{} {} 0 {run} 1 -1 -1 1 100 -1 1 {} 1 1 1 -1 -1 -1{sep}", j + 1, 10 * j, j % 2));
    }
    let bytes = if rng.below(2) == 0 {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut gz, t.as_bytes()).unwrap();
        let mut b = gz.finish().unwrap();
        if rng.below(4) == 0 {
            b.truncate(b.len() / 2);
        }
        b
    } else {
        t.into_bytes()
    };
    std::fs::write(d.join("t.swf"), &bytes).unwrap();
    let o = bagsim(d, &["trace", "t.swf", "--views", "--out", "t.out"]);
    clean(&format!("trace {sep:?} {header}"), &o);
    if o.status.success() {
        let json = std::fs::read_to_string(d.join("t.out")).unwrap();
        assert!(!json.contains("null"), "null in trace --out");
    }
    "trace".into()
}

/// Classes 7 and 8: output paths that cannot be written, and keys and numbers too long to echo.
fn outputs_and_messages(rng: &mut Rng, d: &Path) -> String {
    std::fs::write(d.join("input.json"), TINY).unwrap();
    if rng.below(2) == 0 {
        let bad = pick(rng, &["nodir/x", ".", "/proc/x/y", ""]);
        let args: Vec<&str> = match rng.below(3) {
            0 => vec!["run", "input.json", "--out", bad],
            1 => vec!["sweep", "input.json", "--set", "load=0.2", "--out", bad],
            _ => vec!["reproduce", "fig3", "--seeds", "2", "--out", bad],
        };
        let o = bagsim(d, &args);
        clean(&format!("{args:?}"), &o);
        // A directory that is not there is a file that cannot be written (3); "." and "" are refused (2).
        let code = if bad.contains('/') { 3 } else { 2 };
        assert_eq!(o.status.code(), Some(code), "{args:?}: {}", text(&o));
        assert!(o.stdout.is_empty(), "{args:?}: worked before refusing");
        "output path".into()
    } else {
        let n = pick(rng, &[100usize, 10_000, 100_000]);
        let key = "k".repeat(*n);
        let o = bagsim(d, &["sweep", "input.json", "--set", &format!("{key}=1")]);
        clean("a long key", &o);
        assert!(text(&o).len() < 2000, "{} bytes of message", text(&o).len());
        "message".into()
    }
}

/// Class 6, settings without effect: a random base of a random family with one key set away from its default. When
/// the run warns that the key has no effect, another value of it gives the same report; a sweep over it then is
/// refused for the same reason.
fn settings_without_effect(rng: &mut Rng, d: &Path) -> String {
    let (base, key, values): (Value, &str, [Value; 2]) = match rng.below(3) {
        0 => {
            let kind = *pick(rng, &["sep-c", "csp", "fcondor"]);
            let policy = *pick(rng, &["FPLT", "ECT", "DFPLT", "WQR4x", "ECT-P", "RR"]);
            let selection = *pick(rng, &["S-T", "S-U-Prio", "S-BoT"]);
            let base = json!({"workload": {"submission_period": 3600, "load": 0.9}, "architecture": {"kind": kind},
                "scheduling": policy, "selection": selection});
            let (k, v) = pick(
                rng,
                &[
                    ("architecture.monitoring_period", [json!(300), json!(0)]),
                    ("architecture.fcondor_move", [json!("bot"), json!("task")]),
                    ("policy_options.dfplt_unranked", [json!("last"), json!("reference")]),
                    ("policy_options.wqr_nx", [json!("copies"), json!("replicas")]),
                    ("policy_options.prio_order", [json!("cluster"), json!("rank")]),
                    ("scheduling_period", [json!(600), json!(30)]),
                ],
            )
            .clone();
            (base, k, v)
        }
        1 => {
            let sel = *pick(rng, &["rr_nrf", "fcfs_share", "long_idle", "rr"]);
            let avail = *pick(rng, &["high", "always_up"]);
            let het = *pick(rng, &["homogeneous", "heterogeneous"]);
            let base = json!({"family": "desktop_grid", "desktop_grid": {"bots": 8, "bot_selection": sel,
                "availability": avail, "heterogeneity": het}});
            let (k, v) = pick(
                rng,
                &[
                    ("desktop_grid.fcfs_share", [json!("rep_thresh"), json!("one_replica")]),
                    ("desktop_grid.long_idle", [json!("unreplicated"), json!("accumulated")]),
                    ("desktop_grid.weibull_shape", [json!(1.0), json!(0.5)]),
                    ("desktop_grid.power", [json!(12.0), json!(8.0)]),
                    ("desktop_grid.power_range", [json!([5.0, 15.0]), json!([1.0, 9.0])]),
                ],
            )
            .clone();
            (base, k, v)
        }
        _ => {
            let scheme = *pick(rng, &["start_time_no_data_aware", "finish_time_no_overlap", "finish_time_data_aware"]);
            let est = *pick(rng, &["requested", "accurate"]);
            let share = *pick(rng, &[0.0, 0.5]);
            let base = json!({"family": "data_grid", "data_grid": {"jobs": 40, "scheme": scheme, "estimates": est,
                "data_share": share}});
            let (k, v) = pick(
                rng,
                &[
                    ("data_grid.backfill_rule", [json!("data_arrived"), json!("data_aware")]),
                    ("data_grid.walltime", [json!("kill"), json!("run_to_log")]),
                    ("data_grid.data_mb", [json!([1.0, 2.0]), json!([100.0, 900.0])]),
                ],
            )
            .clone();
            (base, k, v)
        }
    };
    let with = |x: &Value| {
        let mut v = base.clone();
        let parts: Vec<&str> = key.split('.').collect();
        let mut at = &mut v;
        for p in &parts[..parts.len() - 1] {
            at = at.as_object_mut().unwrap().entry(p.to_string()).or_insert_with(|| json!({}));
        }
        at[parts[parts.len() - 1]] = x.clone();
        v
    };
    let metrics = |name: &str, x: &Value| {
        std::fs::write(d.join(format!("{name}.json")), with(x).to_string()).unwrap();
        let o = bagsim(d, &["run", &format!("{name}.json"), "--out", &format!("{name}-out.json")]);
        clean(&format!("run {key} = {x} under {base}"), &o);
        assert!(o.status.success(), "{}", text(&o));
        let report: Value =
            serde_json::from_str(&std::fs::read_to_string(d.join(format!("{name}-out.json"))).unwrap()).unwrap();
        (text(&o), report["metrics"].clone())
    };
    let (t, first) = metrics("a", &values[0]);
    if t.contains(&format!("{key} is set but has no effect")) {
        let (_, second) = metrics("b", &values[1]);
        assert_eq!(first, second, "{key} warned as without effect under {base}, yet changed the run");
        if values.iter().any(Value::is_array) {
            return "setting without effect (an array: no sweep axis)".into();
        }
        let axis = format!("{key}={},{}", values[0], values[1]).replace('"', "");
        let o = bagsim(d, &["sweep", "a.json", "--set", &axis, "--out", "s"]);
        clean(&format!("sweep {axis}"), &o);
        assert!(o.status.code() == Some(2) && text(&o).contains("has no effect"), "{axis}: {}", text(&o));
    }
    "setting without effect".into()
}

/// One class's case generator: runs a case in the directory, says what it was.
type Generator = fn(&mut Rng, &Path) -> String;

#[test]
fn generated_cli_cases_are_refused_or_run_clean() {
    let cases = std::env::var("BAGSIM_CLI_FUZZ").ok().and_then(|v| v.parse().ok()).unwrap_or(CASES);
    let mut rng = Rng::new(28);
    let classes: [(&str, Generator); 7] = [
        ("1 no data", no_data),
        ("2 sweeps", sweeps),
        ("3 studies", studies),
        ("4/6 scenarios", scenarios),
        ("5/9 traces", traces),
        ("7/8 outputs, messages", outputs_and_messages),
        ("6 settings without effect", settings_without_effect),
    ];
    let mut counts = [0usize; 7];
    let d = dir("fuzz");
    for k in 0..cases {
        let c = k % classes.len();
        let case_dir = d.join(format!("c{}", k % 12));
        let _ = std::fs::remove_dir_all(&case_dir);
        std::fs::create_dir_all(&case_dir).unwrap();
        classes[c].1(&mut rng, &case_dir);
        counts[c] += 1;
    }
    for (c, (name, _)) in classes.iter().enumerate() {
        eprintln!("class {name}: {} cases", counts[c]);
    }
}
