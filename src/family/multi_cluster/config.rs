//! The multi-cluster section of a scenario ([Iosup08]): the seed, platform, workload, architecture, policies,
//! predictor, inaccuracy and horizon, with their defaults, their checks (every message names the field and the
//! allowed range) and their `bagsim scenario --doc` entries. A scenario file carries these keys at its top level, as
//! every file did before families existed.

use super::architecture::{Architecture, EligibleSet, FcondorMove, SitePolicy};
pub use super::params::PARAMS;
use super::platform::PlatformSpec;
use super::policy::options::PolicyOptions;
use super::policy::predictor::{PredictorInput, PredictorModel};
use super::policy::scheduling::{script_error, SchedulingPolicy};
use super::policy::selection::SelectionPolicy;
use super::sim::InaccuracyOn;
use crate::family::contract::{ErrorKind, ScenarioError, Unused};
use crate::trace::bots::{BotKey, BotRule, MultiProc, DEFAULT_DELTA, MAX_DELTA};
use crate::trace::Format;
use crate::workload::generate::ArrivalPattern;
use crate::workload::generators::Generator;
use crate::workload::model::{BotModel, Calibration, NormalParam, Preset};
use crate::workload::streams::{LoadSplit, Streams};
use crate::workload::task_law::TaskRuntimeLaw;
use serde::{Deserialize, Serialize};

pub const DAY: f64 = 86_400.0;

/// Longest submission period or horizon accepted: ten years.
pub const MAX_PERIOD: f64 = 3650.0 * DAY;

/// A multi-cluster run: the seed and every multi-cluster key.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct McScenario {
    /// Seed of every random stream.
    pub seed: u64,
    pub platform: PlatformSpec,
    pub workload: WorkloadConfig,
    pub architecture: ArchitectureConfig,
    /// Task-selection policy ([Iosup08] §2.3).
    pub selection: SelectionPolicy,
    /// Task-scheduling policy ([Iosup08] §2.4).
    pub scheduling: SchedulingPolicy,
    /// Readings of the policies' definitions: DFPLT's unranked clusters, WQRnx, S-U-Prio's order, RR's ring
    /// (docs/model.md).
    pub policy_options: PolicyOptions,
    /// Runtime predictor used by ECT-P ([Iosup08] §3.7).
    pub predictor: PredictorConfig,
    /// Maximum inaccuracy I, percent: max(R + (E/100)·R, 1), E ~ U[−I, I] ([Iosup08] §5.3), is the estimate or
    /// the runtime as `inaccuracy_on` says.
    pub inaccuracy: f64,
    /// What the inaccuracy perturbs: the scheduler's estimate (default) or the runtime itself (a reading).
    pub inaccuracy_on: InaccuracyOn,
    /// Period of the periodic scheduling pass, seconds (used when information can go stale: csp with monitoring).
    pub scheduling_period: f64,
    /// End of the simulation, seconds; null = submission period + 30 days (docs/model.md, "Horizon").
    pub horizon: Option<f64>,
    /// Interval between time-series samples, seconds; null = submission period / 720, at least 60 s.
    pub sample_interval: Option<f64>,
}

impl Default for McScenario {
    fn default() -> Self {
        McScenario {
            seed: crate::family::contract::DEFAULT_SEED,
            platform: PlatformSpec::default(),
            workload: WorkloadConfig::default(),
            architecture: ArchitectureConfig::default(),
            selection: SelectionPolicy::ST,
            scheduling: SchedulingPolicy::Fplt,
            policy_options: PolicyOptions::default(),
            predictor: PredictorConfig::default(),
            inaccuracy: 0.0,
            inaccuracy_on: InaccuracyOn::Estimate,
            scheduling_period: 60.0,
            horizon: None,
            sample_interval: None,
        }
    }
}

/// The workload of docs/model.md, "Workload".
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WorkloadConfig {
    /// Row of [Iosup08] Table 3 (T1–T7, Avg).
    pub preset: Preset,
    /// A full model replacing the preset (any distribution per characteristic).
    pub model: Option<BotModel>,
    /// Target offered load Σ runtimes / (Σ speeds × submission period), 0.05–0.99; null keeps the model's IATs.
    pub load: Option<f64>,
    /// Submission period, seconds.
    pub submission_period: f64,
    pub arrival_pattern: ArrivalPattern,
    /// Median BoT size (1 – max_size; the paper varies 10–50); null keeps the model's.
    pub median_size: Option<f64>,
    /// Mean task runtime, seconds (the paper varies 180–10 800); null keeps the model's.
    pub mean_runtime: Option<f64>,
    /// Largest BoT size; larger draws are capped.
    pub max_size: u32,
    /// One independent stream per cluster (default) or one global stream.
    pub streams: Streams,
    /// How per-cluster streams share the load: equally (default) or in proportion to capacity (docs/model.md).
    pub load_split: LoadSplit,
    /// The unit and bounds of the model's runtimes (ART, RTV).
    pub calibration: Calibration,
    /// Whether the second parameter of the preset row's normal laws is a variance (default) or a standard
    /// deviation ([Iosup08] Table 3 does not say; docs/model.md).
    pub normal_param: NormalParam,
    /// The law of a task's runtime given its BoT's ART and RTV: lognormal (default), gamma (the earlier law) or
    /// normal ([Iosup08] §3.5 states none; docs/model.md).
    pub task_runtime_law: TaskRuntimeLaw,
    /// A trace replayed as it is instead of the model (absent from the JSON when null, so scenarios without one
    /// serialise as before).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace: Option<TraceConfig>,
    /// Another workload model instead of the preset or model: Login/Logout users or [Minh10] Algorithm 1
    /// (docs/workload-models.md). Absent from the JSON when null, so scenarios without one serialise as before.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generator: Option<Generator>,
}

