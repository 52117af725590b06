//! A 4-ary max-heap of eligible tasks keyed by their runtime estimate: half the depth of a binary heap, and the
//! four children of a node share a cache line, which keeps large queues cheap.

/// (key, task, bot): the largest key first, then the lowest task id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub key: u64,
    pub task: u32,
    pub bot: u32,
}

impl Entry {
    fn before(&self, other: &Entry) -> bool {
        self.key > other.key || (self.key == other.key && self.task < other.task)
    }
}

#[derive(Default, Debug)]
pub struct DHeap {
    v: Vec<Entry>,
}

impl DHeap {
    pub fn is_empty(&self) -> bool {
        self.v.is_empty()
    }

    pub fn peek(&self) -> Option<&Entry> {
        self.v.first()
    }

    pub fn push(&mut self, e: Entry) {
        self.v.push(e);
        let mut i = self.v.len() - 1;
        while i > 0 {
            let p = (i - 1) / 4;
            if e.before(&self.v[p]) {
                self.v[i] = self.v[p];
                i = p;
            } else {
                break;
            }
        }
        self.v[i] = e;
    }

    pub fn pop(&mut self) -> Option<Entry> {
        let last = self.v.pop()?;
        if self.v.is_empty() {
            return Some(last);
        }
        let top = self.v[0];
        let n = self.v.len();
        let mut i = 0;
        loop {
            let first = 4 * i + 1;
            if first >= n {
                break;
            }
            let mut best = first;
            for c in first + 1..(first + 4).min(n) {
                if self.v[c].before(&self.v[best]) {
                    best = c;
                }
            }
            if self.v[best].before(&last) {
                self.v[i] = self.v[best];
                i = best;
            } else {
                break;
            }
        }
        self.v[i] = last;
        Some(top)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Rng;

    #[test]
    fn pops_in_key_then_task_order() {
        let mut h = DHeap::default();
        let mut rng = Rng::new(5);
        let mut reference = Vec::new();
        for t in 0..3000u32 {
            let e = Entry { key: rng.below(40), task: t, bot: t / 3 };
            h.push(e);
            reference.push(e);
            if rng.below(3) == 0 {
                let got = h.pop().unwrap();
                let (i, _) =
                    reference.iter().enumerate().min_by_key(|(_, e)| (std::cmp::Reverse(e.key), e.task)).unwrap();
                assert_eq!(got, reference.swap_remove(i));
            }
        }
        reference.sort_by_key(|e| (std::cmp::Reverse(e.key), e.task));
        let rest: Vec<Entry> = std::iter::from_fn(|| h.pop()).collect();
        assert_eq!(rest, reference);
    }
}
