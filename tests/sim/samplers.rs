//! Our samplers (src/workload/dist.rs, and the Zipf user draw of the generator) against rand_distr's independent
//! implementations of the same families: a two-sample Kolmogorov–Smirnov test per family, and the same test
//! against a wrongly parameterised rand_distr law to show it has the power to fail.
//!
//! rand_distr is a dev-dependency only: ours stay in the simulator because they are built on our xoshiro streams
//! and `libm`, so a scenario gives the same bits natively and in wasm32 and cannot move with a dependency upgrade
//! (ARCHITECTURE.md, "Why these choices"). Its generator here is rand's ChaCha-based StdRng, so the two sides share
//! neither the algorithm nor the uniform bits.

use bagsim::engine::Rng;
use bagsim::workload::dist::Dist;
use bagsim::workload::generate::{generate, ArrivalPattern, GenerateSpec};
use bagsim::workload::model::{BotModel, Calibration, Characteristic, UserModel};
use rand::rngs::StdRng;
use rand::SeedableRng;
use rand_distr::{Bernoulli, Distribution, Exp, Gamma, LogNormal, Normal, Uniform, Weibull, Zipf};

/// Draws per side.
const N: usize = 20_000;
/// Significance level of each test. With ~10 fixed-seed tests, a false alarm somewhere would have had ≈ 1% chance;
/// the seeds are fixed, so the outcome is deterministic either way.
const ALPHA: f64 = 0.001;

/// The two-sample KS statistic D = sup_x |F_a(x) − F_b(x)| of the empirical CDFs, exact with ties (both CDFs are
/// stepped past every copy of a value before they are compared).
fn ks2(a: &[f64], b: &[f64]) -> f64 {
    let (mut a, mut b) = (a.to_vec(), b.to_vec());
    a.sort_by(f64::total_cmp);
    b.sort_by(f64::total_cmp);
    let (n, m) = (a.len() as f64, b.len() as f64);
    let (mut i, mut j, mut d) = (0, 0, 0.0f64);
    while i < a.len() && j < b.len() {
        let x = a[i].min(b[j]);
        while i < a.len() && a[i] <= x {
            i += 1;
        }
        while j < b.len() && b[j] <= x {
            j += 1;
        }
        d = d.max((i as f64 / n - j as f64 / m).abs());
    }
    d
}

/// The critical value of D at level α for samples of n and m: c(α) · √((n + m)/(n·m)), c(α) = √(−ln(α/2) / 2)
/// (the asymptotic Kolmogorov distribution; for discrete laws the test is conservative, i.e. rejects less often).
fn critical(alpha: f64, n: usize, m: usize) -> f64 {
    let c = (-(alpha / 2.0).ln() / 2.0).sqrt();
    let (n, m) = (n as f64, m as f64);
    c * ((n + m) / (n * m)).sqrt()
}

fn ours(d: &Dist, seed: u64) -> Vec<f64> {
    let mut rng = Rng::new(seed);
    (0..N).map(|_| d.sample(&mut rng)).collect()
}

fn theirs(d: &impl Distribution<f64>, seed: u64) -> Vec<f64> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..N).map(|_| d.sample(&mut rng)).collect()
}

/// Ours agrees with the right law and is told apart from the wrong one.
fn check(name: &str, ours: &[f64], right: &[f64], wrong: &[f64]) {
    let crit = critical(ALPHA, ours.len(), right.len());
    let d = ks2(ours, right);
    assert!(d < crit, "{name}: D = {d:.4} ≥ critical {crit:.4}: ours differs from rand_distr");
    let d_wrong = ks2(ours, wrong);
    assert!(d_wrong > crit, "{name}: D = {d_wrong:.4} ≤ critical {crit:.4} against a wrong law: the test has no power");
}

#[test]
fn ks_helpers_by_hand() {
    // F_a and F_b differ most just after 1 (a: ½, b: 0) and just after 2 (a: 1, b: ⅓ … ½ at 3).
    assert_eq!(ks2(&[1.0, 2.0], &[2.5, 3.0, 4.0]), 1.0);
    assert_eq!(ks2(&[1.0, 2.0], &[1.0, 2.0]), 0.0);
    // Ties across samples: at 1 both CDFs step together (½ and ¼ … ¾ after the second 1).
    assert_eq!(ks2(&[1.0, 2.0], &[1.0, 1.0, 1.0, 3.0]), 0.25);
    // c(0.05) = 1.3581, the textbook value.
    assert!((critical(0.05, 1, 1) / 2f64.sqrt() - 1.358_1).abs() < 1e-4);
    // At our level and sizes: c(0.001) = 1.9495, D_crit = 1.9495 · √(2/20 000) = 0.0195.
    assert!((critical(ALPHA, N, N) - 0.019_495).abs() < 1e-5);
}

#[test]
fn normal() {
    let (mu, sigma) = (2.73, 6.1);
    check(
        "N(2.73, 6.1)",
        &ours(&Dist::Normal { mu, sigma }, 1),
        &theirs(&Normal::new(mu, sigma).unwrap(), 1),
        // The mean off by a fifth of σ.
        &theirs(&Normal::new(mu + 0.2 * sigma, sigma).unwrap(), 1),
    );
}

#[test]
fn log_normal() {
    let (mu, sigma) = (1.82, 0.34);
    check(
        "LN(1.82, 0.34)",
        &ours(&Dist::LogNormal { mu, sigma }, 2),
        &theirs(&LogNormal::new(mu, sigma).unwrap(), 2),
        // σ 25% too large.
        &theirs(&LogNormal::new(mu, 1.25 * sigma).unwrap(), 2),
    );
}

