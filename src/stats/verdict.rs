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
}

impl Verdict {
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Agrees => "agrees",
            Verdict::Disagrees => "disagrees",
            Verdict::Unresolved => "not resolved",
            Verdict::Waiting => "waiting",
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
