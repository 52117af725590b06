//! `bagsim sweep` (local, or planned in shards), `bagsim sweep --manifest M --shard I`, `bagsim merge` and
//! `bagsim slurm`: the file side of `bagsim::study`, which holds the rules.

use super::error::{CliError, Failure, Outcome};
use super::out::check_output;
use bagsim::registry::Family;
use bagsim::scenario::Scenario;
use bagsim::study::{axes, plan_with, shard_path, stem_of, Manifest, Point, PointError, ShardOutput, StudyError};
use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};

macro_rules! say {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stdout(), "{}", bagsim::family::contract::tidy_line(&format!($($arg)*)));
    }};
}

/// Writes `text` to `path` whole or not at all: a temporary file beside it, then a rename, so a re-run or a
/// re-queued task never leaves a torn file.
fn write_atomic(path: &Path, text: &str) -> Outcome {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".tmp-{}", std::process::id()));
    let tmp = PathBuf::from(tmp);
    let fail = |e: std::io::Error| CliError::file(path, &e);
    let mut f = std::fs::File::create(&tmp).map_err(fail)?;
    f.write_all(text.as_bytes()).and_then(|()| f.sync_all()).map_err(fail)?;
    std::fs::rename(&tmp, path).map_err(fail)
}

/// The most bytes a scenario file may hold.
pub const MAX_SCENARIO_BYTES: u64 = 64 << 20;
/// The most bytes a manifest or a shard file may hold.
pub const MAX_STUDY_BYTES: u64 = 1 << 30;

/// A scenario file, read and checked; a policy's `script_file` becomes its source in the scenario
/// (docs/policies.md), so what is planned, written or sent to Slurm carries the script itself.
pub fn load_scenario(path: &Path) -> Outcome<Scenario> {
    let text = read_text(path, MAX_SCENARIO_BYTES)?;
    let text = bagsim::script::inline_files(&text, &mut |p| {
        read_text(Path::new(p), 1 << 20)
            .map_err(|e| CliError { message: format!("{}: script_file {}", path.display(), e.message), ..e })
    })?;
    Ok(Scenario::from_json(&text).map_err(|e| format!("{}: {e}", path.display()))?)
}

/// Reads a text file of at most `limit` bytes (a file without end, such as /dev/zero, is refused when it passes
/// the limit, not read forever), without a UTF-8 byte-order mark.
pub fn read_text(path: &Path, limit: u64) -> Outcome<String> {
    use std::io::Read;
    let fail = |e: std::io::Error| CliError::file(path, &e);
    let file = std::fs::File::open(path).map_err(fail)?;
    let mut bytes = Vec::new();
    file.take(limit + 1).read_to_end(&mut bytes).map_err(fail)?;
    if bytes.len() as u64 > limit {
        return Err(format!("{}: larger than {} MiB; at most that is read", path.display(), limit >> 20).into());
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        format!("{}: not UTF-8 text (byte {} is not valid UTF-8)", path.display(), e.utf8_error().valid_up_to() + 1)
    })?;
    Ok(text.strip_prefix('\u{feff}').map(str::to_string).unwrap_or(text))
}

/// Runs point `k` of a manifest's study: a sweep's scenario (its jobs.csv streamed next to `records` when given),
/// or a run of the figures of the family that planned it.
fn run_point(m: &Manifest, p: &Point, k: usize, records: Option<&Path>) -> Result<Value, PointError> {
    match (Family::of_study(m.kind), records) {
        (Some(family), _) => family.study_point(m.kind, p),
        (None, None) => bagsim::study::run_point(p),
        (None, Some(stem)) => super::jobs_out::point_with_jobs(p, &bagsim::study::point_jobs_path(stem, k)),
    }
}

/// The points of `indices` on `jobs` threads, in order, with a progress line each on stderr; each sweep point's
/// jobs.csv beside `records` when given.
pub fn run_points(
    m: &Manifest,
    indices: &[usize],
    jobs: usize,
    records: Option<&Path>,
) -> Vec<Result<Value, PointError>> {
    bagsim::parallel::map(indices, jobs, |n, &k| {
        // The point made whole again: the study stores each script once (`Manifest::scripts`).
        let r = m.point(k).map_err(PointError::from).and_then(|p| run_point(m, &p, k, records));
        let labels = m.points[k].labels.join(" ");
        match &r {
            Ok(_) => eprintln!("  [{}/{}] {labels}", n + 1, indices.len()),
            Err(e) => eprintln!("  [{}/{}] {labels}: {e}", n + 1, indices.len()),
        }
        r
    })
}

