//! EASY backfilling as the reference schedulers run it, and the backfill depth (`data_grid.backfill_depth`,
//! Slurm's `bf_max_job_test`). EASY is checked against an independent event-driven scheduler written from the
//! classic formulation (Lifka; Mu'alem & Feitelson 2001, §2.1: a reservation for the first queued job only, the
//! shadow time and the extra processors, backfill candidates in order of arrival) on the whole HPC2N log, and each
//! choice the definition makes is worked by hand on a small Gantt chart (docs/data_grid.md, "EASY to its
//! definition").

use crate::data_grid::{check_invariants, plain, run, run_scenario, scenario, settings};
use bagsim::engine::Model;
use bagsim::family::data_grid::sim::{Settings, Simulation};
use bagsim::family::data_grid::{workload, BackfillRule, DdConfig, Estimates, LocalPolicy, Scheme, Walltime};

/// A job: submission, processors, runtime, estimate (runtime ≤ estimate).
type Plain = (f64, u32, f64, f64);

fn policy(p: LocalPolicy) -> Settings {
    Settings { local_policy: p, ..settings(Scheme::FinishTimeDataAware, BackfillRule::DataAware) }
}

/// The classic EASY, event-driven, on one site of `processors`, jobs in order of submission. At each instant
/// where a job ends or arrives (all of that instant's ends and arrivals first): the queue's head starts while it
/// fits; then the shadow time (when, by the running jobs' estimated ends, the head will have its processors) and
/// the extra processors (those the head leaves spare then) are found, and each later queued job, in order of
/// arrival, starts if it fits now and either ends by the shadow time or uses no more than the extra processors,
/// which it then takes from them. Returns each job's start.
pub fn classic_easy(jobs: &[Plain], processors: u32) -> Vec<f64> {
    let n = jobs.len();
    let mut start = vec![f64::NAN; n];
    let (mut queue, mut running): (Vec<usize>, Vec<usize>) = (Vec::new(), Vec::new());
    let mut arrived = 0;
    while arrived < n || !queue.is_empty() {
        let next_end = running.iter().map(|&j| start[j] + jobs[j].2).fold(f64::INFINITY, f64::min);
        let t = next_end.min(if arrived < n { jobs[arrived].0 } else { f64::INFINITY });
        running.retain(|&j| start[j] + jobs[j].2 > t);
        while arrived < n && jobs[arrived].0 <= t {
            queue.push(arrived);
            arrived += 1;
        }
        let mut free = processors - running.iter().map(|&j| jobs[j].1).sum::<u32>();
        while let Some(&h) = queue.first() {
            if jobs[h].1 > free {
                break;
            }
            (start[h], free) = (t, free - jobs[h].1);
            running.push(queue.remove(0));
        }
        let Some(&head) = queue.first() else { continue };
        let mut ends: Vec<(f64, u32)> = running.iter().map(|&j| (start[j] + jobs[j].3, jobs[j].1)).collect();
        ends.sort_by(|a, b| a.0.total_cmp(&b.0));
        let (mut avail, mut shadow) = (free, t);
        for &(end, procs) in &ends {
            if avail >= jobs[head].1 && end > shadow {
                break;
            }
            (avail, shadow) = (avail + procs, end);
        }
        let mut extra = avail - jobs[head].1;
        let mut q = 1;
        while q < queue.len() {
            let j = queue[q];
            let (procs, estimate) = (jobs[j].1, jobs[j].3);
            let crosses = t + estimate > shadow;
            if procs <= free && (!crosses || procs <= extra) {
                (start[j], free) = (t, free - procs);
                if crosses {
                    extra -= procs;
                }
                running.push(queue.remove(q));
            } else {
                q += 1;
            }
        }
    }
    start
}

