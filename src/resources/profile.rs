//! The availability profile of one site for conservative backfilling: how many of its processors are free from each
//! breakpoint of time to the next, given every reservation (running jobs and queued jobs alike). A step function
//! kept as a sorted list of breakpoints; queries scan it, so each costs O(R) for R breakpoints after the time asked
//! (at most two per reservation), and `trim` drops the past.

/// Free processors over time: `steps[i] = (t_i, free_i)` holds on [t_i, t_{i+1}), the last step forever.
#[derive(Clone, Debug, PartialEq)]
pub struct Profile {
    processors: u32,
    steps: Vec<(f64, u32)>,
}

impl Profile {
    /// A site of `processors` processors, all free from time 0 on.
    pub fn new(processors: u32) -> Profile {
        Profile { processors, steps: vec![(0.0, processors)] }
    }

    pub fn processors(&self) -> u32 {
        self.processors
    }

    /// Breakpoints kept (the size R that queries scan).
    pub fn breakpoints(&self) -> usize {
        self.steps.len()
    }

    /// Free processors at time `t`.
    pub fn free_at(&self, t: f64) -> u32 {
        self.steps[self.index_at(t)].1
    }

    /// The index of the step holding `t` (the first step when `t` is before it).
    fn index_at(&self, t: f64) -> usize {
        self.steps.partition_point(|s| s.0 <= t).saturating_sub(1)
    }

    /// The earliest s ≥ `from` with at least `procs` processors free over [s, s + `len`) (free at s when `len` is
    /// 0); infinity when the site has fewer than `procs` processors.
    pub fn earliest(&self, from: f64, procs: u32, len: f64) -> f64 {
        if procs > self.processors {
            return f64::INFINITY;
        }
        let mut start = from;
        let mut j = self.index_at(from);
        // j walks the steps that [start, start + len) covers; a step short of processors moves start past it.
        loop {
            if self.steps[j].1 < procs {
                // Every reservation ends, so the last step has every processor free and j + 1 exists.
                j += 1;
                start = self.steps[j].0;
                continue;
            }
            match self.steps.get(j + 1) {
                Some(&(t, _)) if t < start + len => j += 1,
                _ => return start,
            }
        }
    }

    /// For a hold of `procs` processors reserved over [`limit`, `limit` + `len`): the earliest s in [`from`,
    /// `limit`) at which it could be held instead, the profile still counting it, or None. Such an s needs the
    /// processors free over [s, min(s + `len`, `limit`)) only, since from `limit` on the hold's own processors
    /// serve; so this equals taking the hold out and asking `earliest` again when that answer is before `limit`,
    /// without touching the profile, and it scans only the steps before `limit`.
    pub fn earlier_start(&self, from: f64, procs: u32, len: f64, limit: f64) -> Option<f64> {
        let mut start = from;
        let mut j = self.index_at(from);
        while start < limit {
            if self.steps[j].1 < procs {
                j += 1;
                start = self.steps.get(j).map_or(f64::INFINITY, |s| s.0);
                continue;
            }
            match self.steps.get(j + 1) {
                Some(&(t, _)) if t < (start + len).min(limit) => j += 1,
                _ => return Some(start),
            }
        }
        None
    }

    /// The earliest s in [`from`, `until`] such that `procs` processors are free over [s, `until` + `len`): a hold
    /// that may begin before `until` (a job whose data arrives at `until` and then computes for `len`). `None` when
    /// [`until`, `until` + `len`) itself is not free.
    pub fn earliest_ending(&self, from: f64, until: f64, procs: u32, len: f64) -> Option<f64> {
        if procs > self.processors || self.earliest(until, procs, len) != until {
            return None;
        }
        // Walk back from `until` over the steps that have the processors free.
        let mut k = self.index_at(until);
        loop {
            let step_start = self.steps[k].0;
            if step_start <= from {
                return Some(from);
            }
            if k == 0 || self.steps[k - 1].1 < procs {
                return Some(step_start);
            }
            k -= 1;
        }
    }

    /// Splits the step holding `t` so that a step begins at `t`; the index of that step.
    fn split(&mut self, t: f64) -> usize {
        let i = self.index_at(t);
        if self.steps[i].0 == t {
            return i;
        }
        if t < self.steps[i].0 {
            self.steps.insert(0, (t, self.processors));
            return 0;
        }
        let free = self.steps[i].1;
        self.steps.insert(i + 1, (t, free));
        i + 1
    }

    /// Takes `procs` processors over [`start`, `end`); the caller has checked they are free.
    pub fn reserve(&mut self, start: f64, end: f64, procs: u32) {
        self.apply(start, end, |f| f.saturating_sub(procs));
    }

    /// Gives back `procs` processors over [`start`, `end`).
    pub fn release(&mut self, start: f64, end: f64, procs: u32) {
        let cap = self.processors;
        self.apply(start, end, |f| (f + procs).min(cap));
    }

    fn apply(&mut self, start: f64, end: f64, f: impl Fn(u32) -> u32) {
        if end <= start {
            return;
        }
        let a = self.split(start);
        let b = self.split(end);
        for s in &mut self.steps[a..b] {
            s.1 = f(s.1);
        }
        // Merge equal neighbours around the changed range, so the profile stays as short as it can.
        let lo = a.saturating_sub(1);
        let hi = (b + 1).min(self.steps.len());
        let mut k = hi - 1;
        while k > lo {
            if self.steps[k].1 == self.steps[k - 1].1 {
                self.steps.remove(k);
            }
            k -= 1;
        }
    }

