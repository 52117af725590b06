//! Every policy and architecture on a small case worked out by hand (the derivations are in the comments).

use crate::common::{config, ends};
use bagsim::engine::Model;
use bagsim::family::multi_cluster::architecture::Architecture::{Csp, Fcondor, SepC};
use bagsim::family::multi_cluster::metrics;
use bagsim::family::multi_cluster::policy::options::RrRing;
use bagsim::family::multi_cluster::policy::scheduling::SchedulingPolicy as P;
use bagsim::family::multi_cluster::policy::selection::SelectionPolicy as S;

/// Cluster A: 1 processor of speed 1; cluster B: 1 processor of speed 2.
const AB: [(u32, f64); 2] = [(1, 1.0), (1, 2.0)];

#[test]
fn fplt_puts_the_largest_task_on_the_fastest_processor() {
    // Tasks [10, 100] at t=0: 100 -> B (ends 50), 10 -> A (ends 10).
    let (e, _) = ends(config(Csp, S::ST, P::Fplt), &AB, &[(0.0, 0, &[10.0, 100.0])]);
    assert_eq!(e, vec![10.0, 50.0]);
}

#[test]
fn fpf_keeps_the_order_and_takes_the_fastest() {
    // Task 0 (10) -> B (ends 5); task 1 (100) -> A (ends 100).
    let (e, _) = ends(config(Csp, S::ST, P::Fpf), &AB, &[(0.0, 0, &[10.0, 100.0])]);
    assert_eq!(e, vec![5.0, 100.0]);
}

#[test]
fn ect_waits_for_the_fast_processor() {
    // t=0: task 0 (40): A ends 40, B ends 20 -> B. t=1: task 1 (100): A ends 101, B frees at 20 and ends 70
    // -> it reserves B and starts there at 20, ending at 70 (FPF would have put it on A, ending at 101).
    let bots: [(f64, u32, &[f64]); 2] = [(0.0, 0, &[40.0]), (1.0, 0, &[100.0])];
    let (e, _) = ends(config(Csp, S::ST, P::Ect), &AB, &bots);
    assert_eq!(e, vec![20.0, 70.0]);
    let (f, _) = ends(config(Csp, S::ST, P::Fpf), &AB, &bots);
    assert_eq!(f, vec![20.0, 101.0]);
}

#[test]
fn ect_reservations_do_not_block_the_tasks_behind() {
    // t=0: task 0 (40) -> B (ends 20). t=1: BoT [100, 5]: task 1 queues at B (70 < 101), B's chart now frees at
    // 70; task 2 (5) then compares A (1 + 5 = 6) with B (70 + 2.5) -> A now, ends 6.
    let bots: [(f64, u32, &[f64]); 2] = [(0.0, 0, &[40.0]), (1.0, 0, &[100.0, 5.0])];
    assert_eq!(ends(config(Csp, S::ST, P::Ect), &AB, &bots).0, vec![20.0, 70.0, 6.0]);
}

/// Cluster A: 1 processor of speed 1; B: 1 processor of speed 2, and ECT's Gantt chart over both.
#[test]
fn ect_plans_on_every_clusters_queue() {
    // Four tasks of 10 at t = 0, in order (the chart: A's line, B's line):
    // task 0: A 0 + 10 = 10, B 0 + 5 = 5 -> B now (B's line 5).
    // task 1: A 10, B 5 + 5 = 10: a tie, and A can start it now -> A (A's line 10).
    // task 2: A 10 + 10 = 20, B 5 + 5 = 10 -> B's queue (B's line 10).
    // task 3: A 20, B 10 + 5 = 15 -> B's queue again (B's line 15): the chart is as deep as the queue.
    // B runs 0 [0, 5], 2 [5, 10], 3 [10, 15]; A runs 1 [0, 10]. (A chart one task deep would have sent task 3 to
    // A, ending at 20.)
    let bots: [(f64, u32, &[f64]); 1] = [(0.0, 0, &[10.0, 10.0, 10.0, 10.0])];
    let (e, sim) = ends(config(Csp, S::ST, P::Ect), &AB, &bots);
    assert_eq!(e, vec![5.0, 10.0, 10.0, 15.0]);
    assert_eq!((0..4).map(|t| sim.task_start(t)).collect::<Vec<_>>(), vec![0.0, 0.0, 5.0, 10.0]);
}

