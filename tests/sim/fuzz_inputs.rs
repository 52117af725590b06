//! Inputs of the issue "Trust, round three" through the built binary: compressed traces that expand (#41 item 4),
//! extreme requested times in a data-grid log (item 6), and two messages of item 8 (the field a desktop-grid refusal
//! names, −0 in `trace --out`). Generated cases are seeded, so a failure reproduces; each is refused naming what is
//! wrong (exit code 2) or runs clean (`cli_edges::clean`).

use super::cli_edges::{bad_numbers, bagsim, clean, clean_files, dir, text};
use bagsim::engine::Rng;
use serde_json::{json, Value};
use std::io::Write;
use std::path::Path;
use std::process::Output;

/// Address space a run of a trace may take, KiB. An import keeps its jobs, a bounded header, the first skipped
/// lines, one line and one decompressed step; the inputs below are one job and 64–128 MiB of text, which an import
/// that kept a record per line read (about 110 B per header line) could not hold in it.
const CAP_KIB: u64 = 512 * 1024;

/// `bagsim args…` in `dir`, with its address space capped at [`CAP_KIB`]: an import whose memory follows what it
/// reads fails to allocate and aborts, which [`clean`] reports.
fn bagsim_capped(dir: &Path, args: &[&str]) -> Output {
    std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {CAP_KIB} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_bagsim"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn pick<'a, T>(rng: &mut Rng, items: &'a [T]) -> &'a T {
    &items[rng.below(items.len() as u64) as usize]
}

fn gzip(text: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    e.write_all(text).unwrap();
    e.finish().unwrap()
}

/// One SWF job line: job 1, submitted at 0, `run` s on 1 processor, requesting `req` s.
fn job(id: u64, submit: u64, run: &str, req: &str) -> String {
    format!("{id} {submit} 0 {run} 1 -1 -1 1 {req} -1 1 1 1 -1 -1 -1 -1 -1")
}

/// The kinds of line a compressed input repeats: none becomes a job.
const KINDS: [&str; 6] = ["header", "long header", "comment", "blank", "skipped", "overlong"];

/// A line of `kind` (without its end).
fn line_of(kind: &str, k: u64) -> String {
    match kind {
        "header" => "; N: x".to_string(),
        "long header" => format!("; Note: {}{k}", "n".repeat(4000)),
        "comment" => format!("; {k}"),
        "blank" => String::new(),
        "skipped" => format!("x {k}"),
        _ => "9".repeat(70_000),
    }
}

