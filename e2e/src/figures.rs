//! Figures: the summary cards the page prints against the native report, and the paper figures computed
//! natively and on the page.

use crate::dom::{attr, click, js, set_control, text, wait_enabled, wait_for};
use crate::site::{workspace_root, READY_TIMEOUT};
use fantoccini::Client;
use std::time::Duration;

/// The summary cards' `data-value`s, as text (exactly what the page printed).
#[derive(Clone, Debug, PartialEq)]
pub struct Cards {
    pub finished: String,
    pub utilization: String,
    pub makespan: String,
    pub nsl: String,
    pub wait: String,
    pub wall: String,
}

/// The card ids and the names used in messages.
pub const CARD_IDS: [(&str, &str); 6] = [
    ("#card-finished", "finished fraction"),
    ("#card-utilization", "utilization"),
    ("#card-makespan", "mean makespan"),
    ("#card-nsl", "mean NSL"),
    ("#card-wait", "mean task wait"),
    ("#card-wall", "wall time"),
];

/// Reads the cards; a missing card or attribute reads as `<missing>`.
pub async fn cards(client: &Client) -> Cards {
    let mut v = Vec::new();
    for (id, _) in CARD_IDS {
        v.push(attr(client, id, "data-value").await.unwrap_or_else(|| "<missing>".into()));
    }
    Cards {
        finished: v[0].clone(),
        utilization: v[1].clone(),
        makespan: v[2].clone(),
        nsl: v[3].clone(),
        wait: v[4].clone(),
        wall: v[5].clone(),
    }
}

