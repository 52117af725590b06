//! The native command-line front end: `bagsim scenario | run | sweep | merge | slurm | reproduce | generate | trace`.

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    std::process::exit(cli::main());
}

#[cfg(not(target_arch = "wasm32"))]
#[path = "bagsim/error.rs"]
mod error;
#[cfg(not(target_arch = "wasm32"))]
#[path = "bagsim/figure.rs"]
mod figure;
#[cfg(not(target_arch = "wasm32"))]
#[path = "bagsim/info.rs"]
mod info;
#[cfg(not(target_arch = "wasm32"))]
#[path = "bagsim/jobs_out.rs"]
mod jobs_out;
#[cfg(not(target_arch = "wasm32"))]
#[path = "bagsim/out.rs"]
mod out;
#[cfg(not(target_arch = "wasm32"))]
#[path = "bagsim/run_cmd.rs"]
mod run_cmd;
#[cfg(not(target_arch = "wasm32"))]
#[path = "bagsim/schedule_out.rs"]
mod schedule_out;
#[cfg(not(target_arch = "wasm32"))]
#[path = "bagsim/story_cmd.rs"]
mod story_cmd;
#[cfg(not(target_arch = "wasm32"))]
#[path = "bagsim/study.rs"]
mod study;
#[cfg(not(target_arch = "wasm32"))]
#[path = "bagsim/tournament.rs"]
mod tournament;
#[cfg(not(target_arch = "wasm32"))]
#[path = "bagsim/workload_cmd.rs"]
mod workload_cmd;

#[cfg(not(target_arch = "wasm32"))]
mod cli {
    use super::error::Outcome;
    use super::workload_cmd::{generate, trace, Written};
    use super::{figure, info, jobs_out, run_cmd, story_cmd, study};
    use bagsim::registry::Family;
    use bagsim::scenario::Scenario;
    use clap::{Parser, Subcommand, ValueEnum};
    use std::path::PathBuf;

