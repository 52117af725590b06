//! Workload traces: SWF and GWF import (plain or gzip, chunk by chunk, with a report of every skipped line) and the
//! extraction of BoTs from the imported jobs ([`bots`]).
//!
//! Which lines become jobs (the same rule for both formats; fields 1–15 mean the same in SWF and GWF):
//! - comment lines (`;` in SWF, `#` in GWF) and blank lines are counted as comments; `Key: value` comments are
//!   header fields;
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

pub mod bots;
pub mod bundled;
pub mod gwf;
pub mod swf;

use crate::workload::burstiness::{of_jobs, BurstinessError, JobsBurstiness};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Write;

/// The first skipped lines kept with their message; the rest are only counted.
pub const MAX_SKIPS: usize = 100;
/// Lines longer than this (bytes) are skipped, so a file without newlines cannot exhaust memory.
pub const MAX_LINE: usize = 65_536;
/// Most processors a job may use (a split job becomes this many tasks).
pub const MAX_PROCS: u32 = 1_000_000;
/// Latest submit time and longest run time a job may have, s (about 3 170 years: far beyond any log, and small
/// enough that sums and counts over a trace stay finite and exact).
pub const MAX_TIME: f64 = 1e11;
/// Compressed bytes handed to the gzip decoder at once: deflate expands at most ~1 032×, so one step yields at
/// most ~8 MiB however the page slices the file.
const GZIP_STEP: usize = 8 * 1024;
/// The most jobs an import keeps (about 0.9 GB at their peak): a larger log is refused as it is read, before its
/// jobs fill the memory, however small its gzip file is.
pub const MAX_JOBS: u64 = 5_000_000;
/// The most bytes of text (after decompression) an import reads: a file without end (`/dev/zero`) or a gzip bomb
/// is refused when it passes it.
pub const MAX_TEXT: u64 = 4 << 30;

/// The trace formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// Standard Workload Format v2.2 (Parallel Workloads Archive): 18 numeric fields, `;` comments.
    Swf,
    /// Grid Workloads Format (Grid Workloads Archive): 29 fields, `#` comments.
    Gwf,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Swf => "SWF",
            Format::Gwf => "GWF",
        }
    }

    /// The fields of a job line, in order (field i + 1 is `fields()[i]`).
    pub fn fields(self) -> &'static [&'static str] {
        match self {
            Format::Swf => &swf::FIELDS,
            Format::Gwf => &gwf::FIELDS,
        }
    }

    /// The byte that starts a comment line.
    pub fn comment(self) -> u8 {
        match self {
            Format::Swf => swf::COMMENT,
            Format::Gwf => gwf::COMMENT,
        }
    }

    /// The format named by a file name's extension (`.swf`, `.gwf`, optionally followed by `.gz`), if any.
    pub fn from_name(name: &str) -> Option<Format> {
        let lower = name.to_ascii_lowercase();
        let stem = lower.strip_suffix(".gz").unwrap_or(&lower);
        if stem.ends_with(".swf") {
            Some(Format::Swf)
        } else if stem.ends_with(".gwf") {
            Some(Format::Gwf)
        } else {
            None
        }
    }

    /// The format of plain-text content: the first comment or data line decides (`;` → SWF, `#` → GWF, a data line
    /// of at least 29 fields → GWF, else SWF). Gzip content cannot be sniffed; give the format or a file name.
    pub fn sniff(text: &[u8]) -> Format {
        for line in text.split(|&b| b == b'\n').take(1000) {
            let t = line.trim_ascii();
            match t.first() {
                None => continue,
                Some(b';') => return Format::Swf,
                Some(b'#') => return Format::Gwf,
                Some(_) => {
                    let n = t.split(|b| b.is_ascii_whitespace()).filter(|s| !s.is_empty()).count();
                    return if n >= gwf::FIELDS.len() { Format::Gwf } else { Format::Swf };
                }
            }
        }
        Format::Swf
    }
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Format, String> {
        match s.to_ascii_lowercase().as_str() {
            "swf" => Ok(Format::Swf),
            "gwf" => Ok(Format::Gwf),
            _ => Err(format!("unknown trace format {s:?}; allowed: swf, gwf")),
        }
    }
}

