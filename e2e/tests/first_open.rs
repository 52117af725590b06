//! The first open (the classroom issue, item 1): an empty profile opens the bare address and, without a click, the
//! page runs the default month at 95% load under csp, pins it, and runs sep-c beside it: the cards are filled with
//! the native numbers of the scenario the address then holds, and the charts show both runs. The next open of the
//! same profile (a scenario is saved now) runs nothing.
//!
//! Run with scripts/test-browser.sh (it builds the page first). One browser per test; `--test-threads=1`.

use std::time::{Duration, Instant};

use bagsim::family::multi_cluster::architecture::Architecture;
use bagsim::scenario::Scenario;
use e2e::*;

/// The legend's entries: the current run, then the pinned ones.
async fn legend(client: &e2e::fantoccini::Client) -> Vec<String> {
    let v = js(client, "return [...document.querySelectorAll('ul.pinned li')].map(e => e.textContent);", vec![]).await;
    v.as_array().map(|a| a.iter().filter_map(|x| x.as_str().map(String::from)).collect()).unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_first_open_shows_filled_cards_and_charts_without_a_click() {
    with_browser(|client, base| async move {
        let t0 = Instant::now();
        // The bare address: no scenario, no lesson, no autorun parameter; the profile is empty.
        client.goto(&base).await.unwrap_or_else(|e| panic!("cannot open {base}: {e}"));
        // The parts below the first screen wait for the runs (ui/later.rs); so does the page's second module, which
        // holds the paper figures and the like (ui/lazy.rs): it is not fetched while the first run goes on.
        wait_status(&client, &["generating", "running"], READY_TIMEOUT + RUN_TIMEOUT).await;
        let fetched = "return performance.getEntriesByType('resource').some(e => e.name.endsWith('/panels_bg.wasm'));";
        assert_eq!(js(&client, fetched, vec![]).await, serde_json::Value::Bool(false), "the second module came first");
        wait_for(&client, READY_TIMEOUT + 2 * RUN_TIMEOUT, "both first-open runs, the first pinned", || async {
            (status(&client).await == "finished" && legend(&client).await.len() == 2).then_some(())
        })
        .await;
        println!("first open: both runs in {:.1} s after the page was asked for", t0.elapsed().as_secs_f64());
        // Both runs are in: the parts below are built, the paper figures among them, mounted by the second module.
        wait_for(&client, Duration::from_secs(30), "the paper figures, from the second module", || async {
            exists(&client, "#lazy-paper #paper-run").await.then_some(())
        })
        .await;
        assert_eq!(js(&client, fetched, vec![]).await, serde_json::Value::Bool(true), "no second module was fetched");

        let items = legend(&client).await;
        assert!(items[1].contains("csp") && items[1].contains("0.95"), "the pinned run is not csp at 95%: {items:?}");
        // The scenario shown is the default one at 95% load under sep-c, and its cards are the native run's.
        let shown = scenario_in_url(&client).await;
        let mut expected = Scenario::default();
        expected.multi_cluster_mut().unwrap().workload.load = Some(0.95);
        expected.multi_cluster_mut().unwrap().architecture.kind = Architecture::SepC;
        assert_eq!(shown, expected, "the first open left another scenario in the address");
        let cards = cards(&client).await;
        for (id, v) in cards.figures() {
            assert!(parse_figure(v).is_some_and(f64::is_finite), "{id} is not filled: {v:?}");
        }
        assert_matches_native(&cards, &shown, "first open, sep-c");
        // sep-c leaves tasks unfinished at this load: the contrast the first open is there to show.
        let finished = parse_figure(&cards.finished).unwrap_or(f64::NAN);
        assert!(finished < 0.9, "sep-c finished {finished} of the tasks: no visible difference from csp");

        // Both runs are drawn, each in its colour (charts::PALETTE[0] for the current run, [1] for the pinned one).
        for canvas in ["#chart-queue", "#chart-nsl-class", "#chart-cdf", "#chart-util"] {
            let current = colour_pixels(&client, canvas, [0, 114, 178]).await;
            let pinned = colour_pixels(&client, canvas, [213, 94, 0]).await;
            println!("{canvas}: {current} pixels of the current run's colour, {pinned} of the pinned run's");
            assert!(current > 100 && pinned > 100, "{canvas} does not show both runs ({current} and {pinned} pixels)");
        }
        let message = text(&client, "#message").await.unwrap_or_default();
        assert!(message.contains("First look"), "the message does not say what the first open shows: {message:?}");
        println!("screenshot: {}", screenshot(&client, "first-open.png").await.display());

        // A scenario is saved now: the next open of the bare address runs nothing.
        client.goto(&base).await.unwrap_or_else(|e| panic!("cannot open {base}: {e}"));
        wait_status(&client, &["ready"], READY_TIMEOUT).await;
        tokio::time::sleep(Duration::from_secs(2)).await;
        assert_eq!(status(&client).await, "ready", "a second open started a run");
        assert_eq!(legend(&client).await.len(), 1, "a second open pinned a run");
        assert_eq!(
            attr(&client, "#card-nsl", "data-value").await.as_deref(),
            Some("NaN"),
            "a second open has a result"
        );
    })
    .await;
}
