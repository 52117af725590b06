//! One run loop for every family. A model says when its next event is, plays one, counts the events it played and
//! says when its run is over; running to the end, for a number of events (the worker's chunks) or up to a time is
//! written here once, so every family's run means the same by "an event", "over" and "until".

/// A simulation that plays events one at a time.
pub trait Model {
    /// Plays the next event and what follows it (sampling up to its time, the scheduling it triggers, the end of
    /// the run at the horizon or when nothing is left). Does nothing once the run is over.
    fn step(&mut self);

    /// The time of the event `step` would play next, s (None: no event is left).
    fn next_time(&self) -> Option<f64>;

    /// Whether the run is over: its work done, its horizon reached, or nothing left to play.
    fn is_over(&self) -> bool;

    /// Events played so far.
    fn events(&self) -> u64;

    /// Plays events to the end of the run. Never inlined, so that a profiler finds each model's loop under one name
    /// (`<M as Model>::run`: `scripts/instructions.sh` counts the instructions inside it); one call per run.
    #[inline(never)]
    fn run(&mut self) {
        while !self.is_over() {
            self.step();
        }
    }

    /// Plays at most `n` more events; whether the run is over.
    fn run_events(&mut self, n: u64) -> bool {
        let target = self.events().saturating_add(n);
        while !self.is_over() && self.events() < target {
            self.step();
        }
        self.is_over()
    }

    /// Plays every event up to time `until` (none after it); whether the run is over.
    fn run_until(&mut self, until: f64) -> bool {
        while !self.is_over() {
            match self.next_time() {
                Some(t) if t <= until => self.step(),
                _ => break,
            }
        }
        self.is_over()
    }
}

#[cfg(test)]
mod tests {
    use super::Model;

    /// Events at 1, 2, …, `last` s; the run is over after the last.
    struct Ticks {
        played: u64,
        last: u64,
    }

    impl Model for Ticks {
        fn step(&mut self) {
            if !self.is_over() {
                self.played += 1;
            }
        }
        fn next_time(&self) -> Option<f64> {
            (self.played < self.last).then(|| (self.played + 1) as f64)
        }
        fn is_over(&self) -> bool {
            self.played == self.last
        }
        fn events(&self) -> u64 {
            self.played
        }
    }

    #[test]
    fn chunks_times_and_the_end_play_the_events_they_say() {
        let mut m = Ticks { played: 0, last: 10 };
        assert!(!m.run_events(3));
        assert_eq!(m.events(), 3);
        assert!(!m.run_until(6.5));
        assert_eq!(m.events(), 6, "events at 4, 5 and 6 s, none after 6.5 s");
        assert!(!m.run_until(6.9));
        assert_eq!(m.events(), 6);
        assert!(m.run_events(100));
        assert_eq!(m.events(), 10, "stops at the end, not at 100 events");
        let mut m = Ticks { played: 0, last: 4 };
        m.run();
        assert!(m.is_over() && m.events() == 4);
        assert!(m.run_until(f64::INFINITY) && m.events() == 4);
    }
}
