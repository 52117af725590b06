//! DFPLT (H,K): the largest task to the free cluster with the best performance rank, where a cluster's rank is
//! the speed observed on its last completed task, estimate / elapsed ([Iosup08] §2.4; [Iosup08] §5.3). Before a cluster has
//! completed a task its speed is unknown and taken as the reference speed 1.0.
use super::{Choice, Estimate, ResourceView, TaskOrder, TaskScheduling};

#[derive(Default)]
pub struct DynamicFplt {
    observed: Vec<f64>,
}

impl DynamicFplt {
    fn rank(&self, c: u32) -> f64 {
        self.observed.get(c as usize).copied().unwrap_or(1.0)
    }
}

impl TaskScheduling for DynamicFplt {
    fn order(&self) -> TaskOrder {
        TaskOrder::LargestFirst
    }

    fn choose(&mut self, _estimate: f64, view: &ResourceView) -> Choice {
        // Ties go to the lower cluster index: the policy may not use the true speeds it does not know.
        let mut best: Option<(f64, u32)> = None;
        for c in view.free.iter() {
            let r = self.rank(c);
            if best.is_none_or(|(br, bc)| r > br || (r == br && c < bc)) {
                best = Some((r, c));
            }
        }
        best.map_or(Choice::Wait, |(_, c)| Choice::Start(c))
    }

    fn estimate(&self) -> Estimate {
        Estimate::Known
    }

    fn observe_completion(&mut self, cluster: u32, estimate: f64, elapsed: f64) {
        if elapsed > 0.0 {
            let c = cluster as usize;
            if self.observed.len() <= c {
                self.observed.resize(c + 1, 1.0);
            }
            self.observed[c] = estimate / elapsed;
        }
    }
}
