//! The experiments of [Iosup08] §5 (Figures 3–11) as presets: each figure's setup as the paper states it (the
//! decisions where it is silent are in docs/model.md), the runs it needs (several seeds per point), their
//! results with 95% confidence intervals, the figure as SVG and the paper's findings set against ours.

pub mod base;
pub mod claims;
/// The figures as a command: native only (its runs go to a thread pool).
#[cfg(not(target_arch = "wasm32"))]
pub mod cmd;
mod from_csv;
pub mod measured;
mod point;
pub mod study;

pub mod svg;

use super::config::McScenario;
use crate::family::multi_cluster::architecture::Architecture;
use crate::family::multi_cluster::policy::scheduling::SchedulingPolicy;
use crate::family::multi_cluster::policy::selection::SelectionPolicy;
use crate::stats::Interval;
use crate::workload::generate::{mean_task_runtime, ArrivalPattern};
use crate::workload::size_class::SIZE_CLASSES;
pub use base::{base_name, base_of_period, Base, MONTH, PAGE_PERIODS, QUICK_PERIOD};
pub use point::{run_point, RunResult};
use serde::{Deserialize, Serialize};

/// The loads of the study's load sweeps. [Iosup08] §5 says "7 system loads" between 20% and 95% and names 50%,
/// 60% and 95% in the text; the other four are spread evenly between them (a decision, docs/model.md).
pub const STUDY_LOADS: [f64; 7] = [0.20, 0.35, 0.50, 0.60, 0.70, 0.80, 0.95];

/// Seeds per point unless asked otherwise (why five: docs/model.md, "Seeds and confidence intervals").
pub const DEFAULT_SEEDS: u32 = 5;

/// The series of the base scenario's own scripted policy (docs/policies.md), drawn after the paper's series when
/// the base scripts the kind of policy a figure compares (`bagsim figure multi_cluster --base`). The findings are
/// judged on the paper's series alone.
pub const SCRIPT_SERIES: &str = "script";

/// A figure of [Iosup08] §5.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FigureId {
    Fig3,
    Fig4,
    Fig5,
    Fig6,
    Fig7,
    Fig8,
    Fig9,
    Fig10,
    Fig11,
}

impl FigureId {
    pub const ALL: [FigureId; 9] = [
        FigureId::Fig3,
        FigureId::Fig4,
        FigureId::Fig5,
        FigureId::Fig6,
        FigureId::Fig7,
        FigureId::Fig8,
        FigureId::Fig9,
        FigureId::Fig10,
        FigureId::Fig11,
    ];

    pub fn name(self) -> &'static str {
        match self {
            FigureId::Fig3 => "fig3",
            FigureId::Fig4 => "fig4",
            FigureId::Fig5 => "fig5",
            FigureId::Fig6 => "fig6",
            FigureId::Fig7 => "fig7",
            FigureId::Fig8 => "fig8",
            FigureId::Fig9 => "fig9",
            FigureId::Fig10 => "fig10",
            FigureId::Fig11 => "fig11",
        }
    }

    /// The figure's definition.
    pub fn figure(self) -> Figure {
        figure(self)
    }

    /// The figure as it is run from `base`: the paper's series, then the base's own script ([`SCRIPT_SERIES`])
    /// where the figure compares the kind of policy the base scripts (task scheduling; task selection in Figs. 9
    /// and 10; none in Fig. 11, which compares architectures).
    pub fn figure_on(self, base: &McScenario) -> Figure {
        let mut f = figure(self);
        let scripted = match self {
            FigureId::Fig9 | FigureId::Fig10 => base.selection.script().is_some(),
            FigureId::Fig11 => false,
            _ => base.scheduling.script().is_some(),
        };
        if scripted {
            f.series.push(SCRIPT_SERIES);
        }
        f
    }
}

