//! A study's CSV read back (what `bagsim sweep` and `bagsim merge` write: the axis columns, then one family's sweep
//! columns) and drawn as lines: one column against a numeric axis, a line per combination of the other axes, and
//! over a `seed` axis the mean with its 95% Student-t interval.

use crate::registry;
use crate::registry::Family;
use crate::stats::Interval;

/// A study's CSV: which family, its axes with their values in the file's order, its columns and rows.
#[derive(Clone, Debug, PartialEq)]
pub struct StudyTable {
    pub family: Family,
    /// Each axis with its distinct values, in the order they first appear.
    pub axes: Vec<(String, Vec<String>)>,
    pub columns: Vec<String>,
    pub rows: Vec<StudyRow>,
}

/// One run: its axis values and its columns (`None` where the CSV cell is empty: a mean with nothing to average).
#[derive(Clone, Debug, PartialEq)]
pub struct StudyRow {
    pub labels: Vec<String>,
    pub values: Vec<Option<f64>>,
}

/// One line of a study's chart.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// The values of the axes that are neither x nor `seed` (e.g. `FPLT`, or `ECT, csp`).
    pub label: String,
    pub points: Vec<LinePoint>,
}

/// A point: x, and the column over the point's seeds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinePoint {
    pub x: f64,
    /// Mean over the runs with a value, `n` of them (NaN half-width below two).
    pub y: Interval,
    /// Runs at this point, with or without a value.
    pub runs: usize,
}

/// Why a CSV is not a study's (`StudyTable::from_csv`): where, and what is wrong there.
#[derive(Clone, Debug, PartialEq)]
pub enum StudyCsvError {
    /// No line at all.
    Empty,
    /// A line whose quote is not closed.
    Quote { line: usize },
    /// A header whose columns are not a bagsim study's.
    NotAStudy,
    /// A header with a family's columns and no axis before them.
    NoAxes,
    /// A row of another number of cells than the header.
    Cells { line: usize, cells: usize, header: usize },
    /// A value that is not a finite number (as quoted: at most 60 characters).
    Number { line: usize, column: String, value: String },
    /// A header and no rows.
    NoRuns,
}

impl std::fmt::Display for StudyCsvError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StudyCsvError::Empty => {
                f.write_str("the file is empty: expected the CSV bagsim sweep or bagsim merge writes")
            }
            StudyCsvError::Quote { line } => write!(f, "line {line}: a quote is not closed"),
            StudyCsvError::NotAStudy => f.write_str(
                "line 1: these columns are not a bagsim study's (the CSV bagsim sweep or bagsim merge writes)",
            ),
            StudyCsvError::NoAxes => f.write_str("line 1: the study has no axis columns"),
            StudyCsvError::Cells { line, cells, header } => {
                write!(f, "line {line}: {cells} cells; the header has {header}")
            }
            StudyCsvError::Number { line, column, value } => {
                write!(f, "line {line}, column {column}: {value:?} is not a finite number")
            }
            StudyCsvError::NoRuns => f.write_str("the study has a header and no runs"),
        }
    }
}

impl std::error::Error for StudyCsvError {}