/// The whole bundled HPC2N log (3 145 jobs of at most 240 processors) on one site of 240 processors, no data.
fn hpc2n_site(estimates: Estimates, walltime: Walltime, local_policy: LocalPolicy) -> (Vec<Plain>, Simulation) {
    let trace = bagsim::trace::bundled::hpc2n().expect("the bundled log");
    let cfg = DdConfig {
        sites: vec![240],
        data_share: 0.0,
        estimates,
        walltime,
        local_policy,
        jobs: 100_000,
        ..DdConfig::default()
    };
    let w = workload::build(&cfg, 1, &trace).expect("the log");
    let jobs = w.jobs.iter().map(|j| (j.submit, j.procs, j.runtime, j.estimate)).collect();
    let mut sim = Simulation::new(policy(local_policy), &cfg.sites, w);
    sim.run();
    (jobs, sim)
}

fn starts(sim: &Simulation) -> Vec<f64> {
    sim.records().iter().map(|r| r.hold_start).collect()
}

fn mean_wait(jobs: &[Plain], starts: &[f64]) -> f64 {
    starts.iter().zip(jobs).map(|(s, j)| s - j.0).sum::<f64>() / jobs.len() as f64
}

/// On the whole HPC2N log, under exact and requested estimates (a job past its request stopped there, or run to
/// its logged time): every one of the 3 145 jobs starts at the same second as under the classic EASY. Under
/// requested estimates jobs end early, so the head's reservation moves earlier at early ends, as the classic
/// formulation (which recomputes the shadow time at every instant) has it.
#[test]
fn easy_starts_every_job_of_the_log_when_the_classic_formulation_does() {
    for (estimates, walltime) in [
        (Estimates::Accurate, Walltime::Kill),
        (Estimates::Requested, Walltime::Kill),
        (Estimates::Requested, Walltime::RunToLog),
    ] {
        let (jobs, sim) = hpc2n_site(estimates, walltime, LocalPolicy::Easy);
        assert_eq!(jobs.len(), 3145, "the bundled log's jobs of at most 240 processors");
        let (ours, reference) = (starts(&sim), classic_easy(&jobs, 240));
        let differ: Vec<usize> = (0..jobs.len()).filter(|&j| ours[j] != reference[j]).collect();
        assert!(
            differ.is_empty(),
            "{estimates:?} {walltime:?}: {} jobs start elsewhere, first {:?}",
            differ.len(),
            &differ[..differ.len().min(5)]
        );
        assert_eq!(mean_wait(&jobs, &ours), mean_wait(&jobs, &reference));
        // Not FCFS in disguise: backfilling moved many jobs.
        let (_, fcfs) = hpc2n_site(estimates, walltime, LocalPolicy::Fcfs);
        assert!(starts(&fcfs).iter().zip(&ours).filter(|(a, b)| a != b).count() > 500);
    }
}

fn easy_starts(jobs: &[Plain], processors: u32) -> Vec<f64> {
    starts(&run(plain(jobs, 1), &[processors], policy(LocalPolicy::Easy)))
}

/// The extra processors are taken by each backfilled job that outlives the shadow time, within one pass. On 8
/// processors: A (0 s, 4 processors, 10 s) runs; the head H (1 s, 6 processors, 5 s) can start at 10, when 8 are
/// free, leaving 2 extra. X and Y (both at 2 s, 2 processors, 20 s) outlive the shadow time; X comes first, takes
/// the 2 extra and starts at 2. Y fits beside A and X, but the extra processors are gone: starting it would delay
/// H to 22. H starts at 10 and Y at 15, when H ends. (Were the extra processors not taken, Y would start at 2 and
/// H at 22.)
#[test]
fn each_backfilled_job_takes_its_share_of_the_extra_processors() {
    let jobs = [(0.0, 4, 10.0, 10.0), (1.0, 6, 5.0, 5.0), (2.0, 2, 20.0, 20.0), (2.0, 2, 20.0, 20.0)];
    assert_eq!(easy_starts(&jobs, 8), vec![0.0, 10.0, 2.0, 15.0]);
    assert_eq!(classic_easy(&jobs, 8), vec![0.0, 10.0, 2.0, 15.0]);
}

