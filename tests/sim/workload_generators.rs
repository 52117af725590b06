//! The Login/Logout generator ([Medernach05] §5) against the paper's closed forms, the Minh–Wolters generator
//! ([Minh10] Algorithm 1) against its Zipf law and its BoT rule, their determinism, their load target, and runs of
//! both end to end.
//!
//! Intervals: a mean is checked with the normal interval x̄ ± 4 s/√n; the CV² of Eq. 5.34 with the delta method
//! (the sample CV² = m2/m1² − 1 is a smooth function of the sample moments m1 = mean X, m2 = mean X², whose
//! covariance is estimated from the same sample), ± 4 standard errors; a law over integers with Pearson's
//! chi-square (bins with at least 5 expected, the tail pooled), p-value from the regularized gamma function,
//! rejected below 0.001; a continuous law with the Kolmogorov–Smirnov distance against 1.95/√n (its 0.001 level).
//! The expected values are computed here from the papers' equations, not taken from the generators. The checks of
//! Eq. 5.31, 5.34 and 5.37 also assert that their interval is narrow (5–10% of the value), so a formula off by more
//! than that fails.

use bagsim::engine::Model;
use bagsim::engine::Rng;
use bagsim::error::ErrorKind;
use bagsim::family::multi_cluster::platform::Cluster;
use bagsim::registry::Family;
use bagsim::run;
use bagsim::scenario::{params, McScenario};
use bagsim::workload::dist::{regularized_gamma_p, Dist};
use bagsim::workload::generators::Generator;
use bagsim::workload::login_logout::{sessions, LoginLogout, UserRates};
use bagsim::workload::minh_wolters::MinhWolters;
use bagsim::workload::streams::cluster_seed;

fn user(lambda: f64, delta: f64, mu: f64) -> UserRates {
    UserRates { name: String::new(), lambda, delta, mu }
}

/// The four Biomed users of [Medernach05] Fig. 10 as printed (μ, δ, λ), and a user who never logs out.
fn users_under_test() -> Vec<UserRates> {
    vec![
        user(2.1e-4, 0.02079, 0.0837),
        user(1.2e-4, 0.01188, 0.0620),
        user(2.5e-4, 0.02475, 0.0832),
        user(1.075e-4, 1.4285e-3, 0.0365),
        user(1e-3, 0.0, 0.01),
    ]
}

fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len() as f64
}

/// (mean, half-width of the normal interval at ±4 standard errors).
fn mean_interval(xs: &[f64]) -> (f64, f64) {
    let m = mean(xs);
    let var = xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (xs.len() - 1) as f64;
    (m, 4.0 * (var / xs.len() as f64).sqrt())
}

/// (sample CV², half-width at ±4 delta-method standard errors).
fn cv2_interval(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let m1 = mean(xs);
    let m2 = xs.iter().map(|x| x * x).sum::<f64>() / n;
    let (mut s11, mut s12, mut s22) = (0.0, 0.0, 0.0);
    for x in xs {
        let (a, b) = (x - m1, x * x - m2);
        s11 += a * a;
        s12 += a * b;
        s22 += b * b;
    }
    let (s11, s12, s22) = (s11 / n, s12 / n, s22 / n);
    // g(m1, m2) = m2 / m1² − 1.
    let (g1, g2) = (-2.0 * m2 / (m1 * m1 * m1), 1.0 / (m1 * m1));
    let var = (g1 * g1 * s11 + 2.0 * g1 * g2 * s12 + g2 * g2 * s22) / n;
    (m2 / (m1 * m1) - 1.0, 4.0 * var.sqrt())
}

