//! The multi-cluster section of a scenario ([Iosup08]): the seed, platform, workload, architecture, policies,
//! predictor, inaccuracy and horizon, with their defaults, their checks (every message names the field and the
//! allowed range) and their `bagsim scenario --doc` entries. A scenario file carries these keys at its top level, as
//! every file did before families existed.

use super::architecture::{Architecture, EligibleSet, FcondorMove};
use super::platform::PlatformSpec;
use super::policy::options::PolicyOptions;
use super::policy::predictor::{PredictorInput, PredictorModel};
use super::policy::scheduling::SchedulingPolicy;
use super::policy::selection::SelectionPolicy;
use crate::family::contract::{Param, ScenarioError};
use crate::trace::bots::{BotKey, BotRule, MultiProc, DEFAULT_DELTA, MAX_DELTA};
use crate::trace::Format;
use crate::workload::generate::ArrivalPattern;
use crate::workload::generators::Generator;
use crate::workload::model::{BotModel, Calibration, NormalParam, Preset};
use crate::workload::streams::{LoadSplit, Streams};
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
    /// Readings of the policies' definitions: DFPLT's unranked clusters, WQR4x, S-U-Prio's order (docs/model.md).
    pub policy_options: PolicyOptions,
    /// Runtime predictor used by ECT-P ([Iosup08] §3.7).
    pub predictor: PredictorConfig,
    /// Maximum runtime-estimate inaccuracy I, percent: each estimate is max(R + (E/100)·R, 1), E ~ U[−I, I] ([Iosup08] §5.3).
    pub inaccuracy: f64,
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
            seed: 1,
            platform: PlatformSpec::default(),
            workload: WorkloadConfig::default(),
            architecture: ArchitectureConfig::default(),
            selection: SelectionPolicy::ST,
            scheduling: SchedulingPolicy::Fplt,
            policy_options: PolicyOptions::default(),
            predictor: PredictorConfig::default(),
            inaccuracy: 0.0,
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
    /// "swf" or "gwf"; null: from the file name, else from the content.
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
}

