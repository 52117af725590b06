//! bagsim: a Bags-of-Tasks scheduling lab for multi-cluster grids (Iosup et al., HPDC'08), desktop grids
//! (Anglano & Canonico; `family::desktop_grid`) and data grids (Liu et al.; `family::data_grid`), native and in
//! wasm32.
//!
//! Module map (layers and boundaries in ARCHITECTURE.md): `engine` (time, events, random streams) → the shared
//! `stats`, `jobs`, `resources`, `workload` and `trace` → `family::contract` (the run contract) and the families in
//! `family::*` → `scenario`, `run`, `registry` (every family's run behind one contract) → `protocol` (worker
//! messages) → the CLI, the worker and the page (`ui`).

pub mod engine;
pub mod error;
pub mod family;
pub mod jobs;
pub mod lessons;
#[cfg(not(target_arch = "wasm32"))]
pub mod parallel;
pub mod protocol;
pub mod readings;
pub mod registry;
pub mod resources;
/// The multi-cluster family's run glue, under the name it had before families existed.
pub use family::multi_cluster::run;
pub mod scenario;
pub mod script;
pub mod share;
pub mod stats;
pub mod story;
pub mod study;
pub mod trace;
pub mod words;
pub mod workload;

#[cfg(target_arch = "wasm32")]
pub mod ui;
