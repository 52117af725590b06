//! Capacity bounds that decide, by logic, whether a reading can give the saturation results [Anglano09] §IV-C
//! states (docs/desktop_grid.md, "Capacity"): the share of the capacity failures can cost a first-replica-first
//! policy, the machine time blocking stores add, and FCFS-Excl seen as one server.

use super::availability::{group_of, GroupLaw};

/// The most work (machine seconds) one failure can cost a replica: the computing since its last stored checkpoint
/// (at most `period` plus a store in flight of `transfer_hi`; a task of at most `max_runtime` seconds that never
/// reaches a checkpoint loses at most that) and, when it had a checkpoint, one retrieval of `transfer_hi` before it
/// resumes.
pub fn loss_per_failure(period: f64, transfer_hi: f64, max_runtime: f64) -> f64 {
    if max_runtime <= period {
        max_runtime
    } else {
        (period + transfer_hi).min(max_runtime) + transfer_hi
    }
}

/// f: the share of the effective capacity ΣEP_i that failures can cost when each one loses at most `loss` seconds
/// of machine `i`'s time: Σ EP_i · loss / MTTF_i / Σ EP_i, with `machines` machines of equal power dealt to `laws`
/// in turn (`group_of`). A machine fails 1/MTTF_i times per second it is up, whatever the law of its uptimes.
pub fn failure_loss_bound(laws: &[GroupLaw], machines: usize, loss: f64) -> f64 {
    let (mut lost, mut capacity) = (0.0, 0.0);
    for m in 0..machines {
        let g = &laws[group_of(m, laws.len())];
        lost += g.availability() * loss / g.mttf;
        capacity += g.availability();
    }
    lost / capacity
}

/// Whether a first-replica-first policy is bounded by logic at load `load` when failures cost at most a share `f`
/// of the capacity: its useful work then runs at ≥ (1 − f) ΣEP, above the L · ΣEP the BoTs bring.
pub fn first_replica_first_bounded(load: f64, f: f64) -> bool {
    load < 1.0 - f
}

/// The mean number of blocking stores a task pays, E[⌊t / period⌋], for a running time t uniform in [lo, hi].
pub fn mean_stores(lo: f64, hi: f64, period: f64) -> f64 {
    // ∫ ⌊t/p⌋ dt over [lo, hi] = F(hi) − F(lo), with F(x) = Σ_{k ≥ 1} max(0, x − k·p).
    let f = |x: f64| {
        let n = (x / period).floor();
        n * x - period * n * (n + 1.0) / 2.0
    };
    (f(hi) - f(lo)) / (hi - lo)
}

/// The machine time blocking stores add to a task's running time uniform in [lo, hi], as a share of it: mean stores
/// × mean transfer time / mean running time.
pub fn blocking_overhead(lo: f64, hi: f64, period: f64, mean_transfer: f64) -> f64 {
    mean_stores(lo, hi, period) * mean_transfer / ((lo + hi) / 2.0)
}

/// The mean of the largest of `n` independent draws uniform in [lo, hi].
pub fn mean_largest_uniform(lo: f64, hi: f64, n: f64) -> f64 {
    lo + (hi - lo) * n / (n + 1.0)
}

/// FCFS-Excl as one server: the least mean service of a BoT (its largest task's work, `largest_work`, on the
/// fastest machine, `fastest_power`) over the mean interarrival time; above 1 the queue grows without bound.
pub fn exclusive_server_load(largest_work: f64, fastest_power: f64, interarrival: f64) -> f64 {
    largest_work / fastest_power / interarrival
}
