//! In the browser (wasm-bindgen-test, headless Chromium): every worker message survives the trip through
//! `serde_wasm_bindgen`, and the simulator gives, in wasm32, the very figures pinned natively in
//! tests/sim/determinism.rs, and fitting the very bits pinned natively in tests/sim/fit_bits.rs.
//!
//! `CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner CHROMEDRIVER=/usr/bin/chromedriver \
//!  cargo test --target wasm32-unknown-unknown --test web` (scripts/test-browser.sh does this).
#![cfg(target_arch = "wasm32")]

use bagsim::family::contract::{Header, Start};
use bagsim::family::desktop_grid::DgDetail;
use bagsim::family::multi_cluster::live::{BotDone, McDetail};
use bagsim::protocol::{FromWorker, Progress, ToWorker};
use bagsim::registry::{AnyDetail, AnyFigureJob, AnyFigureResult, AnyReport};
use bagsim::run::{run_with_clock, Report};
use bagsim::scenario::{McScenario, Scenario};
use bagsim::trace::bots::BotRule;
use bagsim::trace::Format;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// The native test's pins and the code that computes them, shared so that both platforms check the same numbers.
#[path = "sim/fit_bits.rs"]
mod fit_bits;
#[path = "sim/golden.rs"]
mod golden;
/// A throw-away family's page module, through the page's contract.
#[path = "web/toy_page.rs"]
mod toy_page;

/// Rust value → JS value → Rust value. Compared through `Debug`, which prints every f64 exactly and NaN as NaN (a
/// report may hold NaN, which `==` would call unequal to itself).
fn round_trip<T>(value: &T) -> T
where
    T: serde::Serialize + serde::de::DeserializeOwned + std::fmt::Debug,
{
    let js = serde_wasm_bindgen::to_value(value).unwrap_or_else(|e| panic!("to_value({value:?}): {e}"));
    let back: T = serde_wasm_bindgen::from_value(js).unwrap_or_else(|e| panic!("from_value of {value:?}: {e}"));
    assert_eq!(format!("{back:?}"), format!("{value:?}"), "the round trip changed the message");
    back
}

fn tiny_scenario() -> Scenario {
    let mut s = Scenario::default();
    let m = &mut *s.multi_cluster_mut().unwrap();
    m.seed = 11;
    m.workload.submission_period = 6.0 * 3600.0;
    m.workload.load = Some(0.3);
    m.scheduling = "WQR-2".parse().unwrap();
    m.inaccuracy = 50.0;
    s
}

/// A small desktop grid ([Anglano09]): 8 BoTs of the Short mix on Low-Avail Heterogeneous machines.
fn tiny_dg_scenario() -> Scenario {
    let mut s = Scenario::default_for(bagsim::registry::Family::DesktopGrid);
    s.set_seed(5);
    let d = &mut s.desktop_grid_mut().expect("a desktop-grid section").desktop_grid;
    d.availability = bagsim::family::desktop_grid::availability::AvailabilityLevel::Low;
    d.heterogeneity = bagsim::family::desktop_grid::config::Heterogeneity::Heterogeneous;
    d.mix = bagsim::family::desktop_grid::workload::Mix::Short;
    d.bots = 8;
    s
}

fn tiny_report() -> Report {
    run_with_clock(tiny_scenario().multi_cluster().expect("a multi-cluster scenario"), &|| 0.0)
        .expect("the tiny scenario runs")
}

/// Every variant, once: a new variant fails to compile here until it is added to the lists below.
fn to_worker_name(m: &ToWorker) -> &'static str {
    match m {
        ToWorker::Run { .. } => "Run",
        ToWorker::Pause { .. } => "Pause",
        ToWorker::Resume { .. } => "Resume",
        ToWorker::Cancel { .. } => "Cancel",
        ToWorker::Speed { .. } => "Speed",
        ToWorker::Estimate { .. } => "Estimate",
        ToWorker::ExportBots { .. } => "ExportBots",
        ToWorker::ExportReport { .. } => "ExportReport",
        ToWorker::ImportBegin { .. } => "ImportBegin",
        ToWorker::ImportChunk { .. } => "ImportChunk",
        ToWorker::ImportEnd { .. } => "ImportEnd",
        ToWorker::ImportCancel { .. } => "ImportCancel",
        ToWorker::TraceBots { .. } => "TraceBots",
        ToWorker::ScenarioViews { .. } => "ScenarioViews",
        ToWorker::CheckScript { .. } => "CheckScript",
        ToWorker::Crash => "Crash",
        ToWorker::Figure { .. } => "Figure",
    }
}

