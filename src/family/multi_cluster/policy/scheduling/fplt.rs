//! FPLT (K,K): the largest task to the fastest free processor ([Iosup08] §2.4).
use super::{Choice, Estimate, ResourceView, TaskOrder, TaskScheduling};

pub struct FastestProcessorLargestTask;

impl TaskScheduling for FastestProcessorLargestTask {
    fn order(&self) -> TaskOrder {
        TaskOrder::LargestFirst
    }
    fn choose(&mut self, _estimate: f64, view: &ResourceView) -> Choice {
        view.free.fastest().map_or(Choice::Wait, Choice::Start)
    }
    fn estimate(&self) -> Estimate {
        Estimate::Known
    }
}
