//! A desktop-grid figure of [Anglano09] §IV-C as SVG: one group of bars per mix, one bar per BoT selection policy,
//! for one of the four indices (TT, execution makespan, WT, RWT); "unbounded" on a saturated bar whose index grows
//! with the run (TT and WT). The page draws it for the index chosen; `bagsim figure desktop_grid` writes the four
//! one under the other.

use super::{Bar, FigurePreset};
use crate::family::desktop_grid::policy::{BotPolicy, BotSelection};
use crate::stats::bars_svg::{stack, Bars, Cell};

/// An index a figure can show: name, title, value of a bar (mean, 95% low, 95% high), unit factor, unit, and whether a
/// saturated bar's value is unbounded (turnaround and waiting; the execution makespan of the finished BoTs and the
/// RWT stay numbers).
pub type Index = (&'static str, &'static str, fn(&Bar) -> (f64, f64, f64), f64, &'static str, bool);

pub const INDICES: [Index; 4] = [
    ("tt", "Turnaround time (TT)", |b| b.turnaround, 1.0 / 3600.0, "h", true),
    ("ms", "Execution makespan", |b| b.makespan, 1.0 / 3600.0, "h", false),
    ("wt", "Waiting time (WT)", |b| b.waiting, 1.0 / 3600.0, "h", true),
    ("rwt", "Relative wasted time (RWT)", |b| b.rwt, 100.0, "%", false),
];

/// The chart of index `index`: `bars[mix * 5 + policy]`, `None` for a bar not computed yet (a failed bar is drawn
/// as failed, whatever its error).
pub fn chart<E>(f: &FigurePreset, bars: &[Option<Result<Bar, E>>], index: usize) -> Bars {
    let series: Vec<BotPolicy> = BotSelection::ALL.iter().map(|&p| p.into()).collect();
    chart_of(f, &series, bars, index)
}

/// The chart of index `index` for the bars of `series` in each mix: `bars[mix * series.len() + k]`.
fn chart_of<E>(f: &FigurePreset, series: &[BotPolicy], bars: &[Option<Result<Bar, E>>], index: usize) -> Bars {
    let (_, title, pick, scale, unit, can_be_unbounded) = INDICES[index];
    let cell = |b: &Option<Result<Bar, E>>| match b {
        None => Cell::Missing,
        Some(Err(_)) => Cell::Failed,
        Some(Ok(b)) if can_be_unbounded && b.unbounded => Cell::Unbounded,
        Some(Ok(b)) => {
            let (m, low, high) = pick(b);
            let cap = if b.cap_hit { ", seed cap reached" } else { "" };
            let note = format!("{} seeds{cap}", b.seeds);
            Cell::Value { mean: m * scale, low: low * scale, high: high * scale, note }
        }
    };
    let mut cells: Vec<Cell> = bars.iter().map(cell).collect();
    cells.resize(f.mixes.len() * series.len(), Cell::Missing);
    Bars {
        title: format!("Fig. {} — {}", f.number, title),
        unit: unit.to_string(),
        groups: f.mixes.iter().map(|m| m.label().to_string()).collect(),
        series: series.iter().map(|p| p.label().to_string()).collect(),
        cells,
    }
}

/// The four indices one under the other, from a figure's bars in the order of its mixes and policies (the paper's
/// five, then a scripted base's own script when its bars are there).
pub fn figure_svg(f: &FigurePreset, bars: &[Bar]) -> String {
    let mut series: Vec<BotPolicy> = BotSelection::ALL.iter().map(|&p| p.into()).collect();
    if let Some(script) = bars.iter().find(|b| b.policy.script().is_some()) {
        series.push(script.policy.clone());
    }
    let slots: Vec<Option<Result<Bar, std::convert::Infallible>>> = f
        .mixes
        .iter()
        .flat_map(|&m| series.iter().map(move |p| (m, p)))
        .map(|(m, p)| bars.iter().find(|b| b.mix == m && b.policy == *p).cloned().map(Ok))
        .collect();
    stack(&(0..INDICES.len()).map(|i| chart_of(f, &series, &slots, i)).collect::<Vec<_>>())
}
