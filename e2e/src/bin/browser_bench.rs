//! Browser against native: the default scenario (the Avg model over a month) at 95% load, `RUNS` times in the page
//! (headless Chromium, each started by a `?scenario=…&autorun=1` link) and `RUNS` times natively in this process.
//! Prints each phase (workload generation, simulation, report) as the best and the median of the runs, and the
//! browser/native ratios, as a markdown table. A benchmark: it asserts nothing about time; it does check that every
//! page run gave the native figures.
//!
//! Build the page first (scripts/test-browser.sh, or `trunk build --release --public-url /bagsim/`), then:
//! `cargo run --release -p e2e --bin browser_bench [RUNS]` (default 3).
//!
//! `browser_bench figures [SEEDS]` instead times each paper figure preset (Figures 3–11, `SEEDS` seeds per point,
//! default `reproduce::DEFAULT_SEEDS`) in the page's "Paper figures" section, against the same runs natively on as
//! many threads as the page has workers, and checks that each page CSV equals the native one.
//!
//! `browser_bench trace [LINES]` times the import and BoT extraction of a LINES-line SWF (default 1 000 000: the
//! job lines of tests/data/hpc2n.swf repeated) natively and in the page's Workload lab, and reports the page's longest
//! main-thread task during the import.

use std::time::{Duration, Instant};

use bagsim::engine::Model;
use bagsim::scenario::Scenario;
use e2e::*;

fn scenario() -> Scenario {
    let mut s = Scenario::default();
    s.multi_cluster_mut().unwrap().workload.load = Some(0.95);
    s
}

/// Wall-clock seconds of the three phases of one run.
#[derive(Clone, Copy, Debug)]
struct Phases {
    generate: f64,
    simulate: f64,
    report: f64,
}

fn native_once(s: &Scenario) -> (Phases, bagsim::run::Report) {
    let t = Instant::now();
    let s = &s.multi_cluster().unwrap();
    let prepared = bagsim::run::prepare(s).expect("the scenario prepares");
    let (mut sim, summary) = bagsim::run::simulation(s, prepared);
    let generate = t.elapsed().as_secs_f64();
    let t = Instant::now();
    sim.run();
    let simulate = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let report = bagsim::run::report_without_predictors(s, summary, &sim, simulate);
    let report_time = t.elapsed().as_secs_f64();
    (Phases { generate, simulate, report: report_time }, report)
}

/// A phase's time in a run.
type Phase = fn(&Phases) -> f64;

/// (best, median) of a phase over the runs.
fn best_median(runs: &[Phases], f: impl Fn(&Phases) -> f64) -> (f64, f64) {
    let mut v: Vec<f64> = runs.iter().map(f).collect();
    v.sort_by(f64::total_cmp);
    (v[0], v[v.len() / 2])
}

/// A figure's result natively on `threads` threads (as `bagsim reproduce --jobs`), and the wall-clock seconds.
fn native_figure_parallel(
    id: bagsim::family::multi_cluster::figures::FigureId,
    seeds: u32,
    threads: usize,
) -> (String, f64) {
    let t = Instant::now();
    let figure = id.figure();
    let runs = figure.runs(seeds);
    let results = bagsim::parallel::map(&runs, threads, |_, spec| {
        bagsim::family::multi_cluster::figures::run_point(&spec.scenario).expect("a figure's run succeeds natively")
    });
    let mut result = bagsim::family::multi_cluster::figures::FigureResult::new(figure, seeds);
    for (spec, r) in runs.iter().zip(results) {
        result.add(spec, r);
    }
    (result.to_csv(), t.elapsed().as_secs_f64())
}

