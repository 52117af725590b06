//! What a study stores once: the scripts its points run, and the header every manifest and shard file opens with.
//!
//! A scripted policy is written `{"script": "…source…"}` in a scenario (docs/policies.md). A study of 200 points
//! of a 250 KB script would hold the source 200 times (53 MB; 13 GB at the 50 000-point cap), so a manifest holds
//! each distinct source once, in `scripts`, and a point's job refers to it as `{"study_script": K}`; a point's job
//! is made whole again just before it runs.

use super::StudyError;
use serde::Deserialize;
use serde_json::Value;

/// The key a point's job refers to a study's script by.
const KEY: &str = "study_script";

/// Replaces every `{"script": "…"}` of `v` by `{"study_script": K}`, where `scripts[K]` is its source (added when
/// it is new; `seen` maps a source to its index).
pub fn store(v: &mut Value, scripts: &mut Vec<String>, seen: &mut std::collections::HashMap<String, usize>) {
    match v {
        Value::Object(o) if o.len() == 1 && o.get("script").is_some_and(Value::is_string) => {
            let Some(Value::String(source)) = o.remove("script") else { unreachable!("checked above") };
            let k = *seen.entry(source).or_insert_with_key(|s| {
                scripts.push(s.clone());
                scripts.len() - 1
            });
            o.insert(KEY.into(), Value::from(k));
        }
        Value::Object(o) => o.values_mut().for_each(|x| store(x, scripts, seen)),
        Value::Array(a) => a.iter_mut().for_each(|x| store(x, scripts, seen)),
        _ => {}
    }
}

/// The index of a reference `{"study_script": K}`, if `v` is one.
fn reference(v: &Value) -> Option<Option<usize>> {
    match v {
        Value::Object(o) if o.len() == 1 => o.get(KEY).map(|k| k.as_u64().map(|k| k as usize)),
        _ => None,
    }
}

fn bad_reference(k: Option<usize>, count: usize) -> StudyError {
    let k = k.map_or("(not an index)".to_string(), |k| k.to_string());
    StudyError::File(format!("a point refers to script {k} of the study; it holds {count} script(s)"))
}

/// Checks that every reference of `v` names one of `count` scripts.
pub fn check(v: &Value, count: usize) -> Result<(), StudyError> {
    match (reference(v), v) {
        (Some(Some(k)), _) if k < count => Ok(()),
        (Some(k), _) => Err(bad_reference(k, count)),
        (None, Value::Object(o)) => o.values().try_for_each(|x| check(x, count)),
        (None, Value::Array(a)) => a.iter().try_for_each(|x| check(x, count)),
        _ => Ok(()),
    }
}

/// `v` with every reference replaced by `{"script": "…source…"}`: the job as it was planned.
pub fn resolve(v: &Value, scripts: &[String]) -> Result<Value, StudyError> {
    match (reference(v), v) {
        (Some(Some(k)), _) if k < scripts.len() => Ok(serde_json::json!({ "script": scripts[k] })),
        (Some(k), _) => Err(bad_reference(k, scripts.len())),
        (None, Value::Object(o)) => o
            .iter()
            .map(|(k, x)| Ok((k.clone(), resolve(x, scripts)?)))
            .collect::<Result<_, StudyError>>()
            .map(Value::Object),
        (None, Value::Array(a)) => a.iter().map(|x| resolve(x, scripts)).collect::<Result<_, _>>().map(Value::Array),
        _ => Ok(v.clone()),
    }
}

/// The fields every manifest and shard file opens with, read before the rest: a file of another bagsim or another
/// study format is refused as such, whatever else in it this bagsim would not read.
#[derive(Deserialize)]
struct Header {
    bagsim_study: Option<u32>,
    bagsim_version: Option<String>,
}

/// A version as a message quotes it: as written when it is plain, else quoted (a line break is not printed raw).
fn version(v: &str) -> String {
    if !v.is_empty() && v.chars().all(|c| c.is_ascii_alphanumeric() || ".-+_".contains(c)) {
        super::short(v)
    } else {
        format!("{:?}", super::short(v))
    }
}

/// Refuses a manifest or shard file (`what`: "the manifest", "shard 3 (PATH)") written by another bagsim version,
/// naming both, or of another study format; `again` says what to do instead.
pub fn check_header(text: &str, what: &str, again: &str) -> Result<(), StudyError> {
    let h: Header =
        serde_json::from_str(text).map_err(|e| StudyError::File(format!("{what} is not a study file: {e}")))?;
    let ours = env!("CARGO_PKG_VERSION");
    match h.bagsim_version.as_deref() {
        Some(v) if v != ours => {
            return Err(StudyError::File(format!(
                "{what} was written by bagsim {}; this is bagsim {ours}, which runs and merges only the studies it \
                 planned itself: {again}",
                version(v)
            )))
        }
        Some(_) => {}
        None => return Err(StudyError::File(format!("{what} is not a study file (it has no bagsim_version)"))),
    }
    match h.bagsim_study {
        Some(super::FORMAT) => Ok(()),
        Some(n) => Err(StudyError::File(format!(
            "{what} is of study format {n}; this bagsim reads format {} (format 1 held a study's script once per \
             point): {again}",
            super::FORMAT
        ))),
        None => Err(StudyError::File(format!("{what} is not a study file (it has no bagsim_study)"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_script_is_stored_once_and_resolves_to_the_same_job() {
        let job = serde_json::json!({"scheduling": {"script": "fn a() {}"}, "x": [{"script": "fn a() {}"}, 3],
            "selection": {"script": "fn b() {}"}, "other": {"script": 1}});
        let (mut scripts, mut seen) = (Vec::new(), Default::default());
        let mut stored = job.clone();
        store(&mut stored, &mut scripts, &mut seen);
        assert_eq!(scripts, vec!["fn a() {}".to_string(), "fn b() {}".to_string()]);
        assert_eq!(stored["x"][0], serde_json::json!({"study_script": 0}));
        assert_eq!(resolve(&stored, &scripts).unwrap(), job);
        assert!(check(&stored, 1).unwrap_err().to_string().contains("script 1"), "{:?}", check(&stored, 1));
    }
}
