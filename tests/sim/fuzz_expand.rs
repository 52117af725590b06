//! Compressed inputs that expand (the issue "Trust, round three", item 4): a small gzip of many header lines, with
//! or without jobs, through `bagsim trace` and a scenario that replays it, under an address space far below what
//! keeping a record per line read would take. Each run is refused naming what is wrong or runs clean; none aborts.

use super::cli_edges::{clean, dir, text};
use bagsim::engine::Rng;
use std::io::Write;

/// Address space of a run, KiB: 512 MiB, where a record per header line read (about 110 B) of the inputs below
/// (6 to 10 million lines) would not fit.
const CAP_KIB: u64 = 512 * 1024;

#[test]
fn a_small_gzip_that_expands_is_bounded_by_what_it_keeps() {
    let d = dir("fuzz-expand");
    let mut rng = Rng::new(414);
    for case in 0..3 {
        let lines = 6_000_000 + rng.below(4_000_000) as usize;
        let jobs = rng.below(3) as usize;
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        for i in 0..lines {
            // Distinct keys, so that nothing can be kept once for many lines.
            writeln!(gz, "; Note{i}: a header line").unwrap();
        }
        for j in 0..jobs {
            writeln!(gz, "{} {} 0 100 1 -1 -1 1 100 -1 1 1 1 1 1 -1 -1 -1", j + 1, j * 10).unwrap();
        }
        std::fs::write(d.join("big.swf.gz"), gz.finish().unwrap()).unwrap();
        let o = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("ulimit -v {CAP_KIB} && exec \"$0\" \"$@\""))
            .arg(env!("CARGO_BIN_EXE_bagsim"))
            .args(["trace", "big.swf.gz"])
            .current_dir(&d)
            .output()
            .unwrap();
        let label = format!("case {case}: {lines} header lines and {jobs} jobs");
        clean(&label, &o);
        let t = text(&o);
        if jobs == 0 {
            assert_eq!(o.status.code(), Some(2), "{label}: {t}");
            assert!(t.contains(&format!("{} lines read", lines)), "{label}: {t}");
        } else {
            assert_eq!(o.status.code(), Some(0), "{label}: {t}");
            assert!(t.contains("read and not kept"), "{label}: the report says what it dropped\n{t}");
        }
    }
}
