//! Readings of the policies' definitions that [Iosup08] leaves open (docs/model.md, "Readings"): how DFPLT ranks a
//! cluster it has not observed yet, how many replicas a "WQRnx" name makes, in which order S-U-Prio ranks the users,
//! and in which order RR, WQR and STFR go round the clusters.

use serde::{Deserialize, Serialize};

/// The policy readings of a scenario (`policy_options`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PolicyOptions {
    pub dfplt_unranked: Unranked,
    /// Read as `wqr4x` too, the key's name before every "WQRnx" name followed one rule.
    #[serde(alias = "wqr4x")]
    pub wqr_nx: WqrNx,
    pub prio_order: PrioOrder,
    pub rr_ring: RrRing,
}

/// DFPLT: the rank of a cluster on which no task has completed yet.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unranked {
    /// Before every ranked cluster (ties by index): a rank comes only from a completed task, so every cluster is
    /// tried once before the ranks decide.
    #[default]
    First,
    /// Ranked at the reference speed 1.0 (the earlier reading; ties by index).
    Reference,
    /// After every ranked cluster: used only when no ranked cluster has a free processor.
    Last,
}

/// What the n of a "WQRnx" name counts (the paper's figures name WQR4x).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WqrNx {
    /// n replicas beyond the original (n + 1 copies): *"The number of replicas is appended to name … WQR-1
    /// replicates tasks once"* ([Iosup08] §2.4).
    #[default]
    Replicas,
    /// n copies in all (n − 1 replicas), the "2x, 3x, 4x" of the WQR literature.
    Copies,
}

impl WqrNx {
    /// Replicas beyond the original that "WQRnx" makes.
    pub fn replicas(self, n: u32) -> u32 {
        match self {
            WqrNx::Replicas => n,
            WqrNx::Copies => n.saturating_sub(1),
        }
    }
}

/// The order in which RR, WQR and STFR go round the clusters with a free processor (policies that know no
/// resource speed, [Iosup08] Table 1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RrRing {
    /// The clusters in the platform's listed order: a (U, ·) policy knows no speeds to order them by.
    #[default]
    Platform,
    /// Fastest first, equal speeds in listed order (the earlier reading).
    Speed,
}

/// S-U-Prio: the order of the users' unique priorities.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PrioOrder {
    /// By Zipf rank in the user's stream (rank 1 of every cluster first), ties by cluster index.
    #[default]
    Rank,
    /// Every user of cluster 0 before every user of cluster 1, … (the earlier reading: the order of the user ids).
    Cluster,
}

impl PrioOrder {
    /// The priority key of user `u` (lower = higher priority) with `per_stream` users in each of `streams`
    /// streams (user r of stream c has id c · per_stream + r).
    pub fn key(self, u: u32, per_stream: u32, streams: u32) -> u32 {
        match self {
            PrioOrder::Rank if per_stream > 0 && streams > 1 => (u % per_stream) * streams + u / per_stream,
            _ => u,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_order_interleaves_the_streams() {
        // Two streams of three users: ids 0,1,2 (cluster 0) and 3,4,5 (cluster 1). Rank order: 0, 3, 1, 4, 2, 5.
        let mut ids: Vec<u32> = (0..6).collect();
        ids.sort_by_key(|&u| PrioOrder::Rank.key(u, 3, 2));
        assert_eq!(ids, vec![0, 3, 1, 4, 2, 5]);
        ids.sort_by_key(|&u| PrioOrder::Cluster.key(u, 3, 2));
        assert_eq!(ids, vec![0, 1, 2, 3, 4, 5]);
        // A key is a permutation of the ids.
        let mut keys: Vec<u32> = (0..6).map(|u| PrioOrder::Rank.key(u, 3, 2)).collect();
        keys.sort_unstable();
        assert_eq!(keys, (0..6).collect::<Vec<_>>());
    }
}
