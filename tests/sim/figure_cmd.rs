//! `bagsim figure FAMILY N`: the one figure command of every family writes the same kinds of file (CSV, SVG,
//! Markdown findings) and equals, byte for byte, the family's older command it stands for.

use super::cli_edges::{bagsim, clean, dir, text};
use std::path::Path;

fn run(d: &Path, args: &[&str]) -> String {
    let o = bagsim(d, args);
    clean(&format!("{args:?}"), &o);
    assert!(o.status.success(), "{args:?}: {}", text(&o));
    text(&o)
}

fn same(d: &Path, a: &str, b: &str) {
    let (x, y) = (std::fs::read(d.join(a)).unwrap(), std::fs::read(d.join(b)).unwrap());
    assert!(x == y, "{a} and {b} differ");
}

#[test]
fn one_figure_command_for_every_family_writes_what_its_alias_writes() {
    let d = dir("figure-cmd");
    std::fs::write(d.join("mc.json"), r#"{"workload": {"submission_period": 43200}}"#).unwrap();
    std::fs::write(d.join("dg.json"), r#"{"family": "desktop_grid", "desktop_grid": {"bots": 20}}"#).unwrap();
    std::fs::write(d.join("dd.json"), r#"{"family": "data_grid", "data_grid": {"jobs": 200}}"#).unwrap();
    run(&d, &["figure", "multi_cluster", "fig3", "--base", "mc.json", "--seeds", "2", "--out", "f"]);
    run(&d, &["reproduce", "fig3", "--base", "mc.json", "--seeds", "2", "--out", "r"]);
    for ext in ["csv", "svg", "md"] {
        same(&d, &format!("f-fig3.{ext}"), &format!("r-fig3.{ext}"));
    }
    run(&d, &["figure", "desktop_grid", "2", "--base", "dg.json", "--seeds", "3", "--out", "f"]);
    run(&d, &["dg-figure", "2", "--scenario", "dg.json", "--min-seeds", "3", "--max-seeds", "3", "--out", "r"]);
    run(&d, &["figure", "data_grid", "7", "--base", "dd.json", "--seeds", "2", "--out", "f"]);
    run(&d, &["dd-figure", "7", "--scenario", "dd.json", "--seeds", "2", "--out", "r"]);
    for n in [2, 7] {
        for ext in ["csv", "svg", "md"] {
            same(&d, &format!("f-fig{n}.{ext}"), &format!("r-fig{n}.{ext}"));
        }
        let md = std::fs::read_to_string(d.join(format!("f-fig{n}.md"))).unwrap();
        assert!(md.contains("| the paper reports | bagsim | verdict |"), "{md}");
        // Labels holding commas ("10 MB–800 GB, requested") are quoted: every row has the header's cells.
        let csv = std::fs::read_to_string(d.join(format!("f-fig{n}.csv"))).unwrap();
        let rows: Vec<Vec<String>> = csv.lines().map(|l| bagsim::stats::csv_cells(l).unwrap()).collect();
        assert!(rows.iter().all(|r| r.len() == rows[0].len()), "{csv}");
        let svg = std::fs::read_to_string(d.join(format!("f-fig{n}.svg"))).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("<rect") && svg.ends_with("</svg>"), "{svg}");
    }
    // A base of another family is refused, naming it.
    let o = bagsim(&d, &["figure", "data_grid", "7", "--base", "mc.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("--base mc.json: a multi_cluster scenario; figure runs data_grid"), "{}", text(&o));
}

/// `--seeds auto` for the data grid adds seeds while a finding is not resolved (5, 10, 20, 30): every bar of the
/// figure ends with the same number of seeds, one of those, and 30 only if a finding is still open.
#[test]
fn data_grid_seeds_auto_adds_seeds_while_a_finding_is_open() {
    let d = dir("figure-auto");
    std::fs::write(d.join("dd.json"), r#"{"family": "data_grid", "data_grid": {"jobs": 150}}"#).unwrap();
    let t = run(&d, &["figure", "data_grid", "9", "--base", "dd.json", "--seeds", "auto", "--out", "a"]);
    let csv = std::fs::read_to_string(d.join("a-fig9.csv")).unwrap();
    let cell = |l: &str| bagsim::stats::csv_cells(l).unwrap()[6].parse::<usize>().unwrap();
    let seeds: Vec<usize> = csv.lines().skip(1).map(cell).collect();
    assert!(seeds.windows(2).all(|w| w[0] == w[1]), "{csv}");
    assert!([5, 10, 20, 30].contains(&seeds[0]), "{csv}");
    let open = t.contains("→ not resolved");
    assert_eq!(open, seeds[0] == 30, "{t}");
}

/// A base that scripts the task scheduling adds the script as one more series of the scheduling figures, after the
/// paper's eight, and the findings stay the paper's: the FPLT example gives FPLT's row of the CSV value for value,
/// run directly or as a study in shards, and the findings read as without the script.
#[test]
fn a_scripted_base_races_its_script_in_the_figures() {
    let d = dir("figure-script");
    let fplt = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/policies/fplt.rhai");
    let base = serde_json::json!({"workload": {"submission_period": 43200}, "scheduling": {"script_file": fplt}});
    std::fs::write(d.join("script.json"), base.to_string()).unwrap();
    std::fs::write(d.join("plain.json"), r#"{"workload": {"submission_period": 43200}}"#).unwrap();
    run(&d, &["figure", "multi_cluster", "fig3", "--base", "script.json", "--seeds", "2", "--out", "s"]);
    run(&d, &["figure", "multi_cluster", "fig3", "--base", "plain.json", "--seeds", "2", "--out", "p"]);
    let csv = std::fs::read_to_string(d.join("s-fig3.csv")).unwrap();
    let rows = |series: &str| -> Vec<Vec<String>> {
        csv.lines()
            .map(|l| bagsim::stats::csv_cells(l).unwrap())
            .filter(|r| r[1] == series)
            .map(|mut r| {
                r.remove(1);
                r
            })
            .collect()
    };
    assert!(!rows("script").is_empty(), "no script series:\n{csv}");
    assert_eq!(rows("script"), rows("FPLT"), "the FPLT example differs from FPLT in the figure");
    // The paper's series are those of the figure without the script, and so are the findings.
    let plain = std::fs::read_to_string(d.join("p-fig3.csv")).unwrap();
    let without: Vec<&str> = csv.lines().filter(|l| !l.starts_with("fig3,script,")).collect();
    assert_eq!(without, plain.lines().collect::<Vec<_>>());
    let findings = |md: &str| -> Vec<String> {
        let md = std::fs::read_to_string(d.join(md)).unwrap();
        md.lines().filter(|l| l.starts_with("| \"")).map(str::to_string).collect()
    };
    assert_eq!(findings("s-fig3.md"), findings("p-fig3.md"));
    assert!(!findings("s-fig3.md").is_empty());
    let said =
        |md: &str| std::fs::read_to_string(d.join(md)).unwrap().contains("The base's own script (series `script`)");
    assert!(said("s-fig3.md") && !said("p-fig3.md"), "the panel says where the script stands, only when it is drawn");
    let svg = std::fs::read_to_string(d.join("s-fig3.svg")).unwrap();
    assert!(svg.contains(">script<"), "the legend names the script");
    // As a study in shards, merged: the same files.
    run(
        &d,
        &["figure", "multi_cluster", "fig3", "--base", "script.json", "--seeds", "2", "--plan", "2", "--out", "st"],
    );
    for i in ["0", "1"] {
        run(&d, &["sweep", "--manifest", "st.manifest.json", "--shard", i]);
    }
    run(&d, &["merge", "st.manifest.json"]);
    for ext in ["csv", "svg", "md"] {
        same(&d, &format!("s-fig3.{ext}"), &format!("st-fig3.{ext}"));
    }
}

/// The CSV rows of `file` whose column `col` is `series`, without that column.
fn series_rows(d: &Path, file: &str, col: usize, series: &str) -> Vec<Vec<String>> {
    let csv = std::fs::read_to_string(d.join(file)).unwrap();
    csv.lines()
        .map(|l| bagsim::stats::csv_cells(l).unwrap())
        .filter(|r| r[col] == series)
        .map(|mut r| {
            r.remove(col);
            r
        })
        .collect()
}

/// The desktop grid's BoT selection and the data grid's scheme, scripted in the base, are one more series of the
/// family's figures: the RR-NRF and finish_time_data_aware examples give their built-in's bars value for value,
/// the paper's bars are those of the figure without the script, and the findings are the same. The data grid's
/// study in shards gives the same files.
#[test]
fn the_other_families_figures_race_a_scripted_base_too() {
    let d = dir("figure-script-dg-dd");
    let example = |name: &str| format!("{}/examples/policies/{name}", env!("CARGO_MANIFEST_DIR"));
    let dg = serde_json::json!({"family": "desktop_grid", "desktop_grid": {"bots": 20}});
    let mut dg_script = dg.clone();
    dg_script["desktop_grid"]["bot_selection"] = serde_json::json!({"script_file": example("rr_nrf.rhai")});
    let dd = serde_json::json!({"family": "data_grid", "data_grid": {"jobs": 150}});
    let mut dd_script = dd.clone();
    dd_script["data_grid"]["scheme"] = serde_json::json!({"script_file": example("finish_time_data_aware.rhai")});
    for (name, v) in [("dg", &dg), ("dg-script", &dg_script), ("dd", &dd), ("dd-script", &dd_script)] {
        std::fs::write(d.join(format!("{name}.json")), v.to_string()).unwrap();
    }
    for (family, fig, base, col, builtin) in
        [("desktop_grid", "2", "dg", 1, "RR-NRF"), ("data_grid", "7", "dd", 2, "finish_time_data_aware")]
    {
        let n = format!("fig{fig}");
        let scripted = format!("{base}-script.json");
        run(&d, &["figure", family, fig, "--base", &scripted, "--seeds", "2", "--out", "s"]);
        run(&d, &["figure", family, fig, "--base", &format!("{base}.json"), "--seeds", "2", "--out", "p"]);
        let mine = series_rows(&d, &format!("s-{n}.csv"), col, "script");
        assert!(!mine.is_empty(), "{family}: no script series");
        assert_eq!(mine, series_rows(&d, &format!("s-{n}.csv"), col, builtin), "{family}: the example differs");
        let csv = std::fs::read_to_string(d.join(format!("s-{n}.csv"))).unwrap();
        let without: Vec<&str> = csv.lines().filter(|l| !l.split(',').any(|c| c == "script")).collect();
        let plain = std::fs::read_to_string(d.join(format!("p-{n}.csv"))).unwrap();
        assert_eq!(without, plain.lines().collect::<Vec<_>>(), "{family}: the paper's bars moved");
        let md = |f: &str| std::fs::read_to_string(d.join(f)).unwrap();
        assert_eq!(md(&format!("s-{n}.md")), md(&format!("p-{n}.md")), "{family}: the findings moved");
        let svg = md(&format!("s-{n}.svg"));
        assert!(svg.contains(">script<"), "{family}: the legend names the script");
    }
    run(&d, &["figure", "data_grid", "7", "--base", "dd-script.json", "--seeds", "2", "--plan", "2", "--out", "st"]);
    for i in ["0", "1"] {
        run(&d, &["sweep", "--manifest", "st.manifest.json", "--shard", i]);
    }
    run(&d, &["merge", "st.manifest.json"]);
    for ext in ["csv", "svg", "md"] {
        same(&d, &format!("s-fig7.{ext}"), &format!("st-fig7.{ext}"));
    }
}
