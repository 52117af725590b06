//! The CLI at its edges, through the built binary: each case a hostile or careless user could type is refused with
//! a message naming what is wrong (exit code 2), or runs to outputs that hold only finite numbers, the right labels
//! and every file asked for. One regression case per defect class of the issue "Trust at the edges"; the generated
//! cases are in `cli_fuzz.rs`.

use std::path::{Path, PathBuf};
use std::process::Output;

/// A fresh directory for one test, removed with everything in it when the test ends (passed or failed), so that
/// runs of the test command leave nothing behind in the temporary directory.
pub struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A fresh directory for one test (see [`Scratch`]).
pub fn dir(name: &str) -> Scratch {
    let d = std::env::temp_dir().join(format!("bagsim-edges-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    Scratch(d)
}

/// Runs `bagsim args…` in `dir`.
pub fn bagsim(dir: &Path, args: &[&str]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_bagsim")).args(args).current_dir(dir).output().unwrap()
}

pub fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// The words of a text that are not numbers a reader can trust: NaN, inf, a negative zero, or a number of more
/// than 40 digits (outside double quotes).
pub fn bad_numbers(s: &str) -> Vec<String> {
    // The user's own text, quoted back ("nan" is not a finite number), is not a number we computed.
    let unquoted: String = s.split('"').step_by(2).collect::<Vec<_>>().join(" ");
    unquoted
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '-' || c == '+'))
        .filter(|w| {
            let lower = w.to_ascii_lowercase();
            let t = lower.trim_start_matches(['-', '+']);
            let numeric = !t.is_empty() && t.chars().all(|c| c.is_ascii_digit() || c == '.');
            t == "nan"
                || t == "inf"
                || t == "infinity"
                || (numeric && w.starts_with('-') && t.chars().all(|c| c == '0' || c == '.'))
                || (numeric && t.chars().filter(char::is_ascii_digit).count() > 40)
        })
        .map(str::to_string)
        .collect()
}

/// A case ran cleanly: no panic or abort, exit code 0 (ran) or one of the documented failures (README, "Exit
/// codes": 2 refused, 3 a file, 4 a run stopped, 5 a study incomplete) with a message, and only trustworthy numbers
/// in what it printed.
pub fn clean(case: &str, o: &Output) {
    let t = text(o);
    assert!(!t.contains("panicked") && !t.contains("RUST_BACKTRACE"), "{case}: panic\n{t}");
    let code = o.status.code();
    assert!(matches!(code, Some(0 | 2 | 3 | 4 | 5)), "{case}: exit {code:?}\n{t}");
    if code != Some(0) {
        assert!(String::from_utf8_lossy(&o.stderr).starts_with("bagsim: ") || t.contains("error:"), "{case}: {t}");
    }
    let bad = bad_numbers(&t);
    assert!(bad.is_empty(), "{case}: {bad:?} in\n{t}");
}

/// Every file of `dir` holds only trustworthy numbers (JSON, CSV, Markdown, SVG).
pub fn clean_files(case: &str, dir: &Path) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if let Ok(s) = std::fs::read_to_string(&p) {
            let bad = bad_numbers(&s);
            assert!(bad.is_empty(), "{case}: {bad:?} in {}", p.display());
        }
    }
}

// Class 1: verdicts and statistics from no data.

