//! Judges the findings of one of [Iosup08]'s figures again from the CSV a run of it wrote, without running it:
//! `cargo run --release --example figure_findings -- fig4 STEM-fig4.csv`. Prints each finding with its verdict,
//! as `bagsim figure multi_cluster 4` does, under this version's rules for drawing verdicts.

use bagsim::family::multi_cluster::figures::{claims::claims, FigureId, FigureResult};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [fig, path] = args.as_slice() else {
        eprintln!("usage: figure_findings FIG CSV   (FIG: fig3 … fig11; CSV: what `bagsim figure` wrote for it)");
        return ExitCode::from(2);
    };
    let Some(id) = FigureId::ALL.into_iter().find(|id| id.name() == fig) else {
        eprintln!("figure_findings: `{fig}` is not a figure; allowed fig3 … fig11");
        return ExitCode::from(2);
    };
    let read = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"));
    match read.and_then(|text| FigureResult::from_csv(id.figure(), &text).map_err(|e| format!("{path}: {e}"))) {
        Ok(result) => {
            println!(
                "{} — {} (judged again from {path}, {} seeds per point)",
                id.name(),
                id.figure().title,
                result.seeds
            );
            for c in claims(&result) {
                println!("  paper:   {}", c.paper);
                println!("  bagsim:  {}  [{}]", c.ours, c.verdict.label());
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("figure_findings: {e}");
            ExitCode::from(2)
        }
    }
}
