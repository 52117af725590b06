//! The Workload lab in headless Chromium: a real trace picked through the file input is imported in the worker with
//! the counts of the native importer, its BoTs (at every Δ of the table) and its fitted row equal the native ones, a
//! bad file is reported and keeps the trace already loaded, and the trace, its platform and its fitted model become
//! runs whose figures equal `bagsim run` of the same scenario, bit for bit.
//!
//! Run with scripts/test-browser.sh (it builds the page first).

use std::path::{Path, PathBuf};
use std::time::Duration;

use bagsim::trace::bots::{extract, BotRule, MultiProc};
use bagsim::trace::import_path;
use bagsim::workload::fit::{fit_workload, notation};
use e2e::fantoccini::{Client, Locator};
use e2e::*;

const IMPORT_TIMEOUT: Duration = Duration::from_secs(60);
/// The Δs of the page's "BoTs against Δ" table.
const DELTAS: [f64; 8] = [0.0, 10.0, 30.0, 60.0, 100.0, 300.0, 900.0, 3600.0];

fn data(name: &str) -> PathBuf {
    workspace_root().join("tests/data").join(name)
}

/// Picks `path` in the file input, as a user would.
async fn pick(client: &Client, path: &Path) {
    let input = client.find(Locator::Css("#trace-file")).await.expect("#trace-file");
    input.send_keys(path.to_str().expect("a UTF-8 path")).await.expect("cannot pick the file");
}

/// Waits until the import ends (imported or failed) and returns `#trace-status[data-state]`.
async fn wait_import(client: &Client) -> String {
    wait_for(client, IMPORT_TIMEOUT, "#trace-status to leave importing", || async {
        let s = attr(client, "#trace-status", "data-state").await.unwrap_or_default();
        (s == "imported" || s == "failed").then_some(s)
    })
    .await
}

async fn num_attr(client: &Client, css: &str, name: &str) -> Option<u64> {
    attr(client, css, name).await.and_then(|v| v.parse().ok())
}

/// Waits until `#trace-bots[data-bots]` shows `want`.
async fn wait_bots(client: &Client, want: u64, what: &str) {
    wait_for(client, IMPORT_TIMEOUT, &format!("{what}: #trace-bots data-bots == {want}"), || async {
        (num_attr(client, "#trace-bots", "data-bots").await == Some(want)).then_some(())
    })
    .await
}

