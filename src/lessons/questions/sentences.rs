//! The sentences of a question's answer and of a student's mark, with the numbers just run: each variant's mean
//! and 95% interval as the answer part shows them (`interval_text`), in the lesson's unit.

use super::super::{readable, Lesson};
use super::{with_unit, Direction, Quantity};
use crate::stats::interval::Interval;

/// A lesson and its per-variant intervals, to write sentences from.
pub(super) struct Table<'a> {
    pub lesson: &'a Lesson,
    pub iv: &'a [Interval],
}

/// Words joined as a sentence lists them: "a", "a and b", "a, b and c".
fn listed(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// A tolerance as a percentage: 0.1 → "±10%", 0.025 → "±2.5%".
fn percent(tolerance: f64) -> String {
    let p = tolerance * 100.0;
    if (p - p.round()).abs() < 1e-9 {
        format!("±{p:.0}%")
    } else {
        format!("±{}%", readable(p))
    }
}

/// A range of numbers: "1.88 – 2.30".
fn range(r: (f64, f64)) -> String {
    format!("{} – {}", readable(r.0), readable(r.1))
}

impl Table<'_> {
    fn label(&self, v: usize) -> &str {
        &self.lesson.variants[v].label
    }

    /// The metric's name without its unit or its abbreviation: "mean BoT turnaround", "wasted share of processor
    /// time".
    fn metric(&self) -> &str {
        let m = self.lesson.metric_label.rsplit_once(" [").map_or(self.lesson.metric_label.as_str(), |(m, _)| m);
        m.rsplit_once(": ").map_or(m, |(_, m)| m)
    }

    /// A variant's mean in the unit and its interval: "2.09 h (95%: 2.04 – 2.15)".
    fn amount(&self, v: usize) -> String {
        let i = &self.iv[v];
        let mean = with_unit(i.mean, &self.lesson.unit);
        if i.has_bounds() {
            format!("{mean} (95%: {})", range((i.low, i.high)))
        } else {
            mean
        }
    }

    /// "The mean NSL was 629 (95%: 436 – 928) for csp and 24 105 (95%: …) for sep-c" over `vs`.
    fn was(&self, vs: &[usize]) -> String {
        let parts: Vec<String> = vs.iter().map(|&v| format!("{} for {}", self.amount(v), self.label(v))).collect();
        format!("The {} was {}", self.metric(), listed(&parts))
    }

    fn index(&self, label: &str) -> usize {
        self.lesson.variants.iter().position(|v| v.label == label).unwrap_or(0)
    }

    /// The number in the question's unit (a ratio has none).
    fn number_in(&self, of: &Quantity, x: f64) -> String {
        match of {
            Quantity::Mean(_) => with_unit(x, &self.lesson.unit),
            Quantity::Ratio(..) => readable(x),
        }
    }

    /// Why a number question has no answer on these runs.
    pub fn undefined(&self, of: &Quantity) -> String {
        match of {
            Quantity::Mean(a) => format!("{a} has no value on these runs"),
            Quantity::Ratio(a, b) => {
                format!("the ratio {a} / {b} is undefined: {b}'s mean is {}", readable(self.iv[self.index(b)].mean))
            }
        }
    }

    /// Why a number question is not resolved: its interval (or a ratio's range) reaches beyond the tolerance.
    pub fn too_wide(&self, r: (f64, f64), tolerance: f64, value: f64, of: &Quantity) -> String {
        let what = match of {
            Quantity::Mean(_) => "its 95% interval",
            Quantity::Ratio(..) => "the ratio's range with both means in their 95% intervals",
        };
        let band = (value - tolerance * value.abs(), value + tolerance * value.abs());
        format!(
            "{what}, {}, reaches beyond {} of {} ({}): an answer near the tolerance's edge may be right or wrong",
            range(r),
            percent(tolerance),
            self.number_in(of, value),
            range(band)
        )
    }

    /// The explanation of a number question.
    pub fn number(&self, parts: &[usize], of: &Quantity, value: f64, r: (f64, f64), tolerance: f64) -> String {
        let was = self.was(parts);
        let band = (value - tolerance * value.abs(), value + tolerance * value.abs());
        let accepted = format!("an answer within {} of it ({}) is right", percent(tolerance), range(band));
        match of {
            _ if !value.is_finite() => format!("{was}: {}.", self.undefined(of)),
            Quantity::Mean(_) => format!("{was}; {accepted}."),
            Quantity::Ratio(a, b) => {
                let spread = if r.0.is_finite() {
                    format!(" ({} with both means in their 95% intervals)", range(r))
                } else {
                    String::new()
                };
                format!("{was}: {a} / {b} = {}{spread}; {accepted}.", readable(value))
            }
        }
    }

    /// Which variants have no value.
    pub fn no_data(&self) -> String {
        let none: Vec<String> =
            (0..self.iv.len()).filter(|&v| !self.iv[v].has_data()).map(|v| self.label(v).to_string()).collect();
        format!("{} has no value on these runs", listed(&none))
    }

    /// Why a choice is not resolved.
    pub fn overlap_with(&self, c: usize, others: &[usize]) -> String {
        if !self.iv[c].has_bounds() {
            return "one seed gives no 95% interval".into();
        }
        let names: Vec<String> = others.iter().map(|&v| self.label(v).to_string()).collect();
        format!("the 95% interval of {} overlaps that of {}", self.label(c), listed(&names))
    }

    /// The explanation of a choice question.
    pub fn choice(&self, c: usize, lowest: bool, overlapping: &[usize]) -> String {
        let all: Vec<usize> = (0..self.iv.len()).collect();
        let side = if lowest { "lowest" } else { "highest" };
        let how = if overlapping.is_empty() {
            format!(", its 95% interval wholly {} every other", if lowest { "below" } else { "above" })
        } else {
            format!(", but {}", self.overlap_with(c, overlapping))
        };
        format!("{}: {} is {side}{how}.", self.was(&all), self.label(c))
    }

    /// Why an order is not resolved.
    pub fn pairs_overlap(&self, open: &[(usize, usize)]) -> String {
        if self.iv.iter().any(|i| !i.has_bounds()) {
            return "one seed gives no 95% interval".into();
        }
        let pairs: Vec<String> =
            open.iter().map(|&(a, b)| format!("{} and {}", self.label(a), self.label(b))).collect();
        format!("the 95% intervals of {} overlap", pairs.join("; of "))
    }

    /// The explanation of an order question.
    pub fn order(&self, order: &[usize], direction: Direction, open: &[(usize, usize)]) -> String {
        let names: Vec<String> = order.iter().map(|&v| self.label(v).to_string()).collect();
        let (from, below) = match direction {
            Direction::Ascending => ("from lowest to highest", "below"),
            Direction::Descending => ("from highest to lowest", "above"),
        };
        let how = if open.is_empty() {
            format!(", each 95% interval wholly {below} the next")
        } else {
            format!("; but {}", self.pairs_overlap(open))
        };
        format!("{}: {from}, {}{how}.", self.was(order), names.join(", "))
    }

    /// A number within the tolerance.
    pub fn within(&self, x: f64, tolerance: f64, band: (f64, f64)) -> String {
        format!("{} is within {} of the answer ({})", readable(x), percent(tolerance), range(band))
    }

    /// A number outside the tolerance but inside the 95% interval (or a ratio's range).
    pub fn inside(&self, x: f64, tolerance: f64, r: (f64, f64)) -> String {
        format!(
            "{} is not within {} of the answer, but inside the range its seeds allow ({}): these runs cannot rule \
             it out",
            readable(x),
            percent(tolerance),
            range(r)
        )
    }

    /// A number outside both.
    pub fn outside(&self, x: f64, tolerance: f64, band: (f64, f64), r: (f64, f64)) -> String {
        let seeds = if r.0.is_finite() {
            format!(", nor inside the range its seeds allow ({})", range(r))
        } else {
            String::new()
        };
        format!("{} is not within {} of the answer ({}){seeds}", readable(x), percent(tolerance), range(band))
    }

    /// A pick another variant's interval beats.
    pub fn beaten(&self, p: usize, v: usize, lowest: bool) -> String {
        let (side, end) = if lowest { ("below", "lowest") } else { ("above", "highest") };
        format!(
            "the 95% interval of {} lies wholly {side} that of {}, so {} is not the {end}",
            self.label(v),
            self.label(p),
            self.label(p)
        )
    }

    /// The right pick.
    pub fn picked(&self, p: usize, lowest: bool) -> String {
        let side = if lowest { "below" } else { "above" };
        format!("the 95% interval of {} lies wholly {side} every other", self.label(p))
    }

    /// A pick the intervals neither confirm nor refute.
    pub fn cannot_tell(&self, p: usize, lowest: bool) -> String {
        let end = if lowest { "lowest" } else { "highest" };
        format!("{} may be the {end}: no 95% interval lies beyond its own, but the intervals overlap", self.label(p))
    }

    /// A pair ranked against its separated intervals.
    pub fn inverted(&self, a: usize, b: usize, up: bool) -> String {
        let side = if up { "below" } else { "above" };
        format!(
            "you rank {} before {}, but the 95% interval of {} lies wholly {side} that of {}",
            self.label(a),
            self.label(b),
            self.label(b),
            self.label(a)
        )
    }

    /// An order the intervals neither confirm nor refute.
    pub fn order_open(&self, same: bool) -> String {
        if same {
            "your order is the means' order, but some 95% intervals overlap".into()
        } else {
            "your order differs from the means' only where their 95% intervals overlap".into()
        }
    }
}