/// Backfill candidates are tried in order of arrival, not shortest first. On 8 processors: A (0 s, 4 processors,
/// 10 s) and B (0 s, 4 processors, 20 s) run; the head H (1 s, 8 processors, 5 s) waits for B (shadow time 20, no
/// extra processor). At 10 A ends: L (2 s, 4 processors, 10 s) and S (3 s, 4 processors, 9 s) both end by 20, but
/// only one fits. L arrived first and starts at 10; H starts at 20 and S at 25. (Shortest first, S would start at
/// 10 and L at 25.)
#[test]
fn backfill_candidates_are_tried_in_order_of_arrival() {
    let jobs =
        [(0.0, 4, 10.0, 10.0), (0.0, 4, 20.0, 20.0), (1.0, 8, 5.0, 5.0), (2.0, 4, 10.0, 10.0), (3.0, 4, 9.0, 9.0)];
    assert_eq!(easy_starts(&jobs, 8), vec![0.0, 0.0, 20.0, 10.0, 25.0]);
    assert_eq!(classic_easy(&jobs, 8), vec![0.0, 0.0, 20.0, 10.0, 25.0]);
}

/// At an early end the head's reservation is found again (it can only move earlier), and when the head starts the
/// next queued job becomes the head at once, in the same pass. On 4 processors: A (0 s, 4 processors, runs 4 s of
/// an estimated 10) runs; H (1 s, 2 processors, 5 s) is the head, reserved at 10; N (2 s, 4 processors, 5 s) is
/// next; W (3 s, 2 processors, 3 s) waits. A ends at 4: H starts at 4; N is now the head, reserved at 9 (H's end);
/// W fits beside H and ends by 9: it starts at 4. N starts at 9.
#[test]
fn an_early_end_brings_the_head_forward_and_the_next_job_becomes_head_at_once() {
    let jobs = [(0.0, 4, 4.0, 10.0), (1.0, 2, 5.0, 5.0), (2.0, 4, 5.0, 5.0), (3.0, 2, 3.0, 3.0)];
    let sim = run(plain(&jobs, 1), &[4], policy(LocalPolicy::Easy));
    assert_eq!(starts(&sim), vec![0.0, 4.0, 9.0, 4.0]);
    let reservations: Vec<f64> = sim.records().iter().map(|r| r.reservation).collect();
    assert_eq!(reservations, vec![0.0, 10.0, 9.0, 4.0], "H was first reserved at 10, N at 9");
    assert_eq!(classic_easy(&jobs, 4), vec![0.0, 4.0, 9.0, 4.0]);
}

/// A window of the log at high load with data, under `policy` and `depth` at every site.
fn window(policy: LocalPolicy, depth: u32, scheme: Scheme) -> bagsim::family::data_grid::DdScenario {
    scenario(7, |c| {
        c.local_policy = policy;
        c.backfill_depth = depth;
        c.scheme = scheme.into();
        c.jobs = 600;
        c.first_job = 900;
        c.runtime_factor = 3.0;
        c.data_mb = [10.0, 800_000.0];
    })
}

fn records(s: &bagsim::family::data_grid::DdScenario) -> Vec<(u32, f64, f64, f64)> {
    run_scenario(s).simulation().records().iter().map(|r| (r.site, r.reservation, r.hold_start, r.end)).collect()
}

