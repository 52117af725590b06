//! The inaccuracy model of [Iosup08] §5.3, max(R + (E/100)·R, 1) with E ~ U[−I, I], and what it perturbs: the
//! scheduler's estimate or the runtime itself (`inaccuracy_on`, a reading; docs/model.md, "Inaccuracy").

use super::config::{InaccuracyOn, SimConfig};
use crate::workload::Workload;

/// max(R + (E/100)·R, 1) for task `task`, E = I·(2u − 1) with u uniform on [0, 1) from a counter-based stream (a
/// hash of the seed and the task index): the same E for a task whatever the policy or the reading, at no memory.
pub fn perturbed(r: f64, max_inaccuracy: f64, seed: u64, task: u32) -> f64 {
    let mut z = seed ^ u64::from(task).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    let u = (z >> 11) as f64 * (1.0 / (1u64 << 53) as f64);
    let e = max_inaccuracy * (2.0 * u - 1.0);
    (r + e / 100.0 * r).max(1.0)
}

/// E[max(R·x, 1)] / R for x uniform on [1 − a, 1 + a], a = I/100: the mean factor the model applies to a task of
/// runtime R ≥ 1 s. 1 while R(1 − a) ≥ 1; else ((1 + a)² + r² − 2r(1 − a)) / (4a), r = 1/R (docs/model.md).
pub fn mean_factor(max_inaccuracy: f64, runtime: f64) -> f64 {
    let a = max_inaccuracy / 100.0;
    let inv = 1.0 / runtime;
    if a == 0.0 || runtime * (1.0 - a) >= 1.0 {
        1.0
    } else {
        ((1.0 + a) * (1.0 + a) + inv * inv - 2.0 * inv * (1.0 - a)) / (4.0 * a)
    }
}

/// The inaccuracy of a run: its reading, I, the stream's seed, and under `runtime` the exact runtimes (the
/// scheduler's estimates) while the workload holds the perturbed ones that run.
pub(super) struct Inaccuracy {
    on: InaccuracyOn,
    max: f64,
    seed: u64,
    /// Under `runtime` with I > 0: R by task; else empty.
    exact: Vec<f64>,
}

impl Inaccuracy {
    /// Under `runtime` with I > 0, replaces each runtime of `workload` by its perturbed value and keeps R.
    pub(super) fn new(cfg: &SimConfig, seed: u64, workload: &mut Workload) -> Self {
        let mut exact = Vec::new();
        if cfg.inaccuracy_on == InaccuracyOn::Runtime && cfg.inaccuracy > 0.0 {
            exact = workload.runtimes.clone();
            for (t, r) in workload.runtimes.iter_mut().enumerate() {
                *r = perturbed(*r, cfg.inaccuracy, seed, t as u32);
            }
        }
        Inaccuracy { on: cfg.inaccuracy_on, max: cfg.inaccuracy, seed, exact }
    }

    /// The runtime estimate a policy with known runtimes sees for task `task` of `w` (the run's workload).
    pub(super) fn estimate(&self, w: &Workload, task: u32) -> f64 {
        let r = w.runtimes[task as usize];
        match self.on {
            _ if self.max == 0.0 => r,
            InaccuracyOn::Estimate => perturbed(r, self.max, self.seed, task),
            InaccuracyOn::Runtime => self.exact[task as usize],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perturbed_values_by_hand() {
        // Seed 0, task 1: z = 0x9e3779b97f4a7c15 through splitmix64's mix gives u = 0.8833108082136426 (computed
        // apart, in Python); at I = 1000%, E = 1000·(2u − 1) = 766.62…, and R = 100 s becomes 866.62 s.
        assert_eq!(perturbed(100.0, 1000.0, 0, 1), 866.6216164272852);
        // Task 2: u = 0.43152799704850997; at I = 50%, E = −6.8472…: 93.15 s; at 1000%, E = −136.9: floored at 1 s.
        assert_eq!(perturbed(100.0, 50.0, 0, 2), 93.15279970485099);
        assert_eq!(perturbed(100.0, 1000.0, 0, 2), 1.0);
        // Task 0 of seed 0 hashes to 0: u = 0, E = −I, the floor.
        assert_eq!(perturbed(100.0, 10.0, 0, 0), 90.0);
    }

    #[test]
    fn mean_factor_by_hand() {
        // a = 10 (I = 1000%), R → ∞: (1 + 10)²/40 = 3.025. R = 1 s: (121 + 1 + 18)/40 = 3.5 = 1 + a/4.
        assert!((mean_factor(1000.0, 1e12) - 3.025).abs() < 1e-9);
        assert!((mean_factor(1000.0, 1.0) - 3.5).abs() < 1e-12);
        // a = 100 (I = 10 000%), R → ∞: 101²/400 = 25.5025.
        assert!((mean_factor(10_000.0, 1e12) - 25.5025).abs() < 1e-9);
        // I = 50%, R = 100 s: R(1 − a) = 50 ≥ 1, no floor, mean R.
        assert_eq!(mean_factor(50.0, 100.0), 1.0);
        // Continuous where the floor starts to bind: a = 0.5, R = 2 s, R(1 − a) = 1.
        assert!((mean_factor(50.0, 2.0 - 1e-9) - 1.0).abs() < 1e-8);
    }

    #[test]
    fn the_drawn_mean_factor_is_the_closed_form() {
        // Over 200 000 tasks the mean of max(R(1 + E/100), 1)/R estimates the closed form. At I = 1000% the
        // factor's spread is at most that of 1 + E/100 (sd 20/√12 = 5.8), so a standard error below 0.013; we
        // allow 0.06. The floor's mass is part of it: without the floor the mean would be 1.
        let n = 200_000u32;
        for (i, r) in [(1000.0, 1000.0), (1000.0, 1.0), (10_000.0, 50.0), (50.0, 100.0)] {
            let drawn = (0..n).map(|t| perturbed(r, i, 12_345, t)).sum::<f64>() / (f64::from(n) * r);
            let tolerance = 0.06 * (i / 1000.0).max(0.1);
            assert!((drawn - mean_factor(i, r)).abs() < tolerance, "I {i} R {r}: {drawn} vs {}", mean_factor(i, r));
        }
    }
}
