//! From a scenario to a report in one call: generate the workload (or read a trace's), simulate, measure.

use super::config::{McScenario, TraceConfig};
use super::live::{BotDone, McDetail};
use super::metrics::{self, Metrics};
use super::platform::{capacity, stream_targets, Cluster};
use super::policy::predictor::{evaluate_all, PredictorAccuracy};
use super::policy::scheduling::script_error;
use super::policy::selection::script_error as selection_error;
use super::schedule_swf::ScheduleSwf;
use super::sim::{InaccuracyOn, SimConfig, Simulation};
use crate::engine::Model;
use crate::family::contract::ErrorKind;
use crate::family::contract::ScenarioError;
use crate::family::contract::{Budget, FamilyRun, Header, Start};
use crate::trace::bots::extract;
use crate::trace::schedule::SwfEnd;
use crate::trace::{ImportError, Trace};
use crate::words::group_digits;
use crate::workload::generate::ArrivalPattern;
use crate::workload::generate::{GenerateSpec, Generated};
use crate::workload::generators::Generator;
use crate::workload::streams::{generate_platform, generate_streams, StreamSummary};
use crate::workload::Workload;
use serde::{Deserialize, Serialize};

/// What the workload turned out to be.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorkloadSummary {
    pub bots: u64,
    pub tasks: u64,
    pub users: u64,
    /// Σ task runtimes on the reference processor, CPU-seconds.
    pub total_work: f64,
    /// Target offered load (null when the model's own arrival rate was kept, and for a trace).
    pub target_load: Option<f64>,
    /// Achieved offered load = total work / (Σ speeds × submission period).
    pub achieved_load: f64,
    /// Factor applied to every inter-arrival time to reach the target.
    pub iat_scale: f64,
    /// Per cluster stream (empty for a global stream): its BoTs, tasks and achieved load on its own capacity.
    #[serde(default)]
    pub streams: Vec<StreamSummary>,
    pub warnings: Vec<String>,
}

/// The full report of a run (the JSON that `bagsim run --out` writes).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub bagsim_version: String,
    pub scenario: McScenario,
    pub workload: WorkloadSummary,
    pub metrics: Metrics,
    /// Average relative inaccuracy of the six predictors on this workload, batch and user input ([Iosup08] Fig. 2).
    pub predictors: Vec<PredictorAccuracy>,
    /// Wall-clock time of the simulation (not of the workload generation), seconds. The only figure that varies
    /// between identical runs.
    pub wall_time_s: f64,
}

/// A scenario made ready to run: its clusters and its generated workload.
pub struct Prepared {
    pub clusters: Vec<Cluster>,
    pub generated: Generated,
    pub streams: Vec<StreamSummary>,
    /// A trace workload's submission period (its last arrival, at least 60 s), which replaces
    /// `workload.submission_period` in the default horizon and sampling interval.
    pub trace_period: Option<f64>,
}

/// Validates the scenario, checks the budget of a generated workload (docs/budget.md: a workload too large is
/// refused before it is drawn, for `bagsim generate` and the page's views too) and generates it.
pub fn prepare(s: &McScenario) -> Result<Prepared, ScenarioError> {
    s.validate()?;
    if s.workload.trace.is_none() {
        super::budget::estimate(s, None).check()?;
    }
    prepare_checked(s)
}

/// The workload of a scenario already checked (valid and within its budget): generated, or read from the trace
/// it names.
fn prepare_checked(s: &McScenario) -> Result<Prepared, ScenarioError> {
    let p = prepare_unchecked(s)?;
    check_times(s, &p)?;
    Ok(p)
}

/// The longest simulated time a multi-cluster run may reach, s (about three million years): every runtime, estimate
/// and end time is built below it, so the event queue never sees an infinite or lost time.
pub const MAX_TIME: f64 = 1e14;