fn from_worker_name(m: &FromWorker) -> &'static str {
    match m {
        FromWorker::Ready => "Ready",
        FromWorker::ScriptChecked { .. } => "ScriptChecked",
        FromWorker::Started { .. } => "Started",
        FromWorker::Progress(_) => "Progress",
        FromWorker::Paused { .. } => "Paused",
        FromWorker::Finished { .. } => "Finished",
        FromWorker::Cancelled { .. } => "Cancelled",
        FromWorker::Failed { .. } => "Failed",
        FromWorker::BotsCsv { .. } => "BotsCsv",
        FromWorker::Estimated { .. } => "Estimated",
        FromWorker::ReportJson { .. } => "ReportJson",
        FromWorker::Panicked { .. } => "Panicked",
        FromWorker::ImportProgress { .. } => "ImportProgress",
        FromWorker::Imported { .. } => "Imported",
        FromWorker::ImportFailed { .. } => "ImportFailed",
        FromWorker::TraceBots { .. } => "TraceBots",
        FromWorker::Views { .. } => "Views",
        FromWorker::FigureDone { .. } => "FigureDone",
    }
}

#[wasm_bindgen_test]
fn every_to_worker_message_round_trips() {
    let messages = vec![
        ToWorker::Run { run_id: 1, scenario: Box::new(tiny_scenario()), speed: None, live: true },
        ToWorker::Run { run_id: 2, scenario: Box::new(tiny_dg_scenario()), speed: Some(3600.0), live: true },
        ToWorker::Run { run_id: u32::MAX, scenario: Box::default(), speed: Some(86_400.0), live: false },
        ToWorker::Pause { run_id: 2 },
        ToWorker::Resume { run_id: 3 },
        ToWorker::Cancel { run_id: 4 },
        ToWorker::Speed { run_id: 5, speed: Some(3600.5) },
        ToWorker::Speed { run_id: 6, speed: None },
        ToWorker::ExportBots { run_id: 7 },
        ToWorker::ExportReport { run_id: 8 },
        ToWorker::ImportBegin { import_id: 1, name: "hpc2n.swf".into(), format: Format::Swf, size: 1 << 33 },
        // Every byte value, as a slice of a gzip file would hold them.
        ToWorker::ImportChunk { import_id: 1, bytes: (0..=255u8).chain([0x1f, 0x8b, 0, 255]).collect() },
        ToWorker::ImportChunk { import_id: 2, bytes: Vec::new() },
        ToWorker::ImportEnd { import_id: 1 },
        ToWorker::ImportCancel { import_id: 1 },
        ToWorker::TraceBots { import_id: 1, rule: BotRule { delta: 100.5, ..BotRule::default() }, fit: true },
        ToWorker::ScenarioViews { request_id: 3, scenario: Box::new(tiny_scenario()) },
        ToWorker::CheckScript {
            check_id: 4,
            family: bagsim::registry::Family::MultiCluster,
            key: "scheduling".into(),
            source: "fn choose(e, v) {\n  wait()\n}".into(),
        },
        ToWorker::Crash,
        ToWorker::Estimate { scenario: Box::new(tiny_dg_scenario()) },
        ToWorker::Figure {
            job_id: 3,
            job: Box::new(AnyFigureJob::DesktopGrid(Box::new(bagsim::family::desktop_grid::figures::BarJob {
                figure: 7,
                mix: bagsim::family::desktop_grid::workload::Mix::Long,
                policy: bagsim::family::desktop_grid::policy::BotSelection::LongIdle.into(),
                base: bagsim::family::desktop_grid::DgConfig { bots: 20, ..Default::default() },
                rule: bagsim::family::desktop_grid::figures::CiRule { min_seeds: 2, max_seeds: 5, rel: 0.025 },
            }))),
        },
    ];
    let names: std::collections::BTreeSet<_> = messages.iter().map(to_worker_name).collect();
    assert_eq!(names.len(), 17, "not every ToWorker variant is tested: {names:?}");
    for m in &messages {
        round_trip(m);
    }
}

