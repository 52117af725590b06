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
