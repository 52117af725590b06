//! M/M/c against the Erlang-C closed form: one cluster of 100 processors, Poisson arrivals of single-task BoTs,
//! exponential runtimes of mean 1 h, csp / S-T / FPF (no replication). The mean wait must lie in the 95%
//! confidence interval of batch means around the analytic value.

use bagsim::engine::Model;
use bagsim::run;
use bagsim::scenario::McScenario;

const C: u32 = 100;
const MEAN: f64 = 3600.0;

/// Erlang C: probability of waiting in M/M/c with offered load a = λ/μ (Erlang-B recursion, stable for large c).
fn erlang_c(c: u32, a: f64) -> f64 {
    let mut b = 1.0;
    for k in 1..=c {
        b = a * b / (f64::from(k) + a * b);
    }
    let c = f64::from(c);
    c * b / (c - a * (1.0 - b))
}

/// Analytic mean wait W_q = C(c, a) / (cμ − λ), seconds.
fn erlang_wait(rho: f64) -> f64 {
    let mu = 1.0 / MEAN;
    let lambda = rho * f64::from(C) * mu;
    erlang_c(C, rho * f64::from(C)) / (f64::from(C) * mu - lambda)
}

fn mmc_scenario(rho: f64, days: f64, seed: u64) -> McScenario {
    let json = format!(
        r#"{{
        "seed": {seed},
        "platform": {{"clusters": [{{"name": "mmc", "processors": {C}, "speed": 1.0}}]}},
        "workload": {{
            "model": {{
                "users": {{"alpha": 0.0, "n": 1}},
                "iat": {{"dist": {{"family": "exponential", "mean": 36.0}}}},
                "daily_cycle": null,
                "size": {{"dist": {{"family": "constant", "value": 1.0}}}},
                "art": {{"dist": {{"family": "constant", "value": {MEAN}}}}},
                "rtv": {{"dist": {{"family": "constant", "value": {var}}}}}
            }},
            "load": {rho},
            "submission_period": {period},
            "streams": "global",
            "calibration": "seconds"
        }},
        "architecture": {{"kind": "csp", "monitoring_period": 0}},
        "selection": "S-T",
        "scheduling": "FPF",
        "horizon": {horizon}
    }}"#,
        var = MEAN * MEAN,
        period = days * 86400.0,
        horizon = days * 86400.0 + 30.0 * 86400.0
    );
    McScenario::from_json(&json).expect("valid M/M/c scenario")
}

/// Mean wait and the half-width of its 95% CI from 20 batch means of arrival-ordered tasks, after dropping the
/// first 10% as warm-up.
fn batch_means(rho: f64, seed: u64) -> (f64, f64, f64) {
    let s = mmc_scenario(rho, 200.0, seed);
    let p = run::prepare(&s).unwrap();
    assert!((p.generated.achieved_load / rho - 1.0).abs() < 0.01);
    let (mut sim, _) = run::simulation(&s, p);
    sim.run();
    let w = sim.workload();
    // Size-1 BoTs: task b belongs to BoT b, in arrival order.
    let waits: Vec<f64> = (0..w.tasks()).map(|t| sim.task_start(t) - w.bots[t].arrival).collect();
    assert!(waits.iter().all(|x| x.is_finite() && *x >= 0.0), "every task started");
    let kept = &waits[waits.len() / 10..];
    let batches = 20;
    let size = kept.len() / batches;
    let means: Vec<f64> =
        (0..batches).map(|b| kept[b * size..(b + 1) * size].iter().sum::<f64>() / size as f64).collect();
    let mean = means.iter().sum::<f64>() / batches as f64;
    let var = means.iter().map(|m| (m - mean).powi(2)).sum::<f64>() / (batches - 1) as f64;
    let t_975_19 = 2.093;
    (mean, t_975_19 * (var / batches as f64).sqrt(), waits.len() as f64)
}

#[test]
fn erlang_c_closed_form_sanity() {
    // Textbook values: M/M/1 gives C = ρ; M/M/2 with a = 1 gives C = 1/3.
    assert!((erlang_c(1, 0.7) - 0.7).abs() < 1e-12);
    assert!((erlang_c(2, 1.0) - 1.0 / 3.0).abs() < 1e-12);
}

#[test]
fn mmc_wait_matches_erlang_c_at_0_8() {
    let analytic = erlang_wait(0.8);
    let (mean, half, n) = batch_means(0.8, 11);
    assert!(n > 350_000.0);
    assert!((mean - analytic).abs() <= half, "simulated {mean:.2} ± {half:.2} s, Erlang-C {analytic:.2} s");
}

#[test]
fn mmc_wait_matches_erlang_c_at_0_95() {
    let analytic = erlang_wait(0.95);
    let (mean, half, _) = batch_means(0.95, 12);
    assert!((mean - analytic).abs() <= half, "simulated {mean:.2} ± {half:.2} s, Erlang-C {analytic:.2} s");
    // The interval is informative: narrower than a third of the value.
    assert!(half < analytic / 3.0, "{half} vs {analytic}");
}
