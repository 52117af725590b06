//! The running sums of `AutoRegress`: the mean and the autocovariances of the whole history kept exactly in a
//! fixed-size value, and the Yule–Walker fit solved by Levinson–Durbin.

/// Order p of the `AutoRegress` model.
pub const AR_ORDER: usize = 5;

// Below this fraction of γ_0 the Levinson–Durbin prediction-error variance is rounding noise: the Toeplitz system
// is singular and its solution would only amplify that noise. The same fraction of m² (shifted mean) is the noise
// floor of γ_0 itself, which the running sums obtain by cancellation.
const AR_SINGULAR: f64 = 1e-12;

// Sums over the shifted values y_t = x_t − x_0. Autocovariances do not depend on the shift, and shifting by a
// value of the series keeps the sums of products near the scale of the variance rather than of the squared mean,
// which is what makes γ_k = (Σ products − mean terms) / n accurate despite the cancellation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct ArSums {
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
    pub(super) const EMPTY: ArSums =
        ArSums { shift: 0.0, sum: 0.0, lag: [0.0; AR_ORDER + 1], head: [0.0; AR_ORDER], tail: [0.0; AR_ORDER] };

    pub(super) fn observe(&mut self, t: u64, x: f64) {
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

    pub(super) fn predict(&self, n: u64) -> f64 {
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

#[cfg(test)]
mod tests {
    use super::AR_ORDER;
    use crate::family::multi_cluster::policy::predictor::model::PredictorModel;
    use crate::family::multi_cluster::policy::predictor::testkit::{close, noise, predict};

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
}
