//! The data-grid run under the family contract (`DdRun`, its `FamilyRun`): the scenario's workload built from
//! its log, the simulator's settings, what a progress message carries, the report, and running it to the end.

use super::config::DdScenario;
use super::metrics::{self, DdMetrics};
use super::policy;
use super::sim::{JobRecord, Pending, Sample, Settings, Simulation};
use super::workload::{self, WorkloadSummary};
use crate::engine::Model;
use crate::family::contract::ErrorKind;
use crate::family::contract::{run_to_report, Budget, FamilyRun, Header, ScenarioError, Start};
use crate::trace::Trace;
use serde::{Deserialize, Serialize};

/// The report of a data-grid run (the JSON of `bagsim run --out`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DdReport {
    pub bagsim_version: String,
    pub scenario: DdScenario,
    pub workload: WorkloadSummary,
    pub metrics: DdMetrics,
    /// Wall-clock time of the simulation, s.
    pub wall_time_s: f64,
}

/// What is new since the previous progress message: samples, the jobs that ended, and (replacing the previous
/// one) the jobs running now and the first reservations of each site's queue.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DdDetail {
    pub samples: Vec<Sample>,
    pub jobs: Vec<JobRecord>,
    pub pending: Vec<Pending>,
}

/// Queued reservations per site a progress message carries (a few kilobytes; the Gantt view shows the next ones).
const PENDING_PER_SITE: usize = 100;

/// A data-grid run under the family contract.
pub struct DdRun {
    scenario: DdScenario,
    sim: Simulation,
    sent_samples: usize,
    sent_jobs: usize,
}

impl DdRun {
    /// Validates the scenario and builds its workload from `trace` (the log `data_grid.trace` names).
    pub fn new(s: &DdScenario, trace: &Trace) -> Result<DdRun, ScenarioError> {
        s.data_grid.validate()?;
        DdRun::of_checked(s, trace)
    }

    /// The run of a scenario the contract checked once (`contract::Checked`); not checked again.
    pub(super) fn of_checked(s: &DdScenario, trace: &Trace) -> Result<DdRun, ScenarioError> {
        let cfg = &s.data_grid;
        let w = workload::build(cfg, s.seed, trace)
            .map_err(|m| ScenarioError::new(ErrorKind::Trace, "data_grid.trace", format!("{}: {m}", cfg.trace)))?;
        let span = w.summary.span;
        let settings = Settings {
            scheme: cfg.scheme.clone(),
            backfill_rule: cfg.backfill_rule,
            local_policy: cfg.local_policy,
            dispatch_delay: cfg.dispatch_delay,
            sample_interval: cfg.sample_interval.unwrap_or((span / 1_000.0).max(60.0)),
        };
        let mut sim = Simulation::new(settings, &cfg.sites, w);
        sim.set_policies(&cfg.policies());
        sim.set_depths(&cfg.depths());
        Ok(DdRun { scenario: s.clone(), sim, sent_samples: 0, sent_jobs: 0 })
    }

    pub fn simulation(&self) -> &Simulation {
        &self.sim
    }
}

impl FamilyRun for DdRun {
    type Detail = DdDetail;
    type Report = DdReport;

    fn step(&mut self, budget: Budget) -> bool {
        budget.play(&mut self.sim)
    }

    fn header(&self) -> Header {
        Header {
            now: self.sim.now(),
            horizon: self.sim.horizon().max(self.sim.now()),
            events: self.sim.events(),
            tasks: self.sim.jobs() as u64,
            finished_tasks: self.sim.finished_jobs() as u64,
            queued: self.sim.queued(),
            busy: self.sim.busy(),
        }
    }

    fn take_detail(&mut self) -> DdDetail {
        let samples = self.sim.samples()[self.sent_samples..].to_vec();
        self.sent_samples = self.sim.samples().len();
        let jobs = self.sim.ended()[self.sent_jobs..].iter().map(|&j| self.sim.records()[j as usize]).collect();
        self.sent_jobs = self.sim.ended().len();
        DdDetail { samples, jobs, pending: self.sim.pending(PENDING_PER_SITE) }
    }

    fn report(&self, wall_s: f64) -> DdReport {
        DdReport {
            bagsim_version: env!("CARGO_PKG_VERSION").to_string(),
            scenario: self.scenario.clone(),
            workload: self.sim.workload().summary.clone(),
            metrics: metrics::compute(&self.sim, &self.scenario.data_grid.sites),
            wall_time_s: wall_s,
        }
    }

    /// Jobs (as BoTs and tasks), the offered load, warnings.
    fn start(&self) -> Start {
        let w = &self.sim.workload().summary;
        Start { bots: w.jobs, tasks: w.jobs, achieved_load: w.offered_load, warnings: w.warnings.clone() }
    }

    fn warn(&mut self, warnings: Vec<String>) {
        self.sim.warnings_mut().splice(0..0, warnings);
    }

    /// One row per job that ended.
    fn rows_csv(&self) -> Option<String> {
        Some(metrics::jobs_csv(&self.sim))
    }

    fn failure(&self) -> Option<ScenarioError> {
        self.sim.failure().map(policy::script_error)
    }

    fn stream_jobs(&mut self, out: Box<dyn std::io::Write>) {
        self.sim.stream_jobs(out, &self.scenario.data_grid.sites);
    }

    fn end_jobs(&mut self) -> Option<std::io::Result<crate::jobs::JobsEnd>> {
        self.sim.end_jobs()
    }

    fn record_tape(&mut self) -> bool {
        self.sim.record_tape();
        true
    }

    fn take_tape(&mut self) -> Option<crate::story::Tape> {
        self.sim.take_tape()
    }

    fn stream_swf(&mut self, out: Box<dyn std::io::Write>, what: &str) {
        self.sim.stream_swf(out, what, &self.scenario.data_grid.sites);
    }

    fn end_swf(&mut self) -> Option<std::io::Result<crate::trace::schedule::SwfEnd>> {
        self.sim.end_swf()
    }
}

/// Runs a data-grid scenario on `trace` to the end; `clock` returns seconds.
pub fn run_with_clock(s: &DdScenario, trace: &Trace, clock: &dyn Fn() -> f64) -> Result<DdReport, ScenarioError> {
    let mut run = DdRun::new(s, trace)?;
    let report = run_to_report(&mut run, clock);
    match run.failure() {
        Some(e) => Err(e),
        None => Ok(report),
    }
}