/// One job of a trace, as the file gives it (times in seconds of the file's own clock).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Job {
    /// Line number in the (decompressed) file, 1-based.
    pub line: u64,
    /// Job number (field 1).
    pub id: i64,
    /// Submit time, s ≥ 0 (field 2; SWF: from the log's start, GWF: Unix time).
    pub submit: f64,
    /// Wait time, s, −1 = unknown (field 3).
    pub wait: f64,
    /// Run time, s ≥ 0 (field 4).
    pub run: f64,
    /// Processors used: allocated (field 5), else requested (field 8); 1 ..= [`MAX_PROCS`].
    pub procs: u32,
    /// Requested processors, −1 = unknown (field 8).
    pub req_procs: i64,
    /// Requested (user-estimated) time, s, −1 = unknown (field 9).
    pub req_time: f64,
    /// Status: 1 completed, 0 failed, 5 cancelled, −1 unknown (field 11).
    pub status: i32,
    /// User, group, executable and queue (fields 12–15), as indices into [`Trace::names`].
    pub user: u32,
    pub group: u32,
    pub executable: u32,
    pub queue: u32,
    /// GWF only: JobStructure (field 19, e.g. `UNITARY` or `BoT`), as an index into [`Trace::names`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structure: Option<u32>,
}

/// A line that did not become a job: where, which field, and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Skip {
    /// Line number, 1-based.
    pub line: u64,
    /// Field number, 1-based (None: the whole line).
    pub field: Option<u32>,
    /// The field's name in the format's documentation.
    pub field_name: Option<String>,
    /// Why, with the allowed values.
    pub reason: String,
    /// The kind of reason, used to count skips ("not a number", "unknown run time", …).
    pub kind: String,
}

impl std::fmt::Display for Skip {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.field, &self.field_name) {
            (Some(n), Some(name)) => write!(f, "line {}, field {n} ({name}): {}", self.line, self.reason),
            (Some(n), None) => write!(f, "line {}, field {n}: {}", self.line, self.reason),
            _ => write!(f, "line {}: {}", self.line, self.reason),
        }
    }
}

/// What an import read, kept and skipped. Invariant: `lines == jobs + skipped + comments`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ImportReport {
    pub format: Format,
    /// Whether the input was gzip-compressed.
    pub gzip: bool,
    /// Bytes handed to the parser (compressed bytes for gzip).
    pub input_bytes: u64,
    /// Bytes of text after decompression.
    pub text_bytes: u64,
    /// Lines read (a last line without a newline counts).
    pub lines: u64,
    /// Comment, header and blank lines.
    pub comments: u64,
    /// Lines that became jobs.
    pub jobs: u64,
    /// Lines skipped (every one is counted in `by_reason`; the first [`MAX_SKIPS`] are in `first_skips`).
    pub skipped: u64,
    /// Skipped lines per kind of reason.
    pub by_reason: BTreeMap<String, u64>,
    /// The first [`MAX_SKIPS`] skipped lines.
    pub first_skips: Vec<Skip>,
    /// Data lines with more fields than the format has (tolerated: the extra columns are ignored).
    pub extra_columns: u64,
    /// `Key: value` header comments, in file order (a key may repeat, e.g. SWF's `Partition`).
    pub header: Vec<(String, String)>,
    /// The kept jobs' size, for a run's budget (`TraceSize`).
    #[serde(default)]
    pub size: TraceSize,
}

