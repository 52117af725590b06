//! `bagsim run --jobs`: the per-task records in Batsim's jobs.csv columns (docs/jobs.md). Hand-worked rows for a
//! small case of each family; the CSV's means and makespan against the run's report; the same bytes for the same
//! scenario; the header; and evalys itself reading the CSV of each family (`scripts/python/evalys_check.py`).

use crate::common::{clusters, config, workload};
use bagsim::engine::Model;
use bagsim::family::contract::{Budget, FamilyRun};
use bagsim::family::data_grid::{DdConfig, DdRun, DdScenario, Estimates, Walltime};
use bagsim::family::desktop_grid::machines::{Machine, Platform};
use bagsim::family::desktop_grid::policy::BotSelection;
use bagsim::family::desktop_grid::{DgSettings, DgSimulation};
use bagsim::family::multi_cluster::architecture::Architecture;
use bagsim::family::multi_cluster::policy::scheduling::SchedulingPolicy;
use bagsim::family::multi_cluster::policy::selection::SelectionPolicy;
use bagsim::family::multi_cluster::sim::Simulation;
use bagsim::jobs::BATSIM_COLUMNS;
use bagsim::registry::{AnyReport, AnyRun};
use bagsim::scenario::Scenario;
use std::cell::RefCell;
use std::collections::HashMap;
use std::io::Write;
use std::rc::Rc;

/// A writer whose bytes the test reads back.
#[derive(Clone, Default)]
pub(crate) struct Buffer(Rc<RefCell<Vec<u8>>>);

impl Write for Buffer {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Buffer {
    pub(crate) fn text(&self) -> String {
        String::from_utf8(self.bytes()).expect("UTF-8")
    }
    pub(crate) fn bytes(&self) -> Vec<u8> {
        self.0.borrow().clone()
    }
}

/// The CSV as a header and rows of cells by column name.
pub(crate) struct Table {
    pub(crate) header: Vec<String>,
    pub(crate) rows: Vec<HashMap<String, String>>,
}

pub(crate) fn table(text: &str) -> Table {
    let mut lines = text.lines();
    let header: Vec<String> = bagsim::stats::csv_cells(lines.next().expect("a header")).expect("a CSV line");
    let rows = lines
        .map(|l| {
            let cells = bagsim::stats::csv_cells(l).expect("a CSV line");
            assert_eq!(cells.len(), header.len(), "{l}");
            header.iter().cloned().zip(cells).collect()
        })
        .collect();
    Table { header, rows }
}

impl Table {
    pub(crate) fn num(&self, row: usize, column: &str) -> f64 {
        let cell = &self.rows[row][column];
        cell.parse().unwrap_or_else(|_| panic!("{column} of row {row}: {cell:?}"))
    }
    pub(crate) fn text(&self, row: usize, column: &str) -> &str {
        &self.rows[row][column]
    }
    /// Column `column` of every row.
    fn column(&self, column: &str) -> Vec<f64> {
        (0..self.rows.len()).map(|r| self.num(r, column)).collect()
    }
}

/// (job_id, submission, start, finish, waiting, turnaround, stretch, allocated) of every row, in file order.
type Expected<'a> = (u64, f64, f64, f64, f64, f64, f64, &'a str);

fn assert_rows(t: &Table, want: &[Expected]) {
    assert_eq!(t.rows.len(), want.len());
    for (i, &(id, sub, start, finish, wait, turnaround, stretch, alloc)) in want.iter().enumerate() {
        let got = (
            t.num(i, "job_id") as u64,
            t.num(i, "submission_time"),
            t.num(i, "starting_time"),
            t.num(i, "finish_time"),
            t.num(i, "waiting_time"),
            t.num(i, "turnaround_time"),
            t.num(i, "execution_time"),
        );
        assert_eq!(got, (id, sub, start, finish, wait, turnaround, finish - start), "row {i}");
        assert!((t.num(i, "stretch") - stretch).abs() < 1e-12, "row {i}: stretch {}", t.num(i, "stretch"));
        assert_eq!(t.text(i, "allocated_resources"), alloc, "row {i}");
        assert_eq!((t.text(i, "workload_name"), t.text(i, "profile")), ("bagsim", "delay"));
        assert_eq!((t.text(i, "consumed_energy"), t.text(i, "metadata")), ("-1", ""));
    }
}

