//! The workload commands of `bagsim` that print what they read or generate: `trace` (import a log, extract its
//! BoTs, fit the model, print or write JSON), the workload views of `generate --views`, and `generate`'s SWF.

use super::error::Outcome;
use bagsim::run;
use bagsim::scenario::Scenario;
use std::io::Write;

/// println! that stops quietly when stdout is closed (e.g. `bagsim trace … | head`).
macro_rules! say {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stdout(), "{}", bagsim::family::contract::tidy_line(&format!($($arg)*)));
    }};
}

fn thousands(n: u64) -> String {
    bagsim::family::contract::group_digits(&n.to_string())
}

/// `bagsim trace`: import, extract the BoTs, fit, print; JSON with --out.
pub fn trace(
    file: &std::path::Path,
    format: Option<bagsim::trace::Format>,
    rule: &bagsim::trace::bots::BotRule,
    out: Option<&std::path::Path>,
    with_views: bool,
    with_candidates: bool,
) -> Outcome {
    use bagsim::trace::{bots, import_path, ImportError};
    use bagsim::workload::fit::notation;
    use bagsim::workload::fit_workload::{candidates_table, fit_workload_with_candidates};
    rule.validate().map_err(|e| format!("--{e}"))?;
    let t = import_path(file, format).map_err(|e| match &e {
        ImportError::NoJobs(r) => {
            let mut m = format!("{}: {e}", file.display());
            for s in r.first_skips.iter().skip(1).take(9) {
                m.push_str(&format!("\n  {s}"));
            }
            m
        }
        _ => format!("{}: {e}", file.display()),
    })?;
    let r = &t.report;
    say!(
        "trace {}: {}, {}, {} bytes{}",
        file.display(),
        r.format.name(),
        if r.gzip { "gzip" } else { "plain text" },
        thousands(r.input_bytes),
        if r.gzip { format!(" ({} bytes of text)", thousands(r.text_bytes)) } else { String::new() }
    );
    if r.format == bagsim::trace::Format::Batsim {
        say!(
            "jobs: {} entries of \"jobs\" read = {} jobs kept + {} skipped",
            thousands(r.lines),
            thousands(r.jobs),
            thousands(r.skipped)
        );
    } else {
        say!(
            "lines: {} read = {} jobs kept + {} skipped + {} comment or blank{}",
            thousands(r.lines),
            thousands(r.jobs),
            thousands(r.skipped),
            thousands(r.comments),
            if r.extra_columns > 0 {
                format!("; {} lines had extra columns (ignored)", thousands(r.extra_columns))
            } else {
                String::new()
            }
        );
    }
    if r.header_dropped > 0 {
        say!(
            "header fields: {} kept, {} more read and not kept (an import keeps the first {} KiB of header)",
            thousands(r.header.len() as u64),
            thousands(r.header_dropped),
            bagsim::trace::MAX_HEADER_BYTES >> 10
        );
    } else {
        say!("header fields: {}", r.header.len());
    }
    for (k, v) in &r.header {
        say!("  {k}: {v}");
    }
    if r.skipped > 0 {
        say!("skipped lines by reason:");
        for (kind, n) in &r.by_reason {
            say!("  {:<24} {:>9}", kind, thousands(*n));
        }
        let listed = r.first_skips.len() as u64;
        say!("skipped lines{}:", if listed < r.skipped { format!(" (first {listed})") } else { String::new() });
        for s in &r.first_skips {
            say!("  {s}");
        }
    }
    let e = bots::extract(&t, rule).map_err(|e| e.to_string())?;
    let b = &e.report;
    say!("");
    say!("BoTs ([Minh10] §II-C): Δ = {} s from the previous job of the BoT, {}", rule.delta, rule.key.describe());
    say!("  time of day: {}", b.time_origin.note);
    say!("  {} jobs → {} BoTs by the Δ rule", thousands(b.jobs), thousands(b.groups));
    say!("  jobs of several processors: {} — {}", thousands(b.parallel_jobs), b.multi_proc_note);
    if rule.multi_proc == bots::MultiProc::Reject && b.rejected_jobs > 0 {
        say!("  (--split-parallel turns each of them into sequential tasks)");
    }
    if b.raised_runtimes > 0 {
        say!("  {} jobs ran less than 1 s: their tasks last 1 s", thousands(b.raised_runtimes));
    }
    say!(
        "  workload: {} BoTs, {} tasks, {} users; arrivals {:.0} … {:.0} s ({:.1} days); largest BoT submission \
         spread {:.0} s",
        thousands(b.bots),
        thousands(b.tasks),
        thousands(b.users),
        b.first_arrival,
        b.last_arrival,
        (b.last_arrival - b.first_arrival) / 86_400.0,
        b.max_spread
    );
    say!("  {:<10} {:>9}", "size", "BoTs");
    for c in &b.size_classes {
        say!("  {:<10} {:>9}", c.class, thousands(c.bots));
    }
    const SHOWN_USERS: usize = 20;
    say!("users (ranked by BoTs): {}", e.users.len());
    say!("  {:>5} {:>12} {:>9} {:>9} {:>9}", "rank", "trace user", "BoTs", "jobs", "tasks");
    for u in e.users.iter().take(SHOWN_USERS) {
        say!("  {:>5} {:>12} {:>9} {:>9} {:>9}", u.id + 1, u.name, u.bots, u.jobs, u.tasks);
    }
    if e.users.len() > SHOWN_USERS {
        say!("  … and {} more (all in --out)", e.users.len() - SHOWN_USERS);
    }
    let fit = if e.workload.bots.is_empty() {
        Err("no BoT to fit".to_string())
    } else {
        fit_workload_with_candidates(&e.workload).map_err(|e| e.to_string())
    };
    let (fit, candidates) = match fit {
        Ok((m, c)) => (Ok(m), Some(c)),
        Err(e) => (Err(e), None),
    };
    say!("fit (Table-3-like row, [Iosup08] §3.1; runtimes in seconds):");
    match &fit {
        Ok(m) => {
            say!("  {:<12} {:<28} KS D", "", "distribution");
            say!("  {:<12} {:<28} {:.3}", "users", m.users.notation(), m.users.ks);
            for (name, f) in [
                ("log2 IAT", &m.iat),
                ("daily cycle", &m.daily_cycle),
                ("log2 size", &m.size),
                ("log2 ART", &m.art),
                ("log2 RTV", &m.rtv),
            ] {
                say!("  {:<12} {:<28} {:.3}", name, notation(&f.dist), f.ks);
            }
        }
        Err(m) => say!("  not possible: {m}"),
    }
    if let (true, Some(c)) = (with_candidates, &candidates) {
        say!("every candidate (* the row's; KS D against the data):");
        say!("{}", candidates_table(c).trim_end());
    }
    let views = if with_views {
        let v = bagsim::workload::views::views(&e.workload).map_err(|e| e.to_string())?;
        let j = t.burstiness().map_err(|e| e.to_string())?;
        say!("");
        print_views(&v, Some(&j));
        let mut json = serde_json::to_value(&v).expect("serializable");
        json["trace_jobs"] = serde_json::to_value(&j).expect("serializable");
        Some(json)
    } else {
        None
    };
    if let Some(out) = out {
        let skipped = serde_json::json!({
            "total": r.skipped,
            "by_reason": r.by_reason,
            "first": r.first_skips.iter().map(|s| {
                let mut v = serde_json::to_value(s).expect("serializable");
                v["message"] = s.to_string().into();
                v
            }).collect::<Vec<_>>(),
        });
        let jobs = serde_json::json!({
            "file": file.display().to_string(),
            "format": r.format,
            "gzip": r.gzip,
            "input_bytes": r.input_bytes,
            "text_bytes": r.text_bytes,
            "lines": r.lines,
            "comments": r.comments,
            "kept": r.jobs,
            "skipped": r.skipped,
            "extra_columns": r.extra_columns,
            "header": r.header.iter().map(|(k, v)| serde_json::json!({ "key": k, "value": v })).collect::<Vec<_>>(),
            "header_dropped": r.header_dropped,
        });
        let fit = match &fit {
            Ok(m) => {
                let mut v = serde_json::to_value(m).expect("serializable");
                v["row"] = serde_json::json!({
                    "users": m.users.notation(),
                    "iat": notation(&m.iat.dist),
                    "daily_cycle": notation(&m.daily_cycle.dist),
                    "size": notation(&m.size.dist),
                    "art": notation(&m.art.dist),
                    "rtv": notation(&m.rtv.dist),
                });
                v
            }
            Err(m) => serde_json::json!({ "error": m }),
        };
        let mut doc = serde_json::json!({ "jobs": jobs, "skipped": skipped, "bots": b, "users": e.users, "fit": fit });
        if let Some(v) = views {
            doc["views"] = v;
        }
        if let Some(c) = &candidates {
            doc["candidates"] = serde_json::to_value(c).expect("serializable");
        }
        without_negative_zero(&mut doc);
        let text = serde_json::to_string_pretty(&doc).expect("serializable");
        std::fs::write(out, text).map_err(|err| format!("{}: {err}", out.display()))?;
        say!("report written to {}", out.display());
    }
    Ok(())
}

