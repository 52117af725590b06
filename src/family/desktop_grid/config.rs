//! The `desktop_grid` section of a scenario: platform, availability, workload and scheduler of [Anglano09] §IV,
//! every value editable, checked with a message that names the field and the allowed range.

use super::availability::{AvailabilityLevel, GroupLaw};
pub use super::policy::FcfsShareRule;
use super::policy::{script_error, BotPolicy, BotSelection};
use super::workload::Mix;
use crate::family::contract::{Driver, ErrorKind, Estimate, Param, Part, ScenarioError, Unused};
use serde::{Deserialize, Serialize};

/// Largest number of machines a configuration may build.
pub const MAX_MACHINES: f64 = 100_000.0;

/// How machine powers are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Heterogeneity {
    /// Every machine has power `power` (10).
    Homogeneous,
    /// Powers uniform in `power_range` ([2.3, 17.7]).
    Heterogeneous,
}

impl Heterogeneity {
    pub const ALL: [Heterogeneity; 2] = [Heterogeneity::Homogeneous, Heterogeneity::Heterogeneous];

    pub fn name(self) -> &'static str {
        match self {
            Heterogeneity::Homogeneous => "homogeneous",
            Heterogeneity::Heterogeneous => "heterogeneous",
        }
    }
}

/// Whether a replica stops computing while it stores a checkpoint (a reading: [Anglano09] gives the transfer time,
/// not whether computing waits for it; docs/desktop_grid.md, "Readings").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckpointStore {
    /// The transfer runs beside the computation; the checkpoint counts once it has arrived (the default: §III-A
    /// checkpoints at system calls and §IV-B calls checkpoint overheads slight; docs/desktop_grid.md).
    #[default]
    Async,
    /// The replica pauses for the transfer, then computes on.
    Blocking,
}

impl CheckpointStore {
    pub const ALL: [CheckpointStore; 2] = [CheckpointStore::Async, CheckpointStore::Blocking];

    pub fn name(self) -> &'static str {
        match self {
            CheckpointStore::Blocking => "blocking",
            CheckpointStore::Async => "async",
        }
    }
}

/// Which candidate tasks' idle time LongIdle compares (a reading of [Anglano09] §III-C).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LongIdleRule {
    /// Every candidate task's accumulated time without a running replica, also of tasks that have one now (frozen).
    #[default]
    Accumulated,
    /// Only candidate tasks without a running replica now; when there is none, the accumulated rule decides.
    Unreplicated,
}

impl LongIdleRule {
    pub const ALL: [LongIdleRule; 2] = [LongIdleRule::Accumulated, LongIdleRule::Unreplicated];

    pub fn name(self) -> &'static str {
        match self {
            LongIdleRule::Accumulated => "accumulated",
            LongIdleRule::Unreplicated => "unreplicated",
        }
    }
}

