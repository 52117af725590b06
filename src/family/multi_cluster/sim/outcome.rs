//! What a run gives out: per-user CPU accounts, the time-series samples, and the raw outcome the report is
//! computed from.

use crate::family::multi_cluster::platform::Cluster;
use crate::workload::Workload;

/// Raw per-user accounting.
#[derive(Clone, Debug, Default)]
pub struct UserAccounts {
    /// CPU-seconds of finished or cancelled copies.
    pub done_cpu: Vec<f64>,
    /// Running copies.
    pub running: Vec<u32>,
    /// Σ start times of running copies (so consumption at t is done + running·t − Σ starts).
    pub start_sum: Vec<f64>,
}

impl UserAccounts {
    /// CPU time consumed by user u up to `now`, CPU-seconds.
    pub fn consumption(&self, u: u32, now: f64) -> f64 {
        let u = u as usize;
        self.done_cpu[u] + f64::from(self.running[u]) * now - self.start_sum[u]
    }
}

/// One time-series sample: the state at `time`, and counts over the interval that ends there.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Sample {
    /// s.
    pub time: f64,
    /// Tasks waiting anywhere (global and local queues).
    pub queued: u64,
    /// Running task copies (= busy processors).
    pub running: u64,
    /// Busy processor-seconds / available processor-seconds over the interval.
    pub utilization: f64,
    /// Tasks that arrived in the interval.
    pub arrived_tasks: u64,
    /// Tasks that finished in the interval.
    pub finished_tasks: u64,
    /// Tasks waiting per cluster (its RM's queue for sep-c/fcondor; its local queue for csp).
    pub cluster_queued: Vec<u32>,
    /// Busy processors per cluster.
    pub cluster_running: Vec<u32>,
}

/// Raw outcome of a run, from which the report is computed.
pub struct Outcome<'a> {
    pub workload: &'a Workload,
    pub clusters: &'a [Cluster],
    /// Time of the first start of a copy of each task (NaN: never started).
    pub task_start: &'a [f64],
    /// Completion time of each task (NaN: unfinished).
    pub task_end: &'a [f64],
    pub users: &'a UserAccounts,
    pub end_time: f64,
    pub busy_area: f64,
    /// Busy processor-seconds up to the last BoT's arrival; NaN when the run ended before it.
    pub submitted_area: f64,
    pub useful_cpu: f64,
    pub wasted_cpu: f64,
    pub replicas_started: u64,
    pub replicas_cancelled: u64,
    pub events: u64,
    pub stale_events: u64,
    pub samples: &'a [Sample],
    pub finished_bots: &'a [u32],
}
