//! Each scheduling policy on a hand-built view where its choice is known.
use super::*;

struct Fixture {
    speed: Vec<f64>,
    managed: Vec<u32>,
    free: FreeSet,
    listed: FreeSet,
    ends: Vec<f64>,
    queued: Vec<u32>,
    counts: Vec<u32>,
}

impl Fixture {
    /// Three clusters: 0 slow (1.0), 1 fast (1.5), 2 medium (1.25); `free` lists those with a free processor.
    fn new(free: &[u32], ends: [f64; 3]) -> Self {
        let speed = vec![1.0, 1.5, 1.25];
        let (mut set, mut listed) = (FreeSet::new(&speed), FreeSet::listed(3));
        for &c in free {
            set.insert(c);
            listed.insert(c);
        }
        let counts = (0..3).map(|c| u32::from(free.contains(&c))).collect();
        Fixture { speed, managed: vec![1, 2, 0], free: set, listed, ends: ends.to_vec(), queued: vec![0; 3], counts }
    }
    fn choose(&self, p: &mut dyn TaskScheduling, estimate: f64) -> Choice {
        let free_at = |c: u32| self.ends[c as usize].max(100.0);
        let view = ResourceView {
            now: 100.0,
            speed: &self.speed,
            managed: &self.managed,
            free: &self.free,
            free_listed: &self.listed,
            free_count: &self.counts,
            free_at: &free_at,
            queued: &self.queued,
        };
        p.choose(estimate, &view)
    }
}

#[test]
fn fastest_free_for_fplt_and_fpf() {
    let f = Fixture::new(&[0, 2], [0.0; 3]);
    assert_eq!(f.choose(&mut *SchedulingPolicy::Fplt.build(&Default::default()), 10.0), Choice::Start(2));
    assert_eq!(f.choose(&mut *SchedulingPolicy::Fpf.build(&Default::default()), 10.0), Choice::Start(2));
    assert_eq!(SchedulingPolicy::Fplt.build(&Default::default()).order(), TaskOrder::LargestFirst);
    assert_eq!(SchedulingPolicy::Fpf.build(&Default::default()).order(), TaskOrder::Fcfs);
}

#[test]
fn ect_waits_for_a_fast_cluster_that_frees_soon() {
    // Free: only the slow cluster 0. Cluster 1 (speed 1.5) frees at t = 110.
    let f = Fixture::new(&[0], [0.0, 110.0, 1e9]);
    // Long task of 300 s: on 0 it ends at 400; on 1 at 110 + 200 = 310 -> queue at cluster 1.
    assert_eq!(f.choose(&mut *SchedulingPolicy::Ect.build(&Default::default()), 300.0), Choice::Reserve(1));
    // Once that task is planned on 1, the chart frees 1 at 310: the next long task compares 0 (400) with 1
    // (310 + 200 = 510) and 2 (1e9) -> start on 0.
    let g = Fixture::new(&[0], [0.0, 310.0, 1e9]);
    assert_eq!(g.choose(&mut *SchedulingPolicy::Ect.build(&Default::default()), 300.0), Choice::Start(0));
    // A cluster with a free processor but tasks already queued there cannot start a task now: it queues.
    let mut q = Fixture::new(&[1], [0.0, 0.0, 1e9]);
    q.queued[1] = 2;
    assert_eq!(q.choose(&mut *SchedulingPolicy::Ect.build(&Default::default()), 300.0), Choice::Reserve(1));
    // Short task of 6 s: on 0 at 106; on 1 at 114 -> start on 0 now.
    assert_eq!(f.choose(&mut *SchedulingPolicy::Ect.build(&Default::default()), 6.0), Choice::Start(0));
    // A cluster whose estimate is already overdue counts as available now.
    let g = Fixture::new(&[0], [0.0, 50.0, 1e9]);
    assert_eq!(g.choose(&mut *SchedulingPolicy::EctP.build(&Default::default()), 6.0), Choice::Reserve(1));
    assert_eq!(SchedulingPolicy::EctP.build(&Default::default()).estimate(), Estimate::Predicted);
}

#[test]
fn dfplt_ranks_by_observed_speed() {
    let f = Fixture::new(&[0, 1, 2], [0.0; 3]);
    use super::super::options::{PolicyOptions, Unranked};
    let reference = PolicyOptions { dfplt_unranked: Unranked::Reference, ..Default::default() };
    let mut p = SchedulingPolicy::Dfplt.build(&reference);
    let mut first = SchedulingPolicy::Dfplt.build(&Default::default());
    // Nothing observed: all ranks equal; ties go to the lowest index, not to the true speed the policy cannot know.
    assert_eq!(f.choose(&mut *p, 5.0), Choice::Start(0));
    assert_eq!(f.choose(&mut *first, 5.0), Choice::Start(0));
    for q in [&mut p, &mut first] {
        q.observe_completion(0, 100.0, 200.0); // looks like speed 0.5
        q.observe_completion(1, 100.0, 80.0); // 1.25
    }
    // Cluster 2 is unranked: at 1.0 it loses to cluster 1 (1.25); under the default it is tried first.
    assert_eq!(f.choose(&mut *p, 5.0), Choice::Start(1));
    assert_eq!(f.choose(&mut *first, 5.0), Choice::Start(2));
    p.observe_completion(2, 100.0, 40.0); // 2.5
    assert_eq!(f.choose(&mut *p, 5.0), Choice::Start(2));
}

