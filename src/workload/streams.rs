//! The workload of a whole platform: one independent stream per cluster (the default, as in [Iosup08] §4.2), or
//! one global stream whose users are spread over the clusters by rank.

use super::generate::{generate, GenerateSpec, Generated};
use super::types::{Bot, Workload};
use super::GenerateError;
use crate::engine::stream_seed;
use serde::{Deserialize, Serialize};

/// How the BoTs reach the platform.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Streams {
    /// Each cluster receives its own independent stream of the model, with its own users, scaled as the
    /// [`LoadSplit`] says ([Iosup08] §4.2: "each of the 20 clusters … receives an independent stream").
    #[default]
    PerCluster,
    /// One stream for the whole platform; user u (0-based rank) is homed at cluster u mod C.
    Global,
}

impl Streams {
    pub const ALL: [Streams; 2] = [Streams::PerCluster, Streams::Global];

    pub fn name(self) -> &'static str {
        match self {
            Streams::PerCluster => "per_cluster",
            Streams::Global => "global",
        }
    }
}

/// How the target load is shared among per-cluster streams (a reading of [Iosup08] §4.2, docs/model.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LoadSplit {
    /// Every stream carries the same share of the work: the target load of the platform's capacity divided by
    /// the number of streams.
    #[default]
    Equal,
    /// Every stream carries the target load of its own cluster's capacity.
    Capacity,
}

impl LoadSplit {
    pub const ALL: [LoadSplit; 2] = [LoadSplit::Equal, LoadSplit::Capacity];

    pub fn name(self) -> &'static str {
        match self {
            LoadSplit::Equal => "equal",
            LoadSplit::Capacity => "capacity",
        }
    }

    /// The targets the streams are scaled to: under `Equal` every target's capacity becomes the mean capacity.
    pub fn targets<'a>(self, targets: &[StreamTarget<'a>]) -> Vec<StreamTarget<'a>> {
        match self {
            LoadSplit::Capacity => targets.to_vec(),
            LoadSplit::Equal => {
                let mean = targets.iter().map(|t| t.capacity).sum::<f64>() / targets.len().max(1) as f64;
                targets.iter().map(|t| StreamTarget { capacity: mean, ..*t }).collect()
            }
        }
    }
}

/// Where one per-cluster stream goes, as this layer sees a cluster: its name (for the stream's summary and
/// messages) and its capacity, processors × speed in reference processors. The workload layer knows no family;
/// the caller builds one per cluster, in the platform's order (the order gives the stream seeds and the ties of
/// the merge).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StreamTarget<'a> {
    pub name: &'a str,
    /// f64::from(processors) * speed.
    pub capacity: f64,
}

/// What one cluster's stream turned out to be.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StreamSummary {
    pub cluster: String,
    pub bots: u64,
    pub tasks: u64,
    /// Σ runtimes / (the capacity the stream was scaled to × submission period): its own cluster's under
    /// `LoadSplit::Capacity`, the mean cluster's under `LoadSplit::Equal`.
    pub achieved_load: f64,
    pub iat_scale: f64,
}

/// A platform's workload and, per cluster stream, how it came about (empty for a global stream).
pub struct PlatformWorkload {
    pub generated: Generated,
    pub streams: Vec<StreamSummary>,
}

/// The seed of cluster `c`'s stream: every stream draws from its own named streams, so changing one cluster (its
/// size, speed, or the whole stream) leaves the other clusters' arrivals identical.
pub fn cluster_seed(seed: u64, c: usize) -> u64 {
    stream_seed(seed, &format!("cluster-{c}"))
}

/// Generates the workload of the clusters `targets` under `streams`. `base.capacity` and `base.seed` are replaced
/// per stream; the target load applies to every stream on its own cluster's capacity, so the platform's load is the
/// same target and every cluster receives work in proportion to its capacity.
pub fn generate_platform(
    base: &GenerateSpec,
    targets: &[StreamTarget],
    streams: Streams,
) -> Result<PlatformWorkload, GenerateError> {
    generate_streams(targets, streams, base.seed, base.submission_period, base.model.users.n, &|seed, capacity| {
        generate(&GenerateSpec { capacity, seed, ..base.clone() })
    })
}