impl StudyTable {
    /// Reads a study's CSV; a refusal names the line and column.
    pub fn from_csv(text: &str) -> Result<StudyTable, StudyCsvError> {
        let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
        let (_, header) = lines.next().ok_or(StudyCsvError::Empty)?;
        let header = crate::stats::csv_cells(header.trim_end_matches('\r')).ok_or(StudyCsvError::Quote { line: 1 })?;
        let header: Vec<&str> = header.iter().map(String::as_str).collect();
        let (family, n_axes) = Family::ALL
            .iter()
            .find_map(|&f| {
                let cols = registry::sweep_header(f);
                let k = cols.split(',').count();
                let tail = header.len().checked_sub(k)?;
                (header[tail..].join(",") == cols).then_some((f, tail))
            })
            .ok_or(StudyCsvError::NotAStudy)?;
        if n_axes == 0 {
            return Err(StudyCsvError::NoAxes);
        }
        let mut axes: Vec<(String, Vec<String>)> =
            header[..n_axes].iter().map(|k| (k.to_string(), Vec::new())).collect();
        let columns: Vec<String> = header[n_axes..].iter().map(|c| c.to_string()).collect();
        let mut rows = Vec::new();
        for (i, line) in lines {
            let cells =
                crate::stats::csv_cells(line.trim_end_matches('\r')).ok_or(StudyCsvError::Quote { line: i + 1 })?;
            let cells: Vec<&str> = cells.iter().map(String::as_str).collect();
            if cells.len() != header.len() {
                return Err(StudyCsvError::Cells { line: i + 1, cells: cells.len(), header: header.len() });
            }
            for (a, v) in axes.iter_mut().zip(&cells) {
                if !a.1.iter().any(|x| x == v) {
                    a.1.push(v.to_string());
                }
            }
            let values = cells[n_axes..]
                .iter()
                .zip(&columns)
                .map(|(c, name)| match c.trim() {
                    "" => Ok(None),
                    t => match t.parse::<f64>() {
                        Ok(x) if x.is_finite() => Ok(Some(x)),
                        _ => Err(StudyCsvError::Number { line: i + 1, column: name.clone(), value: short(t) }),
                    },
                })
                .collect::<Result<Vec<_>, _>>()?;
            rows.push(StudyRow { labels: cells[..n_axes].iter().map(|c| c.to_string()).collect(), values });
        }
        if rows.is_empty() {
            return Err(StudyCsvError::NoRuns);
        }
        Ok(StudyTable { family, axes, columns, rows })
    }

    /// The axes every value of which is a number: what a chart can put on x.
    pub fn numeric_axes(&self) -> Vec<usize> {
        (0..self.axes.len())
            .filter(|&a| {
                self.axes[a].0 != "seed" && self.axes[a].1.iter().all(|v| v.parse::<f64>().is_ok_and(f64::is_finite))
            })
            .collect()
    }

    /// The default x axis: `load` if the study has it, else its first numeric axis.
    pub fn default_x(&self) -> Option<usize> {
        let numeric = self.numeric_axes();
        numeric.iter().copied().find(|&a| self.axes[a].0.ends_with("load")).or(numeric.first().copied())
    }

    /// Column `column` against axis `x`: a line per combination of the other axes but `seed` (in the file's order),
    /// its points in increasing x, each the mean over its seeds.
    pub fn lines(&self, x: usize, column: usize) -> Vec<Line> {
        let seed = self.axes.iter().position(|(k, _)| k == "seed");
        let rest: Vec<usize> = (0..self.axes.len()).filter(|&a| a != x && Some(a) != seed).collect();
        // Per line: its label, and per x its values and how many runs it has.
        type Acc = Vec<(f64, Vec<f64>, usize)>;
        let mut out: Vec<(String, Acc)> = Vec::new();
        for r in &self.rows {
            let label = if rest.is_empty() {
                self.columns[column].clone()
            } else {
                rest.iter().map(|&a| r.labels[a].as_str()).collect::<Vec<_>>().join(", ")
            };
            let Ok(xv) = r.labels[x].parse::<f64>() else { continue };
            let at = match out.iter().position(|(l, _)| *l == label) {
                Some(k) => k,
                None => {
                    out.push((label, Vec::new()));
                    out.len() - 1
                }
            };
            let pts = &mut out[at].1;
            let p = match pts.iter().position(|(px, _, _)| *px == xv) {
                Some(k) => k,
                None => {
                    pts.push((xv, Vec::new(), 0));
                    pts.len() - 1
                }
            };
            pts[p].2 += 1;
            if let Some(v) = r.values[column] {
                pts[p].1.push(v);
            }
        }
        out.into_iter()
            .map(|(label, mut pts)| {
                pts.sort_by(|a, b| a.0.total_cmp(&b.0));
                let of = interval_of(&self.columns[column]);
                let points = pts.into_iter().map(|(x, v, runs)| LinePoint { x, y: of(&v), runs }).collect();
                Line { label, points }
            })
            .collect()
    }

    /// The column a chart shows first: the family's headline mean.
    pub fn default_column(&self) -> usize {
        ["mean_makespan", "mean_tt", "mean_turnaround"]
            .iter()
            .find_map(|c| self.columns.iter().position(|x| x == c))
            .unwrap_or(0)
    }
}

