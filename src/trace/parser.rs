//! The incremental parser: bytes in chunks of any size (plain or gzip) to lines, lines to jobs or skips, with
//! the counts of the import report kept as it goes.

use super::limits::{
    GZIP_STEP, MAX_HEADER_BYTES, MAX_JOBS, MAX_LINE, MAX_NAME_BYTES, MAX_SKIPS, MAX_TEXT, NAME_OVERHEAD,
};
use super::model::{Format, ImportError, ImportReport, Job, Trace};
use super::rules::{apply_rules, Fields, Skip};
use std::collections::BTreeMap;
use std::io::Write;

enum Input {
    /// Fewer than two bytes seen: gzip or not is still open.
    Undecided(Vec<u8>),
    Plain,
    Gzip(Box<flate2::write::MultiGzDecoder<Vec<u8>>>),
}

/// An incremental parser: hand it the file in chunks of any size ([`Parser::push`]), read the counts as it goes
/// ([`Parser::report`]), and take the trace at the end ([`Parser::finish`]). Gzip input (magic bytes 1f 8b) is
/// decompressed on the fly. Memory is the jobs kept and their names (at most [`MAX_NAME_BYTES`]), the header kept
/// (at most [`MAX_HEADER_BYTES`]), the first [`MAX_SKIPS`] skipped lines, one line and one decompressed step: what
/// the file holds past these limits is counted, never kept.
pub struct Parser {
    format: Format,
    input: Input,
    partial: Vec<u8>,
    /// The current line passed [`MAX_LINE`]; the rest of it is dropped.
    overlong: bool,
    /// The last chunk ended with a CR: a LF that starts the next one belongs to it (CR LF is one line end).
    after_cr: bool,
    names: BTreeMap<Box<[u8]>, u32>,
    /// Bytes of the names kept, each counted with [`NAME_OVERHEAD`] more, and their bound ([`MAX_NAME_BYTES`]; a
    /// unit test lowers it).
    name_bytes: u64,
    pub(super) name_limit: u64,
    /// Bytes of the header fields kept (keys and values).
    header_bytes: usize,
    trace: Trace,
    failed: Option<ImportError>,
    /// Batsim JSON: the whole text, read at the end (a workload's `profiles` may follow its `jobs`).
    json: Vec<u8>,
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
            name_bytes: 0,
            name_limit: MAX_NAME_BYTES,
            header_bytes: 0,
            trace: Trace { jobs: Vec::new(), names: Vec::new(), report: ImportReport::new(format) },
            failed: None,
            json: Vec::new(),
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
        if self.format == Format::Batsim && self.trace.report.input_bytes > 0 {
            self.batsim()?;
        }
        // The last bytes may pass a limit too.
        if let Some(e) = self.failed.take() {
            return Err(e);
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
        if self.format == Format::Batsim {
            self.json.extend_from_slice(bytes);
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
                entry: None,
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
                // Past the bound, every later field is only counted, so the kept ones are a prefix of the file's.
                let bytes = k.len() + v.len();
                if r.header_dropped == 0 && self.header_bytes + bytes <= MAX_HEADER_BYTES {
                    self.header_bytes += bytes;
                    r.header.push((k, v));
                } else {
                    r.header_dropped += 1;
                }
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
                entry: None,
            });
            return;
        }
        if tokens.len() > n {
            r.extra_columns += 1;
        }
        let fields = Fields { tokens: &tokens[..n], line: number, names: self.format.fields() };
        let parsed = match self.format {
            Format::Swf => super::swf::parse(&fields),
            Format::Gwf => super::gwf::parse(&fields),
            Format::Batsim => unreachable!("a Batsim workload is read whole, not by lines"),
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
                self.keep(job, &format!("line {number}"));
            }
            Err(s) => self.skip(s),
        }
    }

    /// Keeps a job, unless the import failed or holds [`MAX_JOBS`] already.
    fn keep(&mut self, job: Job, place: &str) {
        if self.failed.is_some() {
            return;
        }
        if self.trace.report.jobs >= MAX_JOBS {
            self.failed = Some(ImportError::TooLarge(format!(
                "{place}: the file holds more than {MAX_JOBS} jobs; at most {MAX_JOBS} are imported"
            )));
            return;
        }
        self.trace.report.size.add(job.submit, job.run, job.procs);
        self.trace.jobs.push(job);
        self.trace.report.jobs += 1;
    }

    /// Reads the Batsim workload held in `json`: each entry of `jobs` counts as a line, a job or a skip.
    fn batsim(&mut self) -> Result<(), ImportError> {
        let text = std::mem::take(&mut self.json);
        let parsed = super::batsim::parse(&text).map_err(|e| ImportError::Malformed(e.0))?;
        drop(text);
        let r = &mut self.trace.report;
        r.lines = parsed.entries;
        for (k, v) in parsed.header {
            self.header_bytes += k.len() + v.len();
            r.header.push((k, v));
        }
        for s in parsed.skips {
            self.skip(s);
        }
        let none = self.intern(b"-1");
        for j in parsed.jobs {
            let job = Job {
                line: j.entry,
                id: j.id,
                submit: j.submit,
                wait: -1.0,
                run: j.run,
                procs: j.procs,
                req_procs: i64::from(j.procs),
                req_time: j.req_time,
                status: -1,
                user: self.intern(j.user.as_bytes()),
                group: none,
                executable: self.intern(j.executable.as_bytes()),
                queue: none,
                structure: None,
            };
            self.keep(job, &format!("jobs[{}]", j.entry - 1));
        }
        Ok(())
    }

    fn skip(&mut self, s: Skip) {
        let r = &mut self.trace.report;
        r.skipped += 1;
        *r.by_reason.entry(s.kind.clone()).or_insert(0) += 1;
        if r.first_skips.len() < MAX_SKIPS {
            r.first_skips.push(s);
        }
    }

    /// The index of a name, kept once; past `name_limit` bytes of names the import fails (the index returned then
    /// is never used: the line's job is not kept).
    fn intern(&mut self, token: &[u8]) -> u32 {
        if let Some(&id) = self.names.get(token) {
            return id;
        }
        self.name_bytes += token.len() as u64 + NAME_OVERHEAD;
        if self.name_bytes > self.name_limit {
            if self.failed.is_none() {
                self.failed = Some(ImportError::TooLarge(format!(
                    "line {}: the file's distinct user, group, executable and queue names take more than {} bytes; \
                     at most that is kept",
                    self.trace.report.lines,
                    crate::words::group_digits(&self.name_limit.to_string())
                )));
            }
            return 0;
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