impl std::str::FromStr for FigureId {
    type Err = crate::family::contract::FigureError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        // One figure, read as every family reads its figures (`figure_numbers`), with the same refusal.
        let numbers: Vec<u32> = (3..=11).collect();
        let n = match crate::family::contract::figure_numbers(s, &numbers, "")?[..] {
            [n] => n,
            _ => return Err(format!("figure {s:?}: one figure is asked for here, not all").into()),
        };
        Ok(FigureId::ALL[(n - 3) as usize])
    }
}

/// What the runs of a figure vary besides the series.
#[derive(Clone, Debug, PartialEq)]
pub enum Axis {
    Load,
    ArrivalPattern,
    MedianSize,
    MeanRuntime,
    Inaccuracy,
    /// One setting; the figure is drawn per BoT size class.
    SizeClass,
}

/// A figure: its series, its x values, and what the paper says about it.
#[derive(Clone, Debug)]
pub struct Figure {
    pub id: FigureId,
    pub title: &'static str,
    /// Which section and Table 5 row of [Iosup08] it belongs to.
    pub section: &'static str,
    pub axis: Axis,
    pub x_label: &'static str,
    /// The run settings along the x axis (one for per-size-class figures).
    pub xs: Vec<f64>,
    /// Their labels (for per-size-class figures: the size classes).
    pub x_names: Vec<String>,
    pub series_label: &'static str,
    pub series: Vec<&'static str>,
    /// The setup as the paper states it.
    pub paper_setup: &'static str,
    /// Our setup, where it adds to or reads the paper's.
    pub our_setup: &'static str,
    /// What the paper reports, in short quotations.
    pub paper_says: &'static [&'static str],
}

