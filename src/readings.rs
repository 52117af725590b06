//! Readings: the decisions a paper leaves open, each a scenario key with named values (the default first), and
//! the combinations of readings a study runs a figure's findings under. Knows no family: a family lists its
//! readings as [`Reading`]s, and a combination is applied to any serialisable scenario by its JSON paths.

use crate::error::PointError;
pub use error::{PathError, PathFault, ReadingsError};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

mod error;

/// One open decision: the scenario key that holds it and its named values, the default first.
#[derive(Clone, Copy, Debug)]
pub struct Reading {
    /// JSON path of the key in the family's scenario section, e.g. `workload.load_split`.
    pub key: &'static str,
    /// (name, JSON value) of each reading, the default first.
    pub values: &'static [(&'static str, &'static str)],
    /// The sentence of the paper it rests on, in short.
    pub rests_on: &'static str,
}

impl Reading {
    /// The last part of the key (`load_split`), which the command line accepts too.
    pub fn short(&self) -> &'static str {
        self.key.rsplit('.').next().unwrap_or(self.key)
    }

    pub fn names(&self) -> Vec<&'static str> {
        self.values.iter().map(|v| v.0).collect()
    }
}

/// One axis of a study: a key and the values to try, each with its name.
#[derive(Clone, Debug, PartialEq)]
pub struct Axis {
    pub key: String,
    pub values: Vec<(String, Value)>,
}

/// Runs a batch of jobs (in parallel natively, in the worker pool on the page): one result per job, in order.
pub type Batch<'a, J, R> = &'a dyn Fn(&[J]) -> Vec<Result<R, PointError>>;

