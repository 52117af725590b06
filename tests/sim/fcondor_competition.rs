//! fcondor's "natural competition" ([Iosup08] §5.5, docs/model.md "fcondor and the natural competition of
//! §5.5"): a task that queues at an RM stays there for good, and the user's next submission goes to the next RM
//! in round-robin order; under `task` the queued tasks go round the ring one by one, under `bot` a BoT stays whole.

use super::common::{config, ends};
use bagsim::family::multi_cluster::architecture::{Architecture::Fcondor, FcondorMove};
use bagsim::family::multi_cluster::policy::scheduling::SchedulingPolicy as P;
use bagsim::family::multi_cluster::policy::selection::SelectionPolicy as S;

/// Three clusters of one processor at speeds 1, 2 and 4 (an 8 s task takes 8, 4 or 2 s there, so an end time
/// says where a task ran). User 0 starts at cluster 0. BoT A, seven 8 s tasks at t = 0; BoT B, one 8 s task at
/// t = 5; S-T/FPLT, §5.5's setup.
///
/// `task`: a0 starts on c0 (0–8); a1 queues on c0 and the user moves to c1; a2 starts on c1 (0–4); a3 queues on
/// c1, user to c2; a4 starts on c2 (0–2); a5 queues on c2, user to c0; a6 queues on c0, user to c1. c0 runs a1
/// 8–16 and a6 16–24; c1 runs a3 4–8; c2 runs a5 2–4 and then idles while a6 waits on c0 until 16. B at 5 finds
/// c1 busy with a3 (4–8): it queues there and runs 8–12.
///
/// `bot`: A goes whole to c0 (ends 8, 16, …, 56) while c1 and c2 stay idle; some task of A queued, so the user
/// moves to c1, and B runs there at once, 5–9.
#[test]
fn queued_tasks_stay_and_the_next_submission_goes_round_the_ring() {
    let a: &[f64] = &[8.0; 7];
    let bots: &[(f64, u32, &[f64])] = &[(0.0, 0, a), (5.0, 0, &[8.0])];
    let platform = [(1, 1.0), (1, 2.0), (1, 4.0)];
    let mut cfg = config(Fcondor, S::ST, P::Fplt);
    assert_eq!(cfg.fcondor_move, FcondorMove::Task, "the default reading");
    let (task, sim) = ends(cfg.clone(), &platform, bots);
    assert_eq!(task, vec![8.0, 16.0, 4.0, 8.0, 2.0, 4.0, 24.0, 12.0]);
    assert_eq!(sim.task_start(6), 16.0, "a6 waits on c0 while c2 is idle from 4");
    cfg.fcondor_move = FcondorMove::Bot;
    let (bot, _) = ends(cfg, &platform, bots);
    assert_eq!(bot, vec![8.0, 16.0, 24.0, 32.0, 40.0, 48.0, 56.0, 9.0]);
}

/// The counting argument of docs/model.md: under `task` the queued tasks of a user are spread over the clusters
/// in turn, whatever their capacity. Three clusters of one processor; one BoT of 61 tasks of 100 s at t = 0.
/// `task`: one task starts on each cluster (a0 on c0, a2 on c1, a4 on c2), and the 58 that queue go to c0, c1,
/// c2, c0, … in turn (a1, a3, a5, a6, a7, …): 20, 19 and 19 queued at t = 1. `bot`: the BoT stays on c0, one task
/// runs and 60 queue there: 60, 0 and 0.
#[test]
fn under_task_the_queued_tasks_go_round_the_clusters_in_turn() {
    let a: &[f64] = &[100.0; 61];
    let bots: &[(f64, u32, &[f64])] = &[(0.0, 0, a)];
    let platform = [(1, 1.0), (1, 1.0), (1, 1.0)];
    let mut cfg = config(Fcondor, S::ST, P::Fplt);
    cfg.sample_interval = 1.0;
    let queued_at_1 = |cfg| {
        let (_, sim) = ends(cfg, &platform, bots);
        let first = &sim.samples()[0];
        assert_eq!(first.time, 1.0);
        first.cluster_queued.clone()
    };
    assert_eq!(queued_at_1(cfg.clone()), vec![20, 19, 19]);
    cfg.fcondor_move = FcondorMove::Bot;
    assert_eq!(queued_at_1(cfg), vec![60, 0, 0]);
}
