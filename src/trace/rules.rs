//! A skipped line, the fields of a data line as the format parsers read them, and the rules of the module doc that
//! decide, the same for every format, which lines become jobs.

use super::limits::{MAX_PROCS, MAX_TIME};
use serde::{Deserialize, Serialize};

/// A line that did not become a job: where, which field, and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Skip {
    /// Line number, 1-based.
    pub line: u64,
    /// Field number, 1-based (None: the whole line).
    pub field: Option<u32>,
    /// The field's name in the format's documentation.
    pub field_name: Option<String>,
    /// Why, with the allowed values.
    pub reason: String,
    /// The kind of reason, used to count skips ("not a number", "unknown run time", …).
    pub kind: String,
    /// Where the job is in a file without job lines (Batsim JSON: `jobs[2] (id "3")`); None: at `line`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry: Option<String>,
}

impl std::fmt::Display for Skip {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(entry) = &self.entry {
            return match &self.field_name {
                Some(name) => write!(f, "{entry}, {name}: {}", self.reason),
                None => write!(f, "{entry}: {}", self.reason),
            };
        }
        match (self.field, &self.field_name) {
            (Some(n), Some(name)) => write!(f, "line {}, field {n} ({name}): {}", self.line, self.reason),
            (Some(n), None) => write!(f, "line {}, field {n}: {}", self.line, self.reason),
            _ => write!(f, "line {}: {}", self.line, self.reason),
        }
    }
}

/// The fields of one data line, for the format parsers' messages.
pub(crate) struct Fields<'a> {
    pub(super) tokens: &'a [&'a [u8]],
    pub(super) line: u64,
    pub(super) names: &'static [&'static str],
}

/// What a format parser reads from a line before the shared rules.
pub(crate) struct RawJob {
    pub(super) id: i64,
    pub(super) submit: f64,
    pub(super) wait: f64,
    pub(super) run: f64,
    pub(super) alloc: i64,
    pub(super) req_procs: i64,
    pub(super) req_time: f64,
    pub(super) status: i64,
    pub(super) procs: u32,
    /// Field index (0-based) of GWF's JobStructure.
    pub(super) structure: Option<usize>,
}

/// Longest token shown in a message.
const SHOWN: usize = 40;

impl Fields<'_> {
    pub(super) fn token(&self, field: u32) -> &[u8] {
        self.tokens[field as usize - 1]
    }

    pub(super) fn skip(&self, field: u32, kind: &str, reason: String) -> Skip {
        Skip {
            line: self.line,
            field: Some(field),
            field_name: Some(self.names[field as usize - 1].to_string()),
            reason,
            kind: kind.to_string(),
            entry: None,
        }
    }

    pub(super) fn shown(&self, field: u32) -> String {
        let t = String::from_utf8_lossy(self.token(field));
        if t.chars().count() > SHOWN {
            format!("{}…", t.chars().take(SHOWN).collect::<String>())
        } else {
            t.into_owned()
        }
    }

    /// Field `field` (1-based) as a finite number.
    pub(super) fn number(&self, field: u32) -> Result<f64, Skip> {
        let v = std::str::from_utf8(self.token(field)).ok().and_then(|s| s.parse::<f64>().ok());
        match v {
            // + 0.0: a file's "-0" is 0 (a −0 would print as "-0" in every report of the trace).
            Some(x) if x.is_finite() => Ok(x + 0.0),
            Some(_) => Err(self.skip(field, "not a number", format!("{:?} is not a finite number", self.shown(field)))),
            None => Err(self.skip(field, "not a number", format!("{:?} is not a number", self.shown(field)))),
        }
    }

    /// Field `field` as a whole number (|v| < 2^53).
    pub(super) fn integer(&self, field: u32) -> Result<i64, Skip> {
        let x = self.number(field)?;
        if x.fract() != 0.0 || x.abs() >= 9_007_199_254_740_992.0 {
            return Err(self.skip(
                field,
                "not a whole number",
                format!("{:?} is not a whole number", self.shown(field)),
            ));
        }
        Ok(x as i64)
    }
}

/// The rules of the module doc, in field order, after the format parser read the numbers.
pub(super) fn apply_rules(f: &Fields<'_>, mut raw: RawJob) -> Result<RawJob, Skip> {
    if raw.submit < 0.0 || raw.submit > MAX_TIME {
        return Err(if raw.submit == -1.0 {
            f.skip(2, "unknown submit time", "unknown (-1); a job needs its submit time".into())
        } else {
            f.skip(
                2,
                "out of range",
                format!("{} is out of range; allowed 0–{MAX_TIME:e} s, or -1 = unknown", f.shown(2)),
            )
        });
    }
    if raw.run < 0.0 || raw.run > MAX_TIME {
        return Err(if raw.run == -1.0 {
            f.skip(4, "unknown run time", "unknown (-1); nothing to simulate".into())
        } else {
            f.skip(
                4,
                "out of range",
                format!("{} is out of range; allowed 0–{MAX_TIME:e} s, or -1 = unknown", f.shown(4)),
            )
        });
    }
    let max = i64::from(MAX_PROCS);
    raw.procs = match raw.alloc {
        -1 => match raw.req_procs {
            p if (1..=max).contains(&p) => p as u32,
            -1 => {
                return Err(f.skip(
                    5,
                    "unknown processors",
                    "unknown (-1), and field 8 (requested processors) is unknown too".into(),
                ))
            }
            p => {
                return Err(f.skip(
                    8,
                    "out of range",
                    format!("{p} is out of range; allowed 1–{MAX_PROCS} (field 5 is unknown, so field 8 is used)"),
                ))
            }
        },
        p if (1..=max).contains(&p) => p as u32,
        p => {
            return Err(f.skip(
                5,
                "out of range",
                format!("{p} is out of range; allowed 1–{MAX_PROCS}, or -1 = unknown (then field 8 is used)"),
            ))
        }
    };
    match raw.status {
        -1 | 0 | 1 | 5 => {}
        2..=4 => {
            return Err(f.skip(
                11,
                "partial execution",
                format!(
                    "status {}: a partial execution of a checkpointed or swapped job (not reassembled)",
                    raw.status
                ),
            ))
        }
        s => {
            return Err(f.skip(
                11,
                "out of range",
                format!("{s} is out of range; allowed 1 completed, 0 failed, 5 cancelled, -1 unknown"),
            ))
        }
    }
    if raw.status == 5 && raw.run == 0.0 {
        return Err(f.skip(11, "cancelled before start", "cancelled (5) with run time 0: it never ran".into()));
    }
    Ok(raw)
}
