//! Your own task selection in the multi-cluster family (docs/policies.md, "Task selection"): the S-BoT example gives
//! the built-in's report bit for bit, an S-U-T script S-U-T's; bad scripts and impossible decisions stop the run
//! with a message that names the script's line; byte-mutated scripts give a report or a message.

use crate::script_dg::example;
use bagsim::engine::Rng;
use bagsim::family::contract::ErrorKind;
use bagsim::family::multi_cluster::policy::selection::SelectionPolicy;
use bagsim::run;
use bagsim::scenario::McScenario;
use bagsim::script::ScriptSource;

fn scripted(source: &str) -> SelectionPolicy {
    SelectionPolicy::Script(ScriptSource::new(source))
}

/// A day at `load` on the default platform under `architecture` and `scheduling`.
fn day(seed: u64, load: f64, architecture: &str, scheduling: &str) -> McScenario {
    let mut s = McScenario { seed, ..Default::default() };
    s.workload.submission_period = 86400.0;
    s.workload.load = Some(load);
    s.architecture.kind = architecture.parse().unwrap();
    s.scheduling = scheduling.parse().unwrap();
    s
}

/// The full report as JSON, wall time aside, with the built-in's name in place of the script.
fn report(s: &McScenario, builtin: &SelectionPolicy) -> String {
    let mut r = run::run(s).unwrap_or_else(|e| panic!("{e}"));
    r.wall_time_s = 0.0;
    r.scenario.selection = builtin.clone();
    serde_json::to_string(&r).unwrap()
}

fn same_report(builtin: SelectionPolicy, script: &str) {
    for (seed, load, architecture, scheduling) in
        [(3, 0.9, "csp", "FPLT"), (4, 0.99, "sep-c", "ECT"), (5, 0.95, "fcondor", "WQR-2")]
    {
        let mut s = day(seed, load, architecture, scheduling);
        s.selection = builtin.clone();
        let want = report(&s, &builtin);
        s.selection = scripted(script);
        let got = report(&s, &builtin);
        assert!(got == want, "{} seed {seed}: the scripted report differs from the built-in's", builtin.name());
    }
}

#[test]
fn the_s_bot_example_is_s_bot_bit_for_bit() {
    same_report(SelectionPolicy::SBot, &example("s_bot.rhai"));
}

#[test]
fn an_s_u_t_script_is_s_u_t_bit_for_bit() {
    let s_u_t = "fn index() { \"per_user\" }\nfn select(view) {\n  let best = -1;\n  let least = 0.0;\n  for u in \
                 view.users {\n    let c = view.consumption(u);\n    if best < 0 || c < least { best = u; least = c; \
                 }\n  }\n  user_tasks(best)\n}";
    same_report(SelectionPolicy::SUT, s_u_t);
}

#[test]
fn an_s_u_rr_script_is_s_u_rr_bit_for_bit() {
    let s_u_rr = "fn index() { \"per_user\" }\nfn select(view) {\n  let users = view.users;\n  let last = \
                  this.last_first ?? -1;\n  let first = users[0];\n  for u in users {\n    if u > last { first = u; \
                  break; }\n  }\n  this.last_first = first;\n  one_task_per_user(last)\n}";
    same_report(SelectionPolicy::SURr, s_u_rr);
}

/// The run's error, which must be the selection script's, naming `line` and containing `words`.
fn fails(script: &str, line: u32, words: &str) -> String {
    let mut s = day(7, 0.3, "csp", "FPLT");
    s.workload.submission_period = 4.0 * 3600.0;
    s.selection = scripted(script);
    let e = match s.validate().and_then(|()| run::run(&s).map(|_| ())) {
        Ok(()) => panic!("{script}: ran"),
        Err(e) => e,
    };
    assert_eq!(e.kind, ErrorKind::Script, "{e}");
    assert_eq!(e.field, "selection.script", "{e}");
    let text = e.to_string();
    assert!(text.contains(&format!("line {line}")), "{script}: {text}");
    assert!(text.contains(words), "{script}: {text}");
    text
}