/// `browser_bench figures [SEEDS]`: seconds per figure preset in the page and natively.
async fn figures(seeds: u32) {
    use bagsim::family::multi_cluster::figures::{FigureId, MONTH};
    let dist = snapshot(&require_dist());
    let (tx, rx) = std::sync::mpsc::channel();
    with_browser_serving(dist.path.clone(), Duration::from_secs(3 * 60 * 60), move |client, server| {
        let url = format!("{}{BASE_PATH}", server.origin());
        async move {
            open_ready(&client, &url).await;
            let workers = js(&client, "return Math.min(4, Math.max(1, navigator.hardwareConcurrency || 2));", vec![])
                .await
                .as_u64()
                .unwrap_or(2) as usize;
            for id in FigureId::ALL {
                let (csv, secs) =
                    run_paper_figure(&client, id.name(), seeds, MONTH, Duration::from_secs(60 * 60)).await;
                println!("{}: page {secs:.1} s", id.name());
                tx.send((id, csv, secs, workers)).expect("send the page's figure");
            }
        }
    })
    .await;
    println!();
    println!("paper figures, {seeds} seeds per point; wall-clock seconds from Run to the last run in");
    println!();
    println!("| figure | runs | page | native (same number of threads as page workers) | page / native | CSV |");
    println!("|---|---:|---:|---:|---:|---|");
    let (mut page_total, mut native_total) = (0.0, 0.0);
    for (id, csv, secs, workers) in rx.try_iter() {
        let (native_csv, native_secs) = native_figure_parallel(id, seeds, workers);
        let runs = id.figure().runs(seeds).len();
        let same = if csv == native_csv { "identical" } else { "DIFFERS" };
        println!(
            "| {} | {runs} | {secs:.1} | {native_secs:.1} ({workers}) | {:.2} | {same} |",
            id.name(),
            secs / native_secs
        );
        page_total += secs;
        native_total += native_secs;
        assert!(csv == native_csv, "{}: the page's CSV differs from the native one", id.name());
    }
    println!("| all | | {page_total:.1} | {native_total:.1} | {:.2} | |", page_total / native_total);
}

/// Writes an SWF of `lines` job lines: the job lines of tests/data/hpc2n.swf over and over, each pass shifted by the
/// excerpt's span and renumbered, under its header. Returns the path and the size in bytes.
fn synthetic_swf(lines: usize) -> (std::path::PathBuf, u64) {
    use std::io::Write;
    let text = std::fs::read_to_string(workspace_root().join("tests/data/hpc2n.swf")).expect("tests/data/hpc2n.swf");
    let header: Vec<&str> = text.lines().filter(|l| l.starts_with(';')).collect();
    let jobs: Vec<Vec<&str>> = text
        .lines()
        .filter(|l| !l.starts_with(';') && !l.trim().is_empty())
        .map(|l| l.split_whitespace().collect())
        .collect();
    let span: i64 = jobs.iter().filter_map(|f| f[1].parse::<i64>().ok()).max().unwrap_or(0) + 1;
    let path = std::env::temp_dir().join(format!("bagsim-bench-{lines}.swf"));
    let mut out = std::io::BufWriter::new(std::fs::File::create(&path).expect("a temporary file"));
    for h in header {
        writeln!(out, "{h}").unwrap();
    }
    for i in 0..lines {
        let (pass, f) = (i / jobs.len(), &jobs[i % jobs.len()]);
        let submit = f[1].parse::<i64>().unwrap_or(0) + pass as i64 * span;
        write!(out, "{} {submit}", i + 1).unwrap();
        for x in &f[2..] {
            write!(out, " {x}").unwrap();
        }
        writeln!(out).unwrap();
    }
    out.flush().unwrap();
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    (path, size)
}

