//! A scripted decision's source as a scenario holds it, `{"script": "…"}`, read and written the same way by every
//! family's policy key (docs/policies.md).

use serde::de::{Error, MapAccess};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// A scripted policy's source, as a scenario holds it (compared and hashed by its text).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ScriptSource(pub Arc<str>);

impl ScriptSource {
    pub fn new(source: &str) -> ScriptSource {
        ScriptSource(source.into())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Reads `{"script": "…"}` from a map (a policy key's visitor hands its map here): the source, or why not
    /// (another key, no script, a `script_file` the CLI did not inline, a source over the size limit).
    pub fn read_map<'de, A: MapAccess<'de>>(mut map: A) -> Result<ScriptSource, A::Error> {
        let mut source: Option<String> = None;
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "script" if source.is_none() => source = Some(map.next_value()?),
                "script" => return Err(A::Error::duplicate_field("script")),
                "script_file" => {
                    return Err(A::Error::custom(
                        "script_file is read by the bagsim CLI, which puts the file's text in the scenario as \
                         \"script\"; give the source as \"script\" here",
                    ))
                }
                other => return Err(A::Error::unknown_field(other, &["script", "script_file"])),
            }
        }
        let source = source.ok_or_else(|| A::Error::missing_field("script"))?;
        if source.len() > super::LIMITS.source_bytes {
            return Err(A::Error::custom(format!(
                "the script has {} bytes; at most {} are allowed",
                source.len(),
                super::LIMITS.source_bytes
            )));
        }
        Ok(ScriptSource::new(&source))
    }
}

/// Written as `{"script": "…source…"}`.
impl Serialize for ScriptSource {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(1))?;
        m.serialize_entry("script", &*self.0)?;
        m.end()
    }
}

impl<'de> Deserialize<'de> for ScriptSource {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = ScriptSource;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("{\"script\": \"…\"}")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<ScriptSource, A::Error> {
                ScriptSource::read_map(map)
            }
        }
        d.deserialize_map(V)
    }
}

/// What a build without the engine says: the page's own wasm leaves scripts to its worker.
pub const NO_ENGINE: &str =
    "this build of bagsim has no script engine (the \"scripts\" feature): the worker and the CLI run scripts";
