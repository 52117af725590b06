//! The BoT workload model of [Iosup08] §3 and its eight Table 3 presets.

use super::dist::Dist;
use serde::{Deserialize, Serialize};

/// One characteristic of the model: a distribution, read either as the value itself or as its base-2 logarithm.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Characteristic {
    pub dist: Dist,
    /// When true the distribution describes log2 of the value ([Iosup08] §3.3–3.5 fit log2-transformed data).
    #[serde(default)]
    pub log2: bool,
}

impl Characteristic {
    pub fn log2(dist: Dist) -> Self {
        Characteristic { dist, log2: true }
    }
    pub fn plain(dist: Dist) -> Self {
        Characteristic { dist, log2: false }
    }
    /// Maps a draw of the distribution to the characteristic's value.
    pub fn value_of(&self, x: f64) -> f64 {
        if self.log2 {
            libm::exp2(x)
        } else {
            x
        }
    }
    /// The q-quantile of the value (the transform is monotone).
    pub fn value_quantile(&self, q: f64) -> f64 {
        self.value_of(self.dist.quantile(q))
    }
}

/// Z(α, n): the submitting user's rank, 1..n, with P(rank = r) ∝ r^(−α).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UserModel {
    pub alpha: f64,
    pub n: u32,
}

/// The BoT model of [Iosup08] §3: who submits, when, how many tasks, and how long they run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BotModel {
    /// Submitting user: Zipf over ranks ([Iosup08] §3.2).
    pub users: UserModel,
    /// Inter-arrival time of BoTs during peak hours, seconds ([Iosup08] §3.3; Table 3 gives log2).
    pub iat: Characteristic,
    /// Distribution of the 30-minute slot of the day (0 = 00:00–00:30) in which a BoT arrives; values ≥ 48 are
    /// redrawn. `null` disables the daily cycle.
    pub daily_cycle: Option<Dist>,
    /// Number of tasks of a BoT ([Iosup08] §3.4; Table 3 gives log2); size = max(1, round(value)).
    pub size: Characteristic,
    /// Average task runtime of a BoT on the reference processor ([Iosup08] §3.5; log2), in the unit of the scenario's
    /// [`Calibration`] and clamped to its bounds.
    pub art: Characteristic,
    /// Intra-BoT runtime variance ([Iosup08] §3.5; log2), in the square of the calibration's unit.
    pub rtv: Characteristic,
}

/// How the model's runtime values are read. Table 3 prints neither a unit nor bounds for ART and RTV; the
/// calibration supplies both (decision and reasoning in docs/model.md, "Runtime calibration").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Calibration {
    /// The default: ART in minutes (RTV in min²), ART clamped to [1 s, 30 days]. The Avg workloads of a month
    /// on the DAS-2 + Grid'5000 preset then have the task counts [Iosup08] §4.2 states (20 000–175 000 at loads
    /// 20–95%).
    #[default]
    Minutes,
    /// The earlier reading: ART in seconds (RTV in s²), ART clamped to [1 s, 2^20 s]; a month at 50% load has
    /// about a million tasks.
    Seconds,
}

impl Calibration {
    pub const ALL: [Calibration; 2] = [Calibration::Minutes, Calibration::Seconds];

    /// Seconds per model unit of runtime.
    pub fn unit(self) -> f64 {
        match self {
            Calibration::Minutes => 60.0,
            Calibration::Seconds => 1.0,
        }
    }

    /// Largest ART, seconds (the smallest is 1 s).
    pub fn art_max(self) -> f64 {
        match self {
            Calibration::Minutes => 2_592_000.0,
            Calibration::Seconds => 1_048_576.0,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Calibration::Minutes => "minutes",
            Calibration::Seconds => "seconds",
        }
    }
}

/// How the second parameter of Table 3's normal and log-normal laws is read: N(2.73, 6.1) is printed without
/// saying whether 6.1 is the standard deviation or the variance (decision and reasoning in docs/model.md, "Which
/// runtime reading"). Applies to the printed rows (presets) only; an explicit model is always (μ, σ).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NormalParam {
    /// The second parameter is the variance σ²: the Avg row's ART is N(2.73, σ = 2.47).
    #[default]
    Variance,
    /// The second parameter is the standard deviation σ: the Avg row's ART is N(2.73, σ = 6.1).
    Sd,
}

impl NormalParam {
    pub const ALL: [NormalParam; 2] = [NormalParam::Variance, NormalParam::Sd];