/// A base in which no BoT finishes: every finding is "no data" (none agrees, disagrees or is "not resolved"), no
/// number is NaN.
#[test]
fn a_figure_of_runs_that_finish_nothing_resolves_nothing() {
    let d = dir("nodata-mc");
    std::fs::write(d.join("input.json"), r#"{"horizon": 1, "workload": {"submission_period": 3600}}"#).unwrap();
    let o = bagsim(&d, &["reproduce", "all", "--base", "input.json", "--seeds", "2", "--out", "r"]);
    clean("reproduce all, nothing finishes", &o);
    assert!(o.status.success(), "{}", text(&o));
    let t = text(&o);
    assert!(t.contains("[no data]"), "{t}");
    assert!(!t.contains(" agrees ") && !t.contains("disagrees") && !t.contains("[not resolved]"), "{t}");
    clean_files("reproduce all, nothing finishes", &d);
}

/// A desktop grid whose horizon ends before anything finishes: no bar is called bounded, no NaN is printed.
#[test]
fn a_desktop_grid_bar_of_nothing_is_not_called_bounded() {
    let d = dir("nodata-dg");
    std::fs::write(d.join("input.json"), r#"{"family":"desktop_grid","desktop_grid":{"horizon":1,"bots":20}}"#)
        .unwrap();
    let o = bagsim(&d, &["dg-figure", "2", "--scenario", "input.json", "--max-seeds", "3", "--out", "d"]);
    clean("dg-figure 2, 1 s horizon", &o);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(!t.contains(" bounded") && t.contains("not resolved"), "{t}");
    assert!(!t.contains("[agrees]") && !t.contains("[disagrees]"), "{t}");
    clean_files("dg-figure 2, 1 s horizon", &d);
}

// Class 2: silently mislabelled or lost results.

pub const TINY: &str = r#"{"workload": {"submission_period": 3600}}"#;

/// A key may be an axis once, under any of its names, and a whole object once with none of its fields.
#[test]
fn a_key_is_an_axis_once_whatever_its_name() {
    let d = dir("axes");
    std::fs::write(d.join("input.json"), TINY).unwrap();
    for sets in [
        ["load=0.2,0.5", "load=0.9"],
        ["load=0.2,0.5", "workload.load=0.9"],
        ["workload.load=0.2", "workload=null"],
        ["seed=1,2", "seed=3"],
    ] {
        let o = bagsim(&d, &["sweep", "input.json", "--set", sets[0], "--set", sets[1], "--out", "s"]);
        clean(&format!("{sets:?}"), &o);
        assert_eq!(o.status.code(), Some(2), "{sets:?}: {}", text(&o));
        assert!(text(&o).contains("a key may appear once"), "{sets:?}: {}", text(&o));
        assert!(!d.join("s.csv").exists());
    }
}

/// Output stems keep every dot, and a label with a quote or a comma is one RFC 4180 cell that reads back.
#[test]
fn stems_keep_their_dots_and_labels_are_quoted() {
    let d = dir("stems");
    std::fs::write(
        d.join("input.json"),
        concat!(
            r#"{"workload": {"submission_period": 3600}, "platform": {"clusters": [{"name": "a", "#,
            r#""processors": 4, "speed": 1}]}}"#
        ),
    )
    .unwrap();
    for stem in ["run.1", "run.2"] {
        let o = bagsim(&d, &["sweep", "input.json", "--set", "load=0.2", "--out", stem]);
        clean(stem, &o);
        assert!(o.status.success(), "{}", text(&o));
    }
    for f in ["run.1.csv", "run.1.json", "run.2.csv", "run.2.json"] {
        assert!(d.join(f).exists(), "{f} missing");
    }
    assert!(!d.join("run.csv").exists());
    let o = bagsim(&d, &["sweep", "input.json", "--set", "platform.clusters.0.name=q\"t,plain", "--out", "q"]);
    clean("quoted label", &o);
    let csv = std::fs::read_to_string(d.join("q.csv")).unwrap();
    let rows: Vec<Vec<String>> = csv.lines().map(|l| bagsim::stats::csv_cells(l).unwrap()).collect();
    assert!(rows.iter().all(|r| r.len() == rows[0].len()), "{csv}");
    assert_eq!(rows[1][0], "q\"t");
    assert_eq!(rows[2][0], "plain");
    let o = bagsim(&d, &["sweep", "input.json", "--set", "platform.clusters.0.name=a\nb", "--out", "n"]);
    clean("line break in a value", &o);
    assert_eq!(o.status.code(), Some(2));
}

// Class 4: values inside the documented ranges that would make a time infinite.

/// A cluster speed of 5e-324 beside a normal one, and a runtime law whose mean is the largest double: refused
/// naming the key, by `run` and by `generate` (which never writes an infinite runtime).
#[test]
fn a_time_that_would_be_infinite_is_refused_naming_its_key() {
    let d = dir("infinite");
    std::fs::write(
        d.join("slow.json"),
        r#"{"workload": {"submission_period": 3600}, "platform": {"clusters": [
            {"name": "a", "processors": 4, "speed": 5e-324}, {"name": "b", "processors": 4, "speed": 1}]}}"#,
    )
    .unwrap();
    std::fs::write(
        d.join("law.json"),
        r#"{"workload": {"submission_period": 86400, "load": null, "generator": {"login_logout": {
            "users": [{"name": "u", "lambda": 0.0002, "delta": 0.02, "mu": 0.08}],
            "runtime": {"family": "exponential", "mean": 1.797e308}}}}}"#,
    )
    .unwrap();
    for (file, key) in [("slow.json", "platform.clusters[0].speed"), ("law.json", "workload.generator.login_logout")] {
        for cmd in ["run", "generate"] {
            let o = bagsim(&d, &[cmd, file]);
            clean(&format!("{cmd} {file}"), &o);
            assert_eq!(o.status.code(), Some(2), "{cmd} {file}: {}", text(&o));
            let e = String::from_utf8_lossy(&o.stderr);
            assert!(e.contains(key) && e.contains("at most 1e14 s"), "{cmd} {file}: {e}");
            assert!(o.stdout.is_empty(), "{cmd} {file}: wrote {} bytes", o.stdout.len());
        }
    }
}

