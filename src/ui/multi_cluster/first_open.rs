//! The first open: a visitor with no saved scenario, no share link and no lesson in the address sees a result
//! without a click. The page runs the default month at the paper's highest load, 95%, under csp, pins it, and runs
//! the same workload under sep-c next to it, as in [Iosup08] §5.5 (Figure 11). `?autorun=0` turns it off.
//!
//! Why this pair: the architecture is where §5.5 finds its largest difference at 95% (sep-c and fcondor "cannot
//! complete all tasks"), and under the default runtime reading (docs/model.md, "Which runtime reading") tasks also
//! wait hours under csp at the daily peaks, so the queue chart shows the queues grow and drain. Each run of the
//! month at 95% (about 7.4 million tasks) takes about 10 s natively.
//!
//! The runs start two seconds after the worker is ready, when the page has loaded and settled: their live
//! redraws and messages would otherwise compete with the page's own loading (Lighthouse measured 3.6 s of blocking
//! time and a layout shift of 0.32 on its emulated phone when they started at once). Anything the visitor does
//! first (a Run, a changed control) ends the first open. Meanwhile the parts of the page below the first screen
//! wait (`ui/later.rs`): they are built when the second run is in, or as soon as the visitor acts.

use crate::family::multi_cluster::architecture::Architecture;
use crate::scenario::Scenario;
use crate::ui::lab::{Lab, Status};
use leptos::prelude::*;

/// Where the first open stands.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Stage {
    /// Not a first open, or done.
    Off,
    /// The csp run is under way; when it is in, it is pinned and sep-c runs.
    Csp,
    /// The sep-c run is under way.
    SepC,
}

/// The first run: the default scenario at 95% load (csp is the default architecture).
pub(crate) fn first() -> Scenario {
    let mut m = crate::scenario::McScenario::default();
    m.workload.load = Some(0.95);
    Scenario::from(m)
}

/// The second run: the same under sep-c.
pub(crate) fn second() -> Scenario {
    let mut s = first();
    if let Some(m) = s.multi_cluster_mut() {
        m.architecture.kind = Architecture::SepC;
    }
    s
}

/// How long after the worker is ready the first run starts.
const SETTLE: std::time::Duration = std::time::Duration::from_secs(2);

/// A first open: runs [`first`] once the worker is ready and the page has settled, then [`second`]; returns the
/// scenario to show.
pub(crate) fn start(lab: Lab, mc: super::McPage) -> Scenario {
    mc.first_open.set_value(Stage::Csp);
    Effect::new(move |started: Option<bool>| {
        if started == Some(true) || lab.status.get() != Status::Ready {
            return started.unwrap_or(false);
        }
        set_timeout(
            move || {
                let untouched = lab.status.get_untracked() == Status::Ready
                    && lab.run_id.get_untracked() == 0
                    && lab.scenario.with_untracked(|s| *s == first());
                if untouched && mc.first_open.get_value() == Stage::Csp {
                    lab.start_run();
                } else {
                    mc.first_open.set_value(Stage::Off);
                }
            },
            SETTLE,
        );
        true
    });
    first()
}

/// Whether this is a first open whose runs have not ended.
pub(crate) fn active(mc: super::McPage) -> bool {
    mc.first_open.get_value() != Stage::Off
}

/// A run of the current scenario is in: pins the csp run and starts sep-c, or says what the two runs show. A run
/// of anything else (the visitor changed the scenario meanwhile) ends the first open.
pub(crate) fn on_finished(mc: super::McPage, lab: Lab) {
    let stage = mc.first_open.get_value();
    mc.first_open.set_value(Stage::Off);
    let shown = lab.scenario.get_untracked();
    match stage {
        Stage::Csp if shown == first() => {
            super::pin(mc, lab);
            lab.scenario.set(second());
            mc.first_open.set_value(Stage::SepC);
            lab.start_run();
        }
        Stage::SepC if shown == second() => {
            lab.note.set(
                "First look: a month at 95% load, the same workload under csp (pinned, orange) and sep-c (this run, \
                 blue), as in Iosup et al. 2008, §5.5: with one central queue (csp) the whole grid shares the work; \
                 with \
                 each cluster scheduling only its own users (sep-c) the small clusters, which receive as much work as \
                 the large ones, cannot finish theirs. Change anything and press Run."
                    .into(),
            );
            crate::ui::later::release(mc.reveal);
        }
        _ => crate::ui::later::release(mc.reveal),
    }
}