/// Item 4, generated: a gzip file of one member of about 1 MiB of lines of one kind, repeated to 64–128 MiB of text
/// (gzip members concatenate), with or without one job at the end, read by `trace`, a data-grid run or a
/// multi-cluster run on the trace. Memory stays under [`CAP_KIB`]; the counts are those of the file written.
fn expanding(rng: &mut Rng, d: &Path, kind: &str) -> String {
    let end = *pick(rng, &["\n", "\r\n", "\r"]);
    let (mut member, mut lines) = (String::new(), 0u64);
    while member.len() < 1 << 20 {
        member.push_str(&line_of(kind, lines));
        member.push_str(end);
        lines += 1;
    }
    let repeats = 64 + rng.below(65);
    let with_job = rng.below(4) != 0;
    let one = gzip(member.as_bytes());
    let mut bytes = Vec::with_capacity(one.len() * repeats as usize + 100);
    for _ in 0..repeats {
        bytes.extend_from_slice(&one);
    }
    if with_job {
        bytes.extend(gzip(format!("{}\n", job(1, 0, "100", "200")).as_bytes()));
    }
    std::fs::write(d.join("big.swf.gz"), &bytes).unwrap();
    let total = lines * repeats + u64::from(with_job);
    let consumer = *pick(rng, &["trace", "data grid", "multi-cluster"]);
    let case = format!("{kind} × {total} lines ({end:?}), job {with_job}, {consumer}");
    let o = match consumer {
        "trace" => bagsim_capped(d, &["trace", "big.swf.gz", "--out", "t.json"]),
        "data grid" => {
            let s = json!({"family": "data_grid", "data_grid": {"trace": "big.swf.gz", "jobs": 10}});
            std::fs::write(d.join("s.json"), s.to_string()).unwrap();
            bagsim_capped(d, &["run", "s.json"])
        }
        _ => {
            let s = json!({"workload": {"trace": {"path": "big.swf.gz"}}});
            std::fs::write(d.join("s.json"), s.to_string()).unwrap();
            bagsim_capped(d, &["run", "s.json"])
        }
    };
    clean(&case, &o);
    let t = text(&o);
    if !with_job {
        assert_eq!(o.status.code(), Some(2), "{case}: {t}");
        assert!(t.contains("no job in the file") && t.contains(&format!("{total} lines read")), "{case}: {t}");
        return case;
    }
    assert!(o.status.success(), "{case}: {t}");
    if consumer == "trace" {
        let r: Value = serde_json::from_str(&std::fs::read_to_string(d.join("t.json")).unwrap()).unwrap();
        let jobs = &r["jobs"];
        assert_eq!((jobs["lines"].as_u64(), jobs["kept"].as_u64()), (Some(total), Some(1)), "{case}");
        let kept = jobs["header"].as_array().unwrap();
        let header_lines = if kind.contains("header") { total - 1 } else { 0 };
        // Every header line is kept or counted, and what is kept is bounded, whatever the file holds.
        assert_eq!(kept.len() as u64 + jobs["header_dropped"].as_u64().unwrap(), header_lines, "{case}");
        let bytes: usize =
            kept.iter().map(|f| f["key"].as_str().unwrap().len() + f["value"].as_str().unwrap().len()).sum();
        assert!(bytes <= bagsim::trace::MAX_HEADER_BYTES, "{case}: {bytes} bytes of header kept");
        assert!(r["skipped"]["first"].as_array().unwrap().len() <= bagsim::trace::MAX_SKIPS, "{case}");
    }
    case
}

#[test]
fn compressed_inputs_that_expand_are_read_in_bounded_memory() {
    let cases = std::env::var("BAGSIM_FUZZ_INPUTS").ok().and_then(|v| v.parse().ok()).unwrap_or(KINDS.len());
    let mut rng = Rng::new(41);
    let d = dir("expanding");
    for k in 0..cases {
        let case = expanding(&mut rng, &d, KINDS[k % KINDS.len()]);
        eprintln!("case {k}: {case}");
    }
}

/// Item 4 by hand: the issue's reproducer, 40 million header lines in a gzip of under 1 MB, read in bounded memory,
/// every line counted; and header fields past the bound are counted in the text report.
#[test]
fn forty_million_header_lines_are_counted_not_kept() {
    let d = dir("forty-million");
    let lines = 40_000_000u64;
    let per_member = 1u64 << 17;
    let one = gzip("; Note: x\n".repeat(per_member as usize).as_bytes());
    let mut bytes = Vec::new();
    for _ in 0..lines / per_member {
        bytes.extend_from_slice(&one);
    }
    bytes.extend(gzip("; Note: x\n".repeat((lines % per_member) as usize).as_bytes()));
    bytes.extend(gzip(format!("{}\n", job(1, 0, "10", "-1")).as_bytes()));
    assert!(bytes.len() < 1 << 20, "{} bytes", bytes.len());
    std::fs::write(d.join("big.swf.gz"), &bytes).unwrap();
    let o = bagsim_capped(&d, &["trace", "big.swf.gz"]);
    clean("40 million header lines", &o);
    assert!(o.status.success(), "{}", text(&o));
    let out = text(&o);
    let group = |n: u64| bagsim::family::contract::group_digits(&n.to_string());
    let read =
        format!("lines: {} read = 1 jobs kept + 0 skipped + {} comment or blank", group(lines + 1), group(lines));
    assert!(out.contains(&read), "{out}");
    let line = out.lines().find(|l| l.starts_with("header fields:")).unwrap();
    let kept = (bagsim::trace::MAX_HEADER_BYTES / "Notex".len()) as u64;
    assert!(line.contains(&format!("{} kept, {} more read and not kept", group(kept), group(lines - kept))), "{line}");

    let fields = 20_000u64;
    let mut t: String = (0..fields).map(|k| format!("; Note: {k:08}\n")).collect();
    t.push_str(&job(1, 0, "10", "-1"));
    std::fs::write(d.join("h.swf"), t).unwrap();
    let o = bagsim_capped(&d, &["trace", "h.swf"]);
    clean("20 000 header fields", &o);
    let out = text(&o);
    let line = out.lines().find(|l| l.starts_with("header fields:")).unwrap();
    let kept = (bagsim::trace::MAX_HEADER_BYTES / "Note00000000".len()) as u64;
    assert!(line.contains(&format!("{} kept, {} more read and not kept", group(kept), group(fields - kept))), "{line}");
}

