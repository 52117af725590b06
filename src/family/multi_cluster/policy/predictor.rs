//! Task-runtime predictors of [Iosup08] Table 4 and their average relative inaccuracy on a workload ([Iosup08] Fig. 2).

// Constants: ExpSmooth α = 0.5. AdpExpSmooth (Trigg–Leach) φ = 0.2, α_t = |E_t / M_t| with E and M starting at 0
// (so the first update has α = 1, and α = φ while M = 0, when α has no effect). AutoRegress of order p = 5, fitted
// by Yule–Walker on the biased sample autocovariances of every observation so far, solved by Levinson–Durbin; Mean
// while n ≤ p or the history is constant or the system singular. Every prediction is clamped to at least 1 s: no
// task runs for less, so any lower value (a negative AR extrapolation, a sub-second trace record) cannot be right.
//
// A PredictorState is a fixed-size Copy value whatever the history length, so that a simulator can keep one per
// user (or per BoT) without allocation; AutoRegress therefore keeps running sums from which the mean and the
// autocovariances of the whole history are exact, instead of the history itself.

use serde::{Deserialize, Serialize};

/// Smoothing constant α of `ExpSmooth`.
pub const EXP_SMOOTH_ALPHA: f64 = 0.5;
/// Smoothing constant φ of the smoothed (absolute) error of `AdpExpSmooth`, as in Trigg and Leach.
pub const TRIGG_LEACH_PHI: f64 = 0.2;
/// Number of most recent observations averaged by `Mean10`.
pub const MEAN_WINDOW: usize = 10;
/// Order p of the `AutoRegress` model.
pub const AR_ORDER: usize = 5;
/// Lower bound of every prediction, in seconds.
pub const MIN_PREDICTION: f64 = 1.0;

// Below this fraction of γ_0 the Levinson–Durbin prediction-error variance is rounding noise: the Toeplitz system
// is singular and its solution would only amplify that noise. The same fraction of m² (shifted mean) is the noise
// floor of γ_0 itself, which the running sums obtain by cancellation.
const AR_SINGULAR: f64 = 1e-12;

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

// Sums over the shifted values y_t = x_t − x_0. Autocovariances do not depend on the shift, and shifting by a
// value of the series keeps the sums of products near the scale of the variance rather than of the squared mean,
// which is what makes γ_k = (Σ products − mean terms) / n accurate despite the cancellation.
#[derive(Clone, Copy, Debug, PartialEq)]
struct ArSums {
    shift: f64,
    sum: f64,
    // lag[k] = Σ_{t=k}^{n−1} y_t·y_{t−k}
    lag: [f64; AR_ORDER + 1],
    // y_0..y_{p−1}: the terms that Σ_{t=k}^{n−1} y_t lacks.
    head: [f64; AR_ORDER],
    // Slot t mod p holds y_t, so the last p values: the regressors of the next prediction and the terms that
    // Σ_{t=0}^{n−1−k} y_t lacks.
    tail: [f64; AR_ORDER],
}

fn ar_slot(t: u64) -> usize {
    (t % AR_ORDER as u64) as usize
}

impl ArSums {
    const EMPTY: ArSums =
        ArSums { shift: 0.0, sum: 0.0, lag: [0.0; AR_ORDER + 1], head: [0.0; AR_ORDER], tail: [0.0; AR_ORDER] };

    fn observe(&mut self, t: u64, x: f64) {
        if t == 0 {
            self.shift = x;
        }
        let y = x - self.shift;
        self.sum += y;
        self.lag[0] += y * y;
        let lags = if t < AR_ORDER as u64 { t as usize } else { AR_ORDER };
        for (k, lag) in self.lag.iter_mut().enumerate().take(lags + 1).skip(1) {
            *lag += y * self.tail[ar_slot(t - k as u64)];
        }
        if t < AR_ORDER as u64 {
            self.head[t as usize] = y;
        }
        self.tail[ar_slot(t)] = y;
    }