fn figure(id: FigureId) -> Figure {
    let loads = STUDY_LOADS.to_vec();
    let load_names = loads.iter().map(|l| format!("{:.0}%", l * 100.0)).collect();
    let classes: Vec<String> = SIZE_CLASSES.iter().map(|c| c.0.to_string()).collect();
    // The eight scheduling policies of [Iosup08] §2.4 as §5's figures show them (WQR4x as policy_options.wqr_nx reads
    // it).
    let sched = SchedulingPolicy::ALL.iter().map(SchedulingPolicy::name).collect::<Vec<_>>();
    let base = Figure {
        id,
        title: "",
        section: "",
        axis: Axis::Load,
        x_label: "system load",
        xs: loads,
        x_names: load_names,
        series_label: "scheduling policy",
        series: sched,
        paper_setup: "",
        our_setup: "",
        paper_says: &[],
    };
    match id {
        FigureId::Fig3 => Figure {
            title: "Scheduling policies per BoT size class, csp/S-T, load 25%",
            section: "§5.1, Table 5 row 1",
            axis: Axis::SizeClass,
            x_label: "BoT size class",
            xs: vec![0.25],
            x_names: classes,
            paper_setup: "csp, S-T, all scheduling policies, real traces (one month of each grid) at a load of about \
                          25%, no inaccuracy.",
            our_setup: "The real traces are not available here: the realistic Avg model at 25% stands in for them \
                        (per-cluster streams; a month, or the page's one day).",
            paper_says: &[
                "even with this low load, under csp/S-T the BoTs of sizes 5-9 and 10-19 have a higher than average NSL",
                "the average MS increases monotonically with the BoT size",
            ],
            ..base
        },
        FigureId::Fig4 => Figure {
            title: "Scheduling policies against the load, csp/S-T",
            section: "§5.1, Table 5 row 1",
            paper_setup: "csp, S-T, all scheduling policies, realistic Avg workloads, load 20–95%, no inaccuracy.",
            our_setup: "Seven loads (20, 35, 50, 60, 70, 80, 95%); WQR4x is WQR with four replicas \
                        (policy_options.wqr_nx).",
            paper_says: &[
                "FPLT has the lowest overall MS, and ECT has the second lowest overall NSL",
                "STFR has the best overall NSL",
                "FPF has the lowest overall MS, but poor NSL",
                "The WQR4x has poor MS and NSL, especially at high load",
                "FPLT outperforms DFPLT … and ECT outperforms ECT-P",
            ],
            ..base
        },
        FigureId::Fig5 => Figure {
            title: "BoT arrival patterns, csp/S-T, load 60%",
            section: "§5.2, Table 5 row 2",
            axis: Axis::ArrivalPattern,
            x_label: "arrival pattern",
            xs: vec![0.0, 1.0, 2.0],
            x_names: vec!["Realistic".into(), "All at T=0".into(), "Evenly Spread".into()],
            paper_setup: "csp, S-T, all scheduling policies, synthetic workloads from the model at a load of 60%: \
                          Realistic (daily cycle), all BoTs at T=0, equal inter-arrival times.",
            our_setup: "The same BoTs in all three patterns (only the arrival times differ).",
            paper_says: &[
                "the extreme of burstiness (\"All at T=0\") leads to much higher average MS and NSL values",
                "The Evenly Spread case is more favorable than the Realistic case for four of the scheduling policies \
                 by about 10%",
            ],
            ..base
        },
        FigureId::Fig6 => Figure {
            title: "Median BoT size, csp/S-T, load 60%",
            section: "§5.2, Table 5 row 2",
            axis: Axis::MedianSize,
            x_label: "median BoT size",
            xs: vec![10.0, 20.0, 30.0, 40.0, 50.0],
            x_names: vec!["10".into(), "20".into(), "30".into(), "40".into(), "50".into()],
            paper_setup: "csp, S-T, all scheduling policies, load 60%, BoT size rescaled to medians between 10 and 50 \
                          keeping its coefficient of variation.",
            our_setup: "Medians 10, 20, 30, 40, 50.",
            paper_says: &[
                "the MS increases with the increase of the median of the BoT size",
                "Relative to a BoT median size of 10, the MS increase ranges from 37% for ECT to over 80% for WQR4x",
            ],
            ..base
        },
        FigureId::Fig7 => Figure {
            title: "Mean task runtime, csp/S-T, load 60%",
            section: "§5.2, Table 5 row 2",
            axis: Axis::MeanRuntime,
            x_label: "mean task runtime",
            xs: vec![180.0, 600.0, 1800.0, 3600.0, 10_800.0],
            x_names: vec!["3 min".into(), "10 min".into(), "30 min".into(), "1 h".into(), "3 h".into()],
            paper_setup: "csp, S-T, all scheduling policies, load 60%, task runtimes rescaled to means between 3 \
                          minutes and 3 hours; every workload has 20 000–175 000 tasks (§4.2).",
            our_setup: "Means 3 min, 10 min, 30 min, 1 h, 3 h. Shorter tasks than the default's mean (about 29 min) \
                        would make a month of more tasks than the default, so for them the submission period is \
                        shortened in proportion to the mean runtime: no workload holds more tasks than the default \
                        month at 60%.",
            paper_says: &["the NSL tends to decrease with the increase of task runtime"],
            ..base
        },
        FigureId::Fig8 => Figure {
            title: "Runtime inaccuracy, csp/S-T, load 60%",
            section: "§5.3, Table 5 row 3",
            axis: Axis::Inaccuracy,
            x_label: "maximum inaccuracy I",
            xs: vec![0.0, 10.0, 100.0, 1000.0, 10_000.0],
            x_names: vec!["0%".into(), "10%".into(), "100%".into(), "1000%".into(), "10000%".into()],
            paper_setup: "csp, S-T, all scheduling policies, realistic workloads, estimates max(R + (E/100)·R, 1) with \
                          E ~ U[−I, I], I from 0% to 10 000%.",
            our_setup: "One load, 60% (the paper names no load for this figure); I = 0, 10, 100, 1 000, 10 000%.",
            paper_says: &[
                "under null overall inaccuracy the MS and NSL vary little with the increase of inaccuracy",
                "Only for ECT we observe an increase of the NSL",
            ],
            ..base
        },
        FigureId::Fig9 => Figure {
            title: "Task-selection policies against the load, csp/FPLT",
            section: "§5.4, Table 5 row 4",
            series_label: "selection policy",
            series: SelectionPolicy::ALL.map(|p| p.name()).to_vec(),
            paper_setup: "csp, FPLT, all seven task-selection policies, realistic workloads, load 20–95%.",
            our_setup: "Seven loads (20, 35, 50, 60, 70, 80, 95%).",
            paper_says: &[
                "for loads up to 50%, the performance of the system is almost identical for the seven task-selection \
                 policies",
                "For loads of 60% and higher, the average NSL (MS) for S-BoT is up to 16 (2) times lower than the \
                 average NSL (MS) of the other policies",
                "From the four policies [S-U-T, S-U-BoT, S-U-GRR, S-U-RR], S-U-T performs the best",
            ],
            ..base
        },
        FigureId::Fig10 => Figure {
            title: "Task-selection policies per BoT size class, csp/FPLT, load 95%",
            section: "§5.4, Table 5 row 4",
            axis: Axis::SizeClass,
            x_label: "BoT size class",
            xs: vec![0.95],
            x_names: classes,
            series_label: "selection policy",
            series: SelectionPolicy::ALL.map(|p| p.name()).to_vec(),
            paper_setup: "csp, FPLT, all seven task-selection policies, realistic load of 95%, NSL per BoT size class.",
            our_setup: "As stated.",
            paper_says: &[
                "S-BoT … greatly favors the small BoTs that are common in the workloads … This is confirmed by the set \
                 of columns corresponding to 95% load in Figure 10",
            ],
            ..base
        },
        FigureId::Fig11 => Figure {
            title: "Resource-management architectures against the load, S-T/FPLT",
            section: "§5.5, Table 5 row 5",
            series_label: "architecture",
            series: vec!["csp", "sep-c", "fcondor"],
            paper_setup: "csp, sep-c and fcondor, S-T, FPLT, realistic workloads, load 20–95%; each cluster receives \
                          its own stream.",
            our_setup: "Seven loads (20, 35, 50, 60, 70, 80, 95%); the run ends 30 days after the last arrival.",
            paper_says: &[
                "The centralized policy csp achieves the best performance. Conversely, the independent clusters \
                 policy sep-c achieves the worst performance",
                "for the 95% load they [fcondor and sep-c] complete only 44% and 53% of the tasks, respectively",
            ],
            ..base
        },
    }
}

