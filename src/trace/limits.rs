//! The limits of an import: what is skipped, refused or kept, so that no file can exhaust the memory or the
//! sums over a trace.

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
pub(super) const GZIP_STEP: usize = 8 * 1024;
/// The most jobs an import keeps (about 0.9 GB at their peak): a larger log is refused as it is read, before its
/// jobs fill the memory, however small its gzip file is.
pub const MAX_JOBS: u64 = 5_000_000;
/// The most bytes of text (after decompression) an import reads: a file without end (`/dev/zero`) or a gzip bomb
/// is refused when it passes it.
pub const MAX_TEXT: u64 = 4 << 30;
