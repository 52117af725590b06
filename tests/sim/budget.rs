//! The budget of every family (docs/budget.md): what a run will cost, estimated from its scenario before anything
//! runs (`registry::estimate`), against what runs take; a run over the budget is refused before anything runs,
//! naming the key that drives it and the limit, and a long one is warned about. The reproducers of the bad-input
//! issue are among the cases.

use bagsim::engine::Model;
use bagsim::family::contract::{run_to_report, Estimate, FamilyRun, MAX_EVENTS};
use bagsim::family::desktop_grid::availability::AvailabilityLevel;
use bagsim::family::desktop_grid::{self, DgConfig, DgScenario};
use bagsim::registry::{estimate, AnyReport, AnyRun};
use bagsim::scenario::Scenario;
use bagsim::trace::TraceSize;

fn reproducer(horizon: f64) -> DgConfig {
    // A grid in which no BoT can finish: machines fail every 3 s on average and take 30 minutes to repair.
    DgConfig {
        bots: 46,
        mttf: Some(vec![3.0224]),
        application_size: 6510.5,
        horizon: Some(horizon),
        ..Default::default()
    }
}

fn dg(cfg: DgConfig) -> Scenario {
    Scenario::DesktopGrid(bagsim::family::desktop_grid::DgScenario::new(Scenario::default().seed(), cfg))
}

