//! Probability distributions of the workload model: sampling (bit-identical natively and in wasm32), CDF and mean.
//!
//! Notation of [Iosup08] Table 3: W(k, λ) Weibull shape k scale λ; N(μ, σ) normal; LN(μ, σ) log-normal of the
//! underlying normal; G(k, θ) gamma shape k scale θ; Z(α, n) Zipf over ranks 1..n. The first parameter is the
//! shape wherever there is one.

use crate::engine::Rng;
use crate::error::{ErrorKind, ScenarioError};
use serde::{Deserialize, Serialize};

/// A continuous distribution (or a constant), as used for every characteristic of the workload model.
///
/// Written with its family's name under `family`; read through `dist_form::DistForm`, which refuses any other field
/// as the derived form did, with less code.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "family", rename_all = "snake_case", try_from = "super::dist_form::DistForm")]
pub enum Dist {
    /// Always `value`.
    Constant { value: f64 },
    /// Uniform on [low, high].
    Uniform { low: f64, high: f64 },
    /// Exponential with the given mean (= 1/rate).
    Exponential { mean: f64 },
    /// Two-phase hyper-exponential: with probability `p` Exp(mean1), else Exp(mean2).
    HyperExponential { p: f64, mean1: f64, mean2: f64 },
    /// N(mu, sigma).
    Normal { mu: f64, sigma: f64 },
    /// LN(mu, sigma): exp of N(mu, sigma).
    LogNormal { mu: f64, sigma: f64 },
    /// G(shape, scale).
    Gamma { shape: f64, scale: f64 },
    /// W(shape, scale).
    Weibull { shape: f64, scale: f64 },
}