/// Every −0 of a JSON document as 0: a sign on a zero says nothing, and a reader takes "-0.0" for a bug.
fn without_negative_zero(v: &mut serde_json::Value) {
    use serde_json::Value;
    match v {
        Value::Number(n) if n.as_f64().is_some_and(|x| x == 0.0 && x.is_sign_negative()) && !n.is_i64() => {
            *v = serde_json::json!(0.0);
        }
        Value::Array(a) => a.iter_mut().for_each(without_negative_zero),
        Value::Object(o) => o.values_mut().for_each(without_negative_zero),
        _ => {}
    }
}

/// A day and time of day from seconds after time 0: "day 3 06:30".
fn day_time(t: f64) -> String {
    let (day, s) = ((t / 86_400.0).floor(), t.rem_euclid(86_400.0));
    format!("day {day:.0} {:02}:{:02}", (s / 3_600.0) as u32, ((s % 3_600.0) / 60.0) as u32)
}

/// A duration as the largest unit that divides it: "15 min", "6 h", "2 days".
fn duration(s: f64) -> String {
    if s >= 86_400.0 && s % 86_400.0 == 0.0 {
        let d = s / 86_400.0;
        format!("{d:.0} day{}", if d == 1.0 { "" } else { "s" })
    } else if s >= 3_600.0 && s % 3_600.0 == 0.0 {
        format!("{:.0} h", s / 3_600.0)
    } else if s % 60.0 == 0.0 {
        format!("{:.0} min", s / 60.0)
    } else {
        format!("{s} s")
    }
}

