//! `bagsim tournament` through the built binary (issue #47): the project's example scripts raced with the built-ins
//! rank as their individual runs do, a script that does not compile and one that makes an impossible decision are
//! each listed with their reason, and the others are raced all the same.

use super::cli_edges::{bagsim, dir, text};

/// A scheduling script whose decision the simulation refuses (a cluster that does not exist).
const IMPOSSIBLE: &str =
    "fn order() { \"fifo\" }\nfn estimate() { \"known\" }\nfn choose(estimate, view) { start(99) }\n";

#[test]
fn scripts_rank_as_their_own_runs_and_failures_are_named() {
    let d = dir("tournament");
    let root = env!("CARGO_MANIFEST_DIR");
    std::fs::write(d.join("s.json"), r#"{"workload": {"submission_period": 3600}}"#).unwrap();
    std::fs::write(d.join("broken.rhai"), "fn choose(view) { let x = ; }\n").unwrap();
    std::fs::write(d.join("impossible.rhai"), IMPOSSIBLE).unwrap();
    let fplt = format!("{root}/examples/policies/fplt.rhai");
    let ect = format!("{root}/examples/policies/ect.rhai");
    let args = ["tournament", "s.json", &fplt, &ect, "broken.rhai", "impossible.rhai", "--seeds", "2", "--out", "t"];
    let o = bagsim(&d, &args);
    assert!(o.status.success(), "{}", text(&o));
    let csv = std::fs::read_to_string(d.join("t.csv")).unwrap();
    let rows: Vec<Vec<String>> = csv.lines().skip(1).map(|l| bagsim::stats::csv_cells(l).unwrap()).collect();
    let row = |name: &str| rows.iter().find(|r| r[1] == name).unwrap_or_else(|| panic!("no row {name}: {csv}"));
    // Ranked rows first, by rank, their means in order; the two failures after them with their reasons.
    let ranked: Vec<&Vec<String>> = rows.iter().filter(|r| !r[0].is_empty()).collect();
    assert_eq!(ranked.len(), 8 + 2, "{csv}");
    let means: Vec<f64> = ranked.iter().map(|r| r[4].parse().unwrap()).collect();
    assert!(means.windows(2).all(|w| w[0] <= w[1]), "{csv}");
    assert!(row("broken")[8].starts_with("does not compile: line 1"), "{csv}");
    assert!(row("impossible")[0].is_empty() && !row("impossible")[8].is_empty(), "{csv}");
    // The example scripts are the built-ins written as scripts: the same numbers, so next to each other.
    assert_eq!(row("fplt")[4..7], row("FPLT")[4..7], "{csv}");
    assert_eq!(row("ect")[4..7], row("ECT")[4..7], "{csv}");
    // The tournament's mean for fplt.rhai is the mean of its own runs, seed by seed, through `bagsim run`.
    let mut own = Vec::new();
    for seed in [1, 2] {
        let scenario = serde_json::json!({
            "seed": seed,
            "workload": {"submission_period": 3600},
            "scheduling": {"script_file": fplt}
        })
        .to_string();
        std::fs::write(d.join("one.json"), scenario).unwrap();
        let o = bagsim(&d, &["run", "one.json", "--out", "one-report.json"]);
        assert!(o.status.success(), "{}", text(&o));
        let r: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(d.join("one-report.json")).unwrap()).unwrap();
        own.push(r["metrics"]["overall"]["makespan"]["mean"].as_f64().unwrap());
    }
    let mean = (own[0] + own[1]) / 2.0;
    let tournament: f64 = row("fplt")[4].parse().unwrap();
    assert!((tournament - mean).abs() <= 1e-9 * mean, "tournament {tournament}, own runs {own:?}");
    // The printed table names the broken script's error.
    assert!(text(&o).contains("not ranked: does not compile"), "{}", text(&o));
}

#[test]
fn a_tournament_refuses_what_it_cannot_race() {
    let d = dir("tournament-refusals");
    std::fs::write(d.join("s.json"), r#"{"workload": {"submission_period": 3600}}"#).unwrap();
    std::fs::write(d.join("p.rhai"), "fn choose(estimate, view) { start(view.fastest_free()) }\n").unwrap();
    let cases: &[(&[&str], &str)] = &[
        (&["tournament", "s.json", "p.rhai", "--seeds", "1"], "allowed 2–30"),
        (&["tournament", "s.json", "p.txt"], "ends in .rhai"),
        (&["tournament", "s.json", "p.rhai", "--metric", "nope"], "not a column of a multi_cluster sweep"),
    ];
    for (args, says) in cases {
        let o = bagsim(&d, args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(text(&o).contains(says), "{args:?}: {}", text(&o));
    }
}
