//! The jobs of a data-grid run: a window of a log's rigid jobs (processors, runtime, estimate), the input data of
//! some of them, and the bandwidth each would get to each site ([Liu10] §IV-A).

use super::config::{DdConfig, Estimates, Walltime};
use crate::engine::Rng;
use crate::trace::{Trace, MAX_TIME};
use crate::words::short_number;
use serde::{Deserialize, Serialize};

/// One rigid job.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Job {
    /// The log's job number (field 1 of SWF and GWF).
    pub id: i64,
    /// Submission time, s from the window's first job.
    pub submit: f64,
    pub procs: u32,
    /// Runtime, s (the log's, × the runtime factor; the request instead when the job is stopped there).
    pub runtime: f64,
    /// What the local schedulers reserve for the computation, s (≥ runtime).
    pub estimate: f64,
    /// Stopped at its requested time (walltime `kill`): its logged run was longer.
    pub killed: bool,
    /// Input data, MB (0: none).
    pub data_mb: f64,
}

/// The workload: the jobs in submission order and their bandwidths, `bandwidth[job × sites + site]` Mbit/s.
#[derive(Clone, Debug, Default)]
pub struct Workload {
    pub jobs: Vec<Job>,
    pub bandwidth: Vec<f64>,
    pub sites: usize,
    pub summary: WorkloadSummary,
}

/// What the window turned out to be.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct WorkloadSummary {
    /// Jobs of the log in the window.
    pub window: u64,
    /// Jobs simulated.
    pub jobs: u64,
    /// Jobs left out because they are wider than the widest site.
    pub refused_too_wide: u64,
    /// Jobs with input data.
    pub with_data: u64,
    /// Jobs that will be stopped at their requested time (walltime `kill`).
    #[serde(default)]
    pub killed: u64,
    /// Σ runtime × processors, processor-seconds.
    pub total_work: f64,
    /// Last submission − first, s.
    pub span: f64,
    /// Σ runtime × processors / (Σ site processors × span): the load the window offers.
    pub offered_load: f64,
    pub warnings: Vec<String>,
}

impl Workload {
    /// Transfer time of job `j` to site `k`: size / bandwidth, s ([Liu10] Eq. 1; 1 MB = 8 Mbit).
    pub fn transfer(&self, j: usize, k: usize) -> f64 {
        let mb = self.jobs[j].data_mb;
        if mb > 0.0 {
            mb * 8.0 / self.bandwidth[j * self.sites + k]
        } else {
            0.0
        }
    }
}

/// Why the log's window gives no workload: where and why.
#[derive(Clone, Debug, PartialEq)]
pub enum WindowError {
    /// `first_job` at or past the log's end: it and the log's number of jobs.
    PastTheLog { first: usize, jobs: usize },
    /// A job's requested time that cannot be scheduled: its line in the log and why.
    Request { line: u64, why: String },
    /// No job of the window fits on any site.
    NoJobFits,
}

impl std::fmt::Display for WindowError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WindowError::PastTheLog { first, jobs } => write!(f, "first_job {first} is past the log's {jobs} jobs"),
            WindowError::Request { line, why } => write!(f, "line {line}, field 9 (requested time): {why}"),
            WindowError::NoJobFits => f.write_str("no job of the window fits on a site"),
        }
    }
}

impl std::error::Error for WindowError {}

/// A job's requested time (field 9) as `requested` estimates use it, s, −1 = unknown; refused, naming the log's
/// line, where it cannot be scheduled: outside 0–[`MAX_TIME`] s (the bound of the log's run times, so that
/// a reservation, × any runtime factor, stays a time of whole milliseconds exact in a double), or 0 for a job
/// that ran under walltime `kill`, which would stop it before it computed anything (docs/data_grid.md, "Walltime").
fn request(cfg: &DdConfig, j: &crate::trace::Job) -> Result<f64, WindowError> {
    let at = |why: String| WindowError::Request { line: j.line, why };
    let r = j.req_time;
    if r == -1.0 {
        return Ok(-1.0);
    }
    if !(0.0..=MAX_TIME).contains(&r) {
        return Err(at(format!(
            "{} is out of range; allowed 0–{MAX_TIME:e} s, or -1 = unknown (data_grid.estimates \"requested\" \
             reserves the request)",
            short_number(r)
        )));
    }
    if r == 0.0 && j.run > 0.0 && cfg.walltime == Walltime::Kill {
        return Err(at(format!(
            "0 s, and the job ran {} s: data_grid.walltime \"kill\" would stop it at its start, before it computed \
             anything, which is no run; allowed: a request above 0 s, or -1 = unknown (the runtime is then the \
             estimate); or set data_grid.walltime to \"run_to_log\"",
            short_number(j.run)
        )));
    }
    Ok(r)
}

