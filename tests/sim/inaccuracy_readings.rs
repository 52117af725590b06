//! `inaccuracy_on` ([Iosup08] §5.3): the same perturbed value max(R(1 + E/100), 1) lands on the scheduler's estimate
//! under `estimate` and on the task's runtime under `runtime`; the report then counts the work that runs.

use crate::common::{config, ends};
use bagsim::engine::stream_seed;
use bagsim::family::multi_cluster::architecture::Architecture;
use bagsim::family::multi_cluster::policy::scheduling::SchedulingPolicy;
use bagsim::family::multi_cluster::policy::selection::SelectionPolicy;
use bagsim::family::multi_cluster::sim::{perturbed, InaccuracyOn};
use bagsim::run;
use bagsim::scenario::McScenario;

/// One cluster of three processors at speed 1 and one BoT of three tasks of 100 s, 40 s and 7 s at t = 0: every
/// task starts at 0 on its own processor, so its end is its runtime.
fn three_tasks(on: InaccuracyOn) -> (Vec<f64>, Vec<f64>) {
    let mut cfg = config(Architecture::Csp, SelectionPolicy::ST, SchedulingPolicy::Ect);
    cfg.inaccuracy = 1000.0;
    cfg.inaccuracy_on = on;
    cfg.seed = 4;
    let (ends, sim) = ends(cfg, &[(3, 1.0)], &[(0.0, 0, &[100.0, 40.0, 7.0])]);
    let estimates = (0..3).map(|t| sim.known_estimate(t)).collect();
    (ends, estimates)
}

#[test]
fn the_perturbed_value_is_the_estimate_or_the_runtime() {
    let seed = stream_seed(4, "inaccuracy");
    let exact = [100.0, 40.0, 7.0];
    let p: Vec<f64> = (0..3).map(|t| perturbed(exact[t], 1000.0, seed, t as u32)).collect();
    // At I = 1000% each value lies in [max(R(1 − 10), 1), R(1 + 10)] = [1, 11R], and this seed moves every one.
    for t in 0..3 {
        assert!(p[t] >= 1.0 && p[t] <= 11.0 * exact[t] && p[t] != exact[t], "task {t}: {}", p[t]);
    }
    // estimate: the tasks run R; ECT is told the perturbed values.
    let (ends, estimates) = three_tasks(InaccuracyOn::Estimate);
    assert_eq!(ends, exact.to_vec());
    assert_eq!(estimates, p);
    // runtime: the tasks run the perturbed values (the same E per task); ECT is told R.
    let (ends, estimates) = three_tasks(InaccuracyOn::Runtime);
    assert_eq!(ends, p);
    assert_eq!(estimates, exact.to_vec());
}

#[test]
fn without_inaccuracy_both_readings_are_exact() {
    for on in InaccuracyOn::ALL {
        let mut cfg = config(Architecture::Csp, SelectionPolicy::ST, SchedulingPolicy::Ect);
        cfg.inaccuracy_on = on;
        let (ends, sim) = ends(cfg, &[(3, 1.0)], &[(0.0, 0, &[100.0, 40.0, 7.0])]);
        assert_eq!(ends, vec![100.0, 40.0, 7.0], "{on:?}");
        assert_eq!((0..3).map(|t| sim.known_estimate(t)).collect::<Vec<_>>(), vec![100.0, 40.0, 7.0], "{on:?}");
    }
}

/// Under `runtime` the report's work and load are those of the runtimes that run: Σ max(R(1 + E/100), 1) over the
/// generated tasks, computed here apart from the simulation; a warning gives the generated load.
#[test]
fn under_runtime_the_report_counts_the_work_that_runs() {
    let mut s = McScenario { seed: 2, ..Default::default() };
    s.workload.submission_period = 6.0 * 3600.0;
    s.workload.load = Some(0.2);
    s.inaccuracy = 1000.0;
    let generated = run::prepare(&s).unwrap().generated;
    let seed = stream_seed(2, "inaccuracy");
    let runs: f64 =
        generated.workload.runtimes.iter().enumerate().map(|(t, &r)| perturbed(r, 1000.0, seed, t as u32)).sum();
    let exact = generated.workload.total_work();
    let estimate = run::run(&s).unwrap();
    assert_eq!(estimate.workload.total_work, exact);
    assert_eq!(estimate.workload.achieved_load, generated.achieved_load);
    s.inaccuracy_on = InaccuracyOn::Runtime;
    let runtime = run::run(&s).unwrap();
    assert!((runtime.workload.total_work - runs).abs() <= 1e-9 * runs, "{} vs {runs}", runtime.workload.total_work);
    let load = generated.achieved_load * runs / exact;
    assert!((runtime.workload.achieved_load - load).abs() <= 1e-9 * load);
    assert!(runs > exact, "the floor only raises values: {runs} vs {exact}");
    assert!(
        runtime.workload.warnings.iter().any(|w| w.contains("inaccuracy_on = runtime")),
        "{:?}",
        runtime.workload.warnings
    );
}