/// One simulation a figure needs.
#[derive(Clone, Debug)]
pub struct RunSpec {
    pub series: usize,
    /// Index into `Figure::xs`.
    pub point: usize,
    pub seed: u64,
    pub scenario: McScenario,
}

impl Figure {
    /// How many of the series are the paper's (all but the base's own script, if it is drawn).
    pub fn paper_series(&self) -> usize {
        self.series.len() - usize::from(self.series.last() == Some(&SCRIPT_SERIES))
    }

    /// Every run of the figure with `seeds` seeds per point (seeds 1..=seeds), series-major.
    pub fn runs(&self, seeds: u32) -> Vec<RunSpec> {
        self.runs_on(&McScenario::default(), 1..=seeds)
    }

    /// The runs of seeds `seeds` per point, each starting from `base` (the defaults under some readings).
    pub fn runs_on(&self, base: &McScenario, seeds: std::ops::RangeInclusive<u32>) -> Vec<RunSpec> {
        let mut out = Vec::new();
        for series in 0..self.series.len() {
            for point in 0..self.xs.len() {
                for seed in seeds.clone().map(u64::from) {
                    out.push(RunSpec { series, point, seed, scenario: self.scenario_on(base, series, point, seed) });
                }
            }
        }
        out
    }

    /// The scenario of one run.
    pub fn scenario(&self, series: usize, point: usize, seed: u64) -> McScenario {
        self.scenario_on(&McScenario::default(), series, point, seed)
    }

