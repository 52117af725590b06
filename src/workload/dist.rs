//! Probability distributions of the workload model: sampling (bit-identical natively and in wasm32), CDF and mean.
//!
//! Notation of 000 Table 3: W(k, λ) Weibull shape k scale λ; N(μ, σ) normal; LN(μ, σ) log-normal of the
//! underlying normal; G(k, θ) gamma shape k scale θ; Z(α, n) Zipf over ranks 1..n. The first parameter is the
//! shape wherever there is one.

use crate::engine::Rng;
use serde::{Deserialize, Serialize};

/// A continuous distribution (or a constant), as used for every characteristic of the workload model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "family", rename_all = "snake_case", deny_unknown_fields)]
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

/// A distribution parameter that cannot describe a distribution.
#[derive(Clone, Debug, PartialEq)]
pub struct DistError(pub String);

impl std::fmt::Display for DistError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl Dist {
    /// The short name of 000 Table 3 (W, N, LN, G, Exp, HExp, U, C).
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

    /// Checks the parameters; the message names the parameter and the allowed range.
    pub fn validate(&self) -> Result<(), DistError> {
        fn pos(name: &str, v: f64) -> Result<(), DistError> {
            if v.is_finite() && v > 0.0 {
                Ok(())
            } else {
                Err(DistError(format!("{name} = {v}: must be a finite number > 0")))
            }
        }
        fn finite(name: &str, v: f64) -> Result<(), DistError> {
            if v.is_finite() {
                Ok(())
            } else {
                Err(DistError(format!("{name} = {v}: must be a finite number")))
            }
        }
        match *self {
            Dist::Constant { value } => finite("value", value),
            Dist::Uniform { low, high } => {
                finite("low", low)?;
                finite("high", high)?;
                if low > high {
                    return Err(DistError(format!("low = {low} > high = {high}: need low ≤ high")));
                }
                Ok(())
            }
            Dist::Exponential { mean } => pos("mean", mean),
            Dist::HyperExponential { p, mean1, mean2 } => {
                if !(0.0..=1.0).contains(&p) {
                    return Err(DistError(format!("p = {p}: must be in [0, 1]")));
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
                    statrs::function::gamma::gamma_lr(shape, x / scale)
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
