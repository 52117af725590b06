//! The multi-cluster sweep: `--set` keys as JSON paths, and one CSV row per run (after the axis columns).

use super::run::Report;
use crate::stats::csv_number;

/// Maps a --set key to a JSON path in the scenario.
pub fn path_of(key: &str) -> &str {
    match key {
        "load" => "workload.load",
        "preset" => "workload.preset",
        "pattern" | "arrival_pattern" => "workload.arrival_pattern",
        "median_size" => "workload.median_size",
        "mean_runtime" => "workload.mean_runtime",
        "architecture" => "architecture.kind",
        "monitoring_period" => "architecture.monitoring_period",
        other => other,
    }
}

/// The CSV header of a multi-cluster sweep (after the axis columns).
pub fn sweep_header() -> String {
    let mut h = String::from(
        "bots,tasks,achieved_load,finished_fraction,utilization,mean_makespan,p50_makespan,p90_makespan,mean_nsl,\
         p50_nsl,p90_nsl,mean_bot_wait,mean_task_wait,wasted_cpu,events,wall_time_s",
    );
    for (name, _, _) in crate::workload::size_class::SIZE_CLASSES {
        h.push_str(&format!(",nsl_{name},makespan_{name}"));
    }
    h
}

/// One CSV row of a multi-cluster sweep.
pub fn sweep_row(r: &Report) -> String {
    let m = &r.metrics;
    let n = csv_number;
    let mut row = format!(
        "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
        r.workload.bots,
        r.workload.tasks,
        n(r.workload.achieved_load),
        n(m.tasks.finished_fraction),
        n(m.system.utilization),
        n(m.overall.makespan.mean),
        n(m.overall.makespan.p50),
        n(m.overall.makespan.p90),
        n(m.overall.nsl.mean),
        n(m.overall.nsl.p50),
        n(m.overall.nsl.p90),
        n(m.overall.wait.mean),
        n(m.tasks.wait.mean),
        n(m.tasks.wasted),
        m.system.events,
        n(r.wall_time_s)
    );
    for (name, _, _) in crate::workload::size_class::SIZE_CLASSES {
        match m.per_class.iter().find(|g| g.class == name) {
            Some(g) => row.push_str(&format!(",{},{}", n(g.nsl.mean), n(g.makespan.mean))),
            None => row.push_str(",,"),
        }
    }
    row
}