    pub fn name(self) -> &'static str {
        match self {
            NormalParam::Variance => "variance",
            NormalParam::Sd => "sd",
        }
    }

    /// σ from the printed second parameter.
    pub fn sigma(self, printed: f64) -> f64 {
        match self {
            NormalParam::Variance => libm::sqrt(printed),
            NormalParam::Sd => printed,
        }
    }

    /// A printed distribution as this reading reads it (normal and log-normal laws; the others unchanged).
    pub fn read(self, d: Dist) -> Dist {
        match d {
            Dist::Normal { mu, sigma } => Dist::Normal { mu, sigma: self.sigma(sigma) },
            Dist::LogNormal { mu, sigma } => Dist::LogNormal { mu, sigma: self.sigma(sigma) },
            other => other,
        }
    }
}

/// The rows of [Iosup08] Table 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Preset {
    T1,
    T2,
    T3,
    T4,
    T5,
    T6,
    T7,
    Avg,
}

impl Preset {
    pub const ALL: [Preset; 8] =
        [Preset::T1, Preset::T2, Preset::T3, Preset::T4, Preset::T5, Preset::T6, Preset::T7, Preset::Avg];

    /// The trace a row was fitted on ([Iosup08] Table 2).
    pub fn system(self) -> &'static str {
        match self {
            Preset::T1 => "DAS-2",
            Preset::T2 => "Grid'5000",
            Preset::T3 => "NGS",
            Preset::T4 => "AuverGrid",
            Preset::T5 => "SHARCNET",
            Preset::T6 => "LCG",
            Preset::T7 => "NorduGrid",
            Preset::Avg => "average system",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Preset::T1 => "T1",
            Preset::T2 => "T2",
            Preset::T3 => "T3",
            Preset::T4 => "T4",
            Preset::T5 => "T5",
            Preset::T6 => "T6",
            Preset::T7 => "T7",
            Preset::Avg => "Avg",
        }
    }

    /// The row as a model. T4 has no user information in the trace: it takes the Avg user model (docs/model.md, "Daily
    /// cycle"). T1's daily cycle G(2.62, 0.13) is kept as printed even though it puts nearly all arrivals in slot 0;
    /// the generator then reports the cycle as degenerate and ignores it.
    pub fn model(self) -> BotModel {
        use Dist::*;
        let w = |shape, scale| Weibull { shape, scale };
        let n = |mu, sigma| Normal { mu, sigma };
        let g = |shape, scale| Gamma { shape, scale };
        let (alpha, users, iat, cycle, size, art, rtv) = match self {
            Preset::T1 => (1.25, 333, w(4.06, 7.91), g(2.62, 0.13), w(1.75, 2.91), n(1.78, 3.87), w(1.64, 10.21)),
            Preset::T2 => (1.39, 481, w(4.27, 8.42), w(1.57, 20.54), g(2.47, 1.64), n(2.31, 4.97), n(5.54, 9.56)),
            Preset::T3 => (1.30, 379, w(4.94, 8.48), w(1.64, 25.42), w(2.02, 1.58), n(3.50, 3.51), g(1.79, 0.29)),
            Preset::T4 => (1.31, 368, w(3.87, 7.33), w(1.72, 25.49), w(1.78, 1.51), g(3.55, 0.47), n(6.41, 11.73)),
            Preset::T5 => (1.25, 412, w(4.17, 7.65), w(2.44, 28.99), w(1.37, 1.89), n(3.06, 7.45), w(1.93, 13.65)),
            Preset::T6 => (
                1.32,
                216,
                w(4.05, 6.48),
                w(1.71, 23.86),
                n(1.33, 2.71),
                LogNormal { mu: 1.82, sigma: 0.34 },
                w(2.85, 14.21),
            ),
            Preset::T7 => (1.36, 387, n(1.97, 8.00), w(1.62, 22.18), w(1.80, 2.17), n(2.76, 9.04), w(2.86, 16.58)),
            Preset::Avg => (1.31, 368, w(4.25, 7.86), w(1.79, 24.16), w(1.76, 2.11), n(2.73, 6.1), w(2.05, 12.25)),
        };
        BotModel {
            users: UserModel { alpha, n: users },
            iat: Characteristic::log2(iat),
            daily_cycle: Some(cycle),
            size: Characteristic::log2(size),
            art: Characteristic::log2(art),
            rtv: Characteristic::log2(rtv),
        }
    }
}

impl Preset {
    /// The row as a model, its normal and log-normal laws read by `normal` (the printed row is `model()`).
    pub fn model_read(self, normal: NormalParam) -> BotModel {
        let m = self.model();
        let read = |c: Characteristic| Characteristic { dist: normal.read(c.dist), log2: c.log2 };
        BotModel {
            users: m.users,
            iat: read(m.iat),
            daily_cycle: m.daily_cycle.map(|d| normal.read(d)),
            size: read(m.size),
            art: read(m.art),
            rtv: read(m.rtv),
        }
    }
}

impl std::str::FromStr for Preset {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Preset::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown workload preset {s:?}; allowed: T1, T2, T3, T4, T5, T6, T7, Avg"))
    }
}
