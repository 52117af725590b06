//! The experiments of [Anglano09] §IV-C as presets: Figs. 2–17, each a configuration (availability,
//! heterogeneity), a mix group (single or multiple class) and a load, run for the five BoT selection policies; and
//! the paper's confidence rule: seeds are added until every 95% interval is within 2.5% of its mean (§IV-C). The
//! folder holds the rest of the paper figures: the findings checked (`claims.rs`) and as measured (`measured.rs`),
//! a figure under every combination of readings (`study.rs`), its bars as SVG (`svg.rs`) and the command (`cmd.rs`).

pub mod claims;
/// The figures as a command: native only (its runs go to a thread pool).
#[cfg(not(target_arch = "wasm32"))]
pub mod cmd;
pub mod measured;
pub mod study;
pub mod svg;

use super::availability::AvailabilityLevel;
use super::config::Heterogeneity;
use super::config::{DgConfig, DgScenario};
use super::policy::{BotPolicy, BotSelection};
use super::report::DgReport;
use super::workload::Mix;
use crate::error::ScenarioError;
use crate::family::contract::PointError;
use crate::stats::Interval;
use serde::{Deserialize, Serialize};

/// Low and high intensity of §IV-B (L_low = 0.5, L_hi = 0.95; Figs. 2–17 use these two).
pub const LOADS: [f64; 3] = [0.5, 0.75, 0.95];

/// One figure of §IV-C.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FigurePreset {
    pub number: u32,
    pub availability: AvailabilityLevel,
    pub heterogeneity: Heterogeneity,
    pub mixes: [Mix; 4],
    pub load: f64,
    pub title: String,
}

const SINGLE: [Mix; 4] = [Mix::AllVs, Mix::AllS, Mix::AllM, Mix::AllL];
const MULTI: [Mix; 4] = [Mix::Uniform, Mix::Short, Mix::Med, Mix::Long];

/// Figs. 2–17 (Fig. 16, whose caption is not in the text we have, is taken as Medium-Avail/Homogeneous,
/// Multi-Class/High-Intensity: the one combination of the series left).
pub fn figures() -> Vec<FigurePreset> {
    use AvailabilityLevel::*;
    use Heterogeneity::*;
    let rows = [
        (High, Homogeneous, SINGLE, 0.5),
        (High, Heterogeneous, SINGLE, 0.5),
        (High, Homogeneous, SINGLE, 0.95),
        (High, Heterogeneous, SINGLE, 0.95),
        (Low, Homogeneous, SINGLE, 0.5),
        (Low, Heterogeneous, SINGLE, 0.5),
        (Low, Homogeneous, SINGLE, 0.95),
        (Low, Heterogeneous, SINGLE, 0.95),
        (High, Homogeneous, MULTI, 0.5),
        (High, Heterogeneous, MULTI, 0.5),
        (High, Homogeneous, MULTI, 0.95),
        (High, Heterogeneous, MULTI, 0.95),
        (Medium, Homogeneous, MULTI, 0.5),
        (Medium, Heterogeneous, MULTI, 0.5),
        (Medium, Homogeneous, MULTI, 0.95),
        (Medium, Heterogeneous, MULTI, 0.95),
    ];
    rows.iter()
        .enumerate()
        .map(|(i, &(a, h, mixes, load))| FigurePreset {
            number: i as u32 + 2,
            availability: a,
            heterogeneity: h,
            mixes,
            load,
            title: format!(
                "{}-Avail/{} configuration, {}/{}-Intensity workloads",
                match a {
                    High => "High",
                    Medium => "Medium",
                    _ => "Low",
                },
                if h == Homogeneous { "Homogeneous" } else { "Heterogeneous" },
                if mixes == SINGLE { "Single-Class" } else { "Multi-Class" },
                if load < 0.7 { "Low" } else { "High" }
            ),
        })
        .collect()
}

impl FigurePreset {
    /// The scenario of one bar: a mix and a policy, on `base`'s other settings.
    pub fn scenario(&self, base: &DgConfig, mix: Mix, policy: &BotPolicy, seed: u64) -> DgScenario {
        let cfg = DgConfig {
            availability: self.availability,
            heterogeneity: self.heterogeneity,
            mix,
            load: self.load,
            bot_selection: policy.clone(),
            ..base.clone()
        };
        DgScenario::new(seed, cfg)
    }
}