// Class 7: work lost at the end.

/// Every output path is checked before the work starts: nothing is simulated for a file that cannot be written,
/// and a bad --csv does not cost the JSON.
#[test]
fn output_paths_are_checked_before_any_work() {
    let d = dir("outputs");
    std::fs::write(d.join("input.json"), TINY).unwrap();
    let cases: &[&[&str]] = &[
        &["run", "input.json", "--out", "nodir/x.json"],
        &["run", "input.json", "--out", "x.json", "--csv", "nodir/y.csv"],
        &["run", "input.json", "--out", "same", "--csv", "same"],
        &["run", "input.json", "--out", "x.json", "--jobs", "nodir/j.csv"],
        &["run", "input.json", "--csv", "same", "--jobs", "same"],
        &["run", "input.json", "--out", "."],
        &["sweep", "input.json", "--set", "load=0.2", "--out", "nodir/q"],
        &["sweep", "input.json", "--set", "load=0.2", "--plan", "1", "--out", "nodir/q"],
        &["reproduce", "fig3", "--seeds", "2", "--out", "nodir/r"],
        &["dg-figure", "2", "--max-seeds", "2", "--out", "nodir/d"],
        &["dd-figure", "4", "--seeds", "2", "--out", "nodir/d"],
        &["trace", "input.json", "--out", "nodir/t.json"],
    ];
    for args in cases {
        let o = bagsim(&d, args);
        clean(&format!("{args:?}"), &o);
        // A directory that does not exist is a file that cannot be written (3); two outputs on one path, or a
        // directory given as a file, are options refused (2).
        let code = if args.iter().any(|a| a.starts_with("nodir/")) { 3 } else { 2 };
        assert_eq!(o.status.code(), Some(code), "{args:?}: {}", text(&o));
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(e.contains("--out") || e.contains("--csv") || e.contains("--jobs"), "{args:?}: {e}");
        assert!(o.stdout.is_empty(), "{args:?} printed results: {}", text(&o));
    }
    assert!(!d.join("x.json").exists(), "a JSON was written although the CSV path was bad");
}

// Class 3: study files trusted as written.

