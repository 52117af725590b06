//! Browser against native: the default scenario (the Avg model over a month) at 95% load, once in the page (headless
//! Chromium, started by a `?scenario=…&autorun=1` link) and once natively in this process; prints both wall times and
//! their ratio as a markdown table. A benchmark: it asserts nothing about time.
//!
//! Build the page first (scripts/test-browser.sh, or `trunk build --release --public-url /bagsim/`), then:
//! `cargo run --release -p e2e --bin browser_bench`.

use std::time::{Duration, Instant};

use bagsim::scenario::Scenario;
use e2e::*;

fn scenario() -> Scenario {
    let mut s = Scenario::default();
    s.workload.load = Some(0.95);
    s
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let s = scenario();
    let param = scenario_param(&s);
    let dist = snapshot(&require_dist());
    let (tx, rx) = std::sync::mpsc::channel();
    with_browser_serving(dist.path.clone(), Duration::from_secs(15 * 60), move |client, server| {
        let url = format!("{}{BASE_PATH}?scenario={param}&autorun=1", server.origin());
        async move {
            let t0 = Instant::now();
            client.goto(&url).await.unwrap_or_else(|e| panic!("cannot open {url}: {e}"));
            wait_status(&client, &["finished"], Duration::from_secs(600)).await;
            let elapsed = t0.elapsed().as_secs_f64();
            let cards = cards(&client).await;
            tx.send((cards, elapsed)).expect("send the page's figures");
        }
    })
    .await;
    let (cards, page_total) = rx.recv().expect("the page's figures");
    let native = bagsim::run::run(&s).expect("the scenario runs natively");
    let browser = parse_figure(&cards.wall).unwrap_or(f64::NAN);
    let same = compare_with_native(&cards, &native);

    println!("scenario: default (Avg, 30 days, das2_g5k) at load 0.95, seed {}", s.seed);
    println!("tasks: {}, events: {}", native.workload.tasks, native.metrics.system.events);
    println!();
    println!("| where | simulation wall time (s) | ratio to native |");
    println!("|---|---:|---:|");
    println!("| native (this process, release) | {:.3} | 1.00 |", native.wall_time_s);
    println!("| browser worker (`#card-wall`) | {browser:.3} | {:.2} |", browser / native.wall_time_s);
    println!();
    println!("page load to `finished` (incl. wasm load and workload generation): {page_total:.2} s");
    if same.is_empty() {
        println!("figures: the page's cards equal the native report's exactly");
    } else {
        println!("figures DIFFER from the native report:\n  {}", same.join("\n  "));
    }
}
