//! What every family's report and figures share: summaries of a sample (`Stats`), means with 95% intervals over
//! seeds (`interval`), and how a measured finding stands to a paper's (`verdict`). Knows no family.

pub mod bars_svg;
pub mod interval;
pub mod ticks;
pub mod verdict;
pub mod window;

pub use interval::Interval;
pub use verdict::{judge, Claim, Parting, Verdict};

use serde::{Deserialize, Serialize};

/// Mean, percentiles and maximum of a sample (nearest-rank percentiles); all NaN for an empty sample, and then
/// absent from a report, which keeps only the count 0 (README, "Undefined numbers").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    pub count: u64,
    #[serde(default = "undefined", skip_serializing_if = "is_undefined", deserialize_with = "number_or_undefined")]
    pub mean: f64,
    #[serde(default = "undefined", skip_serializing_if = "is_undefined", deserialize_with = "number_or_undefined")]
    pub p50: f64,
    #[serde(default = "undefined", skip_serializing_if = "is_undefined", deserialize_with = "number_or_undefined")]
    pub p90: f64,
    #[serde(default = "undefined", skip_serializing_if = "is_undefined", deserialize_with = "number_or_undefined")]
    pub p99: f64,
    #[serde(default = "undefined", skip_serializing_if = "is_undefined", deserialize_with = "number_or_undefined")]
    pub max: f64,
}

/// An undefined number (the mean of no value) as the simulator holds it: NaN. A report leaves such a number out
/// (`is_undefined`), a CSV leaves its cell empty (`csv_number`), and the report's `undefined` says why (README,
/// "Undefined numbers"); read back, an absent number is NaN again.
pub fn undefined() -> f64 {
    f64::NAN
}

/// Whether a number is left out of a report: undefined (NaN) or infinite.
pub fn is_undefined(x: &f64) -> bool {
    !x.is_finite()
}

/// Reads a number that may be undefined: a number, or null as older reports wrote an undefined one.
pub fn number_or_undefined<'de, D: serde::Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::NAN))
}

/// Reads a (mean, 95% low, 95% high) triple whose numbers may be undefined (written as null). An older
/// (mean, half-width) pair, written when every interval was Student's t, becomes (mean, mean − hw, mean + hw).
pub fn bounds_or_undefined<'de, D: serde::Deserializer<'de>>(d: D) -> Result<(f64, f64, f64), D::Error> {
    let v = Vec::<Option<f64>>::deserialize(d)?;
    let x = |k: usize| v.get(k).copied().flatten().unwrap_or(f64::NAN);
    match v.len() {
        2 => Ok((x(0), x(0) - x(1), x(0) + x(1))),
        3 => Ok((x(0), x(1), x(2))),
        n => Err(serde::de::Error::invalid_length(n, &"a (mean, low, high) triple")),
    }
}

/// A number for people: `undefined` when it has no value (NaN) or is infinite, and 0 for −0; otherwise `x` to
/// `digits` decimals.
pub fn show(x: f64, digits: usize) -> String {
    if !x.is_finite() {
        "undefined".to_string()
    } else {
        let s = format!("{x:.digits$}");
        // −0.04 to one decimal is "-0.0": a sign on a zero says nothing.
        if s.starts_with('-') && s[1..].chars().all(|c| c == '0' || c == '.') {
            s[1..].to_string()
        } else {
            s
        }
    }
}

/// The reasons a report gives for the numbers it leaves out, by their path in the report's metrics (e.g.
/// `"turnaround": "no BoT finished"`); empty, and then absent, when every number is defined.
pub type Undefined = std::collections::BTreeMap<String, String>;

/// Notes `reason` under `path` when the statistic has no value.
pub fn note_empty(undefined: &mut Undefined, path: &str, stats: &Stats, reason: &str) {
    if stats.count == 0 {
        undefined.insert(path.to_string(), reason.to_string());
    }
}

/// Notes `reason` under `path` when the number is undefined.
pub fn note_undefined(undefined: &mut Undefined, path: &str, x: f64, reason: &str) {
    if !x.is_finite() {
        undefined.insert(path.to_string(), reason.to_string());
    }
}

impl Stats {
    /// The statistic in one line, as every family's run summary prints it: `mean (p50 …, p90 …, p99 …, max …)` to
    /// `digits` decimals, or `none` when it has no value.
    pub fn line(&self, digits: usize, none: &str) -> String {
        if self.count == 0 {
            return none.to_string();
        }
        let (mean, p50, p90, p99, max) = (self.mean, self.p50, self.p90, self.p99, self.max);
        format!("{mean:.digits$} (p50 {p50:.digits$}, p90 {p90:.digits$}, p99 {p99:.digits$}, max {max:.digits$})")
    }

    /// Reorders `values` in place. The quantiles are order statistics (nearest rank), found by selection in O(n)
    /// rather than a full sort (the per-task distributions have millions of values); the mean is a compensated
    /// (Neumaier) sum, accurate to the last bits whatever the order of the values.
    pub fn of(values: &mut [f64]) -> Stats {
        if values.is_empty() {
            return Stats { count: 0, mean: f64::NAN, p50: f64::NAN, p90: f64::NAN, p99: f64::NAN, max: f64::NAN };
        }
        let n = values.len();
        let mean = compensated_sum(values) / n as f64;
        let max = values.iter().copied().fold(f64::NEG_INFINITY, |m, x| if x.total_cmp(&m).is_gt() { x } else { m });
        let rank = |q: f64| ((q * n as f64).ceil() as usize).clamp(1, n) - 1;
        // Increasing ranks: each selection only searches the part above the previous one.
        let mut quantile = |q: f64, from: usize| {
            let i = rank(q);
            let (_, x, _) = values[from..].select_nth_unstable_by(i - from, f64::total_cmp);
            (*x, i)
        };
        let (p50, i50) = quantile(0.5, 0);
        let (p90, i90) = quantile(0.9, i50);
        let (p99, _) = quantile(0.99, i90);
        Stats { count: n as u64, mean, p50, p90, p99, max }
    }
}

