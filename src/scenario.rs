//! A scenario: the seed and one family's section, as one serde document with a default for every field, checked
//! on load. Each family owns its section type (`multi_cluster::config::McScenario`,
//! `desktop_grid::DgScenario`), with its keys, defaults, checks and `--doc` entries; this module only says how a
//! file names its family and which section it carries.

use crate::family::contract::ErrorKind;
use crate::family::data_grid::{DataGridConfig, DataGridScenario};
use crate::family::desktop_grid::{DesktopGridConfig, DgScenario};
use crate::family::multi_cluster::platform::PlatformSpec;
use crate::family::Family;
use serde::{Deserialize, Serialize};

pub use crate::family::contract::{Param, ScenarioError};
pub use crate::family::multi_cluster::config::{
    ArchitectureConfig, McScenario, PredictorConfig, TraceConfig, WorkloadConfig, DAY, MAX_PERIOD,
};
use crate::family::multi_cluster::policy::options::PolicyOptions;
use crate::family::multi_cluster::policy::scheduling::SchedulingPolicy;
use crate::family::multi_cluster::policy::selection::SelectionPolicy;

/// A complete, reproducible simulation setup: its family and that family's section. A multi-cluster scenario is
/// written as every file before families existed: the seed and the multi-cluster keys at the top level, no
/// `family` key. A desktop-grid one is `seed`, `family` and its `desktop_grid` section. Reading accepts both, and
/// the older desktop-grid files that carry the multi-cluster keys too (they are read and not used).
///
/// The seed is written with the multi-cluster keys at the top level and seeds every family (`seed()`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scenario {
    /// The scenario family; absent = multi_cluster.
    pub family: Family,
    /// The seed and the multi-cluster keys (used by the multi-cluster family; the other families use the seed).
    pub multi_cluster: McScenario,
    /// The desktop-grid section (family desktop_grid; null = its defaults).
    pub desktop_grid: Option<DesktopGridConfig>,
    /// The data-grid section (family data_grid; null = its defaults).
    pub data_grid: Option<DataGridConfig>,
}

impl From<McScenario> for Scenario {
    fn from(multi_cluster: McScenario) -> Scenario {
        Scenario { family: Family::MultiCluster, multi_cluster, desktop_grid: None, data_grid: None }
    }
}

/// How a scenario file is read: every key any family's file may carry at its top level.
#[derive(Deserialize)]
#[serde(default, deny_unknown_fields)]
struct ScenarioFile {
    seed: u64,
    platform: PlatformSpec,
    workload: WorkloadConfig,
    architecture: ArchitectureConfig,
    selection: SelectionPolicy,
    scheduling: SchedulingPolicy,
    policy_options: PolicyOptions,
    predictor: PredictorConfig,
    inaccuracy: f64,
    scheduling_period: f64,
    horizon: Option<f64>,
    sample_interval: Option<f64>,
    family: Family,
    desktop_grid: Option<DesktopGridConfig>,
    data_grid: Option<DataGridConfig>,
}

impl Default for ScenarioFile {
    fn default() -> Self {
        let m = McScenario::default();
        ScenarioFile {
            seed: m.seed,
            platform: m.platform,
            workload: m.workload,
            architecture: m.architecture,
            selection: m.selection,
            scheduling: m.scheduling,
            policy_options: m.policy_options,
            predictor: m.predictor,
            inaccuracy: m.inaccuracy,
            scheduling_period: m.scheduling_period,
            horizon: m.horizon,
            sample_interval: m.sample_interval,
            family: Family::MultiCluster,
            desktop_grid: None,
            data_grid: None,
        }
    }
}

impl<'de> Deserialize<'de> for Scenario {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let f = ScenarioFile::deserialize(deserializer)?;
        if f.family != Family::MultiCluster {
            if let Some(key) = unused_multi_cluster_key(&f) {
                return Err(serde::de::Error::custom(format!(
                    "{key}: a multi-cluster key, which a {} scenario does not use; remove it (or set family to \
                     multi_cluster)",
                    f.family.name()
                )));
            }
        }
        Ok(Scenario {
            family: f.family,
            multi_cluster: McScenario {
                seed: f.seed,
                platform: f.platform,
                workload: f.workload,
                architecture: f.architecture,
                selection: f.selection,
                scheduling: f.scheduling,
                policy_options: f.policy_options,
                predictor: f.predictor,
                inaccuracy: f.inaccuracy,
                scheduling_period: f.scheduling_period,
                horizon: f.horizon,
                sample_interval: f.sample_interval,
            },
            desktop_grid: f.desktop_grid,
            data_grid: f.data_grid,
        })
    }
}

