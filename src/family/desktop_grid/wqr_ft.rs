//! WQR-FT's bookkeeping ([Anglano09] §III-B, Fig. 1 lines 22–28): per BoT, its pending tasks in buckets by number
//! of running replicas, so that the candidate set (fewer than RepThresh replicas) and its least-replicated task are
//! found without a scan; ties are broken at random from the scheduler's own stream. Also the sets BoT selection
//! reads: active BoTs, BoTs with a candidate, BoTs without a running replica, and the idle times of LongIdle.

use crate::engine::Rng;
use std::collections::BTreeSet;

/// An f64 as an i64 of the same order (for ordered sets of times).
fn key(x: f64) -> i64 {
    // + 0.0 turns −0.0 into +0.0: both must give the same key.
    let b = (x + 0.0).to_bits() as i64;
    b ^ ((((b >> 63) as u64) >> 1) as i64)
}

fn unkey(k: i64) -> f64 {
    f64::from_bits((k ^ ((((k >> 63) as u64) >> 1) as i64)) as u64)
}

/// The pending tasks of every BoT, by replica count.
pub struct TaskPool {
    thresh: u32,
    track_idle: bool,
    /// LongIdle compares only tasks without a running replica when there are any.
    unreplicated_only: bool,
    /// Running replicas of each task.
    rep: Vec<u32>,
    /// Position of each pending task in its bucket.
    pos: Vec<u32>,
    /// Idle time accumulated while the task had no running replica, up to `idle_since` (LongIdle).
    idle_acc: Vec<f64>,
    /// Since when the task has had no running replica (meaningful when rep = 0).
    idle_since: Vec<f64>,
    /// buckets[b][k]: pending tasks of BoT b with k running replicas.
    buckets: Vec<Vec<Vec<u32>>>,
    /// Pending tasks of each BoT with fewer than `thresh` replicas.
    cand: Vec<u32>,
    /// Running replicas of each BoT.
    running: Vec<u32>,
    /// Uncompleted tasks of each BoT.
    pending: Vec<u32>,
    /// Arrived, uncompleted BoTs, oldest first.
    pub active: BTreeSet<u32>,
    /// Active BoTs with a candidate task.
    pub ready: BTreeSet<u32>,
    /// Active BoTs with no running replica.
    pub norun: BTreeSet<u32>,
    /// Whether `unrep` is kept (FCFS-Share's `one_replica` reading).
    track_unrep: bool,
    /// Active BoTs with a pending task without a running replica (kept only when `track_unrep`).
    unrep: BTreeSet<u32>,
    /// LongIdle: per BoT, (idle_acc − idle_since, task) of its tasks without a replica (their idle time grows with
    /// now).
    idle_growing: Vec<BTreeSet<(i64, u32)>>,
    /// LongIdle: per BoT, (idle_acc, task) of its candidate tasks that have a replica (idle time frozen).
    idle_frozen: Vec<BTreeSet<(i64, u32)>>,
    /// LongIdle: (largest key of `idle_growing[b]`, older-first rank of b) over the BoTs, and each BoT's entry.
    top_growing: BTreeSet<(i64, u32)>,
    top_growing_of: Vec<Option<i64>>,
    /// LongIdle: the same for `idle_frozen`.
    top_frozen: BTreeSet<(i64, u32)>,
    top_frozen_of: Vec<Option<i64>>,
}

impl TaskPool {
    /// A pool for `tasks` tasks in `bots` BoTs; `track_idle` keeps LongIdle's idle-time index.
    pub fn new(bots: usize, tasks: usize, thresh: u32, track_idle: bool) -> TaskPool {
        TaskPool {
            thresh,
            track_idle,
            unreplicated_only: false,
            rep: vec![0; tasks],
            pos: vec![0; tasks],
            idle_acc: if track_idle { vec![0.0; tasks] } else { Vec::new() },
            idle_since: if track_idle { vec![0.0; tasks] } else { Vec::new() },
            buckets: (0..bots).map(|_| Vec::new()).collect(),
            cand: vec![0; bots],
            running: vec![0; bots],
            pending: vec![0; bots],
            active: BTreeSet::new(),
            ready: BTreeSet::new(),
            norun: BTreeSet::new(),
            track_unrep: false,
            unrep: BTreeSet::new(),
            idle_growing: if track_idle { (0..bots).map(|_| BTreeSet::new()).collect() } else { Vec::new() },
            idle_frozen: if track_idle { (0..bots).map(|_| BTreeSet::new()).collect() } else { Vec::new() },
            top_growing: BTreeSet::new(),
            top_growing_of: if track_idle { vec![None; bots] } else { Vec::new() },
            top_frozen: BTreeSet::new(),
            top_frozen_of: if track_idle { vec![None; bots] } else { Vec::new() },
        }
    }

