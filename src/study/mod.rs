//! A sweep as a study that can be spread over machines: the plan (every point with its full scenario, split into
//! shards), a shard's outcome (run anywhere, e.g. as one task of a Slurm job array), and the merge of every shard
//! into the very files a local `bagsim sweep` writes. A local sweep is a plan of one shard, run and merged here, so
//! the two cannot drift apart.

use crate::readings::{json_value, set_path};
use crate::registry;
use crate::registry::Family;
use crate::scenario::Scenario;
use serde::{Deserialize, Serialize};
use serde_json::Value;

mod error;
pub mod scripts;
pub mod table;
pub mod tournament;

pub use crate::family::contract::{Axis, FigurePlan, Kind, Point, PointError};
pub use error::StudyError;

/// The version of the manifest and shard files; a file of another version is refused. 2: a study's scripts are
/// stored once (`Manifest::scripts`), not in every point.
pub const FORMAT: u32 = 2;

/// A planned study (`bagsim sweep … --plan N` writes it as `STEM.manifest.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// `FORMAT`.
    pub bagsim_study: u32,
    /// The bagsim that planned it; a shard run by another version says so.
    pub bagsim_version: String,
    /// A fingerprint of the axes, points and shard count: a shard's outcome names the study it belongs to.
    pub study: String,
    /// What the points are and what their outcomes are: `sweep` (a `RunRow` each, merged into a sweep's CSV and
    /// JSON) or a figure command's own kind; `spec` is the kind's own.
    #[serde(default)]
    pub kind: Kind,
    #[serde(default)]
    pub spec: Value,
    pub family: Family,
    pub axes: Vec<Axis>,
    /// Point `i` belongs to shard `i % shards`, so the costly end of an axis is spread over every shard.
    pub shards: usize,
    /// Every point's job, with each script it runs as `{"study_script": K}` (`scripts`): `point(k)` gives it whole.
    pub points: Vec<Point>,
    /// Each distinct script source of the points' jobs and of `spec`, once (a 250 KB script of 200 points is 250 KB
    /// here, not 50 MB).
    #[serde(default)]
    pub scripts: Vec<String>,
}

/// What one run of a study gives: its CSV row (after the axis columns) and its report without time series.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunRow {
    pub row: String,
    pub report: Value,
}

/// The outcome of one point (of its kind: a `RunRow` in a sweep), or why it could not run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PointOutcome {
    pub index: usize,
    pub outcome: Result<Value, PointError>,
}

/// What one shard wrote (`STEM.shard-I.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardOutput {
    pub bagsim_study: u32,
    pub bagsim_version: String,
    pub study: String,
    pub shard: usize,
    pub points: Vec<PointOutcome>,
    /// A fingerprint of this file's study, shard and points: a shard edited after it was written is refused.
    #[serde(default)]
    pub content: String,
}

impl ShardOutput {
    /// The fingerprint `content` holds.
    pub fn fingerprint(&self) -> String {
        fingerprint(&serde_json::to_string(&(&self.study, self.shard, &self.points)).expect("plain data"))
    }
}

/// Why a study cannot be merged: every shard that is missing or failed, by index.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MergeProblems {
    pub missing: Vec<usize>,
    /// A shard whose file is there but unusable (another study, another format, a point missing) or a point that
    /// failed.
    pub failed: Vec<(usize, String)>,
}

impl MergeProblems {
    pub fn is_empty(&self) -> bool {
        self.missing.is_empty() && self.failed.is_empty()
    }

    /// Every shard to run again, in order.
    pub fn shards(&self) -> Vec<usize> {
        let mut all: Vec<usize> = self.missing.iter().copied().chain(self.failed.iter().map(|(i, _)| *i)).collect();
        all.sort_unstable();
        all.dedup();
        all
    }
}