/// Runs `study` with a batch that records the jobs it asks for and runs none (each is answered "planned, not run",
/// so a study with a fixed number of seeds asks once): the jobs, to run elsewhere (a study in shards) and give back
/// with `replay`, and what the study returned.
pub fn record<J: Clone, R, T>(study: impl FnOnce(Batch<'_, J, R>) -> T) -> (Vec<J>, T) {
    let recorded = std::cell::RefCell::new(Vec::new());
    let batch = |jobs: &[J]| {
        recorded.borrow_mut().extend(jobs.iter().cloned());
        jobs.iter().map(|_| Err(PointError::Job("planned, not run".to_string()))).collect()
    };
    let out = study(&batch);
    (recorded.into_inner(), out)
}

/// A batch that answers with `results`, in the order `record` saw the jobs; a batch of another length (not the
/// study that was recorded) has every job refused.
pub fn replay<J, R: Clone>(results: Vec<Result<R, PointError>>) -> impl Fn(&[J]) -> Vec<Result<R, PointError>> {
    move |jobs: &[J]| {
        if jobs.len() == results.len() {
            results.clone()
        } else {
            let why = format!("the study asked for {} runs; {} were planned", jobs.len(), results.len());
            jobs.iter().map(|_| Err(PointError::Job(why.clone()))).collect()
        }
    }
}

/// One combination: a value for every axis, as (key, name, JSON value).
pub type Combination = Vec<(String, String, Value)>;

/// Parses `KEY=a,b[,…]`. KEY is a listed reading's key or its last part, whose values are named; any other
/// scenario key takes JSON-like values (numbers, null, strings) as `--set` does. `all` stands for every named value.
pub fn parse_axis(spec: &str, known: &[Reading]) -> Result<Axis, ReadingsError> {
    let (k, v) =
        spec.split_once('=').ok_or_else(|| ReadingsError::Axis(format!("--readings {spec:?}: expected KEY=A,B,…")))?;
    let (k, v) = (k.trim(), v.trim());
    let names: Vec<&str> = v.split(',').map(str::trim).filter(|x| !x.is_empty()).collect();
    if names.is_empty() {
        return Err(ReadingsError::Axis(format!("--readings {spec:?}: no values")));
    }
    let Some(reading) = known.iter().find(|r| r.key == k || r.short() == k) else {
        return Ok(Axis { key: k.to_string(), values: names.iter().map(|n| (n.to_string(), json_value(n))).collect() });
    };
    let mut values = Vec::new();
    for name in names {
        if name == "all" {
            for (n, j) in reading.values {
                values.push((n.to_string(), serde_json::from_str(j).expect("listed JSON")));
            }
            continue;
        }
        let (n, j) = reading.values.iter().find(|(n, _)| *n == name).ok_or_else(|| {
            let allowed = reading.names().join(", ");
            ReadingsError::Axis(format!("--readings {}: unknown value {name:?}; allowed: {allowed}, all", reading.key))
        })?;
        values.push((n.to_string(), serde_json::from_str(j).expect("listed JSON")));
    }
    Ok(Axis { key: reading.key.to_string(), values })
}

/// Parses every `--readings` spec of a figure command: a key that is not a listed reading is first read as the
/// family's sweep key (`path_of`: `mix` is `desktop_grid.mix`, as in `--set`). Refused: a value given twice on an
/// axis (`load=0.5,0.5`, or `all` and a value of it) and a key on two axes, under any of its names: either would run
/// the same runs twice under two labels.
pub fn parse_axes(
    specs: &[String],
    known: &[Reading],
    path_of: &dyn Fn(&str) -> String,
) -> Result<Vec<Axis>, ReadingsError> {
    let mut axes: Vec<Axis> = Vec::new();
    for spec in specs {
        let listed =
            spec.split_once('=').is_some_and(|(k, _)| known.iter().any(|r| r.key == k.trim() || r.short() == k.trim()));
        let mut axis = parse_axis(spec, known)?;
        if !listed {
            axis.key = path_of(&axis.key);
        }
        for (i, (name, value)) in axis.values.iter().enumerate() {
            if let Some((first, _)) = axis.values[..i].iter().find(|(n, v)| n == name || v == value) {
                let same = if first == name {
                    format!("{name} is given twice")
                } else {
                    format!("{first} and {name} are one value")
                };
                return Err(ReadingsError::Axis(format!(
                    "--readings {spec:?}: {same}; each value of a reading runs once (a repeated value would run the \
                     same runs twice under one label)"
                )));
            }
        }
        let nested = |x: &str, y: &str| x == y || y.starts_with(&format!("{x}."));
        if let Some(earlier) = axes.iter().find(|a| nested(&a.key, &axis.key) || nested(&axis.key, &a.key)) {
            return Err(ReadingsError::Axis(format!(
                "--readings {spec:?}: {} is already a reading axis ({}); a key may appear once",
                axis.key, earlier.key
            )));
        }
        axes.push(axis);
    }
    Ok(axes)
}

/// Refuses a reading that the figure overrides: a value that changes the base scenario but none of the figure's
/// runs, because the figure fixes or sweeps that key itself (`seed`, the key of its series or of its x axis). Its
/// rows would be the default's runs under another label. `runs(s)` is a text of the figure's runs (of one seed) on
/// scenario `s` (its scenarios as JSON); `figure` names the figure in the message.
pub fn refuse_overridden<T: Serialize + DeserializeOwned>(
    figure: &str,
    base: &T,
    combos: &[Combination],
    runs: &dyn Fn(&T) -> String,
) -> Result<(), ReadingsError> {
    if combos.iter().all(Vec::is_empty) {
        return Ok(());
    }
    let base_json = serde_json::to_value(base).expect("a scenario is plain data");
    let base_runs = runs(base);
    let mut seen: Vec<&(String, String, Value)> = Vec::new();
    for part in combos.iter().flatten() {
        if seen.contains(&part) {
            continue;
        }
        seen.push(part);
        let one = apply(base, &vec![part.clone()])?;
        let changed = serde_json::to_value(&one).expect("a scenario is plain data") != base_json;
        if changed && runs(&one) == base_runs {
            let (key, name, _) = part;
            return Err(ReadingsError::Overridden { key: key.clone(), name: name.clone(), figure: figure.to_string() });
        }
    }
    Ok(())
}

/// Every combination of the axes' values, the first axis varying slowest; one empty combination for no axes.
pub fn combinations(axes: &[Axis]) -> Vec<Combination> {
    let mut out: Vec<Combination> = vec![Vec::new()];
    for a in axes {
        out = out
            .iter()
            .flat_map(|c| {
                a.values.iter().map(move |(n, v)| {
                    let mut c = c.clone();
                    c.push((a.key.clone(), n.clone(), v.clone()));
                    c
                })
            })
            .collect();
    }
    out
}

/// A combination's label: `load_split=equal calibration=minutes` (the keys' last parts), or `defaults`.
pub fn label(c: &Combination) -> String {
    if c.is_empty() {
        return "defaults".into();
    }
    c.iter().map(|(k, n, _)| format!("{}={n}", k.rsplit('.').next().unwrap_or(k))).collect::<Vec<_>>().join(" ")
}

/// The refusal of a combination whose scenario its checks refuse (`ReadingsError::Invalid`): its label, and the
/// field and why (every family's study maps its `validate` through it).
pub fn invalid(c: &Combination) -> impl Fn(crate::error::ScenarioError) -> ReadingsError + '_ {
    move |e| ReadingsError::Invalid { label: label(c), why: e.to_string() }
}

