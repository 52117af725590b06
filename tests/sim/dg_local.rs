//! The data-grid sites as batch schedulers: walltime limits (a job stopped at its request, and a scheduler that
//! never sees a runtime under requested estimates), the log's job numbers in per-job output, and the local
//! policies (FCFS, EASY, conservative backfilling) by hand, against an independent brute-force scheduler, and with
//! their guarantees on windows of the log.

use bagsim::engine::Model;
use bagsim::family::contract::{Budget, FamilyRun};
use bagsim::family::data_grid::{DdConfig, DdRun, DdScenario, Estimates, Walltime};

/// A log of three rigid jobs in SWF, with the log's own job numbers 101, 205 and 307 (fields: job, submit, wait,
/// run, allocated processors, CPU, memory, requested processors, requested time, requested memory, status, user,
/// group, executable, queue, partition, preceding job, think time).
const LOG: &str = "\
101 0 -1 10 4 -1 -1 4 6 -1 1 1 1 1 1 1 -1 -1
205 1 -1 3 4 -1 -1 4 5 -1 1 1 1 1 1 1 -1 -1
307 2 -1 2 2 -1 -1 2 8 -1 1 1 1 1 1 1 -1 -1
";

fn run_log(walltime: Walltime, estimates: Estimates) -> DdRun {
    let trace = bagsim::trace::import(LOG.as_bytes()).expect("the hand log imports");
    let cfg = DdConfig {
        sites: vec![4],
        data_share: 0.0,
        estimates,
        walltime,
        trace: "hand.swf".into(),
        ..DdConfig::default()
    };
    let mut r = DdRun::new(&DdScenario::new(1, cfg), &trace).expect("a valid scenario");
    r.step(Budget::ToEnd);
    r
}

/// (log job, first reservation, start, end, killed) of every job, in the window's order.
fn placements(r: &DdRun) -> Vec<(i64, f64, f64, f64, bool)> {
    r.simulation().records().iter().map(|j| (j.log_job, j.reservation, j.hold_start, j.end, j.killed)).collect()
}

/// On 4 processors: job 101 (4 processors) runs 10 s on a request of 6, job 205 (4 processors, 3 s of 5) arrives
/// at 1, job 307 (2 processors, 2 s of 8) at 2. Stopped at its request, 101 ends at 6 and the site, seeing only
/// requests, reserves 205 at 6 (to 11 by its request; it ends at 9) and 307 at 11, the first time 2 processors are
/// free for 8 s after 205's reservation: compression at 9 moves 307 to 9. Run to its logged time, 101's request is
/// raised to 10 s, 205 is reserved at 10 and 307 at 15, then moved to 13.
#[test]
fn a_job_reaching_its_request_is_stopped_and_the_site_sees_only_requests() {
    let killed = run_log(Walltime::Kill, Estimates::Requested);
    assert_eq!(
        placements(&killed),
        vec![(101, 0.0, 0.0, 6.0, true), (205, 6.0, 6.0, 9.0, false), (307, 11.0, 9.0, 11.0, false)]
    );
    let m = killed.report(0.0).metrics;
    assert_eq!((m.killed, m.computation.max), (1, 6.0), "one job stopped, having computed its request");
    let ran = run_log(Walltime::RunToLog, Estimates::Requested);
    assert_eq!(
        placements(&ran),
        vec![(101, 0.0, 0.0, 10.0, false), (205, 10.0, 10.0, 13.0, false), (307, 15.0, 13.0, 15.0, false)]
    );
    // With accurate estimates no job reaches a request: the walltime reading changes nothing.
    let a = placements(&run_log(Walltime::Kill, Estimates::Accurate));
    assert_eq!(a, placements(&run_log(Walltime::RunToLog, Estimates::Accurate)));
    assert_eq!(a[0], (101, 0.0, 0.0, 10.0, false));
}

