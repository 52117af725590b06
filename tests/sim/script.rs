//! Your own policy (docs/policies.md): the examples in examples/policies/ give the built-ins' reports bit for bit;
//! the sandbox stops every bad script with a message that names its line, never a panic or a hang; byte-mutated
//! scripts give a report or a message.

use bagsim::engine::Rng;
use bagsim::family::contract::ErrorKind;
use bagsim::family::multi_cluster::policy::scheduling::{SchedulingPolicy, ScriptSource};
use bagsim::run;
use bagsim::scenario::{McScenario, Scenario};

fn example(name: &str) -> String {
    let path = format!("{}/examples/policies/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn scripted(source: &str) -> SchedulingPolicy {
    SchedulingPolicy::Script(ScriptSource::new(source))
}

/// A day at `load` on the default platform under `architecture` and `selection`.
fn day(seed: u64, load: f64, architecture: &str, selection: &str) -> McScenario {
    let mut s = McScenario { seed, ..Default::default() };
    s.workload.submission_period = 86400.0;
    s.workload.load = Some(load);
    s.architecture.kind = architecture.parse().unwrap();
    s.selection = selection.parse().unwrap();
    s
}

/// The full report as JSON, wall time aside, with the policy's name in place of its script.
fn report(s: &McScenario, name: &str) -> String {
    let mut r = run::run(s).unwrap_or_else(|e| panic!("{e}"));
    r.wall_time_s = 0.0;
    r.scenario.scheduling = name.parse().unwrap();
    serde_json::to_string(&r).unwrap()
}

/// Scripted and built-in give the same report bit for bit; returns the mean task wait, s.
fn same_report(mut s: McScenario, builtin: &str, script: &str) -> f64 {
    s.scheduling = builtin.parse().unwrap();
    let want = report(&s, builtin);
    s.scheduling = scripted(script);
    let got = report(&s, builtin);
    assert!(got == want, "{builtin}: the scripted report differs from the built-in's");
    let v: serde_json::Value = serde_json::from_str(&want).unwrap();
    v.pointer("/metrics/tasks/wait/mean").and_then(serde_json::Value::as_f64).expect("mean wait")
}

#[test]
fn the_fplt_example_is_fplt_bit_for_bit() {
    let fplt = example("fplt.rhai");
    let mut waited = 0.0f64;
    for (seed, load, architecture, selection) in
        [(3, 0.9, "csp", "S-T"), (4, 0.99, "sep-c", "S-BoT"), (5, 0.95, "fcondor", "S-U-RR")]
    {
        waited = waited.max(same_report(day(seed, load, architecture, selection), "FPLT", &fplt));
    }
    assert!(waited > 60.0, "no scenario made tasks wait: {waited} s");
}

#[test]
fn the_ect_example_is_ect_bit_for_bit() {
    let ect = example("ect.rhai");
    let mut waited = 0.0f64;
    for (seed, load, architecture, selection) in
        [(3, 0.9, "csp", "S-T"), (4, 0.99, "sep-c", "S-BoT"), (5, 0.95, "fcondor", "S-U-RR")]
    {
        let mut s = day(seed, load, architecture, selection);
        // Estimates off by up to 50% make ECT queue tasks behind clusters that do not free when it expected.
        s.inaccuracy = 50.0;
        waited = waited.max(same_report(s, "ECT", &ect));
    }
    assert!(waited > 60.0, "no scenario made tasks wait: {waited} s");
}

/// The scenario form `{"script": "…"}` reads, writes back as it was read, and runs through the registry.
#[test]
fn a_scripted_scenario_reads_writes_and_runs() {
    let fplt = example("fplt.rhai");
    let json = serde_json::json!({
        "seed": 3,
        "workload": {"load": 0.9, "submission_period": 86400},
        "scheduling": {"script": fplt},
    })
    .to_string();
    let s = Scenario::from_json(&json).unwrap();
    assert_eq!(s.multi_cluster().unwrap().scheduling.script(), Some(fplt.as_str()));
    let again = Scenario::from_json(&serde_json::to_string_pretty(&s).unwrap()).unwrap();
    assert_eq!(again, s);
    let r = bagsim::registry::run_any(&s).unwrap();
    let bagsim::registry::AnyReport::MultiCluster(r) = r else { panic!("multi-cluster") };
    assert!(r.metrics.tasks.finished > 0);
    // A built-in scenario writes its policy as its name, as before.
    let plain = Scenario::from_json(r#"{"scheduling": "ECT"}"#).unwrap();
    assert!(serde_json::to_string_pretty(&plain).unwrap().contains(r#""scheduling": "ECT""#));
}

/// A tiny run: a few hours at low load on the default platform.
fn tiny(script: &str) -> McScenario {
    let mut s = day(7, 0.3, "csp", "S-T");
    s.workload.submission_period = 4.0 * 3600.0;
    s.scheduling = scripted(script);
    s
}

/// The run's error, which must be the script's, naming `line` and containing `words`.
fn fails(script: &str, line: u32, words: &str) -> String {
    let s = tiny(script);
    let e = match s.validate().and_then(|()| run::run(&s).map(|_| ())) {
        Ok(()) => panic!("{script}: ran"),
        Err(e) => e,
    };
    assert_eq!(e.kind, ErrorKind::Script, "{e}");
    assert_eq!(e.field, "scheduling.script", "{e}");
    let text = e.to_string();
    assert!(text.contains(&format!("line {line}")), "{script}: {text}");
    assert!(text.contains(words), "{script}: {text}");
    text
}

#[test]
fn the_sandbox_stops_bad_scripts_at_their_line() {
    // An endless loop: the operation budget of one decision. Rhai gives the budget's and the limits' errors the
    // position of the outermost call, so the message names the line of the function the simulation called.
    let e = fails("// a comment\nfn choose(e, v) {\n  let n = 0;\n  loop { n += 1; }\n}", 2, "operations");
    assert!(e.contains("simulated time"), "{e}");
    // A huge string, a huge array: the limits on data.
    fails("fn choose(e, v) {\n  let s = \"x\";\n  loop { s += s; }\n}", 1, "over the limit");
    fails("fn choose(e, v) {\n  let a = [];\n  loop { a.push(1); }\n}", 1, "over the limit");
    // Endless recursion: the call depth.
    fails("fn deeper(n) { deeper(n + 1) }\nfn choose(e, v) {\n  deeper(0)\n}", 2, "nested deeper");
    // A runtime error.
    fails("fn choose(e, v) {\n  let a = [1, 2];\n  a[5]\n}", 3, "out of bounds");
    // Garbage returned.
    fails("fn choose(e, v) { 42 }", 1, "returned i64 42, not a decision");
    // A syntax error, before the run.
    fails("fn choose(e, v) {\n  start(v.fastest_free()\n}", 3, "");
    // No choose at all.
    let s = tiny("fn order() { \"fcfs\" }");
    assert!(s.validate().unwrap_err().to_string().contains("defines no fn choose"));
    // A declaration out of its allowed values.
    fails(
        "fn order() { \"biggest\" }\nfn choose(e, v) { wait() }",
        1,
        "\"fcfs\", \"largest_first\" or \"shortest_first\"",
    );
    fails(
        "fn estimate() { 3 }\nfn choose(e, v) { wait() }",
        1,
        "returned i64 3; allowed: \"known\", \"predicted\" or \"none\"",
    );
}

#[test]
fn impossible_decisions_stop_the_run_with_the_decision() {
    fails("fn choose(e, v) {\n  start(99)\n}", 2, "start(99): cluster 99 is out of range");
    // Under sep-c each RM manages its own cluster only.
    let mut s = tiny("fn choose(e, v) {\n  start(if v.managed[0] == 0 { 1 } else { 0 })\n}");
    s.architecture.kind = "sep-c".parse().unwrap();
    let e = run::run(&s).map(|_| ()).unwrap_err().to_string();
    assert!(e.contains("line 2") && e.contains("is not managed"), "{e}");
    // The slowest cluster is full once the fastest free one is not it.
    fails(
        "fn choose(e, v) {\n  let slow = v.managed[v.managed.len() - 1];\n  if v.free_count(slow) > 0 { start(slow) } \
         else { start(slow) }\n}",
        3,
        "has no free processor",
    );
    fails("fn choose(e, v) {\n  reserve(v.fastest_free())\n}", 2, "define fn uses_end_estimates");
    fails("fn choose(e, v) {\n  v.free_at(0)\n}", 2, "uses_end_estimates");
}

/// The round-robin example of docs/policies.md ("State") runs, and its state moves on.
#[test]
fn the_documented_state_example_runs() {
    let rr = "fn choose(estimate, view) {\n    let free = view.free;\n    let i = (this.next ?? 0) % free.len();\n    \
              this.next = i + 1;\n    start(free[i])\n}";
    let fplt = run::run(&tiny(&example("fplt.rhai"))).unwrap();
    let r = run::run(&tiny(rr)).unwrap();
    assert_eq!(r.metrics.tasks.finished, r.metrics.tasks.tasks);
    assert_eq!(r.metrics.tasks.tasks, fplt.metrics.tasks.tasks);
}

/// `bagsim run` reads a script file, runs it, and says a script's error with exit code 2 (it does not compile), 4
/// (it stopped its run) or 3 (its file is missing); `bagsim sweep` takes a script file as a value of the scheduling
/// axis.
#[test]
fn the_cli_runs_and_sweeps_a_script_file_and_reports_its_errors() {
    let dir = std::env::temp_dir().join(format!("bagsim-script-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("fplt.rhai"), example("fplt.rhai")).unwrap();
    std::fs::write(dir.join("broken.rhai"), "fn choose(e, v) {\n  start(v.fastest_free()\n}\n").unwrap();
    let scenario = |file: &str| {
        format!(
            concat!(
                r#"{{"seed": 3, "workload": {{"load": 0.5, "submission_period": 14400}}, "scheduling": "#,
                r#"{{"script_file": "{file}"}}}}"#
            ),
            file = file
        )
    };
    std::fs::write(dir.join("good.json"), scenario("fplt.rhai")).unwrap();
    std::fs::write(dir.join("bad.json"), scenario("broken.rhai")).unwrap();
    let bagsim = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_bagsim")).args(args).current_dir(&dir).output().unwrap()
    };
    let ok = bagsim(&["run", "good.json", "--out", "report.json"]);
    assert!(ok.status.success(), "{}", String::from_utf8_lossy(&ok.stderr));
    let written = std::fs::read_to_string(dir.join("report.json")).unwrap();
    assert!(written.contains("fn choose(estimate, view)"), "the report's scenario carries the source");
    // A sweep takes the script as one more value of the scheduling axis; FPLT's row and its script's are the same.
    let sweep = bagsim(&["sweep", "good.json", "--set", "scheduling=FPLT,fplt.rhai", "--out", "sweep", "--jobs", "1"]);
    assert!(sweep.status.success(), "{}", String::from_utf8_lossy(&sweep.stderr));
    let csv = std::fs::read_to_string(dir.join("sweep.csv")).unwrap();
    let wall = csv.lines().next().unwrap().split(',').position(|c| c == "wall_time_s").expect("a wall time column");
    let row = |line: &str| -> Vec<String> {
        line.split(',').enumerate().filter(|&(i, _)| i != 0 && i != wall).map(|(_, v)| v.to_string()).collect()
    };
    let rows: Vec<Vec<String>> = csv.lines().skip(1).map(row).collect();
    assert_eq!(rows.len(), 2, "{csv}");
    assert_eq!(rows[0], rows[1], "{csv}");
    assert!(csv.contains("\nFPLT,") && csv.contains("\nfplt.rhai,"), "{csv}");
    let bad = bagsim(&["run", "bad.json"]);
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("scheduling.script: line 3, column 1"), "{err}");
    // A script that compiles but decides the impossible stops its run on the way: exit code 4, with its line.
    std::fs::write(dir.join("wild.rhai"), "fn choose(e, v) {\n  start(99)\n}\n").unwrap();
    std::fs::write(dir.join("wild.json"), scenario("wild.rhai")).unwrap();
    let wild = bagsim(&["run", "wild.json", "--out", "wild-report.json"]);
    let err = String::from_utf8_lossy(&wild.stderr);
    assert_eq!(wild.status.code(), Some(4), "{err}");
    assert!(err.contains("line 2") && err.contains("start(99)"), "{err}");
    assert!(!dir.join("wild-report.json").exists(), "a stopped run writes no report");
    // A script file that is not there is a file error: exit code 3, naming it.
    std::fs::write(dir.join("lost.json"), scenario("nowhere.rhai")).unwrap();
    let lost = bagsim(&["run", "lost.json"]);
    let err = String::from_utf8_lossy(&lost.stderr);
    assert_eq!(lost.status.code(), Some(3), "{err}");
    assert!(err.contains("lost.json: script_file nowhere.rhai"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `base` with one to four bytes replaced, inserted or removed, drawn from the characters scripts are made of.
pub fn mutate(base: &[u8], rng: &mut Rng) -> String {
    let mut bytes = base.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(bytes.len() as u64) as usize;
        const BYTES: &[u8] = b" (){}[]#.,;:\"'=<>!+-*/%01279_abcdefghilnorstuvwxyz\n";
        let byte = BYTES[rng.below(BYTES.len() as u64) as usize];
        match rng.below(3) {
            0 => bytes[at] = byte,
            1 => bytes.insert(at, byte),
            _ => {
                bytes.remove(at);
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Random byte mutations of the FPLT example: each gives a report or a message, never a panic or a hang.
#[test]
fn mutated_scripts_give_a_report_or_a_message() {
    let base = example("fplt.rhai").into_bytes();
    let mut rng = Rng::stream(31, "script-fuzz");
    let (mut reports, mut errors) = (0, 0);
    for case in 0..200 {
        let source = mutate(&base, &mut rng);
        let mut s = tiny(&source);
        s.workload.submission_period = 3600.0;
        match s.validate().and_then(|()| run::run(&s).map(|_| ())) {
            Ok(()) => reports += 1,
            Err(e) => {
                assert!(!e.to_string().is_empty(), "case {case}");
                errors += 1;
            }
        }
    }
    assert_eq!(reports + errors, 200);
    assert!(reports > 0 && errors > 0, "{reports} reports, {errors} errors");
}

/// What the page's worker answers for the script editor (`Family::check_script`, through the family contract):
/// the FPLT example compiles, a broken one fails at its line, and only a key a family lets be a script is checked.
#[test]
fn a_family_checks_the_scripts_it_allows() {
    use bagsim::registry::Family;
    let fplt = example("fplt.rhai");
    assert_eq!(Family::MultiCluster.check_script("scheduling", &fplt), Ok(()));
    let e = Family::MultiCluster.check_script("scheduling", "fn choose(e, v) {\n  start(0\n}").unwrap_err().to_string();
    assert!(e.starts_with("line 3, column 1:"), "{e}");
    let e = Family::MultiCluster.check_script("selection", &fplt).unwrap_err().to_string();
    assert!(e.contains("defines no fn select"), "{e}");
    let e = Family::MultiCluster.check_script("architecture", &fplt).unwrap_err().to_string();
    assert!(e.contains("multi_cluster.architecture cannot be a script"), "{e}");
    let e = Family::DesktopGrid.check_script("bot_selection", &fplt).unwrap_err().to_string();
    assert!(e.contains("defines no fn select"), "{e}");
}