/// Pearson's chi-square of integer draws against `pmf` from `first` up: one bin per value while it and the rest
/// expect at least 5, then the tail. Returns (statistic, degrees of freedom, p-value).
fn chi_square(sample: &[u64], first: u64, pmf: impl Fn(u64) -> f64) -> (f64, usize, f64) {
    let n = sample.len() as f64;
    let mut probs = Vec::new();
    let mut cum = 0.0;
    let mut k = first;
    loop {
        let p = pmf(k);
        if n * p < 5.0 || n * (1.0 - cum - p) < 5.0 {
            break;
        }
        probs.push(p);
        cum += p;
        k += 1;
    }
    probs.push(1.0 - cum);
    let mut observed = vec![0u64; probs.len()];
    for &x in sample {
        assert!(x >= first, "draw {x} below {first}");
        observed[((x - first) as usize).min(probs.len() - 1)] += 1;
    }
    let stat: f64 = observed.iter().zip(&probs).map(|(&o, &p)| (o as f64 - n * p).powi(2) / (n * p)).sum();
    let df = probs.len() - 1;
    assert!(df >= 3, "too few bins ({df} degrees of freedom) for a test that can fail");
    (stat, df, 1.0 - regularized_gamma_p(df as f64 / 2.0, stat / 2.0))
}

fn group(users: Vec<UserRates>) -> LoginLogout {
    LoginLogout { users, ..LoginLogout::default() }
}

/// The inter-arrival times of a one-user group over a period holding about `n` of them (no load target).
fn interarrivals(u: &UserRates, n: f64, seed: u64) -> Vec<f64> {
    let expected_mean = (u.lambda + u.delta) / (u.lambda * u.mu);
    let g = Generator::LoginLogout(group(vec![u.clone()]));
    let w = g.generate(seed, None, 1.0, n * expected_mean).unwrap().workload;
    w.bots.windows(2).map(|p| p[1].arrival - p[0].arrival).collect()
}

#[test]
fn login_logout_mean_interarrival_is_eq_5_31() {
    for (i, u) in users_under_test().iter().enumerate() {
        let iat = interarrivals(u, 300_000.0, 10 + i as u64);
        // Eq. 5.31: Ã = (λ + δ) / (λ μ).
        let expected = (u.lambda + u.delta) / (u.lambda * u.mu);
        let (m, half) = mean_interval(&iat);
        assert!(half < 0.05 * expected, "user {i}: interval ±{half} too wide for {expected}");
        assert!((m - expected).abs() < half, "user {i}: mean IAT {m} ± {half}, Eq. 5.31 gives {expected}");
    }
}

#[test]
fn login_logout_cv2_of_interarrivals_is_eq_5_34() {
    for (i, u) in users_under_test().iter().enumerate() {
        let iat = interarrivals(u, 300_000.0, 20 + i as u64);
        // Eq. 5.34: CV² = 1 + 2 δ μ / (λ + δ)².
        let expected = 1.0 + 2.0 * u.delta * u.mu / (u.lambda + u.delta).powi(2);
        let (cv2, half) = cv2_interval(&iat);
        assert!(half < 0.1 * expected, "user {i}: interval ±{half} too wide for {expected}");
        assert!((cv2 - expected).abs() < half, "user {i}: CV² {cv2} ± {half}, Eq. 5.34 gives {expected}");
    }
}

#[test]
fn login_logout_jobs_per_login_are_geometric_eq_5_37() {
    for (i, u) in users_under_test().iter().enumerate().filter(|(_, u)| u.delta > 0.0) {
        let seed = 30 + i as u64;
        let cycle = 1.0 / u.lambda + 1.0 / u.delta;
        let until = 60_000.0 * cycle;
        let s = sessions(u, &mut Rng::stream(seed, "arrivals-user-0"), until).unwrap();
        // These are the sessions the generator uses: its jobs are theirs.
        let g = Generator::LoginLogout(group(vec![u.clone()]));
        let w = g.generate(seed, None, 1.0, 200.0 * cycle).unwrap().workload;
        let jobs: Vec<f64> = s.iter().flat_map(|x| x.jobs.iter().copied()).take(w.bots.len()).collect();
        assert_eq!(jobs, w.bots.iter().map(|b| b.arrival).collect::<Vec<_>>(), "user {i}");
        // Whole login periods only (the last one may be cut by `until`).
        let whole: Vec<_> = s.iter().filter(|x| x.logout < until).collect();
        assert!(whole.len() > 50_000, "user {i}: {} login periods", whole.len());
        let counts: Vec<u64> = whole.iter().map(|x| x.jobs.len() as u64).collect();
        // Eq. 5.37: P_n = δ/(μ + δ) · (μ/(μ + δ))^n.
        let r = u.mu / (u.mu + u.delta);
        let (stat, df, p) = chi_square(&counts, 0, |n| (1.0 - r) * r.powi(n as i32));
        assert!(p > 1e-3, "user {i}: chi-square {stat} on {df} df, p = {p}");
        // Its mean μ/δ.
        let (m, half) = mean_interval(&counts.iter().map(|&c| c as f64).collect::<Vec<_>>());
        let expected = u.mu / u.delta;
        assert!(half < 0.05 * expected && (m - expected).abs() < half, "user {i}: {m} ± {half} vs {expected}");
        // Login periods last Exp(δ), logout periods Exp(λ).
        let logins: Vec<f64> = whole.iter().map(|x| x.logout - x.login).collect();
        let (m, half) = mean_interval(&logins);
        assert!((m - 1.0 / u.delta).abs() < half, "user {i}: login time {m} ± {half} vs 1/δ");
        let logouts: Vec<f64> = s.windows(2).map(|p| p[1].login - p[0].logout).collect();
        let (m, half) = mean_interval(&logouts);
        assert!((m - 1.0 / u.lambda).abs() < half, "user {i}: logout time {m} ± {half} vs 1/λ");
    }
}

