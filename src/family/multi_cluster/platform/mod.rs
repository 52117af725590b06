//! Clusters of identical processors with relative speeds, and the documented platform presets (docs/model.md,
//! "Platform").

pub use crate::resources::{capacity, Cluster};
use crate::workload::streams::StreamTarget;
use serde::{Deserialize, Serialize};

/// The platform presets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlatformPreset {
    /// DAS-2 + Grid'5000: 20 clusters, 3 674 processors, speeds 1.0–1.75 ([Iosup08] §4.1).
    Das2G5k,
    /// 20 equal clusters of 184 processors at speed 1.41: the totals of `Das2G5k` within 0.2%, a platform the same
    /// sentence allows and under which the equal and capacity load splits coincide (docs/model.md, "Readings").
    Uniform20,
}

impl PlatformPreset {
    /// Every preset, in the order the page's menu lists them.
    pub const ALL: [PlatformPreset; 2] = [PlatformPreset::Das2G5k, PlatformPreset::Uniform20];

    /// Its name in a scenario file (`"preset": "das2_g5k"`).
    pub fn name(self) -> &'static str {
        match self {
            PlatformPreset::Das2G5k => "das2_g5k",
            PlatformPreset::Uniform20 => "uniform20",
        }
    }

    /// The preset of this name.
    pub fn from_name(name: &str) -> Option<PlatformPreset> {
        PlatformPreset::ALL.into_iter().find(|p| p.name() == name)
    }

    /// How the page's menu names it.
    pub fn label(self) -> &'static str {
        match self {
            PlatformPreset::Das2G5k => "DAS-2 + Grid'5000 (20 clusters)",
            PlatformPreset::Uniform20 => "20 equal clusters (184 processors, speed 1.41)",
        }
    }
}

/// Where the platform comes from in a scenario: a preset or an explicit list of clusters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlatformSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<PlatformPreset>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clusters: Option<Vec<Cluster>>,
}

impl Default for PlatformSpec {
    fn default() -> Self {
        PlatformSpec { preset: Some(PlatformPreset::Das2G5k), clusters: None }
    }
}

/// Largest platform accepted: keeps per-cluster scans in the schedulers cheap and memory bounded.
pub const MAX_CLUSTERS: usize = 4096;
pub const MAX_PROCESSORS: u64 = 10_000_000;

/// Why a platform is refused: which part of it, and why.
#[derive(Clone, Debug, PartialEq)]
pub enum PlatformError {
    PresetAndClusters,
    NoClusters,
    Empty,
    TooManyClusters(usize),
    /// Cluster `i` (named) has no processor.
    NoProcessors {
        i: usize,
        name: String,
    },
    /// Cluster `i` (named) has a speed outside (0, 1000].
    Speed {
        i: usize,
        name: String,
        speed: f64,
    },
    TooManyProcessors(u64),
}

impl std::fmt::Display for PlatformError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlatformError::PresetAndClusters => {
                f.write_str("platform: give either \"preset\" or \"clusters\", not both")
            }
            PlatformError::NoClusters => f.write_str("platform: give \"preset\": \"das2_g5k\" or a \"clusters\" list"),
            PlatformError::Empty => f.write_str("platform.clusters: the list is empty; at least one cluster is needed"),
            PlatformError::TooManyClusters(n) => {
                write!(f, "platform.clusters: {n} clusters; at most {MAX_CLUSTERS} allowed")
            }
            PlatformError::NoProcessors { i, name } => {
                write!(f, "platform.clusters[{i}].processors = 0 ({name}): must be ≥ 1")
            }
            PlatformError::Speed { i, name, speed } => {
                write!(f, "platform.clusters[{i}].speed = {speed} ({name}): must be in (0, 1000]")
            }
            PlatformError::TooManyProcessors(total) => {
                write!(f, "platform: {total} processors in all; at most {MAX_PROCESSORS} allowed")
            }
        }
    }
}

impl std::error::Error for PlatformError {}

/// The scenario's check and the page's form edits still carry a refusal as text.
impl From<PlatformError> for String {
    fn from(e: PlatformError) -> String {
        e.to_string()
    }
}

