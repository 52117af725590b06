//! The performance benchmark (not a test): events per second, time per event and peak memory per task for the
//! Avg month at loads 0.5 and 0.95 under every scheduling policy, and the growth of the per-event cost from 16k to
//! 256k tasks in an overloaded run. Run with `cargo bench --bench engine`; `-- --quick` runs a subset;
//! `-- --only POLICY LOAD` and `-- --growth-one POLICY TASKS` run one case (for `scripts/instructions.sh`, which
//! counts instructions per event under callgrind, since hardware counters are not available on every machine).
//! The desktop-grid family has its own table first ([Anglano09]'s Low-Avail Heterogeneous configuration at 95%
//! load); `-- --dg-one MIX POLICY BOTS` runs one case. The data-grid family ([Liu10]) has a table too: the bundled
//! HPC2N log repeated to 5 000 and 50 000 jobs at high load under each scheme, local policy and backfill depth (all
//! queued jobs, or 100); `-- --dd-one SCHEME JOBS [POLICY [DEPTH]]`. A POLICY or
//! SCHEME may be a script file (`FILE.rhai`, docs/policies.md).

use bagsim::engine::Model;
use bagsim::family::desktop_grid::availability::AvailabilityLevel;
use bagsim::family::desktop_grid::config::Heterogeneity;
use bagsim::family::desktop_grid::policy::{BotPolicy, BotSelection};
use bagsim::family::desktop_grid::workload::Mix;
use bagsim::family::desktop_grid::{self, DgConfig};
use bagsim::family::multi_cluster::policy::scheduling::SchedulingPolicy;

use bagsim::run;
use bagsim::scenario::{McScenario, Scenario};
use bagsim::workload::generate::ArrivalPattern;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Counts live and peak heap bytes.
struct Counting;
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(l) };
        if !p.is_null() {
            let now = LIVE.fetch_add(l.size(), Ordering::Relaxed) + l.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) };
        LIVE.fetch_sub(l.size(), Ordering::Relaxed);
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        let q = unsafe { System.realloc(p, l, new) };
        if !q.is_null() {
            if new > l.size() {
                let now = LIVE.fetch_add(new - l.size(), Ordering::Relaxed) + new - l.size();
                PEAK.fetch_max(now, Ordering::Relaxed);
            } else {
                LIVE.fetch_sub(l.size() - new, Ordering::Relaxed);
            }
        }
        q
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

struct Measure {
    tasks: u64,
    events: u64,
    seconds: f64,
    /// Peak heap bytes of the simulation itself (workload copy, state, queues) above what was live before it.
    sim_bytes_per_task: f64,
    /// Peak heap bytes including generation and the report.
    total_bytes_per_task: f64,
    finished: f64,
}

fn measure(s: &McScenario) -> Measure {
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let p = run::prepare(s).expect("valid scenario");
    let tasks = p.generated.workload.tasks() as u64;
    let workload_bytes = p.generated.workload.tasks() * 8 + p.generated.workload.bots.len() * 32;
    let (mut sim, summary) = run::simulation(s, p);
    let generation_peak = PEAK.load(Ordering::Relaxed);
    // The simulation's own footprint: everything live now minus the prepared scenario, plus what the run adds.
    let before_run = LIVE.load(Ordering::Relaxed);
    let prepared = before_run - base;
    PEAK.store(before_run, Ordering::Relaxed);
    let t0 = Instant::now();
    sim.run();
    let seconds = t0.elapsed().as_secs_f64();
    let run_peak = PEAK.load(Ordering::Relaxed);
    let sim_bytes = run_peak - base - (prepared - workload_bytes);
    let report = run::report(s, summary, &sim, seconds);
    let total_peak = PEAK.load(Ordering::Relaxed).max(generation_peak);
    Measure {
        tasks,
        events: sim.events(),
        seconds,
        sim_bytes_per_task: sim_bytes as f64 / tasks as f64,
        total_bytes_per_task: (total_peak - base) as f64 / tasks as f64,
        finished: report.metrics.tasks.finished_fraction,
    }
}

