//! "Lessons": the guided experiments of `lessons/` (docs/lessons.md). A lesson is a question, a prediction the
//! student writes (kept only in this browser), one click that runs the experiment in the page's workers, the answer
//! next to the prediction, and an explanation citing the paper. `?lesson=ID` opens one; the numbers are those of
//! `bagsim lesson ID`.

use crate::lessons::{self, Lesson};
use crate::ui::pool::{Job, OnDone, Outcome, Pool};
use gloo_storage::{LocalStorage, Storage};
use leptos::prelude::*;
use std::cell::RefCell;
use std::rc::Rc;

thread_local! {
    static POOL: RefCell<Option<Pool>> = const { RefCell::new(None) };
}

/// The lesson asked for by the address (`?lesson=ID`), read once when the page opens.
pub fn requested() -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    web_sys::UrlSearchParams::new_with_str(&search).ok()?.get("lesson")
}

fn prediction_key(id: &str) -> String {
    format!("bagsim-lesson-{id}")
}

/// A number for a class: three significant digits, no exponent for everyday sizes.
fn readable(x: f64) -> String {
    if !x.is_finite() {
        return "—".into();
    }
    let a = x.abs();
    if a == 0.0 {
        "0".into()
    } else if a >= 100.0 {
        format!("{x:.0}")
    } else if a >= 1.0 {
        format!("{x:.2}")
    } else {
        format!("{x:.3}")
    }
}