/// The first multi-cluster key a file of another family sets to something other than its default: such a key would
/// change nothing, so it is refused rather than ignored. Files that carry every multi-cluster key at its default (as
/// desktop-grid files once did) still read.
fn unused_multi_cluster_key(f: &ScenarioFile) -> Option<&'static str> {
    let d = McScenario::default();
    // Files written before the monitoring service's default became periodic carry its earlier default, 0.
    let earlier = ArchitectureConfig { monitoring_period: 0.0, ..d.architecture.clone() };
    [
        (f.platform != d.platform, "platform"),
        (f.workload != d.workload, "workload"),
        (f.architecture != d.architecture && f.architecture != earlier, "architecture"),
        (f.selection != d.selection, "selection"),
        (f.scheduling != d.scheduling, "scheduling"),
        (f.policy_options != d.policy_options, "policy_options"),
        (f.predictor != d.predictor, "predictor"),
        (f.inaccuracy != d.inaccuracy, "inaccuracy"),
        (f.scheduling_period != d.scheduling_period, "scheduling_period"),
        (f.horizon != d.horizon, "horizon"),
        (f.sample_interval != d.sample_interval, "sample_interval"),
    ]
    .into_iter()
    .find(|(differs, _)| *differs)
    .map(|(_, key)| key)
}

impl Serialize for Scenario {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.family {
            Family::MultiCluster => self.multi_cluster.serialize(serializer),
            Family::DesktopGrid => self.desktop_grid_scenario().serialize(serializer),
            Family::DataGrid => self.data_grid_scenario().serialize(serializer),
        }
    }
}

fn err(field: &str, message: impl Into<String>) -> ScenarioError {
    ScenarioError::new(ErrorKind::Inconsistent, field, message)
}

/// A value of the wrong kind where a name was expected (`"mix": 5`, `"family": null`) reads in serde_json as
/// "expected value"; the refusal says instead which names the field allows, from the documented parameters.
fn with_allowed(e: ScenarioError) -> ScenarioError {
    if !e.message.starts_with("expected value") {
        return e;
    }
    let families = [Family::MultiCluster, Family::DesktopGrid, Family::DataGrid];
    match families.into_iter().flat_map(params).find(|p| p.path == e.field) {
        Some(p) => ScenarioError {
            kind: ErrorKind::NotAllowed,
            message: format!("not one of the allowed values ({}); {}", p.allowed, e.message),
            ..e
        },
        None => e,
    }
}

/// The keys every scenario has, whatever its family.
pub const COMMON: &[Param] = &[
    Param {
        path: "seed",
        unit: "",
        allowed: "0 – 2^64−1",
        meaning: "seed of every random stream; same seed, same workload under every policy",
    },
    Param {
        path: "family",
        unit: "",
        allowed: "multi_cluster | desktop_grid | data_grid",
        meaning: "scenario family: the multi-cluster grid of [Iosup08] (default), the desktop grid of [Anglano09] or \
                  the data grid of [Liu10]",
    },
];

/// The parameters of a family's scenarios (`bagsim scenario --doc --family`): `seed` and `family`, then the family's
/// own keys.
pub fn params(family: Family) -> Vec<&'static Param> {
    let own = match family {
        Family::MultiCluster => crate::family::multi_cluster::config::PARAMS,
        Family::DesktopGrid => crate::family::desktop_grid::config::PARAMS,
        Family::DataGrid => crate::family::data_grid::config::PARAMS,
    };
    COMMON.iter().chain(own).collect()
}

impl Scenario {
    /// The default scenario of a family (`bagsim scenario --family`).
    pub fn default_for(family: Family) -> Scenario {
        match family {
            Family::MultiCluster => Scenario::default(),
            Family::DesktopGrid => {
                Scenario { family, desktop_grid: Some(DesktopGridConfig::default()), ..Scenario::default() }
            }
            Family::DataGrid => Scenario { family, data_grid: Some(DataGridConfig::default()), ..Scenario::default() },
        }
    }

    /// The data-grid scenario: the seed and the `data_grid` section (its defaults when absent).
    pub fn data_grid_scenario(&self) -> DataGridScenario {
        DataGridScenario::new(self.seed(), self.data_grid.clone().unwrap_or_default())
    }

