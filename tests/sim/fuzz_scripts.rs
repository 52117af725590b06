//! Scripts that wait, end their caller or grow their data, through the built binary in every family (the issue
//! "Trust, round three"): each is refused when the scenario is read (exit 2) or stops its run with the call's budget
//! (exit 4), in `run`, `sweep --plan` and `figure --base`; never a panic, a hang or an hour's sleep. And the
//! messages of a scenario that JSON cannot read name the field. Seeded, so a failure reproduces;
//! `BAGSIM_CLI_FUZZ=200 cargo test --release --test sim fuzz_scripts -- --nocapture` runs more and prints the count
//! per kind.

use super::cli_edges::{bagsim, clean, dir, text};
use bagsim::engine::Rng;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// Cases in the test command.
const CASES: usize = 60;

/// What a hostile or careless script does inside a function, and whether the scenario is refused when read, the
/// script not compiling (a disabled symbol, a closure). A function the sandbox does not have (`sleep`, `exit`) is
/// an error when it is called, as any unknown function in Rhai.
const BODIES: [(&str, &str, bool); 12] = [
    ("sleep for ever", "sleep(1e20);", false),
    ("sleep an hour", "sleep(3600);", false),
    ("exit", "exit(3);", false),
    ("eval", "eval(\"1\");", true),
    ("a function pointer", "let f = Fn(\"abs\");", true),
    ("a closure", "let a = [1, 2]; let b = a.map(|x| x + 1);", true),
    ("pushes without end", "let a = []; loop { a.push(1); }", false),
    ("pushes in the state", "this.a = []; for i in 0..1000000 { this.a.push(i); }", false),
    ("contains in a loop", "let a = []; a.pad(1990, 0); loop { let r = a.contains(-1); }", false),
    ("an array as text in a loop", "let a = []; a.pad(1990, 0); loop { let t = `${a}`; }", false),
    ("doubles an array", "let a = [1]; loop { a += a; }", false),
    ("doubles a string", "let s = \"ab\"; loop { s += s; }", false),
];

/// A scenario of a family whose decision (or, with `declaration`, a declaration called while the scenario is
/// checked) runs `body` first.
fn scenario(family: usize, body: &str, declaration: bool) -> Value {
    let (before, during) = if declaration { (body, "") } else { ("", body) };
    match family {
        0 => json!({"workload": {"submission_period": 3600}, "scheduling": {"script":
            format!("fn order() {{ {before} \"fcfs\" }}\nfn choose(e, v) {{ {during} start(v.fastest_free()) }}")}}),
        1 => json!({"family": "desktop_grid", "desktop_grid": {"bots": 4, "bot_selection": {"script":
            format!("fn uses_idle_times() {{ {before} false }}\nfn select(view) {{ {during} let r = view.ready; \
                     if r.is_empty() {{ idle() }} else {{ bot(r[0]) }} }}")}}}),
        _ => json!({"family": "data_grid", "data_grid": {"jobs": 20, "scheme": {"script":
            format!("fn overlap() {{ {before} true }}\nfn choose(view) {{ {during} site(0) }}")}}}),
    }
}

#[test]
fn scripts_that_wait_or_grow_are_refused_or_stopped() {
    let n: usize = std::env::var("BAGSIM_CLI_FUZZ").ok().and_then(|v| v.parse().ok()).unwrap_or(CASES);
    let mut rng = Rng::new(41);
    let d = dir("fuzz-scripts");
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for case in 0..n {
        let (what, body, refused) = BODIES[rng.below(BODIES.len() as u64) as usize];
        let family = rng.below(3) as usize;
        let declaration = rng.below(2) == 0;
        std::fs::write(d.join("s.json"), scenario(family, body, declaration).to_string()).unwrap();
        let command: &[&str] = match rng.below(3) {
            0 => &["run", "s.json"],
            1 => &["sweep", "s.json", "--set", "seed=1,2", "--plan", "2", "--out", "p"],
            _ if family == 0 => &["figure", "multi_cluster", "fig3", "--base", "s.json", "--seeds", "1", "--out", "f"],
            _ => &["run", "s.json", "--seed", "7"],
        };
        let label = format!(
            "case {case}: {what} in family {family} ({}) via {command:?}",
            ["decision", "declaration"][usize::from(declaration)]
        );
        let o = bagsim(&d, command);
        clean(&label, &o);
        let t = text(&o);
        // What cannot compile, and anything a declaration does while the scenario is checked, is refused as input;
        // a decision that passes its budget stops the run.
        let want = if refused || declaration { 2 } else { 4 };
        let planned = command[0] == "sweep" && !refused && !declaration;
        if planned {
            // Planning runs no decision: the plan is written.
            assert_eq!(o.status.code(), Some(0), "{label}\n{t}");
        } else {
            assert_eq!(o.status.code(), Some(want), "{label}\n{t}");
            assert!(t.contains("line ") && t.contains("script"), "{label}: the message names the script's line\n{t}");
        }
        *counts.entry(what.to_string()).or_default() += 1;
    }
    eprintln!("scripts that wait or grow: {n} cases, by kind {counts:?}");
}

#[test]
fn a_scenario_json_cannot_read_names_its_field() {
    let d = dir("json-fields");
    for (input, field) in [
        (r#"{"workload": {"load": 1e400}}"#, "workload.load: number out of range (line 1, column 27)"),
        (r#"{"family": "desktop_grid", "desktop_grid": {"bots": 1e999}}"#, "desktop_grid.bots: number out of range"),
        (r#"{"family": "desktop_grid", "desktop_grid": {"bots": 2}, "workload": {"load": 1e999}}"#, "workload.load:"),
        ("{\"workload\": {\n  \"load\": 0.5,\n  \"max_size\": [1, }}", "workload.max_size"),
        (
            r#"{"platform": {"clusters": [{"name": "a", "processors": 4, "speed": 1}, {"speed": -}]}}"#,
            "platform.clusters[1]",
        ),
    ] {
        std::fs::write(d.join("s.json"), input).unwrap();
        let o = bagsim(&d, &["run", "s.json"]);
        clean(input, &o);
        assert_eq!(o.status.code(), Some(2), "{input}: {}", text(&o));
        assert!(text(&o).starts_with(&format!("bagsim: s.json: {field}")), "{input}: {}", text(&o));
    }
}

#[test]
fn control_characters_are_never_printed_raw() {
    let d = dir("control-chars");
    std::fs::write(d.join("s.json"), r#"{"workload": {"lo\u0000ad": 0.5, "x\u001b[31m": 1}}"#).unwrap();
    let o = bagsim(&d, &["run", "s.json"]);
    clean("a NUL in a key", &o);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(!t.chars().any(|c| c.is_control() && c != '\n'), "{t:?}");
    assert!(t.contains("lo\\u{0}ad"), "{t}");
    let o = bagsim(&d, &["sweep", "s.json", "--set", "scheduling=a\u{1}b"]);
    clean("a control character in a --set value", &o);
    assert!(!text(&o).chars().any(|c| c.is_control() && c != '\n'), "{:?}", text(&o));
}