/// The scenario with the combination's values set at their keys; an error names the key that does not fit. Goes
/// through JSON text rather than `serde_json::Value` so that the page's wasm reuses the scenario's one text
/// deserializer instead of carrying a second one per scenario type.
pub fn apply<T: Serialize + DeserializeOwned>(s: &T, c: &Combination) -> Result<T, ReadingsError> {
    let text = serde_json::to_string(s).expect("a scenario is plain data");
    let refused = |e: serde_json::Error| ReadingsError::Refused { label: label(c), why: e.to_string() };
    if c.is_empty() {
        return serde_json::from_str(&text).map_err(|e| ReadingsError::Json(e.to_string()));
    }
    let mut json: Value = serde_json::from_str(&text).map_err(|e| ReadingsError::Json(e.to_string()))?;
    for (k, _, v) in c {
        set_path(&mut json, k, v.clone())?;
    }
    // A key the scenario does not hold is refused by its type, or read and dropped (checked below): either way the
    // rows would be labelled with a reading that changes nothing.
    let out: T = serde_json::from_str(&json.to_string()).map_err(|e| {
        let unknown = c.iter().find(|(k, ..)| {
            e.to_string().starts_with(&format!("unknown field `{}`", k.rsplit('.').next().unwrap_or(k)))
        });
        match unknown {
            Some((k, ..)) => ReadingsError::NotAKey(k.clone()),
            None => refused(e),
        }
    })?;
    let back = serde_json::to_value(&out).expect("a scenario is plain data");
    for (k, _, v) in c {
        let held = k.split('.').try_fold(&back, |cur, part| match cur {
            Value::Array(list) => part.parse::<usize>().ok().and_then(|i| list.get(i)),
            Value::Object(obj) => obj.get(part),
            _ => None,
        });
        if held.is_none() && !v.is_null() {
            return Err(ReadingsError::NotAKey(k.clone()));
        }
    }
    Ok(out)
}

/// The findings of a figure under one combination of readings.
#[derive(Clone, Debug)]
pub struct ReadingRow {
    /// `load_split=equal`, or `defaults`.
    pub label: String,
    /// Seeds the verdicts rest on: per point, or the most any bar took.
    pub seeds: u32,
    /// The seeds reached the cap with a finding still not resolved.
    pub capped: bool,
    pub claims: Vec<crate::stats::Claim>,
    pub failures: Vec<String>,
}

/// A figure's findings × readings.
#[derive(Clone, Debug)]
pub struct ReadingsTable {
    /// `fig11`, `fig4`.
    pub figure: String,
    /// A heading: the figure and its title.
    pub title: String,
    pub rows: Vec<ReadingRow>,
}

