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
