//! The one integration-test binary: closed forms, hand-worked cases, invariants, determinism, the workload model, trace import,
//! our samplers against rand_distr, workload views, the Login/Logout and Minh–Wolters generators, a trace's fitted
//! row bit for bit (shared with tests/web.rs).

mod budget;
mod cli_edges;
mod cli_fuzz;
mod common;
mod contract;
mod data_grid;
mod desktop_grid;
mod determinism;
mod dg_capacity;
mod dg_local;
mod dg_reading_rules;
mod dg_readings;
mod dg_saturation;
mod erlang;
mod fcondor_competition;
mod figure_cmd;
mod fit_bits;
mod fuzz;
mod fuzz_expand;
mod fuzz_inputs;
mod fuzz_options;
mod fuzz_scripts;
mod hand_cases;
mod inaccuracy_readings;
mod invariants;
mod iosup_letter;
mod lessons;
mod numbers;
mod readings;
mod reproduce;
mod samplers;
mod script;
mod script_dd;
mod script_dg;
mod script_limits;
mod script_sel;
mod streams;
mod study;
mod task_runtime_law;
mod trace;
mod unused;
mod workload_generators;
mod workload_model;
mod workload_views;
