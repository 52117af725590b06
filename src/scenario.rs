//! A scenario: the seed and one family's section (`registry::Scenario`, generated from the list of families), as one
//! serde document with a default for every field, checked on load. Each family owns its section type
//! (`multi_cluster::config::McScenario`, `desktop_grid::DgScenario`, `data_grid::DdScenario`), with its keys,
//! defaults, checks and `--doc` entries; this module re-exports them under their old names.

pub use crate::family::contract::{Param, ScenarioError};
pub use crate::registry::tagged;
pub use crate::registry::{
    ArchitectureConfig, Family, McScenario, PredictorConfig, Scenario, TraceConfig, WorkloadConfig, DAY, MAX_PERIOD,
};

/// The parameters of a family's scenarios (`bagsim scenario --doc --family`): `seed` and `family`, then the family's
/// own keys.
pub fn params(family: Family) -> Vec<&'static Param> {
    family.params()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaf_paths(v: &serde_json::Value, prefix: &str, out: &mut Vec<String>) {
        match v {
            serde_json::Value::Object(m) if prefix != "platform.clusters" && prefix != "workload.model" => {
                for (k, v) in m {
                    let p = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
                    leaf_paths(v, &p, out);
                }
            }
            _ => out.push(prefix.to_string()),
        }
    }

    #[test]
    fn every_default_field_is_documented() {
        let v = serde_json::to_value(Scenario::default()).unwrap();
        let mut paths = Vec::new();
        leaf_paths(&v, "", &mut paths);
        for p in &paths {
            assert!(params(Family::MultiCluster).iter().any(|d| d.path == p), "undocumented parameter {p}");
        }
        assert!(paths.len() >= 15);
        // The desktop-grid family's section and the family key.
        let v = serde_json::to_value(Scenario::default_for(crate::registry::Family::DesktopGrid)).unwrap();
        let mut dg = Vec::new();
        leaf_paths(&v, "", &mut dg);
        assert!(dg.iter().any(|p| p == "family") && dg.iter().any(|p| p.starts_with("desktop_grid.")), "{dg:?}");
        let documented = params(crate::registry::Family::DesktopGrid);
        for p in &dg {
            assert!(documented.iter().any(|d| d.path == p), "undocumented parameter {p}");
        }
        // A desktop-grid scenario is its seed and its own section: none of the multi-cluster keys.
        assert!(dg.iter().all(|p| p == "seed" || p == "family" || p.starts_with("desktop_grid.")), "{dg:?}");
        assert!(documented.iter().all(|d| !d.path.starts_with("workload")), "multi-cluster keys in the list");
    }

    /// A number or null where a name is expected names the field and its allowed names (the bad-input issue's
    /// "expected value at line 1 column N").
    #[test]
    fn a_value_of_the_wrong_kind_names_the_allowed_names() {
        for (json, field, name) in [
            (r#"{"family": 1}"#, "family", "data_grid"),
            (r#"{"family": "desktop_grid", "desktop_grid": {"mix": 5}}"#, "desktop_grid.mix", "all_vs"),
            (
                r#"{"family": "desktop_grid", "desktop_grid": {"availability": null}}"#,
                "desktop_grid.availability",
                "high",
            ),
            (r#"{"family": "data_grid", "data_grid": {"scheme": 7}}"#, "data_grid.scheme", "finish_time_data_aware"),
        ] {
            let e = Scenario::from_json(json).unwrap_err();
            assert_eq!(e.field, field, "{json}: {e}");
            assert!(e.message.contains(name), "{json}: {e}");
        }
    }

    #[test]
    fn default_round_trips_and_validates() {
        let s = Scenario::default();
        let text = serde_json::to_string_pretty(&s).unwrap();
        assert_eq!(Scenario::from_json(&text).unwrap(), s);
    }

    #[test]
    fn bad_values_name_the_field() {
        let e = Scenario::from_json(r#"{"workload": {"load": 1.5}}"#).unwrap_err();
        assert_eq!(e.field, "workload.load");
        assert!(e.message.contains("0.05–0.99"), "{e}");
        let e = Scenario::from_json(r#"{"scheduling": "XYZ"}"#).unwrap_err();
        assert!(e.message.contains("allowed"), "{e}");
        let e = Scenario::from_json(r#"{"workload": {"lod": 0.5}}"#).unwrap_err();
        assert!(e.message.contains("lod"), "{e}");
        let e = Scenario::from_json(r#"{"platform": {"clusters": [{"name": "x", "processors": 0, "speed": 1}]}}"#)
            .unwrap_err();
        assert!(e.message.contains("processors"), "{e}");
    }

    #[test]
    fn each_refusal_says_its_kind() {
        use crate::family::contract::ErrorKind::*;
        for (json, kind) in [
            (r#"{"workload": {"load": 1.5}}"#, OutOfRange),
            (r#"{"family": "desktop_grid", "desktop_grid": {"load": 9}}"#, OutOfRange),
            (r#"{"family": "data_grid", "data_grid": {"sites": []}}"#, OutOfRange),
            (r#"{"scheduling": "XYZ"}"#, NotAllowed),
            (r#"{"workload": []}"#, NotAllowed),
            (r#"{"workload": {"lod": 0.5}}"#, NotAllowed),
            (r#"{"desktop_grid": {}}"#, Inconsistent),
            (r#"{"family": "data_grid", "data_grid": {"site_policies": ["easy"]}}"#, Inconsistent),
        ] {
            let e = Scenario::from_json(json).unwrap_err();
            assert_eq!(e.kind, kind, "{json}: {e}");
        }
        let huge = Scenario::from_json(r#"{"workload": {"load": 0.95, "submission_period": 3e8}}"#);
        let budget = huge.map(|s| crate::registry::estimate(&s, None).check());
        assert!(matches!(budget, Ok(Err(ref e)) if e.kind == OverBudget), "{budget:?}");
    }
}
