//! The six models of [Iosup08] Table 4 and the fixed-size state that feeds one runtimes and predicts the next.

// Constants: ExpSmooth α = 0.5. AdpExpSmooth (Trigg–Leach) φ = 0.2, α_t = |E_t / M_t| with E and M starting at 0
// (so the first update has α = 1, and α = φ while M = 0, when α has no effect). AutoRegress of order p = 5, fitted
// by Yule–Walker on the biased sample autocovariances of every observation so far, solved by Levinson–Durbin; Mean
// while n ≤ p or the history is constant or the system singular. Every prediction is clamped to at least 1 s: no
// task runs for less, so any lower value (a negative AR extrapolation, a sub-second trace record) cannot be right.
//
// A PredictorState is a fixed-size Copy value whatever the history length, so that a simulator can keep one per
// user (or per BoT) without allocation; AutoRegress therefore keeps running sums from which the mean and the
// autocovariances of the whole history are exact, instead of the history itself.

use super::autoregress::ArSums;
use serde::{Deserialize, Serialize};

/// Smoothing constant α of `ExpSmooth`.
pub const EXP_SMOOTH_ALPHA: f64 = 0.5;
/// Smoothing constant φ of the smoothed (absolute) error of `AdpExpSmooth`, as in Trigg and Leach.
pub const TRIGG_LEACH_PHI: f64 = 0.2;
/// Number of most recent observations averaged by `Mean10`.
pub const MEAN_WINDOW: usize = 10;
/// Lower bound of every prediction, in seconds.
pub const MIN_PREDICTION: f64 = 1.0;

/// A runtime predictor of [Iosup08] Table 4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
pub enum PredictorModel {
    /// The last observed value.
    LastValue,
    /// Exponential smoothing with α = `EXP_SMOOTH_ALPHA`.
    ExpSmooth,
    /// The average of all observed values.
    Mean,
    /// The average of the last `MEAN_WINDOW` observed values.
    #[serde(rename = "Mean10")]
    Mean10,
    /// Trigg–Leach adaptive exponential smoothing with φ = `TRIGG_LEACH_PHI`.
    AdpExpSmooth,
    /// Autoregressive model of order `AR_ORDER` (Yule–Walker), Mean until it can be fitted.
    AutoRegress,
}

impl PredictorModel {
    /// Every model, in the order of [Iosup08] Table 4.
    pub const ALL: [PredictorModel; 6] = [
        PredictorModel::LastValue,
        PredictorModel::ExpSmooth,
        PredictorModel::Mean,
        PredictorModel::Mean10,
        PredictorModel::AdpExpSmooth,
        PredictorModel::AutoRegress,
    ];

    /// The name used in [Iosup08] Table 4 and Fig. 2.
    pub fn label(self) -> &'static str {
        match self {
            PredictorModel::LastValue => "LastValue",
            PredictorModel::ExpSmooth => "ExpSmooth",
            PredictorModel::Mean => "Mean",
            PredictorModel::Mean10 => "Mean(10)",
            PredictorModel::AdpExpSmooth => "AdpExpSmooth",
            PredictorModel::AutoRegress => "AutoRegress",
        }
    }

    /// A one-line description with the model's constants.
    pub fn description(self) -> &'static str {
        match self {
            PredictorModel::LastValue => "Last observed value",
            PredictorModel::ExpSmooth => "Exponential smoothing, α = 0.5",
            PredictorModel::Mean => "Average of all observed values",
            PredictorModel::Mean10 => "Average of the last 10 observed values",
            PredictorModel::AdpExpSmooth => "Adaptive exponential smoothing (Trigg–Leach), φ = 0.2",
            PredictorModel::AutoRegress => "Autoregressive model of order 5 (Yule–Walker), Mean until fitted",
        }
    }
}

/// Which earlier runtimes a prediction may use ([Iosup08] §3.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PredictorInput {
    /// Only the runtimes of earlier tasks of the same BoT.
    Batch,
    /// The runtimes of all earlier tasks of the same user, across BoTs.
    User,
}

impl PredictorInput {
    /// Both, in the order the page's menu lists them.
    pub const ALL: [PredictorInput; 2] = [PredictorInput::Batch, PredictorInput::User];

    /// Its name in a scenario file (`"input": "batch"`).
    pub fn name(self) -> &'static str {
        match self {
            PredictorInput::Batch => "batch",
            PredictorInput::User => "user",
        }
    }

    /// The input of this name.
    pub fn from_name(name: &str) -> Option<PredictorInput> {
        PredictorInput::ALL.into_iter().find(|i| i.name() == name)
    }

    /// How the page's menu names it.
    pub fn label(self) -> &'static str {
        match self {
            PredictorInput::Batch => "batch input",
            PredictorInput::User => "user input",
        }
    }
}

