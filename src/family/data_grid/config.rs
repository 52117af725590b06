//! The `data_grid` section of a scenario: sites, data, load, estimates, metascheduling scheme and backfill rule of
//! [Liu10] §III–IV, every value editable and checked with a message that names the field and the allowed range.

use crate::family::contract::{Driver, ErrorKind, Estimate, Part, ScenarioError, Unused};
use crate::script::{Builtin, BuiltinOrScript, ScriptError};
use crate::trace::TraceSize;
use serde::{Deserialize, Serialize};

/// The metascheduling schemes compared in [Liu10] §IV.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scheme {
    /// The site that can start the job first; the job moves its own data on its processors (Fig. 1(a)).
    StartTimeNoDataAware,
    /// The site that can finish the job first, counting the transfer, which still runs on the job's processors.
    FinishTimeNoOverlap,
    /// The site that can finish the job first; the data moves from dispatch on, while the job queues (Fig. 1(c)).
    FinishTimeDataAware,
}

impl Scheme {
    pub const ALL: [Scheme; 3] =
        [Scheme::StartTimeNoDataAware, Scheme::FinishTimeNoOverlap, Scheme::FinishTimeDataAware];

    pub fn name(self) -> &'static str {
        match self {
            Scheme::StartTimeNoDataAware => "start_time_no_data_aware",
            Scheme::FinishTimeNoOverlap => "finish_time_no_overlap",
            Scheme::FinishTimeDataAware => "finish_time_data_aware",
        }
    }

    /// What the scheme does, in words for the page (the scenario key is `name`).
    pub fn label(self) -> &'static str {
        match self {
            Scheme::StartTimeNoDataAware => "Earliest start, data ignored",
            Scheme::FinishTimeNoOverlap => "Earliest finish, data moved on the job's processors",
            Scheme::FinishTimeDataAware => "Earliest finish, data moved while the job queues",
        }
    }

    /// Whether the transfer overlaps the queueing (it runs off the job's processors, from dispatch on).
    pub fn overlaps(self) -> bool {
        self == Scheme::FinishTimeDataAware
    }
}

/// The metascheduling a scenario asks for: a built-in scheme or a user's script (`policy/script.rs`), read and
/// written as every such key is (`script::BuiltinOrScript`).
pub type SchemePolicy = BuiltinOrScript<Scheme>;

impl Builtin for Scheme {
    const ALL: &'static [Scheme] = &Scheme::ALL;
    const WHAT: &'static str = "scheme";
    fn name(self) -> &'static str {
        Scheme::name(self)
    }
}

impl SchemePolicy {
    /// What the scheme does, in words ("Your own scheme (a script)" for a script).
    pub fn label(&self) -> &'static str {
        self.builtin().map_or("Your own scheme (a script)", Scheme::label)
    }
}

/// A scheme script's error as the scenario's (`data_grid.scheme.script: line L, column C: …`).
pub fn script_error(e: &ScriptError) -> ScenarioError {
    ScenarioError::new(ErrorKind::Script, "data_grid.scheme.script", e.to_string())
}

/// Which queued jobs may take a hole before their data has arrived ([Liu10] §III), under `finish_time_data_aware`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BackfillRule {
    /// A job whose data is still arriving may take a hole that holds its remaining transfer plus its computation.
    DataAware,
    /// Only jobs whose data has arrived (or that need none) may start.
    DataArrived,
}

impl BackfillRule {
    pub const ALL: [BackfillRule; 2] = [BackfillRule::DataAware, BackfillRule::DataArrived];

    pub fn name(self) -> &'static str {
        match self {
            BackfillRule::DataAware => "data_aware",
            BackfillRule::DataArrived => "data_arrived",
        }
    }
}

/// What the local schedulers take as a job's runtime estimate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Estimates {
    /// The log's requested time (the user's estimate), or the runtime where the request is missing or shorter.
    Requested,
    /// The runtime itself ([Liu10] §IV-C, Fig. 7).
    Accurate,
}

