//! The rules of a study: its points, shards, fingerprints and merge.

use super::*;

fn tiny() -> Scenario {
    Scenario::from_json(r#"{"workload": {"submission_period": 3600}}"#).unwrap()
}

fn fake(m: &Manifest, i: usize) -> ShardOutput {
    m.run_shard(i, |idx| {
        idx.iter()
            .map(|k| Ok(serde_json::to_value(RunRow { row: format!("r{k}"), report: Value::from(*k) }).unwrap()))
            .collect()
    })
    .unwrap()
}

#[test]
fn points_are_dealt_round_robin_and_every_point_once() {
    let axes = axes(&["load=0.2,0.5,0.95".into(), "scheduling=ECT,FPLT".into()]).unwrap();
    let m = plan(&tiny(), axes, 4).unwrap();
    assert_eq!(m.points.len(), 6);
    let mut seen: Vec<usize> = (0..4).flat_map(|i| m.shard_points(i).collect::<Vec<_>>()).collect();
    seen.sort_unstable();
    assert_eq!(seen, (0..6).collect::<Vec<_>>());
    assert_eq!(m.shard_points(1).collect::<Vec<_>>(), vec![1, 5]);
    assert_eq!(m.points[5].labels, vec!["0.95", "FPLT"]);
    assert_eq!(m.points[5].job["workload"]["load"], 0.95);
}

#[test]
fn a_merge_names_missing_foreign_and_failed_shards() {
    let m = plan(&tiny(), axes(&["load=0.2,0.5,0.8,0.9".into()]).unwrap(), 3).unwrap();
    let other = plan(&tiny(), axes(&["load=0.2,0.5,0.8,0.95".into()]).unwrap(), 3).unwrap();
    assert_ne!(m.study, other.study);
    let mut failed = fake(&m, 2);
    failed.points[0].outcome = Err(PointError::Reported("boom".into()));
    failed.content = failed.fingerprint();
    let outs = vec![Ok(None), Ok(Some(fake(&other, 1))), Ok(Some(failed))];
    let p = m.merge(&outs).unwrap_err();
    assert_eq!(p.missing, vec![0]);
    assert_eq!(p.failed.len(), 2);
    assert!(p.failed[0].1.contains("belongs to study"), "{}", p.failed[0].1);
    assert!(p.failed[1].1.contains("load=0.8") && p.failed[1].1.contains("boom"), "{}", p.failed[1].1);
    assert_eq!(p.shards(), vec![0, 1, 2]);
    let whole: Vec<_> = (0..3).map(|i| Ok(Some(fake(&m, i)))).collect();
    let (csv, _) = m.merge(&whole).unwrap();
    let lines: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(lines, vec!["0.2,r0", "0.5,r1", "0.8,r2", "0.9,r3"]);
}

/// A manifest or a shard edited after it was written is refused, naming its fingerprint.
#[test]
fn edited_manifests_and_shards_are_refused() {
    let m = plan(&tiny(), axes(&["load=0.2,0.5".into()]).unwrap(), 2).unwrap();
    let text = serde_json::to_string(&m).unwrap();
    assert_eq!(Manifest::from_json(&text).unwrap(), m);
    for (from, to) in [("\"multi_cluster\"", "\"desktop_grid\""), ("0.2", "0.3"), ("\"shards\":2", "\"shards\":1")] {
        let edited = text.replacen(from, to, 1);
        assert_ne!(edited, text, "{from}");
        let e = Manifest::from_json(&edited).unwrap_err().to_string();
        assert!(e.contains("edited after it was planned"), "{from}: {e}");
    }
    let mut shard = fake(&m, 0);
    shard.points[0].outcome = Ok(Value::from("forged"));
    let outs = vec![Ok(Some(shard)), Ok(Some(fake(&m, 1)))];
    let p = m.merge(&outs).unwrap_err();
    assert!(p.failed[0].1.contains("edited after it was written"), "{p}");
}

#[test]
fn shard_counts_and_indices_out_of_range_are_refused() {
    let ax = || axes(&["load=0.2,0.5".into()]).unwrap();
    assert!(plan(&tiny(), ax(), 0).unwrap_err().to_string().contains("allowed 1–100000"));
    assert!(plan(&tiny(), ax(), 3).unwrap_err().to_string().contains("only 2 points"));
    let m = plan(&tiny(), ax(), 2).unwrap();
    assert!(m.check_shard(2).unwrap_err().to_string().contains("shards 0–1"));
    assert!(plan(&tiny(), axes(&["load=2".into()]).unwrap(), 1).unwrap_err().to_string().contains("workload.load"));
}

#[test]
fn paths_follow_the_manifest_stem() {
    let stem = stem_of(std::path::Path::new("out/study.manifest.json"));
    assert_eq!(stem, std::path::PathBuf::from("out/study"));
    assert_eq!(shard_path(&stem, 7), std::path::PathBuf::from("out/study.shard-7.json"));
}