/// Every derived time is finite and below [`MAX_TIME`]: the longest task's runtime, its estimate at the largest
/// inaccuracy and its end on the slowest cluster after the horizon. Refused naming the key that drives it.
fn check_times(s: &McScenario, p: &Prepared) -> Result<(), ScenarioError> {
    let w = &p.generated.workload;
    let Some((task, longest)) =
        w.runtimes.iter().copied().enumerate().max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
    else {
        return Ok(());
    };
    let key = match (&s.workload.trace, &s.workload.generator) {
        (Some(_), _) => "workload.trace".to_string(),
        (None, Some(g)) => format!("workload.generator.{}", g.name()),
        (None, None) => if s.workload.model.is_some() { "workload.model" } else { "workload" }.to_string(),
    };
    if !(longest.is_finite() && longest <= MAX_TIME) {
        return Err(ScenarioError {
            kind: ErrorKind::OutOfRange,
            field: key,
            message: format!(
                "task {task} would run {} s on the reference processor; every runtime must be finite and at most \
                 {MAX_TIME:e} s",
                crate::family::contract::short_number(longest)
            ),
        });
    }
    let Some((c, slowest)) = p.clusters.iter().enumerate().min_by(|a, b| a.1.speed.total_cmp(&b.1.speed)) else {
        return Ok(());
    };
    let estimate = longest * (1.0 + s.inaccuracy / 100.0);
    let horizon = s.horizon.unwrap_or(0.0).max(s.workload.submission_period) + 30.0 * 86_400.0;
    let end = horizon + estimate / slowest.speed;
    if !(end.is_finite() && end <= MAX_TIME) {
        return Err(ScenarioError {
            kind: ErrorKind::OutOfRange,
            field: format!("platform.clusters[{c}].speed"),
            message: format!(
                "{} makes the longest task ({} s on the reference processor) end after {} s on cluster {}; every \
                 simulated time must be finite and at most {MAX_TIME:e} s: raise the speed",
                crate::family::contract::short_number(slowest.speed),
                crate::family::contract::short_number(longest),
                crate::family::contract::short_number(end),
                slowest.name
            ),
        });
    }
    Ok(())
}

fn prepare_unchecked(s: &McScenario) -> Result<Prepared, ScenarioError> {
    let clusters = s.platform.clusters().map_err(|m| ScenarioError::new(ErrorKind::NotAllowed, "platform", m))?;
    if let Some(t) = &s.workload.trace {
        return prepare_trace(t, &read_scenario_trace(t)?, clusters);
    }
    if let Some(g) = &s.workload.generator {
        return prepare_generator(s, g, clusters);
    }
    let model = s.workload.bot_model();
    let spec = GenerateSpec {
        model: &model,
        load: s.workload.load,
        capacity: capacity(&clusters),
        submission_period: s.workload.submission_period,
        pattern: s.workload.arrival_pattern,
        median_size: s.workload.median_size,
        mean_runtime: s.workload.mean_runtime,
        max_size: s.workload.max_size,
        calibration: s.workload.calibration,
        runtime_law: s.workload.task_runtime_law,
        seed: s.seed,
    };
    let p = generate_platform(&spec, &s.workload.load_split.targets(&stream_targets(&clusters)), s.workload.streams)
        .map_err(|e| ScenarioError::new(ErrorKind::OutOfRange, "workload", e.to_string()))?;
    Ok(Prepared { clusters, generated: p.generated, streams: p.streams, trace_period: None })
}

