//! The run contract every scenario family implements once (ARCHITECTURE.md, "The family contract"). The worker's
//! chunk loop, the CLI's `run`, `sweep` and figure commands, and the tests drive any family's run through it, and
//! know nothing else of the family. Knows no family.

use serde::{Deserialize, Serialize};

/// A documented parameter: JSON path, unit, allowed values and meaning (for `bagsim scenario --doc` and the UI).
pub struct Param {
    pub path: &'static str,
    pub unit: &'static str,
    pub allowed: &'static str,
    pub meaning: &'static str,
}

/// A scenario value that cannot be simulated: the field (as a JSON path), and why.
#[derive(Clone, Debug, PartialEq)]
pub struct ScenarioError {
    pub field: String,
    pub message: String,
}

impl std::fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for ScenarioError {}

/// How far one step of a run goes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// At most this many events.
    Events(u64),
    /// Every event up to this simulated time, s.
    Until(f64),
    /// Every event to the end of the run.
    ToEnd,
}

/// Where a run stands, in the terms every family shares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// Simulated time, s.
    pub now: f64,
    /// End of the run at the latest, s.
    pub horizon: f64,
    pub events: u64,
    /// Tasks of the workload, and how many have finished.
    pub tasks: u64,
    pub finished_tasks: u64,
    /// Tasks waiting for a processor (a machine) now.
    pub queued: u64,
    /// Processors (machines) busy now.
    pub busy: u64,
}

impl Header {
    /// Finished tasks over all tasks (1 for an empty workload).
    pub fn done_fraction(&self) -> f64 {
        if self.tasks == 0 {
            1.0
        } else {
            self.finished_tasks as f64 / self.tasks as f64
        }
    }
}

/// What a run's workload turned out to be, in the terms every family shares (the `Started` message).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Start {
    pub bots: u64,
    pub tasks: u64,
    /// The offered load the workload achieved (for a desktop grid, the load factor L, exact by construction).
    pub achieved_load: f64,
    pub warnings: Vec<String>,
}

/// A family's run, built from its scenario, stepped by a budget, asked where it stands, what is new since the last
/// call, and for its report. Pause, resume, cancel and speed are the driver's: a paused run is one that is not
/// stepped, a cancelled one is dropped, and a speed is a budget of simulated time per tick.
pub trait FamilyRun {
    /// What the page draws live: the samples and results that are new since the previous `take_detail`.
    type Detail;
    /// The family's report of a finished run (the JSON of `bagsim run --out`).
    type Report;

    /// Plays events within the budget; true when the run is over (nothing left, or the horizon reached).
    fn step(&mut self, budget: Budget) -> bool;
    /// Where the run stands.
    fn header(&self) -> Header;
    /// The samples and results since the previous call.
    fn take_detail(&mut self) -> Self::Detail;
    /// The report, with the wall-clock seconds the simulation took.
    fn report(&self, wall_s: f64) -> Self::Report;
}

/// Runs a family's run to the end and reports it; `clock` gives seconds (std's `Instant` natively,
/// `performance.now` in a browser), and the report's wall time covers the simulation only.
pub fn run_to_report<R: FamilyRun>(run: &mut R, clock: &dyn Fn() -> f64) -> R::Report {
    let t0 = clock();
    run.step(Budget::ToEnd);
    let wall = clock() - t0;
    run.report(wall)
}

/// Longest stretch of a value a message quotes; a longer one is cut and its length given.
const QUOTE_MAX: usize = 60;

/// Shortens every quoted value (between backticks or double quotes) of a message to `QUOTE_MAX` characters.
fn shorten_quotes(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(1024));
    let mut rest = message;
    while let Some(open) = rest.find(['`', '"']) {
        let quote = rest[open..].chars().next().unwrap_or('"');
        out.push_str(&rest[..=open]);
        let inner = &rest[open + 1..];
        let close = inner.find(quote).unwrap_or(inner.len());
        let value = &inner[..close];
        let n = value.chars().count();
        if n > QUOTE_MAX {
            out.extend(value.chars().take(QUOTE_MAX));
            out.push_str(&format!("… ({n} characters)"));
        } else {
            out.push_str(value);
        }
        rest = &inner[close..];
        if let Some(q) = rest.chars().next() {
            out.push(q);
            rest = &rest[q.len_utf8()..];
        }
    }
    out.push_str(rest);
    out
}

/// Reads a scenario document from JSON. A refusal names the JSON path of the field (`desktop_grid.mix`,
/// `platform.clusters[0].speed`; `scenario` for the document as a whole) and quotes at most a short prefix of a long
/// value.
///
/// In wasm32 (the page, which reads scenarios only from its own links and storage, and edits them control by
/// control) the path is not tracked: tracking instantiates every scenario type's deserializer a second time, 43 KB
/// of gzipped wasm.
#[cfg(target_arch = "wasm32")]
pub fn parse_json<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, ScenarioError> {
    serde_json::from_str(text)
        .map_err(|e| ScenarioError { field: "scenario".into(), message: shorten_quotes(&e.to_string()) })
}

/// Reads a scenario document from JSON, tracking the path of a refusal (see the wasm32 version).
#[cfg(not(target_arch = "wasm32"))]
pub fn parse_json<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, ScenarioError> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value: T = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let field = if path == "." || path.is_empty() { "scenario".to_string() } else { path };
        ScenarioError { field, message: shorten_quotes(&e.into_inner().to_string()) }
    })?;
    de.end().map_err(|e| ScenarioError { field: "scenario".into(), message: e.to_string() })?;
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Doc {
        inner: Inner,
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Inner {
        x: f64,
        list: Vec<u32>,
    }

    #[test]
    fn refusals_name_the_path_and_cut_long_values() {
        let e = parse_json::<Doc>(r#"{"inner": {"x": "text", "list": []}}"#).unwrap_err();
        assert_eq!(e.field, "inner.x", "{e}");
        let e = parse_json::<Doc>(r#"{"inner": {"x": 1, "list": [1, -2]}}"#).unwrap_err();
        assert_eq!(e.field, "inner.list[1]", "{e}");
        let long = "y".repeat(10_000);
        let e = parse_json::<Doc>(&format!(r#"{{"inner": {{"x": "{long}", "list": []}}}}"#)).unwrap_err();
        assert!(e.message.len() < 300 && e.message.contains("(10000 characters)"), "{}", e.message);
        let e = parse_json::<Doc>(r#"{"inner": {"x": 1, "list": []}} trailing"#).unwrap_err();
        assert_eq!(e.field, "scenario");
        assert_eq!(shorten_quotes("no quotes"), "no quotes");
        assert_eq!(shorten_quotes("an `open quote"), "an `open quote");
    }
}
