//! The experiments of [Liu10] §IV-B–D as presets (Figs. 4–9 on the bundled HPC2N log, not the paper's CTC;
//! Figs. 10–11 are SDSC, which is not bundled): every bar a scheme under one setting, its mean over seeds of the
//! data and bandwidth draws with a 95% interval, and the paper's findings checked with the shared verdict rule
//! (an ordering counts only where the intervals are apart). The folder holds the rest of the paper figures: a
//! figure as a list of runs and its readings table (`study.rs`) and the command (`cmd.rs`).

/// The figures as a command: native only (its runs go to a thread pool).
#[cfg(not(target_arch = "wasm32"))]
pub mod cmd;
pub mod study;

use super::config::{DdConfig, Estimates, Scheme, SchemePolicy};
use super::run::DdReport;
use crate::stats::bars_svg::{Bars, Cell};
use crate::stats::{Interval, Verdict};

/// What a figure plots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    MeanTurnaround,
    WorstTurnaround,
    Utilization,
}

impl Metric {
    pub fn title(self) -> &'static str {
        match self {
            Metric::MeanTurnaround => "average turnaround [s]",
            Metric::WorstTurnaround => "worst turnaround [s]",
            Metric::Utilization => "utilization",
        }
    }

    /// The 95% interval over seeds that fits the metric (stats::interval): utilization is a share of 1, the
    /// turnarounds are positive.
    pub fn interval(self, values: &[f64]) -> Interval {
        match self {
            Metric::Utilization => Interval::of_share(values, 1.0),
            Metric::MeanTurnaround | Metric::WorstTurnaround => Interval::of(values),
        }
    }

    /// The figure's value of a run; none (NaN, left out of the bar's interval) for a run that finished no job, so
    /// that no finding is judged on it.
    pub fn of(self, r: &DdReport) -> f64 {
        if r.metrics.finished == 0 {
            return f64::NAN;
        }
        match self {
            Metric::MeanTurnaround => r.metrics.turnaround.mean,
            Metric::WorstTurnaround => r.metrics.turnaround.max,
            Metric::Utilization => r.metrics.utilization,
        }
    }
}

/// A group of bars: its label and how it sets the section.
pub type Group = (&'static str, fn(&mut DdConfig));

/// One figure of [Liu10].
pub struct Figure {
    pub number: u32,
    pub caption: &'static str,
    pub metric: Metric,
    pub groups: Vec<Group>,
    /// The paper's words this figure can test.
    pub findings: &'static [&'static str],
}

fn gb10(c: &mut DdConfig) {
    c.data_mb = [10.0, 10_000.0];
}
fn gb800(c: &mut DdConfig) {
    c.data_mb = [10.0, 800_000.0];
}

/// The four settings of Figs. 4–6: both data ranges under normal and high load (runtimes × 3).
fn load_groups() -> Vec<Group> {
    vec![
        ("10 MB–10 GB, normal load", |c| gb10(c)),
        ("10 MB–10 GB, high load", |c| {
            gb10(c);
            c.runtime_factor = 3.0;
        }),
        ("10 MB–800 GB, normal load", |c| gb800(c)),
        ("10 MB–800 GB, high load", |c| {
            gb800(c);
            c.runtime_factor = 3.0;
        }),
    ]
}

