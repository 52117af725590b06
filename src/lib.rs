//! bagsim: a Bags-of-Tasks scheduling lab for multi-cluster grids (Iosup et al., HPDC'08) and desktop grids
//! (Anglano & Canonico; `family::desktop_grid`), native and in wasm32.
//!
//! Module map (boundaries in ARCHITECTURE.md): `engine` (time, events, random streams) → `workload`, `platform`
//! → `policy` (selection, scheduling, predictors) → `architecture` + `simulation` (the run loop) → `metrics`
//! (the report) → `scenario` + `run` (one call from a scenario to a report) → `protocol` (worker messages);
//! `trace` imports SWF/GWF logs and extracts their BoTs as a `workload::Workload`.

pub mod engine;
pub mod family;
#[cfg(not(target_arch = "wasm32"))]
pub mod parallel;
pub mod protocol;
pub mod registry;
pub mod resources;
pub mod run;
pub mod scenario;
pub mod share;
pub mod stats;
pub mod trace;
pub mod workload;

#[cfg(target_arch = "wasm32")]
pub mod ui;
