//! The CLI's exit codes through the built binary (README, "Exit codes"): each kind of failure has its own.

use super::cli_edges::{bagsim, clean, dir, text, TINY};

/// The exit code says what kind of failure it was (README, "Exit codes"): 2 an input refused, 3 a file that cannot
/// be read or written, 4 a run that stopped, 5 a study not complete.
#[test]
fn exit_codes_tell_the_kinds_of_failure_apart() {
    let d = dir("exit-codes");
    std::fs::write(d.join("input.json"), TINY).unwrap();
    std::fs::write(d.join("wrong.json"), r#"{"workload": {"load": 7}}"#).unwrap();
    let cases: &[(&[&str], i32, &str)] = &[
        (&["run", "missing.json"], 3, "missing.json"),
        (&["run", "wrong.json"], 2, "workload.load"),
        (&["run", "input.json", "--out", "nodir/r.json"], 3, "nodir"),
        (&["merge", "nothing.manifest.json"], 3, "nothing.manifest.json"),
        (&["sweep", "input.json", "--set", "nokey=1", "--out", "s"], 2, "nokey"),
    ];
    for (args, code, names) in cases {
        let o = bagsim(&d, args);
        clean(&format!("{args:?}"), &o);
        assert_eq!(o.status.code(), Some(*code), "{args:?}: {}", text(&o));
        assert!(String::from_utf8_lossy(&o.stderr).contains(names), "{args:?}: {}", text(&o));
    }
    // A planned study with a shard not run yet is incomplete: 5, and the shard to run is named.
    let o = bagsim(&d, &["sweep", "input.json", "--set", "load=0.2,0.5", "--plan", "2", "--out", "st"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(bagsim(&d, &["sweep", "--manifest", "st.manifest.json", "--shard", "0"]).status.success());
    let o = bagsim(&d, &["merge", "st.manifest.json"]);
    assert_eq!(o.status.code(), Some(5), "{}", text(&o));
    assert!(text(&o).contains("missing shards: 1"), "{}", text(&o));
}