#[test]
fn per_job_rows_carry_the_log_job_numbers() {
    let r = run_log(Walltime::Kill, Estimates::Requested);
    let csv = r.rows_csv().unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().expect("a header").split(',').collect();
    assert_eq!((header[0], header[1], *header.last().unwrap()), ("log_job", "job", "killed"));
    let rows: Vec<(String, String, String)> = lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[0].to_string(), f[1].to_string(), f[f.len() - 1].to_string())
        })
        .collect();
    let want = [("101", "0", "1"), ("205", "1", "0"), ("307", "2", "0")];
    assert_eq!(rows, want.map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string())).to_vec());
    // The progress messages (the page's per-job report) carry them too.
    let mut fresh = run_log(Walltime::Kill, Estimates::Requested);
    let ids: Vec<i64> = fresh.take_detail().jobs.iter().map(|j| j.log_job).collect();
    assert_eq!(ids, vec![101, 205, 307]);
}

use crate::data_grid::{check_invariants, plain, run, run_scenario, scenario, settings};
use bagsim::engine::Rng;
use bagsim::family::data_grid::sim::Settings;
use bagsim::family::data_grid::{BackfillRule, LocalPolicy, Scheme};

/// A job of a hand or random case: submission, processors, runtime, estimate (runtime ≤ estimate), integer seconds.
type Plain = (f64, u32, f64, f64);

fn policy(p: LocalPolicy) -> Settings {
    Settings { local_policy: p, ..settings(Scheme::FinishTimeDataAware, BackfillRule::DataAware) }
}

