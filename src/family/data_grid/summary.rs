//! The readable summary of a data-grid run ([Liu10]), as `bagsim run` prints it.

use super::run::DdReport;
use crate::stats::Stats;

fn stats(s: &Stats) -> String {
    s.line(0, "— (no job)")
}

/// The lines of the readable summary of a data-grid run.
pub fn lines(r: &DdReport) -> Vec<String> {
    let mut out = Vec::new();
    let c = &r.scenario.data_grid;
    let (w, m) = (&r.workload, &r.metrics);
    // A setting the run did not read is not echoed as if it applied (its warning says so when it was set).
    let unused = c.unused();
    let read = |path: &str| !unused.iter().any(|u| u.covers(path));
    let mut settings = vec![c.scheme.name().to_string()];
    if c.site_policies.is_empty() {
        settings.push(format!("local scheduler {}", c.local_policy.name()));
    } else {
        let names: Vec<&str> = c.site_policies.iter().map(|p| p.name()).collect();
        settings.push(format!("local schedulers {}", names.join("/")));
    }
    if read("data_grid.backfill_rule") {
        settings.push(format!("backfill rule {}", c.backfill_rule.name()));
    }
    settings.push(format!("estimates {}", c.estimates.name()));
    if read("data_grid.walltime") {
        settings.push(format!("walltime {}", c.walltime.name()));
    }
    out.push(format!(
        "bagsim {}: data grid, {}, runtime × {}, seed {}",
        r.bagsim_version,
        settings.join(", "),
        c.runtime_factor,
        r.scenario.seed
    ));
    let data = if read("data_grid.data_mb") {
        format!(
            "data on {:.0}% of the jobs, {}–{} MB; bandwidth {}–{} Mbit/s",
            100.0 * c.data_share,
            c.data_mb[0],
            c.data_mb[1],
            c.bandwidth_mbit[0],
            c.bandwidth_mbit[1]
        )
    } else {
        "no job carries data".to_string()
    };
    out.push(format!(
        "sites: {:?} processors; log {} (jobs {}–{}); {data}",
        c.sites,
        c.trace,
        c.first_job,
        u64::from(c.first_job) + w.window
    ));
    out.push(format!(
        "workload: {} jobs ({} with data, {} refused as wider than any site), {:.0} processor-s of work over {:.0} s, \
         offered load {:.4}",
        w.jobs, w.with_data, w.refused_too_wide, w.total_work, w.span, w.offered_load
    ));
    for warning in &w.warnings {
        out.push(format!("warning: {warning}"));
    }
    if m.killed > 0 {
        out.push(format!("stopped at their requested time (walltime kill), unfinished: {} jobs", m.killed));
    }
    out.push(format!(
        "finished: {} of {} jobs; end time {:.0} s, makespan {:.0} s",
        m.finished, m.jobs, m.end_time, m.makespan
    ));
    out.push(format!("turnaround [s]:   {}", stats(&m.turnaround)));
    out.push(format!("waiting [s]:      {}", stats(&m.waiting)));
    out.push(format!("transfer [s]:     {}", stats(&m.transfer)));
    out.push(format!("computation [s]:  {}", stats(&m.computation)));
    out.push(format!(
        "utilization ([Liu10] §IV-B): {:.4}; processors held: {:.4}; {} jobs started before their first reservation",
        m.utilization, m.held_utilization, m.started_early
    ));
    for (k, s) in m.per_site.iter().enumerate() {
        out.push(format!(
            "  site {}: {} processors, {} jobs, utilization {:.4}",
            k + 1,
            s.processors,
            s.jobs,
            s.utilization
        ));
    }
    out.push(format!("events {}; wall time {:.3} s", m.events, r.wall_time_s));
    out
}