/// A generator's workload (docs/workload-models.md): one copy per cluster stream or one for the platform, as for
/// the [Iosup08] model; knobs of that model the generator does not read are named in a warning when set.
fn prepare_generator(s: &McScenario, g: &Generator, clusters: Vec<Cluster>) -> Result<Prepared, ScenarioError> {
    let w = &s.workload;
    let targets = w.load_split.targets(&stream_targets(&clusters));
    let mut p = generate_streams(&targets, w.streams, s.seed, w.submission_period, g.users_per_stream(), &|seed, c| {
        g.generate(seed, w.load, c, w.submission_period)
    })
    .map_err(|e| {
        ScenarioError::new(ErrorKind::OutOfRange, format!("workload.generator.{}", g.name()), e.to_string())
    })?;
    let unused: Vec<&str> = [
        (w.arrival_pattern != ArrivalPattern::Realistic, "arrival_pattern"),
        (w.median_size.is_some(), "median_size"),
        (w.mean_runtime.is_some(), "mean_runtime"),
    ]
    .iter()
    .filter(|(set, _)| *set)
    .map(|(_, name)| *name)
    .collect();
    if !unused.is_empty() {
        p.generated
            .warnings
            .insert(0, format!("the {} generator does not use workload.{}", g.name(), unused.join(", workload.")));
    }
    Ok(Prepared { clusters, generated: p.generated, streams: p.streams, trace_period: None })
}

/// A trace workload: import, BoTs by the Δ rule, and what was left out as warnings.
/// Validates a trace-driven scenario and builds its workload from a trace imported already, under the name
/// `workload.trace.path`: the page's worker, which cannot read files, imports the file the user picked first.
pub fn prepare_imported(s: &McScenario, trace: &Trace) -> Result<Prepared, ScenarioError> {
    s.validate()?;
    prepare_imported_checked(s, trace)
}

/// The same for a scenario already checked.
fn prepare_imported_checked(s: &McScenario, trace: &Trace) -> Result<Prepared, ScenarioError> {
    let Some(t) = &s.workload.trace else {
        return Err(ScenarioError::new(ErrorKind::Inconsistent, "workload.trace", "the scenario has no trace"));
    };
    let clusters = s.platform.clusters().map_err(|m| ScenarioError::new(ErrorKind::NotAllowed, "platform", m))?;
    let p = prepare_trace(t, trace, clusters)?;
    check_times(s, &p)?;
    Ok(p)
}

fn prepare_trace(t: &TraceConfig, trace: &Trace, clusters: Vec<Cluster>) -> Result<Prepared, ScenarioError> {
    let fail = |field: &str, message: String| ScenarioError::new(ErrorKind::Trace, field, message);
    let e = extract(trace, &t.rule()).map_err(|e| e.under("workload.trace"))?;
    let b = &e.report;
    if e.workload.bots.is_empty() {
        return Err(fail("workload.trace", format!("{}: no BoT to simulate; {}", t.path, b.multi_proc_note)));
    }
    let r = &trace.report;
    let mut warnings = vec![format!(
        "trace {}: its own submit and run times are simulated; the model, load and other generator settings are \
         not used",
        t.path
    )];
    if r.skipped > 0 {
        let reasons: Vec<String> = r.by_reason.iter().map(|(k, n)| format!("{k} {n}")).collect();
        warnings.push(format!("trace: {} of {} lines skipped ({})", r.skipped, r.lines, reasons.join(", ")));
    }
    if b.rejected_jobs > 0 {
        // Said first and in numbers: a run of 5% of a log reads as the log's run on every card (issue #45 item 6).
        let kept = b.jobs - b.rejected_jobs;
        warnings.insert(
            0,
            format!(
                "only {} of the log's {} jobs are simulated ({:.0}% left out): {} jobs use several processors, \
                 which a BoT's one-processor tasks cannot be, and every figure of this run is of the rest; to keep \
                 their work, split each into tasks (workload.trace.split_parallel = true; the Workload lab's \
                 \"split\") or replay the log's jobs whole in the data-grid family",
                group_digits(&kept.to_string()),
                group_digits(&b.jobs.to_string()),
                100.0 * b.rejected_jobs as f64 / b.jobs.max(1) as f64,
                group_digits(&b.rejected_jobs.to_string()),
            ),
        );
    } else if b.parallel_jobs > 0 {
        warnings.push(format!("trace: jobs of several processors: {}", b.multi_proc_note));
    }
    if b.raised_runtimes > 0 {
        warnings.push(format!("trace: {} jobs ran less than 1 s; their tasks last 1 s", b.raised_runtimes));
    }
    let period = b.last_arrival.max(60.0);
    let achieved_load = e.workload.total_work() / (capacity(&clusters) * period);
    let generated = Generated { workload: e.workload, iat_scale: 1.0, achieved_load, warnings };
    Ok(Prepared { clusters, generated, streams: Vec::new(), trace_period: Some(period) })
}

