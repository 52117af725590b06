//! The multi-cluster commands of `bagsim`: run summary, sweep keys and columns, and `bagsim reproduce` for the
//! experiments of [Iosup08] §5.

use super::error::Outcome;
use bagsim::family::multi_cluster::config::McScenario;
use bagsim::family::multi_cluster::figures::{
    claims::claims, claims::panel_markdown, run_point, study::study, svg::figure_svg, Figure, FigureId, FigureResult,
    RunResult, RunSpec, SCRIPT_SERIES,
};
use bagsim::family::multi_cluster::readings::READINGS;
use bagsim::readings::{combinations, parse_axis, record, replay, Combination, Seeds};
use bagsim::registry::Family;
use bagsim::run::Report;
use bagsim::scenario::Scenario;
use bagsim::stats::Stats;
use bagsim::study::{Kind, Manifest, Point};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::cell::RefCell;
use std::collections::HashMap;
use std::io::Write;
use std::path::Path;

macro_rules! say {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stdout(), "{}", bagsim::family::contract::tidy_line(&format!($($arg)*)));
    }};
}

fn fmt_stats(s: &Stats) -> String {
    if s.count == 0 {
        "—".to_string()
    } else {
        format!("{:.4} (p50 {:.4}, p90 {:.4}, p99 {:.4}, max {:.4})", s.mean, s.p50, s.p90, s.p99, s.max)
    }
}

/// The readable summary of a multi-cluster run.
pub fn print_summary(r: &Report) {
    let s = &r.scenario;
    let m = &r.metrics;
    say!(
        "bagsim {}: {} / {} / {}, seed {}",
        r.bagsim_version,
        s.architecture.kind.name(),
        s.selection.name(),
        s.scheduling,
        s.seed
    );
    let w = &r.workload;
    say!(
        "workload: {} BoTs, {} tasks, {} users; load target {} achieved {:.4}",
        w.bots,
        w.tasks,
        w.users,
        w.target_load.map_or("none".to_string(), |l| format!("{l}")),
        w.achieved_load
    );
    for warning in &w.warnings {
        say!("warning: {warning}");
    }
    say!(
        "finished: {} of tasks ({} of {}), {} of {} BoTs; {} never started, {} running at the end",
        if m.tasks.tasks == 0 {
            "no task: none".to_string()
        } else {
            format!("{:.2}%", 100.0 * m.tasks.finished_fraction)
        },
        m.tasks.finished,
        m.tasks.tasks,
        m.overall.finished,
        m.overall.bots,
        m.tasks.unstarted,
        m.tasks.running_at_end
    );
    say!("utilization: {:.4}   end time: {:.0} s", m.system.utilization, m.system.end_time);
    say!("makespan [s]: {}", fmt_stats(&m.overall.makespan));
    say!("NSL:          {}", fmt_stats(&m.overall.nsl));
    say!("BoT wait [s]: {}", fmt_stats(&m.overall.wait));
    say!("task wait [s]: {}", fmt_stats(&m.tasks.wait));
    say!("task response [s]: {}", fmt_stats(&m.tasks.response));
    say!("wasted CPU: {:.0} s (RWT {})", m.tasks.wasted, bagsim::stats::show(m.tasks.rwt, 4));
    say!("{:<8} {:>7} {:>9} {:>14} {:>10}", "class", "BoTs", "finished", "mean MS [s]", "mean NSL");
    for g in &m.per_class {
        // A class none of whose BoTs finished has no mean: a dash, as in the report, never NaN.
        let mean = |x: f64, digits: usize| if x.is_finite() { format!("{x:.digits$}") } else { "—".into() };
        say!(
            "{:<8} {:>7} {:>9} {:>14} {:>10}",
            g.class,
            g.bots,
            g.finished,
            mean(g.makespan.mean, 1),
            mean(g.nsl.mean, 3)
        );
    }
    say!(
        "events: {} ({} skipped cancellations); wall time {:.3} s",
        m.system.events,
        m.system.stale_events,
        r.wall_time_s
    );
}

fn figure_ids(which: &str) -> Result<Vec<FigureId>, String> {
    Ok(if which.eq_ignore_ascii_case("all") { FigureId::ALL.to_vec() } else { vec![which.parse()?] })
}

