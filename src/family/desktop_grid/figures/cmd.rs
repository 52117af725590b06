//! The figures of [Anglano09] §IV-C as a command (`bagsim figure desktop_grid`, `dg-figure`): each figure's bars in
//! a thread pool, each with seeds added by the paper's confidence rule, then the printed table, CSV, SVG and
//! findings, or under readings the readings table; and the same as a study in shards (`--plan`) whose points and
//! merges are here too. Lines and files go to a `FigureOut`.

use super::study::study;
use super::svg::figure_svg;
use super::{bars_csv, figures, series, Bar, BarJob, CiRule, FigurePreset};
use crate::family::contract::{finish_readings, FigureCommand, FigureOut, FigureOutcome, FigureRequest};
use crate::family::contract::{FigurePlan, Kind, Point, PointError};
use crate::family::desktop_grid::config::{DgConfig, DgScenario};
use crate::family::desktop_grid::readings::READINGS;
use crate::readings::{combinations, parse_axes, record, replay, Combination, ReadingsError};
use crate::stats::show;
use crate::stats::verdict::findings_markdown;
use serde_json::Value;

/// A line of the results.
macro_rules! say {
    ($out:expr, $($arg:tt)*) => {{
        $out.say(&format!($($arg)*));
    }};
}

fn cell(b: &(f64, f64, f64), unbounded: bool, scale: f64) -> String {
    if unbounded {
        "unbounded".to_string()
    } else {
        format!("{} ({}–{})", show(b.0 * scale, 1), show(b.1 * scale, 1), show(b.2 * scale, 1))
    }
}

/// `bagsim dg-figure N|all`: the bars of Figs. 2–17, each with seeds added until the intervals are within 2.5%.
pub fn figure(out: &mut dyn FigureOut, which: &str, base: &DgConfig, rule: CiRule, jobs: usize) -> FigureOutcome {
    base.validate().map_err(|e| format!("{}: {}", e.field, e.message))?;
    for f in chosen_figures(which)? {
        let start = std::time::Instant::now();
        // Each bar is the job the page's figure pool sends a worker (`BarJob::run`).
        let clock = || start.elapsed().as_secs_f64();
        let bars: Vec<Bar> = crate::parallel::map(&bar_jobs(&f, base, rule), jobs, |_, job| job.run(&clock))
            .into_iter()
            .collect::<Result<_, _>>()?;
        finish_figure(out, &f, &bars, rule, Some(start.elapsed().as_secs_f64()))?;
    }
    Ok(())
}

fn chosen_figures(which: &str) -> FigureOutcome<Vec<FigurePreset>> {
    let chosen = readings_figures(which)?;
    Ok(figures().into_iter().filter(|f| chosen.contains(&f.number)).collect())
}

/// A figure's bars as jobs: every mix under every BoT selection policy.
fn bar_jobs(f: &FigurePreset, base: &DgConfig, rule: CiRule) -> Vec<BarJob> {
    let series = series(base);
    f.mixes
        .iter()
        .flat_map(|&mix| {
            series.iter().map(move |policy| BarJob {
                figure: f.number,
                mix,
                policy: policy.clone(),
                base: base.clone(),
                rule,
            })
        })
        .collect()
}

