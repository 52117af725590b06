//! A readings study of one figure: its findings under every combination of readings (docs/model.md,
//! "Readings"), each with seeds added until its verdicts resolve or a cap is reached when asked. The study runs in
//! rounds: `next_round` gives the runs still needed, `add` takes their results, and `end_round` decides, per
//! combination, whether more seeds are needed; the CLI runs a round in a thread pool, the page in its worker pool.

use super::claims::claims;
use super::{FigureId, FigureResult, RunResult, RunSpec};
use crate::family::multi_cluster::config::McScenario;
use crate::readings::{
    apply, invalid, label, refuse_overridden, Batch, Combination, ReadingRow, ReadingsError, ReadingsTable, Seeds,
};
use crate::stats::Verdict;

/// A study under way.
pub struct Study {
    id: FigureId,
    seeds: Seeds,
    labels: Vec<String>,
    scenarios: Vec<McScenario>,
    results: Vec<FigureResult>,
    /// Per combination: the first seed of the round under way, and whether its verdicts are final.
    from: Vec<u32>,
    done: Vec<bool>,
}

impl Study {
    /// A study of figure `id` under each combination of readings applied to `base` (the figure then sets its own
    /// series, load and axis); refused, naming the combination, when one gives an invalid scenario.
    pub fn new(id: FigureId, base: &McScenario, combos: &[Combination], seeds: Seeds) -> Result<Study, ReadingsError> {
        let runs = |s: &McScenario| {
            let specs = id.figure().runs_on(s, 1..=1);
            let all: Vec<&McScenario> = specs.iter().map(|r| &r.scenario).collect();
            serde_json::to_string(&all).expect("plain data")
        };
        refuse_overridden(id.name(), base, combos, &runs)?;
        let mut scenarios = Vec::new();
        for c in combos {
            let s = apply(base, c)?;
            s.validate().map_err(invalid(c))?;
            scenarios.push(s);
        }
        let n = combos.len();
        Ok(Study {
            id,
            seeds,
            labels: combos.iter().map(label).collect(),
            scenarios,
            results: vec![FigureResult::new(id.figure(), seeds.first()); n],
            from: vec![1; n],
            done: vec![false; n],
        })
    }

    /// The runs of the round: for every combination not final, its seeds not run yet; as (combination, run).
    pub fn next_round(&self) -> Vec<(usize, RunSpec)> {
        let mut out = Vec::new();
        for (c, r) in self.results.iter().enumerate() {
            if !self.done[c] {
                let specs = r.figure.runs_on(&self.scenarios[c], self.from[c]..=r.seeds);
                out.extend(specs.into_iter().map(|s| (c, s)));
            }
        }
        out
    }

    /// One run's result, or why it failed (as the table says it).
    pub fn add(&mut self, combo: usize, spec: &RunSpec, result: Result<RunResult, impl std::fmt::Display>) {
        let r = &mut self.results[combo];
        match result {
            Ok(x) => r.add(spec, x),
            Err(e) => r.failures.push(format!("{} seed {}: {e}", r.figure.series[spec.series], spec.seed)),
        }
    }

    /// Ends a round: a combination with a finding not resolved gets more seeds while `Seeds` allows; the others are
    /// final. True when every combination is final.
    pub fn end_round(&mut self) -> bool {
        for c in 0..self.results.len() {
            if self.done[c] {
                continue;
            }
            let r = &mut self.results[c];
            let open = claims(r).iter().any(|x| x.verdict == Verdict::Unresolved);
            match self.seeds.next(r.seeds) {
                Some(more) if open && r.failures.is_empty() => {
                    self.from[c] = r.seeds + 1;
                    r.grow(more);
                }
                _ => self.done[c] = true,
            }
        }
        self.done.iter().all(|d| *d)
    }

    /// The table of the findings as they stand.
    pub fn table(&self) -> ReadingsTable {
        let figure = self.id.figure();
        let rows = self
            .results
            .iter()
            .enumerate()
            .map(|(c, r)| {
                let found = claims(r);
                let open = found.iter().any(|x| x.verdict == Verdict::Unresolved);
                ReadingRow {
                    label: self.labels[c].clone(),
                    seeds: r.seeds,
                    capped: open && self.done[c] && self.seeds.cap().is_some_and(|cap| r.seeds >= cap),
                    claims: found,
                    failures: r.failures.clone(),
                }
            })
            .collect();
        ReadingsTable {
            figure: self.id.name().to_string(),
            title: format!("{} — {}", self.id.name().replace("fig", "Figure "), figure.title),
            rows,
        }
    }
}

/// Runs a whole study, each round through `run` (one result per run, in order).
pub fn study(
    id: FigureId,
    base: &McScenario,
    combos: &[Combination],
    seeds: Seeds,
    run: Batch<'_, RunSpec, RunResult>,
) -> Result<ReadingsTable, ReadingsError> {
    let mut s = Study::new(id, base, combos, seeds)?;
    loop {
        let round = s.next_round();
        let specs: Vec<RunSpec> = round.iter().map(|(_, spec)| spec.clone()).collect();
        for ((c, spec), r) in round.iter().zip(run(&specs)) {
            s.add(*c, spec, r);
        }
        if s.end_round() {
            return Ok(s.table());
        }
    }
}
