//! A family's paper figures behind the contract (`bagsim figure FAMILY …`): where a figure command's lines and files
//! go (`FigureOut`: the CLI prints them and writes the files next to its `--out` stem), and how it fails
//! (`FigureError`, whose kind the CLI turns into its exit code). The figure code itself lives in each family's
//! folder; the readings table every family prints is written once here. Knows no family.

use super::plan::{FigurePlan, Kind, Point, PointError};
use crate::readings::ReadingsError;
use crate::readings::{flips, flips_markdown, ReadingsTable};
use serde_json::Value;

/// Why a figure command failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FigureFailure {
    /// An option, a base scenario or a manifest is refused.
    Input,
    /// A file could not be written.
    File,
    /// A run of the figure failed although its scenario was accepted.
    Run,
}

/// A figure command's failure: its kind and what to print.
#[derive(Clone, Debug, PartialEq)]
pub struct FigureError {
    pub failure: FigureFailure,
    pub message: String,
}

impl FigureError {
    pub fn new(failure: FigureFailure, message: impl Into<String>) -> FigureError {
        FigureError { failure, message: message.into() }
    }
}

/// A message built as text is an input refused, unless it is made an error of another kind where it arises.
impl From<String> for FigureError {
    fn from(message: String) -> FigureError {
        FigureError::new(FigureFailure::Input, message)
    }
}

/// A point's outcome that is not one (read back from a shard) or a run that failed is an input refused, as when
/// both were text (the exit code stays what it was).
impl From<PointError> for FigureError {
    fn from(e: PointError) -> FigureError {
        FigureError::new(FigureFailure::Input, e.to_string())
    }
}

/// Readings or seeds refused are an input refused.
impl From<ReadingsError> for FigureError {
    fn from(e: ReadingsError) -> FigureError {
        FigureError::new(FigureFailure::Input, e.to_string())
    }
}

impl std::fmt::Display for FigureError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for FigureError {}

impl From<&str> for FigureError {
    fn from(message: &str) -> FigureError {
        FigureError::new(FigureFailure::Input, message)
    }
}

/// What a figure command's result is.
pub type FigureOutcome<T = ()> = Result<T, FigureError>;

/// Where a figure command's lines and files go.
pub trait FigureOut {
    /// The stem the files are named from (`--out`): a figure writes `STEM-fig4.csv`, ….
    fn stem(&self) -> String;
    /// A line of the results (the CLI's stdout).
    fn say(&mut self, line: &str);
    /// A line of progress (the CLI's stderr).
    fn note(&mut self, line: &str);
    /// Writes the whole file `path`, or fails as a file error naming it.
    fn write(&mut self, path: &str, text: &str) -> FigureOutcome;
}

/// What `bagsim figure FAMILY …` asks for, the same for every family.
#[derive(Clone, Copy, Debug)]
pub struct FigureRequest<'a> {
    /// The figure's id (`fig3`, `4`) or `all`.
    pub figure: &'a str,
    /// `KEY=A,B` specs of readings; empty: the defaults only.
    pub readings: &'a [String],
    /// `--seeds` as given: `N`, `auto`, or what else the family documents.
    pub seeds: &'a str,
    /// Threads.
    pub jobs: usize,
}

/// A family's paper figures behind the contract: run, planned as a study, a study's point run and its outcomes
/// merged. `S` is the family's scenario, the base every figure changes. The family's folder implements it once
/// (natively: figures run in threads and write files); `FamilyDef::figures` hands it to the registry, which
/// dispatches `bagsim figure`, `sweep --shard` and `merge` to it.
pub trait FigureCommand<S>: Sync {
    /// `--seeds` when it is not given.
    fn default_seeds(&self) -> &'static str;
    /// Whether a study of this kind is one of its figures' (planned without readings or under readings).
    fn plans(&self, kind: Kind) -> bool;
    /// Runs the figures `r.figure` on `base`: CSV, SVG, Markdown and findings, or the readings table.
    fn run(&self, out: &mut dyn FigureOut, base: &S, r: &FigureRequest) -> FigureOutcome;
    /// The same runs as a study (`--plan`); its seeds must be a fixed number.
    fn plan(&self, base: &S, r: &FigureRequest) -> FigureOutcome<FigurePlan>;
    /// Runs one point of a study of kind `kind` (`bagsim sweep --shard`).
    fn point(&self, kind: Kind, p: &Point) -> Result<Value, PointError>;
    /// Merges a complete study's outcomes (`bagsim merge`) into the files a direct run writes.
    fn merge(
        &self,
        kind: Kind,
        out: &mut dyn FigureOut,
        spec: &Value,
        points: &[Point],
        outcomes: &[&Value],
    ) -> FigureOutcome;
}

