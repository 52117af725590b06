//! The data-grid commands of `bagsim` ([Liu10]): run summary, and the figures of §IV with their findings, under
//! readings and as studies in shards.

use super::error::Outcome;
use bagsim::family::data_grid::figures::{series_name, FigureResult, Metric};
use bagsim::family::data_grid::readings::READINGS;
use bagsim::family::data_grid::study::{chosen, figure as figure_of, plan, DdRun, Plan};
use bagsim::family::data_grid::{DataGridConfig, DataGridReport};
use bagsim::readings::{combinations, label, parse_axis, Combination, Seeds};
use bagsim::registry::Family;
use bagsim::registry::{run_any, AnyReport};
use bagsim::scenario::Scenario;
use bagsim::stats::verdict::findings_markdown;
use bagsim::stats::{show, Claim, Stats, Verdict};
use bagsim::study::{Kind, Manifest, Point};
use serde_json::Value;
use std::io::Write;
use std::path::Path;

macro_rules! say {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stdout(), "{}", bagsim::family::contract::tidy_line(&format!($($arg)*)));
    }};
}

fn stats(s: &Stats) -> String {
    if s.count == 0 {
        "— (no job)".to_string()
    } else {
        format!("{:.0} (p50 {:.0}, p90 {:.0}, p99 {:.0}, max {:.0})", s.mean, s.p50, s.p90, s.p99, s.max)
    }
}

/// The readable summary of a data-grid run.
pub fn print_summary(r: &DataGridReport) {
    let c = &r.scenario.data_grid;
    let (w, m) = (&r.workload, &r.metrics);
    // A setting the run did not read is not echoed as if it applied (its warning says so when it was set).
    let unused = c.unused();
    let read = |path: &str| !unused.iter().any(|u| u.covers(path));
    let mut settings = vec![c.scheme.name().to_string()];
    if c.site_policies.is_empty() {
        settings.push(format!("local scheduler {}", c.local_policy.name()));
    } else {
        let names: Vec<&str> = c.site_policies.iter().map(|p| p.name()).collect();
        settings.push(format!("local schedulers {}", names.join("/")));
    }
    if read("data_grid.backfill_rule") {
        settings.push(format!("backfill rule {}", c.backfill_rule.name()));
    }
    settings.push(format!("estimates {}", c.estimates.name()));
    if read("data_grid.walltime") {
        settings.push(format!("walltime {}", c.walltime.name()));
    }
    say!(
        "bagsim {}: data grid, {}, runtime × {}, seed {}",
        r.bagsim_version,
        settings.join(", "),
        c.runtime_factor,
        r.scenario.seed
    );
    let data = if read("data_grid.data_mb") {
        format!(
            "data on {:.0}% of the jobs, {}–{} MB; bandwidth {}–{} Mbit/s",
            100.0 * c.data_share,
            c.data_mb[0],
            c.data_mb[1],
            c.bandwidth_mbit[0],
            c.bandwidth_mbit[1]
        )
    } else {
        "no job carries data".to_string()
    };
    say!(
        "sites: {:?} processors; log {} (jobs {}–{}); {data}",
        c.sites,
        c.trace,
        c.first_job,
        u64::from(c.first_job) + w.window
    );
    say!(
        "workload: {} jobs ({} with data, {} refused as wider than any site), {:.0} processor-s of work over {:.0} s, \
         offered load {:.4}",
        w.jobs,
        w.with_data,
        w.refused_too_wide,
        w.total_work,
        w.span,
        w.offered_load
    );
    for warning in &w.warnings {
        say!("warning: {warning}");
    }
    if m.killed > 0 {
        say!("stopped at their requested time (walltime kill): {} jobs", m.killed);
    }
    say!("finished: {} of {} jobs; end time {:.0} s, makespan {:.0} s", m.finished, m.jobs, m.end_time, m.makespan);
    say!("turnaround [s]:   {}", stats(&m.turnaround));
    say!("waiting [s]:      {}", stats(&m.waiting));
    say!("transfer [s]:     {}", stats(&m.transfer));
    say!("computation [s]:  {}", stats(&m.computation));
    say!(
        "utilization ([Liu10] §IV-B): {:.4}; processors held: {:.4}; {} jobs started before their first reservation",
        m.utilization,
        m.held_utilization,
        m.started_early
    );
    for (k, s) in m.per_site.iter().enumerate() {
        say!("  site {}: {} processors, {} jobs, utilization {:.4}", k + 1, s.processors, s.jobs, s.utilization);
    }
    say!("events {}; wall time {:.3} s", m.events, r.wall_time_s);
}

