//! `bagsim run --swf FILE`: the run stepped in chunks, its simulated schedule written to FILE as SWF as its BoTs
//! finish (`multi_cluster::schedule_swf`), then its report as `run_to_report` gives it.

use super::error::{CliError, Outcome};
use bagsim::family::contract::{Budget, FamilyRun};
use bagsim::family::multi_cluster::schedule_swf::ScheduleSwf;
use bagsim::registry::{AnyReport, AnyRun};
use std::path::Path;

/// Events played between two writes of the finished BoTs.
const CHUNK: u64 = 100_000;

/// The families whose schedule `--swf` writes, checked before the run starts.
pub fn check(run: &AnyRun, family: &str) -> Outcome {
    match run {
        AnyRun::MultiCluster(_) => Ok(()),
        _ => {
            Err(format!("--swf: the schedule of a {family} run is not written as SWF yet (multi_cluster runs only)")
                .into())
        }
    }
}

/// Runs to the end writing the schedule to `path`; the report, with the wall time of the simulation and the
/// writes.
pub fn run_writing_swf(run: &mut AnyRun, path: &Path, what: &str) -> Outcome<AnyReport> {
    let file = |e: std::io::Error| CliError::file(path, &e);
    let start = std::time::Instant::now();
    let AnyRun::MultiCluster(mc) = run else {
        return Err("--swf: a multi_cluster run only".into());
    };
    let out = std::io::BufWriter::new(std::fs::File::create(path).map_err(file)?);
    let mut swf = ScheduleSwf::start(out, mc.simulation(), what).map_err(file)?;
    while !mc.step(Budget::Events(CHUNK)) {
        swf.write_finished(mc.simulation()).map_err(file)?;
    }
    swf.finish(mc.simulation()).map_err(file)?;
    Ok(run.report(start.elapsed().as_secs_f64()))
}
