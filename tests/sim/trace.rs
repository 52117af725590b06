//! Trace import (SWF, GWF, gzip) on the real fixtures of tests/data, the BoT extraction, the `bagsim trace`
//! command, trace-driven runs, and a property test: no input makes the parsers panic, and the counts add up.
//!
//! Expected figures come from awk over the fixtures, not from this code; each test shows its command.

use bagsim::run;
use bagsim::scenario::McScenario;
use bagsim::trace::bots::{extract, group, BotKey, BotRule, MultiProc};
use bagsim::trace::{import, import_as, import_path, Format, ImportError, Parser, Trace, MAX_SKIPS};
use bagsim::workload::fit::fit_workload;
use flate2::write::GzEncoder;
use proptest::prelude::*;
use std::io::Write;
use std::path::PathBuf;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

fn bytes(name: &str) -> Vec<u8> {
    std::fs::read(data(name)).unwrap()
}

fn gzip(b: &[u8]) -> Vec<u8> {
    let mut e = GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(b).unwrap();
    e.finish().unwrap()
}

/// A file in the temp directory, unique to this process and test.
fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("bagsim-{}-{name}", std::process::id()))
}

fn sizes(t: &Trace, rule: &BotRule) -> Vec<u32> {
    extract(t, rule).unwrap().workload.bots.iter().map(|b| b.size).collect()
}

#[test]
fn hpc2n_counts_and_header() {
    let t = import_path(&data("hpc2n.swf"), None).unwrap();
    let r = &t.report;
    // wc -l tests/data/hpc2n.swf                                   → 3194 (every line ends with a newline)
    // grep -c '^;' tests/data/hpc2n.swf                            → 23 header lines; line 3194 is " " (blank)
    // awk '!/^;/ && NF>=18' tests/data/hpc2n.swf | wc -l           → 3170 job lines
    // awk '!/^;/ && NF>=18 && $4==-1' tests/data/hpc2n.swf | wc -l → 25 with run time -1 (all with status -1)
    // awk '!/^;/ && NF>0 && NF!=18' tests/data/hpc2n.swf | wc -l   → 0 (no line with extra columns)
    assert_eq!((r.format, r.gzip), (Format::Swf, false));
    assert_eq!((r.lines, r.comments, r.jobs, r.skipped, r.extra_columns), (3194, 24, 3145, 25, 0));
    assert_eq!(r.by_reason.len(), 1);
    assert_eq!(r.by_reason["unknown run time"], 25);
    assert_eq!(t.jobs.len(), 3145);
    // The first run time of -1: awk '!/^;/ && $4==-1 {print NR; exit}' → 34 (job 16).
    let first = &r.first_skips[0];
    assert_eq!((first.line, first.field), (34, Some(4)));
    assert_eq!(first.to_string(), "line 34, field 4 (run time): unknown (-1); nothing to simulate");
    // grep -c '^; [A-Za-z]*:' tests/data/hpc2n.swf → 22 `Key: value` lines (the 23rd is a bare ";").
    assert_eq!(r.header.len(), 22);
    for (k, v) in [
        ("Version", "2.2"),
        ("Computer", "Linux cluster (Seth)"),
        ("Installation", "HPC2N - High Performance Computing Center North, Sweden"),
        ("MaxNodes", "240"),
        ("MaxProcs", "240"),
        ("UnixStartTime", "1027839845"),
        ("TimeZone", "3600"),
        ("Note", "uses MAUI scheduler"),
        ("MaxJobs", "527371"),
    ] {
        assert_eq!(r.header_value(k), Some(v), "{k}");
    }
    let partitions: Vec<&str> = r.header.iter().filter(|(k, _)| k == "Partition").map(|(_, v)| v.as_str()).collect();
    assert_eq!(partitions, ["1 DEFAULT", "2 ALL"]);
    // Last line: 7183 4950011 15715 129 50 … user 8.
    let last = t.jobs.last().unwrap();
    assert_eq!((last.line, last.id, last.submit, last.run, last.procs), (3193, 7183, 4_950_011.0, 129.0, 50));
    assert_eq!(t.name(last.user), "8");
    // 1027839845 + 3600 = 11 896 days + 29 045 s: time 0 is 08:04:05 on the local clock.
    assert_eq!(t.time_origin().offset, 29_045.0);
}