/// A backfill depth of at least the run's jobs changes no schedule; a small depth changes some, and keeps every
/// guarantee (no job starts after the start its site guaranteed, no site over its processors, FCFS's order).
#[test]
fn a_backfill_depth_bounds_the_pass_and_keeps_the_guarantees() {
    for p in LocalPolicy::ALL {
        let scheme = Scheme::StartTimeNoDataAware;
        let unbounded = records(&window(p, 0, scheme));
        assert_eq!(
            records(&window(p, 600, scheme)),
            unbounded,
            "{}: a depth of every job changed the schedule",
            p.name()
        );
        let s = window(p, 3, scheme);
        let r = run_scenario(&s);
        check_invariants(
            r.simulation(),
            &s.data_grid.sites,
            scheme,
            BackfillRule::DataAware,
            &format!("{} depth 3", p.name()),
        );
        let bounded: Vec<(u32, f64, f64, f64)> =
            r.simulation().records().iter().map(|r| (r.site, r.reservation, r.hold_start, r.end)).collect();
        assert_ne!(bounded, unbounded, "{}: a depth of 3 changed nothing on an overloaded window", p.name());
        if p == LocalPolicy::Fcfs {
            for k in 0..s.data_grid.sites.len() {
                let st: Vec<f64> = bounded.iter().filter(|r| r.0 as usize == k).map(|r| r.2).collect();
                assert!(st.windows(2).all(|w| w[0] <= w[1]), "FCFS with a depth let a job overtake at site {k}");
            }
        }
    }
}

/// EASY that considers only the head (a depth of 1) backfills nothing: it is FCFS, job for job, on the whole log.
#[test]
fn easy_with_a_depth_of_one_is_fcfs() {
    let (jobs, _) = hpc2n_site(Estimates::Requested, Walltime::Kill, LocalPolicy::Easy);
    let fcfs = starts(&hpc2n_site(Estimates::Requested, Walltime::Kill, LocalPolicy::Fcfs).1);
    let trace = bagsim::trace::bundled::hpc2n().expect("the bundled log");
    let s = bagsim::family::data_grid::DdScenario::new(
        1,
        DdConfig {
            sites: vec![240],
            data_share: 0.0,
            local_policy: LocalPolicy::Easy,
            walltime: Walltime::Kill,
            backfill_depth: 1,
            jobs: 100_000,
            ..DdConfig::default()
        },
    );
    let mut r = bagsim::family::data_grid::DdRun::new(&s, &trace).expect("a valid scenario");
    bagsim::family::contract::FamilyRun::step(&mut r, bagsim::family::contract::Budget::ToEnd);
    assert_eq!(starts(r.simulation()), fcfs);
    assert!(mean_wait(&jobs, &fcfs) > mean_wait(&jobs, &classic_easy(&jobs, 240)));
}

/// One depth per site, or one for all; a list of the wrong length is refused with a message naming the key, and a
/// depth past the largest run is refused with the allowed range.
#[test]
fn depths_per_site_and_bad_depths() {
    let s = |f: &dyn Fn(&mut DdConfig)| {
        let mut sc = window(LocalPolicy::Conservative, 0, Scheme::StartTimeNoDataAware);
        f(&mut sc.data_grid);
        records(&sc)
    };
    assert_eq!(s(&|c| c.backfill_depth = 4), s(&|c| c.site_backfill_depths = vec![4; 5]));
    assert_ne!(s(&|c| c.backfill_depth = 4), s(&|c| c.site_backfill_depths = vec![4, 0, 0, 0, 0]));
    let wrong = DdConfig { site_backfill_depths: vec![10, 10], ..Default::default() };
    let e = wrong.validate().expect_err("two depths for five sites");
    assert_eq!(e.field, "data_grid.site_backfill_depths");
    assert!(e.message.contains("2 depths for 5 sites"), "{}", e.message);
    let big = DdConfig { backfill_depth: 2_000_000, ..Default::default() };
    let e = big.validate().expect_err("a depth past a million");
    assert_eq!(e.field, "data_grid.backfill_depth");
    assert!(e.message.contains("allowed 0–1"), "{}", e.message);
    assert_eq!(bagsim::family::data_grid::sweep::path_of("backfill_depth"), "data_grid.backfill_depth");
}
