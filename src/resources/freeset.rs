//! The set of clusters with a free processor, ordered by speed (the fastest is found in O(C/64)) or in the
//! platform's listed order.

/// Clusters with at least one free processor as an RM sees them, kept as a bitset over ranks: speed ranks
/// (rank 0 = fastest; equal speeds keep index order) for a set built by `new`, the cluster index for one built by
/// `listed`.
#[derive(Clone, Debug)]
pub struct FreeSet {
    bits: Vec<u64>,
    rank_of: Vec<u32>,
    cluster_at: Vec<u32>,
    len: usize,
}

impl FreeSet {
    /// An empty set over clusters with these speeds.
    pub fn new(speeds: &[f64]) -> Self {
        let mut cluster_at: Vec<u32> = (0..speeds.len() as u32).collect();
        cluster_at.sort_by(|&a, &b| speeds[b as usize].total_cmp(&speeds[a as usize]).then(a.cmp(&b)));
        let mut rank_of = vec![0; speeds.len()];
        for (r, &c) in cluster_at.iter().enumerate() {
            rank_of[c as usize] = r as u32;
        }
        FreeSet { bits: vec![0; speeds.len().div_ceil(64)], rank_of, cluster_at, len: 0 }
    }

    /// An empty set over `n` clusters in their listed (index) order; `fastest` then means the first listed.
    pub fn listed(n: usize) -> Self {
        FreeSet {
            bits: vec![0; n.div_ceil(64)],
            rank_of: (0..n as u32).collect(),
            cluster_at: (0..n as u32).collect(),
            len: 0,
        }
    }

    pub fn insert(&mut self, c: u32) {
        let r = self.rank_of[c as usize] as usize;
        let (w, b) = (r / 64, 1u64 << (r % 64));
        if self.bits[w] & b == 0 {
            self.bits[w] |= b;
            self.len += 1;
        }
    }

    pub fn remove(&mut self, c: u32) {
        let r = self.rank_of[c as usize] as usize;
        let (w, b) = (r / 64, 1u64 << (r % 64));
        if self.bits[w] & b != 0 {
            self.bits[w] &= !b;
            self.len -= 1;
        }
    }

    pub fn contains(&self, c: u32) -> bool {
        let r = self.rank_of[c as usize] as usize;
        self.bits[r / 64] & (1u64 << (r % 64)) != 0
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The fastest cluster in the set (the first in the set's order).
    pub fn fastest(&self) -> Option<u32> {
        self.first_rank_from(0).map(|r| self.cluster_at[r])
    }

    /// The next cluster in the set's order after `c`, wrapping around (round-robin over the set).
    pub fn next_after(&self, c: Option<u32>) -> Option<u32> {
        let start = c.map_or(0, |c| self.rank_of[c as usize] as usize + 1);
        self.first_rank_from(start).or_else(|| self.first_rank_from(0)).map(|r| self.cluster_at[r])
    }

    /// Members in the set's order.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.bits.iter().enumerate().flat_map(move |(w, &word)| {
            let mut word = word;
            std::iter::from_fn(move || {
                if word == 0 {
                    return None;
                }
                let b = word.trailing_zeros() as usize;
                word &= word - 1;
                Some(self.cluster_at[w * 64 + b])
            })
        })
    }

    fn first_rank_from(&self, start: usize) -> Option<usize> {
        let mut w = start / 64;
        if w >= self.bits.len() {
            return None;
        }
        let mut word = self.bits[w] & (!0u64 << (start % 64));
        loop {
            if word != 0 {
                return Some(w * 64 + word.trailing_zeros() as usize);
            }
            w += 1;
            if w >= self.bits.len() {
                return None;
            }
            word = self.bits[w];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speed_order_and_round_robin() {
        let speeds: Vec<f64> = (0..130).map(|i| 1.0 + (i % 7) as f64 * 0.1).collect();
        let mut s = FreeSet::new(&speeds);
        assert_eq!(s.fastest(), None);
        for c in [3, 6, 13, 100, 129] {
            s.insert(c);
        }
        s.insert(6);
        assert_eq!(s.len(), 5);
        // Speeds: 3 -> 1.3, 6 -> 1.6, 13 -> 1.6, 100 -> 1.2, 129 -> 1.3; equal speeds keep index order.
        assert_eq!(s.fastest(), Some(6));
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![6, 13, 3, 129, 100]);
        assert_eq!(s.next_after(Some(13)), Some(3));
        assert_eq!(s.next_after(Some(100)), Some(6));
        s.remove(6);
        assert_eq!(s.fastest(), Some(13));
        assert!(!s.contains(6) && s.contains(13));
    }

    #[test]
    fn listed_order_ignores_speed() {
        // The same members as a listed set: index order, round-robin by index.
        let mut s = FreeSet::listed(130);
        for c in [129, 3, 100, 13] {
            s.insert(c);
        }
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![3, 13, 100, 129]);
        assert_eq!(s.next_after(Some(13)), Some(100));
        assert_eq!(s.next_after(Some(129)), Some(3));
        assert_eq!(s.next_after(None), Some(3));
    }
}