/// An axis value's JSON, as sweeps and tournaments read it: a value FILE.rhai is a scripted policy, whose source goes
/// into each point's scenario (its name labels the rows); any other value is JSON, or text.
pub fn axis_value(_: &str, v: &str) -> Result<Value, std::io::Error> {
    if v.ends_with(".rhai") {
        let source = read_text(Path::new(v), 1 << 20).map_err(|e| std::io::Error::other(e.message))?;
        Ok(serde_json::json!({ "script": source }))
    } else {
        Ok(bagsim::readings::json_value(v))
    }
}

/// `bagsim sweep SCENARIO --set …`: runs every point here (a study of one shard, merged at once), or with `--plan N`
/// writes the manifest of N shards.
/// `records` (`--jobs-csv STEM`) has each point's per-task records written to `STEM.point-K.jobs.csv`.
pub fn sweep(
    base: &Scenario,
    sets: &[String],
    out: &Path,
    jobs: Option<usize>,
    shards: Option<usize>,
    records: Option<&Path>,
) -> Outcome {
    check_output("--out", out)?;
    if let Some(stem) = records {
        if shards.is_some() {
            return Err("--jobs-csv with --plan: a plan runs nothing; give --jobs-csv STEM to each shard's run \
                        (bagsim sweep --manifest M --shard I --jobs-csv STEM)"
                .into());
        }
        check_output("--jobs-csv", stem)?;
    }
    let m = plan_with(base, axes(sets)?, shards.unwrap_or(1), &axis_value)?;
    if shards.is_some() {
        return write_manifest(&m, out);
    }
    let jobs = bagsim::parallel::threads(jobs);
    eprintln!("sweep: {} runs on {jobs} threads", m.points.len());
    let shard = m.run_shard(0, |idx| run_points(&m, idx, jobs, records))?;
    // A point that failed is a run that stopped (its reason is named); nothing is written.
    let (csv, json) = m.merge(&[Ok(Some(shard))]).map_err(|p| CliError::new(Failure::Run, p.to_string().trim_end()))?;
    write_outputs(out, &csv, &json)?;
    if let Some(stem) = records {
        say_records(stem, 0..m.points.len());
    }
    Ok(())
}

/// Says which jobs.csv files the points of `indices` wrote beside `stem`.
fn say_records(stem: &Path, indices: impl Iterator<Item = usize>) {
    let ks: Vec<usize> = indices.collect();
    let path = |k: &usize| bagsim::study::point_jobs_path(stem, *k);
    match ks.as_slice() {
        [] => {}
        [k] => say!("wrote {} (the per-task records of point {k})", path(k).display()),
        [a, .., b] => {
            say!("wrote {} jobs.csv files, one per point: {} … {}", ks.len(), path(a).display(), path(b).display())
        }
    }
}

/// A family's figure planned as a study: its manifest of `shards` shards, written as `write_manifest` does.
pub fn write_plan(p: bagsim::study::FigurePlan, family: Family, shards: usize, out: &Path) -> Outcome {
    let m = Manifest::new(p.kind, p.spec, family, p.axes, p.points, shards)?;
    write_manifest(&m, out)
}

/// Writes a planned study's manifest as STEM.manifest.json and says what to do next.
pub fn write_manifest(m: &Manifest, out: &Path) -> Outcome {
    let mut path = out.as_os_str().to_owned();
    path.push(".manifest.json");
    let path = PathBuf::from(path);
    write_atomic(&path, &serde_json::to_string_pretty(m).expect("json"))?;
    say!("planned {} runs in {} shards (study {}): wrote {}", m.points.len(), m.shards, m.study, path.display());
    say!("run a shard:   bagsim sweep --manifest {} --shard I   (I = 0 … {})", path.display(), m.shards - 1);
    say!("on Slurm:      bagsim slurm {}", path.display());
    say!("then:          bagsim merge {}", path.display());
    Ok(())
}

