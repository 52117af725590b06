//! One run of a figure: what the figure takes from its report, and the run itself.

use crate::error::ScenarioError;
use crate::family::multi_cluster::config::McScenario;
use crate::family::multi_cluster::run::Report;
use crate::workload::size_class::SIZE_CLASSES;

/// What a figure takes from one run's report.
#[derive(Clone, Debug, PartialEq)]
pub struct RunResult {
    /// Mean makespan and NSL over the finished BoTs (NaN when none finished).
    pub makespan: f64,
    pub nsl: f64,
    pub finished_fraction: f64,
    /// Per size class (the order of `SIZE_CLASSES`): mean makespan and NSL (NaN for a class without BoTs).
    pub class_makespan: Vec<f64>,
    pub class_nsl: Vec<f64>,
}

impl RunResult {
    pub fn of(r: &Report) -> RunResult {
        let m = &r.metrics;
        let mean = |s: &crate::stats::Stats| if s.count > 0 { s.mean } else { f64::NAN };
        let class = |name: &str| m.per_class.iter().find(|c| c.class == name);
        RunResult {
            makespan: mean(&m.overall.makespan),
            nsl: mean(&m.overall.nsl),
            finished_fraction: m.tasks.finished_fraction,
            class_makespan: SIZE_CLASSES.iter().map(|c| class(c.0).map_or(f64::NAN, |g| mean(&g.makespan))).collect(),
            class_nsl: SIZE_CLASSES.iter().map(|c| class(c.0).map_or(f64::NAN, |g| mean(&g.nsl))).collect(),
        }
    }
}

/// Runs one scenario to its figure result (the report without the predictors' accuracy, as the page's worker
/// computes it).
pub fn run_point(s: &McScenario) -> Result<RunResult, ScenarioError> {
    let mut run = crate::family::multi_cluster::run::McRun::build(s, None)?;
    let report = crate::family::contract::run_to_report(&mut run, &|| 0.0);
    // A run its script stopped is a failed run, not the results of its first hours.
    match crate::family::contract::FamilyRun::failure(&run) {
        Some(e) => Err(e),
        None => Ok(RunResult::of(&report)),
    }
}
