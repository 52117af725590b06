//! Per-cluster streams ([Iosup08] §4.2) and the runtime calibration: each stream's share of the load, stream
//! independence, and the task counts the paper states for its workloads.

use bagsim::run;
use bagsim::scenario::McScenario;
use bagsim::workload::streams::{LoadSplit, Streams};

fn scenario(load: f64, seed: u64) -> McScenario {
    let mut s = McScenario { seed, ..Default::default() };
    s.workload.load = Some(load);
    s
}

/// A light-tailed model (exponential runtimes of mean 10 min, single-task BoTs, no daily cycle), so that one BoT
/// is a small step of any stream's work and the share can be checked to 1% on every cluster.
fn light_tailed(load: f64, seed: u64) -> McScenario {
    let json = format!(
        r#"{{
        "seed": {seed},
        "workload": {{
            "model": {{
                "users": {{"alpha": 1.0, "n": 10}},
                "iat": {{"dist": {{"family": "exponential", "mean": 60.0}}}},
                "daily_cycle": null,
                "size": {{"dist": {{"family": "constant", "value": 1.0}}}},
                "art": {{"dist": {{"family": "constant", "value": 600.0}}}},
                "rtv": {{"dist": {{"family": "constant", "value": 360000.0}}}}
            }},
            "load": {load},
            "submission_period": 604800,
            "calibration": "seconds"
        }}
    }}"#
    );
    McScenario::from_json(&json).expect("valid scenario")
}

/// Under `load_split = "capacity"` every stream carries the target load of its own cluster's capacity; under
/// `"equal"` (the default) every stream carries the same work, the target load of the mean cluster's capacity.
#[test]
fn each_cluster_stream_reaches_its_share_of_the_load() {
    for split in LoadSplit::ALL {
        for (load, seed) in [(0.2, 1), (0.6, 2), (0.95, 3)] {
            let mut s = light_tailed(load, seed);
            s.workload.load_split = split;
            let p = run::prepare(&s).unwrap();
            assert_eq!(p.streams.len(), p.clusters.len());
            let caps: Vec<f64> = p.clusters.iter().map(|c| f64::from(c.processors) * c.speed).collect();
            let mean_cap = caps.iter().sum::<f64>() / caps.len() as f64;
            let w = &p.generated.workload;
            for (c, (stream, cluster)) in p.streams.iter().zip(&p.clusters).enumerate() {
                assert_eq!(stream.cluster, cluster.name);
                assert!(
                    (stream.achieved_load / load - 1.0).abs() < 0.01,
                    "{} at {load} ({split:?}): achieved {}",
                    cluster.name,
                    stream.achieved_load
                );
                // The stream's work is the cluster's own BoTs.
                let work: f64 = (0..w.bots.len())
                    .filter(|&b| w.bots[b].home == Some(c as u32))
                    .map(|b| w.bot_runtimes(b).iter().sum::<f64>())
                    .sum();
                let cap = if split == LoadSplit::Capacity { caps[c] } else { mean_cap };
                let share = work / (cap * s.workload.submission_period);
                assert!(
                    (share / stream.achieved_load - 1.0).abs() < 1e-9,
                    "{}: {share} vs {}",
                    cluster.name,
                    stream.achieved_load
                );
            }
            assert!((p.generated.achieved_load / load - 1.0).abs() < 0.01);
        }
    }
}

/// The Avg row under the default calibration is heavy-tailed: a small cluster's month may hold a BoT that alone
/// is more than 1% of its share. Then the generator must say so, and the miss must be within that one BoT's step
/// (the search found the closest count of BoTs).
#[test]
fn heavy_tailed_streams_miss_only_by_one_bot_and_say_so() {
    let mut missed = 0;
    for (load, seed) in [(0.2, 1), (0.6, 2), (0.95, 3)] {
        let p = run::prepare(&scenario(load, seed)).unwrap();
        for stream in &p.streams {
            let miss = (stream.achieved_load / load - 1.0).abs();
            let warning = p.generated.warnings.iter().find(|w| w.starts_with(&format!("cluster {}:", stream.cluster)));
            if miss < 0.01 {
                assert!(warning.is_none(), "{}: {warning:?}", stream.cluster);
                continue;
            }
            missed += 1;
            let w =
                warning.unwrap_or_else(|| panic!("{} misses its share by {miss} without a warning", stream.cluster));
            // "… alone carries X% of the target work …"
            let step: f64 =
                w.split("alone carries ").nth(1).and_then(|t| t.split('%').next()).unwrap().parse().unwrap();
            assert!(
                miss * 100.0 <= step + 0.05,
                "{}: missed by {:.2}%, one BoT is {step}%",
                stream.cluster,
                miss * 100.0
            );
        }
    }
    // A measured fact of this model, not a target: most big clusters meet 1%.
    assert!(missed < 3 * 20, "{missed}");
}

