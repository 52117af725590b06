//! Axis ticks and their labels, shared by every chart (the page's plotters charts and the SVG bar figures): a
//! linear axis gets multiples of a round step (1, 2 or 5 × 10^k) with as many decimals as the step needs and no
//! float noise ("0.3", never "0.30000000000000004"), thousands grouped ("12 000") and millions as "1.5M"; a log
//! axis gets one label per decade (1, 2 and 5 in each decade when the range spans less than two). Knows no
//! plotting library: a chart binds `Ticks::values` as its key points and labels them with `Ticks::label`.

/// An axis's tick values and how to write them.
#[derive(Clone, Debug, PartialEq)]
pub struct Ticks {
    /// The tick values, increasing, inside the range asked for.
    pub values: Vec<f64>,
    /// The step of a linear axis; NaN for a log axis (its labels are written one by one).
    step: f64,
    /// 1, 1e3, 1e6 or 1e9: the unit a linear axis's labels are written in (suffix "", "k", "M", "G").
    unit: f64,
}

/// A round step near `span / max`, not below it: 1, 2 or 5 times a power of ten.
pub fn nice_step(span: f64, max: usize) -> f64 {
    let raw = span / max.max(1) as f64;
    if !(raw.is_finite() && raw > 0.0) {
        return 1.0;
    }
    let e = libm::floor(libm::log10(raw));
    [1.0, 2.0, 5.0, 10.0].into_iter().map(|m| power(m, e as i32)).find(|&c| c >= raw * (1.0 - 1e-9)).unwrap_or(raw)
}

/// m × 10^e, computed so that a short decimal comes out as the nearest double (3 × 10^-1 is 0.3, not
/// 0.30000000000000004): a negative power divides instead of multiplying by an inexact 10^-k.
fn power(m: f64, e: i32) -> f64 {
    if e < 0 {
        m / libm::pow(10.0, f64::from(-e))
    } else {
        m * libm::pow(10.0, f64::from(e))
    }
}

/// How many decimals a step needs: 0 for 1 and up, 1 for 0.5 and 0.1, 2 for 0.05 …
fn decimals(step: f64) -> usize {
    (-libm::floor(libm::log10(step) + 1e-9)).max(0.0) as usize
}

/// "1234567" → "1 234 567" (the page's grouping, a space every three digits); a sign and decimals are kept.
fn group(s: &str) -> String {
    let (sign, rest) = s.strip_prefix('-').map_or(("", s), |r| ("-", r));
    let (int, frac) = rest.split_once('.').map_or((rest, None), |(i, f)| (i, Some(f)));
    if int.len() < 5 {
        return s.to_string();
    }
    let mut out = String::from(sign);
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push(' ');
        }
        out.push(c);
    }
    if let Some(f) = frac {
        out.push('.');
        out.push_str(f);
    }
    out
}

impl Ticks {
    /// Ticks of a linear axis over [lo, hi]: multiples of [`nice_step`]`(hi - lo, max)`, so at most `max + 1`.
    pub fn linear(lo: f64, hi: f64, max: usize) -> Ticks {
        let (lo, hi) = if hi > lo { (lo, hi) } else { (lo - 0.5, lo + 0.5) };
        let step = nice_step(hi - lo, max);
        let e = libm::floor(libm::log10(step) + 1e-9) as i32;
        let m = libm::round(step / power(1.0, e));
        let (k0, k1) = (libm::ceil(lo / step - 1e-9) as i64, libm::floor(hi / step + 1e-9) as i64);
        let values: Vec<f64> = (k0..=k1).map(|k| power(k as f64 * m, e)).collect();
        let top = values.iter().fold(0.0f64, |a, v| a.max(v.abs()));
        // A suffix from 100k, 1M and 1G on, when the step needs at most two of its decimals.
        let unit = [(1e9, 1e9), (1e6, 1e6), (1e3, 1e5)].into_iter().find(|&(u, from)| top >= from && step >= u / 100.0);
        let unit = unit.map_or(1.0, |(u, _)| u);
        Ticks { values, step, unit }
    }