impl Estimates {
    pub const ALL: [Estimates; 2] = [Estimates::Requested, Estimates::Accurate];

    pub fn name(self) -> &'static str {
        match self {
            Estimates::Requested => "requested",
            Estimates::Accurate => "accurate",
        }
    }
}

/// What happens to a job that reaches its requested time under `requested` estimates ([Liu10] is silent).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Walltime {
    /// The job runs to its logged time: where the request is shorter than the run, the site reserves the run (the
    /// request is raised to it), so those jobs' runtimes are known to the scheduler.
    RunToLog,
    /// The job is stopped at its requested time, as batch systems do; the site sees only the request.
    Kill,
}

impl Walltime {
    pub const ALL: [Walltime; 2] = [Walltime::RunToLog, Walltime::Kill];

    pub fn name(self) -> &'static str {
        match self {
            Walltime::RunToLog => "run_to_log",
            Walltime::Kill => "kill",
        }
    }
}

/// The batch scheduler each site runs (docs/data_grid.md, "Local schedulers").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LocalPolicy {
    /// Every queued job holds a reservation; early ends compress the schedule ([Liu10] §IV-A, Mu'alem & Feitelson).
    Conservative,
    /// Only the first queued job holds a reservation; a later job starts now when it does not delay it.
    Easy,
    /// Jobs start in the order they reached the site; none overtakes another.
    Fcfs,
}

impl LocalPolicy {
    pub const ALL: [LocalPolicy; 3] = [LocalPolicy::Conservative, LocalPolicy::Easy, LocalPolicy::Fcfs];

    pub fn name(self) -> &'static str {
        match self {
            LocalPolicy::Conservative => "conservative",
            LocalPolicy::Easy => "easy",
            LocalPolicy::Fcfs => "fcfs",
        }
    }
}

/// A data-grid run ([Liu10]); the scenario's `seed` seeds its data and bandwidth draws.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DdConfig {
    /// Processors of each site ([Liu10] §IV-A: 130, 64, 64, 128, 32).
    pub sites: Vec<u32>,
    /// Available bandwidth of each transfer, uniform in this range, Mbit/s (10–100).
    pub bandwidth_mbit: [f64; 2],
    /// Share of the jobs that need input data moved (0.5).
    pub data_share: f64,
    /// Input data size of such a job, uniform in this range, MB of 10^6 bytes (10 MB–10 GB, or 10 MB–800 GB).
    pub data_mb: [f64; 2],
    /// Every runtime and estimate is multiplied by this (3 = the paper's high load).
    pub runtime_factor: f64,
    pub estimates: Estimates,
    /// A job that reaches its requested time: run on to its logged time, or stopped (`requested` estimates only).
    pub walltime: Walltime,
    /// The metascheduling scheme (§IV), or a user's script (`{"script": "…"}`, docs/policies.md).
    pub scheme: SchemePolicy,
    pub backfill_rule: BackfillRule,
    /// The batch scheduler of every site.
    pub local_policy: LocalPolicy,
    /// One batch scheduler per site, in the order of `sites`, instead of `local_policy` (empty: `local_policy`
    /// everywhere).
    pub site_policies: Vec<LocalPolicy>,
    /// How many queued jobs, the first included, each site's scheduling pass, compression or forecast considers
    /// (Slurm's `bf_max_job_test`); 0 = every queued job (the paper's).
    pub backfill_depth: u32,
    /// One backfill depth per site, in the order of `sites`, instead of `backfill_depth` (empty: `backfill_depth`
    /// everywhere).
    pub site_backfill_depths: Vec<u32>,
    /// Time the metascheduler takes to dispatch a job, δ of Eq. 3, s.
    pub dispatch_delay: f64,
    /// How many consecutive jobs of the log a run takes (the whole log when shorter).
    pub jobs: u32,
    /// Index of the window's first job among the log's jobs.
    pub first_job: u32,
    /// The log: "hpc2n.swf" (bundled), or a file path (CLI) or a trace imported in the page's Workload lab.
    pub trace: String,
    /// Interval between time-series samples, s; null = the submission span / 1 000, at least 60 s.
    pub sample_interval: Option<f64>,
}