/// The fixed-size state of one predictor: feed it runtimes with `observe`, ask for the next one with `predict`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PredictorState {
    n: u64,
    inner: Inner,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Inner {
    LastValue { last: f64 },
    ExpSmooth { level: f64 },
    Mean { sum: f64 },
    // Slot t mod MEAN_WINDOW holds observation t; the average does not depend on the order.
    Mean10 { window: [f64; MEAN_WINDOW] },
    AdpExpSmooth { level: f64, err: f64, abs_err: f64 },
    AutoRegress(ArSums),
}

impl PredictorState {
    /// An empty predictor of `model`.
    pub fn new(model: PredictorModel) -> Self {
        let inner = match model {
            PredictorModel::LastValue => Inner::LastValue { last: 0.0 },
            PredictorModel::ExpSmooth => Inner::ExpSmooth { level: 0.0 },
            PredictorModel::Mean => Inner::Mean { sum: 0.0 },
            PredictorModel::Mean10 => Inner::Mean10 { window: [0.0; MEAN_WINDOW] },
            PredictorModel::AdpExpSmooth => Inner::AdpExpSmooth { level: 0.0, err: 0.0, abs_err: 0.0 },
            PredictorModel::AutoRegress => Inner::AutoRegress(ArSums::EMPTY),
        };
        PredictorState { n: 0, inner }
    }

    /// The model this state predicts with.
    pub fn model(&self) -> PredictorModel {
        match self.inner {
            Inner::LastValue { .. } => PredictorModel::LastValue,
            Inner::ExpSmooth { .. } => PredictorModel::ExpSmooth,
            Inner::Mean { .. } => PredictorModel::Mean,
            Inner::Mean10 { .. } => PredictorModel::Mean10,
            Inner::AdpExpSmooth { .. } => PredictorModel::AdpExpSmooth,
            Inner::AutoRegress(_) => PredictorModel::AutoRegress,
        }
    }

    /// Records an observed runtime (seconds); a non-finite value is ignored.
    pub fn observe(&mut self, runtime: f64) {
        // One corrupt trace record must not turn every later prediction of a user into NaN.
        if !runtime.is_finite() {
            return;
        }
        let first = self.n == 0;
        match &mut self.inner {
            Inner::LastValue { last } => *last = runtime,
            Inner::ExpSmooth { level } => {
                *level = if first { runtime } else { EXP_SMOOTH_ALPHA * runtime + (1.0 - EXP_SMOOTH_ALPHA) * *level };
            }
            Inner::Mean { sum } => *sum += runtime,
            Inner::Mean10 { window } => window[(self.n % MEAN_WINDOW as u64) as usize] = runtime,
            Inner::AdpExpSmooth { level, err, abs_err } => {
                if first {
                    *level = runtime;
                } else {
                    let e = runtime - *level;
                    *err = TRIGG_LEACH_PHI * e + (1.0 - TRIGG_LEACH_PHI) * *err;
                    *abs_err = TRIGG_LEACH_PHI * e.abs() + (1.0 - TRIGG_LEACH_PHI) * *abs_err;
                    // M = 0 only while every error has been 0, when α does not move the level; φ is then the
                    // conventional choice. |E| ≤ M mathematically, the min only absorbs rounding.
                    let alpha = if *abs_err > 0.0 { (*err / *abs_err).abs().min(1.0) } else { TRIGG_LEACH_PHI };
                    *level = alpha * runtime + (1.0 - alpha) * *level;
                }
            }
            Inner::AutoRegress(ar) => ar.observe(self.n, runtime),
        }
        self.n += 1;
    }

    /// The predicted next runtime, at least `MIN_PREDICTION`; None before the first observation.
    pub fn predict(&self) -> Option<f64> {
        if self.n == 0 {
            return None;
        }
        let raw = match &self.inner {
            Inner::LastValue { last } => *last,
            Inner::ExpSmooth { level } | Inner::AdpExpSmooth { level, .. } => *level,
            Inner::Mean { sum } => *sum / self.n as f64,
            Inner::Mean10 { window } => {
                let len = self.n.min(MEAN_WINDOW as u64) as usize;
                window[..len].iter().sum::<f64>() / len as f64
            }
            Inner::AutoRegress(ar) => ar.predict(self.n),
        };
        Some(raw.max(MIN_PREDICTION))
    }