    /// The scenario of one run, from `base`: the figure sets its series, its load and its axis on it.
    pub fn scenario_on(&self, base: &McScenario, series: usize, point: usize, seed: u64) -> McScenario {
        let mut s = McScenario { seed, ..base.clone() };
        let x = self.xs[point];
        let name = self.series[series];
        // The script series keeps the base's own policy.
        match self.id {
            _ if name == SCRIPT_SERIES => {}
            FigureId::Fig9 | FigureId::Fig10 => {
                s.selection = name.parse::<SelectionPolicy>().expect("listed selection policy")
            }
            FigureId::Fig11 => s.architecture.kind = name.parse::<Architecture>().expect("listed architecture"),
            _ => s.scheduling = name.parse::<SchedulingPolicy>().expect("listed scheduling policy"),
        }
        s.workload.load = Some(match self.axis {
            Axis::Load | Axis::SizeClass => x,
            _ => 0.6,
        });
        match self.axis {
            Axis::ArrivalPattern => {
                s.workload.arrival_pattern =
                    [ArrivalPattern::Realistic, ArrivalPattern::AllAtZero, ArrivalPattern::EvenlySpread][point]
            }
            Axis::MedianSize => s.workload.median_size = Some(x),
            Axis::MeanRuntime => {
                s.workload.mean_runtime = Some(x);
                let default_mean = mean_task_runtime(&s.workload.bot_model().art, s.workload.calibration);
                let month = base.workload.submission_period;
                s.workload.submission_period = (month * x / default_mean).clamp(3600.0_f64.min(month), month);
            }
            Axis::Inaccuracy => s.inaccuracy = x,
            Axis::Load | Axis::SizeClass => {}
        }
        s
    }
}

/// A metric of a figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    Makespan,
    Nsl,
    Finished,
}

impl Metric {
    pub const ALL: [Metric; 3] = [Metric::Makespan, Metric::Nsl, Metric::Finished];
    pub fn name(self) -> &'static str {
        match self {
            Metric::Makespan => "makespan_s",
            Metric::Nsl => "nsl",
            Metric::Finished => "finished_fraction",
        }
    }
    pub fn title(self) -> &'static str {
        match self {
            Metric::Makespan => "Average MS [s]",
            Metric::Nsl => "Average NSL",
            Metric::Finished => "Finished tasks",
        }
    }

    /// The 95% interval over seeds that fits the metric (stats::interval): the finished fraction is a share of 1,
    /// the makespan and the NSL are positive.
    pub fn interval(self, values: &[f64]) -> Interval {
        match self {
            Metric::Finished => Interval::of_share(values, 1.0),
            Metric::Makespan | Metric::Nsl => Interval::of(values),
        }
    }
}

/// The results of a figure's runs: per series and x, one value per seed, in seed order.
#[derive(Clone, Debug)]
pub struct FigureResult {
    pub figure: Figure,
    pub seeds: u32,
    /// [series][x] → per-seed run results (None until the run is in).
    runs: Vec<Vec<Vec<Option<RunResult>>>>,
    /// Runs that failed, with their message.
    pub failures: Vec<String>,
    /// The name of the base its runs start from (`base::base_name`), printed with its verdicts; empty when unnamed.
    pub base: String,
}

impl FigureResult {
    pub fn new(figure: Figure, seeds: u32) -> Self {
        let runs = vec![vec![vec![None; seeds as usize]; figure.xs.len()]; figure.series.len()];
        FigureResult { figure, seeds, runs, failures: Vec::new(), base: String::new() }
    }

    /// The same, its verdicts named as those of `base` (the scenario every run starts from).
    pub fn on_base(mut self, base: &McScenario) -> Self {
        self.base = base_name(base);
        self
    }

    /// The results of the paper's series alone (without the base's own script): what the findings are judged on.
    pub fn paper_only(&self) -> FigureResult {
        let n = self.figure.paper_series();
        let mut r = self.clone();
        r.figure.series.truncate(n);
        r.runs.truncate(n);
        let script = format!("{SCRIPT_SERIES} seed ");
        r.failures.retain(|f| !f.starts_with(&script));
        r
    }

    /// Makes room for `seeds` seeds per point, keeping the results in.
    pub fn grow(&mut self, seeds: u32) {
        for per_seed in self.runs.iter_mut().flatten() {
            per_seed.resize(seeds as usize, None);
        }
        self.seeds = seeds;
    }