impl Dist {
    /// The short name of [Iosup08] Table 3 (W, N, LN, G, Exp, HExp, U, C).
    pub fn family_symbol(&self) -> &'static str {
        match self {
            Dist::Constant { .. } => "C",
            Dist::Uniform { .. } => "U",
            Dist::Exponential { .. } => "Exp",
            Dist::HyperExponential { .. } => "HExp",
            Dist::Normal { .. } => "N",
            Dist::LogNormal { .. } => "LN",
            Dist::Gamma { .. } => "G",
            Dist::Weibull { .. } => "W",
        }
    }

    /// Checks the parameters; the message names the parameter and the allowed range, the error no field (the
    /// caller places it under the distribution's path, `ScenarioError::under`).
    pub fn validate(&self) -> Result<(), ScenarioError> {
        fn pos(name: &str, v: f64) -> Result<(), ScenarioError> {
            if v.is_finite() && v > 0.0 {
                Ok(())
            } else {
                Err(ScenarioError::out_of_range("", format!("{name} = {v}: must be a finite number > 0")))
            }
        }
        fn finite(name: &str, v: f64) -> Result<(), ScenarioError> {
            if v.is_finite() {
                Ok(())
            } else {
                Err(ScenarioError::out_of_range("", format!("{name} = {v}: must be a finite number")))
            }
        }
        match *self {
            Dist::Constant { value } => finite("value", value),
            Dist::Uniform { low, high } => {
                finite("low", low)?;
                finite("high", high)?;
                if low > high {
                    return Err(ScenarioError::new(
                        ErrorKind::Inconsistent,
                        "",
                        format!("low = {low} > high = {high}: need low ≤ high"),
                    ));
                }
                Ok(())
            }
            Dist::Exponential { mean } => pos("mean", mean),
            Dist::HyperExponential { p, mean1, mean2 } => {
                if !(0.0..=1.0).contains(&p) {
                    return Err(ScenarioError::out_of_range("", format!("p = {p}: must be in [0, 1]")));
                }
                pos("mean1", mean1)?;
                pos("mean2", mean2)
            }
            Dist::Normal { mu, sigma } | Dist::LogNormal { mu, sigma } => {
                finite("mu", mu)?;
                pos("sigma", sigma)
            }
            Dist::Gamma { shape, scale } | Dist::Weibull { shape, scale } => {
                pos("shape", shape)?;
                pos("scale", scale)
            }
        }
    }

    /// One sample. Only uniform bits, arithmetic and `libm`, so the value is the same on every target.
    pub fn sample(&self, rng: &mut Rng) -> f64 {
        match *self {
            Dist::Constant { value } => value,
            Dist::Uniform { low, high } => low + (high - low) * rng.uniform(),
            Dist::Exponential { mean } => -mean * libm::log(rng.uniform_open0()),
            Dist::HyperExponential { p, mean1, mean2 } => {
                let mean = if rng.uniform() < p { mean1 } else { mean2 };
                -mean * libm::log(rng.uniform_open0())
            }
            Dist::Normal { mu, sigma } => mu + sigma * standard_normal(rng),
            Dist::LogNormal { mu, sigma } => libm::exp(mu + sigma * standard_normal(rng)),
            Dist::Gamma { shape, scale } => scale * standard_gamma(shape, rng),
            Dist::Weibull { shape, scale } => scale * libm::pow(-libm::log(rng.uniform_open0()), 1.0 / shape),
        }
    }

    /// P(X ≤ x).
    pub fn cdf(&self, x: f64) -> f64 {
        match *self {
            Dist::Constant { value } => {
                if x >= value {
                    1.0
                } else {
                    0.0
                }
            }
            Dist::Uniform { low, high } => {
                if x < low {
                    0.0
                } else if x >= high {
                    1.0
                } else {
                    (x - low) / (high - low)
                }
            }
            Dist::Exponential { mean } => {
                if x <= 0.0 {
                    0.0
                } else {
                    -libm::expm1(-x / mean)
                }
            }
            Dist::HyperExponential { p, mean1, mean2 } => {
                if x <= 0.0 {
                    0.0
                } else {
                    p * -libm::expm1(-x / mean1) + (1.0 - p) * -libm::expm1(-x / mean2)
                }
            }
            Dist::Normal { mu, sigma } => normal_cdf((x - mu) / sigma),
            Dist::LogNormal { mu, sigma } => {
                if x <= 0.0 {
                    0.0
                } else {
                    normal_cdf((libm::log(x) - mu) / sigma)
                }
            }
            Dist::Gamma { shape, scale } => {
                if x <= 0.0 {
                    0.0
                } else {
                    regularized_gamma_p(shape, x / scale)
                }
            }
            Dist::Weibull { shape, scale } => {
                if x <= 0.0 {
                    0.0
                } else {
                    -libm::expm1(-libm::pow(x / scale, shape))
                }
            }
        }
    }

    /// The q-quantile, 0 < q < 1 (bisection on the CDF where there is no closed form).
    pub fn quantile(&self, q: f64) -> f64 {
        match *self {
            Dist::Constant { value } => value,
            Dist::Uniform { low, high } => low + (high - low) * q,
            Dist::Exponential { mean } => -mean * libm::log1p(-q),
            Dist::Weibull { shape, scale } => scale * libm::pow(-libm::log1p(-q), 1.0 / shape),
            Dist::Normal { mu, sigma } => mu + sigma * standard_normal_quantile(q),
            Dist::LogNormal { mu, sigma } => libm::exp(mu + sigma * standard_normal_quantile(q)),
            Dist::Gamma { .. } | Dist::HyperExponential { .. } => {
                let (mut lo, mut hi) = (0.0f64, self.mean().max(1e-12));
                while self.cdf(hi) < q {
                    hi *= 2.0;
                }
                for _ in 0..200 {
                    let mid = 0.5 * (lo + hi);
                    if self.cdf(mid) < q {
                        lo = mid;
                    } else {
                        hi = mid;
                    }
                    if hi - lo <= 1e-12 * hi {
                        break;
                    }
                }
                0.5 * (lo + hi)
            }
        }
    }

    /// The mean.
    pub fn mean(&self) -> f64 {
        match *self {
            Dist::Constant { value } => value,
            Dist::Uniform { low, high } => 0.5 * (low + high),
            Dist::Exponential { mean } => mean,
            Dist::HyperExponential { p, mean1, mean2 } => p * mean1 + (1.0 - p) * mean2,
            Dist::Normal { mu, .. } => mu,
            Dist::LogNormal { mu, sigma } => libm::exp(mu + 0.5 * sigma * sigma),
            Dist::Gamma { shape, scale } => shape * scale,
            Dist::Weibull { shape, scale } => scale * libm::tgamma(1.0 + 1.0 / shape),
        }
    }
}

/// Standard normal by Box–Muller (one of the pair; the cost is irrelevant next to the simulation).
fn standard_normal(rng: &mut Rng) -> f64 {
    let u1 = rng.uniform_open0();
    let u2 = rng.uniform();
    libm::sqrt(-2.0 * libm::log(u1)) * libm::cos(std::f64::consts::TAU * u2)
}