    /// BoT `b` with tasks `first .. first + size` arrives (Fig. 1 lines 5–7).
    pub fn arrive(&mut self, b: u32, first: u32, size: u32, now: f64) {
        let bi = b as usize;
        self.buckets[bi] = vec![(first..first + size).collect()];
        for (i, t) in (first..first + size).enumerate() {
            self.pos[t as usize] = i as u32;
            if self.track_idle {
                self.idle_since[t as usize] = now;
                self.idle_growing[bi].insert((key(self.idle_acc[t as usize] - now), t));
            }
        }
        self.pending[bi] = size;
        self.cand[bi] = size;
        self.active.insert(b);
        self.refresh(b);
    }

    pub fn replicas(&self, t: u32) -> u32 {
        self.rep[t as usize]
    }

    pub fn running(&self, b: u32) -> u32 {
        self.running[b as usize]
    }

    pub fn pending(&self, b: u32) -> u32 {
        self.pending[b as usize]
    }

    /// Pending tasks of BoT `b` with fewer than RepThresh running replicas (candidates for a replica).
    pub fn candidates(&self, b: u32) -> u32 {
        self.cand[b as usize]
    }

    /// Pending tasks of BoT `b` without a running replica.
    pub fn unreplicated(&self, b: u32) -> u32 {
        self.buckets[b as usize].first().map_or(0, |v| v.len() as u32)
    }

    /// Line 22–23: the candidate of BoT `b` with the fewest running replicas, ties at random.
    pub fn pick(&self, b: u32, ties: &mut Rng) -> Option<u32> {
        let buckets = &self.buckets[b as usize];
        let limit = (self.thresh as usize).min(buckets.len());
        let bucket = buckets[..limit].iter().find(|v| !v.is_empty())?;
        let i = if bucket.len() == 1 { 0 } else { ties.below(bucket.len() as u64) as usize };
        Some(bucket[i])
    }

    /// Keeps the set of BoTs with a pending task without a running replica (`unreplicated_bots`); set before the
    /// first arrival.
    pub fn set_track_unreplicated(&mut self, on: bool) {
        self.track_unrep = on;
    }

    /// Active BoTs with a pending task without a running replica, oldest first (empty unless tracked).
    pub fn unreplicated_bots(&self) -> &BTreeSet<u32> {
        &self.unrep
    }

    /// LongIdle compares only tasks without a running replica while there are any (`LongIdleRule::Unreplicated`).
    pub fn set_unreplicated_only(&mut self, on: bool) {
        self.unreplicated_only = on;
    }

    /// LongIdle's choice at `now`: the BoT whose candidate task has been idle longest, the oldest on ties; O(log n).
    pub fn longest_idle_bot(&self, now: f64) -> Option<u32> {
        let g = self.top_growing.last().map(|&(k, r)| (unkey(k) + now, u32::MAX - r));
        if self.unreplicated_only && g.is_some() {
            return g.map(|x| x.1);
        }
        let f = self.top_frozen.last().map(|&(k, r)| (unkey(k), u32::MAX - r));
        match (g, f) {
            (Some(a), Some(b)) => Some(if a.0 > b.0 || (a.0 == b.0 && a.1 < b.1) { a.1 } else { b.1 }),
            (a, b) => a.or(b).map(|x| x.1),
        }
    }

    /// Re-files BoT `b` in the LongIdle tops after its idle sets changed.
    fn retop(&mut self, b: usize) {
        let rank = u32::MAX - b as u32;
        let g = self.idle_growing[b].last().map(|&(k, _)| k);
        if g != self.top_growing_of[b] {
            if let Some(old) = self.top_growing_of[b] {
                self.top_growing.remove(&(old, rank));
            }
            if let Some(new) = g {
                self.top_growing.insert((new, rank));
            }
            self.top_growing_of[b] = g;
        }
        let f = self.idle_frozen[b].last().map(|&(k, _)| k);
        if f != self.top_frozen_of[b] {
            if let Some(old) = self.top_frozen_of[b] {
                self.top_frozen.remove(&(old, rank));
            }
            if let Some(new) = f {
                self.top_frozen.insert((new, rank));
            }
            self.top_frozen_of[b] = f;
        }
    }

    /// Longest idle time among BoT `b`'s candidate tasks at `now` (LongIdle; needs `track_idle`).
    pub fn longest_idle(&self, b: u32, now: f64) -> f64 {
        let bi = b as usize;
        let growing = self.idle_growing[bi].last().map_or(f64::NEG_INFINITY, |&(k, _)| unkey(k) + now);
        let frozen = self.idle_frozen[bi].last().map_or(f64::NEG_INFINITY, |&(k, _)| unkey(k));
        growing.max(frozen)
    }

