//! Bad input never costs a panic: scenarios of every family with values drawn inside, at the edge of and beyond
//! their documented ranges, and mutated lines of a real log, are each either refused with a message that names a
//! field, or run (to a bounded number of events) with their invariants kept. Seeded, so a failure reproduces.

use bagsim::engine::Rng;
use bagsim::family::contract::{Budget, FamilyRun};
use bagsim::registry::AnyRun;
use bagsim::scenario::Scenario;
use bagsim::trace::{bundled, import};
use serde_json::{json, Value};

/// Values a number field may be given: mostly ordinary ones, sometimes edges and nonsense (one field in 20, so that
/// about half the scenarios hold none and run).
fn number(rng: &mut Rng, ordinary: &[f64]) -> Value {
    match rng.below(120) {
        0 => json!(-1.0),
        1 => json!(0.0),
        2 => json!(1e308),
        3 => json!(-1e-300),
        4 => json!("text"),
        5 => Value::Null,
        _ => json!(ordinary[rng.below(ordinary.len() as u64) as usize]),
    }
}

/// A whole-number field: mostly ordinary, sometimes an edge or nonsense.
fn integer(rng: &mut Rng, ordinary: &[u64]) -> Value {
    match rng.below(120) {
        0 => json!(-1),
        1 => json!(0),
        2 => json!(u64::MAX),
        3 => json!(1.5),
        4 => json!("text"),
        5 => Value::Null,
        _ => json!(ordinary[rng.below(ordinary.len() as u64) as usize]),
    }
}

/// A name field: mostly a valid name, sometimes a wrong one or a value of another kind.
fn name(rng: &mut Rng, valid: &[&str]) -> Value {
    match rng.below(80) {
        0 => json!("no_such_name"),
        1 => json!(5),
        2 => Value::Null,
        3 => json!("x".repeat(10_000)),
        _ => json!(valid[rng.below(valid.len() as u64) as usize]),
    }
}

fn scenario(rng: &mut Rng) -> Value {
    let seed = rng.below(1000);
    match rng.below(3) {
        0 => json!({
            "seed": seed,
            "workload": {
                "load": number(rng, &[0.1, 0.5, 0.9]),
                "submission_period": number(rng, &[3600.0, 43_200.0, 86_400.0]),
                "mean_runtime": number(rng, &[60.0, 600.0]),
                "max_size": integer(rng, &[1, 50]),
                "arrival_pattern": name(rng, &["realistic", "all_at_zero", "evenly_spread"]),
            },
            "platform": {"clusters": [{
                "name": "a",
                "processors": integer(rng, &[1, 16, 64]),
                "speed": number(rng, &[1.0, 1.5])
            }]},
            "scheduling": name(rng, &["ECT", "FPLT", "RR", "WQR-2", "DFPLT", "STFR", "FPF"]),
            "selection": name(rng, &["S-T", "S-BoT", "S-U-RR"]),
            "architecture": {"kind": name(rng, &["sep-c", "csp", "fcondor"])},
            "inaccuracy": number(rng, &[0.0, 50.0, 1000.0]),
        }),
        1 => json!({
            "seed": seed,
            "family": "desktop_grid",
            "desktop_grid": {
                "bots": integer(rng, &[1, 5, 20]),
                "load": number(rng, &[0.3, 0.75, 0.95, 1.5]),
                "mix": name(rng, &["all_vs", "short", "uniform"]),
                "availability": name(rng, &["high", "low", "always_up"]),
                "bot_selection": name(rng, &["fcfs_excl", "rr_nrf", "long_idle"]),
                "application_size": number(rng, &[36_000.0, 360_000.0]),
                "checkpoint_period": number(rng, &[60.0, 1800.0]),
                "horizon": number(rng, &[86_400.0, 864_000.0]),
            },
        }),
        _ => json!({
            "seed": seed,
            "family": "data_grid",
            "data_grid": {
                "jobs": integer(rng, &[1, 50, 300]),
                "first_job": integer(rng, &[0, 1000, 3144, 5000]),
                "data_share": number(rng, &[0.0, 0.5, 1.0]),
                "data_mb": [number(rng, &[10.0]), number(rng, &[10_000.0, 800_000.0])],
                "runtime_factor": number(rng, &[1.0, 3.0]),
                "sites": [integer(rng, &[1, 64, 130]), integer(rng, &[32])],
                "scheme": name(rng, &["start_time_no_data_aware", "finish_time_no_overlap", "finish_time_data_aware"]),
                "backfill_rule": name(rng, &["data_aware", "data_arrived"]),
                "local_policy": name(rng, &["conservative", "easy", "fcfs"]),
                "walltime": name(rng, &["run_to_log", "kill"]),
                "dispatch_delay": number(rng, &[0.0, 30.0]),
            },
        }),
    }
}

