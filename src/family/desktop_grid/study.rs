//! A readings study of one figure of [Anglano09] §IV-C: its findings (`claims`) under every combination of
//! readings (docs/desktop_grid.md, "Readings"). Each bar adds seeds as the figure's rule says (until its saturation
//! is resolved and its intervals are within 2.5%, up to the cap), so a finding left open at the cap says so. A
//! `Plan` lists the bar jobs of every combination; the CLI runs them in a thread pool, the page in its worker pool,
//! and `Plan::table` turns their results into the table.

use super::bot_selection::BotSelection;
use super::claims::claims;
use super::figures::{figures, Bar, BarJob, CiRule, FigurePreset};
use super::{DesktopGridConfig, DgScenario};
use crate::readings::{apply, label, Batch, Combination, ReadingRow, ReadingsTable};
use crate::stats::Verdict;

/// The bar jobs of a study: per combination of readings, the figure's four mixes × the five policies.
pub struct Plan {
    figure: FigurePreset,
    labels: Vec<String>,
    /// (combination, job), combination-major.
    pub jobs: Vec<(usize, BarJob)>,
}

/// Figure `number` of §IV-C.
pub fn figure(number: u32) -> Result<FigurePreset, String> {
    figures()
        .into_iter()
        .find(|f| f.number == number)
        .ok_or_else(|| format!("Fig. {number}: no such figure; [Anglano09] §IV-C has Figs. 2–17"))
}

/// The plan of figure `number` under each combination applied to `base`; refused, naming the combination, when
/// one gives an invalid configuration.
pub fn plan(number: u32, base: &DesktopGridConfig, combos: &[Combination], rule: CiRule) -> Result<Plan, String> {
    let f = figure(number)?;
    let mut jobs = Vec::new();
    for (k, c) in combos.iter().enumerate() {
        let s = apply(&DgScenario::new(1, base.clone()), c)?;
        s.desktop_grid.validate().map_err(|e| format!("readings {}: {}: {}", label(c), e.field, e.message))?;
        for &mix in &f.mixes {
            for &policy in &BotSelection::ALL {
                jobs.push((k, BarJob { figure: number, mix, policy, base: s.desktop_grid.clone(), rule }));
            }
        }
    }
    Ok(Plan { figure: f, labels: combos.iter().map(label).collect(), jobs })
}

impl Plan {
    /// The table from the jobs' results, in the order of `jobs`.
    pub fn table(&self, results: &[Result<Bar, String>]) -> ReadingsTable {
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
    base: &DesktopGridConfig,
    combos: &[Combination],
    rule: CiRule,
    run: Batch<'_, BarJob, Bar>,
) -> Result<ReadingsTable, String> {
    let p = plan(number, base, combos, rule)?;
    let jobs: Vec<BarJob> = p.jobs.iter().map(|(_, j)| j.clone()).collect();
    Ok(p.table(&run(&jobs)))
}

/// A finding's verdict under the first combination of a table (the defaults, when every axis lists its values
/// default first, as `KEY=all` does) and the combinations under which it is different.
#[derive(Clone, Debug, PartialEq)]
pub struct Flip {
    pub paper: String,
    pub default: Verdict,
    /// (combination, its verdict) where the verdict differs from the default's.
    pub flipped_by: Vec<(String, Verdict)>,
}

impl Flip {
    /// `agrees; flipped by fcfs_share=rep_thresh (disagrees)`, or `agrees; no reading flips it`.
    pub fn text(&self) -> String {
        if self.flipped_by.is_empty() {
            return format!("{} under the defaults; no reading flips it", self.default.label());
        }
        let by: Vec<String> = self.flipped_by.iter().map(|(l, v)| format!("{l} ({})", v.label())).collect();
        format!("{} under the defaults; flipped by {}", self.default.label(), by.join(", "))
    }
}

/// For each finding of `table`, its verdict under the first row and the rows that change it.
pub fn flips(table: &ReadingsTable) -> Vec<Flip> {
    let Some(first) = table.rows.first() else { return Vec::new() };
    first
        .claims
        .iter()
        .enumerate()
        .map(|(k, c)| Flip {
            paper: c.paper.clone(),
            default: c.verdict,
            flipped_by: table.rows[1..]
                .iter()
                .filter_map(|r| {
                    r.claims.get(k).filter(|o| o.verdict != c.verdict).map(|o| (r.label.clone(), o.verdict))
                })
                .collect(),
        })
        .collect()
}

/// The flips of `table` as a Markdown section (appended to `bagsim dg-figure --readings`'s table).
pub fn flips_markdown(table: &ReadingsTable) -> String {
    let mut out = String::from("\n## Which reading flips each finding\n\n| the paper reports | verdict |\n|---|---|\n");
    for f in flips(table) {
        out.push_str(&format!("| \"{}\" | {} |\n", f.paper, f.text()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::readings::ReadingRow;
    use crate::stats::Claim;

    fn row(label: &str, verdicts: &[Verdict]) -> ReadingRow {
        let claims = verdicts
            .iter()
            .enumerate()
            .map(|(k, &verdict)| Claim { paper: format!("finding {k}"), ours: String::new(), verdict })
            .collect();
        ReadingRow { label: label.into(), seeds: 5, capped: false, claims, failures: Vec::new() }
    }

    /// A finding flips under the rows whose verdict differs from the first row's, and only those.
    #[test]
    fn flips_name_the_rows_that_change_a_verdict() {
        use Verdict::*;
        let t = ReadingsTable {
            figure: "fig2".into(),
            title: "Fig. 2".into(),
            rows: vec![
                row("k=a", &[Agrees, Unresolved]),
                row("k=b", &[Agrees, Disagrees]),
                row("k=c", &[Disagrees, Unresolved]),
            ],
        };
        let f = flips(&t);
        assert_eq!(f[0].flipped_by, vec![("k=c".to_string(), Disagrees)]);
        assert_eq!(f[1].flipped_by, vec![("k=b".to_string(), Disagrees)]);
        assert_eq!(f[0].text(), "agrees under the defaults; flipped by k=c (disagrees)");
        let one = ReadingsTable { rows: vec![row("defaults", &[Agrees, Agrees])], ..t };
        assert!(flips(&one).iter().all(|f| f.flipped_by.is_empty()));
        assert!(flips_markdown(&one).contains("no reading flips it"));
    }
}
