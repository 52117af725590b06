//! The desktop-grid run under the family contract (`DgRun`, its `FamilyRun`): a scenario's platform, workload and
//! simulator settings, its report, and running it to the end.

use super::config::{DgConfig, DgScenario};
use super::machines::Platform;
use super::metrics;
use super::policy;
use super::report::{DgReport, DgWorkloadSummary};
use super::sim::{DgSample, DgSettings, DgSimulation};
use super::workload;
use super::workload::LoadFigures;
use crate::engine::Model;
use crate::family::contract::ErrorKind;
use crate::family::contract::{run_to_report, Budget, FamilyRun, Header, ScenarioError, Start};
use serde::{Deserialize, Serialize};

/// Most time-series samples a run keeps (about 40 MB of samples).
pub const MAX_SAMPLES: f64 = 1e6;

/// The simulator settings of a configuration whose arrival rate is `rate`.
pub fn settings(cfg: &DgConfig, seed: u64, rate: f64) -> DgSettings {
    let horizon = cfg.horizon.unwrap_or(4.0 * f64::from(cfg.bots) / rate);
    DgSettings {
        selection: cfg.bot_selection.clone(),
        thresh: cfg.threshold(),
        checkpoint_period: cfg.checkpoint_period,
        transfer: cfg.transfer_time,
        checkpoint_store: cfg.checkpoint_store,
        long_idle: cfg.long_idle,
        fcfs_share: cfg.fcfs_share,
        horizon,
        sample_interval: cfg.sample_interval.unwrap_or((horizon / 2_000.0).max(60.0)),
        seed,
        stop_when_done: true,
    }
}

/// A simulation of the scenario, validated, ready to step, and its workload summary.
pub fn simulation(s: &DgScenario) -> Result<(DgSimulation, DgWorkloadSummary), ScenarioError> {
    s.desktop_grid.validate()?;
    simulation_checked(s)
}

/// The same for a scenario already checked (`contract::Checked`).
fn simulation_checked(s: &DgScenario) -> Result<(DgSimulation, DgWorkloadSummary), ScenarioError> {
    let cfg = &s.desktop_grid;
    let platform = Platform::build(cfg, s.seed);
    let lf = LoadFigures::of(platform.effective_power(), cfg.application_size, cfg.load);
    let w = workload::generate(s.seed, cfg.mix, cfg.application_size, lf.bot_rate, cfg.bots);
    let mut warnings = Vec::new();
    if cfg.load >= 1.0 {
        warnings.push(format!("load {} ≥ 1: the system cannot be stable ([Anglano09] §IV-B, note 3)", cfg.load));
    }
    let summary = DgWorkloadSummary {
        bots: w.bots.len() as u64,
        tasks: w.runtimes.len() as u64,
        total_work: w.total_work(),
        machines: platform.machines.len() as u64,
        total_power: platform.total_power(),
        effective_power: lf.effective_power,
        occupancy: lf.occupancy,
        bot_rate: lf.bot_rate,
        load: cfg.load,
        mean_availability: platform.mean_availability(),
        warnings,
    };
    let settings = settings(cfg, s.seed, lf.bot_rate);
    // The time series holds one sample per interval up to the horizon: bounded, so that a run fits in memory.
    if settings.horizon / settings.sample_interval > MAX_SAMPLES {
        return Err(ScenarioError {
            kind: ErrorKind::OverBudget,
            field: "desktop_grid.sample_interval".into(),
            message: format!(
                "{} s over a horizon of {} s gives more than {MAX_SAMPLES} samples; use an interval of at least {} s \
                 or a shorter horizon",
                settings.sample_interval,
                settings.horizon,
                (settings.horizon / MAX_SAMPLES).ceil()
            ),
        });
    }
    let sim = DgSimulation::new(settings, &platform, w);
    Ok((sim, summary))
}

