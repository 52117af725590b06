//! What a family is, for the registry: its scenario and run types and the functions every front end dispatches to
//! (`FamilyDef`, implemented once in each family's folder), and the generic reading of a scenario file of one
//! family (`read_scenario`). The registry's one list of families (`families!`) generates every `Any*` type and
//! every dispatch from these. Knows no family.

use super::{parse_json, ErrorKind, Estimate, FamilyRun, Param, ScenarioError, Unused};
use crate::readings::Reading;
use crate::trace::{Trace, TraceSize};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt::Debug;

/// Why a user's script for a scenario key is refused before it runs (`FamilyDef::check_script`).
#[derive(Clone, Debug, PartialEq)]
pub enum ScriptCheckError {
    /// The key is not a decision the family lets a user write as a script: the family, the key, and the keys that
    /// can be scripts (None: no key of the family can).
    NotAScript { family: &'static str, key: String, can: Option<&'static str> },
    /// The script does not compile: where and why.
    Compile(crate::script::ScriptError),
}

impl std::fmt::Display for ScriptCheckError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ScriptCheckError::NotAScript { family, key, can: None } => write!(f, "{family}.{key} cannot be a script"),
            ScriptCheckError::NotAScript { family, key, can: Some(can) } => {
                write!(f, "{family}.{key} cannot be a script; {can} can")
            }
            ScriptCheckError::Compile(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ScriptCheckError {}

/// One scenario family: its types and what the CLI, the worker, the page and studies ask of it.
pub trait FamilyDef {
    /// Its name in a scenario file (`"family": NAME`), in sweeps and on the command line.
    const NAME: &'static str;
    /// The key of its section in a scenario file (`"desktop_grid": {…}`); None when its keys are the file's top
    /// level (the first family, whose files were written before families existed).
    const SECTION: Option<&'static str>;
    /// Its documented keys (`bagsim scenario --doc`), after `seed` and `family`.
    const PARAMS: &'static [Param];
    /// The decisions its paper leaves open, as keys with named values (`bagsim readings`).
    const READINGS: &'static [Reading];

    /// Its scenario: the seed and its own keys, written as its file is.
    type Scenario: Clone + Debug + Default + PartialEq + Serialize + DeserializeOwned;
    /// Its live figures (`FamilyRun::Detail`).
    type Detail: Clone + Debug + PartialEq + Serialize + DeserializeOwned;
    /// Its report (`FamilyRun::Report`, the JSON of `bagsim run --out`).
    type Report: Clone + Debug + PartialEq + Serialize + DeserializeOwned;
    /// Its run.
    type Run: FamilyRun<Detail = Self::Detail, Report = Self::Report>;

    /// The seed of every random stream of the scenario.
    fn seed(s: &Self::Scenario) -> u64;
    /// Sets it.
    fn set_seed(s: &mut Self::Scenario, seed: u64);
    /// Checks every value the family runs on.
    fn validate(s: &Self::Scenario) -> Result<(), ScenarioError>;
    /// The keys whose value changes nothing under the scenario's other settings.
    fn unused(s: &Self::Scenario) -> Vec<Unused>;
    /// The trace the run reads by name, when it must be read (an imported file; not a bundled log).
    fn trace_named(s: &Self::Scenario) -> Option<&str>;
    /// Reads that trace (natively from a file; the page's worker has only what was imported).
    fn read_trace(s: &Self::Scenario) -> Result<Trace, ScenarioError>;
    /// What the run will cost, before anything runs; `trace` is the size of the named trace when read.
    fn estimate(s: &Self::Scenario, trace: Option<&TraceSize>) -> Estimate;
    /// Builds the run of a scenario checked once (`Checked`: valid, its named trace read, within its budget); the
    /// family does not check it again.
    fn build(c: Checked<'_, Self>) -> Result<Self::Run, ScenarioError>
    where
        Self: Sized;

    /// A sweep's `--set KEY` as the JSON path it sets (`load` → `workload.load`).
    fn sweep_path(key: &str) -> String;
    /// A sweep's CSV columns after the axis columns.
    fn sweep_header() -> String;
    /// A report's row under those columns.
    fn sweep_row(r: &Self::Report) -> String;
    /// The report without what the page already has from the progress messages (time series, large tables).
    fn lean(r: Self::Report) -> Self::Report;
    /// Wall-clock seconds of the simulation.
    fn wall_time_s(r: &Self::Report) -> f64;
    /// Simulated time at the end of the run, s.
    fn end_time(r: &Self::Report) -> f64;
    /// The report as the readable lines `bagsim run` prints after a run.
    fn summary(r: &Self::Report) -> Vec<String>;

    /// Checks a user's script for the scenario key `key` (a decision the family lets a user write as a script,
    /// docs/policies.md) without running it: Ok, or the error with its line and column. The page has no script
    /// engine and asks its worker; a family without scripts refuses every key.
    fn check_script(key: &str, _source: &str) -> Result<(), ScriptCheckError> {
        Err(ScriptCheckError::NotAScript { family: Self::NAME, key: key.to_string(), can: None })
    }

    /// What `bagsim tournament` races in this family: the key a student's script takes the place of, the built-in
    /// values raced beside the scripts, and the sweep column it ranks by default; None when no decision can be a
    /// script.
    fn tournament() -> Option<Tournament> {
        None
    }

    /// Its paper figures (`bagsim figure NAME`), natively; None when it has none.
    fn figures() -> Option<&'static dyn super::FigureCommand<Self::Scenario>> {
        None
    }

    /// Whether a top-level `key` with this value is one of this family's keys at its default (`Some(true)`), one
    /// set away from it (`Some(false)`), or not one of its keys (None). For the first family: files of the other
    /// families written when every file carried its keys still read.
    fn key_at_default(key: &str, value: &serde_json::Value) -> Option<bool> {
        at_default::<Self::Scenario>(key, value)
    }
}

/// A family's tournament (`FamilyDef::tournament`): scripts raced against the built-ins on one scenario and seeds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tournament {
    /// The sweep key a script is the value of (`scheduling`, `bot_selection`, `scheme`).
    pub key: &'static str,
    /// The built-in values raced as reference rows, as the key reads them.
    pub builtins: &'static [&'static str],
    /// The sweep column ranked when `--metric` is not given.
    pub metric: &'static str,
    /// The sweep columns of which more is better (utilization, finished share); less is better for the others.
    pub higher_is_better: &'static [&'static str],
}