#[test]
fn ect_corrects_its_chart_when_a_task_ends_early() {
    // Inaccurate estimates: with the seed's draws each task's estimate is off; whatever they are, ECT's plan and
    // the run must keep every processor busy with at most one task, and the queued tasks start first come first
    // served at B. Checked here by the invariants and by the tasks' order of start on B.
    let mut cfg = config(Csp, S::ST, P::Ect);
    cfg.inaccuracy = 90.0;
    let bots: [(f64, u32, &[f64]); 1] = [(0.0, 0, &[10.0, 10.0, 10.0, 10.0, 10.0, 10.0])];
    let (e, sim) = ends(cfg, &AB, &bots);
    assert!(e.iter().all(|t| t.is_finite()));
    let starts: Vec<f64> = (0..6).map(|t| sim.task_start(t)).collect();
    let on_b: Vec<f64> = (0..6).filter(|&t| e[t] - starts[t] == 5.0).map(|t| starts[t]).collect();
    assert!(on_b.windows(2).all(|w| w[0] <= w[1]), "B's queue is first come first served: {starts:?}");
}

#[test]
fn dfplt_tries_an_unranked_cluster_first_under_the_default_reading() {
    // A: speed 1, B: speed 2. BoT 0 at t=0 [10]: both unranked, the lower index -> A (ends 10); A is ranked 1.0.
    // BoT 1 at t=20 [10]: under "first" B, still unranked, comes before A -> B (ends 25); under "reference" B
    // ranks 1.0 = A's rank, the lower index wins -> A (ends 30); under "last" A is the only ranked one -> A.
    use bagsim::family::multi_cluster::policy::options::Unranked;
    let bots: [(f64, u32, &[f64]); 2] = [(0.0, 0, &[10.0]), (20.0, 0, &[10.0])];
    let run = |u: Unranked| {
        let mut cfg = config(Csp, S::ST, P::Dfplt);
        cfg.policy_options.dfplt_unranked = u;
        ends(cfg, &AB, &bots).0
    };
    assert_eq!(run(Unranked::First), vec![10.0, 25.0]);
    assert_eq!(run(Unranked::Reference), vec![10.0, 30.0]);
    assert_eq!(run(Unranked::Last), vec![10.0, 30.0]);
}

#[test]
fn wqr4x_makes_four_replicas_or_four_copies() {
    // One task of 100 on six idle single-processor clusters: once nothing waits, WQR4x replicates it on four more
    // processors (five copies) under "replicas", three more under "copies"; all copies end together at 100, the
    // first to end wins and the others are cancelled.
    use bagsim::family::multi_cluster::policy::options::WqrNx;
    let cl = [(1, 1.0); 6];
    for (reading, replicas) in [(WqrNx::Replicas, 4), (WqrNx::Copies, 3)] {
        let mut cfg = config(Csp, S::ST, P::WqrX { n: 4 });
        cfg.policy_options.wqr_nx = reading;
        let (_, sim) = ends(cfg, &cl, &[(0.0, 0, &[100.0])]);
        let m = metrics::compute(&sim.outcome());
        assert_eq!((m.tasks.replicas_started, m.tasks.replicas_cancelled), (replicas, replicas), "{reading:?}");
    }
}

