//! Maximum-likelihood fitting of the workload model's distributions, with KS selection ([Iosup08] §3.1).
//!
//! For each characteristic the candidate families exponential, hyper-exponential (2 phases), normal, log-normal,
//! gamma and Weibull are fitted by maximum likelihood; the Kolmogorov–Smirnov statistic D of each fit against the
//! data is computed and the family with the lowest D is selected. User ranks are fitted to a Zipf law ([Iosup08] §3.2).
//!
//! Three likelihoods are used:
//! - exact observations ([`fit`], [`best_fit`]): closed forms, Newton or EM;
//! - interval-censored observations ([`fit_intervals`], [`fit_intervals_truncated`]): values known only to lie in
//!   a bin, e.g. BoT sizes (log2 of a rounded 2^x) and daily-cycle slots; Nelder–Mead on Σ count·ln P(bin);
//! - exact observations with censoring at known clamp bounds ([`fit_censored`]): used for ART, which the
//!   generator clamps to [1 s, 2^20 s], i.e. log2 ART to [0, 20].
//!
//! Everything is deterministic (no random restarts) and returns a [`FitError`] rather than panicking or
//! producing NaN. Only `libm` and IEEE arithmetic (no std transcendental, no statrs, whose special functions call
//! std's): a fit gives the same bits natively and in wasm32, so "use the fitted model" runs the same model on both.

use crate::workload::dist::{normal_cdf, regularized_gamma_q, Dist};
// The whole-workload fit lives in its own module; these names stay reachable from here.
pub use crate::workload::fit_workload::{fit_workload, fit_workload_with_candidates, FitCandidates, FittedModel};
use serde::{Deserialize, Serialize};

/// A candidate family of [Iosup08] §3.1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Family {
    Exponential,
    HyperExponential,
    Normal,
    LogNormal,
    Gamma,
    Weibull,
}

impl Family {
    /// Every candidate, in the order of [Iosup08] §3.1 (also the tie-break order of the selection).
    pub const ALL: [Family; 6] = [
        Family::Exponential,
        Family::HyperExponential,
        Family::Normal,
        Family::LogNormal,
        Family::Gamma,
        Family::Weibull,
    ];

    /// Human-readable name, as used in error messages.
    pub fn name(self) -> &'static str {
        match self {
            Family::Exponential => "exponential",
            Family::HyperExponential => "hyper-exponential",
            Family::Normal => "normal",
            Family::LogNormal => "log-normal",
            Family::Gamma => "gamma",
            Family::Weibull => "Weibull",
        }
    }

    /// The family of a distribution (None for Constant and Uniform, which are never fitted).
    pub fn of(d: &Dist) -> Option<Family> {
        match d {
            Dist::Exponential { .. } => Some(Family::Exponential),
            Dist::HyperExponential { .. } => Some(Family::HyperExponential),
            Dist::Normal { .. } => Some(Family::Normal),
            Dist::LogNormal { .. } => Some(Family::LogNormal),
            Dist::Gamma { .. } => Some(Family::Gamma),
            Dist::Weibull { .. } => Some(Family::Weibull),
            Dist::Constant { .. } | Dist::Uniform { .. } => None,
        }
    }

    /// The support's lower end: None for the whole real line; Some(false) for x ≥ 0; Some(true) for x > 0.
    fn positive_support(self) -> Option<bool> {
        match self {
            Family::Normal => None,
            Family::Exponential | Family::HyperExponential => Some(false),
            Family::LogNormal | Family::Gamma | Family::Weibull => Some(true),
        }
    }
}