#[wasm_bindgen_test]
fn every_from_worker_message_round_trips() {
    let report = tiny_report();
    assert!(report.workload.bots > 0, "the tiny scenario has no BoTs");
    let detail = McDetail {
        samples: report.metrics.series.iter().take(3).cloned().collect(),
        bots: vec![
            BotDone { size: 1, makespan: 10.5, nsl: 0.25, wait: 0.0 },
            BotDone { size: 5000, makespan: 1e6, nsl: 3.0e-7, wait: 42.0 },
        ],
    };
    assert!(!detail.samples.is_empty(), "the tiny run has no time-series samples");
    let progress = Progress {
        run_id: 9,
        header: Header {
            now: 12_345.678,
            horizon: 2_613_600.0,
            events: 1 << 40,
            tasks: 1_000_000,
            finished_tasks: 77,
            queued: 5,
            busy: 3,
        },
        wall: 0.125,
        detail: Some(AnyDetail::MultiCluster(detail)),
    };
    let trace = bagsim::trace::import(include_bytes!("data/hpc2n.swf")).expect("the trace imports");
    let rule = BotRule { multi_proc: bagsim::trace::bots::MultiProc::Split, ..BotRule::default() };
    let e = bagsim::trace::bots::extract(&trace, &rule).expect("BoTs");
    let (fit, candidates) =
        bagsim::workload::fit_workload::fit_workload_with_candidates(&e.workload).expect("a fitted row");
    let views = bagsim::workload::views::views(&e.workload).expect("views");
    let jobs = trace.burstiness().expect("burstiness");
    let dg_report = bagsim::family::desktop_grid::run_with_clock(
        &tiny_dg_scenario().desktop_grid().expect("a desktop-grid scenario").clone(),
        &|| 0.0,
    )
    .expect("the tiny desktop grid runs");
    let dg_detail =
        DgDetail { bots: 8, finished_bots: 3, samples: dg_report.metrics.series.iter().take(3).cloned().collect() };
    assert!(!dg_detail.samples.is_empty(), "the tiny desktop grid has no time-series samples");
    let dg_progress = Progress {
        run_id: 10,
        header: Header {
            now: 86_400.5,
            horizon: 1e7,
            events: 1 << 35,
            tasks: 4000,
            finished_tasks: 1234,
            queued: 12,
            busy: 97,
        },
        wall: 0.25,
        detail: Some(AnyDetail::DesktopGrid(dg_detail)),
    };
    let quiet_progress = Progress { run_id: 12, header: Header::default(), wall: 0.0, detail: None };
    let bar = bagsim::family::desktop_grid::figures::Bar {
        mix: bagsim::family::desktop_grid::workload::Mix::AllVs,
        policy: bagsim::family::desktop_grid::policy::BotSelection::Rr.into(),
        seeds: 30,
        saturated_seeds: 16,
        saturation: bagsim::family::desktop_grid::figures::Saturation::Unbounded,
        unbounded: true,
        growth: (0.25, 0.1875, 0.3125),
        cap_hit: false,
        turnaround: (1e5, f64::NAN, f64::NAN),
        makespan: (0.1 + 0.2, 1e-300, 0.7),
        waiting: (3600.5, 3588.25, 3612.75),
        rwt: (0.125, 0.0, 0.25),
    };
    let messages = vec![
        FromWorker::FigureDone { job_id: 1, result: Ok(Box::new(AnyFigureResult::DesktopGrid(Box::new(bar)))) },
        FromWorker::FigureDone { job_id: 2, result: Err(String::from("desktop_grid.bots: 0 is out of range").into()) },
        FromWorker::Progress(Box::new(dg_progress)),
        FromWorker::Progress(Box::new(quiet_progress)),
        FromWorker::Finished {
            run_id: 11,
            report: Box::new(AnyReport::DesktopGrid(Box::new(dg_report))),
            report_s: 0.03125,
        },
        FromWorker::Ready,
        FromWorker::ScriptChecked { check_id: 4, error: None },
        FromWorker::ScriptChecked { check_id: 5, error: Some("line 2, column 3: no choose".into()) },
        FromWorker::Started {
            run_id: 1,
            start: Start {
                bots: report.workload.bots,
                tasks: report.workload.tasks,
                achieved_load: report.workload.achieved_load,
                warnings: vec!["a warning".into(), "ünïcödé ✓".into()],
            },
            generate_s: 0.125,
        },
        FromWorker::Progress(Box::new(progress)),
        FromWorker::Paused { run_id: 2 },
        FromWorker::Finished {
            run_id: 3,
            report: Box::new(AnyReport::MultiCluster(Box::new(report))),
            report_s: 0.0625,
        },
        FromWorker::Cancelled { run_id: 4 },
        FromWorker::Failed { run_id: 5, message: "workload.load: 1.5 is out of range; allowed 0.05–0.99".into() },
        FromWorker::BotsCsv { run_id: 6, csv: "bot,size,makespan\n0,3,12.5\n".into() },
        FromWorker::ReportJson { run_id: 7, json: "{\"bagsim_version\": \"0.1.0\"}".into() },
        FromWorker::Estimated { line: "Before Run: at most about 417 000 events …".into(), over: false },
        FromWorker::Panicked { message: "index out of bounds: the len is 3 but the index is 7".into() },
        FromWorker::ImportProgress { import_id: 1, bytes: 1 << 33, lines: 3194, jobs: 3145, skipped: 25 },
        FromWorker::Imported {
            import_id: 1,
            name: "hpc2n.swf".into(),
            report: Box::new(trace.report.clone()),
            import_s: 0.5,
        },
        FromWorker::ImportFailed { import_id: 2, message: "the file is empty: no job to import".into() },
        FromWorker::TraceBots {
            import_id: 1,
            rule,
            report: Box::new(e.report.clone()),
            fit: Some(Box::new(fit.clone())),
            fit_error: None,
            views: Some(Box::new(views.clone())),
            jobs: Some(Box::new(jobs)),
            candidates: Some(Box::new(candidates.clone())),
        },
        FromWorker::TraceBots {
            import_id: 1,
            rule,
            report: Box::new(e.report),
            fit: None,
            fit_error: Some("IAT (peak hours): no data".into()),
            views: None,
            jobs: None,
            candidates: None,
        },
        FromWorker::Views { request_id: 3, result: Ok(Box::new(views)), fit: Ok(Box::new((fit, candidates))) },
        FromWorker::Views {
            request_id: 4,
            result: Err(String::from("workload.load: 1.5 is out of range").into()),
            fit: Err(String::from("workload.load: 1.5 is out of range").into()),
        },
    ];
    let names: std::collections::BTreeSet<_> = messages.iter().map(from_worker_name).collect();
    assert_eq!(names.len(), 18, "not every FromWorker variant is tested: {names:?}");
    for m in &messages {
        round_trip(m);
    }
}