/// How much a trace holds, for the budget of a run on it (docs/budget.md): its jobs, the processors they use in
/// all, their work and the span of their submit times. Counted as the jobs are read, so the page knows it from the
/// import report alone.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TraceSize {
    pub jobs: u64,
    /// Jobs of one processor (the tasks of a run that leaves parallel jobs out).
    pub serial_jobs: u64,
    /// Σ processors of the jobs (the tasks of a run that splits parallel jobs).
    pub processors: u64,
    /// Σ run time × processors, processor-seconds.
    pub work: f64,
    /// Earliest and latest submit time, s (0 and 0 for no job).
    pub first_submit: f64,
    pub last_submit: f64,
}

impl TraceSize {
    /// Adds a job.
    fn add(&mut self, submit: f64, run: f64, procs: u32) {
        if self.jobs == 0 {
            (self.first_submit, self.last_submit) = (submit, submit);
        }
        self.jobs += 1;
        self.serial_jobs += u64::from(procs == 1);
        self.processors += u64::from(procs);
        self.work += run * f64::from(procs);
        self.first_submit = self.first_submit.min(submit);
        self.last_submit = self.last_submit.max(submit);
    }

    /// Last submit − first, s.
    pub fn span(&self) -> f64 {
        self.last_submit - self.first_submit
    }
}

impl ImportReport {
    fn new(format: Format) -> Self {
        ImportReport {
            format,
            gzip: false,
            input_bytes: 0,
            text_bytes: 0,
            lines: 0,
            comments: 0,
            jobs: 0,
            skipped: 0,
            by_reason: BTreeMap::new(),
            first_skips: Vec::new(),
            extra_columns: 0,
            header: Vec::new(),
            size: TraceSize::default(),
        }
    }

    /// The first value of a header field (keys compare case-insensitively).
    pub fn header_value(&self, key: &str) -> Option<&str> {
        self.header.iter().find(|(k, _)| k.eq_ignore_ascii_case(key)).map(|(_, v)| v.as_str())
    }
}

/// Why an import failed as a whole (a bad line is not an error: it is skipped and reported).
#[derive(Clone, Debug, PartialEq)]
pub enum ImportError {
    /// No bytes at all.
    Empty,
    /// The gzip stream is truncated or corrupt.
    Gzip { input_bytes: u64, text_bytes: u64, lines: u64, message: String },
    /// Lines were read but none became a job; the report says why.
    NoJobs(Box<ImportReport>),
    /// The file could not be read.
    Io(String),
    /// The file holds more than an import may (jobs or bytes of text); nothing past the limit was kept.
    TooLarge(String),
}

impl std::fmt::Display for ImportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ImportError::Empty => write!(f, "the file is empty: no job to import"),
            ImportError::Gzip { input_bytes, text_bytes, lines, message } => write!(
                f,
                "the gzip data is truncated or corrupt ({message}); read {input_bytes} compressed bytes, \
                 {text_bytes} bytes of text, {lines} lines"
            ),
            ImportError::NoJobs(r) => {
                write!(
                    f,
                    "no job in the file: {} lines read, {} comment or blank, {} skipped",
                    r.lines, r.comments, r.skipped
                )?;
                if let Some(s) = r.first_skips.first() {
                    write!(f, "; first: {s}")?;
                }
                Ok(())
            }
            ImportError::Io(m) => write!(f, "{m}"),
            ImportError::TooLarge(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for ImportError {}

/// An imported trace: its jobs in file order, the text of its user, group, executable and queue ids, and the report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Trace {
    pub jobs: Vec<Job>,
    /// Distinct attribute values (user, group, executable, queue, JobStructure), referenced by index from [`Job`].
    pub names: Vec<String>,
    pub report: ImportReport,
}

/// How the trace's times map to a local clock: local seconds = `offset` + the job's submit time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TimeOrigin {
    /// Seconds to add to a submit time to get seconds since a local midnight (mod one day).
    pub offset: f64,
    /// Where the offset comes from.
    pub note: String,
}

