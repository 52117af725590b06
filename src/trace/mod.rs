//! Workload traces: SWF and GWF import (plain or gzip, chunk by chunk, with a report of every skipped line) and the
//! extraction of BoTs from the imported jobs ([`bots`]).
//!
//! Which lines become jobs (the same rule for both formats; fields 1–15 mean the same in SWF and GWF):
//! - comment lines (`;` in SWF, `#` in GWF) and blank lines are counted as comments; `Key: value` comments are
//!   header fields, kept in file order up to [`MAX_HEADER_BYTES`] of text and only counted past it;
//! - a line with fewer fields than the format has is skipped; extra trailing columns are tolerated and counted;
//! - a field the importer reads that is not a (finite) number, or not a whole number where one is required, skips
//!   the line (SWF: all 18 fields are numbers; GWF: fields 1–5, 8, 9 and 11, the others may be text such as
//!   JobStructure `UNITARY`);
//! - submit time unknown (−1), negative or above [`MAX_TIME`]: skipped (a job must arrive somewhere in time);
//! - run time unknown (−1), negative or above [`MAX_TIME`]: skipped (nothing to simulate; a run of 10^308 s would
//!   make every sum infinite);
//! - status (field 11): 1 completed, 0 failed, 5 cancelled, −1 unknown are kept (a failed or cancelled job held its
//!   processors for its run time); 2–4 mark the partial executions of checkpointed or swapped jobs, which this
//!   importer does not reassemble: skipped; any other value: skipped as out of range;
//! - status 5 with run time 0: cancelled before it started, skipped (it never used a processor);
//! - processors: the allocated count (field 5), or the requested count (field 8) when field 5 is −1; both unknown,
//!   0, or above [`MAX_PROCS`]: skipped. Jobs of several processors are kept here; what becomes of them in a BoT
//!   workload is the [`bots::MultiProc`] rule.
//!
//! So for every import, `lines == jobs + skipped + comments` ([`ImportReport`]).

pub mod batsim;
pub mod bots;
pub mod bundled;
pub mod gwf;
pub mod schedule;
pub mod swf;

mod limits;
mod model;
mod parser;
mod rules;

pub use limits::{MAX_HEADER_BYTES, MAX_JOBS, MAX_LINE, MAX_NAME_BYTES, MAX_PROCS, MAX_SKIPS, MAX_TEXT, MAX_TIME};

pub use model::{Format, ImportError, ImportReport, Job, TimeOrigin, Trace, TraceSize};
pub use parser::Parser;
pub use rules::Skip;

/// Imports a whole trace held in memory (plain or gzip), in the given format.
pub fn import_as(bytes: &[u8], format: Format) -> Result<Trace, ImportError> {
    let mut p = Parser::new(format);
    p.push(bytes)?;
    p.finish()
}

/// Imports a whole trace held in memory, plain or gzip, in the format its text shows ([`sniff`]).
pub fn import(bytes: &[u8]) -> Result<Trace, ImportError> {
    import_as(bytes, sniff(bytes))
}

/// The format of the start of a file, plain or gzip ([`Format::sniff`] on up to 64 KiB of its text).
pub fn sniff(start: &[u8]) -> Format {
    if start.starts_with(&[0x1f, 0x8b]) {
        use std::io::Read;
        // A corrupt stream gets its error from the real parse; the text decoded before it is enough here.
        let mut head = Vec::new();
        let _ = flate2::read::MultiGzDecoder::new(start).take(1 << 16).read_to_end(&mut head);
        Format::sniff(&head)
    } else {
        Format::sniff(start)
    }
}

