//! The data-grid sweep: `--set` keys as JSON paths, and one CSV row per run (after the axis columns).

use super::run::DdReport;
use crate::stats::csv_number;

/// A sweep key of a data-grid scenario as its JSON path.
pub fn path_of(key: &str) -> String {
    match key {
        "sites" | "bandwidth_mbit" | "data_share" | "data_mb" | "runtime_factor" | "estimates" | "scheme"
        | "backfill_rule" | "walltime" | "local_policy" | "backfill_depth" | "dispatch_delay" | "jobs"
        | "first_job" | "trace" => {
            format!("data_grid.{key}")
        }
        // The upper end of the data sizes, MB: 10 000 (10 GB) or 800 000 (800 GB) in [Liu10] §IV-A.
        "data_max_mb" => "data_grid.data_mb.1".to_string(),
        other => other.to_string(),
    }
}

/// The CSV header of a data-grid sweep (after the axis columns).
pub const SWEEP_HEADER: &str =
    "jobs,with_data,refused_too_wide,offered_load,finished,mean_turnaround,worst_turnaround,\
                                mean_wait,mean_transfer,utilization,held_utilization,started_early,killed,makespan,\
                                events,wall_time_s";

/// One CSV row of a data-grid sweep.
pub fn sweep_row(r: &DdReport) -> String {
    let (w, m) = (&r.workload, &r.metrics);
    let num = csv_number;
    format!(
        "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
        w.jobs,
        w.with_data,
        w.refused_too_wide,
        num(w.offered_load),
        m.finished,
        num(m.turnaround.mean),
        num(m.turnaround.max),
        num(m.waiting.mean),
        num(m.transfer.mean),
        num(m.utilization),
        num(m.held_utilization),
        m.started_early,
        m.killed,
        num(m.makespan),
        m.events,
        num(r.wall_time_s)
    )
}
