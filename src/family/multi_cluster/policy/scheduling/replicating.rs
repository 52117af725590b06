//! RR and WQR-n (U,U), STFR (U,K): tasks on free processors in round-robin order over the clusters; once no task
//! waits, running tasks are replicated up to n times ([Iosup08] §2.4). RR is WQR-1; STFR takes the shortest task
//! first. The ring's order is a reading (`policy_options.rr_ring`): the platform's listed order by default, since
//! a policy with no resource information knows no speeds to order it by; fastest first under `speed`.
use super::super::options::RrRing;
use super::{Choice, Estimate, ResourceView, TaskOrder, TaskScheduling};

pub struct Replicating {
    order: TaskOrder,
    replicas: u32,
    estimate: Estimate,
    ring: RrRing,
    last: Option<u32>,
}

impl Replicating {
    pub fn new(order: TaskOrder, replicas: u32, estimate: Estimate, ring: RrRing) -> Self {
        Replicating { order, replicas, estimate, ring, last: None }
    }
}

impl TaskScheduling for Replicating {
    fn order(&self) -> TaskOrder {
        self.order
    }
    fn choose(&mut self, _estimate: f64, view: &ResourceView) -> Choice {
        let ring = match self.ring {
            RrRing::Platform => view.free_listed,
            RrRing::Speed => view.free,
        };
        match ring.next_after(self.last) {
            Some(c) => {
                self.last = Some(c);
                Choice::Start(c)
            }
            None => Choice::Wait,
        }
    }
    fn max_replicas(&self) -> u32 {
        self.replicas
    }
    fn estimate(&self) -> Estimate {
        self.estimate
    }
}
