//! A simulated schedule written as SWF v2.2 while a run goes (`bagsim run --swf`, docs/traces.md "Writing"): the
//! header every family writes, then one job line at a time. The first write error is kept and given back by
//! `finish`, so a family writes from inside its run loop without a `Result` at every event. A schedule of a BoT
//! workload (one job per task, BoT by BoT in submit order) is written by `BotSwf` for every family that runs one.
//! Knows no family.

use super::swf::{write_line, Line};
use crate::workload::Workload;
use std::io::Write;

/// What a finished schedule wrote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SwfEnd {
    /// Job lines written.
    pub jobs: u64,
    /// Of them, jobs the run's end found unfinished (status 5, run time −1).
    pub unfinished: u64,
}

/// The stream: a buffered writer, the counts, and the first write error (after which nothing more is written).
pub struct SwfStream {
    out: std::io::BufWriter<Box<dyn Write>>,
    end: SwfEnd,
    error: Option<std::io::Error>,
}

impl SwfStream {
    /// Starts a schedule on `out`: the header `Version`, `Computer` (bagsim and `what`), a `Note` per line of
    /// `notes` (what the fields hold), `MaxJobs` and `MaxProcs`.
    pub fn new(out: Box<dyn Write>, what: &str, notes: &[&str], max_jobs: u64, max_procs: u64) -> SwfStream {
        let mut s = SwfStream { out: std::io::BufWriter::new(out), end: SwfEnd::default(), error: None };
        let mut header = format!("; Version: 2.2\n; Computer: bagsim simulated schedule, {what}\n");
        for n in notes {
            header.push_str(&format!("; Note: {n}\n"));
        }
        header.push_str(&format!("; MaxJobs: {max_jobs}\n; MaxProcs: {max_procs}\n"));
        s.keep(|out| out.write_all(header.as_bytes()));
        s
    }

    /// Writes one job line (status 5 counts as unfinished).
    pub fn line(&mut self, l: &Line) {
        self.end.jobs += 1;
        self.end.unfinished += u64::from(l.status == 5);
        self.keep(|out| write_line(out, l));
    }

    fn keep(&mut self, write: impl FnOnce(&mut std::io::BufWriter<Box<dyn Write>>) -> std::io::Result<()>) {
        if self.error.is_none() {
            if let Err(e) = write(&mut self.out) {
                self.error = Some(e);
            }
        }
    }

    /// Flushes; the counts, or the first error.
    pub fn finish(mut self) -> std::io::Result<SwfEnd> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.out.flush()?;
        Ok(self.end)
    }
}

/// The schedule of a BoT workload: one job per task, written BoT by BoT in submit order, each BoT once it and every
/// BoT submitted before it have finished, the rest at the end. A family gives, for task `t`, the `(start, end)`
/// its line reads (NaN where there is none). Task `t` of BoT `b` is the line: job `t + 1`; submit = the BoT's
/// arrival; wait = start − submit and run = end − start, −1 where NaN; 1 processor; status 1, or 5 when it has no
/// end (not finished when the run stopped); user (field 12) = the BoT's user + 1; executable (field 14) = `b + 1`
/// (SWF numbers an application from 1); queue and partition −1.
///
/// Memory: the stream's buffer and the index of the next BoT to write; the times are the family's.
pub struct BotSwf {
    out: SwfStream,
    next_bot: usize,
}

impl BotSwf {
    /// Starts the schedule of `w` on `out`: the header with `notes`, `MaxJobs` its tasks and `MaxProcs` `procs`.
    pub fn new(out: Box<dyn Write>, what: &str, notes: &[&str], w: &Workload, procs: u64) -> BotSwf {
        BotSwf { out: SwfStream::new(out, what, notes, w.tasks() as u64, procs), next_bot: 0 }
    }

    /// Writes, from the next BoT not written on, every BoT for which `finished(b)`, stopping at the first that
    /// has not.
    pub fn write_finished(
        &mut self,
        w: &Workload,
        finished: impl Fn(usize) -> bool,
        times: impl Fn(usize) -> (f64, f64),
    ) {
        while self.next_bot < w.bots.len() && finished(self.next_bot) {
            self.write_bot(w, self.next_bot, &times);
            self.next_bot += 1;
        }
    }

    /// Writes the BoTs not written yet (after the run's end) and flushes.
    pub fn finish(mut self, w: &Workload, times: impl Fn(usize) -> (f64, f64)) -> std::io::Result<SwfEnd> {
        for b in self.next_bot..w.bots.len() {
            self.write_bot(w, b, &times);
        }
        self.out.finish()
    }

    fn write_bot(&mut self, w: &Workload, b: usize, times: &impl Fn(usize) -> (f64, f64)) {
        let bot = &w.bots[b];
        for t in bot.first_task as usize..(bot.first_task + bot.size) as usize {
            let (start, end) = times(t);
            self.out.line(&Line {
                job: t as u64 + 1,
                submit: bot.arrival,
                wait: if start.is_nan() { -1.0 } else { start - bot.arrival },
                run: if end.is_nan() { -1.0 } else { end - start },
                procs: 1,
                req_time: -1.0,
                status: if end.is_nan() { 5 } else { 1 },
                user: i64::from(bot.user) + 1,
                executable: b as i64 + 1,
                queue: -1,
                partition: -1,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer that fails after `left` bytes.
    struct Short(usize);
    impl Write for Short {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            if b.len() > self.0 {
                return Err(std::io::Error::other("disk full"));
            }
            self.0 -= b.len();
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn line(status: i32) -> Line {
        let run = if status == 5 { -1.0 } else { 2.0 };
        Line {
            job: 1,
            submit: 0.0,
            wait: 1.0,
            run,
            procs: 1,
            req_time: -1.0,
            status,
            user: 1,
            executable: 1,
            queue: -1,
            partition: -1,
        }
    }

    #[test]
    fn counts_lines_and_unfinished_ones() {
        let mut s = SwfStream::new(Box::new(std::io::sink()), "test", &["a"], 2, 1);
        s.line(&line(1));
        s.line(&line(5));
        assert_eq!(s.finish().unwrap(), SwfEnd { jobs: 2, unfinished: 1 });
    }

    #[test]
    fn a_write_error_is_given_back_at_the_end() {
        // The header alone is longer than 10 bytes; the buffer reaches the writer at the flush.
        let mut s = SwfStream::new(Box::new(Short(10)), "test", &[], 1, 1);
        s.line(&line(1));
        assert_eq!(s.finish().unwrap_err().to_string(), "disk full");
    }
}
