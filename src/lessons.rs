//! Lessons: guided experiments for a class (docs/lessons.md). A lesson is a plain data file in `lessons/` — a
//! question, what to predict, a scenario of any family, the variants to run (each a set of keys, as `--set` takes
//! them), the number the answer is read from (a JSON pointer into the run's report, as `bagsim run --out` writes
//! it) and an explanation citing the paper. Every file of `lessons/` is compiled in (build.rs), so a teacher adds or
//! edits a lesson without touching Rust; `bagsim lesson ID` runs one natively, the page's "Lessons" in its workers.

use crate::readings::set_path;
use crate::registry::AnyReport;
use crate::scenario::Scenario;
use serde::{Deserialize, Serialize};
use serde_json::Value;

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
    /// What that number is, with its unit.
    pub metric_label: String,
    /// Why the result comes out as it does, citing the paper.
    pub explanation: String,
}

fn one() -> u32 {
    1
}

/// A variant: its label and the keys it sets on the lesson's scenario.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Variant {
    pub label: String,
    #[serde(default)]
    pub set: serde_json::Map<String, Value>,
}

/// Every lesson compiled in, in file-name order; a file that does not parse is reported with its name.
pub fn all() -> Vec<Result<Lesson, String>> {
    FILES
        .iter()
        .map(|(name, text)| {
            let l: Lesson = serde_json::from_str(text).map_err(|e| format!("lessons/{name}: {e}"))?;
            l.check().map_err(|e| format!("lessons/{name}: {e}"))?;
            Ok(l)
        })
        .collect()
}

/// The lesson `id`.
pub fn find(id: &str) -> Result<Lesson, String> {
    let lessons: Vec<Lesson> = all().into_iter().filter_map(Result::ok).collect();
    let names: Vec<&str> = lessons.iter().map(|l| l.id.as_str()).collect();
    let names = names.join(", ");
    lessons.into_iter().find(|l| l.id == id).ok_or_else(|| format!("no lesson {id:?}; the lessons are {names}"))
}

impl Lesson {
    /// Checks the lesson: text present, 1–10 seeds, 1–8 variants, each giving a valid scenario.
    pub fn check(&self) -> Result<(), String> {
        for (what, text) in [("id", &self.id), ("question", &self.question), ("explanation", &self.explanation)] {
            if text.trim().is_empty() {
                return Err(format!("{what} is empty"));
            }
        }
        if !(1..=10).contains(&self.seeds) {
            return Err(format!("seeds {} is out of range; allowed 1–10", self.seeds));
        }
        if self.variants.is_empty() || self.variants.len() > 8 {
            return Err(format!("{} variants; allowed 1–8", self.variants.len()));
        }
        if !self.metric.starts_with('/') {
            return Err(format!("metric {:?} is not a JSON pointer (it starts with /)", self.metric));
        }
        for v in 0..self.variants.len() {
            self.scenario(v, 1)?;
        }
        Ok(())
    }

    /// The scenario of variant `v` with seed `seed`, checked.
    pub fn scenario(&self, v: usize, seed: u64) -> Result<Scenario, String> {
        let variant = self.variants.get(v).ok_or_else(|| format!("no variant {v}"))?;
        let mut json = self.scenario.clone();
        for (k, value) in &variant.set {
            set_path(&mut json, k, value.clone()).map_err(|e| format!("variant {:?}: {e}", variant.label))?;
        }
        set_path(&mut json, "seed", seed.into())?;
        let s = Scenario::from_json(&json.to_string()).map_err(|e| format!("variant {:?}: {e}", variant.label))?;
        s.validate().map_err(|e| format!("variant {:?}: {e}", variant.label))?;
        Ok(s)
    }

    /// Every run of the lesson: (variant, seed, scenario), variant-major.
    pub fn runs(&self) -> Result<Vec<(usize, u64, Scenario)>, String> {
        let mut out = Vec::new();
        for v in 0..self.variants.len() {
            for seed in 1..=u64::from(self.seeds) {
                out.push((v, seed, self.scenario(v, seed)?));
            }
        }
        Ok(out)
    }

    /// The lesson's number in a run's report.
    pub fn value(&self, report: &AnyReport) -> Result<f64, String> {
        let text = report.to_json().map_err(|e| e.to_string())?;
        let json: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
        json.pointer(&self.metric)
            .and_then(Value::as_f64)
            .ok_or_else(|| format!("the report has no number at {}", self.metric))
    }

    /// Per variant, the mean of the values of its seeds (`values[run]` in the order of `runs`).
    pub fn means(&self, values: &[f64]) -> Vec<f64> {
        let n = self.seeds as usize;
        values.chunks(n).map(|c| c.iter().sum::<f64>() / c.len() as f64).collect()
    }
}
