//! Every family's tools and its own run bar, on the built page in headless Chromium: a multi-cluster run's NSL
//! reads as a factor and its "?" opens the glossary at NSL; the run bar follows the family shown (a family never
//! shows another's run); the desktop grid and the data grid offer a link, the report as JSON (the native report of
//! the same scenario, number for number) and their charts as PNG.
//!
//! Run with scripts/test-browser.sh (it builds the page first). One browser per test; `--test-threads=1`.

use std::time::Duration;

use bagsim::registry::Family;
use bagsim::scenario::Scenario;
use e2e::*;

/// One day at a low load: a run of a second or two.
fn small_mc() -> Scenario {
    Scenario::from_json(r#"{"seed": 4, "workload": {"submission_period": 43200, "load": 0.3}}"#).expect("valid")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_family_has_its_tools_and_its_own_run_bar() {
    with_browser(|client, base| async move {
        open_ready(&client, &format!("{base}?scenario={}", scenario_param(&small_mc()))).await;
        let before = text(&client, "#current-run-label").await.unwrap_or_default();
        assert!(before.starts_with("No run yet"), "before any run the legend names {before:?}");
        run_to_the_end(&client).await;

        // The NSL card reads as a factor; its "?" opens the glossary at NSL (a tap works where a title never shows).
        let nsl = text(&client, "#card-nsl .card-value").await.unwrap_or_default();
        assert!(nsl.ends_with('×'), "the NSL card reads {nsl:?}");
        assert!(!prop(&client, "#glossary", "open").await.as_bool().unwrap_or(true), "the glossary starts closed");
        click(&client, "#card-nsl .help").await;
        wait_for(&client, Duration::from_secs(5), "the glossary open at NSL", || async {
            let open = prop(&client, "#glossary", "open").await.as_bool().unwrap_or(false);
            let focused = js(&client, "return document.activeElement && document.activeElement.id;", vec![]).await;
            (open && focused.as_str() == Some("gl-nsl")).then_some(())
        })
        .await;
        let label = text(&client, "#current-run-label").await.unwrap_or_default();
        assert!(label.contains("csp") && label.contains("0.3"), "the current run is labelled {label:?}");
        let mc_message = text(&client, "#message").await.unwrap_or_default();

        // Another family shows its own run bar, fresh; the multi-cluster one comes back as it was.
        set_control(&client, "#family", "desktop_grid").await;
        assert_eq!(status(&client).await, "ready", "the desktop grid shows the multi-cluster run's status");
        assert_eq!(text(&client, "#events-per-s").await.unwrap_or_default(), "", "another family's progress shows");
        set_control(&client, "#dg-bots", "8").await;
        set_control(&client, "#dg-seed", "3").await;
        let dg_scenario = scenario_in_url(&client).await;
        assert_eq!(dg_scenario.family(), Family::DesktopGrid);
        assert!(!is_enabled(&client, "#dg-export-json").await, "a report to export before any run");
        run_to_the_end(&client).await;
        assert!(!is_enabled(&client, "#export-json").await, "the multi-cluster export would give the other run");
        set_control(&client, "#family", "multi_cluster").await;
        assert_eq!(status(&client).await, "finished");
        assert_eq!(text(&client, "#message").await.unwrap_or_default(), mc_message, "the multi-cluster bar changed");
        assert!(!is_enabled(&client, "#export-json").await, "the worker keeps the desktop-grid run alone");
        set_control(&client, "#family", "desktop_grid").await;
        assert_eq!(status(&client).await, "finished");

        // The desktop grid's tools: the report is the native one of the same scenario; a link; a chart as PNG.
        capture_downloads(&client).await;
        click(&client, "#dg-export-json").await;
        let (name, json) = captured_download(&client, 1, Duration::from_secs(30)).await;
        let page: serde_json::Value = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{name}: {e}"));
        let native = bagsim::registry::run_any(&dg_scenario).expect("runs natively");
        let native: serde_json::Value = serde_json::from_str(&native.to_json().unwrap()).unwrap();
        assert_eq!(page["metrics"]["turnaround"], native["metrics"]["turnaround"], "the exported report");
        assert_eq!(page["scenario"], native["scenario"]);
        click(&client, "#dg-chart-replicas-png").await;
        let (name, url) = captured_download(&client, 2, Duration::from_secs(30)).await;
        assert!(name.ends_with(".png") && url.starts_with("data:image/png"), "{name}: {}", &url[..url.len().min(40)]);
        click(&client, "#dg-share").await;
        assert_eq!(scenario_in_url(&client).await, dg_scenario, "the link does not reproduce the scenario");

        // Pin, run another seed, compare: both runs on the charts, in the legend, the table and the Numbers.
        let first_tt = text(&client, "#dg-card-tt .card-value").await.unwrap_or_default();
        assert!(!is_enabled(&client, "#dg-unpin").await, "nothing pinned yet");
        click(&client, "#dg-pin").await;
        assert!(is_enabled(&client, "#dg-unpin").await, "the pinned run cannot be cleared");
        set_control(&client, "#dg-seed", "4").await;
        run_to_the_end(&client).await;
        let second_tt = text(&client, "#dg-card-tt .card-value").await.unwrap_or_default();
        let legend = text(&client, "#dg-results .pinned").await.unwrap_or_default();
        assert!(legend.contains("seed 3") && legend.contains("seed 4"), "the legend names {legend:?}");
        let row = js(
            &client,
            "return [...document.querySelectorAll('#dg-pinned-compare tbody tr')].find(r => \
             r.querySelector('th').textContent.startsWith('Mean turnaround'))?.querySelectorAll('td').length ?? 0;",
            vec![],
        )
        .await;
        assert_eq!(row, serde_json::json!(2), "the comparison has no pinned and current turnaround");
        let cells = text(&client, "#dg-pinned-compare").await.unwrap_or_default();
        assert!(cells.contains(&first_tt) && cells.contains(&second_tt), "{cells:?} lacks {first_tt} and {second_tt}");
        click(&client, "#dg-chart-machines-numbers-toggle").await;
        let tables = js(
            &client,
            "return [...document.querySelectorAll('#dg-chart-machines-numbers table')].map(t => \
             [t.caption.textContent, t.tBodies[0].rows.length]);",
            vec![],
        )
        .await;
        let tables: Vec<(String, u64)> = serde_json::from_value(tables).unwrap();
        assert_eq!(tables.len(), 2, "Numbers shows {tables:?}");
        assert!(tables[0].0.contains("seed 3") && tables[1].0.contains("seed 4"), "{tables:?}");
        assert!(tables.iter().all(|t| t.1 > 0), "{tables:?}");
        js(&client, "document.querySelector('#dg-results .pinned').scrollIntoView(); return true;", vec![]).await;
        println!("screenshot: {}", screenshot(&client, "dg-pinned.png").await.display());

        // The data grid has the same tools under the same names.
        set_control(&client, "#family", "data_grid").await;
        for id in ["#dd-share", "#dd-export-json", "#dd-export-csv", "#dd-export-jobs"] {
            assert!(exists(&client, id).await, "the data grid has no {id}");
        }
        assert_eq!(status(&client).await, "ready");
        println!("screenshot: {}", screenshot(&client, "family-tools.png").await.display());
    })
    .await;
}
