//! The family contract measured by use: a throw-away family (one M/M/c queue, FCFS) written in this file alone,
//! through `family::contract` and the shared engine, and driven by the same `run_to_report` and budgets as the
//! real families. Its mean wait must agree with the Erlang-C closed form; stepping it in chunks of events or of
//! simulated time must give the same report as one run to the end. Registered beside the three real families by
//! one line of `bagsim::families!` (ARCHITECTURE.md, "How to add a family"), its scenario files read, are
//! refused, run and sweep through the generated registry as theirs do.

use bagsim::engine::{EventQueue, Rng};
use bagsim::family::contract::{run_to_report, Budget, FamilyRun, Header, Start};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

enum Event {
    Arrival,
    Departure,
}

/// An M/M/c queue: Poisson arrivals at rate λ, c servers, exponential service of rate μ, `jobs` arrivals.
struct MmcRun {
    c: u64,
    lambda: f64,
    mu: f64,
    jobs: u64,
    rng: Rng,
    queue: EventQueue<Event>,
    waiting: VecDeque<f64>,
    busy: u64,
    arrived: u64,
    finished: u64,
    events: u64,
    wait_sum: f64,
    waits_sent: usize,
    waits: Vec<f64>,
    warnings: Vec<String>,
}

impl MmcRun {
    fn new(c: u64, lambda: f64, mu: f64, jobs: u64, seed: u64) -> MmcRun {
        let mut run = MmcRun {
            c,
            lambda,
            mu,
            jobs,
            rng: Rng::stream(seed, "mmc"),
            queue: EventQueue::new(),
            waiting: VecDeque::new(),
            busy: 0,
            arrived: 0,
            finished: 0,
            events: 0,
            wait_sum: 0.0,
            waits_sent: 0,
            waits: Vec::new(),
            warnings: Vec::new(),
        };
        let first = run.exp(lambda);
        run.queue.schedule(first, Event::Arrival).expect("in the future");
        run
    }

    fn exp(&mut self, rate: f64) -> f64 {
        -libm::log(self.rng.uniform_open0()) / rate
    }

    fn serve(&mut self, now: f64, arrived_at: f64) {
        self.busy += 1;
        self.waits.push(now - arrived_at);
        self.wait_sum += now - arrived_at;
        let service = self.exp(self.mu);
        self.queue.schedule(now + service, Event::Departure).expect("in the future");
    }

    fn one_event(&mut self) {
        let Some((now, event)) = self.queue.pop() else { return };
        self.events += 1;
        match event {
            Event::Arrival => {
                self.arrived += 1;
                if self.arrived < self.jobs {
                    let gap = self.exp(self.lambda);
                    self.queue.schedule(now + gap, Event::Arrival).expect("in the future");
                }
                if self.busy < self.c {
                    self.serve(now, now);
                } else {
                    self.waiting.push_back(now);
                }
            }
            Event::Departure => {
                self.busy -= 1;
                self.finished += 1;
                if let Some(at) = self.waiting.pop_front() {
                    self.serve(now, at);
                }
            }
        }
    }

    fn done(&self) -> bool {
        self.queue.is_empty()
    }
}

/// The report of the throw-away family: jobs and their mean wait.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct MmcReport {
    finished: u64,
    mean_wait: f64,
    events: u64,
}

impl FamilyRun for MmcRun {
    /// The waits of the jobs that started since the previous call.
    type Detail = Vec<f64>;
    type Report = MmcReport;

    fn step(&mut self, budget: Budget) -> bool {
        match budget {
            Budget::Events(n) => {
                for _ in 0..n {
                    if self.done() {
                        break;
                    }
                    self.one_event();
                }
            }
            Budget::Until(t) => {
                while self.queue.peek_key().is_some_and(|(at, _)| at <= t) {
                    self.one_event();
                }
            }
            Budget::ToEnd => {
                while !self.done() {
                    self.one_event();
                }
            }
        }
        self.done()
    }

    fn header(&self) -> Header {
        Header {
            now: self.queue.now(),
            horizon: f64::INFINITY,
            events: self.events,
            tasks: self.jobs,
            finished_tasks: self.finished,
            queued: self.waiting.len() as u64,
            busy: self.busy,
        }
    }

