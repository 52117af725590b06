//! A min-heap of events ordered by (time, sequence number): equal-time events pop in the order they were scheduled.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// Scheduling an event before the current time is a bug in the caller, reported rather than reordered.
#[derive(Debug, Clone, PartialEq)]
pub struct PastEventError {
    pub now: f64,
    pub requested: f64,
}

impl std::fmt::Display for PastEventError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "event scheduled at t={} but the clock is at t={}", self.requested, self.now)
    }
}

impl std::error::Error for PastEventError {}

struct Entry<E> {
    // Non-negative finite f64s order like their bit patterns read as u64, which makes comparison a single integer
    // compare.
    time_bits: u64,
    seq: u64,
    event: E,
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, other: &Self) -> bool {
        self.time_bits == other.time_bits && self.seq == other.seq
    }
}
impl<E> Eq for Entry<E> {}
impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<E> Ord for Entry<E> {
    fn cmp(&self, other: &Self) -> Ordering {
        // Reversed: BinaryHeap is a max-heap and we want the earliest (time, seq) on top.
        (other.time_bits, other.seq).cmp(&(self.time_bits, self.seq))
    }
}

/// The pending events of a simulation and its clock.
pub struct EventQueue<E> {
    heap: BinaryHeap<Entry<E>>,
    now: f64,
    next_seq: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E> EventQueue<E> {
    pub fn new() -> Self {
        Self::with_first_sequence(0)
    }

    /// A queue whose first sequence number is `first_seq`, so that events kept outside the heap (such as a sorted
    /// arrival list) can own the numbers below it and still take part in the same FIFO tie order.
    pub fn with_first_sequence(first_seq: u64) -> Self {
        EventQueue { heap: BinaryHeap::new(), now: 0.0, next_seq: first_seq }
    }

    /// Current simulated time in seconds.
    pub fn now(&self) -> f64 {
        self.now
    }

    /// Number of pending events.
    pub fn len(&self) -> usize {
        self.heap.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }

    /// Schedules `event` at absolute time `time` (seconds, ≥ now).
    pub fn schedule(&mut self, time: f64, event: E) -> Result<(), PastEventError> {
        if time.is_nan() || time < self.now || !time.is_finite() {
            return Err(PastEventError { now: self.now, requested: time });
        }
        let seq = self.next_seq;
        self.next_seq += 1;
        // +0.0 normalises a possible -0.0 so the bit trick holds.
        self.heap.push(Entry { time_bits: (time + 0.0).to_bits(), seq, event });
        Ok(())
    }

    /// (time, sequence) of the next event, without removing it.
    pub fn peek_key(&self) -> Option<(f64, u64)> {
        self.heap.peek().map(|e| (f64::from_bits(e.time_bits), e.seq))
    }

    /// Removes the next event and advances the clock to its time.
    pub fn pop(&mut self) -> Option<(f64, E)> {
        let e = self.heap.pop()?;
        self.now = f64::from_bits(e.time_bits);
        Some((self.now, e.event))
    }

    /// Advances the clock without an event (for events held outside the heap); never backwards.
    pub fn advance_to(&mut self, time: f64) -> Result<(), PastEventError> {
        if time.is_nan() || time < self.now {
            return Err(PastEventError { now: self.now, requested: time });
        }
        self.now = time;
        Ok(())
    }

    /// Reserves capacity for `n` more events.
    pub fn reserve(&mut self, n: usize) {
        self.heap.reserve(n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_in_time_then_fifo_order() {
        let mut q = EventQueue::new();
        q.schedule(5.0, 'a').unwrap();
        q.schedule(1.0, 'b').unwrap();
        q.schedule(5.0, 'c').unwrap();
        q.schedule(0.0, 'd').unwrap();
        q.schedule(5.0, 'e').unwrap();
        let order: Vec<char> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
        assert_eq!(order, vec!['d', 'b', 'a', 'c', 'e']);
        assert_eq!(q.now(), 5.0);
    }

    /// Random interleavings of pops and schedules, with many ties, against a sorted reference.
    #[test]
    fn matches_a_sorted_reference_under_random_interleavings() {
        let mut rng = crate::engine::Rng::new(11);
        let mut q = EventQueue::with_first_sequence(100);
        let mut reference: Vec<(u64, u64, u32)> = Vec::new(); // (time, seq, id)
        let mut seq = 100;
        for id in 0..20_000u32 {
            if rng.below(5) < 2 {
                let got = q.pop().map(|(t, e)| (t as u64, e));
                reference.sort_unstable();
                let want = (!reference.is_empty()).then(|| reference.remove(0)).map(|(t, _, e)| (t, e));
                assert_eq!(got, want, "pop {id}");
            }
            if rng.below(4) < 3 {
                let t = q.now() as u64 + rng.below(8);
                q.schedule(t as f64, id).unwrap();
                reference.push((t, seq, id));
                seq += 1;
            }
            assert_eq!(q.len(), reference.len());
            if rng.below(10) == 0 {
                reference.sort_unstable();
                assert_eq!(q.peek_key(), reference.first().map(|&(t, s, _)| (t as f64, s)));
            }
        }
        reference.sort_unstable();
        let rest: Vec<u32> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
        assert_eq!(rest, reference.iter().map(|&(_, _, e)| e).collect::<Vec<_>>());
        assert!(q.is_empty());
    }

    #[test]
    fn rejects_the_past_and_nan() {
        let mut q = EventQueue::new();
        q.schedule(3.0, ()).unwrap();
        q.pop();
        assert_eq!(q.schedule(2.0, ()), Err(PastEventError { now: 3.0, requested: 2.0 }));
        assert!(q.schedule(f64::NAN, ()).is_err());
        assert!(q.schedule(f64::INFINITY, ()).is_err());
        assert!(q.schedule(3.0, ()).is_ok());
    }
}
