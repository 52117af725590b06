//! `bagsim run --swf`: the simulated schedule of each family as SWF v2.2, read back by the trace importer with no
//! line skipped, and its wait and run times those of the run's jobs.csv rows (docs/traces.md "Writing",
//! docs/jobs.md). Hand-worked schedules for the desktop and data grids; the same bytes for the same scenario.

use crate::common::workload;
use crate::jobs_csv::{small, table, Buffer, FAMILIES};
use bagsim::engine::Model;
use bagsim::family::contract::{Budget, FamilyRun};
use bagsim::family::data_grid::{DdConfig, DdRun, DdScenario, Estimates, Walltime};
use bagsim::family::desktop_grid::machines::{Machine, Platform};
use bagsim::family::desktop_grid::policy::BotSelection;
use bagsim::family::desktop_grid::{DgSettings, DgSimulation};
use bagsim::registry::AnyRun;
use bagsim::trace::{import, Trace};

/// The job lines of an SWF text (its comments left out).
fn body(text: &str) -> Vec<&str> {
    text.lines().filter(|l| !l.starts_with(';')).collect()
}

/// (job, submit, wait, run, procs, requested time, status, user, executable) of an imported job.
type Fields = (i64, f64, f64, f64, u32, f64, i32, String, String);

/// The fields of every imported job.
fn jobs(t: &Trace) -> Vec<Fields> {
    t.jobs
        .iter()
        .map(|j| {
            let (user, exe) = (t.name(j.user).to_string(), t.name(j.executable).to_string());
            (j.id, j.submit, j.wait, j.run, j.procs, j.req_time, j.status, user, exe)
        })
        .collect()
}

/// The hand case of `jobs_csv::desktop_grid_rows_by_hand`: one machine of power 2, FCFS-Share, BoTs of one task of
/// work 4 (at 0), 6 (at 1) and 2 (at 1.5) run 0–2, 2–5 and 5–6: waits 0, 1 and 3.5, runs 2, 3 and 1. The BoT is
/// field 14 (index + 1), the user field 12 (user + 1).
#[test]
fn desktop_grid_schedule_by_hand() {
    let platform = Platform { machines: vec![Machine { power: 2.0, group: 0 }], groups: vec![] };
    let s = DgSettings {
        selection: BotSelection::FcfsShare.into(),
        thresh: 1,
        checkpoint_period: 1e9,
        transfer: [0.0, 0.0],
        checkpoint_store: Default::default(),
        long_idle: Default::default(),
        fcfs_share: Default::default(),
        horizon: 1e12,
        sample_interval: 1e5,
        seed: 3,
        stop_when_done: true,
    };
    let w = workload(&[(0.0, 0, &[4.0]), (1.0, 0, &[6.0]), (1.5, 0, &[2.0])]);
    let mut sim = DgSimulation::new(s, &platform, w);
    let buf = Buffer::default();
    sim.stream_swf(Box::new(buf.clone()), "hand");
    sim.run();
    let end = sim.end_swf().expect("streamed").expect("written");
    assert_eq!((end.jobs, end.unfinished), (3, 0));
    let text = buf.text();
    assert!(text.starts_with("; Version: 2.2\n; Computer: bagsim simulated schedule, hand\n"), "{text}");
    assert!(text.contains("; MaxJobs: 3\n; MaxProcs: 1\n"), "{text}");
    assert_eq!(body(&text)[2], "3 1.5 3.5 1 1 -1 -1 1 -1 -1 1 1 -1 3 -1 -1 -1 -1");
    let t = import(text.as_bytes()).expect("imports");
    assert_eq!((t.report.jobs, t.report.skipped), (3, 0));
    let one = |id, submit, wait, run, user: &str, exe: &str| {
        (id, submit, wait, run, 1, -1.0, 1, user.to_string(), exe.to_string())
    };
    assert_eq!(
        jobs(&t),
        vec![one(1, 0.0, 0.0, 2.0, "1", "1"), one(2, 1.0, 1.0, 3.0, "1", "2"), one(3, 1.5, 3.5, 1.0, "1", "3")]
    );
}

/// The hand log of `jobs_csv::data_grid_rows_by_hand` on one site of 4 processors, stopped at the request: job
/// 101 (4 processors, request 6) holds 0–6 and is stopped (status 0); 205 (4, request 5, at 1) 6–9: wait 5, run
/// 3; 307 (2, request 8, at 2) 9–11: wait 7, run 2. Job numbers are the window's (1–3), the site partition 1.
#[test]
fn data_grid_schedule_by_hand() {
    const LOG: &str = "\
101 0 -1 10 4 -1 -1 4 6 -1 1 1 1 1 1 1 -1 -1
205 1 -1 3 4 -1 -1 4 5 -1 1 1 1 1 1 1 -1 -1
307 2 -1 2 2 -1 -1 2 8 -1 1 1 1 1 1 1 -1 -1
";
    let trace = import(LOG.as_bytes()).expect("the hand log imports");
    let cfg = DdConfig {
        sites: vec![4],
        data_share: 0.0,
        estimates: Estimates::Requested,
        walltime: Walltime::Kill,
        trace: "hand.swf".into(),
        ..DdConfig::default()
    };
    let mut r = DdRun::new(&DdScenario::new(1, cfg), &trace).expect("a valid scenario");
    let buf = Buffer::default();
    r.stream_swf(Box::new(buf.clone()), "hand");
    r.step(Budget::ToEnd);
    assert_eq!(r.end_swf().expect("streamed").expect("written").jobs, 3);
    let text = buf.text();
    assert_eq!(
        body(&text),
        [
            "1 0 0 6 4 -1 -1 4 6 -1 0 -1 -1 -1 -1 1 -1 -1",
            "2 1 5 3 4 -1 -1 4 5 -1 1 -1 -1 -1 -1 1 -1 -1",
            "3 2 7 2 2 -1 -1 2 8 -1 1 -1 -1 -1 -1 1 -1 -1",
        ]
    );
    let t = import(text.as_bytes()).expect("imports");
    assert_eq!((t.report.jobs, t.report.skipped), (3, 0));
}

