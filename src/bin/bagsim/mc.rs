//! The multi-cluster run summary of `bagsim run` ([Iosup08]); the figures of §5 are the family's own
//! (`family::multi_cluster::figures::cmd`).

use bagsim::run::Report;
use bagsim::stats::Stats;
use std::io::Write;

macro_rules! say {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stdout(), "{}", bagsim::family::contract::tidy_line(&format!($($arg)*)));
    }};
}

fn fmt_stats(s: &Stats) -> String {
    if s.count == 0 {
        "—".to_string()
    } else {
        format!("{:.4} (p50 {:.4}, p90 {:.4}, p99 {:.4}, max {:.4})", s.mean, s.p50, s.p90, s.p99, s.max)
    }
}

/// The readable summary of a multi-cluster run.
pub fn print_summary(r: &Report) {
    let s = &r.scenario;
    let m = &r.metrics;
    say!(
        "bagsim {}: {} / {} / {}, seed {}",
        r.bagsim_version,
        s.architecture.kind.name(),
        s.selection.name(),
        s.scheduling,
        s.seed
    );
    let w = &r.workload;
    say!(
        "workload: {} BoTs, {} tasks, {} users; load target {} achieved {:.4}",
        w.bots,
        w.tasks,
        w.users,
        w.target_load.map_or("none".to_string(), |l| format!("{l}")),
        w.achieved_load
    );
    for warning in &w.warnings {
        say!("warning: {warning}");
    }
    say!(
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
    );
    say!("utilization: {:.4}   end time: {:.0} s", m.system.utilization, m.system.end_time);
    say!(
        "  while submitting ({:.0}–{:.0} s): {}; in the drain after it: {}",
        m.system.first_submission,
        m.system.last_submission,
        bagsim::stats::show(m.system.utilization_submitting, 4),
        bagsim::stats::show(m.system.utilization_drain, 4)
    );
    say!("makespan [s]: {}", fmt_stats(&m.overall.makespan));
    say!("NSL:          {}", fmt_stats(&m.overall.nsl));
    say!("BoT wait [s]: {}", fmt_stats(&m.overall.wait));
    say!("task wait [s]: {}", fmt_stats(&m.tasks.wait));
    say!("task response [s]: {}", fmt_stats(&m.tasks.response));
    say!("wasted CPU: {:.0} s (RWT {})", m.tasks.wasted, bagsim::stats::show(m.tasks.rwt, 4));
    say!("{:<8} {:>7} {:>9} {:>14} {:>10}", "class", "BoTs", "finished", "mean MS [s]", "mean NSL");
    for g in &m.per_class {
        // A class none of whose BoTs finished has no mean: a dash, as in the report, never NaN.
        // In the page's format (words::number_words): a class none of whose BoTs finished shows a dash.
        let mean = bagsim::words::number_words;
        say!("{:<8} {:>7} {:>9} {:>14} {:>10}", g.class, g.bots, g.finished, mean(g.makespan.mean), mean(g.nsl.mean));
    }
    say!(
        "events: {} ({} skipped cancellations); wall time {:.3} s",
        m.system.events,
        m.system.stale_events,
        r.wall_time_s
    );
}
