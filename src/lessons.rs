//! Lessons: guided experiments for a class (docs/lessons.md). A lesson is a plain data file in `lessons/` — a
//! question, what to predict, a scenario of any family, the variants to run (each a set of keys, as `--set` takes
//! them), the number the answer is read from (a JSON pointer into the run's report, as `bagsim run --out` writes
//! it) and an explanation citing the paper. Every file of `lessons/` is compiled in (build.rs), so a teacher adds or
//! edits a lesson without touching Rust; `bagsim lesson ID` runs one natively, the page's "Lessons" in its workers.

use crate::readings::set_path;
use crate::registry::AnyReport;
use crate::scenario::Scenario;
use crate::stats::interval::Interval;
pub use error::LessonError;
pub use questions::{Answer, AnswerError, Checked, Mark, Question, QuestionError, Resolution, Response};
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub mod class;
mod error;
pub mod questions;
pub mod story;

include!(concat!(env!("OUT_DIR"), "/lessons.rs"));

/// One guided experiment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lesson {
    /// Short name, used in links (`?lesson=ID`) and on the command line.
    pub id: String,
    pub title: String,
    /// The question put to the class.
    pub question: String,
    /// What the students predict before the run.
    pub predict: String,
    /// The scenario every variant starts from.
    pub scenario: Value,
    /// The variants compared, each a label and the keys it sets.
    pub variants: Vec<Variant>,
    /// Seeds per variant (1–10): the answer is the mean over seeds 1…N.
    #[serde(default = "one")]
    pub seeds: u32,
    /// The number the answer is read from: a JSON pointer into the report (`/metrics/overall/nsl/mean`).
    pub metric: String,
    /// What that number is, with its unit in brackets (`mean BoT turnaround [h]`).
    pub metric_label: String,
    /// The unit the prediction asks in and the answer is given in: `s`, `min`, `h`, `%`, or empty for a ratio
    /// (NSL). The report's number (seconds, a fraction, a ratio) is converted to it.
    #[serde(default)]
    pub unit: String,
    /// What the explanation claims about the answers, checked with 95% intervals over the seeds.
    pub claim: Claim,
    /// Why the result comes out as it does, citing the paper.
    pub explanation: String,
    /// A scenario key the class writes as a script after the run (`"scheduling"`): the page's "Write your own
    /// policy" opens the lesson's scenario in the lab with that key set to its family's first example; not one of
    /// the runs.
    #[serde(default)]
    pub your_own: Option<String>,
    /// A lesson of long runs (the default month): the test command reads its file but runs it only with
    /// `BAGSIM_LONG=1`; the page and `bagsim lesson` run it like any other.
    #[serde(default)]
    pub long: bool,
    /// Questions the students answer after the run, whose answers are computed from it (docs/lessons.md,
    /// "Questions").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub questions: Vec<Question>,
    /// A task's story the class reads after the runs (docs/lessons.md, "A task's story").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub story: Option<story::StoryPick>,
}

/// What a lesson claims about its answers: an ordering the class can check on the numbers, or none.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Claim {
    /// The answer rises from each variant to the next, in the file's order.
    Increasing,
    /// The answer falls from each variant to the next.
    Decreasing,
    /// The variant with this label has the lowest answer.
    Lowest(String),
    /// The variant with this label has the highest answer.
    Highest(String),
    /// No ordering: the explanation says the variants cannot be told apart on these runs.
    #[serde(rename = "none")]
    NoOrder,
}

/// How a claim fares on a run's numbers.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// Every comparison the claim makes is separated by the 95% intervals.
    Holds(String),
    /// Some intervals overlap: more seeds might tell.
    NotResolved(String),
    /// A comparison goes the other way with separated intervals.
    Contradicted(String),
    /// The lesson claims no ordering.
    NoClaim,
}

impl Verdict {
    /// One sentence for the class.
    pub fn sentence(&self) -> String {
        match self {
            Verdict::Holds(s) => format!("The claim holds: {s}."),
            Verdict::NotResolved(s) => format!("Not resolved: {s}; more seeds might tell."),
            Verdict::Contradicted(s) => format!("The claim does not hold on these runs: {s}."),
            Verdict::NoClaim => "The lesson claims no ordering of these numbers.".into(),
        }
    }
}

