//! A figure of [Liu10] §IV as a list of runs, and its findings under every combination of readings
//! (docs/data_grid.md, "Readings"). A `Plan` lists the runs (figure, group, scheme, seed, section); whoever runs
//! them (the CLI's thread pool, a study's shards on Slurm) gives back each run's value of the figure's metric, and
//! `Plan::values` and `Plan::table` turn them into the figure's bars and the readings table.

use super::{figures, Figure, FigureResult};
use crate::family::contract::{FigureOutcome, PointError};
use crate::family::data_grid::config::DdScenario;
use crate::family::data_grid::config::{DdConfig, Scheme, SchemePolicy};
use crate::readings::{
    apply, invalid, label, refuse_overridden, Combination, ReadingRow, ReadingsError, ReadingsTable,
};
use crate::stats::Claim;
use serde::{Deserialize, Serialize};

/// One run of a figure: bar (`group`, `scheme`) at `seed`, with the section it runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DdFigureRun {
    pub figure: u32,
    pub group: usize,
    /// Index of the bar's series: in `Scheme::ALL`, then 3 for a scripted base's own script (`series`).
    pub scheme: usize,
    pub seed: u64,
    pub data_grid: DdConfig,
}

impl DdFigureRun {
    /// The scenario this run simulates.
    pub fn scenario(&self) -> DdScenario {
        DdScenario::new(self.seed, self.data_grid.clone())
    }

    /// The labels of the run in a study's table: figure, group, scheme, seed.
    pub fn labels(&self, f: &Figure) -> Vec<String> {
        vec![
            self.figure.to_string(),
            f.groups[self.group].0.to_string(),
            self.data_grid.scheme.name().to_string(),
            self.seed.to_string(),
        ]
    }
}

/// Why [Liu10]'s last figures are not among ours.
const SDSC: &str = " (Figs. 10 and 11 are of the SDSC log, which is not bundled)";

/// Figure `number` of [Liu10] on the bundled log.
pub fn figure(number: u32) -> Result<Figure, ReadingsError> {
    figures()
        .into_iter()
        .find(|f| f.number == number)
        .ok_or_else(|| ReadingsError::NoFigure(format!("Fig. {number}: no such figure; allowed: 4 … 9{SDSC}")))
}

/// The figures `which` names: `4` … `9`, `fig4`, or `all`.
pub fn chosen(which: &str) -> FigureOutcome<Vec<Figure>> {
    let numbers: Vec<u32> = figures().iter().map(|f| f.number).collect();
    let chosen = crate::family::contract::figure_numbers(which, &numbers, SDSC)?;
    Ok(figures().into_iter().filter(|f| chosen.contains(&f.number)).collect())
}

/// The schemes of a figure's bars in each group, from `base`: the paper's three (§III), then the base's own script
/// when it scripts the scheme (docs/policies.md). The findings are the paper's and judge its three alone.
pub fn series(base: &DdConfig) -> Vec<SchemePolicy> {
    let mut all: Vec<SchemePolicy> = Scheme::ALL.iter().map(|&s| s.into()).collect();
    if base.scheme.script().is_some() {
        all.push(base.scheme.clone());
    }
    all
}

/// The runs of figure `number` under each combination of readings applied to `base`, `seeds` seeds per bar.
pub struct Plan {
    pub figure: Figure,
    /// How many series each group has (`series`).
    series: usize,
    labels: Vec<String>,
    /// (combination, run), combination-major, then group, scheme, seed.
    pub runs: Vec<(usize, DdFigureRun)>,
}

