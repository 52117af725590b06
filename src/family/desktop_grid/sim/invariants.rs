//! The simulation's bookkeeping checked against itself (tests).

use super::{DgSimulation, NONE};
use crate::engine::Broken;

impl DgSimulation {
    /// Checks the bookkeeping (tests): free machines are up and idle, busy ones are in their task's replica list,
    /// replica counts agree with the lists.
    pub fn check_invariants(&self) -> Result<(), Broken> {
        let mut busy = 0;
        for (m, sl) in self.slots.iter().enumerate() {
            let is_free = self.free.get(sl.free_pos as usize) == Some(&(m as u32));
            if sl.task == NONE {
                if sl.up != is_free {
                    return Err(Broken(format!("machine {m}: up {} but free {is_free}", sl.up)));
                }
            } else {
                busy += 1;
                if is_free || !sl.up {
                    return Err(Broken(format!("machine {m} runs task {} but is free or down", sl.task)));
                }
            }
        }
        if busy != self.busy {
            return Err(Broken(format!("{busy} busy machines, counter {}", self.busy)));
        }
        for (t, &h) in self.head.iter().enumerate() {
            let mut n = 0;
            let mut r = h;
            while r != NONE {
                if self.slots[r as usize].task != t as u32 {
                    return Err(Broken(format!(
                        "task {t}: machine {r} in its list runs {}",
                        self.slots[r as usize].task
                    )));
                }
                n += 1;
                r = self.slots[r as usize].next;
            }
            if self.task_end[t].is_nan() && n != self.pool.replicas(t as u32) {
                return Err(Broken(format!("task {t}: {n} replicas listed, {} counted", self.pool.replicas(t as u32))));
            }
        }
        Ok(())
    }
}