fn one() -> u32 {
    1
}

/// The keys a lesson's `your_own` may name, by family: the decisions the page's script boxes edit
/// (docs/policies.md).
pub const YOUR_OWN: [(&str, &str); 4] = [
    ("multi_cluster", "scheduling"),
    ("multi_cluster", "selection"),
    ("desktop_grid", "bot_selection"),
    ("data_grid", "scheme"),
];

/// A variant: its label and the keys it sets on the lesson's scenario.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Variant {
    pub label: String,
    #[serde(default)]
    pub set: serde_json::Map<String, Value>,
}

/// Every lesson compiled in, in file-name order; a file that does not parse is reported with its name.
pub fn all() -> Vec<Result<Lesson, LessonError>> {
    FILES.iter().map(|(name, text)| parse(name, text)).collect()
}

/// The lesson of the file `name` whose text is `text`, checked: a text that does not parse is `LessonError::File`,
/// a lesson that breaks a rule `LessonError::Invalid` with the rule's own error.
pub fn parse(name: &str, text: &str) -> Result<Lesson, LessonError> {
    let l: Lesson =
        serde_json::from_str(text).map_err(|e| LessonError::File { name: name.to_string(), why: e.to_string() })?;
    l.check().map_err(|e| LessonError::Invalid { name: name.to_string(), error: Box::new(e) })?;
    Ok(l)
}

/// The lesson `id`.
pub fn find(id: &str) -> Result<Lesson, LessonError> {
    let lessons: Vec<Lesson> = all().into_iter().filter_map(Result::ok).collect();
    let names: Vec<&str> = lessons.iter().map(|l| l.id.as_str()).collect();
    let names = names.join(", ");
    lessons.into_iter().find(|l| l.id == id).ok_or_else(|| LessonError::NotFound { id: id.to_string(), ids: names })
}

impl Lesson {
    /// Checks the lesson: text present, 1–10 seeds, 1–8 variants, each giving a valid scenario.
    pub fn check(&self) -> Result<(), LessonError> {
        for (what, text) in [("id", &self.id), ("question", &self.question), ("explanation", &self.explanation)] {
            if text.trim().is_empty() {
                return Err(LessonError::Field(format!("{what} is empty")));
            }
        }
        if !(1..=10).contains(&self.seeds) {
            return Err(LessonError::Field(format!("seeds {} is out of range; allowed 1–10", self.seeds)));
        }
        if self.variants.is_empty() || self.variants.len() > 8 {
            return Err(LessonError::Field(format!("{} variants; allowed 1–8", self.variants.len())));
        }
        if !self.metric.starts_with('/') {
            let why = format!("metric {:?} is not a JSON pointer (it starts with /)", self.metric);
            return Err(LessonError::Field(why));
        }
        self.scale()?;
        match &self.claim {
            Claim::Lowest(label) | Claim::Highest(label) if !self.variants.iter().any(|v| &v.label == label) => {
                return Err(LessonError::Field(format!("claim names {label:?}, which is not a variant's label")));
            }
            Claim::NoOrder => {}
            _ if self.seeds < 2 => {
                return Err(LessonError::Field("a claim is checked with intervals, which need at least 2 seeds".into()))
            }
            _ => {}
        }
        // The prediction asks in the answer's unit, and the answer's label names it.
        let asked = match self.unit.as_str() {
            "s" => "seconds",
            "min" => "minutes",
            "h" => "hours",
            u => u,
        };
        if !self.predict.contains(asked) {
            return Err(LessonError::Field(format!(
                "the prediction does not ask in {asked:?}, the unit of the answer"
            )));
        }
        let label_unit = self.metric_label.rsplit_once('[').map(|(_, u)| u.trim_end_matches(']'));
        if label_unit.unwrap_or("") != self.unit {
            return Err(LessonError::Field(format!(
                "metric_label {:?} does not end with the answer's unit [{}]",
                self.metric_label, self.unit
            )));
        }
        for v in 0..self.variants.len() {
            self.scenario(v, 1)?;
        }
        if let Some(key) = &self.your_own {
            let s = self.scenario(0, 1)?;
            if !YOUR_OWN.contains(&(s.family().name(), key.as_str())) {
                let allowed: Vec<String> = YOUR_OWN.iter().map(|(f, k)| format!("{k} ({f})")).collect();
                return Err(LessonError::Field(format!(
                    "your_own {key:?}: not a key a class can write as a script; allowed {}",
                    allowed.join(", ")
                )));
            }
        }
        for (index, q) in self.questions.iter().enumerate() {
            q.check(self).map_err(|error| LessonError::Question { index, error })?;
        }
        if let Some(pick) = &self.story {
            pick.variant_index(self)?;
            if pick.look_for.trim().is_empty() {
                return Err(LessonError::Field("story.look_for is empty".into()));
            }
        }
        Ok(())
    }