/// What a run measured: its events (for a data grid, with its re-placed jobs as the estimate counts them), and per
/// part of the estimate the count the run held.
struct Measured {
    events: f64,
    counts: Vec<(&'static str, f64)>,
}

fn measure(s: &Scenario) -> (Estimate, Measured) {
    let mut run = AnyRun::build(s, None).unwrap_or_else(|e| panic!("{e}"));
    // The estimate of a run on a trace counts the trace it read; the tests' traces are the bundled log.
    let size = bagsim::registry::trace_named(s).map(|name| {
        bagsim::trace::import_path(std::path::Path::new(name), None).expect("the test's trace").report.size
    });
    let est = estimate(s, size.as_ref());
    let report = run_to_report(&mut run, &|| 0.0);
    let m = match (&report, &run) {
        (AnyReport::MultiCluster(r), _) => Measured {
            events: r.metrics.system.events as f64,
            counts: vec![
                ("tasks", r.workload.tasks as f64),
                ("BoTs", r.workload.bots as f64),
                ("series samples", r.metrics.series.len() as f64),
            ],
        },
        (AnyReport::DesktopGrid(r), _) => Measured {
            events: r.metrics.counters.events as f64,
            counts: vec![("tasks", r.workload.tasks as f64), ("series samples", r.metrics.series.len() as f64)],
        },
        (AnyReport::DataGrid(r), AnyRun::DataGrid(run)) => {
            let sim = run.simulation();
            Measured {
                events: sim.events() as f64
                    + bagsim::family::data_grid::config::REPLACEMENT_EVENTS * sim.replacements() as f64,
                counts: vec![("jobs", r.workload.jobs as f64), ("series samples", sim.samples().len() as f64)],
            }
        }
        _ => unreachable!("a report of the run's family"),
    };
    (est, m)
}

/// Checks that the estimate bounds the run: events within [measured / 2, `most` × measured], each count within
/// [measured / 2, `most` × measured] (a count of a few is allowed its few).
fn bounds(name: &str, s: &Scenario, most: f64) {
    let (est, m) = measure(s);
    let ratio = est.events / m.events;
    assert!((0.5..=most).contains(&ratio), "{name}: estimate {:.3e} events, run {:.3e}", est.events, m.events);
    for (what, measured) in m.counts {
        let expected = est.count(what).unwrap_or_else(|| panic!("{name}: no estimate of {what}"));
        let ok = expected >= 0.5 * measured && expected <= most * measured.max(10.0);
        assert!(ok, "{name}: estimate {expected:.3e} {what}, run {measured:.3e}");
    }
}

fn mc(json: &str) -> Scenario {
    Scenario::from_json(json).unwrap_or_else(|e| panic!("{json}: {e}"))
}

/// The estimate bounds what runs of every family and workload generator take, within small factors of the
/// measured counts (docs/budget.md gives them per family). `BUDGET_SHOW=1` prints each estimate against its run.
#[test]
fn the_estimate_bounds_the_runs_of_every_family() {
    let week = r#""submission_period": 604800"#;
    let cases: Vec<(&str, Scenario, f64)> = vec![
        ("multi-cluster, the Avg model", mc(&format!(r#"{{"workload": {{{week}}}}}"#)), 2.0),
        (
            "multi-cluster, T2 at load 0.9",
            mc(&format!(r#"{{"workload": {{"preset": "T2", "load": 0.9, {week}}}}}"#)),
            // Samples are estimated up to the horizon (the period + 30 days); T2's runtimes under the variance
            // reading are short enough that the run ends days after the period, a quarter of that.
            4.0,
        ),
        (
            "multi-cluster, the model's own rate (overloaded: it stops at the horizon)",
            // Under the gamma law (the default before `task_runtime_law`) a few tasks of weeks keep this run to its
            // horizon; under the lognormal default it drains about two days after the week.
            mc(&format!(r#"{{"workload": {{"load": null, "task_runtime_law": "gamma", {week}}}}}"#)),
            4.0,
        ),
        (
            "multi-cluster, WQR-3 on a global stream",
            mc(&format!(r#"{{"scheduling": "WQR-3", "workload": {{"streams": "global", {week}}}}}"#)),
            4.0,
        ),
        (
            "multi-cluster, csp with monitoring",
            mc(&format!(r#"{{"architecture": {{"kind": "csp", "monitoring_period": 600}}, "workload": {{{week}}}}}"#)),
            4.0,
        ),
        ("Login/Logout", mc(&format!(r#"{{"workload": {{{week}, "generator": {{"login_logout": {{}}}}}}}}"#)), 2.0),
        (
            "Login/Logout at its own rates",
            mc(&format!(r#"{{"workload": {{"load": null, {week}, "generator": {{"login_logout": {{}}}}}}}}"#)),
            3.0,
        ),
        ("Minh–Wolters", mc(&format!(r#"{{"workload": {{{week}, "generator": {{"minh_wolters": {{}}}}}}}}"#)), 3.0),
        // Few jobs: the monitoring service's refresh every 60 s over the horizon (period + 30 days) is most of the
        // estimate, and the run stops refreshing once its last job ends, days before the horizon.
        ("a trace, parallel jobs left out", mc(r#"{"workload": {"trace": {"path": "tests/data/hpc2n.swf"}}}"#), 4.0),
        (
            "a trace, parallel jobs split",
            mc(r#"{"workload": {"trace": {"path": "tests/data/hpc2n.swf", "split_parallel": true}}}"#),
            4.0,
        ),
        ("desktop grid, the reproducer to its horizon", dg(reproducer(4.877e7)), 2.0),
        (
            "desktop grid, always up",
            dg(DgConfig { availability: AvailabilityLevel::AlwaysUp, bots: 50, ..Default::default() }),
            4.0,
        ),
        (
            "desktop grid, FCFS-Excl replicating without a threshold",
            dg(DgConfig {
                bot_selection: bagsim::family::desktop_grid::policy::BotSelection::FcfsExcl.into(),
                bots: 20,
                application_size: 360_000.0,
                ..Default::default()
            }),
            4.0,
        ),
        ("desktop grid, the default", dg(DgConfig::default()), 8.0),
        (
            "desktop grid, low availability",
            dg(DgConfig { availability: AvailabilityLevel::Low, bots: 50, ..Default::default() }),
            8.0,
        ),
        ("data grid, the default", Scenario::default_for(bagsim::registry::Family::DataGrid), 3.0),
        ("data grid, high load", mc(r#"{"family": "data_grid", "data_grid": {"runtime_factor": 3}}"#), 3.0),
        ("data grid, overloaded", mc(r#"{"family": "data_grid", "data_grid": {"runtime_factor": 30}}"#), 4.0),
        (
            "data grid, accurate estimates",
            mc(r#"{"family": "data_grid", "data_grid": {"runtime_factor": 10, "estimates": "accurate"}}"#),
            4.0,
        ),
    ];
    for (name, s, most) in &cases {
        if std::env::var("BUDGET_SHOW").is_ok() {
            let (est, m) = measure(s);
            println!(
                "{name}: {:.3e} / {:.3e} events; {:?} / {:?}",
                est.events,
                m.events,
                est.memory.iter().map(|p| (p.what, p.count)).collect::<Vec<_>>(),
                m.counts
            );
            continue;
        }
        bounds(name, s, *most);
    }
}

/// The login periods a Login/Logout user draws, counted by the generator itself, against the estimate.
#[test]
fn login_periods_are_estimated() {
    use bagsim::engine::Rng;
    use bagsim::workload::login_logout::{sessions, LoginLogout};
    let period = 2_592_000.0;
    let s = mc(r#"{"workload": {"load": null, "streams": "global", "generator": {"login_logout": {}}}}"#);
    let est = estimate(&s, None);
    let g = LoginLogout::default();
    let most = g
        .users
        .iter()
        .enumerate()
        .map(|(i, u)| sessions(u, &mut Rng::stream(1, &format!("arrivals-user-{i}")), period).unwrap().len())
        .max()
        .unwrap() as f64;
    let expected = est.count("login periods").unwrap();
    assert!((0.5..=2.0).contains(&(expected / most)), "estimate {expected}, drawn {most}");
}

/// The reproducers of the bad-input issue (item 1), and the runs that could not finish (item 2), are refused
/// before anything runs, naming the key that drives them and the limit.
#[test]
fn over_budget_runs_are_refused_naming_what_drives_them() {
    let refusal = |json: &str| match AnyRun::build(&mc(json), None) {
        Err(e) => e,
        Ok(_) => panic!("{json} was not refused"),
    };
    for mu in ["2.7e-5", "5e-324"] {
        // concat! hides `mu` from the format string, hence `mu = mu`.
        let json = format!(
            concat!(
                r#"{{"platform":{{"clusters":[{{"name":"a","processors":45,"speed":4.0}}]}},"#,
                r#""workload":{{"submission_period":600,"generator":{{"login_logout":{{"users":[{{"name":"u","#,
                r#""lambda":0.025,"delta":0.13,"mu":{mu}}}],"runtime":{{"family":"constant","#,
                r#""value":2.0}}}}}}}}}}"#
            ),
            mu = mu
        );
        let e = refusal(&json);
        assert_eq!(e.field, "workload.generator.login_logout.users[0].mu", "{e}");
        // Drawing the workload alone (bagsim generate, the page's views) is refused the same way.
        let s = mc(&json);
        let generated = bagsim::run::prepare(s.multi_cluster().unwrap()).err().expect("refused");
        assert_eq!(generated, e);
        assert!(e.message.contains("login periods") && e.message.contains("at most"), "{e}");
        assert!(e.message.len() < 400, "{e}");
    }
    let e = refusal(concat!(
        r#"{"family":"desktop_grid","desktop_grid":{"bots":1,"mttf":[1],"repair_mean":1e9,"#,
        r#""horizon":1e9,"sample_interval":1}}"#
    ));
    assert_eq!(e.field, "desktop_grid.sample_interval", "{e}");
    assert!(e.message.contains("series samples") && e.message.contains("at most"), "{e}");
    let e = AnyRun::build(&dg(reproducer(9e10)), None).err().expect("refused");
    assert_eq!(e.field, "desktop_grid.horizon");
    assert!(e.message.contains("mttf") && e.message.contains("at most"), "{}", e.message);
    // A model whose tasks would not fit: a year of the Avg model on a platform a hundred times DAS-2 + Grid'5000.
    let e = refusal(concat!(
        r#"{"platform":{"clusters":[{"name":"a","processors":400000,"speed":1}]},"#,
        r#""workload":{"submission_period":31536000}}"#
    ));
    assert_eq!(e.field, "workload.submission_period", "{e}");
    assert!(e.message.contains("tasks"), "{e}");
    // A series sample every minute of ten years.
    let e = refusal(r#"{"horizon": 315360000, "workload": {"submission_period": 60}}"#);
    assert_eq!(e.field, "sample_interval", "{e}");
    assert!(e.message.contains("memory") && e.message.contains("series samples"), "{e}");
}

/// A data-grid log of many jobs at a load the sites cannot carry: conservative backfilling places the queued jobs
/// again at every early end, and the run is refused at the runtime factor that overloads them.
#[test]
fn an_overloaded_data_grid_is_refused_at_its_load() {
    let cfg = bagsim::family::data_grid::DdConfig { jobs: 1_000_000, runtime_factor: 10.0, ..Default::default() };
    // A log like HPC2N's, 300 times as long.
    let b = bagsim::trace::bundled::HPC2N_SIZE;
    let size = TraceSize {
        jobs: b.jobs * 300,
        processors: b.processors * 300,
        work: b.work * 300.0,
        last_submit: b.last_submit * 300.0,
        ..b
    };
    let e = cfg.estimate(Some(&size)).check().unwrap_err();
    assert_eq!(e.field, "data_grid.runtime_factor", "{e}");
    let quiet = bagsim::family::data_grid::DdConfig { jobs: 1_000_000, ..Default::default() };
    quiet.estimate(Some(&size)).check().unwrap();
    assert!(cfg.estimate(Some(&size)).events > MAX_EVENTS);
}

/// Below the budget but long, the run says so before it starts; the default says nothing.
#[test]
fn long_runs_are_warned_before_they_start() {
    let run = AnyRun::build(&dg(reproducer(4.877e9)), None).unwrap();
    assert!(run.start().warnings.iter().any(|w| w.starts_with("a long run")), "{:?}", run.start().warnings);
    for family in [
        bagsim::registry::Family::MultiCluster,
        bagsim::registry::Family::DesktopGrid,
        bagsim::registry::Family::DataGrid,
    ] {
        let run = AnyRun::build(&Scenario::default_for(family), None).unwrap();
        assert!(!run.start().warnings.iter().any(|w| w.starts_with("a long run") || w.starts_with("a large run")));
    }
    let (_, quiet) = desktop_grid::simulation(&DgScenario::new(1, DgConfig::default())).unwrap();
    assert!(!quiet.warnings.iter().any(|w| w.starts_with("a long run")));
}

/// The line the page shows before Run (`registry::before_run`, made by the page's worker): the estimate within
/// budget, its time a guess until a run is timed and then from the rate given; over budget, refused naming the key;
/// a scenario that replays a trace not imported, refused saying to import it. The worker's refusal of a run over
/// budget names the same key (`registry::refusal`).
#[test]
fn the_line_before_run_says_what_the_worker_will_do() {
    use bagsim::registry::{before_run, refusal};
    let day = mc(r#"{"workload": {"submission_period": 86400}}"#);
    let events = estimate(&day, None).events;
    let (line, over) = before_run(&day, None, None);
    assert!(!over && line.starts_with("Before Run: at most about"), "{line}");
    assert!(line.ends_with("(a guess until a run in this tab is timed)."), "{line}");
    // Timed at 2 µs an estimated event: the line's time is the events at that rate, as seconds_words writes it.
    let (line, over) = before_run(&day, None, Some(2e-6));
    let words = bagsim::words::seconds_words(events * 2e-6);
    assert!(!over && line.contains(&format!("{words} in this tab (at the speed of this tab's last run)")), "{line}");

    let big = dg(reproducer(9e10));
    let (line, over) = before_run(&big, None, Some(1e-6));
    assert!(over && line.contains("Run is refused") && line.contains("desktop_grid.horizon"), "{line}");
    let e = AnyRun::build(&big, None).err().expect("refused");
    assert_eq!(refusal(&e), "Refused before it started: over budget at desktop_grid.horizon (see below).");

    let replay = mc(r#"{"workload": {"trace": {"path": "mine.swf"}}}"#);
    let (line, over) = before_run(&replay, None, None);
    assert!(over && line.contains("mine.swf") && line.contains("not loaded"), "{line}");
    let size =
        TraceSize { jobs: 10, serial_jobs: 10, processors: 10, work: 1e4, first_submit: 0.0, last_submit: 3600.0 };
    let (line, over) = before_run(&replay, Some(("other.swf", &size)), None);
    assert!(over && line.contains("mine.swf"), "another trace imported: {line}");
    let (line, over) = before_run(&replay, Some(("mine.swf", &size)), None);
    assert!(!over && line.starts_with("Before Run: at most about"), "the trace imported: {line}");
}
