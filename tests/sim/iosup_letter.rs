//! Three readings of [Iosup08] on hand-worked cases: what the n of a "WQRnx" name counts
//! (`policy_options.wqr_nx`), what the sites' RMs run under sep-c and fcondor (`architecture.site_policy`), and in
//! which order RR goes round the clusters (`policy_options.rr_ring`).

use crate::common::{config, ends};
use bagsim::family::multi_cluster::architecture::Architecture::{Csp, Fcondor, SepC};
use bagsim::family::multi_cluster::architecture::SitePolicy;
use bagsim::family::multi_cluster::metrics;
use bagsim::family::multi_cluster::policy::options::{RrRing, WqrNx};
use bagsim::family::multi_cluster::policy::scheduling::SchedulingPolicy as P;
use bagsim::family::multi_cluster::policy::selection::SelectionPolicy as S;

/// One cluster of 12 processors, one BoT of two 100 s tasks at t = 0 under csp. Both start at once; nothing waits,
/// so the RM replicates them round-robin (A, B, A, B, …) while processors are free and a task has fewer copies than
/// allowed. Copies per task = 1 + replicas; 2 × (1 + r) ≤ 12 for every case below, so every allowed copy starts:
///   "replicas": WQR3x 2 × 4 = 8 copies, WQR4x 2 × 5 = 10, WQR5x 2 × 6 = 12;
///   "copies":   WQR3x 2 × 3 = 6,        WQR4x 2 × 4 = 8,  WQR5x 2 × 5 = 10.
/// All copies of a task end together at 100; the first wins and the others are cancelled.
#[test]
fn wqr_nx_copies_started_counted_by_hand() {
    let cases = [
        (WqrNx::Replicas, [("WQR3x", 8), ("WQR4x", 10), ("WQR5x", 12)]),
        (WqrNx::Copies, [("WQR3x", 6), ("WQR4x", 8), ("WQR5x", 10)]),
    ];
    for (reading, names) in cases {
        for (name, copies) in names {
            let mut cfg = config(Csp, S::ST, name.parse().unwrap());
            cfg.policy_options.wqr_nx = reading;
            let (e, sim) = ends(cfg, &[(12, 1.0)], &[(0.0, 0, &[100.0, 100.0])]);
            assert_eq!(e, vec![100.0, 100.0], "{name} {reading:?}");
            let m = metrics::compute(&sim.outcome());
            // Two originals, the rest replicas; every replica is cancelled by the copy that ends first.
            assert_eq!(2 + m.tasks.replicas_started, copies, "{name} {reading:?}: copies started");
            assert_eq!(m.tasks.replicas_cancelled, copies - 2, "{name} {reading:?}");
        }
    }
}

/// One cluster, one processor of speed 1, one user. t = 0: a 10 s task starts. t = 1: a BoT of one 5 s task
/// arrives and queues; t = 2: a BoT of one 100 s task arrives and queues. At 10 the processor frees:
///   the scenario's FPLT (largest first): 100 s runs 10–110, 5 s runs 110–115 → ends [10, 115, 110];
///   the site's FCFS (order of arrival):  5 s runs 10–15, 100 s runs 15–115   → ends [10, 15, 115].
/// csp's global RM runs the scenario's FPLT whatever the reading.
#[test]
fn site_policy_orders_a_sites_queue_by_the_scenario_or_by_arrival() {
    let bots: &[(f64, u32, &[f64])] = &[(0.0, 0, &[10.0]), (1.0, 0, &[5.0]), (2.0, 0, &[100.0])];
    let fplt = vec![10.0, 115.0, 110.0];
    let fcfs = vec![10.0, 15.0, 115.0];
    for arch in [SepC, Fcondor, Csp] {
        for (site, want) in [(SitePolicy::Scenario, &fplt), (SitePolicy::Fcfs, &fcfs)] {
            let mut cfg = config(arch, S::ST, P::Fplt);
            cfg.site_policy = site;
            let want = if arch == Csp { &fplt } else { want };
            assert_eq!(&ends(cfg, &[(1, 1.0)], bots).0, want, "{arch:?} {site:?}");
        }
    }
}

/// Under `fcfs` a site also drops the scenario's replication: RR on one cluster of two processors, one 10 s task.
/// Scenario: the task starts and, nothing waiting, gets one replica (2 copies). FCFS: one copy only.
#[test]
fn a_site_under_fcfs_does_not_replicate() {
    for (site, replicas) in [(SitePolicy::Scenario, 1), (SitePolicy::Fcfs, 0)] {
        let mut cfg = config(SepC, S::ST, P::Rr);
        cfg.site_policy = site;
        let (e, sim) = ends(cfg, &[(2, 1.0)], &[(0.0, 0, &[10.0])]);
        assert_eq!(e, vec![10.0]);
        assert_eq!(metrics::compute(&sim.outcome()).tasks.replicas_started, replicas, "{site:?}");
    }
}

/// csp with RR on two clusters listed slow first: c0 one processor of speed 1, c1 two of speed 2. One BoT of
/// tasks 10, 20, 30 s at t = 0, in order; RR allows one replica per task once nothing waits.
/// "platform" ring (listed order c0, c1): t0 → c0 (ends 10), t1 → c1 (ends 10), t2 → c1 (ends 15); every processor
///   is busy, so no replica starts before 10. At 10 t0 ends first: t1 gets a replica on c0 (would end 30), then
///   t1's original ends at 10 and cancels it; t2 gets a replica on c1 (would end 25), and t2's original ends at
///   15. Ends [10, 10, 15].
/// "speed" ring (c1, c0): t0 → c1 (ends 5), t1 → c0 (ends 20), t2 → c1 (ends 15). At 5 t0 ends: t1 gets a replica
///   on c1 (5 + 10 = 15), which beats its original (20). Ends [5, 15, 15].
#[test]
fn rr_ring_in_listed_order_or_fastest_first() {
    let cl = [(1, 1.0), (2, 2.0)];
    let bots: &[(f64, u32, &[f64])] = &[(0.0, 0, &[10.0, 20.0, 30.0])];
    for (ring, want) in [(RrRing::Platform, vec![10.0, 10.0, 15.0]), (RrRing::Speed, vec![5.0, 15.0, 15.0])] {
        let mut cfg = config(Csp, S::ST, P::Rr);
        cfg.policy_options.rr_ring = ring;
        // The first task ends at 10 on c0 under "platform", at 5 on c1 under "speed".
        assert_eq!(ends(cfg, &cl, bots).0, want, "{ring:?}");
    }
}
