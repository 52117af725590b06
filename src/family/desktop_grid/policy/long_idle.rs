//! LongIdle: the BoT hosting the candidate task with the largest waiting time, "the total amount of time in which
//! the task has had no running replicas" ([Anglano09] §III-C); ties go to the oldest BoT. The pool keeps the
//! per-BoT maxima in ordered sets, so the choice is O(log n).

use super::{BotView, SelectBag};

pub struct LongIdle;

impl SelectBag for LongIdle {
    fn select(&mut self, v: &BotView) -> Option<u32> {
        v.pool.longest_idle_bot(v.now)
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::wqr_ft::TaskPool;
    use super::*;

    /// The indexed choice equals a scan of every BoT with a candidate.
    #[test]
    fn indexed_choice_equals_the_scan() {
        let mut p = TaskPool::new(4, 12, 2, true);
        let mut rng = crate::engine::Rng::new(4);
        for b in 0..4u32 {
            p.arrive(b, 3 * b, 3, f64::from(b) * 10.0);
        }
        let mut now = 40.0;
        for step in 0..400 {
            now += rng.uniform() * 5.0;
            let t = rng.below(12) as u32;
            let b = t / 3;
            if !p.active.contains(&b) {
                continue;
            }
            let r = p.replicas(t);
            if r > 0 && (rng.uniform() < 0.5 || r >= 2) {
                p.remove_replica(b, t, now);
            } else if r < 2 {
                p.add_replica(b, t, now);
            }
            let scan = p
                .ready
                .iter()
                .map(|&b| (p.longest_idle(b, now), b))
                .fold(None, |best: Option<(f64, u32)>, x| if best.is_none_or(|y| x.0 > y.0) { Some(x) } else { best })
                .map(|x| x.1);
            assert_eq!(LongIdle.select(&BotView { now, pool: &p }), scan, "step {step}");
        }
    }
}
