//! The capacity bounds of docs/desktop_grid.md, "Capacity" (issue #42), on hand-worked cases, and the conclusions
//! the doc draws from them for [Anglano09]'s Table II platforms.

use bagsim::family::desktop_grid::availability::{AvailabilityLevel, GroupLaw};
use bagsim::family::desktop_grid::capacity::*;
use bagsim::family::desktop_grid::config::Heterogeneity;
use bagsim::family::desktop_grid::figures::{run_bar, CiRule, FigurePreset, Saturation};
use bagsim::family::desktop_grid::policy::BotSelection;
use bagsim::family::desktop_grid::workload::Mix;
use bagsim::family::desktop_grid::{self, DgConfig};

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

/// A replica that fails loses at most the period plus a store in flight, then pays one retrieval: 1 800 + 720 + 720
/// = 3 240 s. A 150 s task never checkpoints and loses at most its 150 s; one of 2 000 s reaches one checkpoint, so
/// it loses at most min(1 800 + 720, 2 000) + 720 = 2 720 s.
#[test]
fn the_most_a_failure_costs() {
    assert_eq!(loss_per_failure(1800.0, 720.0, 18_750.0), 3240.0);
    assert_eq!(loss_per_failure(1800.0, 720.0, 150.0), 150.0);
    assert_eq!(loss_per_failure(1800.0, 720.0, 2000.0), 2720.0);
    assert_eq!(loss_per_failure(1800.0, 0.0, 18_750.0), 1800.0);
}

/// One group: the availabilities cancel, f = loss / MTTF = 3 240 / 10 000. Two groups of one machine each, MTTF
/// 1 000 and 3 000 s, MTTR 1 000 s: A = 0.5 and 0.75, f = (0.5 · 100/1 000 + 0.75 · 100/3 000) / 1.25 = 0.06.
#[test]
fn the_share_of_capacity_failures_cost() {
    let one = [GroupLaw::new(10_000.0, 0.7, 1_000.0, 100.0)];
    assert!(close(failure_loss_bound(&one, 7, 3240.0), 0.324, 1e-12));
    let two = [GroupLaw::new(1_000.0, 0.7, 1_000.0, 100.0), GroupLaw::new(3_000.0, 0.7, 1_000.0, 100.0)];
    assert!(close(failure_loss_bound(&two, 2, 100.0), 0.06, 1e-12));
    // The Weibull shape does not enter: a machine fails 1/MTTF times per second up, whatever the law.
    let other_shape = [GroupLaw::new(1_000.0, 0.5, 1_000.0, 100.0), GroupLaw::new(3_000.0, 1.0, 1_000.0, 100.0)];
    assert_eq!(failure_loss_bound(&two, 2, 100.0), failure_loss_bound(&other_shape, 2, 100.0));
}

fn laws(level: AvailabilityLevel) -> Vec<GroupLaw> {
    DgConfig { availability: level, ..Default::default() }.group_laws()
}

/// The doc's conclusions: at High-Avail, L 0.95 leaves capacity to spare for a first-replica-first policy under
/// every checkpoint period and transfer reading (f lies between loss / the largest MTTF and loss / the smallest,
/// 5 040 / 315 787 = 1.6% at most); at Medium-Avail L 0.5 even with the hour period (f ≤ 5 040 / 9 473.6); at
/// Low-Avail L 0.95 on All_VS tasks (work ≤ 1 500, 150 s on power 10; f ≤ 150 / 3 157.87 = 4.8%, and the average
/// over the groups is 2.5%), but not on All_L tasks with the default period (3 240 / 12 888.1 ≥ 25% at the least).
#[test]
fn where_a_first_replica_first_policy_is_bounded() {
    let high = laws(AvailabilityLevel::High);
    for (period, transfer) in [(600.0, 720.0), (1800.0, 720.0), (3600.0, 720.0), (1800.0, 0.0)] {
        let loss = loss_per_failure(period, transfer, 18_750.0);
        let f = failure_loss_bound(&high, 100, loss);
        assert!(f > loss / 1_288_810.0 && f < loss / 315_787.0, "period {period}: f {f}");
        assert!(first_replica_first_bounded(0.95, f), "High, period {period}");
    }
    let medium = failure_loss_bound(&laws(AvailabilityLevel::Medium), 100, loss_per_failure(3600.0, 720.0, 18_750.0));
    assert!(medium < 5040.0 / 9473.6 && first_replica_first_bounded(0.5, medium), "Medium: f {medium}");
    let low = laws(AvailabilityLevel::Low);
    let vs = failure_loss_bound(&low, 100, loss_per_failure(1800.0, 720.0, 150.0));
    assert!(close(vs, 0.025, 0.002) && first_replica_first_bounded(0.95, vs), "Low All_VS: f {vs}");
    let l = failure_loss_bound(&low, 100, loss_per_failure(1800.0, 720.0, 18_750.0));
    assert!(l > 3240.0 / 12_888.1 && !first_replica_first_bounded(0.95, l), "Low All_L: f {l}");
}