/// Figs. 4–9.
pub fn figures() -> Vec<Figure> {
    vec![
        Figure {
            number: 4,
            caption: "Average turnaround of the three schemes",
            metric: Metric::MeanTurnaround,
            groups: load_groups(),
            findings: &[
                "our proposed scheme outperforms the other two schemes",
                "The average turnaround time of our scheme (“finish_time_data_aware”) is only about 10% of that of \
                 “start_time_no_data_aware” and 50% of that of “finish_time_no_overlap” scheme (10 MB–800 GB)",
            ],
        },
        Figure {
            number: 5,
            caption: "Utilization of the three schemes",
            metric: Metric::Utilization,
            groups: load_groups(),
            findings: &["the utilization is better for our scheme"],
        },
        Figure {
            number: 6,
            caption: "Worst turnaround of the three schemes",
            metric: Metric::WorstTurnaround,
            groups: load_groups(),
            findings: &["worst-case turnaround time for our scheme is much better than that for the other two schemes"],
        },
        Figure {
            number: 7,
            caption: "Inaccurate (requested) and accurate estimates",
            metric: Metric::MeanTurnaround,
            groups: vec![
                ("10 MB–800 GB, requested", |c| gb800(c)),
                ("10 MB–800 GB, accurate", |c| {
                    gb800(c);
                    c.estimates = Estimates::Accurate;
                }),
            ],
            findings: &["the performance of “start_time_no_data_aware” scheme is better when the user estimates are \
                         inaccurate (Fig. 7b)"],
        },
        Figure {
            number: 8,
            caption: "Data sizes under high load",
            metric: Metric::MeanTurnaround,
            groups: vec![
                ("up to 10 GB", |c| {
                    gb10(c);
                    c.runtime_factor = 3.0;
                }),
                ("up to 100 GB", |c| {
                    c.data_mb = [10.0, 100_000.0];
                    c.runtime_factor = 3.0;
                }),
                ("up to 400 GB", |c| {
                    c.data_mb = [10.0, 400_000.0];
                    c.runtime_factor = 3.0;
                }),
                ("up to 800 GB", |c| {
                    gb800(c);
                    c.runtime_factor = 3.0;
                }),
            ],
            findings: &["our scheme outperforms the other two at every data size (Fig. 8)"],
        },
        Figure {
            number: 9,
            caption: "Share of jobs with data (10 MB–800 GB)",
            metric: Metric::MeanTurnaround,
            groups: vec![
                ("25% with data", |c| {
                    gb800(c);
                    c.data_share = 0.25;
                }),
                ("50% with data", |c| {
                    gb800(c);
                    c.data_share = 0.5;
                }),
                ("75% with data", |c| {
                    gb800(c);
                    c.data_share = 0.75;
                }),
                ("100% with data", |c| {
                    gb800(c);
                    c.data_share = 1.0;
                }),
            ],
            findings: &[
                "the average turnaround time with our scheme increases as the percentage of jobs requiring data \
                         transfer increases",
            ],
        },
    ]
}

impl Figure {
    /// The section of the bar (group `g`, `scheme`) on top of `base` (the window, sites and seed range stay).
    pub fn config(&self, base: &DdConfig, g: usize, scheme: &SchemePolicy) -> DdConfig {
        let mut c = base.clone();
        (self.groups[g].1)(&mut c);
        c.scheme = scheme.clone();
        c
    }
}

/// The name of the figure's `s`-th series: the paper's three schemes (`Scheme::ALL`), then a scripted base's own
/// script, "script" (docs/policies.md).
pub fn series_name(s: usize) -> &'static str {
    Scheme::ALL.get(s).map_or("script", |x| x.name())
}

/// A figure's values: `values[group][series]` over seeds.
pub struct FigureResult<'a> {
    pub figure: &'a Figure,
    /// `[group][series]`: the paper's three schemes, then the base's own script when it is drawn.
    pub bars: Vec<Vec<Interval>>,
}

