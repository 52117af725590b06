//! The discrete-event engine: simulated time, the event queue, seeded random streams and the one run loop
//! (`Model`). Knows nothing of grids.

mod model;
mod queue;
mod rng;

pub use model::Model;
pub use queue::{EventQueue, PastEventError};
pub use rng::{stream_seed, Rng};

/// An invariant of a run's bookkeeping that does not hold (checked by tests): which one, in words. There is one
/// kind only, a bug in the simulator, so the words are all it carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Broken(pub String);

impl std::fmt::Display for Broken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Broken {}