/// The interval that fits a sweep column (stats::interval): shares of 1 (`finished_fraction`, `utilization`,
/// `held_utilization`, `occupancy`) within [0, 1], a growth rate of either sign plain, every other column (times,
/// slowdowns, counts) a nonnegative quantity.
fn interval_of(column: &str) -> fn(&[f64]) -> Interval {
    if column.ends_with("fraction") || column.ends_with("utilization") || column == "occupancy" {
        |v| Interval::of_share(v, 1.0)
    } else if column.starts_with("growth") {
        Interval::of_signed
    } else {
        Interval::of
    }
}

fn short(s: &str) -> String {
    s.chars().take(40).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn csv(rows: &[&str]) -> String {
        let mut s = format!("load,scheduling,seed,{}\n", registry::sweep_header(Family::MultiCluster));
        let width = registry::sweep_header(Family::MultiCluster).split(',').count();
        for r in rows {
            // Axis cells, then the makespan at its column (6th of the family's) and 1 everywhere else.
            let (axes, ms) = r.rsplit_once(',').unwrap();
            let cells: Vec<String> =
                (0..width).map(|i| if i == 5 { ms.to_string() } else { "1".to_string() }).collect();
            s += &format!("{axes},{}\n", cells.join(","));
        }
        s
    }

    /// Two seeds at each point: mean and modified Cox interval by hand (stats::interval): for 10 and 14, y = ln 10,
    /// ln 14, s² = (ln 14 − ln 10)²/2 = 0.0566, centre ȳ + s²/2, spread t_{0.975,1} · √(s²/2 + s⁴/2) with
    /// t_{0.975,1} = 12.706204736.
    #[test]
    fn seeds_become_a_mean_and_its_interval() {
        let t = StudyTable::from_csv(&csv(&[
            "0.9,ECT,1,10",
            "0.9,ECT,2,14",
            "0.3,ECT,1,4",
            "0.3,ECT,2,",
            "0.3,RR,1,5",
            "0.3,RR,2,7",
        ]))
        .unwrap();
        assert_eq!(t.family, Family::MultiCluster);
        assert_eq!(t.default_x(), Some(0));
        assert_eq!(t.numeric_axes(), vec![0]);
        let col = t.default_column();
        assert_eq!(t.columns[col], "mean_makespan");
        let lines = t.lines(0, col);
        assert_eq!(lines.iter().map(|l| l.label.as_str()).collect::<Vec<_>>(), vec!["ECT", "RR"]);
        let ect = &lines[0].points;
        assert_eq!((ect[0].x, ect[0].y.n, ect[0].runs, ect[0].y.mean), (0.3, 1, 2, 4.0));
        assert!(ect[0].y.low.is_nan() && ect[0].y.high.is_nan());
        assert_eq!((ect[1].x, ect[1].y.mean), (0.9, 12.0));
        let d = 14f64.ln() - 10f64.ln();
        let (s2, ybar) = (d * d / 2.0, (14f64.ln() + 10f64.ln()) / 2.0);
        let spread = 12.706204736 * (s2 / 2.0 + s2 * s2 / 2.0).sqrt();
        assert!((ect[1].y.low - (ybar + s2 / 2.0 - spread).exp()).abs() < 1e-9, "{:?}", ect[1].y);
        assert!((ect[1].y.high - (ybar + s2 / 2.0 + spread).exp()).abs() < 1e-9, "{:?}", ect[1].y);
        assert!(ect[1].y.low > 0.0);
    }

    #[test]
    fn a_file_that_is_not_a_study_is_refused_with_its_line() {
        assert!(StudyTable::from_csv("").unwrap_err().to_string().contains("empty"));
        assert!(StudyTable::from_csv("a,b\n1,2\n").unwrap_err().to_string().contains("not a bagsim study"));
        let bad = csv(&["0.9,ECT,1,10"]).replace(",10,", ",inf,");
        assert!(StudyTable::from_csv(&bad).unwrap_err().to_string().contains("line 2, column mean_makespan"));
        let short_row = csv(&["0.9,ECT,1,10"]) + "0.5,RR\n";
        assert!(StudyTable::from_csv(&short_row).unwrap_err().to_string().starts_with("line 3: 2 cells"));
        let header_only = format!("{}\n", csv(&[]).trim_end());
        assert!(StudyTable::from_csv(&header_only).unwrap_err().to_string().contains("no runs"));
    }
}
