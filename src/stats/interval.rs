//! Means and 95% confidence intervals over seeds, computed with `libm` only, so the page and the CLI print the
//! same bits.
//!
//! Why not Student's t for everything: the metrics we average over seeds (slowdowns, waits, makespans) are
//! positive and skewed, and we have 2–10 seeds. There the t interval is too short and goes below zero: drawing
//! lognormal samples of known mean (20 000 each), its coverage at n = 5 is 0.92 at σ = 0.5, 0.82 at σ = 1, 0.68
//! at σ = 1.5 and 0.53 at σ = 2 (0.71 at n = 10, σ = 1.5), and at σ ≥ 1 it reaches below 0 in 50–90% of the
//! samples. The *modified Cox interval* for the mean of a lognormal (Armstrong 1992; Zhou & Gao 1997; Olsson
//! 2005) covers 0.95, 0.93, 0.92 and 0.91 in the same cases (0.93 at n = 10, σ = 1.5), is positive, asymmetric
//! like the data, and targets the arithmetic mean, which stays our point estimate (it never fell outside the
//! interval). So:
//! - `Interval::of`, for a nonnegative quantity: with every value > 0, with y = ln x,
//!   `exp(ȳ + s²/2 ± t_{0.975,n−1} · √(s²/n + s⁴/(2(n−1))))`; with a value 0 (no task waited in a seed), the t
//!   interval intersected with [0, ∞) (intersecting an interval with the parameter space keeps its coverage).
//! - `Interval::of_share`, for a share bounded above (utilization, a fraction): the t interval within [0, max].
//! - `Interval::of_signed`, for a quantity of either sign (a difference, a growth rate): the plain t interval.
//!
//! Fewer than two values give no interval (NaN bounds).

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

/// Mean and 95% interval of a sample; the interval need not be symmetric about the mean.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    pub n: usize,
    /// The sample mean (the point estimate whichever interval is built).
    pub mean: f64,
    /// Lower and upper bounds; NaN for fewer than two values.
    pub low: f64,
    pub high: f64,
}

/// The finite values (a run that finished no BoT has no mean makespan; it is left out and `n` says so).
fn finite(values: &[f64]) -> Vec<f64> {
    values.iter().copied().filter(|x| x.is_finite()).collect()
}

/// Mean and sample variance of `v` (NaN variance below two values).
fn mean_var(v: &[f64]) -> (f64, f64) {
    let n = v.len() as f64;
    let mean = v.iter().sum::<f64>() / n;
    let var = if v.len() < 2 { f64::NAN } else { v.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0) };
    (mean, var)
}

impl Interval {
    /// No value at all.
    fn empty() -> Interval {
        Interval { n: 0, mean: f64::NAN, low: f64::NAN, high: f64::NAN }
    }

    /// The t interval mean ± t_{0.975,n−1} · s/√n within [lo, hi] (NaN bounds below two values).
    fn t_within(values: &[f64], lo: f64, hi: f64) -> Interval {
        let v = finite(values);
        if v.is_empty() {
            return Interval::empty();
        }
        let n = v.len();
        let (mean, var) = mean_var(&v);
        if n < 2 {
            return Interval { n, mean, low: f64::NAN, high: f64::NAN };
        }
        let hw = t975(n - 1) * libm::sqrt(var / n as f64);
        Interval { n, mean, low: (mean - hw).max(lo), high: (mean + hw).min(hi) }
    }

    /// For a nonnegative quantity: the modified Cox interval when every value is positive, else the t interval
    /// within [0, ∞) (module doc). A negative value means the quantity is not nonnegative: the plain t interval.
    pub fn of(values: &[f64]) -> Interval {
        let v = finite(values);
        let n = v.len();
        if n < 2 || v.iter().any(|&x| x <= 0.0) {
            let lo = if v.iter().any(|&x| x < 0.0) { f64::NEG_INFINITY } else { 0.0 };
            return Interval::t_within(&v, lo, f64::INFINITY);
        }
        let mean = v.iter().sum::<f64>() / n as f64;
        let logs: Vec<f64> = v.iter().map(|&x| libm::log(x)).collect();
        let (ybar, s2) = mean_var(&logs);
        let nf = n as f64;
        let spread = t975(n - 1) * libm::sqrt(s2 / nf + s2 * s2 / (2.0 * (nf - 1.0)));
        let centre = ybar + s2 / 2.0;
        Interval { n, mean, low: libm::exp(centre - spread), high: libm::exp(centre + spread) }
    }

