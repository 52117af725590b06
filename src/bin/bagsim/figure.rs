//! `bagsim figure FAMILY ID|all`: one figure command for every family, with the same options (`--base`, `--seeds
//! N|auto`, `--readings`, `--plan`, `--out`, `--jobs`) and the same kinds of output (the figure's CSV, its findings
//! as Markdown, printed verdicts; under readings the readings table and which reading flips each finding; with
//! `--plan` a study in shards that `bagsim merge` turns into the same files). The family's figure code answers it
//! through the contract (`FamilyDef::figures`). The older commands `reproduce`, `dg-figure` and `dd-figure` stay,
//! with their own options, as aliases of it.

use super::error::Outcome;
use super::out::CliOut;
use super::study;
use bagsim::family::contract::FigureRequest;
use bagsim::registry::Family;
use bagsim::scenario::Scenario;
use std::path::Path;

/// What every family's figure command takes.
pub struct Request<'a> {
    /// `fig3`, `4`, `all`, …
    pub figure: &'a str,
    /// `KEY=A,B` specs; empty: the defaults only.
    pub readings: &'a [String],
    /// `N`, `auto`, or what else the family documents.
    pub seeds: &'a str,
    /// Shards of a study to plan instead of running.
    pub plan: Option<usize>,
    pub out: &'a Path,
    pub jobs: usize,
}

/// The seeds a family's figure takes when `--seeds` is not given.
pub fn default_seeds(family: Family) -> &'static str {
    family.figure_seeds().unwrap_or("5")
}

/// `bagsim figure FAMILY …`: `base` is the scenario file's content, checked to be of `family` (None: the family's
/// default scenario).
pub fn figure(family: Family, base: Option<&Scenario>, r: &Request) -> Outcome {
    let req = FigureRequest { figure: r.figure, readings: r.readings, seeds: r.seeds, jobs: r.jobs };
    match r.plan {
        Some(shards) => study::write_plan(family.figure_plan(base, &req)?, family, shards, r.out),
        None => {
            // One named base for every verdict, in every family (the multi-cluster figures also name theirs per
            // figure: the month, the quick day or your own).
            let own = base.is_some_and(|b| *b != Scenario::default_for(family));
            println!("verdicts on {}", if own { "your own base (not the defaults)" } else { "the defaults" });
            Ok(family.figure(&mut CliOut::new(r.out), base, &req)?)
        }
    }
}