/// tests/sim/determinism.rs `pinned_golden_figures`: every pin of tests/sim/golden.rs, exactly.
#[wasm_bindgen_test]
fn wasm_gives_the_native_golden_figures() {
    for (name, s, golden) in golden::cases() {
        check_golden(name, &s, golden);
    }
}

fn check_golden(name: &str, s: &McScenario, golden: golden::Golden) {
    let r = run_with_clock(s, &|| 0.0).expect("the golden scenario runs");
    let got = (r.workload.bots, r.workload.tasks, r.metrics.tasks.finished, r.metrics.system.events);
    let (counts, makespan, nsl) = golden;
    assert_eq!(got, counts, "{name}: wasm32 counts (bots, tasks, finished, events) differ from the native golden ones");
    // Exact: the simulator uses libm and integer random streams, so wasm32 and native agree bit for bit.
    assert!(
        r.metrics.overall.makespan.mean == makespan,
        "{name}: wasm32 mean makespan {} ({:e}) != native golden {makespan} ({makespan:e})",
        r.metrics.overall.makespan.mean,
        r.metrics.overall.makespan.mean
    );
    assert!(
        r.metrics.overall.nsl.mean == nsl,
        "{name}: wasm32 mean NSL {} ({:e}) != native golden {nsl} ({nsl:e})",
        r.metrics.overall.nsl.mean,
        r.metrics.overall.nsl.mean
    );
}

