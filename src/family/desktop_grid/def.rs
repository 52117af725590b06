//! The desktop-grid family for the registry (`FamilyDef`).

use super::config::{DgScenario, PARAMS};
use super::policy::BotPolicy;
use super::report::DgReport;
use super::run::{DgDetail, DgRun};
use crate::family::contract::ScriptCheckError;
use crate::family::contract::{Checked, ErrorKind, Estimate, FamilyDef, Param, ScenarioError, Tournament, Unused};
use crate::script::ScriptSource;
use crate::trace::{Trace, TraceSize};

/// The desktop grids of [Anglano09].
pub struct Def;

impl FamilyDef for Def {
    const NAME: &'static str = "desktop_grid";
    const SECTION: Option<&'static str> = Some("desktop_grid");
    const PARAMS: &'static [Param] = PARAMS;
    const READINGS: &'static [crate::readings::Reading] = super::readings::READINGS;
    type Scenario = DgScenario;
    type Detail = DgDetail;
    type Report = DgReport;
    type Run = DgRun;

    fn seed(s: &DgScenario) -> u64 {
        s.seed
    }

    fn set_seed(s: &mut DgScenario, seed: u64) {
        s.seed = seed;
    }

    fn validate(s: &DgScenario) -> Result<(), ScenarioError> {
        s.desktop_grid.validate()
    }

    fn unused(s: &DgScenario) -> Vec<Unused> {
        s.desktop_grid.unused()
    }

    /// A desktop grid's workload is generated; it reads no trace.
    fn trace_named(_: &DgScenario) -> Option<&str> {
        None
    }

    fn read_trace(_: &DgScenario) -> Result<Trace, ScenarioError> {
        Err(ScenarioError::new(ErrorKind::Trace, "desktop_grid", "a desktop-grid run reads no trace"))
    }

    fn estimate(s: &DgScenario, _: Option<&TraceSize>) -> Estimate {
        s.desktop_grid.estimate()
    }

    fn build(c: Checked<'_, Def>) -> Result<DgRun, ScenarioError> {
        DgRun::of_checked(c.scenario())
    }

    fn sweep_path(key: &str) -> String {
        super::sweep::path_of(key)
    }

    fn tournament() -> Option<Tournament> {
        Some(Tournament {
            key: "bot_selection",
            builtins: &["fcfs_excl", "fcfs_share", "rr", "rr_nrf", "long_idle"],
            metric: "mean_tt",
            higher_is_better: &["finished_bots", "occupancy"],
        })
    }

    fn sweep_header() -> String {
        super::sweep::SWEEP_HEADER.to_string()
    }

    fn sweep_row(r: &DgReport) -> String {
        super::sweep::sweep_row(r)
    }

    fn lean(mut r: DgReport) -> DgReport {
        r.metrics.series.clear();
        r
    }

    fn wall_time_s(r: &DgReport) -> f64 {
        r.wall_time_s
    }

    fn end_time(r: &DgReport) -> f64 {
        r.metrics.end_time
    }

    fn summary(r: &DgReport) -> Vec<String> {
        super::summary::lines(r)
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn figures() -> Option<&'static dyn crate::family::contract::FigureCommand<DgScenario>> {
        Some(&super::figures::cmd::Figures)
    }

    /// The BoT selection may be a script (`"bot_selection": {"script": …}`).
    fn check_script(key: &str, source: &str) -> Result<(), ScriptCheckError> {
        match key {
            "bot_selection" => BotPolicy::Script(ScriptSource::new(source)).check().map_err(ScriptCheckError::Compile),
            _ => {
                let key = key.to_string();
                Err(ScriptCheckError::NotAScript { family: "desktop_grid", key, can: Some("bot_selection") })
            }
        }
    }
}