    /// Forgets the steps that end at or before `now` (the past cannot be reserved).
    pub fn trim(&mut self, now: f64) {
        let i = self.index_at(now);
        if i > 0 {
            self.steps.drain(..i);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn earliest_finds_the_first_hole_long_enough() {
        let mut p = Profile::new(4);
        p.reserve(0.0, 10.0, 3); // 1 free on [0, 10)
        p.reserve(10.0, 20.0, 1); // 3 free on [10, 20)
        p.reserve(20.0, 30.0, 4); // none on [20, 30)
        assert_eq!(p.earliest(0.0, 1, 100.0), 30.0); // [20, 30) is full
        assert_eq!(p.earliest(0.0, 1, 20.0), 0.0);
        assert_eq!(p.earliest(0.0, 2, 5.0), 10.0);
        assert_eq!(p.earliest(0.0, 2, 15.0), 30.0);
        assert_eq!(p.earliest(12.0, 3, 8.0), 12.0);
        assert_eq!(p.earliest(12.0, 3, 8.5), 30.0);
        assert_eq!(p.free_at(25.0), 0);
        p.release(20.0, 30.0, 4);
        assert_eq!(p.earliest(0.0, 2, 15.0), 10.0);
        assert_eq!(p.breakpoints(), 3, "{p:?}");
    }

    #[test]
    fn a_hold_may_begin_before_its_data_when_the_hole_allows() {
        let mut p = Profile::new(4);
        p.reserve(0.0, 5.0, 4); // full until 5
        p.reserve(20.0, 30.0, 4); // full on [20, 30)
                                  // Data at 10, 8 s of computation: [10, 18) is free, and so is [5, 10): the hold may begin at 5.
        assert_eq!(p.earliest_ending(0.0, 10.0, 2, 8.0), Some(5.0));
        assert_eq!(p.earliest_ending(7.0, 10.0, 2, 8.0), Some(7.0));
        // 12 s of computation do not fit before 20.
        assert_eq!(p.earliest_ending(0.0, 10.0, 2, 12.0), None);
    }

    /// The profile against a plain array of free processors per second, under random reservations, releases and
    /// trims: every query on integer times, with lengths 0 to 12.
    #[test]
    fn queries_equal_a_per_second_array() {
        let mut rng = crate::engine::Rng::stream(7, "test.profile");
        for case in 0..300 {
            let cap = 1 + rng.below(6) as u32;
            let horizon = 80usize;
            let mut free = vec![cap; horizon + 60];
            let mut p = Profile::new(cap);
            let mut held: Vec<(usize, usize, u32)> = Vec::new();
            let mut now = 0usize;
            for _ in 0..40 {
                match rng.below(4) {
                    0 if !held.is_empty() => {
                        let (s, e, q) = held.swap_remove(rng.below(held.len() as u64) as usize);
                        let s = s.max(now);
                        p.release(s as f64, e as f64, q);
                        free[s..e].iter_mut().for_each(|f| *f += q);
                    }
                    1 => {
                        now += rng.below(3) as usize;
                        p.trim(now as f64);
                        held.retain(|h| h.1 > now);
                    }
                    _ => {
                        let q = 1 + rng.below(u64::from(cap)) as u32;
                        let len = 1 + rng.below(10) as usize;
                        let from = now + rng.below(20) as usize;
                        let s = p.earliest(from as f64, q, len as f64) as usize;
                        let brute = (from..).find(|&t| free[t..t + len].iter().all(|&f| f >= q)).unwrap_or(0);
                        assert_eq!(s, brute, "case {case}: earliest({from}, {q}, {len})");
                        if s + len < horizon {
                            p.reserve(s as f64, (s + len) as f64, q);
                            free[s..s + len].iter_mut().for_each(|f| *f -= q);
                            held.push((s, s + len, q));
                        }
                    }
                }
                for (t, &f) in free.iter().enumerate().take(horizon).skip(now) {
                    assert_eq!(p.free_at(t as f64), f, "case {case}: free at {t}");
                }
                let (q, len) = (1 + rng.below(u64::from(cap)) as u32, rng.below(13) as usize);
                let until = now + rng.below(30) as usize;
                let fits = |t: usize| free[t..(t + len).max(t + 1)].iter().all(|&f| f >= q);
                let want =
                    fits(until).then(|| (now..=until).rev().take_while(|&t| free[t] >= q).last().unwrap_or(until));
                let want = want.map(|s| s.max(now) as f64);
                assert_eq!(p.earliest_ending(now as f64, until as f64, q, len as f64), want, "case {case}");
                // A held reservation asked in place equals taking it out and asking again.
                if let Some(&(s, e, q)) = held.iter().find(|h| h.0 >= now) {
                    let from = (now + rng.below(5) as usize) as f64;
                    let mut out = p.clone();
                    out.release(s as f64, e as f64, q);
                    let again = out.earliest(from, q, (e - s) as f64);
                    let want = (again < s as f64).then_some(again);
                    assert_eq!(p.earlier_start(from, q, (e - s) as f64, s as f64), want, "case {case}: {s}..{e} × {q}");
                }
            }
        }
    }

    #[test]
    fn trim_keeps_the_present() {
        let mut p = Profile::new(2);
        p.reserve(0.0, 10.0, 1);
        p.reserve(10.0, 20.0, 2);
        p.trim(15.0);
        assert_eq!(p.free_at(15.0), 0);
        assert_eq!(p.free_at(25.0), 2);
        assert_eq!(p.earliest(15.0, 1, 1.0), 20.0);
    }
}
