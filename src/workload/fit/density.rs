//! Densities and distribution functions that are total: ±∞ and overflowing or underflowing x / scale answer.

use super::mle::log_add;
use crate::workload::dist::{normal_cdf, regularized_gamma_q, Dist};

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

pub(super) fn log_likelihood(d: &Dist, x: &[f64], w: &[f64]) -> f64 {
    x.iter().zip(w).map(|(&v, &wi)| wi * ln_pdf(d, v)).sum()
}

/// P(X ≤ x), total for every x including ±∞.
pub(in crate::workload) fn cdf(d: &Dist, x: f64) -> f64 {
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
pub(super) fn sf(d: &Dist, x: f64) -> f64 {
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
pub(in crate::workload) fn mass(d: &Dist, lo: f64, hi: f64) -> f64 {
    let f_lo = cdf(d, lo);
    let m = if f_lo > 0.5 { sf(d, lo) - sf(d, hi) } else { cdf(d, hi) - f_lo };
    m.max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
