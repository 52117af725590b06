//! The figures of [Iosup08] §5 as a command (`bagsim figure multi_cluster`, `reproduce`): each figure's runs in a
//! thread pool, then its CSV, SVG, panel and findings, or under readings the readings table; and the same as a study
//! in shards (`--plan`) whose points and merges are here too. Lines and files go to a `FigureOut`.

use super::claims::{claims, panel_markdown, Claim};
use super::study::study;
use super::svg::figure_svg;
use super::{base_name, run_point, Figure, FigureId, FigureResult, RunResult, RunSpec, SCRIPT_SERIES};
use crate::family::contract::{canonical_json, finish_readings, scenario_from_json, FigureOut, FigureOutcome};
use crate::family::contract::{planned_seeds, FamilyDef, FigureCommand, FigurePlan, FigureRequest, Kind, Point};
use crate::family::contract::{FigureError, FigureFailure, PointError};
use crate::family::multi_cluster::config::McScenario;
use crate::family::multi_cluster::readings::READINGS;
use crate::readings::{combinations, parse_axes, record, replay, Combination, ReadingsError, Seeds};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::cell::RefCell;
use std::collections::HashMap;

/// A line of the results.
macro_rules! say {
    ($out:expr, $($arg:tt)*) => {{
        $out.say(&format!($($arg)*));
    }};
}

fn figure_ids(which: &str) -> FigureOutcome<Vec<FigureId>> {
    let numbers: Vec<u32> = (3..=11).collect();
    let chosen = crate::family::contract::figure_numbers(which, &numbers, "")?;
    Ok(chosen.into_iter().map(|n| FigureId::ALL[(n - 3) as usize]).collect())
}

fn check_seeds(seeds: u32) -> FigureOutcome {
    if !(1..=100).contains(&seeds) {
        return Err(format!("--seeds {seeds} is out of range; allowed 1–100").into());
    }
    Ok(())
}

/// `bagsim reproduce FIG|all`: the experiments of [Iosup08] §5 with several seeds, their CSV, SVG and panel, each
/// run starting from `base` (the defaults, or `--base`).
pub fn reproduce(out: &mut dyn FigureOut, which: &str, base: &McScenario, seeds: u32, jobs: usize) -> FigureOutcome {
    check_seeds(seeds)?;
    let all_start = std::time::Instant::now();
    // Every finding's verdict, as the project's measured table keeps them (figures::measured).
    let mut findings = String::from("figure\tfinding\tverdict\tflipped_by\n");
    for id in figure_ids(which)? {
        let start = std::time::Instant::now();
        let figure = id.figure_on(base);
        let runs = figure.runs_on(base, 1..=seeds);
        let results = crate::parallel::map(&runs, jobs, |_, spec| run_point(&spec.scenario).map_err(PointError::Run));
        let elapsed = Some(start.elapsed().as_secs_f64());
        let found = finish_figure(out, figure, &base_name(base), seeds, &runs, results, elapsed)?;
        for (n, c) in found.iter().enumerate() {
            findings.push_str(&format!("{}\t{}\t{}\tnot measured\n", id.name(), n + 1, c.verdict.label()));
        }
    }
    let path = format!("{}-findings.tsv", out.stem());
    out.write(&path, &findings)?;
    say!(out, "\nevery finding's verdict: {path}");
    say!(out, "total {:.1} s", all_start.elapsed().as_secs_f64());
    Ok(())
}

