//! A readings study of one figure of [Anglano09] §IV-C: its findings (`claims`) under every combination of
//! readings (docs/desktop_grid.md, "Readings"). Each bar adds seeds as the figure's rule says (until its saturation
//! is resolved and its intervals are within 2.5%, up to the cap), so a finding left open at the cap says so.

use super::claims::claims;
use super::figures::{figures, Bar, BarJob, CiRule};
use super::{DesktopGridConfig, DgScenario};
use crate::readings::{apply, label, Batch, Combination, ReadingRow, ReadingsTable};
use crate::stats::Verdict;

/// The bar jobs of figure `number` on `base`: its four mixes × the five policies.
pub fn jobs(number: u32, base: &DesktopGridConfig, rule: CiRule) -> Result<Vec<BarJob>, String> {
    let f = figures()
        .into_iter()
        .find(|f| f.number == number)
        .ok_or_else(|| format!("Fig. {number}: no such figure; [Anglano09] §IV-C has Figs. 2–17"))?;
    Ok(f.mixes
        .iter()
        .flat_map(|&mix| {
            super::bot_selection::BotSelection::ALL.iter().map(move |&policy| BarJob {
                figure: number,
                mix,
                policy,
                base: base.clone(),
                rule,
            })
        })
        .collect())
}

/// Runs figure `number`'s findings under each combination of readings applied to `base`; `run` runs a batch of
/// bar jobs (in parallel natively, in the worker pool on the page) and returns one result per job in order.
pub fn study(
    number: u32,
    base: &DesktopGridConfig,
    combos: &[Combination],
    rule: CiRule,
    run: Batch<'_, BarJob, Bar>,
) -> Result<ReadingsTable, String> {
    let f = figures()
        .into_iter()
        .find(|f| f.number == number)
        .ok_or_else(|| format!("Fig. {number}: no such figure; [Anglano09] §IV-C has Figs. 2–17"))?;
    let mut rows = Vec::new();
    for c in combos {
        let s = apply(&DgScenario::new(1, base.clone()), c)?;
        s.desktop_grid.validate().map_err(|e| format!("readings {}: {}: {}", label(c), e.field, e.message))?;
        let js = jobs(number, &s.desktop_grid, rule)?;
        let mut bars = Vec::new();
        let mut failures = Vec::new();
        for (j, r) in js.iter().zip(run(&js)) {
            match r {
                Ok(b) => bars.push(b),
                Err(e) => failures.push(format!("{} {}: {e}", j.mix.label(), j.policy.label())),
            }
        }
        let found = claims(&f, &bars);
        let unresolved = found.iter().any(|c| c.verdict == Verdict::Unresolved);
        rows.push(ReadingRow {
            label: label(c),
            seeds: bars.iter().map(|b| b.seeds as u32).max().unwrap_or(0),
            capped: unresolved && bars.iter().any(|b| b.cap_hit),
            claims: found,
            failures,
        });
    }
    Ok(ReadingsTable { figure: format!("fig{number}"), title: format!("Fig. {number} — {}", f.title), rows })
}