/// One character per value, ▁ (least) … █ (most), blank for zero.
fn sparkline(values: &[u64]) -> String {
    const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    let max = values.iter().copied().max().unwrap_or(0).max(1);
    values.iter().map(|&v| if v == 0 { ' ' } else { BARS[((v - 1) * 8 / max) as usize] }).collect()
}

/// The readable summary of `--views`; `jobs`: a trace's own jobs.
fn print_views(
    v: &bagsim::workload::views::WorkloadViews,
    jobs: Option<&bagsim::workload::burstiness::JobsBurstiness>,
) {
    use bagsim::workload::burstiness::scale_label;
    let ne = |x: Option<f64>| x.map_or("—".to_string(), |x| format!("{x:.3}"));
    say!(
        "views (docs/workload-views.md): {} BoTs, {} tasks, last arrival {} (day 0 starts at time 0)",
        thousands(v.bots),
        thousands(v.tasks),
        day_time(v.last_arrival)
    );
    say!("  burstiness: normalized entropy, [Minh10] Eq. 4 (1 = none, 0 = extreme; — = undefined, N = 1);");
    say!("  Poisson: the value expected of as many arrivals from a homogeneous Poisson process");
    let row = |name: &str, cells: Vec<String>| {
        say!("    {:<14}{}", name, cells.iter().map(|c| format!("{c:>9}")).collect::<String>());
    };
    row("T", v.burstiness.iter().map(|b| scale_label(b.interval)).collect());
    row("N intervals", v.burstiness.iter().map(|b| b.tasks.intervals.to_string()).collect());
    row("tasks", v.burstiness.iter().map(|b| ne(b.tasks.entropy)).collect());
    row("  Poisson", v.burstiness.iter().map(|b| ne(b.tasks.poisson)).collect());
    row("BoTs", v.burstiness.iter().map(|b| ne(b.bots.entropy)).collect());
    row("  Poisson", v.burstiness.iter().map(|b| ne(b.bots.poisson)).collect());
    if let Some(j) = jobs {
        row("trace jobs", j.temporal.iter().map(|t| ne(t.entropy)).collect());
        row("  Poisson", j.temporal.iter().map(|t| ne(t.poisson)).collect());
    }
    let spatial = |s: &bagsim::workload::burstiness::Spatial| match s.entropy {
        Some(x) => format!("{x:.3} (N = {} processors, {} widths used)", s.max_processors, s.widths),
        None if s.max_processors == 0 => "— (no job)".to_string(),
        None => format!("— (N = {}: every job on one processor)", s.max_processors),
    };
    say!("  spatial burstiness: tasks {}", spatial(&v.spatial));
    if let Some(j) = jobs {
        say!("  spatial burstiness: trace jobs {}", spatial(&j.spatial));
    }
    let a = &v.arrivals;
    if let Some((k, &n)) = a.tasks.iter().enumerate().max_by_key(|&(k, &n)| (n, std::cmp::Reverse(k))) {
        say!(
            "  arrivals: {} bins of {}; busiest: {} tasks ({} BoTs) from {}",
            a.tasks.len(),
            duration(a.width),
            thousands(n),
            thousands(a.bots[k]),
            day_time(k as f64 * a.width)
        );
        say!("    tasks |{}|", sparkline(&a.tasks));
    }
    say!("  tasks per 30-min slot of the day, 00:00 … 24:00: |{}|", sparkline(&v.daily.tasks));
    say!("  BoTs per 30-min slot of the day, 00:00 … 24:00:  |{}|", sparkline(&v.daily.bots));
    let sizes: Vec<String> = v
        .sizes
        .iter()
        .map(|b| {
            if b.low == b.high {
                format!("{}: {}", b.low, b.bots)
            } else {
                format!("{}–{}: {}", b.low, b.high, b.bots)
            }
        })
        .collect();
    say!("  BoT sizes (log2 bins): {}", sizes.join(", "));
    if !v.runtime_cdf.is_empty() {
        let q = |f: f64| v.runtime_cdf.iter().find(|p| p.fraction >= f - 1e-12).map_or(f64::NAN, |p| p.runtime);
        say!(
            "  task runtime [s]: min {:.0}, p10 {:.0}, p25 {:.0}, p50 {:.0}, p75 {:.0}, p90 {:.0}, p99 {:.0}, max \
             {:.0}",
            v.runtime_cdf[0].runtime,
            q(0.1),
            q(0.25),
            q(0.5),
            q(0.75),
            q(0.9),
            q(0.99),
            q(1.0)
        );
    }
    let u = &v.users;
    let top: Vec<String> = u
        .ranks
        .iter()
        .take(5)
        .map(|r| match r.zipf {
            Some(z) => format!("{:.1}% ({:.1}%)", 100.0 * r.share, 100.0 * z),
            None => format!("{:.1}%", 100.0 * r.share),
        })
        .collect();
    match (&u.fit, &u.fit_error) {
        (Some(f), _) => say!(
            "  users: {}, fit {} (KS {:.3}); BoT share of ranks 1–{}: {} (fitted in parentheses)",
            u.users,
            f.notation(),
            f.ks,
            top.len(),
            top.join(", ")
        ),
        (None, e) => say!("  users: {}; no Zipf fit: {}", u.users, e.as_deref().unwrap_or("")),
    }
}

