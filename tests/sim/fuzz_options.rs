//! Options without effect and verdicts without data, through the built binary (the issue "Trust, round three",
//! items 3, 5, 7 and 8): a generated class of options that would do nothing or double the work (a reading the
//! figure fixes or sweeps itself, a value repeated on a `--readings` or `--set` axis, a study file of another
//! bagsim version), each refused with a message and exit code 2 before anything runs or is written; and hand cases
//! for findings on bases where nothing finishes, one format for an unknown figure, `--seeds` ranges that are the
//! ranges checked, `merge`'s exit code, and a study that stores its script once.

use super::cli_edges::{bagsim, clean, clean_files, dir, text};
use bagsim::engine::Rng;
use bagsim::readings::Reading;
use std::path::Path;

/// Cases of the generated class in the test command (each is refused before any run: well under a second).
const CASES: usize = 24;

const TINY: &str = r#"{"workload": {"submission_period": 3600}}"#;

fn pick<'a, T>(rng: &mut Rng, items: &'a [T]) -> &'a T {
    &items[rng.below(items.len() as u64) as usize]
}

/// The case was refused (exit code 2) with a message holding every word of `words`, and wrote no file but `keep`.
fn refused(case: &str, d: &Path, o: &std::process::Output, words: &[&str], keep: &[&str]) {
    clean(case, o);
    let t = text(o);
    assert_eq!(o.status.code(), Some(2), "{case}: {t}");
    for w in words {
        assert!(t.contains(w), "{case}: {w:?} not in\n{t}");
    }
    for e in std::fs::read_dir(d).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().to_string();
        assert!(keep.contains(&name.as_str()), "{case}: wrote {name}");
    }
}

/// A figure command of each family, the key of its series (which the figure sweeps itself), and its readings.
const FIGURES: [(&str, &str, &str, &[Reading]); 3] = [
    ("multi_cluster", "fig4", "scheduling=ECT,FPLT", bagsim::family::multi_cluster::readings::READINGS),
    ("desktop_grid", "2", "bot_selection=rr,long_idle", bagsim::family::desktop_grid::readings::READINGS),
    (
        "data_grid",
        "4",
        "scheme=start_time_no_data_aware,finish_time_data_aware",
        bagsim::family::data_grid::readings::READINGS,
    ),
];

/// One generated case of an option without effect: what it was.
fn without_effect(rng: &mut Rng, d: &Path) -> String {
    let (family, fig, series_key, readings) = *pick(rng, &FIGURES);
    let figure = |extra: &[&str]| {
        let mut args = vec!["figure", family, fig, "--seeds", "2", "--out", "f"];
        args.extend_from_slice(extra);
        bagsim(d, &args)
    };
    match rng.below(5) {
        // A key the figure sets itself: its seeds, or the key of its series; the message says so.
        0 => {
            let spec = if rng.below(2) == 0 { format!("seed={}", 2 + rng.below(50)) } else { series_key.to_string() };
            let mut extra = vec!["--readings", &spec];
            if rng.below(2) == 0 {
                extra.extend(["--plan", "1"]);
            }
            let o = figure(&extra);
            let key = spec.split('=').next().unwrap();
            refused(&format!("{family} {fig} --readings {spec}"), d, &o, &["itself", key, "--readings"], &[]);
            format!("{family}: a reading the figure sets itself")
        }
        // A value given twice on a readings axis (by its name, or as `all` and one of its values).
        1 => {
            let r = pick(rng, readings);
            let name = pick(rng, r.values).0;
            let spec = if rng.below(2) == 0 {
                format!("{}={name},{name}", r.short())
            } else {
                format!("{}=all,{name}", r.key)
            };
            let o = figure(&["--readings", &spec]);
            refused(&format!("{family} {fig} --readings {spec}"), d, &o, &["given twice", "runs once"], &[]);
            format!("{family}: a reading's value twice")
        }
        // A key on two readings axes, under two of its names.
        2 => {
            let r = pick(rng, readings);
            let (a, b) = (pick(rng, r.values).0, pick(rng, r.values).0);
            let o = figure(&["--readings", &format!("{}={a}", r.short()), "--readings", &format!("{}={b}", r.key)]);
            refused(&format!("{family} {fig} readings {} twice", r.key), d, &o, &["a key may appear once"], &[]);
            format!("{family}: a reading's key twice")
        }
        // A value given twice on a sweep axis, as typed or as one JSON value.
        3 => {
            std::fs::write(d.join("input.json"), TINY).unwrap();
            let (key, a, b) = *pick(
                rng,
                &[("load", "0.5", "0.50"), ("seed", "3", "3"), ("scheduling", "ECT", "ECT"), ("load", "0.2", "2e-1")],
            );
            let axis = format!("{key}={a},{b}");
            let o = bagsim(d, &["sweep", "input.json", "--set", &axis, "--plan", "1", "--out", "s"]);
            let words: &[&str] = if a == b { &["given twice"] } else { &["are one value"] };
            refused(&format!("sweep --set {axis}"), d, &o, words, &["input.json"]);
            "a sweep value twice".into()
        }
        // A manifest or a shard that claims another bagsim version: refused naming both versions.
        _ => {
            std::fs::write(d.join("input.json"), TINY).unwrap();
            let o = bagsim(d, &["sweep", "input.json", "--set", "load=0.2,0.5", "--plan", "2", "--out", "st"]);
            assert!(o.status.success(), "{}", text(&o));
            let other = format!("{}.{}.{}", rng.below(3), rng.below(20), rng.below(9));
            let ours = env!("CARGO_PKG_VERSION");
            if other == ours {
                return "another version (drew this one)".into();
            }
            let edit = |file: &str| {
                let p = d.join(file);
                let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
                v["bagsim_version"] = other.clone().into();
                std::fs::write(&p, v.to_string()).unwrap();
            };
            let files = ["input.json", "st.manifest.json", "st.shard-0.json", "st.shard-1.json"];
            if rng.below(2) == 0 {
                edit("st.manifest.json");
                let o = bagsim(d, &["sweep", "--manifest", "st.manifest.json", "--shard", "0"]);
                refused("a manifest of another version", d, &o, &[&other, ours, "the manifest"], &files);
                "a manifest of another version".into()
            } else {
                for i in ["0", "1"] {
                    let o = bagsim(d, &["sweep", "--manifest", "st.manifest.json", "--shard", i]);
                    assert!(o.status.success(), "{}", text(&o));
                }
                edit("st.shard-1.json");
                let o = bagsim(d, &["merge", "st.manifest.json"]);
                refused("a shard of another version", d, &o, &[&other, ours, "shard 1"], &files);
                "a shard of another version".into()
            }
        }
    }
}

