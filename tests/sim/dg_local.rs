//! The data-grid sites as batch schedulers: walltime limits (a job stopped at its request, and a scheduler that
//! never sees a runtime under requested estimates) and the log's job numbers in per-job output.

use bagsim::family::contract::{Budget, FamilyRun};
use bagsim::family::data_grid::{DataGridConfig, DataGridRun, DataGridScenario, Estimates, Walltime};

/// A log of three rigid jobs in SWF, with the log's own job numbers 101, 205 and 307 (fields: job, submit, wait,
/// run, allocated processors, CPU, memory, requested processors, requested time, requested memory, status, user,
/// group, executable, queue, partition, preceding job, think time).
const LOG: &str = "\
101 0 -1 10 4 -1 -1 4 6 -1 1 1 1 1 1 1 -1 -1
205 1 -1 3 4 -1 -1 4 5 -1 1 1 1 1 1 1 -1 -1
307 2 -1 2 2 -1 -1 2 8 -1 1 1 1 1 1 1 -1 -1
";

fn run_log(walltime: Walltime, estimates: Estimates) -> DataGridRun {
    let trace = bagsim::trace::import(LOG.as_bytes()).expect("the hand log imports");
    let cfg = DataGridConfig {
        sites: vec![4],
        data_share: 0.0,
        estimates,
        walltime,
        trace: "hand.swf".into(),
        ..DataGridConfig::default()
    };
    let mut r = DataGridRun::new(&DataGridScenario::new(1, cfg), &trace).expect("a valid scenario");
    r.step(Budget::ToEnd);
    r
}

/// (log job, first reservation, start, end, killed) of every job, in the window's order.
fn placements(r: &DataGridRun) -> Vec<(i64, f64, f64, f64, bool)> {
    r.simulation().records().iter().map(|j| (j.log_job, j.reservation, j.hold_start, j.end, j.killed)).collect()
}

/// On 4 processors: job 101 (4 processors) runs 10 s on a request of 6, job 205 (4 processors, 3 s of 5) arrives
/// at 1, job 307 (2 processors, 2 s of 8) at 2. Stopped at its request, 101 ends at 6 and the site, seeing only
/// requests, reserves 205 at 6 (to 11 by its request; it ends at 9) and 307 at 11, the first time 2 processors are
/// free for 8 s after 205's reservation: compression at 9 moves 307 to 9. Run to its logged time, 101's request is
/// raised to 10 s, 205 is reserved at 10 and 307 at 15, then moved to 13.
#[test]
fn a_job_reaching_its_request_is_stopped_and_the_site_sees_only_requests() {
    let killed = run_log(Walltime::Kill, Estimates::Requested);
    assert_eq!(
        placements(&killed),
        vec![(101, 0.0, 0.0, 6.0, true), (205, 6.0, 6.0, 9.0, false), (307, 11.0, 9.0, 11.0, false)]
    );
    let m = killed.report(0.0).metrics;
    assert_eq!((m.killed, m.computation.max), (1, 6.0), "one job stopped, having computed its request");
    let ran = run_log(Walltime::RunToLog, Estimates::Requested);
    assert_eq!(
        placements(&ran),
        vec![(101, 0.0, 0.0, 10.0, false), (205, 10.0, 10.0, 13.0, false), (307, 15.0, 13.0, 15.0, false)]
    );
    // With accurate estimates no job reaches a request: the walltime reading changes nothing.
    let a = placements(&run_log(Walltime::Kill, Estimates::Accurate));
    assert_eq!(a, placements(&run_log(Walltime::RunToLog, Estimates::Accurate)));
    assert_eq!(a[0], (101, 0.0, 0.0, 10.0, false));
}

#[test]
fn per_job_rows_carry_the_log_job_numbers() {
    let r = run_log(Walltime::Kill, Estimates::Requested);
    let csv = r.jobs_csv();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().expect("a header").split(',').collect();
    assert_eq!((header[0], header[1], *header.last().unwrap()), ("log_job", "job", "killed"));
    let rows: Vec<(String, String, String)> = lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[0].to_string(), f[1].to_string(), f[f.len() - 1].to_string())
        })
        .collect();
    let want = [("101", "0", "1"), ("205", "1", "0"), ("307", "2", "0")];
    assert_eq!(rows, want.map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string())).to_vec());
    // The progress messages (the page's per-job report) carry them too.
    let mut fresh = run_log(Walltime::Kill, Estimates::Requested);
    let ids: Vec<i64> = fresh.take_detail().jobs.iter().map(|j| j.log_job).collect();
    assert_eq!(ids, vec![101, 205, 307]);
}
