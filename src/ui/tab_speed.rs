//! How fast this tab runs a scenario, measured on its last run and provided to the page through Leptos's context
//! (`provide_context` in the shell, `use_context` where the estimate before Run is shown), so that the time the page
//! promises comes from this tab on this machine, not from a constant (issue #45: "about 5 s" that took 41 s).
//!
//! A run is timed only when it ran as fast as it could from start to end (speed "as fast as possible", never
//! paused or slowed): its wall time, the workload's generation and the report included, over the events the
//! estimate gave for it. The estimate is an upper bound; a rate taken against the same bound carries its slack.

use leptos::prelude::*;

/// This tab's measured speed, and the run being timed.
#[derive(Clone, Copy)]
pub(crate) struct TabSpeed {
    /// Wall seconds per estimated event on the last timed run; None before one finished.
    seconds_per_event: RwSignal<Option<f64>>,
    /// The events estimated for the run going, while it is still being timed (None once it was paused or slowed).
    timing: StoredValue<Option<f64>>,
}

impl TabSpeed {
    /// Made once by the page's shell and provided to everything below it; the shell keeps the handle for the
    /// worker's messages, which arrive outside any component.
    pub(crate) fn provide() -> TabSpeed {
        let speed = TabSpeed { seconds_per_event: RwSignal::new(None), timing: StoredValue::new(None) };
        provide_context(speed);
        speed
    }

    /// The page's tab speed, where the shell provided it.
    pub(crate) fn get() -> Option<TabSpeed> {
        use_context::<TabSpeed>()
    }

    /// A run starts: timed when it runs at full speed and its estimate has events.
    pub(crate) fn started(self, estimated_events: Option<f64>, full_speed: bool) {
        let events = estimated_events.filter(|e| full_speed && e.is_finite() && *e > 0.0);
        self.timing.set_value(events);
    }

    /// The run was paused or slowed down: its wall time says nothing of the tab's speed.
    pub(crate) fn untimed(self) {
        self.timing.set_value(None);
    }

    /// The run finished after `wall_s` seconds of generation, simulation and report.
    pub(crate) fn finished(self, wall_s: f64) {
        if let Some(events) = self.timing.get_value() {
            if wall_s.is_finite() && wall_s > 0.0 {
                self.seconds_per_event.set(Some(wall_s / events));
            }
        }
        self.timing.set_value(None);
    }

    /// Wall seconds per estimated event on the last timed run (tracked).
    pub(crate) fn seconds_per_event(self) -> Option<f64> {
        self.seconds_per_event.get()
    }
}
