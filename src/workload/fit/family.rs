//! The candidate families of [Iosup08] §3.1, a fit and why one could not be made, the checks every fit shares
//! (the sample, the support, a result without NaN), and the Table 3 notation of a distribution.

pub use crate::error::DataError;
use crate::workload::dist::Dist;
use serde::{Deserialize, Serialize};

/// A candidate family of [Iosup08] §3.1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Family {
    Exponential,
    HyperExponential,
    Normal,
    LogNormal,
    Gamma,
    Weibull,
}

impl Family {
    /// Every candidate, in the order of [Iosup08] §3.1 (also the tie-break order of the selection).
    pub const ALL: [Family; 6] = [
        Family::Exponential,
        Family::HyperExponential,
        Family::Normal,
        Family::LogNormal,
        Family::Gamma,
        Family::Weibull,
    ];

    /// Human-readable name, as used in error messages.
    pub fn name(self) -> &'static str {
        match self {
            Family::Exponential => "exponential",
            Family::HyperExponential => "hyper-exponential",
            Family::Normal => "normal",
            Family::LogNormal => "log-normal",
            Family::Gamma => "gamma",
            Family::Weibull => "Weibull",
        }
    }

    /// The family of a distribution (None for Constant and Uniform, which are never fitted).
    pub fn of(d: &Dist) -> Option<Family> {
        match d {
            Dist::Exponential { .. } => Some(Family::Exponential),
            Dist::HyperExponential { .. } => Some(Family::HyperExponential),
            Dist::Normal { .. } => Some(Family::Normal),
            Dist::LogNormal { .. } => Some(Family::LogNormal),
            Dist::Gamma { .. } => Some(Family::Gamma),
            Dist::Weibull { .. } => Some(Family::Weibull),
            Dist::Constant { .. } | Dist::Uniform { .. } => None,
        }
    }

    /// The support's lower end: None for the whole real line; Some(false) for x ≥ 0; Some(true) for x > 0.
    pub(super) fn positive_support(self) -> Option<bool> {
        match self {
            Family::Normal => None,
            Family::Exponential | Family::HyperExponential => Some(false),
            Family::LogNormal | Family::Gamma | Family::Weibull => Some(true),
        }
    }
}

impl std::fmt::Display for Family {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A fitted distribution with its goodness of fit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fit {
    pub dist: Dist,
    /// Kolmogorov–Smirnov statistic D (sup distance between the empirical and the fitted CDF).
    pub ks: f64,
    /// The maximised log-likelihood (of the densities, of the bin probabilities for interval data).
    pub log_likelihood: f64,
}

/// x > 0 (false for NaN).
pub(super) fn pos(x: f64) -> bool {
    x > 0.0
}

pub(super) fn err<T>(msg: impl Into<String>) -> Result<T, DataError> {
    Err(DataError(msg.into()))
}

/// Checks a fitted distribution and its statistics, so that no NaN escapes.
pub(super) fn finish(family: Family, dist: Dist, ks: f64, log_likelihood: f64) -> Result<Fit, DataError> {
    if let Err(e) = dist.validate() {
        return err(format!("{family} fit did not converge to valid parameters ({})", e.message));
    }
    if !log_likelihood.is_finite() {
        return err(format!("{family} fit has log-likelihood {log_likelihood}: the data are outside its support"));
    }
    if !ks.is_finite() {
        return err(format!("{family} fit has a non-finite KS statistic"));
    }
    Ok(Fit { dist, ks, log_likelihood })
}

pub(super) fn check_sample(family: Family, data: &[f64]) -> Result<(), DataError> {
    if data.is_empty() {
        return err(format!("{family} fit needs data; got none"));
    }
    if data.len() < 2 {
        return err(format!("{family} fit needs at least 2 values; got 1"));
    }
    let bad = data.iter().filter(|v| !v.is_finite()).count();
    if bad > 0 {
        let first = data.iter().position(|v| !v.is_finite()).unwrap_or(0);
        return err(format!(
            "{family} fit needs finite data; found {bad} non-finite values (the first, at index {first}, is {})",
            data[first]
        ));
    }
    check_support(family, data)
}

fn check_support(family: Family, data: &[f64]) -> Result<(), DataError> {
    match family.positive_support() {
        Some(true) => {
            let bad = data.iter().filter(|&&v| v <= 0.0).count();
            if bad > 0 {
                return err(format!("{family} needs data > 0; found {bad} values ≤ 0"));
            }
        }
        Some(false) => {
            let bad = data.iter().filter(|&&v| v < 0.0).count();
            if bad > 0 {
                return err(format!("{family} needs data ≥ 0; found {bad} values < 0"));
            }
        }
        None => {}
    }
    Ok(())
}

/// [Iosup08] Table 3 notation with 2 decimals: "W(1.76,2.11)", "N(2.73,6.10)", "LN(1.82,0.34)", "G(2.62,0.13)",
/// "Exp(3.00)", "HExp(0.40,1.00,9.00)" (also "U(a,b)" and "C(v)").
pub fn notation(d: &Dist) -> String {
    match *d {
        Dist::Constant { value } => format!("C({value:.2})"),
        Dist::Uniform { low, high } => format!("U({low:.2},{high:.2})"),
        Dist::Exponential { mean } => format!("Exp({mean:.2})"),
        Dist::HyperExponential { p, mean1, mean2 } => format!("HExp({p:.2},{mean1:.2},{mean2:.2})"),
        Dist::Normal { mu, sigma } => format!("N({mu:.2},{sigma:.2})"),
        Dist::LogNormal { mu, sigma } => format!("LN({mu:.2},{sigma:.2})"),
        Dist::Gamma { shape, scale } => format!("G({shape:.2},{scale:.2})"),
        Dist::Weibull { shape, scale } => format!("W({shape:.2},{scale:.2})"),
    }
}
