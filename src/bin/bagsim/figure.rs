//! `bagsim figure FAMILY ID|all`: one figure command for every family, with the same options (`--base`, `--seeds
//! N|auto`, `--readings`, `--plan`, `--out`, `--jobs`) and the same kinds of output (the figure's CSV, its findings
//! as Markdown, printed verdicts; under readings the readings table and which reading flips each finding; with
//! `--plan` a study in shards that `bagsim merge` turns into the same files). The older commands `reproduce`,
//! `dg-figure` and `dd-figure` stay, with their own options, as aliases of it.

use super::error::Outcome;
use super::out::CliOut;
use super::study;
use bagsim::family::data_grid::figure_cmd;
use bagsim::family::data_grid::DataGridConfig;
use bagsim::family::desktop_grid::figure_cmd as dg_cmd;
use bagsim::family::desktop_grid::figures::CiRule;
use bagsim::family::desktop_grid::DesktopGridConfig;
use bagsim::family::multi_cluster::config::McScenario;
use bagsim::family::multi_cluster::figures::cmd as mc_cmd;
use bagsim::readings::Seeds;
use bagsim::registry::Family;
use bagsim::scenario::Scenario;
use std::path::Path;

/// What every family's figure command takes.
pub struct Request<'a> {
    /// `fig3`, `4`, `all`, …
    pub figure: &'a str,
    /// `KEY=A,B` specs; empty: the defaults only.
    pub readings: &'a [String],
    /// Shards of a study to plan instead of running.
    pub plan: Option<usize>,
    pub out: &'a Path,
    pub jobs: usize,
}

/// The confidence rule of the desktop-grid figures ([Anglano09] §IV-C): seeds until every interval is within 2.5%
/// of its mean, from `min` to `max` seeds per bar.
fn rule(min_seeds: usize, max_seeds: usize) -> CiRule {
    CiRule { min_seeds, max_seeds, rel: 0.025 }
}

/// The seeds a family's figure takes when `--seeds` is not given.
pub fn default_seeds(family: Family) -> &'static str {
    match family {
        Family::DesktopGrid => "auto",
        Family::MultiCluster | Family::DataGrid => "5",
    }
}

/// `bagsim figure FAMILY …`: `base` is the scenario file's content (checked to be of `family`), `seeds` `N` or
/// `auto`.
pub fn figure(family: Family, base: Option<&Scenario>, seeds: &str, r: &Request) -> Outcome {
    match family {
        Family::MultiCluster => {
            let seeds = Seeds::parse(seeds, bagsim::family::multi_cluster::figures::DEFAULT_SEEDS)?;
            let base = base.and_then(|s| s.multi_cluster()).cloned().unwrap_or_default();
            multi_cluster(&base, seeds, r)
        }
        Family::DesktopGrid => {
            let rule = if seeds.eq_ignore_ascii_case("auto") {
                rule(3, 30)
            } else {
                match seeds.parse::<usize>() {
                    Ok(n) if (2..=1000).contains(&n) => rule(n, n),
                    _ => {
                        let why = format!("--seeds {seeds:?}: allowed 2–1000, or auto (3 to 30 by the paper's rule)");
                        return Err(why.into());
                    }
                }
            };
            let base = base.and_then(|s| s.desktop_grid()).map(|d| d.desktop_grid.clone()).unwrap_or_default();
            desktop_grid(&base, rule, r)
        }
        Family::DataGrid => {
            let seeds = Seeds::parse(seeds, 5)?;
            if seeds == Seeds::Fixed(1) {
                return Err("--seeds 1: a bar's interval needs at least 2 seeds".into());
            }
            let base = base.and_then(|s| s.data_grid()).map(|d| d.data_grid.clone()).unwrap_or_default();
            data_grid(&base, seeds, r)
        }
    }
}

/// The figures of [Iosup08] §5 (`bagsim reproduce`).
pub fn multi_cluster(base: &McScenario, seeds: Seeds, r: &Request) -> Outcome {
    if let Some(shards) = r.plan {
        let n = fixed(seeds)?;
        let p = if r.readings.is_empty() {
            mc_cmd::reproduce_plan(r.figure, base, n)?
        } else {
            mc_cmd::readings_plan(r.figure, base, r.readings, n)?
        };
        return study::write_plan(p, Family::MultiCluster, shards, r.out);
    }
    let out = &mut CliOut::new(r.out);
    match seeds {
        Seeds::Fixed(n) if r.readings.is_empty() => Ok(mc_cmd::reproduce(out, r.figure, base, n, r.jobs)?),
        _ => Ok(mc_cmd::reproduce_readings(out, r.figure, base, r.readings, seeds, r.jobs)?),
    }
}

/// The figures of [Anglano09] §IV-C (`bagsim dg-figure`).
pub fn desktop_grid(base: &DesktopGridConfig, rule: CiRule, r: &Request) -> Outcome {
    if let Some(shards) = r.plan {
        let p = if r.readings.is_empty() {
            dg_cmd::figure_plan(r.figure, base, rule)?
        } else {
            dg_cmd::readings_plan(r.figure, base, r.readings, rule)?
        };
        return study::write_plan(p, Family::DesktopGrid, shards, r.out);
    }
    let out = &mut CliOut::new(r.out);
    if r.readings.is_empty() {
        Ok(dg_cmd::figure(out, r.figure, base, rule, r.jobs)?)
    } else {
        Ok(dg_cmd::figure_readings(out, r.figure, base, r.readings, rule, r.jobs)?)
    }
}

/// The figures of [Liu10] §IV (`bagsim dd-figure`).
pub fn data_grid(base: &DataGridConfig, seeds: Seeds, r: &Request) -> Outcome {
    if let Some(shards) = r.plan {
        let p = figure_cmd::plan_study(r.figure, base, r.readings, u64::from(fixed(seeds)?))?;
        return study::write_plan(p, Family::DataGrid, shards, r.out);
    }
    Ok(figure_cmd::figure(&mut CliOut::new(r.out), r.figure, base, r.readings, seeds, r.jobs)?)
}

/// A study's seeds are fixed when it is planned.
fn fixed(seeds: Seeds) -> Result<u32, String> {
    match seeds {
        Seeds::Fixed(n) => Ok(n),
        Seeds::Auto { .. } => {
            Err("--plan needs a fixed number of seeds: --seeds auto decides each round of seeds from the verdicts of \
                 the last"
                .into())
        }
    }
}

/// The desktop-grid rule of `dg-figure`'s own options.
pub fn dg_rule(min_seeds: usize, max_seeds: usize) -> Result<CiRule, String> {
    if !(1..=1000).contains(&max_seeds) || min_seeds > max_seeds {
        return Err(format!("--max-seeds {max_seeds} / --min-seeds {min_seeds}: need 1 ≤ min ≤ max ≤ 1000"));
    }
    Ok(rule(min_seeds, max_seeds))
}
