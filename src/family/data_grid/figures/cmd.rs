//! The figures of [Liu10] §IV as a command (`bagsim figure data_grid`, `dd-figure`): each figure's runs in a thread
//! pool, then its CSV, SVG and findings, or under readings its readings table; and the same as a study in shards
//! (`--plan`) whose points and merge are here too. Lines and files go to a `FigureOut`.

use super::study::{chosen, figure as figure_of, plan, DdFigureRun, Plan};
use super::{series_name, FigureResult, Metric};
use crate::family::contract::PointError;
use crate::family::contract::{finish_readings, run_to_end, FigureError, FigureFailure, FigureOut, FigureOutcome};
use crate::family::contract::{planned_seeds, FamilyDef, FigureCommand, FigurePlan, FigureRequest, Kind, Point};
use crate::family::data_grid::config::{DdConfig, DdScenario};
use crate::family::data_grid::readings::READINGS;
use crate::family::data_grid::run::DdReport;
use crate::readings::{combinations, label, parse_axes, Combination, ReadingsError, Seeds};
use crate::stats::verdict::findings_markdown;
use crate::stats::{show, Claim, Verdict};
use serde_json::Value;
use std::marker::PhantomData;

/// A line of the results.
macro_rules! say {
    ($out:expr, $($arg:tt)*) => {{
        $out.say(&format!($($arg)*));
    }};
}

/// Runs a data-grid figure's runs in a thread pool: each its value of the figure's `metric`.
fn run_all<D: FamilyDef<Scenario = DdScenario, Report = DdReport>>(
    metric: Metric,
    runs: &[(usize, DdFigureRun)],
    jobs: usize,
) -> Vec<Result<f64, PointError>> {
    crate::parallel::map(runs, jobs, |_, (_, run)| run_one::<D>(metric, run))
}

/// One run's value of the figure's `metric`, run as `bagsim run` runs its scenario.
fn run_one<D: FamilyDef<Scenario = DdScenario, Report = DdReport>>(
    metric: Metric,
    run: &DdFigureRun,
) -> Result<f64, PointError> {
    let start = std::time::Instant::now();
    let report = run_to_end::<D>(&run.scenario(), &|| start.elapsed().as_secs_f64())?;
    Ok(metric.of(&report))
}

/// `bagsim figure data_grid N|all` (and `dd-figure`): each figure's runs, then its CSV, SVG and findings, or under
/// `--readings` its readings table. With `--seeds auto`, 5 seeds per bar, then 10, 20 and 30 while a finding of
/// some reading is not resolved; the runs of a round are kept for the next, so each run is simulated once. A fixed
/// number of seeds is one round.
pub fn figure<D: FamilyDef<Scenario = DdScenario, Report = DdReport>>(
    out: &mut dyn FigureOut,
    which: &str,
    base: &DdConfig,
    specs: &[String],
    seeds: Seeds,
    jobs: usize,
) -> FigureOutcome {
    let combos = combos(specs)?;
    // Every figure's readings are checked before any runs: a refusal of the last figure wastes no work.
    for f in chosen(which)? {
        plan(f.number, base, &combos, 1)?;
    }
    for f in chosen(which)? {
        let start = std::time::Instant::now();
        let mut done: std::collections::HashMap<String, Result<f64, PointError>> = Default::default();
        let key = |k: usize, r: &DdFigureRun| format!("{k} {} {} {}", r.group, r.scheme, r.seed);
        let mut n = seeds.first();
        loop {
            let p = plan(f.number, base, &combos, u64::from(n))?;
            let todo: Vec<(usize, DdFigureRun)> =
                p.runs.iter().filter(|(k, r)| !done.contains_key(&key(*k, r))).cloned().collect();
            out.note(&format!("Fig. {}: {} seeds per bar, {} new runs on {jobs} threads", f.number, n, todo.len()));
            let fresh = run_all::<D>(f.metric, &todo, jobs);
            for ((k, r), v) in todo.iter().zip(fresh) {
                done.insert(key(*k, r), v);
            }
            let results: Vec<Result<f64, PointError>> = p.runs.iter().map(|(k, r)| done[&key(*k, r)].clone()).collect();
            let table = p.table(&results);
            let open = table.rows.iter().any(|r| r.claims.iter().any(|c| c.verdict == Verdict::Unresolved));
            match seeds.next(n).filter(|_| open) {
                Some(more) => n = more,
                None if specs.is_empty() => break finish_figure(out, &p, &results, u64::from(n))?,
                None => {
                    let elapsed = Some(start.elapsed().as_secs_f64());
                    let name = format!("fig{}", f.number);
                    break finish_readings(out, &name, &table.title, &table, combos.len(), elapsed)?;
                }
            }
        }
    }
    Ok(())
}

