//! RR-NRF: RR, except that while some BoTs have no running replica they are selected first (the oldest of them),
//! and the circular order resumes where it stopped ([Anglano09] §III-C).

use super::rr::Rr;
use super::{BotView, SelectBag};

#[derive(Default)]
pub struct RrNrf {
    rr: Rr,
}

impl SelectBag for RrNrf {
    fn select(&mut self, v: &BotView) -> Option<u32> {
        match v.pool.norun.first() {
            Some(&b) => Some(b),
            None => self.rr.next(v),
        }
    }
}
