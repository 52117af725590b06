//! The finding sentences of [Anglano09] §IV-C claim by claim, as measured with this version on the defaults and kept
//! with the project (`measured.tsv`): for each sentence, the figures whose findings test it and the verdict in each,
//! the verdict on the defaults and before issue #42, and the readings that flip it. docs/desktop_grid.md ("Claim by
//! claim") and the page's paper-figures panel show this same table; the tests below check it against the figures'
//! findings and the readings, and that the docs print it unchanged. The table is not made by one command: each
//! `bagsim figure desktop_grid all --readings desktop_grid.KEY=all` run gives its key's column of flips
//! ([`MEASURED_ON`]).

use crate::stats::Verdict;

/// The table: `id` (F1, F2, …; a sentence split in two gets a `b`), `statement` (the saturation statement S1–S9 of
/// docs/desktop_grid.md it is, or `—`), `sentence` (the finding in our words), `checked_in` (`FIG V` per figure
/// whose findings test it, V one of [`SYMBOLS`], or `—`), `verdict` (on the defaults), `before` (before issue #42,
/// or `—`), `flipped_by` (`key=value→V (Fig. …)` per reading that gives another verdict, `none`, or `—`).
pub const MEASURED: &str = include_str!("measured.tsv");

/// How and on what the table was measured.
pub const MEASURED_ON: &str = include_str!("measured_on.txt");

/// The verdicts over all the figures' findings (not the sentences), before issue #42 and on the defaults.
pub const TALLIES: &str = include_str!("measured_tallies.txt");

/// The table's verdicts: its symbol and the verdict it stands for. "not checked": no finding tests the sentence.
pub const SYMBOLS: [(&str, Verdict); 4] = [
    ("A", Verdict::Agrees),
    ("D", Verdict::Disagrees),
    ("?", Verdict::Unresolved),
    ("not checked", Verdict::NotMeasured),
];

/// The table's mark of an empty cell.
pub const NONE: &str = "—";

/// One finding sentence as measured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub id: &'static str,
    pub statement: &'static str,
    pub sentence: &'static str,
    pub checked_in: &'static str,
    pub verdict: &'static str,
    pub before: &'static str,
    pub flipped_by: &'static str,
}

impl Row {
    /// The verdict on the defaults (`None` for a symbol the table does not use).
    pub fn verdict(&self) -> Option<Verdict> {
        verdict_of(self.verdict)
    }

    /// The id as the docs print it: `F4 (S1)` for a sentence that is a saturation statement.
    pub fn label(&self) -> String {
        if self.statement == NONE {
            self.id.to_string()
        } else {
            format!("{} ({})", self.id, self.statement)
        }
    }

    /// The verdict cell as the docs print it: `A (before: D)`, or `not checked`.
    pub fn verdict_cell(&self) -> String {
        if self.before == NONE {
            self.verdict.to_string()
        } else {
            format!("{} (before: {})", self.verdict, self.before)
        }
    }
}

/// The verdict a symbol of the table stands for.
pub fn verdict_of(symbol: &str) -> Option<Verdict> {
    SYMBOLS.iter().find(|(s, _)| *s == symbol).map(|&(_, v)| v)
}

/// The rows of the table after its header.
pub fn rows() -> Vec<Row> {
    MEASURED
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let mut f = l.split('\t').map(str::trim);
            let mut next = || f.next().unwrap_or("");
            Row {
                id: next(),
                statement: next(),
                sentence: next(),
                checked_in: next(),
                verdict: next(),
                before: next(),
                flipped_by: next(),
            }
        })
        .collect()
}

/// The table as docs/desktop_grid.md prints it.
pub fn markdown() -> String {
    let mut out = String::from(
        "| | finding sentence (§IV-C) | checked in | verdict (before) | flipped by |\n|---|---|---|---|---|\n",
    );
    for r in rows() {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            r.label(),
            r.sentence,
            r.checked_in,
            r.verdict_cell(),
            r.flipped_by
        ));
    }
    out
}

