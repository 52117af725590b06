//! A readings study of one figure: its findings under every combination of readings (docs/model.md,
//! "Readings"), each with seeds added until its verdicts resolve or a cap is reached when asked.

use super::claims::claims;
use super::{FigureId, FigureResult, RunResult, RunSpec};
use crate::family::multi_cluster::config::McScenario;
use crate::readings::{apply, label, Batch, Combination, ReadingRow, ReadingsTable, Seeds};
use crate::stats::Verdict;

/// Runs a figure's findings under each combination, starting from `base` (the figure then sets its own series,
/// load and axis). `run` runs a batch of specs (in parallel natively, in the worker pool on the page) and returns
/// one result per spec in order.
pub fn study(
    id: FigureId,
    base: &McScenario,
    combos: &[Combination],
    seeds: Seeds,
    run: Batch<'_, RunSpec, RunResult>,
) -> Result<ReadingsTable, String> {
    let figure = id.figure();
    let mut rows = Vec::new();
    for c in combos {
        let scenario = apply(base, c)?;
        scenario.validate().map_err(|e| format!("readings {}: {e}", label(c)))?;
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
                next => {
                    let capped = unresolved && next.is_none() && seeds.cap().is_some();
                    rows.push(ReadingRow {
                        label: label(c),
                        seeds: n,
                        capped,
                        claims: found,
                        failures: result.failures,
                    });
                    break;
                }
            }
        }
    }
    Ok(ReadingsTable {
        figure: id.name().to_string(),
        title: format!("{} — {}", id.name().replace("fig", "Figure "), figure.title),
        rows,
    })
}
