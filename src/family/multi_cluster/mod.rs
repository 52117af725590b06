//! The multi-cluster grid of [Iosup08]: clusters of processors with relative speeds, the three resource-management
//! architectures, task selection and scheduling policies, and the run loop.

pub mod architecture;
pub mod budget;
pub mod config;
pub mod def;
pub mod figures;
pub mod live;
pub mod metrics;
pub mod params;
pub mod platform;
pub mod policy;
pub mod readings;
pub mod run;
pub mod schedule_swf;
pub mod sim;
pub mod summary;
pub mod sweep;