impl Cards {
    /// The five simulated figures (not the wall time) with their names.
    pub fn figures(&self) -> [(&'static str, &str); 5] {
        [
            ("#card-finished", &self.finished),
            ("#card-utilization", &self.utilization),
            ("#card-makespan", &self.makespan),
            ("#card-nsl", &self.nsl),
            ("#card-wait", &self.wait),
        ]
    }
}

/// The five simulated figures of a native report, in [`Cards::figures`] order.
pub fn report_figures(r: &bagsim::run::Report) -> [(&'static str, f64); 5] {
    // The utilization card shows the submission period's, or the whole run's where there is no such period.
    let sys = &r.metrics.system;
    let utilization = if sys.utilization_submitting.is_finite() { sys.utilization_submitting } else { sys.utilization };
    [
        ("#card-finished", r.metrics.tasks.finished_fraction),
        ("#card-utilization", utilization),
        ("#card-makespan", r.metrics.overall.makespan.mean),
        ("#card-nsl", r.metrics.overall.nsl.mean),
        ("#card-wait", r.metrics.tasks.wait.mean),
    ]
}

/// Parses a card value as f64 (None if it is not a number).
pub fn parse_figure(s: &str) -> Option<f64> {
    s.trim().parse::<f64>().ok()
}

/// Bit-for-bit equality, with NaN equal to NaN.
pub fn same_f64(a: f64, b: f64) -> bool {
    a == b || (a.is_nan() && b.is_nan())
}

/// The mismatches between the page's cards and a native report: one line each, empty when all are exact.
pub fn compare_with_native(cards: &Cards, report: &bagsim::run::Report) -> Vec<String> {
    let mut bad = Vec::new();
    for ((id, page), (_, native)) in cards.figures().into_iter().zip(report_figures(report)) {
        match parse_figure(page) {
            Some(p) if same_f64(p, native) => {}
            Some(p) => bad.push(format!("{id}: page data-value={page} ({p:e}) native={native} ({native:e})")),
            None => bad.push(format!("{id}: page data-value={page:?} is not a number; native={native}")),
        }
    }
    bad
}

/// The CSV of a paper figure computed natively with the library code the page and `bagsim reproduce` use: every run
/// of `figure.runs(seeds)` through `reproduce::run_point`; a failed run is recorded as the CLI records it.
pub fn native_figure(
    id: bagsim::family::multi_cluster::figures::FigureId,
    seeds: u32,
    period: f64,
) -> bagsim::family::multi_cluster::figures::FigureResult {
    let figure = id.figure();
    // The base the page runs with "Runs of" at `period` (figures::PAGE_PERIODS).
    let base = bagsim::family::multi_cluster::figures::base_of_period(period);
    let runs = figure.runs_on(&base, 1..=seeds);
    let mut result = bagsim::family::multi_cluster::figures::FigureResult::new(figure, seeds);
    for spec in &runs {
        match bagsim::family::multi_cluster::figures::run_point(&spec.scenario) {
            Ok(r) => result.add(spec, r),
            Err(e) => result.failures.push(format!("{} seed {}: {e}", result.figure.series[spec.series], spec.seed)),
        }
    }
    result
}

/// The `#paper-status` counters: (done, total, failed).
pub async fn paper_counts(client: &Client) -> (usize, usize, usize) {
    let n = |v: Option<String>| v.and_then(|s| s.parse().ok()).unwrap_or(usize::MAX);
    (
        n(attr(client, "#paper-status", "data-done").await),
        n(attr(client, "#paper-status", "data-total").await),
        n(attr(client, "#paper-status", "data-failed").await),
    )
}

/// Picks a paper figure (`fig3` … `fig11`), a number of seeds and a base (its submission period, one of
/// `figures::PAGE_PERIODS`), presses Run, waits until every run is in, and
/// returns the page's CSV (`#paper-csv`) and the wall-clock seconds from the click to the last run. Panics when a run
/// fails or the figure does not finish within `timeout`.
pub async fn run_paper_figure(
    client: &Client,
    figure: &str,
    seeds: u32,
    period: f64,
    timeout: Duration,
) -> (String, f64) {
    set_control(client, "#paper-figure", figure).await;
    set_control(client, "#paper-period", &period.to_string()).await;
    set_control(client, "#paper-seeds", &seeds.to_string()).await;
    wait_enabled(client, "#paper-run", READY_TIMEOUT).await;
    let t0 = std::time::Instant::now();
    click(client, "#paper-run").await;
    wait_for(client, timeout, &format!("{figure}: #paper-status data-done == data-total"), || async {
        let (done, total, failed) = paper_counts(client).await;
        if failed > 0 && failed != usize::MAX {
            panic!("{figure}: {failed} run(s) failed: {:?}", text(client, ".paper-failed").await);
        }
        (done == total && total > 0 && total != usize::MAX).then_some(())
    })
    .await;
    let elapsed = t0.elapsed().as_secs_f64();
    let csv = js(client, "const e = document.querySelector('#paper-csv'); return e ? e.textContent : null;", vec![])
        .await
        .as_str()
        .unwrap_or_else(|| panic!("no #paper-csv"))
        .to_string();
    (csv, elapsed)
}

/// The longest an axe-core pass may take.
pub const AXE_TIMEOUT: Duration = Duration::from_secs(180);

/// Injects the pinned axe-core into the page (once) and returns the violations it finds in the whole document,
/// as "rule: help (n nodes: selectors)" lines.
pub async fn axe_violations(client: &Client, when: &str) -> Vec<String> {
    let path = workspace_root().join("node_modules/axe-core/axe.min.js");
    let source = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}; run scripts/setup.sh (npm ci)", path.display()));
    js(
        client,
        "if (!window.axe) { const s = document.createElement('script'); s.textContent = arguments[0]; \
         document.head.appendChild(s); }
         return !!window.axe;",
        vec![serde_json::json!(source)],
    )
    .await;
    // axe walks the whole document; with every chart's numbers shown as tables it takes many seconds on a busy
    // 2-core machine, beyond WebDriver's default 30 s for a script. The time it took is printed below.
    let timeouts = fantoccini::wd::TimeoutConfiguration::new(Some(AXE_TIMEOUT), None, None);
    client.update_timeouts(timeouts).await.unwrap_or_else(|e| panic!("cannot set the script timeout: {e}"));
    let started = std::time::Instant::now();
    let result = client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             axe.run(document, { resultTypes: ['violations'] })
                .then(r => done(r.violations.map(v => v.id + ': ' + v.help + ' (' + v.nodes.length + ' nodes: '
                    + v.nodes.slice(0, 4).map(n => n.target.join(' ')).join(', ') + ')')))
                .catch(e => done(['axe failed: ' + e]));",
            vec![],
        )
        .await
        .unwrap_or_else(|e| panic!("axe.run failed ({when}): {e}"));
    let v: Vec<String> =
        result.as_array().map(|a| a.iter().filter_map(|x| x.as_str().map(String::from)).collect()).unwrap_or_default();
    println!("axe, {when}: {} violations ({:.1} s)", v.len(), started.elapsed().as_secs_f64());
    v
}
