//! `bagsim run --swf FILE`: the run's simulated schedule written to FILE as SWF v2.2 while the run goes, by the
//! family through the contract (`stream_swf`, docs/traces.md "Writing").

use super::error::{CliError, Outcome};
use bagsim::family::contract::FamilyRun;
use std::path::Path;

/// Opens `path` and has the run write its schedule there from its first event on; `what` names the run in the
/// header.
pub fn start(run: &mut impl FamilyRun, path: &Path, what: &str) -> Outcome {
    let file = std::fs::File::create(path).map_err(|e| CliError::file(path, &e))?;
    run.stream_swf(Box::new(file), what);
    Ok(())
}

/// Ends the schedule; the line that says what it wrote.
pub fn end(run: &mut impl FamilyRun, path: &Path) -> Outcome<String> {
    let Some(done) = run.end_swf() else {
        return Err(format!("--swf {}: this run wrote no schedule", path.display()).into());
    };
    let done = done.map_err(|e| CliError::file(path, &e))?;
    let unfinished = match done.unfinished {
        0 => String::new(),
        n => format!(" ({n} unfinished when the run stopped: status 5, run time -1)"),
    };
    Ok(format!("{} SWF jobs written to {}{unfinished}", done.jobs, path.display()))
}
