//! How a scenario file writes a distribution: `{"family": "weibull", "shape": 1.5, "scale": 400}`, the family's
//! name and its parameters, nothing else. Read by one small map visitor rather than serde's internally tagged
//! enum, which buffers the object and then reads it again once per family: the same answers and messages (the
//! test holds them to the derived form's), for much less code in each wasm module that reads scenarios (the
//! page's 10.6 KB gzip smaller).

use super::dist::Dist;
use serde::Deserialize;

/// A distribution as written: its family's name and its fields in the order written, each a number, or None for
/// a name no family has (its value is skipped; the family decides what to say of it).
pub(super) struct DistForm {
    family: Option<String>,
    fields: Vec<(String, Option<f64>)>,
}

/// The parameters of any family.
const PARAMETERS: [&str; 11] = ["value", "low", "high", "mean", "p", "mean1", "mean2", "mu", "sigma", "shape", "scale"];

impl<'de> Deserialize<'de> for DistForm {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<DistForm, D::Error> {
        struct Form;
        impl<'de> serde::de::Visitor<'de> for Form {
            type Value = DistForm;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a distribution: its `family` and the family's parameters")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<DistForm, A::Error> {
                let mut form = DistForm { family: None, fields: Vec::new() };
                while let Some(key) = map.next_key::<String>()? {
                    if key == "family" {
                        form.family = Some(map.next_value()?);
                    } else if PARAMETERS.contains(&key.as_str()) {
                        form.fields.push((key, Some(map.next_value()?)));
                    } else {
                        map.next_value::<serde::de::IgnoredAny>()?;
                        form.fields.push((key, None));
                    }
                }
                Ok(form)
            }
        }
        d.deserialize_map(Form)
    }
}

/// What serde says a name must be: `` `a` ``, `` `a` or `b` ``, or `` one of `a`, `b`, `c` ``.
fn one_of(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match quoted.as_slice() {
        [one] => one.clone(),
        [a, b] => format!("{a} or {b}"),
        _ => format!("one of {}", quoted.join(", ")),
    }
}

/// The families' names, as scenario files write them.
const FAMILIES: [&str; 8] =
    ["constant", "uniform", "exponential", "hyper_exponential", "normal", "log_normal", "gamma", "weibull"];

/// Why a written distribution is not one, in serde's words for the derived form.
#[derive(Clone, Debug, PartialEq)]
pub enum DistFormError {
    /// No `family`, or no value for one of its family's parameters.
    Missing(String),
    /// A family of that name does not exist.
    UnknownFamily(String),
    /// A field its family does not have: the field and the family's fields.
    UnknownField { name: String, wanted: &'static [&'static str] },
}

impl std::fmt::Display for DistFormError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DistFormError::Missing(name) => write!(f, "missing field `{name}`"),
            DistFormError::UnknownFamily(other) => {
                write!(f, "unknown variant `{other}`, expected {}", one_of(&FAMILIES))
            }
            DistFormError::UnknownField { name, wanted } => {
                write!(f, "unknown field `{name}`, expected {}", one_of(wanted))
            }
        }
    }
}

impl TryFrom<DistForm> for Dist {
    type Error = DistFormError;

