//! Fits to exact observations: the maximum-likelihood fit of one family, all of them, the best by the
//! Kolmogorov–Smirnov statistic, and that statistic.

use super::density::{cdf, log_likelihood};
use super::family::{check_sample, finish, DataError, Family, Fit};
use super::mle::mle;
use crate::workload::dist::Dist;

/// Maximum-likelihood fit of one family to exact (continuous) observations.
pub fn fit(family: Family, data: &[f64]) -> Result<Fit, DataError> {
    check_sample(family, data)?;
    let w = vec![1.0; data.len()];
    let dist = mle(family, data, &w)?;
    let log_likelihood = log_likelihood(&dist, data, &w);
    let ks = ks_statistic(data, &dist);
    finish(family, dist, ks, log_likelihood)
}

/// Every family fitted to the data, in [`Family::ALL`] order.
pub fn fit_all(data: &[f64]) -> Vec<(Family, Result<Fit, DataError>)> {
    Family::ALL.iter().map(|&f| (f, fit(f, data))).collect()
}

/// The fit with the lowest KS statistic among the families that could be fitted (ties: the earlier family).
pub fn best_fit(data: &[f64]) -> Result<Fit, DataError> {
    select(fit_all(data))
}

/// The Kolmogorov–Smirnov statistic D = sup |F_n(x) − F(x)| of the data against `dist`: sorts a copy and takes,
/// at every data point, both the left limit (i/n) and the value ((i+1)/n) of the empirical CDF, so ties and both
/// sides of each step are accounted for. NaN values are ignored; ±∞ count. NaN for no data.
pub fn ks_statistic(data: &[f64], dist: &Dist) -> f64 {
    let mut x: Vec<f64> = data.iter().copied().filter(|v| !v.is_nan()).collect();
    if x.is_empty() {
        return f64::NAN;
    }
    x.sort_by(f64::total_cmp);
    let n = x.len() as f64;
    let mut d = 0.0f64;
    for (i, &v) in x.iter().enumerate() {
        let f = cdf(dist, v);
        d = d.max(f - i as f64 / n).max((i + 1) as f64 / n - f);
    }
    d
}

pub(in crate::workload) fn select(fits: Vec<(Family, Result<Fit, DataError>)>) -> Result<Fit, DataError> {
    let mut best: Option<Fit> = None;
    let mut why = Vec::new();
    for (family, r) in fits {
        match r {
            Ok(f) => {
                if best.as_ref().is_none_or(|b| f.ks < b.ks) {
                    best = Some(f);
                }
            }
            Err(e) => why.push(format!("{family}: {e}")),
        }
    }
    best.ok_or_else(|| DataError(format!("no candidate family could be fitted ({})", why.join("; "))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workload::fit::family::notation;
    use crate::workload::fit::testkit::{close, ks_crit, sample, N};

    #[test]
    fn ks_statistic_hand_examples() {
        // Against U(0, 1), sorted points 0.2, 0.5, 0.9: at 0.2 the steps give 0.2 − 0 and 1/3 − 0.2; at 0.5,
        // 0.5 − 1/3 and 2/3 − 0.5; at 0.9, 0.9 − 2/3 = 7/30 and 1 − 0.9. Largest: 7/30.
        let u = Dist::Uniform { low: 0.0, high: 1.0 };
        close("D", ks_statistic(&[0.9, 0.2, 0.5], &u), 7.0 / 30.0, 1e-15);
        // Ties: three values at 0.5 make one jump from 0 to 1; D = 0.5 on both sides.
        close("D ties", ks_statistic(&[0.5, 0.5, 0.5], &u), 0.5, 1e-15);
        // Both sides of a step: one point at 0.5 → max(0.5 − 0, 1 − 0.5).
        close("D single", ks_statistic(&[0.5], &u), 0.5, 1e-15);
        assert!(ks_statistic(&[], &u).is_nan());
    }

    #[test]
    fn ks_small_for_the_true_family_large_for_a_wrong_one() {
        let truth = Dist::LogNormal { mu: 0.0, sigma: 1.0 };
        let x = sample(&truth, N, 3);
        assert!(ks_statistic(&x, &truth) < ks_crit(N));
        assert!(fit(Family::LogNormal, &x).unwrap().ks < ks_crit(N));
        // The best normal for strongly skewed data misses by far more than the critical value (measured ≈ 0.23).
        let wrong = fit(Family::Normal, &x).unwrap();
        assert!(wrong.ks > 0.15, "D = {}", wrong.ks);
    }

    #[test]
    fn best_fit_picks_the_true_family() {
        // Cases where the runner-up's D (measured over 5 seeds) is at least 3 times the critical value 0.0096 while
        // the true family's D stays below it: log-normal (next: Weibull 0.06), Weibull 0.5 (gamma 0.055), gamma 0.5
        // (Weibull 0.023), hyper-exponential (Weibull 0.04), Weibull 1.76 (gamma 0.028).
        let cases = [
            (Family::LogNormal, Dist::LogNormal { mu: 0.0, sigma: 1.0 }),
            (Family::Weibull, Dist::Weibull { shape: 0.5, scale: 1.0 }),
            (Family::Gamma, Dist::Gamma { shape: 0.5, scale: 2.0 }),
            (Family::HyperExponential, Dist::HyperExponential { p: 0.4, mean1: 1.0, mean2: 9.0 }),
            (Family::Weibull, Dist::Weibull { shape: 1.76, scale: 2.11 }),
        ];
        for (seed, (family, truth)) in (20..).zip(cases) {
            let x = sample(&truth, N, seed);
            let best = best_fit(&x).unwrap();
            assert_eq!(
                Family::of(&best.dist),
                Some(family),
                "{} picked for {}",
                notation(&best.dist),
                notation(&truth)
            );
            assert!(best.ks < ks_crit(N), "{}: D = {}", notation(&truth), best.ks);
            let all = fit_all(&x);
            assert_eq!(all.iter().map(|a| a.0).collect::<Vec<_>>(), Family::ALL.to_vec());
            let min = all.iter().filter_map(|(_, r)| r.as_ref().ok()).map(|f| f.ks).fold(f64::INFINITY, f64::min);
            assert_eq!(best.ks, min);
        }
        // Negative data: only the families with support on the whole line (here the normal) can be fitted.
        let x = sample(&Dist::Normal { mu: 2.73, sigma: 6.10 }, 2_000, 5);
        let all = fit_all(&x);
        assert!(all.iter().all(|(f, r)| r.is_ok() == (*f == Family::Normal)), "{all:?}");
        assert_eq!(Family::of(&best_fit(&x).unwrap().dist), Some(Family::Normal));
    }
}
