//! "Open a study" in headless Chromium: a study run in shards and merged (as on a Slurm cluster) is picked through the
//! file input and drawn like the page's own sweeps; the plotted means and 95% intervals equal those computed here
//! from the CSV's cells, and a file that is not a study is refused while the study shown stays.
//!
//! Run with scripts/test-browser.sh (it builds the page first).

use std::time::Duration;

use bagsim::scenario::Scenario;
use bagsim::study::{axes, plan};
use e2e::fantoccini::{Client, Locator};
use e2e::*;

/// A multi-cluster study of 2 loads × 2 policies × 3 seeds, run in 3 shards and merged: the CSV `bagsim merge` writes.
fn merged_study() -> String {
    let base = Scenario::from_json(r#"{"workload": {"submission_period": 21600}}"#).unwrap();
    let sets: Vec<String> = ["load=0.5,0.9", "scheduling=ECT,RR", "seed=1,2,3"].iter().map(|s| s.to_string()).collect();
    let m = plan(&base, axes(&sets).unwrap(), 3).unwrap();
    let outs: Vec<_> = (0..3)
        .map(|i| {
            Ok(Some(
                m.run_shard(i, |idx| idx.iter().map(|&k| bagsim::study::run_point(&m.points[k])).collect()).unwrap(),
            ))
        })
        .collect();
    m.merge(&outs).unwrap().0
}

/// The mean and the modified Cox 95% interval of the CSV's `column` at (load, policy), from the cells alone, by the
/// formula (docs/model.md, "Seeds and confidence intervals"): n = 3 seeds, y = ln x,
/// exp(ȳ + s²/2 ± t_{0.975,2} · √(s²/3 + s⁴/4)).
fn by_hand(csv: &str, column: &str, load: &str, policy: &str) -> (f64, f64, f64) {
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let c = header.iter().position(|h| *h == column).unwrap();
    let v: Vec<f64> = lines
        .map(|l| l.split(',').collect::<Vec<_>>())
        .filter(|r| r[0] == load && r[1] == policy)
        .map(|r| r[c].parse().unwrap())
        .collect();
    assert_eq!(v.len(), 3);
    let mean = v.iter().sum::<f64>() / 3.0;
    let y: Vec<f64> = v.iter().map(|x| x.ln()).collect();
    let ybar = y.iter().sum::<f64>() / 3.0;
    let s2 = y.iter().map(|y| (y - ybar) * (y - ybar)).sum::<f64>() / 2.0;
    let spread = 4.302652730 * (s2 / 3.0 + s2 * s2 / 4.0).sqrt();
    (mean, (ybar + s2 / 2.0 - spread).exp(), (ybar + s2 / 2.0 + spread).exp())
}

async fn pick(client: &Client, path: &std::path::Path) {
    let input = client.find(Locator::Css("#study-file")).await.expect("#study-file");
    input.send_keys(path.to_str().expect("a UTF-8 path")).await.expect("cannot pick the file");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_merged_study_opens_and_draws_its_means_and_intervals() {
    let csv = merged_study();
    let dir = artifact_dir();
    let good = dir.join("study.csv");
    std::fs::write(&good, &csv).unwrap();
    let bad = dir.join("not-a-study.csv");
    std::fs::write(&bad, "a,b\n1,2\n").unwrap();
    with_browser(|client, base| async move {
        open_ready(&client, &base).await;
        wait_for(&client, Duration::from_secs(30), "#study", || async {
            exists(&client, "#study").await.then_some(())
        })
        .await;
        js(&client, "document.getElementById('study').open = true;", vec![]).await;
        pick(&client, &good).await;
        let summary = wait_for(&client, Duration::from_secs(30), "the study's summary", || async {
            text(&client, "#study-summary").await.filter(|s| s.contains("runs"))
        })
        .await;
        assert!(summary.contains("multi_cluster family, 12 runs"), "{summary}");
        assert!(summary.contains("3 seeds per point"), "{summary}");
        let series = attr(&client, "#chart-study", "data-series").await.expect("the chart's data");
        // Per line: its label, and per point x, mean, the 95% interval's bounds and seeds.
        type Points = Vec<(f64, f64, f64, f64, usize)>;
        let lines: Vec<(String, Points)> = serde_json::from_str(&series).unwrap();
        assert_eq!(lines.iter().map(|l| l.0.as_str()).collect::<Vec<_>>(), vec!["ECT", "RR"]);
        for (policy, points) in &lines {
            assert_eq!(points.iter().map(|p| p.0).collect::<Vec<_>>(), vec![0.5, 0.9]);
            for (p, load) in points.iter().zip(["0.5", "0.9"]) {
                let (mean, low, high) = by_hand(&csv, "mean_makespan", load, policy);
                assert!((p.1 - mean).abs() <= 1e-9 * mean.abs(), "{policy} at {load}: page {} here {mean}", p.1);
                for (page, here) in [(p.2, low), (p.3, high)] {
                    assert!((page - here).abs() <= 1e-6 * here.abs(), "{policy} at {load}: page {page} here {here}");
                }
                assert_eq!(p.4, 3);
            }
        }
        assert!(non_white_pixels(&client, "#chart-study").await > 1000, "the chart is drawn");
        js(&client, "document.getElementById('study').scrollIntoView();", vec![]).await;
        screenshot(&client, "study.png").await;

        pick(&client, &bad).await;
        let error = wait_for(&client, Duration::from_secs(30), "the refusal", || async {
            text(&client, "#study-error").await.filter(|s| !s.is_empty())
        })
        .await;
        assert!(error.contains("not-a-study.csv") && error.contains("line 1"), "{error}");
        let kept = text(&client, "#study-summary").await.unwrap_or_default();
        assert_eq!(kept, summary, "the study shown before stays");
    })
    .await;
}
