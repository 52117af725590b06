//! The built page (dist/, `trunk build --release --public-url /bagsim/`) in headless Chromium: runs started from
//! the controls and from links give the same figures as the native simulator, bit for bit; the page answers input
//! during a run; bad input is reported at its control; everything works under a sub-path.
//!
//! Run with scripts/test-browser.sh (it builds the page first). One browser per test; `--test-threads=1`.

use std::time::Duration;

use bagsim::engine::Model;
use bagsim::scenario::{Scenario, DAY};
use e2e::fantoccini::Client;
use e2e::*;
use serde_json::json;

#[path = "page/several_runs.rs"]
mod several_runs;

/// The scenario controls of the DOM contract.
const CONTROLS: [&str; 10] = [
    "#seed",
    "#load",
    "#submission-days",
    "#preset",
    "#arrival-pattern",
    "#architecture",
    "#selection",
    "#scheduling",
    "#inaccuracy",
    "#run",
];

/// The other ids of the DOM contract (buttons and live figures).
const CONTRACT_IDS: [&str; 11] = [
    "#pause",
    "#resume",
    "#cancel",
    "#pin",
    "#share",
    "#export-json",
    "#export-csv",
    "#export-jobs",
    "#status",
    "#sim-time",
    "#events-per-s",
];

/// The option values each select of the DOM contract offers (at least).
const SELECT_OPTIONS: [(&str, &[&str]); 5] = [
    ("#preset", &["T1", "T2", "T3", "T4", "T5", "T6", "T7", "Avg"]),
    ("#arrival-pattern", &["realistic", "all_at_zero", "evenly_spread"]),
    ("#architecture", &["sep-c", "csp", "fcondor"]),
    ("#selection", &["S-T", "S-BoT", "S-U-Prio", "S-U-T", "S-U-BoT", "S-U-GRR", "S-U-RR"]),
    ("#scheduling", &["ECT", "FPLT", "RR", "WQR", "DFPLT", "ECT-P", "STFR", "FPF"]),
];

/// The canvases of the DOM contract.
const CANVASES: [&str; 5] = ["#chart-queue", "#chart-util", "#chart-nsl-class", "#chart-ms-class", "#chart-cdf"];

/// The small scenario of tests 1 and 4: the default with a 2-day submission period at load 0.7, ECT.
fn small_scenario(seed: u64) -> Scenario {
    let mut s = Scenario::default();
    s.set_seed(seed);
    s.multi_cluster_mut().unwrap().workload.submission_period = 2.0 * DAY;
    s.multi_cluster_mut().unwrap().workload.load = Some(0.7);
    s.multi_cluster_mut().unwrap().scheduling = "ECT".parse().expect("ECT is a scheduling policy");
    s
}

/// Sets the controls of the small scenario, as a user would: every control it depends on, so a control left changed
/// by an earlier step of the same test (the long run's streams and calibration) cannot leak into it.
async fn set_small_scenario(client: &Client, seed: u64) {
    let defaults = Scenario::default();
    set_control(client, "#streams", defaults.multi_cluster().unwrap().workload.streams.name()).await;
    set_control(client, "#calibration", defaults.multi_cluster().unwrap().workload.calibration.name()).await;
    set_control(client, "#submission-days", "2").await;
    set_control(client, "#load", "0.7").await;
    set_control(client, "#seed", &seed.to_string()).await;
    set_control(client, "#scheduling", "ECT").await;
}

