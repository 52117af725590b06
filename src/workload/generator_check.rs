//! The range check of a generator's parameters, shared by the models the generators' enum selects
//! (login_logout.rs, minh_wolters.rs), which import it from here rather than from generators.rs so that nothing
//! imports back up. A refusal is the crate's one `ScenarioError`, its field relative to the generator.

use crate::error::ScenarioError;

/// Checks that `v` is a finite number in [lo, hi].
pub(crate) fn check(field: &str, v: f64, lo: f64, hi: f64, unit: &str) -> Result<(), ScenarioError> {
    if v.is_finite() && v >= lo && v <= hi {
        Ok(())
    } else {
        Err(ScenarioError::out_of_range(field, format!("{v} is out of range; allowed {lo}–{hi}{unit}")))
    }
}