/// Whether a report's part holds no null and no −0 (README, "Undefined numbers").
fn numbers_only(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Number(n) => !(n.as_f64() == Some(0.0) && n.to_string().starts_with('-')),
        Value::Array(a) => a.iter().all(numbers_only),
        Value::Object(m) => m.values().all(numbers_only),
        _ => true,
    }
}

#[test]
fn random_scenarios_are_refused_by_name_or_run_with_their_invariants() {
    let mut rng = Rng::stream(17, "test.fuzz");
    let (mut refused, mut ran) = (0, 0);
    for case in 0..400 {
        let text = scenario(&mut rng).to_string();
        let parsed = Scenario::from_json(&text);
        let built = parsed.clone().and_then(|s| AnyRun::build(&s, None));
        let mut run = match built {
            Err(e) => {
                refused += 1;
                assert!(!e.field.is_empty() && !e.message.is_empty(), "case {case}: an empty refusal for {text}");
                assert!(e.message.len() < 2_000, "case {case}: a message of {} bytes", e.message.len());
                continue;
            }
            Ok(run) => run,
        };
        ran += 1;
        let over = run.step(Budget::Events(200_000));
        let h = run.header();
        // A run that ended took no more than its budget said (docs/budget.md): its estimate bounds its events (a few
        // thousand are below any budget).
        let estimate = bagsim::registry::estimate(&parsed.expect("it ran"), None);
        assert!(
            !over || h.events as f64 <= 4.0 * estimate.events + 10_000.0,
            "case {case}: {} events, estimated {:.0} for {text}",
            h.events,
            estimate.events
        );
        assert!(h.finished_tasks <= h.tasks && h.now.is_finite() && h.now >= 0.0, "case {case}: {h:?} for {text}");
        let _ = run.take_detail();
        let report = run.report(0.0);
        // The report serialises with numbers only: an undefined mean is left out (README, "Undefined numbers").
        let json: Value = serde_json::from_str(&report.to_json().expect("a report serialises")).expect("JSON");
        assert!(numbers_only(&json["metrics"]), "case {case}: a null or −0 in the metrics of {text}");
        assert!(report.wall_time_s().is_finite() && report.end_time().is_finite(), "case {case}: {text}");
    }
    // Both outcomes occur, or the generator tests less than it claims.
    assert!(refused > 50 && ran > 50, "refused {refused}, ran {ran}");
}

#[test]
fn mutated_lines_of_a_real_log_are_skipped_by_name_or_run() {
    let log = std::str::from_utf8(bundled::HPC2N_SWF).expect("the log is text");
    let lines: Vec<&str> = log.lines().collect();
    let mut rng = Rng::stream(23, "test.fuzz-trace");
    let junk = ["-1", "1e308", "nan", "abc", "-0", "99999999999", "", "1.5"];
    for case in 0..40 {
        // The header and 300 job lines, a tenth of whose fields are replaced.
        let mut text = String::new();
        for line in lines.iter().take(320) {
            if line.starts_with(';') {
                text.push_str(line);
            } else {
                let fields: Vec<String> = line
                    .split_whitespace()
                    .map(|f| {
                        if rng.below(10) == 0 {
                            junk[rng.below(junk.len() as u64) as usize].to_string()
                        } else {
                            f.to_string()
                        }
                    })
                    .collect();
                text.push_str(&fields.join(" "));
            }
            text.push('\n');
        }
        let trace = match import(text.as_bytes()) {
            Err(e) => {
                assert!(!e.to_string().is_empty(), "case {case}: an empty import error");
                continue;
            }
            Ok(t) => t,
        };
        for skip in &trace.report.first_skips {
            assert!(skip.line > 0 && !skip.reason.is_empty(), "case {case}: a skip without line or reason: {skip:?}");
        }
        assert!(trace.jobs.iter().all(|j| j.submit.is_finite() && j.run.is_finite() && j.procs >= 1), "case {case}");
        // A data-grid run on what was kept.
        let s = bagsim::family::data_grid::DdScenario::new(case, Default::default());
        if let Ok(mut run) = bagsim::family::data_grid::DdRun::new(&s, &trace) {
            run.step(Budget::ToEnd);
            let h = run.header();
            assert_eq!(h.finished_tasks, h.tasks, "case {case}: a data-grid run on a mutated log did not end");
        }
    }
}