    fn predict(&self, n: u64) -> f64 {
        let nf = n as f64;
        let m = self.sum / nf;
        let mean = self.shift + m;
        if n <= AR_ORDER as u64 {
            return mean;
        }
        let mut gamma = [0.0; AR_ORDER + 1];
        let (mut head_k, mut tail_k) = (0.0, 0.0);
        for (k, g) in gamma.iter_mut().enumerate() {
            if k > 0 {
                head_k += self.head[k - 1];
                tail_k += self.tail[ar_slot(n - k as u64)];
            }
            // Σ_{t=k}^{n−1} (y_t − m)(y_{t−k} − m) = lag_k − m(S − head_k) − m(S − tail_k) + (n − k)m²
            let centred = self.lag[k] - m * (2.0 * self.sum - head_k - tail_k) + (nf - k as f64) * m * m;
            *g = centred / nf;
        }
        if gamma[0].is_nan() || gamma[0] <= AR_SINGULAR * m * m {
            return mean;
        }
        let Some(phi) = levinson_durbin(&gamma) else {
            return mean;
        };
        let mut pred = m;
        for (k, coef) in phi.iter().enumerate().skip(1) {
            pred += coef * (self.tail[ar_slot(n - k as u64)] - m);
        }
        let x = self.shift + pred;
        if x.is_finite() {
            x
        } else {
            mean
        }
    }
}

// Solves the Yule–Walker equations Σ_j φ_j γ_{|k−j|} = γ_k (k = 1..p); phi[0] is unused. None when the system is
// singular (or numerically so): the caller then predicts the mean.
fn levinson_durbin(gamma: &[f64; AR_ORDER + 1]) -> Option<[f64; AR_ORDER + 1]> {
    let g0 = gamma[0];
    let mut phi = [0.0; AR_ORDER + 1];
    let mut v = g0;
    for k in 1..=AR_ORDER {
        let mut acc = gamma[k];
        for j in 1..k {
            acc -= phi[j] * gamma[k - j];
        }
        let kappa = acc / v;
        // A positive semi-definite Toeplitz matrix has |κ| ≤ 1; reaching 1 means a singular system.
        if !kappa.is_finite() || kappa.abs() >= 1.0 {
            return None;
        }
        let prev = phi;
        for j in 1..k {
            phi[j] = prev[j] - kappa * prev[k - j];
        }
        phi[k] = kappa;
        v *= 1.0 - kappa * kappa;
        if v <= g0 * AR_SINGULAR {
            return None;
        }
    }
    Some(phi)
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

/// The average relative inaccuracy of each model on a workload, as [Iosup08] Fig. 2 measures it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PredictorAccuracy {
    /// The model evaluated.
    pub model: PredictorModel,
    /// The input it was given.
    pub input: PredictorInput,
    /// Mean of |predicted − real| / real over the predicted tasks, as a fraction (6.0 = 600%); 0 if none.
    pub mean_relative_inaccuracy: f64,
    /// Largest relative inaccuracy of a single prediction; 0 if none.
    pub max_relative_inaccuracy: f64,
    /// The number of tasks predicted.
    pub predictions: u64,
}

#[derive(Default)]
struct Tally {
    sum: f64,
    max: f64,
    count: u64,
}

impl Tally {
    // A task with a non-positive runtime has no relative error: it still informs later predictions but is not
    // scored. A non-finite runtime is neither scored nor observed.
    fn step(&mut self, state: &mut PredictorState, real: f64) {
        if !real.is_finite() {
            return;
        }
        if real > 0.0 {
            if let Some(pred) = state.predict() {
                let err = (pred - real).abs() / real;
                self.sum += err;
                self.max = self.max.max(err);
                self.count += 1;
            }
        }
        state.observe(real);
    }

    fn finish(self, model: PredictorModel, input: PredictorInput) -> PredictorAccuracy {
        let mean = if self.count == 0 { 0.0 } else { self.sum / self.count as f64 };
        PredictorAccuracy {
            model,
            input,
            mean_relative_inaccuracy: mean,
            max_relative_inaccuracy: self.max,
            predictions: self.count,
        }
    }
}