fn write_outputs(stem: &Path, csv: &str, json: &str) -> Outcome {
    // Every dot of the stem is kept: `--out run.1` writes run.1.csv, not run.csv.
    let (csv_path, json_path) = (with_suffix(stem, ".csv"), with_suffix(stem, ".json"));
    write_atomic(&csv_path, csv)?;
    write_atomic(&json_path, json)?;
    say!("wrote {} and {}", csv_path.display(), json_path.display());
    Ok(())
}

/// `stem` with `suffix` appended, whatever dots the stem holds.
pub fn with_suffix(stem: &Path, suffix: &str) -> PathBuf {
    let mut s = stem.as_os_str().to_owned();
    s.push(suffix);
    s.into()
}

fn read_manifest(path: &Path) -> Outcome<Manifest> {
    let text = read_text(path, MAX_STUDY_BYTES)?;
    Ok(Manifest::from_json(&text).map_err(|e| format!("{}: {e}", path.display()))?)
}

/// `--jobs-csv` is for a sweep's study: a figure's points are figure runs over many seeds, not one scenario each.
fn refuse_records_of_figures(m: &Manifest, manifest: &Path) -> Outcome {
    if Family::of_study(m.kind).is_some() {
        return Err(format!(
            "--jobs-csv: {} is a figure's study (kind {}), whose points are figure runs over many seeds, not one \
             scenario each; per-task records are written for a sweep's points (and one run's: bagsim run --jobs)",
            manifest.display(),
            serde_json::to_string(&m.kind).expect("a name")
        )
        .into());
    }
    Ok(())
}

/// `bagsim sweep --manifest M [--shard I]`: runs one shard and writes its outcome beside the manifest, failed
/// points included (then exits non-zero, so a job array marks the task failed); with `records` (`--jobs-csv
/// STEM`), each of its points' per-task records to `STEM.point-K.jobs.csv`.
pub fn shard(manifest: &Path, shard: Option<usize>, jobs: Option<usize>, records: Option<&Path>) -> Outcome {
    let m = read_manifest(manifest)?;
    if let Some(stem) = records {
        refuse_records_of_figures(&m, manifest)?;
        check_output("--jobs-csv", stem)?;
    }
    let i = match shard {
        Some(i) => i,
        None => {
            let v = std::env::var("SLURM_ARRAY_TASK_ID")
                .map_err(|_| "--shard: not given, and SLURM_ARRAY_TASK_ID is not set".to_string())?;
            v.trim().parse().map_err(|_| format!("SLURM_ARRAY_TASK_ID {v:?} is not a shard index"))?
        }
    };
    m.check_shard(i)?;
    check_output("--manifest", &shard_path(&stem_of(manifest), i))?;
    let jobs = bagsim::parallel::threads(jobs);
    let count = m.shard_points(i).count();
    eprintln!("shard {i} of study {}: {count} runs on {jobs} threads", m.study);
    let out = m.run_shard(i, |idx| run_points(&m, idx, jobs, records))?;
    let failed = out.points.iter().filter(|p| p.outcome.is_err()).count();
    let path = shard_path(&stem_of(manifest), i);
    write_atomic(&path, &serde_json::to_string(&out).expect("json"))?;
    say!("wrote {}", path.display());
    if let Some(stem) = records {
        say_records(stem, out.points.iter().filter(|p| p.outcome.is_ok()).map(|p| p.index));
    }
    if failed > 0 {
        let why = format!("shard {i}: {failed} of {count} runs failed (their reasons are in {})", path.display());
        return Err(CliError::new(Failure::Run, why));
    }
    Ok(())
}