impl ReadingsTable {
    /// The table as Markdown: one row per finding, one column per combination of readings.
    pub fn markdown(&self) -> String {
        let mut out = format!("# {} under each reading\n\n| the paper reports |", self.title);
        for r in &self.rows {
            out.push_str(&format!(" {} ({} seeds) |", r.label, r.seeds));
        }
        out.push_str("\n|---|");
        out.push_str(&"---|".repeat(self.rows.len()));
        out.push('\n');
        let n = self.rows.first().map_or(0, |r| r.claims.len());
        for k in 0..n {
            out.push_str(&format!("| \"{}\" |", self.rows[0].claims[k].paper));
            for r in &self.rows {
                let c = &r.claims[k];
                out.push_str(&format!(" **{}**: {} |", c.verdict.label(), c.ours.replace('|', "/")));
            }
            out.push('\n');
        }
        for r in &self.rows {
            let open = r.claims.iter().filter(|c| c.verdict == crate::stats::Verdict::Unresolved).count();
            if open > 0 && r.capped {
                out.push_str(&format!("\n{}: {open} finding(s) not resolved after {} seeds.\n", r.label, r.seeds));
            }
            for e in &r.failures {
                out.push_str(&format!("\n{}: failed run: {e}\n", r.label));
            }
        }
        out
    }

    /// The table as CSV: figure, finding number, reading, seeds, verdict, our numbers.
    pub fn csv(&self) -> String {
        let mut out = String::from("figure,finding,reading,seeds,verdict,ours\n");
        for r in &self.rows {
            for (k, c) in r.claims.iter().enumerate() {
                out.push_str(&format!(
                    "{},{},{},{},{},\"{}\"\n",
                    self.figure,
                    k + 1,
                    crate::stats::csv_field(&r.label),
                    r.seeds,
                    c.verdict.label(),
                    c.ours.replace('"', "'")
                ));
            }
        }
        out
    }
}

/// Largest number of seeds `--seeds auto` adds to a point.
pub const AUTO_CAP: u32 = 30;

/// Seeds per point of a study: a fixed number, or `auto`: start at `start` and add seeds (5 → 10 → 20 → 30) while a
/// verdict is not resolved, up to the cap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seeds {
    Fixed(u32),
    Auto { start: u32, cap: u32 },
}

impl Seeds {
    /// `5` (1–100), or `auto` (starting at `default`, capped at [`AUTO_CAP`]).
    pub fn parse(s: &str, default: u32) -> Result<Seeds, ReadingsError> {
        Seeds::parse_from(s, default, 1)
    }

    /// `N` (`min`–100), or `auto`: the range the refusal names is the range checked.
    pub fn parse_from(s: &str, default: u32, min: u32) -> Result<Seeds, ReadingsError> {
        if s.trim().eq_ignore_ascii_case("auto") {
            return Ok(Seeds::Auto { start: default.min(AUTO_CAP), cap: AUTO_CAP });
        }
        match s.trim().parse::<u32>() {
            Ok(n) if (min..=100).contains(&n) => Ok(Seeds::Fixed(n)),
            _ => Err(ReadingsError::Seeds { given: s.to_string(), min }),
        }
    }

    pub fn first(self) -> u32 {
        match self {
            Seeds::Fixed(n) => n,
            Seeds::Auto { start, .. } => start,
        }
    }

    /// The number of seeds to try after `n`, if any: twice as many, at most the cap.
    pub fn next(self, n: u32) -> Option<u32> {
        match self {
            Seeds::Fixed(_) => None,
            Seeds::Auto { cap, .. } => (n < cap).then(|| (2 * n).clamp(n + 1, cap)),
        }
    }

    /// The cap of `auto`.
    pub fn cap(self) -> Option<u32> {
        match self {
            Seeds::Fixed(_) => None,
            Seeds::Auto { cap, .. } => Some(cap),
        }
    }
}

/// A command-line value as JSON: numbers stay numbers, null stays null, everything else is a string.
pub fn json_value(v: &str) -> Value {
    if v == "null" {
        return Value::Null;
    }
    if let Ok(n) = v.parse::<u64>() {
        return n.into();
    }
    if let Ok(x) = v.parse::<f64>() {
        if let Some(n) = serde_json::Number::from_f64(x) {
            return Value::Number(n);
        }
    }
    Value::String(v.to_string())
}