    fn take_detail(&mut self) -> Vec<f64> {
        let new = self.waits[self.waits_sent..].to_vec();
        self.waits_sent = self.waits.len();
        new
    }

    fn report(&self, _wall_s: f64) -> MmcReport {
        MmcReport { finished: self.finished, mean_wait: self.wait_sum / self.finished as f64, events: self.events }
    }

    fn start(&self) -> Start {
        Start {
            bots: self.jobs,
            tasks: self.jobs,
            achieved_load: self.lambda / (self.c as f64 * self.mu),
            warnings: self.warnings.clone(),
        }
    }

    fn warn(&mut self, warnings: Vec<String>) {
        self.warnings.splice(0..0, warnings);
    }

    /// The throw-away family keeps no per-job records (a real family streams them, docs/jobs.md).
    fn stream_jobs(&mut self, _out: Box<dyn std::io::Write>) {}

    fn end_jobs(&mut self) -> Option<std::io::Result<bagsim::jobs::JobsEnd>> {
        None
    }

    /// Nor its schedule (a real family writes it as SWF, docs/traces.md).
    fn stream_swf(&mut self, _out: Box<dyn std::io::Write>, _what: &str) {}

    fn end_swf(&mut self) -> Option<std::io::Result<bagsim::trace::schedule::SwfEnd>> {
        None
    }
}

/// Erlang C: probability of waiting in M/M/c with offered load a = λ/μ.
fn erlang_c(c: u64, a: f64) -> f64 {
    let mut b = 1.0;
    for k in 1..=c {
        b = a * b / (k as f64 + a * b);
    }
    let c = c as f64;
    c * b / (c - a * (1.0 - b))
}

#[test]
fn a_throw_away_mmc_family_through_the_contract_meets_erlang_c() {
    let (c, mu, rho) = (4u64, 1.0, 0.8);
    let lambda = rho * c as f64 * mu;
    let analytic = erlang_c(c, lambda / mu) / (c as f64 * mu - lambda);
    // Means of independent replications, and their 95% interval; the check allows two half-widths, so that it
    // fails by chance far less often than once in a thousand runs (the seeds are fixed anyway).
    let means: Vec<f64> =
        (0..20).map(|seed| run_to_report(&mut MmcRun::new(c, lambda, mu, 20_000, seed), &|| 0.0).mean_wait).collect();
    let i = bagsim::stats::Interval::of(&means);
    assert!(
        (i.mean - analytic).abs() <= 2.0 * i.reach(),
        "mean wait {} (95%: {} – {}) against Erlang-C {analytic}",
        i.mean,
        i.low,
        i.high
    );
}

#[test]
fn chunks_of_events_or_of_time_give_the_same_run_as_one_step() {
    let whole = run_to_report(&mut MmcRun::new(3, 2.4, 1.0, 5_000, 7), &|| 0.0);
    let mut by_events = MmcRun::new(3, 2.4, 1.0, 5_000, 7);
    let mut waits = Vec::new();
    while !by_events.step(Budget::Events(333)) {
        waits.extend(by_events.take_detail());
        let h = by_events.header();
        assert!(h.busy <= 3 && h.finished_tasks <= h.tasks && h.done_fraction() <= 1.0);
    }
    waits.extend(by_events.take_detail());
    assert_eq!(by_events.report(0.0), whole);
    assert_eq!(waits.len() as u64, whole.finished, "every job's wait handed out once");
    let mut by_time = MmcRun::new(3, 2.4, 1.0, 5_000, 7);
    let mut t = 0.0;
    while !by_time.step(Budget::Until(t)) {
        t += 17.5;
    }
    assert_eq!(by_time.report(0.0), whole);
    assert_eq!(by_time.header().done_fraction(), 1.0);
}

/// The throw-away family's scenario file: `{"seed": 3, "family": "mmc", "mmc": {"servers": 4, "rho": 0.8, …}}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct MmcScenario {
    seed: u64,
    family: MmcTag,
    mmc: MmcConfig,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
