//! The multi-cluster commands of `bagsim`: run summary, sweep keys and columns, and `bagsim reproduce` for the
//! experiments of [Iosup08] §5.

use bagsim::run::Report;
use bagsim::stats::Stats;
use std::io::Write;

macro_rules! say {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stdout(), $($arg)*);
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
        "finished: {:.2}% of tasks ({} of {}), {} of {} BoTs; {} never started, {} running at the end",
        100.0 * m.tasks.finished_fraction,
        m.tasks.finished,
        m.tasks.tasks,
        m.overall.finished,
        m.overall.bots,
        m.tasks.unstarted,
        m.tasks.running_at_end
    );
    say!("utilization: {:.4}   end time: {:.0} s", m.system.utilization, m.system.end_time);
    say!("makespan [s]: {}", fmt_stats(&m.overall.makespan));
    say!("NSL:          {}", fmt_stats(&m.overall.nsl));
    say!("BoT wait [s]: {}", fmt_stats(&m.overall.wait));
    say!("task wait [s]: {}", fmt_stats(&m.tasks.wait));
    say!("task response [s]: {}", fmt_stats(&m.tasks.response));
    say!("wasted CPU: {:.0} s (RWT {:.4})", m.tasks.wasted, m.tasks.rwt);
    say!("{:<8} {:>7} {:>9} {:>14} {:>10}", "class", "BoTs", "finished", "mean MS [s]", "mean NSL");
    for g in &m.per_class {
        say!("{:<8} {:>7} {:>9} {:>14.1} {:>10.3}", g.class, g.bots, g.finished, g.makespan.mean, g.nsl.mean);
    }
    say!(
        "events: {} ({} skipped cancellations); wall time {:.3} s",
        m.system.events,
        m.system.stale_events,
        r.wall_time_s
    );
}

/// `bagsim reproduce FIG|all`: the experiments of [Iosup08] §5 with several seeds, their CSV, SVG and panel.
pub fn reproduce(which: &str, seeds: u32, out: &std::path::Path, jobs: usize) -> Result<(), String> {
    use bagsim::family::multi_cluster::figures::{
        claims::claims, claims::panel_markdown, run_point, svg::figure_svg, FigureId, FigureResult,
    };
    if !(1..=100).contains(&seeds) {
        return Err(format!("--seeds {seeds} is out of range; allowed 1–100"));
    }
    let figures: Vec<FigureId> =
        if which.eq_ignore_ascii_case("all") { FigureId::ALL.to_vec() } else { vec![which.parse()?] };
    let all_start = std::time::Instant::now();
    for id in figures {
        let start = std::time::Instant::now();
        let figure = id.figure();
        let runs = figure.runs(seeds);
        let mut result = FigureResult::new(figure, seeds);
        let results = bagsim::parallel::map(&runs, jobs, |_, spec| run_point(&spec.scenario));
        for (spec, r) in runs.iter().zip(results) {
            match r {
                Ok(r) => result.add(spec, r),
                Err(e) => {
                    result.failures.push(format!("{} seed {}: {e}", result.figure.series[spec.series], spec.seed))
                }
            }
        }
        let stem = out.display().to_string();
        let (csv_path, svg_path) = (format!("{stem}-{}.csv", id.name()), format!("{stem}-{}.svg", id.name()));
        std::fs::write(&csv_path, result.to_csv()).map_err(|e| format!("{csv_path}: {e}"))?;
        std::fs::write(&svg_path, figure_svg(&result)).map_err(|e| format!("{svg_path}: {e}"))?;
        let md_path = format!("{stem}-{}.md", id.name());
        std::fs::write(&md_path, panel_markdown(&result)).map_err(|e| format!("{md_path}: {e}"))?;
        say!(
            "\n{} — {} ({}; {} runs, {} seeds per point, {:.1} s)",
            id.name(),
            result.figure.title,
            result.figure.section,
            runs.len(),
            seeds,
            start.elapsed().as_secs_f64()
        );
        for c in claims(&result) {
            say!("  paper:   {}", c.paper);
            say!("  bagsim:  {}  [{}]", c.ours, c.verdict.label());
        }
        for f in &result.failures {
            say!("  failed run: {f}");
        }
        say!("  wrote {csv_path}, {svg_path} and {md_path}");
    }
    say!("\ntotal {:.1} s", all_start.elapsed().as_secs_f64());
    Ok(())
}

/// `bagsim reproduce FIG --readings KEY=A,B …`: the figure's findings under every combination of readings, with
/// seeds added while a verdict is not resolved under `--seeds auto`; prints the table and writes it as Markdown
/// and CSV.
pub fn reproduce_readings(
    which: &str,
    base: &bagsim::family::multi_cluster::config::McScenario,
    specs: &[String],
    seeds: bagsim::readings::Seeds,
    out: &std::path::Path,
    jobs: usize,
) -> Result<(), String> {
    use bagsim::family::multi_cluster::figures::{run_point, study::study, FigureId};
    use bagsim::family::multi_cluster::readings::READINGS;
    use bagsim::readings::{combinations, parse_axis};
    let axes = specs.iter().map(|s| parse_axis(s, READINGS)).collect::<Result<Vec<_>, _>>()?;
    let combos = combinations(&axes);
    let figures: Vec<FigureId> =
        if which.eq_ignore_ascii_case("all") { FigureId::ALL.to_vec() } else { vec![which.parse()?] };
    for id in figures {
        let start = std::time::Instant::now();
        let run = |specs: &[bagsim::family::multi_cluster::figures::RunSpec]| {
            bagsim::parallel::map(specs, jobs, |_, spec| run_point(&spec.scenario))
        };
        let table = study(id, base, &combos, seeds, &run)?;
        let md = table.markdown();
        let stem = out.display().to_string();
        let (md_path, csv_path) =
            (format!("{stem}-{}-readings.md", id.name()), format!("{stem}-{}-readings.csv", id.name()));
        std::fs::write(&md_path, &md).map_err(|e| format!("{md_path}: {e}"))?;
        std::fs::write(&csv_path, table.csv()).map_err(|e| format!("{csv_path}: {e}"))?;
        say!(
            "\n{} — {} under {} reading(s) ({:.1} s)",
            id.name(),
            table.title,
            combos.len(),
            start.elapsed().as_secs_f64()
        );
        for (k, claim) in table.rows.first().map_or(&[][..], |r| &r.claims[..]).iter().enumerate() {
            say!("  paper: {}", claim.paper);
            for row in &table.rows {
                let c = &row.claims[k];
                say!("    {:<40} {:<13} ({} seeds) {}", row.label, c.verdict.label(), row.seeds, c.ours);
            }
        }
        for row in &table.rows {
            for f in &row.failures {
                say!("  {}: failed run: {f}", row.label);
            }
        }
        say!("  wrote {md_path} and {csv_path}");
    }
    Ok(())
}