    /// Records one run's result.
    pub fn add(&mut self, spec: &RunSpec, result: RunResult) {
        self.runs[spec.series][spec.point][(spec.seed - 1) as usize] = Some(result);
    }

    pub fn done(&self) -> usize {
        self.runs.iter().flatten().flatten().filter(|r| r.is_some()).count()
    }

    pub fn total(&self) -> usize {
        self.figure.series.len() * self.figure.xs.len() * self.seeds as usize
    }

    /// The x positions of the figure: the size classes for per-class figures, else the run settings.
    pub fn x_count(&self) -> usize {
        self.figure.x_names.len()
    }

    /// Per-seed values of a metric at (series, x).
    pub fn values(&self, series: usize, x: usize, metric: Metric) -> Vec<f64> {
        let (point, class) = if self.figure.axis == Axis::SizeClass { (0, Some(x)) } else { (x, None) };
        self.runs[series][point]
            .iter()
            .map(|r| match (r, class, metric) {
                (None, _, _) => f64::NAN,
                (Some(r), None, Metric::Makespan) => r.makespan,
                (Some(r), None, Metric::Nsl) => r.nsl,
                (Some(r), Some(c), Metric::Makespan) => r.class_makespan[c],
                (Some(r), Some(c), Metric::Nsl) => r.class_nsl[c],
                (Some(r), _, Metric::Finished) => r.finished_fraction,
            })
            .collect()
    }

    /// Per seed, the run's overall mean NSL at the first point (a per-class figure's "average").
    pub fn overall_values(&self, series: usize) -> Vec<f64> {
        self.runs[series][0].iter().map(|r| r.as_ref().map_or(f64::NAN, |r| r.nsl)).collect()
    }

    pub fn interval(&self, series: usize, x: usize, metric: Metric) -> Interval {
        metric.interval(&self.values(series, x, metric))
    }

    /// Per seed, the mean of a metric over the x positions `xs` (the "overall" value of a series in a sweep);
    /// NaN for a seed that misses one.
    pub fn overall(&self, series: usize, xs: &[usize], metric: Metric) -> Interval {
        let per_x: Vec<Vec<f64>> = xs.iter().map(|&x| self.values(series, x, metric)).collect();
        let per_seed: Vec<f64> = (0..self.seeds as usize)
            .map(|k| per_x.iter().map(|v| v[k]).sum::<f64>() / xs.len().max(1) as f64)
            .collect();
        metric.interval(&per_seed)
    }

    /// The figure's numbers as CSV: one line per series, x and metric, with the mean, the 95% interval and each
    /// seed's value.
    pub fn to_csv(&self) -> String {
        let mut out = String::from("figure,series,x,x_value,metric,n,mean,ci95_low,ci95_high");
        for k in 1..=self.seeds {
            out.push_str(&format!(",seed{k}"));
        }
        out.push('\n');
        let metrics: &[Metric] =
            if self.figure.axis == Axis::SizeClass { &[Metric::Makespan, Metric::Nsl] } else { &Metric::ALL };
        for s in 0..self.figure.series.len() {
            for x in 0..self.x_count() {
                for &m in metrics {
                    let v = self.values(s, x, m);
                    let i = m.interval(&v);
                    let x_value =
                        if self.figure.axis == Axis::SizeClass { self.figure.xs[0] } else { self.figure.xs[x] };
                    out.push_str(&format!(
                        "{},{},{},{},{},{},{},{},{}",
                        self.figure.id.name(),
                        self.figure.series[s],
                        self.figure.x_names[x],
                        x_value,
                        m.name(),
                        i.n,
                        num(i.mean),
                        num(i.low),
                        num(i.high)
                    ));
                    for x in v {
                        out.push(',');
                        out.push_str(&num(x));
                    }
                    out.push('\n');
                }
            }
        }
        out
    }
}

/// A number for CSV: shortest round-trip form, empty for NaN.
fn num(x: f64) -> String {
    if x.is_finite() {
        format!("{x}")
    } else {
        String::new()
    }
}