/// A trace-driven workload (docs/traces.md): the trace's BoTs by the Δ rule of [Minh10] §II-C arrive at the trace's
/// own submit times (a BoT at its first job's) with the trace's own run times, on any platform. The model, the load
/// target and the other generator settings are not used.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraceConfig {
    /// SWF or GWF file, plain or gzip, relative to the current directory.
    pub path: String,
    /// Δ of the BoT rule, seconds.
    #[serde(default = "default_delta")]
    pub delta: f64,
    /// A job of p processors becomes p sequential tasks; false: such jobs are left out (and counted).
    #[serde(default)]
    pub split_parallel: bool,
    /// Group by user alone instead of [Minh10]'s six attributes.
    #[serde(default)]
    pub same_user: bool,
    /// "swf", "gwf" or "batsim" (a Batsim JSON workload); null: from the file name, else from the content.
    #[serde(default)]
    pub format: Option<Format>,
}

fn default_delta() -> f64 {
    DEFAULT_DELTA
}

impl TraceConfig {
    /// The BoT extraction rule.
    pub fn rule(&self) -> BotRule {
        BotRule {
            delta: self.delta,
            key: if self.same_user { BotKey::User } else { BotKey::Attributes },
            multi_proc: if self.split_parallel { MultiProc::Split } else { MultiProc::Reject },
        }
    }
}

impl Default for WorkloadConfig {
    fn default() -> Self {
        WorkloadConfig {
            preset: Preset::Avg,
            model: None,
            load: Some(0.5),
            submission_period: 30.0 * DAY,
            arrival_pattern: ArrivalPattern::Realistic,
            median_size: None,
            mean_runtime: None,
            max_size: 5000,
            streams: Streams::PerCluster,
            load_split: LoadSplit::Equal,
            calibration: Calibration::Minutes,
            normal_param: NormalParam::Variance,
            task_runtime_law: TaskRuntimeLaw::Lognormal,
            trace: None,
            generator: None,
        }
    }
}

impl WorkloadConfig {
    /// The model in force: the explicit one, else the preset's row read by `normal_param`.
    pub fn bot_model(&self) -> BotModel {
        self.model.clone().unwrap_or_else(|| self.preset.model_read(self.normal_param))
    }
}

/// The resource-management architecture ([Iosup08] §2.2).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ArchitectureConfig {
    pub kind: Architecture,
    /// csp only: period of the monitoring service that reports free processors, seconds (default 60 s, the
    /// period of the RMs' periodic pass; docs/model.md); 0 = always exact.
    pub monitoring_period: f64,
    /// When an RM forms its next eligible set: once the current one is dispatched (default) or completed.
    pub eligible_set: EligibleSet,
    /// fcondor only: a user moves to the next RM task by task (default) or BoT by BoT.
    pub fcondor_move: FcondorMove,
    /// sep-c and fcondor: the sites' RMs run the scenario's policies (default) or their own FCFS.
    pub site_policy: SitePolicy,
}

impl Default for ArchitectureConfig {
    fn default() -> Self {
        ArchitectureConfig {
            kind: Architecture::Csp,
            monitoring_period: 60.0,
            eligible_set: EligibleSet::Dispatched,
            fcondor_move: FcondorMove::Task,
            site_policy: SitePolicy::Scenario,
        }
    }
}

/// Which predictor ECT-P uses and on what history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PredictorConfig {
    pub model: PredictorModel,
    /// batch: only the BoT's own completed tasks; user: all of the user's completed tasks.
    pub input: PredictorInput,
}

impl Default for PredictorConfig {
    fn default() -> Self {
        PredictorConfig { model: PredictorModel::LastValue, input: PredictorInput::Batch }
    }
}

fn err(field: &str, message: impl Into<String>) -> ScenarioError {
    ScenarioError::new(ErrorKind::OutOfRange, field, message)
}