impl Trace {
    /// The burstiness ([Minh10] §V) of the trace's own jobs, each at its submit time on the workload's clock (time
    /// 0 = the local midnight before the first job, as the BoTs' arrivals of [`bots::extract`]), with the
    /// processors it requests ([Minh10] §V-B: field 8 when the trace gives it, else those it used).
    pub fn burstiness(&self) -> Result<JobsBurstiness, BurstinessError> {
        let origin = self.time_origin();
        let first = self.jobs.iter().map(|j| j.submit).fold(f64::INFINITY, f64::min);
        let base = libm::floor((first + origin.offset) / 86_400.0) * 86_400.0;
        let requested = |j: &Job| u32::try_from(j.req_procs).ok().filter(|&p| p >= 1).unwrap_or(j.procs);
        let jobs: Vec<(f64, u32, f64)> =
            self.jobs.iter().map(|j| (j.submit + origin.offset - base, requested(j), j.run)).collect();
        of_jobs(&jobs)
    }

    /// The text of an attribute value.
    pub fn name(&self, id: u32) -> &str {
        &self.names[id as usize]
    }

    /// The local clock of the trace, for the time of day of its submissions.
    ///
    /// SWF: submit times count from the header's `UnixStartTime`; local time adds the `TimeZone` header (seconds;
    /// the SWF 2.2 definition deprecates it as buggy and it ignores daylight saving, but it is the only zone a
    /// parser can apply without a time-zone database). Without `UnixStartTime`, time 0 is taken as midnight.
    /// GWF: submit times are Unix times (UTC).
    pub fn time_origin(&self) -> TimeOrigin {
        const DAY: f64 = 86_400.0;
        let num = |k: &str| self.report.header_value(k).and_then(|v| v.trim().parse::<f64>().ok());
        match self.report.format {
            Format::Gwf => {
                TimeOrigin { offset: 0.0, note: "GWF submit times are Unix times; time of day in UTC".into() }
            }
            Format::Swf => {
                // A start in 0–MAX_TIME s and a zone within a day; anything else (1e308, nan) is not a time.
                let start = num("UnixStartTime").filter(|v| (0.0..=MAX_TIME).contains(v));
                let tz = num("TimeZone").filter(|v| (-DAY..=DAY).contains(v));
                let bad = |k: &str, ok: bool| match self.report.header_value(k) {
                    Some(v) if !ok => {
                        let v: String = v.trim().chars().take(24).collect();
                        format!("; header {k} {v:?} is not a time in range (UnixStartTime 0–{MAX_TIME:e} s, TimeZone ±86400 s): ignored")
                    }
                    _ => String::new(),
                };
                let notes = bad("UnixStartTime", start.is_some()) + &bad("TimeZone", tz.is_some());
                let origin = match (start, tz) {
                    (Some(start), tz) => TimeOrigin {
                        offset: (start + tz.unwrap_or(0.0)).rem_euclid(DAY),
                        note: match tz {
                            Some(tz) => format!("UnixStartTime {start} + TimeZone {tz} s (no daylight saving)"),
                            None => format!("UnixStartTime {start}, UTC (no TimeZone header)"),
                        },
                    },
                    (None, _) => {
                        TimeOrigin { offset: 0.0, note: "no UnixStartTime header: time 0 taken as midnight".into() }
                    }
                };
                TimeOrigin { note: origin.note + &notes, ..origin }
            }
        }
    }
}

enum Input {
    /// Fewer than two bytes seen: gzip or not is still open.
    Undecided(Vec<u8>),
    Plain,
    Gzip(Box<flate2::write::MultiGzDecoder<Vec<u8>>>),
}

