//! The run contract every scenario family implements once (ARCHITECTURE.md, "The family contract"). The worker's
//! chunk loop, the CLI's `run`, `sweep` and figure commands, and the tests drive any family's run through it, and
//! know nothing else of the family. Knows no family.

mod estimate;

use serde::{Deserialize, Serialize};

pub use estimate::{
    Driver, Estimate, Part, EVENTS_PER_S, LARGE_MEMORY, LONG_EVENTS, MAX_EVENTS, MAX_MEMORY, PAGE_EVENTS_PER_S,
};

/// A documented parameter: JSON path, unit, allowed values and meaning (for `bagsim scenario --doc` and the UI).
pub struct Param {
    pub path: &'static str,
    pub unit: &'static str,
    pub allowed: &'static str,
    pub meaning: &'static str,
}

/// A key of a scenario whose value changes nothing under the scenario's other settings (e.g. a csp's monitoring
/// period under sep-c): its JSON path and why. A sweep axis on such a key is refused, and a run whose value of it
/// differs from the default warns, so that no row or summary labels a setting that did not apply.
#[derive(Clone, Debug, PartialEq)]
pub struct Unused {
    pub path: &'static str,
    pub why: String,
}

impl Unused {
    pub fn new(path: &'static str, why: impl Into<String>) -> Unused {
        Unused { path, why: why.into() }
    }

    /// Whether `path` is this key or lies inside it.
    pub fn covers(&self, path: &str) -> bool {
        path == self.path || path.strip_prefix(self.path).is_some_and(|rest| rest.starts_with('.'))
    }
}

/// A scenario value that cannot be simulated: the field (as a JSON path), and why.
#[derive(Clone, Debug, PartialEq)]
pub struct ScenarioError {
    pub field: String,
    pub message: String,
}

impl std::fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", tidy_message(&self.field), tidy_message(&self.message))
    }
}

/// A line of a summary or table as a person reads it: a zero printed with a sign (`-0`, `-0.00`, which a fixed
/// number of decimals makes of −0.001) loses it, and a number that has no value (`NaN`, `inf`) reads `undefined`.
/// The CLI's printing goes through it, so no summary, table or report shows them, whichever line built them.
pub fn tidy_line(s: &str) -> String {
    let b = s.as_bytes();
    let boundary = |i: usize| i >= b.len() || !(b[i].is_ascii_alphanumeric() || b[i] == b'.' || b[i] == b'_');
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < b.len() {
        let start_ok = i == 0 || boundary(i - 1) && b[i - 1] != b'-';
        if start_ok && b[i] == b'-' {
            let mut j = i + 1;
            while j < b.len() && (b[j] == b'0' || b[j] == b'.') {
                j += 1;
            }
            if j > i + 1 && b[i + 1] == b'0' && boundary(j) {
                out.push_str(&s[i + 1..j]);
                i = j;
                continue;
            }
        }
        if start_ok && b[i].is_ascii_alphabetic() {
            let mut j = i;
            while j < b.len() && b[j].is_ascii_alphanumeric() {
                j += 1;
            }
            let word = &s[i..j];
            if boundary(j) && matches!(word, "NaN" | "nan" | "inf" | "Infinity") {
                out.push_str("undefined");
            } else {
                out.push_str(word);
            }
            i = j;
            continue;
        }
        let c = s[i..].chars().next().expect("a char");
        out.push(c);
        i += c.len_utf8();
    }
    out
}

/// Refuses an array in `input` where the scenario read (`read`, the parsed scenario written back) holds an object,
/// naming its path: what serde would read as a struct's fields in order, silently, from a JSON array.
pub fn objects_as_objects(
    input: &serde_json::Value,
    read: &serde_json::Value,
    path: &str,
) -> Result<(), ScenarioError> {
    use serde_json::Value;
    let at = |k: &str| if path.is_empty() { k.to_string() } else { format!("{path}.{k}") };
    match (input, read) {
        (Value::Array(_), Value::Object(_)) => Err(ScenarioError {
            field: if path.is_empty() { "scenario".into() } else { path.to_string() },
            message: "an array where an object {…} is expected (give each field by its name)".into(),
        }),
        (Value::Object(a), Value::Object(b)) => a
            .iter()
            .filter_map(|(k, v)| b.get(k).map(|w| (k, v, w)))
            .try_for_each(|(k, v, w)| objects_as_objects(v, w, &at(k))),
        (Value::Array(a), Value::Array(b)) => {
            a.iter().zip(b).enumerate().try_for_each(|(i, (v, w))| objects_as_objects(v, w, &format!("{path}[{i}]")))
        }
        _ => Ok(()),
    }
}

