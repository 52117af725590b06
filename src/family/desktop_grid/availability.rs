//! Machine availability of [Anglano09] §IV-A.2 and Table II: 15 machine groups, Weibull times to failure whose
//! mean is the group's MTTF, normal repair times; A_i = MTTF_i / (MTTF_i + MTTR_i) (Eq. 3).

use crate::engine::Rng;
use serde::{Deserialize, Serialize};

/// The availability level of a configuration ([Anglano09] Table II), or no failures at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AvailabilityLevel {
    /// Enterprise desktop grids: average availability 98%.
    High,
    /// 75%.
    Medium,
    /// Volunteer computing: 50%.
    Low,
    /// No failure ever (not in the paper; for tests and for comparison).
    AlwaysUp,
}

impl AvailabilityLevel {
    pub const ALL: [AvailabilityLevel; 4] =
        [AvailabilityLevel::High, AvailabilityLevel::Medium, AvailabilityLevel::Low, AvailabilityLevel::AlwaysUp];

    /// The name used in scenario files and sweeps.
    pub fn name(self) -> &'static str {
        match self {
            AvailabilityLevel::High => "high",
            AvailabilityLevel::Medium => "medium",
            AvailabilityLevel::Low => "low",
            AvailabilityLevel::AlwaysUp => "always_up",
        }
    }

    /// The MTTF column of Table II, seconds, groups 1–15 (empty for `AlwaysUp`).
    pub fn mttf(self) -> &'static [f64] {
        match self {
            AvailabilityLevel::High => &MTTF_HIGH,
            AvailabilityLevel::Medium => &MTTF_MEDIUM,
            AvailabilityLevel::Low => &MTTF_LOW,
            AvailabilityLevel::AlwaysUp => &[],
        }
    }

    /// Mean and standard deviation of the repair time, seconds ([Anglano09] §IV-A.2: "mean and variance ... 1800
    /// sec. and 300 sec." for High, "5400 sec. and 800 sec." otherwise; read as standard deviations,
    /// docs/desktop_grid.md).
    pub fn repair(self) -> (f64, f64) {
        match self {
            AvailabilityLevel::High => (1800.0, 300.0),
            AvailabilityLevel::Medium | AvailabilityLevel::Low => (5400.0, 800.0),
            AvailabilityLevel::AlwaysUp => (0.0, 0.0),
        }
    }
}

/// Table II, High-Avail MTTF (s), machine groups 1–15.
pub const MTTF_HIGH: [f64; 15] = [
    773119.0, 1044610.0, 997908.0, 816990.0, 330479.0, 1288810.0, 426508.0, 487921.0, 779938.0, 997908.0, 600641.0,
    331339.0, 315787.0, 319848.0, 407545.0,
];
/// Table II, Medium-Avail MTTF (s).
pub const MTTF_MEDIUM: [f64; 15] = [
    23193.60, 31338.40, 29937.20, 24509.70, 9914.37, 38664.20, 12795.20, 14637.60, 23398.20, 29937.20, 18019.20,
    9940.17, 9473.60, 9595.44, 12226.40,
];
/// Table II, Low-Avail MTTF (s).
pub const MTTF_LOW: [f64; 15] = [
    7731.19, 10446.10, 9979.08, 8169.90, 3304.79, 12888.10, 4265.08, 4879.21, 7799.38, 9979.08, 6006.41, 3313.39,
    3157.87, 3198.48, 4075.45,
];

/// The failure and repair law of one machine group.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GroupLaw {
    /// Mean time to failure, s.
    pub mttf: f64,
    /// Weibull shape k of the time to failure.
    pub shape: f64,
    /// Weibull scale λ = MTTF / Γ(1 + 1/k), so that the mean is the MTTF.
    pub scale: f64,
    /// Mean repair time, s.
    pub mttr: f64,
    /// Standard deviation of the repair time, s.
    pub repair_sd: f64,
}

impl GroupLaw {
    pub fn new(mttf: f64, shape: f64, mttr: f64, repair_sd: f64) -> GroupLaw {
        GroupLaw { mttf, shape, scale: mttf / libm::tgamma(1.0 + 1.0 / shape), mttr, repair_sd }
    }

    /// Asymptotic availability MTTF / (MTTF + MTTR) ([Anglano09] Eq. 3).
    pub fn availability(&self) -> f64 {
        self.mttf / (self.mttf + self.mttr)
    }

    /// A time to failure, s (Weibull by inversion, `libm` only).
    pub fn time_to_failure(&self, rng: &mut Rng) -> f64 {
        self.scale * libm::pow(-libm::log(rng.uniform_open0()), 1.0 / self.shape)
    }

    /// A repair time, s: normal, redrawn while not positive (docs/desktop_grid.md; with the paper's figures a
    /// redraw happens with probability below 10^-9).
    pub fn repair_time(&self, rng: &mut Rng) -> f64 {
        loop {
            let r = self.mttr + self.repair_sd * standard_normal(rng);
            if r > 0.0 {
                return r;
            }
        }
    }
}

/// A standard normal draw by Box–Muller (one of the pair; `libm` only).
fn standard_normal(rng: &mut Rng) -> f64 {
    let u1 = rng.uniform_open0();
    let u2 = rng.uniform();
    libm::sqrt(-2.0 * libm::log(u1)) * libm::cos(2.0 * std::f64::consts::PI * u2)
}

/// The group of machine `i`: machines are dealt to the 15 groups in turn (i mod groups), so 100 machines give
/// groups 1–10 seven machines and groups 11–15 six: the split that reproduces Table IV (docs/desktop_grid.md).
pub fn group_of(machine: usize, groups: usize) -> usize {
    machine % groups
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weibull_scale_gives_the_mttf_as_mean() {
        let g = GroupLaw::new(7731.19, 0.7, 5400.0, 800.0);
        let mut rng = Rng::new(3);
        let n = 200_000;
        let mean = (0..n).map(|_| g.time_to_failure(&mut rng)).sum::<f64>() / n as f64;
        // CV of W(0.7) is about 1.46: the standard error of the mean is 0.33% at n = 200 000.
        assert!((mean / 7731.19 - 1.0).abs() < 0.015, "mean {mean}");
        let r = (0..n).map(|_| g.repair_time(&mut rng)).sum::<f64>() / n as f64;
        assert!((r / 5400.0 - 1.0).abs() < 0.002, "repair mean {r}");
    }

    #[test]
    fn hundred_machines_split_seven_and_six() {
        let mut count = [0; 15];
        for m in 0..100 {
            count[group_of(m, 15)] += 1;
        }
        assert_eq!(count, [7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 6, 6, 6, 6, 6]);
    }
}