#[test]
fn s_u_prio_ranks_users_by_their_rank_in_their_stream() {
    // Two streams (clusters) of two users: ids 0, 1 (cluster 0, ranks 1, 2) and 2, 3 (cluster 1, ranks 1, 2).
    // t=0: user 0 fills both processors ([100, 200]). t=1: user 1 sends [10]; t=2: user 2 sends [10]. At 100 one
    // processor frees: under "rank" user 2 (rank 1 of cluster 1) outranks user 1 (rank 2) -> user 2 runs 100..110,
    // then user 1 110..120 on the same processor. Under "cluster" every user of cluster 0 comes first: user 1 ends
    // 110, user 2 120.
    use bagsim::family::multi_cluster::policy::options::PrioOrder;
    use bagsim::family::multi_cluster::sim::Simulation;
    let mut w =
        bagsim::workload::Workload::from_bots(&[(0.0, 0, &[100.0, 200.0]), (1.0, 1, &[10.0]), (2.0, 2, &[10.0])]);
    w.users = 4;
    for (b, home) in w.bots.iter_mut().zip([0, 0, 1]) {
        b.home = Some(home);
    }
    for (order, user1_end, user2_end) in [(PrioOrder::Rank, 120.0, 110.0), (PrioOrder::Cluster, 110.0, 120.0)] {
        let mut cfg = config(Csp, S::SUPrio, P::Fplt);
        cfg.policy_options.prio_order = order;
        let mut sim = Simulation::new(cfg, crate::common::clusters(&[(1, 1.0), (1, 1.0)]), w.clone());
        sim.run();
        sim.check_invariants().unwrap();
        assert_eq!((sim.task_end(2), sim.task_end(3)), (user1_end, user2_end), "{order:?}");
    }
}

#[test]
fn ect_p_starts_from_nothing_and_learns_from_the_bot() {
    // Three tasks of 40 at t=0, no history: every prediction is 1 s.
    // task 0: A completes at 1, B at 0.5 -> B (real end 20).
    // task 1: A at 1; B's estimated end 0.5, so 0.5 + 0.5 = 1: a tie, and a free cluster wins -> A (ends 40).
    // task 2: A est. end 1 -> 2; B est. end 0.5 -> 1 -> B is busy: task 2 joins B's queue.
    // t=20: B completes task 0 and the task queued there starts: ends 40.
    let (e, _) = ends(config(Csp, S::ST, P::EctP), &AB, &[(0.0, 0, &[40.0, 40.0, 40.0])]);
    assert_eq!(e, vec![20.0, 40.0, 40.0]);
}

#[test]
fn dfplt_learns_speeds_from_completions() {
    // A: speed 0.5, B: speed 2 (indices 0, 1). Nothing observed: both unranked, ties go to the lower index.
    // BoT 0 at t=0, [10, 10]: task 0 -> A (ends 20), task 1 -> B (ends 5). Observed: B 2.0, A 0.5.
    // BoT 1 at t=30, [10, 10]: task 2 -> B (ends 35), task 3 -> A (ends 50).
    let cl = [(1, 0.5), (1, 2.0)];
    let bots: [(f64, u32, &[f64]); 2] = [(0.0, 0, &[10.0, 10.0]), (30.0, 0, &[10.0, 10.0])];
    let (e, _) = ends(config(Csp, S::ST, P::Dfplt), &cl, &bots);
    assert_eq!(e, vec![20.0, 5.0, 35.0, 50.0]);
    // FPLT knows the speeds from the start: task 0 -> B (5), task 1 -> A (20).
    let (f, _) = ends(config(Csp, S::ST, P::Fplt), &cl, &bots);
    assert_eq!(f, vec![5.0, 20.0, 35.0, 50.0]);
}

