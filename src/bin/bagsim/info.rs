//! The commands of `bagsim` that print what it knows rather than simulate: a family's default scenario and its keys
//! (`scenario [--doc]`), the readings of a paper (`readings`), and the lessons (`lesson [ID]`, which runs one).

use super::error::Outcome;
use bagsim::lessons::{LessonError, Resolution};
use bagsim::registry;
use bagsim::registry::Family;
use bagsim::scenario::Scenario;
use std::io::Write;

/// println! that stops quietly when stdout is closed (e.g. `bagsim scenario --doc | head`).
macro_rules! say {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stdout(), "{}", bagsim::family::contract::tidy_line(&format!($($arg)*)));
    }};
}

/// `bagsim scenario`: the default scenario of `family` as JSON (with `generator`, a multi-cluster workload
/// generator by name), or with `doc` each of its keys.
pub fn scenario(family: Family, doc: bool, generator: Option<&str>) -> Outcome {
    if doc {
        let params = bagsim::scenario::params(family);
        let width = params.iter().map(|p| p.path.chars().count()).max().unwrap_or(0);
        say!("{:<width$} {:<6} {:<50} meaning", "parameter", "unit", "allowed");
        for p in params {
            say!("{:<width$} {:<6} {:<50} {}", p.path, p.unit, p.allowed, p.meaning);
        }
        return Ok(());
    }
    let mut s = Scenario::default_for(family);
    if s.family() != Family::MultiCluster && generator.is_some() {
        return Err("--workload applies to multi_cluster scenarios only".into());
    }
    if let Some(m) = s.multi_cluster_mut() {
        m.workload.generator = generator
            .map(|name| bagsim::workload::generators::Generator::default_named(name).expect("a known generator"));
    }
    say!("{}", serde_json::to_string_pretty(&s).expect("serializable"));
    Ok(())
}

/// `bagsim readings --family F`: each key, its values (the default first) and the sentence it rests on.
pub fn readings(family: Family) -> Outcome {
    for r in registry::readings(family) {
        say!("{}: {} (default {})", r.key, r.names().join(", "), r.values[0].0);
        say!("    rests on: {}", r.rests_on);
    }
    Ok(())
}

/// `bagsim lesson [ID] [--seeds N]`: without an id the list; with one, its runs on `jobs` threads (with the lesson's
/// seeds or `seeds`), its answer per variant with 95% intervals, and whether the lesson's claim holds on them.
pub fn lesson(id: Option<&str>, seeds: Option<u32>, jobs: usize) -> Outcome {
    let Some(id) = id else {
        for l in bagsim::lessons::all() {
            match l {
                Ok(l) => say!("{:<20} {}", l.id, l.title),
                Err(e) => say!("(bad lesson) {e}"),
            }
        }
        return Ok(());
    };
    let mut lesson = bagsim::lessons::find(id)?;
    if let Some(n) = seeds {
        if !(1..=30).contains(&n) {
            return Err(format!("--seeds {n} is out of range; allowed 1–30").into());
        }
        lesson.seeds = n;
    }
    let runs = lesson.runs()?;
    let values = bagsim::parallel::map(&runs, jobs, |_, (_, _, s)| {
        registry::run_any(s).map_err(LessonError::Run).and_then(|r| lesson.value(&r))
    })
    .into_iter()
    .collect::<Result<Vec<f64>, LessonError>>()?;
    say!("{}\n\n{}\n\n{} ({} seed(s) each):", lesson.title, lesson.question, lesson.metric_label, lesson.seeds);
    for (v, i) in lesson.intervals(&values).iter().enumerate() {
        say!("  {:<40} {}", lesson.variants[v].label, bagsim::lessons::interval_text(i));
    }
    say!("\n{}\n\n{}", lesson.verdict(&values).sentence(), lesson.explanation);
    questions(&lesson, &values)?;
    story(&lesson)
}

/// The story of the task the lesson picks (docs/story.md), as the page tells it under the lesson.
fn story(lesson: &bagsim::lessons::Lesson) -> Outcome {
    let (Some(pick), Some(scenario)) = (&lesson.story, lesson.story_scenario()) else { return Ok(()) };
    let mut run = registry::AnyRun::build(&scenario?, None).map_err(|e| e.to_string())?;
    let tape = bagsim::family::contract::tape_of(&mut run).map_err(|e| format!("the lesson's story: {e}"))?;
    let Some(story) = pick.task(&tape).and_then(|t| bagsim::story::story(&tape, t)) else {
        say!("\nNo task of {} (seed 1) started: no story to tell.", pick.variant);
        return Ok(());
    };
    say!("\nThe story of the task that waited longest under {} (seed 1): {}", pick.variant, story.title);
    super::story_cmd::print_lines(&story);
    say!("Look for: {}", pick.look_for);
    Ok(())
}

/// The lesson's questions with their answers computed from `values` (a teacher's terminal: no need to hide them).
fn questions(lesson: &bagsim::lessons::Lesson, values: &[f64]) -> Outcome {
    if lesson.questions.is_empty() {
        return Ok(());
    }
    say!("\nQuestions (answers from these runs):");
    for (i, (q, answer)) in lesson.questions.iter().zip(lesson.answers(values)).enumerate() {
        let answer = answer.map_err(|e| format!("question {}: {e}", i + 1))?;
        say!("\n{}. {}\n   hint: {}", i + 1, q.prompt, q.hint);
        say!("   answer: {}\n   {}", q.answer_words(lesson, &answer), answer.explanation);
        if let Resolution::NotResolved(why) = &answer.resolution {
            say!("   not resolved: {why}; more seeds might tell.");
        }
    }
    Ok(())
}