impl Default for DdConfig {
    fn default() -> Self {
        DdConfig {
            sites: vec![130, 64, 64, 128, 32],
            bandwidth_mbit: [10.0, 100.0],
            data_share: 0.5,
            data_mb: [10.0, 10_000.0],
            runtime_factor: 1.0,
            estimates: Estimates::Requested,
            walltime: Walltime::RunToLog,
            scheme: SchemePolicy::Builtin(Scheme::FinishTimeDataAware),
            backfill_rule: BackfillRule::DataAware,
            local_policy: LocalPolicy::Conservative,
            site_policies: Vec::new(),
            backfill_depth: 0,
            site_backfill_depths: Vec::new(),
            dispatch_delay: 0.0,
            jobs: 5_000,
            first_job: 0,
            trace: crate::trace::bundled::HPC2N.to_string(),
            sample_interval: None,
        }
    }
}

fn range(field: &str, v: f64, lo: f64, hi: f64, unit: &str) -> Result<(), ScenarioError> {
    if v.is_finite() && v >= lo && v <= hi {
        Ok(())
    } else {
        Err(ScenarioError {
            kind: ErrorKind::OutOfRange,
            field: format!("data_grid.{field}"),
            message: format!(
                "{} is out of range; allowed {}–{}{unit}",
                crate::family::contract::short_number(v),
                crate::family::contract::short_number(lo),
                crate::family::contract::short_number(hi)
            ),
        })
    }
}

/// Most jobs a run takes.
pub const MAX_JOBS: u32 = 1_000_000;

impl DdConfig {
    /// The keys whose value changes nothing under the other settings (`Unused`).
    pub fn unused(&self) -> Vec<Unused> {
        let (mut out, d) = (Vec::new(), DdConfig::default());
        // A script may move the data while the job queues (its `overlap()`), and then reads the rule.
        if self.scheme.builtin().is_some_and(|s| s != Scheme::FinishTimeDataAware) {
            let why = format!("only the scheme finish_time_data_aware reads it; this one is {}", self.scheme.name());
            out.push(Unused::new("data_grid.backfill_rule", self.backfill_rule != d.backfill_rule, why));
        }
        if self.estimates != Estimates::Requested {
            out.push(Unused::new(
                "data_grid.walltime",
                self.walltime != d.walltime,
                "only requested estimates have a request to stop a job at",
            ));
        }
        if !self.site_policies.is_empty() {
            out.push(Unused::new(
                "data_grid.local_policy",
                self.local_policy != d.local_policy,
                "data_grid.site_policies sets every site's scheduler",
            ));
        }
        if !self.site_backfill_depths.is_empty() {
            out.push(Unused::new(
                "data_grid.backfill_depth",
                self.backfill_depth != d.backfill_depth,
                "data_grid.site_backfill_depths sets every site's depth",
            ));
        }
        if self.data_share == 0.0 {
            let why = "no job carries data (data_grid.data_share is 0)";
            out.push(Unused::new("data_grid.data_mb", self.data_mb != d.data_mb, why));
            out.push(Unused::new("data_grid.bandwidth_mbit", self.bandwidth_mbit != d.bandwidth_mbit, why));
        }
        out
    }

    /// The batch scheduler of each site.
    pub fn policies(&self) -> Vec<LocalPolicy> {
        if self.site_policies.is_empty() {
            vec![self.local_policy; self.sites.len()]
        } else {
            self.site_policies.clone()
        }
    }

