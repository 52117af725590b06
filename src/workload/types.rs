//! The workload a simulation consumes: BoTs in arrival order and the runtimes of their tasks; for families that run
//! them, the processors each task needs at once (rigid parallel jobs) and the data it reads and writes.

use serde::{Deserialize, Serialize};

/// Δ of the BoT rule of [Minh10] (trace import, §II-C, and the generator's Algorithm 1), seconds: the default of the
/// CLI, of trace scenarios and of the generator.
pub const DEFAULT_DELTA: f64 = 100.0;
/// Largest Δ accepted, seconds: one day ([Minh10] §IV finds nearly all BoT submission durations below 1 000 s).
pub const MAX_DELTA: f64 = 86_400.0;

/// One Bag-of-Tasks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Bot {
    /// Submission time of every task of the BoT, in seconds from the start of the run.
    pub arrival: f64,
    /// Submitting user, 0-based (user u has Zipf rank u + 1; rank 1 submits most).
    pub user: u32,
    /// Index of the BoT's first task in [`Workload::runtimes`]; its tasks are `first_task .. first_task + size`.
    pub first_task: u32,
    /// Number of tasks (≥ 1).
    pub size: u32,
    /// The BoT's average task runtime (ART) as drawn by the generator, in seconds on the reference processor
    /// (NaN for traces: there it is only the mean of the task runtimes).
    pub art: f64,
    /// The intra-BoT runtime variance (RTV) as drawn by the generator, in s² (NaN for traces).
    pub rtv: f64,
    /// The cluster whose stream the BoT belongs to, where sep-c queues it and where fcondor's user starts; None
    /// = the user's home by rank, user mod clusters (a single global stream).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub home: Option<u32>,
}

impl Bot {
    /// The cluster the BoT arrives at on a platform of `clusters` clusters.
    pub fn home_cluster(&self, clusters: usize) -> usize {
        match self.home {
            Some(c) => c as usize % clusters,
            None => self.user as usize % clusters,
        }
    }
}

/// The data a task reads before it runs and writes after, bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TaskData {
    pub input: f64,
    pub output: f64,
}

/// A complete workload: BoTs sorted by arrival time, and every task's runtime.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Workload {
    pub bots: Vec<Bot>,
    /// Task runtimes on the reference processor (speed 1.0), in seconds, ≥ 1; BoT b owns a contiguous range.
    pub runtimes: Vec<f64>,
    /// Number of distinct user ids (ids are 0..users).
    pub users: u32,
    /// Processors each task needs at once, by task; empty: every task needs one (every BoT workload of the
    /// multi-cluster and desktop-grid families, which run only such tasks). Left out of the JSON when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub procs: Vec<u32>,
    /// The data of each task, by task; empty: no task moves data. Left out of the JSON when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub data: Vec<TaskData>,
}

impl Workload {
    /// A workload from (arrival, user, task runtimes) per BoT, in the order given (arrival order for a run), with
    /// no ART or RTV of its own and no home cluster: hand-made workloads of tests and examples.
    pub fn from_bots(bots: &[(f64, u32, &[f64])]) -> Workload {
        let mut w = Workload::default();
        for &(arrival, user, runtimes) in bots {
            w.bots.push(Bot {
                arrival,
                user,
                first_task: w.runtimes.len() as u32,
                size: runtimes.len() as u32,
                art: f64::NAN,
                rtv: f64::NAN,
                home: None,
            });
            w.runtimes.extend_from_slice(runtimes);
            w.users = w.users.max(user + 1);
        }
        w
    }

    /// The task runtimes of BoT `b`.
    pub fn bot_runtimes(&self, b: usize) -> &[f64] {
        let bot = &self.bots[b];
        &self.runtimes[bot.first_task as usize..(bot.first_task + bot.size) as usize]
    }

    /// Total number of tasks.
    pub fn tasks(&self) -> usize {
        self.runtimes.len()
    }

    /// The processors task `t` needs at once.
    pub fn procs_of(&self, t: usize) -> u32 {
        self.procs.get(t).copied().unwrap_or(1)
    }

    /// The data task `t` reads and writes.
    pub fn data_of(&self, t: usize) -> TaskData {
        self.data.get(t).copied().unwrap_or_default()
    }

    /// Σ task runtimes × processors on the reference processor, in CPU-seconds.
    pub fn total_work(&self) -> f64 {
        // From +0 (an empty sum in std starts at −0, which a report would print as "-0").
        if self.procs.is_empty() {
            self.runtimes.iter().fold(0.0, |sum, r| sum + r)
        } else {
            self.runtimes.iter().zip(&self.procs).fold(0.0, |sum, (r, &p)| sum + r * f64::from(p))
        }
    }
}
