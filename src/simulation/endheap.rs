//! An indexed min-heap of estimated end times over a cluster's processors: insert, remove any and peek in O(log n).

const ABSENT: u32 = u32::MAX;

#[derive(Clone, Debug)]
pub struct EndHeap {
    heap: Vec<(f64, u32)>,
    pos: Vec<u32>,
}

impl EndHeap {
    pub fn new(slots: usize) -> Self {
        EndHeap { heap: Vec::new(), pos: vec![ABSENT; slots] }
    }

    pub fn peek(&self) -> Option<f64> {
        self.heap.first().map(|e| e.0)
    }

    pub fn insert(&mut self, slot: u32, key: f64) {
        debug_assert_eq!(self.pos[slot as usize], ABSENT);
        self.heap.push((key, slot));
        let i = self.heap.len() - 1;
        self.pos[slot as usize] = i as u32;
        self.up(i);
    }

    pub fn remove(&mut self, slot: u32) {
        let i = self.pos[slot as usize];
        if i == ABSENT {
            return;
        }
        let i = i as usize;
        self.pos[slot as usize] = ABSENT;
        let last = self.heap.pop().expect("non-empty");
        if i < self.heap.len() {
            self.heap[i] = last;
            self.pos[last.1 as usize] = i as u32;
            self.down(i);
            self.up(i);
        }
    }

    fn less(&self, a: usize, b: usize) -> bool {
        let (x, y) = (self.heap[a], self.heap[b]);
        x.0 < y.0 || (x.0 == y.0 && x.1 < y.1)
    }

    fn swap(&mut self, a: usize, b: usize) {
        self.heap.swap(a, b);
        self.pos[self.heap[a].1 as usize] = a as u32;
        self.pos[self.heap[b].1 as usize] = b as u32;
    }

    fn up(&mut self, mut i: usize) {
        while i > 0 {
            let p = (i - 1) / 2;
            if self.less(i, p) {
                self.swap(i, p);
                i = p;
            } else {
                break;
            }
        }
    }

    fn down(&mut self, mut i: usize) {
        loop {
            let (l, r) = (2 * i + 1, 2 * i + 2);
            let mut m = i;
            if l < self.heap.len() && self.less(l, m) {
                m = l;
            }
            if r < self.heap.len() && self.less(r, m) {
                m = r;
            }
            if m == i {
                break;
            }
            self.swap(i, m);
            i = m;
        }
    }
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
            assert_eq!(h.heap.len(), reference.len());
        }
    }
}
