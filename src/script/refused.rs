//! Why the simulator refused what a policy script asked of its view or decided: an index outside what the view
//! holds, or a decision the policy may not take. A family's view raises it; Rhai carries its words to the
//! `ScriptError` that stops the run. Knows no family: the family names what was indexed and what holds it.

use rhai::EvalAltResult;
use std::fmt;

/// A refused call or decision of a script.
#[derive(Debug, Clone, PartialEq)]
pub enum Refused {
    /// `what` number `index` is not one of the `len` the `holder` has (a BoT of the workload, a site of the grid).
    OutOfRange { what: &'static str, index: i64, len: usize, holder: &'static str },
    /// Any other rule the call or the decision breaks, in the rule's own words.
    Rule(String),
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refused::OutOfRange { what, index, len, holder } => {
                write!(f, "{what} {index} is out of range: the {holder} has {what}s 0 to {}", *len as i64 - 1)
            }
            Refused::Rule(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for Refused {}

/// A rule's words.
impl From<String> for Refused {
    fn from(m: String) -> Refused {
        Refused::Rule(m)
    }
}

impl From<&str> for Refused {
    fn from(m: &str) -> Refused {
        Refused::Rule(m.to_string())
    }
}

/// What a script's call returns when refused: Rhai raises it in the script, at the call.
impl From<Refused> for Box<EvalAltResult> {
    fn from(e: Refused) -> Box<EvalAltResult> {
        e.to_string().into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_index_out_of_range_names_what_there_is() {
        let e = Refused::OutOfRange { what: "site", index: 7, len: 5, holder: "grid" };
        assert_eq!(e.to_string(), "site 7 is out of range: the grid has sites 0 to 4");
        let e: Box<EvalAltResult> = Refused::Rule("no".into()).into();
        assert!(e.to_string().contains("no"), "{e}");
    }
}