#[test]
fn rr_replicates_once_and_cancels_the_loser() {
    // RR knows no speeds and goes round the clusters; under the ring fastest first (`rr_ring = speed`): B first.
    // Tasks [100, 10] at t=0: task 0 -> B (ends 50), task 1 -> A (ends 10). At 10 nothing waits: task 0 gets a
    // replica on A (10..110), cancelled at 50 when B finishes: 40 s wasted.
    let mut cfg = config(Csp, S::ST, P::Rr);
    cfg.policy_options.rr_ring = RrRing::Speed;
    let (e, sim) = ends(cfg, &AB, &[(0.0, 0, &[100.0, 10.0])]);
    assert_eq!(e, vec![50.0, 10.0]);
    let m = metrics::compute(&sim.outcome());
    assert_eq!((m.tasks.replicas_started, m.tasks.replicas_cancelled, m.tasks.wasted), (1, 1, 40.0));
    assert_eq!(m.tasks.goodput, 60.0);
    assert!((m.tasks.rwt - 0.4).abs() < 1e-12);
    // In the platform's listed order (the default): task 0 -> A (would end 100), task 1 -> B (ends 5). At 5 task 0
    // gets a replica on B (5..55) that wins; the original on A is cancelled at 55: 55 s wasted.
    let (e, sim) = ends(config(Csp, S::ST, P::Rr), &AB, &[(0.0, 0, &[100.0, 10.0])]);
    assert_eq!(e, vec![55.0, 5.0]);
    let m = metrics::compute(&sim.outcome());
    assert_eq!((m.tasks.replicas_started, m.tasks.replicas_cancelled, m.tasks.wasted), (1, 1, 55.0));
}

#[test]
fn wqr_replicates_up_to_n_times() {
    // Three clusters of speed 1, 2, 4, listed in that order; one task of 400 at t=0. WQR-2: original on the first
    // listed (speed 1, would end 400), then replicas on the others (speed 2: would end 200; speed 4: ends 100); the
    // speed-4 copy wins at 100 and the other two are cancelled: 100 + 100 s wasted.
    let cl = [(1, 1.0), (1, 2.0), (1, 4.0)];
    let (e, sim) = ends(config(Csp, S::ST, P::Wqr { replicas: 2 }), &cl, &[(0.0, 0, &[400.0])]);
    assert_eq!(e, vec![100.0]);
    let m = metrics::compute(&sim.outcome());
    assert_eq!((m.tasks.replicas_started, m.tasks.wasted), (2, 200.0));
    // WQR-1 (= RR): one replica only.
    let (_, sim) = ends(config(Csp, S::ST, P::Wqr { replicas: 1 }), &cl, &[(0.0, 0, &[400.0])]);
    assert_eq!(metrics::compute(&sim.outcome()).tasks.replicas_started, 1);
}

#[test]
fn stfr_runs_the_shortest_first_and_a_replica_can_win() {
    // Ring fastest first (`rr_ring = speed`). Tasks [100, 10]: the shortest (task 1) -> B (ends 5); task 0 -> A
    // (would end 100). At 5 B is free and nothing waits: a replica of task 0 on B runs 5..55 and wins; the
    // original on A is cancelled (55 s wasted).
    let mut cfg = config(Csp, S::ST, P::Stfr);
    cfg.policy_options.rr_ring = RrRing::Speed;
    let (e, sim) = ends(cfg, &AB, &[(0.0, 0, &[100.0, 10.0])]);
    assert_eq!(e, vec![55.0, 5.0]);
    assert_eq!(metrics::compute(&sim.outcome()).tasks.wasted, 55.0);
    // Listed order (the default): task 1 -> A (ends 10), task 0 -> B (ends 50). At 10 task 0 gets a replica on A
    // (10..110), cancelled at 50: 40 s wasted.
    let (e, sim) = ends(config(Csp, S::ST, P::Stfr), &AB, &[(0.0, 0, &[100.0, 10.0])]);
    assert_eq!(e, vec![50.0, 10.0]);
    assert_eq!(metrics::compute(&sim.outcome()).tasks.wasted, 40.0);
}

/// Selection on one processor with FPLT: BoT X (user 3, [10, 10]) at t=0 keeps the processor busy while A
/// (user 2, [5, 30]), B (user 0, [20]) and C (user 1, [25]) arrive at t=1. Task ids: X 0-1, A 2-3, B 4, C 5.
fn selection_case(s: S) -> Vec<f64> {
    let bots: [(f64, u32, &[f64]); 4] =
        [(0.0, 3, &[10.0, 10.0]), (1.0, 2, &[5.0, 30.0]), (1.0, 0, &[20.0]), (1.0, 1, &[25.0])];
    ends(config(Csp, s, P::Fplt), &[(1, 1.0)], &bots).0
}

