//! A figure's results read back from the CSV that `FigureResult::to_csv` wrote (`bagsim figure multi_cluster N
//! --out STEM` writes `STEM-figN.csv`), so that its findings can be judged again, for instance after a change of
//! how verdicts are drawn, without running the figure again. The per-seed columns carry every value a finding
//! compares, except a per-class figure's overall NSL per run, which the CSV does not hold: a finding that compares
//! it reads "no data" (Figure 3's first one).

use super::{Axis, Figure, FigureResult, Metric, RunResult};
use crate::workload::size_class::SIZE_CLASSES;

/// Why a figure's CSV cannot be read back: the line and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FigureCsvError(pub String);

impl std::fmt::Display for FigureCsvError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FigureCsvError {}

impl From<String> for FigureCsvError {
    fn from(message: String) -> Self {
        FigureCsvError(message)
    }
}

impl From<&str> for FigureCsvError {
    fn from(message: &str) -> Self {
        FigureCsvError(message.to_string())
    }
}

/// Per (series, x, metric): the per-seed values, None until its row is read.
type Grid = Vec<Vec<[Option<Vec<f64>>; 3]>>;

impl FigureResult {
    /// The results of `figure` as its CSV gives them: every series, x and metric of the figure must have its row,
    /// with one value per seed column (empty for an undefined mean). A row of another figure, an unknown series,
    /// x or metric, a missing row or a value that is not a number is refused with its line.
    pub fn from_csv(figure: Figure, text: &str) -> Result<FigureResult, FigureCsvError> {
        let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
        let (_, header) = lines.next().ok_or("the CSV is empty: expected its header line first")?;
        let columns: Vec<&str> = header.split(',').map(str::trim).collect();
        let seed_columns: Vec<usize> = (0..columns.len()).filter(|&c| columns[c].starts_with("seed")).collect();
        let column =
            |name: &str| columns.iter().position(|c| *c == name).ok_or_else(|| format!("header: no column `{name}`"));
        let (fig, series, x, metric) = (column("figure")?, column("series")?, column("x")?, column("metric")?);
        let seeds = seed_columns.len();
        if seeds == 0 {
            return Err("header: no seed1, seed2, … columns (the per-seed values)".into());
        }
        let mut grid: Grid = vec![vec![Default::default(); figure.x_names.len()]; figure.series.len()];
        for (i, line) in lines {
            let at = |what: String| FigureCsvError(format!("line {}: {what}", i + 1));
            let cells: Vec<&str> = line.split(',').map(str::trim).collect();
            if cells.len() != columns.len() {
                return Err(at(format!("{} cells, the header has {}", cells.len(), columns.len())));
            }
            if cells[fig] != figure.id.name() {
                return Err(at(format!("figure `{}`, expected `{}`", cells[fig], figure.id.name())));
            }
            let s = figure.series.iter().position(|n| *n == cells[series]);
            let s = s.ok_or_else(|| at(format!("`{}` is not a series of {}", cells[series], figure.id.name())))?;
            let xi = figure.x_names.iter().position(|n| *n == cells[x]);
            let xi = xi.ok_or_else(|| at(format!("`{}` is not an x of {}", cells[x], figure.id.name())))?;
            let m = Metric::ALL.iter().position(|m| m.name() == cells[metric]);
            let m = m.ok_or_else(|| at(format!("`{}` is not a metric of the figures", cells[metric])))?;
            let values = seed_columns
                .iter()
                .map(|&c| match cells[c] {
                    "" => Ok(f64::NAN),
                    v => v.parse::<f64>().map_err(|_| at(format!("`{v}` in column {} is not a number", columns[c]))),
                })
                .collect::<Result<Vec<f64>, FigureCsvError>>()?;
            if grid[s][xi][m].replace(values).is_some() {
                return Err(at(format!("a second row for {} at {} ({})", cells[series], cells[x], cells[metric])));
            }
        }
        let mut result = FigureResult::new(figure, seeds as u32);
        fill(&mut result, &grid)?;
        Ok(result)
    }
}