#[test]
fn login_logout_starts_in_the_stationary_state_eq_5_12() {
    for u in [user(1.075e-4, 1.4285e-3, 0.0365), user(2e-3, 1e-3, 0.1)] {
        let n = 20_000;
        let logged_in = (0..n)
            .filter(|&seed| {
                sessions(&u, &mut Rng::stream(seed, "arrivals-user-0"), 1.0)
                    .unwrap()
                    .first()
                    .is_some_and(|s| s.login == 0.0)
            })
            .count();
        let p = u.lambda / (u.lambda + u.delta);
        let half = 4.0 * (p * (1.0 - p) / n as f64).sqrt();
        let share = logged_in as f64 / n as f64;
        assert!((share - p).abs() < half, "{share} logged in at t = 0, P_Login = {p} ± {half}");
    }
}

#[test]
fn login_logout_is_deterministic_and_users_are_independent() {
    let base = LoginLogout::default();
    let period = 30.0 * 86_400.0;
    let run = |g: &LoginLogout, seed: u64, load: Option<f64>| {
        Generator::LoginLogout(g.clone()).generate(seed, load, 50.0, period).unwrap()
    };
    let a = run(&base, 7, None).workload;
    assert!(a.bots.len() > 1000, "{} jobs", a.bots.len());
    assert_eq!(a, run(&base, 7, None).workload);
    assert_ne!(a.bots, run(&base, 8, None).workload.bots);
    let mut changed = base.clone();
    changed.users[1].mu *= 3.0;
    changed.users[1].delta *= 0.5;
    let b = run(&changed, 7, None).workload;
    let of = |w: &bagsim::workload::Workload, u: u32| -> Vec<(f64, f64)> {
        w.bots.iter().filter(|x| x.user == u).map(|x| (x.arrival, w.runtimes[x.first_task as usize])).collect()
    };
    assert_ne!(of(&a, 1), of(&b, 1));
    for u in [0, 2, 3] {
        assert!(!of(&a, u).is_empty());
        assert_eq!(of(&a, u), of(&b, u), "user {u} moved when user 1 changed");
    }
    // With a load target every arrival shares one factor, which depends on the whole group's work: in the model's
    // clock (arrival / factor) the other users' jobs are still the same.
    let (la, lb) = (run(&base, 7, Some(0.3)), run(&changed, 7, Some(0.3)));
    assert_ne!(la.iat_scale, lb.iat_scale);
    for u in [0, 2, 3] {
        let (x, y) = (of(&la.workload, u), of(&lb.workload, u));
        let n = x.len().min(y.len());
        assert!(n > 100);
        for ((ta, ra), (tb, rb)) in x[..n].iter().zip(&y[..n]) {
            assert!((ta / la.iat_scale - tb / lb.iat_scale).abs() <= 1e-9 * ta / la.iat_scale, "user {u}");
            assert_eq!(ra, rb);
        }
    }
}

