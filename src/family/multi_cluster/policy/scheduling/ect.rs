//! ECT (K,K) and ECT-P (K,H): each task goes to the cluster where it would complete earliest, *"taking into account
//! the cluster's queue"* ([Iosup08] §2.4): the RM's Gantt chart holds, per cluster, the estimated ends of the running
//! tasks and of every task already planned there, so the completion on a cluster is its earliest free line plus the
//! task's runtime there. If that cluster has no free processor the task joins its queue and the RM goes on with the
//! next task. Underestimated runtimes make busy clusters look about to free, so tasks queue behind them needlessly:
//! ECT's sensitivity to inaccuracy ([Iosup08] §5.3).
use super::{Choice, Estimate, ResourceView, TaskOrder, TaskScheduling};

pub struct EarliestCompletion {
    pub predicted: bool,
}

impl TaskScheduling for EarliestCompletion {
    fn order(&self) -> TaskOrder {
        TaskOrder::Fcfs
    }

    fn choose(&mut self, estimate: f64, view: &ResourceView) -> Choice {
        // Ties: a cluster that can start the task now before one that cannot, then the faster, then the lower
        // index. Clusters come fastest first, and a cluster cannot complete the task before now + estimate / speed:
        // once that bound passes the best completion found, no slower cluster can win.
        let mut best: Option<(f64, bool, u32)> = None;
        for &c in view.managed {
            let speed = view.speed[c as usize];
            let bound = view.now + estimate / speed;
            if best.is_some_and(|(bc, _, _)| bound > bc) {
                break;
            }
            let free = view.free_count[c as usize] > 0 && view.queued[c as usize] == 0;
            let completion = (view.free_at)(c) + estimate / speed;
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