/// The report of a finished simulation.
pub fn report(s: &DgScenario, workload: DgWorkloadSummary, sim: &DgSimulation, wall_time_s: f64) -> DgReport {
    DgReport {
        bagsim_version: env!("CARGO_PKG_VERSION").to_string(),
        scenario: s.clone(),
        workload,
        metrics: metrics::compute(sim),
        wall_time_s,
    }
}

/// Runs a desktop-grid scenario to the end; `clock` returns seconds. A scripted policy that failed is the error.
pub fn run_with_clock(s: &DgScenario, clock: &dyn Fn() -> f64) -> Result<DgReport, ScenarioError> {
    let mut run = DgRun::new(s)?;
    let report = run_to_report(&mut run, clock);
    match run.failure() {
        Some(e) => Err(e),
        None => Ok(report),
    }
}

/// Runs a desktop-grid scenario natively.
#[cfg(not(target_arch = "wasm32"))]
pub fn run(s: &DgScenario) -> Result<DgReport, ScenarioError> {
    let start = std::time::Instant::now();
    run_with_clock(s, &move || start.elapsed().as_secs_f64())
}

/// The samples taken since the previous progress message, and the BoT counts.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DgDetail {
    pub bots: u64,
    pub finished_bots: u64,
    /// Machines up, replicas running, queue length, BoTs in the system, tasks done.
    pub samples: Vec<DgSample>,
}

/// A desktop-grid run under the family contract.
pub struct DgRun {
    scenario: DgScenario,
    summary: DgWorkloadSummary,
    sim: DgSimulation,
    sent_samples: usize,
}

impl DgRun {
    /// Validates the scenario and builds its platform, workload and simulation.
    pub fn new(s: &DgScenario) -> Result<DgRun, ScenarioError> {
        s.desktop_grid.validate()?;
        DgRun::of_checked(s)
    }

    /// The run of a scenario the contract checked once (`contract::Checked`); not checked again.
    pub(super) fn of_checked(s: &DgScenario) -> Result<DgRun, ScenarioError> {
        let (sim, summary) = simulation_checked(s)?;
        Ok(DgRun { scenario: s.clone(), summary, sim, sent_samples: 0 })
    }

    pub fn simulation(&self) -> &DgSimulation {
        &self.sim
    }
}

impl FamilyRun for DgRun {
    type Detail = DgDetail;
    type Report = DgReport;

    fn step(&mut self, budget: Budget) -> bool {
        budget.play(&mut self.sim)
    }

    fn header(&self) -> Header {
        let (replicas, queued) = self.sim.replicas_and_queue();
        Header {
            now: self.sim.now(),
            horizon: self.sim.settings().horizon,
            events: self.sim.events(),
            tasks: self.summary.tasks,
            finished_tasks: self.sim.counters().finished_tasks,
            queued,
            busy: u64::from(replicas),
        }
    }

    fn take_detail(&mut self) -> DgDetail {
        let samples = self.sim.samples()[self.sent_samples..].to_vec();
        self.sent_samples = self.sim.samples().len();
        DgDetail { bots: self.summary.bots, finished_bots: self.sim.counters().finished_bots, samples }
    }

    fn report(&self, wall_s: f64) -> DgReport {
        report(&self.scenario, self.summary.clone(), &self.sim, wall_s)
    }

    /// The load of a desktop-grid workload is exact by construction (λ = L / C, Eq. 7).
    fn start(&self) -> Start {
        let w = &self.summary;
        Start { bots: w.bots, tasks: w.tasks, achieved_load: w.load, warnings: w.warnings.clone() }
    }

    fn warn(&mut self, warnings: Vec<String>) {
        self.summary.warnings.splice(0..0, warnings);
    }

    fn failure(&self) -> Option<ScenarioError> {
        self.sim.failure().map(policy::script_error)
    }

    fn stream_jobs(&mut self, out: Box<dyn std::io::Write>) {
        self.sim.stream_jobs(out);
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
        self.sim.stream_swf(out, what);
    }

    fn end_swf(&mut self) -> Option<std::io::Result<crate::trace::schedule::SwfEnd>> {
        self.sim.end_swf()
    }
}