    /// Ticks of a log axis over [lo, hi] (lo > 0): the powers of ten inside it, every second or third when there
    /// are more than `max`; 1, 2 and 5 times them when fewer than three powers fall inside (and `max` allows); the
    /// range's linear ticks when even those give fewer than two.
    pub fn log(lo: f64, hi: f64, max: usize) -> Ticks {
        let (lo, hi) = (lo.max(f64::MIN_POSITIVE), hi.max(lo));
        let (e0, e1) = (libm::ceil(libm::log10(lo) - 1e-9) as i32, libm::floor(libm::log10(hi) + 1e-9) as i32);
        let inside = |v: &f64| *v >= lo * (1.0 - 1e-9) && *v <= hi * (1.0 + 1e-9);
        let mut values: Vec<f64> = (e0..=e1).map(|e| power(1.0, e)).collect();
        if values.len() > max.max(2) {
            let stride = values.len().div_ceil(max.max(2));
            values = values.into_iter().step_by(stride).collect();
        }
        if values.len() < 3 {
            let more: Vec<f64> =
                (e0 - 1..=e1).flat_map(|e| [1.0, 2.0, 5.0].map(|m| power(m, e))).filter(inside).collect();
            if more.len() <= max.max(2) || values.len() < 2 {
                values = more;
            }
        }
        if values.len() < 2 {
            return Ticks::linear(lo, hi, max.clamp(2, 4));
        }
        Ticks { values, step: f64::NAN, unit: 1.0 }
    }

    /// A tick's label.
    pub fn label(&self, v: f64) -> String {
        if self.step.is_nan() {
            return log_label(v);
        }
        if v.abs() < self.step * 1e-6 {
            return "0".into();
        }
        if self.step < 1e-4 {
            // Tiny steps: a mantissa with the step's digits and a power of ten ("2.5e-5").
            let digits = (libm::floor(libm::log10(v.abs())) - libm::floor(libm::log10(self.step) + 1e-9)).max(0.0);
            return format!("{:.*e}", digits as usize, v);
        }
        let suffix = [(1e9, "G"), (1e6, "M"), (1e3, "k")].into_iter().find(|u| u.0 == self.unit).map_or("", |u| u.1);
        let text = format!("{:.*}", decimals(self.step / self.unit), v / self.unit);
        format!("{}{suffix}", group(&text))
    }

    /// The widest label's length in characters (for sizing a label area).
    pub fn widest(&self) -> usize {
        self.values.iter().map(|&v| self.label(v).chars().count()).max().unwrap_or(1)
    }
}

