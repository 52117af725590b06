//! The readable summary of a multi-cluster run ([Iosup08]), as `bagsim run` prints it.

use super::run::Report;
use crate::stats::Stats;

fn fmt_stats(s: &Stats) -> String {
    s.line(4, "—")
}

/// The lines of the readable summary of a multi-cluster run.
pub fn lines(r: &Report) -> Vec<String> {
    let mut out = Vec::new();
    let s = &r.scenario;
    let m = &r.metrics;
    out.push(format!(
        "bagsim {}: {} / {} / {}, seed {}",
        r.bagsim_version,
        s.architecture.kind.name(),
        s.selection.name(),
        s.scheduling,
        s.seed
    ));
    let w = &r.workload;
    out.push(format!(
        "workload: {} BoTs, {} tasks, {} users; load target {} achieved {:.4}",
        w.bots,
        w.tasks,
        w.users,
        w.target_load.map_or("none".to_string(), |l| format!("{l}")),
        w.achieved_load
    ));
    for warning in &w.warnings {
        out.push(format!("warning: {warning}"));
    }
    out.push(format!(
        "finished: {} of tasks ({} of {}), {} of {} BoTs; {} never started, {} running at the end",
        if m.tasks.tasks == 0 {
            "no task: none".to_string()
        } else {
            format!("{:.2}%", 100.0 * m.tasks.finished_fraction)
        },
        m.tasks.finished,
        m.tasks.tasks,
        m.overall.finished,
        m.overall.bots,
        m.tasks.unstarted,
        m.tasks.running_at_end
    ));
    out.push(format!("utilization: {:.4}   end time: {:.0} s", m.system.utilization, m.system.end_time));
    out.push(format!(
        "  while submitting ({:.0}–{:.0} s): {}; in the drain after it: {}",
        m.system.first_submission,
        m.system.last_submission,
        crate::stats::show(m.system.utilization_submitting, 4),
        crate::stats::show(m.system.utilization_drain, 4)
    ));
    out.push(format!("makespan [s]: {}", fmt_stats(&m.overall.makespan)));
    out.push(format!("NSL:          {}", fmt_stats(&m.overall.nsl)));
    out.push(format!("BoT wait [s]: {}", fmt_stats(&m.overall.wait)));
    out.push(format!("task wait [s]: {}", fmt_stats(&m.tasks.wait)));
    out.push(format!("task response [s]: {}", fmt_stats(&m.tasks.response)));
    out.push(format!("wasted CPU: {:.0} s (RWT {})", m.tasks.wasted, crate::stats::show(m.tasks.rwt, 4)));
    out.push(format!("{:<8} {:>7} {:>9} {:>14} {:>10}", "class", "BoTs", "finished", "mean MS [s]", "mean NSL"));
    for g in &m.per_class {
        // A class none of whose BoTs finished has no mean: a dash, as in the report, never NaN.
        // In the page's format (words::number_words): a class none of whose BoTs finished shows a dash.
        let mean = crate::words::number_words;
        out.push(format!(
            "{:<8} {:>7} {:>9} {:>14} {:>10}",
            g.class,
            g.bots,
            g.finished,
            mean(g.makespan.mean),
            mean(g.nsl.mean)
        ));
    }
    out.push(format!(
        "events: {} ({} skipped cancellations); wall time {:.3} s",
        m.system.events, m.system.stale_events, r.wall_time_s
    ));
    out
}
