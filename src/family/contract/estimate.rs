//! What a run will cost, estimated from its scenario before anything runs (docs/budget.md): the budget's limits,
//! the parts of a run's memory with what drives each, and the refusal or warnings said before a run starts.

use super::keys::{ErrorKind, ScenarioError};
use crate::words::{bytes_words, count_words, seconds_words};

/// Most events a run may be expected to take: about a quarter of an hour natively (about 10⁷ events/s), several
/// times that in the page. Other work a run does (a login period drawn, a queued job placed again when a schedule is
/// compressed) counts as the events of the same cost.
pub const MAX_EVENTS: f64 = 2e9;

/// Events above which a run is warned to be long (about ten seconds natively).
pub const LONG_EVENTS: f64 = 1e8;

/// Most memory a run may be expected to hold, bytes (1 GiB: the page's worker, a 32-bit wasm instance, cannot
/// count on much more).
pub const MAX_MEMORY: f64 = 1_073_741_824.0;

/// Memory above which a run is warned to be large, bytes.
pub const LARGE_MEMORY: f64 = 536_870_912.0; // half the budget: the default month (about 270 MB) is not "large"

/// Events a run plays per second natively, and in the page's worker (for the durations an estimate states).
pub const EVENTS_PER_S: f64 = 1e7;
pub const PAGE_EVENTS_PER_S: f64 = 3e6;

/// What drives a count: the scenario key a user changes to change it (a JSON path), and the count in words.
#[derive(Clone, Debug, PartialEq)]
pub struct Driver {
    pub field: String,
    pub what: String,
}

impl Driver {
    pub fn new(field: impl Into<String>, what: impl Into<String>) -> Driver {
        Driver { field: field.into(), what: what.into() }
    }
}

/// One kind of thing a run holds in memory: how many (expected), the bytes of each, what drives the count, and the
/// most the code that builds them accepts (a run over it is refused as over budget).
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    /// What they are, plural ("tasks", "series samples", "login periods").
    pub what: &'static str,
    pub count: f64,
    pub bytes_each: f64,
    pub driver: Driver,
    pub most: Option<f64>,
}

impl Part {
    pub fn bytes(&self) -> f64 {
        self.count * self.bytes_each
    }
}

/// What a run will cost, estimated from its scenario before anything runs (docs/budget.md): the events it takes and
/// what it holds in memory, each with what drives it. Every family computes one from its section
/// (`registry::estimate`); the CLI, the worker and the page refuse a run over budget (`check`) and warn of a long
/// or large one (`warnings`) with the same code.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// Events the run is expected to take at most (other work counted as events of the same cost).
    pub events: f64,
    pub events_driver: Driver,
    /// The parts of its memory.
    pub memory: Vec<Part>,
}

/// Whether an estimated amount is over a limit (an amount that could not be estimated, NaN, is).
fn over(x: f64, limit: f64) -> bool {
    x.is_nan() || x > limit
}

/// "about N" for a finite amount, the amount alone otherwise ("unboundedly many").
fn about(words: String, n: f64) -> String {
    if n.is_finite() {
        format!("about {words}")
    } else {
        words
    }
}

impl Estimate {
    /// Bytes the run holds at its largest.
    pub fn memory_bytes(&self) -> f64 {
        self.memory.iter().map(Part::bytes).sum()
    }

    /// The part that holds the most memory.
    pub fn largest(&self) -> Option<&Part> {
        self.memory.iter().max_by(|a, b| a.bytes().total_cmp(&b.bytes()))
    }

    /// The expected count of a part, by its name.
    pub fn count(&self, what: &str) -> Option<f64> {
        self.memory.iter().find(|p| p.what == what).map(|p| p.count)
    }

