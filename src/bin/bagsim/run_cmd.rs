//! `bagsim run S.json`: one run of any family, its summary, and what it writes (--out, --csv, --swf, --jobs).

use super::error::{self, CliError, Failure, Outcome};
use super::{jobs_out, schedule_out, study};
use bagsim::family::contract::FamilyRun;
use bagsim::registry;
use std::io::Write;
use std::path::{Path, PathBuf};

/// println! that stops quietly when stdout is closed (e.g. `bagsim run … | head`).
macro_rules! say {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stdout(), "{}", bagsim::family::contract::tidy_line(&format!($($arg)*)));
    }};
}

/// Runs the scenario file `scenario` (with `seed` instead of its own when given) and writes what was asked.
pub fn run(
    scenario: &Path,
    seed: Option<u64>,
    out: Option<PathBuf>,
    csv: Option<PathBuf>,
    swf: Option<PathBuf>,
    jobs: Option<PathBuf>,
) -> Outcome {
    if let Some(p) = &swf {
        if let Some((option, _)) = [("--out", &out), ("--csv", &csv)].into_iter().find(|(_, q)| q.as_ref() == Some(p)) {
            return Err(format!("{option} and --swf are both {}: they need two files", p.display()).into());
        }
        super::out::check_output("--swf", p)?;
    }
    let mut s = study::load_scenario(scenario)?;
    if let Some(seed) = seed {
        s.set_seed(seed);
    }
    let mut run = registry::AnyRun::build(&s, None).map_err(|e| e.to_string())?;
    if csv.is_some() && run.rows_csv().is_none() {
        return Err(format!("--csv: a {} run has no per-BoT or per-job rows", s.family().name()).into());
    }
    // Warnings of the budget (a long or a large run) are said before the run, not after it.
    let before = |w: &&String| w.starts_with("a long run") || w.starts_with("a large run");
    for w in run.start().warnings.iter().filter(before) {
        eprintln!("bagsim: warning: {}", bagsim::family::contract::tidy_line(w));
    }
    jobs.as_deref().map(|path| jobs_out::start(&mut run, path)).transpose()?;
    let what = format!("{}, seed {}", scenario.display(), s.seed());
    swf.as_deref().map(|path| schedule_out::start(&mut run, path, &what)).transpose()?;
    let start = std::time::Instant::now();
    let report = bagsim::family::contract::run_to_report(&mut run, &move || start.elapsed().as_secs_f64());
    if let Some(e) = run.failure() {
        return Err(CliError::new(Failure::Run, format!("{}: {e}", scenario.display())));
    }
    let report = run.full_report(report);
    jobs.as_deref().map(|path| jobs_out::end(&mut run, path).map(|line| say!("{line}"))).transpose()?;
    swf.as_deref().map(|path| schedule_out::end(&mut run, path).map(|line| say!("{line}"))).transpose()?;
    if let Some(path) = csv {
        let rows = run
            .rows_csv()
            .ok_or_else(|| format!("--csv: a {} run has no per-BoT or per-job rows", s.family().name()))?;
        error::write(&path, rows)?;
        say!("rows written to {}", path.display());
    }
    for line in report.summary() {
        say!("{line}");
    }
    if let Some(out) = out {
        let json = report.to_json().expect("serializable");
        error::write(&out, json)?;
        say!("report written to {}", out.display());
    }
    Ok(())
}
