//! Helpers shared by the fitting tests: samples, the KS critical value, tolerances, Zipf counts.

use crate::engine::Rng;
use crate::workload::dist::Dist;

pub(super) const N: usize = 20_000;

pub(super) fn sample(d: &Dist, n: usize, seed: u64) -> Vec<f64> {
    let mut r = Rng::new(seed);
    (0..n).map(|_| d.sample(&mut r)).collect()
}

/// The KS 5% critical value for n points (asymptotic, fully specified null): 1.36 / √n.
pub(super) fn ks_crit(n: usize) -> f64 {
    1.36 / (n as f64).sqrt()
}

pub(super) fn close(what: &str, got: f64, want: f64, tol: f64) {
    assert!((got - want).abs() <= tol, "{what}: got {got}, want {want} ± {tol}");
}

pub(super) fn params(d: &Dist) -> (f64, f64) {
    match *d {
        Dist::Normal { mu: a, sigma: b }
        | Dist::LogNormal { mu: a, sigma: b }
        | Dist::Gamma { shape: a, scale: b }
        | Dist::Weibull { shape: a, scale: b } => (a, b),
        _ => panic!("two-parameter family expected, got {d:?}"),
    }
}

pub(super) fn zipf_counts(alpha: f64, n: usize, draws: usize, seed: u64) -> Vec<u64> {
    let w: Vec<f64> = (1..=n).map(|r| libm::pow(r as f64, -alpha)).collect();
    let total: f64 = w.iter().sum();
    let mut acc = 0.0;
    let cdf: Vec<f64> = w
        .iter()
        .map(|x| {
            acc += x / total;
            acc
        })
        .collect();
    let mut r = Rng::new(seed);
    let mut counts = vec![0u64; n];
    for _ in 0..draws {
        let u = r.uniform();
        counts[cdf.partition_point(|&c| c <= u).min(n - 1)] += 1;
    }
    counts
}