    /// The scenario of variant `v` with seed `seed`, checked.
    pub fn scenario(&self, v: usize, seed: u64) -> Result<Scenario, LessonError> {
        let variant = self.variants.get(v).ok_or(LessonError::NoVariant(v))?;
        let refused = |why: String| LessonError::Variant { label: variant.label.clone(), why };
        let mut json = self.scenario.clone();
        for (k, value) in &variant.set {
            set_path(&mut json, k, value.clone()).map_err(|e| refused(e.to_string()))?;
        }
        set_path(&mut json, "seed", seed.into())?;
        let s = Scenario::from_json(&json.to_string()).map_err(|e| refused(e.to_string()))?;
        s.validate().map_err(|e| refused(e.to_string()))?;
        Ok(s)
    }

    /// The scenario the class writes its own policy in: the lesson's, seed 1, with its `your_own` key set to the
    /// script `source` (None: the lesson asks for no script).
    pub fn your_own_scenario(&self, source: &str) -> Option<Result<Scenario, LessonError>> {
        let key = self.your_own.as_ref()?;
        let build = || {
            let family = self.scenario(0, 1)?.family().name();
            let path = if family == "multi_cluster" { key.clone() } else { format!("{family}.{key}") };
            let mut json = self.scenario.clone();
            set_path(&mut json, &path, serde_json::json!({ "script": source }))?;
            set_path(&mut json, "seed", 1.into())?;
            Scenario::from_json(&json.to_string()).map_err(|error| LessonError::YourOwn { key: key.clone(), error })
        };
        Some(build())
    }

    /// Every run of the lesson: (variant, seed, scenario), variant-major.
    pub fn runs(&self) -> Result<Vec<(usize, u64, Scenario)>, LessonError> {
        let mut out = Vec::new();
        for v in 0..self.variants.len() {
            for seed in 1..=u64::from(self.seeds) {
                out.push((v, seed, self.scenario(v, seed)?));
            }
        }
        Ok(out)
    }

    /// The factor from the report's number to the lesson's unit: a time in seconds to `s`, `min` or `h`; a
    /// fraction (RWT, utilization) to `%` or a bare ratio; a ratio (NSL, slowdown) as it is.
    pub fn scale(&self) -> Result<f64, LessonError> {
        let m = self.metric.as_str();
        let leaf = m.rsplit('/').next().unwrap_or("");
        let fraction = matches!(leaf, "rwt" | "utilization" | "finished_fraction");
        let ratio = m.contains("/nsl/") || m.contains("/slowdown/");
        let time = ["wait", "turnaround", "makespan", "response", "transfer"].iter().any(|t| m.contains(t));
        match (fraction, ratio, time, self.unit.as_str()) {
            (true, _, _, "%") => Ok(100.0),
            (true, _, _, "") | (_, true, _, "") => Ok(1.0),
            (_, _, true, "s") => Ok(1.0),
            (_, _, true, "min") => Ok(1.0 / 60.0),
            (_, _, true, "h") => Ok(1.0 / 3600.0),
            _ => Err(LessonError::Field(format!("unit {:?} does not fit the metric {m}", self.unit))),
        }
    }