#[test]
fn gamma_shape_below_one() {
    // Both use the boost G(k) = G(k + 1) · U^(1/k) over Marsaglia–Tsang, but rand_distr's normal draws come from
    // its ziggurat, ours from Box–Muller: the same algorithm, written and fed independently.
    let (shape, scale) = (0.3, 2.0);
    check(
        "G(0.3, 2)",
        &ours(&Dist::Gamma { shape, scale }, 3),
        &theirs(&Gamma::new(shape, scale).unwrap(), 3),
        &theirs(&Gamma::new(1.25 * shape, scale).unwrap(), 3),
    );
}

#[test]
fn gamma_shape_above_one() {
    let (shape, scale) = (2.47, 1.64);
    check(
        "G(2.47, 1.64)",
        &ours(&Dist::Gamma { shape, scale }, 4),
        &theirs(&Gamma::new(shape, scale).unwrap(), 4),
        // The scale 10% too large.
        &theirs(&Gamma::new(shape, 1.1 * scale).unwrap(), 4),
    );
}

#[test]
fn weibull() {
    // rand_distr's constructor is Weibull::new(scale, shape): the wrong law is the easy slip of swapping them.
    let (shape, scale) = (1.76, 2.11);
    check(
        "W(1.76, 2.11)",
        &ours(&Dist::Weibull { shape, scale }, 5),
        &theirs(&Weibull::new(scale, shape).unwrap(), 5),
        &theirs(&Weibull::new(shape, scale).unwrap(), 5),
    );
}

#[test]
fn exponential() {
    // Ours takes the mean, rand_distr the rate.
    let mean = 3.0;
    check(
        "Exp(3)",
        &ours(&Dist::Exponential { mean }, 6),
        &theirs(&Exp::new(1.0 / mean).unwrap(), 6),
        &theirs(&Exp::new(1.0 / (1.15 * mean)).unwrap(), 6),
    );
}

/// A two-phase hyper-exponential built from rand_distr's parts: Bernoulli(p) picks Exp(1/mean1) or Exp(1/mean2).
struct HyperExp {
    pick: Bernoulli,
    first: Exp<f64>,
    second: Exp<f64>,
}

impl HyperExp {
    fn new(p: f64, mean1: f64, mean2: f64) -> Self {
        HyperExp {
            pick: Bernoulli::new(p).unwrap(),
            first: Exp::new(1.0 / mean1).unwrap(),
            second: Exp::new(1.0 / mean2).unwrap(),
        }
    }
}

impl Distribution<f64> for HyperExp {
    fn sample<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> f64 {
        if self.pick.sample(rng) {
            self.first.sample(rng)
        } else {
            self.second.sample(rng)
        }
    }
}

#[test]
fn hyper_exponential() {
    let (p, mean1, mean2) = (0.4, 1.0, 9.0);
    check(
        "HExp(0.4, 1, 9)",
        &ours(&Dist::HyperExponential { p, mean1, mean2 }, 7),
        &theirs(&HyperExp::new(p, mean1, mean2), 7),
        // One phase in ten more often the short one.
        &theirs(&HyperExp::new(p + 0.1, mean1, mean2), 7),
    );
}

#[test]
fn uniform() {
    let (low, high) = (2.0, 5.0);
    check(
        "U(2, 5)",
        &ours(&Dist::Uniform { low, high }, 8),
        &theirs(&Uniform::new(low, high).unwrap(), 8),
        &theirs(&Uniform::new(low, high + 0.3).unwrap(), 8),
    );
}

/// The users of `n_bots` BoTs as the generator draws them (one uniform of the `users` stream per BoT, inverted
/// through the Z(α, n) CDF): one BoT per second, size 1, no daily cycle.
fn generated_ranks(alpha: f64, n: u32, n_bots: usize, seed: u64) -> Vec<f64> {
    let model = BotModel {
        users: UserModel { alpha, n },
        iat: Characteristic::plain(Dist::Constant { value: 1.0 }),
        daily_cycle: None,
        size: Characteristic::plain(Dist::Constant { value: 1.0 }),
        art: Characteristic::plain(Dist::Constant { value: 60.0 }),
        rtv: Characteristic::plain(Dist::Constant { value: 0.0 }),
    };
    let spec = GenerateSpec {
        model: &model,
        load: None,
        capacity: 1.0,
        // Arrivals at 1, 2, … s: n_bots of them before the end of the period.
        submission_period: n_bots as f64 + 0.5,
        pattern: ArrivalPattern::Realistic,
        median_size: None,
        mean_runtime: None,
        max_size: 1,
        calibration: Calibration::Seconds,
        runtime_law: bagsim::workload::task_law::TaskRuntimeLaw::Gamma,
        seed,
    };
    let w = generate(&spec).unwrap().workload;
    assert_eq!(w.bots.len(), n_bots);
    w.bots.iter().map(|b| f64::from(b.user + 1)).collect()
}

#[test]
fn zipf_users() {
    // Z(1.31, 368): a Table-3-like user law; the wrong one has α = 1.2.
    let (alpha, n) = (1.31, 368);
    check(
        "Z(1.31, 368)",
        &generated_ranks(alpha, n, N, 9),
        &theirs(&Zipf::new(f64::from(n), alpha).unwrap(), 9),
        &theirs(&Zipf::new(f64::from(n), 1.2).unwrap(), 9),
    );
}
