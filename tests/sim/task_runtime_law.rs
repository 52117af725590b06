//! `workload.task_runtime_law` ([Iosup08] §3.5 gives a BoT's ART and RTV, no law): over a generated day, the share
//! of tasks at exactly 1 s is what each law's closed form P(X < 1 s) predicts from the BoTs' own ART and RTV.

use bagsim::run;
use bagsim::scenario::McScenario;
use bagsim::workload::task_law::TaskRuntimeLaw;

#[test]
fn the_one_second_share_is_the_closed_form_under_every_law() {
    for law in TaskRuntimeLaw::ALL {
        let mut s = McScenario { seed: 3, ..Default::default() };
        s.workload.submission_period = 86_400.0;
        s.workload.load = Some(0.3);
        s.workload.task_runtime_law = law;
        let w = run::prepare(&s).unwrap().generated.workload;
        // Each task of BoT b is floored to 1 s with probability p_b = P(X < 1) of its law, independently: the count
        // of 1 s tasks has mean Σ size·p_b and variance Σ size·p_b(1 − p_b). A BoT of RTV 0 runs its ART (≥ 1 s).
        let varies = |b: &&bagsim::workload::Bot| b.rtv > 0.0 && b.rtv.is_finite();
        let (mut mean, mut var) = (0.0, 0.0);
        for b in &w.bots {
            let p = if varies(&b) { law.floored_share(b.art, b.rtv) } else { 0.0 };
            mean += f64::from(b.size) * p;
            var += f64::from(b.size) * p * (1.0 - p);
        }
        let at_one = w.runtimes.iter().filter(|&&r| r == 1.0).count() as f64;
        let ties = w.bots.iter().filter(|b| b.art == 1.0 && !varies(b)).map(|b| f64::from(b.size)).sum::<f64>();
        let n = w.tasks() as f64;
        assert!(
            (at_one - ties - mean).abs() <= 5.0 * var.sqrt() + 1.0,
            "{law:?}: {at_one} tasks at 1 s of {n}, closed form {mean:.1} ± {:.1}",
            var.sqrt()
        );
        assert!(w.runtimes.iter().all(|&r| r >= 1.0), "{law:?}: a task below 1 s");
    }
}

#[test]
fn the_default_law_is_lognormal_and_gamma_is_the_earlier_workload() {
    assert_eq!(McScenario::default().workload.task_runtime_law, TaskRuntimeLaw::Lognormal);
    // The laws share the runtime stream and nothing else: the BoTs (users, sizes, ART, RTV) are drawn from their own
    // streams, so under a day at the model's own rate they are the same BoTs.
    let mut s = McScenario { seed: 8, ..Default::default() };
    s.workload.submission_period = 86_400.0;
    s.workload.load = None;
    let bots = |law| {
        let mut s = s.clone();
        s.workload.task_runtime_law = law;
        run::prepare(&s).unwrap().generated.workload.bots
    };
    let gamma = bots(TaskRuntimeLaw::Gamma);
    assert_eq!(bots(TaskRuntimeLaw::Lognormal), gamma);
    assert_eq!(bots(TaskRuntimeLaw::Normal), gamma);
}
