//! Task-selection and task-scheduling policies ([Iosup08] §2.3–2.4). Policies decide; the simulation acts: each gets a
//! read-only view and returns a decision, and keeps at most its own bookkeeping.

pub mod options;
pub mod predictor;
pub mod scheduling;
pub mod selection;