/// Two clusters: c0 has processors 0 and 1 at speed 1, c1 has processor 2 at speed 2. ECT under csp, S-T. BoT 0
/// (two tasks of 4 and 2 s on the reference processor) arrives at 0, BoT 1 (one task of 6 s) at 1.
/// At 0: task 0 completes at 4 on c0 or at 4 / 2 = 2 on c1 → c1, processor 2, 0–2. Task 1 completes at 2 on c0
/// or at 2 + 2 / 2 = 3 on c1 → c0, its first processor 0, 0–2. At 1: task 2 completes at 1 + 6 = 7 on c0 or at
/// 2 + 6 / 2 = 5 on c1 → reserved on c1, starts at 2 on processor 2, ends at 5: wait 1, turnaround 4, stretch 4 / 3.
/// Tasks 0 and 1 end at 2 in the order they started; rows come as tasks finish.
#[test]
fn multi_cluster_rows_by_hand() {
    let cfg = config(Architecture::Csp, SelectionPolicy::ST, SchedulingPolicy::Ect);
    let mut sim =
        Simulation::new(cfg, clusters(&[(2, 1.0), (1, 2.0)]), workload(&[(0.0, 0, &[4.0, 2.0]), (1.0, 0, &[6.0])]));
    let buf = Buffer::default();
    sim.stream_jobs(Box::new(buf.clone()));
    sim.run();
    let end = sim.end_jobs().expect("streamed").expect("written");
    assert_eq!((end.rows, end.left_out), (3, 0));
    let t = table(&buf.text());
    assert_rows(
        &t,
        &[
            (0, 0.0, 0.0, 2.0, 0.0, 2.0, 1.0, "2"),
            (1, 0.0, 0.0, 2.0, 0.0, 2.0, 1.0, "0"),
            (2, 1.0, 2.0, 5.0, 1.0, 4.0, 4.0 / 3.0, "2"),
        ],
    );
    let own = |r: usize| (t.text(r, "bot"), t.text(r, "cluster"), t.text(r, "size_class"), t.text(r, "executions"));
    assert_eq!(own(0), ("0", "c1", "2-4", "1"));
    assert_eq!(own(1), ("0", "c0", "2-4", "1"));
    assert_eq!(own(2), ("1", "c1", "1", "1"));
    assert_eq!(t.column("reference_runtime"), vec![4.0, 2.0, 6.0]);
    assert_eq!(t.column("first_start"), vec![0.0, 0.0, 2.0]);
    assert!(t.rows.iter().all(|r| r["success"] == "1" && r["final_state"] == "COMPLETED_SUCCESSFULLY"));
    assert!(t.rows.iter().all(|r| r["requested_number_of_resources"] == "1" && r["requested_time"] == "-1"));
}

/// One machine of power 2, no failures, no replicas (RepThresh 1), FCFS-Share: BoTs of one task each, of work 4
/// (at 0), 6 (at 1) and 2 (at 1.5). The machine runs them in arrival order: 0–2, 2–5, 5–6; waits 0, 1 and 3.5;
/// turnarounds 2, 4 and 4.5; stretches 1, 4 / 3 and 4.5.
#[test]
fn desktop_grid_rows_by_hand() {
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
    sim.stream_jobs(Box::new(buf.clone()));
    sim.run();
    assert_eq!(sim.end_jobs().expect("streamed").expect("written").rows, 3);
    let t = table(&buf.text());
    assert_rows(
        &t,
        &[
            (0, 0.0, 0.0, 2.0, 0.0, 2.0, 1.0, "0"),
            (1, 1.0, 2.0, 5.0, 1.0, 4.0, 4.0 / 3.0, "0"),
            (2, 1.5, 5.0, 6.0, 3.5, 4.5, 4.5, "0"),
        ],
    );
    assert_eq!(t.column("bot"), vec![0.0, 1.0, 2.0]);
    assert_eq!(t.column("executions"), vec![1.0; 3]);
    assert_eq!(t.column("failed_executions"), vec![0.0; 3]);
    assert_eq!(t.column("work"), vec![4.0, 6.0, 2.0]);
}

