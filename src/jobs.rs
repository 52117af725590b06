//! Per-task (per-job) records in Batsim's `jobs.csv` columns (docs/jobs.md), streamed to a writer as tasks finish,
//! so that evalys and the other tools that read Batsim's output read a run of any family. Knows no family: a family
//! gives a `Row` and the values of its own columns, named when the stream starts.

use std::io::Write;

/// Batsim's 17 columns, in Batsim's order; a family's own columns follow them.
pub const BATSIM_COLUMNS: [&str; 17] = [
    "job_id",
    "workload_name",
    "profile",
    "submission_time",
    "requested_number_of_resources",
    "requested_time",
    "success",
    "final_state",
    "starting_time",
    "execution_time",
    "finish_time",
    "waiting_time",
    "turnaround_time",
    "stretch",
    "allocated_resources",
    "consumed_energy",
    "metadata",
];

/// The `workload_name` of every row: one workload per run.
pub const WORKLOAD_NAME: &str = "bagsim";

/// A job's end, from Batsim's list of final states.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FinalState {
    CompletedSuccessfully,
    /// Stopped at its requested time (a data-grid job under walltime `kill`).
    CompletedWalltimeReached,
}

impl FinalState {
    pub fn name(self) -> &'static str {
        match self {
            FinalState::CompletedSuccessfully => "COMPLETED_SUCCESSFULLY",
            FinalState::CompletedWalltimeReached => "COMPLETED_WALLTIME_REACHED",
        }
    }
}

/// One row's Batsim part; times in s. The derived columns (execution, waiting, turnaround time, stretch) are
/// computed from these by Batsim's formulas.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Row<'a> {
    pub job_id: u64,
    /// Batsim's profile name: `delay` (a fixed duration), the only kind a bagsim task is.
    pub profile: &'static str,
    pub submission_time: f64,
    pub requested_number_of_resources: u32,
    /// The requested time (walltime), s; -1 when the family's tasks request none (Batsim's "no walltime").
    pub requested_time: f64,
    pub final_state: FinalState,
    pub starting_time: f64,
    pub finish_time: f64,
    /// The processors the execution held: sorted, disjoint, inclusive ranges of global processor indices.
    pub allocated: &'a [(u32, u32)],
}

/// A value of a family's own column.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Cell<'a> {
    Int(u64),
    Signed(i64),
    Num(f64),
    Text(&'a str),
}

/// What a finished stream wrote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JobsEnd {
    /// Rows written: tasks (jobs) that ended.
    pub rows: u64,
    /// Tasks (jobs) of the workload with no row: not ended when the run stopped (Batsim writes only complete jobs).
    pub left_out: u64,
}

/// The stream: a buffered writer, the family's column names and the first write error (after which nothing more is
/// written; `finish` returns it).
pub struct JobsCsv {
    out: std::io::BufWriter<Box<dyn Write>>,
    own: &'static [&'static str],
    rows: u64,
    error: Option<std::io::Error>,
    line: String,
}

