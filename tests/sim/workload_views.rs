//! `--views` of `bagsim generate` and `bagsim trace`: the burstiness of [Minh10] §V checked against an independent
//! count of the HPC2N excerpt, the JSON against the library, and the output without the flag unchanged.

use bagsim::run;
use bagsim::scenario::McScenario;
use bagsim::workload::views::{views, WorkloadViews};
use std::path::PathBuf;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("bagsim-{}-views-{name}", std::process::id()))
}

fn bagsim(args: &[&str]) -> (String, String, bool) {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_bagsim")).args(args).output().unwrap();
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
        o.status.success(),
    )
}

#[test]
fn trace_views_match_an_independent_count() {
    // Expected values from a separate script over the file: the 3 145 jobs with a known run time, each at its
    // submit time + (UnixStartTime + TimeZone) mod 1 day − the local midnight before the first one; N = ⌊t_last/T⌋
    // + 1; spatial over field 8 (requested processors): TR_i for i = 1 … 128, 35 widths used.
    let out = temp("hpc2n.json");
    let file = data("hpc2n.swf");
    let (stdout, stderr, ok) =
        bagsim(&["trace", file.to_str().unwrap(), "--split-parallel", "--views", "--out", out.to_str().unwrap()]);
    assert!(ok, "{stdout}\n{stderr}");
    assert!(stdout.contains("    N intervals       16597     5533     2767     1384       58\n"), "{stdout}");
    assert!(stdout.contains("    trace jobs        0.696    0.742    0.766    0.795    0.898\n"), "{stdout}");
    // The Poisson reference of 3 145 jobs over the same N: E[H_NE] of Binomial(3 145, 1/N) counts, by the same script.
    assert!(
        stdout.contains(
            "    trace jobs        0.696    0.742    0.766    0.795    0.898\n      Poisson         0.816    0.894    \
             0.936    0.966    0.998\n"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("spatial burstiness: trace jobs 0.468 (N = 128 processors, 35 widths used)"), "{stdout}");
    assert!(stdout.contains("spatial burstiness: tasks — (N = 1: every job on one processor)"), "{stdout}");
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    std::fs::remove_file(&out).unwrap();
    let keys: Vec<&str> = json.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["bots", "candidates", "fit", "jobs", "skipped", "users", "views"]);
    let v = &json["views"];
    assert_eq!(v["bots"], 2218);
    assert_eq!(v["burstiness"].as_array().unwrap().len(), 5);
    assert_eq!(v["burstiness"][4]["tasks"]["intervals"], 58);
    assert_eq!(v["spatial"]["entropy"], serde_json::Value::Null);
    assert_eq!(v["trace_jobs"]["temporal"][0]["jobs"], 3145);
    assert_eq!(v["trace_jobs"]["spatial"]["max_processors"], 128);
    let daily: u64 = v["daily"]["bots"].as_array().unwrap().iter().map(|c| c.as_u64().unwrap()).sum();
    assert_eq!(daily, 2218);
    // The views part is the library's, field for field.
    let mut lib: serde_json::Value = v.clone();
    lib.as_object_mut().unwrap().remove("trace_jobs");
    let parsed: WorkloadViews = serde_json::from_value(lib).unwrap();
    assert_eq!(parsed.tasks, 63_578);
    // Without the flag, no views.
    let (stdout, _, ok) = bagsim(&["trace", file.to_str().unwrap(), "--split-parallel"]);
    assert!(ok);
    assert!(!stdout.contains("burstiness") && !stdout.contains("views"), "{stdout}");
}

#[test]
fn generate_views_are_the_library_views() {
    let mut s = McScenario::default();
    s.workload.submission_period = 2.0 * 86_400.0;
    let path = temp("scenario.json");
    std::fs::write(&path, serde_json::to_string(&s).unwrap()).unwrap();
    let (json, stderr, ok) = bagsim(&["generate", path.to_str().unwrap(), "--views", "--format", "json"]);
    let (text, _, text_ok) = bagsim(&["generate", path.to_str().unwrap(), "--views"]);
    let (swf, _, swf_ok) = bagsim(&["generate", path.to_str().unwrap()]);
    std::fs::remove_file(&path).unwrap();
    assert!(ok && text_ok && swf_ok, "{stderr}");
    // The same bytes as the library's views of the same workload (compared as text: serde_json's default float
    // parsing is not always correctly rounded).
    let expected = views(&run::prepare(&s).unwrap().generated.workload).unwrap();
    assert!(json.trim_end() == serde_json::to_string(&expected).unwrap(), "the CLI's views differ from the library's");
    let printed: WorkloadViews = serde_json::from_str(&json).unwrap();
    assert_eq!((printed.bots, printed.tasks), (expected.bots, expected.tasks));
    assert!(text.contains("burstiness: normalized entropy, [Minh10] Eq. 4"), "{text}");
    assert!(text.contains("    N intervals         576      192       96       48        2\n"), "{text}");
    // Without the flag: the workload, as before.
    assert!(swf.starts_with("; Version: 2.2\n"));
    assert!(!swf.contains("burstiness"));
}
