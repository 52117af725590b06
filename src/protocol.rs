//! The messages between the page and the simulation worker: the only types that cross the worker boundary.

use crate::run::Report;
use crate::scenario::Scenario;
use crate::simulation::Sample;
use serde::{Deserialize, Serialize};

/// Page → worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ToWorker {
    /// Start a run; `events_per_chunk` bounds the work between two progress messages (speed control).
    Run {
        run_id: u32,
        scenario: Box<Scenario>,
        events_per_chunk: u64,
        delay_ms: u32,
    },
    Pause {
        run_id: u32,
    },
    Resume {
        run_id: u32,
    },
    Cancel {
        run_id: u32,
    },
}

/// Worker → page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum FromWorker {
    /// The worker's wasm is loaded and it listens: messages sent before this are lost.
    Ready,
    /// New samples since the previous progress message, and where the run stands.
    Progress {
        run_id: u32,
        now: f64,
        horizon: f64,
        events: u64,
        finished_tasks: u64,
        tasks: u64,
        samples: Vec<Sample>,
    },
    Finished {
        run_id: u32,
        report: Box<Report>,
    },
    Failed {
        run_id: u32,
        message: String,
    },
}
