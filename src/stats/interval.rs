//! Means and 95% confidence intervals over seeds (Student's t), computed with `libm` only, so the page and the
//! CLI print the same bits.

/// t_{0.975, df} for df = 1..=30 (two-sided 95%), from the standard table.
const T975: [f64; 30] = [
    12.706204736,
    4.302652730,
    3.182446305,
    2.776445105,
    2.570581836,
    2.446911851,
    2.364624252,
    2.306004135,
    2.262157163,
    2.228138852,
    2.200985160,
    2.178812830,
    2.160368656,
    2.144786688,
    2.131449546,
    2.119905299,
    2.109815578,
    2.100922040,
    2.093024054,
    2.085963447,
    2.079613845,
    2.073873068,
    2.068657610,
    2.063898562,
    2.059538553,
    2.055529439,
    2.051830516,
    2.048407142,
    2.045229642,
    2.042272456,
];

/// The 0.975 quantile of Student's t with `df` degrees of freedom: the table up to 30, beyond it the
/// Cornish–Fisher expansion around the normal quantile (error below 10⁻⁶ there).
pub fn t975(df: usize) -> f64 {
    if df == 0 {
        return f64::NAN;
    }
    if df <= 30 {
        return T975[df - 1];
    }
    let z = 1.959_963_984_540_054_f64;
    let n = df as f64;
    let (z3, z5, z7) = (z * z * z, libm::pow(z, 5.0), libm::pow(z, 7.0));
    z + (z3 + z) / (4.0 * n)
        + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * n * n)
        + (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / (384.0 * n * n * n)
}

/// Mean and 95% interval of a sample.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    pub n: usize,
    pub mean: f64,
    /// Half-width t_{0.975, n−1} · s / √n; NaN for fewer than two values.
    pub half_width: f64,
}

impl Interval {
    /// Of the finite values (a run that finished no BoT has no mean makespan; it is left out and `n` says so).
    pub fn of(values: &[f64]) -> Interval {
        let v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
        let n = v.len();
        if n == 0 {
            return Interval { n, mean: f64::NAN, half_width: f64::NAN };
        }
        let mean = v.iter().sum::<f64>() / n as f64;
        if n < 2 {
            return Interval { n, mean, half_width: f64::NAN };
        }
        let var = v.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1) as f64;
        Interval { n, mean, half_width: t975(n - 1) * libm::sqrt(var / n as f64) }
    }

    pub fn low(&self) -> f64 {
        self.mean - self.half_width
    }

    pub fn high(&self) -> f64 {
        self.mean + self.half_width
    }

    /// Whether the interval has a value: at least one finite sample (a run that finished a BoT or a job).
    pub fn has_data(&self) -> bool {
        self.n > 0 && self.mean.is_finite()
    }

    /// True when the two intervals do not overlap (with NaN widths nothing is separated).
    pub fn separated_from(&self, other: &Interval) -> bool {
        self.high() < other.low() || other.high() < self.low()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fixed sample worked by hand: 2, 4, 4, 4, 5, 5, 7, 9 has mean 5, sample variance 32/7, s/√n =
    /// √(32/7)/√8 = √(4/7) = 0.7559289460, and t_{0.975,7} = 2.364624252, so the half-width is 1.787488.
    #[test]
    fn t_interval_of_a_hand_worked_sample() {
        let i = Interval::of(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]);
        assert_eq!(i.n, 8);
        assert_eq!(i.mean, 5.0);
        assert!((i.half_width - 2.364624252 * (4.0f64 / 7.0).sqrt()).abs() < 1e-12, "{}", i.half_width);
        assert!((i.half_width - 1.787488).abs() < 1e-6);
        // Two values: t_{0.975,1} = 12.706; mean 1.5, s = √0.5, half-width 12.706 · √0.5 / √2 = 6.353.
        let j = Interval::of(&[1.0, 2.0, f64::NAN]);
        assert_eq!(j.n, 2);
        assert!((j.half_width - 6.353102368).abs() < 1e-8);
        assert!(Interval::of(&[3.0]).half_width.is_nan());
    }

    #[test]
    fn t_quantile_is_continuous_past_the_table() {
        // Table values for df 40, 60, 120: 2.021075, 2.000298, 1.979930.
        for (df, want) in [(31, 2.039513), (40, 2.021075), (60, 2.000298), (120, 1.979930)] {
            assert!((t975(df) - want).abs() < 2e-6, "df {df}: {}", t975(df));
        }
    }
}
