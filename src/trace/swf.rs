//! The Standard Workload Format v2.2 of the Parallel Workloads Archive: one job per line, 18 numeric fields
//! separated by whitespace, −1 = unknown; `;` starts a comment, and `; Key: value` comments are the header
//! (Version, Computer, Installation, MaxJobs, MaxProcs, MaxNodes, UnixStartTime, TimeZone, Note, …).

use super::rules::{Fields, RawJob, Skip};

/// The byte that starts a comment line.
pub const COMMENT: u8 = b';';

/// The 18 fields, in order.
pub const FIELDS: [&str; 18] = [
    "job number",
    "submit time",
    "wait time",
    "run time",
    "allocated processors",
    "average CPU time",
    "used memory",
    "requested processors",
    "requested time",
    "requested memory",
    "status",
    "user id",
    "group id",
    "executable",
    "queue",
    "partition",
    "preceding job",
    "think time",
];

/// Reads the numbers of a line (every field must be a number; fields 1, 5, 8 and 11–17 whole numbers).
pub(crate) fn parse(f: &Fields<'_>) -> Result<RawJob, Skip> {
    let mut v = [0.0; 18];
    for (i, x) in v.iter_mut().enumerate() {
        let field = i as u32 + 1;
        *x = match field {
            1 | 5 | 8 | 11..=17 => f.integer(field)? as f64,
            _ => f.number(field)?,
        };
    }
    Ok(RawJob {
        id: v[0] as i64,
        submit: v[1],
        wait: v[2],
        run: v[3],
        alloc: v[4] as i64,
        req_procs: v[7] as i64,
        req_time: v[8],
        status: v[10] as i64,
        procs: 0,
        structure: None,
    })
}

/// One job line to write: the fields a simulated schedule knows; the others are written −1 (unknown).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Line {
    /// Field 1, from 1.
    pub job: u64,
    /// Fields 2–4, s (wait and run −1 when unknown).
    pub submit: f64,
    pub wait: f64,
    pub run: f64,
    /// Fields 5 and 8: allocated and requested processors.
    pub procs: u32,
    /// Field 9, s (−1: none).
    pub req_time: f64,
    /// Field 11: 1 completed, 0 failed, 5 cancelled.
    pub status: i32,
    /// Fields 12, 14, 15, 16 (−1: unknown).
    pub user: i64,
    pub executable: i64,
    pub queue: i64,
    pub partition: i64,
}

/// Writes one job line. Times are written exactly (Rust's shortest decimal that reads back as the same f64), so
/// a schedule read back gives the simulation's own numbers; logs of real systems round them to whole seconds.
pub fn write_line(o: &mut impl std::io::Write, l: &Line) -> std::io::Result<()> {
    // job submit wait run procs cpu mem req_procs req_time req_mem status user group exe queue partition prec think
    writeln!(
        o,
        "{} {} {} {} {} -1 -1 {} {} -1 {} {} -1 {} {} {} -1 -1",
        l.job,
        l.submit,
        l.wait,
        l.run,
        l.procs,
        l.procs,
        l.req_time,
        l.status,
        l.user,
        l.executable,
        l.queue,
        l.partition
    )
}