/// Writes a figure's CSV, SVG and panel from its runs' results and prints its findings with verdicts.
fn finish_figure(
    out: &mut dyn FigureOut,
    figure: Figure,
    base: &str,
    seeds: u32,
    runs: &[RunSpec],
    results: Vec<Result<RunResult, PointError>>,
    elapsed: Option<f64>,
) -> FigureOutcome<Vec<Claim>> {
    let id = figure.id;
    let mut result = FigureResult::new(figure, seeds);
    result.base = base.to_string();
    for (spec, r) in runs.iter().zip(results) {
        match r {
            Ok(r) => result.add(spec, r),
            Err(e) => result.failures.push(format!("{} seed {}: {e}", result.figure.series[spec.series], spec.seed)),
        }
    }
    let stem = out.stem();
    let (csv_path, svg_path) = (format!("{stem}-{}.csv", id.name()), format!("{stem}-{}.svg", id.name()));
    out.write(&csv_path, &result.to_csv())?;
    out.write(&svg_path, &figure_svg(&result))?;
    let md_path = format!("{stem}-{}.md", id.name());
    out.write(&md_path, &panel_markdown(&result))?;
    say!(
        out,
        "\n{} — {} ({}; {} runs, {} seeds per point{})",
        id.name(),
        result.figure.title,
        result.figure.section,
        runs.len(),
        seeds,
        elapsed.map_or(String::new(), |t| format!(", {t:.1} s"))
    );
    say!(out, "  verdicts on {base}");
    let found = claims(&result);
    for c in &found {
        say!(out, "  paper:   {}", c.paper);
        say!(out, "  bagsim:  {}  [{}]", c.ours, c.verdict.label());
    }
    for f in &result.failures {
        say!(out, "  failed run: {f}");
    }
    say!(out, "  wrote {csv_path}, {svg_path} and {md_path}");
    match result.failures.first() {
        // The files keep what the other runs gave; the command says that runs failed, as a sweep's does.
        Some(first) => Err(FigureError::new(
            FigureFailure::Run,
            format!("{} of {} runs of {} failed; the first: {first}", result.failures.len(), runs.len(), id.name()),
        )),
        None => Ok(found),
    }
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
fn run_result_of(v: &Value) -> Result<RunResult, PointError> {
    let f: RunResultFile = serde_json::from_value(v.clone()).map_err(|e| PointError::Job(e.to_string()))?;
    Ok(RunResult {
        makespan: nan(f.makespan),
        nsl: nan(f.nsl),
        finished_fraction: nan(f.finished_fraction),
        class_makespan: f.class_makespan.into_iter().map(nan).collect(),
        class_nsl: f.class_nsl.into_iter().map(nan).collect(),
    })
}

/// `bagsim reproduce FIG|all --plan N`: the figures' runs as a study of kind `reproduce` in N shards.
pub fn reproduce_plan(which: &str, base: &McScenario, seeds: u32) -> FigureOutcome<FigurePlan> {
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
            let job = serde_json::to_value(&spec.scenario).expect("plain data");
            points.push(Point { labels, job });
        }
    }
    // `script`: the figures that draw the base's own script as one more series.
    let names: Vec<&str> = ids.iter().map(|id| id.name()).collect();
    let spec = serde_json::json!({ "figures": names, "seeds": seeds, "script": scripted, "base": base_name(base) });
    let axes = ["figure", "series", "point", "seed"].iter().map(|k| (k.to_string(), Vec::new())).collect();
    Ok(FigurePlan { kind: Kind::Reproduce, spec, axes, points })
}