/// A data-grid scenario on `log` (plain SWF text) with walltime `walltime`, and its run.
fn dd_run(d: &Path, log: &str, walltime: &str, extra: &[&str]) -> Output {
    std::fs::write(d.join("log.swf"), log).unwrap();
    let s = json!({"family": "data_grid", "data_grid": {"trace": "log.swf", "walltime": walltime, "data_share": 0}});
    std::fs::write(d.join("s.json"), s.to_string()).unwrap();
    let mut args = vec!["run", "s.json"];
    args.extend(extra);
    bagsim(d, &args)
}

/// A log of three jobs whose job on line 3 requests `req` s and ran 50 s.
fn log_with_request(req: &str) -> String {
    format!("; Version: 2.2\n{}\n{}\n{}\n", job(1, 0, "100", "200"), job(2, 10, "50", req), job(3, 20, "10", "20"))
}

/// Item 6, generated: a requested time at either side of each end of the allowed range, or far outside it, under
/// both walltime readings. Out of range: refused naming the file's line, field 9 and the range; in range: the run's
/// per-job CSV holds only numbers a reader can trust.
#[test]
fn requested_times_out_of_range_are_refused_with_the_line() {
    let d = dir("requests");
    let mut rng = Rng::new(6);
    let max = bagsim::trace::MAX_TIME;
    let values = [
        (-2.0, false),
        (-1e-9, false),
        (-1.0, true),
        (0.0, true),
        (1e-300, true),
        (5e-324, true),
        (1.0, true),
        (max, true),
        (max * (1.0 + f64::EPSILON), false),
        (1e308, false),
        (f64::MAX, false),
    ];
    for case in 0..values.len() * 2 {
        let (req, in_range) = values[case / 2];
        let walltime = *pick(&mut rng, &["run_to_log", "kill"]);
        let req_text = format!("{req:e}");
        let o = dd_run(&d, &log_with_request(&req_text), walltime, &["--csv", "jobs.csv", "--out", "r.json"]);
        let what = format!("request {req_text} under {walltime}");
        clean(&what, &o);
        let t = text(&o);
        // A kill at 0 of a job that ran is no run (see the next test).
        if !in_range || (req == 0.0 && walltime == "kill") {
            assert_eq!(o.status.code(), Some(2), "{what}: {t}");
            assert!(t.contains("log.swf: line 3, field 9 (requested time)"), "{what}: {t}");
            if !in_range {
                assert!(t.contains("is out of range; allowed 0–1e11 s, or -1 = unknown"), "{what}: {t}");
            }
        } else {
            assert!(o.status.success(), "{what}: {t}");
            clean_files(&what, &d);
            let csv = std::fs::read_to_string(d.join("jobs.csv")).unwrap();
            assert_eq!(csv.lines().count(), 4, "{what}: {csv}");
        }
    }
}

