//! Numbers stay numbers (the bad-input issue, item 3; README, "Undefined numbers"): runs in which nothing arrives,
//! nothing finishes, or no BoT finishes in any point of a sweep write no NaN, no infinity, no −0 and no null for a
//! number, in their report JSON, their sweep JSON and CSV, their per-BoT or per-job CSV and the CLI's summary; an
//! undefined mean is absent, with its reason under `undefined`.

use bagsim::family::contract::FamilyRun;
use bagsim::registry::{run_any, AnyReport};
use bagsim::scenario::Scenario;
use serde_json::Value;

/// The scenario keys a report may leave null: options of the scenario itself, and a summary's target load when the
/// model's own rate is kept.
fn may_be_null(path: &str) -> bool {
    path.contains(".scenario.") || path.ends_with(".workload.target_load")
}

/// Every path of `v` whose value is null where a number belongs, or a number that is −0.
fn odd_values(v: &Value, path: &str, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => m.iter().for_each(|(k, x)| odd_values(x, &format!("{path}.{k}"), out)),
        Value::Array(a) => a.iter().enumerate().for_each(|(i, x)| odd_values(x, &format!("{path}[{i}]"), out)),
        Value::Null if !may_be_null(path) => out.push(format!("{path}: null")),
        Value::Number(n) if n.as_f64() == Some(0.0) && n.to_string().starts_with('-') => {
            out.push(format!("{path}: {n}"))
        }
        _ => {}
    }
}

/// Asserts a JSON text has only numbers where numbers belong.
fn clean_json(what: &str, text: &str) {
    for bad in ["NaN", "Infinity", "inf"] {
        assert!(!text.contains(bad), "{what}: {bad} in {text:.2000}");
    }
    let v: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{what}: {e}"));
    let mut odd = Vec::new();
    odd_values(&v, "", &mut odd);
    assert!(odd.is_empty(), "{what}: {odd:?}");
}

/// Asserts no cell of a CSV text is NaN, infinite or −0.
fn clean_csv(what: &str, text: &str) {
    for (i, line) in text.lines().enumerate() {
        for cell in line.split(',') {
            let bad = cell.contains("NaN")
                || cell.contains("inf")
                || cell.parse::<f64>().is_ok_and(|x| x == 0.0 && cell.starts_with('-'));
            assert!(!bad, "{what}, line {}: {cell:?} in {line}", i + 1);
        }
    }
}

/// Asserts a text printed for people has no NaN, inf or −0.
fn clean_text(what: &str, text: &str) {
    for word in text.split(|c: char| c.is_whitespace() || c == ',' || c == '(' || c == ')' || c == ';') {
        let bad = word.contains("NaN")
            || word == "inf"
            || word == "-inf"
            || word.trim_end_matches(['%', 's']).parse::<f64>().is_ok_and(|x| x == 0.0 && word.starts_with('-'));
        assert!(!bad, "{what}: {word:?} in\n{text}");
    }
}

fn scenario(json: &str) -> Scenario {
    Scenario::from_json(json).unwrap_or_else(|e| panic!("{json}: {e}"))
}

/// A log of three jobs whose runs (10¹¹ s, the importer's most) outlast any horizon.
fn endless_trace() -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("bagsim-numbers-{}.swf", std::process::id()));
    let jobs =
        (1..=3).map(|i| format!("{i} {} -1 1e11 1 -1 -1 1 -1 -1 1 1 1 -1 -1 1 -1 -1\n", 10 * i)).collect::<String>();
    std::fs::write(&path, jobs).expect("a temporary file");
    path
}

/// A case: its name, its scenario, and the reasons its report must give, by path.
type Case = (&'static str, Scenario, &'static [(&'static str, &'static str)]);