    /// The seed of every random stream, whatever the family (a file writes it at its top level).
    pub fn seed(&self) -> u64 {
        self.multi_cluster.seed
    }

    /// Sets the seed of every family's section.
    pub fn set_seed(&mut self, seed: u64) {
        self.multi_cluster.seed = seed;
    }

    /// The desktop-grid scenario: the seed and the `desktop_grid` section (its defaults when absent).
    pub fn desktop_grid_scenario(&self) -> DgScenario {
        DgScenario::new(self.seed(), self.desktop_grid.clone().unwrap_or_default())
    }

    /// The multi-cluster section, for what only that family has (workload generation and views); an error names
    /// the scenario's family otherwise.
    pub fn as_multi_cluster(&self) -> Result<&McScenario, ScenarioError> {
        match self.family {
            Family::MultiCluster => Ok(&self.multi_cluster),
            f => Err(err(
                "family",
                format!("{} has no multi-cluster workload; this needs family multi_cluster", f.name()),
            )),
        }
    }

    /// Parses JSON; the error names the field and what is allowed.
    pub fn from_json(text: &str) -> Result<Scenario, ScenarioError> {
        let s: Scenario = crate::family::contract::parse_json(text).map_err(with_allowed)?;
        // serde reads a struct from an array of its fields in order; the documented form is an object, and an array
        // (`"workload": []`, a cluster as `["a", 4, 1.0]`) is refused where an object is read.
        if let (Ok(input), Ok(read)) = (serde_json::from_str(text), serde_json::to_value(&s)) {
            crate::family::contract::objects_as_objects(&input, &read, "")?;
        }
        s.validate()?;
        Ok(s)
    }

    /// Checks every value the scenario's family runs on.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        if let Some(d) = &self.desktop_grid {
            if self.family != Family::DesktopGrid {
                return Err(err(
                    "desktop_grid",
                    format!(
                        "given, but the scenario's family is {}; add \"family\": \"desktop_grid\" or remove it",
                        self.family.name()
                    ),
                ));
            }
            d.validate()?;
        }
        if let Some(d) = &self.data_grid {
            if self.family != Family::DataGrid {
                return Err(err(
                    "data_grid",
                    format!(
                        "given, but the scenario's family is {}; add \"family\": \"data_grid\" or remove it",
                        self.family.name()
                    ),
                ));
            }
            d.validate()?;
        }
        match self.family {
            Family::MultiCluster => self.multi_cluster.validate(),
            // The multi-cluster keys are not used by the other families (and not written for them).
            Family::DesktopGrid | Family::DataGrid => Ok(()),
        }
    }
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
        let v = serde_json::to_value(Scenario::default_for(crate::family::Family::DesktopGrid)).unwrap();
        let mut dg = Vec::new();
        leaf_paths(&v, "", &mut dg);
        assert!(dg.iter().any(|p| p == "family") && dg.iter().any(|p| p.starts_with("desktop_grid.")), "{dg:?}");
        let documented = params(crate::family::Family::DesktopGrid);
        for p in &dg {
            assert!(documented.iter().any(|d| d.path == p), "undocumented parameter {p}");
        }
        // A desktop-grid scenario is its seed and its own section: none of the multi-cluster keys.
        assert!(dg.iter().all(|p| p == "seed" || p == "family" || p.starts_with("desktop_grid.")), "{dg:?}");
        assert!(documented.iter().all(|d| !d.path.starts_with("workload")), "multi-cluster keys in the list");
    }

    /// The documented lists of policies name every policy of the enums (the menus and the parser use the enums).
    #[test]
    fn documented_policies_are_the_enums() {
        use crate::family::multi_cluster::policy::scheduling::SchedulingPolicy;
        use crate::family::multi_cluster::policy::selection::SelectionPolicy;
        let allowed = |path: &str| {
            crate::family::multi_cluster::config::PARAMS.iter().find(|p| p.path == path).expect("documented").allowed
        };
        let listed = |text: &str| text.split(", ").map(str::to_string).collect::<Vec<_>>();
        let scheduling: Vec<String> =
            SchedulingPolicy::MENU.iter().map(|p| if p.kind() == "WQR" { "WQR-n" } else { p.name() }.into()).collect();
        assert_eq!(listed(allowed("scheduling")), scheduling);
        let selection: Vec<String> = SelectionPolicy::ALL.iter().map(|p| p.name().to_string()).collect();
        assert_eq!(listed(allowed("selection")), selection);
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
