//! What an import produces: the formats, a job, a skipped line, the import report with the trace's size, the
//! import error, and the trace with its local clock.

use super::limits::MAX_TIME;
use super::rules::Skip;
use crate::error::DataError;
use crate::workload::burstiness::{of_jobs, JobsBurstiness};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The trace formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// Standard Workload Format v2.2 (Parallel Workloads Archive): 18 numeric fields, `;` comments.
    Swf,
    /// Grid Workloads Format (Grid Workloads Archive): 29 fields, `#` comments.
    Gwf,
    /// Batsim's JSON workload: an object with `jobs` and their `delay` profiles ([`super::batsim`]).
    Batsim,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Swf => "SWF",
            Format::Gwf => "GWF",
            Format::Batsim => "Batsim JSON",
        }
    }

    /// The fields of a job line, in order (field i + 1 is `fields()[i]`).
    pub fn fields(self) -> &'static [&'static str] {
        match self {
            Format::Swf => &super::swf::FIELDS,
            Format::Gwf => &super::gwf::FIELDS,
            Format::Batsim => &super::batsim::FIELDS,
        }
    }

    /// The byte that starts a comment line (JSON has none: never a line's first byte there).
    pub fn comment(self) -> u8 {
        match self {
            Format::Swf => super::swf::COMMENT,
            Format::Gwf => super::gwf::COMMENT,
            Format::Batsim => 0,
        }
    }

    /// The format named by a file name's extension (`.swf`, `.gwf`, `.json`, optionally followed by `.gz`), if
    /// any.
    pub fn from_name(name: &str) -> Option<Format> {
        let lower = name.to_ascii_lowercase();
        let stem = lower.strip_suffix(".gz").unwrap_or(&lower);
        if stem.ends_with(".swf") {
            Some(Format::Swf)
        } else if stem.ends_with(".gwf") {
            Some(Format::Gwf)
        } else if stem.ends_with(".json") {
            Some(Format::Batsim)
        } else {
            None
        }
    }

    /// The format of plain-text content: a JSON object (`{` first) is a Batsim workload; else the first comment or
    /// data line decides (`;` → SWF, `#` → GWF, a data line of at least 29 fields → GWF, else SWF).
    pub fn sniff(text: &[u8]) -> Format {
        if text.trim_ascii_start().first() == Some(&b'{') {
            return Format::Batsim;
        }
        for line in text.split(|&b| b == b'\n').take(1000) {
            let t = line.trim_ascii();
            match t.first() {
                None => continue,
                Some(b';') => return Format::Swf,
                Some(b'#') => return Format::Gwf,
                Some(_) => {
                    let n = t.split(|b| b.is_ascii_whitespace()).filter(|s| !s.is_empty()).count();
                    return if n >= super::gwf::FIELDS.len() { Format::Gwf } else { Format::Swf };
                }
            }
        }
        Format::Swf
    }
}

impl std::str::FromStr for Format {
    type Err = crate::error::NameError;
    fn from_str(s: &str) -> Result<Format, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "swf" => Ok(Format::Swf),
            "gwf" => Ok(Format::Gwf),
            "batsim" | "json" => Ok(Format::Batsim),
            _ => Err(crate::error::NameError::Unknown {
                what: "trace format",
                given: s.to_string(),
                allowed: "swf, gwf, batsim".into(),
            }),
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
    /// Processors used: allocated (field 5), else requested (field 8); 1 ..= [`MAX_PROCS`](super::MAX_PROCS).
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
    /// Lines skipped (every one is counted in `by_reason`; the first [`MAX_SKIPS`](super::MAX_SKIPS) are in
    /// `first_skips`).
    pub skipped: u64,
    /// Skipped lines per kind of reason.
    pub by_reason: BTreeMap<String, u64>,
    /// The first [`MAX_SKIPS`](super::MAX_SKIPS) skipped lines.
    pub first_skips: Vec<Skip>,
    /// Data lines with more fields than the format has (tolerated: the extra columns are ignored).
    pub extra_columns: u64,
    /// `Key: value` header comments, in file order (a key may repeat, e.g. SWF's `Partition`), up to
    /// [`MAX_HEADER_BYTES`](super::MAX_HEADER_BYTES) of keys and values.
    pub header: Vec<(String, String)>,
    /// Header fields read past [`MAX_HEADER_BYTES`](super::MAX_HEADER_BYTES): counted, not kept (they are still
    /// in `comments`).
    #[serde(default)]
    pub header_dropped: u64,
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
    pub(super) fn add(&mut self, submit: f64, run: f64, procs: u32) {
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
    pub(super) fn new(format: Format) -> Self {
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
            header_dropped: 0,
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
    /// The file is not in its format as a whole (a Batsim workload that is not JSON, or has no `jobs` list).
    Malformed(String),
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
            ImportError::TooLarge(m) | ImportError::Malformed(m) => write!(f, "{m}"),
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
    /// 0 = the local midnight before the first job, as the BoTs' arrivals of [`bots::extract`](super::bots::extract)),
    /// with the processors it requests ([Minh10] §V-B: field 8 when the trace gives it, else those it used).
    pub fn burstiness(&self) -> Result<JobsBurstiness, DataError> {
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
            Format::Batsim => TimeOrigin {
                offset: 0.0,
                note: "Batsim JSON submit times count from the workload's start: time 0 taken as midnight".into(),
            },
            Format::Swf => {
                // A start in 0–MAX_TIME s and a zone within a day; anything else (1e308, nan) is not a time.
                let start = num("UnixStartTime").filter(|v| (0.0..=MAX_TIME).contains(v));
                let tz = num("TimeZone").filter(|v| (-DAY..=DAY).contains(v));
                let bad = |k: &str, ok: bool| match self.report.header_value(k) {
                    Some(v) if !ok => {
                        let v: String = v.trim().chars().take(24).collect();
                        format!(
                            "; header {k} {v:?} is not a time in range (UnixStartTime 0–{MAX_TIME:e} s, TimeZone \
                             ±86400 s): ignored"
                        )
                    }
                    _ => String::new(),
                };
                let notes = bad("UnixStartTime", start.is_some()) + bad("TimeZone", tz.is_some()).as_str();
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
                TimeOrigin { note: origin.note + notes.as_str(), ..origin }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::import;

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
