//! The discrete-event engine: simulated time, the event queue and seeded random streams. Knows nothing of grids.

mod queue;
mod rng;

pub use queue::{EventQueue, PastEventError};
pub use rng::{stream_seed, Rng};