/// Runs one point of a `reproduce` study.
pub fn reproduce_point<D: FamilyDef<Scenario = McScenario>>(p: &Point) -> Result<Value, PointError> {
    let s = scenario_from_json::<D>(&p.job.to_string())?;
    let r = run_point(&s)?;
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
pub fn reproduce_merge(out: &mut dyn FigureOut, spec: &Value, outcomes: &[&Value]) -> FigureOutcome {
    let seeds =
        spec["seeds"].as_u64().filter(|s| (1..=100).contains(s)).ok_or("the manifest's spec.seeds is not 1–100")?
            as u32;
    let names = spec["figures"].as_array().ok_or("the manifest's spec has no figures")?;
    let base = spec["base"].as_str().unwrap_or("a base the manifest does not name");
    let mut rest = outcomes;
    for name in names {
        let name = name.as_str().ok_or("a figure's name is not a string")?;
        let id: FigureId = name.parse()?;
        let mut figure = id.figure();
        let script = spec["script"].as_array().is_some_and(|s| s.iter().any(|n| n.as_str() == Some(name)));
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
        finish_figure(out, figure, base, seeds, &runs, results, None)?;
    }
    Ok(())
}

/// `bagsim reproduce FIG --readings KEY=A,B …`: the figure's findings under every combination of readings, with
/// seeds added while a verdict is not resolved under `--seeds auto`; prints the table and writes it as Markdown
/// and CSV.
pub fn reproduce_readings<D: FamilyDef<Scenario = McScenario>>(
    out: &mut dyn FigureOut,
    which: &str,
    base: &McScenario,
    specs: &[String],
    seeds: Seeds,
    jobs: usize,
) -> FigureOutcome {
    let combos = readings_combos(specs)?;
    // Every figure's readings are checked before any runs: a refusal of the last figure wastes no work.
    for id in figure_ids(which)? {
        super::study::Study::new(id, base, &combos, seeds)?;
    }
    // Runs that differ only in keys they do not read are one run (`Scenario::canonical_json`): each is simulated
    // once, across the readings and the rounds of `--seeds auto`.
    let done: RefCell<HashMap<String, Result<RunResult, PointError>>> = RefCell::default();
    for id in figure_ids(which)? {
        let start = std::time::Instant::now();
        let run = |specs: &[RunSpec]| {
            let keys: Vec<String> = specs.iter().map(|s| canonical_json::<D>(&s.scenario)).collect();
            let mut todo: Vec<(String, McScenario)> = Vec::new();
            let mut asked = std::collections::HashSet::new();
            for (k, spec) in keys.iter().zip(specs) {
                if !done.borrow().contains_key(k) && asked.insert(k) {
                    todo.push((k.clone(), spec.scenario.clone()));
                }
            }
            let fresh = crate::parallel::map(&todo, jobs, |_, (_, s)| run_point(s).map_err(PointError::Run));
            done.borrow_mut().extend(todo.into_iter().map(|(k, _)| k).zip(fresh));
            let seen = done.borrow();
            keys.iter().map(|k| seen[k].clone()).collect()
        };
        let table = study(id, base, &combos, seeds, &run)?;
        let heading = format!("{} — {} — verdicts on {}", id.name(), table.title, base_name(base));
        let elapsed = Some(start.elapsed().as_secs_f64());
        finish_readings(out, id.name(), &heading, &table, combos.len(), elapsed)?;
    }
    Ok(())
}

fn readings_combos(specs: &[String]) -> Result<Vec<Combination>, ReadingsError> {
    let path_of = |k: &str| crate::family::multi_cluster::sweep::path_of(k).to_string();
    Ok(combinations(&parse_axes(specs, READINGS, &path_of)?))
}

/// The runs a readings study of figure `id` asks for with a fixed number of seeds (one round), recorded without
/// running them.
fn recorded_runs(
    id: FigureId,
    base: &McScenario,
    combos: &[Combination],
    seeds: Seeds,
) -> Result<Vec<RunSpec>, ReadingsError> {
    let (runs, table) = record(|batch| study(id, base, combos, seeds, batch));
    table.map(|_| runs)
}

/// `bagsim reproduce FIG|all --readings … --seeds N --plan N`: the readings study's runs as a study of kind
/// `reproduce-readings` (a fixed number of seeds: `--seeds auto` decides its next round from the last one's verdicts).
pub fn readings_plan(which: &str, base: &McScenario, specs: &[String], seeds: u32) -> FigureOutcome<FigurePlan> {
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
            points.push(Point { labels, job: serde_json::to_value(&spec.scenario).expect("plain data") });
        }
    }
    let spec = serde_json::json!({
        "figures": ids.iter().map(|id| id.name()).collect::<Vec<_>>(),
        "seeds": seeds,
        "readings": specs,
        "base": base,
    });
    let axes = ["figure", "series", "point", "seed"].iter().map(|k| (k.to_string(), Vec::new())).collect();
    Ok(FigurePlan { kind: Kind::ReproduceReadings, spec, axes, points })
}

