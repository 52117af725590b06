//! A readings study of one figure: its findings under every combination of readings (docs/model.md,
//! "Readings"), each with seeds added until its verdicts resolve or a cap is reached when asked.

use super::claims::{claims, Claim};
use super::{Figure, FigureId, FigureResult, RunResult, RunSpec};
use crate::family::multi_cluster::config::McScenario;
use crate::readings::{apply, label, Combination, Seeds};
use crate::stats::Verdict;

/// The findings of a figure under one combination of readings.
#[derive(Clone, Debug)]
pub struct ReadingRow {
    /// `load_split=equal`, or `defaults`.
    pub label: String,
    /// Seeds per point the verdicts rest on.
    pub seeds: u32,
    pub claims: Vec<Claim>,
    pub failures: Vec<String>,
}

/// A figure's findings × readings.
#[derive(Clone, Debug)]
pub struct ReadingsStudy {
    pub figure: Figure,
    pub rows: Vec<ReadingRow>,
}

/// Runs a figure's findings under each combination, starting from `base` (the figure then sets its own series,
/// load and axis). `run` runs a batch of specs (in parallel natively, in the worker pool on the page) and returns
/// one result per spec in order.
pub fn study(
    id: FigureId,
    base: &McScenario,
    combos: &[Combination],
    seeds: Seeds,
    run: &dyn Fn(&[RunSpec]) -> Vec<Result<RunResult, String>>,
) -> Result<ReadingsStudy, String> {
    let mut rows = Vec::new();
    for c in combos {
        let scenario = apply(base, c)?;
        scenario.validate().map_err(|e| format!("readings {}: {e}", label(c)))?;
        let figure = id.figure();
        let mut n = seeds.first();
        let mut result = FigureResult::new(figure.clone(), n);
        let mut from = 1;
        loop {
            let specs = figure.runs_on(&scenario, from..=n);
            for (spec, r) in specs.iter().zip(run(&specs)) {
                match r {
                    Ok(r) => result.add(spec, r),
                    Err(e) => result.failures.push(format!("{} seed {}: {e}", figure.series[spec.series], spec.seed)),
                }
            }
            let found = claims(&result);
            let unresolved = found.iter().any(|c| c.verdict == Verdict::Unresolved);
            match seeds.next(n) {
                Some(more) if unresolved && result.failures.is_empty() => {
                    from = n + 1;
                    n = more;
                    result.grow(n);
                }
                _ => {
                    rows.push(ReadingRow { label: label(c), seeds: n, claims: found, failures: result.failures });
                    break;
                }
            }
        }
    }
    Ok(ReadingsStudy { figure: id.figure(), rows })
}

impl ReadingsStudy {
    /// The table as Markdown: one row per finding, one column per combination of readings.
    pub fn markdown(&self, cap_note: Option<u32>) -> String {
        let f = &self.figure;
        let mut out = format!("# {} under each reading — {}\n\n", f.id.name().replace("fig", "Figure "), f.title);
        out.push_str("| the paper reports |");
        for r in &self.rows {
            out.push_str(&format!(" {} ({} seeds) |", r.label, r.seeds));
        }
        out.push_str("\n|---|");
        out.push_str(&"---|".repeat(self.rows.len()));
        out.push('\n');
        let n = self.rows.first().map_or(0, |r| r.claims.len());
        for k in 0..n {
            out.push_str(&format!("| \"{}\" |", self.rows[0].claims[k].paper));
            for r in &self.rows {
                let c = &r.claims[k];
                out.push_str(&format!(" **{}**: {} |", c.verdict.label(), c.ours.replace('|', "/")));
            }
            out.push('\n');
        }
        if let Some(cap) = cap_note {
            for r in &self.rows {
                let open = r.claims.iter().filter(|c| c.verdict == Verdict::Unresolved).count();
                if open > 0 && r.seeds >= cap {
                    out.push_str(&format!("\n{}: {open} finding(s) not resolved after {cap} seeds.\n", r.label));
                }
            }
        }
        for r in &self.rows {
            for e in &r.failures {
                out.push_str(&format!("\n{}: failed run: {e}\n", r.label));
            }
        }
        out
    }

    /// The table as CSV: figure, finding number, reading, seeds, verdict, our numbers.
    pub fn csv(&self) -> String {
        let mut out = String::from("figure,finding,reading,seeds,verdict,ours\n");
        for r in &self.rows {
            for (k, c) in r.claims.iter().enumerate() {
                out.push_str(&format!(
                    "{},{},{},{},{},\"{}\"\n",
                    self.figure.id.name(),
                    k + 1,
                    r.label,
                    r.seeds,
                    c.verdict.label(),
                    c.ours.replace('"', "'")
                ));
            }
        }
        out
    }
}