/// An incremental parser: hand it the file in chunks of any size ([`Parser::push`]), read the counts as it goes
/// ([`Parser::report`]), and take the trace at the end ([`Parser::finish`]). Gzip input (magic bytes 1f 8b) is
/// decompressed on the fly. Memory is the jobs kept plus one line and one decompressed step.
pub struct Parser {
    format: Format,
    input: Input,
    partial: Vec<u8>,
    /// The current line passed [`MAX_LINE`]; the rest of it is dropped.
    overlong: bool,
    /// The last chunk ended with a CR: a LF that starts the next one belongs to it (CR LF is one line end).
    after_cr: bool,
    names: BTreeMap<Box<[u8]>, u32>,
    trace: Trace,
    failed: Option<ImportError>,
}

impl Parser {
    pub fn new(format: Format) -> Parser {
        Parser {
            format,
            input: Input::Undecided(Vec::new()),
            partial: Vec::new(),
            overlong: false,
            after_cr: false,
            names: BTreeMap::new(),
            trace: Trace { jobs: Vec::new(), names: Vec::new(), report: ImportReport::new(format) },
            failed: None,
        }
    }

    /// The counts so far.
    pub fn report(&self) -> &ImportReport {
        &self.trace.report
    }

    /// Parses the next bytes of the file. Fails only on corrupt gzip data (and then keeps failing).
    pub fn push(&mut self, chunk: &[u8]) -> Result<(), ImportError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        self.trace.report.input_bytes += chunk.len() as u64;
        if let Input::Undecided(head) = &mut self.input {
            head.extend_from_slice(chunk);
            if head.len() < 2 {
                return Ok(());
            }
            let head = std::mem::take(head);
            self.decide(head[..2] == [0x1f, 0x8b]);
            return self.feed(&head);
        }
        self.feed(chunk)
    }

    /// Ends the input: the last line, the gzip trailer, and the checks of a whole file.
    pub fn finish(mut self) -> Result<Trace, ImportError> {
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        if let Input::Undecided(head) = &mut self.input {
            let head = std::mem::take(head);
            self.decide(false);
            self.feed(&head)?;
        }
        if let Input::Gzip(dec) = &mut self.input {
            let done = dec.try_finish();
            let out = std::mem::take(dec.get_mut());
            self.text(&out);
            if let Err(e) = done {
                return Err(self.gzip_error(&e));
            }
        }
        if !self.partial.is_empty() || self.overlong {
            let line = std::mem::take(&mut self.partial);
            self.line(&line);
        }
        let r = &self.trace.report;
        debug_assert_eq!(r.lines, r.jobs + r.skipped + r.comments);
        if r.input_bytes == 0 {
            return Err(ImportError::Empty);
        }
        if r.jobs == 0 {
            return Err(ImportError::NoJobs(Box::new(self.trace.report)));
        }
        Ok(self.trace)
    }

    fn decide(&mut self, gzip: bool) {
        self.trace.report.gzip = gzip;
        self.input =
            if gzip { Input::Gzip(Box::new(flate2::write::MultiGzDecoder::new(Vec::new()))) } else { Input::Plain };
    }

    fn gzip_error(&self, e: &std::io::Error) -> ImportError {
        let r = &self.trace.report;
        ImportError::Gzip {
            input_bytes: r.input_bytes,
            text_bytes: r.text_bytes,
            lines: r.lines,
            message: e.to_string(),
        }
    }

    fn feed(&mut self, bytes: &[u8]) -> Result<(), ImportError> {
        match &mut self.input {
            Input::Undecided(_) => unreachable!("decided before feeding"),
            Input::Plain => {
                self.text(bytes);
                self.failed.clone().map_or(Ok(()), Err)
            }
            Input::Gzip(_) => {
                for step in bytes.chunks(GZIP_STEP) {
                    let Input::Gzip(dec) = &mut self.input else { unreachable!() };
                    let written = dec.write_all(step).and_then(|()| dec.flush());
                    let out = std::mem::take(dec.get_mut());
                    self.text(&out);
                    if let Some(e) = &self.failed {
                        return Err(e.clone());
                    }
                    if let Err(e) = written {
                        let err = self.gzip_error(&e);
                        self.failed = Some(err.clone());
                        return Err(err);
                    }
                }
                Ok(())
            }
        }
    }

    /// Splits text into lines; a line may span chunks.
    fn text(&mut self, mut bytes: &[u8]) {
        if self.failed.is_some() {
            return;
        }
        self.trace.report.text_bytes += bytes.len() as u64;
        if self.trace.report.text_bytes > MAX_TEXT {
            self.failed = Some(ImportError::TooLarge(format!(
                "the file holds more than {} GiB of text (after decompression); at most that is read",
                MAX_TEXT >> 30
            )));
            return;
        }
        if bytes.is_empty() {
            return;
        }
        if std::mem::take(&mut self.after_cr) && bytes[0] == b'\n' {
            bytes = &bytes[1..];
        }
        // A line ends at LF, CR LF or a lone CR (old Mac files): three jobs on CR-only lines are three jobs.
        while let Some(i) = bytes.iter().position(|&b| b == b'\n' || b == b'\r') {
            if self.failed.is_some() {
                return;
            }
            let (head, mut tail) = (&bytes[..i], &bytes[i + 1..]);
            if bytes[i] == b'\r' {
                match tail.first() {
                    Some(b'\n') => tail = &tail[1..],
                    None => self.after_cr = true,
                    Some(_) => {}
                }
            }
            if self.partial.is_empty() && !self.overlong {
                self.line(head);
            } else {
                self.append(head);
                let mut line = std::mem::take(&mut self.partial);
                self.line(&line);
                line.clear();
                self.partial = line;
            }
            bytes = tail;
        }
        self.append(bytes);
    }

    fn append(&mut self, bytes: &[u8]) {
        if self.overlong {
            return;
        }
        if self.partial.len() + bytes.len() > MAX_LINE {
            self.overlong = true;
            self.partial.clear();
        } else {
            self.partial.extend_from_slice(bytes);
        }
    }

    fn line(&mut self, raw: &[u8]) {
        let r = &mut self.trace.report;
        r.lines += 1;
        let number = r.lines;
        if std::mem::take(&mut self.overlong) || raw.len() > MAX_LINE {
            self.skip(Skip {
                line: number,
                field: None,
                field_name: None,
                reason: format!("longer than {MAX_LINE} bytes"),
                kind: "line too long".into(),
            });
            return;
        }
        let text = raw.trim_ascii();
        if text.is_empty() {
            r.comments += 1;
            return;
        }
        if text[0] == self.format.comment() {
            r.comments += 1;
            if let Some((k, v)) = header_field(&text[1..]) {
                r.header.push((k, v));
            }
            return;
        }
        let tokens: Vec<&[u8]> = text.split(|b| b.is_ascii_whitespace()).filter(|t| !t.is_empty()).collect();
        let n = self.format.fields().len();
        if tokens.len() < n {
            self.skip(Skip {
                line: number,
                field: None,
                field_name: None,
                reason: format!("{} fields; {} has {n}", tokens.len(), self.format.name()),
                kind: "too few fields".into(),
            });
            return;
        }
        if tokens.len() > n {
            r.extra_columns += 1;
        }
        let fields = Fields { tokens: &tokens[..n], line: number, names: self.format.fields() };
        let parsed = match self.format {
            Format::Swf => swf::parse(&fields),
            Format::Gwf => gwf::parse(&fields),
        };
        match parsed.and_then(|raw| apply_rules(&fields, raw)) {
            Ok(raw) => {
                let job = Job {
                    line: number,
                    id: raw.id,
                    submit: raw.submit,
                    wait: raw.wait,
                    run: raw.run,
                    procs: raw.procs,
                    req_procs: raw.req_procs,
                    req_time: raw.req_time,
                    status: raw.status as i32,
                    user: self.intern(tokens[11]),
                    group: self.intern(tokens[12]),
                    executable: self.intern(tokens[13]),
                    queue: self.intern(tokens[14]),
                    structure: raw.structure.map(|i| self.intern(tokens[i])),
                };
                if self.trace.report.jobs >= MAX_JOBS {
                    self.failed = Some(ImportError::TooLarge(format!(
                        "line {number}: the file holds more than {MAX_JOBS} jobs; at most {MAX_JOBS} are imported"
                    )));
                    return;
                }
                self.trace.report.size.add(job.submit, job.run, job.procs);
                self.trace.jobs.push(job);
                self.trace.report.jobs += 1;
            }
            Err(s) => self.skip(s),
        }
    }

    fn skip(&mut self, s: Skip) {
        let r = &mut self.trace.report;
        r.skipped += 1;
        *r.by_reason.entry(s.kind.clone()).or_insert(0) += 1;
        if r.first_skips.len() < MAX_SKIPS {
            r.first_skips.push(s);
        }
    }

    fn intern(&mut self, token: &[u8]) -> u32 {
        if let Some(&id) = self.names.get(token) {
            return id;
        }
        let id = self.trace.names.len() as u32;
        self.trace.names.push(String::from_utf8_lossy(token).into_owned());
        self.names.insert(token.into(), id);
        id
    }
}

