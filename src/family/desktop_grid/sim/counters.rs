//! What a run reports as it goes: its samples over time and its counters.

use serde::{Deserialize, Serialize};

/// State over simulated time, sampled every `sample_interval`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DgSample {
    pub time: f64,
    /// Machines available.
    pub machines_up: u32,
    /// Replicas running (= busy machines).
    pub replicas_running: u32,
    /// Pending tasks without a running replica (the queue).
    pub queued_tasks: u64,
    /// BoTs submitted and not completed.
    pub bots_in_system: u32,
    pub finished_tasks: u64,
}

/// Counters of a run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DgCounters {
    pub events: u64,
    pub stale_events: u64,
    pub replicas_started: u64,
    /// Replicas terminated because another replica of their task completed.
    pub replicas_cancelled: u64,
    /// Replicas lost with their machine.
    pub replicas_killed: u64,
    pub checkpoints_taken: u64,
    /// Replicas started from a stored checkpoint.
    pub checkpoints_restored: u64,
    pub failures: u64,
    pub repairs: u64,
    pub finished_tasks: u64,
    pub finished_bots: u64,
    /// Machine time of all replicas that ended, s.
    pub replica_time: f64,
    /// Machine time of useless replicas, s.
    pub wasted_time: f64,
}