/// The figures `which` names among a paper's figure `numbers` (in order): `all`, `N`, `figN`, `fig N` or `Figure N`
/// in any case. Every family and every command that names a figure (`figure`, `reproduce`, `dg-figure`,
/// `dd-figure`, a study's merge) reads it here, so a figure that does not exist is refused in one format:
/// `figure "12": no such figure; allowed: 3 … 11 (or fig3 … fig11), or all`, with the family's `note`.
pub fn figure_numbers(which: &str, numbers: &[u32], note: &str) -> FigureOutcome<Vec<u32>> {
    let t = which.trim().to_ascii_lowercase().replace(['-', ' ', '_'], "").replace("figure", "fig");
    if t == "all" {
        return Ok(numbers.to_vec());
    }
    let n = t.strip_prefix("fig").unwrap_or(&t).parse::<u32>().ok().filter(|n| numbers.contains(n));
    n.map(|n| vec![n]).ok_or_else(|| {
        let (first, last) = (numbers.first().copied().unwrap_or(0), numbers.last().copied().unwrap_or(0));
        let allowed = format!("{first} … {last} (or fig{first} … fig{last}), or all{note}");
        FigureError::new(FigureFailure::Input, format!("figure {which:?}: no such figure; allowed: {allowed}"))
    })
}

/// A study's seeds must be a fixed number.
pub fn planned_seeds(seeds: crate::readings::Seeds) -> FigureOutcome<u32> {
    match seeds {
        crate::readings::Seeds::Fixed(n) => Ok(n),
        crate::readings::Seeds::Auto { .. } => Err("--plan needs a fixed number of seeds: --seeds auto decides each \
                                                    round of seeds from the verdicts of the last"
            .into()),
    }
}

/// Every family's readings table, printed (each finding under each reading, and which reading flips it) and
/// written as STEM-NAME-readings.md and .csv; `name` is the figure's (`fig11`), `heading` what the lines open with.
pub fn finish_readings(
    out: &mut dyn FigureOut,
    name: &str,
    heading: &str,
    table: &ReadingsTable,
    combos: usize,
    elapsed: Option<f64>,
) -> FigureOutcome {
    let stem = out.stem();
    let (md_path, csv_path) = (format!("{stem}-{name}-readings.md"), format!("{stem}-{name}-readings.csv"));
    let mut text = table.markdown();
    if combos > 1 {
        text.push_str(&flips_markdown(table));
    }
    out.write(&md_path, &text)?;
    out.write(&csv_path, &table.csv())?;
    let t = elapsed.map_or(String::new(), |t| format!(" ({t:.1} s)"));
    out.say(&format!("\n{heading} under {combos} reading(s){t}"));
    let flips = flips(table);
    for (k, claim) in table.rows.first().map_or(&[][..], |r| &r.claims[..]).iter().enumerate() {
        out.say(&format!("  paper: {}", claim.paper));
        for row in &table.rows {
            let c = &row.claims[k];
            out.say(&format!("    {:<40} {:<13} ({} seeds) {}", row.label, c.verdict.label(), row.seeds, c.ours));
        }
        if combos > 1 {
            out.say(&format!("    → {}", flips[k].text()));
        }
    }
    for row in &table.rows {
        for f in &row.failures {
            out.say(&format!("  {}: failed: {f}", row.label));
        }
    }
    out.say(&format!("  wrote {md_path} and {csv_path}"));
    Ok(())
}