/// `text` with its runs of white space made one space (the docs wrap their prose).
pub fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::desktop_grid::figures::claims::claims;
    use crate::family::desktop_grid::figures::figures;
    use crate::family::desktop_grid::readings::READINGS;

    /// The `checked in` cell as (figure, symbol) pairs: `4 ?, 5 A` gives (4, "?"), (5, "A").
    fn checked(r: &Row) -> Vec<(u32, &'static str)> {
        if r.checked_in == NONE {
            return Vec::new();
        }
        r.checked_in
            .split(", ")
            .map(|e| {
                let (fig, v) = e.split_once(' ').unwrap_or((e, ""));
                (fig.parse().unwrap_or_else(|_| panic!("{}: {e:?} names no figure", r.id)), v)
            })
            .collect()
    }

    /// The verdict of a sentence over its figures: agrees when it agrees in all, disagrees when it disagrees in any.
    fn over(checks: &[(u32, &str)]) -> &'static str {
        if checks.iter().any(|c| c.1 == "D") {
            "D"
        } else if checks.iter().all(|c| c.1 == "A") {
            "A"
        } else {
            "?"
        }
    }

    #[test]
    fn the_table_lists_every_sentence_once_with_the_verdict_its_figures_give() {
        let rows = rows();
        let numbers: Vec<(u32, bool)> = rows
            .iter()
            .map(|r| {
                let n = r.id.strip_prefix('F').unwrap_or_else(|| panic!("{:?} is not F<n>", r.id));
                let split = n.ends_with('b');
                (n.trim_end_matches('b').parse().unwrap_or_else(|_| panic!("{:?} is not F<n>", r.id)), split)
            })
            .collect();
        let plain: Vec<u32> = numbers.iter().filter(|n| !n.1).map(|n| n.0).collect();
        assert_eq!(plain, (1..=39).collect::<Vec<_>>(), "the sentences are not F1..F39 in order");
        for (i, n) in numbers.iter().enumerate().filter(|(_, n)| n.1) {
            assert!(i > 0 && numbers[i - 1].0 == n.0, "{}b does not follow F{}", n.0, n.0);
        }
        let known: Vec<u32> = figures().iter().map(|f| f.number).collect();
        for r in &rows {
            let statement = r.statement.strip_prefix('S').and_then(|s| s.parse::<u32>().ok());
            assert!(
                r.statement == NONE || statement.is_some_and(|s| (1..=9).contains(&s)),
                "{}: {:?}",
                r.id,
                r.statement
            );
            assert!(r.verdict().is_some(), "{}: {:?} is not a verdict", r.id, r.verdict);
            let checks = checked(r);
            if checks.is_empty() {
                assert_eq!(
                    (r.verdict, r.before, r.flipped_by),
                    ("not checked", NONE, NONE),
                    "{}: checked nowhere",
                    r.id
                );
                continue;
            }
            for &(fig, v) in &checks {
                assert!(known.contains(&fig), "{}: Fig. {fig} is not a figure", r.id);
                assert!(["A", "D", "?"].contains(&v), "{}: Fig. {fig}'s {v:?} is not a verdict", r.id);
            }
            assert_eq!(r.verdict, over(&checks), "{}: the verdict is not its figures' ({})", r.id, r.checked_in);
            assert!(["A", "D", "?"].contains(&r.before), "{}: before {:?}", r.id, r.before);
        }
    }

    #[test]
    fn every_flip_names_another_value_of_a_reading_and_another_verdict_in_its_figures() {
        for r in rows().iter().filter(|r| r.flipped_by != NONE && r.flipped_by != "none") {
            let checks = checked(r);
            for flip in r.flipped_by.split("; ") {
                let bad = || format!("{}: {flip:?} is not key=value→V (Fig. …)", r.id);
                let (setting, rest) = flip.split_once('→').unwrap_or_else(|| panic!("{}", bad()));
                let (key, value) = setting.split_once('=').unwrap_or_else(|| panic!("{}", bad()));
                let (v, figs) = rest.split_once(" (Fig. ").unwrap_or_else(|| panic!("{}", bad()));
                let reading = READINGS.iter().find(|x| x.key == format!("desktop_grid.{key}"));
                let names = reading.unwrap_or_else(|| panic!("{}: {key} is not a reading", r.id)).names();
                assert!(names.iter().skip(1).any(|n| *n == value), "{}: {value} is not another value of {key}", r.id);
                for fig in figs.trim_end_matches(')').split(", ") {
                    let fig: u32 = fig.parse().unwrap_or_else(|_| panic!("{}", bad()));
                    let here: Vec<&str> = checks.iter().filter(|c| c.0 == fig).map(|c| c.1).collect();
                    assert!(!here.is_empty(), "{}: {flip} names Fig. {fig}, which does not test it", r.id);
                    assert!(here.iter().any(|h| *h != v), "{}: {flip} gives Fig. {fig}'s own verdict", r.id);
                }
            }
        }
    }

    #[test]
    fn the_tallies_count_every_finding_of_the_figures_once() {
        let findings: usize = figures().iter().map(|f| claims(f, &[]).len()).sum();
        let text = one_line(TALLIES);
        assert!(
            text.starts_with(&format!("over the {findings} findings")),
            "the tallies are not over {findings}: {text}"
        );
        for part in text.split_once(": ").map_or(text.as_str(), |p| p.1).split("; ") {
            let words: Vec<&str> = part.split(' ').collect();
            let counts: Vec<usize> = words
                .windows(2)
                .filter(|w| ["agree,", "disagree,", "not", "no"].contains(&w[1]))
                .filter_map(|w| w[0].parse().ok())
                .collect();
            assert_eq!(counts.len(), 4, "{part:?} does not give the four verdicts");
            assert_eq!(counts.iter().sum::<usize>(), findings, "{part:?} does not count {findings} findings");
        }
    }

    #[test]
    fn the_docs_print_the_measured_table_unchanged() {
        let docs = include_str!("../../../../docs/desktop_grid.md");
        let table = markdown();
        assert!(
            docs.contains(&table),
            "docs/desktop_grid.md does not hold the measured table; put this in it:\n{table}"
        );
        let prose = one_line(docs);
        assert!(prose.contains(&one_line(MEASURED_ON)), "docs/desktop_grid.md does not say how the table was measured");
        assert!(prose.contains(&one_line(TALLIES)), "docs/desktop_grid.md does not give the tallies");
    }
}