/// The jobs of the window `cfg.first_job .. + cfg.jobs` of `trace`, their data and bandwidths from `seed`.
pub fn build(cfg: &DdConfig, seed: u64, trace: &Trace) -> Result<Workload, WindowError> {
    let first = cfg.first_job as usize;
    if first >= trace.jobs.len() {
        return Err(WindowError::PastTheLog { first, jobs: trace.jobs.len() });
    }
    let window = &trace.jobs[first..(first + cfg.jobs as usize).min(trace.jobs.len())];
    let widest = cfg.sites.iter().copied().max().unwrap_or(0);
    let sites = cfg.sites.len();
    let mut has = Rng::stream(seed, "dg.data_has");
    let mut size = Rng::stream(seed, "dg.data_size");
    let mut bw = Rng::stream(seed, "dg.bandwidth");
    let t0 = window.iter().map(|j| j.submit).fold(f64::INFINITY, f64::min);
    let mut w = Workload { sites, ..Workload::default() };
    w.summary.window = window.len() as u64;
    let [blo, bhi] = cfg.bandwidth_mbit;
    let [dlo, dhi] = cfg.data_mb;
    let mut order: Vec<usize> = (0..window.len()).collect();
    order.sort_by(|&a, &b| window[a].submit.total_cmp(&window[b].submit).then(a.cmp(&b)));
    for i in order {
        let j = &window[i];
        // Every job draws its data and bandwidths, kept or not, so that a job's draws depend only on its place in
        // the window: the same jobs get the same data under every scheme and every site list of the same length.
        let carries = has.uniform() < cfg.data_share;
        let mb = dlo + (dhi - dlo) * size.uniform();
        let bws: Vec<f64> = (0..sites).map(|_| blo + (bhi - blo) * bw.uniform()).collect();
        if j.procs > widest {
            w.summary.refused_too_wide += 1;
            continue;
        }
        let runtime = j.run * cfg.runtime_factor;
        let requested = match cfg.estimates {
            Estimates::Requested => request(cfg, j)? * cfg.runtime_factor,
            Estimates::Accurate => -1.0,
        };
        // A missing request (−1) leaves the runtime as the estimate under either walltime reading.
        let (runtime, estimate, killed) = match (cfg.estimates, cfg.walltime) {
            (Estimates::Requested, _) if requested >= runtime => (runtime, requested, false),
            (Estimates::Requested, Walltime::Kill) if requested >= 0.0 => (requested, requested, true),
            _ => (runtime, runtime, false),
        };
        w.jobs.push(Job {
            id: j.id,
            submit: j.submit - t0,
            procs: j.procs,
            runtime,
            estimate,
            killed,
            data_mb: if carries { mb } else { 0.0 },
        });
        w.bandwidth.extend(bws);
    }
    let s = &mut w.summary;
    s.jobs = w.jobs.len() as u64;
    s.with_data = w.jobs.iter().filter(|j| j.data_mb > 0.0).count() as u64;
    s.killed = w.jobs.iter().filter(|j| j.killed).count() as u64;
    s.total_work = w.jobs.iter().map(|j| j.runtime * f64::from(j.procs)).sum();
    s.span = w.jobs.last().map_or(0.0, |j| j.submit);
    let capacity: f64 = cfg.sites.iter().map(|&p| f64::from(p)).sum();
    s.offered_load = if s.span > 0.0 { s.total_work / (capacity * s.span) } else { 0.0 };
    if s.refused_too_wide > 0 {
        s.warnings.push(format!(
            "{} jobs of the window are wider than the widest site ({widest} processors) and were left out",
            s.refused_too_wide
        ));
    }
    if w.jobs.is_empty() {
        return Err(WindowError::NoJobFits);
    }
    Ok(w)
}