/// A manifest edited field by field is refused by `sweep --shard`, `merge` and `slurm`; a shard edited after it
/// was written is named by `merge`; nothing is merged.
#[test]
fn edited_manifests_and_shards_are_refused() {
    let d = dir("manifests");
    std::fs::write(d.join("input.json"), TINY).unwrap();
    let ok = |args: &[&str]| {
        let o = bagsim(&d, args);
        assert!(o.status.success(), "{args:?}: {}", text(&o));
    };
    ok(&["sweep", "input.json", "--set", "load=0.2,0.5", "--set", "seed=1,2", "--plan", "2", "--out", "st"]);
    let original = std::fs::read_to_string(d.join("st.manifest.json")).unwrap();
    let original_version = serde_json::from_str::<serde_json::Value>(&original).unwrap()["bagsim_version"].clone();
    for i in ["0", "1"] {
        ok(&["sweep", "--manifest", "st.manifest.json", "--shard", i]);
    }
    let mut m: serde_json::Value = serde_json::from_str(&original).unwrap();
    m["family"] = "desktop_grid".into();
    let edits = [
        m.clone(),
        {
            let mut m: serde_json::Value = serde_json::from_str(&original).unwrap();
            m["points"][1]["job"]["workload"]["load"] = 0.9.into();
            m
        },
        {
            let mut m: serde_json::Value = serde_json::from_str(&original).unwrap();
            m["spec"] = serde_json::json!({"seeds": 0});
            m
        },
        {
            let mut m: serde_json::Value = serde_json::from_str(&original).unwrap();
            m["bagsim_version"] = "1\nrm -rf /".into();
            m
        },
    ];
    for (k, edited) in edits.iter().enumerate() {
        std::fs::write(d.join("st.manifest.json"), serde_json::to_string(edited).unwrap()).unwrap();
        for args in [
            &["merge", "st.manifest.json"][..],
            &["sweep", "--manifest", "st.manifest.json", "--shard", "0"],
            &["slurm", "st.manifest.json"],
        ] {
            let o = bagsim(&d, args);
            clean(&format!("edit {k}: {args:?}"), &o);
            assert_eq!(o.status.code(), Some(2), "edit {k}: {args:?}: {}", text(&o));
            // A manifest that claims another bagsim is refused as such, before its content is read (#41 item 5).
            let why = if edited["bagsim_version"] == original_version {
                "edited after it was planned"
            } else {
                "was written by bagsim"
            };
            assert!(text(&o).contains(why), "edit {k}: {}", text(&o));
        }
        assert!(!d.join("st.csv").exists() && !d.join("st.sbatch").exists());
    }
    std::fs::write(d.join("st.manifest.json"), &original).unwrap();
    let shard = d.join("st.shard-1.json");
    let forged = std::fs::read_to_string(&shard).unwrap().replacen("\"row\":\"", "\"row\":\"9", 1);
    std::fs::write(&shard, forged).unwrap();
    let o = bagsim(&d, &["merge", "st.manifest.json"]);
    clean("forged shard", &o);
    // A shard that cannot be used leaves the study incomplete (exit code 5): it is to be run again.
    assert_eq!(o.status.code(), Some(5));
    assert!(text(&o).contains("failed shard 1") && text(&o).contains("edited after it was written"), "{}", text(&o));
    assert!(!d.join("st.csv").exists());
}

/// `bagsim slurm` copies no hostile text into a script: a line break or a quote in an option, or a path an
/// #SBATCH line cannot carry, is refused.
#[test]
fn slurm_scripts_refuse_hostile_text() {
    let d = dir("slurm");
    std::fs::write(d.join("input.json"), TINY).unwrap();
    let o = bagsim(&d, &["sweep", "input.json", "--set", "load=0.2,0.5", "--plan", "2", "--out", "st"]);
    assert!(o.status.success(), "{}", text(&o));
    for extra in [
        &["--extra=--account=x\ntouch /tmp/owned"][..],
        &["--extra=--comment=a b"],
        &["--extra=--comment='x'"],
        &["--extra=--comment=$(id)"],
        &["--partition", "p\nq"],
        &["--time", "1:00\n"],
        &["--extra=account"],
    ] {
        let args: Vec<&str> = ["slurm", "st.manifest.json"].iter().chain(extra).copied().collect();
        let o = bagsim(&d, &args);
        clean(&format!("{extra:?}"), &o);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {}", text(&o));
        assert!(!d.join("st.sbatch").exists(), "{extra:?} wrote a script");
    }
    let spaced = d.join("a b");
    std::fs::create_dir_all(&spaced).unwrap();
    std::fs::copy(d.join("input.json"), spaced.join("input.json")).unwrap();
    let o = bagsim(&spaced, &["sweep", "input.json", "--set", "load=0.2,0.5", "--plan", "2", "--out", "st"]);
    assert!(o.status.success(), "{}", text(&o));
    let o = bagsim(&spaced, &["slurm", "st.manifest.json"]);
    clean("a path with a space", &o);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let o = bagsim(&d, &["slurm", "st.manifest.json", "--extra=--account=ABC", "--partition", "p1"]);
    assert!(o.status.success(), "{}", text(&o));
    let script = std::fs::read_to_string(d.join("st.sbatch")).unwrap();
    assert!(script.contains("#SBATCH --account=ABC\n") && script.contains("#SBATCH --partition=p1\n"), "{script}");
}