/// Starts the default month at 95% load with one global stream (≈7 M tasks): a run that outlasts the checks of a
/// test by a wide margin, also on a loaded machine.
async fn start_long_run(client: &Client) {
    set_control(client, "#streams", "global").await;
    set_control(client, "#load", "0.95").await;
    set_control(client, "#submission-days", "30").await;
    wait_enabled(client, "#run", READY_TIMEOUT).await;
    click(client, "#run").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn run_through_controls_matches_native() {
    with_browser(|client, base| async move {
        open_ready(&client, &base).await;
        set_small_scenario(&client, 42).await;
        let expected = small_scenario(42);
        let in_url = scenario_in_url(&client).await;
        assert_eq!(
            in_url, expected,
            "after setting #submission-days=2, #load=0.7, #seed=42, #scheduling=ECT, the scenario in the URL is not \
             the default scenario with those four changes"
        );

        let cards = run_to_the_end(&client).await;
        assert_matches_native(&cards, &expected, "controls");

        let (value, max) = progress(&client).await;
        assert!(max > 0.0 && value == max, "#progress is {value} of {max} after the run finished");

        let mut pixels = Vec::new();
        for c in CANVASES {
            pixels.push((c, non_white_pixels(&client, c).await));
        }
        println!("non-white pixels: {pixels:?}");
        assert!(pixels.iter().any(|&(_, n)| n > 1000), "no canvas has more than 1000 non-white pixels: {pixels:?}");

        let shot = screenshot(&client, "finished.png").await;
        println!("screenshot: {}", shot.display());

        check_exports(&client, &expected).await;
    })
    .await;
}

/// The report (JSON) and per-BoT (CSV) exports of a finished run equal what the native simulator writes for the
/// same scenario, byte for byte but for the wall time; each chart exports as SVG and PNG.
async fn check_exports(client: &Client, scenario: &Scenario) {
    const WAIT: Duration = Duration::from_secs(60);
    capture_downloads(client).await;
    let without_wall = |json: &str| -> String {
        json.lines().filter(|l| !l.trim_start().starts_with("\"wall_time_s\"")).collect::<Vec<_>>().join("\n")
    };

    click(client, "#export-json").await;
    let (name, page_json) = captured_download(client, 1, WAIT).await;
    assert_eq!(name, "bagsim-report.json");
    let native = bagsim::run::run(scenario.multi_cluster().unwrap()).expect("the scenario runs natively");
    assert_eq!(native.predictors.len(), 12, "the native report lacks the predictors' accuracy");
    let native_json = serde_json::to_string_pretty(&native).expect("the report serialises");
    assert!(
        without_wall(&page_json) == without_wall(&native_json),
        "the page's exported report differs from the native report (first 400 characters of each):\n{}\n---\n{}",
        page_json.chars().take(400).collect::<String>(),
        native_json.chars().take(400).collect::<String>()
    );
    println!("report export: {} bytes, equal to the native report but for wall_time_s", page_json.len());

    click(client, "#export-csv").await;
    let (name, page_csv) = captured_download(client, 2, WAIT).await;
    assert_eq!(name, "bagsim-bots.csv");
    let native_csv = {
        let (mut sim, _) = bagsim::run::simulation(
            scenario.multi_cluster().unwrap(),
            bagsim::run::prepare(scenario.multi_cluster().unwrap()).expect("prepares"),
        );
        sim.run();
        bagsim::family::multi_cluster::metrics::bots_csv(&sim.outcome())
    };
    assert!(page_csv == native_csv, "the page's per-BoT CSV differs from the native one");
    println!("per-BoT export: {} lines, equal to the native CSV", page_csv.lines().count());

    click(client, "#chart-nsl-class-svg").await;
    let (name, svg) = captured_download(client, 3, WAIT).await;
    assert_eq!(name, "bagsim-chart-nsl-class.svg");
    assert!(
        svg.starts_with("<svg") && svg.contains("NSL") && svg.contains("<polyline"),
        "not an SVG chart: {svg:.200}"
    );
    click(client, "#chart-nsl-class-png").await;
    let (name, png) = captured_download(client, 4, WAIT).await;
    assert_eq!(name, "bagsim-chart-nsl-class.png");
    assert!(png.starts_with("data:image/png;base64,") && png.len() > 5000, "not a PNG chart: {png:.100}");

    // The per-task records, Batsim's jobs.csv: the bytes `bagsim run --jobs` writes for the same scenario (made by
    // the second module's worker, which runs the scenario shown again).
    click(client, "#export-jobs").await;
    let (name, page_jobs) = captured_download(client, 5, Duration::from_secs(60)).await;
    assert_eq!(name, "bagsim-jobs.csv");
    let native_jobs = {
        // A run is not Send: it lives only in this block, between two awaits.
        let mut run = bagsim::registry::AnyRun::build(scenario, None).expect("builds natively");
        bagsim::family::contract::jobs_in_memory(&mut run).expect("the records are made")
    };
    assert!(page_jobs == native_jobs, "the page's jobs.csv differs from the native one");
    let said = text(client, "#records-status").await.unwrap_or_default();
    assert!(said.contains("Downloaded bagsim-jobs.csv"), "the records' status says {said:?}");
    println!("per-task records: {} lines, equal to the native jobs.csv; {said}", page_jobs.lines().count());
    js(client, "document.querySelector('#records').scrollIntoView({block: 'center'}); return true;", vec![]).await;
    println!("screenshot: {}", screenshot(client, "records.png").await.display());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn page_answers_input_during_a_run_and_cancel_works() {
    with_browser(|client, base| async move {
        open_ready(&client, &base).await;
        start_long_run(&client).await;

        let clicked = std::time::Instant::now();

        let still_running = |what: &'static str| {
            let client = client.clone();
            async move {
                let s = status(&client).await;
                assert!(
                    s == "running",
                    "#status is {s:?} while {what}: the run must still be going (it may have finished too fast \
                     for this test); page: {}",
                    describe(&client).await
                );
            }
        };

        let s = wait_status(&client, &["running", "finished", "cancelled"], RUN_TIMEOUT).await;
        assert_eq!(s, "running", "the long run never showed #status running; page: {}", describe(&client).await);
        let first = wait_for(&client, RUN_TIMEOUT, "#progress value > 0 while running", || async {
            let (v, _) = progress(&client).await;
            if v > 0.0 {
                return Some(v);
            }
            still_running("waiting for #progress to move").await;
            None
        })
        .await;
        still_running("changing #seed").await;

        let (_, search_before) = location(&client).await;
        set_control(&client, "#seed", "987654").await;
        let search_after = wait_for(&client, Duration::from_secs(10), "location.search to change after #seed", || {
            let before = search_before.clone();
            let client = client.clone();
            async move {
                let (_, s) = location(&client).await;
                (s != before).then_some(s)
            }
        })
        .await;
        let seed_in_url = scenario_in_url(&client).await.seed();
        assert_eq!(seed_in_url, 987654, "the URL's scenario has seed {seed_in_url} after #seed=987654: {search_after}");

        let mut latencies = Vec::new();
        for _ in 0..5 {
            latencies.push(main_thread_latency_ms(&client).await);
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let status_now = status(&client).await;
        println!("main-thread latency during the run (setTimeout 0), ms: {latencies:?} (status {status_now})");

        let later = wait_for(&client, RUN_TIMEOUT, "#progress to increase during the run", || async {
            let (v, _) = progress(&client).await;
            if v > first {
                return Some(v);
            }
            still_running("waiting for #progress to increase").await;
            None
        })
        .await;
        println!("#progress went from {first} to {later}");
        still_running("taking the screenshot").await;
        let shot = screenshot(&client, "running.png").await;
        println!("screenshot: {}", shot.display());

        still_running("clicking #cancel").await;
        let (at_cancel, max) = progress(&client).await;
        println!(
            "cancelling {:.1} s after #run, at #progress {at_cancel} of {max} (the margin this test has before the \
             run would end by itself)",
            clicked.elapsed().as_secs_f64()
        );
        click(&client, "#cancel").await;
        let s = wait_status(&client, &["cancelled", "finished"], Duration::from_secs(30)).await;
        assert_eq!(s, "cancelled", "#cancel was clicked while running, but the run went on to the end");
        let (a, _) = progress(&client).await;
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let (b, max) = progress(&client).await;
        assert_eq!(a, b, "#progress kept changing after the run was cancelled");
        assert!(b < max, "#progress is full ({b} of {max}) after cancelling");
        assert_eq!(status(&client).await, "cancelled", "#status left 'cancelled' by itself");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_is_reported_at_the_control() {
    with_browser(|client, base| async move {
        open_ready(&client, &base).await;
        wait_enabled(&client, "#run", READY_TIMEOUT).await;
        let load_error = r#".field-error[data-field="workload.load"]"#;
        let others: Vec<&str> = CONTROLS.iter().copied().filter(|c| *c != "#load" && *c != "#run").collect();
        let before = control_values(&client, &others).await;
        let url_before = location(&client).await.0;

        set_control(&client, "#load", "1.5").await;
        let message = wait_for(&client, Duration::from_secs(10), "the error of workload.load", || async {
            text(&client, load_error).await.filter(|t| !t.is_empty())
        })
        .await;
        println!("error shown for #load=1.5: {message}");
        assert!(
            message.contains("0.05") && message.contains("0.99"),
            "the error at #load does not name the allowed range 0.05–0.99: {message:?}"
        );
        assert!(!is_enabled(&client, "#run").await, "#run is enabled while #load=1.5 is invalid");
        assert_eq!(control_values(&client, &others).await, before, "other controls changed after a bad #load");
        let (url_now, _) = location(&client).await;
        let in_url = scenario_in_url(&client).await;
        assert_eq!(
            in_url.multi_cluster().unwrap().workload.load,
            Some(0.5),
            "the invalid load reached the scenario in the URL: {url_now} (before: {url_before})"
        );
        assert_eq!(status(&client).await, "ready", "#status changed after a bad #load");

        set_control(&client, "#load", "0.5").await;
        wait_for(&client, Duration::from_secs(10), "the error of workload.load to go away", || async {
            text(&client, load_error).await.is_none_or(|t| t.is_empty()).then_some(())
        })
        .await;
        wait_enabled(&client, "#run", Duration::from_secs(10)).await;
        assert_eq!(control_values(&client, &others).await, before, "other controls changed after fixing #load");

        // A mangled link: a banner, no run.
        open_ready(&client, &format!("{base}?scenario=not-base64!!&autorun=1")).await;
        let banner = wait_for(&client, Duration::from_secs(10), "#banner-error", || async {
            text(&client, "#banner-error").await.filter(|t| !t.is_empty())
        })
        .await;
        println!("banner for a mangled link: {banner}");
        let shown = client
            .find(e2e::fantoccini::Locator::Css("#banner-error"))
            .await
            .expect("#banner-error")
            .is_displayed()
            .await
            .expect("is_displayed");
        assert!(shown, "#banner-error exists but is not visible");
        tokio::time::sleep(Duration::from_secs(3)).await;
        assert_eq!(status(&client).await, "ready", "a mangled link with autorun=1 started something");
        let (v, _) = progress(&client).await;
        assert_eq!(v, 0.0, "#progress moved after a mangled link");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shared_link_reproduces_the_run() {
    with_browser(|client, base| async move {
        open_ready(&client, &base).await;
        set_small_scenario(&client, 7).await;
        let first = run_to_the_end(&client).await;
        let (href, _) = location(&client).await;
        assert!(href.contains("scenario="), "the page's URL holds no scenario after a run: {href}");

        let link = if href.contains("autorun=1") { href.clone() } else { format!("{href}&autorun=1") };
        js(&client, "window.__e2e_old_document = true; return null;", vec![]).await;
        client.goto(&link).await.unwrap_or_else(|e| panic!("cannot open {link}: {e}"));
        let fresh = js(&client, "return window.__e2e_old_document === undefined;", vec![]).await;
        assert_eq!(fresh, json!(true), "navigating to the shared link did not load a new page");
        wait_status(&client, &["finished"], RUN_TIMEOUT + READY_TIMEOUT).await;
        let second = cards(&client).await;
        for ((id, a), (_, b)) in first.figures().into_iter().zip(second.figures()) {
            println!("{id}: first run {a}  shared link {b}");
        }
        let differ: Vec<String> = first
            .figures()
            .into_iter()
            .zip(second.figures())
            .filter(
                |((_, a), (_, b))| !matches!((parse_figure(a), parse_figure(b)), (Some(x), Some(y)) if same_f64(x, y)),
            )
            .map(|((id, a), (_, b))| format!("{id}: first {a}, from the link {b}"))
            .collect();
        assert!(differ.is_empty(), "the shared link {link} did not reproduce the run:\n  {}", differ.join("\n  "));
        assert_matches_native(&second, &small_scenario(7), "shared link");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn works_under_a_sub_path() {
    with_browser(|client, base| async move {
        let origin = base.strip_suffix(BASE_PATH).expect("base ends with the base path").to_string();
        let addr: std::net::SocketAddr = origin.trim_start_matches("http://").parse().expect("an address");
        for path in ["/index.html", "/", "/worker_loader.js", "/worker.js"] {
            let (code, _) = http_get(addr, path).await;
            assert_eq!(code, 404, "GET {path} outside {BASE_PATH} answered {code}");
        }
        let (code, body) = http_get(addr, BASE_PATH).await;
        assert_eq!(code, 200, "GET {BASE_PATH} answered {code}");
        let html = String::from_utf8_lossy(&body);
        assert!(html.contains("bagsim"), "{BASE_PATH} is not the bagsim page");
        let files =
            ["worker_loader.js", "worker.js", "worker_bg.wasm", "panels_loader.js", "panels.js", "panels_bg.wasm"];
        for path in files {
            let (code, _) = http_get(addr, &format!("{BASE_PATH}{path}")).await;
            assert_eq!(code, 200, "GET {BASE_PATH}{path} answered {code} (is dist/ a Trunk build with the worker?)");
        }
        open_ready(&client, &base).await;
        wait_enabled(&client, "#run", READY_TIMEOUT).await;
        let (href, _) = location(&client).await;
        assert!(href.starts_with(&base), "the page left {base}: {href}");

        // Every element of the DOM contract is there once the page is ready.
        let mut missing = Vec::new();
        for css in CONTROLS.iter().chain(&CANVASES).chain(&CONTRACT_IDS).chain(CARD_IDS.iter().map(|(id, _)| id)) {
            if !exists(&client, css).await {
                missing.push(*css);
            }
        }
        assert!(missing.is_empty(), "elements of the DOM contract are missing from the page: {missing:?}");
        let mut bad_options = Vec::new();
        for (css, wanted) in SELECT_OPTIONS {
            let v = js(
                &client,
                "const e = document.querySelector(arguments[0]); return e ? [...e.options].map(o => o.value) : [];",
                vec![json!(css)],
            )
            .await;
            let have: Vec<&str> =
                v.as_array().map(|a| a.iter().filter_map(|o| o.as_str()).collect()).unwrap_or_default();
            println!("{css} options: {have:?}");
            let absent: Vec<&str> = wanted.iter().copied().filter(|w| !have.contains(w)).collect();
            if !absent.is_empty() {
                bad_options.push(format!("{css} lacks option values {absent:?} (has {have:?})"));
            }
        }
        assert!(bad_options.is_empty(), "selects do not offer the contract's values:\n  {}", bad_options.join("\n  "));
        let tag = prop(&client, "#progress", "tagName").await;
        assert_eq!(tag, json!("PROGRESS"), "#progress is not a <progress> element");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dead_worker_is_reported_and_replaced() {
    with_browser(|client, base| async move {
        open_ready(&client, &base).await;
        // The worker is surely busy simulating when it is made to crash.
        start_long_run(&client).await;
        let s = wait_status(&client, &["running", "finished", "failed"], RUN_TIMEOUT).await;
        assert_eq!(s, "running", "the long run never showed #status running; page: {}", describe(&client).await);
        let before = scenario_in_url(&client).await;

        let hooked = js(
            &client,
            "if (typeof window.__bagsimCrashWorker !== 'function') return false; window.__bagsimCrashWorker(); return \
             true;",
            vec![],
        )
        .await;
        assert_eq!(hooked, json!(true), "the page has no window.__bagsimCrashWorker() fault-injection hook");

        // The worker panics; the page must say so, start a new worker and become ready again.
        let s = wait_status(&client, &["ready", "finished"], READY_TIMEOUT).await;
        assert_eq!(
            s,
            "ready",
            "after the worker crashed the page did not become ready; page: {}",
            describe(&client).await
        );
        let message = text(&client, "#message").await.unwrap_or_default();
        println!("#message after the crash: {message}");
        assert!(
            message.contains("worker stopped") && message.contains("crash requested by the page"),
            "#message does not report the dead worker and its reason: {message:?}"
        );
        let shot = screenshot(&client, "worker-crashed.png").await;
        println!("screenshot: {}", shot.display());
        assert_eq!(scenario_in_url(&client).await, before, "the scenario changed when the worker died");

        // The replacement worker runs, and gives the native figures.
        set_small_scenario(&client, 11).await;
        let cards = run_to_the_end(&client).await;
        assert_matches_native(&cards, &small_scenario(11), "after a worker crash");
        assert_eq!(text(&client, "#message").await.map(|m| m.contains("worker stopped")), Some(false));
    })
    .await;
}