/// A number for a CSV cell: empty when it is undefined (NaN, as the mean of no value) or infinite, 0 for −0, and
/// in exponent notation below 10^-4 or from 10^15 on (shortest round trip either way), so that a table never shows
/// `NaN`, `inf`, `-0` or a number of hundreds of digits (`{}` prints 1e-300 with 300 zeros).
pub fn csv_number(x: f64) -> String {
    if !x.is_finite() {
        String::new()
    } else if x == 0.0 {
        "0".to_string()
    } else if (1e-4..1e15).contains(&x.abs()) {
        x.to_string()
    } else {
        format!("{x:e}")
    }
}

/// A text cell of a CSV line per RFC 4180: as it is, or in double quotes (each quote doubled) when it holds a comma,
/// a quote or a line break.
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The cells of one CSV line per RFC 4180 (quoted cells unquoted); `None` when a quote is not closed.
pub fn csv_cells(line: &str) -> Option<Vec<String>> {
    let mut cells = Vec::new();
    let mut cell = String::new();
    let mut chars = line.chars().peekable();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                cell.push('"');
            }
            (true, '"') => quoted = false,
            (false, '"') if cell.is_empty() => quoted = true,
            (false, ',') => cells.push(std::mem::take(&mut cell)),
            (_, c) => cell.push(c),
        }
    }
    if quoted {
        return None;
    }
    cells.push(cell);
    Some(cells)
}

/// Σ values with Neumaier's compensation.
fn compensated_sum(values: &[f64]) -> f64 {
    let (mut sum, mut c) = (0.0f64, 0.0f64);
    for &x in values {
        let t = sum + x;
        c += if sum.abs() >= x.abs() { (sum - t) + x } else { (x - t) + sum };
        sum = t;
    }
    sum + c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_statistic_in_one_line() {
        let s = Stats::of(&mut (1..=100).map(f64::from).collect::<Vec<_>>());
        assert_eq!(s.line(0, "none"), "50 (p50 50, p90 90, p99 99, max 100)");
        assert_eq!(s.line(2, "none"), "50.50 (p50 50.00, p90 90.00, p99 99.00, max 100.00)");
        assert_eq!(Stats::of(&mut []).line(4, "—"), "—");
    }

    #[test]
    fn nearest_rank_percentiles() {
        let mut v: Vec<f64> = (1..=100).rev().map(f64::from).collect();
        let s = Stats::of(&mut v);
        assert_eq!((s.p50, s.p90, s.p99, s.max, s.mean), (50.0, 90.0, 99.0, 100.0, 50.5));
        assert!(Stats::of(&mut []).mean.is_nan());
    }

    /// Selection gives the same order statistics as sorting, for many sizes, ties and orders.
    #[test]
    fn quantiles_by_selection_equal_sorted_ranks() {
        let mut rng = crate::engine::Rng::new(17);
        for n in (1..300).chain([1000, 4097]) {
            let mut v: Vec<f64> = (0..n).map(|_| (rng.below(50) as f64) * rng.uniform()).collect();
            let mut sorted = v.clone();
            sorted.sort_by(f64::total_cmp);
            let rank = |q: f64| sorted[((q * n as f64).ceil() as usize).clamp(1, n) - 1];
            let s = Stats::of(&mut v);
            assert_eq!((s.p50, s.p90, s.p99, s.max), (rank(0.5), rank(0.9), rank(0.99), sorted[n - 1]), "n = {n}");
            let mean = sorted.iter().sum::<f64>() / n as f64;
            assert!((s.mean - mean).abs() <= 1e-12 * mean.abs().max(1.0), "n = {n}: {} vs {mean}", s.mean);
        }
    }

    #[test]
    fn mean_is_compensated() {
        // Naive summation loses the 1.0 entirely; the exact sum is 2.
        let mut v = vec![1e16, 1.0, -1e16, 1.0];
        assert_eq!(Stats::of(&mut v).mean, 0.5);
    }

    #[test]
    fn csv_fields_are_quoted_per_rfc_4180_and_read_back() {
        for s in ["plain", "a,b", "say \"hi\"", "\"", "", "x\"y,z"] {
            let line = format!("{},1", super::csv_field(s));
            assert_eq!(super::csv_cells(&line).unwrap(), vec![s.to_string(), "1".to_string()], "{line}");
        }
        assert_eq!(super::csv_field("a,b"), "\"a,b\"");
        assert_eq!(super::csv_field("q\""), "\"q\"\"\"");
        assert!(super::csv_cells("\"open,1").is_none());
    }

    #[test]
    fn csv_numbers_are_never_nan_inf_or_negative_zero() {
        assert_eq!(super::csv_number(f64::NAN), "");
        assert_eq!(super::csv_number(f64::INFINITY), "");
        assert_eq!(super::csv_number(-0.0), "0");
        assert_eq!(super::csv_number(1.5), "1.5");
        // Never hundreds of digits: an exponent outside 1e-4 … 1e15, the shortest round trip either way.
        assert_eq!(super::csv_number(1e-300), "1e-300");
        assert_eq!(super::csv_number(-2.5e20), "-2.5e20");
        assert_eq!(super::csv_number(123_456.75), "123456.75");
        assert_eq!(super::csv_number(1e-4), "0.0001");
    }
}
