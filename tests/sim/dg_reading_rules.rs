//! The desktop-grid readings of issue #27 (docs/desktop_grid.md, "Readings"): FCFS-Share's move-on rule and the
//! Weibull shape, each on a hand-worked case, and every listed reading changing its own key and nothing else.

use bagsim::engine::Model;
use bagsim::engine::Rng;
use bagsim::family::desktop_grid::availability::{AvailabilityLevel, GroupLaw};
use bagsim::family::desktop_grid::config::{CheckpointStore, LongIdleRule};
use bagsim::family::desktop_grid::machines::{Machine, Platform};
use bagsim::family::desktop_grid::policy::{BotSelection, BotView, FcfsShareRule};
use bagsim::family::desktop_grid::readings::READINGS;
use bagsim::family::desktop_grid::wqr_ft::TaskPool;
use bagsim::family::desktop_grid::{self, DgConfig, DgScenario, DgSettings, DgSimulation};
use bagsim::readings::apply;
use bagsim::workload::Workload;
use serde_json::Value;

/// BoT 0 (tasks of 1 000 and 3 000 s) at t = 0 and BoT 1 (one task of 1 000 s) at 10 s, on two machines of power 1
/// that never fail, with no checkpoint (a period longer than any task) and RepThresh 2.
fn two_bots(rule: FcfsShareRule) -> DgSimulation {
    let s = DgSettings {
        selection: BotSelection::FcfsShare.into(),
        thresh: 2,
        checkpoint_period: 1e6,
        transfer: [300.0, 300.0],
        checkpoint_store: CheckpointStore::Blocking,
        long_idle: LongIdleRule::Accumulated,
        fcfs_share: rule,
        horizon: 1e9,
        sample_interval: 1e6,
        seed: 1,
        stop_when_done: true,
    };
    let machines = vec![Machine { power: 1.0, group: 0 }; 2];
    let platform = Platform { machines, groups: vec![] };
    let w = Workload::from_bots(&[(0.0, 0, &[1000.0, 3000.0]), (10.0, 0, &[1000.0])]);
    let mut sim = DgSimulation::new(s, &platform, w);
    sim.run();
    sim.check_invariants().unwrap();
    sim
}

/// BoT 0's two tasks take both machines at t = 0; at 1 000 s its short task completes and frees one.
/// `rep_thresh`: BoT 0's long task is below RepThresh, so the machine runs its second replica (from scratch, to end
/// at 4 000 s); the long task completes at 3 000 s, its second replica is cancelled, and BoT 1 takes both machines
/// until 4 000 s: 5 replicas, 2 cancelled. `one_replica`: every task of BoT 0 has a replica, so the machine goes to
/// BoT 1, which ends at 2 000 s; then BoT 0's long task gets its second replica, cancelled at 3 000 s: 4 replicas,
/// 1 cancelled. BoT 0 ends at 3 000 s either way.
#[test]
fn fcfs_share_one_replica_gives_the_freed_machine_to_the_next_bot() {
    let r = two_bots(FcfsShareRule::RepThresh);
    assert_eq!((r.bot_start()[1], r.bot_end()[1]), (3000.0, 4000.0));
    assert_eq!((r.counters().replicas_started, r.counters().replicas_cancelled), (5, 2));
    let o = two_bots(FcfsShareRule::OneReplica);
    assert_eq!((o.bot_start()[1], o.bot_end()[1]), (1000.0, 2000.0));
    assert_eq!((o.counters().replicas_started, o.counters().replicas_cancelled), (4, 1));
    for sim in [&r, &o] {
        assert_eq!((sim.bot_start()[0], sim.bot_end()[0]), (0.0, 3000.0));
    }
}

/// The choice of each rule against a scan of the pool's BoTs, over random replica starts and losses; with
/// RepThresh 1 a task with a replica is no candidate and both rules choose the same BoT.
#[test]
fn fcfs_share_rules_equal_their_scans() {
    for thresh in [1u32, 2, 3] {
        let mut p = TaskPool::new(5, 15, thresh, false);
        p.set_track_unreplicated(true);
        let mut rng = Rng::new(u64::from(thresh));
        for b in 0..5u32 {
            p.arrive(b, 3 * b, 3, 0.0);
        }
        let mut one = BotSelection::FcfsShare.build(FcfsShareRule::OneReplica);
        let mut rep = BotSelection::FcfsShare.build(FcfsShareRule::RepThresh);
        for step in 0..500 {
            let t = rng.below(15) as u32;
            let b = t / 3;
            let r = p.replicas(t);
            if r > 0 && (rng.uniform() < 0.4 || r >= thresh) {
                p.remove_replica(b, t, 0.0);
            } else if r < thresh {
                p.add_replica(b, t, 0.0);
            }
            let oldest_ready = p.active.iter().copied().find(|&b| p.ready.contains(&b));
            let oldest_unrep = p.active.iter().copied().find(|&b| p.unreplicated(b) > 0);
            let v = BotView { now: 0.0, pool: &p };
            let (o, q) = (one.select(&v), rep.select(&v));
            assert_eq!(q, oldest_ready, "rep_thresh, threshold {thresh}, step {step}");
            assert_eq!(o, oldest_unrep.or(oldest_ready), "one_replica, threshold {thresh}, step {step}");
            if thresh == 1 {
                assert_eq!(o, q, "step {step}");
            }
        }
    }
}

