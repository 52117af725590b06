//! The desktop-grid family on the built page (dist/, `trunk build --release --public-url /bagsim/`) in headless
//! Chromium: chosen and set through its controls, a run in the page's worker gives the cards of the native
//! `family::desktop_grid::run` of the same scenario, bit for bit; its live chart is drawn; a bad value is refused
//! at its control with the scenario's message.
//!
//! Run with scripts/test-browser.sh (it builds the page first). One browser per test; `--test-threads=1`.

use std::time::Duration;

use bagsim::family::desktop_grid::availability::AvailabilityLevel;
use bagsim::family::desktop_grid::config::Heterogeneity;
use bagsim::family::desktop_grid::policy::BotSelection;
use bagsim::family::desktop_grid::workload::Mix;
use bagsim::family::desktop_grid::{self, DgReport};
use bagsim::registry::Family;
use bagsim::scenario::Scenario;
use e2e::fantoccini::Client;
use e2e::*;

/// A small Low-Avail Heterogeneous scenario: 30 BoTs of the Short mix at load 0.5, LongIdle, seed 7.
fn small_scenario() -> Scenario {
    let mut s = Scenario::default_for(Family::DesktopGrid);
    s.set_seed(7);
    let d = &mut s.desktop_grid_mut().expect("a desktop-grid scenario").desktop_grid;
    d.availability = AvailabilityLevel::Low;
    d.heterogeneity = Heterogeneity::Heterogeneous;
    d.mix = Mix::Short;
    d.load = 0.5;
    d.bots = 30;
    d.bot_selection = BotSelection::LongIdle.into();
    s
}