impl std::fmt::Display for MergeProblems {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if !self.missing.is_empty() {
            let list: Vec<String> = self.missing.iter().map(|i| i.to_string()).collect();
            writeln!(f, "missing shards: {} (no output file)", list.join(","))?;
        }
        for (i, why) in &self.failed {
            writeln!(f, "failed shard {i}: {why}")?;
        }
        Ok(())
    }
}

/// Parses `--set KEY=V1,V2,…` arguments into axes.
pub fn axes(sets: &[String]) -> Result<Vec<Axis>, StudyError> {
    let mut axes = Vec::new();
    for s in sets {
        let (k, v) =
            s.split_once('=').ok_or_else(|| StudyError::Axis(format!("--set {:?}: expected KEY=V1,V2,…", short(s))))?;
        if s.chars().any(char::is_control) {
            let why = format!("--set {:?}: a key or value holds a control character (a line break?)", short(s));
            return Err(StudyError::Axis(why));
        }
        let values: Vec<String> = v.split(',').map(|x| x.trim().to_string()).filter(|x| !x.is_empty()).collect();
        if values.is_empty() {
            return Err(StudyError::Axis(format!("--set {:?}: no values", short(s))));
        }
        axes.push((k.trim().to_string(), values));
    }
    Ok(axes)
}

/// The cartesian product of the axes over `base`, each point's scenario checked before anything runs; split into
/// `shards` shards (1–100 000, and no more than the points).
pub fn plan(base: &Scenario, axes: Vec<Axis>, shards: usize) -> Result<Manifest, StudyError> {
    plan_with(base, axes, shards, &|_, v| Ok(json_value(v)))
}

