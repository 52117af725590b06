//! The data-grid family ([Liu10]): conservative backfilling checked by hand and against an independent brute-force
//! scheduler, the reservation guarantee and the capacity of every site on random windows of a real log, transfers,
//! the data-aware backfill rule, the three schemes without data, and determinism.

use bagsim::engine::Model;
use bagsim::engine::Rng;
use bagsim::family::contract::FamilyRun;
use bagsim::family::data_grid::sim::{JobRecord, Settings, Simulation};
use bagsim::family::data_grid::workload::{Job, Workload};
use bagsim::family::data_grid::{BackfillRule, DdConfig, DdRun, DdScenario, Estimates, LocalPolicy, Scheme};
use bagsim::trace::bundled;

pub fn settings(scheme: Scheme, backfill_rule: BackfillRule) -> Settings {
    Settings {
        scheme: scheme.into(),
        backfill_rule,
        local_policy: LocalPolicy::Conservative,
        dispatch_delay: 0.0,
        sample_interval: 3600.0,
    }
}

/// A workload of jobs without data on `sites` sites.
pub fn plain(jobs: &[(f64, u32, f64, f64)], sites: usize) -> Workload {
    Workload {
        jobs: jobs
            .iter()
            .enumerate()
            .map(|(j, &(submit, procs, runtime, estimate))| Job {
                id: j as i64 + 1,
                submit,
                procs,
                runtime,
                estimate,
                killed: false,
                data_mb: 0.0,
            })
            .collect(),
        bandwidth: vec![1.0; jobs.len() * sites],
        sites,
        ..Workload::default()
    }
}

pub fn run(w: Workload, processors: &[u32], s: Settings) -> Simulation {
    let mut sim = Simulation::new(s, processors, w);
    sim.run();
    assert!(sim.is_done(), "the run did not end every job");
    sim
}

/// Computed by hand on 4 processors: A (2 procs, 4 s of an estimated 10) and B (4 procs, 5 s) arrive at 0, C (2
/// procs, 5 of 9 s) at 1, D (1 proc, 3 of 20 s) at 2. B is reserved at 10 (after A's estimate); C backfills into
/// [1, 10) beside A; D fits only after B, at 15. A ends at 4 (nothing can move: C still holds 2 processors), C at
/// 6: compression moves B to 6 and D to 11, right after B's estimated end.
#[test]
fn conservative_backfilling_by_hand() {
    let w = plain(&[(0.0, 2, 4.0, 10.0), (0.0, 4, 5.0, 5.0), (1.0, 2, 5.0, 9.0), (2.0, 1, 3.0, 20.0)], 1);
    let sim = run(w, &[4], settings(Scheme::FinishTimeDataAware, BackfillRule::DataAware));
    let got: Vec<(f64, f64, f64)> = sim.records().iter().map(|r| (r.reservation, r.hold_start, r.end)).collect();
    assert_eq!(got, vec![(0.0, 0.0, 4.0), (10.0, 6.0, 11.0), (1.0, 1.0, 6.0), (15.0, 11.0, 14.0)]);
}

/// An independent conservative backfilling scheduler for one site, integer times and exact estimates (no early
/// end, so no compression): each job, in order of arrival, takes the first t ≥ its submission at which its width
/// fits over its whole runtime in a per-second occupancy array.
fn brute_force(jobs: &[(f64, u32, f64, f64)], processors: u32) -> Vec<f64> {
    let horizon = jobs.iter().map(|j| j.0 + j.2).sum::<f64>() as usize + 1;
    let mut used = vec![0u32; horizon + 1];
    jobs.iter()
        .map(|&(submit, procs, runtime, _)| {
            let (len, mut t) = (runtime as usize, submit as usize);
            while !(t..t + len).all(|s| used[s] + procs <= processors) {
                t += 1;
            }
            for u in &mut used[t..t + len] {
                *u += procs;
            }
            t as f64
        })
        .collect()
}

#[test]
fn the_site_schedule_equals_a_brute_force_conservative_scheduler() {
    let mut rng = Rng::stream(2024, "test.brute");
    for case in 0..200 {
        let processors = 1 + rng.below(8) as u32;
        let n = 1 + rng.below(25) as usize;
        let mut t = 0.0;
        let jobs: Vec<(f64, u32, f64, f64)> = (0..n)
            .map(|_| {
                t += rng.below(4) as f64;
                let runtime = 1.0 + rng.below(12) as f64;
                (t, 1 + rng.below(u64::from(processors)) as u32, runtime, runtime)
            })
            .collect();
        let sim = run(plain(&jobs, 1), &[processors], settings(Scheme::FinishTimeDataAware, BackfillRule::DataAware));
        let starts: Vec<f64> = sim.records().iter().map(|r| r.hold_start).collect();
        assert_eq!(starts, brute_force(&jobs, processors), "case {case}: {processors} processors, jobs {jobs:?}");
    }
}