/// Puts the grid's values into `result`'s runs: one run per series, point and seed.
fn fill(result: &mut FigureResult, grid: &Grid) -> Result<(), FigureCsvError> {
    let f = result.figure.clone();
    let per_class = f.axis == Axis::SizeClass;
    let metrics: &[Metric] = if per_class { &[Metric::Makespan, Metric::Nsl] } else { &Metric::ALL };
    let value = |s: usize, x: usize, m: Metric, k: usize| -> Result<f64, FigureCsvError> {
        let at = Metric::ALL.iter().position(|a| *a == m).unwrap_or(0);
        grid[s][x][at].as_ref().map(|v| v[k]).ok_or_else(|| {
            let (series, x) = (f.series[s], &f.x_names[x]);
            FigureCsvError(format!("no row for {series} at {x} ({}): the CSV must hold every one", m.name()))
        })
    };
    for s in 0..f.series.len() {
        for x in 0..f.x_names.len() {
            for &m in metrics {
                value(s, x, m, 0)?;
            }
        }
    }
    let nan = vec![f64::NAN; SIZE_CLASSES.len()];
    for s in 0..f.series.len() {
        for k in 0..result.seeds as usize {
            if per_class {
                let (mut class_makespan, mut class_nsl) = (nan.clone(), nan.clone());
                for x in 0..f.x_names.len().min(SIZE_CLASSES.len()) {
                    class_makespan[x] = value(s, x, Metric::Makespan, k)?;
                    class_nsl[x] = value(s, x, Metric::Nsl, k)?;
                }
                let nsl = f64::NAN;
                let run = RunResult { makespan: f64::NAN, nsl, finished_fraction: f64::NAN, class_makespan, class_nsl };
                result.runs[s][0][k] = Some(run);
            } else {
                for x in 0..f.x_names.len() {
                    let run = RunResult {
                        makespan: value(s, x, Metric::Makespan, k)?,
                        nsl: value(s, x, Metric::Nsl, k)?,
                        finished_fraction: value(s, x, Metric::Finished, k)?,
                        class_makespan: nan.clone(),
                        class_nsl: nan.clone(),
                    };
                    result.runs[s][x][k] = Some(run);
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::claims::claims;
    use super::super::FigureId;
    use super::*;

    /// A figure filled with made-up values that differ per series, point and seed (a few left undefined).
    fn made_up(id: FigureId, seeds: u32) -> FigureResult {
        let mut r = FigureResult::new(id.figure(), seeds);
        let classes = SIZE_CLASSES.len();
        for s in 0..r.figure.series.len() {
            for p in 0..r.figure.xs.len() {
                for k in 0..seeds as usize {
                    let v = 100.0 + 37.0 * s as f64 + 11.0 * p as f64 + 0.7 * k as f64;
                    let class = |c: usize| if (s + c) % 5 == 4 { f64::NAN } else { v / (c + 1) as f64 };
                    r.runs[s][p][k] = Some(RunResult {
                        makespan: v,
                        nsl: v / 50.0,
                        finished_fraction: 1.0 - 0.01 * s as f64,
                        class_makespan: (0..classes).map(class).collect(),
                        class_nsl: (0..classes).map(|c| class(c) / 30.0).collect(),
                    });
                }
            }
        }
        r
    }

    #[test]
    fn a_figure_read_back_writes_the_same_csv_and_finds_the_same() {
        for id in [FigureId::Fig4, FigureId::Fig11, FigureId::Fig10] {
            let r = made_up(id, 3);
            let back = FigureResult::from_csv(id.figure(), &r.to_csv()).expect("its own CSV reads back");
            assert_eq!(back.to_csv(), r.to_csv(), "{}", id.name());
            let (a, b) = (claims(&r), claims(&back));
            assert_eq!(a.len(), b.len());
            for (a, b) in a.iter().zip(&b) {
                assert_eq!((&a.ours, a.verdict), (&b.ours, b.verdict), "{}", id.name());
            }
        }
    }

    #[test]
    fn a_per_class_figure_has_no_overall_nsl_to_read() {
        let r = made_up(FigureId::Fig3, 2);
        let back = FigureResult::from_csv(FigureId::Fig3.figure(), &r.to_csv()).expect("reads back");
        assert_eq!(back.to_csv(), r.to_csv());
        assert!(back.overall_values(0).iter().all(|v| v.is_nan()));
        assert!(r.overall_values(0).iter().all(|v| v.is_finite()));
    }

    #[test]
    fn a_bad_csv_is_refused_with_its_line() {
        let csv = made_up(FigureId::Fig4, 2).to_csv();
        let refused = |text: &str| FigureResult::from_csv(FigureId::Fig4.figure(), text).unwrap_err().to_string();
        let lines: Vec<&str> = csv.lines().collect();
        let without_last = lines[..lines.len() - 1].join("\n");
        assert!(refused(&without_last).starts_with("no row for "), "{}", refused(&without_last));
        let other = csv.replacen("\nfig4,", "\nfig5,", 1);
        assert_eq!(refused(&other), "line 2: figure `fig5`, expected `fig4`");
        let word = csv.replacen("\nfig4,ECT,", "\nfig4,EXT,", 1);
        assert_eq!(refused(&word), "line 2: `EXT` is not a series of fig4");
        let twice = format!("{csv}{}\n", lines[1]);
        assert!(refused(&twice).contains("a second row for ECT"), "{}", refused(&twice));
        let mut cells: Vec<&str> = lines[1].split(',').collect();
        *cells.last_mut().unwrap() = "ten";
        let bad = format!("{}\n{}\n", lines[0], cells.join(","));
        assert_eq!(refused(&bad), "line 2: `ten` in column seed2 is not a number");
        assert_eq!(refused(""), "the CSV is empty: expected its header line first");
    }
}