/// `plan`, with each axis value's JSON given by `value(path, text)` (the CLI reads a policy's `.rhai` file into
/// `{"script": …}`, docs/policies.md); the rows keep the value's text as their label.
pub fn plan_with(
    base: &Scenario,
    axes: Vec<Axis>,
    shards: usize,
    value: &dyn Fn(&str, &str) -> Result<Value, std::io::Error>,
) -> Result<Manifest, StudyError> {
    // A key may be an axis once, under any of its names: two axes on one path would run every point at the last
    // one's value and label it with the first's.
    let paths: Vec<String> = axes.iter().map(|(k, _)| registry::sweep_path(base.family(), k)).collect();
    // A path must start at a field of this family's scenario: a key of another family is named as such, not
    // reported against another family's list of fields.
    let json = serde_json::to_value(base).expect("a scenario is plain data");
    for ((key, _), path) in axes.iter().zip(&paths) {
        let top = path.split('.').next().unwrap_or("");
        if json.get(top).is_none() && top != "family" {
            let fields: Vec<&str> =
                json.as_object().map(|o| o.keys().map(String::as_str).collect()).unwrap_or_default();
            return Err(StudyError::Axis(format!(
                "--set {}: not a sweep key of a {} scenario nor a path in one (its fields: {})",
                short(key),
                base.family().name(),
                fields.join(", ")
            )));
        }
    }
    for (j, (key, _)) in axes.iter().enumerate() {
        for (i, (earlier, _)) in axes[..j].iter().enumerate() {
            let (a, b) = (&paths[i], &paths[j]);
            let nested = |x: &str, y: &str| x == y || y.starts_with(&format!("{x}."));
            if nested(a, b) || nested(b, a) {
                return Err(StudyError::Axis(format!(
                    "--set {}: {} is already set by the axis --set {} ({}); a key may appear once",
                    short(key),
                    b,
                    short(earlier),
                    a
                )));
            }
        }
    }
    let count = axes.iter().try_fold(1usize, |n, (_, v)| n.checked_mul(v.len()).filter(|&n| n <= MAX_POINTS));
    if count.is_none() {
        return Err(StudyError::Size(format!(
            "--set: the product of the axes has {} points; at most {MAX_POINTS} are allowed",
            axes.iter().map(|(_, v)| v.len().to_string()).collect::<Vec<_>>().join(" × ")
        )));
    }
    // Each value's JSON once per axis (a FILE.rhai is read once), and a value given twice is refused: its points
    // would be one run under one label, twice.
    let mut jsons: Vec<Vec<Value>> = Vec::with_capacity(axes.len());
    for ((key, values), path) in axes.iter().zip(&paths) {
        let mut axis: Vec<Value> = Vec::with_capacity(values.len());
        for (i, v) in values.iter().enumerate() {
            let json = value(path, v).map_err(|e| StudyError::Value {
                key: key.clone(),
                value: v.clone(),
                why: e.to_string(),
            })?;
            if let Some(j) = axis.iter().position(|w| *w == json).or_else(|| values[..i].iter().position(|w| w == v)) {
                let same = if values[j] == *v {
                    format!("{v} is given twice")
                } else {
                    format!("{} and {v} are one value", values[j])
                };
                return Err(StudyError::Axis(format!(
                    "--set {}: {same}; each value of an axis runs once (a repeated value would run the same points \
                     twice under one label)",
                    short(key)
                )));
            }
            axis.push(json);
        }
        jsons.push(axis);
    }
    let mut points: Vec<(Vec<String>, Scenario)> = vec![(Vec::new(), base.clone())];
    for (((key, values), path), axis) in axes.iter().zip(&paths).zip(&jsons) {
        let mut next = Vec::with_capacity(points.len() * values.len());
        for (labels, s) in &points {
            for (v, j) in values.iter().zip(axis) {
                let mut json = serde_json::to_value(s).expect("a scenario is plain data");
                set_path(&mut json, path, j.clone()).map_err(|e| StudyError::Axis(e.to_string()))?;
                let scenario = Scenario::from_json(&json.to_string()).map_err(|error| StudyError::Point {
                    key: key.clone(),
                    value: v.clone(),
                    error,
                })?;
                let mut l = labels.clone();
                l.push(v.clone());
                next.push((l, scenario));
            }
        }
        points = next;
    }
    // An axis on a key that no point reads would label rows that are one run under different names.
    for ((key, _), path) in axes.iter().zip(&paths) {
        let why = |s: &Scenario| registry::unused(s).into_iter().find(|u| u.covers(path)).map(|u| u.why);
        if let Some(why) = points.iter().map(|(_, s)| why(s)).collect::<Option<Vec<String>>>() {
            return Err(StudyError::Axis(format!(
                "--set {}: {path} has no effect at any point of this sweep ({}); its rows would be one run under \
                 different labels",
                short(key),
                why.first().map_or("", String::as_str)
            )));
        }
    }
    let points: Vec<Point> = points
        .into_iter()
        .map(|(labels, s)| Point { labels, job: serde_json::to_value(&s).expect("a scenario is plain data") })
        .collect();
    Manifest::new(Kind::Sweep, Value::Null, base.family(), axes, points, shards)
}

/// The most points a study may have (a sweep's product of axes, a figure's runs): each holds a whole scenario.
pub const MAX_POINTS: usize = 50_000;

/// A text as a message quotes it: at most 60 characters.
pub fn short(s: &str) -> String {
    if s.chars().count() <= 60 {
        s.to_string()
    } else {
        format!("{}… ({} characters)", s.chars().take(60).collect::<String>(), s.chars().count())
    }
}

