//! ECT (K,K) and ECT-P (K,H): the task goes where it would complete earliest, counting the wait for a processor
//! on busy clusters (a Gantt-chart policy, 000 §2.4). If that is a busy cluster the task waits for it, and without
//! backfilling so do the tasks behind it: this is what makes ECT sensitive to underestimated runtimes (000 §5.3).
use super::{Choice, Estimate, ResourceView, TaskOrder, TaskScheduling};

pub struct EarliestCompletion {
    pub predicted: bool,
}

impl TaskScheduling for EarliestCompletion {
    fn order(&self) -> TaskOrder {
        TaskOrder::Fcfs
    }

    fn choose(&mut self, estimate: f64, view: &ResourceView) -> Choice {
        // Ties: a free cluster before a busy one, then the faster, then the lower index.
        let mut best: Option<(f64, bool, f64, u32)> = None;
        for &c in view.managed {
            let free = view.free.contains(c);
            let available = if free { view.now } else { (view.earliest_end)(c).max(view.now) };
            let speed = view.speed[c as usize];
            let completion = available + estimate / speed;
            let better = match best {
                None => true,
                Some((bc, bfree, bspeed, _)) => {
                    completion < bc || (completion == bc && ((free && !bfree) || (free == bfree && speed > bspeed)))
                }
            };
            if better {
                best = Some((completion, free, speed, c));
            }
        }
        match best {
            Some((_, true, _, c)) => Choice::Start(c),
            _ => Choice::Wait,
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
