//! `bagsim tournament SCENARIO POLICY.rhai…`: the students' scripts raced against the family's built-ins on one
//! scenario over the same seeds (a sweep of the family's scripted key and the seed, run on all cores), ranked by
//! one sweep column with its 95% interval (`bagsim::study::tournament`). A script that fails is listed with its
//! reason and never stops the others. With `--plan N`, the same sweep as a study of N shards (Slurm).

use super::error::{CliError, Failure, Outcome};
use super::study::{axis_value, load_scenario, read_text, run_points, with_suffix, write_manifest};
use bagsim::family::contract::Tournament;
use bagsim::study::tournament::{standings, to_csv, to_table, Entry};
use bagsim::study::{plan_with, Axis, PointError};
use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};

macro_rules! say {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stdout(), "{}", bagsim::family::contract::tidy_line(&format!($($arg)*)));
    }};
}

/// `bagsim tournament`'s arguments.
#[derive(clap::Args)]
pub struct Args {
    scenario: PathBuf,
    /// The scripts (FILE.rhai), each the value of the family's scripted key (scheduling, bot_selection, scheme).
    #[arg(required = true)]
    scripts: Vec<PathBuf>,
    /// Seeds 1 … N for every entry (2–30).
    #[arg(long, default_value_t = 5)]
    seeds: u32,
    /// The sweep column to rank by (default: the family's: mean_makespan, mean_tt, mean_turnaround).
    #[arg(long)]
    metric: Option<String>,
    /// Race the scripts only, without the built-ins as reference rows.
    #[arg(long)]
    no_builtins: bool,
    /// Write the standings as STEM.csv (with --plan: the study's STEM.manifest.json).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    jobs: Option<usize>,
    /// Plan the runs as a study of N shards (Slurm) instead of running them.
    #[arg(long, value_name = "N")]
    plan: Option<usize>,
}

/// Most seeds a tournament runs per entry (a class's laptop, not a study).
const MAX_SEEDS: u32 = 30;

/// The entries' names: a built-in by its value, a script by its file's stem (made unique with its position).
fn names(spec: &Tournament, scripts: &[PathBuf], builtins: bool) -> Vec<(String, String, bool)> {
    let mut out: Vec<(String, String, bool)> = Vec::new();
    if builtins {
        out.extend(spec.builtins.iter().map(|b| (b.to_string(), b.to_string(), true)));
    }
    for (i, p) in scripts.iter().enumerate() {
        let stem = p.file_stem().map_or_else(|| format!("script {}", i + 1), |s| s.to_string_lossy().into_owned());
        let name = if out.iter().any(|(n, ..)| *n == stem) { format!("{stem} ({})", i + 1) } else { stem };
        out.push((name, p.to_string_lossy().into_owned(), false));
    }
    out
}

pub fn tournament(r: &Args) -> Outcome {
    let refuse = |m: String| Err(CliError::new(Failure::Input, m));
    if !(2..=MAX_SEEDS).contains(&r.seeds) {
        return refuse(format!("--seeds {}: out of range; allowed 2–{MAX_SEEDS} (an interval needs two)", r.seeds));
    }
    if r.scripts.is_empty() {
        return refuse("give at least one policy script (FILE.rhai) to race".into());
    }
    for p in &r.scripts {
        if p.extension().is_none_or(|e| e != "rhai") {
            return refuse(format!("{}: a policy is a Rhai script whose name ends in .rhai", p.display()));
        }
    }
    let base = load_scenario(&r.scenario)?;
    let family = base.family();
    let Some(spec) = family.tournament() else {
        return refuse(format!("the {} family has no decision a script can take", family.name()));
    };
    let metric = r.metric.as_deref().unwrap_or(spec.metric);
    let header = family.sweep_header();
    let Some(column) = header.split(',').position(|c| c == metric) else {
        return refuse(format!("--metric {metric}: not a column of a {} sweep; its columns: {header}", family.name()));
    };
    let entries = names(&spec, &r.scripts, !r.no_builtins);
    // A script that does not compile is listed with its error, and raced no further; the others run.
    let mut broken: Vec<Option<String>> = Vec::new();
    for (_, value, builtin) in &entries {
        broken.push(match builtin {
            true => None,
            false => {
                let source = read_text(Path::new(value), 1 << 20)?;
                family.check_script(spec.key, &source).err().map(|e| format!("does not compile: {e}"))
            }
        });
    }
    let values: Vec<String> =
        entries.iter().zip(&broken).filter(|(_, b)| b.is_none()).map(|(e, _)| e.1.clone()).collect();
    if values.is_empty() {
        return refuse(format!(
            "no entry to race: {}",
            broken.iter().flatten().cloned().collect::<Vec<_>>().join("; ")
        ));
    }
    let seeds: Vec<String> = (1..=r.seeds).map(|s| s.to_string()).collect();
    let axes: Vec<Axis> = vec![(spec.key.to_string(), values), ("seed".to_string(), seeds)];
    let m = plan_with(&base, axes, r.plan.unwrap_or(1), &axis_value)?;
    if r.plan.is_some() {
        let out = r.out.clone().unwrap_or_else(|| PathBuf::from("tournament"));
        write_manifest(&m, &out)?;
        say!(
            "after the merge: STEM.csv holds every run; its '{}' column ranked by '{metric}' is the tournament",
            spec.key
        );
        return Ok(());
    }
    let jobs = bagsim::parallel::threads(r.jobs);
    eprintln!("tournament: {} entries × {} seeds = {} runs on {jobs} threads", entries.len(), r.seeds, m.points.len());
    let indices: Vec<usize> = (0..m.points.len()).collect();
    let results = run_points(&m, &indices, jobs, None);
    let mut raced: Vec<Entry> = entries
        .iter()
        .zip(broken)
        .map(|((name, _, builtin), failure)| Entry {
            name: name.clone(),
            builtin: *builtin,
            values: Vec::new(),
            failure,
        })
        .collect();
    for (point, result) in m.points.iter().zip(results) {
        let Some(k) = entries.iter().position(|e| point.labels.first() == Some(&e.1)) else { continue };
        let no_number = || PointError::Job(format!("a run's row has no number in {metric}"));
        match result.and_then(|v| cell(&v, column).ok_or_else(no_number)) {
            Ok(x) => raced[k].values.push(x),
            Err(e) => {
                raced[k].failure.get_or_insert(e.to_string());
            }
        }
    }
    let higher = spec.higher_is_better.contains(&metric);
    let table = standings(&raced, higher);
    let better = if higher { "more is better" } else { "less is better" };
    say!("{} tournament on {}, {} seeds; ranked by {metric} ({better})", family.name(), r.scenario.display(), r.seeds);
    print!("{}", to_table(&table, metric, 3));
    if let Some(out) = &r.out {
        let path = with_suffix(out, ".csv");
        super::error::write(&path, to_csv(&table))?;
        say!("wrote {}", path.display());
    }
    Ok(())
}

/// The value of sweep column `column` in a point's result (`RunRow`: the CSV row and the report); NaN when the cell
/// is empty (nothing to average); None when the result holds no such row.
fn cell(v: &Value, column: usize) -> Option<f64> {
    bagsim::study::tournament::cell(v.get("row")?.as_str()?, column)
}