/// Reads a trace file chunk by chunk; the format is `format`, else the file name's extension, else sniffed from
/// the first bytes (after decompression).
#[cfg(not(target_arch = "wasm32"))]
pub fn import_path(path: &std::path::Path, format: Option<Format>) -> Result<Trace, ImportError> {
    use std::io::Read;
    let io = |e: std::io::Error| ImportError::Io(format!("{}: {e}", path.display()));
    let mut file = std::fs::File::open(path).map_err(io)?;
    let mut buf = vec![0u8; 1 << 20];
    let mut first = file.read(&mut buf).map_err(io)?;
    let format = format.or_else(|| Format::from_name(&path.to_string_lossy())).unwrap_or_else(|| sniff(&buf[..first]));
    let mut p = Parser::new(format);
    loop {
        if first == 0 {
            break;
        }
        p.push(&buf[..first])?;
        first = file.read(&mut buf).map_err(io)?;
    }
    p.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::write::GzEncoder;
    use std::io::Write;

    const SWF: &str = "; Version: 2.2\n; MaxProcs: 8\n; a remark: not a field\n;\n\
                       1 0 5 100 1 -1 -1 1 200 -1 1 3 1 -1 -1 -1 -1 -1\n\
                       2 10 -1 50.5 2 -1 -1 2 200 -1 0 4 1 -1 -1 -1 -1 -1\n\
                       \n\
                       3 20 -1 7 -1 -1 -1 4 -1 -1 5 3 1 -1 -1 -1 -1 -1 99 98\n";

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut e = GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(bytes).unwrap();
        e.finish().unwrap()
    }

    fn swf_line(fields: &str) -> String {
        format!("; Version: 2.2\n1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n{fields}\n")
    }

    fn only_skip(text: &str) -> Skip {
        let t = import_as(text.as_bytes(), Format::Swf).unwrap();
        assert_eq!(t.report.skipped, 1, "{:?}", t.report);
        t.report.first_skips[0].clone()
    }

    #[test]
    fn reads_jobs_header_and_counts() {
        let t = import(SWF.as_bytes()).unwrap();
        let r = &t.report;
        assert_eq!((r.format, r.gzip), (Format::Swf, false));
        assert_eq!((r.lines, r.comments, r.jobs, r.skipped, r.extra_columns), (8, 5, 3, 0, 1));
        assert_eq!(r.header, vec![("Version".into(), "2.2".into()), ("MaxProcs".into(), "8".into())]);
        assert_eq!(r.header_value("maxprocs"), Some("8"));
        let j = &t.jobs;
        assert_eq!(j.iter().map(|j| j.line).collect::<Vec<_>>(), [5, 6, 8]);
        assert_eq!((j[1].submit, j[1].run, j[1].procs, j[1].status), (10.0, 50.5, 2, 0));
        // Field 5 unknown: the requested processors (field 8) are used.
        assert_eq!((j[2].procs, j[2].req_procs, j[2].status), (4, 4, 5));
        assert_eq!(t.name(j[0].user), "3");
        assert_eq!(j[0].user, j[2].user);
        assert_ne!(j[0].user, j[1].user);
        assert_eq!(j[0].structure, None);
    }

    #[test]
    fn any_chunking_gives_the_same_trace() {
        let whole = import_as(SWF.as_bytes(), Format::Swf).unwrap();
        let crlf = SWF.replace('\n', "\r\n");
        let no_final_newline = SWF.trim_end_matches('\n');
        for text in [SWF, crlf.as_str(), no_final_newline] {
            for cut in 0..=text.len() {
                let mut p = Parser::new(Format::Swf);
                p.push(&text.as_bytes()[..cut]).unwrap();
                p.push(&text.as_bytes()[cut..]).unwrap();
                let t = p.finish().unwrap();
                assert_eq!(t.jobs, whole.jobs, "cut at {cut}");
                assert_eq!(t.report.header, whole.report.header);
            }
        }
        // Byte by byte, gzip-compressed.
        let gz = gzip(SWF.as_bytes());
        let mut p = Parser::new(Format::Swf);
        for b in &gz {
            p.push(std::slice::from_ref(b)).unwrap();
        }
        let t = p.finish().unwrap();
        assert!(t.report.gzip);
        assert_eq!(t.report.input_bytes, gz.len() as u64);
        assert_eq!(t.report.text_bytes, SWF.len() as u64);
        assert_eq!(t.jobs, whole.jobs);
    }

    #[test]
    fn gzip_members_concatenate() {
        let (a, b) = SWF.split_at(SWF.find("2 10").unwrap());
        let mut two = gzip(a.as_bytes());
        two.extend(gzip(b.as_bytes()));
        assert_eq!(import(&two).unwrap().jobs, import(SWF.as_bytes()).unwrap().jobs);
    }

    #[test]
    fn every_truncated_gzip_is_an_error() {
        let gz = gzip(SWF.as_bytes());
        for cut in 0..gz.len() {
            match import_as(&gz[..cut], Format::Swf) {
                Err(ImportError::Empty) => assert_eq!(cut, 0),
                // One byte cannot be told from text: it is a malformed line.
                Err(ImportError::NoJobs(_)) => assert_eq!(cut, 1),
                Err(e @ ImportError::Gzip { .. }) => {
                    assert!(cut >= 2);
                    assert!(e.to_string().contains("truncated or corrupt"), "{e}");
                }
                other => panic!("cut {cut}: {other:?}"),
            }
        }
        assert!(import_as(&gz, Format::Swf).is_ok());
        // Garbage after a complete member is corrupt data, not silently ignored.
        let mut tail = gz.clone();
        tail.extend_from_slice(b"junk");
        assert!(matches!(import_as(&tail, Format::Swf), Err(ImportError::Gzip { .. })));
    }

    #[test]
    fn empty_and_comment_only_files_are_errors() {
        assert_eq!(import(b"").unwrap_err(), ImportError::Empty);
        assert_eq!(import(b"").unwrap_err().to_string(), "the file is empty: no job to import");
        let e = import(b"; Version: 2.2\n\n").unwrap_err();
        let ImportError::NoJobs(r) = &e else { panic!("{e:?}") };
        assert_eq!((r.lines, r.comments, r.skipped), (2, 2, 0));
        let e = import_as(b"x y z\n", Format::Swf).unwrap_err();
        assert_eq!(
            e.to_string(),
            "no job in the file: 1 lines read, 0 comment or blank, 1 skipped; first: line 1: 3 fields; SWF has 18"
        );
        assert!(matches!(import(&gzip(b"")), Err(ImportError::NoJobs(_))));
    }

    #[test]
    fn malformed_fields_name_line_field_and_range() {
        let s = only_skip(&swf_line("2 5 0 abc 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1"));
        assert_eq!(s.to_string(), r#"line 3, field 4 (run time): "abc" is not a number"#);
        assert_eq!(s.kind, "not a number");
        let s = only_skip(&swf_line("2 5 0 10 1.5 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1"));
        assert_eq!(s.to_string(), r#"line 3, field 5 (allocated processors): "1.5" is not a whole number"#);
        let s = only_skip(&swf_line("2 5 0 inf 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1"));
        assert_eq!(s.to_string(), r#"line 3, field 4 (run time): "inf" is not a finite number"#);
        let s = only_skip(&swf_line("2 -1 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1"));
        assert_eq!((s.field, s.kind.as_str()), (Some(2), "unknown submit time"));
        let s = only_skip(&swf_line("2 -7 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1"));
        assert_eq!(
            s.to_string(),
            "line 3, field 2 (submit time): -7 is out of range; allowed 0–1e11 s, or -1 = unknown"
        );
        // A run of 10^308 s would make every sum over the trace infinite (the bad-input issue's reproducer).
        let s = only_skip(&swf_line("2 5 0 1e308 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1"));
        assert_eq!(
            s.to_string(),
            "line 3, field 4 (run time): 1e308 is out of range; allowed 0–1e11 s, or -1 = unknown"
        );
        let s = only_skip(&swf_line("2 1e308 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1"));
        assert_eq!((s.field, s.kind.as_str()), (Some(2), "out of range"));
        let s = only_skip(&swf_line("2 5 0 -1 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1"));
        assert_eq!((s.field, s.kind.as_str()), (Some(4), "unknown run time"));
        let s = only_skip(&swf_line("2 5 0 10 0 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1"));
        assert_eq!(
            s.to_string(),
            "line 3, field 5 (allocated processors): 0 is out of range; allowed 1–1000000, or -1 = unknown (then \
             field 8 is used)"
        );
        let s = only_skip(&swf_line("2 5 0 10 -1 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 -1"));
        assert_eq!((s.field, s.kind.as_str()), (Some(5), "unknown processors"));
        let s = only_skip(&swf_line("2 5 0 10 -1 -1 -1 0 -1 -1 1 1 1 -1 -1 -1 -1 -1"));
        assert_eq!((s.field, s.kind.as_str()), (Some(8), "out of range"));
        let s = only_skip(&swf_line("2 5 0 0 1 -1 -1 1 -1 -1 5 1 1 -1 -1 -1 -1 -1"));
        assert_eq!((s.field, s.kind.as_str()), (Some(11), "cancelled before start"));
        let s = only_skip(&swf_line("2 5 0 10 1 -1 -1 1 -1 -1 3 1 1 -1 -1 -1 -1 -1"));
        assert_eq!((s.field, s.kind.as_str()), (Some(11), "partial execution"));
        let s = only_skip(&swf_line("2 5 0 10 1 -1 -1 1 -1 -1 7 1 1 -1 -1 -1 -1 -1"));
        assert_eq!((s.field, s.kind.as_str()), (Some(11), "out of range"));
        let s = only_skip(&swf_line("2 5 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1"));
        assert_eq!(s.to_string(), "line 3: 17 fields; SWF has 18");
        // Kept: a cancelled job that ran, a failed job, unknown status, run time 0 of a completed job.
        for status_run in ["5 30", "0 30", "-1 30", "1 0"] {
            let (st, run) = status_run.split_once(' ').unwrap();
            let text = swf_line(&format!("2 5 0 {run} 1 -1 -1 1 -1 -1 {st} 1 1 -1 -1 -1 -1 -1"));
            assert_eq!(import_as(text.as_bytes(), Format::Swf).unwrap().jobs.len(), 2, "{status_run}");
        }
    }

    #[test]
    fn skips_are_listed_up_to_the_limit_and_all_counted() {
        let mut text = swf_line("");
        for _ in 0..(MAX_SKIPS + 20) {
            text.push_str("x\n");
        }
        let t = import(text.as_bytes()).unwrap();
        assert_eq!(t.report.skipped, MAX_SKIPS as u64 + 20);
        assert_eq!(t.report.first_skips.len(), MAX_SKIPS);
        assert_eq!(t.report.by_reason["too few fields"], MAX_SKIPS as u64 + 20);
        assert_eq!(t.report.first_skips[0].line, 4);
    }

    #[test]
    fn header_fields_past_the_bound_and_names_past_theirs_are_not_kept() {
        let n = 10_000;
        let mut text: String = (0..n).map(|k| format!("; Note: {k:08}\n")).collect();
        text.push_str("; Computer: late\n1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n");
        let r = import(text.as_bytes()).unwrap().report;
        // "Note" + 8 digits per field: the first ones that fit, in file order; the rest (the late key too) counted.
        let kept = MAX_HEADER_BYTES / 12;
        assert_eq!((r.header.len(), r.header_dropped), (kept, (n + 1 - kept) as u64));
        assert_eq!(r.header[kept - 1].1, format!("{:08}", kept - 1));
        assert_eq!((r.header_value("Computer"), r.comments), (None, n as u64 + 1));
        // Names: 40 jobs of distinct users, with room for about 20 names.
        let mut p = Parser::new(Format::Swf);
        p.name_limit = 20 * 34;
        let jobs: String = (0..40).map(|k| format!("{k} 0 0 10 1 -1 -1 1 -1 -1 1 {k} 1 -1 -1 -1 -1 -1\n")).collect();
        let e = p.push(jobs.as_bytes()).and_then(|()| p.finish().map(|_| ())).unwrap_err();
        assert!(matches!(e, ImportError::TooLarge(_)), "{e:?}");
        assert!(e.to_string().ends_with("names take more than 680 bytes; at most that is kept"), "{e}");
    }

    #[test]
    fn an_overlong_line_is_skipped_in_any_chunking() {
        let long = "9".repeat(MAX_LINE + 10);
        let text = format!("{}{long}\n{}", swf_line(""), "3 30 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n");
        for step in [7, 4096, text.len()] {
            let mut p = Parser::new(Format::Swf);
            for c in text.as_bytes().chunks(step) {
                p.push(c).unwrap();
            }
            let t = p.finish().unwrap();
            assert_eq!((t.report.jobs, t.report.skipped, t.report.lines), (2, 1, 5), "step {step}");
            assert_eq!(t.report.first_skips[0].kind, "line too long");
            assert_eq!(t.jobs[1].line, 5);
        }
    }

    #[test]
    fn gwf_keeps_text_fields() {
        let text = "# JobID SubmitTime ...\n# Computer: test\n\
                    1 1136070024 5 100 1 -1 -1 1 900 -1 1 U7 G1 L3 Q1 -1 S1 S1 UNITARY -1 -1 -1 -1 x86 -1 -1 -1 vo -1\n\
                    2 1136070030 5 100 2 -1 -1 2 900 -1 1 U8 G1 L3 Q1 -1 S1 S1 BoT 17 -1 -1 -1 x86 -1 -1 -1 vo -1\n\
                    3 1136070030 5 x 2 -1 -1 2 900 -1 1 U8 G1 L3 Q1 -1 S1 S1 BoT 17 -1 -1 -1 x86 -1 -1 -1 vo -1\n";
        assert_eq!(Format::sniff(text.as_bytes()), Format::Gwf);
        let t = import(text.as_bytes()).unwrap();
        assert_eq!(t.report.format, Format::Gwf);
        assert_eq!((t.report.jobs, t.report.comments, t.report.skipped), (2, 2, 1));
        assert_eq!(t.report.header_value("Computer"), Some("test"));
        assert_eq!(t.name(t.jobs[0].user), "U7");
        assert_eq!(t.name(t.jobs[0].structure.unwrap()), "UNITARY");
        assert_eq!(t.name(t.jobs[1].structure.unwrap()), "BoT");
        assert_eq!(t.report.first_skips[0].to_string(), r#"line 5, field 4 (RunTime): "x" is not a number"#);
        assert_eq!(t.time_origin().offset, 0.0);
    }
}