/// Reads the trace a scenario replays (natively a file; in the page, an error that says to import it first).
pub fn read_scenario_trace(t: &TraceConfig) -> Result<Trace, ScenarioError> {
    read_trace(t).map_err(|e| match e {
        ImportError::Io(m) => ScenarioError::new(ErrorKind::Trace, "workload.trace.path", m),
        e => ScenarioError::new(ErrorKind::Trace, "workload.trace.path", format!("{}: {e}", t.path)),
    })
}

#[cfg(not(target_arch = "wasm32"))]
fn read_trace(t: &TraceConfig) -> Result<Trace, ImportError> {
    crate::trace::import_path(std::path::Path::new(&t.path), t.format)
}

#[cfg(target_arch = "wasm32")]
fn read_trace(t: &TraceConfig) -> Result<Trace, ImportError> {
    Err(ImportError::Io(format!(
        "the trace {:?} is not loaded: import the file in the Workload lab first (the page cannot read a path)",
        t.path
    )))
}

/// The simulator settings of a scenario.
pub fn sim_config(s: &McScenario) -> SimConfig {
    SimConfig {
        architecture: s.architecture.kind,
        monitoring_period: s.architecture.monitoring_period,
        eligible_set: s.architecture.eligible_set,
        fcondor_move: s.architecture.fcondor_move,
        site_policy: s.architecture.site_policy,
        selection: s.selection.clone(),
        scheduling: s.scheduling.clone(),
        policy_options: s.policy_options,
        predictor: s.predictor.model,
        predictor_input: s.predictor.input,
        inaccuracy: s.inaccuracy,
        inaccuracy_on: s.inaccuracy_on,
        scheduling_period: s.scheduling_period,
        horizon: s.horizon_limit(),
        sample_interval: s.sample_interval(),
        seed: s.seed,
    }
}

/// A simulation of the scenario, ready to step (the page drives it in chunks), and the workload's summary. The
/// workload moves into the simulation: it is the largest thing a run holds.
pub fn simulation(s: &McScenario, p: Prepared) -> (Simulation, WorkloadSummary) {
    let mut summary = summary(s, &p.generated);
    summary.streams = p.streams;
    let cfg = match p.trace_period {
        Some(period) => {
            let mut t = s.clone();
            t.workload.submission_period = period;
            sim_config(&t)
        }
        None => sim_config(s),
    };
    let sim = Simulation::new(cfg, p.clusters, p.generated.workload);
    if sim.config().inaccuracy_on == InaccuracyOn::Runtime && s.inaccuracy > 0.0 {
        // The tasks run their perturbed runtimes: the work and load that run are not the generated ones.
        let (generated, runs) = (summary.achieved_load, sim.workload().total_work());
        let factor = if summary.total_work > 0.0 { runs / summary.total_work } else { 1.0 };
        summary.achieved_load = generated * factor;
        summary.total_work = runs;
        summary.warnings.push(format!(
            "inaccuracy_on = runtime: tasks run max(R(1 + E/100), 1), {factor:.3} times the generated work; the \
             load that runs is {:.4}, the generated load {generated:.4} (docs/model.md, \"Inaccuracy\")",
            summary.achieved_load
        ));
    }
    (sim, summary)
}