// Class 5: memory bounded up front.

/// A scenario or manifest without end is refused at its size limit; a sweep of a million points is refused
/// before one is built, naming the limit.
#[test]
fn sizes_are_bounded_before_allocation() {
    let d = dir("sizes");
    std::fs::write(d.join("input.json"), TINY).unwrap();
    for args in [&["run", "/dev/zero"][..], &["merge", "/dev/zero"], &["generate", "/dev/zero"]] {
        let o = bagsim(&d, args);
        clean(&format!("{args:?}"), &o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(text(&o).contains("at most"), "{args:?}: {}", text(&o));
    }
    let thousand: Vec<String> = (1..=1000).map(|k| k.to_string()).collect();
    let seeds = format!("seed={}", thousand.join(","));
    let sizes = format!("workload.max_size={}", thousand.join(","));
    let o = bagsim(&d, &["sweep", "input.json", "--set", &seeds, "--set", &sizes, "--plan", "4", "--out", "big"]);
    clean("a million points", &o);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("1000 × 1000") && text(&o).contains("at most 50000"), "{}", text(&o));
}

/// Traces without end or bombed (`BAGSIM_CLI_HEAVY=1`: each reads gigabytes): refused at the limit, named.
#[test]
fn traces_without_end_are_refused_at_their_limit() {
    if std::env::var_os("BAGSIM_CLI_HEAVY").is_none() {
        return;
    }
    let d = dir("bombs");
    let o = bagsim(&d, &["trace", "/dev/zero", "--format", "swf"]);
    clean("trace /dev/zero", &o);
    assert!(text(&o).contains("more than 4 GiB of text"), "{}", text(&o));
    let line = "1 0 0 100 1 -1 -1 1 100 -1 1 1 1 1 1 -1 -1 -1\n".repeat(100_000);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    for _ in 0..51 {
        std::io::Write::write_all(&mut gz, line.as_bytes()).unwrap();
    }
    std::fs::write(d.join("bomb.swf.gz"), gz.finish().unwrap()).unwrap();
    let o = bagsim(&d, &["trace", "bomb.swf.gz"]);
    clean("a gzip of 5.1 million jobs", &o);
    assert!(text(&o).contains("more than 5000000 jobs"), "{}", text(&o));
}

// Class 9: traces.

/// CR-only line endings are line ends (three jobs, not one), CR LF is one, and header values that are not times
/// are ignored with a note.
#[test]
fn cr_lines_are_lines_and_odd_header_times_are_ignored() {
    let d = dir("cr");
    let job = |id: u32| format!("{id} {} 0 100 1 -1 -1 1 100 -1 1 1 1 1 1 -1 -1 -1", 10 * id);
    for (name, sep, header) in [("cr.swf", "\r", "1e308"), ("crlf.swf", "\r\n", "1e999"), ("lf.swf", "\n", "-5")] {
        let body = format!("; UnixStartTime: {header}{sep}{}{sep}{}{sep}{}{sep}", job(1), job(2), job(3));
        std::fs::write(d.join(name), body).unwrap();
        let o = bagsim(&d, &["trace", name, "--out", "t.json"]);
        clean(name, &o);
        assert!(o.status.success(), "{name}: {}", text(&o));
        assert!(text(&o).contains("4 read = 3 jobs kept"), "{name}: {}", text(&o));
        assert!(text(&o).contains("is not a time in range"), "{name}: {}", text(&o));
    }
}