/// `bagsim merge M`: the study's CSV and JSON, or the list of shards to run again.
pub fn merge(manifest: &Path, out: Option<&Path>) -> Outcome {
    let m = read_manifest(manifest)?;
    let stem = stem_of(manifest);
    check_output("--out", out.unwrap_or(&stem))?;
    let mut outputs: Vec<Result<Option<ShardOutput>, StudyError>> = Vec::with_capacity(m.shards);
    for i in 0..m.shards {
        let path = shard_path(&stem, i);
        if !path.exists() {
            outputs.push(Ok(None));
            continue;
        }
        let text = match read_text(&path, MAX_STUDY_BYTES) {
            Ok(text) => text,
            Err(e) => {
                outputs.push(Err(StudyError::File(e.message)));
                continue;
            }
        };
        // A shard written by another bagsim is refused (exit code 2), naming both versions: its rows may not be
        // the ones this bagsim computes, so it is run again rather than merged under this version's name.
        let what = format!("shard {i} ({})", path.display());
        let again =
            format!("run it again with this bagsim (bagsim sweep --manifest {} --shard {i})", manifest.display());
        bagsim::study::scripts::check_header(&text, &what, &again)?;
        let read = serde_json::from_str(&text).map(Some);
        outputs.push(read.map_err(|e| StudyError::File(format!("{}: {e}", path.display()))));
    }
    let out = out.unwrap_or(&stem);
    let merged = match Family::of_study(m.kind) {
        Some(family) => m.outcomes(&outputs).map(|o| {
            let mut cli = super::out::CliOut::new(out);
            // The points' labels are what a merge reads of them; the spec is made whole (its scripts put back).
            let spec = m.whole_spec().map_err(CliError::from)?;
            family.study_merge(m.kind, &mut cli, &spec, &m.points, &o).map_err(CliError::from)
        }),
        None => m.merge(&outputs).map(|(csv, json)| write_outputs(out, &csv, &json)),
    };

    match merged {
        Ok(written) => written,
        Err(p) => {
            let list: Vec<String> = p.shards().iter().map(|i| i.to_string()).collect();
            let why = format!(
                "{}: the study is not complete, nothing merged\n{}run them again: bagsim sweep --manifest {} --shard \
                 I, or on Slurm: sbatch --array={} {}.sbatch",
                manifest.display(),
                p,
                manifest.display(),
                list.join(","),
                stem.display()
            );
            Err(CliError::new(Failure::Incomplete, why))
        }
    }
}

/// What `bagsim slurm` puts in the job scripts.
pub struct SlurmOptions {
    pub time: String,
    pub cpus: usize,
    pub partition: Option<String>,
    pub extra: Vec<String>,
    pub bagsim: Option<PathBuf>,
    /// `--jobs-csv`: each shard writes its points' per-task records beside the study.
    pub jobs_csv: bool,
}