    /// Refuses a run over budget, naming the key that drives it and the limit: more events than `MAX_EVENTS`, more
    /// memory than `MAX_MEMORY`, or more of a part than the code that builds it accepts.
    pub fn check(&self) -> Result<(), ScenarioError> {
        let refuse =
            |d: &Driver, message: String| Err(ScenarioError::new(ErrorKind::OverBudget, d.field.clone(), message));
        for p in &self.memory {
            if let Some(most) = p.most {
                if over(p.count, most) {
                    return refuse(
                        &p.driver,
                        format!(
                            "the run would hold {} {} ({}); at most {} are allowed",
                            about(count_words(p.count), p.count),
                            p.what,
                            p.driver.what,
                            count_words(most)
                        ),
                    );
                }
            }
        }
        let bytes = self.memory_bytes();
        if over(bytes, MAX_MEMORY) {
            if let Some(p) = self.largest() {
                return refuse(
                    &p.driver,
                    format!(
                        "the run would hold {} of memory, {} of it in {} {} ({}); at most {} (1 GiB)",
                        about(bytes_words(bytes), bytes),
                        bytes_words(p.bytes()),
                        count_words(p.count),
                        p.what,
                        p.driver.what,
                        bytes_words(MAX_MEMORY)
                    ),
                );
            }
        }
        if over(self.events, MAX_EVENTS) {
            return refuse(
                &self.events_driver,
                format!(
                    "the run would take {} events ({}); at most {} (about {} natively)",
                    about(count_words(self.events), self.events),
                    self.events_driver.what,
                    count_words(MAX_EVENTS),
                    seconds_words(MAX_EVENTS / EVENTS_PER_S)
                ),
            );
        }
        Ok(())
    }

    /// Warnings for a run within budget that is long or large, said before it starts.
    pub fn warnings(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.events > LONG_EVENTS {
            out.push(format!(
                "a long run: about {} events, driven by {} ({}) — about {} natively, several times that in the page",
                count_words(self.events),
                self.events_driver.field,
                self.events_driver.what,
                seconds_words(self.events / EVENTS_PER_S)
            ));
        }
        let bytes = self.memory_bytes();
        if bytes > LARGE_MEMORY {
            if let Some(p) = self.largest() {
                out.push(format!(
                    "a large run: about {} of memory, mostly {} {} driven by {} ({})",
                    bytes_words(bytes),
                    count_words(p.count),
                    p.what,
                    p.driver.field,
                    p.driver.what
                ));
            }
        }
        out
    }

    /// The estimate in one sentence, as the page shows it before Run, its time at the page's assumed speed.
    pub fn summary(&self) -> String {
        self.summary_timed(None)
    }

    /// The estimate in one sentence, its time from `seconds_per_event` when this tab has timed a run (the last
    /// run's wall time, generation and report included, over the events its estimate gave: the estimate's own
    /// slack is then in the rate), else from `PAGE_EVENTS_PER_S`, said to be a guess.
    pub fn summary_timed(&self, seconds_per_event: Option<f64>) -> String {
        let timed = seconds_per_event.filter(|k| k.is_finite() && *k > 0.0);
        let seconds = self.events * timed.unwrap_or(1.0 / PAGE_EVENTS_PER_S);
        let how = if timed.is_some() {
            "at the speed of this tab's last run"
        } else {
            "a guess until a run in this tab is timed"
        };
        format!("{} ({how})", self.summary_at(seconds))
    }

    fn summary_at(&self, seconds: f64) -> String {
        let mem = match self.largest() {
            Some(p) => format!(
                "about {} of memory (mostly {} {})",
                bytes_words(self.memory_bytes()),
                count_words(p.count),
                p.what
            ),
            None => String::new(),
        };
        let time = if seconds < 1.0 { seconds_words(seconds) } else { format!("about {}", seconds_words(seconds)) };
        format!(
            "at most about {} events, driven by {}, and {mem}: {time} in this tab",
            count_words(self.events),
            self.events_driver.field
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn six_million() -> Estimate {
        Estimate { events: 6e6, events_driver: Driver::new("workload.load", "the load"), memory: Vec::new() }
    }

    #[test]
    fn the_time_comes_from_this_tabs_last_run_when_there_is_one() {
        // 6 million events at the assumed 3 million a second: 2 s, said to be a guess.
        let guess = six_million().summary_timed(None);
        assert!(guess.ends_with("about 2 s in this tab (a guess until a run in this tab is timed)"), "{guess}");
        // The last run took 1 µs of wall time per estimated event: 6 s, said to be measured.
        let timed = six_million().summary_timed(Some(1e-6));
        assert!(timed.ends_with("about 6 s in this tab (at the speed of this tab's last run)"), "{timed}");
        // A rate that is no rate (no events estimated, a run of no time) is not used.
        assert_eq!(six_million().summary_timed(Some(f64::NAN)), guess);
        assert_eq!(six_million().summary_timed(Some(0.0)), guess);
        assert_eq!(six_million().summary(), guess);
    }
}