#[test]
fn bad_selection_scripts_and_impossible_decisions_stop_the_run_at_their_line() {
    let e =
        fails("fn index() { \"per_user\" }\nfn select(view) {\n  user_tasks(99999)\n}", 3, "user 99999 has no waiting");
    assert!(e.contains("simulated time"), "{e}");
    fails("fn select(view) {\n  user_tasks(0)\n}", 2, "fn index() { \"per_user\" }");
    fails("fn index() { \"per_user\" }\nfn select(view) {\n  oldest_bot()\n}", 3, "user_oldest_bot(u)");
    fails("fn index() { \"per_user\" }\nfn select(view) {\n  one_task_per_user(-5)\n}", 3, "after = -5");
    fails("fn index() { \"per_user\" }\nfn select(view) {\n  one_task_per_user(4294967295)\n}", 3, "a user id");
    fails("fn select(view) { 42 }", 1, "returned i64 42, not a decision");
    fails("fn index() { \"lifo\" }\nfn select(view) { all_tasks() }", 1, "\"fifo\" or \"per_user\"");
    fails("fn select(view) {\n  oldest_bot(\n}", 3, "");
    let mut s = day(7, 0.3, "csp", "FPLT");
    s.selection = scripted("fn choose(view) { all_tasks() }");
    assert!(s.validate().unwrap_err().to_string().contains("defines no fn select"));
}

/// `{"script": …}` reads and writes back; a built-in is written as its name.
#[test]
fn a_scripted_selection_reads_and_writes() {
    let json = serde_json::json!({"selection": {"script": example("s_bot.rhai")}, "scheduling": "ECT"});
    let s = bagsim::scenario::Scenario::from_json(&json.to_string()).unwrap();
    assert_eq!(s.multi_cluster().unwrap().selection.script(), Some(example("s_bot.rhai").as_str()));
    let again = bagsim::scenario::Scenario::from_json(&serde_json::to_string(&s).unwrap()).unwrap();
    assert_eq!(again, s);
    let plain = bagsim::scenario::Scenario::from_json(r#"{"selection": "S-U-RR"}"#).unwrap();
    assert!(serde_json::to_string(&plain).unwrap().contains(r#""selection":"S-U-RR""#));
    let e = bagsim::scenario::Scenario::from_json(r#"{"selection": "S-X"}"#).unwrap_err().to_string();
    assert!(e.contains("unknown task-selection policy") && e.contains("script"), "{e}");
}

/// Random byte mutations of the S-BoT example: each gives a report or a message, never a panic or a hang.
#[test]
fn mutated_selection_scripts_give_a_report_or_a_message() {
    let base = example("s_bot.rhai").into_bytes();
    let mut rng = Rng::stream(34, "script-fuzz-sel");
    let (mut reports, mut errors) = (0, 0);
    for case in 0..150 {
        let source = crate::script::mutate(&base, &mut rng);
        let mut s = day(case, 0.5, "csp", "FPLT");
        s.workload.submission_period = 3600.0;
        s.selection = scripted(&source);
        match s.validate().and_then(|()| run::run(&s).map(|_| ())) {
            Ok(()) => reports += 1,
            Err(e) => {
                assert!(!e.to_string().is_empty(), "case {case}");
                errors += 1;
            }
        }
    }
    assert!(reports > 0 && errors > 0, "{reports} reports, {errors} errors");
}

/// The page's worker checks a selection script through the family contract.
#[test]
fn the_multi_cluster_checks_its_selection_script() {
    use bagsim::registry::Family;
    assert_eq!(Family::MultiCluster.check_script("selection", &example("s_bot.rhai")), Ok(()));
    let e = Family::MultiCluster.check_script("selection", "fn select(v) {\n  oldest_bot(\n}").unwrap_err().to_string();
    assert!(e.starts_with("line 3, column 1:"), "{e}");
}