/// `Key: value` from the text after the comment character: a key of letters, digits and '_' directly followed by
/// ':' (so `; Note: text` is a field and `; a comment: with a colon` is not).
fn header_field(text: &[u8]) -> Option<(String, String)> {
    let t = text.trim_ascii();
    let colon = t.iter().position(|&b| b == b':')?;
    let key = &t[..colon];
    if key.is_empty() || !key.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'_') {
        return None;
    }
    let value = t[colon + 1..].trim_ascii();
    Some((String::from_utf8_lossy(key).into_owned(), String::from_utf8_lossy(value).into_owned()))
}

/// The fields of one data line, for the format parsers' messages.
pub(crate) struct Fields<'a> {
    tokens: &'a [&'a [u8]],
    line: u64,
    names: &'static [&'static str],
}

/// What a format parser reads from a line before the shared rules.
pub(crate) struct RawJob {
    id: i64,
    submit: f64,
    wait: f64,
    run: f64,
    alloc: i64,
    req_procs: i64,
    req_time: f64,
    status: i64,
    procs: u32,
    /// Field index (0-based) of GWF's JobStructure.
    structure: Option<usize>,
}

/// Longest token shown in a message.
const SHOWN: usize = 40;

impl Fields<'_> {
    fn token(&self, field: u32) -> &[u8] {
        self.tokens[field as usize - 1]
    }

    fn skip(&self, field: u32, kind: &str, reason: String) -> Skip {
        Skip {
            line: self.line,
            field: Some(field),
            field_name: Some(self.names[field as usize - 1].to_string()),
            reason,
            kind: kind.to_string(),
        }
    }

    fn shown(&self, field: u32) -> String {
        let t = String::from_utf8_lossy(self.token(field));
        if t.chars().count() > SHOWN {
            format!("{}…", t.chars().take(SHOWN).collect::<String>())
        } else {
            t.into_owned()
        }
    }

    /// Field `field` (1-based) as a finite number.
    fn number(&self, field: u32) -> Result<f64, Skip> {
        let v = std::str::from_utf8(self.token(field)).ok().and_then(|s| s.parse::<f64>().ok());
        match v {
            Some(x) if x.is_finite() => Ok(x),
            Some(_) => Err(self.skip(field, "not a number", format!("{:?} is not a finite number", self.shown(field)))),
            None => Err(self.skip(field, "not a number", format!("{:?} is not a number", self.shown(field)))),
        }
    }

    /// Field `field` as a whole number (|v| < 2^53).
    fn integer(&self, field: u32) -> Result<i64, Skip> {
        let x = self.number(field)?;
        if x.fract() != 0.0 || x.abs() >= 9_007_199_254_740_992.0 {
            return Err(self.skip(
                field,
                "not a whole number",
                format!("{:?} is not a whole number", self.shown(field)),
            ));
        }
        Ok(x as i64)
    }
}

