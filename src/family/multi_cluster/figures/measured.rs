//! The findings of [Iosup08] §5 claim by claim, as measured with this version on the CLI's base and kept with the
//! project (`measured.tsv`): each finding's verdict on the month and the readings that flip it. docs/model.md
//! ("Claim by claim") and the page's paper panel show this same table; the tests below check that it lists every
//! finding the figures test, and that the docs print it unchanged. `bagsim figure multi_cluster all --out STEM`
//! writes the first three columns of a new measurement (STEM-findings.tsv); "flipped by" comes from
//! `--readings KEY=all` runs, as docs/model.md says.

use super::claims::claims;
use super::{FigureId, FigureResult};
use crate::stats::{Claim, Verdict};

/// The table: `figure`, `finding` (its number within the figure, from 1), `verdict` (on the base below),
/// `flipped_by` (readings that give another verdict, `none`, or what was not measured).
pub const MEASURED: &str = include_str!("measured.tsv");

/// How and on what the table was measured.
pub const MEASURED_ON: &str = include_str!("measured_on.txt");

/// The verdict named by its label.
pub fn verdict_of(label: &str) -> Option<Verdict> {
    [Verdict::Agrees, Verdict::Disagrees, Verdict::Unresolved, Verdict::NoData, Verdict::NotMeasured]
        .into_iter()
        .find(|v| v.label() == label)
}

/// The findings figure `id` tests, in order (the paper's words; no result needed).
pub fn findings(id: FigureId) -> Vec<String> {
    claims(&FigureResult::new(id.figure(), 1)).into_iter().map(|c| c.paper).collect()
}

/// The measured rows of figure `id` as findings: the paper's words, "flipped by …" as ours, and the verdict.
pub fn measured(id: FigureId) -> Vec<Claim> {
    let words = findings(id);
    rows()
        .filter(|r| r.0 == id.name())
        .map(|(_, n, verdict, flipped)| Claim {
            paper: n.checked_sub(1).and_then(|i| words.get(i)).cloned().unwrap_or_default(),
            ours: format!("flipped by: {flipped}"),
            verdict: verdict_of(verdict).unwrap_or(Verdict::NoData),
        })
        .collect()
}

/// The rows of the table after its header: (figure, finding number, verdict, flipped by).
fn rows() -> impl Iterator<Item = (&'static str, usize, &'static str, &'static str)> {
    MEASURED.lines().skip(1).filter(|l| !l.trim().is_empty()).map(|l| {
        let mut f = l.split('\t');
        let mut next = || f.next().unwrap_or("").trim();
        (next(), next().parse().unwrap_or(0), next(), next())
    })
}

/// The table as docs/model.md prints it.
pub fn markdown() -> String {
    let mut out = String::from("| figure | finding (the paper) | verdict | flipped by |\n|---|---|---|---|\n");
    for id in FigureId::ALL {
        for (n, c) in measured(id).iter().enumerate() {
            let short: String = c.paper.chars().take(90).collect();
            let more = if short.len() < c.paper.len() { "…" } else { "" };
            let flipped = c.ours.trim_start_matches("flipped by: ");
            out.push_str(&format!(
                "| {} #{} | {short}{more} | {} | {flipped} |\n",
                id.name(),
                n + 1,
                c.verdict.label()
            ));
        }
    }
    let tally = |v: Verdict| FigureId::ALL.iter().flat_map(|&id| measured(id)).filter(|c| c.verdict == v).count();
    out.push_str(&format!(
        "\nTotals: {} agree, {} disagree, {} not resolved, {} no data, {} not measured.\n",
        tally(Verdict::Agrees),
        tally(Verdict::Disagrees),
        tally(Verdict::Unresolved),
        tally(Verdict::NoData),
        tally(Verdict::NotMeasured)
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_lists_every_finding_of_every_figure_once_with_a_verdict() {
        let all: Vec<_> = rows().collect();
        for id in FigureId::ALL {
            let numbers: Vec<usize> = all.iter().filter(|r| r.0 == id.name()).map(|r| r.1).collect();
            let want: Vec<usize> = (1..=findings(id).len()).collect();
            assert_eq!(numbers, want, "{}: the table's findings are not the figure's", id.name());
        }
        assert_eq!(all.len(), FigureId::ALL.iter().map(|&id| findings(id).len()).sum::<usize>(), "rows of no figure");
        for r in &all {
            assert!(verdict_of(r.2).is_some(), "{} #{}: {:?} is not a verdict", r.0, r.1, r.2);
            assert!(!r.3.is_empty(), "{} #{}: no 'flipped by'", r.0, r.1);
        }
        assert!(!MEASURED_ON.trim().is_empty());
    }

    #[test]
    fn the_docs_print_the_measured_table_unchanged() {
        let docs = include_str!("../../../../docs/model.md");
        let table = markdown();
        assert!(docs.contains(&table), "docs/model.md does not hold the measured table; put this in it:\n{table}");
        assert!(docs.contains(MEASURED_ON.trim()), "docs/model.md does not say how the table was measured");
    }
}
