//! Links that hold the pinned runs. The address (and so "Copy link") has, beside `scenario=`, one `pin=` per
//! pinned run of the scenario's family, oldest first, each a scenario written as `scenario=` writes one. Opened,
//! the page keeps them waiting: Run (or `autorun=1`) runs each of them and pins it, in order, then runs the link's
//! own scenario, so whoever opens the link sees the same runs side by side, with the same numbers, colours and
//! labels. A scripted policy is part of its scenario, so it travels with its run.

use crate::registry::{Family, Scenario};
use crate::share;
use crate::ui::lab::Lab;
use leptos::prelude::*;

/// The most pinned runs a link holds: as many as the charts have colours for pinned runs.
pub(crate) const MAX_PINS: usize = super::charts::PALETTE.len() - 1;

/// The pinned runs a link to `s` holds: those of its family, then the opened link's own still waiting to run.
fn pins(lab: Lab, s: &Scenario) -> Vec<Scenario> {
    let mut all = lab.families.of(s.family()).pinned_scenarios();
    lab.replay.with_untracked(|waiting| all.extend(waiting.iter().filter(|p| p.family() == s.family()).cloned()));
    all
}

/// What the address adds to `?scenario=…` for the pinned runs: `&pin=…` for each.
pub(crate) fn address_suffix(lab: Lab, s: &Scenario) -> String {
    pins(lab, s).iter().map(|p| format!("&pin={}", share::to_link(p))).collect()
}

/// The pinned runs of the link opened (`pin=`, in order), each checked as a link's scenario is, and of the
/// family of the link's scenario; the error names the pinned run and what is wrong with it.
pub(crate) fn read(params: &web_sys::UrlSearchParams, family: Family) -> Result<Vec<Scenario>, PinsError> {
    let texts: Vec<String> = params.get_all("pin").iter().filter_map(|v| v.as_string()).collect();
    if texts.len() > MAX_PINS {
        return Err(PinsError::TooMany { pins: texts.len() });
    }
    texts
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let s = share::from_link(text).map_err(|error| PinsError::Unreadable { run: i + 1, error })?;
            if s.family() != family {
                return Err(PinsError::OtherFamily { run: i + 1, pinned: s.family(), shown: family });
            }
            Ok(s)
        })
        .collect()
}

/// Why a link's pinned runs (`&pin=…`) cannot be replayed: the words name the pinned run and what is wrong.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum PinsError {
    /// More pinned runs than a link holds.
    TooMany { pins: usize },
    /// Pinned run `run` (1-based) is not a scenario.
    Unreadable { run: usize, error: crate::error::ScenarioError },
    /// Pinned run `run` is of another family than the link's scenario.
    OtherFamily { run: usize, pinned: Family, shown: Family },
}

impl std::fmt::Display for PinsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PinsError::TooMany { pins } => write!(f, "it holds {pins} pinned runs; a link holds at most {MAX_PINS}"),
            PinsError::Unreadable { run, error } => write!(f, "pinned run {run}: {error}"),
            PinsError::OtherFamily { run, pinned, shown } => write!(
                f,
                "pinned run {run} is a {} scenario beside a {} one; a link's pinned runs are of its scenario's family",
                pinned.name(),
                shown.name()
            ),
        }
    }
}

impl std::error::Error for PinsError {}

/// What the run bar says while the link's pinned runs wait for Run.
pub(crate) fn waiting_text(lab: Lab) -> Option<String> {
    let n = lab.replay.with_untracked(Vec::len);
    (n > 0).then(|| match n {
        1 => "This link holds a pinned run: Run runs it first and pins it, then this scenario.".to_string(),
        n => format!("This link holds {n} pinned runs: Run runs them first and pins them, then this scenario."),
    })
}

/// The scenario Run runs next, and whether it is one of the link's pinned runs: the first of them still waiting,
/// if it is of the family shown (a family switched to drops them), else the scenario shown.
pub(crate) fn next(lab: Lab) -> (Scenario, bool) {
    let shown = lab.scenario.get_untracked();
    let first = lab.replay.with_untracked(|w| w.first().cloned());
    match first {
        Some(p) if p.family() == shown.family() => (p, true),
        Some(_) => {
            lab.replay.set(Vec::new());
            (shown, false)
        }
        None => (shown, false),
    }
}

/// What the run bar says of a run of the link's pinned runs ("pinned run 1 of 2 from the link: …").
pub(crate) fn running_text(lab: Lab, text: String) -> String {
    let waiting = lab.replay.with_untracked(Vec::len);
    if waiting == 0 {
        return text;
    }
    let total = waiting + lab.families.of(lab.run_family.get_untracked()).pinned_scenarios().len();
    format!("pinned run {} of {total} from the link: {text}", total - waiting + 1)
}

/// A run has finished: if it was one of the link's pinned runs, it is pinned and the next run starts (the next
/// pinned run, or the link's own scenario).
pub(crate) fn on_finished(lab: Lab) {
    if lab.replay.with_untracked(Vec::is_empty) {
        return;
    }
    lab.families.of(lab.run_family.get_untracked()).pin_finished();
    lab.replay.update(|w| {
        w.remove(0);
    });
    lab.start_run();
}

/// A run stopped (cancelled or failed): the link's pinned runs still waiting are dropped, and the run bar says so.
pub(crate) fn on_stopped(lab: Lab) {
    let n = lab.replay.with_untracked(Vec::len);
    if n > 0 {
        lab.replay.set(Vec::new());
        lab.message.update(|m| m.push_str(&format!(" (the link's {n} pinned run(s) still to run were dropped)")));
    }
}