#[test]
fn selection_policies_order_the_users_as_defined() {
    // Sets are formed when a processor is free to take a task, so the choice at t=20 sees A, B and C.
    // S-T: arrivals join the set; at 10 the largest first: A1 10-40, C 40-65, B 65-85, X1 85-95, A0 95-100.
    assert_eq!(selection_case(S::ST), vec![10.0, 95.0, 100.0, 40.0, 85.0, 65.0]);
    // S-BoT: X1 10-20, then BoT A (A1 20-50, A0 50-55), B 55-75, C 75-100.
    assert_eq!(selection_case(S::SBot), vec![10.0, 20.0, 55.0, 50.0, 75.0, 100.0]);
    // S-U-Prio: X1 10-20; then users by rank: 0 (B 20-40), 1 (C 40-65), 2 (A1 65-95, A0 95-100).
    let by_rank = vec![10.0, 20.0, 100.0, 95.0, 40.0, 65.0];
    assert_eq!(selection_case(S::SUPrio), by_rank);
    // S-U-T and S-U-BoT: users 0, 1, 2 have consumed nothing; ties go to the higher rank: same order.
    assert_eq!(selection_case(S::SUT), by_rank);
    assert_eq!(selection_case(S::SUBot), by_rank);
    // S-U-GRR: user 3 first; then round-robin wraps to 0, 1, 2: same order here.
    assert_eq!(selection_case(S::SUGrr), by_rank);
    // S-U-RR: one task per user per round. Round 1 = {X0}. At 10 round 2 starts after user 3, wrapping to
    // user 0: {B, C, A0, X1}, sorted by FPLT: C 10-35, B 35-55, X1 55-65, A0 65-70; round 3 {A1} 70-100.
    assert_eq!(selection_case(S::SURr), vec![10.0, 65.0, 70.0, 100.0, 55.0, 35.0]);
}

#[test]
fn consumption_decides_s_u_t() {
    // One processor; by t=20 user 0 has consumed more than user 1, so S-U-T serves user 1 first while S-U-Prio
    // serves user 0 (the higher priority). t=0: user 0 [20] runs 0-20; t=1: user 1 [5] and user 0 [5] arrive. At 20 the
    // selection sees consumption user 0 = 20, user 1 = 0.
    let bots: [(f64, u32, &[f64]); 3] = [(0.0, 0, &[20.0]), (1.0, 1, &[5.0]), (1.0, 0, &[5.0])];
    let sut = ends(config(Csp, S::SUT, P::Fpf), &[(1, 1.0)], &bots).0;
    assert_eq!(sut, vec![20.0, 25.0, 30.0]);
    let prio = ends(config(Csp, S::SUPrio, P::Fpf), &[(1, 1.0)], &bots).0;
    assert_eq!(prio, vec![20.0, 30.0, 25.0]);
}

#[test]
fn sep_c_keeps_users_at_home_and_csp_shares() {
    // Two clusters of one processor; user 0's home is cluster 0. BoT [10, 10] at t=0.
    let cl = [(1, 1.0), (1, 1.0)];
    let bots: [(f64, u32, &[f64]); 1] = [(0.0, 0, &[10.0, 10.0])];
    assert_eq!(ends(config(SepC, S::ST, P::Fpf), &cl, &bots).0, vec![10.0, 20.0]);
    assert_eq!(ends(config(Csp, S::ST, P::Fpf), &cl, &bots).0, vec![10.0, 10.0]);
    // User 1's home is cluster 1: both BoTs run side by side under sep-c.
    let two: [(f64, u32, &[f64]); 2] = [(0.0, 0, &[10.0]), (0.0, 1, &[10.0])];
    assert_eq!(ends(config(SepC, S::ST, P::Fpf), &cl, &two).0, vec![10.0, 10.0]);
}

