//! "Which assumption carries this result?" on the built page (dist/) in headless Chromium: a paper figure's
//! findings under every value of one reading, run in the page's worker pool, give the verdicts and the numbers of
//! the same library code run natively (`bagsim reproduce FIG --readings`, `bagsim dg-figure N --readings`).
//!
//! Run with scripts/test-browser.sh (it builds the page first). One browser per test; `--test-threads=1`.

use std::time::Duration;

use bagsim::readings::{combinations, parse_axis, ReadingsTable, Seeds};
use bagsim::registry::Family;
use bagsim::scenario::Scenario;
use e2e::fantoccini::Client;
use e2e::*;

/// Each cell of the page's table as (verdict, text), row by row.
async fn page_cells(client: &Client, table: &str) -> Vec<(String, String)> {
    let v = js(
        client,
        "return [...document.querySelectorAll(arguments[0] + ' tbody td[data-verdict]')]
            .map(td => [td.dataset.verdict, td.textContent]);",
        vec![serde_json::json!(table)],
    )
    .await;
    v.as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| Some((c[0].as_str()?.to_string(), c[1].as_str()?.to_string())))
        .collect()
}

/// The native table's cells in the page's order: per finding, per reading.
fn native_cells(t: &ReadingsTable) -> Vec<(String, String)> {
    let n = t.rows.first().map_or(0, |r| r.claims.len());
    (0..n)
        .flat_map(|k| {
            t.rows.iter().map(move |r| {
                let c = &r.claims[k];
                (c.verdict.label().to_string(), format!("{} {}", c.verdict.label(), c.ours))
            })
        })
        .collect()
}

async fn wait_finished(client: &Client, status: &str, timeout: Duration) {
    wait_for(client, timeout, &format!("{status} finished"), || async {
        let s = text(client, status).await.unwrap_or_default();
        assert!(!s.contains("failed") && !s.contains("readings "), "{status}: {s}");
        s.starts_with("finished").then_some(())
    })
    .await;
}

/// Figure 11 under both load splits, five seeds per point: the page's verdicts and numbers are the native study's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn multi_cluster_readings_match_the_native_study() {
    use bagsim::family::multi_cluster::figures::{run_point, study::study, FigureId};
    use bagsim::family::multi_cluster::readings::READINGS;
    let combos = combinations(&[parse_axis("workload.load_split=all", READINGS).unwrap()]);
    let run = |specs: &[bagsim::family::multi_cluster::figures::RunSpec]| {
        specs.iter().map(|s| run_point(&s.scenario).map_err(bagsim::study::PointError::Run)).collect::<Vec<_>>()
    };
    // The quick base (one day of submissions): the month would take this test hours.
    let quick = bagsim::family::multi_cluster::figures::QUICK_PERIOD;
    let base = bagsim::family::multi_cluster::figures::base_of_period(quick);
    let native = study(FigureId::Fig11, &base, &combos, Seeds::Fixed(5), &run).unwrap();
    with_browser(|client, base| async move {
        open_ready(&client, &base).await;
        set_control(&client, "#paper-figure", "fig11").await;
        set_control(&client, "#paper-period", &quick.to_string()).await;
        set_control(&client, "#mc-readings-key", "workload.load_split").await;
        let rests = text(&client, "#mc-readings-rests").await.unwrap_or_default();
        assert!(rests.contains("average system"), "no sentence under the reading: {rests:?}");
        let t0 = std::time::Instant::now();
        click(&client, "#mc-readings-run").await;
        wait_finished(&client, "#mc-readings-status", Duration::from_secs(600)).await;
        println!("Figure 11 × 2 load splits × 5 seeds: {:.1} s in the page", t0.elapsed().as_secs_f64());
        let cells = page_cells(&client, "#mc-readings-table").await;
        assert_eq!(cells, native_cells(&native), "the page's readings table differs from the native study");
        js(&client, "document.querySelector('#mc-readings').scrollIntoView(); return true;", vec![]).await;
        println!("screenshot: {}", screenshot(&client, "readings-mc.png").await.display());
        // The help links to the docs published with the page, at the section it names.
        let href = js(&client, "return document.querySelector('#mc-readings a').href;", vec![]).await;
        let href = href.as_str().expect("a link in the readings help").to_string();
        assert!(href.contains("/docs/model.html#"), "{href}");
        client.goto(&href).await.unwrap();
        let anchor = href.split('#').nth(1).unwrap().to_string();
        let found =
            js(&client, "return !!document.getElementById(arguments[0]);", vec![serde_json::json!(anchor)]).await;
        assert_eq!(found, serde_json::json!(true), "{href} has no element #{anchor}");
        println!("screenshot: {}", screenshot(&client, "docs-readings.png").await.display());
    })
    .await;
}

/// Desktop-grid Fig. 2 on 30 BoTs, at most 3 seeds per bar, with and without checkpoint transfers: the page's
/// findings equal the native study's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn desktop_grid_readings_match_the_native_study() {
    use bagsim::family::desktop_grid::figures::study::study;
    use bagsim::family::desktop_grid::figures::CiRule;
    use bagsim::family::desktop_grid::readings::READINGS;
    let mut s = Scenario::default_for(Family::DesktopGrid);
    let base = &mut s.desktop_grid_mut().unwrap().desktop_grid;
    base.bots = 30;
    let base = base.clone();
    let rule = CiRule { max_seeds: 3, ..CiRule::default() };
    let combos = combinations(&[parse_axis("desktop_grid.transfer_time=all", READINGS).unwrap()]);
    let run = |jobs: &[bagsim::family::desktop_grid::figures::BarJob]| {
        jobs.iter().map(|j| j.run(&|| 0.0)).collect::<Vec<_>>()
    };
    let native = study(2, &base, &combos, rule, &run).unwrap();
    with_browser(|client, url| async move {
        open_ready(&client, &url).await;
        set_control(&client, "#family", "desktop_grid").await;
        set_control(&client, "#dg-bots", "30").await;
        js(&client, "document.querySelector('#dg-figures').open = true; return true;", vec![]).await;
        set_control(&client, "#dg-figure-cap", "3").await;
        set_control(&client, "#dg-readings-key", "desktop_grid.transfer_time").await;
        click(&client, "#dg-readings-run").await;
        wait_finished(&client, "#dg-readings-status", Duration::from_secs(600)).await;
        let cells = page_cells(&client, "#dg-readings-table").await;
        assert_eq!(cells, native_cells(&native), "the page's readings table differs from the native study");
        js(&client, "document.querySelector('#dg-readings').scrollIntoView(); return true;", vec![]).await;
        println!("screenshot: {}", screenshot(&client, "readings-dg.png").await.display());
    })
    .await;
}