fn low(policy: BotSelection) -> DgConfig {
    DgConfig {
        availability: AvailabilityLevel::Low,
        load: 0.95,
        bots: 20,
        bot_selection: policy.into(),
        ..Default::default()
    }
}

/// The key is read by FCFS-Share alone: RR gives the same report under both values; FCFS-Share keeps the workload
/// and the failure trace (the failures counted up to the end of the shorter run are a prefix of the same trace) and
/// changes its results.
#[test]
fn the_fcfs_share_key_is_read_by_fcfs_share_only() {
    let run = |policy, rule| {
        let s = DgScenario::new(5, DgConfig { fcfs_share: rule, ..low(policy) });
        desktop_grid::run(&s).unwrap()
    };
    let (a, b) = (run(BotSelection::Rr, FcfsShareRule::OneReplica), run(BotSelection::Rr, FcfsShareRule::RepThresh));
    assert_eq!(a.metrics.turnaround, b.metrics.turnaround);
    assert_eq!(a.metrics.counters, b.metrics.counters);
    let one = run(BotSelection::FcfsShare, FcfsShareRule::OneReplica);
    let rep = run(BotSelection::FcfsShare, FcfsShareRule::RepThresh);
    assert_eq!(one.workload, rep.workload);
    assert_ne!(one.metrics.waiting, rep.metrics.waiting, "the move-on rule changed no waiting time");
}

/// A time to failure is scale · E^(1/k) with E = −ln U exponential: under every shape the same uniform gives the
/// same E, and the repair times drawn from the same stream in between are the very same numbers. The mean stays
/// the MTTF, so A_i (Eq. 3) and the workload do not move.
#[test]
fn the_weibull_shape_changes_only_the_times_to_failure() {
    let draws = |shape: f64| {
        let g = GroupLaw::new(7731.19, shape, 5400.0, 800.0);
        let mut rng = Rng::new(11);
        (0..1000).map(|_| (g.time_to_failure(&mut rng), g.repair_time(&mut rng), g)).collect::<Vec<_>>()
    };
    let base = draws(0.7);
    for shape in [1.0, 0.5] {
        let other = draws(shape);
        for ((t0, r0, g0), (t1, r1, g1)) in base.iter().zip(&other) {
            assert_eq!(r0.to_bits(), r1.to_bits(), "a repair time moved with the shape");
            let (e0, e1) = (libm::pow(t0 / g0.scale, 0.7), libm::pow(t1 / g1.scale, shape));
            assert!((e0 - e1).abs() <= 1e-9 * e0.max(1.0), "E {e0} under 0.7, {e1} under {shape}");
            assert_eq!(g0.availability(), g1.availability());
        }
        assert_ne!(base[0].0, other[0].0);
    }
    let run = |shape| {
        let s = DgScenario::new(5, DgConfig { weibull_shape: shape, ..low(BotSelection::RrNrf) });
        let (sim, w) = desktop_grid::simulation(&s).unwrap();
        (w, sim.workload().runtimes.clone(), sim.workload().bots.iter().map(|b| b.arrival).collect::<Vec<_>>())
    };
    assert_eq!(run(0.7), run(1.0));
    assert_eq!(run(0.7), run(0.5));
}

/// The leaves at which two JSON values differ, as dotted paths.
fn diff(a: &Value, b: &Value, path: &str, out: &mut Vec<String>) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, v) in x {
                let p = if path.is_empty() { k.clone() } else { format!("{path}.{k}") };
                diff(v, y.get(k).unwrap_or(&Value::Null), &p, out);
            }
            for k in y.keys().filter(|k| !x.contains_key(*k)) {
                out.push(format!("{path}.{k}"));
            }
        }
        _ if a != b => out.push(path.to_string()),
        _ => {}
    }
}

/// Every listed reading sets its own key and no other, and its first value is the scenario's default.
#[test]
fn each_reading_differs_from_the_default_in_exactly_its_key() {
    let base = DgScenario::new(1, DgConfig::default());
    let json = serde_json::to_value(&base).unwrap();
    for r in READINGS {
        for (k, (name, value)) in r.values.iter().enumerate() {
            let c = vec![(r.key.to_string(), name.to_string(), serde_json::from_str::<Value>(value).unwrap())];
            let s = apply(&base, &c).unwrap();
            s.desktop_grid.validate().unwrap();
            let mut d = Vec::new();
            diff(&json, &serde_json::to_value(&s).unwrap(), "", &mut d);
            if k == 0 {
                assert!(d.is_empty(), "{}: the first value {name} is not the default: {d:?}", r.key);
            } else {
                assert_eq!(d, vec![r.key.to_string()], "{}={name}", r.key);
            }
        }
    }
}
