//! A readings study of one figure of [Anglano09] §IV-C: its findings (`claims`) under every combination of
//! readings (docs/desktop_grid.md, "Readings"). Each bar adds seeds as the figure's rule says (until its saturation
//! is resolved and its intervals are within 2.5%, up to the cap), so a finding left open at the cap says so. A
//! `Plan` lists the bar jobs of every combination; the CLI runs them in a thread pool, the page in its worker pool,
//! and `Plan::table` turns their results into the table.

use super::claims::claims;
use super::{figures, Bar, BarJob, CiRule, FigurePreset};
use crate::family::desktop_grid::config::{DgConfig, DgScenario};
use crate::family::desktop_grid::policy::BotSelection;
use crate::readings::{
    apply, invalid, label, refuse_overridden, Batch, Combination, ReadingRow, ReadingsError, ReadingsTable,
};
use crate::stats::Verdict;

/// The bar jobs of a study: per combination of readings, the figure's four mixes × the five policies.
pub struct Plan {
    figure: FigurePreset,
    labels: Vec<String>,
    /// (combination, job), combination-major.
    pub jobs: Vec<(usize, BarJob)>,
}

/// Figure `number` of §IV-C.
pub fn figure(number: u32) -> Result<FigurePreset, ReadingsError> {
    figures().into_iter().find(|f| f.number == number).ok_or_else(|| {
        ReadingsError::NoFigure(format!("Fig. {number}: no such figure; [Anglano09] §IV-C has Figs. 2–17"))
    })
}

/// The plan of figure `number` under each combination applied to `base`; refused, naming the combination, when
/// one gives an invalid configuration.
pub fn plan(number: u32, base: &DgConfig, combos: &[Combination], rule: CiRule) -> Result<Plan, ReadingsError> {
    let f = figure(number)?;
    let runs = |s: &DgScenario| {
        let all: Vec<DgScenario> = (f.mixes.iter())
            .flat_map(|&mix| BotSelection::ALL.iter().map(move |&p| (mix, p)))
            .map(|(mix, p)| f.scenario(&s.desktop_grid, mix, &p.into(), 1))
            .collect();
        serde_json::to_string(&all).expect("plain data")
    };
    refuse_overridden(&format!("Fig. {number}"), &DgScenario::new(1, base.clone()), combos, &runs)?;
    let mut jobs = Vec::new();
    for (k, c) in combos.iter().enumerate() {
        let s = apply(&DgScenario::new(1, base.clone()), c)?;
        s.desktop_grid.validate().map_err(invalid(c))?;
        for &mix in &f.mixes {
            for &policy in &BotSelection::ALL {
                let policy = policy.into();
                jobs.push((k, BarJob { figure: number, mix, policy, base: s.desktop_grid.clone(), rule }));
            }
        }
    }
    Ok(Plan { figure: f, labels: combos.iter().map(label).collect(), jobs })
}

impl Plan {
    /// The table from the jobs' results, in the order of `jobs` (a failed job's error as the table says it).
    pub fn table<E: std::fmt::Display>(&self, results: &[Result<Bar, E>]) -> ReadingsTable {
        let rows = self
            .labels
            .iter()
            .enumerate()
            .map(|(k, name)| {
                let mut bars = Vec::new();
                let mut failures = Vec::new();
                for ((c, job), r) in self.jobs.iter().zip(results) {
                    match r {
                        Ok(b) if *c == k => bars.push(b.clone()),
                        Err(e) if *c == k => failures.push(format!("{} {}: {e}", job.mix.label(), job.policy.label())),
                        _ => {}
                    }
                }
                let found = claims(&self.figure, &bars);
                let open = found.iter().any(|c| c.verdict == Verdict::Unresolved);
                ReadingRow {
                    label: name.clone(),
                    seeds: bars.iter().map(|b| b.seeds as u32).max().unwrap_or(0),
                    capped: open && bars.iter().any(|b| b.cap_hit),
                    claims: found,
                    failures,
                }
            })
            .collect();
        ReadingsTable {
            figure: format!("fig{}", self.figure.number),
            title: format!("Fig. {} — {}", self.figure.number, self.figure.title),
            rows,
        }
    }
}

/// Runs a whole study through `run` (one result per bar job, in order).
pub fn study(
    number: u32,
    base: &DgConfig,
    combos: &[Combination],
    rule: CiRule,
    run: Batch<'_, BarJob, Bar>,
) -> Result<ReadingsTable, ReadingsError> {
    let p = plan(number, base, combos, rule)?;
    let jobs: Vec<BarJob> = p.jobs.iter().map(|(_, j)| j.clone()).collect();
    Ok(p.table(&run(&jobs)))
}