/// The plan of figure `number`; refused, naming the combination, when one gives an invalid section. Under readings
/// a scripted base's script is not run: a readings table judges the paper's findings alone.
pub fn plan(number: u32, base: &DdConfig, combos: &[Combination], seeds: u64) -> Result<Plan, ReadingsError> {
    let f = figure(number)?;
    let mut schemes = series(base);
    if combos.iter().any(|c| !c.is_empty()) {
        schemes.truncate(Scheme::ALL.len());
    }
    let one_seed = |s: &DdScenario| {
        let all: Vec<DdScenario> = (0..f.groups.len())
            .flat_map(|g| schemes.iter().map(move |scheme| (g, scheme)))
            .map(|(g, scheme)| DdScenario::new(1, f.config(&s.data_grid, g, scheme)))
            .collect();
        serde_json::to_string(&all).expect("plain data")
    };
    refuse_overridden(&format!("Fig. {number}"), &DdScenario::new(1, base.clone()), combos, &one_seed)?;
    let mut runs = Vec::new();
    for (k, c) in combos.iter().enumerate() {
        let s = apply(&DdScenario::new(1, base.clone()), c)?;
        for g in 0..f.groups.len() {
            for (si, scheme) in schemes.iter().enumerate() {
                let data_grid = f.config(&s.data_grid, g, scheme);
                data_grid.validate().map_err(invalid(c))?;
                for seed in 1..=seeds {
                    let run = DdFigureRun { figure: number, group: g, scheme: si, seed, data_grid: data_grid.clone() };
                    runs.push((k, run));
                }
            }
        }
    }
    Ok(Plan { figure: f, series: schemes.len(), labels: combos.iter().map(label).collect(), runs })
}

impl Plan {
    /// The values of combination `k`: `[group][series]` over seeds, in seed order, and the runs that failed.
    pub fn values(&self, k: usize, results: &[Result<f64, PointError>]) -> (Vec<Vec<Vec<f64>>>, Vec<String>) {
        let mut values = vec![vec![Vec::new(); self.series]; self.figure.groups.len()];
        let mut failures = Vec::new();
        for ((c, run), r) in self.runs.iter().zip(results) {
            if *c != k {
                continue;
            }
            match r {
                Ok(v) => values[run.group][run.scheme].push(*v),
                Err(e) => failures.push(format!("{}: {e}", run.labels(&self.figure).join(" "))),
            }
        }
        (values, failures)
    }

    /// The readings table from the runs' values, in the order of `runs`.
    pub fn table(&self, results: &[Result<f64, PointError>]) -> ReadingsTable {
        let rows = self
            .labels
            .iter()
            .enumerate()
            .map(|(k, name)| {
                let (values, failures) = self.values(k, results);
                let r = FigureResult::of(&self.figure, &values);
                let claims =
                    r.claims().into_iter().map(|(paper, ours, verdict)| Claim { paper, ours, verdict }).collect();
                let seeds = values.iter().flatten().map(Vec::len).min().unwrap_or(0) as u32;
                ReadingRow { label: name.clone(), seeds, capped: false, claims, failures }
            })
            .collect();
        ReadingsTable {
            figure: format!("fig{}", self.figure.number),
            title: format!("Fig. {} — {}, {}", self.figure.number, self.figure.caption, self.figure.metric.title()),
            rows,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::readings::{combinations, parse_axis};

    #[test]
    fn a_plan_holds_every_bar_of_every_combination_once_per_seed() {
        let axes = [parse_axis("data_grid.walltime=all", crate::family::data_grid::readings::READINGS).unwrap()];
        let combos = combinations(&axes);
        let p = plan(4, &DdConfig::default(), &combos, 3).unwrap();
        assert_eq!(combos.len(), 2);
        assert_eq!(p.runs.len(), 2 * p.figure.groups.len() * 3 * 3);
        // The reading is set in its combination's runs, and the figure's group on top of it.
        assert!(p
            .runs
            .iter()
            .all(|(k, r)| (r.data_grid.walltime == crate::family::data_grid::config::Walltime::Kill) == (*k == 1)));
        let results: Vec<Result<f64, PointError>> =
            p.runs.iter().map(|(k, r)| Ok((k * 100 + r.scheme) as f64)).collect();
        let (values, failures) = p.values(1, &results);
        assert!(failures.is_empty());
        assert_eq!(values[0][2], vec![102.0; 3]);
        assert_eq!(p.table(&results).rows.len(), 2);
    }

    #[test]
    fn a_failed_run_is_named_in_its_row() {
        let p = plan(9, &DdConfig::default(), &[Vec::new()], 2).unwrap();
        let mut results: Vec<Result<f64, PointError>> = p.runs.iter().map(|_| Ok(1.0)).collect();
        results[0] = Err(PointError::Reported("boom".into()));
        let t = p.table(&results);
        assert_eq!(t.rows[0].failures.len(), 1);
        assert!(t.rows[0].failures[0].ends_with("boom"), "{:?}", t.rows[0].failures);
    }
}
