//! DFPLT (H,K): the largest task to the free cluster with the best performance rank, where a cluster's rank is
//! the speed observed on its last completed task, estimate / elapsed ([Iosup08] §2.4). A cluster on which no task
//! has completed has no rank yet; where it stands is a reading (`policy_options.dfplt_unranked`).
use super::super::options::Unranked;
use super::{Choice, Estimate, ResourceView, TaskOrder, TaskScheduling};

pub struct DynamicFplt {
    /// Observed speed per cluster; NaN: none observed yet.
    observed: Vec<f64>,
    unranked: f64,
}

impl DynamicFplt {
    pub fn new(unranked: Unranked) -> Self {
        let unranked = match unranked {
            Unranked::First => f64::INFINITY,
            Unranked::Reference => 1.0,
            Unranked::Last => f64::NEG_INFINITY,
        };
        DynamicFplt { observed: Vec::new(), unranked }
    }

    fn rank(&self, c: u32) -> f64 {
        match self.observed.get(c as usize) {
            Some(&r) if !r.is_nan() => r,
            _ => self.unranked,
        }
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
                self.observed.resize(c + 1, f64::NAN);
            }
            self.observed[c] = estimate / elapsed;
        }
    }
}
