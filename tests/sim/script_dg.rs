//! Your own BoT selection in the desktop-grid family (docs/policies.md, "Desktop grid"): the RR-NRF example gives
//! the built-in's report bit for bit; bad scripts and impossible decisions stop the run with a message that names
//! the script's line; byte-mutated scripts give a report or a message, never a panic.

use bagsim::engine::Rng;
use bagsim::family::contract::ErrorKind;
use bagsim::family::desktop_grid::policy::{BotPolicy, BotSelection};
use bagsim::family::desktop_grid::workload::Mix;
use bagsim::family::desktop_grid::{self, DgConfig, DgScenario};
use bagsim::script::ScriptSource;

pub fn example(name: &str) -> String {
    let path = format!("{}/examples/policies/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn scripted(source: &str) -> BotPolicy {
    BotPolicy::Script(ScriptSource::new(source))
}

/// A small desktop grid: `bots` BoTs of `mix` at `load`, medium availability (machines fail, replicas die).
fn grid(seed: u64, mix: Mix, load: f64, bots: u32) -> DgScenario {
    let cfg = DgConfig {
        mix,
        load,
        bots,
        availability: bagsim::family::desktop_grid::availability::AvailabilityLevel::Medium,
        application_size: 360_000.0,
        ..Default::default()
    };
    DgScenario::new(seed, cfg)
}

/// The full report as JSON, wall time aside, with the built-in's name in place of the script.
fn report(s: &DgScenario, builtin: BotSelection) -> (String, desktop_grid::DgReport) {
    let mut r = desktop_grid::run(s).unwrap_or_else(|e| panic!("{e}"));
    r.wall_time_s = 0.0;
    r.scenario.desktop_grid.bot_selection = builtin.into();
    (serde_json::to_string(&r).unwrap(), r)
}

#[test]
fn the_rr_nrf_example_is_rr_nrf_bit_for_bit() {
    let rr_nrf = example("rr_nrf.rhai");
    let mut most_queued = 0u64;
    for (seed, mix, load) in [(1, Mix::AllS, 0.9), (2, Mix::Uniform, 0.75), (3, Mix::AllM, 1.2), (4, Mix::AllS, 0.5)] {
        let mut s = grid(seed, mix, load, 25);
        s.desktop_grid.bot_selection = BotSelection::RrNrf.into();
        let (want, r) = report(&s, BotSelection::RrNrf);
        s.desktop_grid.bot_selection = scripted(&rr_nrf);
        let (got, _) = report(&s, BotSelection::RrNrf);
        assert!(got == want, "seed {seed} {mix:?} at {load}: the scripted report differs from the built-in's");
        assert!(r.metrics.counters.replicas_killed > 0, "seed {seed}: no replica died");
        most_queued = most_queued.max(r.metrics.series.iter().map(|x| u64::from(x.bots_in_system)).max().unwrap());
    }
    assert!(most_queued >= 3, "BoTs never shared the grid: at most {most_queued} at once");
}

/// A LongIdle script (the ready BoT whose candidate task has been idle longest, ties to the oldest) gives the
/// built-in LongIdle's report bit for bit: the idle times it reads are the ones the built-in compares.
#[test]
fn a_long_idle_script_is_long_idle_bit_for_bit() {
    let long_idle =
        "fn uses_idle_times() { true }\nfn select(view) {\n  let best = -1;\n  let longest = 0.0;\n  for b in \
         view.ready {\n    let idle = view.longest_idle(b);\n    if best < 0 || idle > longest { best = b; longest = \
         idle; }\n  }\n  if best < 0 { idle() } else { bot(best) }\n}";
    for (seed, mix, load) in [(1, Mix::AllS, 0.9), (3, Mix::AllM, 1.2)] {
        let mut s = grid(seed, mix, load, 25);
        s.desktop_grid.bot_selection = BotSelection::LongIdle.into();
        let (want, _) = report(&s, BotSelection::LongIdle);
        s.desktop_grid.bot_selection = scripted(long_idle);
        let (got, _) = report(&s, BotSelection::LongIdle);
        assert!(got == want, "seed {seed} {mix:?} at {load}: the scripted report differs from LongIdle's");
    }
    fails("fn select(view) {\n  for b in view.bots { view.longest_idle(b); }\n  idle()\n}", 2, "uses_idle_times");
}

/// The scenario form `{"script": "…"}` reads, writes back as it was read, and a built-in is still its name.
#[test]
fn a_scripted_bot_selection_reads_and_writes() {
    let rr_nrf = example("rr_nrf.rhai");
    let json =
        serde_json::json!({"family": "desktop_grid", "desktop_grid": {"bots": 5, "bot_selection": {"script": rr_nrf}}});
    let s = bagsim::scenario::Scenario::from_json(&json.to_string()).unwrap();
    let text = serde_json::to_string_pretty(&s).unwrap();
    assert_eq!(bagsim::scenario::Scenario::from_json(&text).unwrap(), s);
    let r = bagsim::registry::run_any(&s).unwrap();
    let bagsim::registry::AnyReport::DesktopGrid(r) = r else { panic!("desktop grid") };
    assert_eq!(r.metrics.finished_bots, 5);
    let plain = serde_json::json!({"family": "desktop_grid", "desktop_grid": {"bot_selection": "rr"}});
    let plain = bagsim::scenario::Scenario::from_json(&plain.to_string()).unwrap();
    assert!(serde_json::to_string(&plain).unwrap().contains(r#""bot_selection":"rr""#));
    let bad = serde_json::json!({"family": "desktop_grid", "desktop_grid": {"bot_selection": "rr-nrf"}});
    let e = bagsim::scenario::Scenario::from_json(&bad.to_string()).unwrap_err().to_string();
    assert!(e.contains("unknown BoT selection policy") && e.contains("script"), "{e}");
}

/// The run's error, which must be the script's, naming `line` and containing `words`.
fn fails(script: &str, line: u32, words: &str) -> String {
    let mut s = grid(7, Mix::AllM, 0.9, 6);
    s.desktop_grid.bot_selection = scripted(script);
    let e = match s.desktop_grid.validate().and_then(|()| desktop_grid::run(&s).map(|_| ())) {
        Ok(()) => panic!("{script}: ran"),
        Err(e) => e,
    };
    assert_eq!(e.kind, ErrorKind::Script, "{e}");
    assert_eq!(e.field, "desktop_grid.bot_selection.script", "{e}");
    let text = e.to_string();
    assert!(text.contains(&format!("line {line}")), "{script}: {text}");
    assert!(text.contains(words), "{script}: {text}");
    text
}

#[test]
fn bad_scripts_and_impossible_decisions_stop_the_run_at_their_line() {
    let e = fails("fn select(view) {\n  bot(99)\n}", 2, "bot(99): BoT 99 is out of range");
    assert!(e.contains("simulated time"), "{e}");
    fails("fn select(view) {\n  bot(-1)\n}", 2, "out of range");
    // BoT 5 arrives after BoT 0.
    fails("fn select(view) {\n  bot(5)\n}", 2, "not in the queue: it arrives at");
    // Once BoT 0 has a replica of each task (RepThresh 2: two each), it cannot take another.
    fails("fn select(view) {\n  if view.bots.len() > 0 { bot(view.bots[0]) } else { idle() }\n}", 2, "RepThresh");
    fails("fn select(view) {\n  view.running(3)\n}", 2, "not in the queue");
    fails("fn select(view) { 42 }", 1, "returned i64 42, not a decision");
    fails("fn select(view) {\n  loop { }\n}", 1, "operations");
    fails("fn select(view) {\n  bot(view.bots[0]\n}", 3, "");
    let mut s = grid(7, Mix::AllM, 0.9, 6);
    s.desktop_grid.bot_selection = scripted("fn choose(view) { idle() }");
    assert!(s.desktop_grid.validate().unwrap_err().to_string().contains("defines no fn select"));
}

/// Random byte mutations of the RR-NRF example: each gives a report or a message, never a panic or a hang.
#[test]
fn mutated_bot_selection_scripts_give_a_report_or_a_message() {
    let base = example("rr_nrf.rhai").into_bytes();
    let mut rng = Rng::stream(32, "script-fuzz-dg");
    let (mut reports, mut errors) = (0, 0);
    for case in 0..150 {
        let source = crate::script::mutate(&base, &mut rng);
        let mut s = grid(case, Mix::AllM, 0.9, 4);
        s.desktop_grid.bot_selection = scripted(&source);
        match s.desktop_grid.validate().and_then(|()| desktop_grid::run(&s).map(|_| ())) {
            Ok(()) => reports += 1,
            Err(e) => {
                assert!(!e.to_string().is_empty(), "case {case}");
                errors += 1;
            }
        }
    }
    assert!(reports > 0 && errors > 0, "{reports} reports, {errors} errors");
}

/// The page's worker checks a desktop-grid script through the family contract.
#[test]
fn the_desktop_grid_checks_its_bot_selection_script() {
    use bagsim::registry::Family;
    assert_eq!(Family::DesktopGrid.check_script("bot_selection", &example("rr_nrf.rhai")), Ok(()));
    let e = Family::DesktopGrid.check_script("bot_selection", "fn select(v) {\n  bot(0\n}").unwrap_err().to_string();
    assert!(e.starts_with("line 3, column 1:"), "{e}");
    let e = Family::DesktopGrid.check_script("mix", "fn select(v) { idle() }").unwrap_err().to_string();
    assert!(e.contains("desktop_grid.mix cannot be a script"), "{e}");
}
