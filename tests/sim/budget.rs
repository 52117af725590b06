//! The desktop-grid budget (docs/desktop_grid.md, "Budget"): the events a run will take, estimated before it starts,
//! against the events it took; a run over the budget is refused naming what drives it, a long one is warned about.

use bagsim::family::desktop_grid::availability::AvailabilityLevel;
use bagsim::family::desktop_grid::{self, DesktopGridConfig, DgScenario};

fn reproducer(horizon: f64) -> DesktopGridConfig {
    // A grid in which no BoT can finish: machines fail every 3 s on average and take 30 minutes to repair.
    DesktopGridConfig {
        bots: 46,
        mttf: Some(vec![3.0224]),
        application_size: 6510.5,
        horizon: Some(horizon),
        ..Default::default()
    }
}

/// The estimate bounds the events a run takes from above, within a factor of two for a run that goes to its
/// horizon (failures) or has no failures (tasks), and within the four windows of the default horizon otherwise.
#[test]
fn the_estimate_bounds_the_run() {
    let cases = [
        (reproducer(4.877e7), 2.0),
        (DesktopGridConfig { availability: AvailabilityLevel::AlwaysUp, bots: 50, ..Default::default() }, 2.0),
        (DesktopGridConfig::default(), 8.0),
        (DesktopGridConfig { availability: AvailabilityLevel::Low, bots: 50, ..Default::default() }, 8.0),
    ];
    for (cfg, most) in cases {
        let (estimate, _) = cfg.estimated_events();
        let events = desktop_grid::run(&DgScenario::new(1, cfg.clone())).unwrap().metrics.counters.events as f64;
        let ratio = estimate / events;
        assert!((0.5..=most).contains(&ratio), "estimate {estimate:.3e}, run {events:.3e} for {cfg:?}");
    }
}

/// The reproducer of a run that could not finish: over the budget it is refused before anything runs, naming the
/// horizon and what drives the events; below it but long, the run says so before it starts.
#[test]
fn over_budget_refused_and_long_warned() {
    let e = reproducer(9e10).validate().unwrap_err();
    assert_eq!(e.field, "desktop_grid.horizon");
    assert!(e.message.contains("mttf") && e.message.contains("at most"), "{}", e.message);
    let (_, summary) = desktop_grid::simulation(&DgScenario::new(1, reproducer(4.877e9))).unwrap();
    assert!(summary.warnings.iter().any(|w| w.starts_with("a long run")), "{:?}", summary.warnings);
    let (_, quiet) = desktop_grid::simulation(&DgScenario::new(1, DesktopGridConfig::default())).unwrap();
    assert!(!quiet.warnings.iter().any(|w| w.starts_with("a long run")));
}
