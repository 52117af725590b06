//! The desktop-grid readings (docs/desktop_grid.md, "Readings"): checkpoint stores blocking or asynchronous, and
//! LongIdle's idle time of every candidate or of those without a replica, each on a hand-worked case; each changes
//! only what it names.

use bagsim::engine::Model;
use bagsim::family::desktop_grid::availability::AvailabilityLevel;
use bagsim::family::desktop_grid::config::{CheckpointStore, LongIdleRule};
use bagsim::family::desktop_grid::machines::{Machine, Platform};
use bagsim::family::desktop_grid::policy::BotSelection;
use bagsim::family::desktop_grid::wqr_ft::TaskPool;
use bagsim::family::desktop_grid::{self, DgConfig, DgScenario, DgSettings, DgSimulation};
use bagsim::workload::Workload;

fn one_machine(work: f64, store: CheckpointStore) -> DgSimulation {
    let s = DgSettings {
        selection: BotSelection::FcfsShare.into(),
        thresh: 1,
        checkpoint_period: 1800.0,
        transfer: [300.0, 300.0],
        checkpoint_store: store,
        long_idle: LongIdleRule::Accumulated,
        fcfs_share: Default::default(),
        horizon: 1e9,
        sample_interval: 1e6,
        seed: 1,
        stop_when_done: true,
    };
    let platform = Platform { machines: vec![Machine { power: 1.0, group: 0 }], groups: vec![] };
    let mut sim = DgSimulation::new(s, &platform, Workload::from_bots(&[(0.0, 0, &[work])]));
    sim.run();
    sim
}

/// One task of 5 000 s on a machine that never fails, a checkpoint after every 1 800 s of computing, stores of
/// 300 s: blocking, the replica pauses twice (ends at 5 000 + 2 × 300 s); async, it never pauses (ends at 5 000 s).
/// Both store the checkpoints of 1 800 and 3 600 s.
#[test]
fn a_blocking_store_pauses_the_replica_and_an_async_one_does_not() {
    let b = one_machine(5000.0, CheckpointStore::Blocking);
    assert_eq!(b.task_end()[0], 5600.0);
    let a = one_machine(5000.0, CheckpointStore::Async);
    assert_eq!(a.task_end()[0], 5000.0);
    for sim in [&a, &b] {
        assert_eq!(sim.counters().checkpoints_taken, 2);
        assert_eq!(sim.best_checkpoints()[0], 3600.0);
    }
}

/// A task of 1 900 s: its checkpoint at 1 800 s would arrive at 2 100 s. Async, the task ends at 1 900 s first and
/// the store in flight counts for nothing; blocking, the store holds the task until 2 100 s, which then ends at
/// 2 200 s.
#[test]
fn an_async_store_still_in_flight_when_its_replica_ends_does_not_count() {
    let a = one_machine(1900.0, CheckpointStore::Async);
    assert_eq!(a.task_end()[0], 1900.0);
    assert_eq!(a.counters().checkpoints_taken, 0);
    let b = one_machine(1900.0, CheckpointStore::Blocking);
    assert_eq!(b.task_end()[0], 2200.0);
    assert_eq!(b.counters().checkpoints_taken, 1);
}

/// Two BoTs of one task: BoT 0's task idles 0–100 s and then runs a replica (its idle time frozen at 100 s); BoT
/// 1's arrives at 50 s and idles on. At 120 s, counting every candidate (accumulated), BoT 0's 100 s beats BoT 1's
/// 70 s; counting only tasks without a replica (unreplicated), BoT 1 is chosen. With a threshold of 1 a task with a
/// replica is no candidate, and both rules choose BoT 1.
#[test]
fn long_idle_rules_differ_only_over_tasks_that_have_a_replica() {
    let pick = |thresh: u32, unreplicated: bool| {
        let mut p = TaskPool::new(2, 2, thresh, true);
        p.set_unreplicated_only(unreplicated);
        p.arrive(0, 0, 1, 0.0);
        p.arrive(1, 1, 1, 50.0);
        p.add_replica(0, 0, 100.0);
        p.longest_idle_bot(120.0)
    };
    assert_eq!(pick(2, false), Some(0));
    assert_eq!(pick(2, true), Some(1));
    assert_eq!(pick(1, false), Some(1));
    assert_eq!(pick(1, true), Some(1));
}

fn small() -> DgConfig {
    DgConfig {
        availability: AvailabilityLevel::Low,
        bots: 20,
        bot_selection: BotSelection::LongIdle.into(),
        ..Default::default()
    }
}

/// A file without the keys reads as async, accumulated and rep_thresh (the defaults of docs/desktop_grid.md,
/// "Readings"); and each reading leaves the platform, the workload and the failure trace as they were.
#[test]
fn defaults_read_and_each_reading_changes_only_what_it_names() {
    let s: DgScenario = serde_json::from_str(r#"{"seed": 3, "family": "desktop_grid", "desktop_grid": {"bots": 20}}"#)
        .expect("a file without the keys");
    assert_eq!(s.desktop_grid.checkpoint_store, CheckpointStore::Async);
    assert_eq!(s.desktop_grid.long_idle, LongIdleRule::Accumulated);
    assert_eq!(s.desktop_grid.fcfs_share, bagsim::family::desktop_grid::policy::FcfsShareRule::RepThresh);
    let base = DgScenario::new(3, small());
    let (sim0, w0) = desktop_grid::simulation(&base).unwrap();
    let mut changed = 0;
    for cfg in [
        DgConfig { checkpoint_store: CheckpointStore::Blocking, ..small() },
        DgConfig { long_idle: LongIdleRule::Unreplicated, ..small() },
    ] {
        let s = DgScenario::new(3, cfg);
        let (sim, w) = desktop_grid::simulation(&s).unwrap();
        assert_eq!(w, w0, "the workload summary changed");
        let marks =
            |w: &Workload| -> Vec<(u64, u32)> { w.bots.iter().map(|b| (b.arrival.to_bits(), b.size)).collect() };
        assert_eq!(marks(sim.workload()), marks(sim0.workload()), "the BoTs changed");
        assert_eq!(sim.workload().runtimes, sim0.workload().runtimes, "the task works changed");
        let (a, b) = (desktop_grid::run(&base).unwrap(), desktop_grid::run(&s).unwrap());
        assert_eq!(a.metrics.counters.failures > 0, b.metrics.counters.failures > 0);
        changed += usize::from(a.metrics.turnaround != b.metrics.turnaround);
    }
    assert!(changed > 0, "neither reading changed the results of a Low-Avail LongIdle run");
}
