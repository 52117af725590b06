//! The multi-cluster family for the registry (`FamilyDef`): its keys are a scenario file's top level, as they were
//! before families existed.

use super::config::{ArchitectureConfig, McScenario, PARAMS};
use super::live::McDetail;
use super::policy::scheduling::{SchedulingPolicy, ScriptSource};
use super::policy::selection::SelectionPolicy;
use super::run::{read_scenario_trace, McRun, Report};
use crate::family::contract::ScriptCheckError;
use crate::family::contract::{at_default, Checked, ErrorKind, Estimate, FamilyDef, ScenarioError, Tournament, Unused};
use crate::trace::{Trace, TraceSize};

/// The multi-cluster grids of [Iosup08].
pub struct Def;

impl FamilyDef for Def {
    const NAME: &'static str = "multi_cluster";
    const SECTION: Option<&'static str> = None;
    const PARAMS: &'static [crate::family::contract::Param] = PARAMS;
    const READINGS: &'static [crate::readings::Reading] = super::readings::READINGS;
    type Scenario = McScenario;
    type Detail = McDetail;
    type Report = Report;
    type Run = McRun;

    fn seed(s: &McScenario) -> u64 {
        s.seed
    }

    fn set_seed(s: &mut McScenario, seed: u64) {
        s.seed = seed;
    }

    fn validate(s: &McScenario) -> Result<(), ScenarioError> {
        s.validate()
    }

    fn unused(s: &McScenario) -> Vec<Unused> {
        s.unused()
    }

    fn trace_named(s: &McScenario) -> Option<&str> {
        s.workload.trace.as_ref().map(|t| t.path.as_str())
    }

    fn read_trace(s: &McScenario) -> Result<Trace, ScenarioError> {
        match &s.workload.trace {
            Some(t) => read_scenario_trace(t),
            None => Err(ScenarioError::new(ErrorKind::Trace, "workload.trace.path", "no trace is named")),
        }
    }

    fn estimate(s: &McScenario, trace: Option<&TraceSize>) -> Estimate {
        super::budget::estimate(s, trace)
    }

    fn build(c: Checked<'_, Def>) -> Result<McRun, ScenarioError> {
        McRun::of_checked(c.scenario(), c.trace())
    }

    fn sweep_path(key: &str) -> String {
        super::sweep::path_of(key).to_string()
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn figures() -> Option<&'static dyn crate::family::contract::FigureCommand<McScenario>> {
        Some(&super::figures::cmd::Figures::<Def>::NEW)
    }

    /// The task-scheduling and task-selection policies may be scripts (`"scheduling": {"script": …}`).
    fn check_script(key: &str, source: &str) -> Result<(), ScriptCheckError> {
        let compile = ScriptCheckError::Compile;
        match key {
            "scheduling" => SchedulingPolicy::Script(ScriptSource::new(source)).check().map_err(compile),
            "selection" => SelectionPolicy::Script(ScriptSource::new(source)).check().map_err(compile),
            _ => Err(ScriptCheckError::NotAScript {
                family: "multi_cluster",
                key: key.to_string(),
                can: Some("scheduling and selection"),
            }),
        }
    }

    fn tournament() -> Option<Tournament> {
        Some(Tournament {
            key: "scheduling",
            builtins: &["ECT", "FPLT", "RR", "WQR4x", "DFPLT", "ECT-P", "STFR", "FPF"],
            metric: "mean_makespan",
            higher_is_better: &["finished_fraction", "utilization"],
        })
    }

    fn sweep_header() -> String {
        super::sweep::sweep_header()
    }

    fn sweep_row(r: &Report) -> String {
        super::sweep::sweep_row(r)
    }

    /// Without the time series and the per-user table (half a megabyte for a month of the default workload's users).
    fn lean(mut r: Report) -> Report {
        r.metrics.series.clear();
        r.metrics.users.clear();
        r
    }

    fn wall_time_s(r: &Report) -> f64 {
        r.wall_time_s
    }

    fn end_time(r: &Report) -> f64 {
        r.metrics.system.end_time
    }

    fn summary(r: &Report) -> Vec<String> {
        super::summary::lines(r)
    }

    /// Files written before the monitoring service's default became periodic carry its earlier default, 0.
    fn key_at_default(key: &str, value: &serde_json::Value) -> Option<bool> {
        let at = at_default::<McScenario>(key, value)?;
        if at || key != "architecture" {
            return Some(at);
        }
        let read: McScenario = serde_json::from_str(&serde_json::json!({ key: value }).to_string()).ok()?;
        let earlier = ArchitectureConfig { monitoring_period: 0.0, ..McScenario::default().architecture };
        Some(read.architecture == earlier)
    }
}