    /// The lesson's number in a run's report, in the lesson's unit.
    pub fn value(&self, report: &AnyReport) -> Result<f64, LessonError> {
        let text = report.to_json().map_err(|e| LessonError::Report(e.to_string()))?;
        let json: Value = serde_json::from_str(&text).map_err(|e| LessonError::Report(e.to_string()))?;
        let raw = json
            .pointer(&self.metric)
            .and_then(Value::as_f64)
            .ok_or_else(|| LessonError::Report(format!("the report has no number at {}", self.metric)))?;
        Ok(raw * self.scale()?)
    }

    /// Per variant, the mean of the values of its seeds (`values[run]` in the order of `runs`).
    pub fn means(&self, values: &[f64]) -> Vec<f64> {
        self.intervals(values).iter().map(|i| i.mean).collect()
    }

    /// Per variant, the mean and 95% interval over its seeds (`values[run]` in the order of `runs`).
    pub fn intervals(&self, values: &[f64]) -> Vec<Interval> {
        values.chunks(values.len().div_ceil(self.variants.len()).max(1)).map(Interval::of).collect()
    }

    /// Every question's answer computed from the runs' values (`values[run]` in the order of `runs`), in the
    /// questions' order.
    pub fn answers(&self, values: &[f64]) -> Vec<Result<Answer, AnswerError>> {
        let iv = self.intervals(values);
        self.questions.iter().map(|q| q.answer(self, &iv)).collect()
    }

    /// A student's answer to question `index` (from 0) marked against the runs' values.
    pub fn check_answer(&self, index: usize, values: &[f64], given: &Response) -> Result<Checked, AnswerError> {
        let q = self.questions.get(index).ok_or(AnswerError::NoQuestion { index, questions: self.questions.len() })?;
        q.check_response(self, &self.intervals(values), given)
    }

    /// The lesson's claim checked on the answers' intervals.
    pub fn verdict(&self, values: &[f64]) -> Verdict {
        let iv = self.intervals(values);
        if iv.len() != self.variants.len() {
            return Verdict::NotResolved(format!("{} numbers for {} variants", values.len(), self.variants.len()));
        }
        let name = |i: usize| format!("{} at {}", self.variants[i].label, interval_text(&iv[i]));
        // Each pair (a, b) the claim says has a below b, and what holding means.
        let (pairs, how): (Vec<(usize, usize)>, String) = match &self.claim {
            Claim::NoOrder => return Verdict::NoClaim,
            Claim::Increasing => (
                (1..iv.len()).map(|i| (i - 1, i)).collect(),
                "each variant's 95% interval lies above the one before".into(),
            ),
            Claim::Decreasing => (
                (1..iv.len()).map(|i| (i, i - 1)).collect(),
                "each variant's 95% interval lies below the one before".into(),
            ),
            Claim::Lowest(l) | Claim::Highest(l) => {
                let Some(k) = self.variants.iter().position(|v| &v.label == l) else {
                    return Verdict::Contradicted(format!("no variant is labelled {l:?}"));
                };
                let low = matches!(self.claim, Claim::Lowest(_));
                let pairs = (0..iv.len()).filter(|&i| i != k).map(|i| if low { (k, i) } else { (i, k) }).collect();
                let side = if low { "below" } else { "above" };
                (pairs, format!("the 95% interval of {l} lies {side} every other"))
            }
        };
        let mut open = Vec::new();
        for &(a, b) in &pairs {
            if iv[a].separated_from(&iv[b]) {
                if iv[a].mean > iv[b].mean {
                    return Verdict::Contradicted(format!("{} is above {}", name(a), name(b)));
                }
            } else {
                open.push(format!("{} and {}", name(a), name(b)));
            }
        }
        if !open.is_empty() {
            return Verdict::NotResolved(format!("the 95% intervals of {} overlap", open.join("; of ")));
        }
        Verdict::Holds(how)
    }
}

/// A mean and its 95% interval for a class: `1111 (95%: 910 – 1400)`, or the mean alone from one value.
pub fn interval_text(i: &Interval) -> String {
    if i.has_bounds() {
        format!("{} (95%: {} – {})", readable(i.mean), readable(i.low), readable(i.high))
    } else {
        readable(i.mean)
    }
}

/// A number for a class, as the page and the CLI show every number (`words::number_words`: three significant
/// digits, thousands apart).
pub fn readable(x: f64) -> String {
    crate::words::number_words(x)
}