/// A word for a POSIX shell, in single quotes.
fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// `bagsim slurm M`: STEM.sbatch (the array, one shard per task), STEM.merge.sbatch and STEM.submit.sh.
pub fn slurm(manifest: &Path, o: &SlurmOptions) -> Outcome {
    let m = read_manifest(manifest)?;
    if o.cpus == 0 || o.cpus > 1024 {
        return Err(format!("--cpus {} is out of range; allowed 1–1024", o.cpus).into());
    }
    // Every field copied into a script is one word of plain characters: a line break would start a shell
    // command, a quote or a `$` would change one.
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_.:/=,+@%".contains(c);
    let options = [("--time", &o.time)].into_iter().chain(o.partition.iter().map(|p| ("--partition", p)));
    for (what, v) in options.chain(o.extra.iter().map(|e| ("--extra", e))) {
        if v.is_empty() || !v.chars().all(plain) {
            return Err(format!(
                "{what} {:?}: expected one word of letters, digits and - _ . : / = , + @ %",
                bagsim::study::short(v)
            )
            .into());
        }
    }
    for e in &o.extra {
        if !e.starts_with("--") {
            return Err(format!("--extra {e:?}: expected an sbatch option, e.g. --extra=--account=ABC").into());
        }
    }
    let manifest = std::fs::canonicalize(manifest).map_err(|e| CliError::file(manifest, &e))?;
    let stem = stem_of(&manifest);
    // The stem goes into #SBATCH lines, which Slurm reads without a shell: it must be plain too.
    let st = stem.to_string_lossy();
    if !st.chars().all(plain) {
        return Err(format!(
            "{}: the study's path holds a character an #SBATCH line cannot carry (a space, a quote, a line break…); \
             move the manifest to a plain path",
            manifest.display()
        )
        .into());
    }
    if !m.bagsim_version.chars().all(plain) {
        return Err(format!("{}: bagsim_version is not a version", manifest.display()).into());
    }
    check_output("the manifest's directory", &stem)?;
    if o.jobs_csv {
        refuse_records_of_figures(&m, &manifest)?;
    }
    let bagsim = match &o.bagsim {
        Some(p) => p.clone(),
        None => std::env::current_exe().map_err(|e| format!("where is this bagsim? {e}; give --bagsim"))?,
    };
    let (bagsim, man, st) =
        (quote(&bagsim.to_string_lossy()), quote(&manifest.to_string_lossy()), stem.to_string_lossy().to_string());
    // The shards' records: STEM.point-K.jobs.csv beside the study, K the point's index in the whole study.
    let records = if o.jobs_csv { format!(" --jobs-csv {}", quote(&st)) } else { String::new() };
    let mut common = String::new();
    if let Some(p) = &o.partition {
        common.push_str(&format!("#SBATCH --partition={p}\n"));
    }
    for e in &o.extra {
        common.push_str(&format!("#SBATCH {e}\n"));
    }
    let array = format!(
        "#!/bin/sh\n\
         # bagsim study {study}: {points} runs in {n} shards, one per array task (planned by bagsim {version}).\n\
         # Re-run one shard: sbatch --array=I {st}.sbatch\n\
         #SBATCH --job-name=bagsim-{study}\n\
         #SBATCH --array=0-{last}\n\
         #SBATCH --cpus-per-task={cpus}\n\
         #SBATCH --time={time}\n\
         #SBATCH --output={st}.shard-%a.log\n\
         {common}\
         exec {bagsim} sweep --manifest {man} --shard \"$SLURM_ARRAY_TASK_ID\" \
         --jobs \"${{SLURM_CPUS_PER_TASK:-1}}\"{records}\n",
        study = m.study,
        points = m.points.len(),
        n = m.shards,
        version = m.bagsim_version,
        last = m.shards - 1,
        cpus = o.cpus,
        time = o.time,
    );
    let merge = format!(
        "#!/bin/sh\n\
         # Merges bagsim study {study} into {st}.csv and {st}.json once every shard has succeeded.\n\
         #SBATCH --job-name=bagsim-{study}-merge\n\
         #SBATCH --cpus-per-task=1\n\
         #SBATCH --time={time}\n\
         #SBATCH --output={st}.merge.log\n\
         {common}\
         exec {bagsim} merge {man}\n",
        study = m.study,
        time = o.time,
    );
    let submit = format!(
        "#!/bin/sh\n\
         # Submits bagsim study {study}: the shards as a job array, the merge as a job that starts when every shard\n\
         # has succeeded (--dependency=afterok). If a shard fails, the merge never starts: `bagsim merge` names the\n\
         # shards to run again, `sbatch --array=I {st}.sbatch` re-runs them, and `bagsim merge` completes the study.\n\
         set -e\n\
         array=$(sbatch --parsable {arr})\n\
         array=${{array%%;*}}\n\
         merge=$(sbatch --parsable --dependency=afterok:\"$array\" {mrg})\n\
         merge=${{merge%%;*}}\n\
         echo \"shards: job $array (array 0-{last}); merge: job $merge, after every shard has succeeded\"\n\
         echo \"results: {st}.csv and {st}.json{rec}\"\n",
        study = m.study,
        arr = quote(&format!("{st}.sbatch")),
        mrg = quote(&format!("{st}.merge.sbatch")),
        last = m.shards - 1,
        rec = if o.jobs_csv { format!("; per-task records: {st}.point-K.jobs.csv") } else { String::new() },
    );
    for (suffix, text) in [(".sbatch", &array), (".merge.sbatch", &merge), (".submit.sh", &submit)] {
        let path = PathBuf::from(format!("{st}{suffix}"));
        write_atomic(&path, text)?;
        say!("wrote {}", path.display());
    }
    say!("submit: sh {}", quote(&format!("{st}.submit.sh")));
    Ok(())
}
