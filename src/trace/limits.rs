//! The limits of an import: what is skipped, refused or kept, so that no file can exhaust the memory or the
//! sums over a trace.

/// The first skipped lines kept with their message; the rest are only counted.
pub const MAX_SKIPS: usize = 100;
/// The header (`Key: value` comments) kept, bytes of keys and values: the fields in file order up to this much
/// are kept, the rest only counted (`ImportReport::header_dropped`), so that a file of header lines costs no more
/// memory than this however many it holds. A log's header is a few KiB (the bundled HPC2N one, 1 KiB).
pub const MAX_HEADER_BYTES: usize = 64 * 1024;
/// The distinct user, group, executable, queue and JobStructure names an import keeps, bytes (each name counted
/// with [`NAME_OVERHEAD`] more): a file whose names pass it is refused as it is read.
pub const MAX_NAME_BYTES: u64 = 256 << 20;
/// What a kept name costs besides its text, bytes, in [`MAX_NAME_BYTES`].
pub(super) const NAME_OVERHEAD: u64 = 32;
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
