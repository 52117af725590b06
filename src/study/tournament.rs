//! A tournament's standings (`bagsim tournament`): the entries raced on one scenario over the same seeds — the
//! family's built-ins as reference rows and the students' scripts — ranked by the mean of one sweep column, each
//! with its 95% interval over the seeds, and whether it is separated from the entry ranked above it. An entry whose
//! runs failed (a script that does not compile, makes an impossible decision or exceeds its budget) is listed after
//! the ranked ones with its reason; it never stops the others.

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