/// A desktop-grid run ([Anglano09]); the scenario's `seed` seeds it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DgConfig {
    /// Homogeneous (every machine of power `power`) or Heterogeneous (powers uniform in `power_range`).
    pub heterogeneity: Heterogeneity,
    /// Machines are added until their powers sum to this (P = 1 000).
    pub total_power: f64,
    /// Power of every machine of a Homogeneous configuration (10).
    pub power: f64,
    /// Range of the powers of a Heterogeneous configuration ([2.3, 17.7]).
    pub power_range: [f64; 2],
    /// Table II column: high, medium, low (or always_up: no failures).
    pub availability: AvailabilityLevel,
    /// MTTF of each machine group, s; null = the Table II column of `availability`.
    pub mttf: Option<Vec<f64>>,
    /// Shape of the Weibull time to failure; its scale makes the mean equal the MTTF.
    pub weibull_shape: f64,
    /// Mean repair time, s; null = Table II (1 800 s High, 5 400 s otherwise).
    pub repair_mean: Option<f64>,
    /// Standard deviation of the repair time, s; null = 300 s High, 800 s otherwise.
    pub repair_sd: Option<f64>,
    /// Task mix of Table III.
    pub mix: Mix,
    /// Load factor L; λ = L / C (Eq. 7).
    pub load: f64,
    /// Application size AS: the work of every BoT, s on a machine of power 1.
    pub application_size: f64,
    /// Number of BoTs a run submits.
    pub bots: u32,
    /// BoT selection policy ([Anglano09] §III-C), or a user's script (`{"script": "…"}`, docs/policies.md).
    pub bot_selection: BotPolicy,
    /// WQR-FT replication threshold; null = 2, unlimited for FCFS-Excl ([Anglano09] §IV-C).
    pub rep_thresh: Option<u32>,
    /// A running replica checkpoints after every this many seconds of its own execution.
    pub checkpoint_period: f64,
    /// Checkpoint transfer (store or retrieve) time, uniform in this range, s.
    pub transfer_time: [f64; 2],
    /// Whether computing goes on while a checkpoint is stored (async, the default) or stops (blocking).
    pub checkpoint_store: CheckpointStore,
    /// LongIdle: the idle time of every candidate task (accumulated) or of those without a replica (unreplicated).
    pub long_idle: LongIdleRule,
    /// FCFS-Share: moves on to the next BoT once every task of the oldest has RepThresh replicas, or one replica.
    pub fcfs_share: FcfsShareRule,
    /// End of the run, s; null = 4 × the expected submission window (bots / λ).
    pub horizon: Option<f64>,
    /// Interval between time-series samples, s; null = horizon / 2 000, at least 60 s.
    pub sample_interval: Option<f64>,
}

impl Default for DgConfig {
    fn default() -> Self {
        DgConfig {
            heterogeneity: Heterogeneity::Homogeneous,
            total_power: 1_000.0,
            power: 10.0,
            power_range: [2.3, 17.7],
            availability: AvailabilityLevel::High,
            mttf: None,
            weibull_shape: 0.7,
            repair_mean: None,
            repair_sd: None,
            mix: Mix::AllM,
            load: 0.5,
            application_size: 3_600_000.0,
            bots: 200,
            bot_selection: BotPolicy::Builtin(BotSelection::RrNrf),
            rep_thresh: None,
            checkpoint_period: 1_800.0,
            transfer_time: [240.0, 720.0],
            checkpoint_store: CheckpointStore::Async,
            long_idle: LongIdleRule::Accumulated,
            fcfs_share: FcfsShareRule::RepThresh,
            horizon: None,
            sample_interval: None,
        }
    }
}

/// The most tasks a run holds, and the least work of a task the cap counts with, s.
const MAX_TASKS: f64 = 50e6;
const TASK_WORK: f64 = 500.0;

fn range(field: &str, v: f64, lo: f64, hi: f64, unit: &str) -> Result<(), ScenarioError> {
    if v.is_finite() && v >= lo && v <= hi {
        Ok(())
    } else {
        Err(ScenarioError {
            kind: ErrorKind::OutOfRange,
            field: format!("desktop_grid.{field}"),
            message: format!(
                "{} is out of range; allowed {}–{}{unit}",
                crate::family::contract::short_number(v),
                crate::family::contract::short_number(lo),
                crate::family::contract::short_number(hi)
            ),
        })
    }
}