/// A log axis's label (1, 2 or 5 × 10^k): plain decimals from 0.001 to 50 000 ("10 000"), then "100k", "2M", "5G",
/// and a power of ten outside ("2e-5", "1e12").
fn log_label(v: f64) -> String {
    if !(v > 0.0 && v.is_finite()) {
        return String::new();
    }
    let e = libm::floor(libm::log10(v) + 1e-9);
    let mantissa = libm::round(v / libm::pow(10.0, e));
    match e as i32 {
        -3..=4 => group(&format!("{:.*}", (-e).max(0.0) as usize, v)),
        k @ 5..=11 => {
            format!("{}{}", mantissa * libm::pow(10.0, f64::from(k % 3)), ["k", "M", "G"][(k / 3 - 1) as usize])
        }
        k => format!("{mantissa}e{k}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(t: &Ticks) -> Vec<String> {
        t.values.iter().map(|&v| t.label(v)).collect()
    }

    #[test]
    fn tenths_have_no_float_noise() {
        // 0.1 + 0.2 is 0.30000000000000004 as a double: the ticks are multiples of 0.1, written with one decimal.
        let t = Ticks::linear(0.0, 0.1 + 0.2, 3);
        assert_eq!(labels(&t), ["0", "0.1", "0.2", "0.3"]);
        let t = Ticks::linear(0.0, 1.0, 10);
        assert_eq!(labels(&t), ["0", "0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9", "1.0"]);
        assert_eq!(t.values[3], 0.3, "the tick is the double nearest 0.3");
        assert_eq!(t.values[7], 0.7);
    }

    #[test]
    fn an_odd_range_gets_round_ticks() {
        // The bar figures labelled a 0–40.58 axis 10.15, 20.29, 30.44; round steps inside the range instead.
        assert_eq!(labels(&Ticks::linear(10.15, 20.29, 6)), ["12", "14", "16", "18", "20"]);
        assert_eq!(labels(&Ticks::linear(0.0, 40.58, 5)), ["0", "10", "20", "30", "40"]);
        assert_eq!(
            labels(&Ticks::linear(0.15, 1.0, 9)),
            ["0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9", "1.0"]
        );
        assert_eq!(labels(&Ticks::linear(0.0, 0.25, 5)), ["0", "0.05", "0.10", "0.15", "0.20", "0.25"]);
    }

    #[test]
    fn steps_are_one_two_or_five_times_a_power_of_ten() {
        assert_eq!(nice_step(10.0, 5), 2.0);
        assert_eq!(nice_step(10.0, 10), 1.0);
        assert_eq!(nice_step(10.0, 3), 5.0);
        assert_eq!(nice_step(0.003, 3), 0.001);
        assert_eq!(nice_step(7e5, 6), 2e5);
        assert_eq!(nice_step(1.0, 4), 0.5);
    }

    #[test]
    fn thousands_and_millions_are_readable() {
        assert_eq!(labels(&Ticks::linear(0.0, 25_000.0, 5)), ["0", "5000", "10 000", "15 000", "20 000", "25 000"]);
        assert_eq!(labels(&Ticks::linear(0.0, 1.2e6, 6)), ["0", "0.2M", "0.4M", "0.6M", "0.8M", "1.0M", "1.2M"]);
        assert_eq!(labels(&Ticks::linear(0.0, 5e5, 5)), ["0", "100k", "200k", "300k", "400k", "500k"]);
        assert_eq!(labels(&Ticks::linear(1_000_000.0, 1_000_004.0, 4)).last().unwrap(), "1 000 004");
    }

    #[test]
    fn small_and_negative_values() {
        assert_eq!(labels(&Ticks::linear(0.0, 0.003, 3)), ["0", "0.001", "0.002", "0.003"]);
        assert_eq!(labels(&Ticks::linear(0.0, 3e-5, 3)), ["0", "1e-5", "2e-5", "3e-5"]);
        assert_eq!(labels(&Ticks::linear(-1.0, 1.0, 4)), ["-1.0", "-0.5", "0", "0.5", "1.0"]);
        // A zero-width range still gets ticks around its value.
        assert!(Ticks::linear(5.0, 5.0, 4).values.contains(&5.0));
    }

    #[test]
    fn log_axes_label_each_decade() {
        let t = Ticks::log(1e-3, 1e6, 10);
        assert_eq!(labels(&t), ["0.001", "0.01", "0.1", "1", "10", "100", "1000", "10 000", "100k", "1M"]);
        assert_eq!(labels(&Ticks::log(1e-3, 1e6, 5)), ["0.001", "0.1", "10", "1000", "100k"]);
        assert_eq!(labels(&Ticks::log(3.0, 4_000.0, 8)), ["10", "100", "1000"]);
        assert_eq!(labels(&Ticks::log(1e7, 3e10, 8)), ["10M", "100M", "1G", "10G"]);
        // 21 powers, every fifth: 10^-6, 10^-1, 10^4, 10^9, 10^14.
        assert_eq!(labels(&Ticks::log(1e-6, 1e14, 5)), ["1e-6", "0.1", "10 000", "1G", "1e14"]);
    }

    #[test]
    fn a_short_log_range_gets_one_two_five() {
        assert_eq!(labels(&Ticks::log(1.5, 30.0, 8)), ["2", "5", "10", "20"]);
        assert_eq!(labels(&Ticks::log(0.03, 0.3, 8)), ["0.05", "0.1", "0.2"]);
        // Two decades (a makespan axis from 40 000 s to 3 million): not two labels but 1, 2, 5 in each.
        assert_eq!(labels(&Ticks::log(4e4, 3e6, 8)), ["50 000", "100k", "200k", "500k", "1M", "2M"]);
        // Unless that is more than the axis has room for.
        assert_eq!(labels(&Ticks::log(4e4, 3e6, 3)), ["100k", "1M"]);
        // Less than one 1-2-5 step: linear ticks.
        assert_eq!(labels(&Ticks::log(3.0, 4.5, 8)), ["3.0", "3.5", "4.0", "4.5"]);
    }
}