/// Prints a figure's bars and findings and writes STEM-figN.csv.
fn finish_figure(
    out: &mut dyn FigureOut,
    f: &FigurePreset,
    bars: &[Bar],
    rule: CiRule,
    elapsed: Option<f64>,
) -> FigureOutcome {
    say!(out, "\nFig. {} — {}{}", f.number, f.title, elapsed.map_or(String::new(), |t| format!(" ({t:.1} s)")));
    say!(
        out,
        "{:<8} {:<11} {:>5} {:>22} {:>22} {:>22} {:>16}  {}",
        "mix",
        "policy",
        "seeds",
        "TT [h]",
        "makespan [h]",
        "WT [h]",
        "RWT [%]",
        "saturation (seeds saturated; growth)"
    );
    for b in bars {
        say!(
            out,
            "{:<8} {:<11} {:>4}{} {:>22} {:>22} {:>22} {:>16}  {} ({}/{}; {} ({} – {}))",
            b.mix.label(),
            b.policy.label(),
            b.seeds,
            if b.cap_hit { "*" } else { " " },
            cell(&b.turnaround, b.unbounded, 1.0 / 3600.0),
            // The execution makespan of the finished BoTs is finite even when their turnaround is not.
            cell(&b.makespan, false, 1.0 / 3600.0),
            cell(&b.waiting, b.unbounded, 1.0 / 3600.0),
            cell(&b.rwt, false, 100.0),
            b.saturation.label(),
            b.saturated_seeds,
            b.seeds,
            show(b.growth.0, 3),
            show(b.growth.1, 3),
            show(b.growth.2, 3)
        );
    }
    if bars.iter().any(|b| b.cap_hit) {
        say!(
            out,
            "  * the seed cap ({}) was reached before the saturation was resolved or every interval was within {}%",
            rule.max_seeds,
            rule.rel * 100.0
        );
    }
    let found = super::claims::claims(f, bars);
    for c in &found {
        say!(out, "  paper:   {}", c.paper);
        say!(out, "  bagsim:  {}  [{}]", c.ours, c.verdict.label());
    }
    let stem = format!("{}-fig{}", out.stem(), f.number);
    let (csv, svg, md) = (format!("{stem}.csv"), format!("{stem}.svg"), format!("{stem}.md"));
    out.write(&csv, &bars_csv(bars))?;
    out.write(&svg, &figure_svg(f, bars))?;
    let seeds: Vec<usize> = bars.iter().map(|b| b.seeds).collect();
    let setup = [
        ("[Anglano09]", format!("§IV-C, {}", f.title)),
        ("seeds per bar", {
            let (lo, hi) = (seeds.iter().min().unwrap_or(&0), seeds.iter().max().unwrap_or(&0));
            let range = if lo == hi { lo.to_string() } else { format!("{lo}–{hi}") };
            let rel = rule.rel * 100.0;
            format!(
                "{range} (until the 95% intervals are within {rel}% of the mean, {} to {} seeds)",
                rule.min_seeds, rule.max_seeds
            )
        }),
    ];
    let heading = format!("Fig. {} — {}", f.number, f.title);
    out.write(&md, &findings_markdown(&heading, &setup, &found))?;
    say!(out, "  wrote {csv}, {svg} and {md}");
    Ok(())
}

/// `bagsim dg-figure N|all --plan N`: the figures' bars as a study of kind `dg-figure` in N shards, a bar a point.
pub fn figure_plan(which: &str, base: &DgConfig, rule: CiRule) -> FigureOutcome<FigurePlan> {
    base.validate().map_err(|e| format!("{}: {}", e.field, e.message))?;
    let chosen = chosen_figures(which)?;
    let points = chosen
        .iter()
        .flat_map(|f| bar_jobs(f, base, rule))
        .map(|job| Point {
            labels: vec![job.figure.to_string(), job.mix.label().to_string(), job.policy.label().to_string()],
            job: serde_json::to_value(&job).expect("plain data"),
        })
        .collect();
    let spec = serde_json::json!({ "figures": chosen.iter().map(|f| f.number).collect::<Vec<_>>(), "rule": rule });
    let axes = ["figure", "mix", "policy"].iter().map(|k| (k.to_string(), Vec::new())).collect();
    Ok(FigurePlan { kind: Kind::DgFigure, spec, axes, points })
}

/// A bar as a shard keeps it: its (mean, low, high) triples with an undefined number as null.
fn bar_to_value(b: &Bar) -> Value {
    let some = |x: f64| x.is_finite().then_some(x);
    let pair = |p: (f64, f64, f64)| serde_json::json!([some(p.0), some(p.1), some(p.2)]);
    let mut v = serde_json::to_value(b).expect("plain data");
    for (k, p) in [
        ("growth", b.growth),
        ("turnaround", b.turnaround),
        ("makespan", b.makespan),
        ("waiting", b.waiting),
        ("rwt", b.rwt),
    ] {
        v[k] = pair(p);
    }
    v
}

fn bar_of_value(v: &Value) -> Result<Bar, PointError> {
    let mut v = v.clone();
    let nan = |x: &Value| x.as_f64().unwrap_or(f64::NAN);
    let mut pairs = Vec::new();
    for k in ["growth", "turnaround", "makespan", "waiting", "rwt"] {
        let (mean, a, b) = (nan(&v[k][0]), nan(&v[k][1]), nan(&v[k][2]));
        // A shard written before the bounds holds (mean, half-width) of a t interval.
        let old = v[k].as_array().is_some_and(|x| x.len() == 2);
        pairs.push(if old { (mean, mean - a, mean + a) } else { (mean, a, b) });
        v[k] = serde_json::json!([0.0, 0.0, 0.0]);
    }
    let mut b: Bar = serde_json::from_value(v).map_err(|e| PointError::Job(format!("not a desktop-grid bar: {e}")))?;
    (b.growth, b.turnaround, b.makespan, b.waiting, b.rwt) = (pairs[0], pairs[1], pairs[2], pairs[3], pairs[4]);
    Ok(b)
}