/// The workload summary of a prepared scenario.
pub fn summary(s: &McScenario, g: &Generated) -> WorkloadSummary {
    let w: &Workload = &g.workload;
    WorkloadSummary {
        bots: w.bots.len() as u64,
        tasks: w.tasks() as u64,
        users: w.bots.iter().map(|b| b.user).collect::<std::collections::BTreeSet<_>>().len() as u64,
        total_work: w.total_work(),
        target_load: if s.workload.trace.is_some() { None } else { s.workload.load },
        achieved_load: g.achieved_load,
        iat_scale: g.iat_scale,
        streams: Vec::new(),
        warnings: g.warnings.clone(),
    }
}

/// The report of a finished simulation.
pub fn report(s: &McScenario, workload: WorkloadSummary, sim: &Simulation, wall_time_s: f64) -> Report {
    let mut r = report_without_predictors(s, workload, sim, wall_time_s);
    r.predictors = predictor_accuracy(sim);
    r
}

/// The report without `predictors` (an empty list): the page's live result, which needs the figures at once. The
/// predictors' accuracy is a property of the workload alone and costs a pass of twelve predictor states over every
/// task (about as long as the simulation of a busy month); the page computes it when the report is exported.
pub fn report_without_predictors(
    s: &McScenario,
    workload: WorkloadSummary,
    sim: &Simulation,
    wall_time_s: f64,
) -> Report {
    Report {
        bagsim_version: env!("CARGO_PKG_VERSION").to_string(),
        scenario: s.clone(),
        workload,
        metrics: metrics::compute(&sim.outcome()),
        predictors: Vec::new(),
        wall_time_s,
    }
}

/// The average relative inaccuracy of the six predictors on the simulation's workload ([Iosup08] Fig. 2).
pub fn predictor_accuracy(sim: &Simulation) -> Vec<PredictorAccuracy> {
    let w = sim.workload();
    let bots = (0..w.bots.len()).map(|b| (w.bots[b].user, w.bot_runtimes(b)));
    evaluate_all(bots, w.users as usize)
}

/// Runs a scenario to the end. `clock` returns seconds (std's Instant natively, performance.now in a browser).
pub fn run_with_clock(s: &McScenario, clock: &dyn Fn() -> f64) -> Result<Report, ScenarioError> {
    let mut run = McRun::new(s, prepare(s)?);
    let report = crate::family::contract::run_to_report(&mut run, clock);
    match run.failure() {
        Some(e) => Err(e),
        None => Ok(run.full_report(report)),
    }
}

/// Runs a scenario natively.
#[cfg(not(target_arch = "wasm32"))]
pub fn run(s: &McScenario) -> Result<Report, ScenarioError> {
    let start = std::time::Instant::now();
    run_with_clock(s, &move || start.elapsed().as_secs_f64())
}

/// A multi-cluster run under the family contract: the simulation, its scenario and workload summary, and how far
/// the samples and finished BoTs have been handed out.
pub struct McRun {
    scenario: McScenario,
    summary: WorkloadSummary,
    sim: Simulation,
    sent_samples: usize,
    sent_bots: usize,
    /// The schedule written as SWF as BoTs finish (`bagsim run --swf`); None when not asked for.
    swf: Option<ScheduleSwf>,
}

/// Events played between two writes of the finished BoTs while the schedule is written as SWF.
const SWF_CHUNK: u64 = 100_000;

impl McRun {
    /// Validates the scenario and builds its run; `trace` is a trace imported already under a name, used when
    /// `workload.trace.path` names it (the page's worker cannot read files).
    pub fn build(s: &McScenario, trace: Option<(&str, &Trace)>) -> Result<McRun, ScenarioError> {
        let prepared = match (&s.workload.trace, trace) {
            (Some(want), Some((name, trace))) if want.path == name => prepare_imported(s, trace)?,
            _ => prepare(s)?,
        };
        Ok(McRun::new(s, prepared))
    }

