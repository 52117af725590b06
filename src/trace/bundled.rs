//! The workload log bundled with bagsim: the first 3 170 jobs of the HPC2N log of the Parallel Workloads Archive
//! (tests/data/README.md), compiled into the CLI and the page's worker so that a data-grid run needs no file, and
//! copied beside the page for download.

use super::{import, ImportError, Trace, TraceSize};

/// The name a scenario gives the bundled log (`data_grid.trace`).
pub const HPC2N: &str = "hpc2n.swf";

/// The bundled log's bytes, unchanged.
pub const HPC2N_SWF: &[u8] = include_bytes!("../../tests/data/hpc2n.swf");

/// The bundled log's size (its import report's, tested), for the estimate of a run on it without importing it.
pub const HPC2N_SIZE: TraceSize = TraceSize {
    jobs: 3_145,
    serial_jobs: 147,
    processors: 63_578,
    work: 503_655_194.0,
    first_submit: 0.0,
    last_submit: 4_950_011.0,
};

/// The bundled log, imported.
pub fn hpc2n() -> Result<Trace, ImportError> {
    import(HPC2N_SWF)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_bundled_log_is_the_hpc2n_excerpt() {
        let t = super::hpc2n().expect("the bundled log imports");
        // tests/data/README.md: 3 170 job lines, widths up to 128 processors.
        assert_eq!(t.report.lines - t.report.comments, 3_170);
        assert_eq!(t.jobs.iter().map(|j| j.procs).max(), Some(128));
        assert_eq!(t.report.header_value("Installation").map(|v| v.starts_with("HPC2N")), Some(true));
        assert_eq!(t.report.size, super::HPC2N_SIZE);
    }
}
