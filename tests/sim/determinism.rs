//! Same scenario and seed: the same report, bit for bit (wall time aside). Another policy: the same workload.

use bagsim::run;
use bagsim::scenario::McScenario;

use super::golden::{cases, small, Golden};

#[test]
fn same_seed_same_report() {
    let s = small(5);
    let mut a = run::run(&s).unwrap();
    let mut b = run::run(&s).unwrap();
    a.wall_time_s = 0.0;
    b.wall_time_s = 0.0;
    assert_eq!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&b).unwrap());
    let mut c = run::run(&small(6)).unwrap();
    c.wall_time_s = 0.0;
    assert_ne!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&c).unwrap());
}

#[test]
fn another_policy_sees_the_same_workload() {
    let base = small(9);
    let reference = run::prepare(&base).unwrap().generated.workload;
    for scheduling in ["ECT", "RR", "WQR4x", "ECT-P"] {
        for (selection, arch) in [("S-U-RR", "sep-c"), ("S-BoT", "fcondor"), ("S-T", "csp")] {
            let mut s = base.clone();
            s.scheduling = scheduling.parse().unwrap();
            s.selection = selection.parse().unwrap();
            s.architecture.kind = arch.parse().unwrap();
            s.inaccuracy = 500.0;
            assert_eq!(run::prepare(&s).unwrap().generated.workload, reference, "{scheduling} {selection} {arch}");
        }
    }
}

/// Every pin of tests/sim/golden.rs: the defaults, the gamma law (the default before `workload.task_runtime_law`:
/// the reading changes the runtimes' law and nothing else), and the earlier readings, capacity split and global
/// seconds default (each earlier value still gives exactly the figures it gave). wasm32 is held to the same pins in
/// tests/web.rs.
#[test]
fn pinned_golden_figures() {
    for (name, s, golden) in cases() {
        check_golden(name, &s, golden);
    }
}

fn check_golden(name: &str, s: &McScenario, golden: Golden) {
    let r = run::run(s).unwrap();
    let got = (r.workload.bots, r.workload.tasks, r.metrics.tasks.finished, r.metrics.system.events);
    assert_eq!(got, golden.0, "{name}: counts");
    let makespan = r.metrics.overall.makespan.mean;
    assert!((makespan - golden.1).abs() <= 1e-9 * golden.1, "{name}: mean makespan {makespan}");
    let nsl = r.metrics.overall.nsl.mean;
    assert!((nsl - golden.2).abs() <= 1e-9 * golden.2, "{name}: mean NSL {nsl}");
}