/// P(size = s) of Z(α, n), computed here.
fn zipf_pmf(alpha: f64, n: u32) -> impl Fn(u64) -> f64 {
    let h: f64 = (1..=n).map(|s| f64::from(s).powf(-alpha)).sum();
    move |s| if s >= 1 && s <= u64::from(n) { (s as f64).powf(-alpha) / h } else { 0.0 }
}

#[test]
fn minh_wolters_bot_sizes_follow_the_zipf_law_when_every_gap_joins() {
    // Gaps of 1 s ≤ Δ: every BoT runs to its Zipf size.
    let g = MinhWolters { iat: Dist::Constant { value: 1.0 }, ..MinhWolters::default() };
    let w = g.workload(41, 280_000.0).unwrap();
    assert!(w.bots.len() > 150_000, "{} BoTs", w.bots.len());
    let sizes: Vec<u64> = w.bots.iter().map(|b| u64::from(b.size)).collect();
    let (stat, df, p) = chi_square(&sizes, 1, zipf_pmf(g.bot_size.alpha, g.bot_size.n));
    assert!(p > 1e-3, "chi-square {stat} on {df} df, p = {p}");
    // The law differs enough from a neighbouring exponent for this sample to tell them apart.
    let (_, _, p_other) = chi_square(&sizes, 1, zipf_pmf(g.bot_size.alpha - 0.1, g.bot_size.n));
    assert!(p_other < 1e-6, "α − 0.1 not rejected: p = {p_other}");
}

#[test]
fn minh_wolters_realised_sizes_are_the_zipf_draw_cut_by_the_first_gap_over_delta() {
    // Default: Poisson gaps of mean 542 s, Δ = 100 s. A BoT reaches size k when its Zipf draw is ≥ k and its k − 1
    // next gaps are ≤ Δ: P(S ≥ k) = P(Z ≥ k) q^(k−1), q = 1 − exp(−Δ/542).
    let g = MinhWolters::default();
    let s = g.jobs(42, 1.2e8).unwrap();
    let pz = zipf_pmf(g.bot_size.alpha, g.bot_size.n);
    // The sizes drawn follow the Zipf law.
    let drawn: Vec<u64> = s.drawn_sizes.iter().map(|&x| u64::from(x)).collect();
    assert!(drawn.len() > 150_000, "{} BoTs", drawn.len());
    let (stat, df, p) = chi_square(&drawn, 1, &pz);
    assert!(p > 1e-3, "drawn sizes: chi-square {stat} on {df} df, p = {p}");
    // The realised sizes follow the law above.
    let q = 1.0 - (-g.delta / 542.0f64).exp();
    let tail_z = |k: u64| -> f64 { 1.0 - (1..k).map(&pz).sum::<f64>() };
    let at_least = |k: u64| tail_z(k) * q.powi(k as i32 - 1);
    let mut realised = vec![0u64; s.drawn_sizes.len()];
    for j in &s.jobs {
        realised[j.bot as usize] += 1;
    }
    let (stat, df, p) = chi_square(&realised, 1, |k| at_least(k) - at_least(k + 1));
    assert!(p > 1e-3, "realised sizes: chi-square {stat} on {df} df, p = {p}");
    // And not the Zipf law itself.
    let (_, _, p_zipf) = chi_square(&realised, 1, &pz);
    assert!(p_zipf < 1e-6, "realised sizes pass as plain Zipf: p = {p_zipf}");
}