    /// The backfill depth of each site (0 = unbounded).
    pub fn depths(&self) -> Vec<u32> {
        if self.site_backfill_depths.is_empty() {
            vec![self.backfill_depth; self.sites.len()]
        } else {
            self.site_backfill_depths.clone()
        }
    }

    /// Checks every value a run depends on.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        if self.sites.is_empty() || self.sites.len() > 64 {
            return Err(ScenarioError {
                kind: ErrorKind::OutOfRange,
                field: "data_grid.sites".into(),
                message: format!("{} sites; allowed 1–64", self.sites.len()),
            });
        }
        for (i, &p) in self.sites.iter().enumerate() {
            range(&format!("sites[{i}]"), f64::from(p), 1.0, 100_000.0, " processors")?;
        }
        if !self.site_policies.is_empty() && self.site_policies.len() != self.sites.len() {
            return Err(ScenarioError {
                kind: ErrorKind::Inconsistent,
                field: "data_grid.site_policies".into(),
                message: format!(
                    "{} policies for {} sites; allowed: none (local_policy everywhere) or one per site",
                    self.site_policies.len(),
                    self.sites.len()
                ),
            });
        }
        if !self.site_backfill_depths.is_empty() && self.site_backfill_depths.len() != self.sites.len() {
            return Err(ScenarioError {
                kind: ErrorKind::Inconsistent,
                field: "data_grid.site_backfill_depths".into(),
                message: format!(
                    "{} depths for {} sites; allowed: none (backfill_depth everywhere) or one per site",
                    self.site_backfill_depths.len(),
                    self.sites.len()
                ),
            });
        }
        range("backfill_depth", f64::from(self.backfill_depth), 0.0, f64::from(MAX_JOBS), " jobs (0 = unbounded)")?;
        for (i, &d) in self.site_backfill_depths.iter().enumerate() {
            range(
                &format!("site_backfill_depths[{i}]"),
                f64::from(d),
                0.0,
                f64::from(MAX_JOBS),
                " jobs (0 = unbounded)",
            )?;
        }
        let [lo, hi] = self.bandwidth_mbit;
        range("bandwidth_mbit[0]", lo, 0.001, 1e6, " Mbit/s")?;
        range("bandwidth_mbit[1]", hi, lo, 1e6, " Mbit/s (at least bandwidth_mbit[0])")?;
        range("data_share", self.data_share, 0.0, 1.0, "")?;
        let [lo, hi] = self.data_mb;
        range("data_mb[0]", lo, 0.0, 1e9, " MB")?;
        range("data_mb[1]", hi, lo, 1e9, " MB (at least data_mb[0])")?;
        range("runtime_factor", self.runtime_factor, 0.01, 1000.0, "")?;
        range("dispatch_delay", self.dispatch_delay, 0.0, 86_400.0, " s")?;
        range("jobs", f64::from(self.jobs), 1.0, f64::from(MAX_JOBS), " jobs")?;
        range("first_job", f64::from(self.first_job), 0.0, f64::from(u32::MAX), "")?;
        if self.trace.trim().is_empty() {
            return Err(ScenarioError::new(ErrorKind::NotAllowed, "data_grid.trace", "empty; give a log"));
        }
        if let Some(s) = self.sample_interval {
            range("sample_interval", s, 1.0, 1e11, " s")?;
        }
        self.scheme.check().map_err(|e| script_error(&e))
    }
}

/// Events a queued job placed again by a compression costs, measured (docs/budget.md, "Data grid").
pub const REPLACEMENT_EVENTS: f64 = 8.0;