/// The Δ rule of [Minh10] §II-C done in awk on the (already sorted: awk '!/^;/ && NF>=18 {if ($2<p) print; p=$2}'
/// prints nothing) file, Δ = 100 s (the default, [Minh10] §IV), W = the 3 145 kept jobs:
///
/// ```text
/// awk -v D=100 -v MODE=reject '
/// function close_bot() { if (sz > 0) sizes[sz]++; sz = 0 }
/// !/^;/ && NF >= 18 && $2 >= 0 && $4 >= 0 && !($11 == 5 && $4 == 0) {
///   p = ($5 != -1) ? $5 : $8
///   key = $12 " " $13 " " $14 " " $15 " " $9 " " $8
///   if (n == 0 || key != pkey || $2 > psub + D) close_bot()
///   n++; pkey = key; psub = $2
///   if (MODE == "split") sz += p; else if (p == 1) sz++
/// }
/// END { close_bot(); for (s in sizes) print s, sizes[s] }' tests/data/hpc2n.swf
/// ```
///
/// then summed per size class; BoTs found by the rule (`g++` at each new BoT): 2 218 (2 181 at D=120); parallel jobs
/// ($5 > 1): 2 998; users ($12) with a one-processor job: 11, with any job: 17; Σ processors + serial jobs: 63 578.
#[test]
fn hpc2n_bots_match_an_independent_awk_count() {
    let t = import(&bytes("hpc2n.swf")).unwrap();
    let reject = extract(&t, &BotRule::default()).unwrap();
    let r = &reject.report;
    assert_eq!((r.jobs, r.groups, r.parallel_jobs, r.rejected_jobs), (3145, 2218, 2998, 2998));
    assert_eq!((r.bots, r.tasks, r.users), (131, 147, 11));
    assert_eq!(r.rejected_bots, 2218 - 131);
    let classes: Vec<u64> = r.size_classes.iter().map(|c| c.bots).collect();
    assert_eq!(classes, [122, 8, 1, 0, 0, 0, 0, 0, 0, 0]);
    assert!(r.multi_proc_note.starts_with("reject: 2998 of 3145 jobs"), "{}", r.multi_proc_note);

    let split = extract(&t, &BotRule { multi_proc: MultiProc::Split, ..BotRule::default() }).unwrap();
    let r = &split.report;
    assert_eq!((r.bots, r.tasks, r.users, r.split_jobs, r.rejected_jobs), (2218, 63_578, 17, 2998, 0));
    let classes: Vec<u64> = r.size_classes.iter().map(|c| c.bots).collect();
    assert_eq!(classes, [122, 246, 347, 604, 613, 187, 67, 31, 1, 0]);
    // Time 0 is the local midnight before the first job (08:04:05): the first BoT arrives at 29 045 s.
    assert_eq!(split.workload.bots[0].arrival, 29_045.0);
    assert!(split.workload.bots.windows(2).all(|b| b[0].arrival <= b[1].arrival));
    assert_eq!(split.users.iter().map(|u| u.bots).sum::<u64>(), 2218);

    // The fitted row covers every BoT and user (its parameters are the fitter's, tested in workload_model).
    let fit = fit_workload(&split.workload).unwrap();
    assert_eq!((fit.bots, fit.users.n), (2218, 17));
}

