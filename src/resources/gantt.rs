//! A Gantt chart over a cluster's processors: for each processor line, the estimated time at which it has finished
//! its running task and every task planned onto it. Planning the next task on the earliest line, and correcting a
//! line when a task ends at another time than planned, each cost O(log P).
//!
//! Lines are the planner's, not the processors': the cluster runs its planned tasks first come, first served on
//! whichever processor frees, and the chart learns each task's actual end. A correction moves the line the task was
//! planned on, and everything planned behind it there, by the difference between the actual end and the end the
//! chart now expects for that task (its planned end plus the corrections the line received since). With exact
//! estimates nothing is ever corrected and the chart is the cluster's future, to the bit.

use super::endheap::EndHeap;

/// Where and when a task was planned: its line and its planned end minus the line's corrections at that moment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Planned {
    pub line: u32,
    base: f64,
}

/// The chart of one cluster.
#[derive(Clone, Debug)]
pub struct Gantt {
    lines: EndHeap,
    /// Σ of the corrections each line has received.
    shift: Vec<f64>,
}

impl Gantt {
    /// A chart of `processors` idle lines.
    pub fn new(processors: u32) -> Self {
        let mut lines = EndHeap::new(processors as usize);
        for p in 0..processors {
            lines.insert(p, 0.0);
        }
        Gantt { lines, shift: vec![0.0; processors as usize] }
    }

    /// The earliest time at or after `now` at which a task planned now could start.
    pub fn free_at(&self, now: f64) -> f64 {
        self.lines.peek().map_or(f64::INFINITY, |t| t.max(now))
    }

    /// Plans a task of `duration` seconds (on this cluster) at `now` on the earliest line: returns where, and its
    /// planned completion time.
    pub fn plan(&mut self, now: f64, duration: f64) -> (Planned, f64) {
        let (free, line) = self.lines.peek_slot().expect("a cluster has processors");
        let end = free.max(now) + duration;
        self.lines.set(line, end);
        (Planned { line, base: end - self.shift[line as usize] }, end)
    }

    /// A planned task ended at `t`: its line (and what is planned behind it there) moves by the difference.
    pub fn ended(&mut self, p: Planned, t: f64) {
        let l = p.line as usize;
        let expected = p.base + self.shift[l];
        let delta = t - expected;
        if delta != 0.0 {
            self.shift[l] += delta;
            let key = self.lines.key(p.line).expect("every line is in the chart") + delta;
            self.lines.set(p.line, key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_list_schedule_on_the_earliest_line() {
        // Two processors; tasks of 10, 4, 3, 5 s planned at t = 0: lines end at 10 and 4 → 7 → 12.
        let mut g = Gantt::new(2);
        let ends: Vec<f64> = [10.0, 4.0, 3.0, 5.0].iter().map(|&d| g.plan(0.0, d).1).collect();
        assert_eq!(ends, vec![10.0, 4.0, 7.0, 12.0]);
        assert_eq!(g.free_at(0.0), 10.0);
        assert_eq!(g.free_at(11.0), 11.0);
    }

    #[test]
    fn a_correction_moves_the_line_once() {
        // One line: A planned [0, 10], B planned [10, 20]. A ends at 15: B's line moves to 25. B then ends at 25:
        // nothing more moves (a naive shift by planned end would move it again).
        let mut g = Gantt::new(1);
        let (a, _) = g.plan(0.0, 10.0);
        let (b, _) = g.plan(0.0, 10.0);
        g.ended(a, 15.0);
        assert_eq!(g.free_at(0.0), 25.0);
        g.ended(b, 25.0);
        assert_eq!(g.free_at(0.0), 25.0);
        // An early end frees the line at that time.
        let (c, end) = g.plan(30.0, 10.0);
        assert_eq!(end, 40.0);
        g.ended(c, 33.0);
        assert_eq!(g.free_at(30.0), 33.0);
    }
}