/// Sets `path` (keys and array indices joined by dots, e.g. `data_grid.data_mb.1`) in a scenario's JSON.
pub fn set_path(root: &mut Value, path: &str, value: Value) -> Result<(), PathError> {
    let parts: Vec<&str> = path.split('.').collect();
    let at = |part: &str, why: PathFault| PathError { path: path.to_string(), part: part.to_string(), why };
    let (last, inner) = parts.split_last().ok_or_else(|| at("", PathFault::Empty))?;
    let mut cur = root;
    for part in inner {
        cur = match cur {
            Value::Array(list) => {
                let len = list.len();
                part.parse::<usize>()
                    .ok()
                    .and_then(|k| list.get_mut(k))
                    .ok_or_else(|| at(part, PathFault::NotAnIndex { len }))?
            }
            Value::Object(obj) => obj.entry(part.to_string()).or_insert_with(|| serde_json::json!({})),
            _ => return Err(at(part, PathFault::NotInObject)),
        };
    }
    match cur {
        Value::Array(list) => {
            let len = list.len();
            let slot = last
                .parse::<usize>()
                .ok()
                .and_then(|k| list.get_mut(k))
                .ok_or_else(|| at(last, PathFault::NotAnIndex { len }))?;
            *slot = value;
        }
        Value::Object(obj) => {
            obj.insert(last.to_string(), value);
        }
        _ => return Err(at(last, PathFault::NotInObject)),
    }
    Ok(())
}

/// A finding's verdict under the first combination of a table (the defaults, when every axis lists its values
/// default first, as `KEY=all` does) and the combinations under which it is different.
#[derive(Clone, Debug, PartialEq)]
pub struct Flip {
    pub paper: String,
    pub default: crate::stats::Verdict,
    /// (combination, its verdict) where the verdict differs from the default's.
    pub flipped_by: Vec<(String, crate::stats::Verdict)>,
}

impl Flip {
    /// `agrees; flipped by fcfs_share=rep_thresh (disagrees)`, or `agrees; no reading flips it`.
    pub fn text(&self) -> String {
        if self.flipped_by.is_empty() {
            return format!("{} under the defaults; no reading flips it", self.default.label());
        }
        let by: Vec<String> = self.flipped_by.iter().map(|(l, v)| format!("{l} ({})", v.label())).collect();
        format!("{} under the defaults; flipped by {}", self.default.label(), by.join(", "))
    }
}

/// For each finding of `table`, its verdict under the first row and the rows that change it.
pub fn flips(table: &ReadingsTable) -> Vec<Flip> {
    let Some(first) = table.rows.first() else { return Vec::new() };
    first
        .claims
        .iter()
        .enumerate()
        .map(|(k, c)| Flip {
            paper: c.paper.clone(),
            default: c.verdict,
            flipped_by: table.rows[1..]
                .iter()
                .filter_map(|r| {
                    r.claims.get(k).filter(|o| o.verdict != c.verdict).map(|o| (r.label.clone(), o.verdict))
                })
                .collect(),
        })
        .collect()
}