/// The hand log of tests/sim/dg_local.rs on one site of 4 processors, stopped at the request (walltime `kill`):
/// job 101 (4 processors, 10 s on a request of 6) runs 0–6 and is stopped (COMPLETED_WALLTIME_REACHED, success 0);
/// 205 (4 processors, 3 s, submitted at 1) runs 6–9 on the processors 101 gave back, 0–3 (wait 5, turnaround 8,
/// stretch 8 / 3); 307 (2 processors, 2 s, at 2) runs 9–11 on the lowest free two, 0–1 (wait 7, turnaround 9,
/// stretch 4.5).
#[test]
fn data_grid_rows_by_hand() {
    const LOG: &str = "\
101 0 -1 10 4 -1 -1 4 6 -1 1 1 1 1 1 1 -1 -1
205 1 -1 3 4 -1 -1 4 5 -1 1 1 1 1 1 1 -1 -1
307 2 -1 2 2 -1 -1 2 8 -1 1 1 1 1 1 1 -1 -1
";
    let trace = bagsim::trace::import(LOG.as_bytes()).expect("the hand log imports");
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
    r.stream_jobs(Box::new(buf.clone()));
    r.step(Budget::ToEnd);
    assert_eq!(r.end_jobs().expect("streamed").expect("written").rows, 3);
    let t = table(&buf.text());
    assert_rows(
        &t,
        &[
            (0, 0.0, 0.0, 6.0, 0.0, 6.0, 1.0, "0-3"),
            (1, 1.0, 6.0, 9.0, 5.0, 8.0, 8.0 / 3.0, "0-3"),
            (2, 2.0, 9.0, 11.0, 7.0, 9.0, 4.5, "0-1"),
        ],
    );
    assert_eq!(t.column("log_job"), vec![101.0, 205.0, 307.0]);
    assert_eq!(t.column("requested_time"), vec![6.0, 5.0, 8.0]);
    assert_eq!(t.column("requested_number_of_resources"), vec![4.0, 4.0, 2.0]);
    let states: Vec<(&str, &str)> = (0..3).map(|i| (t.text(i, "success"), t.text(i, "final_state"))).collect();
    assert_eq!(
        states,
        vec![("0", "COMPLETED_WALLTIME_REACHED"), ("1", "COMPLETED_SUCCESSFULLY"), ("1", "COMPLETED_SUCCESSFULLY")]
    );
}

/// A small scenario of each family: a multi-cluster day, a desktop grid of 20 BoTs, a data grid of 400 jobs.
pub(crate) fn small(family: &str) -> Scenario {
    let json = match family {
        "multi_cluster" => r#"{"seed": 5, "workload": {"submission_period": 21600}}"#,
        "desktop_grid" => r#"{"family": "desktop_grid", "seed": 5, "desktop_grid": {"bots": 20}}"#,
        _ => r#"{"family": "data_grid", "seed": 5, "data_grid": {"jobs": 400}}"#,
    };
    Scenario::from_json(json).expect("a valid scenario")
}

/// Runs `s` with its rows streamed; the CSV and the report.
fn run_with_jobs(s: &Scenario) -> (String, AnyReport) {
    let mut run = AnyRun::build(s, None).expect("builds");
    let buf = Buffer::default();
    run.stream_jobs(Box::new(buf.clone()));
    run.step(Budget::ToEnd);
    let end = run.end_jobs().expect("streamed").expect("written");
    let report = run.full_report(run.report(0.0));
    let text = buf.text();
    assert_eq!(end.rows as usize + 1, text.lines().count());
    (text, report)
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs())
}