#[test]
fn ctc_excerpt_statuses_and_the_multi_processor_rule() {
    // 5 jobs, a one-line comment that is not a `Key: value` field; job 3 has status 0 (failed) and is kept.
    // Widths ($5): 306 17 306 64 64 (awk '!/^;/ {print $5}'); field 8 is -1 everywhere.
    let t = import_path(&data("ctc-sp2-excerpt.swf"), None).unwrap();
    assert_eq!((t.report.lines, t.report.comments, t.report.jobs, t.report.skipped), (6, 1, 5, 0));
    assert!(t.report.header.is_empty());
    assert_eq!(t.jobs.iter().map(|j| j.status).collect::<Vec<_>>(), [1, 1, 0, 1, 1]);
    assert_eq!(t.jobs.iter().map(|j| j.procs).collect::<Vec<_>>(), [306, 17, 306, 64, 64]);
    // Every job is parallel: rejected by default, an empty workload.
    let e = extract(&t, &BotRule::default()).unwrap();
    assert!(e.workload.bots.is_empty());
    assert_eq!((e.report.rejected_jobs, e.report.rejected_bots), (5, 5));
    // Split: jobs 4 and 5 (user 38, 93 s apart) differ in executable (38, 69): two BoTs by the six attributes,
    // one by the user alone.
    let split = BotRule { multi_proc: MultiProc::Split, ..BotRule::default() };
    assert_eq!(sizes(&t, &split), [306, 17, 306, 64, 64]);
    assert_eq!(sizes(&t, &BotRule { key: BotKey::User, ..split }), [306, 17, 306, 128]);
    // Jobs 4 and 5 are 93 s apart: Δ = 93 joins them, Δ = 92 does not.
    assert_eq!(group(&t.jobs, 93.0, BotKey::User).len(), 4);
    assert_eq!(group(&t.jobs, 92.0, BotKey::User).len(), 5);
}

#[test]
fn extra_columns_are_tolerated_and_counted() {
    let text = String::from_utf8(bytes("ctc-sp2-excerpt.swf")).unwrap();
    let wide: String =
        text.lines().map(|l| if l.starts_with(';') { format!("{l}\n") } else { format!("{l} 7 8.5 x\n") }).collect();
    let plain = import(text.as_bytes()).unwrap();
    let t = import(wide.as_bytes()).unwrap();
    assert_eq!(t.report.extra_columns, 5);
    assert_eq!(t.report.skipped, 0);
    assert_eq!(t.jobs, plain.jobs);
}

#[test]
fn malformed_lines_are_skipped_with_line_field_and_reason() {
    let text = String::from_utf8(bytes("hpc2n.swf")).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    // Line numbers are 1-based: lines[23] is line 24, the first job.
    lines[23] = lines[23].replacen(" 31405 ", " abc ", 1); // the first " 31405 " is the run time
    lines[24] = lines[24].split_whitespace().take(17).collect::<Vec<_>>().join(" ");
    lines[25] = lines[25].replacen("   30 ", "  3.5 ", 1); // allocated processors
    let t = import((lines.join("\n") + "\n").as_bytes()).unwrap();
    let messages: Vec<String> = t.report.first_skips.iter().take(3).map(|s| s.to_string()).collect();
    assert_eq!(
        messages,
        [
            r#"line 24, field 4 (run time): "abc" is not a number"#,
            "line 25: 17 fields; SWF has 18",
            r#"line 26, field 5 (allocated processors): "3.5" is not a whole number"#,
        ]
    );
    assert_eq!((t.report.jobs, t.report.skipped), (3142, 28));
    assert_eq!(t.report.lines, t.report.jobs + t.report.skipped + t.report.comments);
}

