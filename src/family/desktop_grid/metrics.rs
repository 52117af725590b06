//! The figures of a desktop-grid run ([Anglano09] §IV): per BoT turnaround TT (submission → last completion, = the
//! makespan MS of [Iosup08]), waiting time WT (submission → first dispatch) and execution makespan (first dispatch
//! → last completion, so TT = WT + execution makespan, Eq. 1); RWT; counters; saturation.

use super::sim::{DgCounters, DgSample, DgSimulation};
use crate::stats::{note_empty, note_undefined, Stats, Undefined};
use serde::{Deserialize, Serialize};

/// The metrics of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DgMetrics {
    pub bots: u64,
    pub finished_bots: u64,
    /// BoTs not completed when the run ended (reported, never dropped).
    pub unfinished_bots: u64,
    pub tasks: u64,
    pub finished_tasks: u64,
    pub unfinished_tasks: u64,
    /// Turnaround time TT of finished BoTs, s.
    pub turnaround: Stats,
    /// Waiting time WT of finished BoTs, s.
    pub waiting: Stats,
    /// Execution makespan (first dispatch → last completion) of finished BoTs, s; [Anglano09]'s MS.
    pub execution_makespan: Stats,
    /// Relative wasted time: machine time of useless replicas / machine time of all replicas ([Anglano09] §IV);
    /// undefined when no replica ran.
    #[serde(
        default = "crate::stats::undefined",
        skip_serializing_if = "crate::stats::is_undefined",
        deserialize_with = "crate::stats::number_or_undefined"
    )]
    pub rwt: f64,
    pub counters: DgCounters,
    /// When the run ended, s.
    pub end_time: f64,
    /// True when the BoTs in the system grew without bound (docs/desktop_grid.md, "Saturation"): the figures
    /// then stand for "unbounded".
    pub saturated: bool,
    /// Least-squares slope of the BoTs in the system over the second half of the submission window, BoTs per day.
    pub growth_rate: f64,
    /// That slope over the arrival rate: the fraction of arriving BoTs that stay (docs/desktop_grid.md, "Saturation
    /// of a bar").
    #[serde(
        default = "crate::stats::undefined",
        skip_serializing_if = "crate::stats::is_undefined",
        deserialize_with = "crate::stats::number_or_undefined"
    )]
    pub relative_growth: f64,
    /// Machines up, replicas running, queue length, BoTs in the system over time.
    pub series: Vec<DgSample>,
    /// Why a number is absent from this report, by its path (README, "Undefined numbers"): e.g. `"overall.makespan":
    /// "no BoT finished"`. Absent when every number is defined.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub undefined: crate::stats::Undefined,
}

/// Least-squares slope of (x, y).
fn slope(points: &[(f64, f64)]) -> f64 {
    let n = points.len() as f64;
    if points.len() < 2 {
        return 0.0;
    }
    let mx = points.iter().map(|p| p.0).sum::<f64>() / n;
    let my = points.iter().map(|p| p.1).sum::<f64>() / n;
    let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let sxx: f64 = points.iter().map(|p| (p.0 - mx) * (p.0 - mx)).sum();
    if sxx > 0.0 {
        sxy / sxx
    } else {
        0.0
    }
}

/// (saturated, growth in BoTs/day): the BoTs in the system rose, over the second half of the submission window,
/// by more than max(5, 10% of the BoTs) and more than that many are in the system at the last arrival (a backlog, not
/// a fluctuation of a short run), or BoTs were left unfinished at the horizon.
pub fn saturation(
    series: &[DgSample],
    first_arrival: f64,
    last_arrival: f64,
    bots: u64,
    unfinished: u64,
) -> (bool, f64) {
    let mid = 0.5 * (first_arrival + last_arrival);
    let pts: Vec<(f64, f64)> = series
        .iter()
        .filter(|s| s.time >= mid && s.time <= last_arrival)
        .map(|s| (s.time, f64::from(s.bots_in_system)))
        .collect();
    let k = slope(&pts);
    let rise = k * (last_arrival - mid);
    let threshold = (0.1 * bots as f64).max(5.0);
    let backlog = pts.last().map_or(0.0, |p| p.1);
    (unfinished > 0 || (rise > threshold && backlog > threshold), k * 86_400.0)
}

