//! ECT (K,K) and ECT-P (K,H): the task goes where it would complete earliest, counting the wait for a processor
//! on busy clusters (a Gantt-chart policy, [Iosup08] §2.4). If that is a busy cluster the task reserves its next free
//! processor and the RM goes on with the next task; the chart is one task deep per cluster, so a cluster that
//! already holds a reservation is not considered. Underestimated runtimes make busy clusters look about to free,
//! so tasks wait for them needlessly: ECT's sensitivity to inaccuracy ([Iosup08] §5.3).
use super::{Choice, Estimate, ResourceView, TaskOrder, TaskScheduling};

pub struct EarliestCompletion {
    pub predicted: bool,
}

impl TaskScheduling for EarliestCompletion {
    fn order(&self) -> TaskOrder {
        TaskOrder::Fcfs
    }

    fn choose(&mut self, estimate: f64, view: &ResourceView) -> Choice {
        // Ties: a free cluster before a busy one, then the faster, then the lower index. Clusters come fastest
        // first, and a cluster cannot complete the task before now + estimate / speed: once that bound passes
        // the best completion found, no slower cluster can win.
        let mut best: Option<(f64, bool, u32)> = None;
        for &c in view.managed {
            let speed = view.speed[c as usize];
            let bound = view.now + estimate / speed;
            if best.is_some_and(|(bc, _, _)| bound > bc) {
                break;
            }
            if view.reserved[c as usize] {
                continue;
            }
            let free = view.free_count[c as usize] > 0;
            let completion = if free { bound } else { (view.earliest_end)(c).max(view.now) + estimate / speed };
            let better = match best {
                None => true,
                Some((bc, bfree, _)) => completion < bc || (completion == bc && free && !bfree),
            };
            if better {
                best = Some((completion, free, c));
            }
        }
        match best {
            Some((_, true, c)) => Choice::Start(c),
            Some((_, false, c)) => Choice::Reserve(c),
            None => Choice::Wait,
        }
    }

    fn estimate(&self) -> Estimate {
        if self.predicted {
            Estimate::Predicted
        } else {
            Estimate::Known
        }
    }

    fn uses_end_estimates(&self) -> bool {
        true
    }
}