    fn try_from(f: DistForm) -> Result<Dist, DistFormError> {
        let family = f.family.ok_or_else(|| DistFormError::Missing("family".into()))?;
        let wanted: &[&str] = match family.as_str() {
            "constant" => &["value"],
            "uniform" => &["low", "high"],
            "exponential" => &["mean"],
            "hyper_exponential" => &["p", "mean1", "mean2"],
            "normal" | "log_normal" => &["mu", "sigma"],
            "gamma" | "weibull" => &["shape", "scale"],
            other => return Err(DistFormError::UnknownFamily(other.to_string())),
        };
        if let Some((extra, _)) = f.fields.iter().find(|(n, _)| !wanted.contains(&n.as_str())) {
            return Err(DistFormError::UnknownField { name: extra.clone(), wanted });
        }
        let get = |name: &str| -> Result<f64, DistFormError> {
            f.fields
                .iter()
                .find(|(n, _)| n == name)
                .and_then(|(_, v)| *v)
                .ok_or_else(|| DistFormError::Missing(name.to_string()))
        };
        Ok(match family.as_str() {
            "constant" => Dist::Constant { value: get("value")? },
            "uniform" => Dist::Uniform { low: get("low")?, high: get("high")? },
            "exponential" => Dist::Exponential { mean: get("mean")? },
            "hyper_exponential" => Dist::HyperExponential { p: get("p")?, mean1: get("mean1")?, mean2: get("mean2")? },
            "normal" => Dist::Normal { mu: get("mu")?, sigma: get("sigma")? },
            "log_normal" => Dist::LogNormal { mu: get("mu")?, sigma: get("sigma")? },
            "gamma" => Dist::Gamma { shape: get("shape")?, scale: get("scale")? },
            _ => Dist::Weibull { shape: get("shape")?, scale: get("scale")? },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The form serde derives for the enum, as `Dist` was read before: the reference for answers and messages.
    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(tag = "family", rename_all = "snake_case", deny_unknown_fields)]
    enum Derived {
        Constant { value: f64 },
        Uniform { low: f64, high: f64 },
        Exponential { mean: f64 },
        HyperExponential { p: f64, mean1: f64, mean2: f64 },
        Normal { mu: f64, sigma: f64 },
        LogNormal { mu: f64, sigma: f64 },
        Gamma { shape: f64, scale: f64 },
        Weibull { shape: f64, scale: f64 },
    }

    impl From<Derived> for Dist {
        fn from(d: Derived) -> Dist {
            match d {
                Derived::Constant { value } => Dist::Constant { value },
                Derived::Uniform { low, high } => Dist::Uniform { low, high },
                Derived::Exponential { mean } => Dist::Exponential { mean },
                Derived::HyperExponential { p, mean1, mean2 } => Dist::HyperExponential { p, mean1, mean2 },
                Derived::Normal { mu, sigma } => Dist::Normal { mu, sigma },
                Derived::LogNormal { mu, sigma } => Dist::LogNormal { mu, sigma },
                Derived::Gamma { shape, scale } => Dist::Gamma { shape, scale },
                Derived::Weibull { shape, scale } => Dist::Weibull { shape, scale },
            }
        }
    }

    /// The message without serde_json's position (`at line 1 column 30`), which differs by where each form stops.
    fn message(e: serde_json::Error) -> String {
        let s = e.to_string();
        s.split(" at line ").next().unwrap_or(&s).to_string()
    }

    #[test]
    fn reads_every_family_and_refuses_as_the_derived_form_did() {
        let cases = [
            r#"{"family": "constant", "value": 3}"#,
            r#"{"family": "uniform", "low": 1, "high": 2.5}"#,
            r#"{"family": "exponential", "mean": 7}"#,
            r#"{"family": "hyper_exponential", "p": 0.3, "mean1": 1, "mean2": 9}"#,
            r#"{"family": "normal", "mu": 1, "sigma": 2}"#,
            r#"{"mu": 1, "family": "log_normal", "sigma": 2}"#,
            r#"{"family": "gamma", "shape": 1.5, "scale": 2}"#,
            r#"{"family": "weibull", "shape": 0.7, "scale": 400}"#,
            // Refused: an unknown family, a missing parameter, another family's parameter, no family.
            r#"{"family": "pareto", "alpha": 2}"#,
            r#"{"family": "uniform", "low": 1}"#,
            r#"{"family": "hyper_exponential", "p": 0.3, "mean1": 1}"#,
            r#"{"family": "exponential", "mean": 7, "sigma": 1}"#,
            r#"{"family": "normal", "mu": 1, "sigma": 2, "scale": 3}"#,
            r#"{"family": "gamma", "shape": 1, "scale": 2, "value": 3}"#,
            r#"{"mean": 7}"#,
            r#"{"family": "exponential", "men": 7}"#,
            r#"{"shape": 1, "family": "weibull", "scale": 2, "alpha": [1, 2]}"#,
        ];
        for text in cases {
            let ours = serde_json::from_str::<Dist>(text).map_err(message);
            let derived = serde_json::from_str::<Derived>(text).map(Dist::from).map_err(message);
            assert_eq!(ours, derived, "{text}");
        }
        // Every family written and read back gives the same distribution.
        for text in &cases[..8] {
            let d: Dist = serde_json::from_str(text).unwrap();
            assert_eq!(serde_json::from_str::<Dist>(&serde_json::to_string(&d).unwrap()).unwrap(), d);
        }
    }

    #[test]
    fn what_is_not_a_distribution_object_is_refused() {
        for text in [r#"{"family": "exponential", "mean": "7"}"#, r#"{"family": 3, "mean": 7}"#, "7"] {
            assert!(serde_json::from_str::<Dist>(text).is_err(), "{text} was read");
            assert!(serde_json::from_str::<Derived>(text).is_err(), "{text} was read by the derived form");
        }
        // The one difference: serde's derived form also read an array, family first (`["exponential", 7]`), which
        // no scenario file of the docs writes; a distribution is an object.
        let array = r#"["exponential", 7]"#;
        assert!(serde_json::from_str::<Derived>(array).is_ok());
        let e = serde_json::from_str::<Dist>(array).map_err(message).unwrap_err();
        assert!(e.starts_with("invalid type: sequence, expected a distribution"), "{e}");
    }
}