/// Item 6 by hand: a request of 0 s under walltime `kill` is refused, saying what a kill at 0 would mean; under
/// `run_to_log` it runs (the request is raised to the run); a job with a run of 0 may request 0.
#[test]
fn a_kill_at_zero_is_refused_and_a_killed_job_is_not_finished() {
    let d = dir("kill-zero");
    let o = dd_run(&d, &log_with_request("0"), "kill", &[]);
    clean("request 0 under kill", &o);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let t = text(&o);
    assert!(t.contains("line 3, field 9 (requested time): 0 s, and the job ran 50 s"), "{t}");
    assert!(t.contains("stop it at its start, before it computed anything"), "{t}");
    assert!(t.contains("data_grid.walltime"), "{t}");
    let o = dd_run(&d, &log_with_request("0"), "run_to_log", &[]);
    assert!(o.status.success(), "{}", text(&o));
    let zero_run = format!("{}\n{}\n", job(1, 0, "0", "0"), job(2, 5, "10", "20"));
    assert!(dd_run(&d, &zero_run, "kill", &[]).status.success());

    // Job 2 ran 50 s and requested 30: stopped at 30 s, it ended unfinished.
    let o = dd_run(&d, &log_with_request("30"), "kill", &["--out", "r.json"]);
    assert!(o.status.success(), "{}", text(&o));
    let r: Value = serde_json::from_str(&std::fs::read_to_string(d.join("r.json")).unwrap()).unwrap();
    let m = &r["metrics"];
    assert_eq!((m["jobs"].as_u64(), m["killed"].as_u64(), m["finished"].as_u64()), (Some(3), Some(1), Some(2)));
}

/// Item 8, generated: a desktop-grid refusal of the task cap names the field that passes it. `application_size`
/// alone (one BoT of it is more than the cap), else `bots` for the application size given.
#[test]
fn the_task_cap_names_the_field_that_passes_it() {
    let d = dir("task-cap");
    let mut rng = Rng::new(8);
    let cap = 50e6 * 500.0;
    for case in 0..12 {
        let size = *pick(&mut rng, &[1e12, 3e10, cap * 1.01, 1e10, 2e9, 1e8]);
        let bots = *pick(&mut rng, &[1u32, 2, 200, 1000, 1_000_000]);
        let s = json!({"family": "desktop_grid", "desktop_grid": {"application_size": size, "bots": bots}});
        std::fs::write(d.join("s.json"), s.to_string()).unwrap();
        let o = bagsim(&d, &["sweep", "s.json", "--plan", "1", "--out", "p", "--set", "seed=1"]);
        let what = format!("case {case}: application_size {size:e}, bots {bots}");
        clean(&what, &o);
        let t = text(&o);
        if size > cap {
            assert_eq!(o.status.code(), Some(2), "{what}: {t}");
            assert!(t.contains("desktop_grid.application_size:") && !t.contains("desktop_grid.bots:"), "{what}: {t}");
        } else if f64::from(bots) * size / 500.0 > 50e6 {
            assert_eq!(o.status.code(), Some(2), "{what}: {t}");
            let most = (50e6 / (size / 500.0)).floor();
            assert!(t.contains(&format!("desktop_grid.bots: {bots} BoTs")), "{what}: {t}");
            assert!(t.contains(&format!("allowed 1–{most:.0} BoTs")), "{what}: {t}");
        } else {
            assert!(o.status.success(), "{what}: {t}");
        }
    }
}

/// Item 8, generated: `trace --out` of small logs (one job, jobs in one interval, a zone before the epoch) holds no
/// −0, nor does its text.
#[test]
fn trace_out_has_no_negative_zero() {
    let d = dir("negative-zero");
    let mut rng = Rng::new(80);
    for case in 0..8 {
        let zone = *pick(&mut rng, &["", "; UnixStartTime: 0\n; TimeZone: -3600\n"]);
        let n = 1 + rng.below(3);
        let mut t = zone.to_string();
        for k in 0..n {
            let submit = *pick(&mut rng, &[0u64, 1, 86_399, 86_400]);
            let run = *pick(&mut rng, &["0", "-0", "1", "3600"]);
            t.push_str(&format!("{}\n", job(k + 1, submit, run, "-1")));
        }
        std::fs::write(d.join("t.swf"), &t).unwrap();
        let o = bagsim(&d, &["trace", "t.swf", "--views", "--out", "t.json"]);
        let what = format!("case {case}:\n{t}");
        clean(&what, &o);
        assert!(o.status.success(), "{what}{}", text(&o));
        let json = std::fs::read_to_string(d.join("t.json")).unwrap();
        assert!(bad_numbers(&json).is_empty() && !json.contains("-0.0"), "{what}: {:?}", bad_numbers(&json));
    }
}