/// An independent batch scheduler for one site, stepped second by second: at each second the jobs that ended
/// give their processors back, the jobs submitted join the queue, the head starts while it fits; under EASY each
/// later job, in order, then starts if it fits now and ends by the shadow time (when the head will have its
/// processors, from the running jobs' estimated ends) or uses only the processors the head leaves spare then (the
/// classic formulation of Lifka's EASY, with "shadow" and "extra"). Returns each job's start.
fn brute_force(jobs: &[Plain], processors: u32, easy: bool) -> Vec<f64> {
    let mut start = vec![f64::NAN; jobs.len()];
    let mut queue: Vec<usize> = Vec::new();
    let mut running: Vec<usize> = Vec::new();
    let (mut arrived, mut t) = (0, 0.0);
    while start.iter().any(|s| s.is_nan()) {
        running.retain(|&j| start[j] + jobs[j].2 > t);
        while arrived < jobs.len() && jobs[arrived].0 <= t {
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
        if easy && !queue.is_empty() {
            let need = jobs[queue[0]].1;
            let mut ends: Vec<(f64, u32)> = running.iter().map(|&j| (start[j] + jobs[j].3, jobs[j].1)).collect();
            ends.sort_by(|a, b| a.0.total_cmp(&b.0));
            let (mut avail, mut shadow, mut i) = (free, t, 0);
            while avail < need {
                shadow = ends[i].0;
                while i < ends.len() && ends[i].0 == shadow {
                    avail += ends[i].1;
                    i += 1;
                }
            }
            let mut extra = avail - need;
            let mut q = 1;
            while q < queue.len() {
                let j = queue[q];
                let (procs, est) = (jobs[j].1, jobs[j].3);
                if procs <= free && (t + est <= shadow || procs <= extra) {
                    (start[j], free) = (t, free - procs);
                    if t + est > shadow {
                        extra -= procs;
                    }
                    running.push(queue.remove(q));
                } else {
                    q += 1;
                }
            }
        }
        t += 1.0;
    }
    start
}

fn random_case(rng: &mut Rng) -> (u32, Vec<Plain>) {
    let processors = 1 + rng.below(8) as u32;
    let n = 1 + rng.below(25) as usize;
    let mut t = 0.0;
    let jobs = (0..n)
        .map(|_| {
            t += rng.below(4) as f64;
            let estimate = 1.0 + rng.below(12) as f64;
            let runtime = 1.0 + rng.below(estimate as u64) as f64;
            (t, 1 + rng.below(u64::from(processors)) as u32, runtime, estimate)
        })
        .collect();
    (processors, jobs)
}

/// FCFS and EASY on random single-site cases with early ends, against the brute-force scheduler; the cases are
/// varied enough that each policy's schedule differs from conservative backfilling's on some of them.
#[test]
fn fcfs_and_easy_equal_an_independent_brute_force_scheduler() {
    let mut rng = Rng::stream(2026, "test.local_policies");
    let mut differ = [0, 0];
    for case in 0..300 {
        let (processors, jobs) = random_case(&mut rng);
        let starts = |p: LocalPolicy| -> Vec<f64> {
            run(plain(&jobs, 1), &[processors], policy(p)).records().iter().map(|r| r.hold_start).collect()
        };
        let conservative = starts(LocalPolicy::Conservative);
        for (i, (p, easy)) in [(LocalPolicy::Fcfs, false), (LocalPolicy::Easy, true)].into_iter().enumerate() {
            let got = starts(p);
            assert_eq!(
                got,
                brute_force(&jobs, processors, easy),
                "case {case}, {}: {processors} processors, {jobs:?}",
                p.name()
            );
            differ[i] += usize::from(got != conservative);
        }
    }
    assert!(differ.iter().all(|&d| d > 10), "policies differ from conservative on too few cases: {differ:?}");
}

/// On 4 processors, exact estimates: A (0 s, 3 processors, 10 s) runs; B (1 s, 3 processors, 5 s) waits for it,
/// C (2 s, 4 processors, 10 s) for B, and D (3 s, 1 processor, 20 s) could run now beside A and B but not beside
/// C. FCFS: B at 10, C at 15, D after C at 25. Conservative backfilling reserves C at 15 and so cannot start D
/// before C ends: D at 25 too. EASY guarantees only B (the head): D starts at 3, beside A and then B, and C, the
/// next head, waits for D to end, at 23.
#[test]
fn the_three_policies_by_hand() {
    let jobs = [(0.0, 3, 10.0, 10.0), (1.0, 3, 5.0, 5.0), (2.0, 4, 10.0, 10.0), (3.0, 1, 20.0, 20.0)];
    let starts = |p: LocalPolicy| -> Vec<f64> {
        run(plain(&jobs, 1), &[4], policy(p)).records().iter().map(|r| r.hold_start).collect()
    };
    assert_eq!(starts(LocalPolicy::Fcfs), vec![0.0, 10.0, 15.0, 25.0]);
    assert_eq!(starts(LocalPolicy::Conservative), vec![0.0, 10.0, 15.0, 25.0]);
    assert_eq!(starts(LocalPolicy::Easy), vec![0.0, 10.0, 23.0, 3.0]);
}

/// On windows of the log, under every local policy, scheme and estimate: every job ran once, never after the start
/// its site guaranteed it (EASY: its reservation as the first queued job, so no backfilled job delayed it), no
/// site held more processors than it has; under FCFS no job started before one that reached its site earlier.
#[test]
fn every_local_policy_keeps_its_guarantees_on_windows_of_the_log() {
    for p in [LocalPolicy::Easy, LocalPolicy::Fcfs] {
        for (i, scheme) in Scheme::ALL.into_iter().enumerate() {
            for walltime in Walltime::ALL {
                let s = scenario(20 + i as u64, |c| {
                    c.local_policy = p;
                    c.scheme = scheme.into();
                    c.walltime = walltime;
                    c.jobs = 400;
                    c.first_job = 250 * i as u32;
                    c.runtime_factor = 3.0;
                    c.data_mb = [10.0, 800_000.0];
                });
                let what = format!("{} {} {}", p.name(), scheme.name(), walltime.name());
                let r = run_scenario(&s);
                let sim = r.simulation();
                check_invariants(sim, &s.data_grid.sites, scheme, BackfillRule::DataAware, &what);
                if p == LocalPolicy::Fcfs {
                    for k in 0..s.data_grid.sites.len() {
                        let starts: Vec<f64> =
                            sim.records().iter().filter(|r| r.site as usize == k).map(|r| r.hold_start).collect();
                        assert!(starts.windows(2).all(|w| w[0] <= w[1]), "{what}: site {k} overtook under FCFS");
                    }
                }
            }
        }
    }
}

/// One scheduler per site: a list of the same policy everywhere is that policy; a mixed list keeps FCFS's order at
/// its FCFS site; a list of the wrong length is refused with a message naming the key.
#[test]
fn each_site_may_run_its_own_scheduler() {
    let placements = |f: &dyn Fn(&mut bagsim::family::data_grid::DdConfig)| -> Vec<(u32, f64, f64)> {
        let s = scenario(4, |c| {
            c.sites = vec![130, 64];
            c.jobs = 500;
            c.runtime_factor = 3.0;
            c.data_mb = [10.0, 800_000.0];
            f(c);
        });
        run_scenario(&s).simulation().records().iter().map(|r| (r.site, r.hold_start, r.end)).collect()
    };
    let easy = placements(&|c| c.local_policy = LocalPolicy::Easy);
    assert_eq!(easy, placements(&|c| c.site_policies = vec![LocalPolicy::Easy; 2]));
    assert_ne!(easy, placements(&|_| {}), "EASY and conservative backfilling gave one schedule");
    let mixed = placements(&|c| c.site_policies = vec![LocalPolicy::Fcfs, LocalPolicy::Easy]);
    let fcfs_starts: Vec<f64> = mixed.iter().filter(|r| r.0 == 0).map(|r| r.1).collect();
    assert!(fcfs_starts.windows(2).all(|w| w[0] <= w[1]), "the FCFS site let a job overtake");
    let wrong = bagsim::family::data_grid::DdConfig { site_policies: vec![LocalPolicy::Fcfs], ..Default::default() };
    let e = wrong.validate().expect_err("one policy for five sites");
    assert_eq!(e.field, "data_grid.site_policies");
    assert!(e.message.contains("1 policies for 5 sites"), "{}", e.message);
}

/// Compressions start a job's query where an earlier job of the same compression showed that nothing fits before
/// (`Simulation::set_compression_skips`): on windows of the log under every scheme, with conservative backfilling
/// and FCFS, requested estimates (so that jobs end early) and either backfill rule, the schedule equals the one
/// that scans every query from the time asked, bit for bit, and some queries did start later.
#[test]
fn skipping_what_cannot_fit_changes_no_schedule() {
    use bagsim::family::data_grid::{sim::Simulation, workload};
    let trace = bagsim::trace::bundled::hpc2n().expect("the bundled log");
    let mut skipped = 0;
    for (i, scheme) in Scheme::ALL.into_iter().enumerate() {
        for (p, policy) in [LocalPolicy::Conservative, LocalPolicy::Fcfs].into_iter().enumerate() {
            for rule in BackfillRule::ALL {
                let cfg = DdConfig {
                    scheme: scheme.into(),
                    local_policy: policy,
                    backfill_rule: rule,
                    jobs: 600,
                    first_job: 400 * (2 * i + p) as u32,
                    runtime_factor: 3.0,
                    data_mb: [10.0, 800_000.0],
                    ..DdConfig::default()
                };
                let w = workload::build(&cfg, 5 + i as u64, &trace).expect("a window of the log");
                let settings = Settings {
                    scheme: scheme.into(),
                    backfill_rule: rule,
                    local_policy: policy,
                    dispatch_delay: cfg.dispatch_delay,
                    sample_interval: 3600.0,
                };
                let run = |skips: bool| {
                    let mut sim = Simulation::new(settings.clone(), &cfg.sites, w.clone());
                    sim.set_compression_skips(skips);
                    sim.run();
                    sim
                };
                let (with, without) = (run(true), run(false));
                let what = format!("{} {} {}", scheme.name(), policy.name(), rule.name());
                assert_eq!(with.records(), without.records(), "{what}: skipping changed the schedule");
                assert_eq!(with.events(), without.events(), "{what}");
                assert_eq!(without.skipped(), 0);
                skipped += with.skipped();
            }
        }
    }
    assert!(skipped > 1_000, "only {skipped} queries started later: the test does not exercise skipping");
}