    /// For a share bounded above by `max` (a utilization, a fraction of tasks): the t interval within [0, max].
    pub fn of_share(values: &[f64], max: f64) -> Interval {
        Interval::t_within(values, 0.0, max)
    }

    /// For a quantity of either sign (a difference, a growth rate): the plain t interval.
    pub fn of_signed(values: &[f64]) -> Interval {
        Interval::t_within(values, f64::NEG_INFINITY, f64::INFINITY)
    }

    /// Whether the interval has bounds (at least two finite values).
    pub fn has_bounds(&self) -> bool {
        self.low.is_finite() && self.high.is_finite()
    }

    /// The larger distance from the mean to a bound (the half-width of a symmetric interval); NaN without bounds.
    pub fn reach(&self) -> f64 {
        (self.mean - self.low).max(self.high - self.mean)
    }

    /// Whether the interval has a value: at least one finite sample (a run that finished a BoT or a job).
    pub fn has_data(&self) -> bool {
        self.n > 0 && self.mean.is_finite()
    }

    /// True when the two intervals do not overlap (without bounds nothing is separated).
    pub fn separated_from(&self, other: &Interval) -> bool {
        self.high < other.low || other.high < self.low
    }

    /// How many seeds each would need for two overlapping intervals to part, if their means and spreads held: the
    /// reaches that face each other (from each mean towards the other's) shrink as t_{0.975,n−1}/√n does, and the
    /// first n up to [`MAX_PROJECTED_SEEDS`] at which their sum falls below the gap between the means is the answer.
    /// A projection for planning, not a promise (the means move as seeds are added). None when the intervals are
    /// already apart, either has no bounds, the means are equal, or it takes more than the cap.
    pub fn seeds_to_part(&self, other: &Interval) -> Option<usize> {
        if self.separated_from(other) || !self.has_bounds() || !other.has_bounds() {
            return None;
        }
        let (lo, hi) = if self.mean <= other.mean { (self, other) } else { (other, self) };
        let gap = hi.mean - lo.mean;
        if gap.is_nan() || gap <= 0.0 {
            return None;
        }
        // The reach of `i` at m seeds, scaled from its own n.
        let at = |i: &Interval, reach: f64, m: usize| {
            reach * t975(m - 1) / t975(i.n - 1) * libm::sqrt(i.n as f64 / m as f64)
        };
        let (up, down) = (lo.high - lo.mean, hi.mean - hi.low);
        (lo.n.max(hi.n) + 1..=MAX_PROJECTED_SEEDS).find(|&m| at(lo, up, m) + at(hi, down, m) < gap)
    }
}

