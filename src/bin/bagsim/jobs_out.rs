//! `bagsim run --jobs FILE`: the run's per-task (data grid: per-job) records in Batsim's `jobs.csv` columns,
//! streamed to FILE as tasks finish (docs/jobs.md).

use super::error::{CliError, Outcome};
use bagsim::family::contract::{FamilyRun, PointError};
use std::path::{Path, PathBuf};

/// Before any work: `path` can be written, and is none of the command's other outputs (`others`).
pub fn check(path: &Path, others: [(&str, &Option<PathBuf>); 3]) -> Outcome {
    if let Some((option, _)) = others.into_iter().find(|(_, p)| p.as_deref() == Some(path)) {
        return Err(format!("{option} and --jobs are both {}: they need two files", path.display()).into());
    }
    super::out::check_output("--jobs", path)
}

/// Opens `path` and has the run stream its rows there from its first event on.
pub fn start(run: &mut impl FamilyRun, path: &Path) -> Outcome {
    let file = std::fs::File::create(path).map_err(|e| CliError::file(path, &e))?;
    run.stream_jobs(Box::new(file));
    Ok(())
}

/// Ends the stream; the line that says what it wrote.
pub fn end(run: &mut impl FamilyRun, path: &Path) -> Outcome<String> {
    let Some(done) = run.end_jobs() else {
        return Err(format!("--jobs {}: this run wrote no rows", path.display()).into());
    };
    let done = done.map_err(|e| CliError::file(path, &e))?;
    let left_out = match done.left_out {
        0 => String::new(),
        n => format!(" ({n} unfinished when the run stopped: left out, as Batsim leaves out jobs not complete)"),
    };
    Ok(format!("{} jobs.csv rows written to {}{left_out}", done.rows, path.display()))
}

/// Runs a sweep's point with its per-task records streamed to `path` (`bagsim sweep --jobs-csv`): to a temporary
/// file beside it, renamed when the run is done, so a failed or re-run point never leaves a torn file.
pub fn point_with_jobs(p: &bagsim::study::Point, path: &Path) -> Result<serde_json::Value, PointError> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".tmp-{}", std::process::id()));
    let tmp = PathBuf::from(tmp);
    let file = std::fs::File::create(&tmp).map_err(|e| PointError::File(format!("{}: {e}", tmp.display())))?;
    let done = bagsim::study::run_point_with_jobs(p, Some(Box::new(file))).and_then(|row| {
        let renamed = std::fs::rename(&tmp, path).map(|()| row);
        renamed.map_err(|e| PointError::File(format!("{}: {e}", path.display())))
    });
    if done.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    done
}
