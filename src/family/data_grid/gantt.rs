//! Where each job of one site sits on the Gantt chart: which processor rows it holds. A site's local scheduler
//! counts processors and never names them (conservative backfilling needs only counts), so the chart places each
//! job, in the order the jobs took their processors, on the lowest-numbered rows free at that moment; a job whose
//! rows are not contiguous is drawn as several boxes.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// One job as the chart needs it: when it took its processors and gave them back, and how many it held.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hold {
    /// Index of the job in the caller's list.
    pub job: u32,
    /// Processors taken at, s.
    pub start: f64,
    /// Processors given back at, s.
    pub end: f64,
    pub procs: u32,
}

/// A box of the chart: `count` rows from `first`, held by job `job` (an index into the caller's list).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rows {
    pub job: u32,
    pub first: u32,
    pub count: u32,
}

/// Places every hold on rows 0..`processors`; holds must not need more than `processors` at any time (a site's
/// schedule never does). Releases at a time come before takes at that time. O(n log n + Σ procs).
pub fn layout(holds: &[Hold], processors: u32) -> Vec<Rows> {
    let mut order: Vec<usize> = (0..holds.len()).collect();
    order.sort_by(|&a, &b| holds[a].start.total_cmp(&holds[b].start).then(a.cmp(&b)));
    // Free rows, lowest first; held rows per running job, released by end time.
    let mut free: BinaryHeap<Reverse<u32>> = (0..processors).map(Reverse).collect();
    let mut running: BinaryHeap<Reverse<(OrdF64, usize)>> = BinaryHeap::new();
    let mut held: Vec<Vec<u32>> = vec![Vec::new(); holds.len()];
    let mut out = Vec::new();
    for i in order {
        let h = holds[i];
        while let Some(Reverse((OrdF64(end), j))) = running.peek().copied() {
            if end > h.start {
                break;
            }
            running.pop();
            for r in held[j].drain(..) {
                free.push(Reverse(r));
            }
        }
        let mut rows: Vec<u32> = Vec::with_capacity(h.procs as usize);
        while rows.len() < h.procs as usize {
            match free.pop() {
                Some(Reverse(r)) => rows.push(r),
                None => break,
            }
        }
        rows.sort_unstable();
        let mut k = 0;
        while k < rows.len() {
            let first = rows[k];
            let mut count = 1;
            while k + (count as usize) < rows.len() && rows[k + count as usize] == first + count {
                count += 1;
            }
            out.push(Rows { job: h.job, first, count });
            k += count as usize;
        }
        held[i] = rows;
        running.push(Reverse((OrdF64(h.end), i)));
    }
    out
}

/// An f64 with a total order, for the heap of end times.
#[derive(Clone, Copy, Debug, PartialEq)]
struct OrdF64(f64);

impl Eq for OrdF64 {}

impl PartialOrd for OrdF64 {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for OrdF64 {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_never_shared_at_the_same_time_and_every_job_gets_its_width() {
        // Hand case on 4 processors: A [0,10) ×2, B [0,5) ×1, C [5,10) ×2 (takes B's row and the free one, which
        // are not contiguous), D [10,12) ×4.
        let holds = [
            Hold { job: 0, start: 0.0, end: 10.0, procs: 2 },
            Hold { job: 1, start: 0.0, end: 5.0, procs: 1 },
            Hold { job: 2, start: 5.0, end: 10.0, procs: 2 },
            Hold { job: 3, start: 10.0, end: 12.0, procs: 4 },
        ];
        let rows = layout(&holds, 4);
        let of = |j: u32| rows.iter().filter(|r| r.job == j).map(|r| (r.first, r.count)).collect::<Vec<_>>();
        assert_eq!(of(0), vec![(0, 2)]);
        assert_eq!(of(1), vec![(2, 1)]);
        assert_eq!(of(2), vec![(2, 2)]);
        assert_eq!(of(3), vec![(0, 4)]);
        for h in &holds {
            let width: u32 = rows.iter().filter(|r| r.job == h.job).map(|r| r.count).sum();
            assert_eq!(width, h.procs);
        }
        // No row is held by two jobs whose times overlap.
        for a in &rows {
            for b in &rows {
                let (ha, hb) = (holds[a.job as usize], holds[b.job as usize]);
                let overlap_t = ha.start < hb.end && hb.start < ha.end;
                let overlap_r = a.first < b.first + b.count && b.first < a.first + a.count;
                assert!(a.job == b.job || !(overlap_t && overlap_r), "{a:?} and {b:?} share rows");
            }
        }
    }
}