impl DdConfig {
    /// What a run will cost, estimated before it starts (docs/budget.md, "Data grid"): its jobs (the window of the
    /// log, `trace` its size; without it, `jobs`), about four events each, the samples, and the work of conservative
    /// backfilling: every job that ends early places each job queued at its site again. Past an offered load ρ of 1
    /// the queue grows to n (1 − 1/ρ) by the last submission and drains after it, so the ends see about
    /// n (1 − 1/ρ) / 2 queued jobs spread over the sites; below it, a few per site.
    pub fn estimate(&self, trace: Option<&TraceSize>) -> Estimate {
        let sites = self.sites.len().max(1) as f64;
        let capacity: f64 = self.sites.iter().map(|&p| f64::from(p)).sum();
        let (n, rho, span) = match trace {
            Some(t) => {
                let n = (t.jobs.saturating_sub(u64::from(self.first_job))).min(u64::from(self.jobs)) as f64;
                let span = t.span() * n / (t.jobs.max(1) as f64);
                let rho = if t.span() > 0.0 { t.work * self.runtime_factor / (capacity * t.span()) } else { 1.0 };
                (n, rho, span)
            }
            None => (f64::from(self.jobs), 1.0, 0.0),
        };
        // Below a load of 1 a site's queue holds a few jobs (measured: about 4 ρ / (1 − ρ), reservations being
        // longer than runtimes); above it, the backlog of the fluid model.
        let queued =
            (1.0 + 4.0 * rho / (1.0 - rho).abs()).min(n / sites) + n * (1.0 - 1.0 / rho.max(1.0)) / 2.0 / sites;
        // Accurate estimates end no job early: nothing is compressed.
        let replacements = if self.estimates == Estimates::Accurate { 0.0 } else { n * queued };
        // Samples: one per interval, but never more than about a thousand to the latest reservation's end, which
        // lies up to (ρ − 1) × span after the last submission.
        let interval = self.sample_interval.unwrap_or((span / 1_000.0).max(60.0));
        let thousand_steps = |length: f64| 1_000.0 * (1.0 + (1.0 + length / (1_000.0 * interval)).ln());
        let samples = (span / interval).min(thousand_steps(span)) + thousand_steps(span * rho.max(1.0));
        let events = 4.0 * n + samples + REPLACEMENT_EVENTS * replacements;
        let events_driver = if REPLACEMENT_EVENTS * replacements > 4.0 * n {
            Driver::new(
                "data_grid.runtime_factor",
                format!(
                    "queued jobs placed again at every early end: the offered load {rho:.2} > 1 queues many of the \
                     {n:.0} jobs"
                ),
            )
        } else {
            Driver::new("data_grid.jobs", "the jobs of the window")
        };
        let log = trace.map_or(0.0, |t| t.jobs as f64);
        Estimate {
            events,
            events_driver,
            memory: vec![
                Part {
                    what: "jobs",
                    count: n,
                    bytes_each: 320.0 + 8.0 * sites,
                    driver: Driver::new("data_grid.jobs", "the jobs of the window"),
                    most: Some(f64::from(MAX_JOBS)),
                },
                Part {
                    what: "log jobs",
                    count: log,
                    bytes_each: 112.0,
                    driver: Driver::new("data_grid.trace", "the jobs of the log read"),
                    most: None,
                },
                Part {
                    what: "series samples",
                    count: samples,
                    bytes_each: 96.0 + 16.0 * sites,
                    driver: Driver::new("data_grid.sample_interval", "one per sample_interval"),
                    most: None,
                },
            ],
        }
    }
}

/// A data-grid scenario: its seed and its section, written as `seed`, `family` ("data_grid") and `data_grid`.
/// A key left out takes its default (the seed: `contract::DEFAULT_SEED`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DdScenario {
    pub seed: u64,
    pub family: FamilyTag,
    pub data_grid: DdConfig,
}

/// The `family` key of a data-grid scenario.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum FamilyTag {
    #[default]
    #[serde(rename = "data_grid")]
    DataGrid,
}

impl Default for DdScenario {
    fn default() -> DdScenario {
        DdScenario::new(crate::family::contract::DEFAULT_SEED, DdConfig::default())
    }
}

impl DdScenario {
    pub fn new(seed: u64, data_grid: DdConfig) -> DdScenario {
        DdScenario { seed, family: FamilyTag::DataGrid, data_grid }
    }
}
