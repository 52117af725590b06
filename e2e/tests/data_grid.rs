//! The data-grid family ([Liu10]) on the built page (dist/, `trunk build --release --public-url /bagsim/`) in
//! headless Chromium: chosen and set through its controls, a run in the page's worker gives the cards of the native
//! run of the same scenario, bit for bit; the live charts and the Gantt view are drawn; the three schemes run side
//! by side on the pool and equal their native runs; a bad value is refused at its control.
//!
//! Run with scripts/test-browser.sh (it builds the page first). One browser per test; `--test-threads=1`.

use std::time::Duration;

use bagsim::family::data_grid::{DdReport, Scheme};
use bagsim::registry::Family;
use bagsim::registry::{run_any, AnyReport};
use bagsim::scenario::Scenario;
use e2e::*;

/// 400 jobs of the bundled log at high load (runtimes × 3) with up to 800 GB of data on half of them, seed 3, each
/// site's scheduler considering at most 100 queued jobs at a time (the backfill depth).
fn small_scenario() -> Scenario {
    let mut s = Scenario::default_for(Family::DataGrid);
    s.set_seed(3);
    let d = &mut s.data_grid_mut().expect("a data-grid scenario").data_grid;
    d.jobs = 400;
    d.runtime_factor = 3.0;
    d.data_mb[1] = 800_000.0;
    d.backfill_depth = 100;
    s
}

fn native(s: &Scenario) -> DdReport {
    match run_any(s).expect("the scenario runs natively") {
        AnyReport::DataGrid(r) => *r,
        _ => panic!("a data-grid scenario gave another family's report"),
    }
}

