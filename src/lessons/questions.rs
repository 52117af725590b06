//! A lesson's questions (docs/lessons.md, "Questions"): a number, a choice or an order the students answer, whose
//! right answer is never in the file but computed from the lesson's runs — the per-variant means and 95% intervals
//! the answer part shows (`Lesson::intervals`) — with a sentence of the numbers just run. A student's answer is
//! marked right, wrong or not resolved: not resolved when the intervals cannot tell (the same rule as a claim's
//! verdict, `Interval::separated_from`). Pure functions over the results, so the page (in wasm) and `bagsim lesson`
//! compute the same; the question, the computed answer, the student's answer and the mark all have serde.

use super::{readable, Lesson};
use crate::stats::interval::Interval;
pub use error::{AnswerError, QuestionError};
use serde::{Deserialize, Serialize};

mod error;
mod sentences;

/// One question of a lesson, as its file writes it: a prompt, a hint, and exactly one kind (`number`, `choice` or
/// `order`); `tolerance` goes with `number` only.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Question {
    /// What is asked.
    pub prompt: String,
    /// A nudge shown on request.
    pub hint: String,
    /// A number computed from the runs, in the lesson's unit (a ratio has none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub number: Option<Quantity>,
    /// Pick the variant with the lowest or the highest mean.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub choice: Option<Extreme>,
    /// Rank every variant by its mean.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order: Option<Direction>,
    /// For `number`: a student's number within this fraction of the computed one is right (0.1: ±10%); (0, 1].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tolerance: Option<f64>,
    /// The lesson's own seeds may leave this question not resolved (the test command accepts it).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub not_resolved_ok: bool,
}

/// The number a `number` question asks for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Quantity {
    /// `{"mean": LABEL}`: the variant's mean, in the lesson's unit.
    Mean(String),
    /// `{"ratio": [A, B]}`: A's mean over B's (no unit).
    Ratio(String, String),
}

/// Which end a `choice` question asks for: `{"lowest": true}` or `{"highest": true}`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Extreme {
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub lowest: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub highest: bool,
}

/// The direction of an `order` question: `"ascending"` (lowest mean first) or `"descending"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    Ascending,
    Descending,
}

/// A question's kind once checked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind<'a> {
    Number {
        of: &'a Quantity,
        tolerance: f64,
    },
    /// `true`: the lowest.
    Choice {
        lowest: bool,
    },
    Order(Direction),
}

/// An answer: a student's, or the one computed from the runs. `{"number": 2.1}`, `{"choice": LABEL}`,
/// `{"order": [LABEL, …]}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Response {
    Number(f64),
    Choice(String),
    Order(Vec<String>),
}

/// Whether the runs decide every answer a student can give (each is then right or wrong), and if not why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Resolution {
    Resolved,
    NotResolved(String),
}

/// The answer computed from the runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    /// The right answer; None when the runs give none (a ratio over a mean of 0, a variant without a value).
    pub correct: Option<Response>,
    /// For a number: the answers counted right (the tolerance around it), in the question's unit.
    pub accepted: Option<(f64, f64)>,
    pub resolution: Resolution,
    /// One sentence with the numbers just run.
    pub explanation: String,
}

/// How a student's answer fares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    Right,
    Wrong,
    /// The intervals cannot tell: more seeds might.
    NotResolved,
}

/// A student's answer marked, with why and the answer's explanation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Checked {
    pub mark: Mark,
    /// "Right: …", "Wrong: …" or "Not resolved: …", then the answer's explanation.
    pub sentence: String,
}