/// The rules of the module doc, in field order, after the format parser read the numbers.
fn apply_rules(f: &Fields<'_>, mut raw: RawJob) -> Result<RawJob, Skip> {
    if raw.submit < 0.0 || raw.submit > MAX_TIME {
        return Err(if raw.submit == -1.0 {
            f.skip(2, "unknown submit time", "unknown (-1); a job needs its submit time".into())
        } else {
            f.skip(
                2,
                "out of range",
                format!("{} is out of range; allowed 0–{MAX_TIME:e} s, or -1 = unknown", f.shown(2)),
            )
        });
    }
    if raw.run < 0.0 || raw.run > MAX_TIME {
        return Err(if raw.run == -1.0 {
            f.skip(4, "unknown run time", "unknown (-1); nothing to simulate".into())
        } else {
            f.skip(
                4,
                "out of range",
                format!("{} is out of range; allowed 0–{MAX_TIME:e} s, or -1 = unknown", f.shown(4)),
            )
        });
    }
    let max = i64::from(MAX_PROCS);
    raw.procs = match raw.alloc {
        -1 => match raw.req_procs {
            p if (1..=max).contains(&p) => p as u32,
            -1 => {
                return Err(f.skip(
                    5,
                    "unknown processors",
                    "unknown (-1), and field 8 (requested processors) is unknown too".into(),
                ))
            }
            p => {
                return Err(f.skip(
                    8,
                    "out of range",
                    format!("{p} is out of range; allowed 1–{MAX_PROCS} (field 5 is unknown, so field 8 is used)"),
                ))
            }
        },
        p if (1..=max).contains(&p) => p as u32,
        p => {
            return Err(f.skip(
                5,
                "out of range",
                format!("{p} is out of range; allowed 1–{MAX_PROCS}, or -1 = unknown (then field 8 is used)"),
            ))
        }
    };
    match raw.status {
        -1 | 0 | 1 | 5 => {}
        2..=4 => {
            return Err(f.skip(
                11,
                "partial execution",
                format!(
                    "status {}: a partial execution of a checkpointed or swapped job (not reassembled)",
                    raw.status
                ),
            ))
        }
        s => {
            return Err(f.skip(
                11,
                "out of range",
                format!("{s} is out of range; allowed 1 completed, 0 failed, 5 cancelled, -1 unknown"),
            ))
        }
    }
    if raw.status == 5 && raw.run == 0.0 {
        return Err(f.skip(11, "cancelled before start", "cancelled (5) with run time 0: it never ran".into()));
    }
    Ok(raw)
}

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

    #[test]
    fn formats_from_names_and_content() {
        assert_eq!(Format::from_name("a/HPC2N.swf.gz"), Some(Format::Swf));
        assert_eq!(Format::from_name("grid5000.gwf"), Some(Format::Gwf));
        assert_eq!(Format::from_name("trace.txt"), None);
        assert_eq!(Format::sniff(b"\n  ; x\n"), Format::Swf);
        assert_eq!(Format::sniff(b"1 2 3\n"), Format::Swf);
        assert_eq!("GWF".parse::<Format>(), Ok(Format::Gwf));
        assert!("csv".parse::<Format>().is_err());
    }

    #[test]
    fn time_origin_from_the_swf_header() {
        let t = import(b"; UnixStartTime: 90000\n; TimeZone: 3600\n1 0 0 1 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n")
            .unwrap();
        // 90 000 s = 1 day + 3 600 s after the epoch; + 1 h of zone = 02:00 local.
        assert_eq!(t.time_origin().offset, 7200.0);
        let t = import(b"1 0 0 1 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n").unwrap();
        assert_eq!(t.time_origin().offset, 0.0);
    }
}
