//! Each key a family lists as unused under some settings (`registry::unused`) changes nothing there: the report of a
//! run with another value of it is the same, number for number. A list that named a key the run does read would
//! fail here; so the warnings and the refused sweep axes built on the list never hide a setting that applied.

use bagsim::family::contract::run_to_report;
use bagsim::registry::{self, AnyRun};
use bagsim::scenario::Scenario;
use serde_json::{json, Value};

/// The report of `s` without what names its settings or times it.
fn outcome(s: &Scenario) -> Value {
    let mut run = AnyRun::build(s, None).unwrap();
    let report = run_to_report(&mut run, &|| 0.0);
    let mut v: Value = serde_json::from_str(&report.to_json().unwrap()).unwrap();
    let o = v.as_object_mut().unwrap();
    o.remove("scenario");
    o.remove("wall_time_s");
    // The warnings name the unused key itself.
    if let Some(w) = o.get_mut("workload").and_then(|w| w.as_object_mut()) {
        w.remove("warnings");
    }
    v
}

fn scenario(v: &Value) -> Scenario {
    Scenario::from_json(&v.to_string()).unwrap()
}

fn set(v: &Value, path: &str, x: Value) -> Value {
    let mut v = v.clone();
    let mut at = &mut v;
    let parts: Vec<&str> = path.split('.').collect();
    for p in &parts[..parts.len() - 1] {
        at = at.as_object_mut().unwrap().entry(p.to_string()).or_insert_with(|| json!({}));
    }
    at[parts[parts.len() - 1]] = x;
    v
}

/// Under `base`, every (key, other value) listed is unused, and setting it leaves the report unchanged.
fn check(base: Value, changes: &[(&str, Value)]) {
    let s = scenario(&base);
    let unused = registry::unused(&s);
    // The base sets none of them away from its default: no warning.
    assert!(registry::unused_warnings(&s).is_empty(), "{:?}", registry::unused_warnings(&s));
    let before = outcome(&s);
    for (path, x) in changes {
        assert!(unused.iter().any(|u| u.covers(path)), "{path} is not listed as unused under {base}");
        let changed = scenario(&set(&base, path, x.clone()));
        assert_ne!(serde_json::to_value(&changed).unwrap(), serde_json::to_value(&s).unwrap(), "{path}: no change");
        assert_eq!(outcome(&changed), before, "{path} = {x} changed the run under {base}");
        assert!(!registry::unused_warnings(&changed).is_empty(), "{path}: no warning");
    }
}

#[test]
fn multi_cluster_unused_keys_change_nothing() {
    let day = json!({"workload": {"submission_period": 21600, "load": 0.9}});
    let sepc = set(&set(&day, "architecture.kind", json!("sep-c")), "scheduling", json!("FPLT"));
    check(
        sepc,
        &[
            ("architecture.monitoring_period", json!(300)),
            ("scheduling_period", json!(600)),
            ("architecture.fcondor_move", json!("bot")),
            ("policy_options.dfplt_unranked", json!("last")),
            ("policy_options.wqr_nx", json!("copies")),
            ("policy_options.prio_order", json!("cluster")),
            ("policy_options.rr_ring", json!("speed")),
            ("predictor.model", json!("Mean")),
        ],
    );
    let exact = set(&set(&day, "architecture.monitoring_period", json!(0)), "scheduling", json!("ECT"));
    check(exact, &[("scheduling_period", json!(600)), ("architecture.site_policy", json!("fcfs"))]);
    // Sites that run their own FCFS read none of the scenario's policy keys; a site has one cluster to go round.
    let own = set(&set(&day, "architecture.kind", json!("fcondor")), "architecture.site_policy", json!("fcfs"));
    check(
        own,
        &[
            ("scheduling", json!("STFR")),
            ("selection", json!("S-U-Prio")),
            ("inaccuracy", json!(50)),
            ("policy_options.wqr_nx", json!("copies")),
        ],
    );
    let rr = set(&set(&day, "architecture.kind", json!("sep-c")), "scheduling", json!("RR"));
    check(rr, &[("policy_options.rr_ring", json!("speed"))]);
}

#[test]
fn desktop_grid_unused_keys_change_nothing() {
    let base = json!({"family": "desktop_grid", "desktop_grid": {"bots": 15, "bot_selection": "rr_nrf"}});
    check(
        base.clone(),
        &[
            ("desktop_grid.power_range", json!([5.0, 15.0])),
            ("desktop_grid.fcfs_share", json!("one_replica")),
            ("desktop_grid.long_idle", json!("unreplicated")),
        ],
    );
    let up = set(
        &set(&base, "desktop_grid.availability", json!("always_up")),
        "desktop_grid.heterogeneity",
        json!("heterogeneous"),
    );
    check(
        up,
        &[
            ("desktop_grid.power", json!(12.0)),
            ("desktop_grid.mttf", json!([5000.0, 5000.0, 5000.0])),
            ("desktop_grid.weibull_shape", json!(1.0)),
            ("desktop_grid.repair_mean", json!(600.0)),
            ("desktop_grid.repair_sd", json!(100.0)),
        ],
    );
}

#[test]
fn data_grid_unused_keys_change_nothing() {
    let base = json!({
        "family": "data_grid",
        "data_grid": {
            "jobs": 300,
            "scheme": "start_time_no_data_aware",
            "estimates": "accurate",
            "site_policies": ["easy", "fcfs", "conservative", "easy", "fcfs"]
        }
    });
    check(
        base.clone(),
        &[
            ("data_grid.backfill_rule", json!("data_arrived")),
            ("data_grid.walltime", json!("kill")),
            ("data_grid.local_policy", json!("fcfs")),
        ],
    );
    let nodata = set(&base, "data_grid.data_share", json!(0.0));
    check(nodata, &[("data_grid.data_mb", json!([100.0, 200.0])), ("data_grid.bandwidth_mbit", json!([1.0, 2.0]))]);
}

/// Scenarios that differ only in keys their run does not read have one canonical text (a study runs them once);
/// a key the run reads keeps them apart.
#[test]
fn canonical_text_merges_only_what_is_unused() {
    let base = json!({"workload": {"submission_period": 3600}, "scheduling": "FPLT"});
    let canon = |v: &Value| scenario(v).canonical_json();
    let a = canon(&base);
    assert_eq!(a, canon(&set(&base, "policy_options.dfplt_unranked", json!("last"))));
    assert_eq!(a, canon(&set(&base, "predictor.model", json!("Mean"))));
    assert_ne!(a, canon(&set(&base, "architecture.monitoring_period", json!(300))));
    let dfplt = set(&base, "scheduling", json!("DFPLT"));
    assert_ne!(canon(&dfplt), canon(&set(&dfplt, "policy_options.dfplt_unranked", json!("last"))));
}