/// The scenario of a figure's run.
fn scenario_of(run: &DdRun) -> Scenario {
    Scenario::DataGrid(bagsim::family::data_grid::DataGridScenario::new(run.seed, run.data_grid.clone()))
}

/// Runs a data-grid figure's runs in a thread pool: each its value of the figure's `metric`.
fn run_all(metric: Metric, runs: &[(usize, DdRun)], jobs: usize) -> Vec<Result<f64, String>> {
    bagsim::parallel::map(runs, jobs, |_, (_, run)| match run_any(&scenario_of(run)) {
        Ok(AnyReport::DataGrid(r)) => Ok(metric.of(&r)),
        Ok(_) => Err("not a data-grid report".to_string()),
        Err(e) => Err(e.to_string()),
    })
}

/// `bagsim figure data_grid N|all` (and `dd-figure`): each figure's runs, then its CSV, SVG and findings, or under
/// `--readings` its readings table. With `--seeds auto`, 5 seeds per bar, then 10, 20 and 30 while a finding of
/// some reading is not resolved; the runs of a round are kept for the next, so each run is simulated once. A fixed
/// number of seeds is one round.
pub fn figure(which: &str, base: &DataGridConfig, specs: &[String], seeds: Seeds, out: &Path, jobs: usize) -> Outcome {
    let combos = combos(specs)?;
    for f in chosen(which)? {
        let start = std::time::Instant::now();
        let mut done: std::collections::HashMap<String, Result<f64, String>> = Default::default();
        let key = |k: usize, r: &DdRun| format!("{k} {} {} {}", r.group, r.scheme, r.seed);
        let mut n = seeds.first();
        loop {
            let p = plan(f.number, base, &combos, u64::from(n))?;
            let todo: Vec<(usize, DdRun)> =
                p.runs.iter().filter(|(k, r)| !done.contains_key(&key(*k, r))).cloned().collect();
            eprintln!("Fig. {}: {} seeds per bar, {} new runs on {jobs} threads", f.number, n, todo.len());
            let fresh = run_all(f.metric, &todo, jobs);
            for ((k, r), v) in todo.iter().zip(fresh) {
                done.insert(key(*k, r), v);
            }
            let results: Vec<Result<f64, String>> = p.runs.iter().map(|(k, r)| done[&key(*k, r)].clone()).collect();
            let table = p.table(&results);
            let open = table.rows.iter().any(|r| r.claims.iter().any(|c| c.verdict == Verdict::Unresolved));
            match seeds.next(n).filter(|_| open) {
                Some(more) => n = more,
                None if specs.is_empty() => break finish_figure(&p, &results, u64::from(n), out)?,
                None => {
                    let elapsed = Some(start.elapsed().as_secs_f64());
                    break super::readings_out::finish_readings(
                        &format!("fig{}", f.number),
                        &table.title,
                        &table,
                        combos.len(),
                        out,
                        elapsed,
                    )?;
                }
            }
        }
    }
    Ok(())
}

/// Prints a figure's bars and findings and writes STEM-figN.csv and STEM-figN.md; a failed run fails the figure.
fn finish_figure(p: &Plan, results: &[Result<f64, String>], seeds: u64, out: &Path) -> Outcome {
    let f = &p.figure;
    if let Some(Err(e)) = results.iter().find(|r| r.is_err()) {
        return Err(super::error::CliError::new(super::error::Failure::Run, e.clone()));
    }
    let (values, _) = p.values(0, results);
    let r = FigureResult::of(f, &values);
    let path = format!("{}-fig{}.csv", out.display(), f.number);
    super::error::write(path.as_ref(), r.csv(&values))?;
    say!("Fig. {} ({}, {}; HPC2N log, {seeds} seeds): {}", f.number, f.caption, f.metric.title(), path);
    for (g, bars) in r.bars.iter().enumerate() {
        let cells: Vec<String> = bars
            .iter()
            .enumerate()
            .map(|(s, i)| format!("{} {} ± {}", series_name(s), show(i.mean, 4), show(i.half_width, 4)))
            .collect();
        say!("  {}: {}", f.groups[g].0, cells.join(", "));
    }
    for (paper, ours, verdict) in r.claims() {
        say!("  paper: {paper}");
        say!("  ours:  {ours}");
        say!("  → {}", verdict.label());
    }
    let stem = format!("{}-fig{}", out.display(), f.number);
    let (svg, md) = (format!("{stem}.svg"), format!("{stem}.md"));
    super::error::write(svg.as_ref(), r.chart().svg())?;
    let claims: Vec<Claim> =
        r.claims().into_iter().map(|(paper, ours, verdict)| Claim { paper, ours, verdict }).collect();
    let setup = [
        ("[Liu10]", format!("§IV, {}; {}", f.caption, f.metric.title())),
        ("ours", format!("the bundled HPC2N log (the paper used CTC), {seeds} seeds of the data and bandwidth draws")),
    ];
    let heading = format!("Fig. {} — {}", f.number, f.caption);
    super::error::write(md.as_ref(), findings_markdown(&heading, &setup, &claims))?;
    say!("  wrote {svg} and {md}");
    Ok(())
}