/// Whether a bar's BoTs in the system grow without bound, by the interval of its seeds' relative growth
/// (docs/desktop_grid.md, "Saturation of a bar").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Saturation {
    Bounded,
    Unbounded,
    /// The interval straddles the threshold.
    NotResolved,
}

impl Saturation {
    /// The threshold of the relative growth: more than one arriving BoT in ten stays.
    pub const THRESHOLD: f64 = 0.1;

    /// The verdict of an interval of the relative growth over the seeds.
    pub fn of(growth: &Interval) -> Saturation {
        if !growth.has_bounds() {
            Saturation::NotResolved
        } else if growth.low > Self::THRESHOLD {
            Saturation::Unbounded
        } else if growth.high < Self::THRESHOLD {
            Saturation::Bounded
        } else {
            Saturation::NotResolved
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Saturation::Bounded => "bounded",
            Saturation::Unbounded => "unbounded",
            Saturation::NotResolved => "not resolved",
        }
    }
}

/// The four indices of the figures over the seeds of one bar.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Bar {
    pub mix: Mix,
    /// One of the paper's five, or a scripted base's own script (`bots_of`).
    pub policy: BotPolicy,
    pub seeds: usize,
    /// Seeds whose run was saturated by the single-run rule (shown next to the bar).
    pub saturated_seeds: usize,
    /// The bar's saturation verdict over its seeds; `unbounded` is `saturation == Unbounded`.
    pub saturation: Saturation,
    pub unbounded: bool,
    /// (mean, 95% low, 95% high) of the relative growth of the BoTs in the system (a signed quantity: t interval).
    #[serde(deserialize_with = "crate::stats::bounds_or_undefined")]
    pub growth: (f64, f64, f64),
    /// The seed cap was reached before every interval was within the relative error.
    pub cap_hit: bool,
    /// (mean, 95% low, 95% high) of the mean TT, execution makespan, WT (s) and RWT (nonnegative: stats::interval).
    #[serde(deserialize_with = "crate::stats::bounds_or_undefined")]
    pub turnaround: (f64, f64, f64),
    #[serde(deserialize_with = "crate::stats::bounds_or_undefined")]
    pub makespan: (f64, f64, f64),
    #[serde(deserialize_with = "crate::stats::bounds_or_undefined")]
    pub waiting: (f64, f64, f64),
    #[serde(deserialize_with = "crate::stats::bounds_or_undefined")]
    pub rwt: (f64, f64, f64),
}

/// The confidence rule: 95% intervals within `rel` of the mean (both bounds: an asymmetric interval's farther
/// bound), with `min_seeds` to `max_seeds` seeds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CiRule {
    pub min_seeds: usize,
    pub max_seeds: usize,
    pub rel: f64,
}

impl Default for CiRule {
    /// [Anglano09] §IV-C: relative error 2.5%; at least 3 and at most 30 seeds.
    fn default() -> Self {
        CiRule { min_seeds: 3, max_seeds: 30, rel: 0.025 }
    }
}

/// Whether an interval satisfies the rule (each bound within `rel` × |mean| of the mean; a zero mean with zero
/// width does).
fn precise(i: &Interval, rel: f64) -> bool {
    i.has_bounds() && i.reach() <= rel * i.mean.abs()
}

