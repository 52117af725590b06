//! Nelder–Mead over unconstrained parameters (logs of positive parameters, logit of p), for the likelihoods that
//! have no closed form: interval-censored bins and clamp-censored values.

use super::family::Family;
use crate::workload::dist::Dist;

/// Unconstrained parameters: logs of positive parameters, logit of the hyper-exponential's p.
pub(super) fn to_params(d: &Dist) -> Vec<f64> {
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

pub(super) fn from_params(family: Family, p: &[f64]) -> Dist {
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
pub(super) fn simplex_steps(family: Family, x0: &[f64]) -> Vec<f64> {
    match family {
        Family::Normal | Family::LogNormal => vec![0.2 * libm::exp(x0[1]), 0.2],
        Family::HyperExponential => vec![0.5, 0.2, 0.2],
        Family::Exponential | Family::Gamma | Family::Weibull => vec![0.2; x0.len()],
    }
}

/// Nelder–Mead (reflection 1, expansion 2, contraction ½, shrink ½), restarted from the best vertex until a
/// restart no longer improves (at most 4 runs). Non-finite objective values count as +∞. Returns (x, f(x)).
pub(super) fn minimize(f: impl Fn(&[f64]) -> f64, x0: &[f64], steps: &[f64]) -> (Vec<f64>, f64) {
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