#[test]
fn generated_options_without_effect_are_refused() {
    let cases = std::env::var("BAGSIM_CLI_FUZZ").ok().and_then(|v| v.parse().ok()).unwrap_or(CASES);
    let mut rng = Rng::new(41);
    let d = dir("fuzz-options");
    let mut seen = std::collections::BTreeMap::<String, usize>::new();
    for k in 0..cases {
        let case_dir = d.join(format!("c{k}"));
        std::fs::create_dir_all(&case_dir).unwrap();
        *seen.entry(without_effect(&mut rng, &case_dir)).or_default() += 1;
        std::fs::remove_dir_all(&case_dir).unwrap();
    }
    eprintln!("options without effect: {seen:?}");
}

/// The verdicts a figure command printed or wrote: a finding's last word (`[verdict]`, `| verdict |`,
/// `→ verdict`), a readings table's `**verdict**` cells and CSV column, and a printed readings row
/// (`LABEL VERDICT (N seeds) …`).
fn verdicts(s: &str) -> Vec<String> {
    let words = ["disagrees", "agrees", "not resolved", "no data", "waiting"];
    let mut out = Vec::new();
    for l in s.lines() {
        out.extend(l.split("**").skip(1).step_by(2).filter(|c| words.contains(c)).map(str::to_string));
        let cells: Vec<&str> = l.splitn(6, ',').collect();
        if cells.len() == 6 && cells[1].parse::<u32>().is_ok() && words.contains(&cells[4]) {
            out.push(cells[4].to_string());
        }
        if let Some((before, _)) = l.split_once(" seeds) ").and_then(|(b, _)| b.rsplit_once(" (")).map(|(b, _)| (b, ()))
        {
            out.extend(words.iter().find(|w| before.trim_end().ends_with(*w)).map(|w| w.to_string()));
        }
        let t = l.trim_end().trim_end_matches('|').trim_end();
        let last = t.rsplit(['[', '|', '→']).next().unwrap_or("").trim().trim_end_matches(']').trim();
        if words.contains(&last) {
            out.push(last.to_string());
        }
    }
    out
}