/// The runs of the issue: nothing arrives, nothing finishes, no BoT finishes, no job moves data.
fn cases() -> Vec<Case> {
    let trace = endless_trace();
    vec![
        (
            "nothing arrives",
            scenario(
                r#"{"workload": {"load": null, "submission_period": 60, "model": {"users": {"alpha": 1, "n": 1},
                "iat": {"dist": {"family": "constant", "value": 1e9}, "log2": false}, "daily_cycle": null,
                "size": {"dist": {"family": "constant", "value": 1}, "log2": false},
                "art": {"dist": {"family": "constant", "value": 1}, "log2": false},
                "rtv": {"dist": {"family": "constant", "value": 0}, "log2": false}}}}"#,
            ),
            &[("overall.makespan", "no BoT finished"), ("tasks.wait", "no task started")],
        ),
        (
            "a trace whose jobs never end",
            scenario(&format!(r#"{{"workload": {{"trace": {{"path": "{}"}}}}}}"#, trace.display())),
            &[("overall.makespan", "no BoT finished"), ("tasks.response", "no task finished")],
        ),
        (
            "a desktop grid in which no BoT finishes",
            scenario(
                r#"{"family": "desktop_grid", "desktop_grid": {"bots": 20, "mttf": [3.0], "application_size": 6510.5,
                "horizon": 1e5}}"#,
            ),
            &[("turnaround", "no BoT finished"), ("waiting", "no BoT finished")],
        ),
        (
            "a data grid whose jobs move no data",
            scenario(r#"{"family": "data_grid", "data_grid": {"jobs": 20, "data_share": 0}}"#),
            &[("transfer", "no job that ended moved data")],
        ),
    ]
}

fn undefined(r: &AnyReport) -> &std::collections::BTreeMap<String, String> {
    match r {
        AnyReport::MultiCluster(r) => &r.metrics.undefined,
        AnyReport::DesktopGrid(r) => &r.metrics.undefined,
        AnyReport::DataGrid(r) => &r.metrics.undefined,
    }
}

#[test]
fn reports_and_tables_hold_only_numbers() {
    for (name, s, reasons) in cases() {
        let report = run_any(&s).unwrap_or_else(|e| panic!("{name}: {e}"));
        clean_json(name, &report.to_json().unwrap());
        for (path, reason) in reasons {
            assert_eq!(undefined(&report).get(*path).map(String::as_str), Some(*reason), "{name}: {path}");
        }
        // What a sweep keeps of the run: its row and its slim report.
        clean_csv(name, &report.sweep_row());
        clean_json(name, &report.clone().slim_json().to_string());
        // The rows of the run (per BoT, per job).
        let mut run = bagsim::registry::AnyRun::build(&s, None).unwrap();
        bagsim::family::contract::run_to_report(&mut run, &|| 0.0);
        if let Some(csv) = run.rows_csv() {
            clean_csv(name, &csv);
        }
        // A report read back keeps its undefined numbers undefined.
        let back: Value = serde_json::from_str(&report.to_json().unwrap()).unwrap();
        let again = match &report {
            AnyReport::MultiCluster(_) => AnyReport::MultiCluster(serde_json::from_value(back).unwrap()),
            AnyReport::DesktopGrid(_) => AnyReport::DesktopGrid(serde_json::from_value(back).unwrap()),
            AnyReport::DataGrid(_) => AnyReport::DataGrid(serde_json::from_value(back).unwrap()),
        };
        assert_eq!(again.to_json().unwrap(), report.to_json().unwrap(), "{name}: the report does not read back");
    }
}

/// The CLI's summary, its report and its rows, and a sweep in which no BoT finishes at any point.
#[test]
fn the_cli_writes_only_numbers() {
    let dir = std::env::temp_dir().join(format!("bagsim-numbers-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bagsim = |args: &[&str]| {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_bagsim")).args(args).current_dir(&dir).output().unwrap();
        assert!(o.status.success(), "bagsim {args:?}: {}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).to_string() + String::from_utf8_lossy(&o.stderr).as_ref()
    };
    for (k, (name, s, _)) in cases().into_iter().enumerate() {
        let file = dir.join(format!("s{k}.json"));
        std::fs::write(&file, serde_json::to_string(&s).unwrap()).unwrap();
        let out = dir.join(format!("r{k}.json"));
        let f = file.to_str().unwrap();
        let mut args = vec!["run", f, "--out", out.to_str().unwrap()];
        let csv = dir.join(format!("r{k}.csv"));
        if s.family() != bagsim::registry::Family::DesktopGrid {
            args.extend(["--csv", csv.to_str().unwrap()]);
        }
        clean_text(name, &bagsim(&args));
        clean_json(name, &std::fs::read_to_string(&out).unwrap());
        if let Ok(rows) = std::fs::read_to_string(&csv) {
            clean_csv(name, &rows);
        }
        let stem = dir.join(format!("sweep{k}"));
        bagsim(&["sweep", f, "--set", "seed=1,2", "--out", stem.to_str().unwrap()]);
        clean_csv(name, &std::fs::read_to_string(stem.with_extension("csv")).unwrap());
        clean_json(name, &std::fs::read_to_string(stem.with_extension("json")).unwrap());
    }
    let _ = std::fs::remove_dir_all(&dir);
}
