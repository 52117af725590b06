//! The Workload lab's replays in headless Chromium: a log whose parallel jobs a multi-cluster replay would drop says
//! so and offers both ways out; "Replay its jobs whole" runs the log's rigid jobs in the data grid, with the cards
//! of the native run of the same scenario; "Run this trace" runs; a link to a replay whose trace is not loaded
//! says so before Run and refuses the run, instead of failing in the worker.
//!
//! Run with scripts/test-browser.sh (it builds the page first).

use std::time::Duration;

use bagsim::registry::{run_any, AnyReport, Family};
use bagsim::trace::bots::{extract, BotRule, MultiProc};
use bagsim::trace::import_path;
use e2e::fantoccini::Locator;
use e2e::*;

const IMPORT_TIMEOUT: Duration = Duration::from_secs(60);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_log_with_parallel_jobs_is_replayed_whole_in_the_data_grid() {
    let file = workspace_root().join("tests/data/hpc2n.swf");
    let native = import_path(&file, None).expect("the native import");
    let reject = extract(&native, &BotRule::default()).expect("BoTs");
    assert!(reject.report.parallel_jobs > 0, "the test log has parallel jobs");
    let split = extract(&native, &BotRule { multi_proc: MultiProc::Split, ..BotRule::default() }).expect("split BoTs");
    assert!(split.report.tasks > reject.report.tasks, "splitting keeps the parallel jobs' work");
    with_browser(|client, base| async move {
        open_ready(&client, &base).await;
        let input = client.find(Locator::Css("#trace-file")).await.expect("#trace-file");
        input.send_keys(file.to_str().unwrap()).await.expect("cannot pick the file");
        wait_for(&client, IMPORT_TIMEOUT, "the parallel-jobs warning", || async {
            text(&client, "#trace-parallel").await
        })
        .await;
        let warning = text(&client, "#trace-parallel").await.unwrap_or_default();
        assert!(warning.contains(&reject.report.parallel_jobs.to_string()), "{warning:?}");
        click(&client, "#trace-split").await;
        wait_for(&client, IMPORT_TIMEOUT, "the warning gone once split", || async {
            (!exists(&client, "#trace-parallel").await).then_some(())
        })
        .await;
        // The split answers re-render the BoTs, the Δ table and the fitted row above the buttons: wait until every
        // answer is in, so that the click below does not land while the buttons move.
        let tasks = split.report.tasks.to_string();
        wait_for(&client, IMPORT_TIMEOUT, "the split BoTs and the whole Δ table", || async {
            let rows =
                js(&client, "return document.querySelectorAll('#trace-deltas tr[data-delta]').length", vec![]).await;
            let bots = attr(&client, "#trace-bots", "data-tasks").await;
            (bots.as_deref() == Some(tasks.as_str()) && rows.as_u64() == Some(8)).then_some(())
        })
        .await;

        // "Run this trace" runs it.
        click(&client, "#trace-use").await;
        wait_status(&client, &["finished"], RUN_TIMEOUT).await;
        let replay = scenario_in_url(&client).await;
        assert_eq!(replay.family(), Family::MultiCluster);

        // Replayed whole in the data grid: one site of MaxProcs processors, the native run's figures.
        click(&client, "#trace-use-data-grid").await;
        wait_status(&client, &["finished"], RUN_TIMEOUT).await;
        let scenario = scenario_in_url(&client).await;
        let d = &scenario.data_grid().expect("a data-grid scenario").data_grid;
        assert_eq!((d.trace.as_str(), d.sites.as_slice(), d.data_share), ("hpc2n.swf", &[240u32][..], 0.0));
        let mut on_disk = scenario.clone();
        on_disk.data_grid_mut().unwrap().data_grid.trace = file.to_str().unwrap().to_string();
        let Ok(AnyReport::DataGrid(r)) = run_any(&on_disk) else { panic!("the native data-grid run") };
        wait_for(&client, Duration::from_secs(10), "the data-grid cards", || async {
            exists(&client, "#dd-card-wait").await.then_some(())
        })
        .await;
        let page = attr(&client, "#dd-card-wait", "data-value").await.and_then(|v| v.parse::<f64>().ok());
        assert_eq!(page, Some(r.metrics.waiting.mean), "the page's mean wait against the native run");
        // No job of the replay carries data: the transfer card says so, as the CLI does, instead of "NaN".
        let transfer = text(&client, "#dd-card-transfer").await.unwrap_or_default();
        assert!(transfer.contains("— (no job)") && !transfer.contains("NaN"), "the transfer card reads {transfer:?}");
        js(&client, "document.querySelector('#dd-card-transfer').scrollIntoView({block: 'center'});", vec![]).await;
        println!("screenshot: {}", screenshot(&client, "trace-replay-no-data.png").await.display());
        client.set_window_size(360, 800).await.expect("a phone's width");
        js(&client, "document.querySelector('#dd-card-transfer').scrollIntoView({block: 'center'});", vec![]).await;
        println!("screenshot: {}", screenshot(&client, "trace-replay-no-data-360.png").await.display());
        client.set_window_size(1400, 1000).await.expect("the desktop width again");

        // The multi-cluster replay's link opened afresh: the trace is not loaded (the data grid's is the bundled log,
        // under the same name), which the page says before Run, and Run is refused.
        let link = format!("{base}?scenario={}", scenario_param(&replay));
        open_ready(&client, &link).await;
        // The worker makes the line once it is ready: its answer may come a moment after (a loaded machine).
        let estimate = wait_for(&client, Duration::from_secs(10), "the estimate of the link's scenario", || async {
            text(&client, "#estimate").await.filter(|t| !t.is_empty())
        })
        .await;
        assert!(estimate.contains("hpc2n.swf") && estimate.contains("not loaded"), "{estimate:?}");
        click(&client, "#run").await;
        wait_status(&client, &["failed"], Duration::from_secs(10)).await;
        let message = text(&client, "#message").await.unwrap_or_default();
        assert!(message.contains("Workload lab"), "{message:?}");
        println!("screenshot: {}", screenshot(&client, "trace-replay-missing.png").await.display());
    })
    .await;
}