/// `browser_bench trace [LINES]`: import and BoT extraction of a LINES-line SWF natively and in the page's Workload
/// lab, and the page's longest main-thread task meanwhile (Long Tasks API).
async fn trace(lines: usize) {
    use bagsim::trace::bots::{extract, BotRule};
    let (path, size) = synthetic_swf(lines);
    let t = Instant::now();
    let native = bagsim::trace::import_path(&path, None).expect("the synthetic trace imports");
    let import_native = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let bots = extract(&native, &BotRule::default()).expect("BoTs").report.bots;
    let extract_native = t.elapsed().as_secs_f64();
    let dist = snapshot(&require_dist());
    let (tx, rx) = std::sync::mpsc::channel();
    let file = path.clone();
    with_browser_serving(dist.path.clone(), Duration::from_secs(30 * 60), move |client, server| {
        let url = format!("{}{BASE_PATH}", server.origin());
        async move {
            open_ready(&client, &url).await;
            js(
                &client,
                "window.__longTasks = []; window.__longStarts = []; new PerformanceObserver((l) => { for (const e of \
                 l.getEntries()) { window.__longTasks.push(e.duration); window.__longStarts.push(e.startTime); } \
                 }).observe({ type: 'longtask' }); window.__marks = []; new MutationObserver(() => { const s = \
                 document.querySelector('#trace-status'); const b = document.querySelector('#trace-bots'); \
                 window.__marks.push([performance.now(), s ? s.dataset.state : '', b ? b.dataset.bots : '', \
                 document.querySelectorAll('.views-charts svg').length]); \
                 }).observe(document.querySelector('#trace-lab'), { subtree: true, childList: true, attributes: true \
                 }); window.__t0 = performance.now(); return true;",
                vec![],
            )
            .await;
            let input = client.find(fantoccini::Locator::Css("#trace-file")).await.expect("#trace-file");
            let t = Instant::now();
            input.send_keys(file.to_str().unwrap()).await.expect("pick the file");
            let state = wait_for(&client, Duration::from_secs(20 * 60), "the import to end", || async {
                let s = attr(&client, "#trace-status", "data-state").await.unwrap_or_default();
                (s == "imported" || s == "failed").then_some(s)
            })
            .await;
            let import_page = t.elapsed().as_secs_f64();
            assert_eq!(state, "imported", "{:?}", text(&client, "#trace-message").await);
            wait_for(&client, Duration::from_secs(20 * 60), "the BoTs", || async {
                attr(&client, "#trace-bots", "data-bots").await.filter(|b| b.parse::<u64>().ok() == Some(bots))
            })
            .await;
            let bots_page = t.elapsed().as_secs_f64() - import_page;
            let long = js(&client, "return window.__longTasks;", vec![]).await;
            let long: Vec<f64> =
                long.as_array().map(|a| a.iter().filter_map(|x| x.as_f64()).collect()).unwrap_or_default();
            // Where the long tasks fall among the page's changes (ms since the observers started).
            let when = js(
                &client,
                "const t0 = window.__t0; const m = window.__marks; const out = []; \
                 for (let i = 0; i < window.__longStarts.length; i++) { const s = window.__longStarts[i]; \
                 const before = m.filter(x => x[0] <= s).pop(); const after = m.find(x => x[0] >= s); \
                 out.push({ start: Math.round(s - t0), duration: Math.round(window.__longTasks[i]), \
                 before: before ? [Math.round(before[0] - t0), before[1], before[2], before[3]] : null, \
                 after: after ? [Math.round(after[0] - t0), after[1], after[2], after[3]] : null }); } return out;",
                vec![],
            )
            .await;
            println!("long tasks (ms since start; the page's state just before and after): {when}");
            println!(
                "longest TraceBots handling {:?} ms, longest view chart {:?} ms",
                attr(&client, "#trace-status", "data-handle-ms").await,
                attr(&client, "#trace-views", "data-chart-ms").await
            );
            tx.send((import_page, bots_page, long)).expect("send the page's figures");
        }
    })
    .await;
    let (import_page, bots_page, long) = rx.recv().expect("the page's figures");
    std::fs::remove_file(&path).ok();
    let mb = size as f64 / 1e6;
    println!("trace of {lines} job lines ({mb:.1} MB), {bots} BoTs at the default Δ");
    println!();
    println!("| phase | native | page (worker) | page / native |");
    println!("|---|---:|---:|---:|");
    println!(
        "| import | {import_native:.2} s ({:.0} lines/s) | {import_page:.2} s ({:.0} lines/s) | {:.2} |",
        lines as f64 / import_native,
        lines as f64 / import_page,
        import_page / import_native
    );
    println!("| BoTs (default rule) | {extract_native:.2} s | {bots_page:.2} s (with the fit and the 8-Δ table) | |");
    println!();
    println!(
        "main thread during the import: {} tasks over 50 ms, longest {:.0} ms",
        long.len(),
        long.iter().copied().fold(0.0, f64::max)
    );
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    if std::env::args().nth(1).as_deref() == Some("trace") {
        let lines = std::env::args().nth(2).map_or(1_000_000, |a| a.parse().expect("LINES is a number"));
        return trace(lines).await;
    }
    if std::env::args().nth(1).as_deref() == Some("figures") {
        let seeds = std::env::args()
            .nth(2)
            .map_or(bagsim::family::multi_cluster::figures::DEFAULT_SEEDS, |a| a.parse().expect("SEEDS is a number"));
        return figures(seeds).await;
    }
    let runs: usize = std::env::args().nth(1).map_or(3, |a| a.parse().expect("RUNS is a number"));
    let s = scenario();
    let param = scenario_param(&s);
    let dist = snapshot(&require_dist());
    let (tx, rx) = std::sync::mpsc::channel();
    let (responsiveness_tx, responsiveness_rx) = std::sync::mpsc::channel();
    with_browser_serving(dist.path.clone(), Duration::from_secs(30 * 60), move |client, server| {
        let url = format!("{}{BASE_PATH}?scenario={param}&autorun=1", server.origin());
        async move {
            for _ in 0..runs {
                let t0 = Instant::now();
                client.goto(&url).await.unwrap_or_else(|e| panic!("cannot open {url}: {e}"));
                wait_status(&client, &["finished"], Duration::from_secs(600)).await;
                let elapsed = t0.elapsed().as_secs_f64();
                let cards = cards(&client).await;
                let number = |name: &str| {
                    let client = client.clone();
                    let name = name.to_string();
                    async move { attr(&client, "#card-wall", &name).await.as_deref().and_then(parse_figure) }
                };
                let generate = number("data-generate").await.unwrap_or(f64::NAN);
                let report = number("data-report").await.unwrap_or(f64::NAN);
                tx.send((cards, generate, report, elapsed)).expect("send the page's figures");
            }
            // Main-thread responsiveness during one more run, started with the Run button: every main-thread task
            // over 50 ms (the Long Tasks API), and setTimeout(0) latencies sampled every 100 ms.
            let plain = url.replace("&autorun=1", "");
            client.goto(&plain).await.unwrap_or_else(|e| panic!("cannot open {plain}: {e}"));
            wait_status(&client, &["ready"], READY_TIMEOUT).await;
            js(
                &client,
                "window.__longTasks = []; new PerformanceObserver((l) => { for (const e of l.getEntries()) \
                 window.__longTasks.push(e.duration); }).observe({ type: 'longtask' }); return true;",
                vec![],
            )
            .await;
            wait_enabled(&client, "#run", READY_TIMEOUT).await;
            click(&client, "#run").await;
            let mut latencies = Vec::new();
            while status(&client).await != "finished" {
                latencies.push(main_thread_latency_ms(&client).await);
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            let long = js(&client, "return window.__longTasks;", vec![]).await;
            let long: Vec<f64> =
                long.as_array().map(|a| a.iter().filter_map(|x| x.as_f64()).collect()).unwrap_or_default();
            let draw = attr(&client, "#charts", "data-draw-ms-max").await.as_deref().and_then(parse_figure);
            responsiveness_tx
                .send((long, latencies, draw.unwrap_or(f64::NAN)))
                .expect("send the responsiveness figures");
        }
    })
    .await;

    let mut native = Vec::new();
    let mut native_report = None;
    for _ in 0..runs {
        let (p, r) = native_once(&s);
        native.push(p);
        native_report = Some(r);
    }
    let native_report = native_report.expect("at least one run");
    let mut browser = Vec::new();
    let mut totals = Vec::new();
    for (cards, generate, report, elapsed) in rx.try_iter() {
        let differ = compare_with_native(&cards, &native_report);
        assert!(differ.is_empty(), "a page run's figures differ from the native run:\n  {}", differ.join("\n  "));
        let simulate = parse_figure(&cards.wall).unwrap_or(f64::NAN);
        browser.push(Phases { generate, simulate, report });
        totals.push(elapsed);
    }
    assert_eq!(browser.len(), runs, "not every page run reported");

    println!("scenario: default (Avg, 30 days, das2_g5k) at load 0.95, seed {}", s.seed());
    println!("tasks: {}, events: {}", native_report.workload.tasks, native_report.metrics.system.events);
    println!("{runs} runs each; best and median wall time, s");
    println!();
    println!("| phase | native best | native median | browser worker best | browser worker median | ratio of bests |");
    println!("|---|---:|---:|---:|---:|---:|");
    let phases: [(&str, Phase); 4] = [
        ("workload generation", |p| p.generate),
        ("simulation (`#card-wall`)", |p| p.simulate),
        ("report (without predictors)", |p| p.report),
        ("all three", |p| p.generate + p.simulate + p.report),
    ];
    for (name, f) in phases {
        let (nb, nm) = best_median(&native, f);
        let (bb, bm) = best_median(&browser, f);
        println!("| {name} | {nb:.3} | {nm:.3} | {bb:.3} | {bm:.3} | {:.2} |", bb / nb);
    }
    totals.sort_by(f64::total_cmp);
    println!();
    println!(
        "page load to `finished` (incl. loading the wasm): best {:.2} s, median {:.2} s",
        totals[0],
        totals[totals.len() / 2]
    );
    println!("figures: every page run's cards equal the native report's exactly");
    let (long, mut latencies, draw) = responsiveness_rx.recv().expect("the responsiveness figures");
    latencies.sort_by(f64::total_cmp);
    println!();
    println!(
        "main thread during a run started with #run: longest redraw of the charts {draw:.0} ms; {} tasks over 50 ms \
         (longest {:.0} ms); setTimeout(0) latency over {} samples: median {:.1} ms, max {:.1} ms",
        long.len(),
        long.iter().copied().fold(0.0, f64::max),
        latencies.len(),
        latencies.get(latencies.len() / 2).copied().unwrap_or(f64::NAN),
        latencies.last().copied().unwrap_or(f64::NAN)
    );
}
