//! Workloads: the BoT model and its presets, its generator and the other generators (Login/Logout, Minh–Wolters),
//! fitting, and the workload type the simulator reads.

pub mod burstiness;
pub mod dist;
mod dist_form;
pub mod fit;
pub mod fit_workload;
pub mod generate;
mod generate_error;
pub mod generator_check;
pub mod generators;
pub mod login_logout;
pub mod minh_wolters;
pub mod model;
pub mod size_class;
pub mod streams;
pub mod task_law;
mod types;
pub mod views;

pub use generate_error::GenerateError;
pub use types::{Bot, TaskData, Workload, DEFAULT_DELTA, MAX_DELTA};