/// Marsaglia–Tsang (2000) for shape ≥ 1; shape < 1 by the boost G(k) = G(k+1)·U^(1/k).
fn standard_gamma(shape: f64, rng: &mut Rng) -> f64 {
    if shape < 1.0 {
        let u = rng.uniform_open0();
        return standard_gamma(shape + 1.0, rng) * libm::pow(u, 1.0 / shape);
    }
    let d = shape - 1.0 / 3.0;
    let c = 1.0 / libm::sqrt(9.0 * d);
    loop {
        let (x, v) = loop {
            let x = standard_normal(rng);
            let v = 1.0 + c * x;
            if v > 0.0 {
                break (x, v * v * v);
            }
        };
        let u = rng.uniform_open0();
        if u < 1.0 - 0.0331 * x * x * x * x || libm::log(u) < 0.5 * x * x + d * (1.0 - v + libm::log(v)) {
            return d * v;
        }
    }
}

/// P(a, x), the regularized lower incomplete gamma function: the series for x < a + 1, Lentz's continued fraction
/// for Q otherwise (Numerical Recipes §6.2). Written with `libm` (not statrs) so that quantiles and knobs that
/// depend on a gamma CDF give the same bits natively and in wasm32.
pub fn regularized_gamma_p(a: f64, x: f64) -> f64 {
    match incomplete_gamma(a, x) {
        IncompleteGamma::P(p) => p,
        IncompleteGamma::Q(q) => (1.0 - q).max(0.0),
    }
}

/// Q(a, x) = 1 − P(a, x), the regularized upper incomplete gamma function, from the same series or continued
/// fraction as [`regularized_gamma_p`]; in the upper tail (x ≥ a + 1) it is computed directly, with no 1 − P
/// cancellation. `libm` only: the same bits natively and in wasm32.
pub fn regularized_gamma_q(a: f64, x: f64) -> f64 {
    match incomplete_gamma(a, x) {
        IncompleteGamma::P(p) => (1.0 - p).max(0.0),
        IncompleteGamma::Q(q) => q.min(1.0),
    }
}

/// Which side of the regularized incomplete gamma function [`incomplete_gamma`] computed.
enum IncompleteGamma {
    P(f64),
    Q(f64),
}

/// P(a, x) by the series for x < a + 1 (at most 1), else Q(a, x) by Lentz's continued fraction (at least 0).
fn incomplete_gamma(a: f64, x: f64) -> IncompleteGamma {
    if x <= 0.0 {
        return IncompleteGamma::P(0.0);
    }
    if x.is_infinite() {
        return IncompleteGamma::Q(0.0);
    }
    let log_prefactor = a * libm::log(x) - x - libm::lgamma(a);
    if x < a + 1.0 {
        let (mut ap, mut del) = (a, 1.0 / a);
        let mut sum = del;
        for _ in 0..10_000 {
            ap += 1.0;
            del *= x / ap;
            sum += del;
            if del.abs() < sum.abs() * 1e-16 {
                break;
            }
        }
        IncompleteGamma::P((sum * libm::exp(log_prefactor)).min(1.0))
    } else {
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / tiny;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..10_000 {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < tiny {
                d = tiny;
            }
            c = b + an / c;
            if c.abs() < tiny {
                c = tiny;
            }
            d = 1.0 / d;
            let del = d * c;
            h *= del;
            if (del - 1.0).abs() < 1e-16 {
                break;
            }
        }
        IncompleteGamma::Q(libm::exp(log_prefactor) * h)
    }
}

/// Φ(z).
pub fn normal_cdf(z: f64) -> f64 {
    0.5 * libm::erfc(-z / std::f64::consts::SQRT_2)
}