/// The Lessons section; `initial` is the lesson the address asked for.
#[component]
pub fn Lessons(initial: Option<String>) -> impl IntoView {
    let all: Vec<Lesson> = lessons::all().into_iter().filter_map(Result::ok).collect();
    let first = initial.clone().filter(|id| all.iter().any(|l| &l.id == id)).unwrap_or_else(|| all[0].id.clone());
    let chosen = RwSignal::new(first);
    let prediction = RwSignal::new(String::new());
    let status = RwSignal::new(String::new());
    let running = RwSignal::new(false);
    // Per run (variant-major), its value once in.
    let values: RwSignal<Vec<Option<Result<f64, String>>>> = RwSignal::new(Vec::new());
    let lesson = move || lessons::find(&chosen.get()).ok();
    Effect::new(move |_| {
        let id = chosen.get();
        prediction.set(LocalStorage::get::<String>(prediction_key(&id)).unwrap_or_default());
        values.set(Vec::new());
        status.set(String::new());
        POOL.with(|p| p.borrow_mut().take());
        running.set(false);
    });
    let run = move |_| {
        let Ok(l) = lessons::find(&chosen.get_untracked()) else { return };
        let runs = match l.runs() {
            Ok(r) => r,
            Err(e) => return status.set(e),
        };
        let n = runs.len();
        let jobs: Vec<Job> = runs.into_iter().map(|(_, _, s)| Job::Run(Box::new(s))).collect();
        values.set(vec![None; n]);
        let l = Rc::new(l);
        let on_done: OnDone = Rc::new(move |i, outcome| {
            let v = match outcome {
                Outcome::Finished(r) => l.value(&r),
                Outcome::Figure(_) => Err("a run gave a figure job's result".into()),
                Outcome::Failed(m) => Err(m),
            };
            values.update(|all| {
                if let Some(slot) = all.get_mut(i) {
                    *slot = Some(v);
                }
            });
            let done = values.with_untracked(|all| all.iter().filter(|x| x.is_some()).count());
            if done == n {
                running.set(false);
                status.set(format!("finished: {n} runs"));
                // Called from a worker's own message handler: end the workers after it returns.
                set_timeout(move || drop(POOL.with(|p| p.borrow_mut().take())), std::time::Duration::ZERO);
            } else {
                status.set(format!("{done} of {n} runs in…"));
            }
        });
        match Pool::start(jobs, on_done) {
            Ok(pool) => {
                POOL.with(|p| *p.borrow_mut() = Some(pool));
                running.set(true);
                status.set(format!("0 of {n} runs in…"));
            }
            Err(e) => status.set(e),
        }
    };
    // The answer per variant once every run is in: (label, mean), or the first failure.
    let answer = move || -> Option<Result<Vec<(String, f64)>, String>> {
        let l = lesson()?;
        values.with(|v| {
            if v.is_empty() || v.iter().any(Option::is_none) {
                return None;
            }
            let mut nums = Vec::new();
            for x in v.iter().flatten() {
                match x {
                    Ok(x) => nums.push(*x),
                    Err(e) => return Some(Err(e.clone())),
                }
            }
            Some(Ok(l.variants.iter().map(|v| v.label.clone()).zip(l.means(&nums)).collect()))
        })
    };
    view! {
        <section aria-label="Lessons">
        <details class="lessons" id="lessons" open=initial.is_some()>
            <summary><h2 class="lessons-title">"Lessons: guided experiments for a class"</h2></summary>
            <div class="paper-bar">
                <label>"Lesson "
                    <select id="lesson" disabled=move || running.get() on:change=move |ev| chosen.set(event_target_value(&ev))>
                        {all.iter().map(|l| {
                            let id = l.id.clone();
                            let selected = move || chosen.get() == id;
                            view! { <option value=l.id.clone() selected=selected>{l.title.clone()}</option> }
                        }).collect_view()}
                    </select>
                </label>
            </div>
            {move || lesson().map(|l| view! {
                <ol class="lesson-steps">
                    <li><strong>"Question. "</strong><span id="lesson-question">{l.question.clone()}</span></li>
                    <li>
                        <label for="lesson-prediction"><strong>"Your prediction. "</strong>{l.predict.clone()}</label>
                        <textarea id="lesson-prediction" rows="2" prop:value=move || prediction.get()
                            on:input=move |ev| {
                                let text = event_target_value(&ev);
                                // Kept only in this browser; private browsing may refuse, which loses nothing else.
                                let _ = LocalStorage::set(prediction_key(&chosen.get_untracked()), &text);
                                prediction.set(text);
                            }></textarea>
                    </li>
                    <li>
                        <strong>"Run the experiment. "</strong>
                        {format!("{} variants × {} seed(s); the answer is the mean over the seeds.", l.variants.len(), l.seeds)}
                        " "<button id="lesson-run" class="primary" disabled=move || running.get() on:click=run>"Run"</button>
                        " "<span id="lesson-status" aria-live="polite">{move || status.get()}</span>
                    </li>
                    <li><strong>"The answer. "</strong>
                        {move || match answer() {
                            None => view! { <span>"after the run"</span> }.into_any(),
                            Some(Err(e)) => view! { <span class="field-error">{format!("a run failed: {e}")}</span> }.into_any(),
                            Some(Ok(rows)) => view! {
                                <table class="readings-table" id="lesson-answer">
                                    <thead><tr><th scope="col">"Variant"</th><th scope="col">{l.metric_label.clone()}</th></tr></thead>
                                    <tbody>{rows.into_iter().map(|(label, mean)| view! {
                                        <tr data-value=mean.to_string()><td>{label}</td><td>{readable(mean)}</td></tr>
                                    }).collect_view()}</tbody>
                                </table>
                                <p>"Your prediction: " <em>{move || { let p = prediction.get(); if p.trim().is_empty() { "(none written)".to_string() } else { p } }}</em></p>
                                <p id="lesson-explanation"><strong>"Why. "</strong>{l.explanation.clone()}</p>
                            }.into_any(),
                        }}
                    </li>
                </ol>
                <p class="help">"The same numbers: " <code>{format!("bagsim lesson {}", l.id)}</code>
                    ". A link to this lesson: " <code>{format!("?lesson={}", l.id)}</code> "."</p>
            })}
        </details>
        </section>
    }
}