/// The growth of the BoTs in the system (BoTs per day) over the arrival rate of the submission window: the fraction
/// of arriving BoTs that stay; 0 for fewer than two BoTs or an instant window.
pub fn relative_growth(growth_per_day: f64, first_arrival: f64, last_arrival: f64, bots: u64) -> f64 {
    let window = last_arrival - first_arrival;
    if bots < 2 || window <= 0.0 {
        return 0.0;
    }
    growth_per_day / 86_400.0 / ((bots - 1) as f64 / window)
}

/// The metrics of a finished (or stopped) simulation.
pub fn compute(sim: &DgSimulation) -> DgMetrics {
    let w = sim.workload();
    let (mut tt, mut wt, mut ms) = (Vec::new(), Vec::new(), Vec::new());
    for (b, bot) in w.bots.iter().enumerate() {
        let end = sim.bot_end()[b];
        if end.is_nan() {
            continue;
        }
        let start = sim.bot_start()[b];
        tt.push(end - bot.arrival);
        wt.push(start - bot.arrival);
        ms.push(end - start);
    }
    let c = sim.counters().clone();
    let bots = w.bots.len() as u64;
    let unfinished_bots = bots - c.finished_bots;
    let first = w.bots.first().map_or(0.0, |b| b.arrival);
    let last = w.bots.last().map_or(0.0, |b| b.arrival);
    let (saturated, growth_rate) = saturation(sim.samples(), first, last, bots, unfinished_bots);
    // A run that ended before the last arrival never saw the second half of the submission window: its growth was
    // not measured, and a bar's saturation is not judged on it.
    let relative_growth =
        if sim.end_time() < last { f64::NAN } else { relative_growth(growth_rate, first, last, bots) };
    let (turnaround, waiting, execution_makespan) = (Stats::of(&mut tt), Stats::of(&mut wt), Stats::of(&mut ms));
    let mut undefined = Undefined::new();
    for (name, stats) in
        [("turnaround", &turnaround), ("waiting", &waiting), ("execution_makespan", &execution_makespan)]
    {
        note_empty(&mut undefined, name, stats, "no BoT finished");
    }
    note_undefined(&mut undefined, "relative_growth", relative_growth, "the run ended before the last BoT arrived");
    let rwt = if c.replica_time > 0.0 { c.wasted_time / c.replica_time } else { f64::NAN };
    note_undefined(&mut undefined, "rwt", rwt, "no replica ran");
    DgMetrics {
        bots,
        finished_bots: c.finished_bots,
        unfinished_bots,
        tasks: w.runtimes.len() as u64,
        finished_tasks: c.finished_tasks,
        unfinished_tasks: w.runtimes.len() as u64 - c.finished_tasks,
        turnaround,
        waiting,
        execution_makespan,
        rwt,
        end_time: sim.end_time(),
        counters: c,
        saturated,
        growth_rate,
        relative_growth,
        series: sim.samples().to_vec(),
        undefined,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(time: f64, bots: u32) -> DgSample {
        DgSample { time, machines_up: 1, replicas_running: 0, queued_tasks: 0, bots_in_system: bots, finished_tasks: 0 }
    }

    #[test]
    fn a_growing_queue_is_saturated_a_flat_one_is_not() {
        let grow: Vec<DgSample> = (0..100).map(|i| s(f64::from(i) * 100.0, i)).collect();
        assert!(saturation(&grow, 0.0, 9_900.0, 100, 0).0);
        let flat: Vec<DgSample> = (0..100).map(|i| s(f64::from(i) * 100.0, 3 + (i % 2))).collect();
        let (sat, g) = saturation(&flat, 0.0, 9_900.0, 100, 0);
        assert!(!sat && g.abs() < 10.0, "{g}");
        assert!(saturation(&flat, 0.0, 9_900.0, 100, 1).0);
        // A rise that ends with no backlog (a short run's fluctuation) is not saturation.
        let blip: Vec<DgSample> =
            (0..100u32).map(|i| s(f64::from(i) * 100.0, if i >= 98 { 2 } else { i.saturating_sub(50) / 4 })).collect();
        let (sat, g) = saturation(&blip, 0.0, 9_900.0, 30, 0);
        assert!(!sat && g > 50.0, "the rise is steep ({g} BoTs/day) but ends with 2 BoTs in the system");
    }
}