// Class 8: messages.

/// Messages name the key that drives them, quote no huge number or word, and read a file with a byte-order mark;
/// printed tables show no signed zero; trace --out writes no null; merge --help promises the exit code it gives.
#[test]
fn messages_name_the_right_key_briefly() {
    let d = dir("messages");
    let cases: &[(&str, &str, &str)] = &[
        (r#"{"architecture": {"kind": "csp", "monitoring_period": 1e-9}}"#, "architecture.monitoring_period", ""),
        (r#"{"workload": {"load": 5e-324}}"#, "workload.load: 5e-324 is out of range", ""),
        (r#"{"family": "desktop_grid", "desktop_grid": {"power": 5e-324}}"#, "desktop_grid.power: 5e-324", ""),
    ];
    for (k, (json, want, _)) in cases.iter().enumerate() {
        let f = format!("input{k}.json");
        std::fs::write(d.join(&f), json).unwrap();
        let o = bagsim(&d, &["run", &f]);
        clean(json, &o);
        assert_eq!(o.status.code(), Some(2), "{json}: {}", text(&o));
        assert!(text(&o).contains(want), "{json}: {}", text(&o));
        assert!(text(&o).len() < 600, "{json}: {}", text(&o));
    }
    let key = "k".repeat(1 << 20);
    std::fs::write(d.join("bigkey.json"), format!("{{\"{key}\": 1}}")).unwrap();
    let o = bagsim(&d, &["run", "bigkey.json"]);
    clean("a 1 MB key", &o);
    assert!(o.status.code() == Some(2) && text(&o).len() < 1000, "{} bytes", text(&o).len());
    let o = bagsim(&d, &["sweep", "bigkey.json", "--set", &format!("{}=1", &key[..100_000])]);
    assert!(o.status.code() == Some(2) && text(&o).len() < 1000, "{} bytes", text(&o).len());
    std::fs::write(d.join("bom.json"), format!("\u{feff}{TINY}")).unwrap();
    let o = bagsim(&d, &["run", "bom.json"]);
    clean("a byte-order mark", &o);
    assert!(o.status.success(), "{}", text(&o));
    std::fs::write(d.join("dg.json"), r#"{"family": "desktop_grid", "desktop_grid": {"bots": 4}}"#).unwrap();
    let o = bagsim(&d, &["sweep", "dg.json", "--set", "scheme=a", "--out", "s"]);
    assert!(text(&o).contains("not a sweep key of a desktop_grid scenario"), "{}", text(&o));
    let o = bagsim(&d, &["merge", "--help"]);
    assert!(text(&o).contains("exit code 2") && !text(&o).contains("exit code 3"), "{}", text(&o));
    std::fs::write(d.join("z.swf"), "1 0 0 0 1 -1 -1 1 100 -1 1 1 1 1 1 -1 -1 -1\n").unwrap();
    let o = bagsim(&d, &["trace", "z.swf", "--views", "--out", "z.out"]);
    clean("trace of one job", &o);
    let json = std::fs::read_to_string(d.join("z.out")).unwrap();
    assert!(!json.contains("null"), "trace --out wrote null");
}

// Class 6: input accepted and ignored.

/// A figure's --scenario of another family, a reading that is no key, and arrays where objects are documented are
/// refused, never run as the defaults.
#[test]
fn input_that_would_be_ignored_is_refused() {
    let d = dir("ignored");
    std::fs::write(d.join("mc.json"), TINY).unwrap();
    std::fs::write(d.join("arr1.json"), r#"{"workload": []}"#).unwrap();
    std::fs::write(
        d.join("arr2.json"),
        r#"{"workload": {"submission_period": 3600}, "platform": {"clusters": [["a", 4, 1.0]]}}"#,
    )
    .unwrap();
    std::fs::write(d.join("both.json"), r#"{"family": "desktop_grid", "desktop_grid": {}, "data_grid": {}}"#).unwrap();
    let cases: &[(&[&str], &str)] = &[
        (
            &["dg-figure", "2", "--scenario", "mc.json", "--out", "x"],
            "a multi_cluster scenario; dg-figure runs desktop_grid",
        ),
        (
            &["dd-figure", "4", "--scenario", "mc.json", "--out", "x"],
            "a multi_cluster scenario; dd-figure runs data_grid",
        ),
        (&["dg-figure", "2", "--readings", "nokey=x", "--bots", "4", "--out", "x"], "it would change nothing"),
        (&["run", "arr1.json"], "workload: an array where an object"),
        (&["run", "arr2.json"], "platform.clusters[0]: an array where an object"),
        (&["run", "both.json"], "the scenario's family is desktop_grid"),
    ];
    for (args, want) in cases {
        let o = bagsim(&d, args);
        clean(&format!("{args:?}"), &o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(text(&o).contains(want), "{args:?}: {}", text(&o));
    }
}

/// A setting that changes nothing under the scenario's others is not echoed as if it applied: a sweep axis on it is
/// refused, a run that sets it warns and leaves it out of its summary; the same key under a scheme that reads it
/// sweeps and is echoed.
#[test]
fn settings_without_effect_are_named_not_echoed() {
    let d = dir("unused");
    let dg = |scheme: &str| {
        format!(
            r#"{{"family":"data_grid","data_grid":{{"jobs":30,"scheme":"{scheme}","backfill_rule":"data_arrived"}}}}"#
        )
    };
    std::fs::write(d.join("st.json"), dg("start_time_no_data_aware")).unwrap();
    std::fs::write(d.join("ft.json"), dg("finish_time_data_aware")).unwrap();
    std::fs::write(d.join("sepc.json"), r#"{"workload":{"submission_period":3600},"architecture":{"kind":"sep-c"}}"#)
        .unwrap();
    let refused: &[(&[&str], &str)] = &[
        (
            &["sweep", "st.json", "--set", "backfill_rule=data_aware,data_arrived", "--out", "a"],
            "data_grid.backfill_rule has no effect at any point",
        ),
        (
            &["sweep", "sepc.json", "--set", "monitoring_period=0,60", "--out", "b"],
            "architecture.monitoring_period has no effect",
        ),
        (
            &["sweep", "sepc.json", "--set", "policy_options.dfplt_unranked=first,last", "--out", "c"],
            "only DFPLT reads it",
        ),
    ];
    for (args, want) in refused {
        let o = bagsim(&d, args);
        clean(&format!("{args:?}"), &o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(text(&o).contains(want), "{args:?}: {}", text(&o));
    }
    let o = bagsim(&d, &["run", "st.json"]);
    clean("run st.json", &o);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("data_grid.backfill_rule is set but has no effect"), "{t}");
    assert!(!t.lines().next().unwrap_or("").contains("backfill rule"), "{t}");
    let o = bagsim(&d, &["run", "ft.json"]);
    let t = text(&o);
    assert!(t.lines().next().unwrap_or("").contains("backfill rule data_arrived") && !t.contains("no effect"), "{t}");
    // A mixed sweep runs: the key matters at some of its points.
    let o = bagsim(
        &d,
        &[
            "sweep",
            "ft.json",
            "--set",
            "scheme=start_time_no_data_aware,finish_time_data_aware",
            "--set",
            "backfill_rule=data_aware,data_arrived",
            "--out",
            "m",
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
}

/// A desktop grid that ran no replica has no RWT: "undefined", not 0, in the summary and absent from the report.
#[test]
fn no_replica_time_gives_no_rwt() {
    let d = dir("rwt");
    std::fs::write(d.join("input.json"), r#"{"family":"desktop_grid","desktop_grid":{"horizon":1,"bots":20}}"#)
        .unwrap();
    let o = bagsim(&d, &["run", "input.json", "--out", "r.json"]);
    clean("run, 1 s horizon", &o);
    let t = text(&o);
    assert!(t.contains("RWT: undefined (no replica ran)"), "{t}");
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(d.join("r.json")).unwrap()).unwrap();
    assert!(report["metrics"].get("rwt").is_none(), "{}", report["metrics"]);
    assert_eq!(report["metrics"]["undefined"]["rwt"], "no replica ran");
}