fn combos(specs: &[String]) -> Result<Vec<Combination>, String> {
    let axes = specs.iter().map(|s| parse_axis(s, READINGS)).collect::<Result<Vec<_>, _>>()?;
    Ok(combinations(&axes))
}

/// `bagsim dd-figure N|all [--readings …] --plan N`: the figures' runs as a study of kind `dd-figure` (no
/// readings) or `dd-readings`, a run a point.
pub fn plan_study(
    which: &str,
    base: &DataGridConfig,
    specs: &[String],
    seeds: u64,
    shards: usize,
) -> Outcome<Manifest> {
    base.validate().map_err(|e| format!("{}: {}", e.field, e.message))?;
    let combos = combos(specs)?;
    let figures = chosen(which)?;
    let mut points = Vec::new();
    for f in &figures {
        let p = plan(f.number, base, &combos, seeds)?;
        for (k, run) in &p.runs {
            let mut labels = run.labels(&p.figure);
            labels.insert(1, label(&combos[*k]));
            points.push(Point { labels, job: serde_json::to_value(run).expect("plain data") });
        }
    }
    let numbers: Vec<u32> = figures.iter().map(|f| f.number).collect();
    let spec = serde_json::json!({ "figures": numbers, "seeds": seeds, "readings": specs, "base": base });
    let axes = ["figure", "readings", "group", "scheme", "seed"].iter().map(|k| (k.to_string(), Vec::new())).collect();
    let kind = if specs.is_empty() { Kind::DdFigure } else { Kind::DdReadings };
    Ok(Manifest::new(kind, spec, Family::DataGrid, axes, points, shards)?)
}

/// Runs one point of a `dd-figure` or `dd-readings` study: its value of the figure's metric (null if undefined).
pub fn figure_point(p: &Point) -> Result<Value, String> {
    let run: DdRun = serde_json::from_value(p.job.clone()).map_err(|e| format!("not a data-grid figure run: {e}"))?;
    let metric = figure_of(run.figure)?.metric;
    match run_any(&scenario_of(&run)) {
        Ok(AnyReport::DataGrid(r)) => Ok(serde_json::json!(Some(metric.of(&r)).filter(|v| v.is_finite()))),
        Ok(_) => Err("not a data-grid report".to_string()),
        Err(e) => Err(e.to_string()),
    }
}

/// `bagsim merge` of a `dd-figure` or `dd-readings` study: what `bagsim dd-figure` prints and writes.
pub fn figure_merge(m: &Manifest, outcomes: &[&Value], out: &Path) -> Outcome {
    let spec = |k: &str| m.spec[k].clone();
    let specs: Vec<String> = serde_json::from_value(spec("readings")).map_err(|e| format!("readings: {e}"))?;
    let base: DataGridConfig = serde_json::from_value(spec("base")).map_err(|e| format!("the manifest's base: {e}"))?;
    let numbers: Vec<u32> = serde_json::from_value(spec("figures")).map_err(|e| format!("figures: {e}"))?;
    let seeds: u64 = serde_json::from_value(spec("seeds")).map_err(|e| format!("seeds: {e}"))?;
    let combos = combos(&specs)?;
    let mut rest = outcomes;
    for n in numbers {
        let p = plan(n, &base, &combos, seeds)?;
        if rest.len() < p.runs.len() {
            return Err(format!("the study has {} runs; Fig. {n} needs {} more", outcomes.len(), p.runs.len()).into());
        }
        let (mine, next) = rest.split_at(p.runs.len());
        rest = next;
        let results: Vec<Result<f64, String>> = mine.iter().map(|v| Ok(v.as_f64().unwrap_or(f64::NAN))).collect();
        if specs.is_empty() {
            finish_figure(&p, &results, seeds, out)?;
        } else {
            let table = p.table(&results);
            super::readings_out::finish_readings(&format!("fig{n}"), &table.title, &table, combos.len(), out, None)?;
        }
    }
    Ok(())
}