/// A scenario of family `F` whose values passed `F::validate`; only `Valid::check` makes one.
pub struct Valid<'a, F: FamilyDef> {
    scenario: &'a F::Scenario,
}

impl<'a, F: FamilyDef> Valid<'a, F> {
    /// Checks every value of `s` (`F::validate`).
    pub fn check(s: &'a F::Scenario) -> Result<Valid<'a, F>, ScenarioError> {
        F::validate(s)?;
        Ok(Valid { scenario: s })
    }

    pub fn scenario(&self) -> &'a F::Scenario {
        self.scenario
    }

    /// The scenario with the trace it names (read or imported, None when it names none) and within the budget of
    /// its estimate on that trace (docs/budget.md); the estimate is kept for the run's warnings.
    pub fn within_budget(self, trace: Option<&'a Trace>) -> Result<Checked<'a, F>, ScenarioError> {
        let estimate = F::estimate(self.scenario, trace.map(|t| &t.report.size));
        estimate.check()?;
        Ok(Checked { scenario: self.scenario, trace, estimate })
    }
}

/// A scenario of family `F` checked once, before its run is built: its values are valid, the trace it names is
/// read, and the run is within its budget. `FamilyDef::build` takes one, so no run is built from an unchecked
/// scenario and none is checked twice; only `Valid::within_budget` makes one.
pub struct Checked<'a, F: FamilyDef> {
    scenario: &'a F::Scenario,
    trace: Option<&'a Trace>,
    estimate: Estimate,
}

impl<'a, F: FamilyDef> Checked<'a, F> {
    pub fn scenario(&self) -> &'a F::Scenario {
        self.scenario
    }

    /// The trace the scenario names, read (None when it names none, or a bundled log the family reads itself).
    pub fn trace(&self) -> Option<&'a Trace> {
        self.trace
    }

    /// The estimate the budget was checked on.
    pub fn estimate(&self) -> &Estimate {
        &self.estimate
    }
}

/// Whether `{key: value}` read as a `T` gives the same `key` as `T::default()`; None when it does not read (not a
/// key of `T`, or a value of the wrong kind).
pub fn at_default<T: Default + Serialize + DeserializeOwned>(key: &str, value: &serde_json::Value) -> Option<bool> {
    let one = serde_json::json!({ key: value }).to_string();
    let read = serde_json::from_str::<T>(&one).ok()?;
    let (read, default) = (serde_json::to_value(read).ok()?, serde_json::to_value(T::default()).ok()?);
    Some(read.get(key) == default.get(key))
}

/// A test of a top-level key of the first family: at its default, set away from it, or not its key (None).
pub type AtDefault<'a> = &'a dyn Fn(&str, &serde_json::Value) -> Option<bool>;

/// The other families' section keys and how to tell the first family's keys at their default, for `read_scenario`.
pub struct Others<'a> {
    /// The section keys of the other families, with their family's name.
    pub sections: &'a [(&'static str, &'static str)],
    /// The first family's name, and its test of a top-level key at its default (None when this is that family).
    pub first: Option<(&'static str, AtDefault<'a>)>,
}