/// Runs one bar of a `dg-figure` study.
pub fn figure_point(p: &Point) -> Result<Value, PointError> {
    let job: BarJob = serde_json::from_value(p.job.clone())
        .map_err(|e| PointError::Job(format!("not a desktop-grid bar job: {e}")))?;
    let start = std::time::Instant::now();
    job.run(&|| start.elapsed().as_secs_f64()).map(|b| bar_to_value(&b))
}

/// `bagsim merge` of a `dg-figure` study: every figure's table, findings and CSV, as `bagsim dg-figure` gives them.
pub fn figure_merge(out: &mut dyn FigureOut, spec: &Value, points: &[Point], outcomes: &[&Value]) -> FigureOutcome {
    let rule: CiRule = serde_json::from_value(spec["rule"].clone()).map_err(|e| format!("the manifest's rule: {e}"))?;
    let bars = outcomes.iter().map(|v| bar_of_value(v)).collect::<Result<Vec<_>, _>>()?;
    for f in figures() {
        let mine: Vec<Bar> = points
            .iter()
            .zip(&bars)
            .filter(|(p, _)| p.labels[0] == f.number.to_string())
            .map(|(_, b)| b.clone())
            .collect();
        if !mine.is_empty() {
            finish_figure(out, &f, &mine, rule, None)?;
        }
    }
    Ok(())
}

/// `bagsim dg-figure N --readings KEY=A,B …`: the figure's findings under every combination of readings; prints
/// the table and writes it as Markdown and CSV.
pub fn figure_readings(
    out: &mut dyn FigureOut,
    which: &str,
    base: &DgConfig,
    specs: &[String],
    rule: CiRule,
    jobs: usize,
) -> FigureOutcome {
    let combos = readings_combos(specs)?;
    // Every figure's readings are checked before any runs: a refusal of the last figure wastes no work.
    for n in readings_figures(which)? {
        super::study::plan(n, base, &combos, rule)?;
    }
    for n in readings_figures(which)? {
        let start = std::time::Instant::now();
        let clock = || start.elapsed().as_secs_f64();
        let run = |js: &[BarJob]| crate::parallel::map(js, jobs, |_, j| j.run(&clock));
        let table = study(n, base, &combos, rule, &run)?;
        let elapsed = Some(start.elapsed().as_secs_f64());
        finish_readings(out, &format!("fig{}", n), &table.title, &table, combos.len(), elapsed)?;
    }
    Ok(())
}

fn readings_combos(specs: &[String]) -> Result<Vec<Combination>, ReadingsError> {
    Ok(combinations(&parse_axes(specs, READINGS, &crate::family::desktop_grid::sweep::path_of)?))
}

fn readings_figures(which: &str) -> FigureOutcome<Vec<u32>> {
    let numbers: Vec<u32> = figures().iter().map(|f| f.number).collect();
    crate::family::contract::figure_numbers(which, &numbers, "")
}

/// The bar jobs a readings study of figure `n` runs (one batch), recorded without running them.
fn recorded_jobs(n: u32, base: &DgConfig, combos: &[Combination], rule: CiRule) -> Result<Vec<BarJob>, ReadingsError> {
    let (jobs, table) = record(|batch| study(n, base, combos, rule, batch));
    table.map(|_| jobs)
}

/// `bagsim dg-figure N|all --readings … --plan N`: the readings study's bars as a study of kind `dg-readings`.
pub fn readings_plan(which: &str, base: &DgConfig, specs: &[String], rule: CiRule) -> FigureOutcome<FigurePlan> {
    base.validate().map_err(|e| format!("{}: {}", e.field, e.message))?;
    let combos = readings_combos(specs)?;
    let numbers = readings_figures(which)?;
    let mut points = Vec::new();
    for &n in &numbers {
        for job in recorded_jobs(n, base, &combos, rule)? {
            let labels = vec![n.to_string(), job.mix.label().to_string(), job.policy.label().to_string()];
            points.push(Point { labels, job: serde_json::to_value(&job).expect("plain data") });
        }
    }
    let spec = serde_json::json!({ "figures": numbers, "rule": rule, "readings": specs, "base": base });
    let axes = ["figure", "mix", "policy"].iter().map(|k| (k.to_string(), Vec::new())).collect();
    Ok(FigurePlan { kind: Kind::DgReadings, spec, axes, points })
}