/// `bagsim merge` of a `reproduce-readings` study: the tables `bagsim reproduce --readings` prints and writes.
pub fn readings_merge<D: FamilyDef<Scenario = McScenario>>(
    out: &mut dyn FigureOut,
    spec: &Value,
    outcomes: &[&Value],
) -> FigureOutcome {
    let seeds =
        spec["seeds"].as_u64().filter(|s| (1..=100).contains(s)).ok_or("the manifest's spec.seeds is not 1–100")?
            as u32;
    let specs: Vec<String> = serde_json::from_value(spec["readings"].clone()).map_err(|e| format!("readings: {e}"))?;
    let base = &scenario_from_json::<D>(&spec["base"].to_string()).map_err(|e| format!("base: {e}"))?;
    let combos = readings_combos(&specs)?;
    let names = spec["figures"].as_array().ok_or("the manifest's spec has no figures")?;
    let mut rest = outcomes;
    for name in names {
        let id: FigureId = name.as_str().ok_or("a figure's name is not a string")?.parse()?;
        let n = recorded_runs(id, base, &combos, Seeds::Fixed(seeds))?.len();
        if rest.len() < n {
            return Err(format!("the study has {} runs; {} needs {n} more", outcomes.len(), id.name()).into());
        }
        let (mine, next) = rest.split_at(n);
        rest = next;
        let results: Vec<Result<RunResult, PointError>> = mine.iter().map(|v| run_result_of(v)).collect();
        // The study asks for the same runs in the same order as when it was planned: it gets their outcomes back.
        let table = study(id, base, &combos, Seeds::Fixed(seeds), &replay(results))?;
        let heading = format!("{} — {} — verdicts on {}", id.name(), table.title, base_name(base));
        finish_readings(out, id.name(), &heading, &table, combos.len(), None)?;
    }
    Ok(())
}

/// The figures of [Iosup08] §5 behind the contract (`bagsim figure multi_cluster`): `--seeds N` (1–100) or `auto`.
/// `D` is the family's `FamilyDef`, named by `def.rs` (`Figures::<Def>::NEW`), so that this file reads and keys
/// its scenarios through the contract without importing the definition that points here.
pub struct Figures<D>(std::marker::PhantomData<fn() -> D>);

impl<D> Figures<D> {
    pub const NEW: Figures<D> = Figures(std::marker::PhantomData);
}

impl<D: FamilyDef<Scenario = McScenario>> FigureCommand<McScenario> for Figures<D> {
    fn default_seeds(&self) -> &'static str {
        "5"
    }

    fn plans(&self, kind: Kind) -> bool {
        matches!(kind, Kind::Reproduce | Kind::ReproduceReadings)
    }

    fn run(&self, out: &mut dyn FigureOut, base: &McScenario, r: &FigureRequest) -> FigureOutcome {
        match Seeds::parse(r.seeds, super::DEFAULT_SEEDS)? {
            Seeds::Fixed(n) if r.readings.is_empty() => reproduce(out, r.figure, base, n, r.jobs),
            seeds => reproduce_readings::<D>(out, r.figure, base, r.readings, seeds, r.jobs),
        }
    }

    fn plan(&self, base: &McScenario, r: &FigureRequest) -> FigureOutcome<FigurePlan> {
        let n = planned_seeds(Seeds::parse(r.seeds, super::DEFAULT_SEEDS)?)?;
        if r.readings.is_empty() {
            reproduce_plan(r.figure, base, n)
        } else {
            readings_plan(r.figure, base, r.readings, n)
        }
    }

    fn point(&self, _: Kind, p: &Point) -> Result<Value, PointError> {
        reproduce_point::<D>(p)
    }

    fn merge(
        &self,
        kind: Kind,
        out: &mut dyn FigureOut,
        spec: &Value,
        _: &[Point],
        outcomes: &[&Value],
    ) -> FigureOutcome {
        match kind {
            Kind::ReproduceReadings => readings_merge::<D>(out, spec, outcomes),
            _ => reproduce_merge(out, spec, outcomes),
        }
    }
}
