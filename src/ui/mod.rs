//! The page: scenario controls, the live run (progress, cards, charts), pinned runs, sweeps, sharing and export.
//! Only this module and the worker touch web APIs; the simulator is reached through the protocol types.

mod address;
mod app;
pub(crate) mod axes;
mod budget;
mod chart_style;
mod charts;
mod client;
pub mod contract;
mod data_grid;
mod desktop_grid;
mod download;
pub mod families;
mod family_switch;
mod fit_plots;
mod form;
mod gantt;
pub(crate) mod lab;
mod later;
mod lazy;
mod lesson_questions;
mod lesson_stage;
mod lessons;
mod login_logout;
pub mod measured;
mod multi_cluster;
mod not_modelled;
pub mod panels;
mod pins;
mod pool;
mod present;
mod readings;
mod records;
mod references;
mod replay;
mod run_tools;
mod script_box;
mod section;
mod shown;
mod split;
mod study;
mod teacher;
mod tournament;
mod views;

pub use app::{mount, mount_bench, Bench};