    /// The run of a scenario the contract checked once (`contract::Checked`: valid, within its budget); `trace` is
    /// the trace it names, read. Not checked again.
    pub(super) fn of_checked(s: &McScenario, trace: Option<&Trace>) -> Result<McRun, ScenarioError> {
        let prepared = match (&s.workload.trace, trace) {
            (Some(_), Some(trace)) => prepare_imported_checked(s, trace)?,
            _ => prepare_checked(s)?,
        };
        Ok(McRun::new(s, prepared))
    }

    /// A run of a prepared scenario (the workload moves into the simulation).
    pub fn new(s: &McScenario, p: Prepared) -> McRun {
        let (sim, summary) = simulation(s, p);
        McRun { scenario: s.clone(), summary, sim, sent_samples: 0, sent_bots: 0, swf: None }
    }

    pub fn simulation(&self) -> &Simulation {
        &self.sim
    }
}

impl FamilyRun for McRun {
    type Detail = McDetail;
    type Report = Report;

    fn step(&mut self, budget: Budget) -> bool {
        let Some(swf) = self.swf.as_mut() else { return budget.play(&mut self.sim) };
        // The finished BoTs are written between chunks, so the file grows as the run goes.
        let sim = &mut self.sim;
        let over = match budget {
            Budget::ToEnd => loop {
                if sim.run_events(SWF_CHUNK) {
                    break true;
                }
                swf.write_finished(sim);
            },
            budget => budget.play(sim),
        };
        swf.write_finished(sim);
        over
    }

    fn failure(&self) -> Option<ScenarioError> {
        let in_selection = self.sim.failed_in_selection();
        self.sim.failure().map(|e| if in_selection { selection_error(e) } else { script_error(e) })
    }

    fn header(&self) -> Header {
        let (queued, busy) = self.sim.queued_and_running();
        Header {
            now: self.sim.now(),
            horizon: self.sim.config().horizon,
            events: self.sim.events(),
            tasks: self.summary.tasks,
            finished_tasks: self.sim.finished_tasks(),
            queued,
            busy,
        }
    }

    fn take_detail(&mut self) -> McDetail {
        let sim = &self.sim;
        let samples = sim.samples()[self.sent_samples..].to_vec();
        self.sent_samples = sim.samples().len();
        let finished = sim.finished_bots();
        let w = sim.workload();
        let bots = finished[self.sent_bots..]
            .iter()
            .filter_map(|&b| {
                sim.bot_figures(b as usize).map(|(makespan, nsl, wait)| BotDone {
                    size: w.bots[b as usize].size,
                    makespan,
                    nsl,
                    wait,
                })
            })
            .collect();
        self.sent_bots = finished.len();
        McDetail { samples, bots }
    }

    /// The report without `predictors` (see `report_without_predictors`); `full_report` adds them.
    fn report(&self, wall_s: f64) -> Report {
        report_without_predictors(&self.scenario, self.summary.clone(), &self.sim, wall_s)
    }

    fn start(&self) -> Start {
        let w = &self.summary;
        Start { bots: w.bots, tasks: w.tasks, achieved_load: w.achieved_load, warnings: w.warnings.clone() }
    }

    fn warn(&mut self, warnings: Vec<String>) {
        self.summary.warnings.splice(0..0, warnings);
    }

    /// `report` with the predictors' accuracy on this workload.
    fn full_report(&self, report: Report) -> Report {
        Report { predictors: predictor_accuracy(&self.sim), ..report }
    }

    /// One row per BoT.
    fn rows_csv(&self) -> Option<String> {
        Some(metrics::bots_csv(&self.sim.outcome()))
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
        self.swf = Some(ScheduleSwf::start(out, &self.sim, what));
    }

    fn end_swf(&mut self) -> Option<std::io::Result<SwfEnd>> {
        self.swf.take().map(|swf| swf.finish(&self.sim))
    }
}