enum MmcTag {
    #[default]
    #[serde(rename = "mmc")]
    Mmc,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct MmcConfig {
    servers: u64,
    /// Utilization λ / (c μ).
    rho: f64,
    mu: f64,
    jobs: u64,
}

impl Default for MmcScenario {
    fn default() -> MmcScenario {
        MmcScenario { seed: 1, family: MmcTag::Mmc, mmc: MmcConfig { servers: 4, rho: 0.8, mu: 1.0, jobs: 2_000 } }
    }
}

impl Default for MmcConfig {
    fn default() -> MmcConfig {
        MmcScenario::default().mmc
    }
}

impl MmcScenario {
    fn run(&self) -> MmcRun {
        let m = &self.mmc;
        MmcRun::new(m.servers, m.rho * m.servers as f64 * m.mu, m.mu, m.jobs, self.seed)
    }
}

/// The throw-away family for the registry: everything the real families' `def.rs` say, for an M/M/c queue.
struct MmcDef;

mod mmc_def {
    use super::{MmcDef, MmcReport, MmcRun, MmcScenario};
    use bagsim::family::contract::{Checked, Driver, ErrorKind, Estimate, FamilyDef, Param, ScenarioError, Unused};
    use bagsim::trace::{Trace, TraceSize};

    thread_local! {
        /// How many times this thread validated an mmc scenario.
        pub static VALIDATED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }

    impl FamilyDef for MmcDef {
        const NAME: &'static str = "mmc";
        const SECTION: Option<&'static str> = Some("mmc");
        const PARAMS: &'static [Param] = &[
            Param { path: "mmc.servers", unit: "", allowed: "1 – 1000", meaning: "servers c" },
            Param { path: "mmc.rho", unit: "", allowed: "0 – 1 (open)", meaning: "utilization λ / (c μ)" },
            Param { path: "mmc.mu", unit: "1/s", allowed: "> 0", meaning: "service rate μ" },
            Param { path: "mmc.jobs", unit: "", allowed: "1 – 10^7", meaning: "arrivals" },
        ];
        const READINGS: &'static [bagsim::readings::Reading] = &[];
        type Scenario = MmcScenario;
        type Detail = Vec<f64>;
        type Report = MmcReport;
        type Run = MmcRun;

        fn seed(s: &MmcScenario) -> u64 {
            s.seed
        }
        fn set_seed(s: &mut MmcScenario, seed: u64) {
            s.seed = seed;
        }
        fn validate(s: &MmcScenario) -> Result<(), ScenarioError> {
            VALIDATED.with(|v| v.set(v.get() + 1));
            let m = &s.mmc;
            if !(m.rho > 0.0 && m.rho < 1.0) {
                return Err(ScenarioError::new(
                    ErrorKind::OutOfRange,
                    "mmc.rho",
                    format!("{} is out of range; allowed 0–1", m.rho),
                ));
            }
            if !(1..=1000).contains(&m.servers) || !(1..=10_000_000).contains(&m.jobs) || m.mu.is_nan() || m.mu <= 0.0 {
                return Err(ScenarioError::new(ErrorKind::OutOfRange, "mmc", "servers 1–1000, jobs 1–10^7, mu > 0"));
            }
            Ok(())
        }
        fn unused(_: &MmcScenario) -> Vec<Unused> {
            Vec::new()
        }
        fn trace_named(_: &MmcScenario) -> Option<&str> {
            None
        }
        fn read_trace(_: &MmcScenario) -> Result<Trace, ScenarioError> {
            Err(ScenarioError::new(ErrorKind::Trace, "mmc", "reads no trace"))
        }
        /// Two events per job, and the waits kept.
        fn estimate(s: &MmcScenario, _: Option<&TraceSize>) -> Estimate {
            Estimate {
                events: 2.0 * s.mmc.jobs as f64,
                events_driver: Driver::new("mmc.jobs", "two per job"),
                memory: Vec::new(),
            }
        }
        fn build(c: Checked<'_, MmcDef>) -> Result<MmcRun, ScenarioError> {
            Ok(c.scenario().run())
        }
        fn sweep_path(key: &str) -> String {
            format!("mmc.{key}")
        }
        fn sweep_header() -> String {
            "finished,mean_wait,events".into()
        }
        fn sweep_row(r: &MmcReport) -> String {
            format!("{},{},{}", r.finished, r.mean_wait, r.events)
        }
        fn lean(r: MmcReport) -> MmcReport {
            r
        }
        fn wall_time_s(_: &MmcReport) -> f64 {
            0.0
        }
        fn end_time(_: &MmcReport) -> f64 {
            f64::NAN
        }
        fn summary(r: &MmcReport) -> Vec<String> {
            vec![format!("finished: {} jobs, mean wait {:.4} s, events {}", r.finished, r.mean_wait, r.events)]
        }
    }
}