/// The platform's workload from any generator: `generate(seed, capacity)` makes one stream. A global stream gets
/// the scenario seed and the platform's capacity; per-cluster streams get [`cluster_seed`] and their cluster's
/// capacity, and are merged with `users_per_stream` user ids each.
pub fn generate_streams(
    targets: &[StreamTarget],
    streams: Streams,
    seed: u64,
    submission_period: f64,
    users_per_stream: u32,
    generate: &dyn Fn(u64, f64) -> Result<Generated, GenerateError>,
) -> Result<PlatformWorkload, GenerateError> {
    // Σ capacities in the platform's order: the same sum, bit for bit, as Σ f64::from(processors) * speed.
    let total_capacity: f64 = targets.iter().map(|t| t.capacity).sum();
    if streams == Streams::Global {
        let generated = generate(seed, total_capacity)?;
        return Ok(PlatformWorkload { generated, streams: Vec::new() });
    }
    let mut parts = Vec::with_capacity(targets.len());
    let mut summaries = Vec::with_capacity(targets.len());
    let mut warnings = Vec::new();
    for (c, target) in targets.iter().enumerate() {
        let g = generate(cluster_seed(seed, c), target.capacity).map_err(|e| GenerateError::Stream {
            cluster: c,
            name: target.name.to_string(),
            error: Box::new(e),
        })?;
        warnings.extend(g.warnings.iter().map(|w| format!("cluster {}: {w}", target.name)));
        summaries.push(StreamSummary {
            cluster: target.name.to_string(),
            bots: g.workload.bots.len() as u64,
            tasks: g.workload.tasks() as u64,
            achieved_load: g.achieved_load,
            iat_scale: g.iat_scale,
        });
        parts.push(g.workload);
    }
    let tasks: usize = parts.iter().map(Workload::tasks).sum();
    if tasks > u32::MAX as usize {
        let why = format!("the platform's workload would have {tasks} tasks; at most {} allowed", u32::MAX);
        return Err(GenerateError::TooLarge(why));
    }
    if u64::from(users_per_stream) * parts.len() as u64 > u64::from(u32::MAX) {
        let why = format!("{users_per_stream} users per stream × {} streams: too many user ids", parts.len());
        return Err(GenerateError::TooLarge(why));
    }
    let workload = merge(&parts, users_per_stream);
    let work = workload.total_work();
    let achieved_load = work / (total_capacity * submission_period);
    // The geometric mean of the streams' factors: one figure for the summary (each stream's is in `streams`).
    let iat_scale =
        libm::exp(summaries.iter().map(|s| libm::log(s.iat_scale)).sum::<f64>() / summaries.len().max(1) as f64);
    Ok(PlatformWorkload { generated: Generated { workload, iat_scale, achieved_load, warnings }, streams: summaries })
}

/// Merges per-cluster workloads into one in arrival order (ties: lower cluster first, then each stream's own
/// order). Stream c's user r becomes user c · n + r, so every cluster has its own users.
fn merge(parts: &[Workload], users_per_stream: u32) -> Workload {
    let mut order: Vec<(f64, u32, u32)> = Vec::with_capacity(parts.iter().map(|w| w.bots.len()).sum());
    for (c, w) in parts.iter().enumerate() {
        order.extend(w.bots.iter().enumerate().map(|(i, b)| (b.arrival, c as u32, i as u32)));
    }
    // Stable and total: arrivals are finite, and (cluster, index) breaks ties.
    order.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    let mut out = Workload {
        bots: Vec::with_capacity(order.len()),
        runtimes: Vec::with_capacity(parts.iter().map(Workload::tasks).sum()),
        users: users_per_stream * parts.len() as u32,
        // The generators make single-processor tasks without data.
        ..Workload::default()
    };
    for (_, c, i) in order {
        let w = &parts[c as usize];
        let b = &w.bots[i as usize];
        let first_task = out.runtimes.len() as u32;
        out.runtimes.extend_from_slice(w.bot_runtimes(i as usize));
        out.bots.push(Bot { first_task, user: c * users_per_stream + b.user, home: Some(c), ..b.clone() });
    }
    out
}