/// Runs seeds 1, 2, … of one bar (at least `min_seeds`, at most `max_seeds`) until its saturation is resolved and,
/// for a bounded bar, the 95% intervals of TT, makespan, WT and RWT are within `rel` of their means.
pub fn run_bar(
    preset: &FigurePreset,
    base: &DgConfig,
    mix: Mix,
    policy: &BotPolicy,
    rule: CiRule,
    run: &dyn Fn(&DgScenario) -> Result<DgReport, ScenarioError>,
) -> Result<Bar, ScenarioError> {
    let (mut tt, mut ms, mut wt, mut rwt, mut g) = (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut saturated = 0;
    let mut seed = 0u64;
    let CiRule { min_seeds, max_seeds, rel } = rule;
    let min = min_seeds.max(2);
    loop {
        seed += 1;
        let r = run(&preset.scenario(base, mix, policy, seed))?;
        let m = &r.metrics;
        saturated += usize::from(m.saturated);
        tt.push(m.turnaround.mean);
        ms.push(m.execution_makespan.mean);
        wt.push(m.waiting.mean);
        rwt.push(m.rwt);
        g.push(m.relative_growth);
        let n = tt.len();
        let ints = [Interval::of(&tt), Interval::of(&ms), Interval::of(&wt), Interval::of(&rwt)];
        // The growth is a slope and may be negative (a queue that drains): the plain t interval, a one-sample t
        // test of the mean growth against the threshold (docs/desktop_grid.md, "Saturation of a bar").
        let growth = Interval::of_signed(&g);
        let saturation = Saturation::of(&growth);
        let done = n >= min
            && match saturation {
                Saturation::Unbounded => true,
                Saturation::Bounded => ints.iter().all(|i| precise(i, rel)),
                Saturation::NotResolved => false,
            };
        if done || n >= max_seeds.max(min) {
            let p = |i: &Interval| (i.mean, i.low, i.high);
            return Ok(Bar {
                mix,
                policy: policy.clone(),
                seeds: n,
                saturated_seeds: saturated,
                saturation,
                unbounded: saturation == Saturation::Unbounded,
                growth: p(&growth),
                cap_hit: !done,
                turnaround: p(&ints[0]),
                makespan: p(&ints[1]),
                waiting: p(&ints[2]),
                rwt: p(&ints[3]),
            });
        }
    }
}

/// The policies of a figure's bars in each mix, from `base`: the paper's five (§IV-B), then the base's own script
/// when it scripts the BoT selection (docs/policies.md). The findings are the paper's and judge its five alone.
pub fn series(base: &DgConfig) -> Vec<BotPolicy> {
    let mut all: Vec<BotPolicy> = BotSelection::ALL.iter().map(|&p| p.into()).collect();
    if base.bot_selection.script().is_some() {
        all.push(base.bot_selection.clone());
    }
    all
}

/// One bar of a figure as a job a worker runs whole (`bagsim dg-figure` and the page's figure pool).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BarJob {
    /// The figure's number (2–17).
    pub figure: u32,
    pub mix: Mix,
    pub policy: BotPolicy,
    /// The settings the figure does not fix.
    pub base: DgConfig,
    pub rule: CiRule,
}

impl BarJob {
    /// Runs the bar with `run_bar`, each seed's run timed by `clock` (seconds).
    pub fn run(&self, clock: &dyn Fn() -> f64) -> Result<Bar, PointError> {
        let f = figures().into_iter().find(|f| f.number == self.figure).ok_or_else(|| {
            PointError::Job(format!("Fig. {}: no such figure; Anglano & Canonico 2009 has Figs. 2–17", self.figure))
        })?;
        let runner = |s: &DgScenario| super::run::run_with_clock(s, clock);
        Ok(run_bar(&f, &self.base, self.mix, &self.policy, self.rule, &runner)?)
    }
}

/// A figure's bars as CSV (one row per mix and policy).
pub fn bars_csv(bars: &[Bar]) -> String {
    let n = crate::stats::csv_number;
    let mut s = String::from(
        "mix,policy,seeds,saturated_seeds,saturation,growth_mean,growth_low,growth_high,unbounded,cap_hit,tt_mean,\
         tt_low,tt_high,makespan_mean,makespan_low,makespan_high,wt_mean,wt_low,wt_high,rwt_mean,rwt_low,rwt_high\n",
    );
    for b in bars {
        s.push_str(&format!(
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
            b.mix.label(),
            b.policy.label(),
            b.seeds,
            b.saturated_seeds,
            b.saturation.label(),
            n(b.growth.0),
            n(b.growth.1),
            n(b.growth.2),
            b.unbounded,
            b.cap_hit,
            n(b.turnaround.0),
            n(b.turnaround.1),
            n(b.turnaround.2),
            n(b.makespan.0),
            n(b.makespan.1),
            n(b.makespan.2),
            n(b.waiting.0),
            n(b.waiting.1),
            n(b.waiting.2),
            n(b.rwt.0),
            n(b.rwt.1),
            n(b.rwt.2)
        ));
    }
    s
}