#[test]
fn gzip_whole_chunked_and_truncated() {
    let plain = bytes("hpc2n.swf");
    let reference = import(&plain).unwrap();
    let gz = gzip(&plain);
    let t = import(&gz).unwrap();
    assert!(t.report.gzip);
    assert_eq!((t.report.input_bytes, t.report.text_bytes), (gz.len() as u64, plain.len() as u64));
    assert_eq!(t.jobs, reference.jobs);
    // In 4 KiB chunks, as the page's worker would read a file, with the counts growing as it goes.
    let mut p = Parser::new(Format::Swf);
    let mut seen = 0;
    for c in gz.chunks(4096) {
        p.push(c).unwrap();
        assert!(p.report().lines >= seen);
        seen = p.report().lines;
    }
    assert_eq!(p.finish().unwrap().jobs, reference.jobs);
    // From a .swf.gz file.
    let path = temp("hpc2n.swf.gz");
    std::fs::write(&path, &gz).unwrap();
    let from_file = import_path(&path, None);
    std::fs::remove_file(&path).unwrap();
    assert_eq!(from_file.unwrap().jobs, reference.jobs);
    // Truncated anywhere: an error that says so, never a partial trace or a panic.
    for cut in [2, 10, 11, gz.len() / 3, gz.len() / 2, gz.len() - 9, gz.len() - 8, gz.len() - 1] {
        let e = import(&gz[..cut]).unwrap_err();
        assert!(matches!(e, ImportError::Gzip { .. }), "cut {cut}: {e:?}");
        assert!(e.to_string().starts_with("the gzip data is truncated or corrupt"), "{e}");
    }
}

#[test]
fn empty_missing_and_comment_only_files() {
    let path = temp("empty.swf");
    std::fs::write(&path, b"").unwrap();
    let e = import_path(&path, None);
    std::fs::remove_file(&path).unwrap();
    assert_eq!(e.unwrap_err(), ImportError::Empty);
    let e = import_path(&data("no-such-file.swf"), None).unwrap_err();
    assert!(matches!(e, ImportError::Io(_)), "{e:?}");
    assert!(e.to_string().contains("no-such-file.swf"), "{e}");
    let e = import(b"; Version: 2.2\n;\n").unwrap_err();
    assert_eq!(e.to_string(), "no job in the file: 2 lines read, 2 comment or blank, 0 skipped");
}

#[test]
fn gwf_lines() {
    // The GWA field list, with text identifiers and JobStructure as the archive writes them.
    let text = "# Computer: a grid\n# JobID SubmitTime WaitTime RunTime NProcs ...\n\
                1 1136070024 0 100 1 -1 -1 1 900 -1 1 U1 G1 app1 Q1 -1 site1 site1 UNITARY -1 -1 -1 -1 -1 -1 -1 -1 vo1 \
                -1\n\
                2 1136070074 0 120 1 -1 -1 1 900 -1 1 U1 G1 app1 Q1 -1 site1 site1 BoT 7 -1 -1 -1 -1 -1 -1 -1 vo1 -1\n\
                3 1136070300 0 -1 1 -1 -1 1 900 -1 5 U1 G1 app1 Q1 -1 site1 site1 BoT 7 -1 -1 -1 -1 -1 -1 -1 vo1 -1\n\
                4 1136070400 0 50 1 -1 -1 1 900 -1 1 U2 G1 app1 Q1 -1 site1 site1 UNITARY -1\n";
    let t = import_as(text.as_bytes(), Format::Gwf).unwrap();
    assert_eq!((t.report.jobs, t.report.skipped, t.report.comments), (2, 2, 2));
    assert_eq!(t.report.header_value("Computer"), Some("a grid"));
    assert_eq!(t.report.first_skips[1].to_string(), "line 6: 20 fields; GWF has 29");
    assert_eq!(sizes(&t, &BotRule::default()), [2]);
    // Gzip GWF: the format is read from the decompressed text, or from a file named .gwf.gz.
    assert_eq!(import(&gzip(text.as_bytes())).unwrap().report.format, Format::Gwf);
    let path = temp("grid.gwf.gz");
    std::fs::write(&path, gzip(text.as_bytes())).unwrap();
    let g = import_path(&path, None);
    std::fs::remove_file(&path).unwrap();
    assert_eq!(g.unwrap().jobs, t.jobs);
}

fn bagsim(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_bagsim")).args(args).output().unwrap()
}

