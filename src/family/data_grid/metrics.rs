//! The figures of a data-grid run ([Liu10] §IV-B), each with its formula; times in s.

use super::sim::{JobRecord, Sample, Simulation};
use crate::engine::Model;
use crate::stats::{note_empty, Stats, Undefined};
use serde::{Deserialize, Serialize};

/// One site's share of the run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SiteMetrics {
    pub processors: u32,
    /// Jobs the metascheduler sent there.
    pub jobs: u64,
    /// Σ runtime × processors of its jobs / (makespan × its processors).
    pub utilization: f64,
}

/// What a finished data-grid run measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DdMetrics {
    pub jobs: u64,
    /// Jobs that ended having computed their logged runtime; a job stopped at its requested time is not one of them
    /// (`killed`). `finished + killed` jobs ended.
    pub finished: u64,
    /// Per job: end − submission. Its mean is the paper's average turnaround (Fig. 4), its max the worst (Fig. 6).
    pub turnaround: Stats,
    /// Per job: taking its processors − submission.
    pub waiting: Stats,
    /// Per job with data: size / bandwidth (Eq. 1).
    pub transfer: Stats,
    /// Per job: runtime.
    pub computation: Stats,
    /// [Liu10] §IV-B: Σ runtime × processors over the jobs / Σ over the sites (makespan × processors), where the
    /// makespan is the last end − the first submission of the whole run.
    pub utilization: f64,
    /// Σ processor-seconds held (computation, transfers on processors, waits for data on processors) / the same
    /// denominator: what the processors were taken for, useful or not.
    pub held_utilization: f64,
    /// Last end − first submission.
    pub makespan: f64,
    /// Jobs that started before the first reservation their site gave them (a hole found by compression).
    pub started_early: u64,
    /// Jobs stopped at their requested time (walltime `kill`): they ended, unfinished.
    #[serde(default)]
    pub killed: u64,
    pub per_site: Vec<SiteMetrics>,
    pub events: u64,
    pub end_time: f64,
    /// The time series.
    pub series: Vec<Sample>,
    /// Why a number is absent from this report, by its path (README, "Undefined numbers"): e.g. `"overall.makespan":
    /// "no BoT finished"`. Absent when every number is defined.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub undefined: crate::stats::Undefined,
}

/// The metrics of a finished (or stopped) simulation over `processors` per site.
pub fn compute(sim: &Simulation, processors: &[u32]) -> DdMetrics {
    let done: Vec<&JobRecord> = sim.ended().iter().map(|&j| &sim.records()[j as usize]).collect();
    let collect = |f: &dyn Fn(&JobRecord) -> Option<f64>| -> Stats {
        let mut v: Vec<f64> = done.iter().filter_map(|r| f(r)).collect();
        Stats::of(&mut v)
    };
    let first = sim.records().iter().map(|r| r.submit).fold(f64::INFINITY, f64::min);
    let last = done.iter().map(|r| r.end).fold(f64::NEG_INFINITY, f64::max);
    let makespan = if done.is_empty() { 0.0 } else { last - first };
    let capacity: f64 = processors.iter().map(|&p| f64::from(p)).sum();
    let work = done.iter().fold(0.0, |sum, r| sum + r.runtime * f64::from(r.procs));
    let held = done.iter().fold(0.0, |sum, r| sum + (r.end - r.hold_start) * f64::from(r.procs));
    let ratio = |x: f64, d: f64| if d > 0.0 { x / d } else { 0.0 };
    let per_site = processors
        .iter()
        .enumerate()
        .map(|(k, &p)| {
            let mine = done.iter().filter(|r| r.site as usize == k);
            // From +0: an empty sum in std is −0, which a report would print as "-0".
            let w = mine.clone().fold(0.0, |sum, r| sum + r.runtime * f64::from(r.procs));
            SiteMetrics { processors: p, jobs: mine.count() as u64, utilization: ratio(w, makespan * f64::from(p)) }
        })
        .collect();
    let turnaround = collect(&|r| Some(r.end - r.submit));
    let waiting = collect(&|r| Some(r.hold_start - r.submit));
    let transfer = collect(&|r| (r.data_mb > 0.0).then_some(r.transfer_end - r.transfer_start));
    let computation = collect(&|r| Some(r.runtime));
    let mut undefined = Undefined::new();
    for (name, stats) in [("turnaround", &turnaround), ("waiting", &waiting), ("computation", &computation)] {
        note_empty(&mut undefined, name, stats, "no job ended");
    }
    note_empty(&mut undefined, "transfer", &transfer, "no job that ended moved data");
    DdMetrics {
        jobs: sim.jobs() as u64,
        finished: done.iter().filter(|r| !r.killed).count() as u64,
        turnaround,
        waiting,
        transfer,
        computation,
        utilization: ratio(work, makespan * capacity),
        held_utilization: ratio(held, makespan * capacity),
        makespan,
        started_early: done.iter().filter(|r| r.hold_start < r.reservation).count() as u64,
        killed: done.iter().filter(|r| r.killed).count() as u64,
        per_site,
        events: sim.events(),
        end_time: sim.now(),
        series: sim.samples().to_vec(),
        undefined,
    }
}

/// One CSV row per job, in job order (only jobs that ended): `log_job` is the log's job number, `job` bagsim's index
/// in the window.
pub fn jobs_csv(sim: &Simulation) -> String {
    let mut out = String::from(
        "log_job,job,site,procs,submit_s,data_mb,transfer_start_s,transfer_end_s,reservation_s,hold_start_s,\
         compute_start_s,end_s,runtime_s,estimate_s,turnaround_s,wait_s,killed\n",
    );
    let mut ended: Vec<u32> = sim.ended().to_vec();
    ended.sort_unstable();
    for j in ended {
        let r = &sim.records()[j as usize];
        let n = crate::stats::csv_number;
        out.push_str(&format!(
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
            r.log_job,
            r.job,
            r.site,
            r.procs,
            n(r.submit),
            n(r.data_mb),
            n(r.transfer_start),
            n(r.transfer_end),
            n(r.reservation),
            n(r.hold_start),
            n(r.compute_start),
            n(r.end),
            n(r.runtime),
            n(r.estimate),
            n(r.end - r.submit),
            n(r.hold_start - r.submit),
            u8::from(r.killed)
        ));
    }
    out
}