/// The cards the page shows and the native figure each must equal.
fn native_cards(r: &DdReport) -> [(&'static str, f64); 5] {
    let m = &r.metrics;
    [
        ("#dd-card-tt", m.turnaround.mean),
        ("#dd-card-worst", m.turnaround.max),
        ("#dd-card-wait", m.waiting.mean),
        ("#dd-card-transfer", m.transfer.mean),
        ("#dd-card-util", m.utilization),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn data_grid_run_through_controls_matches_native() {
    with_browser(|client, base| async move {
        open_ready(&client, &base).await;
        set_control(&client, "#family", "data_grid").await;
        wait_for(&client, Duration::from_secs(10), "the data-grid controls", || async {
            exists(&client, "#dd-scheme").await.then_some(())
        })
        .await;
        for id in [
            "dd-scheme",
            "dd-backfill",
            "dd-share",
            "dd-data-max",
            "dd-factor",
            "dd-estimates",
            "dd-sites",
            "dd-local-policy",
            "dd-depth",
            "dd-walltime",
        ] {
            assert!(exists(&client, &format!("label[for=\"{id}\"]")).await, "#{id} has no <label for>");
        }
        set_control(&client, "#dd-jobs", "400").await;
        set_control(&client, "#dd-factor", "3").await;
        set_control(&client, "#dd-data-max", "800").await;
        set_control(&client, "#dd-seed", "3").await;
        // The backfill depth: a depth that is no whole number is refused at its control, a million and one too.
        for bad in ["-1", "1000001"] {
            set_control(&client, "#dd-depth", bad).await;
            let message =
                text(&client, ".field-error[data-field=\"data_grid.backfill_depth\"]").await.unwrap_or_default();
            assert!(!message.is_empty(), "a backfill depth of {bad} is not refused at its control");
            println!("depth {bad}: {message}");
        }
        set_control(&client, "#dd-depth", "100").await;
        js(&client, "document.querySelector('#dd-depth').scrollIntoView({block: 'center'});", vec![]).await;
        let shot = screenshot(&client, "data-grid-depth.png").await;
        println!("screenshot of the site controls: {}", shot.display());
        let expected = small_scenario();
        assert_eq!(scenario_in_url(&client).await, expected, "the scenario in the URL is not the one set");

        // A bad value is refused at its control, and changes nothing.
        set_control(&client, "#dd-share", "5").await;
        let message = text(&client, ".field-error[data-field=\"data_grid.data_share\"]").await.unwrap_or_default();
        assert!(message.contains("out of range"), "a share of 5 gives {message:?} at its control");
        assert_eq!(scenario_in_url(&client).await, expected, "a refused share changed the scenario");
        set_control(&client, "#dd-share", "0.5").await;

        // The comparison of the schemes lives in the page's second module (ui/lazy.rs), which sees the scenario
        // through the window (ui/shown.rs): its text follows the share set here.
        for (share, said) in [("0.25", "Here 25% of the jobs carry data"), ("0.5", "Here 50% of the jobs carry data")] {
            set_control(&client, "#dd-share", share).await;
            wait_for(&client, Duration::from_secs(30), "the comparison's text to follow the share", || async {
                text(&client, "#lazy-dd-compare #dd-compare .help").await.filter(|t| t.contains(said)).map(|_| ())
            })
            .await;
        }
        assert_eq!(scenario_in_url(&client).await, expected, "the share set back is not the scenario's");

        // Slowed to a day of simulated time per second, the run pauses, resumes and is cancelled.
        wait_enabled(&client, "#run", READY_TIMEOUT).await;
        set_control(&client, "#speed", "3").await;
        click(&client, "#run").await;
        wait_status(&client, &["running"], RUN_TIMEOUT).await;
        // Let the run reach the first busy days, then pause and look at the Gantt view with its reservations.
        wait_for(&client, Duration::from_secs(60), "a queue of at least four jobs", || async {
            let live = text(&client, "#dd-live").await.unwrap_or_default();
            let queued = live.split(" jobs queued").next()?.rsplit(' ').next()?.parse::<u32>().ok()?;
            (queued >= 4).then_some(())
        })
        .await;
        click(&client, "#pause").await;
        wait_status(&client, &["paused"], RUN_TIMEOUT).await;
        js(&client, "document.querySelector('#dd-gantt').scrollIntoView();", vec![]).await;
        let shot = screenshot(&client, "data-grid-gantt-running.png").await;
        println!("screenshot while paused: {}", shot.display());
        click(&client, "#resume").await;
        wait_status(&client, &["running"], RUN_TIMEOUT).await;
        click(&client, "#cancel").await;
        wait_status(&client, &["cancelled"], RUN_TIMEOUT).await;
        set_control(&client, "#speed", "0").await;
        click(&client, "#run").await;
        wait_status(&client, &["finished"], RUN_TIMEOUT).await;
        wait_for(&client, Duration::from_secs(10), "the data-grid cards", || async {
            exists(&client, "#dd-card-tt").await.then_some(())
        })
        .await;
        let shot = screenshot(&client, "data-grid-cards.png").await;
        println!("screenshot: {}", shot.display());
        let report = native(&expected);
        let mut bad = Vec::new();
        for (id, n) in native_cards(&report) {
            let page = attr(&client, id, "data-value").await.unwrap_or_else(|| "<missing>".into());
            println!("{id}: page {page}  native {n}");
            if !parse_figure(&page).is_some_and(|p| same_f64(p, n)) {
                bad.push(format!("{id}: page {page}, native {n}"));
            }
        }
        assert!(bad.is_empty(), "the page's data-grid cards differ from the native run:\n  {}", bad.join("\n  "));

        for chart in ["#dd-chart-turnaround", "#dd-chart-queue", "#dd-chart-busy", "#dd-gantt"] {
            let pixels = non_white_pixels(&client, chart).await;
            println!("{chart}: {pixels} non-white pixels");
            assert!(pixels > 1000, "{chart} has only {pixels} non-white pixels");
        }
        // The Gantt view of the busiest site (site 1, 130 processors), and how long its drawing held the page.
        set_control(&client, "#dd-gantt-site", "0").await;
        let draw_ms = attr(&client, "#dd-gantt", "data-draw-ms").await.unwrap_or_default();
        println!("Gantt view of site 1: the charts were drawn in {draw_ms} ms of the main thread");
        js(&client, "document.querySelector('#dd-gantt').scrollIntoView();", vec![]).await;
        let shot = screenshot(&client, "data-grid-gantt.png").await;
        println!("screenshot: {}", shot.display());

        // The three schemes side by side, each equal to its native run.
        click(&client, "#dd-compare-run").await;
        wait_for(&client, Duration::from_secs(120), "the three schemes", || async {
            text(&client, "#dd-compare-status").await.filter(|s| s.starts_with("done")).map(|_| ())
        })
        .await;
        for scheme in Scheme::ALL {
            let mut s = expected.clone();
            s.data_grid_mut().expect("a data-grid scenario").data_grid.scheme = scheme.into();
            let n = native(&s).metrics.turnaround.mean;
            let css = format!("tr[data-scheme=\"{}\"] td", scheme.name());
            let page = attr(&client, &css, "data-value").await.unwrap_or_else(|| "<missing>".into());
            println!("{}: average turnaround page {page}  native {n}", scheme.name());
            assert!(parse_figure(&page).is_some_and(|p| same_f64(p, n)), "{}: page {page}, native {n}", scheme.name());
        }
        js(&client, "document.querySelector('#dd-compare').scrollIntoView();", vec![]).await;
        let shot = screenshot(&client, "data-grid.png").await;
        println!("screenshot: {}", shot.display());

        // Pin this run, run another seed: both turnarounds in the comparison, the legend and the Numbers.
        let first_tt = text(&client, "#dd-card-tt .card-value").await.unwrap_or_default();
        click(&client, "#dd-pin").await;
        set_control(&client, "#dd-seed", "4").await;
        click(&client, "#run").await;
        wait_status(&client, &["finished"], RUN_TIMEOUT).await;
        let second_tt = text(&client, "#dd-card-tt .card-value").await.unwrap_or_default();
        let legend = text(&client, "#dd-results .pinned").await.unwrap_or_default();
        assert!(legend.contains("seed 3") && legend.contains("seed 4"), "the legend names {legend:?}");
        let cells = text(&client, "#dd-pinned-compare").await.unwrap_or_default();
        assert!(cells.contains(&first_tt) && cells.contains(&second_tt), "{cells:?} lacks {first_tt} and {second_tt}");
        click(&client, "#dd-chart-turnaround-numbers-toggle").await;
        let captions = js(
            &client,
            "return [...document.querySelectorAll('#dd-chart-turnaround-numbers caption')].map(c => c.textContent);",
            vec![],
        )
        .await;
        let captions: Vec<String> = serde_json::from_value(captions).unwrap();
        assert!(
            captions.len() == 2 && captions[0].contains("seed 3") && captions[1].contains("seed 4"),
            "{captions:?}"
        );
        js(&client, "document.querySelector('#dd-results .pinned').scrollIntoView();", vec![]).await;
        println!("screenshot: {}", screenshot(&client, "data-grid-pinned.png").await.display());

        let violations = axe_violations(&client, "on the data-grid view").await;
        assert!(violations.is_empty(), "axe-core on the data-grid view:\n  {}", violations.join("\n  "));
    })
    .await;
}

/// A paper figure (Fig. 7, 3 seeds a bar) computed in the page's worker pool gives, bar by bar, the mean of the
/// same runs made natively, to the bit, and shows the paper's findings with verdicts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn data_grid_paper_figure_matches_native() {
    use bagsim::family::data_grid::figures::{figures, FigureResult};
    with_browser(|client, base| async move {
        open_ready(&client, &base).await;
        set_control(&client, "#family", "data_grid").await;
        wait_for(&client, Duration::from_secs(10), "the data-grid controls", || async {
            exists(&client, "#dd-figure").await.then_some(())
        })
        .await;
        js(&client, "document.querySelector('#dd-figures').open = true;", vec![]).await;
        set_control(&client, "#dd-figure", "7").await;
        click(&client, "#dd-figure-run").await;
        wait_for(&client, Duration::from_secs(120), "the figure's runs", || async {
            text(&client, "#dd-figure-status").await.filter(|s| s.starts_with("finished")).map(|_| ())
        })
        .await;
        let s = scenario_in_url(&client).await;
        let base_cfg = s.data_grid().expect("a data-grid scenario").data_grid.clone();
        let f = figures().into_iter().find(|f| f.number == 7).expect("Fig. 7");
        let mut values: Vec<Vec<Vec<f64>>> = vec![vec![Vec::new(); Scheme::ALL.len()]; f.groups.len()];
        for (g, group) in values.iter_mut().enumerate() {
            for (k, &scheme) in Scheme::ALL.iter().enumerate() {
                for seed in 1..=3 {
                    let mut sc = s.clone();
                    sc.set_seed(seed);
                    sc.data_grid_mut().expect("a data-grid scenario").data_grid =
                        f.config(&base_cfg, g, &scheme.into());
                    group[k].push(f.metric.of(&native(&sc)));
                }
            }
        }
        let r = FigureResult::of(&f, &values);
        let cells = js(
            &client,
            "return [...document.querySelectorAll('#dd-figure-table td')].map(td => td.dataset.mean);",
            vec![],
        )
        .await;
        let page: Vec<f64> = cells.as_array().expect("cells").iter().filter_map(|v| v.as_str()?.parse().ok()).collect();
        let native_means: Vec<f64> = r.bars.iter().flat_map(|b| b.iter().map(|i| i.mean)).collect();
        println!("page {page:?}\nnative {native_means:?}");
        assert_eq!(page.len(), native_means.len(), "the page's figure has another number of bars");
        assert!(page.iter().zip(&native_means).all(|(p, n)| same_f64(*p, *n)), "the page's bars differ from native");
        let verdicts = text(&client, "#dd-figure-claims").await.unwrap_or_default();
        let expected = r.claims()[0].2.label();
        assert!(verdicts.contains(expected), "the page's verdicts {verdicts:?} lack the native {expected:?}");
        js(&client, "document.querySelector('#dd-figures').scrollIntoView();", vec![]).await;
        let shot = screenshot(&client, "data-grid-figure.png").await;
        println!("screenshot: {}", shot.display());
    })
    .await;
}