impl PlatformSpec {
    /// The clusters, checked. Errors name the cluster and the field.
    pub fn clusters(&self) -> Result<Vec<Cluster>, PlatformError> {
        let clusters = match (&self.preset, &self.clusters) {
            (Some(_), Some(_)) => return Err(PlatformError::PresetAndClusters),
            (Some(PlatformPreset::Das2G5k), None) => das2_g5k(),
            (Some(PlatformPreset::Uniform20), None) => uniform20(),
            (None, Some(c)) => c.clone(),
            (None, None) => return Err(PlatformError::NoClusters),
        };
        if clusters.is_empty() {
            return Err(PlatformError::Empty);
        }
        if clusters.len() > MAX_CLUSTERS {
            return Err(PlatformError::TooManyClusters(clusters.len()));
        }
        let mut total = 0u64;
        for (i, c) in clusters.iter().enumerate() {
            if c.processors == 0 {
                return Err(PlatformError::NoProcessors { i, name: c.name.clone() });
            }
            if !(c.speed.is_finite() && c.speed > 0.0 && c.speed <= 1000.0) {
                return Err(PlatformError::Speed { i, name: c.name.clone(), speed: c.speed });
            }
            total += u64::from(c.processors);
        }
        if total > MAX_PROCESSORS {
            return Err(PlatformError::TooManyProcessors(total));
        }
        Ok(clusters)
    }
}

/// The clusters as the workload layer's stream targets, in order: each one's name and capacity
/// f64::from(processors) * speed (the terms of [`capacity`]).
pub fn stream_targets(clusters: &[Cluster]) -> Vec<StreamTarget<'_>> {
    clusters.iter().map(|c| StreamTarget { name: &c.name, capacity: f64::from(c.processors) * c.speed }).collect()
}

/// Twenty equal clusters, 184 processors each at speed 1.41: 3 680 processors and Σ speeds 5 188.8, against
/// 3 674 and 5 181.8 for `das2_g5k`.
pub fn uniform20() -> Vec<Cluster> {
    (1..=20).map(|i| Cluster { name: format!("u{i}"), processors: 184, speed: 1.41 }).collect()
}

/// The DAS-2 + Grid'5000 preset. The papers give only "20 clusters, over 3 500 processors, relative speeds 1.0 to
/// 1.75" ([Iosup08] §4.1). DAS-2 is its real layout: five clusters of dual 1 GHz Pentium-III nodes (VU 72 nodes, four
/// others 32), all at the reference speed 1.0. The fifteen Grid'5000 clusters carry the names of real 2007–08 sites
/// with processor counts and speeds chosen to be plausible for them; they are not a record of those machines.
pub fn das2_g5k() -> Vec<Cluster> {
    let list: [(&str, u32, f64); 20] = [
        ("das2-vu", 144, 1.0),
        ("das2-leiden", 64, 1.0),
        ("das2-uva", 64, 1.0),
        ("das2-delft", 64, 1.0),
        ("das2-utrecht", 64, 1.0),
        ("g5k-orsay-gdx", 624, 1.30),
        ("g5k-orsay-netgdx", 60, 1.30),
        ("g5k-rennes-paravent", 198, 1.25),
        ("g5k-rennes-paraquad", 528, 1.75),
        ("g5k-rennes-paramount", 132, 1.55),
        ("g5k-sophia-azur", 144, 1.25),
        ("g5k-sophia-helios", 112, 1.40),
        ("g5k-sophia-sol", 400, 1.60),
        ("g5k-lyon-sagittaire", 140, 1.35),
        ("g5k-lyon-capricorne", 112, 1.20),
        ("g5k-nancy-grelon", 480, 1.60),
        ("g5k-nancy-grillon", 94, 1.35),
        ("g5k-lille-chti", 40, 1.45),
        ("g5k-bordeaux-bordemer", 96, 1.20),
        ("g5k-toulouse-violette", 114, 1.30),
    ];
    list.iter().map(|&(name, processors, speed)| Cluster { name: name.to_string(), processors, speed }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page's menu lists every preset under the name a scenario file uses.
    #[test]
    fn every_preset_has_its_file_name() {
        for p in PlatformPreset::ALL {
            assert_eq!(serde_json::to_value(p).unwrap(), serde_json::json!(p.name()));
            assert_eq!(PlatformPreset::from_name(p.name()), Some(p));
        }
        assert_eq!(PlatformPreset::from_name("custom"), None);
    }

    #[test]
    fn preset_matches_the_paper_description() {
        let c = das2_g5k();
        assert_eq!(c.len(), 20);
        let total: u32 = c.iter().map(|c| c.processors).sum();
        assert!(total > 3500, "{total}");
        assert_eq!(c[..5].iter().map(|c| c.processors).sum::<u32>(), 400);
        assert!(c.iter().all(|c| (1.0..=1.75).contains(&c.speed)));
        assert_eq!(c.iter().map(|c| c.speed).fold(0.0, f64::max), 1.75);
    }

    #[test]
    fn bad_clusters_are_named() {
        let spec = PlatformSpec {
            preset: None,
            clusters: Some(vec![
                Cluster { name: "a".into(), processors: 4, speed: 1.0 },
                Cluster { name: "b".into(), processors: 0, speed: 1.0 },
            ]),
        };
        let e = spec.clusters().unwrap_err().to_string();
        assert!(e.contains("clusters[1].processors"), "{e}");
    }
}