/// The crate's three families and the throw-away one: the registration is this list, one line per family.
mod with_mmc {
    bagsim::families! {
        MultiCluster(multi_cluster, multi_cluster_mut) => bagsim::family::multi_cluster::def::Def,
        DesktopGrid(desktop_grid, desktop_grid_mut) => bagsim::family::desktop_grid::def::Def,
        DataGrid(data_grid, data_grid_mut) => bagsim::family::data_grid::def::Def,
        Mmc(mmc, mmc_mut) => super::MmcDef,
    }
}

#[test]
fn a_family_registered_by_one_line_reads_runs_and_sweeps_through_the_generated_registry() {
    use with_mmc::{AnyReport, AnyRun, Family, Scenario};
    let text = r#"{"seed": 3, "family": "mmc", "mmc": {"servers": 3, "rho": 0.7, "jobs": 4000}}"#;
    let s = Scenario::from_json(text).expect("an mmc scenario reads");
    assert_eq!((s.family(), s.seed()), (Family::Mmc, 3));
    // Building a run checks its scenario once (`contract::Checked`), whatever checked it when it was read.
    let before = mmc_def::VALIDATED.with(|v| v.get());
    let mut run = AnyRun::build(&s, None).expect("builds");
    assert_eq!(mmc_def::VALIDATED.with(|v| v.get()) - before, 1, "validated once to build a run");
    let report = run_to_report(&mut run, &|| 0.0);
    let direct = run_to_report(&mut s.mmc().expect("the mmc section").run(), &|| 0.0);
    assert!(matches!(&report, AnyReport::Mmc(r) if **r == direct), "{report:?} against {direct:?}");
    assert_eq!(direct.finished, 4000);
    assert_eq!(report.sweep_row(), format!("4000,{},{}", direct.mean_wait, direct.events));
    assert_eq!(Family::Mmc.sweep_path("rho"), "mmc.rho");
    // Written back as it was read, and what it documents.
    assert_eq!(Scenario::from_json(&serde_json::to_string(&s).unwrap()).unwrap(), s);
    let paths: Vec<&str> = Family::Mmc.params().iter().map(|p| p.path).collect();
    assert_eq!(paths, ["seed", "family", "mmc.servers", "mmc.rho", "mmc.mu", "mmc.jobs"]);
    assert!(Family::Mmc.params()[1].allowed.ends_with("| mmc"), "{}", Family::Mmc.params()[1].allowed);
    // Refused as the real families' files are: a value out of range, a section of another family, a key of none.
    let e = Scenario::from_json(r#"{"family": "mmc", "mmc": {"rho": 1.5}}"#).unwrap_err();
    assert_eq!(e.field, "mmc.rho", "{e}");
    let e = Scenario::from_json(r#"{"mmc": {"rho": 0.5}}"#).unwrap_err();
    assert!(e.field == "mmc" && e.message.contains("family is multi_cluster"), "{e}");
    let e = Scenario::from_json(r#"{"family": "mmc", "data_grid": {}}"#).unwrap_err();
    assert!(e.field == "data_grid" && e.message.contains("family is mmc"), "{e}");
    let e = Scenario::from_json(r#"{"family": "mmc", "servers": 2}"#).unwrap_err();
    assert!(e.message.contains("unknown field `servers`"), "{e}");
    let e = Scenario::from_json(r#"{"family": "queue"}"#).unwrap_err();
    assert!(e.message.contains("mmc"), "{e}");
    // The budget's events reach the run's warnings like any family's (two per job, here 8 000: no warning).
    assert_eq!(s.estimate(None).events, 8000.0);
    assert!(run.start().warnings.is_empty());
}

/// The real families listed in another registry give the same runs as through the crate's.
#[test]
fn the_real_families_run_the_same_through_a_registry_with_one_more() {
    let text = r#"{"workload": {"submission_period": 3600}, "seed": 9}"#;
    let theirs = with_mmc::Scenario::from_json(text).unwrap();
    let ours = bagsim::scenario::Scenario::from_json(text).unwrap();
    let mut a = with_mmc::AnyRun::build(&theirs, None).unwrap();
    let mut b = bagsim::registry::AnyRun::build(&ours, None).unwrap();
    let (with_mmc::AnyReport::MultiCluster(mut a), bagsim::registry::AnyReport::MultiCluster(mut b)) =
        (run_to_report(&mut a, &|| 0.0), run_to_report(&mut b, &|| 0.0))
    else {
        panic!("multi-cluster reports expected")
    };
    (a.wall_time_s, b.wall_time_s) = (0.0, 0.0);
    assert_eq!(a, b);
    assert!(a.metrics.overall.bots > 0);
    let dg = r#"{"seed": 2, "family": "desktop_grid", "desktop_grid": {"bots": 6}}"#;
    let (theirs, ours) =
        (with_mmc::Scenario::from_json(dg).unwrap(), bagsim::scenario::Scenario::from_json(dg).unwrap());
    assert_eq!(serde_json::to_string(&theirs).unwrap(), serde_json::to_string(&ours).unwrap());
}

/// `bagsim figure`, `sweep --shard` and `merge` reach a family's figures through the generated registry alone: the
/// study kinds name their family, a family without figures says so, and a figure planned through a registry with
/// one more family is the crate's plan.
#[test]
fn figures_are_dispatched_by_the_generated_registry() {
    use bagsim::family::contract::{FigureRequest, Kind};
    use with_mmc::Family;
    let families = [
        (Kind::Reproduce, Family::MultiCluster),
        (Kind::ReproduceReadings, Family::MultiCluster),
        (Kind::DgFigure, Family::DesktopGrid),
        (Kind::DgReadings, Family::DesktopGrid),
        (Kind::DdFigure, Family::DataGrid),
        (Kind::DdReadings, Family::DataGrid),
    ];
    for (kind, family) in families {
        assert_eq!(Family::of_study(kind), Some(family), "{kind:?}");
    }
    assert_eq!(Family::of_study(Kind::Sweep), None);
    let seeds: Vec<Option<&str>> = Family::ALL.iter().map(|f| f.figure_seeds()).collect();
    assert_eq!(seeds, [Some("5"), Some("auto"), Some("5"), None]);
    let r = FigureRequest { figure: "4", readings: &[], seeds: "2", jobs: 1 };
    let e = Family::Mmc.figure_plan(None, &r).unwrap_err();
    assert!(e.message.contains("mmc family has no paper figures"), "{e:?}");
    let ours = bagsim::registry::Family::DataGrid.figure_plan(None, &r).expect("the crate's plan");
    let theirs = Family::DataGrid.figure_plan(None, &r).expect("the plan through the other registry");
    assert_eq!((theirs.kind, &theirs.points, &theirs.spec), (Kind::DdFigure, &ours.points, &ours.spec));
    assert!(!ours.points.is_empty());
    let auto = FigureRequest { seeds: "auto", ..r };
    let e = Family::DataGrid.figure_plan(None, &auto).unwrap_err();
    assert!(e.message.contains("--plan needs a fixed number of seeds"), "{e:?}");
    let e = Family::DesktopGrid.figure_plan(None, &FigureRequest { figure: "2", seeds: "5..2", ..r }).unwrap_err();
    assert!(e.message.contains("MIN..MAX"), "{e:?}");
}
