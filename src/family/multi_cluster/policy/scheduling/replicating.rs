//! RR and WQR-n (U,U), STFR (U,K): tasks on free processors in round-robin order over the clusters (the policy
//! knows no speeds); once no task waits, running tasks are replicated up to n times ([Iosup08] §2.4). RR is WQR-1; STFR
//! takes the shortest task first.
use super::{Choice, Estimate, ResourceView, TaskOrder, TaskScheduling};

pub struct Replicating {
    order: TaskOrder,
    replicas: u32,
    estimate: Estimate,
    last: Option<u32>,
}

impl Replicating {
    pub fn new(order: TaskOrder, replicas: u32, estimate: Estimate) -> Self {
        Replicating { order, replicas, estimate, last: None }
    }
}

impl TaskScheduling for Replicating {
    fn order(&self) -> TaskOrder {
        self.order
    }
    fn choose(&mut self, _estimate: f64, view: &ResourceView) -> Choice {
        match view.free.next_after(self.last) {
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