#[test]
fn minh_wolters_bots_repeat_one_runtime_drawn_from_the_mixture() {
    let g = MinhWolters::default();
    let w = g.workload(43, 6e7).unwrap();
    assert!(w.bots.len() > 100_000);
    for (b, bot) in w.bots.iter().enumerate() {
        assert!(w.bot_runtimes(b).iter().all(|&r| r == bot.art && r >= 1.0), "BoT {b}");
    }
    // Each BoT draws its own (only the 1 s floor repeats).
    assert!(w.bots.windows(2).all(|p| p[0].art != p[1].art || p[0].art == 1.0), "two BoTs in a row share a runtime");
    // log2 of the BoT runtimes against the mixture (runtimes under 1 s are 1 s: an atom at 0).
    let mut x: Vec<f64> = w.bots.iter().map(|b| b.art.log2()).collect();
    x.sort_by(f64::total_cmp);
    let total: f64 = g.runtime.iter().map(|c| c.weight).sum();
    let cdf = |v: f64| -> f64 {
        g.runtime
            .iter()
            .map(|c| {
                c.weight / total * 0.5 * statrs::function::erf::erfc(-(v - c.mu) / (c.sigma * std::f64::consts::SQRT_2))
            })
            .sum()
    };
    let n = x.len() as f64;
    let mut d: f64 = 0.0;
    for (i, &v) in x.iter().enumerate() {
        if v > 0.0 {
            d = d.max((i as f64 / n - cdf(v)).abs()).max(((i + 1) as f64 / n - cdf(v)).abs());
        }
    }
    let at_floor = x.iter().filter(|&&v| v == 0.0).count() as f64 / n;
    assert!((at_floor - cdf(0.0)).abs() < 1.95 / n.sqrt(), "{at_floor} at 1 s vs {}", cdf(0.0));
    assert!(d < 1.95 / n.sqrt(), "KS distance {d} ≥ {}", 1.95 / n.sqrt());
}

#[test]
fn minh_wolters_load_target_only_rescales_the_models_clock() {
    let g = Generator::MinhWolters(MinhWolters {
        users: bagsim::workload::model::UserModel { alpha: 1.0, n: 4 },
        ..MinhWolters::default()
    });
    let period = 30.0 * 86_400.0;
    let capacity = 40.0;
    let model = g.model_workload(44, 1e9).unwrap();
    for load in [0.2, 0.7] {
        let out = g.generate(44, Some(load), capacity, period).unwrap();
        let w = &out.workload;
        assert!(w.bots.len() > 100);
        let within = (out.achieved_load / load - 1.0).abs() < 0.01;
        let explained = out.warnings.iter().any(|m| m.contains("more than 1% from the target"));
        assert!(within != explained, "load {load}: achieved {}, {:?}", out.achieved_load, out.warnings);
        assert!((w.total_work() / (capacity * period) - out.achieved_load).abs() < 1e-12);
        assert!(w.bots.iter().all(|b| b.arrival >= 0.0 && b.arrival < period));
        for (b, m) in w.bots.iter().zip(&model.bots) {
            assert_eq!((b.size, b.user, b.art), (m.size, m.user, m.art));
            assert!((b.arrival / out.iat_scale - m.arrival).abs() <= 1e-9 * m.arrival);
        }
        assert_eq!(w.runtimes[..], model.runtimes[..w.runtimes.len()]);
    }
}

#[test]
fn minh_wolters_is_deterministic() {
    let g = Generator::MinhWolters(MinhWolters::default());
    let a = g.generate(5, Some(0.5), 100.0, 7.0 * 86_400.0).unwrap().workload;
    assert_eq!(a, g.generate(5, Some(0.5), 100.0, 7.0 * 86_400.0).unwrap().workload);
    assert_ne!(a, g.generate(6, Some(0.5), 100.0, 7.0 * 86_400.0).unwrap().workload);
}

fn small_platform() -> Vec<(u32, f64)> {
    vec![(16, 1.0), (32, 1.5), (8, 1.0)]
}

fn scenario_json(generator: &str, streams: &str, load: &str) -> String {
    let clusters: Vec<String> = small_platform()
        .iter()
        .enumerate()
        .map(|(i, (p, s))| format!(r#"{{"name": "c{i}", "processors": {p}, "speed": {s}}}"#))
        .collect();
    format!(
        r#"{{"seed": 9, "platform": {{"clusters": [{}]}},
            "workload": {{"load": {load}, "submission_period": 259200, "streams": "{streams}",
                          "generator": {generator}}}}}"#,
        clusters.join(", ")
    )
}

