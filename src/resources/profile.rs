//! The availability profile of one site for conservative backfilling: how many of its processors are free from each
//! breakpoint of time to the next, given every reservation (running jobs and queued jobs alike). A step function
//! kept as two parallel sorted arrays (times, free counts); `trim` drops the past.
//!
//! Queries scan it, O(R) for R breakpoints after the time asked (at most two per reservation), in tight loops
//! over contiguous arrays. The arrays keep free room before their first step, so that a step added or dropped in
//! the first half moves the steps before it (into that room), not the ones after, and dropping the past moves
//! nothing: an early end that re-places the first jobs of a long queue, or a pass at the head, costs what is near
//! the present, not the length of the profile. A tree and block-vectorised scans were measured to be slower
//! (docs/data_grid.md): under load a query passes a too-short hole every seven steps or so, and each hole costs a tree
//! O(log R) with pointer chasing.

/// Free processors over time: step i has `free` count `free[head + i]` on [`times[head + i]`,
/// `times[head + i + 1]`), the last count forever; the slots before `head` are free room. Neighbouring counts
/// always differ, so the steps are as few as the function allows.
#[derive(Clone)]
pub struct Profile {
    processors: u32,
    head: usize,
    times: Vec<f64>,
    free: Vec<u32>,
}

impl PartialEq for Profile {
    /// The same step function (the free room before the steps aside).
    fn eq(&self, other: &Profile) -> bool {
        self.processors == other.processors && self.times() == other.times() && self.frees() == other.frees()
    }
}

impl std::fmt::Debug for Profile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Profile")
            .field("processors", &self.processors)
            .field("times", &self.times())
            .field("free", &self.frees())
            .finish()
    }
}

impl Profile {
    /// A site of `processors` processors, all free from time 0 on.
    pub fn new(processors: u32) -> Profile {
        Profile { processors, head: 0, times: vec![0.0], free: vec![processors] }
    }

    pub fn processors(&self) -> u32 {
        self.processors
    }

    /// Breakpoints kept (the size R that queries scan).
    pub fn breakpoints(&self) -> usize {
        self.times.len() - self.head
    }

    /// The steps' start times.
    fn times(&self) -> &[f64] {
        &self.times[self.head..]
    }

    /// The steps' free counts.
    fn frees(&self) -> &[u32] {
        &self.free[self.head..]
    }

    /// Free processors at time `t`.
    pub fn free_at(&self, t: f64) -> u32 {
        self.frees()[self.index_at(t)]
    }

    /// The index of the step holding `t` (the first step when `t` is before it).
    fn index_at(&self, t: f64) -> usize {
        self.times().partition_point(|&s| s <= t).saturating_sub(1)
    }

    /// Adds step `i` (the steps from `i` on move one up): the steps before it move into the free room when `i`
    /// is in the first half, else the steps after it move.
    fn insert_step(&mut self, i: usize, t: f64, f: u32) {
        if i < self.breakpoints() / 2 {
            if self.head == 0 {
                // Room for half as many steps again, so that this happens once per that many front additions.
                let room = self.breakpoints() / 2 + 8;
                self.times.splice(0..0, std::iter::repeat_n(0.0, room));
                self.free.splice(0..0, std::iter::repeat_n(0, room));
                self.head = room;
            }
            let h = self.head;
            self.times.copy_within(h..h + i, h - 1);
            self.free.copy_within(h..h + i, h - 1);
            self.head -= 1;
            (self.times[h - 1 + i], self.free[h - 1 + i]) = (t, f);
        } else {
            self.times.insert(self.head + i, t);
            self.free.insert(self.head + i, f);
        }
    }

    /// Drops step `i`, moving the steps on its shorter side.
    fn remove_step(&mut self, i: usize) {
        let h = self.head;
        if i < self.breakpoints() / 2 {
            self.times.copy_within(h..h + i, h + 1);
            self.free.copy_within(h..h + i, h + 1);
            self.head += 1;
        } else {
            self.times.remove(h + i);
            self.free.remove(h + i);
        }
    }

    /// The earliest s ≥ `from` with at least `procs` processors free over [s, s + `len`) (free at s when `len` is
    /// 0); infinity when the site has fewer than `procs` processors.
    pub fn earliest(&self, from: f64, procs: u32, len: f64) -> f64 {
        if procs > self.processors {
            return f64::INFINITY;
        }
        // Every reservation ends, so the last step has every processor free and some s fits.
        self.first_fit(from, procs, len, f64::INFINITY).unwrap_or(f64::INFINITY)
    }

