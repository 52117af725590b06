//! The error of a generator's parameters and the range check that makes one: shared by the generators'
//! enum (generators.rs) and the models it selects (login_logout.rs, minh_wolters.rs), which import it from here
//! rather than from generators.rs so that nothing imports back up.

/// A parameter a generator cannot work with: its path below `workload.generator.<name>`, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct GeneratorError {
    pub field: String,
    pub message: String,
}

impl GeneratorError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        GeneratorError { field: field.into(), message: message.into() }
    }
}

/// Checks that `v` is a finite number in [lo, hi].
pub(crate) fn check(field: &str, v: f64, lo: f64, hi: f64, unit: &str) -> Result<(), GeneratorError> {
    if v.is_finite() && v >= lo && v <= hi {
        Ok(())
    } else {
        Err(GeneratorError::new(field, format!("{v} is out of range; allowed {lo}–{hi}{unit}")))
    }
}
