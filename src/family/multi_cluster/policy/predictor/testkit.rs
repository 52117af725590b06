//! Helpers shared by the predictor tests: a state fed a series, its prediction, a tolerance, and noise.

use super::model::{PredictorModel, PredictorState};

pub(super) fn run(model: PredictorModel, xs: &[f64]) -> PredictorState {
    let mut s = PredictorState::new(model);
    for &x in xs {
        s.observe(x);
    }
    s
}

pub(super) fn predict(model: PredictorModel, xs: &[f64]) -> f64 {
    run(model, xs).predict().unwrap()
}

pub(super) fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * b.abs().max(1.0)
}

// Deterministic pseudo-random values in [lo, hi) (64-bit LCG, top 53 bits).
pub(super) fn noise(n: usize, seed: u64, lo: f64, hi: f64) -> Vec<f64> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            lo + (hi - lo) * ((s >> 11) as f64 / (1u64 << 53) as f64)
        })
        .collect()
}
