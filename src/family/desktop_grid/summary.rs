//! The readable summary of a desktop-grid run ([Anglano09]), as `bagsim run` prints it.

use super::report::DgReport;
use crate::stats::Stats;

fn stats(s: &Stats, unbounded: bool) -> String {
    if unbounded && s.count > 0 {
        format!("unbounded (finished BoTs: mean {:.0}, p90 {:.0}, max {:.0})", s.mean, s.p90, s.max)
    } else {
        s.line(0, "— (no BoT finished)")
    }
}

/// The lines of the readable summary of a desktop-grid run.
pub fn lines(r: &DgReport) -> Vec<String> {
    let mut out = Vec::new();
    let c = &r.scenario.desktop_grid;
    let (w, m) = (&r.workload, &r.metrics);
    out.push(format!(
        "bagsim {}: desktop grid {}/{} availability, mix {}, load {}, {} (RepThresh {}), seed {}",
        r.bagsim_version,
        c.heterogeneity.name(),
        c.availability.name(),
        c.mix.label(),
        c.load,
        c.bot_selection.label(),
        if c.threshold() == u32::MAX { "unlimited".to_string() } else { c.threshold().to_string() },
        r.scenario.seed
    ));
    out.push(format!(
        "platform: {} machines, ΣP {:.2}, ΣEP {:.2}, mean availability {:.4}; C {:.2} s, λ {:.6} BoT/s",
        w.machines, w.total_power, w.effective_power, w.mean_availability, w.occupancy, w.bot_rate
    ));
    out.push(format!("workload: {} BoTs, {} tasks, {:.0} s of work", w.bots, w.tasks, w.total_work));
    for warning in &w.warnings {
        out.push(format!("warning: {warning}"));
    }
    out.push(format!(
        "finished: {} of {} BoTs, {} of {} tasks; end time {:.0} s",
        m.finished_bots, m.bots, m.finished_tasks, m.tasks, m.end_time
    ));
    if m.saturated {
        out.push(format!(
            "SATURATED: BoTs in the system grow by {:.2} per day; the averages below are unbounded",
            m.growth_rate
        ));
    } else {
        out.push(format!("not saturated (BoTs in the system: {:+.2} per day over the second half)", m.growth_rate));
    }
    out.push(format!("turnaround TT [s]:          {}", stats(&m.turnaround, m.saturated)));
    out.push(format!("waiting WT [s]:             {}", stats(&m.waiting, m.saturated)));
    out.push(format!("execution makespan [s]:     {}", stats(&m.execution_makespan, m.saturated)));
    let k = &m.counters;
    if m.rwt.is_finite() {
        out.push(format!(
            "RWT: {} ({:.0} of {:.0} machine-seconds in useless replicas)",
            crate::stats::show(m.rwt, 4),
            k.wasted_time,
            k.replica_time
        ));
    } else {
        out.push("RWT: undefined (no replica ran)".to_string());
    }
    out.push(format!(
        "replicas: {} started, {} cancelled, {} killed by failures; checkpoints {} taken, {} restored",
        k.replicas_started, k.replicas_cancelled, k.replicas_killed, k.checkpoints_taken, k.checkpoints_restored
    ));
    out.push(format!(
        "failures {}, repairs {}; events {} ({} stale); wall time {:.3} s",
        k.failures, k.repairs, k.events, k.stale_events, r.wall_time_s
    ));
    out
}