/// `bagsim merge` of a `dg-readings` study: the tables `bagsim dg-figure --readings` prints and writes.
pub fn readings_merge(out: &mut dyn FigureOut, spec: &Value, outcomes: &[&Value]) -> FigureOutcome {
    let rule: CiRule = serde_json::from_value(spec["rule"].clone()).map_err(|e| format!("the manifest's rule: {e}"))?;
    let specs: Vec<String> = serde_json::from_value(spec["readings"].clone()).map_err(|e| format!("readings: {e}"))?;
    let base: DgConfig =
        serde_json::from_value(spec["base"].clone()).map_err(|e| format!("the manifest's base: {e}"))?;
    let numbers: Vec<u32> = serde_json::from_value(spec["figures"].clone()).map_err(|e| format!("figures: {e}"))?;
    let combos = readings_combos(&specs)?;
    let mut rest = outcomes;
    for n in numbers {
        let count = recorded_jobs(n, &base, &combos, rule)?.len();
        if rest.len() < count {
            return Err(format!("the study has {} bars; Fig. {n} needs {count} more", outcomes.len()).into());
        }
        let (mine, next) = rest.split_at(count);
        rest = next;
        let bars: Vec<Result<Bar, PointError>> = mine.iter().map(|v| bar_of_value(v)).collect();
        // The study asks for the same bars in the same order as when it was planned: it gets them back.
        let table = study(n, &base, &combos, rule, &replay(bars))?;
        finish_readings(out, &format!("fig{}", n), &table.title, &table, combos.len(), None)?;
    }
    Ok(())
}

/// The figures of [Anglano09] §IV-C behind the contract (`bagsim figure desktop_grid`). Its seeds follow the
/// paper's confidence rule: `auto` adds seeds to a bar from 3 to 30 until its intervals are within 2.5% of their
/// means, `N` runs N seeds (2–1000), `MIN..MAX` from MIN to MAX (`dg-figure --min-seeds --max-seeds`).
pub struct Figures;

impl Figures {
    fn rule(seeds: &str) -> FigureOutcome<CiRule> {
        let rule = |min_seeds, max_seeds| CiRule { min_seeds, max_seeds, rel: 0.025 };
        if seeds.eq_ignore_ascii_case("auto") {
            return Ok(rule(3, 30));
        }
        let range = match seeds.split_once("..") {
            Some((min, max)) => min.trim().parse::<usize>().ok().zip(max.trim().parse::<usize>().ok()),
            None => seeds.trim().parse::<usize>().ok().filter(|&n| n >= 2).map(|n| (n, n)),
        };
        match range {
            // A bar's interval needs 2 seeds (`run_bar` never runs fewer): the range said is the range checked.
            Some((min, max)) if (2..=1000).contains(&max) && (2..=max).contains(&min) => Ok(rule(min, max)),
            _ => Err(format!(
                "--seeds {seeds:?}: allowed 2–1000, auto (3 to 30 by the paper's rule), or MIN..MAX with 2 ≤ MIN ≤ MAX \
                 ≤ 1000"
            )
            .into()),
        }
    }
}

impl FigureCommand<DgScenario> for Figures {
    fn default_seeds(&self) -> &'static str {
        "auto"
    }

    fn plans(&self, kind: Kind) -> bool {
        matches!(kind, Kind::DgFigure | Kind::DgReadings)
    }

    fn run(&self, out: &mut dyn FigureOut, base: &DgScenario, r: &FigureRequest) -> FigureOutcome {
        let rule = Figures::rule(r.seeds)?;
        if r.readings.is_empty() {
            figure(out, r.figure, &base.desktop_grid, rule, r.jobs)
        } else {
            figure_readings(out, r.figure, &base.desktop_grid, r.readings, rule, r.jobs)
        }
    }

    fn plan(&self, base: &DgScenario, r: &FigureRequest) -> FigureOutcome<FigurePlan> {
        let rule = Figures::rule(r.seeds)?;
        if r.readings.is_empty() {
            figure_plan(r.figure, &base.desktop_grid, rule)
        } else {
            readings_plan(r.figure, &base.desktop_grid, r.readings, rule)
        }
    }

    fn point(&self, _: Kind, p: &Point) -> Result<Value, PointError> {
        figure_point(p)
    }

    fn merge(
        &self,
        kind: Kind,
        out: &mut dyn FigureOut,
        spec: &Value,
        points: &[Point],
        outcomes: &[&Value],
    ) -> FigureOutcome {
        match kind {
            Kind::DgReadings => readings_merge(out, spec, outcomes),
            _ => figure_merge(out, spec, points, outcomes),
        }
    }
}
