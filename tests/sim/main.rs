//! The one integration-test binary: closed forms, hand-worked cases, invariants, determinism, the workload model, trace import.

mod common;
mod determinism;
mod erlang;
mod hand_cases;
mod invariants;
mod reproduce;
mod streams;
mod trace;
mod workload_model;
