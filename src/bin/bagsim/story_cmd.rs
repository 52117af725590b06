//! `bagsim story S.json TASK`: the story of one task of a run (docs/story.md) — its arrival, the decisions about
//! it, who started while it waited and why, its executions, and its per-task record — as the page's Gantt view
//! tells it on a click; `--tape F.json` writes the run's whole tape.

use super::error::{CliError, Failure, Outcome};
use super::study;
use bagsim::family::contract::{tape_of, TapeError};
use bagsim::registry;
use bagsim::stats::csv_number;
use std::io::Write;
use std::path::{Path, PathBuf};

/// println! that stops quietly when stdout is closed.
macro_rules! say {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stdout(), "{}", format!($($arg)*));
    }};
}

/// A story's lines, each at its time (every digit, as the records write it).
pub fn print_lines(st: &bagsim::story::Story) {
    for l in &st.lines {
        match l.at {
            Some(at) => say!("  t = {:>12} s  {}", csv_number(at), l.text),
            None => say!("  {}", l.text),
        }
    }
}

/// Runs `scenario` recording its tape and tells task `task`'s story; writes the tape to `tape` when given.
pub fn story(scenario: &Path, task: u32, seed: Option<u64>, tape: Option<PathBuf>) -> Outcome {
    if let Some(p) = &tape {
        super::out::check_output("--tape", p)?;
    }
    let mut s = study::load_scenario(scenario)?;
    if let Some(seed) = seed {
        s.set_seed(seed);
    }
    let mut run = registry::AnyRun::build(&s, None).map_err(|e| e.to_string())?;
    let t = tape_of(&mut run).map_err(|e| match e {
        TapeError::Run(e) => CliError::new(Failure::Run, format!("{}: {e}", scenario.display())),
        e => CliError::from(format!("{}: {e}", scenario.display())),
    })?;
    let Some(st) = bagsim::story::story(&t, task) else {
        let cut = if t.cut { format!(" (the tape stops at t = {} s)", csv_number(t.end)) } else { String::new() };
        return Err(format!("task {task}: the tape has tasks 0 to {}{cut}", t.tasks.len().saturating_sub(1)).into());
    };
    if t.cut {
        say!(
            "The run is longer than a tape holds: the tape stops at t = {} s, once {} tasks had arrived.",
            csv_number(t.end),
            t.tasks.len()
        );
    }
    say!("{}", st.title);
    print_lines(&st);
    if st.record.is_empty() {
        say!("No per-task record: the task did not complete before the run ended.");
    } else {
        let cols: Vec<String> = st.record.iter().map(|(k, v)| format!("{k}={v}")).collect();
        say!("Its row of `bagsim run --jobs`: {}", cols.join(", "));
    }
    if let Some(p) = tape {
        let json = serde_json::to_string(&t).map_err(|e| e.to_string())?;
        std::fs::write(&p, json).map_err(|e| format!("--tape {}: {e}", p.display()))?;
        say!("Wrote {}: the run's tape ({} executions of {} tasks).", p.display(), t.bars.len(), t.tasks.len());
    }
    Ok(())
}