fn inconsistent(field: &str, message: impl Into<String>) -> ScenarioError {
    ScenarioError::new(ErrorKind::Inconsistent, field, message)
}

fn check_range(field: &str, v: f64, lo: f64, hi: f64, unit: &str) -> Result<(), ScenarioError> {
    if v.is_finite() && v >= lo && v <= hi {
        Ok(())
    } else {
        let n = crate::family::contract::short_number;
        Err(err(field, format!("{} is out of range; allowed {}–{}{unit}", n(v), n(lo), n(hi))))
    }
}

impl McScenario {
    /// The keys whose value changes nothing under the other settings (`Unused`).
    pub fn unused(&self) -> Vec<Unused> {
        let (mut out, d) = (Vec::new(), McScenario::default());
        let (a, o) = (&self.architecture, &self.policy_options);
        let kind = a.kind;
        if kind != Architecture::Csp {
            out.push(Unused::new(
                "architecture.monitoring_period",
                a.monitoring_period != d.architecture.monitoring_period,
                "only csp monitors the clusters' free processors",
            ));
        }
        if kind != Architecture::Csp || self.architecture.monitoring_period <= 0.0 {
            let why = "only csp with a monitoring period has a stale view for a periodic pass to act on";
            out.push(Unused::new("scheduling_period", self.scheduling_period != d.scheduling_period, why));
        }
        if kind != Architecture::Fcondor {
            out.push(Unused::new(
                "architecture.fcondor_move",
                a.fcondor_move != d.architecture.fcondor_move,
                "only fcondor moves users between RMs",
            ));
        }
        if kind == Architecture::Csp {
            out.push(Unused::new(
                "architecture.site_policy",
                a.site_policy != d.architecture.site_policy,
                "csp's global RM always runs the scenario's policies; only sep-c and fcondor have sites' RMs",
            ));
        } else if a.site_policy == SitePolicy::Fcfs {
            // Every RM is a site's and runs its own FCFS: no key of the scenario's policies is read.
            let why = "under site_policy fcfs every RM of sep-c and fcondor runs S-T and FCFS";
            out.push(Unused::new("selection", self.selection != d.selection, why));
            out.push(Unused::new("scheduling", self.scheduling != d.scheduling, why));
            out.push(Unused::new("policy_options", *o != d.policy_options, why));
            out.push(Unused::new("predictor", self.predictor != d.predictor, why));
            out.push(Unused::new("inaccuracy", self.inaccuracy != d.inaccuracy, why));
            return out;
        }
        let only = |policy: &str| format!("only {policy} reads it; the policy is {}", self.scheduling.name());
        if self.scheduling != SchedulingPolicy::Dfplt {
            out.push(Unused::new(
                "policy_options.dfplt_unranked",
                o.dfplt_unranked != d.policy_options.dfplt_unranked,
                only("DFPLT"),
            ));
        }
        if !matches!(self.scheduling, SchedulingPolicy::WqrX { .. }) {
            out.push(Unused::new("policy_options.wqr_nx", o.wqr_nx != d.policy_options.wqr_nx, only("WQRnx")));
        }
        if !self.scheduling.rings() {
            out.push(Unused::new(
                "policy_options.rr_ring",
                o.rr_ring != d.policy_options.rr_ring,
                only("RR, WQR, STFR"),
            ));
        } else if kind != Architecture::Csp {
            out.push(Unused::new(
                "policy_options.rr_ring",
                o.rr_ring != d.policy_options.rr_ring,
                "a site's RM under sep-c and fcondor has one cluster to go round",
            ));
        }
        if !self.scheduling.predicts() {
            out.push(Unused::new(
                "predictor",
                self.predictor != d.predictor,
                only("ECT-P or a script whose estimate is \"predicted\""),
            ));
        }
        if self.inaccuracy == 0.0 {
            out.push(Unused::new(
                "inaccuracy_on",
                self.inaccuracy_on != d.inaccuracy_on,
                "only an inaccuracy above 0 perturbs an estimate or a runtime",
            ));
        }
        if self.selection != SelectionPolicy::SUPrio {
            out.push(Unused::new(
                "policy_options.prio_order",
                o.prio_order != d.policy_options.prio_order,
                "only the selection S-U-Prio reads it",
            ));
        }
        out
    }

    /// Parses JSON; the error names the field and what is allowed.
    pub fn from_json(text: &str) -> Result<McScenario, ScenarioError> {
        let s: McScenario = crate::family::contract::parse_json(text)?;
        s.validate()?;
        Ok(s)
    }

