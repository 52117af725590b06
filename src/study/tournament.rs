//! A tournament's standings (`bagsim tournament`): the entries raced on one scenario over the same seeds — the
//! family's built-ins as reference rows and the students' scripts — ranked by the mean of one sweep column, each
//! with its 95% interval over the seeds, and whether it is separated from the entry ranked above it. An entry whose
//! runs failed (a script that does not compile, makes an impossible decision or exceeds its budget) is listed after
//! the ranked ones with its reason; it never stops the others.

use crate::family::contract::Tournament;
use crate::scenario::Scenario;
use crate::stats::{csv_number, Interval};

/// One entry and what its runs gave: the column's value per seed, or the first failure.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub name: String,
    /// A family's built-in (a reference row), not a script.
    pub builtin: bool,
    /// The column's value of each run that ended (NaN: the run has no value for it, e.g. nothing finished).
    pub values: Vec<f64>,
    /// Why a run of the entry failed (the first such reason); the entry is then not ranked.
    pub failure: Option<String>,
}

/// An entry's place in the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// 1 for the best; None for an entry that failed or has no value.
    pub rank: Option<usize>,
    pub name: String,
    pub builtin: bool,
    pub interval: Interval,
    /// Whether its interval overlaps the one of the entry ranked just above it: these runs do not separate them.
    pub tied_above: bool,
    /// Why it is not ranked.
    pub reason: Option<String>,
}

/// The standings: ranked entries by their mean (smallest first, or largest when `higher_is_better`; a tie in the
/// mean keeps the entries' order), then the entries that failed or have no value, in their order.
pub fn standings(entries: &[Entry], higher_is_better: bool) -> Vec<Standing> {
    let mut ranked = Vec::new();
    let mut unranked = Vec::new();
    for e in entries {
        let interval = Interval::of(&e.values);
        let reason = match &e.failure {
            Some(f) => Some(f.clone()),
            None if !interval.has_data() => Some("no run gave a value for this column".to_string()),
            None => None,
        };
        let s = Standing { rank: None, name: e.name.clone(), builtin: e.builtin, interval, tied_above: false, reason };
        if s.reason.is_some() {
            unranked.push(s);
        } else {
            ranked.push(s);
        }
    }
    ranked.sort_by(|a, b| {
        let order = a.interval.mean.total_cmp(&b.interval.mean);
        if higher_is_better {
            order.reverse()
        } else {
            order
        }
    });
    for i in 0..ranked.len() {
        ranked[i].rank = Some(i + 1);
        if i > 0 {
            ranked[i].tied_above = !ranked[i].interval.separated_from(&ranked[i - 1].interval);
        }
    }
    ranked.extend(unranked);
    ranked
}

/// The standings as CSV: `rank,name,kind,seeds,mean,low,high,tied_above,reason` (empty cells where undefined).
pub fn to_csv(standings: &[Standing]) -> String {
    let mut out = String::from("rank,name,kind,seeds,mean,low,high,tied_above,reason\n");
    for s in standings {
        let quote = |t: &str| format!("\"{}\"", t.replace('"', "\"\""));
        out.push_str(&format!(
            "{},{},{},{},{},{},{},{},{}\n",
            s.rank.map_or(String::new(), |r| r.to_string()),
            quote(&s.name),
            if s.builtin { "built-in" } else { "script" },
            s.interval.n,
            csv_number(s.interval.mean),
            csv_number(s.interval.low),
            csv_number(s.interval.high),
            s.tied_above,
            s.reason.as_deref().map_or(String::new(), quote),
        ));
    }
    out
}

/// The standings as a table for people: rank (`=` where the interval overlaps the one above), name, kind, the mean
/// and its interval, the seeds; the failed entries after, with their reasons.
pub fn to_table(standings: &[Standing], metric: &str, digits: usize) -> String {
    let width = standings.iter().map(|s| s.name.chars().count()).max().unwrap_or(4).max(4);
    let mut out =
        format!("{:>4}  {:<width$}  {:<8}  {metric} (mean, 95% interval over seeds)\n", "rank", "name", "kind");
    for s in standings {
        let kind = if s.builtin { "built-in" } else { "script" };
        match (&s.rank, &s.reason) {
            (Some(r), None) => {
                let rank = if s.tied_above { format!("={r}") } else { r.to_string() };
                let i = &s.interval;
                let range = if i.low.is_finite() {
                    format!("[{:.digits$} – {:.digits$}]", i.low, i.high)
                } else {
                    "[one seed: no interval]".to_string()
                };
                out.push_str(&format!(
                    "{rank:>4}  {:<width$}  {kind:<8}  {:.digits$} {range} over {} seeds\n",
                    s.name, i.mean, i.n
                ));
            }
            (_, reason) => out.push_str(&format!(
                "{:>4}  {:<width$}  {kind:<8}  not ranked: {}\n",
                "—",
                s.name,
                reason.as_deref().unwrap_or("no value")
            )),
        }
    }
    out
}