    /// For a hold of `procs` processors reserved over [`limit`, `limit` + `len`): the earliest s in [`from`,
    /// `limit`) at which it could be held instead, the profile still counting it, or None. Such an s needs the
    /// processors free over [s, min(s + `len`, `limit`)) only, since from `limit` on the hold's own processors
    /// serve; so this equals taking the hold out and asking `earliest` again when that answer is before `limit`,
    /// without touching the profile, and it scans only the steps before `limit`.
    pub fn earlier_start(&self, from: f64, procs: u32, len: f64, limit: f64) -> Option<f64> {
        self.first_fit(from, procs, len, limit)
    }

    /// The earliest s in [`from`, `limit`) with `procs` processors free over [s, min(s + `len`, `limit`)). The
    /// hot loop of conservative backfilling (compression asks it of every queued job), hence its two tight inner
    /// loops: one over the free counts of steps too narrow for the job, one over the steps a window covers.
    fn first_fit(&self, from: f64, procs: u32, len: f64, limit: f64) -> Option<f64> {
        let times = self.times();
        let free = &self.frees()[..times.len()];
        let mut k = self.index_at(from);
        let mut start = from;
        loop {
            if free[k] < procs {
                k += 1 + free[k + 1..].iter().position(|&f| f >= procs)?;
                start = times[k];
            }
            if start >= limit {
                return None;
            }
            let end = (start + len).min(limit);
            // Step k holds `start`; the window fits unless a step that begins before its end is short.
            loop {
                k += 1;
                match times.get(k) {
                    Some(&t) if t < end => {
                        if free[k] < procs {
                            break;
                        }
                    }
                    _ => return Some(start),
                }
            }
        }
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
            let step_start = self.times()[k];
            if step_start <= from {
                return Some(from);
            }
            if k == 0 || self.frees()[k - 1] < procs {
                return Some(step_start);
            }
            k -= 1;
        }
    }

    /// Splits the step holding `t` so that a step begins at `t`; the index of that step.
    fn split(&mut self, t: f64) -> usize {
        let i = self.index_at(t);
        let at = self.times()[i];
        if at == t {
            return i;
        }
        if t < at {
            self.insert_step(0, t, self.processors);
            return 0;
        }
        self.insert_step(i + 1, t, self.frees()[i]);
        i + 1
    }

    /// Takes `procs` processors over [`start`, `end`); the caller has checked they are free.
    pub fn reserve(&mut self, start: f64, end: f64, procs: u32) {
        self.apply(start, end, procs, false);
    }

    /// Gives back `procs` processors over [`start`, `end`).
    pub fn release(&mut self, start: f64, end: f64, procs: u32) {
        self.apply(start, end, procs, true);
    }

    fn apply(&mut self, start: f64, end: f64, procs: u32, give: bool) {
        if end <= start {
            return;
        }
        let a = self.split(start);
        let b = self.split(end);
        let cap = self.processors;
        let h = self.head;
        let range = &mut self.free[h + a..h + b];
        // Adding the same count to every step keeps distinct neighbours distinct, so only the two ends of the
        // range can merge; a count clamped at 0 or at the capacity (a caller's mistake) may merge anywhere.
        let clamped = if give {
            range.iter().fold(false, |c, &f| c | (f.saturating_add(procs) > cap))
        } else {
            range.iter().fold(false, |c, &f| c | (f < procs))
        };
        if give {
            range.iter_mut().for_each(|f| *f = (*f + procs).min(cap));
        } else {
            range.iter_mut().for_each(|f| *f = f.saturating_sub(procs));
        }
        let (lo, hi) = (a.saturating_sub(1), (b + 1).min(self.breakpoints()));
        if clamped || procs == 0 {
            let mut k = hi - 1;
            while k > lo {
                self.merge_at(k);
                k -= 1;
            }
        } else {
            // The end first, so that the start's index still holds.
            if b < self.breakpoints() {
                self.merge_at(b);
            }
            if a > 0 {
                self.merge_at(a);
            }
        }
    }

    /// Drops step `k` when it has the same count as the step before it.
    fn merge_at(&mut self, k: usize) {
        let free = self.frees();
        if free[k] == free[k - 1] {
            self.remove_step(k);
        }
    }

    /// Forgets the steps that end at or before `now` (the past cannot be reserved).
    pub fn trim(&mut self, now: f64) {
        let i = self.index_at(now);
        self.head += i;
        // The room before the steps is given back once it outgrows them, so it costs at most twice their memory.
        if self.head > self.breakpoints() + 64 {
            self.times.drain(..self.head);
            self.free.drain(..self.head);
            self.head = 0;
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

    /// The profile as it was before the parallel arrays: steps in one vector, every query a step-by-step scan, every
    /// change merged over its whole range. The new profile must give the same answers and the same steps, so that
    /// schedules stay identical bit for bit.
    #[derive(Clone, Debug)]
    struct Stepwise {
        processors: u32,
        steps: Vec<(f64, u32)>,
    }

    impl Stepwise {
        fn index_at(&self, t: f64) -> usize {
            self.steps.partition_point(|s| s.0 <= t).saturating_sub(1)
        }
        fn earliest(&self, from: f64, procs: u32, len: f64) -> f64 {
            if procs > self.processors {
                return f64::INFINITY;
            }
            let (mut start, mut j) = (from, self.index_at(from));
            loop {
                if self.steps[j].1 < procs {
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
        fn earlier_start(&self, from: f64, procs: u32, len: f64, limit: f64) -> Option<f64> {
            let (mut start, mut j) = (from, self.index_at(from));
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
        fn split(&mut self, t: f64) -> usize {
            let i = self.index_at(t);
            if self.steps[i].0 == t {
                return i;
            }
            if t < self.steps[i].0 {
                self.steps.insert(0, (t, self.processors));
                return 0;
            }
            self.steps.insert(i + 1, (t, self.steps[i].1));
            i + 1
        }
        fn apply(&mut self, start: f64, end: f64, f: impl Fn(u32) -> u32) {
            if end <= start {
                return;
            }
            let (a, b) = (self.split(start), self.split(end));
            self.steps[a..b].iter_mut().for_each(|s| s.1 = f(s.1));
            let (lo, hi) = (a.saturating_sub(1), (b + 1).min(self.steps.len()));
            let mut k = hi - 1;
            while k > lo {
                if self.steps[k].1 == self.steps[k - 1].1 {
                    self.steps.remove(k);
                }
                k -= 1;
            }
        }
        fn trim(&mut self, now: f64) {
            let i = self.index_at(now);
            self.steps.drain(..i);
        }
    }

    /// Random reservations (placed where `earliest` says, at fractional times, some overlapping by mistake so that
    /// counts clamp), releases of any part of them, early releases and trims, on sites of 1 to 300 processors, so
    /// that long runs of narrow steps occur: every query and the steps themselves equal the stepwise profile's.
    #[test]
    fn queries_and_steps_equal_the_stepwise_profile() {
        let mut rng = crate::engine::Rng::stream(11, "test.profile.stepwise");
        for case in 0..200 {
            let cap = 1 + rng.below(if case % 2 == 0 { 8 } else { 300 }) as u32;
            let mut p = Profile::new(cap);
            let mut q = Stepwise { processors: cap, steps: vec![(0.0, cap)] };
            let mut held: Vec<(f64, f64, u32)> = Vec::new();
            let mut now = 0.0;
            let width = |rng: &mut crate::engine::Rng| {
                let most = 1 + rng.below(40);
                1 + rng.below(u64::from(cap).min(most)) as u32
            };
            for step in 0..300 {
                let procs = width(&mut rng);
                let len = rng.below(400) as f64 / 7.0;
                let from = now + rng.below(50) as f64 / 3.0;
                match rng.below(10) {
                    0 if !held.is_empty() => {
                        let (s, e, n) = held.swap_remove(rng.below(held.len() as u64) as usize);
                        let s = if rng.below(2) == 0 { s.max(now) } else { (s + e) / 2.0 };
                        p.release(s, e, n);
                        q.apply(s, e, |f| (f + n).min(cap));
                    }
                    1 => {
                        now += rng.below(30) as f64 / 4.0;
                        p.trim(now);
                        q.trim(now);
                        held.retain(|h| h.1 > now);
                    }
                    2 => {
                        // A reservation that does not check its place: counts may clamp at zero.
                        p.reserve(from, from + len, procs);
                        q.apply(from, from + len, |f| f.saturating_sub(procs));
                    }
                    _ => {
                        let s = p.earliest(from, procs, len);
                        assert_eq!(s, q.earliest(from, procs, len), "case {case} step {step}");
                        p.reserve(s, s + len, procs);
                        q.apply(s, s + len, |f| f.saturating_sub(procs));
                        held.push((s, s + len, procs));
                    }
                }
                let want: (Vec<f64>, Vec<u32>) = q.steps.iter().copied().unzip();
                assert_eq!((p.times(), p.frees()), (&want.0[..], &want.1[..]), "case {case} step {step}");
                for _ in 0..4 {
                    let (procs, len, from) = (width(&mut rng), rng.below(400) as f64 / 7.0, now + rng.below(90) as f64);
                    let limit = from + rng.below(200) as f64 / 3.0;
                    assert_eq!(p.earliest(from, procs, len), q.earliest(from, procs, len), "case {case}");
                    let want = q.earlier_start(from, procs, len, limit);
                    assert_eq!(p.earlier_start(from, procs, len, limit), want, "case {case}: {from} {procs} {len}");
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
