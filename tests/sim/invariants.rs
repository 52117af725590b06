//! Invariants over many random scenarios: every task finishes exactly once or is reported unfinished, no
//! processor runs two tasks, losing replicas are cancelled, utilization ≤ 1, time never goes back.

use bagsim::engine::Model;
use bagsim::engine::Rng;
use bagsim::family::multi_cluster::architecture::{Architecture, SitePolicy};
use bagsim::family::multi_cluster::metrics;
use bagsim::family::multi_cluster::platform::Cluster;
use bagsim::family::multi_cluster::policy::options::{RrRing, WqrNx};
use bagsim::family::multi_cluster::policy::scheduling::SchedulingPolicy;
use bagsim::family::multi_cluster::policy::selection::SelectionPolicy;
use bagsim::run;
use bagsim::scenario::McScenario;

fn random_scenario(rng: &mut Rng, i: u64) -> McScenario {
    let mut s = McScenario { seed: 1000 + i, ..Default::default() };
    let clusters = 1 + rng.below(5) as usize;
    s.platform.preset = None;
    s.platform.clusters = Some(
        (0..clusters)
            .map(|c| Cluster {
                name: format!("c{c}"),
                processors: 1 + rng.below(12) as u32,
                speed: 1.0 + rng.below(4) as f64 * 0.25,
            })
            .collect(),
    );
    s.workload.submission_period = 86400.0 * (1.0 + rng.below(3) as f64);
    s.workload.load = Some([0.3, 0.7, 0.95, 0.99][rng.below(4) as usize]);
    s.workload.max_size = 200;
    s.architecture.kind = Architecture::ALL[rng.below(3) as usize];
    if rng.below(3) == 0 {
        s.architecture.monitoring_period = 30.0 + rng.below(300) as f64;
    }
    s.selection = SelectionPolicy::ALL[rng.below(7) as usize].clone();
    let policies = [
        SchedulingPolicy::Ect,
        SchedulingPolicy::Fplt,
        SchedulingPolicy::Rr,
        SchedulingPolicy::Wqr { replicas: 1 + rng.below(4) as u32 },
        SchedulingPolicy::Dfplt,
        SchedulingPolicy::EctP,
        SchedulingPolicy::Stfr,
        SchedulingPolicy::Fpf,
        SchedulingPolicy::WqrX { n: 2 + rng.below(4) as u32 },
    ];
    s.scheduling = policies[rng.below(9) as usize].clone();
    s.inaccuracy = [0.0, 100.0, 1000.0][rng.below(3) as usize];
    // Some runs stop before the work is done.
    if rng.below(3) == 0 {
        s.horizon = Some(s.workload.submission_period * 0.7);
    }
    s.architecture.site_policy = SitePolicy::ALL[rng.below(2) as usize];
    s.policy_options.rr_ring = [RrRing::Platform, RrRing::Speed][rng.below(2) as usize];
    s.policy_options.wqr_nx = [WqrNx::Replicas, WqrNx::Copies][rng.below(2) as usize];
    s
}