/// The flips of `table` as a Markdown section (appended to the Markdown table of `bagsim reproduce` and `bagsim
/// dg-figure` with `--readings`).
pub fn flips_markdown(table: &ReadingsTable) -> String {
    let mut out = String::from("\n## Which reading flips each finding\n\n| the paper reports | verdict |\n|---|---|\n");
    for f in flips(table) {
        out.push_str(&format!("| \"{}\" | {} |\n", f.paper, f.text()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A study that asks for the squares of 1..=n and sums the answers it gets.
    fn sum_of_squares(n: u32, batch: Batch<'_, u32, u32>) -> Result<u32, PointError> {
        let jobs: Vec<u32> = (1..=n).collect();
        batch(&jobs).into_iter().map(|r| r.map(|x| x * x)).sum()
    }

    #[test]
    fn a_recorded_study_replays_to_the_same_answer_as_a_run() {
        let (jobs, planned) = record(|b| sum_of_squares(3, b));
        assert_eq!(jobs, vec![1, 2, 3]);
        assert_eq!(planned, Err(PointError::Job("planned, not run".to_string())));
        let outcomes: Vec<Result<u32, PointError>> = jobs.iter().map(|&j| Ok(j)).collect();
        assert_eq!(sum_of_squares(3, &replay(outcomes.clone())), Ok(14));
        assert!(sum_of_squares(4, &replay(outcomes))
            .unwrap_err()
            .to_string()
            .contains("asked for 4 runs; 3 were planned"));
    }

    const R: &[Reading] =
        &[Reading { key: "a.split", values: &[("equal", "\"equal\""), ("cap", "\"capacity\"")], rests_on: "" }];

    #[test]
    fn axes_parse_by_key_or_short_name_and_refuse_unknown_values() {
        let a = parse_axis("split=cap,equal", R).unwrap();
        assert_eq!(a.key, "a.split");
        assert_eq!(a.values[0], ("cap".to_string(), Value::String("capacity".into())));
        assert_eq!(parse_axis("a.split=all", R).unwrap().values.len(), 2);
        let e = parse_axis("split=half", R).unwrap_err().to_string();
        assert!(e.contains("equal, cap"), "{e}");
        let free = parse_axis("horizon=null,5", R).unwrap();
        assert_eq!(free.values[1].1, Value::from(5u64));
        assert!(parse_axis("split", R).is_err());
    }

    #[test]
    fn combinations_are_the_cartesian_product_first_axis_slowest() {
        let a = parse_axis("split=all", R).unwrap();
        let b = parse_axis("x=1,2,3", R).unwrap();
        let c = combinations(&[a, b]);
        assert_eq!(c.len(), 6);
        assert_eq!(label(&c[0]), "split=equal x=1");
        assert_eq!(label(&c[3]), "split=cap x=1");
        assert_eq!(label(&combinations(&[])[0]), "defaults");
    }

    #[test]
    fn auto_seeds_double_up_to_the_cap_and_fixed_seeds_never_grow() {
        let auto = Seeds::parse("auto", 5).unwrap();
        let mut n = auto.first();
        let mut seen = vec![n];
        while let Some(m) = auto.next(n) {
            n = m;
            seen.push(n);
        }
        assert_eq!(seen, [5, 10, 20, 30]);
        assert_eq!(Seeds::parse("7", 5).unwrap().next(7), None);
        assert!(Seeds::parse("0", 5).is_err() && Seeds::parse("many", 5).is_err());
        assert_eq!(Seeds::parse("1", 5), Ok(Seeds::Fixed(1)));
        let e = Seeds::parse_from("1", 5, 2).unwrap_err().to_string();
        assert!(e.contains("allowed 2–100"), "{e}");
    }

    fn flip_row(label: &str, verdicts: &[crate::stats::Verdict]) -> ReadingRow {
        let claims = verdicts
            .iter()
            .enumerate()
            .map(|(k, &verdict)| crate::stats::Claim { paper: format!("finding {k}"), ours: String::new(), verdict })
            .collect();
        ReadingRow { label: label.into(), seeds: 5, capped: false, claims, failures: Vec::new() }
    }

    /// A finding flips under the rows whose verdict differs from the first row's, and only those.
    #[test]
    fn flips_name_the_rows_that_change_a_verdict() {
        use crate::stats::Verdict::*;
        let t = ReadingsTable {
            figure: "fig2".into(),
            title: "Fig. 2".into(),
            rows: vec![
                flip_row("k=a", &[Agrees, Unresolved]),
                flip_row("k=b", &[Agrees, Disagrees]),
                flip_row("k=c", &[Disagrees, Unresolved]),
            ],
        };
        let f = flips(&t);
        assert_eq!(f[0].flipped_by, vec![("k=c".to_string(), Disagrees)]);
        assert_eq!(f[1].flipped_by, vec![("k=b".to_string(), Disagrees)]);
        assert_eq!(f[0].text(), "agrees under the defaults; flipped by k=c (disagrees)");
        let one = ReadingsTable { rows: vec![flip_row("defaults", &[Agrees, Agrees])], ..t };
        assert!(flips(&one).iter().all(|f| f.flipped_by.is_empty()));
        assert!(flips_markdown(&one).contains("no reading flips it"));
    }
}
