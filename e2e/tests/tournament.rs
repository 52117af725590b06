//! The tournament of policies in headless Chromium: the project's example scripts and a broken one, picked through
//! the file input, are raced against the built-ins on the scenario shown; the standings equal those computed here
//! natively with the same library (`study::tournament`: the same runs, the same column, the same ranking), the
//! FPLT and ECT scripts (and the FPLT script of a pasted share link) score exactly as the built-ins they rewrite, and
//! the broken script is listed with its reason while the others are ranked.
//!
//! Run with scripts/test-browser.sh (it builds the page first).

use std::time::Duration;

use bagsim::registry::run_any;
use bagsim::scenario::Scenario;
use bagsim::study::tournament::{cell, contenders, runs, standings};
use e2e::fantoccini::Locator;
use e2e::*;

/// Six hours of submissions at 90% load on the default platform: a few seconds a run in the page.
const SCENARIO: &str = r#"{"seed": 3, "workload": {"load": 0.9, "submission_period": 21600}}"#;
/// A script refused before it runs: `order` must name an order.
const BROKEN: &str =
    "fn order() { 1 }\nfn estimate() { \"known\" }\nfn choose(e, view) { start(view.fastest_free()) }\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_class_scripts_race_as_natively_and_a_broken_one_is_named() {
    let root = workspace_root();
    let dir = artifact_dir();
    let broken = dir.join("broken.rhai");
    std::fs::write(&broken, BROKEN).unwrap();
    let files = [root.join("examples/policies/fplt.rhai"), root.join("examples/policies/ect.rhai"), broken.clone()];
    let base = Scenario::from_json(SCENARIO).unwrap();

    // The same tournament natively: 2 seeds, ranked by the family's column.
    let spec = base.family().tournament().expect("the multi-cluster family races scripts");
    let mut scripts: Vec<(String, String)> = files
        .iter()
        .map(|p| (p.file_stem().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(p).unwrap()))
        .collect();
    // A student's share link: the scenario with the FPLT script as its scheduling policy.
    let mut shared = serde_json::from_str::<serde_json::Value>(SCENARIO).unwrap();
    shared["scheduling"] = serde_json::json!({ "script": scripts[0].1 });
    let shared = Scenario::from_json(&shared.to_string()).unwrap();
    scripts.push(("link 1".into(), scripts[0].1.clone()));
    let racing = contenders(&spec, &scripts, true);
    let planned = runs(&base, &spec, &racing, 2);
    let column = base.family().sweep_header().split(',').position(|c| c == spec.metric).unwrap();
    let mut entries = bagsim::study::tournament::entries(&racing, &planned.refused);
    for (k, s) in &planned.runs {
        let report = run_any(s).unwrap_or_else(|e| panic!("{}: {e}", entries[*k].name));
        entries[*k].values.push(cell(&report.sweep_row(), column).unwrap());
    }
    let native = standings(&entries, false);

    with_browser(|client, base_url| async move {
        let link = format!("{base_url}?scenario={}", scenario_param(&Scenario::from_json(SCENARIO).unwrap()));
        open_ready(&client, &link).await;
        wait_for(&client, Duration::from_secs(30), "#tournament", || async {
            exists(&client, "#tournament").await.then_some(())
        })
        .await;
        js(&client, "document.getElementById('tournament').open = true;", vec![]).await;
        let input = client.find(Locator::Css("#tournament-files")).await.expect("#tournament-files");
        let paths: Vec<String> = files.iter().map(|p| p.to_string_lossy().into_owned()).collect();
        input.send_keys(&paths.join("\n")).await.expect("cannot pick the files");
        wait_for(&client, Duration::from_secs(10), "the three scripts", || async {
            text(&client, "#tournament-scripts").await.filter(|t| t.contains("broken"))
        })
        .await;
        let link = format!("{base_url}?scenario={}", scenario_param(&shared));
        set_control(&client, "#tournament-links", &link).await;
        set_control(&client, "#tournament-seeds", "2").await;
        click(&client, "#tournament-run").await;
        // Natively the broken script is refused as it is planned; the page, which has no script engine, plans its
        // runs and its worker refuses each: either way it is listed with the reason, and the others are ranked.
        wait_for(&client, RUN_TIMEOUT, "every run of the tournament", || async {
            let done = attr(&client, "#tournament-status", "data-done").await.unwrap_or_default();
            let total = attr(&client, "#tournament-status", "data-total").await.unwrap_or_default();
            (total != "0" && done == total).then_some(())
        })
        .await;
        let rows = js(
            &client,
            "return [...document.querySelectorAll('#tournament-table tbody tr')].map(r => \
             [r.dataset.name, r.dataset.rank, r.dataset.mean, r.cells[4].textContent]);",
            vec![],
        )
        .await;
        let rows: Vec<(String, String, String, String)> = serde_json::from_value(rows).expect("the table's rows");
        assert_eq!(rows.len(), native.len(), "{rows:?}");
        for (row, s) in rows.iter().zip(&native) {
            assert_eq!(row.0, s.name, "the page ranks as natively: {rows:?}");
            let rank = s.rank.map_or("—".to_string(), |r| if s.tied_above { format!("={r}") } else { r.to_string() });
            assert_eq!(row.1, rank, "{}", s.name);
            match s.reason {
                None => assert_eq!(row.2.parse::<f64>().ok(), Some(s.interval.mean), "{}: page against native", s.name),
                Some(ref why) => assert!(why.contains("fn order") && row.3.contains("fn order"), "{}: {why}", row.3),
            }
        }
        let mean = |name: &str| native.iter().find(|s| s.name == name).map(|s| s.interval.mean).unwrap();
        assert_eq!(mean("fplt"), mean("FPLT"), "the FPLT script scores as the built-in");
        assert_eq!(mean("ect"), mean("ECT"), "the ECT script scores as the built-in");
        assert_eq!(mean("link 1"), mean("FPLT"), "the FPLT script of a share link scores as the built-in");
        let broken = rows.iter().find(|r| r.0 == "broken").expect("the broken script is listed");
        assert_eq!(broken.1, "—");
        assert!(broken.3.contains("order"), "the broken script's reason: {}", broken.3);
        println!("standings: {rows:?}");
        js(&client, "document.getElementById('tournament').scrollIntoView();", vec![]).await;
        println!("screenshot: {}", screenshot(&client, "tournament.png").await.display());
        client.set_window_size(360, 800).await.expect("a phone's width");
        js(&client, "document.getElementById('tournament-table').scrollIntoView();", vec![]).await;
        println!("screenshot: {}", screenshot(&client, "tournament-360.png").await.display());
    })
    .await;
}
