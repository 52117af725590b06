//! FCFS-Share: BoTs in arrival order, but a machine the first BoT cannot use goes to the next ([Anglano09] §III-C).

use super::{BotView, SelectBag};

pub struct FcfsShare;

impl SelectBag for FcfsShare {
    fn select(&mut self, v: &BotView) -> Option<u32> {
        v.pool.ready.first().copied()
    }
}