/// The cards the page shows and the native figure each must equal.
fn native_cards(r: &DgReport) -> [(&'static str, f64); 7] {
    let (m, w) = (&r.metrics, &r.workload);
    [
        ("#dg-card-tt", m.turnaround.mean),
        ("#dg-card-wt", m.waiting.mean),
        ("#dg-card-ms", m.execution_makespan.mean),
        ("#dg-card-rwt", m.rwt),
        ("#dg-card-ep", w.effective_power),
        ("#dg-card-c", w.occupancy),
        ("#dg-card-lambda", w.bot_rate),
    ]
}

async fn field_error(client: &Client, path: &str) -> String {
    text(client, &format!(".field-error[data-field=\"{path}\"]")).await.unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn desktop_grid_run_through_controls_matches_native() {
    with_browser(|client, base| async move {
        open_ready(&client, &base).await;
        set_control(&client, "#family", "desktop_grid").await;
        wait_for(&client, Duration::from_secs(10), "the desktop-grid controls", || async {
            exists(&client, "#dg-availability").await.then_some(())
        })
        .await;
        // Every control has a real label.
        for id in ["family", "dg-availability", "dg-heterogeneity", "dg-mix", "dg-load", "dg-policy", "dg-bots"] {
            assert!(exists(&client, &format!("label[for=\"{id}\"]")).await, "#{id} has no <label for>");
        }
        set_control(&client, "#dg-availability", "low").await;
        set_control(&client, "#dg-heterogeneity", "heterogeneous").await;
        set_control(&client, "#dg-mix", "short").await;
        set_control(&client, "#dg-load", "0.5").await;
        set_control(&client, "#dg-bots", "30").await;
        set_control(&client, "#dg-policy", "long_idle").await;
        set_control(&client, "#dg-seed", "7").await;
        let expected = small_scenario();
        assert_eq!(scenario_in_url(&client).await, expected, "the scenario in the URL is not the one set");

        // The family switch shows one family's panels, and each family keeps its settings while the other is shown.
        let shown = |css: &'static str| {
            let client = client.clone();
            async move {
                js(
                    &client,
                    "const e = document.querySelector(arguments[0]); return !!e && e.offsetParent !== null;",
                    vec![css.into()],
                )
                .await
                .as_bool()
                .unwrap_or(false)
            }
        };
        assert!(shown("#dg-availability").await && !shown("#scheduling").await, "desktop grid: only its controls");
        set_control(&client, "#family", "multi_cluster").await;
        assert!(!shown("#dg-availability").await && shown("#scheduling").await, "multi-cluster: only its controls");
        set_control(&client, "#scheduling", "RR").await;
        set_control(&client, "#family", "desktop_grid").await;
        assert_eq!(scenario_in_url(&client).await, expected, "the desktop-grid settings were lost by switching");
        set_control(&client, "#family", "multi_cluster").await;
        let back = scenario_in_url(&client).await;
        assert_eq!(
            back.multi_cluster().expect("a multi-cluster scenario").scheduling.to_string(),
            "RR",
            "the multi-cluster settings were lost by switching"
        );
        set_control(&client, "#family", "desktop_grid").await;
        assert_eq!(scenario_in_url(&client).await, expected);

        // A bad value is refused at its control with the scenario's message, and changes nothing.
        set_control(&client, "#dg-load", "5").await;
        let message = field_error(&client, "desktop_grid.load").await;
        assert!(message.contains("out of range"), "a load of 5 gives {message:?} at its control");
        assert_eq!(scenario_in_url(&client).await, expected, "a refused load changed the scenario");
        set_control(&client, "#dg-load", "0.5").await;
        assert_eq!(field_error(&client, "desktop_grid.load").await, "", "the error stays after a good value");

        // Slowed to an hour of simulated time per second, the run pauses, resumes and is cancelled.
        wait_enabled(&client, "#run", READY_TIMEOUT).await;
        set_control(&client, "#speed", "1").await;
        click(&client, "#run").await;
        wait_status(&client, &["running"], RUN_TIMEOUT).await;
        click(&client, "#pause").await;
        wait_status(&client, &["paused"], RUN_TIMEOUT).await;
        click(&client, "#resume").await;
        wait_status(&client, &["running"], RUN_TIMEOUT).await;
        click(&client, "#cancel").await;
        wait_status(&client, &["cancelled"], RUN_TIMEOUT).await;

        set_control(&client, "#speed", "0").await;
        click(&client, "#run").await;
        wait_status(&client, &["finished"], RUN_TIMEOUT).await;
        wait_for(&client, Duration::from_secs(10), "the desktop-grid cards", || async {
            exists(&client, "#dg-card-tt").await.then_some(())
        })
        .await;

        let in_url = scenario_in_url(&client).await;
        let native = desktop_grid::run(&in_url.desktop_grid().expect("a desktop-grid scenario").clone())
            .expect("the scenario runs natively");
        let mut bad = Vec::new();
        for (id, n) in native_cards(&native) {
            let page = attr(&client, id, "data-value").await.unwrap_or_else(|| "<missing>".into());
            println!("{id}: page {page}  native {n}");
            if !parse_figure(&page).is_some_and(|p| same_f64(p, n)) {
                bad.push(format!("{id}: page {page}, native {n}"));
            }
        }
        assert!(bad.is_empty(), "the page's desktop-grid cards differ from the native run:\n  {}", bad.join("\n  "));
        let saturated = attr(&client, "#dg-card-tt", "data-saturated").await;
        assert_eq!(saturated.as_deref(), Some(native.metrics.saturated.to_string().as_str()));
        let shown = text(&client, "#dg-card-tt .card-value").await.unwrap_or_default();
        assert_eq!(
            shown.starts_with("unbounded"),
            native.metrics.saturated,
            "the turnaround card shows {shown:?} for a run with saturated = {}",
            native.metrics.saturated
        );

        let pixels = non_white_pixels(&client, "#dg-chart-machines").await;
        println!("machines-up chart: {pixels} non-white pixels");
        assert!(pixels > 1000, "the machines-up chart has only {pixels} non-white pixels");
        let shot = screenshot(&client, "desktop-grid.png").await;
        println!("screenshot: {}", shot.display());

        // The desktop-grid view, with its figures panel open, passes axe-core as the multi-cluster one does.
        js(&client, "document.querySelector('#dg-figures').open = true;", vec![]).await;
        let violations = axe_violations(&client, "on the desktop-grid view").await;
        assert!(violations.is_empty(), "axe-core on the desktop-grid view:\n  {}", violations.join("\n  "));
    })
    .await;
}

/// A paper figure (Fig. 2, with 5 BoTs a run and at most 3 seeds a bar) computed in the page's worker pool gives,
/// bar by bar, the native `figures::run_bar` of the same settings: the same mean turnaround time to the bit, the
/// same number of seeds, the same "unbounded".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn desktop_grid_paper_figure_matches_native() {
    use bagsim::family::desktop_grid::figures::measured;
    use bagsim::family::desktop_grid::figures::{figures, run_bar, CiRule};
    with_browser(|client, base| async move {
        open_ready(&client, &base).await;
        set_control(&client, "#family", "desktop_grid").await;
        wait_for(&client, Duration::from_secs(10), "the desktop-grid controls", || async {
            exists(&client, "#dg-bots").await.then_some(())
        })
        .await;
        set_control(&client, "#dg-bots", "5").await;
        js(&client, "document.querySelector('#dg-figures').open = true;", vec![]).await;
        set_control(&client, "#dg-figure", "2").await;
        set_control(&client, "#dg-figure-cap", "3").await;
        click(&client, "#dg-figure-run").await;
        wait_for(&client, Duration::from_secs(90), "the figure's 20 bars", || async {
            text(&client, "#dg-figure-status").await.filter(|s| s.starts_with("finished")).map(|_| ())
        })
        .await;
        let status = text(&client, "#dg-figure-status").await.unwrap_or_default();
        assert_eq!(status, "finished: 20 bars", "the figure did not finish cleanly");

        let base_cfg =
            scenario_in_url(&client).await.desktop_grid().expect("a desktop-grid scenario").desktop_grid.clone();
        let fig = figures().into_iter().find(|f| f.number == 2).expect("Fig. 2");
        let rule = CiRule { max_seeds: 3, ..CiRule::default() };
        let runner = |s: &desktop_grid::DgScenario| desktop_grid::run(s);
        let mut bad = Vec::new();
        for &mix in &fig.mixes {
            for policy in BotSelection::ALL {
                let bar = run_bar(&fig, &base_cfg, mix, &policy.into(), rule, &runner).expect("the bar runs natively");
                let row = format!("tr[data-mix=\"{}\"][data-policy=\"{}\"]", mix.name(), policy.name());
                let mean = attr(&client, &row, "data-mean").await.unwrap_or_else(|| "<missing>".into());
                let seeds = attr(&client, &row, "data-seeds").await.unwrap_or_default();
                let unbounded = attr(&client, &row, "data-unbounded").await.unwrap_or_default();
                if !parse_figure(&mean).is_some_and(|m| same_f64(m, bar.turnaround.0))
                    || seeds != bar.seeds.to_string()
                    || unbounded != bar.unbounded.to_string()
                {
                    bad.push(format!(
                        "{} {}: page TT {mean}, {seeds} seeds, unbounded {unbounded}; native TT {}, {} seeds, \
                         unbounded {}",
                        mix.label(),
                        policy.label(),
                        bar.turnaround.0,
                        bar.seeds,
                        bar.unbounded
                    ));
                }
            }
        }
        assert!(bad.is_empty(), "the page's figure differs from the native bars:\n  {}", bad.join("\n  "));

        // Below the figure, the claim-by-claim table of docs/desktop_grid.md, from the same data: F4 (S1), the
        // one-server statement, with its measured verdict, and every row of the data.
        let f4 = measured::rows().into_iter().find(|r| r.id == "F4").expect("F4 in the measured table");
        let row = "#dg-measured-table tr[data-id=\"F4\"]";
        let shown = text(&client, row).await.unwrap_or_default();
        assert!(shown.contains(&f4.label()) && shown.contains(f4.sentence), "the claim table has no F4 row: {shown:?}");
        assert_eq!(attr(&client, row, "data-verdict").await.as_deref(), Some(f4.verdict), "F4's verdict on the page");
        let n = js(&client, "return document.querySelectorAll('#dg-measured-table tbody tr').length;", vec![]).await;
        assert_eq!(n.as_u64(), Some(measured::rows().len() as u64), "the claim table's rows are not the data's");
        js(
            &client,
            "document.querySelector('#dg-figures').open = true; \
             document.querySelector('#dg-figure-svg').scrollIntoView();",
            vec![],
        )
        .await;
        let shot = screenshot(&client, "desktop-grid-figure.png").await;
        println!("screenshot: {}", shot.display());
    })
    .await;
}
