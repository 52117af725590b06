//! A scenario's policy key that holds one of a list of built-in policies, written as its name, or a user's own,
//! written `{"script": "…"}` (docs/policies.md): its type, read, written and asked once for every family whose
//! built-ins are such a list (a family names its list through `Builtin` and adds what only its policies do). Knows
//! no family.

use super::source::ScriptSource;
use serde::{Deserialize, Serialize};
use std::marker::PhantomData;

/// A family's list of built-in policies, as a scenario's key names them (serialised as the name).
pub trait Builtin: Copy + Serialize + 'static {
    /// Every built-in, in the order a refusal lists their names.
    const ALL: &'static [Self];
    /// What one of them is called in a refusal ("BoT selection policy", "scheme").
    const WHAT: &'static str;
    /// The name used in scenario files and sweeps.
    fn name(self) -> &'static str;
}

/// A policy a scenario asks for: a built-in or a user's script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuiltinOrScript<B> {
    Builtin(B),
    /// A user's policy: a Rhai script.
    Script(ScriptSource),
}

impl<B: Builtin> From<B> for BuiltinOrScript<B> {
    fn from(p: B) -> BuiltinOrScript<B> {
        BuiltinOrScript::Builtin(p)
    }
}

impl<B: Builtin> BuiltinOrScript<B> {
    /// The built-in, if it is one.
    pub fn builtin(&self) -> Option<B> {
        match self {
            BuiltinOrScript::Builtin(p) => Some(*p),
            BuiltinOrScript::Script(_) => None,
        }
    }

    /// The script's source, for a script.
    pub fn script(&self) -> Option<&str> {
        match self {
            BuiltinOrScript::Script(s) => Some(s.as_str()),
            BuiltinOrScript::Builtin(_) => None,
        }
    }

    /// The name used in scenario files and sweeps ("script" for a script).
    pub fn name(&self) -> &'static str {
        self.builtin().map_or("script", B::name)
    }
}

/// The built-ins' names, as a refusal lists them.
fn names<B: Builtin>() -> String {
    B::ALL.iter().map(|p| p.name()).collect::<Vec<_>>().join(", ")
}

/// A built-in is written as its name, a script as `{"script": "…source…"}`.
impl<B: Builtin> Serialize for BuiltinOrScript<B> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            BuiltinOrScript::Builtin(p) => p.serialize(s),
            BuiltinOrScript::Script(source) => source.serialize(s),
        }
    }
}

impl<'de, B: Builtin> Deserialize<'de> for BuiltinOrScript<B> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(Visitor(PhantomData))
    }
}

struct Visitor<B>(PhantomData<B>);

impl<'de, B: Builtin> serde::de::Visitor<'de> for Visitor<B> {
    type Value = BuiltinOrScript<B>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "a {}'s name ({}) or {{\"script\": \"…\"}}", B::WHAT, names::<B>())
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<BuiltinOrScript<B>, E> {
        match B::ALL.iter().find(|p| p.name() == v) {
            Some(&p) => Ok(BuiltinOrScript::Builtin(p)),
            None => Err(E::custom(format!(
                "unknown {} {v:?}; allowed: {}, or your own as {{\"script\": \"…\"}} (docs/policies.md)",
                B::WHAT,
                names::<B>()
            ))),
        }
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<BuiltinOrScript<B>, A::Error> {
        ScriptSource::read_map(map).map(BuiltinOrScript::Script)
    }
}

#[cfg(test)]
mod tests {
    use super::{Builtin, BuiltinOrScript};
    use serde::Serialize;

    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
    #[serde(rename_all = "snake_case")]
    enum Toy {
        First,
        SecondOne,
    }

    impl Builtin for Toy {
        const ALL: &'static [Toy] = &[Toy::First, Toy::SecondOne];
        const WHAT: &'static str = "toy policy";
        fn name(self) -> &'static str {
            match self {
                Toy::First => "first",
                Toy::SecondOne => "second_one",
            }
        }
    }

    #[test]
    fn a_builtin_is_its_name_and_a_script_its_source() {
        let p: BuiltinOrScript<Toy> = serde_json::from_str("\"second_one\"").unwrap();
        assert_eq!((p.builtin(), p.name(), p.script()), (Some(Toy::SecondOne), "second_one", None));
        assert_eq!(serde_json::to_string(&p).unwrap(), "\"second_one\"");
        let s: BuiltinOrScript<Toy> = serde_json::from_str(r#"{"script": "fn f() {}"}"#).unwrap();
        assert_eq!((s.builtin(), s.name(), s.script()), (None, "script", Some("fn f() {}")));
        assert_eq!(serde_json::to_string(&s).unwrap(), r#"{"script":"fn f() {}"}"#);
        let e = serde_json::from_str::<BuiltinOrScript<Toy>>("\"third\"").unwrap_err().to_string();
        assert!(e.starts_with(
            "unknown toy policy \"third\"; allowed: first, second_one, or your own as {\"script\": \"…\"} \
             (docs/policies.md)"
        ));
        let e = serde_json::from_str::<BuiltinOrScript<Toy>>("5").unwrap_err().to_string();
        assert!(e.contains("expected a toy policy's name (first, second_one) or {\"script\": \"…\"}"), "{e}");
    }
}