/// Reads the text of a scenario of family `F` (its `family` key already read). Another family's section with a
/// value is refused; a first-family key set away from its default in another family's file is refused (it would
/// change nothing), and one at its default is dropped (older files carried every key). Errors keep the field path.
pub fn read_scenario<F: FamilyDef>(text: &str, others: &Others) -> Result<F::Scenario, ScenarioError> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| super::json_error(text, e, true))?;
    let Some(map) = value.as_object() else { return parse_json(text) };
    for &(section, family) in others.sections {
        if map.get(section).is_some_and(|v| !v.is_null()) {
            return Err(ScenarioError::new(
                ErrorKind::Inconsistent,
                section,
                format!("given, but the scenario's family is {}; add \"family\": \"{family}\" or remove it", F::NAME),
            ));
        }
    }
    let first = parse_json::<F::Scenario>(text);
    if first.is_ok() {
        return first;
    }
    // What this family's type does not read: the family key of the first family (not written in its files), the
    // other families' null sections, and the first family's keys at their defaults.
    let own = |k: &str| k == "seed" || k == "family" && F::SECTION.is_some() || Some(k) == F::SECTION;
    let mut kept = serde_json::Map::new();
    for (k, v) in map {
        let foreign_section = others.sections.iter().any(|(s, _)| s == k);
        let drop = if own(k) {
            false
        } else if foreign_section || k == "family" {
            true
        } else if let Some((name, at_default)) = others.first.filter(|(_, at)| at(k, v).is_some()) {
            if at_default(k, v) == Some(false) {
                return Err(ScenarioError::new(
                    ErrorKind::NotAllowed,
                    "scenario",
                    format!(
                        "{k}: a {} key, which a {} scenario does not use; remove it (or set family to {name})",
                        name.replace('_', "-"),
                        F::NAME
                    ),
                ));
            }
            true
        } else {
            false
        };
        if !drop {
            kept.insert(k.clone(), v.clone());
        }
    }
    if kept.len() == map.len() {
        return first;
    }
    super::parse_rewritten_json(&serde_json::Value::Object(kept).to_string())
}

/// Builds the run of family `F` (`AnyRun::build`): checks the scenario, reads the trace it names (or takes the one
/// imported under that name), checks the budget on the trace's size, builds the run and says its warnings first.
pub fn build<F: FamilyDef>(s: &F::Scenario, imported: Option<(&str, &Trace)>) -> Result<F::Run, ScenarioError> {
    let valid = Valid::<F>::check(s)?;
    let read;
    let trace = match F::trace_named(s) {
        Some(name) => match imported.filter(|(n, _)| *n == name) {
            Some((_, t)) => Some(t),
            None => {
                read = F::read_trace(s)?;
                Some(&read)
            }
        },
        None => None,
    };
    let checked = valid.within_budget(trace)?;
    let mut warnings = checked.estimate().warnings();
    let mut run = F::build(checked)?;
    warnings.extend(said(F::unused(s)));
    run.warn(warnings);
    Ok(run)
}

/// A warning for each key set away from its family's default that changes nothing under the other settings.
pub fn said(unused: Vec<Unused>) -> Vec<String> {
    unused.into_iter().filter(|u| u.set).map(|u| format!("{} is set but has no effect: {}", u.path, u.why)).collect()
}

/// Runs a scenario of family `F` to its end, natively, checked and warned as `build` does; `clock` returns seconds.
/// The report is the one `bagsim run` gives (`FamilyRun::full_report`).
pub fn run_to_end<F: FamilyDef>(s: &F::Scenario, clock: &dyn Fn() -> f64) -> Result<F::Report, ScenarioError> {
    let mut run = build::<F>(s, None)?;
    let report = super::run_to_report(&mut run, clock);
    match run.failure() {
        Some(e) => Err(e),
        None => Ok(run.full_report(report)),
    }
}

/// The scenario as JSON text with every unused key (`FamilyDef::unused`) at its default: two scenarios with the same
/// text give the same run, so a study runs it once.
pub fn canonical_json<F: FamilyDef>(s: &F::Scenario) -> String {
    let (json, default) = (serde_json::to_value(s), serde_json::to_value(F::Scenario::default()));
    let (Ok(mut json), Ok(default)) = (json, default) else { return String::new() };
    for u in F::unused(s) {
        let at = format!("/{}", u.path.replace('.', "/"));
        if let (Some(slot), Some(d)) = (json.pointer_mut(&at), default.pointer(&at)) {
            *slot = d.clone();
        }
    }
    json.to_string()
}

/// A scenario of family `F` as the family writes it (a study's job, a manifest's base), read and checked: its
/// objects as objects and its values valid.
pub fn scenario_from_json<F: FamilyDef>(text: &str) -> Result<F::Scenario, ScenarioError> {
    let s = read_scenario::<F>(text, &Others { sections: &[], first: None })?;
    if let (Ok(input), Ok(read)) = (serde_json::from_str(text), serde_json::to_value(&s)) {
        super::objects_as_objects(&input, &read, "")?;
    }
    F::validate(&s)?;
    Ok(s)
}
