//! Workloads: the BoT model and its presets, the generator, fitting, and the workload type the simulator reads.

pub mod dist;
pub mod fit;
pub mod generate;
pub mod model;
pub mod streams;
mod types;

pub use types::{Bot, Workload};