/// FNV-1a, 64 bits, as 16 hex digits: the same on every machine and in every build.
fn fingerprint(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

impl Manifest {
    /// A study of `kind` over `points` in `shards` shards (1–100 000, and no more than the points).
    pub fn new(
        kind: Kind,
        spec: Value,
        family: Family,
        axes: Vec<Axis>,
        points: Vec<Point>,
        shards: usize,
    ) -> Result<Manifest, StudyError> {
        if shards == 0 || shards > 100_000 {
            return Err(StudyError::Size(format!("--plan {shards} is out of range; allowed 1–100000 shards")));
        }
        if points.len() > MAX_POINTS {
            let n = points.len();
            return Err(StudyError::Size(format!("the study has {n} points; at most {MAX_POINTS} are allowed")));
        }
        if shards > points.len() {
            let n = points.len();
            return Err(StudyError::Size(format!(
                "--plan {shards}: the study has only {n} points; allowed 1–{n} shards"
            )));
        }
        let (mut spec, mut points, mut stored, mut seen) = (spec, points, Vec::new(), Default::default());
        scripts::store(&mut spec, &mut stored, &mut seen);
        for p in &mut points {
            scripts::store(&mut p.job, &mut stored, &mut seen);
        }
        let mut m = Manifest {
            bagsim_study: FORMAT,
            bagsim_version: env!("CARGO_PKG_VERSION").to_string(),
            study: String::new(),
            kind,
            spec,
            family,
            axes,
            shards,
            points,
            scripts: stored,
        };
        m.study = m.fingerprint();
        Ok(m)
    }

    /// The fingerprint of everything the study is: its version, kind, spec, family, axes, points, scripts and shard
    /// count.
    pub fn fingerprint(&self) -> String {
        let Manifest { bagsim_study: _, bagsim_version, study: _, kind, spec, family, axes, shards, points, scripts } =
            self;
        let all = (bagsim_version, kind, spec, family, axes, points, shards, scripts);
        fingerprint(&serde_json::to_string(&all).expect("plain data"))
    }

    /// Point `k` as it was planned: its job with every script the study stores once put back in it.
    pub fn point(&self, k: usize) -> Result<Point, StudyError> {
        let p = &self.points[k];
        Ok(Point { labels: p.labels.clone(), job: scripts::resolve(&p.job, &self.scripts)? })
    }

    /// The study's spec as it was planned (with its scripts put back).
    pub fn whole_spec(&self) -> Result<Value, StudyError> {
        scripts::resolve(&self.spec, &self.scripts)
    }

    /// Reads a manifest, refusing one written by another bagsim version (naming both) or of another format.
    pub fn from_json(text: &str) -> Result<Manifest, StudyError> {
        scripts::check_header(text, "the manifest", "plan the study again with this bagsim")?;
        let m: Manifest =
            serde_json::from_str(text).map_err(|e| StudyError::File(format!("not a study manifest: {e}")))?;
        if m.study != m.fingerprint() {
            return Err(StudyError::File(format!(
                "the manifest's content does not match its fingerprint (study {}): it was edited after it was \
                 planned; plan the study again instead of editing it",
                crate::study::short(&m.study)
            )));
        }
        if m.shards == 0 || m.shards > 100_000 || m.shards > m.points.len() {
            let (n, most) = (m.shards, m.points.len().min(100_000));
            return Err(StudyError::File(format!("shards: {n} is out of range; allowed 1–{most}")));
        }
        if m.points.len() > MAX_POINTS {
            let n = m.points.len();
            return Err(StudyError::File(format!("points: {n} points; at most {MAX_POINTS} are allowed")));
        }
        if m.points.iter().any(|p| p.labels.len() != m.axes.len()) && m.kind == Kind::Sweep {
            return Err(StudyError::File("points: a point's labels do not match the axes".into()));
        }
        scripts::check(&m.spec, m.scripts.len())?;
        m.points.iter().try_for_each(|p| scripts::check(&p.job, m.scripts.len()))?;
        Ok(m)
    }

    /// The indices of the points of shard `i`.
    pub fn shard_points(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        (i..self.points.len()).step_by(self.shards)
    }

    /// Checks a shard index (`--shard` or `SLURM_ARRAY_TASK_ID`).
    pub fn check_shard(&self, i: usize) -> Result<(), StudyError> {
        if i >= self.shards {
            let last = self.shards - 1;
            return Err(StudyError::Size(format!("--shard {i} is out of range; this study has shards 0–{last}")));
        }
        Ok(())
    }

    /// Runs shard `i`: `run_points` gives the outcomes of the points of these indices, in their order (the kind's
    /// runner on `parallel::map` natively; `run_point` for a sweep).
    pub fn run_shard(
        &self,
        i: usize,
        run_points: impl FnOnce(&[usize]) -> Vec<Result<Value, PointError>>,
    ) -> Result<ShardOutput, StudyError> {
        self.check_shard(i)?;
        let indices: Vec<usize> = self.shard_points(i).collect();
        let rows = run_points(&indices);
        let mut out = ShardOutput {
            bagsim_study: FORMAT,
            bagsim_version: env!("CARGO_PKG_VERSION").to_string(),
            study: self.study.clone(),
            shard: i,
            points: indices.into_iter().zip(rows).map(|(index, outcome)| PointOutcome { index, outcome }).collect(),
            content: String::new(),
        };
        out.content = out.fingerprint();
        Ok(out)
    }

    /// Merges the shards' outputs (`outputs[i]` is shard `i`'s: `Ok(None)` when it has none, `Err` when its file
    /// could not be read) into the CSV and JSON a local sweep writes; every missing or failed shard is named instead
    /// of merging part of the study.
    pub fn merge(
        &self,
        outputs: &[Result<Option<ShardOutput>, StudyError>],
    ) -> Result<(String, String), MergeProblems> {
        let values = self.outcomes(outputs)?;
        let mut rows = Vec::with_capacity(values.len());
        for (k, v) in values.into_iter().enumerate() {
            let row: RunRow = serde_json::from_value(v.clone()).map_err(|e| MergeProblems {
                missing: Vec::new(),
                failed: vec![(k % self.shards, format!("point {k} is not a sweep's run: {e}"))],
            })?;
            rows.push(row);
        }
        Ok(self.assemble(&rows.iter().collect::<Vec<_>>()))
    }

    /// Every point's outcome in the points' order, from the shards' outputs (as `merge` takes them), or every
    /// missing or failed shard.
    pub fn outcomes<'a>(
        &self,
        outputs: &'a [Result<Option<ShardOutput>, StudyError>],
    ) -> Result<Vec<&'a Value>, MergeProblems> {
        let mut problems = MergeProblems::default();
        let mut rows: Vec<Option<&Value>> = vec![None; self.points.len()];
        for i in 0..self.shards {
            let out = match outputs.get(i) {
                None | Some(Ok(None)) => {
                    problems.missing.push(i);
                    continue;
                }
                Some(Err(why)) => {
                    problems.failed.push((i, why.to_string()));
                    continue;
                }
                Some(Ok(Some(out))) => out,
            };
            if let Some(why) = self.foreign(i, out) {
                problems.failed.push((i, why));
                continue;
            }
            for p in &out.points {
                match &p.outcome {
                    Ok(r) => rows[p.index] = Some(r),
                    Err(e) => problems.failed.push((i, format!("point {} ({}): {e}", p.index, self.label(p.index)))),
                }
            }
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        Ok(rows.into_iter().map(|r| r.expect("every shard held all its points")).collect())
    }

    /// Why a shard's output does not fit this study, if it does not.
    fn foreign(&self, i: usize, out: &ShardOutput) -> Option<String> {
        if out.bagsim_study != FORMAT {
            return Some(format!("its file is of study format {}, not {FORMAT}", out.bagsim_study));
        }
        if out.bagsim_version != self.bagsim_version {
            return Some(format!(
                "its file was written by bagsim {}; the study was planned by bagsim {}",
                short(&out.bagsim_version),
                self.bagsim_version
            ));
        }
        if out.study != self.study || out.shard != i {
            return Some(format!(
                "its file belongs to study {} shard {}, not {} shard {i}",
                out.study, out.shard, self.study
            ));
        }
        if out.content != out.fingerprint() {
            return Some("its content does not match its fingerprint: it was edited after it was written".into());
        }
        let expected: Vec<usize> = self.shard_points(i).collect();
        let got: Vec<usize> = out.points.iter().map(|p| p.index).collect();
        (expected != got).then(|| format!("its file holds points {got:?}, not {expected:?}"))
    }

    fn label(&self, k: usize) -> String {
        self.axes
            .iter()
            .zip(&self.points[k].labels)
            .map(|((key, _), v)| format!("{key}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The CSV (axis columns, then the family's) and JSON (`axes`, `runs`: each point with its report) of a sweep.
    pub fn assemble(&self, rows: &[&RunRow]) -> (String, String) {
        let mut csv: String = self.axes.iter().map(|(k, _)| format!("{},", crate::stats::csv_field(k))).collect();
        csv.push_str(&registry::sweep_header(self.family));
        csv.push('\n');
        let mut runs = Vec::with_capacity(rows.len());
        for (p, r) in self.points.iter().zip(rows) {
            for l in &p.labels {
                csv.push_str(&crate::stats::csv_field(l));
                csv.push(',');
            }
            csv.push_str(&r.row);
            csv.push('\n');
            runs.push(serde_json::json!({ "point": p.labels, "report": r.report }));
        }
        let json = serde_json::to_string_pretty(&serde_json::json!({ "axes": self.axes, "runs": runs })).expect("json");
        (csv, json)
    }
}

/// Runs one point of a sweep to its row (natively; the page runs its sweeps in its workers).
#[cfg(not(target_arch = "wasm32"))]
pub fn run_point(p: &Point) -> Result<Value, PointError> {
    run_point_with_jobs(p, None)
}

/// Runs one point of a sweep to its row, streaming its per-task records in Batsim's jobs.csv columns to `jobs`
/// when given (`bagsim sweep --jobs-csv`, docs/jobs.md): the bytes `bagsim run --jobs` writes for the point's
/// scenario.
#[cfg(not(target_arch = "wasm32"))]
pub fn run_point_with_jobs(p: &Point, jobs: Option<Box<dyn std::io::Write>>) -> Result<Value, PointError> {
    use crate::family::contract::FamilyRun;
    let s = Scenario::from_json(&p.job.to_string())?;
    let r = match jobs {
        None => registry::run_any(&s)?,
        Some(out) => {
            let mut run = registry::AnyRun::build(&s, None)?;
            run.stream_jobs(out);
            let start = std::time::Instant::now();
            let report = crate::family::contract::run_to_report(&mut run, &move || start.elapsed().as_secs_f64());
            if let Some(e) = run.failure() {
                return Err(PointError::Run(e));
            }
            let ended = run.end_jobs().expect("the stream was started");
            ended.map_err(|e| PointError::File(format!("its jobs.csv could not be written: {e}")))?;
            run.full_report(report)
        }
    };
    Ok(serde_json::to_value(RunRow { row: r.sweep_row(), report: r.slim_json() }).expect("plain data"))
}

/// The jobs.csv of point `k` of a sweep whose `--jobs-csv` is `stem`: `STEM.point-K.jobs.csv`, K the point's index
/// in the plan (the K-th data line of the sweep's CSV, `runs[K]` of its JSON), whichever shard runs it.
pub fn point_jobs_path(stem: &std::path::Path, k: usize) -> std::path::PathBuf {
    let mut s = stem.as_os_str().to_owned();
    s.push(format!(".point-{k}.jobs.csv"));
    s.into()
}

/// Where the files of the study whose manifest is `manifest` go: `STEM.manifest.json` → `STEM`.
pub fn stem_of(manifest: &std::path::Path) -> std::path::PathBuf {
    let s = manifest.to_string_lossy();
    let stem = s.strip_suffix(".manifest.json").or_else(|| s.strip_suffix(".json")).unwrap_or(&s);
    std::path::PathBuf::from(stem)
}

/// Shard `i`'s output file next to `stem`.
pub fn shard_path(stem: &std::path::Path, i: usize) -> std::path::PathBuf {
    let mut s = stem.as_os_str().to_owned();
    s.push(format!(".shard-{i}.json"));
    s.into()
}

#[cfg(test)]
mod tests;