/// The stress month of the yardstick: one global stream with runtimes in seconds and Table 3's normal read with a
/// standard deviation, exact monitoring (about 2 M tasks at 95%), the workload every instructions-per-event figure
/// since the first benchmark was measured on. The paper's default (per-cluster streams, minutes, variance) is
/// some 3.5 times larger; `bagsim reproduce` times that one.
fn month(policy: SchedulingPolicy, load: f64) -> McScenario {
    let mut s = McScenario { scheduling: policy, ..Default::default() };
    s.workload.load = Some(load);
    yardstick(&mut s);
    s
}

/// The readings every yardstick figure was measured under.
fn yardstick(s: &mut McScenario) {
    s.workload.streams = bagsim::workload::streams::Streams::Global;
    s.workload.calibration = bagsim::workload::model::Calibration::Seconds;
    s.workload.normal_param = bagsim::workload::model::NormalParam::Sd;
    s.architecture.monitoring_period = 0.0;
    s.policy_options.wqr_nx = bagsim::family::multi_cluster::policy::options::WqrNx::Copies;
    s.policy_options.rr_ring = bagsim::family::multi_cluster::policy::options::RrRing::Speed;
}

/// A policy by its name, or a script by its file (`….rhai`, docs/policies.md).
fn policy_arg(arg: &str) -> SchedulingPolicy {
    if arg.ends_with(".rhai") {
        let source = std::fs::read_to_string(arg).unwrap_or_else(|e| panic!("{arg}: {e}"));
        SchedulingPolicy::Script(bagsim::family::multi_cluster::policy::scheduling::ScriptSource::new(&source))
    } else {
        arg.parse().expect("policy")
    }
}

fn overloaded(tasks_target: u64, policy: SchedulingPolicy) -> McScenario {
    // All BoTs at t = 0 on 64 processors: the queue holds nearly the whole workload, the worst case for queues.
    let mut s = McScenario { scheduling: policy, seed: 7, ..Default::default() };
    yardstick(&mut s);
    s.platform.preset = None;
    s.platform.clusters = Some(
        (0..4)
            .map(|i| bagsim::family::multi_cluster::platform::Cluster {
                name: format!("c{i}"),
                processors: 16,
                speed: 1.0 + 0.25 * i as f64,
            })
            .collect(),
    );
    s.workload.arrival_pattern = ArrivalPattern::AllAtZero;
    s.workload.mean_runtime = Some(600.0);
    // Σ speeds = 16 × (1 + 1.25 + 1.5 + 1.75) = 88; mean task runtime 600 s: the period sets the task count.
    let capacity = 88.0;
    s.workload.load = Some(0.5);
    s.workload.submission_period = tasks_target as f64 * 600.0 / (0.5 * capacity);
    s
}

/// The desktop-grid yardstick: [Anglano09]'s Low-Avail Heterogeneous configuration at 95% load, `bots` BoTs of
/// `mix` under `policy` (seed 1).
fn desktop_grid(mix: Mix, policy: impl Into<BotPolicy>, bots: u32) -> Scenario {
    let cfg = DgConfig {
        availability: AvailabilityLevel::Low,
        heterogeneity: Heterogeneity::Heterogeneous,
        load: 0.95,
        mix,
        bot_selection: policy.into(),
        bots,
        ..Default::default()
    };
    Scenario::DesktopGrid(bagsim::family::desktop_grid::DgScenario::new(Scenario::default().seed(), cfg))
}