/// Blocking stores on power 10 with a 30-minute period. All_M runs U[1 250, 3 750] s: no store below 1 800 s, one
/// up to 3 600 s, two above: (1 800 + 2 · 150) / 2 500 = 0.84 stores. All_L runs U[6 250, 18 750] s: ⌊t/1 800⌋ from 3
/// to 10, ∫ = 3·950 + (4+5+6+7+8+9)·1 800 + 10·750 = 80 550, / 12 500 = 6.444; with an hour, ∫ = 1·950 +
/// (2+3+4)·3 600 + 5·750 = 37 100, / 12 500 = 2.968. At 480 s a store, L 0.95 asks for more than the capacity on
/// All_L under both periods (0.95 · 1.114 > 1): RR cannot be bounded there.
#[test]
fn what_blocking_stores_add() {
    assert!(close(mean_stores(1250.0, 3750.0, 1800.0), 0.84, 1e-12));
    assert!(close(mean_stores(6250.0, 18_750.0, 1800.0), 6.444, 1e-12));
    assert!(close(mean_stores(6250.0, 18_750.0, 3600.0), 2.968, 1e-12));
    for period in [600.0, 1800.0, 3600.0] {
        let over = blocking_overhead(6250.0, 18_750.0, period, 480.0);
        assert!(0.95 * (1.0 + over) > 1.0, "period {period}: +{over}");
    }
    assert!(close(blocking_overhead(6250.0, 18_750.0, 3600.0, 480.0), 2.968 * 480.0 / 12_500.0, 1e-12));
}

/// FCFS-Excl as one server. All_L: 3.6e6 / 125 000 = 28.8 tasks, the largest 62 500 + 125 000 · 28.8/29.8 ≈ 183 305
/// work, 18 330 s on power 10 against 1/λ = C / L = 3 612 / 0.5 = 7 224 s: 2.54 times what the server can do. The
/// closest case, Medium heterogeneous with the Med mix (17.3 Large tasks per BoT): 180 586 / 17.7 = 10 203 s against
/// 4 713.17 / 0.5 = 9 426 s, 1.08.
#[test]
fn fcfs_excl_is_one_overloaded_server() {
    let all_l = mean_largest_uniform(62_500.0, 187_500.0, 28.8);
    assert!(close(all_l, 62_500.0 + 125_000.0 * 28.8 / 29.8, 1e-9));
    assert_eq!(mean_largest_uniform(0.0, 2.0, 1.0), 1.0);
    let high = exclusive_server_load(all_l, 10.0, 3612.0 / 0.5);
    assert!(close(high, 2.54, 0.01), "{high}");
    let med = mean_largest_uniform(62_500.0, 187_500.0, 17.3);
    let medium_het = exclusive_server_load(med, 17.7, 4713.17 / 0.5);
    assert!(medium_het > 1.0 && close(medium_het, 1.08, 0.01), "{medium_het}");
}

/// The one-server bound in a run: machines that never fail, BoTs of All_L at L 0.5 (every task on its own machine
/// still takes up to 18 750 s, against BoTs every 7 224 s) under FCFS-Excl: the bar is unbounded, each BoT's
/// execution makespan (its service) is longer than the mean interarrival time, and the runs keep on average more
/// than half of what arrives (the one server is asked for 2.5 times what it can do: 1 − 1/2.5 = 0.6 in the long run).
#[test]
fn fcfs_excl_saturates_as_one_server() {
    let preset = FigurePreset {
        number: 0,
        availability: AvailabilityLevel::AlwaysUp,
        heterogeneity: Heterogeneity::Homogeneous,
        mixes: [Mix::AllL; 4],
        load: 0.5,
        title: "hand-made".into(),
    };
    let base = DgConfig { bots: 40, transfer_time: [0.0, 0.0], ..Default::default() };
    let rule = CiRule { min_seeds: 3, max_seeds: 6, rel: 0.025 };
    let run = |s: &desktop_grid::DgScenario| desktop_grid::run(s);
    let excl = run_bar(&preset, &base, Mix::AllL, &BotSelection::FcfsExcl.into(), rule, &run).unwrap();
    assert_eq!(excl.saturation, Saturation::Unbounded, "{excl:?}");
    assert!(excl.makespan.0 > 7224.0 && excl.growth.0 > 0.5, "{excl:?}");
}