impl DgConfig {
    /// The keys whose value changes nothing under the other settings (`Unused`).
    pub fn unused(&self) -> Vec<Unused> {
        let (mut out, d) = (Vec::new(), DgConfig::default());
        match self.heterogeneity {
            Heterogeneity::Homogeneous => out.push(Unused::new(
                "desktop_grid.power_range",
                self.power_range != d.power_range,
                "only a heterogeneous platform draws powers from it",
            )),
            Heterogeneity::Heterogeneous => out.push(Unused::new(
                "desktop_grid.power",
                self.power != d.power,
                "a heterogeneous platform draws powers from power_range",
            )),
        }
        if self.availability == AvailabilityLevel::AlwaysUp {
            let why = "machines that are always up never fail nor get repaired";
            out.push(Unused::new("desktop_grid.mttf", self.mttf != d.mttf, why));
            out.push(Unused::new("desktop_grid.weibull_shape", self.weibull_shape != d.weibull_shape, why));
            out.push(Unused::new("desktop_grid.repair_mean", self.repair_mean != d.repair_mean, why));
            out.push(Unused::new("desktop_grid.repair_sd", self.repair_sd != d.repair_sd, why));
        }
        if self.bot_selection.builtin() != Some(BotSelection::FcfsShare) {
            out.push(Unused::new(
                "desktop_grid.fcfs_share",
                self.fcfs_share != d.fcfs_share,
                "only the BoT selection FCFS-Share reads it",
            ));
        }
        if self.bot_selection.builtin() != Some(BotSelection::LongIdle) {
            out.push(Unused::new(
                "desktop_grid.long_idle",
                self.long_idle != d.long_idle,
                "only the BoT selection LongIdle reads it",
            ));
        }
        out
    }

    /// The replication threshold in force (u32::MAX = unlimited).
    pub fn threshold(&self) -> u32 {
        self.rep_thresh.unwrap_or_else(|| self.bot_selection.default_threshold())
    }

    /// The failure law of each machine group (empty for `always_up`).
    pub fn group_laws(&self) -> Vec<GroupLaw> {
        if self.availability == AvailabilityLevel::AlwaysUp {
            return Vec::new();
        }
        let (mean, sd) = self.availability.repair();
        let mttr = self.repair_mean.unwrap_or(mean);
        let sd = self.repair_sd.unwrap_or(sd);
        let mttf = self.mttf.as_deref().unwrap_or(self.availability.mttf());
        mttf.iter().map(|&m| GroupLaw::new(m, self.weibull_shape, mttr, sd)).collect()
    }

    /// Expected number of machines (total power over the mean power of a machine).
    fn expected_machines(&self) -> f64 {
        match self.heterogeneity {
            Heterogeneity::Homogeneous => self.total_power / self.power,
            Heterogeneity::Heterogeneous => self.total_power / (0.5 * (self.power_range[0] + self.power_range[1])),
        }
    }

