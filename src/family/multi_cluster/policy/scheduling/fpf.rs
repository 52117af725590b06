//! FPF (K,U): tasks in the eligible set's order, each to the fastest free processor ([Iosup08] §2.4).
use super::{Choice, Estimate, ResourceView, TaskOrder, TaskScheduling};

pub struct FastestProcessorFirst;

impl TaskScheduling for FastestProcessorFirst {
    fn order(&self) -> TaskOrder {
        TaskOrder::Fcfs
    }
    fn choose(&mut self, _estimate: f64, view: &ResourceView) -> Choice {
        view.free.fastest().map_or(Choice::Wait, Choice::Start)
    }
    fn estimate(&self) -> Estimate {
        Estimate::None
    }
}