/// One entry as it is raced: its name, whether it is a family's built-in, and its value of the family's scripted
/// key as JSON (a built-in's name, or `{"script": SOURCE}`).
#[derive(Clone, Debug, PartialEq)]
pub struct Contender {
    pub name: String,
    pub builtin: bool,
    pub value: serde_json::Value,
}

/// The contenders of a tournament: the family's built-ins first (when `builtins`), then each script `(name,
/// source)`, a name already taken made unique with the script's position (as `bagsim tournament` names its files).
pub fn contenders(spec: &Tournament, scripts: &[(String, String)], builtins: bool) -> Vec<Contender> {
    let mut out: Vec<Contender> = Vec::new();
    if builtins {
        out.extend(spec.builtins.iter().map(|b| Contender {
            name: b.to_string(),
            builtin: true,
            value: crate::readings::json_value(b),
        }));
    }
    for (i, (name, source)) in scripts.iter().enumerate() {
        let name = if out.iter().any(|c| c.name == *name) { format!("{name} ({})", i + 1) } else { name.clone() };
        out.push(Contender { name, builtin: false, value: serde_json::json!({ "script": source }) });
    }
    out
}

/// The runs of a tournament, as `bagsim tournament` makes them (a sweep of the family's scripted key and the seed,
/// `study::plan_with`): for every contender and seed 1 … `seeds`, the contender's index and the scenario to run;
/// and the contenders that cannot run, with why (a script that is refused before it runs: the others still race).
pub fn runs(base: &Scenario, spec: &Tournament, contenders: &[Contender], seeds: u32) -> Planned {
    let seeds: Vec<String> = (1..=seeds).map(|s| s.to_string()).collect();
    let mut planned = Planned::default();
    for (k, c) in contenders.iter().enumerate() {
        let value = |path: &str, v: &str| {
            Ok::<_, std::io::Error>(if path == "seed" { crate::readings::json_value(v) } else { c.value.clone() })
        };
        let axes = vec![(spec.key.to_string(), vec![c.name.clone()]), ("seed".to_string(), seeds.clone())];
        let refuse = |e: String| (k, e.replace(&format!("--set {}={}: ", spec.key, c.name), ""));
        let m = match super::plan_with(base, axes, 1, &value) {
            Ok(m) => m,
            Err(e) => {
                planned.refused.push(refuse(e.to_string()));
                continue;
            }
        };
        let mut points = Vec::with_capacity(m.points.len());
        for i in 0..m.points.len() {
            let point = m.point(i).map_err(|e| e.to_string());
            match point.and_then(|p| Scenario::from_json(&p.job.to_string()).map_err(|e| e.to_string())) {
                Ok(s) => points.push((k, s)),
                Err(e) => {
                    planned.refused.push(refuse(e));
                    points.clear();
                    break;
                }
            }
        }
        planned.runs.extend(points);
    }
    planned
}

/// A tournament's runs (`runs`): (contender, scenario) for each run, and (contender, why) for each refused one.
#[derive(Debug, Default)]
pub struct Planned {
    pub runs: Vec<(usize, Scenario)>,
    pub refused: Vec<(usize, String)>,
}

/// The entries of `contenders` before any run has ended: no values yet, and the reason of each refused one.
pub fn entries(contenders: &[Contender], refused: &[(usize, String)]) -> Vec<Entry> {
    let mut out: Vec<Entry> = contenders
        .iter()
        .map(|c| Entry { name: c.name.clone(), builtin: c.builtin, values: Vec::new(), failure: None })
        .collect();
    for (k, why) in refused {
        out[*k].failure = Some(why.clone());
    }
    out
}