    /// What a run will cost, estimated before it starts (docs/budget.md, "Desktop grid"), as an upper bound: the
    /// events of the machines' failures and repairs up to the horizon (3 × machines × horizon / (MTTF + MTTR),
    /// machines spread evenly over the groups: a failure, its repair and the killed replica's stale event; a run
    /// that ends sooner has fewer) and of the tasks' replicas (a start, an end and a checkpoint store per period of
    /// computing, up to the replication threshold per task as far as the machines go round); its memory: the time
    /// series, the tasks and the machines.
    pub fn estimate(&self) -> Estimate {
        let machines = self.expected_machines();
        let groups = self.group_laws();
        let cycles_per_s = groups.iter().map(|g| 1.0 / (g.mttf + g.mttr)).sum::<f64>() / groups.len().max(1) as f64;
        let up = if groups.is_empty() {
            1.0
        } else {
            groups.iter().map(GroupLaw::availability).sum::<f64>() / groups.len() as f64
        };
        let rate = super::workload::LoadFigures::of(self.total_power * up.max(1e-9), self.application_size, self.load)
            .bot_rate;
        let horizon = self.horizon.unwrap_or(4.0 * f64::from(self.bots) / rate);
        // A failure, its repair, and the pending phase event of the replica it kills (then stale).
        let failures = 3.0 * machines * horizon * cycles_per_s;
        // Tasks: the application size over the mix's mean task work (Eq. 4: class granularity, U[X/2, 3X/2]).
        let shares = self.mix.shares();
        let total: f64 = shares.iter().sum();
        let mean_work: f64 =
            shares.iter().zip(super::workload::CLASS_GRANULARITY).map(|(p, x)| p / total * x).sum::<f64>();
        let tasks = f64::from(self.bots) * (self.application_size / mean_work).max(1.0);
        let power = match self.heterogeneity {
            Heterogeneity::Homogeneous => self.power,
            Heterogeneity::Heterogeneous => self.power_range[0],
        };
        let segments = 1.0 + mean_work / power / self.checkpoint_period;
        // Replicas: up to the threshold per task, as far as the machines go round a BoT's tasks; without a threshold
        // (FCFS-Excl) every machine freed takes a replica of a task still running, so a BoT of n tasks starts about
        // machines × (1 + 1/2 + … + 1/n) replicas.
        let per_bot = (self.application_size / mean_work).max(1.0);
        let copies = if self.threshold() == u32::MAX {
            (machines * (per_bot.ln() + 0.58 + 0.5 / per_bot) / per_bot).max(1.0)
        } else {
            (f64::from(self.threshold()) + 1.0).min((machines / per_bot).max(1.0))
        };
        let task_events = copies * tasks * (2.0 + segments.min(1e6));
        let events_driver = if failures >= task_events {
            Driver::new("desktop_grid.horizon", "failures and repairs over the horizon: horizon, mttf and repair_mean")
        } else {
            Driver::new("desktop_grid.bots", "the tasks of the BoTs: bots × application_size / the mix's task work")
        };
        let interval = self.sample_interval.unwrap_or((horizon / 2_000.0).max(60.0));
        Estimate {
            events: failures + task_events,
            events_driver,
            memory: vec![
                Part {
                    what: "series samples",
                    count: horizon / interval,
                    // A sample in the run and its copy in the report.
                    bytes_each: 80.0,
                    driver: Driver::new("desktop_grid.sample_interval", "one per sample_interval up to the horizon"),
                    most: Some(super::MAX_SAMPLES),
                },
                Part {
                    what: "tasks",
                    count: tasks,
                    bytes_each: 96.0,
                    driver: Driver::new("desktop_grid.bots", "bots × application_size / the mix's task work"),
                    most: None,
                },
                Part {
                    what: "machines",
                    count: machines,
                    bytes_each: 160.0,
                    driver: Driver::new("desktop_grid.total_power", "total_power / the power of a machine"),
                    most: None,
                },
            ],
        }
    }

    /// Checks every value a run depends on.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        range("total_power", self.total_power, 1.0, 1e6, "")?;
        match self.heterogeneity {
            Heterogeneity::Homogeneous => {
                range("power", self.power, 0.01, 1e6, "")?;
                range(
                    "total_power",
                    self.total_power / self.power,
                    1.0,
                    MAX_MACHINES,
                    " machines (total_power / power)",
                )?;
            }
            Heterogeneity::Heterogeneous => {
                let [lo, hi] = self.power_range;
                range("power_range[0]", lo, 0.01, 1e6, "")?;
                range("power_range[1]", hi, lo, 1e6, " (at least power_range[0])")?;
                range(
                    "total_power",
                    self.total_power / lo,
                    1.0,
                    MAX_MACHINES,
                    " machines (total_power / power_range[0])",
                )?;
            }
        }
        if let Some(m) = &self.mttf {
            if m.is_empty() || m.len() > 1000 {
                return Err(ScenarioError {
                    kind: ErrorKind::OutOfRange,
                    field: "desktop_grid.mttf".into(),
                    message: format!("{} groups; allowed 1–1000 (null = Table II)", m.len()),
                });
            }
            for (i, &v) in m.iter().enumerate() {
                range(&format!("mttf[{i}]"), v, 1.0, 1e12, " s")?;
            }
        }
        range("weibull_shape", self.weibull_shape, 0.05, 20.0, "")?;
        if let Some(v) = self.repair_mean {
            range("repair_mean", v, 1.0, 1e9, " s")?;
        }
        if let Some(v) = self.repair_sd {
            range("repair_sd", v, 0.0, 1e9, " s")?;
        }
        range("load", self.load, 0.01, 2.0, "")?;
        // A run holds at most MAX_TASKS tasks, a BoT up to application_size / TASK_WORK of them: the field named is
        // the one that passes the cap alone (application_size, even for one BoT), else bots for this
        // application_size.
        range(
            "application_size",
            self.application_size,
            1.0,
            MAX_TASKS * TASK_WORK,
            " s (one BoT of it is up to application_size / 500 s tasks; a run holds at most 50 000 000)",
        )?;
        range("bots", f64::from(self.bots), 1.0, 1e6, " BoTs")?;
        let tasks_per_bot = self.application_size / TASK_WORK;
        if f64::from(self.bots) * tasks_per_bot > MAX_TASKS {
            let most = (MAX_TASKS / tasks_per_bot).floor();
            return Err(ScenarioError {
                kind: ErrorKind::OutOfRange,
                field: "desktop_grid.bots".into(),
                message: format!(
                    "{} BoTs of up to {tasks_per_bot:.0} tasks each (application_size / 500 s) exceed 50 000 000 \
                     tasks; allowed 1–{most:.0} BoTs at this application_size",
                    self.bots
                ),
            });
        }
        if let Some(r) = self.rep_thresh {
            range("rep_thresh", f64::from(r), 1.0, f64::from(u32::MAX), " replicas")?;
        }
        range("checkpoint_period", self.checkpoint_period, 1.0, 1e9, " s")?;
        let [a, b] = self.transfer_time;
        range("transfer_time[0]", a, 0.0, 1e6, " s")?;
        range("transfer_time[1]", b, a, 1e6, " s (at least transfer_time[0])")?;
        if let Some(h) = self.horizon {
            range("horizon", h, 1.0, 1e11, " s")?;
        }
        if let Some(s) = self.sample_interval {
            range("sample_interval", s, 1.0, 1e11, " s")?;
        }
        self.bot_selection.check().map_err(|e| script_error(&e))
    }
}