    #[derive(Parser)]
    #[command(
        name = "bagsim",
        version,
        about = "Bags-of-Tasks scheduling in multi-cluster grids (HPDC'08 design space)"
    )]
    struct Cli {
        #[command(subcommand)]
        command: Command,
    }

    #[derive(Subcommand)]
    enum Command {
        /// Re-run a paper's figure of any family, with its findings and verdicts: multi_cluster fig3 … fig11
        /// ([Iosup08] §5), desktop_grid 2 … 17 ([Anglano09] §IV-C), data_grid 4 … 9 ([Liu10] §IV), or all.
        /// Writes STEM-figN.csv and STEM-figN.md (and STEM-figN.svg for multi_cluster); with --readings,
        /// STEM-figN-readings.md and .csv. `reproduce`, `dg-figure` and `dd-figure` are the same, per family.
        Figure {
            /// The family whose paper the figure is of.
            #[arg(value_enum)]
            family: FamilyKind,
            /// The figure's number (fig3 or 3), or all.
            figure: String,
            /// A scenario file of that family the figure's runs start from (the settings the figure does not fix).
            #[arg(long)]
            base: Option<PathBuf>,
            /// Seeds per bar or point: N (multi_cluster 1–100, data_grid 2–100, desktop_grid 2–1000), or auto
            /// (multi_cluster and data_grid: 5, then 10, 20 and 30 while a finding is not resolved; desktop_grid:
            /// the paper's rule, until every 95% interval is within 2.5%, 3 to 30; MIN..MAX the same rule from MIN to
            /// MAX seeds, 2 ≤ MIN ≤ MAX ≤ 1000). Default: auto for desktop_grid, 5 otherwise.
            #[arg(long)]
            seeds: Option<String>,
            /// KEY=A,B,…: run the findings under each reading of KEY (repeat for several keys; every combination
            /// runs). `bagsim readings --family FAMILY` lists them; `all` takes every value. Refused: a key the
            /// figure fixes or sweeps itself (seed, its series' key), a value or a key given twice.
            #[arg(long, value_name = "KEY=A,B")]
            readings: Vec<String>,
            /// Plan the figures' runs as a study in N shards (STEM.manifest.json) instead of running them; run the
            /// shards with `bagsim sweep --manifest` or on Slurm (`bagsim slurm`), then `bagsim merge` writes what
            /// this command writes.
            #[arg(long, value_name = "N")]
            plan: Option<usize>,
            /// Output file stem.
            #[arg(long, default_value = "figure")]
            out: PathBuf,
            /// Worker threads (default: all cores).
            #[arg(long)]
            jobs: Option<usize>,
        },
        /// Re-run a data-grid figure of [Liu10] §IV (4–9, or all) on the bundled HPC2N log: every scheme under each
        /// setting of the figure, --seeds seeds of the data and bandwidth draws, 95% intervals, and the paper's
        /// findings with verdicts; writes STEM-figN.csv and STEM-figN.md.
        DdFigure {
            /// 4 … 9, or all
            figure: String,
            /// Base data-grid scenario (its data_grid section gives the settings the figure does not fix).
            #[arg(long)]
            scenario: Option<PathBuf>,
            /// Seeds per bar (2–100).
            #[arg(long, default_value_t = 5)]
            seeds: u64,
            /// KEY=A,B,…: run the figure's findings under each reading of KEY (repeat for several keys; every
            /// combination runs). `bagsim readings --family data_grid` lists them.
            #[arg(long, value_name = "KEY=A,B")]
            readings: Vec<String>,
            #[arg(long, default_value = "dd")]
            out: PathBuf,
            /// Plan the figures' runs as a study in N shards (STEM.manifest.json) instead of running them; run the
            /// shards with `bagsim sweep --manifest`, then `bagsim merge` prints and writes what this command does.
            #[arg(long, value_name = "N")]
            plan: Option<usize>,
            /// Worker threads (default: all cores).
            #[arg(long)]
            jobs: Option<usize>,
        },
        /// Re-run a desktop-grid figure of [Anglano09] §IV-C (2–17, or all): for every mix and BoT selection
        /// policy, seeds are added until the 95% intervals of TT, makespan, WT and RWT are within 2.5% of their
        /// means (the paper's rule), up to --max-seeds; writes STEM-figN.csv.
        DgFigure {
            /// 2 … 17, or all
            figure: String,
            /// Base desktop-grid scenario (its desktop_grid section gives the settings the figure does not fix).
            #[arg(long)]
            scenario: Option<PathBuf>,
            /// Most seeds per bar (2–1000).
            #[arg(long, default_value_t = 30)]
            max_seeds: usize,
            /// Fewest seeds per bar (2 to --max-seeds: a bar's interval needs 2).
            #[arg(long, default_value_t = 3)]
            min_seeds: usize,
            /// BoTs per run (overrides the scenario's).
            #[arg(long)]
            bots: Option<u32>,
            /// KEY=A,B,…: run the figure's findings under each reading of KEY (repeat for several keys; every
            /// combination runs). `bagsim readings --family desktop_grid` lists them.
            #[arg(long = "readings", value_name = "KEY=A,B")]
            readings: Vec<String>,
            #[arg(long, default_value = "dg")]
            out: PathBuf,
            /// Plan the figures' bars as a study in N shards (STEM.manifest.json) instead of running them; run the
            /// shards with `bagsim sweep --manifest`, then `bagsim merge` prints and writes what this command does.
            #[arg(long, value_name = "N")]
            plan: Option<usize>,
            /// Worker threads (default: all cores).
            #[arg(long)]
            jobs: Option<usize>,
        },
        /// Print the default scenario of a family as JSON (with --doc: each of its parameters, unit, allowed values and
        /// meaning).
        Scenario {
            #[arg(long)]
            doc: bool,
            /// Print the default scenario with this workload generator instead of the [Iosup08] model
            /// (docs/workload-models.md).
            #[arg(long, value_enum)]
            workload: Option<GeneratorKind>,
            /// Print the default scenario of this family (multi_cluster, desktop_grid or data_grid).
            #[arg(long, value_enum)]
            family: Option<FamilyKind>,
        },
        /// Run a scenario: a readable summary on stdout, the full report as JSON with --out.
        Run {
            scenario: PathBuf,
            #[arg(long)]
            seed: Option<u64>,
            /// Write the report (JSON) here.
            #[arg(long)]
            out: Option<PathBuf>,
            /// Write the run's rows here as CSV: one per BoT (multi-cluster) or per job (data grid).
            #[arg(long)]
            csv: Option<PathBuf>,
            /// Write the simulated schedule here as SWF v2.2, one job per task (data grid: per job) with its wait
            /// and run time, as the run goes (docs/traces.md). `bagsim trace FILE` reads it back.
            #[arg(long)]
            swf: Option<PathBuf>,
            /// Write one row per finished task (data grid: per job) here, in Batsim's jobs.csv columns (docs/jobs.md).
            #[arg(long)]
            jobs: Option<PathBuf>,
        },
        /// Run the cartesian product of --set values on all cores; writes CSV and JSON. With --plan N, write the
        /// study's manifest (every point with its scenario, in N shards) instead of running it; with --manifest M
        /// --shard I, run one shard of a planned study (I defaults to $SLURM_ARRAY_TASK_ID); `bagsim merge M` then
        /// writes the files a local sweep writes. See "Studies on a Slurm cluster" in the README.
        Sweep {
            /// The base scenario (not with --manifest).
            #[arg(required_unless_present = "manifest", conflicts_with = "manifest")]
            scenario: Option<PathBuf>,
            /// KEY=V1,V2,… (keys: load, scheduling, selection, architecture, seed, inaccuracy, preset, pattern,
            /// median_size, mean_runtime, monitoring_period, or any JSON path such as workload.max_size; for a
            /// desktop_grid scenario: availability, heterogeneity, mix, load, bot_selection, rep_thresh, bots,
            /// checkpoint_period, weibull_shape, seed; for a data_grid scenario: scheme, backfill_rule, estimates,
            /// runtime_factor, data_share, data_max_mb, jobs, seed; a list element as path.index, e.g.
            /// data_grid.sites.0). A value given twice on an axis (load=0.5,0.5) is refused.
            #[arg(long = "set", required_unless_present = "manifest", conflicts_with = "manifest")]
            sets: Vec<String>,
            /// Output file stem: writes STEM.csv and STEM.json (with --plan: STEM.manifest.json).
            #[arg(long, default_value = "sweep")]
            out: PathBuf,
            /// Worker threads (default: all cores).
            #[arg(long)]
            jobs: Option<usize>,
            /// Write each point's per-task records in Batsim's jobs.csv columns (as `run --jobs`) to
            /// STEM.point-K.jobs.csv, K the point's index (its line in STEM.csv); with --manifest, the shard's points.
            #[arg(long, value_name = "STEM")]
            jobs_csv: Option<PathBuf>,
            /// Plan the study in N shards: write STEM.manifest.json and run nothing.
            #[arg(long, value_name = "N", conflicts_with = "manifest")]
            plan: Option<usize>,
            /// Run one shard of this planned study; writes STEM.shard-I.json beside the manifest.
            #[arg(long, value_name = "M")]
            manifest: Option<PathBuf>,
            /// The shard to run, 0 … N−1 (default: $SLURM_ARRAY_TASK_ID).
            #[arg(long, value_name = "I", requires = "manifest")]
            shard: Option<usize>,
        },
        /// Race policy scripts against the family's built-ins on one scenario over the same seeds, ranked by one sweep
        /// column with its 95% interval; a script that fails is listed with its reason (docs/policies.md).
        Tournament(super::tournament::Args),
        /// Merge the shards of a planned study into STEM.csv and STEM.json, the files a local sweep writes (a
        /// figure's study: the files its figure command writes); names every missing or failed shard (exit code 5, the
        /// study is not complete) instead of merging part of the study. A manifest or a shard written by another
        /// bagsim version is refused (exit code 2).
        Merge {
            manifest: PathBuf,
            /// Output file stem (default: the manifest's).
            #[arg(long)]
            out: Option<PathBuf>,
        },
        /// Write a Slurm job-array script for a planned study (STEM.sbatch: one shard per array task), the merge as a
        /// job that waits for it (STEM.merge.sbatch, --dependency=afterok), and STEM.submit.sh, which submits both.
        Slurm {
            manifest: PathBuf,
            /// sbatch --time of one shard.
            #[arg(long, default_value = "01:00:00")]
            time: String,
            /// sbatch --cpus-per-task (each shard runs its points on that many threads).
            #[arg(long, default_value_t = 1)]
            cpus: usize,
            /// sbatch --partition (default: the cluster's default partition).
            #[arg(long)]
            partition: Option<String>,
            /// Further sbatch options for every job, e.g. --extra=--account=ABC (repeatable).
            #[arg(long = "extra", value_name = "OPTION")]
            extra: Vec<String>,
            /// The bagsim the jobs run (default: this one).
            #[arg(long)]
            bagsim: Option<PathBuf>,
            /// Each shard also writes its points' per-task records beside the study, STEM.point-K.jobs.csv (as
            /// `bagsim sweep --jobs-csv STEM` does; a sweep's study only).
            #[arg(long)]
            jobs_csv: bool,
        },
        /// Re-run an experiment of [Iosup08] §5 (fig3 … fig11, or all) with several seeds per point:
        /// writes STEM-FIG.csv (means, 95% intervals, every seed), STEM-FIG.svg (the figure) and STEM-FIG.md
        /// (the paper's setup and findings next to ours, with verdicts), and prints the findings.
        Reproduce {
            /// fig3, fig4, …, fig11, or all
            figure: String,
            /// Seeds per point (1–100), or auto: 5, then 10, 20 and 30 while a finding is not resolved.
            #[arg(long, default_value = "5")]
            seeds: String,
            /// KEY=A,B,…: run the findings under each reading of KEY (repeat for several keys; every combination
            /// runs). `bagsim readings` lists the keys and their values; `all` takes every value.
            #[arg(long = "readings", value_name = "KEY=A,B")]
            readings: Vec<String>,
            /// A multi-cluster scenario file the figure's runs start from instead of the defaults.
            #[arg(long)]
            base: Option<PathBuf>,
            /// Plan the figures' runs as a study in N shards (STEM.manifest.json) instead of running them; run the
            /// shards with `bagsim sweep --manifest`, then `bagsim merge` writes what this command writes.
            #[arg(long, value_name = "N")]
            plan: Option<usize>,
            /// Output file stem.
            #[arg(long, default_value = "reproduce")]
            out: PathBuf,
            /// Worker threads (default: all cores).
            #[arg(long)]
            jobs: Option<usize>,
        },
        /// Run a lesson (a guided experiment of lessons/, as the page's "Lessons" runs it) and print its answer per
        /// variant with 95% intervals and whether the lesson's claim holds on them; without ID, list the lessons.
        Lesson {
            id: Option<String>,
            /// Seeds per variant instead of the lesson's own (1–30).
            #[arg(long)]
            seeds: Option<u32>,
            /// Worker threads (default: all cores).
            #[arg(long)]
            jobs: Option<usize>,
        },
        /// List the readings of a family: the decisions its paper leaves open, as scenario keys with named values
        /// (the default first), and the sentence each rests on.
        Readings {
            #[arg(long, value_enum, default_value = "multi_cluster")]
            family: FamilyKind,
        },
        /// Tell one task's story in a run of the scenario (docs/story.md): its arrival, the scheduler's decisions
        /// about it, who started while it waited and why, its executions and its per-task record, as the page's
        /// Gantt view tells it on a click.
        Story {
            scenario: PathBuf,
            /// The task's id (its job_id in `bagsim run --jobs`; a data grid's job).
            task: u32,
            /// Seed instead of the scenario's own.
            #[arg(long)]
            seed: Option<u64>,
            /// Also write the run's whole tape (every execution and every task's decisions) as JSON.
            #[arg(long, value_name = "FILE")]
            tape: Option<PathBuf>,
        },
        /// Print the workload the scenario would simulate.
        Generate {
            scenario: PathBuf,
            #[arg(long, value_enum, default_value = "swf")]
            format: Format,
            #[arg(long)]
            seed: Option<u64>,
            /// Print the workload's views instead of the workload: burstiness ([Minh10] §V), arrivals, sizes,
            /// runtimes, users (docs/workload-views.md); with --format json, the views as JSON.
            #[arg(long)]
            views: bool,
        },
        /// Import a workload trace (SWF or GWF, plain or gzip): report, BoTs, users and fitted model row.
        ///
        /// Prints the import report (lines read, jobs kept, header fields, every skipped line and why), the BoTs by
        /// the Δ rule of [Minh10] §II-C with a count per size class, the users, and the fitted Table-3-like row
        /// ([Iosup08] §3.1); --out writes it all as JSON (keys jobs, skipped, bots, users, fit). A scenario replays
        /// a trace with "workload": {"trace": {"path": FILE, "delta": 100}}. See docs/traces.md.
        Trace {
            /// The trace file (.swf, .gwf, optionally .gz; other names: the format is read from the content).
            file: PathBuf,
            /// Δ of the BoT rule, seconds (0–86 400): a job joins the BoT of the job just before it in submit order
            /// when it comes at most Δ later with the same user, group, queue, executable, requested time and
            /// requested processors.
            #[arg(long, default_value_t = bagsim::trace::bots::DEFAULT_DELTA, allow_negative_numbers = true)]
            delta: f64,
            /// Turn a job of p processors into p sequential tasks of its run time (default: such jobs are left out
            /// of the BoTs and counted).
            #[arg(long, conflicts_with = "keep_parallel")]
            split_parallel: bool,
            /// Keep a job of p processors as one task that needs p processors at once (a rigid parallel job, for
            /// families that run them; the report counts them).
            #[arg(long)]
            keep_parallel: bool,
            /// Group by user alone instead of [Minh10]'s six attributes.
            #[arg(long)]
            same_user: bool,
            /// The trace format, when the file name does not say it.
            #[arg(long, value_enum)]
            format: Option<TraceFormat>,
            /// Write the report as JSON to this file.
            #[arg(long)]
            out: Option<PathBuf>,
            /// Also print the workload's views: burstiness ([Minh10] §V) of the BoT tasks and of the trace's own
            /// jobs, arrivals, sizes, runtimes, users (docs/workload-views.md); --out then has a `views` key.
            #[arg(long)]
            views: bool,
            /// Also print every candidate family of every characteristic with its KS D, the selected one marked
            /// (--out always has them, with the CDF curves of the data against each, under `candidates`).
            #[arg(long)]
            candidates: bool,
        },
    }

    /// A family on the command line: every registered family, by its name.
    #[derive(Clone, Copy, Debug)]
    struct FamilyKind(Family);

    impl ValueEnum for FamilyKind {
        fn value_variants<'a>() -> &'a [Self] {
            static ALL: std::sync::OnceLock<Vec<FamilyKind>> = std::sync::OnceLock::new();
            ALL.get_or_init(|| Family::ALL.iter().map(|&f| FamilyKind(f)).collect())
        }

        fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
            Some(clap::builder::PossibleValue::new(self.0.name()))
        }
    }

    #[derive(Clone, Copy, ValueEnum)]
    enum GeneratorKind {
        /// [Medernach05] §5: users logging in and out (default: the four Biomed users of Fig. 10).
        #[value(name = "login_logout")]
        LoginLogout,
        /// [Minh10] Algorithm 1: Zipf BoT sizes, one runtime per BoT, the Δ rule.
        #[value(name = "minh_wolters")]
        MinhWolters,
    }

    #[derive(Clone, Copy, ValueEnum)]
    enum TraceFormat {
        Swf,
        Gwf,
        /// Batsim's JSON workload.
        Batsim,
    }

    #[derive(Clone, Copy, ValueEnum)]
    enum Format {
        /// SWF v2.2, one job per task.
        Swf,
        /// bagsim's own workload JSON.
        Json,
        /// Batsim's JSON workload: one job per task with a delay profile (docs/traces.md).
        Batsim,
    }

    pub fn main() -> i32 {
        let cli = Cli::parse();
        execute(cli.command).map_or_else(|e| e.report(), |()| 0)
    }

    /// Every file the command will write is checked before any work starts (its directory exists and is writable).
    fn check_outputs(cmd: &Command) -> Outcome {
        let stems: Vec<(&str, &PathBuf)> = match cmd {
            Command::DdFigure { out, .. }
            | Command::Figure { out, .. }
            | Command::DgFigure { out, .. }
            | Command::Sweep { out, manifest: None, .. }
            | Command::Reproduce { out, .. } => vec![("--out", out)],
            Command::Run { out, csv, .. } => {
                out.iter().map(|o| ("--out", o)).chain(csv.iter().map(|c| ("--csv", c))).collect()
            }
            Command::Trace { out, .. } | Command::Tournament(super::tournament::Args { out, .. }) => {
                out.iter().map(|o| ("--out", o)).collect()
            }
            Command::Merge { out: Some(out), .. } => vec![("--out", out)],
            _ => Vec::new(),
        };
        if let Command::Run { out: Some(a), csv: Some(b), .. } = cmd {
            if a == b {
                return Err(format!(
                    "--out and --csv are both {}: the report and the rows need two files",
                    a.display()
                )
                .into());
            }
        }
        if let Command::Run { out, csv, swf, jobs: Some(j), .. } = cmd {
            jobs_out::check(j, [("--out", out), ("--csv", csv), ("--swf", swf)])?;
        }
        stems.into_iter().try_for_each(|(option, path)| crate::out::check_output(option, path))
    }

    /// A scenario file of `family`: a figure command never runs its own defaults in place of a file it was given.
    fn of_family(path: &std::path::Path, family: Family, option: &str, command: &str) -> Outcome<Scenario> {
        let s = study::load_scenario(path)?;
        if s.family() != family {
            return Err(format!(
                "{option} {}: a {} scenario; {command} runs {} scenarios (\"family\": \"{}\")",
                path.display(),
                s.family().name(),
                family.name(),
                family.name()
            )
            .into());
        }
        Ok(s)
    }

    fn family_of(kind: FamilyKind) -> Family {
        kind.0
    }

    fn execute(cmd: Command) -> Outcome {
        check_outputs(&cmd)?;
        match cmd {
            Command::Figure { family, figure: which, base, seeds, readings, plan, out, jobs } => {
                let family = family_of(family);
                let base = base.map(|p| of_family(&p, family, "--base", "figure")).transpose()?;
                let seeds = seeds.unwrap_or_else(|| figure::default_seeds(family).to_string());
                let jobs = bagsim::parallel::threads(jobs);
                let r = figure::Request { figure: &which, readings: &readings, seeds: &seeds, plan, out: &out, jobs };
                figure::figure(family, base.as_ref(), &r)
            }
            Command::DdFigure { figure: which, scenario, seeds, readings, out, jobs, plan } => {
                let base = scenario.map(|p| of_family(&p, Family::DataGrid, "--scenario", "dd-figure")).transpose()?;
                if !(2..=100).contains(&seeds) {
                    return Err(format!("--seeds {seeds}: allowed 2–100").into());
                }
                let (seeds, jobs) = (seeds.to_string(), bagsim::parallel::threads(jobs));
                let r = figure::Request { figure: &which, readings: &readings, seeds: &seeds, plan, out: &out, jobs };
                figure::figure(Family::DataGrid, base.as_ref(), &r)
            }
            Command::DgFigure { figure: which, scenario, max_seeds, min_seeds, bots, readings, out, jobs, plan } => {
                let mut base = match scenario {
                    Some(p) => of_family(&p, Family::DesktopGrid, "--scenario", "dg-figure")?,
                    None => Scenario::default_for(Family::DesktopGrid),
                };
                if let (Some(b), Some(d)) = (bots, base.desktop_grid_mut()) {
                    d.desktop_grid.bots = b;
                }
                if !(2..=1000).contains(&max_seeds) || !(2..=max_seeds).contains(&min_seeds) {
                    let why = format!("--max-seeds {max_seeds} / --min-seeds {min_seeds}: need 2 ≤ min ≤ max ≤ 1000");
                    return Err(why.into());
                }
                let (seeds, jobs) = (format!("{min_seeds}..{max_seeds}"), bagsim::parallel::threads(jobs));
                let r = figure::Request { figure: &which, readings: &readings, seeds: &seeds, plan, out: &out, jobs };
                figure::figure(Family::DesktopGrid, Some(&base), &r)
            }
            Command::Scenario { doc, workload, family } => {
                let family = family.map_or(Family::MultiCluster, family_of);
                let generator = workload.map(|k| match k {
                    GeneratorKind::LoginLogout => "login_logout",
                    GeneratorKind::MinhWolters => "minh_wolters",
                });
                info::scenario(family, doc, generator)
            }
            Command::Reproduce { figure: which, seeds, readings, base, out, jobs, plan } => {
                let base = match &base {
                    Some(p) => Some(Scenario::MultiCluster(
                        study::load_scenario(p)?
                            .as_multi_cluster()
                            .map_err(|e| format!("--base {}: {e}", p.display()))?
                            .clone(),
                    )),
                    None => None,
                };
                let jobs = bagsim::parallel::threads(jobs);
                let r = figure::Request { figure: &which, readings: &readings, seeds: &seeds, plan, out: &out, jobs };
                figure::figure(Family::MultiCluster, base.as_ref(), &r)
            }
            Command::Lesson { id, seeds, jobs } => info::lesson(id.as_deref(), seeds, bagsim::parallel::threads(jobs)),
            Command::Readings { family } => info::readings(family_of(family)),
            Command::Story { scenario, task, seed, tape } => story_cmd::story(&scenario, task, seed, tape),
            Command::Run { scenario, seed, out, csv, swf, jobs } => run_cmd::run(&scenario, seed, out, csv, swf, jobs),
            Command::Sweep { scenario, sets, out, jobs, jobs_csv, plan, manifest, shard } => match (manifest, scenario)
            {
                (Some(m), _) => study::shard(&m, shard, jobs, jobs_csv.as_deref()),
                (None, Some(scenario)) => {
                    let base = study::load_scenario(&scenario)?;
                    study::sweep(&base, &sets, &out, jobs, plan, jobs_csv.as_deref())
                }
                (None, None) => Err("sweep: give a scenario, or --manifest".into()),
            },
            Command::Merge { manifest, out } => study::merge(&manifest, out.as_deref()),
            Command::Tournament(args) => super::tournament::tournament(&args),
            Command::Slurm { manifest, time, cpus, partition, extra, bagsim, jobs_csv } => {
                study::slurm(&manifest, &study::SlurmOptions { time, cpus, partition, extra, bagsim, jobs_csv })
            }
            Command::Trace {
                file,
                delta,
                split_parallel,
                keep_parallel,
                same_user,
                format,
                out,
                views,
                candidates,
            } => {
                use bagsim::trace::bots::{BotKey, BotRule, MultiProc};
                let rule = BotRule {
                    delta,
                    key: if same_user { BotKey::User } else { BotKey::Attributes },
                    multi_proc: match (split_parallel, keep_parallel) {
                        (true, _) => MultiProc::Split,
                        (_, true) => MultiProc::Keep,
                        _ => MultiProc::Reject,
                    },
                };
                let format = format.map(|f| match f {
                    TraceFormat::Swf => bagsim::trace::Format::Swf,
                    TraceFormat::Gwf => bagsim::trace::Format::Gwf,
                    TraceFormat::Batsim => bagsim::trace::Format::Batsim,
                });
                trace(&file, format, &rule, out.as_deref(), views, candidates)
            }
            Command::Generate { scenario, format, seed, views } => {
                let mut s = study::load_scenario(&scenario)?;
                if let Some(seed) = seed {
                    s.set_seed(seed);
                }
                let written = match format {
                    Format::Swf => Written::Swf,
                    Format::Json => Written::Json,
                    Format::Batsim => Written::Batsim,
                };
                generate(&s, written, views)
            }
        }
    }
}
