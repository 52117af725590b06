//! The desktop-grid sweep: `--set` keys as JSON paths, and one CSV row per run (after the axis columns).

use super::report::DgReport;
use crate::stats::csv_number;

/// A sweep key of a desktop-grid scenario as its JSON path.
pub fn path_of(key: &str) -> String {
    match key {
        "availability" | "heterogeneity" | "mix" | "load" | "bot_selection" | "rep_thresh" | "bots"
        | "checkpoint_period" | "weibull_shape" => format!("desktop_grid.{key}"),
        other => other.to_string(),
    }
}

/// The CSV header of a desktop-grid sweep (after the axis columns).
pub const SWEEP_HEADER: &str = "machines,effective_power,occupancy,bot_rate,bots,tasks,finished_bots,saturated,\
                                growth_rate,mean_tt,mean_wt,mean_makespan,rwt,replicas_started,checkpoints_taken,\
                                checkpoints_restored,failures,events,wall_time_s";

/// One CSV row of a desktop-grid sweep.
pub fn sweep_row(r: &DgReport) -> String {
    let (w, m) = (&r.workload, &r.metrics);
    let k = &m.counters;
    let n = csv_number;
    format!(
        "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
        w.machines,
        n(w.effective_power),
        n(w.occupancy),
        n(w.bot_rate),
        m.bots,
        m.tasks,
        m.finished_bots,
        m.saturated,
        n(m.growth_rate),
        n(m.turnaround.mean),
        n(m.waiting.mean),
        n(m.execution_makespan.mean),
        n(m.rwt),
        k.replicas_started,
        k.checkpoints_taken,
        k.checkpoints_restored,
        k.failures,
        k.events,
        n(r.wall_time_s)
    )
}
