//! Scripted decisions (docs/policies.md): a user's Rhai script compiled once and called at each decision, under an
//! operation budget per call and per run and limits on strings, arrays, maps, call depth and expression depth. A
//! family registers its own view and decision types on the engine (`Script::compile`'s `setup`) and turns a
//! `ScriptError` into its scenario error; this module knows no family.
//!
//! Determinism: the engine's function hashes use a fixed seed, a script cannot read the clock or import files
//! (Cargo.toml's features), and the transcendental functions a script can call are `libm`'s, so a script gives the
//! same bits natively and in wasm32 like the rest of the simulator. The float power operator `**` is not available
//! (Rhai evaluates it with the platform's `powf`); `pow(x, y)` is.

mod builtin_or_script;
#[cfg(feature = "scripts")]
mod engine;
#[cfg(feature = "scripts")]
mod meter;
#[cfg(feature = "scripts")]
mod refused;
mod source;
pub use builtin_or_script::{Builtin, BuiltinOrScript};
#[cfg(feature = "scripts")]
pub use engine::{line_column, shown, Script};
#[cfg(feature = "scripts")]
pub use refused::Refused;
pub use source::{ScriptSource, NO_ENGINE};

/// The sandbox's limits, the same for every script (docs/policies.md, "Limits").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Operations one call may take (a decision, an observation).
    pub ops_per_call: u64,
    /// Operations all the calls of one run may take together.
    pub ops_per_run: u64,
    /// Longest string, bytes.
    pub string_bytes: usize,
    /// Most elements of an array.
    pub array_len: usize,
    /// Most properties of an object map.
    pub map_len: usize,
    /// Deepest nesting of function calls (recursion).
    pub call_levels: usize,
    /// Deepest nesting of an expression, at the top level and inside a function.
    pub expr_depth: usize,
    /// Longest source, bytes.
    pub source_bytes: usize,
}

/// The limits every script runs under.
pub const LIMITS: Limits = Limits {
    ops_per_call: 100_000,
    ops_per_run: 10_000_000_000,
    string_bytes: 65_536,
    array_len: 2_000,
    map_len: 1_000,
    call_levels: 32,
    expr_depth: 64,
    source_bytes: 262_144,
};

/// Why a script was refused or stopped: where in the script, what, and when in the run.
#[derive(Clone, Debug, PartialEq)]
pub struct ScriptError {
    /// Line in the script, from 1 (0: the script as a whole).
    pub line: u32,
    /// Column in the line, from 1 (0: the line as a whole).
    pub column: u32,
    pub message: String,
    /// Simulated time of the decision that failed, s (None: before the run).
    pub sim_time: Option<f64>,
}

impl ScriptError {
    pub fn new(line: u32, column: u32, message: impl Into<String>) -> ScriptError {
        ScriptError { line, column, message: message.into(), sim_time: None }
    }
}

impl std::fmt::Display for ScriptError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.line, self.column) {
            (0, _) => {}
            (l, 0) => write!(f, "line {l}: ")?,
            (l, c) => write!(f, "line {l}, column {c}: ")?,
        }
        f.write_str(&self.message)?;
        if let Some(t) = self.sim_time {
            write!(f, " (at simulated time {t} s)")?;
        }
        Ok(())
    }
}

impl std::error::Error for ScriptError {}

/// A scenario's text with every `{"script_file": "path"}` replaced by `{"script": "…the file's text…"}`, read by
/// `read` (the CLI reads the path relative to the current directory), so that the scenario a run, a study manifest
/// or a Slurm job carries holds the source itself. A text that names no script file comes back as it is, byte for
/// byte. A file `read` cannot give fails the whole with `read`'s own error.
pub fn inline_files<E>(text: &str, read: &mut dyn FnMut(&str) -> Result<String, E>) -> Result<String, E> {
    if !text.contains("script_file") {
        return Ok(text.to_string());
    }
    let Ok(mut doc) = serde_json::from_str::<serde_json::Value>(text) else {
        // Not JSON: the scenario parser says where.
        return Ok(text.to_string());
    };
    inline(&mut doc, read)?;
    Ok(doc.to_string())
}

fn inline<E>(v: &mut serde_json::Value, read: &mut dyn FnMut(&str) -> Result<String, E>) -> Result<(), E> {
    use serde_json::Value;
    match v {
        Value::Object(m) => {
            if let (1, Some(Value::String(path))) = (m.len(), m.get("script_file")) {
                let source = read(path)?;
                m.clear();
                m.insert("script".into(), Value::String(source));
                return Ok(());
            }
            m.values_mut().try_for_each(|v| inline(v, read))
        }
        Value::Array(a) => a.iter_mut().try_for_each(|v| inline(v, read)),
        _ => Ok(()),
    }
}