/// Every job ran once, on one site no narrower than it, never before its first reservation, and no site held
/// more processors than it has at any instant; a job computes only once its data is there.
pub fn check_invariants(sim: &Simulation, processors: &[u32], scheme: Scheme, rule: BackfillRule, what: &str) {
    let mut ended = sim.ended().to_vec();
    ended.sort_unstable();
    assert_eq!(ended, (0..sim.jobs() as u32).collect::<Vec<_>>(), "{what}: not every job ended exactly once");
    let w = sim.workload();
    for r in sim.records() {
        let k = r.site as usize;
        assert!(r.procs <= processors[k], "{what}: job {} wider than site {k}", r.job);
        assert!(r.hold_start <= r.reservation, "{what}: job {} started after its reservation", r.job);
        assert!(
            r.hold_start >= r.submit && r.end >= r.compute_start && r.compute_start >= r.hold_start,
            "{what}: {r:?}"
        );
        let t = w.transfer(r.job as usize, k);
        assert!(
            ((r.transfer_end - r.transfer_start) - t).abs() <= 1e-9 * t.max(1.0),
            "{what}: transfer of {r:?} is not {t}"
        );
        assert!(r.compute_start >= r.transfer_end, "{what}: job {} computed before its data arrived", r.job);
        let ran = r.end - r.compute_start;
        assert!(
            (ran - r.runtime).abs() <= 1e-9 * r.end.max(1.0),
            "{what}: job {} computed {ran} s, not {}",
            r.job,
            r.runtime
        );
        if !scheme.overlaps() {
            assert_eq!(r.transfer_start, r.hold_start, "{what}: job {} moved its data off its processors", r.job);
        } else if rule == BackfillRule::DataArrived {
            assert!(r.hold_start >= r.transfer_end, "{what}: job {} held processors before its data", r.job);
        }
    }
    for (k, &p) in processors.iter().enumerate() {
        let mut edges: Vec<(f64, i64)> = sim
            .records()
            .iter()
            .filter(|r| r.site as usize == k)
            .flat_map(|r| [(r.hold_start, i64::from(r.procs)), (r.end, -i64::from(r.procs))])
            .collect();
        // At equal times the processors given back come first (holds are half-open intervals).
        edges.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let mut held = 0i64;
        for (t, d) in edges {
            held += d;
            assert!(held <= i64::from(p), "{what}: site {k} holds {held} of {p} processors at {t}");
        }
    }
}

pub fn scenario(seed: u64, f: impl FnOnce(&mut DdConfig)) -> DdScenario {
    let mut cfg = DdConfig::default();
    f(&mut cfg);
    DdScenario::new(seed, cfg)
}

pub fn run_scenario(s: &DdScenario) -> DdRun {
    let trace = bundled::hpc2n().expect("the bundled log");
    let mut r = DdRun::new(s, &trace).expect("a valid scenario");
    r.step(bagsim::family::contract::Budget::ToEnd);
    r
}

#[test]
fn reservations_capacity_and_transfers_hold_on_windows_of_the_log() {
    for (i, scheme) in Scheme::ALL.into_iter().enumerate() {
        for rule in BackfillRule::ALL {
            for estimates in Estimates::ALL {
                let s = scenario(10 + i as u64, |c| {
                    c.scheme = scheme.into();
                    c.backfill_rule = rule;
                    c.estimates = estimates;
                    c.jobs = 400;
                    c.first_job = 300 * i as u32;
                    c.runtime_factor = 3.0;
                    c.data_mb = [10.0, 800_000.0];
                });
                let what = format!("{} {} {}", scheme.name(), rule.name(), estimates.name());
                let r = run_scenario(&s);
                check_invariants(r.simulation(), &s.data_grid.sites, scheme, rule, &what);
            }
        }
    }
}

#[test]
fn the_data_aware_rule_holds_processors_early_and_counts_them_busy() {
    let s = scenario(5, |c| {
        c.jobs = 600;
        c.runtime_factor = 3.0;
        c.data_mb = [10.0, 800_000.0];
    });
    let r = run_scenario(&s);
    let early: Vec<&JobRecord> = r.simulation().records().iter().filter(|r| r.hold_start < r.transfer_end).collect();
    assert!(!early.is_empty(), "no job took a hole before its data arrived");
    for j in &early {
        assert_eq!(j.compute_start, j.transfer_end, "job {} computed before its data", j.job);
    }
    let m = r.report(0.0).metrics;
    let wait: f64 = early.iter().map(|j| (j.compute_start - j.hold_start) * f64::from(j.procs)).sum();
    let capacity: f64 = s.data_grid.sites.iter().map(|&p| f64::from(p)).sum();
    assert!(
        (m.held_utilization - m.utilization - wait / (m.makespan * capacity)).abs() < 1e-9,
        "held processors {} vs computing {}: the early holds ({wait} processor-s) are not counted busy",
        m.held_utilization,
        m.utilization
    );
}

/// Where and when a job ran: site, first reservation, hold start, computation start, end.
type Placement = (u32, f64, f64, f64, f64);

#[test]
fn without_data_the_three_schemes_give_one_schedule() {
    let records: Vec<Vec<Placement>> = Scheme::ALL
        .into_iter()
        .map(|scheme| {
            let s = scenario(9, |c| {
                c.scheme = scheme.into();
                c.data_share = 0.0;
                c.jobs = 800;
            });
            // Where and when each job ran (the transfer fields say only where a transfer would have run).
            let r = run_scenario(&s);
            r.simulation()
                .records()
                .iter()
                .map(|r| (r.site, r.reservation, r.hold_start, r.compute_start, r.end))
                .collect()
        })
        .collect();
    assert!(records.iter().all(|r| r == &records[0]), "the schemes differ without data");
}

#[test]
fn same_seed_same_report_and_the_bundled_log_runs_under_every_scheme() {
    for scheme in Scheme::ALL {
        for factor in [1.0, 3.0] {
            let s = scenario(1, |c| {
                c.scheme = scheme.into();
                c.runtime_factor = factor;
                c.jobs = 1_000;
            });
            let (a, b) = (run_scenario(&s).report(0.0), run_scenario(&s).report(0.0));
            assert_eq!(a.metrics.finished, a.metrics.jobs, "{}: not every job ended", scheme.name());
            assert_eq!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&b).unwrap());
        }
    }
}