/// SWF v2.2: one line per task; the BoT is the executable (field 14, from 1), as in `bagsim run --swf`.
fn write_swf(o: &mut impl Write, s: &Scenario, p: &run::Prepared) -> std::io::Result<()> {
    let w = &p.generated.workload;
    let m = s.as_multi_cluster().map_err(|e| std::io::Error::other(e.to_string()))?;
    writeln!(o, "; Version: 2.2")?;
    let model = match &m.workload.generator {
        Some(g) => format!("generator {}", g.name()),
        None => format!("preset {:?}", m.workload.preset),
    };
    writeln!(o, "; Computer: bagsim synthetic workload, {model}, seed {}", m.seed)?;
    writeln!(
        o,
        "; Note: one job per task, runtimes on the reference processor; field 14 (executable) = BoT index + 1"
    )?;
    writeln!(o, "; MaxJobs: {}", w.tasks())?;
    writeln!(o, "; MaxProcs: {}", p.clusters.iter().map(|c| u64::from(c.processors)).sum::<u64>())?;
    let target = m.workload.load.map_or("none".to_string(), |l| l.to_string());
    writeln!(o, "; TargetLoad: {target}  AchievedLoad: {:.6}", p.generated.achieved_load)?;
    let mut job = 1u64;
    for (b, bot) in w.bots.iter().enumerate() {
        for r in w.bot_runtimes(b) {
            // job submit wait run procs cpu mem req_procs req_time req_mem status user group exe queue partition prec
            // think
            writeln!(
                o,
                "{job} {:.0} -1 {:.0} 1 -1 -1 1 -1 -1 1 {} -1 {} -1 -1 -1 -1",
                bot.arrival,
                r,
                bot.user + 1,
                b + 1
            )?;
            job += 1;
        }
    }
    Ok(())
}

