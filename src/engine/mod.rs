//! The discrete-event engine: simulated time, the event queue, seeded random streams and the one run loop
//! (`Model`). Knows nothing of grids.

mod model;
mod queue;
mod rng;

pub use model::Model;
pub use queue::{EventQueue, PastEventError};
pub use rng::{stream_seed, Rng};