impl<'a> FigureResult<'a> {
    /// The intervals of `values[group][series]` (the seeds' values of each bar).
    pub fn of(figure: &'a Figure, values: &[Vec<Vec<f64>>]) -> FigureResult<'a> {
        FigureResult {
            figure,
            bars: values.iter().map(|g| g.iter().map(|s| figure.metric.interval(s)).collect()).collect(),
        }
    }

    /// The CSV: group, scheme, mean, the 95% interval's bounds, seeds.
    pub fn csv(&self, values: &[Vec<Vec<f64>>]) -> String {
        let values_title = crate::stats::csv_field(&format!("values ({})", self.figure.metric.title()));
        let mut out = format!("figure,group,scheme,mean,ci95_low,ci95_high,seeds,{values_title}\n");
        for (g, bars) in self.bars.iter().enumerate() {
            for (s, i) in bars.iter().enumerate() {
                let v: Vec<String> = values[g][s].iter().map(f64::to_string).collect();
                out.push_str(&format!(
                    "{},{},{},{},{},{},{},{}\n",
                    self.figure.number,
                    crate::stats::csv_field(self.figure.groups[g].0),
                    series_name(s),
                    i.mean,
                    i.low,
                    i.high,
                    values[g][s].len(),
                    v.join(" ")
                ));
            }
        }
        out
    }

    /// The figure as a bar chart: a group per setting, a bar per scheme, in the metric's unit.
    pub fn chart(&self) -> Bars {
        let f = self.figure;
        let cells = self
            .bars
            .iter()
            .flat_map(|g| {
                g.iter().map(|i| Cell::Value { mean: i.mean, low: i.low, high: i.high, note: format!("{} seeds", i.n) })
            })
            .collect();
        Bars {
            title: format!("Fig. {} — {}", f.number, f.metric.title()),
            unit: String::new(),
            groups: f.groups.iter().map(|g| g.0.to_string()).collect(),
            series: (0..self.bars.first().map_or(0, Vec::len))
                .map(|s| Scheme::ALL.get(s).map_or("script", |x| x.label()).to_string())
                .collect(),
            cells,
        }
    }

    /// The paper's findings next to ours, with verdicts.
    pub fn claims(&self) -> Vec<(String, String, Verdict)> {
        let f = self.figure;
        let (st, no, da) = (0, 1, 2);
        // "lower is better" for turnaround, "higher is better" for utilization.
        let better = |a: &Interval, b: &Interval| match f.metric {
            Metric::Utilization => a.mean > b.mean,
            _ => a.mean < b.mean,
        };
        // data-aware better than `other` in every group: agrees when every pair is apart and in the claimed
        // order, disagrees when some pair is apart in the other order.
        let beats = |other: usize| -> Verdict {
            let compared: Vec<Interval> = self.bars.iter().flat_map(|b| [b[da], b[other]]).collect();
            if !compared.iter().all(Interval::has_data) {
                return Verdict::NoData;
            }
            let mut v = Verdict::Agrees;
            for b in &self.bars {
                let apart = b[da].separated_from(&b[other]);
                if apart && !better(&b[da], &b[other]) {
                    return Verdict::Disagrees;
                }
                if !apart || !better(&b[da], &b[other]) {
                    v = Verdict::Unresolved;
                }
            }
            v
        };
        let both = |a: Verdict, b: Verdict| match (a, b) {
            (Verdict::NoData, _) | (_, Verdict::NoData) => Verdict::NoData,
            (Verdict::Disagrees, _) | (_, Verdict::Disagrees) => Verdict::Disagrees,
            (Verdict::Agrees, Verdict::Agrees) => Verdict::Agrees,
            _ => Verdict::Unresolved,
        };
        let listing = |s: usize| -> String {
            self.bars
                .iter()
                .zip(&f.groups)
                .map(|(b, g)| match b[s].has_data() {
                    true => format!("{}: {:.4}", g.0, b[s].mean),
                    false => format!("{}: no data (no run finished a job)", g.0),
                })
                .collect::<Vec<_>>()
                .join("; ")
        };
        let ours = format!(
            "finish_time_data_aware {}; finish_time_no_overlap {}; start_time_no_data_aware {}",
            listing(da),
            listing(no),
            listing(st)
        );
        let mut out = Vec::new();
        match f.number {
            4 | 5 | 6 | 8 => {
                let v = both(beats(st), beats(no));
                let mut parting = crate::stats::Parting::default();
                for b in self.bars.iter().filter(|_| v == Verdict::Unresolved) {
                    parting.add(&b[da], &b[st]);
                    parting.add(&b[da], &b[no]);
                }
                out.push((f.findings[0].to_string(), format!("{ours}{}", parting.note()), v))
            }
            7 => {
                // start_time_no_data_aware under requested (group 0) against accurate (group 1) estimates.
                let (req, acc) = (&self.bars[0][st], &self.bars[1][st]);
                let v = crate::stats::judge(&[*req, *acc], || {
                    if !req.separated_from(acc) {
                        Verdict::Unresolved
                    } else if req.mean < acc.mean {
                        Verdict::Agrees
                    } else {
                        Verdict::Disagrees
                    }
                });
                out.push((
                    f.findings[0].to_string(),
                    match v {
                        Verdict::NoData => "start_time_no_data_aware: no data (no run finished a job)".to_string(),
                        _ => format!(
                            "start_time_no_data_aware: requested {:.0}, accurate {:.0}{}",
                            req.mean,
                            acc.mean,
                            crate::stats::Parting::of(req, acc).note()
                        ),
                    },
                    v,
                ));
            }
            9 => {
                let compared: Vec<Interval> = self.bars.iter().map(|b| b[da]).collect();
                let mut v = crate::stats::judge(&compared, || Verdict::Agrees);
                let judged = v != Verdict::NoData;
                for w in self.bars.windows(2).filter(|_| judged) {
                    let (a, b) = (&w[0][da], &w[1][da]);
                    if a.separated_from(b) && a.mean > b.mean {
                        v = Verdict::Disagrees;
                        break;
                    }
                    if !a.separated_from(b) {
                        v = Verdict::Unresolved;
                    }
                }
                let mut parting = crate::stats::Parting::default();
                if v == Verdict::Unresolved {
                    self.bars.windows(2).for_each(|w| parting.add(&w[0][da], &w[1][da]));
                }
                let ours = format!("finish_time_data_aware {}{}", listing(da), parting.note());
                out.push((f.findings[0].to_string(), ours, v));
            }
            _ => {}
        }
        if f.number == 4 {
            // The ratios at 10 MB–800 GB, normal load (group 2); the verdict judges the order they imply
            // (data-aware below no-overlap below start-time), not the paper's "about".
            let b = &self.bars[2];
            let ordered = |a: &Interval, c: &Interval| {
                crate::stats::judge(&[*a, *c], || {
                    if !a.separated_from(c) {
                        Verdict::Unresolved
                    } else if a.mean < c.mean {
                        Verdict::Agrees
                    } else {
                        Verdict::Disagrees
                    }
                })
            };
            out.push((
                f.findings[1].to_string(),
                if [b[da], b[st], b[no]].iter().all(Interval::has_data) {
                    format!(
                        "finish_time_data_aware / start_time_no_data_aware = {:.3}, / finish_time_no_overlap = {:.3} \
                         (HPC2N, not CTC)",
                        b[da].mean / b[st].mean,
                        b[da].mean / b[no].mean
                    )
                } else {
                    "the ratios at 10 MB–800 GB, normal load: no data (no run finished a job)".into()
                },
                both(ordered(&b[da], &b[no]), ordered(&b[no], &b[st])),
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A figure whose runs finished no job (every value NaN, as `Metric::of` gives them) judges no finding: each is
    /// "no data"; and one bar without data is enough.
    #[test]
    fn findings_without_data_are_no_data() {
        for f in figures() {
            let none = vec![vec![vec![f64::NAN; 3]; 3]; f.groups.len()];
            let claims = FigureResult::of(&f, &none).claims();
            assert!(!claims.is_empty(), "Fig. {}", f.number);
            assert!(claims.iter().all(|c| c.2 == Verdict::NoData), "Fig. {}: {claims:?}", f.number);
            // start_time_no_data_aware and finish_time_data_aware without data, the other with: every finding
            // compares one of the two.
            let part = vec![vec![vec![f64::NAN; 3], vec![1.0, 2.0, 3.0], vec![f64::NAN; 3]]; f.groups.len()];
            let claims = FigureResult::of(&f, &part).claims();
            assert!(claims.iter().all(|c| c.2 == Verdict::NoData), "Fig. {}: {claims:?}", f.number);
            assert!(claims.iter().all(|c| !c.1.contains("NaN") && c.1.contains("no data")), "{claims:?}");
        }
    }
}