#[allow(clippy::excessive_precision)]
/// Φ⁻¹(q) by Acklam's rational approximation refined with one Halley step (|error| < 1e-15).
pub fn standard_normal_quantile(q: f64) -> f64 {
    if q <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if q >= 1.0 {
        return f64::INFINITY;
    }
    const A: [f64; 6] = [
        -3.969683028665376e+01,
        2.209460984245205e+02,
        -2.759285104469687e+02,
        1.383577518672690e+02,
        -3.066479806614716e+01,
        2.506628277459239e+00,
    ];
    const B: [f64; 5] = [
        -5.447609879822406e+01,
        1.615858368580409e+02,
        -1.556989798598866e+02,
        6.680131188771972e+01,
        -1.328068155288572e+01,
    ];
    const C: [f64; 6] = [
        -7.784894002430293e-03,
        -3.223964580411365e-01,
        -2.400758277161838e+00,
        -2.549732539343734e+00,
        4.374664141464968e+00,
        2.938163982698783e+00,
    ];
    const D: [f64; 4] = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00];
    let plow = 0.02425;
    let x = if q < plow {
        let r = libm::sqrt(-2.0 * libm::log(q));
        (((((C[0] * r + C[1]) * r + C[2]) * r + C[3]) * r + C[4]) * r + C[5])
            / ((((D[0] * r + D[1]) * r + D[2]) * r + D[3]) * r + 1.0)
    } else if q <= 1.0 - plow {
        let r = q - 0.5;
        let s = r * r;
        (((((A[0] * s + A[1]) * s + A[2]) * s + A[3]) * s + A[4]) * s + A[5]) * r
            / (((((B[0] * s + B[1]) * s + B[2]) * s + B[3]) * s + B[4]) * s + 1.0)
    } else {
        let r = libm::sqrt(-2.0 * libm::log1p(-q));
        -(((((C[0] * r + C[1]) * r + C[2]) * r + C[3]) * r + C[4]) * r + C[5])
            / ((((D[0] * r + D[1]) * r + D[2]) * r + D[3]) * r + 1.0)
    };
    let e = normal_cdf(x) - q;
    let u = e * libm::sqrt(std::f64::consts::TAU) * libm::exp(0.5 * x * x);
    x - u / (1.0 + 0.5 * x * u)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn incomplete_gamma_matches_statrs() {
        for &a in &[0.02, 0.5, 1.0, 2.47, 3.55, 10.0, 150.0] {
            for &x in &[1e-6, 0.01, 0.3, 1.0, 2.5, 7.0, 30.0, 200.0] {
                let ours = regularized_gamma_p(a, x);
                let theirs = statrs::function::gamma::gamma_lr(a, x);
                assert!((ours - theirs).abs() < 1e-12, "P({a}, {x}): {ours} vs {theirs}");
                // Q relatively, so that the upper tail (Q ≪ 1, where 1 − P would have no digits left) counts.
                let (ours, theirs) = (regularized_gamma_q(a, x), statrs::function::gamma::gamma_ur(a, x));
                assert!((ours - theirs).abs() <= 1e-12 * theirs.max(1e-300), "Q({a}, {x}): {ours} vs {theirs}");
            }
        }
        // P(1, x) = 1 - e^-x exactly.
        assert!((regularized_gamma_p(1.0, 2.0) - (1.0 - (-2.0f64).exp())).abs() < 1e-15);
        // Q(1, x) = e^-x, also far in the tail.
        assert!((regularized_gamma_q(1.0, 600.0) / libm::exp(-600.0) - 1.0).abs() < 1e-12);
        assert_eq!((regularized_gamma_q(2.0, 0.0), regularized_gamma_q(2.0, f64::INFINITY)), (1.0, 0.0));
    }

    #[test]
    fn samplers_have_the_right_moments() {
        let mut rng = Rng::new(11);
        for d in [
            Dist::Gamma { shape: 2.47, scale: 1.64 },
            Dist::Gamma { shape: 0.3, scale: 2.0 },
            Dist::Weibull { shape: 1.76, scale: 2.11 },
            Dist::Normal { mu: 2.73, sigma: 6.1 },
            Dist::LogNormal { mu: 1.82, sigma: 0.34 },
            Dist::Exponential { mean: 3.0 },
            Dist::HyperExponential { p: 0.4, mean1: 1.0, mean2: 9.0 },
        ] {
            let n = 200_000;
            let xs: Vec<f64> = (0..n).map(|_| d.sample(&mut rng)).collect();
            let mean = xs.iter().sum::<f64>() / n as f64;
            let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64;
            // Five standard errors of the mean.
            assert!((mean - d.mean()).abs() < 5.0 * (var / n as f64).sqrt(), "{d:?}: mean {mean} vs {}", d.mean());
            // The CDF at the sample median is one half.
            let mut sorted = xs.clone();
            sorted.sort_by(f64::total_cmp);
            assert!((d.cdf(sorted[n / 2]) - 0.5).abs() < 0.005, "{d:?}");
            assert!((d.cdf(d.quantile(0.3)) - 0.3).abs() < 1e-9, "{d:?}");
        }
    }
}
