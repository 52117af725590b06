//! A scenario's `scheme`: one of the three of [Liu10] §IV, written as its name, or a user's own, written
//! `{"script": "…"}` (docs/policies.md).

use super::super::config::Scheme;
use super::script::{self, ChooseSite};
use crate::script::{ScriptError, ScriptSource};
use serde::{Deserialize, Serialize};

/// The metascheduling a scenario asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SchemePolicy {
    Builtin(Scheme),
    /// A user's scheme: a Rhai script (`script.rs`).
    Script(ScriptSource),
}

impl From<Scheme> for SchemePolicy {
    fn from(s: Scheme) -> SchemePolicy {
        SchemePolicy::Builtin(s)
    }
}

impl SchemePolicy {
    /// The built-in scheme, if it is one.
    pub fn builtin(&self) -> Option<Scheme> {
        match self {
            SchemePolicy::Builtin(s) => Some(*s),
            SchemePolicy::Script(_) => None,
        }
    }

    /// The script's source, for a scripted scheme.
    pub fn script(&self) -> Option<&str> {
        match self {
            SchemePolicy::Script(s) => Some(s.as_str()),
            SchemePolicy::Builtin(_) => None,
        }
    }

    /// The scripted scheme's decision procedure (None for a built-in, which `scheme::choose` runs).
    pub fn build(&self) -> Option<Box<dyn ChooseSite>> {
        match self {
            SchemePolicy::Builtin(_) => None,
            SchemePolicy::Script(source) => Some(script::build(source)),
        }
    }

    /// Compiles a scripted scheme; a built-in is always fine.
    pub fn check(&self) -> Result<(), ScriptError> {
        match self {
            SchemePolicy::Builtin(_) => Ok(()),
            SchemePolicy::Script(source) => script::check(source),
        }
    }

    /// The name used in scenario files and sweeps ("script" for a script).
    pub fn name(&self) -> &'static str {
        self.builtin().map_or("script", Scheme::name)
    }

    /// What the scheme does, in words ("Your own scheme (a script)" for a script).
    pub fn label(&self) -> &'static str {
        self.builtin().map_or("Your own scheme (a script)", Scheme::label)
    }
}

/// A built-in is written as its name, a script as `{"script": "…source…"}`.
impl Serialize for SchemePolicy {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            SchemePolicy::Builtin(p) => p.serialize(s),
            SchemePolicy::Script(source) => source.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for SchemePolicy {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(Visitor)
    }
}

struct Visitor;

impl<'de> serde::de::Visitor<'de> for Visitor {
    type Value = SchemePolicy;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a scheme's name (start_time_no_data_aware, finish_time_no_overlap, finish_time_data_aware) or {\"script\": \"…\"}")
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<SchemePolicy, E> {
        match Scheme::ALL.iter().find(|p| p.name() == v) {
            Some(&p) => Ok(SchemePolicy::Builtin(p)),
            None => Err(E::custom(format!(
                "unknown scheme {v:?}; allowed: start_time_no_data_aware, finish_time_no_overlap, \
                 finish_time_data_aware, or your own as {{\"script\": \"…\"}} (docs/policies.md)"
            ))),
        }
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<SchemePolicy, A::Error> {
        ScriptSource::read_map(map).map(SchemePolicy::Script)
    }
}