impl std::fmt::Display for Family {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A fitted distribution with its goodness of fit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fit {
    pub dist: Dist,
    /// Kolmogorov–Smirnov statistic D (sup distance between the empirical and the fitted CDF).
    pub ks: f64,
    /// The maximised log-likelihood (of the densities, of the bin probabilities for interval data).
    pub log_likelihood: f64,
}

/// Why a fit could not be made; the message says what is wrong with the data.
#[derive(Clone, Debug, PartialEq)]
pub struct FitError(pub String);

impl std::fmt::Display for FitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FitError {}

/// x > 0 (false for NaN).
fn pos(x: f64) -> bool {
    x > 0.0
}

fn err<T>(msg: impl Into<String>) -> Result<T, FitError> {
    Err(FitError(msg.into()))
}

// ---------------------------------------------------------------------------------------------------------------
// Exact observations.

/// Maximum-likelihood fit of one family to exact (continuous) observations.
pub fn fit(family: Family, data: &[f64]) -> Result<Fit, FitError> {
    check_sample(family, data)?;
    let w = vec![1.0; data.len()];
    let dist = mle(family, data, &w)?;
    let log_likelihood = log_likelihood(&dist, data, &w);
    let ks = ks_statistic(data, &dist);
    finish(family, dist, ks, log_likelihood)
}

/// Every family fitted to the data, in [`Family::ALL`] order.
pub fn fit_all(data: &[f64]) -> Vec<(Family, Result<Fit, FitError>)> {
    Family::ALL.iter().map(|&f| (f, fit(f, data))).collect()
}

/// The fit with the lowest KS statistic among the families that could be fitted (ties: the earlier family).
pub fn best_fit(data: &[f64]) -> Result<Fit, FitError> {
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

pub(super) fn select(fits: Vec<(Family, Result<Fit, FitError>)>) -> Result<Fit, FitError> {
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
    best.ok_or_else(|| FitError(format!("no candidate family could be fitted ({})", why.join("; "))))
}

/// Checks a fitted distribution and its statistics, so that no NaN escapes.
fn finish(family: Family, dist: Dist, ks: f64, log_likelihood: f64) -> Result<Fit, FitError> {
    if let Err(e) = dist.validate() {
        return err(format!("{family} fit did not converge to valid parameters ({e})"));
    }
    if !log_likelihood.is_finite() {
        return err(format!("{family} fit has log-likelihood {log_likelihood}: the data are outside its support"));
    }
    if !ks.is_finite() {
        return err(format!("{family} fit has a non-finite KS statistic"));
    }
    Ok(Fit { dist, ks, log_likelihood })
}

fn check_sample(family: Family, data: &[f64]) -> Result<(), FitError> {
    if data.is_empty() {
        return err(format!("{family} fit needs data; got none"));
    }
    if data.len() < 2 {
        return err(format!("{family} fit needs at least 2 values; got 1"));
    }
    let bad = data.iter().filter(|v| !v.is_finite()).count();
    if bad > 0 {
        let first = data.iter().position(|v| !v.is_finite()).unwrap_or(0);
        return err(format!(
            "{family} fit needs finite data; found {bad} non-finite values (the first, at index {first}, is {})",
            data[first]
        ));
    }
    check_support(family, data)
}

fn check_support(family: Family, data: &[f64]) -> Result<(), FitError> {
    match family.positive_support() {
        Some(true) => {
            let bad = data.iter().filter(|&&v| v <= 0.0).count();
            if bad > 0 {
                return err(format!("{family} needs data > 0; found {bad} values ≤ 0"));
            }
        }
        Some(false) => {
            let bad = data.iter().filter(|&&v| v < 0.0).count();
            if bad > 0 {
                return err(format!("{family} needs data ≥ 0; found {bad} values < 0"));
            }
        }
        None => {}
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------------------------
// Weighted maximum-likelihood estimators (weights are 1 for exact data, bin counts for interval start points).

fn mle(family: Family, x: &[f64], w: &[f64]) -> Result<Dist, FitError> {
    let total: f64 = w.iter().sum();
    let mean = wsum(x, w, |v| v) / total;
    let not_constant = x.iter().zip(w).any(|(&v, &wi)| wi > 0.0 && v != x[0]);
    match family {
        Family::Exponential => {
            if !pos(mean) {
                return err("exponential needs some data > 0; all values are 0");
            }
            Ok(Dist::Exponential { mean })
        }
        Family::Normal => {
            let var = wsum(x, w, |v| (v - mean) * (v - mean)) / total;
            if !not_constant || !pos(var) {
                return err("normal needs data that are not all equal (σ would be 0)");
            }
            Ok(Dist::Normal { mu: mean, sigma: libm::sqrt(var) })
        }
        Family::LogNormal => {
            if !not_constant {
                return err("log-normal needs data that are not all equal (σ would be 0)");
            }
            let mu = wsum(x, w, libm::log) / total;
            let var = wsum(x, w, |v| (libm::log(v) - mu) * (libm::log(v) - mu)) / total;
            if !pos(var) {
                return err("log-normal needs data that are not all equal (σ would be 0)");
            }
            Ok(Dist::LogNormal { mu, sigma: libm::sqrt(var) })
        }
        Family::Gamma => {
            if !not_constant {
                return err("gamma needs data that are not all equal (the shape would be infinite)");
            }
            gamma_mle(x, w, total, mean)
        }
        Family::Weibull => {
            if !not_constant {
                return err("Weibull needs data that are not all equal (the shape would be infinite)");
            }
            weibull_mle(x, w, total)
        }
        Family::HyperExponential => {
            if !not_constant {
                return err("hyper-exponential needs data that are not all equal");
            }
            hyperexp_em(x, w, total, mean)
        }
    }
}

fn wsum(x: &[f64], w: &[f64], f: impl Fn(f64) -> f64) -> f64 {
    x.iter().zip(w).map(|(&v, &wi)| wi * f(v)).sum()
}

/// Gamma: s = ln(mean) − mean(ln x) > 0; Minka's (2002) closed-form start, then Newton on ln k − ψ(k) = s.
fn gamma_mle(x: &[f64], w: &[f64], total: f64, mean: f64) -> Result<Dist, FitError> {
    let s = libm::log(mean) - wsum(x, w, libm::log) / total;
    if !pos(s) || !s.is_finite() {
        return err("gamma needs data that are not (nearly) all equal: ln(mean) − mean(ln x) is not > 0");
    }
    let mut k = (3.0 - s + libm::sqrt((s - 3.0) * (s - 3.0) + 24.0 * s)) / (12.0 * s);
    for _ in 0..100 {
        let f = libm::log(k) - digamma(k) - s;
        let fp = 1.0 / k - trigamma(k);
        let mut next = k - f / fp;
        if !pos(next) || !next.is_finite() {
            next = 0.5 * k;
        }
        let done = (next - k).abs() <= 1e-13 * next;
        k = next;
        if done {
            break;
        }
    }
    Ok(Dist::Gamma { shape: k, scale: mean / k })
}

/// ψ(x) for x > 0: recurrence ψ(x) = ψ(x + 1) − 1/x up to x ≥ 10, then the asymptotic series
/// ln x − 1/(2x) − Σ B₂ₙ / (2n x²ⁿ) to n = 7 (error < 1e-16 at x ≥ 10).
fn digamma(mut x: f64) -> f64 {
    let mut acc = 0.0;
    while x < 10.0 {
        acc -= 1.0 / x;
        x += 1.0;
    }
    let r2 = 1.0 / (x * x);
    let series = r2
        * (1.0 / 12.0
            - r2 * (1.0 / 120.0
                - r2 * (1.0 / 252.0 - r2 * (1.0 / 240.0 - r2 * (1.0 / 132.0 - r2 * (691.0 / 32_760.0 - r2 / 12.0))))));
    acc + libm::log(x) - 0.5 / x - series
}

/// ψ'(x) for x > 0: recurrence ψ'(x) = ψ'(x + 1) + 1/x² up to x ≥ 10, then the asymptotic series (error < 1e-12).
fn trigamma(mut x: f64) -> f64 {
    let mut acc = 0.0;
    while x < 10.0 {
        acc += 1.0 / (x * x);
        x += 1.0;
    }
    let r = 1.0 / x;
    let r2 = r * r;
    acc + r
        + 0.5 * r2
        + r * r2 * (1.0 / 6.0 - r2 * (1.0 / 30.0 - r2 * (1.0 / 42.0 - r2 * (1.0 / 30.0 - r2 * 5.0 / 66.0))))
}

/// Weibull: the profile-likelihood equation g(k) = Σ x^k ln x / Σ x^k − 1/k − mean(ln x) = 0 (g increasing),
/// solved by Newton with a bisection safeguard on a bracketing interval; then λ = (mean x^k)^(1/k). Computed on
/// y = x / max x so that y^k ≤ 1 never overflows.
fn weibull_mle(x: &[f64], w: &[f64], total: f64) -> Result<Dist, FitError> {
    let max_ln = x.iter().map(|&v| libm::log(v)).fold(f64::NEG_INFINITY, f64::max);
    let ly: Vec<f64> = x.iter().map(|&v| libm::log(v) - max_ln).collect();
    let mean_l = wsum(&ly, w, |v| v) / total;
    let var_l = wsum(&ly, w, |v| (v - mean_l) * (v - mean_l)) / total;
    if !pos(var_l) || mean_l >= 0.0 {
        return err("Weibull needs data that are not all equal (the shape would be infinite)");
    }
    let sums = |k: f64| {
        let (mut s0, mut s1, mut s2) = (0.0, 0.0, 0.0);
        for (&l, &wi) in ly.iter().zip(w) {
            let e = wi * libm::exp(k * l);
            s0 += e;
            s1 += e * l;
            s2 += e * l * l;
        }
        (s0, s1, s2)
    };
    let g = |k: f64| {
        let (s0, s1, s2) = sums(k);
        let m1 = s1 / s0;
        (m1 - 1.0 / k - mean_l, s2 / s0 - m1 * m1 + 1.0 / (k * k))
    };
    // Start: the shape of a Weibull whose ln has this standard deviation (sd of ln X = π / (k √6)).
    let k0 = std::f64::consts::PI / libm::sqrt(6.0 * var_l);
    let (mut lo, mut hi) = (k0, k0);
    for _ in 0..200 {
        if g(lo).0 <= 0.0 {
            break;
        }
        lo *= 0.5;
    }
    for _ in 0..200 {
        if g(hi).0 >= 0.0 {
            break;
        }
        hi *= 2.0;
    }
    if !(g(lo).0 <= 0.0 && g(hi).0 >= 0.0) {
        return err("Weibull shape equation has no root in a reasonable range");
    }
    let mut k = k0;
    for _ in 0..200 {
        let (gk, dg) = g(k);
        if gk < 0.0 {
            lo = k;
        } else {
            hi = k;
        }
        let mut next = k - gk / dg;
        if !(next > lo && next < hi) {
            next = 0.5 * (lo + hi);
        }
        let done = (next - k).abs() <= 1e-13 * next || gk == 0.0;
        k = next;
        if done {
            break;
        }
    }
    let s0 = sums(k).0;
    let scale = libm::exp(max_ln + libm::log(s0 / total) / k);
    Ok(Dist::Weibull { shape: k, scale })
}

/// Two-phase hyper-exponential by EM. Deterministic start: split the sorted data at the (weighted) median, one
/// phase per half with the half's mean. Stops when the log-likelihood changes by less than 1e-10 relatively, or
/// after 500 iterations. Phase means are floored at 1e-9 × the mean (a zero mean would make the likelihood
/// unbounded when the data contain zeros). The phase with the smaller mean is reported first.
fn hyperexp_em(x: &[f64], w: &[f64], total: f64, mean: f64) -> Result<Dist, FitError> {
    if !pos(mean) {
        return err("hyper-exponential needs some data > 0");
    }
    let floor = 1e-9 * mean;
    let mut order: Vec<usize> = (0..x.len()).collect();
    order.sort_by(|&a, &b| x[a].total_cmp(&x[b]));
    let (mut acc, mut split) = (0.0, order.len());
    for (j, &i) in order.iter().enumerate() {
        acc += w[i];
        if acc >= 0.5 * total {
            split = j + 1;
            break;
        }
    }
    let half_mean = |idx: &[usize]| {
        let ws: f64 = idx.iter().map(|&i| w[i]).sum();
        (idx.iter().map(|&i| w[i] * x[i]).sum::<f64>() / ws, ws)
    };
    let (mut m1, w1) = half_mean(&order[..split]);
    let (mut m2, _) = if split < order.len() { half_mean(&order[split..]) } else { (f64::NAN, 0.0) };
    let mut p = w1 / total;
    if m2.is_nan() || m2 <= m1 || p >= 1.0 {
        // The median carries more than half the weight: fall back to a spread around the mean.
        (m1, m2, p) = (0.5 * mean, 2.0 * mean, 0.5);
    }
    m1 = m1.max(floor);
    let sum_x = wsum(x, w, |v| v);
    let mut prev = f64::NEG_INFINITY;
    for _ in 0..500 {
        let (lp1, lp2) = (libm::log(p) - libm::log(m1), libm::log(1.0 - p) - libm::log(m2));
        let (mut ll, mut s_r, mut s_rx) = (0.0, 0.0, 0.0);
        for (&v, &wi) in x.iter().zip(w) {
            let (a, b) = (lp1 - v / m1, lp2 - v / m2);
            let l = log_add(a, b);
            let r = libm::exp(a - l);
            ll += wi * l;
            s_r += wi * r;
            s_rx += wi * r * v;
        }
        if (ll - prev).abs() <= 1e-10 * ll.abs() {
            break;
        }
        prev = ll;
        p = s_r / total;
        if s_r > 1e-300 {
            m1 = (s_rx / s_r).max(floor);
        }
        if total - s_r > 1e-300 {
            m2 = ((sum_x - s_rx) / (total - s_r)).max(floor);
        }
    }
    if m1 > m2 {
        (m1, m2, p) = (m2, m1, 1.0 - p);
    }
    Ok(Dist::HyperExponential { p, mean1: m1, mean2: m2 })
}

/// ln(e^a + e^b) without overflow; −∞ terms allowed.
fn log_add(a: f64, b: f64) -> f64 {
    let m = a.max(b);
    if m == f64::NEG_INFINITY {
        return m;
    }
    m + libm::log(libm::exp(a - m) + libm::exp(b - m))
}

// ---------------------------------------------------------------------------------------------------------------
// Densities and distribution functions that are total: ±∞ and overflowing or underflowing x / scale answer.

fn ln_pdf(d: &Dist, x: f64) -> f64 {
    const HALF_LN_TAU: f64 = 0.918_938_533_204_672_8; // ½ ln 2π
    match *d {
        Dist::Constant { value } => {
            if x == value {
                0.0
            } else {
                f64::NEG_INFINITY
            }
        }
        Dist::Uniform { low, high } => {
            if (low..=high).contains(&x) && high > low {
                -libm::log(high - low)
            } else {
                f64::NEG_INFINITY
            }
        }
        Dist::Exponential { mean } => {
            if x < 0.0 {
                f64::NEG_INFINITY
            } else {
                -libm::log(mean) - x / mean
            }
        }
        Dist::HyperExponential { p, mean1, mean2 } => {
            if x < 0.0 {
                f64::NEG_INFINITY
            } else {
                log_add(libm::log(p) - libm::log(mean1) - x / mean1, libm::log(1.0 - p) - libm::log(mean2) - x / mean2)
            }
        }
        Dist::Normal { mu, sigma } => {
            let z = (x - mu) / sigma;
            -libm::log(sigma) - HALF_LN_TAU - 0.5 * z * z
        }
        Dist::LogNormal { mu, sigma } => {
            if x <= 0.0 {
                return f64::NEG_INFINITY;
            }
            let lx = libm::log(x);
            let z = (lx - mu) / sigma;
            -lx - libm::log(sigma) - HALF_LN_TAU - 0.5 * z * z
        }
        Dist::Gamma { shape, scale } => {
            if x <= 0.0 {
                return f64::NEG_INFINITY;
            }
            (shape - 1.0) * libm::log(x) - x / scale - libm::lgamma(shape) - shape * libm::log(scale)
        }
        Dist::Weibull { shape, scale } => {
            if x <= 0.0 {
                return f64::NEG_INFINITY;
            }
            let r = x / scale;
            libm::log(shape) - libm::log(scale) + (shape - 1.0) * libm::log(r) - libm::pow(r, shape)
        }
    }
}

fn log_likelihood(d: &Dist, x: &[f64], w: &[f64]) -> f64 {
    x.iter().zip(w).map(|(&v, &wi)| wi * ln_pdf(d, v)).sum()
}

/// P(X ≤ x), total for every x including ±∞.
pub(super) fn cdf(d: &Dist, x: f64) -> f64 {
    if x == f64::INFINITY {
        return 1.0;
    }
    if x == f64::NEG_INFINITY {
        return 0.0;
    }
    if let Dist::Gamma { scale, .. } = *d {
        // x / scale overflowing or underflowing: the limits, whatever the shape.
        let r = x / scale;
        if x > 0.0 && !r.is_finite() {
            return 1.0;
        }
        if x > 0.0 && r == 0.0 {
            return 0.0;
        }
    }
    d.cdf(x).clamp(0.0, 1.0)
}

/// P(X > x), computed directly in the upper tail (no 1 − F cancellation).
fn sf(d: &Dist, x: f64) -> f64 {
    if x == f64::INFINITY {
        return 0.0;
    }
    if x == f64::NEG_INFINITY {
        return 1.0;
    }
    let s = match *d {
        Dist::Exponential { mean } if x > 0.0 => libm::exp(-x / mean),
        Dist::HyperExponential { p, mean1, mean2 } if x > 0.0 => {
            p * libm::exp(-x / mean1) + (1.0 - p) * libm::exp(-x / mean2)
        }
        Dist::Normal { mu, sigma } => normal_cdf(-(x - mu) / sigma),
        Dist::LogNormal { mu, sigma } if x > 0.0 => normal_cdf(-(libm::log(x) - mu) / sigma),
        Dist::Gamma { shape, scale } if x > 0.0 => {
            let r = x / scale;
            if r == 0.0 {
                1.0
            } else if r.is_finite() {
                regularized_gamma_q(shape, r)
            } else {
                0.0
            }
        }
        Dist::Weibull { shape, scale } if x > 0.0 => libm::exp(-libm::pow(x / scale, shape)),
        Dist::Exponential { .. }
        | Dist::HyperExponential { .. }
        | Dist::LogNormal { .. }
        | Dist::Gamma { .. }
        | Dist::Weibull { .. } => 1.0,
        Dist::Constant { .. } | Dist::Uniform { .. } => 1.0 - cdf(d, x),
    };
    s.clamp(0.0, 1.0)
}

/// P(lo < X ≤ hi), from the survival function when the interval lies in the upper half.
pub(super) fn mass(d: &Dist, lo: f64, hi: f64) -> f64 {
    let f_lo = cdf(d, lo);
    let m = if f_lo > 0.5 { sf(d, lo) - sf(d, hi) } else { cdf(d, hi) - f_lo };
    m.max(0.0)
}

// ---------------------------------------------------------------------------------------------------------------
// Interval-censored observations.

/// Interval-censored MLE for data recorded as integers that were produced by rounding: observation k means the
/// continuous value lay in [lo(k), hi(k)), given as pairs (lo, hi, count). Used for BoT sizes (log2 of a rounded
/// 2^x) and daily-cycle slots.
///
/// Maximises Σ count · ln(F(hi) − F(lo)) by Nelder–Mead over unconstrained parameters (logs of positive ones,
/// logit of p), starting from the continuous MLE fitted to the bin midpoints weighted by the counts. Infinite
/// edges are allowed (F(−∞) = 0, F(+∞) = 1); for families with support x ≥ 0, F(lo ≤ 0) = 0. `ks` is the largest
/// |empirical CDF − model CDF| over the bin edges.
pub fn fit_intervals(family: Family, bins: &[(f64, f64, u64)]) -> Result<Fit, FitError> {
    fit_intervals_impl(family, bins, None)
}

/// The best of [`fit_intervals`] over [`Family::ALL`] by lowest KS statistic.
pub fn best_fit_intervals(bins: &[(f64, f64, u64)]) -> Result<Fit, FitError> {
    select(Family::ALL.iter().map(|&f| (f, fit_intervals(f, bins))).collect())
}

/// As [`fit_intervals`], for a distribution truncated to [low, high): draws outside were rejected, so each bin's
/// probability is (F(hi) − F(lo)) / (F(high) − F(low)) and the KS statistic uses that conditional CDF. Used for
/// the daily cycle, whose values ≥ 48 (or < 0) the generator redraws.
pub fn fit_intervals_truncated(family: Family, bins: &[(f64, f64, u64)], low: f64, high: f64) -> Result<Fit, FitError> {
    if low.is_nan() || high.is_nan() || low >= high {
        return err(format!("truncation range [{low}, {high}) is empty"));
    }
    fit_intervals_impl(family, bins, Some((low, high)))
}

/// The best of [`fit_intervals_truncated`] over [`Family::ALL`] by lowest KS statistic.
pub fn best_fit_intervals_truncated(bins: &[(f64, f64, u64)], low: f64, high: f64) -> Result<Fit, FitError> {
    select(Family::ALL.iter().map(|&f| (f, fit_intervals_truncated(f, bins, low, high))).collect())
}

/// Bins sorted by their lower edge, validated; counts as f64.
fn check_bins(
    family: Family,
    bins: &[(f64, f64, u64)],
    trunc: Option<(f64, f64)>,
) -> Result<Vec<(f64, f64, f64)>, FitError> {
    if bins.is_empty() {
        return err(format!("{family} interval fit needs bins; got none"));
    }
    let mut b: Vec<(f64, f64, f64)> = Vec::with_capacity(bins.len());
    for &(lo, hi, c) in bins {
        if lo.is_nan() || hi.is_nan() || lo >= hi {
            return err(format!("{family} interval fit: bin [{lo}, {hi}) is empty or not a number"));
        }
        b.push((lo, hi, c as f64));
    }
    b.sort_by(|x, y| x.0.total_cmp(&y.0));
    for pair in b.windows(2) {
        if pair[1].0 < pair[0].1 {
            return err(format!(
                "{family} interval fit: bins [{}, {}) and [{}, {}) overlap",
                pair[0].0, pair[0].1, pair[1].0, pair[1].1
            ));
        }
    }
    let total: f64 = b.iter().map(|x| x.2).sum();
    if total < 2.0 {
        return err(format!("{family} interval fit needs at least 2 observations; got {total}"));
    }
    if b.iter().filter(|x| x.2 > 0.0).count() < 2 {
        return err(format!(
            "{family} interval fit needs observations in at least 2 bins (with all in one bin the MLE is not unique)"
        ));
    }
    if let Some((low, high)) = trunc {
        let outside = b.iter().filter(|x| x.2 > 0.0 && (x.0 < low || x.1 > high)).map(|x| x.2).sum::<f64>();
        if outside > 0.0 {
            return err(format!("{family} interval fit: {outside} observations lie outside the range [{low}, {high})"));
        }
    }
    if family.positive_support().is_some() {
        let bad = b.iter().filter(|x| x.2 > 0.0 && x.1 <= 0.0).map(|x| x.2).sum::<f64>();
        if bad > 0.0 {
            return err(format!("{family} needs data > 0; found {bad} observations in bins entirely ≤ 0"));
        }
    }
    Ok(b)
}

/// Σ count · ln P(bin), conditional on [low, high) when truncated. Probabilities are floored at `floor`: 0 gives
/// the true value (−∞ when a bin with data has probability 0); the optimiser uses the smallest positive f64 so
/// that such points still compare (worse the more data they miss) instead of all being −∞.
fn interval_ll(d: &Dist, bins: &[(f64, f64, f64)], trunc: Option<(f64, f64)>, floor: f64) -> f64 {
    let mut ll = 0.0;
    let mut n = 0.0;
    for &(lo, hi, c) in bins {
        if c > 0.0 {
            ll += c * libm::log(mass(d, lo, hi).max(floor));
            n += c;
        }
    }
    if let Some((low, high)) = trunc {
        ll -= n * libm::log(mass(d, low, high).max(floor));
    }
    ll
}

/// max over the bin edges of |empirical CDF − model CDF| (model CDF conditional on the truncation range).
fn interval_ks(d: &Dist, bins: &[(f64, f64, f64)], trunc: Option<(f64, f64)>) -> f64 {
    let total: f64 = bins.iter().map(|b| b.2).sum();
    let (f0, norm) = match trunc {
        Some((low, high)) => (cdf(d, low), mass(d, low, high)),
        None => (0.0, 1.0),
    };
    let model = |x: f64| ((cdf(d, x) - f0) / norm).clamp(0.0, 1.0);
    let (mut acc, mut ks) = (0.0, 0.0f64);
    for &(lo, hi, c) in bins {
        ks = ks.max((acc / total - model(lo)).abs());
        acc += c;
        ks = ks.max((acc / total - model(hi)).abs());
    }
    ks
}

fn fit_intervals_impl(family: Family, bins: &[(f64, f64, u64)], trunc: Option<(f64, f64)>) -> Result<Fit, FitError> {
    let b = check_bins(family, bins, trunc)?;
    // Start: the continuous MLE of the bin midpoints. Infinite edges are replaced by the median finite width;
    // for families with support x ≥ 0 the bins are clipped at 0 first, and everything at the truncation range.
    let mut widths: Vec<f64> = b.iter().map(|x| x.1 - x.0).filter(|w| w.is_finite()).collect();
    widths.sort_by(f64::total_cmp);
    let typical = widths.get(widths.len() / 2).copied().unwrap_or(1.0);
    let (mut mids, mut counts) = (Vec::new(), Vec::new());
    for &(lo, hi, c) in b.iter().filter(|x| x.2 > 0.0) {
        let (mut lo, mut hi) = (lo, hi);
        if family.positive_support().is_some() {
            lo = lo.max(0.0);
        }
        if let Some((low, high)) = trunc {
            (lo, hi) = (lo.max(low), hi.min(high));
        }
        if lo == f64::NEG_INFINITY {
            lo = hi - typical;
        }
        if hi == f64::INFINITY {
            hi = lo + typical;
        }
        mids.push(0.5 * (lo + hi));
        counts.push(c);
    }
    let start = mle(family, &mids, &counts).map_err(|e| FitError(format!("start point from bin midpoints: {e}")))?;
    let objective = |p: &[f64]| {
        let d = from_params(family, p);
        if d.validate().is_err() {
            return f64::INFINITY;
        }
        let ll = interval_ll(&d, &b, trunc, f64::MIN_POSITIVE);
        if ll.is_nan() {
            f64::INFINITY
        } else {
            -ll
        }
    };
    let x0 = to_params(&start);
    let (best, _) = minimize(objective, &x0, &simplex_steps(family, &x0));
    let dist = from_params(family, &best);
    let ll = interval_ll(&dist, &b, trunc, 0.0);
    finish(family, dist.clone(), interval_ks(&dist, &b, trunc), ll)
}

/// Unconstrained parameters: logs of positive parameters, logit of the hyper-exponential's p.
fn to_params(d: &Dist) -> Vec<f64> {
    match *d {
        Dist::Exponential { mean } => vec![libm::log(mean)],
        Dist::HyperExponential { p, mean1, mean2 } => {
            let p = p.clamp(1e-9, 1.0 - 1e-9);
            vec![libm::log(p / (1.0 - p)), libm::log(mean1), libm::log(mean2)]
        }
        Dist::Normal { mu, sigma } | Dist::LogNormal { mu, sigma } => vec![mu, libm::log(sigma)],
        Dist::Gamma { shape, scale } | Dist::Weibull { shape, scale } => vec![libm::log(shape), libm::log(scale)],
        Dist::Constant { value } => vec![value],
        Dist::Uniform { low, high } => vec![low, high],
    }
}

fn from_params(family: Family, p: &[f64]) -> Dist {
    match family {
        Family::Exponential => Dist::Exponential { mean: libm::exp(p[0]) },
        Family::HyperExponential => {
            Dist::HyperExponential { p: 1.0 / (1.0 + libm::exp(-p[0])), mean1: libm::exp(p[1]), mean2: libm::exp(p[2]) }
        }
        Family::Normal => Dist::Normal { mu: p[0], sigma: libm::exp(p[1]) },
        Family::LogNormal => Dist::LogNormal { mu: p[0], sigma: libm::exp(p[1]) },
        Family::Gamma => Dist::Gamma { shape: libm::exp(p[0]), scale: libm::exp(p[1]) },
        Family::Weibull => Dist::Weibull { shape: libm::exp(p[0]), scale: libm::exp(p[1]) },
    }
}

/// Initial simplex edges: 0.2 in log parameters (±20%), 0.5 in logit p, 0.2 σ for a location μ.
fn simplex_steps(family: Family, x0: &[f64]) -> Vec<f64> {
    match family {
        Family::Normal | Family::LogNormal => vec![0.2 * libm::exp(x0[1]), 0.2],
        Family::HyperExponential => vec![0.5, 0.2, 0.2],
        Family::Exponential | Family::Gamma | Family::Weibull => vec![0.2; x0.len()],
    }
}

/// Nelder–Mead (reflection 1, expansion 2, contraction ½, shrink ½), restarted from the best vertex until a
/// restart no longer improves (at most 4 runs). Non-finite objective values count as +∞. Returns (x, f(x)).
fn minimize(f: impl Fn(&[f64]) -> f64, x0: &[f64], steps: &[f64]) -> (Vec<f64>, f64) {
    let eval = |x: &[f64]| {
        let v = f(x);
        if v.is_nan() {
            f64::INFINITY
        } else {
            v
        }
    };
    let mut best = (x0.to_vec(), eval(x0));
    for _ in 0..4 {
        let run = nelder_mead(&eval, &best.0, steps, 1500);
        let improved = run.1 < best.1 - 1e-10 * (1.0 + best.1.abs());
        if run.1 <= best.1 {
            best = run;
        }
        if !improved {
            break;
        }
    }
    best
}

fn nelder_mead(f: &impl Fn(&[f64]) -> f64, x0: &[f64], steps: &[f64], max_evals: usize) -> (Vec<f64>, f64) {
    let n = x0.len();
    let mut pts: Vec<Vec<f64>> = vec![x0.to_vec()];
    for i in 0..n {
        let mut p = x0.to_vec();
        p[i] += steps[i];
        pts.push(p);
    }
    let mut vals: Vec<f64> = pts.iter().map(|p| f(p)).collect();
    let mut evals = n + 1;
    let along = |a: &[f64], b: &[f64], t: f64| -> Vec<f64> { a.iter().zip(b).map(|(x, y)| x + t * (y - x)).collect() };
    loop {
        let mut idx: Vec<usize> = (0..=n).collect();
        idx.sort_by(|&a, &b| vals[a].total_cmp(&vals[b]));
        pts = idx.iter().map(|&i| pts[i].clone()).collect();
        vals = idx.iter().map(|&i| vals[i]).collect();
        let (fb, fw) = (vals[0], vals[n]);
        let size = pts[1..].iter().flat_map(|p| p.iter().zip(&pts[0]).map(|(a, b)| (a - b).abs())).fold(0.0, f64::max);
        if evals >= max_evals || ((fw - fb).abs() <= 1e-12 * (1.0 + fb.abs()) && size <= 1e-9) {
            break;
        }
        let mut c = vec![0.0; n];
        for p in &pts[..n] {
            for (ci, pi) in c.iter_mut().zip(p) {
                *ci += pi / n as f64;
            }
        }
        let xr = along(&c, &pts[n], -1.0);
        let fr = f(&xr);
        evals += 1;
        if fr < fb {
            let xe = along(&c, &pts[n], -2.0);
            let fe = f(&xe);
            evals += 1;
            (pts[n], vals[n]) = if fe < fr { (xe, fe) } else { (xr, fr) };
        } else if fr < vals[n - 1] {
            (pts[n], vals[n]) = (xr, fr);
        } else {
            let (xc, fc) = if fr < fw {
                let xc = along(&c, &xr, 0.5);
                let fc = f(&xc);
                (xc, fc)
            } else {
                let xc = along(&c, &pts[n], 0.5);
                let fc = f(&xc);
                (xc, fc)
            };
            evals += 1;
            if fc < fr.min(fw) {
                (pts[n], vals[n]) = (xc, fc);
            } else {
                for i in 1..=n {
                    pts[i] = along(&pts[0], &pts[i], 0.5);
                    vals[i] = f(&pts[i]);
                }
                evals += n;
            }
        }
    }
    (pts[0].clone(), vals[0])
}

// ---------------------------------------------------------------------------------------------------------------
// Exact observations censored at known clamp bounds.

/// MLE for data clamped to [low, high]: values ≤ low are left-censored (only "X ≤ low" is known), values ≥ high
/// right-censored, the rest exact. Maximises Σ ln f(x) + n_low ln F(low) + n_high ln (1 − F(high)) by
/// Nelder–Mead from the plain MLE of the exact values. `ks` is the KS distance over the observable range [low,
/// high] (both edges included). Without censored values this is exactly [`fit`].
pub fn fit_censored(family: Family, data: &[f64], low: f64, high: f64) -> Result<Fit, FitError> {
    if low.is_nan() || high.is_nan() || low >= high {
        return err(format!("censoring range [{low}, {high}] is empty"));
    }
    let bad = data.iter().filter(|v| v.is_nan()).count();
    if bad > 0 {
        return err(format!("{family} fit needs data that are numbers; found {bad} NaN"));
    }
    let n_low = data.iter().filter(|&&v| v <= low).count() as f64;
    let n_high = data.iter().filter(|&&v| v >= high).count() as f64;
    if n_low == 0.0 && n_high == 0.0 {
        return fit(family, data);
    }
    let mut exact: Vec<f64> = data.iter().copied().filter(|&v| v > low && v < high).collect();
    check_sample(family, &exact).map_err(|e| FitError(format!("{e} (among the values not censored)")))?;
    if n_low > 0.0 && family.positive_support().is_some() && low <= 0.0 {
        return err(format!("{family} cannot produce values ≤ {low}; found {n_low} censored values ≤ {low}"));
    }
    exact.sort_by(f64::total_cmp);
    let ones = vec![1.0; exact.len()];
    let ll_of = |d: &Dist| {
        let mut ll = log_likelihood(d, &exact, &ones);
        if n_low > 0.0 {
            ll += n_low * libm::log(cdf(d, low));
        }
        if n_high > 0.0 {
            ll += n_high * libm::log(sf(d, high));
        }
        ll
    };
    let start = mle(family, &exact, &ones)?;
    let x0 = to_params(&start);
    let objective = |p: &[f64]| {
        let d = from_params(family, p);
        if d.validate().is_err() {
            return f64::INFINITY;
        }
        -ll_of(&d)
    };
    let (best, _) = minimize(objective, &x0, &simplex_steps(family, &x0));
    let dist = from_params(family, &best);
    // KS over [low, high]: the empirical CDF is n_low/N at low, then steps at each exact value, and reaches
    // (N − n_high)/N just below high.
    let total = n_low + n_high + exact.len() as f64;
    let mut ks = (n_low / total - cdf(&dist, low)).abs();
    for (i, &v) in exact.iter().enumerate() {
        let f = cdf(&dist, v);
        ks = ks.max(f - (n_low + i as f64) / total).max((n_low + (i + 1) as f64) / total - f);
    }
    ks = ks.max(((total - n_high) / total - cdf(&dist, high)).abs());
    let ll = ll_of(&dist);
    finish(family, dist, ks, ll)
}

/// The best of [`fit_censored`] over [`Family::ALL`] by lowest KS statistic.
pub fn best_fit_censored(data: &[f64], low: f64, high: f64) -> Result<Fit, FitError> {
    select(Family::ALL.iter().map(|&f| (f, fit_censored(f, data, low, high))).collect())
}

// ---------------------------------------------------------------------------------------------------------------
// Zipf.

/// A fitted Zipf law Z(α, n): P(rank = r) ∝ r^(−α), r = 1..n.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ZipfFit {
    pub alpha: f64,
    pub n: u32,
    /// KS statistic: max over ranks of |empirical CDF − model CDF|.
    pub ks: f64,
}

impl ZipfFit {
    /// [Iosup08] Table 3 notation, e.g. "Z(1.31,368)".
    pub fn notation(&self) -> String {
        format!("Z({:.2},{})", self.alpha, self.n)
    }
}

/// MLE of the Zipf exponent α over ranks 1..n, from the number of BoTs submitted by each user (any order; users
/// are ranked by count, descending, as [Iosup08] §3.2 does).
///
/// Users with no BoT are dropped, so n is the number of users with ≥ 1 BoT. The likelihood equation
/// E_α[ln R] = mean of ln(rank) over the BoTs has a unique root (E_α[ln R] decreases in α, with derivative
/// −Var_α[ln R]); it is solved by Newton with a bisection safeguard. α ≥ 0 always, since ranking by count makes
/// the empirical mean of ln R at most that of the uniform law (α = 0, reached when all counts are equal).
pub fn fit_zipf(counts: &[u64]) -> Result<ZipfFit, FitError> {
    let mut f: Vec<u64> = counts.iter().copied().filter(|&c| c > 0).collect();
    if f.len() < 2 {
        return err(format!("Zipf fit needs at least 2 users with ≥ 1 BoT; got {}", f.len()));
    }
    f.sort_unstable_by(|a, b| b.cmp(a));
    let n = f.len();
    let total: f64 = f.iter().map(|&c| c as f64).sum();
    let ln_r: Vec<f64> = (1..=n).map(|r| libm::log(r as f64)).collect();
    let target = f.iter().zip(&ln_r).map(|(&c, &l)| c as f64 * l).sum::<f64>() / total;
    // (E[ln R], Var[ln R]) under Z(α, n).
    let moments = |alpha: f64| {
        let (mut s0, mut s1, mut s2) = (0.0, 0.0, 0.0);
        for &l in &ln_r {
            let w = libm::exp(-alpha * l);
            s0 += w;
            s1 += w * l;
            s2 += w * l * l;
        }
        let m = s1 / s0;
        (m, s2 / s0 - m * m)
    };
    let alpha = if moments(0.0).0 <= target {
        0.0
    } else {
        let (mut lo, mut hi) = (0.0f64, 1.0f64);
        while moments(hi).0 > target && hi < 1e3 {
            hi *= 2.0;
        }
        let mut a = 0.5 * (lo + hi);
        for _ in 0..200 {
            let (m, v) = moments(a);
            if m > target {
                lo = a;
            } else {
                hi = a;
            }
            let mut next = a + (m - target) / v;
            if !(next > lo && next < hi) {
                next = 0.5 * (lo + hi);
            }
            let done = (next - a).abs() <= 1e-13 * (1.0 + a);
            a = next;
            if done {
                break;
            }
        }
        a
    };
    let weights: Vec<f64> = ln_r.iter().map(|&l| libm::exp(-alpha * l)).collect();
    let norm: f64 = weights.iter().sum();
    let (mut emp, mut model, mut ks) = (0.0, 0.0, 0.0f64);
    for (&c, &w) in f.iter().zip(&weights) {
        emp += c as f64 / total;
        model += w / norm;
        ks = ks.max((emp - model).abs());
    }
    if !alpha.is_finite() || !ks.is_finite() {
        return err("Zipf fit did not converge");
    }
    Ok(ZipfFit { alpha, n: n as u32, ks })
}

/// [Iosup08] Table 3 notation with 2 decimals: "W(1.76,2.11)", "N(2.73,6.10)", "LN(1.82,0.34)", "G(2.62,0.13)",
/// "Exp(3.00)", "HExp(0.40,1.00,9.00)" (also "U(a,b)" and "C(v)").
pub fn notation(d: &Dist) -> String {
    match *d {
        Dist::Constant { value } => format!("C({value:.2})"),
        Dist::Uniform { low, high } => format!("U({low:.2},{high:.2})"),
        Dist::Exponential { mean } => format!("Exp({mean:.2})"),
        Dist::HyperExponential { p, mean1, mean2 } => format!("HExp({p:.2},{mean1:.2},{mean2:.2})"),
        Dist::Normal { mu, sigma } => format!("N({mu:.2},{sigma:.2})"),
        Dist::LogNormal { mu, sigma } => format!("LN({mu:.2},{sigma:.2})"),
        Dist::Gamma { shape, scale } => format!("G({shape:.2},{scale:.2})"),
        Dist::Weibull { shape, scale } => format!("W({shape:.2},{scale:.2})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Rng;
    use crate::workload::fit_workload::{slot_of, PEAK_SLOTS};
    use crate::workload::types::{Bot, Workload};

    const N: usize = 20_000;

    fn sample(d: &Dist, n: usize, seed: u64) -> Vec<f64> {
        let mut r = Rng::new(seed);
        (0..n).map(|_| d.sample(&mut r)).collect()
    }

    /// The KS 5% critical value for n points (asymptotic, fully specified null): 1.36 / √n.
    fn ks_crit(n: usize) -> f64 {
        1.36 / (n as f64).sqrt()
    }

    fn close(what: &str, got: f64, want: f64, tol: f64) {
        assert!((got - want).abs() <= tol, "{what}: got {got}, want {want} ± {tol}");
    }

    fn params(d: &Dist) -> (f64, f64) {
        match *d {
            Dist::Normal { mu: a, sigma: b }
            | Dist::LogNormal { mu: a, sigma: b }
            | Dist::Gamma { shape: a, scale: b }
            | Dist::Weibull { shape: a, scale: b } => (a, b),
            _ => panic!("two-parameter family expected, got {d:?}"),
        }
    }

    #[test]
    fn mle_recovers_each_family() {
        // Tolerances are 4 asymptotic standard errors at n = 20 000 (30 seeds gave standard deviations that match
        // these errors, and a largest deviation of 3.2 of them):
        //   exponential mean: m/√n = 0.021; normal μ: σ/√n = 0.043, σ: σ/√(2n) = 0.031;
        //   log-normal μ: 0.0024, σ: 0.0017; gamma (k = 2.62) shape: √(k / (n(kψ'(k) − 1))) ≈ 0.030, scale ≈ 0.0016;
        //   Weibull shape: 0.78 k/√n = 0.0097, scale: 1.05 λ/(k√n) = 0.0089.
        let f = fit(Family::Exponential, &sample(&Dist::Exponential { mean: 3.0 }, N, 1)).unwrap();
        let Dist::Exponential { mean } = f.dist else { panic!("{:?}", f.dist) };
        close("exponential mean", mean, 3.0, 0.085);

        let cases = [
            (Family::Normal, Dist::Normal { mu: 2.73, sigma: 6.10 }, 0.17, 0.12),
            (Family::LogNormal, Dist::LogNormal { mu: 1.82, sigma: 0.34 }, 0.0096, 0.0068),
            (Family::Gamma, Dist::Gamma { shape: 2.62, scale: 0.13 }, 0.12, 0.0064),
            (Family::Weibull, Dist::Weibull { shape: 1.76, scale: 2.11 }, 0.039, 0.036),
        ];
        for (seed, (family, truth, tol_a, tol_b)) in (2..).zip(cases) {
            let x = sample(&truth, N, seed);
            let f = fit(family, &x).unwrap();
            assert_eq!(Family::of(&f.dist), Some(family));
            let ((a, b), (ta, tb)) = (params(&f.dist), params(&truth));
            close(&format!("{family} first parameter"), a, ta, tol_a);
            close(&format!("{family} second parameter"), b, tb, tol_b);
            assert!(f.ks < ks_crit(N), "{family}: D = {}", f.ks);
            // The MLE beats the true parameters on the likelihood of the sample.
            assert!(f.log_likelihood >= log_likelihood(&truth, &x, &vec![1.0; N]) - 1e-6);
        }

        // Hyper-exponential by EM: no closed-form standard errors; over 30 seeds the estimates of
        // (p, mean1, mean2) = (0.4, 1, 9) had standard deviations (0.006, 0.023, 0.10). 4 of them:
        let truth = Dist::HyperExponential { p: 0.4, mean1: 1.0, mean2: 9.0 };
        let f = fit(Family::HyperExponential, &sample(&truth, N, 7)).unwrap();
        let Dist::HyperExponential { p, mean1, mean2 } = f.dist else { panic!("{:?}", f.dist) };
        close("hyper-exponential p", p, 0.4, 0.024);
        close("hyper-exponential mean1", mean1, 1.0, 0.095);
        close("hyper-exponential mean2", mean2, 9.0, 0.42);
        assert!(f.ks < ks_crit(N));
    }

    #[test]
    fn gamma_and_weibull_handle_small_shapes_and_large_values() {
        for (family, truth) in [
            (Family::Gamma, Dist::Gamma { shape: 0.3, scale: 1e6 }),
            (Family::Weibull, Dist::Weibull { shape: 0.4, scale: 1e6 }),
            (Family::Weibull, Dist::Weibull { shape: 30.0, scale: 1e-3 }),
        ] {
            let f = fit(family, &sample(&truth, 5_000, 11)).unwrap();
            let ((a, b), (ta, tb)) = (params(&f.dist), params(&truth));
            // 5 000 points: shape within 6%, scale within 15% (several standard errors for these shapes).
            assert!((a / ta - 1.0).abs() < 0.06 && (b / tb - 1.0).abs() < 0.15, "{family}: {:?}", f.dist);
        }
    }

    #[test]
    fn trigamma_known_values() {
        let pi2 = std::f64::consts::PI * std::f64::consts::PI;
        close("ψ'(1)", trigamma(1.0), pi2 / 6.0, 1e-11);
        close("ψ'(1/2)", trigamma(0.5), pi2 / 2.0, 1e-11);
        close("ψ'(50)", trigamma(50.0), 0.020_201_333_226_697_125, 1e-13);
    }

    /// x from 1e-6 to 1e6, 40 points per decade; the zeros of ln Γ (1, 2) and of ψ (1.4616…), ½, and both sides of
    /// the switch from recurrence to series at 10.
    fn special_grid() -> Vec<f64> {
        let mut x: Vec<f64> = (0..=480).map(|i| libm::pow(10.0, -6.0 + i as f64 / 40.0)).collect();
        x.extend([1.0, 2.0, 1.461_632_144_968_362_2, 0.5, 9.999_999_999_999, 10.0, 10.000_000_000_001]);
        x
    }

    #[test]
    fn digamma_matches_known_values_and_statrs() {
        const EULER_GAMMA: f64 = 0.577_215_664_901_532_9;
        close("ψ(1)", digamma(1.0), -EULER_GAMMA, 1e-15);
        close("ψ(1/2)", digamma(0.5), -EULER_GAMMA - 2.0 * std::f64::consts::LN_2, 1e-15);
        close("ψ(10)", digamma(10.0), 2.251_752_589_066_721, 1e-15);
        for x in special_grid() {
            let (ours, theirs) = (digamma(x), statrs::function::gamma::digamma(x));
            assert!((ours - theirs).abs() <= 1e-14 * theirs.abs().max(1.0), "ψ({x}): {ours} vs statrs {theirs}");
        }
    }

    #[test]
    fn libm_lgamma_matches_statrs() {
        // ln Γ in the gamma density is libm's lgamma (statrs' ln_gamma calls std's ln and sin, which are the
        // platform's libm natively and Rust's port in wasm32).
        for x in special_grid() {
            let (ours, theirs) = (libm::lgamma(x), statrs::function::gamma::ln_gamma(x));
            assert!((ours - theirs).abs() <= 2e-14 * theirs.abs().max(1.0), "ln Γ({x}): {ours} vs statrs {theirs}");
        }
    }

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

    /// Bins of log2 size for sizes max(1, round(2^x)).
    fn size_bins(sizes: &mut [u32]) -> Vec<(f64, f64, u64)> {
        sizes.sort_unstable();
        sizes
            .chunk_by(|a, b| a == b)
            .map(|run| {
                let n = run[0] as f64;
                let lo = if run[0] == 1 { f64::NEG_INFINITY } else { libm::log2(n - 0.5) };
                (lo, libm::log2(n + 0.5), run.len() as u64)
            })
            .collect()
    }

    #[test]
    fn interval_fit_recovers_weibull_from_rounded_sizes() {
        // Over 30 seeds the interval MLE's standard deviations were 0.0093 (shape) and 0.0085 (scale), barely more
        // than the continuous MLE's: rounding 2^x to an integer loses little except in the size-1 bin. 4 of them:
        let truth = Dist::Weibull { shape: 1.76, scale: 2.11 };
        let mut r = Rng::new(31);
        let mut sizes: Vec<u32> = (0..N).map(|_| libm::exp2(truth.sample(&mut r)).round().max(1.0) as u32).collect();
        let bins = size_bins(&mut sizes);
        let f = fit_intervals(Family::Weibull, &bins).unwrap();
        let (k, l) = params(&f.dist);
        close("size shape", k, 1.76, 0.037);
        close("size scale", l, 2.11, 0.034);
        assert!(f.ks < ks_crit(N), "D = {}", f.ks);
        let best = best_fit_intervals(&bins).unwrap();
        assert_eq!(Family::of(&best.dist), Some(Family::Weibull), "{}", notation(&best.dist));
        assert!(best.ks < ks_crit(N));
        // A plain fit to log2 of the rounded sizes is visibly wrong (size 1 piles up at 0 and excludes
        // the positive-support families; the normal misses by far).
        let logs: Vec<f64> = sizes.iter().map(|&s| libm::log2(s as f64)).collect();
        assert!(fit(Family::Weibull, &logs).is_err());
        assert!(best_fit(&logs).unwrap().ks > 3.0 * best.ks);
    }

    #[test]
    fn interval_fit_recovers_weibull_from_slot_counts() {
        // Over 30 seeds (20 000 arrivals, truncated to [0, 48)) the standard deviations were 0.013 (shape) and
        // 0.13 (scale); tolerances are 4 of them.
        let truth = Dist::Weibull { shape: 1.79, scale: 24.16 };
        let mut r = Rng::new(41);
        // slots: with redraws outside [0, 48), as the generator does; untruncated: every draw, ≥ 64 in an open bin.
        let (mut slots, mut untruncated) = ([0u64; 48], [0u64; 65]);
        let mut kept = 0;
        while kept < N {
            let x = truth.sample(&mut r);
            untruncated[(x as usize).min(64)] += 1;
            if x < 48.0 {
                slots[x as usize] += 1;
                kept += 1;
            }
        }
        let bins: Vec<(f64, f64, u64)> = (0..48).map(|s| (s as f64, s as f64 + 1.0, slots[s])).collect();
        let f = fit_intervals_truncated(Family::Weibull, &bins, 0.0, 48.0).unwrap();
        let (k, l) = params(&f.dist);
        close("cycle shape", k, 1.79, 0.052);
        close("cycle scale", l, 24.16, 0.52);
        assert!(f.ks < ks_crit(N));
        let best = best_fit_intervals_truncated(&bins, 0.0, 48.0).unwrap();
        assert_eq!(Family::of(&best.dist), Some(Family::Weibull), "{}", notation(&best.dist));
        // Ignoring the truncation biases the shape by ≈ 0.14 (measured), 10 standard deviations.
        let naive = fit_intervals(Family::Weibull, &bins).unwrap();
        assert!(params(&naive.dist).0 > 1.79 + 0.08, "{:?}", naive.dist);
        // Without the rejection (all slots 0..64 kept, last bin open), the plain interval fit recovers it.
        let mut open: Vec<(f64, f64, u64)> = (0..64).map(|s| (s as f64, s as f64 + 1.0, untruncated[s])).collect();
        open.push((64.0, f64::INFINITY, untruncated[64]));
        let total_drawn: u64 = untruncated.iter().sum();
        let f = fit_intervals(Family::Weibull, &open).unwrap();
        let (k, l) = params(&f.dist);
        close("untruncated shape", k, 1.79, 0.052);
        close("untruncated scale", l, 24.16, 0.52);
        assert!(f.ks < ks_crit(total_drawn as usize));
    }

    #[test]
    fn censored_fit_undoes_the_art_clamp() {
        // log2 ART ~ N(2.73, 6.10) clamped to [0, 20]: a third of the values sit at 0. Standard errors as for the
        // normal MLE inflated by the censoring (≈ 1.2×): 4 × 1.2 × (0.043, 0.031) → (0.21, 0.15).
        let truth = Dist::Normal { mu: 2.73, sigma: 6.10 };
        let x: Vec<f64> = sample(&truth, N, 51).into_iter().map(|v| v.clamp(0.0, 20.0)).collect();
        let f = fit_censored(Family::Normal, &x, 0.0, 20.0).unwrap();
        let (mu, sigma) = params(&f.dist);
        close("ART μ", mu, 2.73, 0.21);
        close("ART σ", sigma, 6.10, 0.15);
        assert!(f.ks < ks_crit(N));
        let best = best_fit_censored(&x, 0.0, 20.0).unwrap();
        assert_eq!(Family::of(&best.dist), Some(Family::Normal));
        // The plain fit is far off (measured N(4.0, 4.4), D ≈ 0.18).
        let plain = fit(Family::Normal, &x).unwrap();
        assert!(params(&plain.dist).0 > 3.5 && plain.ks > 0.1, "{plain:?}");
        // Families that cannot put mass at ≤ 0 are rejected, naming the censored values.
        let e = fit_censored(Family::Weibull, &x, 0.0, 20.0).unwrap_err();
        assert!(e.0.contains("censored"), "{e}");
        // Nothing censored: exactly the plain fit.
        let y = sample(&Dist::Weibull { shape: 2.0, scale: 5.0 }, 1_000, 52);
        assert_eq!(fit_censored(Family::Weibull, &y, 0.0, 20.0), fit(Family::Weibull, &y));
    }

    fn zipf_counts(alpha: f64, n: usize, draws: usize, seed: u64) -> Vec<u64> {
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

    #[test]
    fn zipf_recovers_alpha() {
        // 50 000 draws over 368 ranks: over 30 seeds α̂ had mean 1.3104 and standard deviation 0.0029 (the
        // asymptotic 1/√(N Var[ln R]) is of that order; ranking users by their counts adds no visible bias here
        // because even the last rank expects ≈ 6.6 draws). 5 standard deviations: 0.015.
        let mut counts = zipf_counts(1.31, 368, 50_000, 61);
        counts.reverse(); // any order
        let z = fit_zipf(&counts).unwrap();
        close("α", z.alpha, 1.31, 0.015);
        // A rank is empty with probability ≈ e^−6.6 ≈ 0.1%: n is 368 or very nearly.
        assert!((365..=368).contains(&z.n), "n = {}", z.n);
        assert!(z.ks < ks_crit(50_000), "D = {}", z.ks);
        assert_eq!(z.notation(), format!("Z({:.2},{})", z.alpha, z.n));
        // Equal counts: the uniform law, α = 0; zeros are dropped.
        let z = fit_zipf(&[5, 0, 5, 5]).unwrap();
        assert_eq!((z.alpha, z.n), (0.0, 3));
        assert!(z.ks < 1e-12);
        assert!(fit_zipf(&[]).is_err());
        assert!(fit_zipf(&[7, 0, 0]).is_err());
    }

    #[test]
    fn errors_instead_of_panics_or_nan() {
        for family in Family::ALL {
            assert!(fit(family, &[]).is_err());
            assert!(fit(family, &[1.0]).is_err());
            let e = fit(family, &[1.0, f64::NAN, 2.0]).unwrap_err();
            assert!(e.0.contains("non-finite"), "{e}");
            assert!(fit(family, &[1.0, f64::INFINITY]).is_err());
            // Overflowing data must not produce NaN parameters.
            if let Ok(f) = fit(family, &[1e308, 1.5e308, 1.7e308]) {
                assert!(f.dist.validate().is_ok() && f.ks.is_finite() && f.log_likelihood.is_finite(), "{f:?}");
            }
        }
        let e = fit(Family::LogNormal, &[1.0, 0.0, -2.0, 3.0, -0.5]).unwrap_err();
        assert_eq!(e.to_string(), "log-normal needs data > 0; found 3 values ≤ 0");
        assert!(fit(Family::Gamma, &[1.0, 0.0]).is_err());
        assert!(fit(Family::Weibull, &[1.0, -1.0]).is_err());
        assert!(fit(Family::Exponential, &[1.0, -1.0]).is_err());
        assert!(fit(Family::Exponential, &[0.0, 0.0]).is_err());
        assert!(fit(Family::Exponential, &[2.0, 2.0]).is_ok());
        assert!(fit(Family::HyperExponential, &[-1.0, 2.0]).is_err());
        for family in [Family::Normal, Family::LogNormal, Family::Gamma, Family::Weibull, Family::HyperExponential] {
            let e = fit(family, &[3.0, 3.0, 3.0]).unwrap_err();
            assert!(e.0.contains("equal"), "{family}: {e}");
        }
        let e = best_fit(&[f64::NAN, 1.0]).unwrap_err();
        assert!(e.0.starts_with("no candidate family"), "{e}");

        let bins = [(0.0, 1.0, 5u64), (1.0, 2.0, 3)];
        assert!(fit_intervals(Family::Weibull, &[]).is_err());
        assert!(fit_intervals(Family::Weibull, &[(0.0, 1.0, 9)]).is_err()); // one bin: no unique MLE
        assert!(fit_intervals(Family::Weibull, &[(0.0, 1.0, 1), (1.0, 2.0, 0)]).is_err()); // < 2 observations
        assert!(fit_intervals(Family::Weibull, &[(0.0, 2.0, 5), (1.0, 3.0, 3)]).is_err()); // overlap
        assert!(fit_intervals(Family::Weibull, &[(1.0, 1.0, 5), (1.0, 3.0, 3)]).is_err()); // empty bin
        assert!(fit_intervals(Family::Weibull, &[(f64::NAN, 1.0, 5), (1.0, 3.0, 3)]).is_err());
        assert!(fit_intervals(Family::Weibull, &[(-2.0, -1.0, 5), (1.0, 3.0, 3)]).is_err()); // outside support
        assert!(fit_intervals(Family::Normal, &[(-2.0, -1.0, 5), (1.0, 3.0, 3)]).is_ok());
        assert!(fit_intervals_truncated(Family::Weibull, &bins, 0.0, 1.5).is_err());
        assert!(fit_intervals_truncated(Family::Weibull, &bins, 2.0, 2.0).is_err());
        for family in Family::ALL {
            let f = fit_intervals(family, &bins).unwrap();
            assert!(f.ks.is_finite() && f.log_likelihood.is_finite());
        }
        assert!(fit_censored(Family::Normal, &[0.0, 0.0, 1.0], 0.0, 20.0).is_err()); // 1 exact value
        assert!(fit_censored(Family::Normal, &[1.0, 2.0], 3.0, 3.0).is_err());
        assert!(fit_workload(&Workload::default()).is_err());
    }

    #[test]
    fn distribution_functions_never_panic() {
        // x / scale overflowing or underflowing to an infinite or zero argument of the regularised gamma.
        let g = Dist::Gamma { shape: 2.0, scale: 1e300 };
        assert_eq!((cdf(&g, 1e-30), sf(&g, 1e-30)), (0.0, 1.0));
        let g = Dist::Gamma { shape: 2.0, scale: 1e-300 };
        assert_eq!((cdf(&g, 1e30), sf(&g, 1e30)), (1.0, 0.0));
        for d in [g, Dist::Normal { mu: 0.0, sigma: 1.0 }, Dist::Weibull { shape: 2.0, scale: 1.0 }] {
            assert_eq!((cdf(&d, f64::INFINITY), cdf(&d, f64::NEG_INFINITY)), (1.0, 0.0));
            assert_eq!((sf(&d, f64::INFINITY), sf(&d, f64::NEG_INFINITY)), (0.0, 1.0));
            assert_eq!(mass(&d, f64::NEG_INFINITY, f64::INFINITY), 1.0);
        }
        // Upper-tail bins keep their precision: P(X > 10) for N(0, 1) is 7.6e-24, not 0.
        let n = Dist::Normal { mu: 0.0, sigma: 1.0 };
        assert!((mass(&n, 10.0, f64::INFINITY) / 7.619_853_024_160_527e-24 - 1.0).abs() < 1e-6);
    }

    #[test]
    fn notation_matches_table_3() {
        assert_eq!(notation(&Dist::Weibull { shape: 1.76, scale: 2.11 }), "W(1.76,2.11)");
        assert_eq!(notation(&Dist::Normal { mu: 2.73, sigma: 6.1 }), "N(2.73,6.10)");
        assert_eq!(notation(&Dist::LogNormal { mu: 1.82, sigma: 0.34 }), "LN(1.82,0.34)");
        assert_eq!(notation(&Dist::Gamma { shape: 2.62, scale: 0.13 }), "G(2.62,0.13)");
        assert_eq!(notation(&Dist::Exponential { mean: 3.0 }), "Exp(3.00)");
        assert_eq!(notation(&Dist::HyperExponential { p: 0.4, mean1: 1.0, mean2: 9.0 }), "HExp(0.40,1.00,9.00)");
    }

    /// A workload made the way the generator makes one from the Avg row of [Iosup08] Table 3 (users Z(1.31, 368), IAT
    /// W(4.25, 7.86), cycle W(1.79, 24.16), size W(1.76, 2.11), ART N(2.73, 6.10) clamped to [1, 2^20] s, RTV
    /// W(2.05, 12.25), all but users and cycle in log2), with every task's runtime equal to the ART.
    fn avg_workload(bots: usize, seed: u64) -> Workload {
        let cycle = Dist::Weibull { shape: 1.79, scale: 24.16 };
        let p: Vec<f64> = (0..48).map(|s| cycle.cdf(s as f64 + 1.0) - cycle.cdf(s as f64)).collect();
        let p_peak = PEAK_SLOTS.map(|s| p[s]).sum::<f64>() / 18.0;
        let (iat, size) = (Dist::Weibull { shape: 4.25, scale: 7.86 }, Dist::Weibull { shape: 1.76, scale: 2.11 });
        let (art, rtv) = (Dist::Normal { mu: 2.73, sigma: 6.10 }, Dist::Weibull { shape: 2.05, scale: 12.25 });
        let users = zipf_counts(1.31, 368, bots, seed);
        let mut user_of: Vec<u32> =
            users.iter().enumerate().flat_map(|(u, &c)| std::iter::repeat_n(u as u32, c as usize)).collect();
        let mut r = Rng::new(seed + 1);
        for i in (1..user_of.len()).rev() {
            user_of.swap(i, r.below(i as u64 + 1) as usize);
        }
        let mut w = Workload { users: 368, ..Workload::default() };
        let mut t = 0.0;
        for &user in &user_of {
            t += libm::exp2(iat.sample(&mut r)) * p_peak / p[slot_of(t)].max(0.01 * p_peak);
            let n = libm::exp2(size.sample(&mut r)).round().max(1.0) as u32;
            let a = libm::exp2(art.sample(&mut r)).clamp(1.0, 1_048_576.0);
            let first_task = w.runtimes.len() as u32;
            w.runtimes.extend(std::iter::repeat_n(a, n as usize));
            w.bots.push(Bot {
                arrival: t,
                user,
                first_task,
                size: n,
                art: a,
                rtv: libm::exp2(rtv.sample(&mut r)),
                home: None,
            });
        }
        w
    }

    #[test]
    fn fit_workload_inverts_the_generator() {
        let w = avg_workload(20_000, 71);
        let m = fit_workload(&w).unwrap();
        assert_eq!(m.bots, 20_000);
        // Same sizes as the single-characteristic tests, so similar tolerances; the daily cycle and the IAT are
        // looser. The generator stretches IATs by slot rather than drawing slots, so the slot histogram follows
        // the cycle only approximately: over 6 seeds the cycle came out W(1.84–1.90, 24.5–25.2), a systematic bias
        // of ≈ (+0.08, +0.6) on top of the standard deviations (0.013, 0.13); tolerances cover bias + 4 sd. The IAT
        // is de-seasonalised with that fitted cycle (measured shapes 4.26–4.30).
        close("users α", m.users.alpha, 1.31, 0.02);
        assert!(m.users.n <= 368 && m.users.n > 330, "{}", m.users.n);
        for (what, fit, want, tol_a, tol_b) in [
            ("size", &m.size, (1.76, 2.11), 0.04, 0.04),
            ("ART", &m.art, (2.73, 6.10), 0.21, 0.15),
            ("RTV", &m.rtv, (2.05, 12.25), 0.05, 0.2),
            ("IAT", &m.iat, (4.25, 7.86), 0.25, 0.1),
            ("daily cycle", &m.daily_cycle, (1.79, 24.16), 0.2, 1.5),
        ] {
            let (a, b) = params(&fit.dist);
            close(&format!("{what} {}", notation(&fit.dist)), a, want.0, tol_a);
            close(&format!("{what} {}", notation(&fit.dist)), b, want.1, tol_b);
        }
        assert_eq!(Family::of(&m.art.dist), Some(Family::Normal));
        assert_eq!(Family::of(&m.rtv.dist), Some(Family::Weibull));

        // Only the counts per user matter, not the ids (sparse, huge ids cost nothing).
        let mut sparse = w.clone();
        for b in &mut sparse.bots {
            b.user = u32::MAX - 10_000_000 * b.user;
        }
        assert_eq!(fit_workload(&sparse).unwrap().users, m.users);

        // Traces carry no ART/RTV: they come from the runtimes instead.
        let mut t = w.clone();
        for (i, b) in t.bots.iter_mut().enumerate() {
            b.art = f64::NAN;
            b.rtv = f64::NAN;
            let first = b.first_task as usize;
            if b.size >= 2 {
                t.runtimes[first] += 1.0; // variance 1/size − 1/size² · … > 0, mean shifted by 1/size
                t.runtimes[first + 1] += (i % 3) as f64;
            }
        }
        let mt = fit_workload(&t).unwrap();
        assert!(mt.art.dist.validate().is_ok() && mt.rtv.dist.validate().is_ok());
        assert_eq!((mt.users.clone(), mt.size.clone(), mt.daily_cycle.clone()), (m.users, m.size, m.daily_cycle));
    }
}