/// Events, wall time and heap bytes per task of a desktop-grid run.
fn measure_dg(s: &Scenario) -> (Measure, bool) {
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let s = &s.desktop_grid().expect("a desktop-grid scenario").clone();
    let (mut sim, summary) = desktop_grid::simulation(s).expect("valid scenario");
    let tasks = sim.workload().tasks() as u64;
    let t0 = Instant::now();
    sim.run();
    let seconds = t0.elapsed().as_secs_f64();
    let sim_peak = PEAK.load(Ordering::Relaxed);
    let report = desktop_grid::report(s, summary, &sim, seconds);
    let m = Measure {
        tasks,
        events: sim.events(),
        seconds,
        sim_bytes_per_task: (sim_peak - base) as f64 / tasks as f64,
        total_bytes_per_task: (PEAK.load(Ordering::Relaxed) - base) as f64 / tasks as f64,
        finished: report.metrics.finished_tasks as f64 / tasks as f64,
    };
    (m, report.metrics.saturated)
}

fn dg_mix(name: &str) -> Mix {
    *Mix::ALL.iter().find(|m| m.name() == name).expect("a Table III mix (all_vs, uniform, …)")
}

/// A BoT selection by name, or a script file (`FILE.rhai`).
fn dg_policy(name: &str) -> BotPolicy {
    match script_file(name) {
        Some(source) => BotPolicy::Script(source),
        None => {
            (*BotSelection::ALL.iter().find(|p| p.name() == name).expect("a BoT selection policy (rr_nrf, …)")).into()
        }
    }
}

/// The source of `arg` when it names a script file.
fn script_file(arg: &str) -> Option<bagsim::script::ScriptSource> {
    arg.ends_with(".rhai").then(|| {
        let source = std::fs::read_to_string(arg).unwrap_or_else(|e| panic!("{arg}: {e}"));
        bagsim::script::ScriptSource::new(&source)
    })
}

/// The bundled HPC2N log repeated (each copy shifted by the log's span) until it holds `jobs` jobs.
fn repeated_log(jobs: usize) -> bagsim::trace::Trace {
    let mut log = bagsim::trace::bundled::hpc2n().expect("the bundled log");
    let one = log.jobs.clone();
    let span = one.iter().map(|j| j.submit).fold(0.0, f64::max) + 1.0;
    let mut copy = 1.0;
    while log.jobs.len() < jobs {
        log.jobs.extend(one.iter().map(|j| bagsim::trace::Job { submit: j.submit + copy * span, ..j.clone() }));
        copy += 1.0;
    }
    log.jobs.truncate(jobs);
    log
}

/// A data-grid run of `jobs` jobs at high load (runtimes × 3) under `scheme`, data on half of the jobs up to 800 GB:
/// jobs, events, seconds, heap bytes per job of the simulation.
fn measure_dd(
    scheme: bagsim::family::data_grid::policy::SchemePolicy,
    policy: bagsim::family::data_grid::LocalPolicy,
    depth: u32,
    log: &bagsim::trace::Trace,
) -> (u64, u64, f64, f64) {
    use bagsim::family::contract::{Budget, FamilyRun};
    use bagsim::family::data_grid::{DdConfig, DdRun, DdScenario};
    let cfg = DdConfig {
        scheme,
        local_policy: policy,
        backfill_depth: depth,
        runtime_factor: 3.0,
        data_mb: [10.0, 800_000.0],
        jobs: log.jobs.len() as u32,
        ..Default::default()
    };
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let mut run = DdRun::new(&DdScenario::new(1, cfg), log).expect("valid scenario");
    let t0 = Instant::now();
    run.step(Budget::ToEnd);
    let seconds = t0.elapsed().as_secs_f64();
    let sim = run.simulation();
    let jobs = sim.jobs() as u64;
    (jobs, sim.events(), seconds, (PEAK.load(Ordering::Relaxed) - base) as f64 / jobs as f64)
}

