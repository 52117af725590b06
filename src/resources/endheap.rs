//! An indexed min-heap of estimated end times over a cluster's processors: insert, remove any and peek in O(log n).

const ABSENT: u32 = u32::MAX;

/// A 4-ary heap with the keys in their own array (four children share a cache line) and hole-based sifting (one
/// write per level instead of a swap).
#[derive(Clone, Debug)]
pub struct EndHeap {
    keys: Vec<f64>,
    slots: Vec<u32>,
    pos: Vec<u32>,
}

impl EndHeap {
    pub fn new(slots: usize) -> Self {
        EndHeap { keys: Vec::new(), slots: Vec::new(), pos: vec![ABSENT; slots] }
    }

    pub fn peek(&self) -> Option<f64> {
        self.keys.first().copied()
    }

    /// The smallest key and its slot.
    pub fn peek_slot(&self) -> Option<(f64, u32)> {
        Some((*self.keys.first()?, self.slots[0]))
    }

    /// The key of `slot`, if present.
    pub fn key(&self, slot: u32) -> Option<f64> {
        let i = self.pos[slot as usize];
        (i != ABSENT).then(|| self.keys[i as usize])
    }

    /// Sets the key of `slot` (inserting it if absent), O(log n).
    pub fn set(&mut self, slot: u32, key: f64) {
        self.remove(slot);
        self.insert(slot, key);
    }

    pub fn insert(&mut self, slot: u32, key: f64) {
        debug_assert_eq!(self.pos[slot as usize], ABSENT);
        self.keys.push(key);
        self.slots.push(slot);
        self.sift_up(self.keys.len() - 1, key, slot);
    }

    pub fn remove(&mut self, slot: u32) {
        let i = self.pos[slot as usize];
        if i == ABSENT {
            return;
        }
        self.pos[slot as usize] = ABSENT;
        let (key, last) = (self.keys.pop().expect("non-empty"), self.slots.pop().expect("non-empty"));
        let i = i as usize;
        if i < self.keys.len() {
            if i > 0 && before(key, last, self.keys[(i - 1) / 4], self.slots[(i - 1) / 4]) {
                self.sift_up(i, key, last);
            } else {
                self.sift_down(i, key, last);
            }
        }
    }

    fn place(&mut self, i: usize, key: f64, slot: u32) {
        self.keys[i] = key;
        self.slots[i] = slot;
        self.pos[slot as usize] = i as u32;
    }

    fn sift_up(&mut self, mut i: usize, key: f64, slot: u32) {
        while i > 0 {
            let p = (i - 1) / 4;
            if !before(key, slot, self.keys[p], self.slots[p]) {
                break;
            }
            let (pk, ps) = (self.keys[p], self.slots[p]);
            self.place(i, pk, ps);
            i = p;
        }
        self.place(i, key, slot);
    }

    fn sift_down(&mut self, mut i: usize, key: f64, slot: u32) {
        let n = self.keys.len();
        loop {
            let first = 4 * i + 1;
            if first >= n {
                break;
            }
            let mut best = first;
            for c in first + 1..(first + 4).min(n) {
                if before(self.keys[c], self.slots[c], self.keys[best], self.slots[best]) {
                    best = c;
                }
            }
            if !before(self.keys[best], self.slots[best], key, slot) {
                break;
            }
            let (bk, bs) = (self.keys[best], self.slots[best]);
            self.place(i, bk, bs);
            i = best;
        }
        self.place(i, key, slot);
    }
}

/// Heap order: the earlier end, then the lower slot.
fn before(k1: f64, s1: u32, k2: f64, s2: u32) -> bool {
    k1 < k2 || (k1 == k2 && s1 < s2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Rng;

    #[test]
    fn matches_a_sorted_reference() {
        let mut h = EndHeap::new(64);
        let mut reference: Vec<(f64, u32)> = Vec::new();
        let mut rng = Rng::new(3);
        for _ in 0..5000 {
            let slot = rng.below(64) as u32;
            if let Some(i) = reference.iter().position(|e| e.1 == slot) {
                reference.remove(i);
                h.remove(slot);
            } else {
                let key = (rng.below(50)) as f64;
                reference.push((key, slot));
                h.insert(slot, key);
            }
            let min = reference.iter().map(|e| e.0).fold(f64::INFINITY, f64::min);
            assert_eq!(h.peek().unwrap_or(f64::INFINITY), min);
            assert_eq!(h.keys.len(), reference.len());
        }
    }
}