impl Question {
    /// The question's kind: exactly one of `number`, `choice`, `order`, with its fields fitting it.
    pub fn kind(&self) -> Result<Kind<'_>, QuestionError> {
        let given: Vec<&'static str> =
            [(self.number.is_some(), "number"), (self.choice.is_some(), "choice"), (self.order.is_some(), "order")]
                .into_iter()
                .filter_map(|(on, key)| on.then_some(key))
                .collect();
        if given.len() != 1 {
            return Err(QuestionError::Kind { given });
        }
        let kind = match (&self.number, &self.choice, self.order) {
            (Some(of), _, _) => {
                let tolerance = self.tolerance.ok_or(QuestionError::NoTolerance)?;
                if !(tolerance > 0.0 && tolerance <= 1.0) {
                    return Err(QuestionError::Tolerance { value: tolerance });
                }
                Kind::Number { of, tolerance }
            }
            (_, Some(e), _) if e.lowest == e.highest => {
                return Err(QuestionError::Pick { lowest: e.lowest, highest: e.highest })
            }
            (_, Some(e), _) => Kind::Choice { lowest: e.lowest },
            (_, _, Some(d)) => Kind::Order(d),
            (None, None, None) => return Err(QuestionError::Kind { given }),
        };
        if self.tolerance.is_some() && !matches!(kind, Kind::Number { .. }) {
            return Err(QuestionError::ToleranceUnused { kind: given[0] });
        }
        Ok(kind)
    }

    /// Checks the question against its lesson: texts present, one kind, known labels, and for a choice or an order
    /// at least 2 variants and 2 seeds (intervals to compare).
    pub fn check(&self, lesson: &Lesson) -> Result<(), QuestionError> {
        match self.shape(lesson)? {
            Kind::Choice { .. } | Kind::Order(_) if lesson.seeds < 2 => {
                Err(QuestionError::TooFewSeeds { key: self.key(), seeds: lesson.seeds })
            }
            _ => Ok(()),
        }
    }

    /// The key of the question's kind (`number`, `choice`, `order`), as the file writes it.
    fn key(&self) -> &'static str {
        match (&self.number, &self.choice) {
            (Some(_), _) => "number",
            (_, Some(_)) => "choice",
            _ => "order",
        }
    }

    /// The question's kind, checked against its lesson's variants but not its seeds: a lesson rerun on one seed
    /// (`bagsim lesson ID --seeds 1`) still has answers, not resolved.
    fn shape(&self, lesson: &Lesson) -> Result<Kind<'_>, QuestionError> {
        for (key, text) in [("prompt", &self.prompt), ("hint", &self.hint)] {
            if text.trim().is_empty() {
                return Err(QuestionError::Empty { key });
            }
        }
        let labels: Vec<String> = lesson.variants.iter().map(|v| v.label.clone()).collect();
        let known = |key: &'static str, label: &String| {
            if labels.contains(label) {
                Ok(())
            } else {
                Err(QuestionError::UnknownLabel { key, label: label.clone(), labels: labels.clone() })
            }
        };
        let kind = self.kind()?;
        match kind {
            Kind::Number { of: Quantity::Mean(a), .. } => known("number.mean", a)?,
            Kind::Number { of: Quantity::Ratio(a, b), .. } => {
                known("number.ratio[0]", a)?;
                known("number.ratio[1]", b)?;
                if a == b {
                    return Err(QuestionError::SameLabel { label: a.clone() });
                }
            }
            Kind::Choice { .. } | Kind::Order(_) => {
                let key = if matches!(kind, Kind::Order(_)) { "order" } else { "choice" };
                if labels.len() < 2 {
                    return Err(QuestionError::TooFewVariants { key, variants: labels.len() });
                }
            }
        }
        Ok(kind)
    }

    /// The answer computed from the lesson's per-variant intervals (`Lesson::intervals`, in the variants' order).
    pub fn answer(&self, lesson: &Lesson, iv: &[Interval]) -> Result<Answer, AnswerError> {
        let kind = self.fits(lesson, iv)?;
        let t = sentences::Table { lesson, iv };
        Ok(match kind {
            Kind::Number { of, tolerance } => {
                let (value, range, parts) = quantity(lesson, iv, of);
                let finite = value.is_finite();
                let accepted = finite.then(|| (value - tolerance * value.abs(), value + tolerance * value.abs()));
                let resolution = match accepted {
                    None => Resolution::NotResolved(t.undefined(of)),
                    Some(_) if !(range.0.is_finite() && range.1.is_finite()) => {
                        Resolution::NotResolved("one seed gives no interval to compare the tolerance with".into())
                    }
                    Some((lo, hi)) if range.0 < lo || range.1 > hi => {
                        Resolution::NotResolved(t.too_wide(range, tolerance, value, of))
                    }
                    Some(_) => Resolution::Resolved,
                };
                Answer {
                    correct: finite.then_some(Response::Number(value)),
                    accepted,
                    resolution,
                    explanation: t.number(&parts, of, value, range, tolerance),
                }
            }
            Kind::Choice { lowest } => {
                let Some(c) = ranked(iv, lowest).first().copied() else { unreachable!("at least one variant") };
                let overlapping: Vec<usize> = (0..iv.len()).filter(|&v| v != c && !beyond(iv, c, v, lowest)).collect();
                let resolution = if !iv.iter().all(Interval::has_data) {
                    Resolution::NotResolved(t.no_data())
                } else if overlapping.is_empty() {
                    Resolution::Resolved
                } else {
                    Resolution::NotResolved(t.overlap_with(c, &overlapping))
                };
                Answer {
                    correct: Some(Response::Choice(lesson.variants[c].label.clone())),
                    accepted: None,
                    explanation: t.choice(c, lowest, &overlapping),
                    resolution,
                }
            }
            Kind::Order(direction) => {
                let order = ranked(iv, direction == Direction::Ascending);
                let open: Vec<(usize, usize)> = order
                    .windows(2)
                    .filter(|w| !beyond(iv, w[0], w[1], direction == Direction::Ascending))
                    .map(|w| (w[0], w[1]))
                    .collect();
                let resolution = if !iv.iter().all(Interval::has_data) {
                    Resolution::NotResolved(t.no_data())
                } else if open.is_empty() {
                    Resolution::Resolved
                } else {
                    Resolution::NotResolved(t.pairs_overlap(&open))
                };
                Answer {
                    correct: Some(Response::Order(order.iter().map(|&v| lesson.variants[v].label.clone()).collect())),
                    accepted: None,
                    explanation: t.order(&order, direction, &open),
                    resolution,
                }
            }
        })
    }

    /// A student's answer marked against the runs (module doc; docs/lessons.md, "Questions").
    pub fn check_response(&self, lesson: &Lesson, iv: &[Interval], given: &Response) -> Result<Checked, AnswerError> {
        let answer = self.answer(lesson, iv)?;
        let kind = self.kind().map_err(AnswerError::Question)?;
        let t = sentences::Table { lesson, iv };
        let index = |label: &String| {
            lesson.variants.iter().position(|v| &v.label == label).ok_or_else(|| AnswerError::UnknownLabel {
                label: label.clone(),
                labels: lesson.variants.iter().map(|v| v.label.clone()).collect(),
            })
        };
        let (mark, why) = match (kind, given) {
            (Kind::Number { of, tolerance }, Response::Number(x)) => {
                if !x.is_finite() {
                    return Err(AnswerError::NotFinite);
                }
                let (_, range, _) = quantity(lesson, iv, of);
                match answer.accepted {
                    None => (Mark::NotResolved, t.undefined(of)),
                    Some((lo, hi)) if (lo..=hi).contains(x) => (Mark::Right, t.within(*x, tolerance, (lo, hi))),
                    Some(_) if (range.0..=range.1).contains(x) => (Mark::NotResolved, t.inside(*x, tolerance, range)),
                    Some(band) => (Mark::Wrong, t.outside(*x, tolerance, band, range)),
                }
            }
            (Kind::Choice { lowest }, Response::Choice(label)) => {
                let p = index(label)?;
                let Some(Response::Choice(c)) = &answer.correct else { unreachable!("a choice's answer") };
                // Wrong when another variant's interval lies beyond the pick's, on the side asked for.
                match (0..iv.len()).find(|&v| beyond(iv, v, p, lowest)) {
                    Some(v) => (Mark::Wrong, t.beaten(p, v, lowest)),
                    None if label == c && answer.resolution == Resolution::Resolved => {
                        (Mark::Right, t.picked(p, lowest))
                    }
                    None => (Mark::NotResolved, t.cannot_tell(p, lowest)),
                }
            }
            (Kind::Order(direction), Response::Order(labels)) => {
                let given = permutation(labels, lesson, index)?;
                let up = direction == Direction::Ascending;
                // Wrong when a pair the student ranks is ranked the other way by separated intervals.
                let inverted = given
                    .iter()
                    .enumerate()
                    .flat_map(|(i, &a)| given[i + 1..].iter().map(move |&b| (a, b)))
                    .find(|&(a, b)| beyond(iv, b, a, up));
                let Some(Response::Order(correct)) = &answer.correct else { unreachable!("an order's answer") };
                match inverted {
                    Some((a, b)) => (Mark::Wrong, t.inverted(a, b, up)),
                    None if labels == correct && answer.resolution == Resolution::Resolved => {
                        (Mark::Right, "every pair is in the order of its separated 95% intervals".into())
                    }
                    None => (Mark::NotResolved, t.order_open(labels == correct)),
                }
            }
            (kind, given) => {
                return Err(AnswerError::WrongKind { asked: kind_name(kind), given: response_name(given) });
            }
        };
        let lead = match mark {
            Mark::Right => "Right",
            Mark::Wrong => "Wrong",
            Mark::NotResolved => "Not resolved",
        };
        Ok(Checked { mark, sentence: format!("{lead}: {why}. {}", answer.explanation) })
    }

    /// The unit of the question's number: the lesson's for a mean, none for a ratio, a choice or an order.
    pub fn unit<'a>(&self, lesson: &'a Lesson) -> &'a str {
        match self.number {
            Some(Quantity::Mean(_)) => &lesson.unit,
            _ => "",
        }
    }

    /// The computed answer in words: "50.1% (right within 45.1 – 55.1%)", a label, the labels in order joined by
    /// " < " (ascending) or " > "; "none on these runs" when the runs give none.
    pub fn answer_words(&self, lesson: &Lesson, answer: &Answer) -> String {
        let unit = self.unit(lesson);
        match (&answer.correct, answer.accepted) {
            (Some(Response::Number(x)), Some((lo, hi))) => {
                format!("{} (right within {} – {})", with_unit(*x, unit), readable(lo), with_unit(hi, unit))
            }
            (Some(Response::Number(x)), None) => with_unit(*x, unit),
            (Some(Response::Choice(label)), _) => label.clone(),
            (Some(Response::Order(labels)), _) => {
                labels.join(if self.order == Some(Direction::Descending) { " > " } else { " < " })
            }
            (None, _) => "none on these runs".into(),
        }
    }

    /// The kind, once the question and the results fit the lesson.
    fn fits(&self, lesson: &Lesson, iv: &[Interval]) -> Result<Kind<'_>, AnswerError> {
        let kind = self.shape(lesson).map_err(AnswerError::Question)?;
        if iv.len() != lesson.variants.len() {
            return Err(AnswerError::Results { variants: lesson.variants.len(), intervals: iv.len() });
        }
        Ok(kind)
    }
}