/// A desktop-grid scenario: its seed and its section, written as `seed`, `family` ("desktop_grid") and
/// `desktop_grid` (the form of every desktop-grid scenario file and of the report's `scenario`).
/// A key left out takes its default (the seed: `contract::DEFAULT_SEED`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DgScenario {
    pub seed: u64,
    pub family: FamilyTag,
    pub desktop_grid: DgConfig,
}

/// The `family` key of a desktop-grid scenario.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum FamilyTag {
    #[default]
    #[serde(rename = "desktop_grid")]
    DesktopGrid,
}

impl Default for DgScenario {
    fn default() -> DgScenario {
        DgScenario::new(crate::family::contract::DEFAULT_SEED, DgConfig::default())
    }
}

impl DgScenario {
    pub fn new(seed: u64, desktop_grid: DgConfig) -> DgScenario {
        DgScenario { seed, family: FamilyTag::DesktopGrid, desktop_grid }
    }
}

/// Every key of a desktop-grid scenario's section (`bagsim scenario --doc --family desktop_grid`).
pub const PARAMS: &[Param] = &crate::family::contract::documented([
    Param {
        path: "desktop_grid.heterogeneity",
        unit: "",
        allowed: "homogeneous | heterogeneous",
        meaning: "every machine of power `power`, or powers uniform in `power_range` ([Anglano09] §IV-A)",
    },
    Param {
        path: "desktop_grid.total_power",
        unit: "",
        allowed: "1 – 10^6",
        meaning: "machines are added until their powers sum to this (1 000)",
    },
    Param {
        path: "desktop_grid.power",
        unit: "",
        allowed: "0.01 – 10^6",
        meaning: "power of every machine of a homogeneous configuration (10)",
    },
    Param {
        path: "desktop_grid.power_range",
        unit: "",
        allowed: "[lo, hi], 0.01 ≤ lo ≤ hi",
        meaning: "range of the powers of a heterogeneous configuration ([2.3, 17.7])",
    },
    Param {
        path: "desktop_grid.availability",
        unit: "",
        allowed: "high | medium | low | always_up",
        meaning: "Table II column of MTTF and MTTR; always_up: no failures",
    },
    Param {
        path: "desktop_grid.mttf",
        unit: "s",
        allowed: "null, or 1–1000 values ≥ 1",
        meaning: "MTTF of each machine group; null = the Table II column",
    },
    Param {
        path: "desktop_grid.weibull_shape",
        unit: "",
        allowed: "0.05 – 20",
        meaning: "shape of the Weibull time to failure; its scale makes the mean the MTTF (0.7)",
    },
    Param {
        path: "desktop_grid.repair_mean",
        unit: "s",
        allowed: "null or 1 – 10^9",
        meaning: "mean of the normal repair time; null = 1 800 s High, 5 400 s otherwise",
    },
    Param {
        path: "desktop_grid.repair_sd",
        unit: "s",
        allowed: "null or 0 – 10^9",
        meaning: "standard deviation of the repair time; null = 300 s High, 800 s otherwise",
    },
    Param {
        path: "desktop_grid.mix",
        unit: "",
        allowed: "all_vs | all_s | all_m | all_l | uniform | short | med | long",
        meaning: "task mix of Table III",
    },
    Param {
        path: "desktop_grid.load",
        unit: "",
        allowed: "0.01 – 2",
        meaning: "load factor L; the BoT rate is λ = L / C (Eq. 6–9)",
    },
    Param {
        path: "desktop_grid.application_size",
        unit: "s",
        allowed: "1 – 2.5·10^10; bots × it / 500 ≤ 5·10^7",
        meaning: "AS: the work of every BoT on a machine of power 1 (3 600 000 s)",
    },
    Param { path: "desktop_grid.bots", unit: "", allowed: "1 – 10^6", meaning: "number of BoTs a run submits" },
    Param {
        path: "desktop_grid.bot_selection",
        unit: "",
        allowed:
            "fcfs_excl | fcfs_share | rr | rr_nrf | long_idle | {\"script\": \"…\"} | {\"script_file\": \"p.rhai\"}",
        meaning: "BoT selection policy ([Anglano09] §III-C), or your own as a script (docs/policies.md)",
    },
    Param {
        path: "desktop_grid.rep_thresh",
        unit: "",
        allowed: "null or ≥ 1",
        meaning: "WQR-FT replication threshold; null = 2, unlimited for FCFS-Excl",
    },
    Param {
        path: "desktop_grid.checkpoint_period",
        unit: "s",
        allowed: "1 – 10^9",
        meaning: "a running replica checkpoints after every this many seconds of execution (1 800 s)",
    },
    Param {
        path: "desktop_grid.transfer_time",
        unit: "s",
        allowed: "[lo, hi], 0 ≤ lo ≤ hi ≤ 10^6",
        meaning: "checkpoint transfer time, uniform in this range ([240, 720] s)",
    },
    Param {
        path: "desktop_grid.checkpoint_store",
        unit: "",
        allowed: "async, blocking",
        meaning: "async: a replica computes on while it stores a checkpoint, which counts once stored (default); \
                  blocking: it stops computing meanwhile (docs/desktop_grid.md, \"Readings\")",
    },
    Param {
        path: "desktop_grid.long_idle",
        unit: "",
        allowed: "accumulated, unreplicated",
        meaning: "LongIdle compares the accumulated idle time of every candidate task (default) or only of those \
                  without a running replica now",
    },
    Param {
        path: "desktop_grid.fcfs_share",
        unit: "",
        allowed: "rep_thresh, one_replica",
        meaning: "FCFS-Share gives a machine to a later BoT once every task of the oldest has RepThresh running \
                  replicas (rep_thresh, default) or one (one_replica) (docs/desktop_grid.md, \"Capacity\")",
    },
    Param {
        path: "desktop_grid.horizon",
        unit: "s",
        allowed: "null or 1 – 10^11",
        meaning: "end of the run; null = 4 × the expected submission window",
    },
    Param {
        path: "desktop_grid.sample_interval",
        unit: "s",
        allowed: "null or 1 – 10^11, at most 10^6 samples over the horizon",
        meaning: "interval between time-series samples; null = horizon / 2 000, at least 60 s",
    },
]);
