//! The saturation rule of a desktop-grid figure's bar (docs/desktop_grid.md, "Saturation of a bar") on hand-made
//! stable and unstable cases, and the findings of §IV-C on hand-made bars.

use bagsim::family::desktop_grid::availability::AvailabilityLevel;
use bagsim::family::desktop_grid::config::{CheckpointStore, Heterogeneity};
use bagsim::family::desktop_grid::figures::claims::claims;
use bagsim::family::desktop_grid::figures::{figures, run_bar, Bar, CiRule, FigurePreset, Saturation};
use bagsim::family::desktop_grid::policy::BotSelection;
use bagsim::family::desktop_grid::workload::Mix;
use bagsim::family::desktop_grid::{self, DgConfig};
use bagsim::stats::{Interval, Verdict};

fn preset(load: f64) -> FigurePreset {
    FigurePreset {
        number: 0,
        availability: AvailabilityLevel::AlwaysUp,
        heterogeneity: Heterogeneity::Homogeneous,
        mixes: [Mix::AllM, Mix::AllM, Mix::AllM, Mix::AllM],
        load,
        title: "hand-made".into(),
    }
}

fn bar(base: &DgConfig, load: f64) -> Bar {
    let rule = CiRule { min_seeds: 3, max_seeds: 12, rel: 0.025 };
    let run = |s: &desktop_grid::DgScenario| desktop_grid::run(s);
    run_bar(&preset(load), base, Mix::AllM, &BotSelection::Rr.into(), rule, &run).unwrap()
}

/// Machines that never fail, no checkpoint transfers, half loaded: every seed's queue stays flat, the bar is
/// bounded. The same machines stopping to store a checkpoint of 240–720 s after every 60 s of computing (blocking
/// stores) spend most of their time storing, so the work asked for is beyond what they can do: the bar is unbounded,
/// and its execution makespan is still a finite number.
#[test]
fn a_stable_bar_is_bounded_and_an_overloaded_one_unbounded() {
    let stable = DgConfig { bots: 100, transfer_time: [0.0, 0.0], ..Default::default() };
    let b = bar(&stable, 0.5);
    assert_eq!(b.saturation, Saturation::Bounded, "{b:?}");
    assert!(!b.unbounded && b.turnaround.0.is_finite());
    let overloaded = DgConfig {
        bots: 100,
        checkpoint_period: 60.0,
        checkpoint_store: CheckpointStore::Blocking,
        ..Default::default()
    };
    let u = bar(&overloaded, 0.5);
    assert_eq!(u.saturation, Saturation::Unbounded, "{u:?}");
    assert!(u.unbounded && u.growth.0 > Saturation::THRESHOLD);
    assert!(u.makespan.0.is_finite() && u.makespan.0 > 0.0);
    assert!(u.seeds < 12, "an unbounded bar stops as soon as the interval is above the threshold");
}

#[test]
fn the_verdict_of_an_interval_of_growth() {
    let i = |mean: f64, half_width: f64| Interval { mean, low: mean - half_width, high: mean + half_width, n: 5 };
    assert_eq!(Saturation::of(&i(0.5, 0.2)), Saturation::Unbounded);
    assert_eq!(Saturation::of(&i(0.0, 0.05)), Saturation::Bounded);
    assert_eq!(Saturation::of(&i(0.1, 0.05)), Saturation::NotResolved);
    assert_eq!(Saturation::of(&i(0.5, f64::INFINITY)), Saturation::NotResolved);
}

/// A bar with (mean, half-width) turnaround, its interval symmetric.
fn hand_bar(mix: Mix, policy: BotSelection, tt: (f64, f64), saturation: Saturation, rwt: f64) -> Bar {
    Bar {
        mix,
        policy: policy.into(),
        seeds: 5,
        saturated_seeds: 0,
        saturation,
        unbounded: saturation == Saturation::Unbounded,
        growth: (0.0, 0.0, 0.0),
        cap_hit: false,
        turnaround: (tt.0, tt.0 - tt.1, tt.0 + tt.1),
        makespan: (1.0, 1.0, 1.0),
        waiting: (0.0, 0.0, 0.0),
        rwt: (rwt, rwt - 0.001, rwt + 0.001),
    }
}

/// Fig. 2's findings on bars made by hand: RR and RR-NRF slower on All_VS and All_S and faster on All_L, FCFS-Excl
/// unbounded on All_L, FCFS-Share = LongIdle, RR = RR-NRF, RR wasting least: every finding agrees; moving one bar
/// turns its finding to "disagrees", and overlapping intervals to "not resolved".
#[test]
fn fig2_findings_on_hand_made_bars() {
    let f = figures().into_iter().find(|f| f.number == 2).unwrap();
    let make = |rr_vs: f64, excl_l: Saturation, share_vs_hw: f64| -> Vec<Bar> {
        let mut bars = Vec::new();
        for m in f.mixes {
            for p in BotSelection::ALL {
                let round = matches!(p, BotSelection::Rr | BotSelection::RrNrf);
                let small = matches!(m, Mix::AllVs | Mix::AllS);
                let tt = match (round, small) {
                    (true, true) => (rr_vs, 1.0),
                    (false, true) => (100.0, if p == BotSelection::FcfsShare { share_vs_hw } else { 1.0 }),
                    (true, false) => (100.0, 1.0),
                    (false, false) => (200.0, 1.0),
                };
                let sat = if p == BotSelection::FcfsExcl && m == Mix::AllL { excl_l } else { Saturation::Bounded };
                bars.push(hand_bar(m, p, tt, sat, if round { 0.01 } else { 0.2 }));
            }
        }
        bars
    };
    let verdicts = |bars: &[Bar]| claims(&f, bars).iter().map(|c| c.verdict).collect::<Vec<_>>();
    assert!(verdicts(&make(150.0, Saturation::Unbounded, 1.0)).iter().all(|v| *v == Verdict::Agrees));
    let v = verdicts(&make(50.0, Saturation::Unbounded, 1.0));
    assert_eq!(v[0], Verdict::Disagrees, "RR faster on small tasks");
    let v = verdicts(&make(150.0, Saturation::Bounded, 1.0));
    assert_eq!(v[2], Verdict::Disagrees, "FCFS-Excl bounded on All_L");
    let v = verdicts(&make(150.0, Saturation::NotResolved, 1.0));
    assert_eq!(v[2], Verdict::Unresolved);
    // FCFS-Share's interval on the small mixes reaching RR's: the first finding is no longer resolved.
    let v = verdicts(&make(150.0, Saturation::Unbounded, 60.0));
    assert_eq!(v[0], Verdict::Unresolved);
}