/// Runs a small scenario of `family` writing both its jobs.csv and its SWF schedule; both texts.
fn run_both(family: &str) -> (String, String) {
    let mut run = AnyRun::build(&small(family), None).expect("builds");
    let (jobs, swf) = (Buffer::default(), Buffer::default());
    run.stream_jobs(Box::new(jobs.clone()));
    run.stream_swf(Box::new(swf.clone()), "small");
    // In chunks, as the page's worker steps a run: the schedule is written between them.
    while !run.step(Budget::Events(997)) {}
    run.end_jobs().expect("streamed").expect("written");
    let end = run.end_swf().expect("streamed").expect("written");
    assert_eq!(end.unfinished, 0, "{family}: the small run finishes every task");
    (jobs.text(), swf.text())
}

/// Every family's schedule reads back with no line skipped, in submit order, one job per jobs.csv row, with the
/// row's submission, waiting and execution time bit for bit (job number = job_id + 1), and the status the row's
/// final state gives; the same scenario writes the same bytes.
#[test]
fn every_familys_schedule_reads_back_to_its_jobs_csv() {
    for family in FAMILIES {
        let (csv, swf) = run_both(family);
        assert!(run_both(family).1 == swf, "{family}: two runs of one scenario wrote different schedules");
        let t = import(swf.as_bytes()).expect("imports");
        assert_eq!(t.report.skipped, 0, "{family}: {:?}", t.report.first_skips);
        let rows = table(&csv);
        assert_eq!(t.jobs.len(), rows.rows.len(), "{family}");
        assert!(t.jobs.windows(2).all(|w| w[0].submit <= w[1].submit), "{family}: in submit order");
        let mut by_id: Vec<usize> = (0..rows.rows.len()).collect();
        by_id.sort_by_key(|&i| rows.num(i, "job_id") as u64);
        let mut waited = 0;
        for (j, &i) in t.jobs.iter().zip(&by_id) {
            let id = rows.num(i, "job_id") as i64;
            assert_eq!(j.id, id + 1, "{family}");
            let got = (j.submit, j.wait, j.run, i64::from(j.procs));
            let want = (
                rows.num(i, "submission_time"),
                rows.num(i, "waiting_time"),
                rows.num(i, "execution_time"),
                rows.num(i, "requested_number_of_resources") as i64,
            );
            assert_eq!(got, want, "{family}: job {id}");
            let status = match rows.text(i, "final_state") {
                "COMPLETED_SUCCESSFULLY" => 1,
                _ => 0,
            };
            assert_eq!(j.status, status, "{family}: job {id}");
            waited += usize::from(j.wait > 0.0);
        }
        // The small multi-cluster day keeps up with its load (tests/sim/batsim_json.rs checks a busy one).
        assert!(waited > 0 || family == "multi_cluster", "{family}: the case must make jobs wait");
    }
}

/// `bagsim run --swf` writes a desktop-grid and a data-grid schedule that `bagsim trace` reads with no line
/// skipped, and says how many jobs it wrote.
#[test]
fn the_cli_writes_every_familys_schedule() {
    let dir = std::env::temp_dir().join(format!("bagsim-swf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for family in ["desktop_grid", "data_grid"] {
        let (scenario, out) = (dir.join(format!("{family}.json")), dir.join(format!("{family}.swf")));
        std::fs::write(&scenario, serde_json::to_string(&small(family)).unwrap()).unwrap();
        let run = |args: &[&std::path::Path]| {
            let o = std::process::Command::new(env!("CARGO_BIN_EXE_bagsim")).args(args).output().unwrap();
            assert!(o.status.success(), "{family}: {}", String::from_utf8_lossy(&o.stderr));
            String::from_utf8_lossy(&o.stdout).to_string()
        };
        let said = run(&["run".as_ref(), &scenario, "--swf".as_ref(), &out]);
        let jobs = body(&std::fs::read_to_string(&out).unwrap()).len();
        assert!(said.contains(&format!("{jobs} SWF jobs written to")), "{family}: {said}");
        let said = run(&["trace".as_ref(), &out]);
        let kept = bagsim::family::contract::group_digits(&jobs.to_string());
        assert!(said.contains(&format!("{kept} jobs kept + 0 skipped")), "{family}: {said}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