pub(crate) const FAMILIES: [&str; 3] = ["multi_cluster", "desktop_grid", "data_grid"];

/// The header is Batsim's 17 columns in Batsim's order, then the family's own; the same scenario writes the same
/// bytes; and a row is never on a processor outside the platform or on one another row holds at the same time.
#[test]
fn same_bytes_batsims_header_and_valid_processors() {
    for family in FAMILIES {
        let s = small(family);
        let (a, report) = run_with_jobs(&s);
        let (b, _) = run_with_jobs(&s);
        assert!(a == b, "{family}: two runs of one scenario wrote different bytes");
        let t = table(&a);
        assert_eq!(&t.header[..17], &BATSIM_COLUMNS.map(String::from)[..], "{family}");
        assert!(t.header.len() > 17, "{family}: its own columns follow");
        let processors = match &report {
            AnyReport::MultiCluster(r) => r.metrics.system.processors as u32,
            AnyReport::DesktopGrid(r) => r.workload.machines as u32,
            AnyReport::DataGrid(r) => r.scenario.data_grid.sites.iter().sum(),
        };
        // Every processor's executions, sorted by start, never overlap.
        let mut on: HashMap<u32, Vec<(f64, f64)>> = HashMap::new();
        for i in 0..t.rows.len() {
            let (start, finish) = (t.num(i, "starting_time"), t.num(i, "finish_time"));
            let mut count = 0;
            for range in t.text(i, "allocated_resources").split(' ') {
                let (lo, hi) = range.split_once('-').unwrap_or((range, range));
                let (lo, hi): (u32, u32) = (lo.parse().unwrap(), hi.parse().unwrap());
                assert!(lo <= hi && hi < processors, "{family}: row {i}: {range} outside 0–{}", processors - 1);
                for p in lo..=hi {
                    on.entry(p).or_default().push((start, finish));
                    count += 1;
                }
            }
            assert_eq!(count, t.num(i, "requested_number_of_resources") as u32, "{family}: row {i}");
        }
        for (p, mut spans) in on {
            spans.sort_by(|x, y| x.0.total_cmp(&y.0));
            for w in spans.windows(2) {
                assert!(w[0].1 <= w[1].0, "{family}: processor {p} runs {:?} and {:?} at once", w[0], w[1]);
            }
        }
    }
}

/// The CSV's mean waiting time and makespan are the report's: per task for the multi-cluster grid (with no
/// replicas the completing copy is the first, so the wait is the report's), per BoT for the desktop grid (its
/// first dispatch and last completion from its submission), per job for the data grid.
#[test]
fn means_and_makespan_from_the_csv_are_the_reports() {
    for family in FAMILIES {
        let (text, report) = run_with_jobs(&small(family));
        let t = table(&text);
        let (sub, finish, wait) = (t.column("submission_time"), t.column("finish_time"), t.column("waiting_time"));
        let last = finish.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let first = sub.iter().copied().fold(f64::INFINITY, f64::min);
        match &report {
            AnyReport::MultiCluster(r) => {
                let m = &r.metrics;
                assert_eq!(t.rows.len() as u64, m.tasks.finished);
                assert!(t.column("executions").iter().all(|&e| e == 1.0), "FPLT starts no replica");
                assert!(close(mean(&wait), m.tasks.wait.mean), "{} vs {}", mean(&wait), m.tasks.wait.mean);
                let response = t.column("turnaround_time");
                assert!(close(mean(&response), m.tasks.response.mean));
                assert!(close(last, m.system.end_time), "{last} vs {}", m.system.end_time);
                let busy: f64 = t.column("execution_time").iter().sum();
                let utilization = busy / (m.system.processors as f64 * m.system.end_time);
                assert!(close(utilization, m.system.utilization), "{utilization} vs {}", m.system.utilization);
            }
            AnyReport::DesktopGrid(r) => {
                let m = &r.metrics;
                assert_eq!(t.rows.len() as u64, m.finished_tasks);
                let mut bots: HashMap<u64, (f64, f64, f64)> = HashMap::new();
                for i in 0..t.rows.len() {
                    let e = bots.entry(t.num(i, "bot") as u64).or_insert((sub[i], f64::INFINITY, 0.0));
                    e.1 = e.1.min(t.num(i, "first_start"));
                    e.2 = e.2.max(finish[i]);
                }
                let mut keys: Vec<u64> = bots.keys().copied().collect();
                keys.sort_unstable();
                let waits: Vec<f64> = keys.iter().map(|k| bots[k].1 - bots[k].0).collect();
                let turnarounds: Vec<f64> = keys.iter().map(|k| bots[k].2 - bots[k].0).collect();
                assert_eq!(keys.len() as u64, m.finished_bots);
                assert!(close(mean(&waits), m.waiting.mean), "{} vs {}", mean(&waits), m.waiting.mean);
                assert!(close(mean(&turnarounds), m.turnaround.mean));
                assert!(close(last, m.end_time));
            }
            AnyReport::DataGrid(r) => {
                let m = &r.metrics;
                assert_eq!(t.rows.len() as u64, m.finished + m.killed);
                assert!(close(mean(&wait), m.waiting.mean), "{} vs {}", mean(&wait), m.waiting.mean);
                assert!(close(last - first, m.makespan), "{} vs {}", last - first, m.makespan);
            }
        }
    }
}

