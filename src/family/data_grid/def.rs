//! The data-grid family for the registry (`FamilyDef`).

use super::config::DdScenario;
use super::params::PARAMS;
use super::policy::SchemePolicy;
use super::run::{DdDetail, DdReport, DdRun};
use crate::family::contract::ScriptCheckError;
use crate::family::contract::{Checked, ErrorKind, Estimate, FamilyDef, Param, ScenarioError, Tournament, Unused};
use crate::script::ScriptSource;
use crate::trace::bundled::{hpc2n, HPC2N, HPC2N_SIZE};
use crate::trace::{Trace, TraceSize};

/// The data grids of [Liu10].
pub struct Def;

impl FamilyDef for Def {
    const NAME: &'static str = "data_grid";
    const SECTION: Option<&'static str> = Some("data_grid");
    const PARAMS: &'static [Param] = PARAMS;
    const READINGS: &'static [crate::readings::Reading] = super::readings::READINGS;
    type Scenario = DdScenario;
    type Detail = DdDetail;
    type Report = DdReport;
    type Run = DdRun;

    fn seed(s: &DdScenario) -> u64 {
        s.seed
    }

    fn set_seed(s: &mut DdScenario, seed: u64) {
        s.seed = seed;
    }

    fn validate(s: &DdScenario) -> Result<(), ScenarioError> {
        s.data_grid.validate()
    }

    fn unused(s: &DdScenario) -> Vec<Unused> {
        s.data_grid.unused()
    }

    /// The log `data_grid.trace` names, unless it is the bundled one.
    fn trace_named(s: &DdScenario) -> Option<&str> {
        Some(s.data_grid.trace.as_str()).filter(|&n| n != HPC2N)
    }

    /// The log by name: natively a file; the page's worker has only the bundled log and the trace imported in the
    /// Workload lab.
    fn read_trace(s: &DdScenario) -> Result<Trace, ScenarioError> {
        read_log(&s.data_grid.trace)
    }

    /// The bundled log's size is known without reading it.
    fn estimate(s: &DdScenario, trace: Option<&TraceSize>) -> Estimate {
        s.data_grid.estimate(if s.data_grid.trace == HPC2N { Some(&HPC2N_SIZE) } else { trace })
    }

    /// On the named log, or the bundled one.
    fn build(c: Checked<'_, Def>) -> Result<DdRun, ScenarioError> {
        match c.trace() {
            Some(t) => DdRun::of_checked(c.scenario(), t),
            None => DdRun::of_checked(c.scenario(), &read_log(&c.scenario().data_grid.trace)?),
        }
    }

    fn sweep_path(key: &str) -> String {
        super::sweep::path_of(key)
    }

    fn tournament() -> Option<Tournament> {
        Some(Tournament {
            key: "scheme",
            builtins: &["start_time_no_data_aware", "finish_time_no_overlap", "finish_time_data_aware"],
            metric: "mean_turnaround",
            higher_is_better: &["finished", "utilization", "held_utilization", "started_early"],
        })
    }

    fn sweep_header() -> String {
        super::sweep::SWEEP_HEADER.to_string()
    }

    fn sweep_row(r: &DdReport) -> String {
        super::sweep::sweep_row(r)
    }

    fn lean(mut r: DdReport) -> DdReport {
        r.metrics.series.clear();
        r
    }

    fn wall_time_s(r: &DdReport) -> f64 {
        r.wall_time_s
    }

    fn end_time(r: &DdReport) -> f64 {
        r.metrics.end_time
    }

    fn summary(r: &DdReport) -> Vec<String> {
        super::summary::lines(r)
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn figures() -> Option<&'static dyn crate::family::contract::FigureCommand<DdScenario>> {
        Some(&super::figures::cmd::Figures::<Def>::NEW)
    }

    /// The metascheduling scheme may be a script (`"scheme": {"script": …}`).
    fn check_script(key: &str, source: &str) -> Result<(), ScriptCheckError> {
        match key {
            "scheme" => SchemePolicy::Script(ScriptSource::new(source)).check().map_err(ScriptCheckError::Compile),
            _ => Err(ScriptCheckError::NotAScript { family: "data_grid", key: key.to_string(), can: Some("scheme") }),
        }
    }
}

/// A log by name: the bundled one, else (natively) a file.
fn read_log(name: &str) -> Result<Trace, ScenarioError> {
    let fail = |m: String| ScenarioError::new(ErrorKind::Trace, "data_grid.trace", m);
    if name == HPC2N {
        return hpc2n().map_err(|e| fail(e.to_string()));
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        crate::trace::import_path(std::path::Path::new(name), None).map_err(|e| fail(format!("{name}: {e}")))
    }
    #[cfg(target_arch = "wasm32")]
    {
        Err(fail(format!("{name}: load this log in the Workload lab first, or use {HPC2N}")))
    }
}