#[test]
fn a_scenario_with_each_generator_runs_end_to_end() {
    for generator in [r#"{"login_logout": {}}"#, r#"{"minh_wolters": {"users": {"alpha": 1.0, "n": 3}}}"#] {
        for streams in ["per_cluster", "global"] {
            for load in ["0.5", "null"] {
                let s = McScenario::from_json(&scenario_json(generator, streams, load)).unwrap();
                let p = run::prepare(&s).unwrap();
                let w = &p.generated.workload;
                let label = format!("{generator} {streams} load {load}");
                assert!(!w.bots.is_empty(), "{label}");
                assert!(w.bots.windows(2).all(|x| x[0].arrival <= x[1].arrival), "{label}");
                assert!(w.bots.iter().all(|b| b.arrival >= 0.0 && b.arrival < 259_200.0), "{label}");
                let g = s.workload.generator.as_ref().unwrap();
                if streams == "per_cluster" {
                    assert_eq!(w.users, 3 * g.users_per_stream(), "{label}");
                    assert_eq!(p.streams.len(), 3);
                    // Cluster 1's BoTs are its own stream's, from its own seed and, under the default equal load
                    // split, the mean cluster's capacity.
                    let caps: Vec<f64> = small_platform().iter().map(|&(p, s)| f64::from(p) * s).collect();
                    let cap = caps.iter().sum::<f64>() / caps.len() as f64;
                    let own = g.generate(cluster_seed(9, 1), s.workload.load, cap, 259_200.0).unwrap().workload;
                    let mine: Vec<_> = w.bots.iter().filter(|b| b.home == Some(1)).collect();
                    assert_eq!(mine.len(), own.bots.len(), "{label}");
                    for (m, o) in mine.iter().zip(&own.bots) {
                        assert_eq!(
                            (m.arrival, m.size, m.art, m.user),
                            (o.arrival, o.size, o.art, o.user + g.users_per_stream())
                        );
                    }
                } else {
                    assert!(p.streams.is_empty());
                }
                if load == "0.5" {
                    assert!((p.generated.achieved_load - 0.5).abs() < 0.05, "{label}: {}", p.generated.achieved_load);
                }
                let tasks = w.tasks() as u64;
                let (mut sim, summary) = run::simulation(&s, p);
                sim.run();
                sim.check_invariants().unwrap();
                let r = run::report(&s, summary, &sim, 0.0);
                assert_eq!(r.workload.tasks, tasks, "{label}");
                assert_eq!(r.metrics.tasks.tasks, tasks, "{label}");
                assert_eq!(
                    r.metrics.tasks.finished + r.metrics.tasks.unstarted + r.metrics.tasks.running_at_end,
                    tasks,
                    "{label}"
                );
                assert!(r.metrics.tasks.finished > 0, "{label}");
            }
        }
    }
}