/// Prints a figure's bars and findings and writes STEM-figN.csv and STEM-figN.md; a failed run fails the figure.
fn finish_figure(out: &mut dyn FigureOut, p: &Plan, results: &[Result<f64, PointError>], seeds: u64) -> FigureOutcome {
    let f = &p.figure;
    if let Some(Err(e)) = results.iter().find(|r| r.is_err()) {
        return Err(FigureError::new(FigureFailure::Run, e.to_string()));
    }
    let (values, _) = p.values(0, results);
    let r = FigureResult::of(f, &values);
    let path = format!("{}-fig{}.csv", out.stem(), f.number);
    out.write(&path, &r.csv(&values))?;
    say!(out, "Fig. {} ({}, {}; HPC2N log, {seeds} seeds): {}", f.number, f.caption, f.metric.title(), path);
    for (g, bars) in r.bars.iter().enumerate() {
        let cells: Vec<String> = bars
            .iter()
            .enumerate()
            .map(|(s, i)| format!("{} {} ({} – {})", series_name(s), show(i.mean, 4), show(i.low, 4), show(i.high, 4)))
            .collect();
        say!(out, "  {}: {}", f.groups[g].0, cells.join(", "));
    }
    for (paper, ours, verdict) in r.claims() {
        say!(out, "  paper: {paper}");
        say!(out, "  ours:  {ours}");
        say!(out, "  → {}", verdict.label());
    }
    let stem = format!("{}-fig{}", out.stem(), f.number);
    let (svg, md) = (format!("{stem}.svg"), format!("{stem}.md"));
    out.write(&svg, &r.chart().svg())?;
    let claims: Vec<Claim> =
        r.claims().into_iter().map(|(paper, ours, verdict)| Claim { paper, ours, verdict }).collect();
    let setup = [
        ("[Liu10]", format!("§IV, {}; {}", f.caption, f.metric.title())),
        ("ours", format!("the bundled HPC2N log (the paper used CTC), {seeds} seeds of the data and bandwidth draws")),
    ];
    let heading = format!("Fig. {} — {}", f.number, f.caption);
    out.write(&md, &findings_markdown(&heading, &setup, &claims))?;
    say!(out, "  wrote {svg} and {md}");
    Ok(())
}

fn combos(specs: &[String]) -> Result<Vec<Combination>, ReadingsError> {
    Ok(combinations(&parse_axes(specs, READINGS, &crate::family::data_grid::sweep::path_of)?))
}

/// `bagsim dd-figure N|all [--readings …] --plan N`: the figures' runs as a study of kind `dd-figure` (no
/// readings) or `dd-readings`, a run a point.
pub fn plan_study(which: &str, base: &DdConfig, specs: &[String], seeds: u64) -> FigureOutcome<FigurePlan> {
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
    Ok(FigurePlan { kind, spec, axes, points })
}

/// Runs one point of a `dd-figure` or `dd-readings` study: its value of the figure's metric (null if undefined).
pub fn figure_point<D: FamilyDef<Scenario = DdScenario, Report = DdReport>>(p: &Point) -> Result<Value, PointError> {
    let run: DdFigureRun = serde_json::from_value(p.job.clone())
        .map_err(|e| PointError::Job(format!("not a data-grid figure run: {e}")))?;
    let metric = figure_of(run.figure).map_err(|e| PointError::Job(e.to_string()))?.metric;
    run_one::<D>(metric, &run).map(|v| serde_json::json!(Some(v).filter(|v| v.is_finite())))
}

/// `bagsim merge` of a `dd-figure` or `dd-readings` study: what `bagsim dd-figure` prints and writes.
pub fn figure_merge(out: &mut dyn FigureOut, spec: &Value, outcomes: &[&Value]) -> FigureOutcome {
    let spec = |k: &str| spec[k].clone();
    let specs: Vec<String> = serde_json::from_value(spec("readings")).map_err(|e| format!("readings: {e}"))?;
    let base: DdConfig = serde_json::from_value(spec("base")).map_err(|e| format!("the manifest's base: {e}"))?;
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
        let results: Vec<Result<f64, PointError>> = mine.iter().map(|v| Ok(v.as_f64().unwrap_or(f64::NAN))).collect();
        if specs.is_empty() {
            finish_figure(out, &p, &results, seeds)?;
        } else {
            let table = p.table(&results);
            finish_readings(out, &format!("fig{n}"), &table.title, &table, combos.len(), None)?;
        }
    }
    Ok(())
}

/// The figures of [Liu10] §IV behind the contract (`bagsim figure data_grid`): `--seeds N` (2–100) or `auto`.
/// `D` is the family's `FamilyDef`, named by `def.rs` (`Figures::<Def>::NEW`), so that this file runs its scenarios
/// through the contract without importing the definition that points here.
pub struct Figures<D>(PhantomData<fn() -> D>);

impl<D> Figures<D> {
    pub const NEW: Figures<D> = Figures(PhantomData);
}

/// The seeds of `bagsim figure data_grid`: `N` (2–100) or `auto`, 5 by default.
fn seeds_of(r: &FigureRequest) -> Result<Seeds, ReadingsError> {
    // A bar's interval needs at least 2 seeds: the range said is the range checked.
    Seeds::parse_from(r.seeds, 5, 2)
}

impl<D: FamilyDef<Scenario = DdScenario, Report = DdReport>> FigureCommand<DdScenario> for Figures<D> {
    fn default_seeds(&self) -> &'static str {
        "5"
    }

    fn plans(&self, kind: Kind) -> bool {
        matches!(kind, Kind::DdFigure | Kind::DdReadings)
    }

    fn run(&self, out: &mut dyn FigureOut, base: &DdScenario, r: &FigureRequest) -> FigureOutcome {
        figure::<D>(out, r.figure, &base.data_grid, r.readings, seeds_of(r)?, r.jobs)
    }

    fn plan(&self, base: &DdScenario, r: &FigureRequest) -> FigureOutcome<FigurePlan> {
        let seeds = planned_seeds(seeds_of(r)?)?;
        plan_study(r.figure, &base.data_grid, r.readings, u64::from(seeds))
    }

    fn point(&self, _: Kind, p: &Point) -> Result<Value, PointError> {
        figure_point::<D>(p)
    }

    fn merge(&self, _: Kind, out: &mut dyn FigureOut, spec: &Value, _: &[Point], outcomes: &[&Value]) -> FigureOutcome {
        figure_merge(out, spec, outcomes)
    }
}