#[test]
fn cli_trace_prints_the_report_and_writes_json() {
    let out = temp("hpc2n.json");
    let file = data("hpc2n.swf");
    let o =
        bagsim(&["trace", file.to_str().unwrap(), "--split-parallel", "--candidates", "--out", out.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&o.stderr));
    assert!(stdout.contains("lines: 3 194 read = 3 145 jobs kept + 25 skipped + 24 comment or blank"), "{stdout}");
    assert!(stdout.contains("3 145 jobs → 2 218 BoTs by the Δ rule"), "{stdout}");
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    std::fs::remove_file(&out).unwrap();
    let keys: Vec<&str> = json.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["bots", "candidates", "fit", "jobs", "skipped", "users"]);
    assert_eq!(json["jobs"]["kept"], 3145);
    assert_eq!(json["skipped"]["total"], 25);
    assert_eq!(json["bots"]["bots"], 2218);
    assert_eq!(json["users"].as_array().unwrap().len(), 17);
    assert!(json["fit"]["row"]["users"].as_str().unwrap().starts_with("Z("));
    // Every candidate: six families per characteristic, the marked one is the row's, and --candidates prints them.
    let chars = json["candidates"]["characteristics"].as_array().unwrap();
    let names: Vec<&str> = chars.iter().map(|c| c["characteristic"].as_str().unwrap()).collect();
    assert_eq!(names, ["daily cycle", "IAT", "size", "ART", "RTV"]);
    for (c, key) in chars.iter().zip(["daily_cycle", "iat", "size", "art", "rtv"]) {
        let k = c["candidates"].as_array().unwrap();
        assert_eq!(k.len(), 6);
        let best: Vec<&serde_json::Value> = k.iter().filter(|k| k["best"] == true).collect();
        assert_eq!(best.len(), 1, "{key}");
        assert_eq!(best[0]["fit"], json["fit"][key], "{key}: the marked candidate is the row's fit");
        assert_eq!(c["x"].as_array().unwrap().len(), c["empirical"].as_array().unwrap().len());
    }
    assert!(stdout.contains("every candidate (* the row's; KS D against the data):"), "{stdout}");
    assert_eq!(stdout.matches("\n   * ").count(), 5, "{stdout}");
}

