//! RR: "BoTs are scheduled in turn according to a circular order, starting from the first one in Q (the oldest)"
//! ([Anglano09] §III-C). BoTs without a candidate task are passed over.

use super::{BotView, SelectBag};
use std::ops::Bound::{Excluded, Unbounded};

#[derive(Default)]
pub struct Rr {
    /// The BoT chosen last.
    last: Option<u32>,
}

impl Rr {
    /// The BoT after the last one chosen, circularly, among those with a candidate.
    pub fn next(&mut self, v: &BotView) -> Option<u32> {
        let ready = &v.pool.ready;
        let next = match self.last {
            Some(l) => ready.range((Excluded(l), Unbounded)).next().or_else(|| ready.first()),
            None => ready.first(),
        }
        .copied();
        if next.is_some() {
            self.last = next;
        }
        next
    }
}

impl SelectBag for Rr {
    fn select(&mut self, v: &BotView) -> Option<u32> {
        self.next(v)
    }
}