/// A run stopped at its horizon leaves its unfinished tasks out (Batsim writes only complete jobs) and says how
/// many: rows + left out = the workload's tasks.
#[test]
fn unfinished_tasks_are_left_out_and_counted() {
    let s = Scenario::from_json(r#"{"seed": 5, "workload": {"submission_period": 21600}, "horizon": 7200}"#)
        .expect("a valid scenario");
    let mut run = AnyRun::build(&s, None).expect("builds");
    run.stream_jobs(Box::new(Buffer::default()));
    run.step(Budget::ToEnd);
    let end = run.end_jobs().expect("streamed").expect("written");
    let AnyReport::MultiCluster(r) = run.report(0.0) else { panic!("a multi-cluster run") };
    assert!(end.left_out > 0, "the horizon stops the run with tasks unfinished");
    assert_eq!(end.rows, r.metrics.tasks.finished);
    assert_eq!(end.rows + end.left_out, r.metrics.tasks.tasks);
}

/// evalys (PyPI, pinned in scripts/python/requirements.txt, installed in .venv/ by scripts/setup.sh) reads the CSV
/// of each family and its figures agree with the report (`scripts/python/evalys_check.py`). Without the venv the
/// test says so and passes, except under CI, where the test command made it.
#[test]
fn evalys_reads_each_familys_csv_and_agrees_with_the_report() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let python = root.join(".venv/bin/python");
    if !python.exists() {
        assert!(std::env::var_os("CI").is_none(), "CI: scripts/setup.sh makes .venv/, which is missing");
        eprintln!("skipped: no .venv/ with evalys (scripts/setup.sh makes it)");
        return;
    }
    let dir = std::env::temp_dir().join(format!("bagsim-evalys-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for family in FAMILIES {
        let (csv, report) = run_with_jobs(&small(family));
        let (jobs, out) = (dir.join(format!("{family}.jobs.csv")), dir.join(format!("{family}.json")));
        std::fs::write(&jobs, csv).unwrap();
        std::fs::write(&out, report.to_json().unwrap()).unwrap();
        let check = std::process::Command::new(&python)
            .arg(root.join("scripts/python/evalys_check.py"))
            .args([&jobs, &out])
            .output()
            .expect("python runs");
        let said = String::from_utf8_lossy(&check.stdout);
        assert!(check.status.success(), "{family}:\n{said}{}", String::from_utf8_lossy(&check.stderr));
        assert!(said.lines().count() >= 4 && !said.contains("DIFFERS"), "{said}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