#[test]
fn round_robin_without_speed_information() {
    let f = Fixture::new(&[0, 1, 2], [0.0; 3]);
    let mut rr = SchedulingPolicy::Rr.build(&Default::default());
    let picks: Vec<Choice> = (0..4).map(|_| f.choose(&mut *rr, 1.0)).collect();
    // The default ring is the platform's listed order: RR knows no speeds.
    assert_eq!(picks, vec![Choice::Start(0), Choice::Start(1), Choice::Start(2), Choice::Start(0)]);
    assert_eq!(rr.max_replicas(), 1);
    assert_eq!(SchedulingPolicy::Wqr { replicas: 4 }.build(&Default::default()).max_replicas(), 4);
    assert_eq!(SchedulingPolicy::Stfr.build(&Default::default()).order(), TaskOrder::ShortestFirst);
    assert_eq!(SchedulingPolicy::Stfr.build(&Default::default()).max_replicas(), 1);
}

#[test]
fn names_round_trip() {
    for p in SchedulingPolicy::ALL {
        assert_eq!(p.to_string().parse::<SchedulingPolicy>().unwrap(), p);
        let json = serde_json::to_string(&p).unwrap();
        assert_eq!(serde_json::from_str::<SchedulingPolicy>(&json).unwrap(), p);
    }
    assert_eq!("wqr4x".parse::<SchedulingPolicy>().unwrap(), SchedulingPolicy::WqrX { n: 4 });
    assert_eq!("WQR3x".parse::<SchedulingPolicy>().unwrap(), SchedulingPolicy::WqrX { n: 3 });
    assert_eq!("WQR-4".parse::<SchedulingPolicy>().unwrap(), SchedulingPolicy::Wqr { replicas: 4 });
    // Every name is kept as written: WQR5x reads back as WQR5x, not as a WQR-n.
    for n in MIN_NX..=MAX_REPLICAS {
        let p = SchedulingPolicy::WqrX { n };
        assert_eq!(p.name(), format!("WQR{n}x"));
        assert_eq!(p.to_string().parse::<SchedulingPolicy>().unwrap(), p);
    }
    assert!("WQR1x".parse::<SchedulingPolicy>().unwrap_err().to_string().contains("2..16"));
    assert!("WQR17x".parse::<SchedulingPolicy>().unwrap_err().to_string().contains("2..16"));
    assert!("WQR-0".parse::<SchedulingPolicy>().unwrap_err().to_string().contains("1..16"));
    assert!("FOO".parse::<SchedulingPolicy>().unwrap_err().to_string().contains("allowed"));
}

#[test]
fn one_rule_for_every_wqr_nx_name() {
    use super::super::options::{PolicyOptions, WqrNx};
    let replicas = |name: &str, reading: WqrNx| {
        let p: SchedulingPolicy = name.parse().unwrap();
        p.build(&PolicyOptions { wqr_nx: reading, ..Default::default() }).max_replicas()
    };
    // "replicas": n replicas beyond the original; "copies": n copies in all, so n − 1 replicas. The same rule for
    // every n: WQR4x is no longer WQR5x under either reading.
    let names = ["WQR3x", "WQR4x", "WQR5x"];
    assert_eq!(names.map(|n| replicas(n, WqrNx::Replicas)), [3, 4, 5]);
    assert_eq!(names.map(|n| replicas(n, WqrNx::Copies)), [2, 3, 4]);
    // WQR-n, with the dash, is n replicas under either reading.
    assert_eq!(replicas("WQR-4", WqrNx::Replicas), 4);
    assert_eq!(replicas("WQR-4", WqrNx::Copies), 4);
}

#[test]
fn the_key_wqr4x_still_loads_as_wqr_nx() {
    use super::super::options::{PolicyOptions, WqrNx};
    let old: PolicyOptions = serde_json::from_str(r#"{"wqr4x": "copies"}"#).unwrap();
    assert_eq!(old.wqr_nx, WqrNx::Copies);
    let new: PolicyOptions = serde_json::from_str(r#"{"wqr_nx": "copies"}"#).unwrap();
    assert_eq!(old, new);
    assert!(serde_json::to_string(&new).unwrap().contains("\"wqr_nx\":\"copies\""));
}

#[test]
fn the_ring_goes_in_listed_order_or_fastest_first() {
    // Speeds 1.0, 1.5, 1.25, all free. Listed order: 0, 1, 2, 0, …; fastest first: 1, 2, 0, 1, … The same ring for
    // RR, WQR-n, WQRnx and STFR (none of them knows speeds).
    use super::super::options::{PolicyOptions, RrRing};
    let f = Fixture::new(&[0, 1, 2], [0.0; 3]);
    for policy in [
        SchedulingPolicy::Rr,
        SchedulingPolicy::Wqr { replicas: 2 },
        SchedulingPolicy::WqrX { n: 4 },
        SchedulingPolicy::Stfr,
    ] {
        assert!(policy.rings());
        for (ring, want) in [(RrRing::Platform, [0, 1, 2, 0]), (RrRing::Speed, [1, 2, 0, 1])] {
            let mut p = policy.build(&PolicyOptions { rr_ring: ring, ..Default::default() });
            let picks: Vec<Choice> = (0..4).map(|_| f.choose(&mut *p, 1.0)).collect();
            assert_eq!(picks, want.map(Choice::Start).to_vec(), "{policy} {ring:?}");
        }
    }
    assert_eq!(RrRing::default(), RrRing::Platform);
    assert!(!SchedulingPolicy::Fpf.rings() && !SchedulingPolicy::Fplt.rings());
}

#[test]
fn a_site_fcfs_keeps_the_order_and_any_free_processor() {
    let f = Fixture::new(&[2], [0.0; 3]);
    let mut p = site_fcfs();
    assert_eq!(p.order(), TaskOrder::Fcfs);
    assert_eq!(p.estimate(), Estimate::None);
    assert_eq!(p.max_replicas(), 0);
    assert_eq!(f.choose(&mut *p, 1e6), Choice::Start(2));
}