    fn take(&mut self, b: usize, t: u32) {
        let k = self.rep[t as usize] as usize;
        let bucket = &mut self.buckets[b][k];
        let i = self.pos[t as usize] as usize;
        bucket.swap_remove(i);
        if let Some(&moved) = bucket.get(i) {
            self.pos[moved as usize] = i as u32;
        }
        if (k as u32) < self.thresh {
            self.cand[b] -= 1;
        }
        if self.track_idle {
            let tu = t as usize;
            if k == 0 {
                self.idle_growing[b].remove(&(key(self.idle_acc[tu] - self.idle_since[tu]), t));
            } else if (k as u32) < self.thresh {
                self.idle_frozen[b].remove(&(key(self.idle_acc[tu]), t));
            }
        }
    }

    fn put(&mut self, b: usize, t: u32, k: u32) {
        self.rep[t as usize] = k;
        let buckets = &mut self.buckets[b];
        if buckets.len() <= k as usize {
            buckets.resize_with(k as usize + 1, Vec::new);
        }
        self.pos[t as usize] = buckets[k as usize].len() as u32;
        buckets[k as usize].push(t);
        if k < self.thresh {
            self.cand[b] += 1;
        }
        if self.track_idle {
            let tu = t as usize;
            if k == 0 {
                self.idle_growing[b].insert((key(self.idle_acc[tu] - self.idle_since[tu]), t));
            } else if k < self.thresh {
                self.idle_frozen[b].insert((key(self.idle_acc[tu]), t));
            }
        }
    }

    fn refresh(&mut self, b: u32) {
        let bi = b as usize;
        if self.track_idle {
            self.retop(bi);
        }
        if self.cand[bi] > 0 {
            self.ready.insert(b);
        } else {
            self.ready.remove(&b);
        }
        if self.running[bi] == 0 && self.pending[bi] > 0 {
            self.norun.insert(b);
        } else {
            self.norun.remove(&b);
        }
        if self.track_unrep {
            if self.unreplicated(b) > 0 {
                self.unrep.insert(b);
            } else {
                self.unrep.remove(&b);
            }
        }
    }

    /// A replica of task `t` of BoT `b` starts (line 28).
    pub fn add_replica(&mut self, b: u32, t: u32, now: f64) {
        let bi = b as usize;
        self.take(bi, t);
        let k = self.rep[t as usize];
        if k == 0 && self.track_idle {
            let tu = t as usize;
            self.idle_acc[tu] += now - self.idle_since[tu];
        }
        self.put(bi, t, k + 1);
        self.running[bi] += 1;
        self.refresh(b);
    }

    /// A replica of task `t` of BoT `b` dies with its machine (line 17).
    pub fn remove_replica(&mut self, b: u32, t: u32, now: f64) {
        let bi = b as usize;
        self.take(bi, t);
        let k = self.rep[t as usize] - 1;
        if k == 0 && self.track_idle {
            self.idle_since[t as usize] = now;
        }
        self.put(bi, t, k);
        self.running[bi] -= 1;
        self.refresh(b);
    }

    /// Task `t` of BoT `b` completes: it leaves the pool with all its replicas (lines 10–15). Returns whether the
    /// BoT is complete.
    pub fn complete(&mut self, b: u32, t: u32) -> bool {
        let bi = b as usize;
        self.take(bi, t);
        self.running[bi] -= self.rep[t as usize];
        self.rep[t as usize] = 0;
        self.pending[bi] -= 1;
        let done = self.pending[bi] == 0;
        if done {
            self.active.remove(&b);
            self.buckets[bi] = Vec::new();
        }
        self.refresh(b);
        done
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_orders_like_f64() {
        let xs = [-1e9, -3.5, -0.0, 0.0, 1e-300, 2.0, 7e8];
        for w in xs.windows(2) {
            assert!(key(w[0]) <= key(w[1]));
            assert_eq!(unkey(key(w[0])), w[0]);
        }
    }

    #[test]
    fn picks_the_least_replicated_candidate() {
        let mut p = TaskPool::new(1, 3, 2, true);
        let mut rng = Rng::new(1);
        p.arrive(0, 0, 3, 0.0);
        for t in 0..3 {
            p.add_replica(0, t, 1.0);
        }
        p.add_replica(0, 1, 2.0);
        p.add_replica(0, 2, 2.0);
        // Task 0 is the only one with one replica; 1 and 2 are at the threshold.
        assert_eq!(p.pick(0, &mut rng), Some(0));
        p.add_replica(0, 0, 3.0);
        assert_eq!(p.pick(0, &mut rng), None);
        assert!(!p.ready.contains(&0));
        p.remove_replica(0, 2, 4.0);
        assert_eq!(p.pick(0, &mut rng), Some(2));
        assert_eq!(p.longest_idle(0, 10.0), 1.0);
        assert_eq!(p.longest_idle_bot(10.0), Some(0));
        assert!(!p.complete(0, 0));
        assert!(!p.complete(0, 1));
        assert!(p.complete(0, 2));
        assert!(p.active.is_empty() && p.ready.is_empty() && p.norun.is_empty());
    }
}