/// What `bagsim generate` writes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Written {
    Swf,
    /// bagsim's workload JSON.
    Json,
    /// Batsim's JSON workload (`trace::batsim::write_workload`).
    Batsim,
}

/// `bagsim generate`: the scenario's workload as SWF, JSON or a Batsim workload, or with `views` its workload views
/// (text, or JSON).
pub fn generate(s: &Scenario, written: Written, views: bool) -> Outcome {
    let p = run::prepare(s.as_multi_cluster().map_err(|e| e.to_string())?).map_err(|e| e.to_string())?;
    let json = written == Written::Json;
    if views && written == Written::Batsim {
        return Err("--views prints text, or JSON with --format json; not a Batsim workload".into());
    }
    if views {
        let v = bagsim::workload::views::views(&p.generated.workload).map_err(|e| e.to_string())?;
        if json {
            say!("{}", serde_json::to_string(&v).expect("serializable"));
        } else {
            print_views(&v, None);
        }
        return Ok(());
    }
    let stdout = std::io::stdout();
    let mut o = std::io::BufWriter::new(stdout.lock());
    let written = match written {
        Written::Json => serde_json::to_writer(&mut o, &p.generated.workload)
            .map_err(std::io::Error::from)
            .and_then(|()| writeln!(o)),
        Written::Swf => write_swf(&mut o, s, &p),
        Written::Batsim => {
            let nb_res = p.clusters.iter().map(|c| u64::from(c.processors)).sum::<u64>();
            let what =
                format!("bagsim workload, seed {}; one job per task, delays on the reference processor", s.seed());
            bagsim::trace::batsim::write_workload(&mut o, &p.generated.workload, nb_res, &what)
        }
    };
    match written.and_then(|()| o.flush()) {
        // A closed pipe (`bagsim generate … | head`) is not an error.
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(super::error::CliError::new(super::error::Failure::File, e.to_string()))
        }
        _ => Ok(()),
    }
}