#[test]
fn cli_trace_bad_input_exits_with_2() {
    let bad = temp("bad.swf");
    std::fs::write(&bad, "1 0 0 abc 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n").unwrap();
    let o = bagsim(&["trace", bad.to_str().unwrap()]);
    std::fs::remove_file(&bad).unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains(r#"line 1, field 4 (run time): "abc" is not a number"#), "{err}");
    let o = bagsim(&["trace", "no-such-file.swf"]);
    assert_eq!(o.status.code(), Some(2));
    let file = data("ctc-sp2-excerpt.swf");
    let o = bagsim(&["trace", file.to_str().unwrap(), "--delta", "-5"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--delta: -5 is out of range"));
}

fn trace_scenario(trace: &str) -> McScenario {
    let path = data("ctc-sp2-excerpt.swf");
    let json = format!(
        r#"{{"workload": {{"trace": {{"path": {:?}, {trace}}}}},
            "platform": {{"clusters": [{{"name": "big", "processors": 1000, "speed": 1.0}}]}}}}"#,
        path.to_str().unwrap()
    );
    McScenario::from_json(&json).unwrap()
}

#[test]
fn trace_driven_run_replays_submit_and_run_times() {
    // Split, six attributes: the five CTC jobs are five BoTs of 306, 17, 306, 64 and 64 one-processor tasks, at
    // their submit times (no UnixStartTime: time 0 is midnight). At most 306 + 128 processors are ever busy, so on
    // 1 000 processors of speed 1 nothing waits and each BoT's makespan is its job's run time.
    let s = trace_scenario(r#""delta": 120, "split_parallel": true"#);
    let p = run::prepare(&s).unwrap();
    let arrivals: Vec<f64> = p.generated.workload.bots.iter().map(|b| b.arrival).collect();
    assert_eq!(arrivals, [0.0, 164_472.0, 197_154.0, 310_448.0, 310_541.0]);
    let report = run::run(&s).unwrap();
    assert_eq!((report.workload.bots, report.workload.tasks), (5, 757));
    assert_eq!(report.workload.target_load, None);
    let m = &report.metrics;
    assert_eq!(m.tasks.finished, 757);
    assert_eq!(m.overall.makespan.max, 35_268.0);
    assert!((m.overall.makespan.mean - (937.0 + 75.0 + 35_268.0 + 29_493.0 + 29_063.0) / 5.0).abs() < 1e-9);
    assert_eq!(m.overall.wait.max, 0.0);
    // Rejected parallel jobs leave nothing to simulate: a scenario error that says why.
    let e = run::prepare(&trace_scenario(r#""delta": 120"#)).err().unwrap();
    assert_eq!(e.field, "workload.trace");
    assert!(e.message.contains("no BoT to simulate"), "{e}");
    // A missing file names the field and the file once.
    let mut missing = s.clone();
    missing.workload.trace.as_mut().unwrap().path = "no-such-trace.swf".into();
    let e = run::prepare(&missing).err().unwrap();
    assert_eq!(e.field, "workload.trace.path");
    assert_eq!(e.message.matches("no-such-trace.swf").count(), 1, "{e}");
    // Bad values name their field.
    let e = McScenario::from_json(r#"{"workload": {"trace": {"path": "x.swf", "delta": -1}}}"#).unwrap_err();
    assert_eq!(e.field, "workload.trace.delta");
    let e = McScenario::from_json(r#"{"workload": {"trace": {"path": "x.swf", "delt": 1}}}"#).unwrap_err();
    assert!(e.message.contains("delt"), "{e}");
    // Without a trace the scenario's JSON has no trace key (so every existing scenario and report is unchanged).
    let json = serde_json::to_value(McScenario::default()).unwrap();
    assert!(json["workload"].get("trace").is_none());
}

// ---------------------------------------------------------------------------------------------------------------
// Property tests.

/// Lines in `text` counted independently of the parser: newlines, plus an unterminated last line.
/// Lines end at LF, CR LF or a lone CR (old Mac files); a last line without an end counts too.
fn line_count(text: &[u8]) -> u64 {
    let ends = (0..text.len())
        .filter(|&i| text[i] == b'\n' && (i == 0 || text[i - 1] != b'\r') || text[i] == b'\r')
        .count() as u64;
    ends + u64::from(!text.is_empty() && !matches!(text.last(), Some(b'\n' | b'\r')))
}

/// Parses `input` in two pushes split at `cut` and checks the bookkeeping; `text` is the plain text, when known.
fn check(input: &[u8], text: Option<&[u8]>, format: Format, cut: usize) -> Result<(), TestCaseError> {
    let cut = cut % (input.len() + 1);
    let mut p = Parser::new(format);
    let pushed = p.push(&input[..cut]).and_then(|()| p.push(&input[cut..]));
    let result = match pushed {
        Ok(()) => p.finish(),
        Err(e) => Err(e),
    };
    let report = match &result {
        Ok(t) => {
            prop_assert_eq!(t.jobs.len() as u64, t.report.jobs);
            prop_assert!(t.jobs.iter().all(|j| j.run >= 0.0 && j.submit >= 0.0 && j.procs >= 1));
            t.report.clone()
        }
        Err(ImportError::NoJobs(r)) => {
            prop_assert_eq!(r.jobs, 0);
            (**r).clone()
        }
        Err(ImportError::Empty) => {
            prop_assert!(input.is_empty());
            return Ok(());
        }
        Err(ImportError::Gzip { .. }) => {
            prop_assert!(input.starts_with(&[0x1f, 0x8b]));
            return Ok(());
        }
        Err(e) => return Err(TestCaseError::fail(format!("unexpected {e:?}"))),
    };
    prop_assert_eq!(report.lines, report.jobs + report.skipped + report.comments);
    prop_assert_eq!(report.by_reason.values().sum::<u64>(), report.skipped);
    prop_assert_eq!(report.first_skips.len() as u64, report.skipped.min(MAX_SKIPS as u64));
    prop_assert!(report.first_skips.windows(2).all(|s| s[0].line < s[1].line));
    if let Some(text) = text {
        prop_assert_eq!(report.lines, line_count(text));
        prop_assert_eq!(report.text_bytes, text.len() as u64);
    }
    Ok(())
}

/// The first 60 lines of each fixture format: SWF from hpc2n (header and jobs), GWF hand-written.
fn seed_text(gwf: bool) -> Vec<String> {
    if gwf {
        (0..40)
            .map(|i| {
                format!(
                    "{i} {} 0 {} {} -1 -1 1 900 -1 1 U{} G1 app Q1 -1 s1 s1 UNITARY -1 -1 -1 -1 -1 -1 -1 -1 vo -1",
                    1_136_070_000 + 37 * i,
                    10 + i,
                    1 + i % 3,
                    i % 4
                )
            })
            .chain(["# Note: hand-made".to_string()])
            .collect()
    } else {
        String::from_utf8(bytes("hpc2n.swf")).unwrap().lines().take(60).map(str::to_string).collect()
    }
}

/// One edit of the seed lines: which line, which token, what kind, and arbitrary bytes.
fn mutate(lines: &mut Vec<Vec<u8>>, (at, token, kind, junk): &(usize, usize, u8, Vec<u8>)) {
    let i = at % lines.len();
    let mut tokens: Vec<Vec<u8>> =
        lines[i].split(|b| b.is_ascii_whitespace()).filter(|t| !t.is_empty()).map(<[u8]>::to_vec).collect();
    let k = if tokens.is_empty() { 0 } else { token % tokens.len() };
    match kind % 7 {
        0 if !tokens.is_empty() => tokens[k] = junk.clone(),
        1 if !tokens.is_empty() => {
            tokens.remove(k);
        }
        2 => tokens.push(junk.clone()),
        3 => {
            let mut l = lines[i].clone();
            let pos = token % (l.len() + 1);
            l.splice(pos..pos, junk.iter().copied());
            lines[i] = l;
            return;
        }
        4 => {
            let l = lines[i].clone();
            lines.insert(i, l);
            return;
        }
        5 => {
            let pos = token % (lines[i].len() + 1);
            lines[i].truncate(pos);
            return;
        }
        // A plausible number in a random field: "-1", "0", a huge value, a negative one, a fraction.
        _ if !tokens.is_empty() => {
            let values: [&[u8]; 6] = [b"-1", b"0", b"1e300", b"-7", b"2.5", b"4294967296"];
            tokens[k] = values[junk.len() % values.len()].to_vec();
        }
        _ => {}
    }
    lines[i] = tokens.join(&b' ');
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(input in proptest::collection::vec(any::<u8>(), 0..3000), cut in any::<usize>()) {
        let _ = import(&input);
        for format in [Format::Swf, Format::Gwf] {
            let text = (!input.starts_with(&[0x1f, 0x8b])).then_some(input.as_slice());
            check(&input, text, format, cut)?;
            // The same bytes behind a gzip magic: a corrupt stream, reported.
            let mut fake = vec![0x1f, 0x8b];
            fake.extend_from_slice(&input);
            check(&fake, None, format, cut)?;
        }
    }

    #[test]
    fn mutated_lines_are_counted(
        edits in proptest::collection::vec((any::<usize>(), any::<usize>(), any::<u8>(),
            proptest::collection::vec(any::<u8>(), 0..12)), 1..12),
        gwf in any::<bool>(),
        cut in any::<usize>(),
        compress in any::<bool>(),
    ) {
        let mut lines: Vec<Vec<u8>> = seed_text(gwf).into_iter().map(String::into_bytes).collect();
        for e in &edits {
            mutate(&mut lines, e);
        }
        let text = lines.join(&b'\n');
        let format = if gwf { Format::Gwf } else { Format::Swf };
        if compress {
            check(&gzip(&text), Some(&text), format, cut)?;
        } else if !text.starts_with(&[0x1f, 0x8b]) {
            check(&text, Some(&text), format, cut)?;
        }
    }

    #[test]
    fn corrupted_gzip_never_panics(at in any::<usize>(), byte in any::<u8>(), cut in any::<usize>()) {
        let text = seed_text(false).join("\n");
        let mut gz = gzip(text.as_bytes());
        let i = at % gz.len();
        gz[i] = byte;
        check(&gz, None, Format::Swf, cut)?;
        let _ = import(&gz);
    }
}

/// A job of p processors kept whole: one task that needs p processors at once, the trace's processor counts kept
/// in `Workload::procs`, and the same CPU-seconds as splitting it into p sequential tasks.
#[test]
fn parallel_jobs_kept_whole_carry_their_processor_counts() {
    let t = import(include_bytes!("../data/hpc2n.swf")).unwrap();
    let keep = extract(&t, &BotRule { multi_proc: MultiProc::Keep, ..BotRule::default() }).unwrap();
    let split = extract(&t, &BotRule { multi_proc: MultiProc::Split, ..BotRule::default() }).unwrap();
    let reject = extract(&t, &BotRule::default()).unwrap();
    let w = &keep.workload;
    assert_eq!(w.procs.len(), w.tasks(), "one processor count per task");
    // Every job is one task, whatever its processors; the BoTs are those of the split (same jobs, same groups).
    assert_eq!(w.tasks() as u64, reject.workload.tasks() as u64 + keep.report.parallel_jobs);
    assert_eq!(w.bots.len(), split.workload.bots.len());
    let wide = w.procs.iter().filter(|&&p| p > 1).count() as u64;
    assert_eq!(wide, keep.report.parallel_jobs);
    assert!(wide > 0, "the excerpt has parallel jobs");
    let extra: u64 = w.procs.iter().map(|&p| u64::from(p) - 1).sum();
    assert_eq!(w.tasks() as u64 + extra, split.workload.tasks() as u64, "p processors = p split tasks");
    let (a, b) = (w.total_work(), split.workload.total_work());
    assert!((a - b).abs() <= 1e-12 * b, "CPU-seconds {a} vs {b}");
    assert!(keep.report.multi_proc_note.starts_with("keep:"), "{}", keep.report.multi_proc_note);
    // A workload of single-processor tasks says so by an empty list, and its JSON is as before.
    assert!(reject.workload.procs.is_empty() && reject.workload.data.is_empty());
    let json = serde_json::to_string(&reject.workload).unwrap();
    assert!(!json.contains("procs") && !json.contains("data"), "{}", &json[..200]);
}

/// A multi-cluster replay of a log of mostly parallel jobs says first, in numbers, how much of the log it runs
/// (issue #45 item 6). awk '!/^;/ && NF>=18 && $4!=-1 && $5>1' tests/data/hpc2n.swf | wc -l → 2998 jobs of several
/// processors among the 3 145 kept (`hpc2n_counts_and_header`): 147 remain, 95% are left out.
#[test]
fn a_replay_that_leaves_most_of_a_log_out_says_so_first() {
    let dir = std::env::temp_dir().join(format!("bagsim-replay-share-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let scenario = dir.join("s.json");
    let trace = data("hpc2n.swf");
    let json = format!(r#"{{"workload":{{"trace":{{"path":{:?}}}}}}}"#, trace.to_str().unwrap());
    std::fs::write(&scenario, json).unwrap();
    let o = bagsim(&["run", scenario.to_str().unwrap()]);
    let _ = std::fs::remove_dir_all(&dir);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}{}", String::from_utf8_lossy(&o.stderr));
    let first = out.lines().find(|l| l.starts_with("warning: ")).unwrap_or_default();
    assert!(
        first.starts_with("warning: only 147 of the log's 3 145 jobs are simulated (95% left out): 2 998 jobs"),
        "{out}"
    );
    assert!(first.contains("split_parallel") && first.contains("data-grid family"), "{first}");
}