    /// The number of runtimes observed so far.
    pub fn observations(&self) -> u64 {
        self.n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::multi_cluster::policy::predictor::testkit::{close, predict, run};

    /// The page's menu lists every input under the name a scenario file uses.
    #[test]
    fn every_input_has_its_file_name() {
        for i in PredictorInput::ALL {
            assert_eq!(serde_json::to_value(i).unwrap(), serde_json::json!(i.name()));
            assert_eq!(PredictorInput::from_name(i.name()), Some(i));
        }
        assert_eq!(PredictorInput::from_name("bot"), None);
    }

    #[test]
    fn labels_and_serde_names() {
        let labels: Vec<&str> = PredictorModel::ALL.iter().map(|m| m.label()).collect();
        assert_eq!(labels, ["LastValue", "ExpSmooth", "Mean", "Mean(10)", "AdpExpSmooth", "AutoRegress"]);
        assert_eq!(serde_json::to_string(&PredictorModel::Mean10).unwrap(), "\"Mean10\"");
        assert_eq!(serde_json::to_string(&PredictorInput::User).unwrap(), "\"user\"");
        let back: PredictorModel = serde_json::from_str("\"AdpExpSmooth\"").unwrap();
        assert_eq!(back, PredictorModel::AdpExpSmooth);
        for m in PredictorModel::ALL {
            assert_eq!(PredictorState::new(m).model(), m);
            assert!(!m.description().is_empty() && !m.description().contains('\n'));
        }
    }

    #[test]
    fn state_is_small_and_fixed_size() {
        assert!(std::mem::size_of::<PredictorState>() <= 200, "{}", std::mem::size_of::<PredictorState>());
    }

    #[test]
    fn no_prediction_before_first_observation() {
        for m in PredictorModel::ALL {
            let s = PredictorState::new(m);
            assert_eq!(s.predict(), None);
            assert_eq!(s.observations(), 0);
            assert_eq!(run(m, &[4.0, 6.0]).observations(), 2);
        }
    }

    #[test]
    fn last_value() {
        assert_eq!(predict(PredictorModel::LastValue, &[3.0, 5.0, 4.0]), 4.0);
    }

    #[test]
    fn exp_smooth_by_hand() {
        // F = 10; F = 0.5·20 + 0.5·10 = 15; F = 0.5·40 + 0.5·15 = 27.5; F = 0.5·5 + 0.5·27.5 = 16.25
        let xs = [10.0, 20.0, 40.0, 5.0];
        let expected = [10.0, 15.0, 27.5, 16.25];
        for (i, e) in expected.iter().enumerate() {
            assert_eq!(predict(PredictorModel::ExpSmooth, &xs[..=i]), *e);
        }
    }

    #[test]
    fn mean_by_hand() {
        assert_eq!(predict(PredictorModel::Mean, &[3.0, 5.0, 4.0]), 4.0);
        assert_eq!(predict(PredictorModel::Mean, &[2.0, 4.0, 6.0, 8.0]), 5.0);
    }

    #[test]
    fn mean10_uses_last_ten() {
        // Fewer than ten: all of them.
        assert_eq!(predict(PredictorModel::Mean10, &[2.0, 4.0, 6.0, 8.0]), 5.0);
        // 1..=12: the last ten are 3..=12, mean 7.5 (all twelve would give 6.5).
        let xs: Vec<f64> = (1..=12).map(f64::from).collect();
        assert_eq!(predict(PredictorModel::Mean10, &xs), 7.5);
        // 1..=25: the last ten are 16..=25, mean 20.5.
        let xs: Vec<f64> = (1..=25).map(f64::from).collect();
        assert_eq!(predict(PredictorModel::Mean10, &xs), 20.5);
    }

    #[test]
    fn trigg_leach_by_hand() {
        // x = 10:  F = 10, E = M = 0.
        // x = 20:  e = 10, E = 2, M = 2, α = 1, F = 20.
        // x = 15:  e = −5, E = −1 + 1.6 = 0.6, M = 1 + 1.6 = 2.6, α = 3/13, F = (3·15 + 10·20)/13 = 245/13.
        // x = 15:  e = −50/13, E = −10/13 + 0.48 = −94/325, M = 10/13 + 2.08 = 926/325, α = 47/463,
        //          F = 245/13 − (47/463)(50/13) = 111085/6019 ≈ 18.4557.
        let xs = [10.0, 20.0, 15.0, 15.0];
        let expected = [10.0, 20.0, 245.0 / 13.0, 111085.0 / 6019.0];
        for (i, e) in expected.iter().enumerate() {
            let p = predict(PredictorModel::AdpExpSmooth, &xs[..=i]);
            assert!(close(p, *e, 1e-12), "step {i}: {p} vs {e}");
        }
        // Zero errors so far (M = 0): the level stays put.
        assert_eq!(predict(PredictorModel::AdpExpSmooth, &[7.0, 7.0, 7.0]), 7.0);
    }

    #[test]
    fn every_prediction_is_at_least_one_second() {
        for m in PredictorModel::ALL {
            assert_eq!(predict(m, &[0.25; 8]), 1.0, "{m:?}");
            assert_eq!(predict(m, &[0.3]), 1.0, "{m:?}");
        }
        assert_eq!(predict(PredictorModel::LastValue, &[50.0, 0.5]), 1.0);
        // A steep decline that Mean(10) still averages above 1 s but LastValue would put below it.
        assert_eq!(predict(PredictorModel::Mean10, &[1.5, 0.6]), 1.05);
    }

    #[test]
    fn non_finite_observations_are_ignored() {
        for m in PredictorModel::ALL {
            let mut s = run(m, &[10.0, 20.0]);
            let before = s;
            s.observe(f64::NAN);
            s.observe(f64::INFINITY);
            assert_eq!(s, before, "{m:?}");
        }
    }
}