/// Waits until the "BoTs against Δ" table has a row for every Δ.
async fn wait_delta_rows(client: &Client) {
    wait_for(client, IMPORT_TIMEOUT, "#trace-deltas to have a row per Δ", || async {
        let n = js(client, "return document.querySelectorAll('#trace-deltas tbody tr').length;", vec![]).await;
        (n.as_u64() == Some(DELTAS.len() as u64)).then_some(())
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trace_is_imported_fitted_and_replayed() {
    let file = data("hpc2n.swf");
    let native = import_path(&file, None).expect("the native import");
    let reject = extract(&native, &BotRule::default()).expect("BoTs");
    let split_rule = BotRule { multi_proc: MultiProc::Split, ..BotRule::default() };
    let split = extract(&native, &split_rule).expect("BoTs, split");
    let fit = fit_workload(&split.workload).expect("a fitted row");

    with_browser(|client, base| async move {
        open_ready(&client, &base).await;
        pick(&client, &file).await;
        assert_eq!(wait_import(&client).await, "imported", "{:?}", text(&client, "#trace-message").await);
        let r = &native.report;
        for (name, want) in [("data-lines", r.lines), ("data-jobs", r.jobs), ("data-skipped", r.skipped), ("data-comments", r.comments)] {
            assert_eq!(num_attr(&client, "#trace-report", name).await, Some(want), "#trace-report {name}");
        }
        println!("import: {}", text(&client, "#trace-status").await.unwrap_or_default());

        // BoTs under the default rule, and at every Δ of the table.
        wait_bots(&client, reject.report.bots, "default rule").await;
        wait_delta_rows(&client).await;
        for d in DELTAS {
            let want = extract(&native, &BotRule { delta: d, ..BotRule::default() }).expect("BoTs").report.bots;
            let got = num_attr(&client, &format!("#trace-deltas tr[data-delta='{d}']"), "data-bots").await;
            assert_eq!(got, Some(want), "BoTs at Δ = {d} s");
        }

        // Split parallel jobs: the BoTs and the fitted row of the native extraction.
        click(&client, "#trace-split").await;
        wait_bots(&client, split.report.bots, "split").await;
        assert_eq!(num_attr(&client, "#trace-bots", "data-tasks").await, Some(split.report.tasks));
        let rows = js(
            &client,
            "return [...document.querySelectorAll('#trace-fit tbody tr')].map(r => r.querySelector('.dist').textContent);",
            vec![],
        )
        .await;
        let want = [
            fit.users.notation(),
            notation(&fit.iat.dist),
            notation(&fit.daily_cycle.dist),
            notation(&fit.size.dist),
            notation(&fit.art.dist),
            notation(&fit.rtv.dist),
        ];
        assert_eq!(rows, serde_json::json!(want), "the page's fitted row differs from the native one");
        wait_delta_rows(&client).await;

        // The views of the BoT workload and the trace jobs' burstiness: the numbers of the native views.
        let views = bagsim::workload::views::views(&split.workload).expect("views");
        let jobs = bagsim::workload::burstiness::of_trace(&native).expect("burstiness of the trace's jobs");
        assert_eq!(num_attr(&client, "#trace-views", "data-tasks").await, Some(views.tasks));
        let cells = js(
            &client,
            "return [...document.querySelectorAll('#trace-views table.burstiness tbody tr')].map(r => \
             [...r.querySelectorAll('td')].map(c => c.textContent));",
            vec![],
        )
        .await;
        let f = |t: &bagsim::workload::burstiness::Temporal| match (t.entropy, t.poisson) {
            (Some(e), Some(p)) => format!("{e:.3} ({p:.3})"),
            (Some(e), None) => format!("{e:.3}"),
            _ => "—".into(),
        };
        let want: Vec<Vec<String>> = views
            .burstiness
            .iter()
            .zip(&jobs.temporal)
            .map(|(b, j)| vec![bagsim::workload::burstiness::scale_label(b.interval), f(&b.tasks), f(&b.bots), f(j)])
            .collect();
        assert_eq!(cells, serde_json::json!(want), "the page's burstiness table differs from the native views");
        wait_for(&client, IMPORT_TIMEOUT, "the five view charts", || async {
            let n = js(&client, "return document.querySelectorAll('#trace-views .views-charts svg').length;", vec![]).await;
            (n.as_u64() == Some(5)).then_some(())
        })
        .await;
        js(&client, "document.querySelector('#trace-lab').scrollIntoView(); return true;", vec![]).await;
        let shot = screenshot(&client, "trace-lab.png").await;
        println!("screenshot: {}", shot.display());

        // A bad file says why and keeps the trace already imported.
        let dir = std::env::temp_dir().join(format!("bagsim-e2e-trace-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let empty = dir.join("empty.swf");
        std::fs::write(&empty, "").unwrap();
        pick(&client, &empty).await;
        assert_eq!(wait_import(&client).await, "imported");
        let message = text(&client, "#trace-message").await.unwrap_or_default();
        assert!(message.contains("empty") && message.contains("hpc2n.swf") && message.contains("kept"), "{message:?}");
        assert_eq!(num_attr(&client, "#trace-bots", "data-bots").await, Some(split.report.bots));

        // The trace's platform and the trace itself as the next run: the native figures of the same scenario.
        click(&client, "#trace-use-platform").await;
        click(&client, "#trace-use").await;
        let mut scenario = scenario_in_url(&client).await;
        let clusters = scenario.platform.clusters().expect("clusters");
        assert_eq!((clusters.len(), clusters[0].processors), (1, 240), "MaxProcs 240 as one cluster");
        let t = scenario.workload.trace.as_mut().expect("the scenario replays the trace");
        assert_eq!((t.path.as_str(), t.split_parallel, t.delta), ("hpc2n.swf", true, BotRule::default().delta));
        assert_eq!(attr(&client, "#workload-source", "data-source").await.as_deref(), Some("trace"));
        let cards = run_to_the_end(&client).await;
        t.path = file.to_str().unwrap().to_string();
        assert_matches_native(&cards, &scenario, "the imported trace");
        let shot = screenshot(&client, "trace-run.png").await;
        println!("screenshot: {}", shot.display());

        // The fitted row as the model of the next run.
        click(&client, "#trace-use-model").await;
        let scenario = scenario_in_url(&client).await;
        assert!(scenario.workload.trace.is_none());
        assert_eq!(scenario.workload.model.as_ref(), Some(&fit.to_model()), "the model is the native fitted row");
        assert_eq!(attr(&client, "#workload-source", "data-source").await.as_deref(), Some("model"));
        let cards = run_to_the_end(&client).await;
        assert_matches_native(&cards, &scenario, "the fitted model");

        // The views of the scenario's generated workload.
        click(&client, "#scenario-views-button").await;
        let bots = bagsim::run::prepare(&scenario).expect("the scenario prepares").generated.workload.bots.len() as u64;
        wait_for(&client, IMPORT_TIMEOUT, "#scenario-views", || async {
            (num_attr(&client, "#scenario-views", "data-bots").await == Some(bots)).then_some(())
        })
        .await;
        js(&client, "document.querySelector('#scenario-views').scrollIntoView(); return true;", vec![]).await;
        let shot = screenshot(&client, "scenario-views.png").await;
        println!("screenshot: {}", shot.display());
        std::fs::remove_dir_all(&dir).ok();
    })
    .await;
}