/// tests/sim/fit_bits.rs `fitted_bits_are_pinned`: a real trace's fitted row (every parameter, KS statistic and
/// log-likelihood), all six candidate families on two characteristics, and the model through a share link.
#[wasm_bindgen_test]
fn wasm_fits_the_native_bits() {
    let trace = bagsim::trace::import(include_bytes!("data/hpc2n.swf")).expect("the hpc2n excerpt");
    fit_bits::check(&trace, "wasm32");
}

/// The page's charts measure text with a canvas's `measureText` (`ui/measured.rs`) instead of plotters' own way on
/// the web (a `<span>` added to the page and laid out): in a page with no style sheet of ours, the two give the
/// same sizes, within a pixel of rounding, for texts and sizes the charts draw.
#[wasm_bindgen_test]
fn text_measured_by_the_canvas_matches_plotters_layout() {
    use plotters::prelude::{DrawingBackend, IntoFont};
    use wasm_bindgen::JsCast;
    let document = web_sys::window().and_then(|w| w.document()).expect("a document");
    let canvas = || -> web_sys::HtmlCanvasElement {
        let c: web_sys::HtmlCanvasElement =
            document.create_element("canvas").expect("a canvas").dyn_into().expect("a canvas element");
        c.set_width(400);
        c.set_height(300);
        c
    };
    let plain = plotters_canvas::CanvasBackend::with_canvas_object(canvas()).expect("a 2D context");
    let (measured, _pen) = bagsim::ui::measured::canvas(canvas()).expect("a 2D context");
    for (text, size) in [
        ("Queued tasks", 16.0),
        ("Mean NSL per size class", 16.0),
        ("simulated time [days]", 12.0),
        ("45000", 12.0),
        ("0.25", 12.0),
        ("busy / processors", 13.0),
    ] {
        let style = plotters::style::TextStyle::from(("sans-serif", size).into_font());
        let a = plain.estimate_text_size(text, &style).expect("plotters' size");
        let b = measured.estimate_text_size(text, &style).expect("the canvas's size");
        let near = |x: u32, y: u32| x.abs_diff(y) <= 1;
        assert!(near(a.0, b.0) && near(a.1, b.1), "{text:?} at {size} px: plotters {a:?}, measureText {b:?}");
    }
}

/// The FPLT and ECT examples of docs/policies.md, run as scripts in wasm32, give the built-ins' reports bit for bit
/// (natively: tests/sim/script.rs).
#[wasm_bindgen_test]
fn scripted_policies_give_the_built_ins_reports() {
    use bagsim::family::multi_cluster::policy::scheduling::{SchedulingPolicy, ScriptSource};
    let examples = [
        ("FPLT", include_str!("../examples/policies/fplt.rhai")),
        ("ECT", include_str!("../examples/policies/ect.rhai")),
    ];
    for (name, source) in examples {
        let mut m = tiny_scenario().multi_cluster().expect("a multi-cluster scenario").clone();
        m.workload.load = Some(0.9);
        m.scheduling = name.parse().unwrap();
        let want = run_with_clock(&m, &|| 0.0).expect("the built-in runs");
        m.scheduling = SchedulingPolicy::Script(ScriptSource::new(source));
        let mut got = run_with_clock(&m, &|| 0.0).expect("the script runs");
        got.scenario.scheduling = name.parse().unwrap();
        assert_eq!(serde_json::to_string(&got).unwrap(), serde_json::to_string(&want).unwrap(), "{name}");
    }
}
