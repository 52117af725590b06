//! How a measured finding stands to a paper's: it agrees or disagrees only where the intervals say so.

/// How our numbers stand to a claim of the paper.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Agrees,
    Disagrees,
    /// The intervals overlap, or the claim holds for some series and not others.
    Unresolved,
    /// Not every run the finding depends on is in yet: no verdict is drawn from part of the data.
    Waiting,
    /// A series the finding compares has no value at a point it compares (no run finished a BoT or a job there):
    /// nothing is judged, whatever the other series show.
    NoData,
    /// A kept table's finding that was not measured on the version that keeps it (no runs behind it at all).
    NotMeasured,
}

impl Verdict {
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Agrees => "agrees",
            Verdict::Disagrees => "disagrees",
            Verdict::Unresolved => "not resolved",
            Verdict::Waiting => "waiting",
            Verdict::NoData => "no data",
            Verdict::NotMeasured => "not measured",
        }
    }

    /// Whether more seeds could resolve it: only an open comparison can (no data stays no data at more seeds of the
    /// same horizon, and a drawn verdict is final).
    pub fn is_open(self) -> bool {
        self == Verdict::Unresolved
    }
}

/// The verdict of a finding that compares `compared`: "no data" when one of them has no value (no finite mean:
/// no run finished a BoT or a job there), else what `judged` draws. Every family's findings are judged through
/// it, so that no verdict is ever drawn from no data.
pub fn judge(compared: &[super::Interval], judged: impl FnOnce() -> Verdict) -> Verdict {
    if compared.iter().all(super::Interval::has_data) {
        judged()
    } else {
        Verdict::NoData
    }
}

/// What more seeds would do for a finding left open by overlapping intervals: the most seeds any of its open pairs
/// would need to part, projected by [`super::Interval::seeds_to_part`] (if their means and spreads held), or that
/// some pair would not part within [`super::interval::MAX_PROJECTED_SEEDS`] (equal or very close means).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Parting {
    most: Option<usize>,
    beyond: bool,
}

impl Parting {
    /// Counts the pair `a`, `b` if its intervals overlap (both with bounds); a pair already apart adds nothing.
    pub fn add(&mut self, a: &super::Interval, b: &super::Interval) {
        if a.separated_from(b) || !a.has_bounds() || !b.has_bounds() {
            return;
        }
        match a.seeds_to_part(b) {
            Some(m) => self.most = Some(self.most.map_or(m, |k| k.max(m))),
            None => self.beyond = true,
        }
    }

    /// The pair's projection on its own.
    pub fn of(a: &super::Interval, b: &super::Interval) -> Parting {
        let mut p = Parting::default();
        p.add(a, b);
        p
    }

    /// The words appended to a finding ("; …"), empty when no open pair was counted.
    pub fn note(&self) -> String {
        match (self.beyond, self.most) {
            (true, _) => format!(
                "; what would resolve it: not more seeds alone (some means are too close for {} seeds to part their \
                 intervals)",
                super::interval::MAX_PROJECTED_SEEDS
            ),
            (false, Some(m)) => {
                format!("; what would resolve it: about {m} seeds per point, if the means and spreads held")
            }
            (false, None) => String::new(),
        }
    }
}

/// One finding of a paper and ours next to it: what we measured and how it stands.
#[derive(Clone, Debug)]
pub struct Claim {
    pub paper: String,
    pub ours: String,
    pub verdict: Verdict,
}

/// A figure's findings as a Markdown panel, as every family's figure command writes it (STEM-figN.md): a heading,
/// lines of setup (`what`, `value`), and the paper's words next to ours with the verdict.
pub fn findings_markdown(heading: &str, setup: &[(&str, String)], claims: &[Claim]) -> String {
    let mut out = format!("# {heading}\n\n");
    if !setup.is_empty() {
        out.push_str("| | |\n|---|---|\n");
        for (what, value) in setup {
            out.push_str(&format!("| {what} | {} |\n", value.replace('|', "/")));
        }
        out.push('\n');
    }
    out.push_str("| the paper reports | bagsim | verdict |\n|---|---|---|\n");
    for c in claims {
        out.push_str(&format!("| \"{}\" | {} | {} |\n", c.paper, c.ours.replace('|', "/"), c.verdict.label()));
    }
    out
}

#[cfg(test)]
mod parting_tests {
    use super::*;
    use crate::stats::Interval;

    #[test]
    fn a_finding_needs_the_seeds_of_its_hardest_pair() {
        let i = |mean: f64, reach: f64| Interval { n: 5, mean, low: mean - reach, high: mean + reach };
        let mut p = Parting::default();
        assert_eq!(p.note(), "", "nothing counted, nothing said");
        p.add(&i(10.0, 2.0), &i(30.0, 2.0));
        assert_eq!(p.note(), "", "a pair apart adds nothing");
        p.add(&i(10.0, 2.0), &i(12.0, 2.0)); // 13 seeds (interval.rs works it by hand)
        assert!(p.note().contains("about 13 seeds"), "{}", p.note());
        p.add(&i(10.0, 2.0), &i(11.0, 2.0)); // half the gap: more seeds
        let more = i(10.0, 2.0).seeds_to_part(&i(11.0, 2.0)).unwrap();
        assert!(more > 13 && p.note().contains(&format!("about {more} seeds")), "{}", p.note());
        p.add(&i(10.0, 2.0), &i(10.0, 2.0));
        assert!(p.note().contains("not more seeds alone"), "{}", p.note());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_findings_panel_keeps_its_table_whole() {
        let c = Claim { paper: "A beats B".into(), ours: "A 1 | B 2".into(), verdict: Verdict::Agrees };
        let md = findings_markdown("Fig. 1 — t", &[("seeds", "5".into())], &[c]);
        assert!(md.starts_with("# Fig. 1 — t\n"), "{md}");
        assert!(md.contains("| seeds | 5 |"), "{md}");
        assert!(md.contains("| \"A beats B\" | A 1 / B 2 | agrees |"), "{md}");
    }
}