/// A message as a person reads it: a number printed in full (0.000…5, 330 digits) in its short form (5e-324),
/// and any other word longer than 60 characters (a 1 MB key echoed back) cut, saying how long it was.
pub fn tidy_message(s: &str) -> String {
    if !s.split(char::is_whitespace).any(|w| w.chars().count() > 60) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len().min(4096));
    for (k, w) in s.split(' ').enumerate() {
        if k > 0 {
            out.push(' ');
        }
        let n = w.chars().count();
        if n <= 60 {
            out.push_str(w);
            continue;
        }
        let core = w.trim_end_matches([',', ';', ':', '.', ')']);
        match core.parse::<f64>() {
            Ok(x) => {
                out.push_str(&short_number(x));
                out.push_str(&w[core.len()..]);
            }
            Err(_) => {
                out.extend(w.chars().take(40));
                out.push_str(&format!("… ({n} characters)"));
            }
        }
    }
    out
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

/// A number as a message quotes it: never hundreds of digits (5e-324, not 0.000…5), never "inf" or "NaN" (∞, "not
/// a number"), never −0.
pub fn short_number(x: f64) -> String {
    if x.is_nan() {
        "not a number".into()
    } else if x.is_infinite() {
        if x > 0.0 { "∞" } else { "−∞" }.into()
    } else if x == 0.0 {
        "0".into()
    } else if (1e-4..1e15).contains(&x.abs()) {
        format!("{x}")
    } else {
        format!("{x:e}")
    }
}

/// Digits in groups of three from the right: "1234567" → "1 234 567".
pub fn group_digits(digits: &str) -> String {
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

/// A count in words: "12 000", "3.4 million", "2 billion", "2.1e13", "unboundedly many".
pub fn count_words(n: f64) -> String {
    let short = |x: f64, unit: &str| format!("{} {unit}", format!("{x:.1}").trim_end_matches(".0"));
    if !n.is_finite() {
        "unboundedly many".into()
    } else if n >= 1e12 {
        format!("{n:.1e}")
    } else if n >= 1e9 {
        short(n / 1e9, "billion")
    } else if n >= 1e6 {
        short(n / 1e6, "million")
    } else {
        let n = if n >= 1e4 { (n / 1e3).round() * 1e3 } else { n.round() };
        group_digits(&format!("{n:.0}"))
    }
}

/// Bytes in words: "12 MB", "3.4 GB".
pub fn bytes_words(b: f64) -> String {
    if !b.is_finite() {
        "unboundedly much".into()
    } else if b >= 1e9 {
        format!("{:.1} GB", b / 1e9)
    } else if b >= 1e6 {
        format!("{:.0} MB", b / 1e6)
    } else {
        format!("{:.0} kB", (b / 1e3).max(1.0))
    }
}

/// Seconds in words: "under a second", "12 s", "4 min", "3 h".
pub fn seconds_words(s: f64) -> String {
    if !s.is_finite() {
        "without end".into()
    } else if s < 1.0 {
        "under a second".into()
    } else if s < 120.0 {
        format!("{s:.0} s")
    } else if s < 7200.0 {
        format!("{:.0} min", s / 60.0)
    } else {
        format!("{:.0} h", s / 3600.0)
    }
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
    fn lines_never_show_signed_zeros_or_nan() {
        assert_eq!(
            tidy_line("growth -0.00 per day, -0 s, -0.5, x-0, 10-0"),
            "growth 0.00 per day, 0 s, -0.5, x-0, 10-0"
        );
        assert_eq!(tidy_line("RWT NaN% and inf, Information"), "RWT undefined% and undefined, Information");
        assert_eq!(tidy_line("a – b ± c"), "a – b ± c");
    }

    #[test]
    fn messages_never_hold_huge_numbers_or_words() {
        let tiny = format!("{}", 5e-324);
        assert!(tiny.len() > 300);
        let m = tidy_message(&format!("x: {tiny} is out of range; allowed {}", "k".repeat(100_000)));
        assert_eq!(m, format!("x: 5e-324 is out of range; allowed {}… (100000 characters)", "k".repeat(40)));
        assert_eq!(short_number(-0.0), "0");
        assert_eq!(short_number(f64::INFINITY), "∞");
        assert_eq!(short_number(1.5), "1.5");
        assert_eq!(short_number(1e300), "1e300");
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