/// On a base where no run finishes a BoT, every finding of every family's figure, printed, in its Markdown panel and
/// in its readings table, is "no data": never agrees, disagrees or not resolved.
#[test]
fn findings_on_bases_where_nothing_finishes_are_no_data() {
    let d = dir("options-nodata");
    std::fs::write(d.join("mc.json"), r#"{"horizon": 1, "workload": {"submission_period": 3600}}"#).unwrap();
    std::fs::write(d.join("dg.json"), r#"{"family":"desktop_grid","desktop_grid":{"horizon":1,"bots":4}}"#).unwrap();
    let cases: [&[&str]; 5] = [
        &["figure", "multi_cluster", "fig4", "--base", "mc.json", "--seeds", "2", "--out", "a"],
        &["reproduce", "fig11", "--base", "mc.json", "--seeds", "2", "--out", "b"],
        &["figure", "multi_cluster", "fig10", "--base", "mc.json", "--seeds", "2", "--readings", "load_split=all"],
        &["figure", "desktop_grid", "2", "--base", "dg.json", "--seeds", "2", "--out", "c"],
        &["dg-figure", "12", "--scenario", "dg.json", "--max-seeds", "2", "--min-seeds", "2", "--readings", "bots=all"],
    ];
    for args in cases {
        let o = bagsim(&d, args);
        clean(&format!("{args:?}"), &o);
        assert!(o.status.success(), "{args:?}: {}", text(&o));
        let printed = verdicts(&text(&o));
        assert!(!printed.is_empty(), "{args:?} printed no verdict:\n{}", text(&o));
        assert!(printed.iter().all(|v| v == "no data"), "{args:?}: {printed:?}\n{}", text(&o));
    }
    let mut files = 0;
    for e in std::fs::read_dir(&*d).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        if name.ends_with(".md") || name.ends_with("-readings.csv") {
            let s = std::fs::read_to_string(&p).unwrap();
            let found = verdicts(&s);
            let found: Vec<&String> = found.iter().filter(|v| *v != "no data").collect();
            assert!(found.is_empty(), "{name}: {found:?}\n{s}");
            assert!(s.contains("no data"), "{name}:\n{s}");
            files += 1;
        }
    }
    assert!(files >= 6, "{files} panels and tables");
    clean_files("figures of nothing", &d);
}

/// An unknown figure is refused in one format whatever the family or the command, naming the allowed range.
#[test]
fn an_unknown_figure_is_refused_in_one_format() {
    let d = dir("options-figno");
    let commands: [(&[&str], &str); 6] = [
        (&["figure", "multi_cluster"], "3 … 11"),
        (&["reproduce"], "3 … 11"),
        (&["figure", "desktop_grid"], "2 … 17"),
        (&["dg-figure"], "2 … 17"),
        (&["figure", "data_grid"], "4 … 9"),
        (&["dd-figure"], "4 … 9"),
    ];
    for which in ["99", "fig1", "x", "0", "fig-99"] {
        for (cmd, range) in commands {
            let mut args = cmd.to_vec();
            args.extend([which, "--out", "f"]);
            let o = bagsim(&d, &args);
            let want = format!("bagsim: figure \"{which}\": no such figure; allowed: {range} (or fig");
            refused(&format!("{args:?}"), &d, &o, &[&want, "or all"], &[]);
        }
    }
}

/// Every family's figure command accepts the least number of seeds its refusal names, and refuses one fewer.
#[test]
fn seed_ranges_said_are_the_ranges_checked() {
    let d = dir("options-seeds");
    let commands: [&[&str]; 5] = [
        &["figure", "multi_cluster", "fig3", "--seeds"],
        &["reproduce", "fig3", "--seeds"],
        &["figure", "data_grid", "4", "--seeds"],
        &["dd-figure", "4", "--seeds"],
        &["figure", "desktop_grid", "2", "--seeds"],
    ];
    for cmd in commands {
        let with = |n: &str| bagsim(&d, &[cmd, &[n, "--plan", "1", "--out", "p"]].concat());
        let o = with("0");
        refused(&format!("{cmd:?} 0"), &d, &o, &["allowed "], &[]);
        let t = text(&o);
        let range = t.split("allowed ").nth(1).unwrap();
        let low: u32 = range.split('–').next().unwrap().parse().unwrap_or_else(|_| panic!("{cmd:?}: {t}"));
        let o = with(&low.to_string());
        assert!(o.status.success(), "{cmd:?} {low}, the least allowed: {}", text(&o));
        std::fs::remove_file(d.join("p.manifest.json")).unwrap();
        if low > 1 {
            refused(&format!("{cmd:?} {}", low - 1), &d, &with(&(low - 1).to_string()), &["allowed "], &[]);
        }
    }
    let o = bagsim(&d, &["dg-figure", "2", "--min-seeds", "1", "--max-seeds", "1", "--plan", "1", "--out", "p"]);
    refused("dg-figure --min-seeds 1", &d, &o, &["2 ≤ min"], &[]);
}

/// `merge --help` gives the exit code an incomplete study exits with.
#[test]
fn merge_help_gives_the_exit_code_of_an_incomplete_study() {
    let d = dir("options-merge");
    let help = text(&bagsim(&d, &["merge", "--help"]));
    let said = help.split("exit code ").nth(1).and_then(|s| s.split(|c: char| !c.is_ascii_digit()).next());
    std::fs::write(d.join("input.json"), TINY).unwrap();
    let o = bagsim(&d, &["sweep", "input.json", "--set", "load=0.2,0.5", "--plan", "2", "--out", "st"]);
    assert!(o.status.success(), "{}", text(&o));
    let o = bagsim(&d, &["merge", "st.manifest.json"]);
    clean("merge of nothing", &o);
    assert!(text(&o).contains("not complete"), "{}", text(&o));
    assert_eq!(said, o.status.code().map(|c| c.to_string()).as_deref(), "{help}");
}

/// A study of 200 points of a large script holds the script once, not once per point; its shards merge to what a
/// local sweep writes; a manifest of the old format (a script in every point) is refused naming the format.
#[test]
fn a_study_stores_its_script_once() {
    let d = dir("options-scripts");
    let mut source = String::from("fn choose(e, v) { wait() }\n");
    for i in 0..2500 {
        source.push_str(&format!("// line {i:05} of a large script: the manifest must hold it once, not per point\n"));
    }
    std::fs::write(d.join("big.rhai"), &source).unwrap();
    std::fs::write(
        d.join("big.json"),
        r#"{"workload": {"submission_period": 3600}, "scheduling": {"script_file": "big.rhai"}}"#,
    )
    .unwrap();
    let loads: Vec<String> = (0..200).map(|i| format!("{:.3}", 0.1 + 0.004 * f64::from(i))).collect();
    let o = bagsim(
        &d,
        &["sweep", "big.json", "--set", &format!("load={}", loads.join(",")), "--plan", "4", "--out", "big"],
    );
    clean("200 points of a large script", &o);
    assert!(o.status.success(), "{}", text(&o));
    let manifest = std::fs::read_to_string(d.join("big.manifest.json")).unwrap();
    assert_eq!(manifest.matches("line 01234 of a large script").count(), 1);
    assert!(
        manifest.len() < 2 * source.len() + 200 * 4096,
        "{} bytes for a {}-byte script",
        manifest.len(),
        source.len()
    );

    // A few points, planned in shards and merged, give what the local sweep gives (wall times aside).
    let round_robin =
        "fn choose(e, v) {\n let free = v.free;\n let i = (this.next ?? 0) % free.len();\n this.next = i + 1;\n \
         start(free[i])\n}\n";
    std::fs::write(d.join("s.rhai"), round_robin).unwrap();
    std::fs::write(
        d.join("two.json"),
        r#"{"workload": {"submission_period": 7200}, "scheduling": {"script_file": "s.rhai"}}"#,
    )
    .unwrap();
    let sets = ["--set", "load=0.2,0.6", "--set", "seed=1,2"];
    let o = bagsim(&d, &[&["sweep", "two.json"][..], &sets, &["--out", "local"]].concat());
    assert!(o.status.success(), "{}", text(&o));
    let o = bagsim(&d, &[&["sweep", "two.json"][..], &sets, &["--plan", "3", "--out", "st"]].concat());
    assert!(o.status.success(), "{}", text(&o));
    for i in ["0", "1", "2"] {
        let o = bagsim(&d, &["sweep", "--manifest", "st.manifest.json", "--shard", i]);
        assert!(o.status.success(), "{}", text(&o));
    }
    let o = bagsim(&d, &["merge", "st.manifest.json"]);
    assert!(o.status.success(), "{}", text(&o));
    let rows = |f: &str| {
        let csv = std::fs::read_to_string(d.join(f)).unwrap();
        let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
        let w = header.iter().position(|h| *h == "wall_time_s").unwrap();
        csv.lines()
            .map(|l| l.split(',').enumerate().filter(|(i, _)| *i != w).map(|(_, c)| c.to_string()).collect::<Vec<_>>())
            .collect::<Vec<_>>()
    };
    assert_eq!(rows("local.csv"), rows("st.csv"));
    assert_eq!(rows("st.csv").len(), 5);

    let mut old: serde_json::Value = serde_json::from_str(&manifest).unwrap();
    old["bagsim_study"] = 1.into();
    std::fs::write(d.join("old.manifest.json"), old.to_string()).unwrap();
    let o = bagsim(&d, &["sweep", "--manifest", "old.manifest.json", "--shard", "0"]);
    clean("an old manifest", &o);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("study format 1") && text(&o).contains("plan the study again"), "{}", text(&o));
    assert!(!d.join("old.shard-0.json").exists());
}