// Batch: a fresh state per BoT, task i predicted from tasks 0..i−1 of its BoT (the first task is not scored).
// User: one state per user across BoTs, each task predicted from all earlier tasks of that user (the user's very
// first task is not scored). `users` sizes the per-user table; an id beyond it grows the table rather than panic.
/// Scores `model` with `input` on `bots`: (user id, the BoT's runtimes in submission order), in arrival order.
pub fn evaluate<'a>(
    bots: impl Iterator<Item = (u32, &'a [f64])> + Clone,
    users: usize,
    model: PredictorModel,
    input: PredictorInput,
) -> PredictorAccuracy {
    let mut tally = Tally::default();
    match input {
        PredictorInput::Batch => {
            for (_, runtimes) in bots {
                let mut state = PredictorState::new(model);
                for &real in runtimes {
                    tally.step(&mut state, real);
                }
            }
        }
        PredictorInput::User => {
            let mut states = vec![PredictorState::new(model); users];
            for (user, runtimes) in bots {
                let u = user as usize;
                if u >= states.len() {
                    states.resize(u + 1, PredictorState::new(model));
                }
                for &real in runtimes {
                    tally.step(&mut states[u], real);
                }
            }
        }
    }
    tally.finish(model, input)
}

/// `evaluate` for every model in `PredictorModel::ALL` order, each with Batch then User input (12 entries).
pub fn evaluate_all<'a>(bots: impl Iterator<Item = (u32, &'a [f64])> + Clone, users: usize) -> Vec<PredictorAccuracy> {
    let mut out = Vec::with_capacity(2 * PredictorModel::ALL.len());
    for model in PredictorModel::ALL {
        for input in [PredictorInput::Batch, PredictorInput::User] {
            out.push(evaluate(bots.clone(), users, model, input));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(model: PredictorModel, xs: &[f64]) -> PredictorState {
        let mut s = PredictorState::new(model);
        for &x in xs {
            s.observe(x);
        }
        s
    }

    fn predict(model: PredictorModel, xs: &[f64]) -> f64 {
        run(model, xs).predict().unwrap()
    }

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol * b.abs().max(1.0)
    }

    // Deterministic pseudo-random values in [lo, hi) (64-bit LCG, top 53 bits).
    fn noise(n: usize, seed: u64, lo: f64, hi: f64) -> Vec<f64> {
        let mut s = seed;
        (0..n)
            .map(|_| {
                s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                lo + (hi - lo) * ((s >> 11) as f64 / (1u64 << 53) as f64)
            })
            .collect()
    }

    // Textbook Yule–Walker on the stored series: biased autocovariances computed directly, the p×p Toeplitz system
    // solved by Gaussian elimination, so that neither the running sums nor Levinson–Durbin are reused.
    fn reference_ar(xs: &[f64]) -> f64 {
        let n = xs.len();
        let m = xs.iter().sum::<f64>() / n as f64;
        let gamma: Vec<f64> =
            (0..=AR_ORDER).map(|k| (k..n).map(|t| (xs[t] - m) * (xs[t - k] - m)).sum::<f64>() / n as f64).collect();
        let p = AR_ORDER;
        let mut a: Vec<Vec<f64>> = (0..p)
            .map(|i| {
                let mut row: Vec<f64> = (0..p).map(|j| gamma[i.abs_diff(j)]).collect();
                row.push(gamma[i + 1]);
                row
            })
            .collect();
        for c in 0..p {
            let piv = (c..p).max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs())).unwrap();
            a.swap(c, piv);
            for r in 0..p {
                if r != c {
                    let f = a[r][c] / a[c][c];
                    let pivot_row = a[c].clone();
                    for (x, y) in a[r].iter_mut().zip(pivot_row) {
                        *x -= f * y;
                    }
                }
            }
        }
        let phi: Vec<f64> = (0..p).map(|i| a[i][p] / a[i][i]).collect();
        m + (0..p).map(|k| phi[k] * (xs[n - 1 - k] - m)).sum::<f64>()
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
    fn autoregress_is_mean_up_to_p_observations() {
        let xs = [3.0, 9.0, 4.0, 7.0, 2.0];
        for i in 0..xs.len() {
            let ar = predict(PredictorModel::AutoRegress, &xs[..=i]);
            let mean = predict(PredictorModel::Mean, &xs[..=i]);
            assert!(close(ar, mean, 1e-12), "{i}: {ar} vs {mean}");
        }
        // Six observations with a real history: no longer the mean (5.0) but the fitted model.
        let six = [3.0, 9.0, 4.0, 7.0, 2.0, 5.0];
        let ar = predict(PredictorModel::AutoRegress, &six);
        assert!(close(ar, reference_ar(&six).max(1.0), 1e-9), "{ar}");
        assert!((ar - 5.0).abs() > 1e-6);
    }

    #[test]
    fn autoregress_degenerate_history_is_mean() {
        assert_eq!(predict(PredictorModel::AutoRegress, &[7.0; 40]), 7.0);
    }

    #[test]
    fn autoregress_running_sums_match_direct_fit() {
        // Values far from zero and with a first value far from the mean, to exercise the cancellation.
        let mut xs = noise(300, 42, 1000.0, 5000.0);
        xs[0] = 20000.0;
        for n in [6, 7, 10, 11, 17, 50, 120, 300] {
            let ar = predict(PredictorModel::AutoRegress, &xs[..n]);
            let reference = reference_ar(&xs[..n]);
            assert!(close(ar, reference.max(1.0), 1e-9), "n = {n}: {ar} vs {reference}");
        }
    }

    #[test]
    fn autoregress_follows_a_linear_recurrence() {
        // x_t = 1000 + 300 sin(0.7 t) obeys (x_t − 1000) = 2cos(0.7)(x_{t−1} − 1000) − (x_{t−2} − 1000): an exact
        // AR(2) around a stationary mean, which the order-5 fit must recover. Over 2000 observations the bias of the
        // sample autocovariances leaves an error of the order of amplitude/n (observed ≈ 0.4 s); we allow 1% of the
        // amplitude (3 s), whereas Mean misses by up to the amplitude (here ≈ 274 s).
        let xs: Vec<f64> = (0..2001).map(|t| 1000.0 + 300.0 * libm::sin(0.7 * t as f64)).collect();
        let (hist, next) = (&xs[..2000], xs[2000]);
        let ar = predict(PredictorModel::AutoRegress, hist);
        let mean = predict(PredictorModel::Mean, hist);
        assert!((ar - next).abs() < 3.0, "AR {ar} vs real {next}");
        assert!((mean - next).abs() > 30.0, "Mean {mean} vs real {next}");
    }

    #[test]
    fn autoregress_follows_a_converging_ar1() {
        // x_0 = 0, x_t = 0.8 x_{t−1} + 20 → 100. Over 200 observations Σ x_t = 100·200 − 500(1 − 0.8^200), so Mean
        // predicts 97.5; the fit sees each value track the previous one and stays within 1 s of the next value
        // (observed ≈ 0.5 s off).
        let mut xs = vec![0.0];
        for t in 1..=200 {
            xs.push(0.8 * xs[t - 1] + 20.0);
        }
        let (hist, next) = (&xs[..200], xs[200]);
        let ar = predict(PredictorModel::AutoRegress, hist);
        assert!((ar - next).abs() < 1.0, "AR {ar} vs real {next}");
        assert!(close(predict(PredictorModel::Mean, hist), 97.5, 1e-9));
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

    // Users 0 and 1; BoTs in arrival order: u0 [10, 20], u1 [5, 5], u0 [40, 10], u1 [8].
    fn workload() -> Vec<(u32, Vec<f64>)> {
        vec![(0, vec![10.0, 20.0]), (1, vec![5.0, 5.0]), (0, vec![40.0, 10.0]), (1, vec![8.0])]
    }

    fn bots(w: &[(u32, Vec<f64>)]) -> impl Iterator<Item = (u32, &[f64])> + Clone {
        w.iter().map(|(u, r)| (*u, r.as_slice()))
    }

    #[test]
    fn evaluate_by_hand() {
        let w = workload();
        let check = |model, input, mean: f64, max: f64, count: u64| {
            let a = evaluate(bots(&w), 2, model, input);
            assert_eq!((a.model, a.input, a.predictions), (model, input, count), "{a:?}");
            assert!(close(a.mean_relative_inaccuracy, mean, 1e-12), "{a:?} vs mean {mean}");
            assert!(close(a.max_relative_inaccuracy, max, 1e-12), "{a:?} vs max {max}");
        };
        // LastValue, batch: [10,20]: 20 from 10 → 0.5; [5,5]: 0; [40,10]: 10 from 40 → 3; [8]: none.
        //   (0.5 + 0 + 3) / 3 = 7/6, max 3.
        check(PredictorModel::LastValue, PredictorInput::Batch, 7.0 / 6.0, 3.0, 3);
        // LastValue, user: u0 10,20,40,10 → 0.5, 0.5, 3; u1 5,5,8 → 0, 3/8.  (4 + 0.375) / 5 = 0.875.
        check(PredictorModel::LastValue, PredictorInput::User, 0.875, 3.0, 5);
        // Mean, batch: same as LastValue since each prediction follows a single observation.
        check(PredictorModel::Mean, PredictorInput::Batch, 7.0 / 6.0, 3.0, 3);
        // Mean, user: u0 20 from 10 → 0.5; 40 from 15 → 0.625; 10 from 70/3 → 4/3; u1 5 from 5 → 0; 8 from 5 → 0.375.
        //   (0.5 + 0.625 + 4/3 + 0 + 0.375) / 5 = (17/6) / 5 = 17/30.
        check(PredictorModel::Mean, PredictorInput::User, 17.0 / 30.0, 4.0 / 3.0, 5);
        // ExpSmooth, user: u0 F 10 → 15 → 27.5: 0.5, 25/40 = 0.625, 17.5/10 = 1.75; u1 0, 0.375.
        //   (0.5 + 0.625 + 1.75 + 0 + 0.375) / 5 = 3.25 / 5 = 0.65.
        check(PredictorModel::ExpSmooth, PredictorInput::User, 0.65, 1.75, 5);
    }

    #[test]
    fn evaluate_edge_cases() {
        let empty: Vec<(u32, Vec<f64>)> = vec![(0, vec![]), (1, vec![9.0])];
        for input in [PredictorInput::Batch, PredictorInput::User] {
            let a = evaluate(bots(&empty), 2, PredictorModel::Mean, input);
            assert_eq!((a.mean_relative_inaccuracy, a.max_relative_inaccuracy, a.predictions), (0.0, 0.0, 0));
        }
        // A user id beyond `users` grows the table: u3 [4], then u3 [2]: 2 from 4 → 1.0.
        let w: Vec<(u32, Vec<f64>)> = vec![(3, vec![4.0]), (3, vec![2.0])];
        let a = evaluate(bots(&w), 1, PredictorModel::LastValue, PredictorInput::User);
        assert_eq!((a.mean_relative_inaccuracy, a.predictions), (1.0, 1));
        // A zero runtime is observed but not scored: [4, 0, 2] → 0 skipped, 2 from LastValue 0 clamped to 1 → 0.5.
        let w: Vec<(u32, Vec<f64>)> = vec![(0, vec![4.0, 0.0, 2.0])];
        let a = evaluate(bots(&w), 1, PredictorModel::LastValue, PredictorInput::Batch);
        assert_eq!((a.mean_relative_inaccuracy, a.predictions), (0.5, 1));
    }

    #[test]
    fn evaluate_all_order() {
        let w = workload();
        let all = evaluate_all(bots(&w), 2);
        assert_eq!(all.len(), 12);
        for (i, a) in all.iter().enumerate() {
            let model = PredictorModel::ALL[i / 2];
            let input = if i % 2 == 0 { PredictorInput::Batch } else { PredictorInput::User };
            assert_eq!(*a, evaluate(bots(&w), 2, model, input));
        }
    }
}