/// The most seeds [`Interval::seeds_to_part`] projects to.
pub const MAX_PROJECTED_SEEDS: usize = 1000;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Rng;

    /// Two t intervals of 5 seeds, means 10 and 12, each reaching 2 (so they overlap by 2): at m seeds each reach is
    /// 2 · t(m−1)/t(4) · √(5/m); the sum falls below the gap 2 where t(m−1)/√m < t(4)/(2√5) = 2.776445/4.472136 =
    /// 0.620829. t(15)/√16 = 2.131450/4 = 0.532862 < 0.620829 and t(12)/√13 = 2.178813/3.605551 = 0.604293 <
    /// 0.620829, t(11)/√12 = 2.200985/3.464102 = 0.635370 > 0.620829: 13 seeds.
    #[test]
    fn seeds_to_part_two_overlapping_intervals_by_hand() {
        let a = Interval { n: 5, mean: 10.0, low: 8.0, high: 12.0 };
        let b = Interval { n: 5, mean: 12.0, low: 10.0, high: 14.0 };
        assert_eq!(a.seeds_to_part(&b), Some(13));
        assert_eq!(b.seeds_to_part(&a), Some(13), "symmetric");
        // Apart already, equal means, no bounds: no projection.
        let c = Interval { n: 5, mean: 20.0, low: 19.0, high: 21.0 };
        assert_eq!(a.seeds_to_part(&c), None);
        assert_eq!(a.seeds_to_part(&Interval { n: 5, mean: 10.0, low: 9.0, high: 11.0 }), None);
        assert_eq!(a.seeds_to_part(&Interval { n: 1, mean: 11.0, low: f64::NAN, high: f64::NAN }), None);
        // Barely different means need more than the cap.
        let d = Interval { n: 5, mean: 10.0001, low: 8.0, high: 12.0 };
        assert_eq!(a.seeds_to_part(&d), None);
        // The projection is where the scaled reaches first fit: one seed fewer does not.
        let at = |m: usize| 2.0 * t975(m - 1) / t975(4) * (5.0 / m as f64).sqrt();
        assert!(at(13) * 2.0 < 2.0 && at(12) * 2.0 >= 2.0);
    }

    /// A fixed sample worked by hand: 2, 4, 4, 4, 5, 5, 7, 9 has mean 5, sample variance 32/7, s/√n =
    /// √(32/7)/√8 = √(4/7) = 0.7559289460, and t_{0.975,7} = 2.364624252, so the half-width is 1.787488.
    #[test]
    fn t_interval_of_a_hand_worked_sample() {
        let i = Interval::of_signed(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]);
        assert_eq!(i.n, 8);
        assert_eq!(i.mean, 5.0);
        assert!((i.high - 5.0 - 2.364624252 * (4.0f64 / 7.0).sqrt()).abs() < 1e-12, "{}", i.high);
        assert!((i.reach() - 1.787488).abs() < 1e-6);
        assert!((5.0 - i.low - 1.787488).abs() < 1e-6);
        // Two values: t_{0.975,1} = 12.706; mean 1.5, s = √0.5, half-width 12.706 · √0.5 / √2 = 6.353.
        let j = Interval::of_signed(&[1.0, 2.0, f64::NAN]);
        assert_eq!(j.n, 2);
        assert!((j.reach() - 6.353102368).abs() < 1e-8);
        for one in [Interval::of(&[3.0]), Interval::of_signed(&[3.0]), Interval::of_share(&[0.3], 1.0)] {
            assert_eq!(one.n, 1);
            assert!(one.low.is_nan() && one.high.is_nan() && !one.has_bounds());
        }
    }

    /// Values 1, e, e²: y = 0, 1, 2, so ȳ = 1 and s² = ((−1)² + 0 + 1²)/2 = 1; n = 3, t_{0.975,2} = 4.302652730.
    /// The centre is ȳ + s²/2 = 1.5 and the spread 4.302652730 · √(1/3 + 1/(2·2)) = 4.302652730 · √(7/12) =
    /// 4.302652730 · 0.763762616 = 3.286205; bounds exp(1.5 − 3.286205) = exp(−1.786205) = 0.167595 and
    /// exp(4.786205) = 119.846. The mean stays the arithmetic one, (1 + 2.718282 + 7.389056)/3 = 3.702446.
    #[test]
    fn cox_interval_of_a_hand_worked_sample() {
        let e = std::f64::consts::E;
        let i = Interval::of(&[1.0, e, e * e]);
        assert_eq!(i.n, 3);
        assert!((i.mean - 3.702_446).abs() < 1e-6, "{}", i.mean);
        let spread = 4.302652730 * (7.0f64 / 12.0).sqrt();
        assert!((spread - 3.286205).abs() < 1e-6);
        assert!((i.low - (1.5 - spread).exp()).abs() < 1e-9 && (i.low - 0.167595).abs() < 1e-6, "{}", i.low);
        assert!((i.high - (1.5 + spread).exp()).abs() < 1e-9 && (i.high - 119.846).abs() < 1e-3, "{}", i.high);
        // The same values with a t interval: mean 3.702 ± 4.3027 · s/√3 reaches below zero.
        assert!(Interval::of_signed(&[1.0, e, e * e]).low < 0.0);
    }

    /// A nonnegative sample with a zero takes the t interval cut at 0; a share never leaves [0, max].
    #[test]
    fn zeros_and_shares_stay_in_their_range() {
        // 0, 1, 10: mean 3.667, s = 5.508, t_{0.975,2} · s/√3 = 13.68 — the t interval reaches to −10.
        let z = Interval::of(&[0.0, 1.0, 10.0]);
        assert_eq!(z.low, 0.0);
        assert!((z.high - (11.0 / 3.0 + 4.302652730 * (91.0f64 / 3.0).sqrt() / 3.0f64.sqrt())).abs() < 1e-9);
        assert!(Interval::of(&[0.0, 0.0]).low == 0.0 && Interval::of(&[0.0, 0.0]).high == 0.0);
        let s = Interval::of_share(&[0.99, 0.5, 0.98], 1.0);
        assert_eq!(s.high, 1.0);
        assert!(s.low > 0.0 && s.low < s.mean);
        let p = Interval::of_share(&[1.0, 60.0, 2.0], 100.0);
        assert_eq!(p.low, 0.0);
        // A quantity with a negative value is not nonnegative: `of` gives the plain t interval.
        assert_eq!(Interval::of(&[-1.0, 1.0, 3.0]), Interval::of_signed(&[-1.0, 1.0, 3.0]));
    }

    /// A standard normal draw (Box–Muller on our own stream).
    fn normal(r: &mut Rng) -> f64 {
        let (u, v) = (r.uniform_open0(), r.uniform());
        libm::sqrt(-2.0 * libm::log(u)) * libm::cos(2.0 * std::f64::consts::PI * v)
    }

    /// Coverage of the true mean by the modified Cox and the t interval over `reps` lognormal samples of size `n`
    /// (ln x ~ N(0, σ²), so the mean is exp(σ²/2)), and how often the t interval reaches below zero.
    fn coverage(sigma: f64, n: usize, reps: usize) -> (f64, f64, f64) {
        let mut r = Rng::stream(45, &format!("coverage {sigma} {n}"));
        let truth = libm::exp(sigma * sigma / 2.0);
        let (mut cox, mut t, mut below) = (0, 0, 0);
        for _ in 0..reps {
            let x: Vec<f64> = (0..n).map(|_| libm::exp(sigma * normal(&mut r))).collect();
            let (c, s) = (Interval::of(&x), Interval::of_signed(&x));
            cox += usize::from(c.low <= truth && truth <= c.high);
            t += usize::from(s.low <= truth && truth <= s.high);
            below += usize::from(s.low < 0.0);
            assert!(c.low > 0.0 && c.low <= c.mean && c.mean <= c.high, "{c:?}");
        }
        let f = |k: usize| k as f64 / reps as f64;
        (f(cox), f(t), f(below))
    }

    /// Why `of` is the Cox interval: on skewed positive samples of 5 and 10 its coverage stays near 95% where the
    /// t interval's falls (and reaches below zero). 3 000 samples a case: a binomial standard error near 0.005.
    #[test]
    fn cox_covers_the_lognormal_mean_where_t_does_not() {
        for (sigma, n) in [(0.5, 5), (0.5, 10), (1.0, 5), (1.0, 10), (1.5, 5), (1.5, 10)] {
            let (cox, t, below) = coverage(sigma, n, 3000);
            eprintln!("σ {sigma}, n {n}: Cox covers {cox:.3}, t {t:.3}; t below zero in {below:.3}");
            assert!((0.88..=0.98).contains(&cox), "σ {sigma}, n {n}: Cox covers {cox}");
            if sigma >= 1.0 {
                assert!(t < cox - 0.03, "σ {sigma}, n {n}: t covers {t}, Cox {cox}");
            }
            if sigma >= 1.5 {
                assert!(t < 0.85, "σ {sigma}, n {n}: t covers {t}");
            }
            if sigma >= 1.0 && n == 5 {
                assert!(below > 0.3, "σ {sigma}, n {n}: t below zero in {below}");
            }
        }
    }

    #[test]
    fn t_quantile_is_continuous_past_the_table() {
        // Table values for df 40, 60, 120: 2.021075, 2.000298, 1.979930.
        for (df, want) in [(31, 2.039513), (40, 2.021075), (60, 2.000298), (120, 1.979930)] {
            assert!((t975(df) - want).abs() < 2e-6, "df {df}: {}", t975(df));
        }
    }
}
