//! The Grid Workloads Format of the Grid Workloads Archive: one job per line, 29 fields separated by whitespace,
//! −1 = unknown; `#` starts a comment. Fields 1–15 mean what they mean in SWF; identifiers (UserID, GroupID,
//! ExecutableID, QueueID, sites, VO, project) and JobStructure (`UNITARY`, `BoT`) may be text. Submit times are
//! Unix times.

use super::rules::{Fields, RawJob, Skip};

/// The byte that starts a comment line.
pub const COMMENT: u8 = b'#';

/// The 29 fields, in order, with the archive's names.
pub const FIELDS: [&str; 29] = [
    "JobID",
    "SubmitTime",
    "WaitTime",
    "RunTime",
    "NProcs",
    "AverageCPUTimeUsed",
    "UsedMemory",
    "ReqNProcs",
    "ReqTime",
    "ReqMemory",
    "Status",
    "UserID",
    "GroupID",
    "ExecutableID",
    "QueueID",
    "PartitionID",
    "OrigSiteID",
    "LastRunSiteID",
    "JobStructure",
    "JobStructureParams",
    "UsedNetwork",
    "UsedLocalDiskSpace",
    "UsedResources",
    "ReqPlatform",
    "ReqNetwork",
    "ReqLocalDiskSpace",
    "ReqResources",
    "VOID",
    "ProjectID",
];

/// Index (0-based) of JobStructure.
const STRUCTURE: usize = 18;

/// Reads the fields the importer uses: 1, 5, 8, 11 whole numbers; 2, 3, 4, 9 numbers; the rest is kept as text or
/// ignored (GWA logs differ in what they put in the resource and platform fields).
pub(crate) fn parse(f: &Fields<'_>) -> Result<RawJob, Skip> {
    Ok(RawJob {
        id: f.integer(1)?,
        submit: f.number(2)?,
        wait: f.number(3)?,
        run: f.number(4)?,
        alloc: f.integer(5)?,
        req_procs: f.integer(8)?,
        req_time: f.number(9)?,
        status: f.integer(11)?,
        procs: 0,
        structure: Some(STRUCTURE),
    })
}