#[test]
fn generator_scenarios_parse_validate_and_document_their_fields() {
    // The default scenario has no generator, and says nothing about one.
    let text = serde_json::to_string(&McScenario::default()).unwrap();
    assert!(!text.contains("generator"), "{text}");
    for name in ["login_logout", "minh_wolters"] {
        let s = McScenario::from_json(&format!(r#"{{"workload": {{"generator": {{"{name}": {{}}}}}}}}"#)).unwrap();
        assert_eq!(s.workload.generator, Generator::default_named(name));
        let back = McScenario::from_json(&serde_json::to_string_pretty(&s).unwrap()).unwrap();
        assert_eq!(back, s);
        // Every field is documented for `bagsim scenario --doc` (distributions and lists as one entry).
        let v = serde_json::to_value(&s).unwrap();
        let mut paths = Vec::new();
        leaves(&v["workload"]["generator"], "workload.generator", &mut paths);
        assert!(paths.len() >= 2);
        for p in paths {
            assert!(params(Family::MultiCluster).iter().any(|d| d.path == p), "undocumented parameter {p}");
        }
    }
    let e = McScenario::from_json(
        r#"{"workload": {"generator": {"login_logout": {"users": [{"lambda": 0.001, "delta": -1, "mu": 0.1}]}}}}"#,
    )
    .unwrap_err();
    assert_eq!(e.field, "workload.generator.login_logout.users[0].delta");
    assert!(e.message.contains("-1") && e.message.contains("0–10"), "{e}");
    // The scenario's one error type keeps the generator's kind of refusal (out of range, values that cannot hold
    // together) and places its field under the generator's path, a distribution's too.
    assert_eq!(e.kind, ErrorKind::OutOfRange);
    let e =
        McScenario::from_json(r#"{"workload": {"generator": {"minh_wolters": {"bot_size": {"alpha": 11, "n": 10}}}}}"#)
            .unwrap_err();
    assert_eq!((e.field.as_str(), e.kind), ("workload.generator.minh_wolters.bot_size.alpha", ErrorKind::OutOfRange));
    let e = McScenario::from_json(
        r#"{"workload": {"generator": {"minh_wolters": {"runtime": [{"weight": 0, "mu": 1, "sigma": 1}]}}}}"#,
    )
    .unwrap_err();
    assert_eq!((e.field.as_str(), e.kind), ("workload.generator.minh_wolters.runtime", ErrorKind::Inconsistent));
    let e = McScenario::from_json(
        r#"{"workload": {"generator": {"login_logout": {"runtime": {"family": "weibull", "shape": 0, "scale": 1}}}}}"#,
    )
    .unwrap_err();
    assert_eq!((e.field.as_str(), e.kind), ("workload.generator.login_logout.runtime", ErrorKind::OutOfRange));
    assert!(e.message.starts_with("shape = 0"), "{e}");
    let e = McScenario::from_json(r#"{"workload": {"generator": {"poisson": {}}}}"#).unwrap_err();
    assert!(e.message.contains("login_logout") && e.message.contains("minh_wolters"), "{e}");
    let e = McScenario::from_json(r#"{"workload": {"trace": {"path": "x.swf"}, "generator": {"minh_wolters": {}}}}"#)
        .unwrap_err();
    assert_eq!(e.field, "workload.generator");
}

/// JSON paths of the leaves, a distribution (an object with `family`) or a list counting as one leaf.
fn leaves(v: &serde_json::Value, prefix: &str, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Object(m) if !m.contains_key("family") => {
            for (k, v) in m {
                leaves(v, &format!("{prefix}.{k}"), out);
            }
        }
        _ => out.push(prefix.to_string()),
    }
}

#[test]
fn changing_one_cluster_leaves_the_other_clusters_streams_identical() {
    let mut s = McScenario::from_json(&scenario_json(r#"{"login_logout": {}}"#, "per_cluster", "0.5")).unwrap();
    // Under the capacity split a stream depends on its own cluster only.
    s.workload.load_split = bagsim::workload::streams::LoadSplit::Capacity;
    let mut t = s.clone();
    if let bagsim::family::multi_cluster::platform::PlatformSpec { clusters: Some(c), .. } = &mut t.platform {
        c[1] = Cluster { name: "c1".into(), processors: 64, speed: 1.5 };
    } else {
        panic!("explicit clusters");
    }
    let (a, b) = (run::prepare(&s).unwrap(), run::prepare(&t).unwrap());
    let home = |w: &bagsim::workload::Workload, c: u32| -> Vec<(f64, f64)> {
        w.bots.iter().filter(|x| x.home == Some(c)).map(|x| (x.arrival, x.art)).collect()
    };
    for c in [0, 2] {
        assert_eq!(home(&a.generated.workload, c), home(&b.generated.workload, c), "cluster {c}");
    }
    assert_ne!(home(&a.generated.workload, 1), home(&b.generated.workload, 1));
}

/// A Login/Logout user with a tiny job rate and a load target: the search stretches the model's clock until the
/// user's empty login periods would fill the memory; the run is refused instead, naming the user and mu (a
/// reproducer of the bad-input issue, which aborted allocating memory).
#[test]
fn a_user_too_slow_for_the_load_is_refused_not_aborted() {
    for mu in ["2.7e-5", "5e-324"] {
        let s = McScenario::from_json(&format!(
            concat!(
                r#"{{"platform":{{"clusters":[{{"name":"a","processors":45,"speed":4.0}}]}},"#,
                r#""workload":{{"submission_period":600,"generator":{{"login_logout":{{"users":[{{"name":"u","#,
                r#""lambda":0.025,"delta":0.13,"mu":{mu}}}],"runtime":{{"family":"constant","#,
                r#""value":2.0}}}}}}}}}}"#
            ),
            mu = mu
        ))
        .expect("every value is within its documented range");
        let e = run::prepare(&s).err().expect("refused");
        assert!(e.field.starts_with("workload.generator.login_logout"), "{e}");
        assert!(e.message.contains("\"u\"") && e.message.contains("mu"), "{e}");
    }
}