#[test]
fn changing_one_cluster_leaves_the_other_streams_identical() {
    // Under the capacity split a stream depends on its own cluster only (under the equal split every stream's
    // share depends on the mean capacity, so resizing one cluster rescales them all).
    let mut base = scenario(0.5, 7);
    base.workload.load_split = LoadSplit::Capacity;
    let mut changed = base.clone();
    let mut clusters = bagsim::family::multi_cluster::platform::das2_g5k();
    clusters[3].processors *= 2;
    clusters[3].speed = 1.7;
    changed.platform = bagsim::family::multi_cluster::platform::PlatformSpec { preset: None, clusters: Some(clusters) };
    let a = run::prepare(&base).unwrap().generated.workload;
    let b = run::prepare(&changed).unwrap().generated.workload;
    let of = |w: &bagsim::workload::Workload, c: u32| -> Vec<(u64, u32, Vec<u64>)> {
        (0..w.bots.len())
            .filter(|&i| w.bots[i].home == Some(c))
            .map(|i| {
                (w.bots[i].arrival.to_bits(), w.bots[i].user, w.bot_runtimes(i).iter().map(|r| r.to_bits()).collect())
            })
            .collect()
    };
    for c in 0..20 {
        if c == 3 {
            assert_ne!(of(&a, c), of(&b, c), "cluster 3's stream should change with its capacity");
        } else {
            assert_eq!(of(&a, c), of(&b, c), "cluster {c}'s stream changed");
            assert!(!of(&a, c).is_empty());
        }
    }
}

#[test]
fn streams_have_their_own_users_and_home_cluster() {
    let p = run::prepare(&scenario(0.5, 11)).unwrap();
    let w = &p.generated.workload;
    assert_eq!(w.users, 20 * 368);
    for b in &w.bots {
        let home = b.home.expect("per-cluster BoTs carry their cluster");
        assert_eq!(b.user / 368, home, "user {} is not one of cluster {home}'s", b.user);
    }
    assert!(w.bots.windows(2).all(|p| p[0].arrival <= p[1].arrival));
    let mut g = scenario(0.5, 11);
    g.workload.streams = Streams::Global;
    let p = run::prepare(&g).unwrap();
    assert!(p.streams.is_empty() && p.generated.workload.bots.iter().all(|b| b.home.is_none()));
}

/// [Iosup08] §4.2: "Our workloads have between 20,000 and 175,000 tasks, with an average of over 60,000 tasks
/// (the median is over 64,000 tasks)". The `sd` reading of Table 3's normal (Avg, per-cluster streams, the
/// minutes calibration, a month on DAS-2 + Grid'5000) at the study's loads, three seeds each. The default reading,
/// `variance`, does not keep these counts (docs/model.md, "Which runtime reading").
#[test]
fn the_sd_reading_has_the_papers_task_counts() {
    let mut counts = Vec::new();
    for load in bagsim::family::multi_cluster::figures::STUDY_LOADS {
        for seed in 1..=3 {
            let mut s = scenario(load, seed);
            s.workload.normal_param = bagsim::workload::model::NormalParam::Sd;
            let p = run::prepare(&s).unwrap();
            let n = p.generated.workload.tasks();
            assert!((20_000..=175_000).contains(&n), "load {load}, seed {seed}: {n} tasks");
            counts.push(n as f64);
        }
    }
    let mean = counts.iter().sum::<f64>() / counts.len() as f64;
    counts.sort_by(f64::total_cmp);
    let median = counts[counts.len() / 2];
    assert!(mean > 60_000.0, "mean {mean}");
    assert!(median > 64_000.0, "median {median}");
}