impl JobsCsv {
    /// Starts a stream to `out` with the family's own columns `own` after Batsim's, and writes the header.
    pub fn new(out: Box<dyn Write>, own: &'static [&'static str]) -> JobsCsv {
        let mut s = JobsCsv { out: std::io::BufWriter::new(out), own, rows: 0, error: None, line: String::new() };
        let header: Vec<&str> = BATSIM_COLUMNS.iter().chain(own).copied().collect();
        s.line = header.join(",");
        s.line.push('\n');
        s.flush_line();
        s
    }

    /// Writes one row: Batsim's columns from `row`, then `cells`, one per column named at `new`.
    pub fn row(&mut self, row: &Row, cells: &[Cell]) {
        debug_assert_eq!(cells.len(), self.own.len(), "one cell per own column");
        use std::fmt::Write as _;
        let execution = row.finish_time - row.starting_time;
        let turnaround = row.finish_time - row.submission_time;
        let success = u8::from(row.final_state == FinalState::CompletedSuccessfully);
        let l = &mut self.line;
        l.clear();
        let _ = write!(
            l,
            "{},{WORKLOAD_NAME},{},{},{},{},{success},{},{},{},{},{},{},",
            row.job_id,
            row.profile,
            num(row.submission_time),
            row.requested_number_of_resources,
            num(row.requested_time),
            row.final_state.name(),
            num(row.starting_time),
            num(execution),
            num(row.finish_time),
            num(row.starting_time - row.submission_time),
            num(turnaround),
        );
        // Batsim's stretch: turnaround / execution time (undefined, so empty, for an execution of no time).
        if execution > 0.0 {
            let _ = write!(l, "{}", num(turnaround / execution));
        }
        l.push(',');
        write_intervals(l, row.allocated);
        // consumed_energy: bagsim models no energy (Batsim's -1); metadata: none.
        l.push_str(",-1,");
        for c in cells {
            l.push(',');
            match *c {
                Cell::Int(i) => {
                    let _ = write!(l, "{i}");
                }
                Cell::Signed(i) => {
                    let _ = write!(l, "{i}");
                }
                Cell::Num(x) => l.push_str(&num(x)),
                Cell::Text(t) => l.push_str(&crate::stats::csv_field(t)),
            }
        }
        l.push('\n');
        self.rows += 1;
        self.flush_line();
    }

    fn flush_line(&mut self) {
        if self.error.is_none() {
            if let Err(e) = self.out.write_all(self.line.as_bytes()) {
                self.error = Some(e);
            }
        }
    }

    /// Rows written so far.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Flushes the stream; `tasks` is the workload's count, of which those without a row are `left_out`.
    pub fn finish(mut self, tasks: u64) -> std::io::Result<JobsEnd> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.out.flush()?;
        Ok(JobsEnd { rows: self.rows, left_out: tasks.saturating_sub(self.rows) })
    }
}

/// A number as every bagsim CSV writes it: the shortest text that reads back to the same f64.
fn num(x: f64) -> String {
    crate::stats::csv_number(x)
}

/// Batsim's interval set: `a-b` ranges and single indices separated by spaces (`0-3 7`).
fn write_intervals(l: &mut String, ranges: &[(u32, u32)]) {
    use std::fmt::Write as _;
    for (i, &(a, b)) in ranges.iter().enumerate() {
        if i > 0 {
            l.push(' ');
        }
        let _ = if a == b { write!(l, "{a}") } else { write!(l, "{a}-{b}") };
    }
}

/// Sorted indices as disjoint inclusive ranges (`[0, 1, 2, 5]` → `[(0, 2), (5, 5)]`); `out` is cleared first.
pub fn ranges_of(sorted: &[u32], out: &mut Vec<(u32, u32)>) {
    out.clear();
    for &p in sorted {
        match out.last_mut() {
            Some((_, b)) if p == *b + 1 => *b = p,
            _ => out.push((p, p)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer the test reads back.
    #[derive(Clone, Default)]
    struct Shared(std::rc::Rc<std::cell::RefCell<Vec<u8>>>);
    impl Write for Shared {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.borrow_mut().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_row_has_batsims_columns_and_formulas() {
        let buf = Shared::default();
        let mut s = JobsCsv::new(Box::new(buf.clone()), &["bot", "note"]);
        let row = Row {
            job_id: 7,
            profile: "delay",
            submission_time: 2.0,
            requested_number_of_resources: 5,
            requested_time: -1.0,
            final_state: FinalState::CompletedSuccessfully,
            starting_time: 3.0,
            finish_time: 7.0,
            allocated: &[(0, 3), (9, 9)],
        };
        s.row(&row, &[Cell::Int(1), Cell::Text("a,b")]);
        assert_eq!(s.finish(3).unwrap(), JobsEnd { rows: 1, left_out: 2 });
        let text = String::from_utf8(buf.0.borrow().clone()).unwrap();
        let mut lines = text.lines();
        assert_eq!(lines.next().unwrap(), format!("{},bot,note", BATSIM_COLUMNS.join(",")));
        // wait 3 − 2 = 1, execution 7 − 3 = 4, turnaround 7 − 2 = 5, stretch 5 / 4 = 1.25.
        assert_eq!(
            lines.next().unwrap(),
            "7,bagsim,delay,2,5,-1,1,COMPLETED_SUCCESSFULLY,3,4,7,1,5,1.25,0-3 9,-1,,1,\"a,b\""
        );
        assert!(lines.next().is_none());
    }

    #[test]
    fn indices_become_ranges() {
        let mut out = Vec::new();
        ranges_of(&[0, 1, 2, 5, 7, 8], &mut out);
        assert_eq!(out, vec![(0, 2), (5, 5), (7, 8)]);
        ranges_of(&[], &mut out);
        assert!(out.is_empty());
    }
}
