//! `bagsim sweep --jobs-csv STEM`: each point's per-task records in Batsim's jobs.csv columns, one file per point
//! named by its index, the very bytes `bagsim run --jobs` writes for the point's scenario; the same from a planned
//! study's shard; refused where there is no one scenario per point (docs/jobs.md).

use crate::jobs_csv::small;
use std::path::{Path, PathBuf};
use std::process::Output;

fn bagsim(dir: &Path, args: &[&str]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_bagsim")).current_dir(dir).args(args).output().unwrap()
}

fn ok(o: Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).to_string()
}

/// A fresh directory for one test.
fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("bagsim-sweep-jobs-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A two-point sweep of a small desktop grid (seeds 5 and 6) writes two files, point 0's equal to `run --jobs`
/// of the scenario with seed 5 and point 1's to seed 6's; a shard of the same sweep planned in two writes its one
/// point's file, with the same bytes.
#[test]
fn a_two_point_sweep_writes_each_points_run_jobs() {
    let d = dir("two");
    std::fs::write(d.join("dg.json"), serde_json::to_string(&small("desktop_grid")).unwrap()).unwrap();
    let said =
        ok(bagsim(&d, &["sweep", "dg.json", "--set", "seed=5,6", "--out", "s", "--jobs-csv", "rec", "--jobs", "2"]));
    assert!(
        said.contains("wrote 2 jobs.csv files, one per point: rec.point-0.jobs.csv … rec.point-1.jobs.csv"),
        "{said}"
    );
    for (k, seed) in [(0, "5"), (1, "6")] {
        ok(bagsim(&d, &["run", "dg.json", "--seed", seed, "--jobs", &format!("run-{seed}.csv")]));
        let (swept, run) = (d.join(format!("rec.point-{k}.jobs.csv")), d.join(format!("run-{seed}.csv")));
        let (swept, run) = (std::fs::read(swept).unwrap(), std::fs::read(run).unwrap());
        assert!(swept.len() > 1000 && swept == run, "point {k}: not the bytes of run --seed {seed} --jobs");
    }
    let one = std::fs::read(d.join("rec.point-0.jobs.csv")).unwrap();
    assert!(one != std::fs::read(d.join("rec.point-1.jobs.csv")).unwrap(), "two seeds, two schedules");
    // No file is left behind but the outputs.
    let mut names: Vec<String> =
        std::fs::read_dir(&d).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    let want = ["dg.json", "rec.point-0.jobs.csv", "rec.point-1.jobs.csv", "run-5.csv", "run-6.csv", "s.csv", "s.json"];
    assert_eq!(names, want);

    ok(bagsim(&d, &["sweep", "dg.json", "--set", "seed=5,6", "--out", "p", "--plan", "2"]));
    let said = ok(bagsim(&d, &["sweep", "--manifest", "p.manifest.json", "--shard", "1", "--jobs-csv", "sh"]));
    assert!(said.contains("wrote sh.point-1.jobs.csv (the per-task records of point 1)"), "{said}");
    assert!(!d.join("sh.point-0.jobs.csv").exists(), "shard 1 holds point 1 only");
    assert!(std::fs::read(d.join("sh.point-1.jobs.csv")).unwrap() == std::fs::read(d.join("run-6.csv")).unwrap());
    std::fs::remove_dir_all(&d).ok();
}

/// Where no point is one scenario (a figure's study), or nothing runs (a plan), --jobs-csv is refused with the
/// reason and exit code 2, before any work.
#[test]
fn jobs_csv_is_refused_where_it_makes_no_sense() {
    let d = dir("refused");
    std::fs::write(d.join("dg.json"), serde_json::to_string(&small("desktop_grid")).unwrap()).unwrap();
    let o = bagsim(&d, &["sweep", "dg.json", "--set", "seed=5,6", "--plan", "2", "--jobs-csv", "rec"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("--jobs-csv with --plan: a plan runs nothing"), "{err}");
    ok(bagsim(&d, &["reproduce", "fig3", "--seeds", "1", "--plan", "2", "--out", "fig"]));
    let o = bagsim(&d, &["sweep", "--manifest", "fig.manifest.json", "--shard", "0", "--jobs-csv", "rec"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("is a figure's study (kind \"reproduce\")"), "{err}");
    assert!(!d.join("fig.shard-0.json").exists(), "refused before it runs");
    // `bagsim slurm --jobs-csv` refuses the figure's study too, before writing a script; a sweep's study gets the
    // option on its shards' command line.
    let o = bagsim(&d, &["slurm", "fig.manifest.json", "--jobs-csv"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("is a figure's study (kind \"reproduce\")"), "{err}");
    assert!(!d.join("fig.sbatch").exists(), "refused before it writes");
    ok(bagsim(&d, &["sweep", "dg.json", "--set", "seed=5,6", "--out", "sw", "--plan", "2"]));
    ok(bagsim(&d, &["slurm", "sw.manifest.json", "--jobs-csv"]));
    let script = std::fs::read_to_string(d.join("sw.sbatch")).unwrap();
    let stem = d.join("sw").canonicalize().unwrap_or_else(|_| std::fs::canonicalize(&d).unwrap().join("sw"));
    assert!(script.contains(&format!("--jobs-csv '{}'\n", stem.display())), "{script}");
    std::fs::remove_dir_all(&d).ok();
}