#[test]
fn fcondor_moves_on_when_a_task_queues() {
    // BoT [10, 10, 10] at t=0, two clusters of one processor: task 0 starts at home (RM 0); task 1 queues
    // there, so the user moves to RM 1; task 2 starts on RM 1. Ends: 10, 20, 10.
    let cl = [(1, 1.0), (1, 1.0)];
    assert_eq!(ends(config(Fcondor, S::ST, P::Fpf), &cl, &[(0.0, 0, &[10.0, 10.0, 10.0])]).0, vec![10.0, 20.0, 10.0]);
}

#[test]
fn stale_monitoring_delays_the_global_rm() {
    // One processor; two tasks of 10 at t=0. Exact information: 10, 20. With a 100 s monitoring period the
    // global RM still sees the processor busy until the refresh at t=100: the second task runs 100-110.
    let bots: [(f64, u32, &[f64]); 2] = [(0.0, 0, &[10.0]), (0.0, 0, &[10.0])];
    assert_eq!(ends(config(Csp, S::ST, P::Fpf), &[(1, 1.0)], &bots).0, vec![10.0, 20.0]);
    let mut cfg = config(Csp, S::ST, P::Fpf);
    cfg.monitoring_period = 100.0;
    assert_eq!(ends(cfg, &[(1, 1.0)], &bots).0, vec![10.0, 110.0]);
}

#[test]
fn horizon_reports_unfinished_work() {
    let mut cfg = config(Csp, S::ST, P::Fpf);
    cfg.horizon = 15.0;
    let (e, sim) = ends(cfg, &[(1, 1.0)], &[(0.0, 0, &[10.0, 10.0, 10.0])]);
    assert_eq!(e[0], 10.0);
    assert!(e[1].is_nan() && e[2].is_nan());
    let m = metrics::compute(&sim.outcome());
    assert_eq!((m.tasks.finished, m.tasks.running_at_end, m.tasks.unstarted), (1, 1, 1));
    assert_eq!((m.overall.bots, m.overall.finished), (1, 0));
    assert_eq!(m.system.end_time, 15.0);
    assert!((m.system.utilization - 1.0).abs() < 1e-12);
}

#[test]
fn utilization_while_submitting_and_in_the_drain() {
    // A (speed 1) and B (speed 2), one processor each. FPF: task 0 (10) at t=0 -> B, busy [0, 5]; task 1 (40) at
    // t=4: B is busy until 5 and FPF takes the fastest *free* processor -> A, busy [4, 44]. The run ends at 44.
    // Busy area: 5 + 40 = 45 processor-seconds.
    // Submissions from 0 to 4: busy [0, 4] on B only = 4 of 2 x 4 = 8 -> 0.5 while submitting.
    // Drain [4, 44]: 45 - 4 = 41 of 2 x 40 = 80 -> 0.5125. Whole run: 45 of 2 x 44 = 88 -> 0.5114.
    let bots: [(f64, u32, &[f64]); 2] = [(0.0, 0, &[10.0]), (4.0, 0, &[40.0])];
    let (e, sim) = ends(config(Csp, S::ST, P::Fpf), &AB, &bots);
    assert_eq!(e, vec![5.0, 44.0]);
    let m = metrics::compute(&sim.outcome()).system;
    assert_eq!((m.first_submission, m.last_submission), (0.0, 4.0));
    assert_eq!(m.utilization_submitting, 0.5);
    assert_eq!(m.utilization_drain, 41.0 / 80.0);
    assert_eq!(m.utilization, 45.0 / 88.0);
    // Stopped before the last submission: no submission period to speak of, and the report says why.
    let mut cfg = config(Csp, S::ST, P::Fpf);
    cfg.horizon = 2.0;
    let (_, sim) = ends(cfg, &AB, &bots);
    let m = metrics::compute(&sim.outcome());
    assert!(m.system.utilization_submitting.is_nan() && m.system.utilization_drain.is_nan());
    assert_eq!(m.undefined["system.utilization_submitting"], "the run ended before the last submission");
}