#[test]
fn invariants_hold_over_random_scenarios() {
    let mut rng = Rng::new(2024);
    let mut unfinished_runs = 0;
    let mut replicated_runs = 0;
    for i in 0..60 {
        let s = random_scenario(&mut rng, i);
        let label = format!("run {i}: {} {} {}", s.architecture.kind.name(), s.selection.name(), s.scheduling);
        let (mut sim, _) = run::simulation(&s, run::prepare(&s).unwrap());
        let mut last = 0.0;
        let mut steps = 0u64;
        while !sim.is_over() {
            sim.run_events(97);
            assert!(sim.now() >= last, "{label}: time went back from {last} to {}", sim.now());
            last = sim.now();
            steps += 1;
            if steps % 7 == 0 {
                sim.check_invariants().unwrap_or_else(|e| panic!("{label}: {e}"));
            }
        }
        sim.check_invariants().unwrap_or_else(|e| panic!("{label}: {e}"));
        let w = sim.workload();
        let ended = (0..w.tasks()).filter(|&t| !sim.task_end(t).is_nan()).count() as u64;
        assert_eq!(ended, sim.finished_tasks(), "{label}: a task finished twice or was lost");
        let m = metrics::compute(&sim.outcome());
        assert_eq!(m.tasks.finished + m.tasks.running_at_end + m.tasks.unstarted, m.tasks.tasks, "{label}");
        if m.tasks.finished < m.tasks.tasks {
            unfinished_runs += 1;
            assert!(sim.now() <= s.horizon_limit() + 1e-9, "{label}");
        }
        assert!(m.system.utilization <= 1.0 + 1e-9 && m.system.utilization >= 0.0, "{label}");
        for smp in &m.series {
            assert!(smp.utilization <= 1.0 + 1e-9, "{label}: sample utilization {}", smp.utilization);
        }
        assert!(m.tasks.replicas_started >= m.tasks.replicas_cancelled, "{label}");
        if m.tasks.replicas_started > 0 {
            replicated_runs += 1;
            // Every replica of a finished task was cancelled; the rest were still running at the horizon.
            assert!(m.tasks.replicas_cancelled > 0 || m.tasks.finished < m.tasks.tasks, "{label}");
        }
        let max_copies = 1 + sim.config().scheduling.build(&sim.config().policy_options).max_replicas();
        assert!(m.tasks.replicas_started <= m.tasks.tasks * u64::from(max_copies - 1), "{label}");
        for t in 0..w.tasks() {
            let (st, en) = (sim.task_start(t), sim.task_end(t));
            let b = w.bots.partition_point(|b| b.first_task as usize <= t) - 1;
            if !st.is_nan() {
                assert!(st >= w.bots[b].arrival, "{label}: task {t} started before it arrived");
            }
            if !en.is_nan() {
                assert!(en >= st + w.runtimes[t] / 1000.0, "{label}: task {t} too quick");
            }
        }
    }
    // The generator of scenarios covers both outcomes.
    assert!(unfinished_runs > 0 && replicated_runs > 0, "{unfinished_runs} {replicated_runs}");
}

#[test]
fn every_combination_of_architecture_selection_and_scheduling_runs() {
    // 3 × 7 × 8 combinations on a small busy platform: each must finish its work with the invariants intact.
    let mut base = McScenario { seed: 77, ..Default::default() };
    base.platform.preset = None;
    base.platform.clusters = Some(vec![
        Cluster { name: "slow".into(), processors: 6, speed: 1.0 },
        Cluster { name: "fast".into(), processors: 4, speed: 1.75 },
        Cluster { name: "mid".into(), processors: 5, speed: 1.3 },
    ]);
    base.workload.submission_period = 86400.0;
    base.workload.load = Some(0.8);
    base.workload.max_size = 50;
    base.inaccuracy = 200.0;
    let mut runs = 0;
    for arch in Architecture::ALL {
        for selection in SelectionPolicy::ALL {
            for scheduling in SchedulingPolicy::ALL {
                let mut s = base.clone();
                s.architecture.kind = arch;
                s.selection = selection.clone();
                s.scheduling = scheduling.clone();
                let label = format!("{} {} {}", arch.name(), selection.name(), scheduling);
                let (mut sim, _) = run::simulation(&s, run::prepare(&s).unwrap());
                sim.run();
                sim.check_invariants().unwrap_or_else(|e| panic!("{label}: {e}"));
                let m = metrics::compute(&sim.outcome());
                assert_eq!(m.tasks.finished, m.tasks.tasks, "{label}: unfinished work on a run that should drain");
                assert!(m.system.utilization <= 1.0 + 1e-9, "{label}");
                runs += 1;
            }
        }
    }
    assert_eq!(runs, 3 * 7 * 8);
}