/// The value of sweep column `column` in a run's sweep row: NaN for an empty cell (nothing to average), None when
/// the row has no such column or it is not a number.
pub fn cell(row: &str, column: usize) -> Option<f64> {
    let cells = crate::stats::csv_cells(row)?;
    match cells.get(column)?.as_str() {
        "" => Some(f64::NAN),
        text => text.parse().ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(name: &str, values: &[f64], failure: Option<&str>) -> Entry {
        Entry { name: name.into(), builtin: false, values: values.to_vec(), failure: failure.map(String::from) }
    }

    #[test]
    fn ranked_by_mean_with_overlaps_marked_and_failures_last() {
        // Means: a 10, b 20, c 20.5 (b's and c's intervals overlap: both spread ±1 around close means), d 40.
        let entries = [
            entry("d", &[39.0, 40.0, 41.0], None),
            entry("broken", &[], Some("line 3: unknown function")),
            entry("b", &[19.0, 20.0, 21.0], None),
            entry("a", &[9.9, 10.0, 10.1], None),
            entry("c", &[19.5, 20.5, 21.5], None),
            entry("idle", &[f64::NAN, f64::NAN], None),
        ];
        let s = standings(&entries, false);
        let names: Vec<&str> = s.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["a", "b", "c", "d", "broken", "idle"]);
        let ranks: Vec<Option<usize>> = s.iter().map(|s| s.rank).collect();
        assert_eq!(ranks, [Some(1), Some(2), Some(3), Some(4), None, None]);
        let tied: Vec<bool> = s.iter().map(|s| s.tied_above).collect();
        assert_eq!(tied, [false, false, true, false, false, false]);
        assert_eq!(s[4].reason.as_deref(), Some("line 3: unknown function"));
        assert_eq!(s[5].reason.as_deref(), Some("no run gave a value for this column"));
        // Higher is better: the order turns round, failures stay last.
        let names: Vec<String> = standings(&entries, true).into_iter().map(|s| s.name).collect();
        assert_eq!(names, ["d", "c", "b", "a", "broken", "idle"]);
    }

    #[test]
    fn the_runs_are_every_contender_at_every_seed_with_its_value() {
        use crate::registry::Family;
        let spec = Family::MultiCluster.tournament().expect("the multi-cluster family races scripts");
        let fifo =
            "fn order() { \"fcfs\" }\nfn estimate() { \"known\" }\nfn choose(e, view) { start(view.fastest_free()) }";
        let scripts = vec![("mine".to_string(), fifo.to_string()), ("mine".into(), "fn order() { 1 }".into())];
        let all = contenders(&spec, &scripts, true);
        assert_eq!(all.len(), spec.builtins.len() + 2);
        assert_eq!(all[spec.builtins.len() + 1].name, "mine (2)", "a name taken is made unique");
        let base = Scenario::default();
        let planned = runs(&base, &spec, &all, 3);
        let runs = planned.runs;
        // The second script defines no `choose`: refused before it runs, the others planned.
        assert_eq!(planned.refused.len(), 1, "{:?}", planned.refused);
        assert_eq!(planned.refused[0].0, all.len() - 1);
        assert!(planned.refused[0].1.starts_with("scheduling.script:"), "{}", planned.refused[0].1);
        assert_eq!(runs.len(), (all.len() - 1) * 3);
        for (k, c) in all.iter().enumerate().take(all.len() - 1) {
            let mine: Vec<&Scenario> = runs.iter().filter(|r| r.0 == k).map(|r| &r.1).collect();
            let seeds: Vec<u64> = mine.iter().map(|s| s.seed()).collect();
            assert_eq!(seeds, [1, 2, 3], "{}", c.name);
            let json = serde_json::to_value(mine[0]).expect("plain data");
            assert_eq!(json.get(spec.key), Some(&c.value), "{}: its value of {}", c.name, spec.key);
        }
        assert_eq!(cell("a,2.5,,x", 1), Some(2.5));
        assert!(cell("a,2.5,,x", 2).is_some_and(f64::is_nan));
        assert_eq!((cell("a,2.5,,x", 3), cell("a,2.5", 7)), (None, None));
    }

    #[test]
    fn the_csv_and_the_table_say_the_same() {
        let s = standings(&[entry("a \"x\"", &[1.0, 3.0], None), entry("z", &[], Some("exceeded, budget"))], false);
        let csv = to_csv(&s);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines[0], "rank,name,kind,seeds,mean,low,high,tied_above,reason");
        assert!(lines[1].starts_with("1,\"a \"\"x\"\"\",script,2,2,"), "{csv}");
        assert_eq!(lines[2], ",\"z\",script,0,,,,false,\"exceeded, budget\"");
        let table = to_table(&s, "mean_makespan", 1);
        assert!(table.contains("   1  a \"x\"  script    2.0 ["), "{table}");
        assert!(table.contains("   —  z      script    not ranked: exceeded, budget"), "{table}");
    }
}