    /// Checks every value a run depends on.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        self.platform.clusters().map_err(|m| err("platform", m))?;
        let w = &self.workload;
        if let Some(l) = w.load {
            check_range("workload.load", l, 0.05, 0.99, "")?;
        }
        check_range("workload.submission_period", w.submission_period, 60.0, MAX_PERIOD, " s")?;
        if !(1..=1_000_000).contains(&w.max_size) {
            return Err(err("workload.max_size", format!("{} is out of range; allowed 1–1000000", w.max_size)));
        }
        if let Some(m) = w.median_size {
            check_range("workload.median_size", m, 1.0, f64::from(w.max_size), " tasks")?;
        }
        if let Some(m) = w.mean_runtime {
            check_range("workload.mean_runtime", m, 1.0, 1_048_576.0, " s")?;
        }
        if let Some(t) = &w.trace {
            if t.path.trim().is_empty() {
                return Err(ScenarioError::new(
                    ErrorKind::NotAllowed,
                    "workload.trace.path",
                    "empty; give the trace file",
                ));
            }
            check_range("workload.trace.delta", t.delta, 0.0, MAX_DELTA, " s")?;
        }
        if let Some(g) = &w.generator {
            if w.trace.is_some() {
                return Err(inconsistent(
                    "workload.generator",
                    "a scenario either replays workload.trace or uses a generator, not both; remove one",
                ));
            }
            g.validate()?;
        }
        let model = w.bot_model();
        if !(model.users.alpha.is_finite() && model.users.alpha >= 0.0 && model.users.alpha <= 10.0) {
            return Err(err(
                "workload.model.users.alpha",
                format!("{} is out of range; allowed 0–10", model.users.alpha),
            ));
        }
        if !(1..=1_000_000).contains(&model.users.n) {
            return Err(err("workload.model.users.n", format!("{} is out of range; allowed 1–1000000", model.users.n)));
        }
        let clusters = self.platform.clusters().map(|c| c.len()).unwrap_or(1) as u64;
        if w.streams == Streams::PerCluster && u64::from(model.users.n) * clusters > 10_000_000 {
            return Err(err(
                "workload.model.users.n",
                format!(
                    "{} users per cluster stream × {clusters} clusters exceeds 10 000 000 users; use fewer users or \
                     \"streams\": \"global\"",
                    model.users.n
                ),
            ));
        }
        for (name, d) in
            [("iat", &model.iat.dist), ("size", &model.size.dist), ("art", &model.art.dist), ("rtv", &model.rtv.dist)]
        {
            d.validate().map_err(|e| e.under(&format!("workload.model.{name}.dist")))?;
        }
        if let Some(c) = &model.daily_cycle {
            c.validate().map_err(|e| e.under("workload.model.daily_cycle"))?;
        }
        check_range("architecture.monitoring_period", self.architecture.monitoring_period, 0.0, DAY, " s")?;
        check_range("inaccuracy", self.inaccuracy, 0.0, 10_000.0, " %")?;
        check_range("scheduling_period", self.scheduling_period, 1.0, DAY, " s")?;
        self.scheduling.check().map_err(|e| script_error(&e))?;
        self.selection.check().map_err(|e| super::policy::selection::script_error(&e))?;
        if let Some(h) = self.horizon {
            check_range("horizon", h, 1.0, MAX_PERIOD, " s")?;
        }
        if let Some(s) = self.sample_interval {
            check_range("sample_interval", s, 1.0, MAX_PERIOD, " s")?;
            if self.horizon_limit() / s > 1_000_000.0 {
                return Err(err(
                    "sample_interval",
                    format!("{s} s gives more than 10^6 samples; use a longer interval"),
                ));
            }
        }
        Ok(())
    }

    /// When the run stops at the latest, seconds.
    pub fn horizon_limit(&self) -> f64 {
        self.horizon.unwrap_or(self.workload.submission_period + 30.0 * DAY)
    }

    /// The time-series sampling interval, seconds.
    pub fn sample_interval(&self) -> f64 {
        self.sample_interval.unwrap_or((self.workload.submission_period / 720.0).max(60.0))
    }
}

#[cfg(test)]
mod tests {
    use super::PARAMS;

    /// The documented lists of policies name every policy of the enums (the menus and the parser use the enums).
    #[test]
    fn documented_policies_are_the_enums() {
        use crate::family::multi_cluster::policy::scheduling::SchedulingPolicy;
        use crate::family::multi_cluster::policy::selection::SelectionPolicy;
        let allowed = |path: &str| PARAMS.iter().find(|p| p.path == path).expect("documented").allowed;
        let listed = |text: &str| text.split(", ").map(str::to_string).collect::<Vec<_>>();
        let scheduling: Vec<String> =
            SchedulingPolicy::MENU.iter().map(|p| if p.kind() == "WQR" { "WQR-n" } else { p.name() }.into()).collect();
        assert_eq!(listed(allowed("scheduling")), scheduling);
        let selection: Vec<String> = SelectionPolicy::ALL.iter().map(|p| p.name().to_string()).collect();
        assert_eq!(listed(allowed("selection")), selection);
    }
}
