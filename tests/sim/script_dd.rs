//! Your own metascheduling scheme in the data-grid family (docs/policies.md, "Data grid: site choice"): the
//! finish_time_data_aware example gives the built-in's report bit for bit; bad scripts and impossible decisions stop
//! the run with a message that names the script's line; byte-mutated scripts give a report or a message.

use crate::data_grid::{run_scenario, scenario};
use crate::script_dg::example;
use bagsim::engine::Rng;
use bagsim::family::contract::{ErrorKind, FamilyRun};
use bagsim::family::data_grid::policy::SchemePolicy;
use bagsim::family::data_grid::{DdRun, DdScenario, LocalPolicy, Scheme};
use bagsim::script::ScriptSource;
use bagsim::trace::bundled;

fn scripted(source: &str) -> SchemePolicy {
    SchemePolicy::Script(ScriptSource::new(source))
}

/// The full report and the per-job rows, wall time aside, with the built-in's name in place of the script.
fn report(s: &DdScenario, builtin: Scheme) -> String {
    let r = run_scenario(s);
    assert!(r.failure().is_none(), "{:?}", r.failure());
    let mut rep = r.report(0.0);
    rep.scenario.data_grid.scheme = builtin.into();
    format!("{}\n{}", serde_json::to_string(&rep).unwrap(), r.rows_csv().unwrap())
}

#[test]
fn the_finish_time_data_aware_example_is_the_built_in_bit_for_bit() {
    let script = example("finish_time_data_aware.rhai");
    let builtin = Scheme::FinishTimeDataAware;
    for (seed, jobs, factor, policy) in
        [(1, 500, 3.0, LocalPolicy::Conservative), (2, 400, 1.0, LocalPolicy::Easy), (3, 400, 3.0, LocalPolicy::Fcfs)]
    {
        let mut s = scenario(seed, |c| {
            c.jobs = jobs;
            c.first_job = 200 * seed as u32;
            c.runtime_factor = factor;
            c.local_policy = policy;
            c.data_mb = [10.0, 800_000.0];
        });
        s.data_grid.scheme = builtin.into();
        let want = report(&s, builtin);
        s.data_grid.scheme = scripted(&script);
        let got = report(&s, builtin);
        assert!(got == want, "seed {seed}: the scripted report differs from the built-in's");
    }
}

/// Without `overlap()`, a script that compares finishes is finish_time_no_overlap.
#[test]
fn a_script_without_overlap_moves_the_data_on_the_processors() {
    let script = example("finish_time_data_aware.rhai").replace("fn overlap() { true }", "");
    let builtin = Scheme::FinishTimeNoOverlap;
    let mut s = scenario(4, |c| {
        c.jobs = 300;
        c.runtime_factor = 3.0;
    });
    s.data_grid.scheme = builtin.into();
    let want = report(&s, builtin);
    s.data_grid.scheme = scripted(&script);
    assert!(report(&s, builtin) == want, "the script without overlap is not finish_time_no_overlap");
}

/// The run's error, which must be the script's, naming `line` and containing `words`.
fn fails(script: &str, line: u32, words: &str) -> String {
    let s = scenario(7, |c| {
        c.jobs = 50;
        c.scheme = scripted(script);
    });
    let trace = bundled::hpc2n().unwrap();
    let e = match s.data_grid.validate().and_then(|()| bagsim::family::data_grid::run_with_clock(&s, &trace, &|| 0.0)) {
        Ok(_) => panic!("{script}: ran"),
        Err(e) => e,
    };
    assert_eq!(e.kind, ErrorKind::Script, "{e}");
    assert_eq!(e.field, "data_grid.scheme.script", "{e}");
    let text = e.to_string();
    assert!(text.contains(&format!("line {line}")), "{script}: {text}");
    assert!(text.contains(words), "{script}: {text}");
    text
}

#[test]
fn bad_scripts_and_impossible_decisions_stop_the_run_at_their_line() {
    let e = fails("fn choose(view) {\n  site(5)\n}", 2, "site(5): site 5 is out of range: the grid has sites 0 to 4");
    assert!(e.contains("simulated time"), "{e}");
    // Site 4 has 32 processors; some job of the window needs more.
    fails("fn choose(view) {\n  if view.procs > 32 { site(4) } else { site(0) }\n}", 2, "site 4 has 32");
    fails("fn choose(view) {\n  view.start(-1)\n}", 2, "out of range");
    fails("fn choose(view) { 42 }", 1, "returned i64 42, not a decision");
    fails("fn overlap() { 1 }\nfn choose(view) { site(0) }", 1, "true or false");
    fails("fn choose(view) {\n  site(view.sites\n}", 3, "");
    let s = scenario(7, |c| c.scheme = scripted("fn select(view) { site(0) }"));
    assert!(s.data_grid.validate().unwrap_err().to_string().contains("defines no fn choose"));
}

/// Random byte mutations of the example: each gives a report or a message, never a panic or a hang.
#[test]
fn mutated_scheme_scripts_give_a_report_or_a_message() {
    let base = example("finish_time_data_aware.rhai").into_bytes();
    let mut rng = Rng::stream(33, "script-fuzz-dd");
    let trace = bundled::hpc2n().unwrap();
    let (mut reports, mut errors) = (0, 0);
    for case in 0..150 {
        let source = crate::script::mutate(&base, &mut rng);
        let s = scenario(case, |c| {
            c.jobs = 30;
            c.scheme = scripted(&source);
        });
        let run = s.data_grid.validate().and_then(|()| DdRun::new(&s, &trace));
        match run.map(|mut r| (r.step(bagsim::family::contract::Budget::ToEnd), r.failure())) {
            Ok((_, None)) => reports += 1,
            Ok((_, Some(e))) | Err(e) => {
                assert!(!e.to_string().is_empty(), "case {case}");
                errors += 1;
            }
        }
    }
    assert!(reports > 0 && errors > 0, "{reports} reports, {errors} errors");
}

/// The page's worker checks a data-grid script through the family contract.
#[test]
fn the_data_grid_checks_its_scheme_script() {
    use bagsim::registry::Family;
    assert_eq!(Family::DataGrid.check_script("scheme", &example("finish_time_data_aware.rhai")), Ok(()));
    let e = Family::DataGrid.check_script("scheme", "fn choose(v) {\n  site(0\n}").unwrap_err().to_string();
    assert!(e.starts_with("line 3, column 1:"), "{e}");
    let e = Family::DataGrid.check_script("local_policy", "fn choose(v) { site(0) }").unwrap_err().to_string();
    assert!(e.contains("data_grid.local_policy cannot be a script"), "{e}");
}