impl Default for ArchitectureConfig {
    fn default() -> Self {
        ArchitectureConfig {
            kind: Architecture::Csp,
            monitoring_period: 60.0,
            eligible_set: EligibleSet::Dispatched,
            fcondor_move: FcondorMove::Task,
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
    ScenarioError { field: field.to_string(), message: message.into() }
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
                return Err(err("workload.trace.path", "empty; give the trace file"));
            }
            check_range("workload.trace.delta", t.delta, 0.0, MAX_DELTA, " s")?;
        }
        if let Some(g) = &w.generator {
            if w.trace.is_some() {
                return Err(err(
                    "workload.generator",
                    "a scenario either replays workload.trace or uses a generator, not both; remove one",
                ));
            }
            g.validate().map_err(|e| err(&e.field, e.message))?;
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
            d.validate().map_err(|e| err(&format!("workload.model.{name}.dist"), e.0))?;
        }
        if let Some(c) = &model.daily_cycle {
            c.validate().map_err(|e| err("workload.model.daily_cycle", e.0))?;
        }
        check_range("architecture.monitoring_period", self.architecture.monitoring_period, 0.0, DAY, " s")?;
        check_range("inaccuracy", self.inaccuracy, 0.0, 10_000.0, " %")?;
        check_range("scheduling_period", self.scheduling_period, 1.0, DAY, " s")?;
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

/// Every multi-cluster key (the keys every scenario has, `seed` and `family`, are `scenario::COMMON`).
pub const PARAMS: &[Param] = &[
    Param {
        path: "platform.preset",
        unit: "",
        allowed: "das2_g5k, uniform20",
        meaning: "das2_g5k: DAS-2 + Grid'5000, 20 clusters, 3 674 processors, speeds 1.0–1.75 ([Iosup08] §4.1); \
                  uniform20: 20 clusters of 184 processors at speed 1.41 (the same totals within 0.2%)",
    },
    Param {
        path: "platform.clusters",
        unit: "",
        allowed: "list of {name, processors ≥ 1, speed in (0, 1000]}",
        meaning: "explicit clusters instead of the preset",
    },
    Param { path: "workload.preset", unit: "", allowed: "T1 … T7, Avg", meaning: "row of [Iosup08] Table 3" },
    Param {
        path: "workload.model",
        unit: "",
        allowed: "null or {users, iat, daily_cycle, size, art, rtv}",
        meaning: "a full BoT model replacing the preset",
    },
    Param {
        path: "workload.load",
        unit: "",
        allowed: "0.05 – 0.99 or null",
        meaning: "target offered load Σ runtimes / (Σ speeds × submission period)",
    },
    Param {
        path: "workload.submission_period",
        unit: "s",
        allowed: "60 – 315 360 000",
        meaning: "BoTs arrive in [0, submission period)",
    },
    Param {
        path: "workload.arrival_pattern",
        unit: "",
        allowed: "realistic, all_at_zero, evenly_spread",
        meaning: "[Iosup08] §5.2, Figure 5",
    },
    Param {
        path: "workload.median_size",
        unit: "tasks",
        allowed: "1 – max_size or null",
        meaning: "rescales BoT sizes to this median, keeping their CV",
    },
    Param {
        path: "workload.mean_runtime",
        unit: "s",
        allowed: "1 – 1 048 576 or null",
        meaning: "rescales the ART so the mean task runtime is this",
    },
    Param {
        path: "workload.max_size",
        unit: "tasks",
        allowed: "1 – 1 000 000",
        meaning: "larger BoT sizes are capped",
    },
    Param {
        path: "workload.streams",
        unit: "",
        allowed: "per_cluster, global",
        meaning: "per_cluster: each cluster receives its own independent stream with its own users, at the target \
                  load share of workload.load_split ([Iosup08] §4.2); global: one stream, user u homed at cluster u mod C",
    },
    Param {
        path: "workload.load_split",
        unit: "",
        allowed: "equal, capacity",
        meaning: "per-cluster streams: equal, each carries the same share of the target load of the whole platform \
                  (the default, docs/model.md); capacity, each carries the target load of its own cluster's capacity",
    },
    Param {
        path: "workload.calibration",
        unit: "",
        allowed: "minutes, seconds",
        meaning: "unit of the model's ART (RTV in its square) and ART bounds: minutes, [1 s, 30 days] (the default; \
                  gives the task counts of [Iosup08] §4.2) or seconds, [1 s, 2^20 s] (the earlier reading)",
    },
    Param {
        path: "workload.normal_param",
        unit: "",
        allowed: "variance, sd",
        meaning: "the second parameter of the preset row's normal laws (Avg ART N(2.73, 6.1)): a variance (default) \
                  or a standard deviation; [Iosup08] does not say (docs/model.md)",
    },
    Param {
        path: "workload.trace",
        unit: "",
        allowed: "null or {path, delta, split_parallel, same_user, format}",
        meaning: "replay a trace (SWF or GWF, plain or gzip) instead of the model: its BoTs arrive at its own submit \
                  times with its own run times (docs/traces.md)",
    },
    Param {
        path: "workload.trace.path",
        unit: "",
        allowed: "a file path",
        meaning: "the trace file, relative to the current directory",
    },
    Param {
        path: "workload.trace.delta",
        unit: "s",
        allowed: "0 – 86 400 (default 100)",
        meaning: "Δ of the BoT rule of [Minh10] §II-C, from the previous job of the BoT",
    },
    Param {
        path: "workload.trace.split_parallel",
        unit: "",
        allowed: "true, false (default)",
        meaning: "a job of p processors becomes p sequential tasks; false: such jobs are left out and counted",
    },
    Param {
        path: "workload.trace.same_user",
        unit: "",
        allowed: "true, false (default)",
        meaning: "BoTs by user alone instead of user, group, queue, executable, requested time and processors",
    },
    Param {
        path: "workload.trace.format",
        unit: "",
        allowed: "swf, gwf, null",
        meaning: "null: from the file name (.swf, .gwf, optionally .gz), else from the content",
    },
    Param {
        path: "workload.generator",
        unit: "",
        allowed: "null, {login_logout: {…}} or {minh_wolters: {…}}",
        meaning: "another workload model instead of the preset/model (docs/workload-models.md); load scales all its \
                  arrival times by one factor, null keeps its own rates; not with workload.trace",
    },
    Param {
        path: "workload.generator.login_logout.users",
        unit: "s⁻¹",
        allowed: "1–10 000 of {name, lambda (0, 10], delta [0, 10], mu (0, 10]}",
        meaning: "[Medernach05] §5: per user Logout→Login at rate lambda, Login→Logout at rate delta, jobs at rate \
                  mu while logged in; default the four Biomed users of Fig. 10",
    },
    Param {
        path: "workload.generator.login_logout.runtime",
        unit: "s",
        allowed: "a distribution {family, …} with a mean > 0",
        meaning: "runtime of each job (one task per BoT); default log-normal with the Biomed mean 5 417 s and \
                  standard deviation 22 942.2 s ([Medernach05] Table 2)",
    },
    Param {
        path: "workload.generator.minh_wolters.delta",
        unit: "s",
        allowed: "0 – 86 400 (default 100)",
        meaning: "[Minh10] Algorithm 1: a job within Δ of the previous job joins its BoT while the BoT is below its \
                  Zipf size",
    },
    Param {
        path: "workload.generator.minh_wolters.iat",
        unit: "s",
        allowed: "a distribution {family, …} with a mean > 0",
        meaning: "gap between successive job arrivals; default exponential, mean 542 s (HPC2N, [Minh10] §VII-B)",
    },
    Param {
        path: "workload.generator.minh_wolters.bot_size.alpha",
        unit: "",
        allowed: "0 – 10 (default 3.01)",
        meaning: "Zipf exponent of BoT sizes ([Minh10] §VI-C; default fitted to the HPC2N excerpt)",
    },
    Param {
        path: "workload.generator.minh_wolters.bot_size.n",
        unit: "tasks",
        allowed: "1 – 1 000 000 (default 5000)",
        meaning: "largest BoT size of the Zipf law",
    },
    Param {
        path: "workload.generator.minh_wolters.runtime",
        unit: "log2 s",
        allowed: "1–20 of {weight ≥ 0, mu −10–40, sigma 0–20}",
        meaning: "mixture of Gaussians of log2(runtime) drawn once per BoT ([Minh10] §VI-A; default fitted to the \
                  HPC2N excerpt); every job of a BoT repeats it",
    },
    Param {
        path: "workload.generator.minh_wolters.users.alpha",
        unit: "",
        allowed: "0 – 10",
        meaning: "Zipf exponent of the BoT's user (not in [Minh10])",
    },
    Param {
        path: "workload.generator.minh_wolters.users.n",
        unit: "",
        allowed: "1 – 1 000 000 (default 1)",
        meaning: "users per stream",
    },
    Param {
        path: "policy_options.dfplt_unranked",
        unit: "",
        allowed: "first, reference, last",
        meaning: "DFPLT: where a cluster with no completed task yet ranks: before every ranked one (default), at \
                  speed 1.0, or after every ranked one",
    },
    Param {
        path: "policy_options.wqr4x",
        unit: "",
        allowed: "replicas, copies",
        meaning: "the paper's WQR4x: four replicas per task (default, [Iosup08] §2.4's naming) or four copies in all",
    },
    Param {
        path: "policy_options.prio_order",
        unit: "",
        allowed: "rank, cluster",
        meaning: "S-U-Prio: users ranked by their Zipf rank in their stream (default), or every user of cluster 0 first",
    },
    Param {
        path: "architecture.kind",
        unit: "",
        allowed: "sep-c, csp, fcondor",
        meaning: "resource-management architecture ([Iosup08] §2.2)",
    },
    Param {
        path: "architecture.monitoring_period",
        unit: "s",
        allowed: "0 – 86 400",
        meaning: "csp: how often free processors are reported (default 60); 0 = exact",
    },
    Param {
        path: "architecture.eligible_set",
        unit: "",
        allowed: "dispatched, completed",
        meaning: "an RM forms its next eligible set once every task of the current one is dispatched (default) or \
                  has finished ([Iosup08] §2.2; docs/model.md, \"Readings\")",
    },
    Param {
        path: "architecture.fcondor_move",
        unit: "",
        allowed: "task, bot",
        meaning: "fcondor: a user moves to the next RM as soon as one of its tasks queues (task, default) or after a \
                  BoT of which some task queued, each BoT going whole to one RM (bot)",
    },
    Param {
        path: "selection",
        unit: "",
        allowed: "S-T, S-BoT, S-U-Prio, S-U-T, S-U-BoT, S-U-GRR, S-U-RR",
        meaning: "task-selection policy ([Iosup08] §2.3)",
    },
    Param {
        path: "scheduling",
        unit: "",
        allowed: "ECT, FPLT, RR, WQR4x, WQR-n, DFPLT, ECT-P, STFR, FPF",
        meaning: "task-scheduling policy ([Iosup08] §2.4)",
    },
    Param {
        path: "predictor.model",
        unit: "",
        allowed: "LastValue, ExpSmooth, Mean, Mean10, AdpExpSmooth, AutoRegress",
        meaning: "ECT-P's runtime predictor ([Iosup08] Table 4)",
    },
    Param {
        path: "predictor.input",
        unit: "",
        allowed: "batch, user",
        meaning: "history the predictor sees ([Iosup08] §3.7)",
    },
    Param {
        path: "inaccuracy",
        unit: "%",
        allowed: "0 – 10 000",
        meaning: "maximum runtime-estimate inaccuracy I ([Iosup08] §5.3)",
    },
    Param {
        path: "scheduling_period",
        unit: "s",
        allowed: "1 – 86 400",
        meaning: "periodic scheduling pass, when information can be stale",
    },
    Param {
        path: "horizon",
        unit: "s",
        allowed: "1 – 315 360 000 or null",
        meaning: "end of the run; null = submission period + 30 days",
    },
    Param {
        path: "sample_interval",
        unit: "s",
        allowed: "≥ 1 or null",
        meaning: "time-series sampling interval; null = submission period / 720",
    },
];