fn check_seeds(seeds: u32) -> Outcome {
    if !(1..=100).contains(&seeds) {
        return Err(format!("--seeds {seeds} is out of range; allowed 1–100").into());
    }
    Ok(())
}

/// `bagsim reproduce FIG|all`: the experiments of [Iosup08] §5 with several seeds, their CSV, SVG and panel, each
/// run starting from `base` (the defaults, or `--base`).
pub fn reproduce(which: &str, base: &McScenario, seeds: u32, out: &Path, jobs: usize) -> Outcome {
    check_seeds(seeds)?;
    let all_start = std::time::Instant::now();
    for id in figure_ids(which)? {
        let start = std::time::Instant::now();
        let figure = id.figure_on(base);
        let runs = figure.runs_on(base, 1..=seeds);
        let results = bagsim::parallel::map(&runs, jobs, |_, spec| run_point(&spec.scenario));
        finish_figure(figure, seeds, &runs, results, out, Some(start.elapsed().as_secs_f64()))?;
    }
    say!("\ntotal {:.1} s", all_start.elapsed().as_secs_f64());
    Ok(())
}

/// Writes a figure's CSV, SVG and panel from its runs' results and prints its findings with verdicts.
fn finish_figure(
    figure: Figure,
    seeds: u32,
    runs: &[RunSpec],
    results: Vec<Result<RunResult, String>>,
    out: &Path,
    elapsed: Option<f64>,
) -> Outcome {
    let id = figure.id;
    let mut result = FigureResult::new(figure, seeds);
    for (spec, r) in runs.iter().zip(results) {
        match r {
            Ok(r) => result.add(spec, r),
            Err(e) => result.failures.push(format!("{} seed {}: {e}", result.figure.series[spec.series], spec.seed)),
        }
    }
    let stem = out.display().to_string();
    let (csv_path, svg_path) = (format!("{stem}-{}.csv", id.name()), format!("{stem}-{}.svg", id.name()));
    super::error::write(csv_path.as_ref(), result.to_csv())?;
    super::error::write(svg_path.as_ref(), figure_svg(&result))?;
    let md_path = format!("{stem}-{}.md", id.name());
    super::error::write(md_path.as_ref(), panel_markdown(&result))?;
    say!(
        "\n{} — {} ({}; {} runs, {} seeds per point{})",
        id.name(),
        result.figure.title,
        result.figure.section,
        runs.len(),
        seeds,
        elapsed.map_or(String::new(), |t| format!(", {t:.1} s"))
    );
    for c in claims(&result) {
        say!("  paper:   {}", c.paper);
        say!("  bagsim:  {}  [{}]", c.ours, c.verdict.label());
    }
    for f in &result.failures {
        say!("  failed run: {f}");
    }
    say!("  wrote {csv_path}, {svg_path} and {md_path}");
    Ok(())
}

/// What a study of kind `reproduce` keeps of a run: a figure's `RunResult`, an undefined mean as null.
#[derive(Serialize, Deserialize)]
struct RunResultFile {
    makespan: Option<f64>,
    nsl: Option<f64>,
    finished_fraction: Option<f64>,
    class_makespan: Vec<Option<f64>>,
    class_nsl: Vec<Option<f64>>,
}