/// A scheme by name, or a script file (`FILE.rhai`).
fn dd_scheme(name: &str) -> bagsim::family::data_grid::policy::SchemePolicy {
    use bagsim::family::data_grid::policy::SchemePolicy;
    match script_file(name) {
        Some(source) => SchemePolicy::Script(source),
        None => (*bagsim::family::data_grid::Scheme::ALL
            .iter()
            .find(|s| s.name() == name)
            .expect("a scheme (finish_time_data_aware, …)"))
        .into(),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--dd-one") {
        let scheme = dd_scheme(&args[i + 1]);
        let n: usize = args[i + 2].parse().expect("jobs");
        let policy = args.get(i + 3).map_or(bagsim::family::data_grid::LocalPolicy::Conservative, |p| {
            *bagsim::family::data_grid::LocalPolicy::ALL.iter().find(|l| l.name() == p).expect("a local policy")
        });
        let depth: u32 = args.get(i + 4).map_or(0, |d| d.parse().expect("a backfill depth"));
        let (jobs, events, s, b) = measure_dd(scheme.clone(), policy, depth, &repeated_log(n));
        println!(
            "data grid {} {} depth {depth}: {jobs} jobs, {events} events, {s:.3} s, {b:.0} B/job",
            scheme.name(),
            policy.name()
        );
        return;
    }
    if let Some(i) = args.iter().position(|a| a == "--dg-one") {
        let (mix, policy) = (dg_mix(&args[i + 1]), dg_policy(&args[i + 2]));
        let bots: u32 = args[i + 3].parse().expect("BoTs");
        let (m, saturated) = measure_dg(&desktop_grid(mix, policy.clone(), bots));
        println!(
            "desktop grid {} {}: {} tasks, {} events, {:.3} s, {:.2} Mevents/s, {:.0} sim B/task, saturated \
             {saturated}",
            mix.name(),
            policy.name(),
            m.tasks,
            m.events,
            m.seconds,
            m.events as f64 / m.seconds / 1e6,
            m.sim_bytes_per_task
        );
        return;
    }
    if let Some(i) = args.iter().position(|a| a == "--only") {
        let policy = policy_arg(&args[i + 1]);
        let load: f64 = args[i + 2].parse().expect("load");
        let mut s = month(policy.clone(), load);
        // An optional third argument shortens the month to that many days (callgrind on a slow policy).
        if let Some(days) = args.get(i + 3).and_then(|d| d.parse::<f64>().ok()) {
            s.workload.submission_period = days * 86_400.0;
        }
        let m = measure(&s);
        println!("{policy} load {load}: {} tasks, {} events, {:.3} s", m.tasks, m.events, m.seconds);
        return;
    }
    if let Some(i) = args.iter().position(|a| a == "--growth-one") {
        let policy = policy_arg(&args[i + 1]);
        let target: u64 = args[i + 2].parse().expect("tasks");
        let m = measure(&overloaded(target, policy.clone()));
        println!("{policy} overloaded: {} tasks, {} events, {:.3} s", m.tasks, m.events, m.seconds);
        return;
    }
    let quick = args.iter().any(|a| a == "--quick");
    println!("# bagsim engine benchmark (release build; wall-clock on this machine)");
    println!();
    println!("## Desktop grid ([Anglano09]): Low-Avail Heterogeneous, load 0.95");
    println!();
    println!(
        "| mix | policy | BoTs | tasks | events | finished | saturated | s | Mevents/s | ns/event | sim B/task | peak \
         B/task |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    let dg_cases: Vec<(Mix, BotSelection)> = if quick {
        vec![(Mix::Uniform, BotSelection::RrNrf)]
    } else {
        BotSelection::ALL.iter().map(|&p| (Mix::Uniform, p)).chain([(Mix::AllVs, BotSelection::RrNrf)]).collect()
    };
    for (mix, policy) in dg_cases {
        for bots in [250, 1000] {
            let (m, saturated) = measure_dg(&desktop_grid(mix, policy, bots));
            println!(
                "| {} | {} | {bots} | {} | {} | {:.3} | {saturated} | {:.3} | {:.2} | {:.0} | {:.0} | {:.0} |",
                mix.label(),
                policy.label(),
                m.tasks,
                m.events,
                m.finished,
                m.seconds,
                m.events as f64 / m.seconds / 1e6,
                m.seconds * 1e9 / m.events as f64,
                m.sim_bytes_per_task,
                m.total_bytes_per_task
            );
        }
    }
    println!();
    println!("## Data grid ([Liu10]): HPC2N repeated, runtimes × 3, data on half of the jobs up to 800 GB");
    println!();
    println!("| scheme | local policy | backfill depth | jobs | events | s | jobs/s | Mevents/s | sim B/job |");
    println!("|---|---|---|---|---|---|---|---|---|");
    let sizes: &[usize] = if quick { &[5_000] } else { &[5_000, 50_000] };
    for &n in sizes {
        let log = repeated_log(n);
        for scheme in bagsim::family::data_grid::Scheme::ALL {
            for policy in bagsim::family::data_grid::LocalPolicy::ALL {
                // Unbounded (the paper's), and Slurm-like: 100 queued jobs considered per pass.
                for depth in [0, 100] {
                    let (jobs, events, s, b) = measure_dd(scheme.into(), policy, depth, &log);
                    println!(
                        "| {} | {} | {} | {jobs} | {events} | {s:.3} | {:.0} | {:.2} | {b:.0} |",
                        scheme.name(),
                        policy.name(),
                        if depth == 0 { "all".to_string() } else { depth.to_string() },
                        jobs as f64 / s,
                        events as f64 / s / 1e6
                    );
                }
            }
        }
    }
    println!();
    println!("## Avg month on DAS-2 + Grid'5000, csp / S-T");
    println!();
    println!("| policy | load | tasks | events | finished | s | Mevents/s | ns/event | sim B/task | peak B/task |");
    println!("|---|---|---|---|---|---|---|---|---|---|");
    let mut policies: Vec<SchedulingPolicy> =
        if quick { vec![SchedulingPolicy::Fplt, SchedulingPolicy::Ect] } else { SchedulingPolicy::ALL.to_vec() };
    // The FPLT example as a script (docs/policies.md): what a user's policy costs against the built-in.
    policies.push(policy_arg(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/policies/fplt.rhai")));
    for policy in &policies {
        for load in [0.5, 0.95] {
            let m = measure(&month(policy.clone(), load));
            println!(
                "| {policy} | {load} | {} | {} | {:.3} | {:.3} | {:.2} | {:.0} | {:.0} | {:.0} |",
                m.tasks,
                m.events,
                m.finished,
                m.seconds,
                m.events as f64 / m.seconds / 1e6,
                m.seconds * 1e9 / m.events as f64,
                m.sim_bytes_per_task,
                m.total_bytes_per_task
            );
        }
    }
    println!();
    println!("## Growth in an overloaded run (all BoTs at t = 0 on 64 processors)");
    println!();
    println!("| policy | tasks | events | ns/event | ratio to 16k | sim B/task |");
    println!("|---|---|---|---|---|---|");
    let growth: Vec<SchedulingPolicy> = if quick {
        vec![SchedulingPolicy::Fplt]
    } else {
        vec![
            SchedulingPolicy::Fpf,
            SchedulingPolicy::Fplt,
            SchedulingPolicy::Ect,
            SchedulingPolicy::Wqr { replicas: 3 },
        ]
    };
    for policy in &growth {
        let mut first = None;
        for target in [16_000u64, 32_000, 64_000, 128_000, 256_000] {
            let m = measure(&overloaded(target, policy.clone()));
            let ns = m.seconds * 1e9 / m.events as f64;
            let base = *first.get_or_insert(ns);
            println!(
                "| {policy} | {} | {} | {:.0} | {:.2} | {:.0} |",
                m.tasks,
                m.events,
                ns,
                ns / base,
                m.sim_bytes_per_task
            );
        }
    }
}
