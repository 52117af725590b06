//! A scenario's keys as the contract sees them: a documented parameter, a key without effect, a value that cannot
//! be simulated, and reading a scenario document from JSON with the path of a refusal.

pub use crate::error::{ErrorKind, ScenarioError};
use crate::words::shorten_quotes;

/// A documented parameter: JSON path, unit, allowed values and meaning (for `bagsim scenario --doc` and the UI).
pub struct Param {
    pub path: &'static str,
    pub unit: &'static str,
    pub allowed: &'static str,
    pub meaning: &'static str,
}

/// A family's documented keys as a build keeps them: with their meanings natively (`bagsim scenario --doc`), with
/// none on wasm32, where the page and the worker read a key's path and allowed values (in messages) and never its
/// meaning: the text, tens of kilobytes, is evaluated away here and not carried by the page's wasm.
pub const fn documented<const N: usize>(mut params: [Param; N]) -> [Param; N] {
    if cfg!(target_arch = "wasm32") {
        let mut i = 0;
        while i < N {
            params[i].meaning = "";
            i += 1;
        }
    }
    params
}

/// A key of a scenario whose value changes nothing under the scenario's other settings (e.g. a csp's monitoring
/// period under sep-c): its JSON path, whether the scenario sets it away from the family's default, and why. A
/// sweep axis on such a key is refused, and a run that sets it warns, so that no row or summary labels a setting
/// that did not apply. (`set` is found by comparing fields, not through JSON, so that the worker's run carries no
/// JSON value code.)
#[derive(Clone, Debug, PartialEq)]
pub struct Unused {
    pub path: &'static str,
    pub set: bool,
    pub why: String,
}

impl Unused {
    pub fn new(path: &'static str, set: bool, why: impl Into<String>) -> Unused {
        Unused { path, set, why: why.into() }
    }

    /// Whether `path` is this key or lies inside it.
    pub fn covers(&self, path: &str) -> bool {
        path == self.path || path.strip_prefix(self.path).is_some_and(|rest| rest.starts_with('.'))
    }
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
            kind: ErrorKind::NotAllowed,
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

/// Reads a scenario document from JSON. A refusal names the JSON path of the field (`desktop_grid.mix`,
/// `platform.clusters[0].speed`; `scenario` for the document as a whole) and quotes at most a short prefix of a long
/// value.
///
/// In wasm32 (the page, which reads scenarios only from its own links and storage, and edits them control by
/// control) the path is not tracked: tracking instantiates every scenario type's deserializer a second time, 43 KB
/// of gzipped wasm.
#[cfg(target_arch = "wasm32")]
pub fn parse_json<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, ScenarioError> {
    serde_json::from_str(text).map_err(|e| json_error(text, e, true))
}

/// Reads a scenario document from JSON, tracking the path of a refusal (see the wasm32 version).
#[cfg(not(target_arch = "wasm32"))]
pub fn parse_json<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, ScenarioError> {
    parse_tracked(text, true)
}

/// Reads a document the program wrote from the user's (a scenario with keys dropped): refusals name the field, and
/// no line or column, which would point into a text the user never saw.
pub fn parse_rewritten_json<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, ScenarioError> {
    #[cfg(target_arch = "wasm32")]
    return serde_json::from_str(text).map_err(|e| json_error(text, e, false));
    #[cfg(not(target_arch = "wasm32"))]
    parse_tracked(text, false)
}

#[cfg(not(target_arch = "wasm32"))]
fn parse_tracked<T: serde::de::DeserializeOwned>(text: &str, positioned: bool) -> Result<T, ScenarioError> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value: T = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        // A syntax error (a number no f64 holds, a missing comma) may stop serde inside a value it was skipping
        // (a section read later): the text's own path is exact there; a value of the wrong type has the path serde
        // followed.
        let path = e.path().to_string();
        let syntax = e.inner().is_syntax() || e.inner().is_eof();
        let mut error = json_error(text, e.into_inner(), positioned);
        if !syntax && path != "." && !path.is_empty() {
            error.field = path;
        }
        error
    })?;
    de.end().map_err(|e| json_error(text, e, positioned))?;
    Ok(value)
}

/// A serde_json error in `text` as a refusal: its field is the JSON path at the error's position (`scenario` for
/// the document as a whole), its message serde_json's words with the position in the user's terms (`line 3, column
/// 14`) when `positioned`, and none otherwise.
pub fn json_error(text: &str, e: serde_json::Error, positioned: bool) -> ScenarioError {
    let (line, column) = (e.line(), e.column());
    let words = e.to_string();
    let words = words.strip_suffix(&format!(" at line {line} column {column}")).unwrap_or(&words).to_string();
    let path = if line > 0 { super::json_at::path_at(text, line, column) } else { String::new() };
    let field = if path.is_empty() { "scenario".to_string() } else { path };
    let message = if positioned && line > 0 { format!("{words} (line {line}, column {column})") } else { words };
    ScenarioError::new(ErrorKind::NotAllowed, field, shorten_quotes(&message))
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
        assert!(e.message.ends_with("(line 1, column 22)"), "{e}");
        let e = parse_rewritten_json::<Doc>(r#"{"inner": {"x": "text", "list": []}}"#).unwrap_err();
        assert_eq!(e.field, "inner.x", "{e}");
        assert!(!e.message.contains("line"), "{e}");
        let e = parse_json::<Doc>(r#"{"inner": {"x": 1e999, "list": []}}"#).unwrap_err();
        assert_eq!((e.field.as_str(), e.message.as_str()), ("inner.x", "number out of range (line 1, column 21)"));
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
