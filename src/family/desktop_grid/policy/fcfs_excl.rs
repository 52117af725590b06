//! FCFS-Excl: "no task of any other BoT is executed until the current one is completed" ([Anglano09] §III-C).

use super::{BotView, SelectBag};

pub struct FcfsExcl;

impl SelectBag for FcfsExcl {
    fn select(&mut self, v: &BotView) -> Option<u32> {
        let &oldest = v.pool.active.first()?;
        v.pool.ready.contains(&oldest).then_some(oldest)
    }
}