/// A question kind's name, as the file writes it.
fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Number { .. } => "number",
        Kind::Choice { .. } => "choice",
        Kind::Order(_) => "order",
    }
}

fn response_name(r: &Response) -> &'static str {
    match r {
        Response::Number(_) => "number",
        Response::Choice(_) => "choice",
        Response::Order(_) => "order",
    }
}

/// Whether `a`'s 95% interval lies wholly on the asked side of `b`'s: below it (`low`), or above it.
fn beyond(iv: &[Interval], a: usize, b: usize, low: bool) -> bool {
    if low {
        iv[a].high < iv[b].low
    } else {
        iv[a].low > iv[b].high
    }
}

/// The variants by mean, lowest first (`up`) or highest first; equal means keep the file's order, a variant without
/// a value comes last.
fn ranked(iv: &[Interval], up: bool) -> Vec<usize> {
    let mut order: Vec<usize> = (0..iv.len()).collect();
    let key = |v: usize| if up { iv[v].mean } else { -iv[v].mean };
    order.sort_by(|&a, &b| {
        let (x, y) = (key(a), key(b));
        match (x.is_finite(), y.is_finite()) {
            (true, true) => x.total_cmp(&y),
            (a, b) => b.cmp(&a),
        }
    });
    order
}

/// The value a `number` question asks for, the range it takes with every mean anywhere in its 95% interval (NaN
/// bounds without intervals), and the variants it reads.
fn quantity(lesson: &Lesson, iv: &[Interval], of: &Quantity) -> (f64, (f64, f64), Vec<usize>) {
    let at = |label: &String| lesson.variants.iter().position(|v| &v.label == label).unwrap_or(0);
    match of {
        Quantity::Mean(a) => {
            let i = iv[at(a)];
            (i.mean, (i.low, i.high), vec![at(a)])
        }
        Quantity::Ratio(a, b) => {
            let (x, y) = (iv[at(a)], iv[at(b)]);
            let value = if y.mean > 0.0 && x.mean >= 0.0 { x.mean / y.mean } else { f64::NAN };
            // The ratio's range: from the smallest numerator over the largest denominator to the reverse.
            let range =
                if y.low > 0.0 && x.low >= 0.0 { (x.low / y.high, x.high / y.low) } else { (f64::NAN, f64::NAN) };
            (value, range, vec![at(a), at(b)])
        }
    }
}

/// A student's order as variant indices: every label once.
fn permutation(
    labels: &[String],
    lesson: &Lesson,
    index: impl Fn(&String) -> Result<usize, AnswerError>,
) -> Result<Vec<usize>, AnswerError> {
    let given = labels.iter().map(&index).collect::<Result<Vec<usize>, AnswerError>>()?;
    let all: Vec<String> = lesson.variants.iter().map(|v| v.label.clone()).collect();
    let missing: Vec<String> = all.iter().filter(|l| !labels.contains(l)).cloned().collect();
    let repeated: Vec<String> = all.iter().filter(|l| labels.iter().filter(|x| x == l).count() > 1).cloned().collect();
    if !missing.is_empty() || !repeated.is_empty() {
        return Err(AnswerError::NotAnOrder { missing, repeated });
    }
    Ok(given)
}

/// A number in the answer's unit: `2.09 h`, `50.1%`, `1.71`.
pub fn with_unit(x: f64, unit: &str) -> String {
    match unit {
        "" => readable(x),
        "%" => format!("{}%", readable(x)),
        u => format!("{} {u}", readable(x)),
    }
}