fn some(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

fn nan(x: Option<f64>) -> f64 {
    x.unwrap_or(f64::NAN)
}

/// A run's figure result as a shard keeps it.
fn run_result_of(v: &Value) -> Result<RunResult, String> {
    let f: RunResultFile = serde_json::from_value(v.clone()).map_err(|e| e.to_string())?;
    Ok(RunResult {
        makespan: nan(f.makespan),
        nsl: nan(f.nsl),
        finished_fraction: nan(f.finished_fraction),
        class_makespan: f.class_makespan.into_iter().map(nan).collect(),
        class_nsl: f.class_nsl.into_iter().map(nan).collect(),
    })
}

/// `bagsim reproduce FIG|all --plan N`: the figures' runs as a study of kind `reproduce` in N shards.
pub fn reproduce_plan(which: &str, base: &McScenario, seeds: u32, shards: usize) -> Outcome<Manifest> {
    check_seeds(seeds)?;
    let ids = figure_ids(which)?;
    let mut points = Vec::new();
    let mut scripted = Vec::new();
    for &id in &ids {
        let figure = id.figure_on(base);
        if figure.paper_series() < figure.series.len() {
            scripted.push(id.name());
        }
        for spec in figure.runs_on(base, 1..=seeds) {
            let labels = vec![
                id.name().to_string(),
                figure.series[spec.series].to_string(),
                spec.point.to_string(),
                spec.seed.to_string(),
            ];
            let job = serde_json::to_value(Scenario::from(spec.scenario)).expect("plain data");
            points.push(Point { labels, job });
        }
    }
    // `script`: the figures that draw the base's own script as one more series.
    let names: Vec<&str> = ids.iter().map(|id| id.name()).collect();
    let spec = serde_json::json!({ "figures": names, "seeds": seeds, "script": scripted });
    let axes = ["figure", "series", "point", "seed"].iter().map(|k| (k.to_string(), Vec::new())).collect();
    Ok(Manifest::new(Kind::Reproduce, spec, Family::MultiCluster, axes, points, shards)?)
}

/// Runs one point of a `reproduce` study.
pub fn reproduce_point(p: &Point) -> Result<Value, String> {
    let s = Scenario::from_json(&p.job.to_string()).map_err(|e| e.to_string())?;
    let r = run_point(s.as_multi_cluster().map_err(|e| e.to_string())?)?;
    let file = RunResultFile {
        makespan: some(r.makespan),
        nsl: some(r.nsl),
        finished_fraction: some(r.finished_fraction),
        class_makespan: r.class_makespan.iter().copied().map(some).collect(),
        class_nsl: r.class_nsl.iter().copied().map(some).collect(),
    };
    Ok(serde_json::to_value(file).expect("plain data"))
}

/// `bagsim merge` of a `reproduce` study: every figure's files and findings, as `bagsim reproduce` gives them.
pub fn reproduce_merge(m: &Manifest, outcomes: &[&Value], out: &Path) -> Outcome {
    let seeds =
        m.spec["seeds"].as_u64().filter(|s| (1..=100).contains(s)).ok_or("the manifest's spec.seeds is not 1–100")?
            as u32;
    let names = m.spec["figures"].as_array().ok_or("the manifest's spec has no figures")?;
    let mut rest = outcomes;
    for name in names {
        let name = name.as_str().ok_or("a figure's name is not a string")?;
        let id: FigureId = name.parse()?;
        let mut figure = id.figure();
        let script = m.spec["script"].as_array().is_some_and(|s| s.iter().any(|n| n.as_str() == Some(name)));
        if script {
            figure.series.push(SCRIPT_SERIES);
        }
        let runs = figure.runs(seeds);
        if rest.len() < runs.len() {
            return Err(
                format!("the study has {} runs; {} needs {} more", outcomes.len(), id.name(), runs.len()).into()
            );
        }
        let (mine, next) = rest.split_at(runs.len());
        rest = next;
        let results = mine.iter().map(|v| run_result_of(v)).collect();
        finish_figure(figure, seeds, &runs, results, out, None)?;
    }
    Ok(())
}

/// `bagsim reproduce FIG --readings KEY=A,B …`: the figure's findings under every combination of readings, with
/// seeds added while a verdict is not resolved under `--seeds auto`; prints the table and writes it as Markdown
/// and CSV.
pub fn reproduce_readings(
    which: &str,
    base: &McScenario,
    specs: &[String],
    seeds: Seeds,
    out: &Path,
    jobs: usize,
) -> Outcome {
    let combos = readings_combos(specs)?;
    // Runs that differ only in keys they do not read are one run (`Scenario::canonical_json`): each is simulated
    // once, across the readings and the rounds of `--seeds auto`.
    let done: RefCell<HashMap<String, Result<RunResult, String>>> = RefCell::default();
    for id in figure_ids(which)? {
        let start = std::time::Instant::now();
        let run = |specs: &[RunSpec]| {
            let keys: Vec<String> = specs.iter().map(|s| Scenario::from(s.scenario.clone()).canonical_json()).collect();
            let mut todo: Vec<(String, McScenario)> = Vec::new();
            let mut asked = std::collections::HashSet::new();
            for (k, spec) in keys.iter().zip(specs) {
                if !done.borrow().contains_key(k) && asked.insert(k) {
                    todo.push((k.clone(), spec.scenario.clone()));
                }
            }
            let fresh = bagsim::parallel::map(&todo, jobs, |_, (_, s)| run_point(s));
            done.borrow_mut().extend(todo.into_iter().map(|(k, _)| k).zip(fresh));
            let seen = done.borrow();
            keys.iter().map(|k| seen[k].clone()).collect()
        };
        let table = study(id, base, &combos, seeds, &run)?;
        super::readings_out::finish_readings(
            id.name(),
            &format!("{} — {}", id.name(), table.title),
            &table,
            combos.len(),
            out,
            Some(start.elapsed().as_secs_f64()),
        )?;
    }
    Ok(())
}

fn readings_combos(specs: &[String]) -> Result<Vec<Combination>, String> {
    let axes = specs.iter().map(|s| parse_axis(s, READINGS)).collect::<Result<Vec<_>, _>>()?;
    Ok(combinations(&axes))
}

/// The runs a readings study of figure `id` asks for with a fixed number of seeds (one round), recorded without
/// running them.
fn recorded_runs(
    id: FigureId,
    base: &McScenario,
    combos: &[Combination],
    seeds: Seeds,
) -> Result<Vec<RunSpec>, String> {
    let (runs, table) = record(|batch| study(id, base, combos, seeds, batch));
    table.map(|_| runs)
}

/// `bagsim reproduce FIG|all --readings … --seeds N --plan N`: the readings study's runs as a study of kind
/// `reproduce-readings` (a fixed number of seeds: `--seeds auto` decides its next round from the last one's verdicts).
pub fn readings_plan(which: &str, base: &McScenario, specs: &[String], seeds: u32, shards: usize) -> Outcome<Manifest> {
    check_seeds(seeds)?;
    let combos = readings_combos(specs)?;
    let ids = figure_ids(which)?;
    let mut points = Vec::new();
    for &id in &ids {
        let figure = id.figure();
        for spec in recorded_runs(id, base, &combos, Seeds::Fixed(seeds))? {
            let labels = vec![
                id.name().to_string(),
                figure.series[spec.series].to_string(),
                spec.point.to_string(),
                spec.seed.to_string(),
            ];
            points
                .push(Point { labels, job: serde_json::to_value(Scenario::from(spec.scenario)).expect("plain data") });
        }
    }
    let spec = serde_json::json!({
        "figures": ids.iter().map(|id| id.name()).collect::<Vec<_>>(),
        "seeds": seeds,
        "readings": specs,
        "base": Scenario::from(base.clone()),
    });
    let axes = ["figure", "series", "point", "seed"].iter().map(|k| (k.to_string(), Vec::new())).collect();
    Ok(Manifest::new(Kind::ReproduceReadings, spec, Family::MultiCluster, axes, points, shards)?)
}

/// `bagsim merge` of a `reproduce-readings` study: the tables `bagsim reproduce --readings` prints and writes.
pub fn readings_merge(m: &Manifest, outcomes: &[&Value], out: &Path) -> Outcome {
    let seeds =
        m.spec["seeds"].as_u64().filter(|s| (1..=100).contains(s)).ok_or("the manifest's spec.seeds is not 1–100")?
            as u32;
    let specs: Vec<String> =
        serde_json::from_value(m.spec["readings"].clone()).map_err(|e| format!("readings: {e}"))?;
    let base = Scenario::from_json(&m.spec["base"].to_string()).map_err(|e| format!("base: {e}"))?;
    let base = base.as_multi_cluster().map_err(|e| e.to_string())?;
    let combos = readings_combos(&specs)?;
    let names = m.spec["figures"].as_array().ok_or("the manifest's spec has no figures")?;
    let mut rest = outcomes;
    for name in names {
        let id: FigureId = name.as_str().ok_or("a figure's name is not a string")?.parse()?;
        let n = recorded_runs(id, base, &combos, Seeds::Fixed(seeds))?.len();
        if rest.len() < n {
            return Err(format!("the study has {} runs; {} needs {n} more", outcomes.len(), id.name()).into());
        }
        let (mine, next) = rest.split_at(n);
        rest = next;
        let results: Vec<Result<RunResult, String>> = mine.iter().map(|v| run_result_of(v)).collect();
        // The study asks for the same runs in the same order as when it was planned: it gets their outcomes back.
        let table = study(id, base, &combos, Seeds::Fixed(seeds), &replay(results))?;
        super::readings_out::finish_readings(
            id.name(),
            &format!("{} — {}", id.name(), table.title),
            &table,
            combos.len(),
            out,
            None,
        )?;
    }
    Ok(())
}
