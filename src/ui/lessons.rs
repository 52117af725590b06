//! "Lessons": the guided experiments of `lessons/` (docs/lessons.md). A lesson is a question, a prediction the
//! student writes (kept only in this browser), one click that runs the experiment in the page's workers, the answer
//! next to the prediction, and an explanation citing the paper. `?lesson=ID` opens one; the numbers are those of
//! `bagsim lesson ID`. `&step=K` opens it at its K-th part (1–5); in projector mode the arrow keys step through
//! the parts one at a time, and reaching the run runs it.

use crate::lessons::{self, Lesson};
use crate::stats::interval::Interval;
use crate::ui::lesson_stage::{Requested, Stage};
use crate::ui::pool::{Job, JobError, OnDone, Outcome, Pool};
use gloo_storage::{LocalStorage, Storage};
use leptos::prelude::*;
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// A lesson's parts (projector mode steps through them, so they are defined there).
use crate::ui::present::LESSON_PARTS as PARTS;

/// The part that runs the lesson: reaching it in projector mode, or a link to it or a later one, starts the runs.
const RUN_PART: usize = 2;

/// The intro's link to the lessons (index.html, `#to-lessons`): it builds them now if a first open holds them back
/// (`later.rs`), opens the section and brings it into view with the focus on its title; a plain `#lessons` link
/// would find the section closed, or not built yet.
pub fn wire_intro_link(reveal: crate::ui::lab::Reveal) {
    let Some(link) = document().get_element_by_id("to-lessons") else { return };
    let on_click = Closure::<dyn FnMut(web_sys::Event)>::new(move |e: web_sys::Event| {
        e.prevent_default();
        crate::ui::later::release(reveal);
        // The lessons come with the page's second module (`lazy.rs`): up to half a minute on a slow network.
        open_when_built(300);
    });
    let _ = link.add_event_listener_with_callback("click", on_click.as_ref().unchecked_ref());
    // One listener for the page's life.
    on_click.forget();
}

/// Opens the lessons and scrolls to them once they are in the page, looking every 100 ms at most `tries` times.
fn open_when_built(tries: u32) {
    let details =
        document().get_element_by_id("lessons").and_then(|e| e.dyn_into::<web_sys::HtmlDetailsElement>().ok());
    match details {
        Some(d) => {
            d.set_open(true);
            d.scroll_into_view();
            if let Some(s) =
                d.query_selector("summary").ok().flatten().and_then(|s| s.dyn_into::<web_sys::HtmlElement>().ok())
            {
                let _ = s.focus();
            }
        }
        None if tries > 0 => set_timeout(move || open_when_built(tries - 1), std::time::Duration::from_millis(100)),
        None => {}
    }
}

fn prediction_key(id: &str) -> String {
    format!("bagsim-lesson-{id}")
}

/// The Lessons section, in the page's second module (`lazy.rs`); `initial` is what the address asked for. In
/// projector mode with a lesson (the page's, seen through `stage`) it shows one part at a time, and the rest of the
/// page makes way (style: `html.lesson-present`).
#[component]
pub fn Lessons(initial: Option<Requested>, stage: Stage) -> impl IntoView {
    // The workers of the lesson's runs; disposed with the panel, which ends them.
    let pool = StoredValue::new_local(None::<Pool>);
    let all: Vec<Lesson> = lessons::all().into_iter().filter_map(Result::ok).collect();
    // A link's mistakes are said, never guessed around in silence.
    let mut link_errors = Vec::new();
    let (asked, link_part) = match initial {
        Some(r) => {
            let part = r.part.unwrap_or_else(|e| {
                link_errors.push(e.to_string());
                None
            });
            if let Err(e) = lessons::find(&r.id) {
                link_errors.push(format!("This link's lesson could not be opened: {e}."));
            }
            (Some(r.id), part)
        }
        None => (None, None),
    };
    let opened_by_link = asked.is_some();
    let first = asked.filter(|id| all.iter().any(|l| &l.id == id)).unwrap_or_else(|| all[0].id.clone());
    let chosen = RwSignal::new(first.clone());
    let prediction = RwSignal::new(String::new());
    let status = RwSignal::new(String::new());
    let running = RwSignal::new(false);
    // Per run (variant-major), its value once in.
    let values: RwSignal<Vec<Option<Result<f64, JobError>>>> = RwSignal::new(Vec::new());
    let lesson = move || lessons::find(&chosen.get()).ok();
    // The part projector mode shows, when it steps through this section's lesson.
    let shown_part = move || stage.lesson().map(|(_, part)| part);
    if stage.on_untracked() && opened_by_link {
        stage.set_lesson(Some((first, link_part.unwrap_or(0))));
    }
    Effect::new(move |before: Option<String>| {
        let id = chosen.get();
        prediction.set(LocalStorage::get::<String>(prediction_key(&id)).unwrap_or_default());
        // Another lesson starts afresh (at its question, in projector mode).
        if before.is_some() {
            values.set(Vec::new());
            status.set(String::new());
            pool.try_update_value(Option::take);
            running.set(false);
            if stage.has_lesson_untracked() {
                stage.set_lesson(Some((id.clone(), 0)));
            }
        }
        id
    });
    let run = move || {
        let Ok(l) = lessons::find(&chosen.get_untracked()) else { return };
        let runs = match l.runs() {
            Ok(r) => r,
            Err(e) => return status.set(e.to_string()),
        };
        let n = runs.len();
        let jobs: Vec<Job> = runs.into_iter().map(|(_, _, s)| Job::Run(Box::new(s))).collect();
        values.set(vec![None; n]);
        let l = Rc::new(l);
        let on_done: OnDone = Rc::new(move |i, outcome| {
            let v = match outcome {
                Outcome::Finished(r) => l.value(&r).map_err(|e| JobError::Failed(e.to_string())),
                Outcome::Figure(_) => Err(JobError::Unexpected("a run gave a figure job's result")),
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
                set_timeout(move || drop(pool.try_update_value(Option::take)), std::time::Duration::ZERO);
            } else {
                status.set(format!("{done} of {n} runs in…"));
            }
        });
        match Pool::start(jobs, on_done) {
            Ok(p) => {
                pool.set_value(Some(p));
                running.set(true);
                status.set(format!("0 of {n} runs in…"));
            }
            Err(e) => status.set(e.to_string()),
        }
    };
    // Reaching the run (stepping in projector mode, or a link to it or to a later part) runs the lesson once.
    Effect::new(move |_| {
        let part = shown_part().or(link_part.filter(|_| opened_by_link));
        if part.is_some_and(|p| p >= RUN_PART) && values.with_untracked(Vec::is_empty) && !running.get_untracked() {
            run();
        }
    });
    // The section is open when a link asks for a lesson or projector mode steps through one; a link's part is
    // brought into view.
    let details = NodeRef::<leptos::html::Details>::new();
    Effect::new(move |_| {
        let presenting = shown_part().is_some();
        if let Some(d) = details.get() {
            if presenting || opened_by_link {
                d.set_open(true);
            }
            if presenting || link_part.is_some() {
                let part = shown_part().or(link_part).unwrap_or(0);
                let target = if presenting { "lessons" } else { PARTS[part].0 };
                set_timeout(
                    move || {
                        if let Some(e) =
                            web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id(target))
                        {
                            e.scroll_into_view();
                        }
                    },
                    std::time::Duration::ZERO,
                );
            }
        }
    });
    let part_class = move |i: usize| {
        move || match shown_part() {
            Some(p) if p == i => "current",
            None if link_part == Some(i) => "current",
            _ => "",
        }
    };
    // The answer once every run is in: per variant its label and interval, and the claim's verdict; or the first
    // failure.
    let answer = move || -> Option<Result<Answer, JobError>> {
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
            let rows = l.variants.iter().map(|v| v.label.clone()).zip(l.intervals(&nums)).collect();
            Some(Ok((rows, l.verdict(&nums).sentence())))
        })
    };
    // Every run's value once all are in and none failed: what the questions are marked against.
    let numbers = Signal::derive(move || {
        values.with(|v| {
            if v.is_empty() {
                return None;
            }
            v.iter().map(|x| x.as_ref().and_then(|r| r.as_ref().ok()).copied()).collect::<Option<Vec<f64>>>()
        })
    });
    let after_the_run = move || {
        values.with(|v| {
            let done = v.iter().filter(|x| x.is_some()).count();
            if v.is_empty() {
                "after the run".to_string()
            } else {
                format!("after the run ({done} of {} runs in)", v.len())
            }
        })
    };
    view! {
        <section aria-label="Lessons">
            <details class="lessons" id="lessons" node_ref=details>
                <summary>
                    <h2 class="lessons-title">"Lessons: guided experiments for a class"</h2>
                </summary>
                {link_errors
                    .into_iter()
                    .map(|e| {
                        view! {
                            <p class="field-error" role="alert">
                                {e}
                            </p>
                        }
                    })
                    .collect_view()}
                <div class="paper-bar">
                    <label>
                        "Lesson "
                        <select
                            id="lesson"
                            disabled=move || running.get()
                            on:change=move |ev| chosen.set(event_target_value(&ev))
                        >
                            {all
                                .iter()
                                .map(|l| {
                                    let id = l.id.clone();
                                    let selected = move || chosen.get() == id;
                                    view! {
                                        <option value=l.id.clone() selected=selected>
                                            {l.title.clone()}
                                        </option>
                                    }
                                })
                                .collect_view()}
                        </select>
                    </label>
                    <button
                        id="lesson-present"
                        hidden=move || shown_part().is_some()
                        title="Projector mode, one part of the lesson at a time (the ← → keys step through them)"
                        on:click=move |_| {
                            stage.set_projector(true);
                            stage.set_lesson(Some((chosen.get_untracked(), 0)));
                        }
                    >
                        "Present this lesson"
                    </button>
                </div>
                <LessonStepper stage=stage />
                {move || {
                    lesson()
                        .map(|l| {
                            let mine = l.clone();
                            view! {
                                <ol class="lesson-steps">
                                    <li id=PARTS[0].0 class=part_class(0)>
                                        <strong>"Question. "</strong>
                                        <span id="lesson-question">{l.question.clone()}</span>
                                    </li>
                                    <li id=PARTS[1].0 class=part_class(1)>
                                        <label for="lesson-prediction">
                                            <strong>"Your prediction. "</strong>
                                            {l.predict.clone()}
                                        </label>
                                        <textarea
                                            id="lesson-prediction"
                                            rows="2"
                                            prop:value=move || prediction.get()
                                            on:input=move |ev| {
                                                let text = event_target_value(&ev);
                                                let _ = LocalStorage::set(
                                                    prediction_key(&chosen.get_untracked()),
                                                    &text,
                                                );
                                                prediction.set(text);
                                            }
                                        ></textarea>
                                    </li>
                                    <li id=PARTS[2].0 class=part_class(2)>
                                        <strong>"Run the experiment. "</strong>
                                        {format!(
                                            "{} variants × {} seeds; the answer is the mean over the seeds, with its \
                                                95% interval.",
                                            l.variants.len(),
                                            l.seeds,
                                        )}
                                        " "
                                        <button
                                            id="lesson-run"
                                            class="primary"
                                            disabled=move || running.get()
                                            on:click=move |_| run()
                                        >
                                            "Run"
                                        </button>
                                        " "
                                        <span id="lesson-status" aria-live="polite">
                                            {move || status.get()}
                                        </span>
                                    </li>
                                    <li id=PARTS[3].0 class=part_class(3)>
                                        <strong>"The answer. "</strong>
                                        {move || match answer() {
                                            None => view! { <span>{after_the_run()}</span> }.into_any(),
                                            Some(Err(e)) => {
                                                view! {
                                                    <span class="field-error">{format!("a run failed: {e}")}</span>
                                                }
                                                    .into_any()
                                            }
                                            Some(Ok((rows, verdict))) => {
                                                view! {
                                                    <table class="readings-table" id="lesson-answer">
                                                        <thead>
                                                            <tr>
                                                                <th scope="col">"Variant"</th>
                                                                <th scope="col">{l.metric_label.clone()}</th>
                                                                <th scope="col">"95% interval"</th>
                                                            </tr>
                                                        </thead>
                                                        <tbody>
                                                            {rows
                                                                .into_iter()
                                                                .map(|(label, i)| {
                                                                    view! {
                                                                        <tr data-value=i.mean.to_string()>
                                                                            <td>{label}</td>
                                                                            <td>{crate::lessons::readable(i.mean)}</td>
                                                                            <td>{interval_cell(&i)}</td>
                                                                        </tr>
                                                                    }
                                                                })
                                                                .collect_view()}
                                                        </tbody>
                                                    </table>
                                                    <p id="lesson-verdict">{verdict}</p>
                                                }
                                                    .into_any()
                                            }
                                        }}
                                        <p>
                                            "Your prediction: "
                                            <em id="lesson-your-prediction">
                                                {move || {
                                                    let p = prediction.get();
                                                    if p.trim().is_empty() { "(none written)".to_string() } else { p }
                                                }}
                                            </em>
                                        </p>
                                    </li>
                                    <li id=PARTS[4].0 class=part_class(4)>
                                        <strong>"Why. "</strong>
                                        {
                                            let why = l.explanation.clone();
                                            move || match answer() {
                                                Some(Ok(_)) => {
                                                    view! { <span id="lesson-explanation">{why.clone()}</span> }
                                                        .into_any()
                                                }
                                                _ => view! { <span>{after_the_run()}</span> }.into_any(),
                                            }
                                        }
                                    </li>
                                </ol>
                                <super::lesson_questions::Questions lesson=mine.clone() values=numbers />
                                <super::gantt::LessonStory lesson=mine.clone() />
                                {mine
                                    .your_own
                                    .clone()
                                    .map(|key| {
                                        let l = mine.clone();
                                        view! {
                                            <p class="lesson-your-own">
                                                <button
                                                    id="lesson-your-own"
                                                    class="primary"
                                                    on:click=move |_| write_your_own(stage, &l)
                                                >
                                                    "Write your own policy"
                                                </button>
                                                {format!(
                                                    " opens this scenario in the lab with its {key} written as a \
                                                        script, starting from the first variant's policy; Run, Pin, \
                                                        and compare it with the answers above.",
                                                )}
                                            </p>
                                        }
                                    })}
                                <p class="help">
                                    "The same numbers: " <code>{format!("bagsim lesson {}", l.id)}</code>
                                    ". A link to this lesson: " <code>{format!("?lesson={}", l.id)}</code>
                                    "; at its third part: " <code>{format!("?lesson={}&step=3", l.id)}</code>
                                    "; in projector mode: " <code>{format!("?present=1&lesson={}", l.id)}</code> "."
                                </p>
                            }
                        })
                }}
                <super::teacher::TeacherView />
            </details>
        </section>
    }
}

/// "Write your own policy": the lesson's scenario in the lab, its `your_own` key a script from the family's first
/// example, and the script's box brought into view.
fn write_your_own(stage: Stage, l: &Lesson) {
    let Some(key) = l.your_own.as_deref() else { return };
    let Ok(family) = l.scenario(0, 1).map(|s| s.family()) else { return };
    let Some((example, box_id)) = super::families::your_own_box(family, key) else { return };
    match l.your_own_scenario(example) {
        Some(Ok(s)) => stage.open(&s, box_id),
        Some(Err(e)) => stage.refuse(e.to_string()),
        None => {}
    }
}

/// Previous / next part and where the class is, when projector mode steps through a lesson.
#[component]
fn LessonStepper(stage: Stage) -> impl IntoView {
    let part = move || stage.lesson().map_or(0, |(_, p)| p);
    view! {
        <nav class="stepper lesson-stepper" aria-label="lesson parts" hidden=move || stage.lesson().is_none()>
            <button id="lesson-prev" disabled=move || part() == 0 on:click=move |_| stage.step(-1)>
                "◀ Previous"
            </button>
            <span id="lesson-position" aria-live="polite">
                {move || format!("Part {} of {}: {}", part() + 1, PARTS.len(), PARTS[part()].1)}
            </span>
            <button id="lesson-next" disabled=move || part() + 1 == PARTS.len() on:click=move |_| stage.step(1)>
                "Next ▶"
            </button>
            <span class="hint">"(or the ← → keys)"</span>
            <button id="lesson-leave" on:click=move |_| stage.set_projector(false)>
                "Leave projector mode"
            </button>
        </nav>
    }
}

/// The interval's range for a table cell: `1200 – 1600`, or "—" from one seed.
fn interval_cell(i: &Interval) -> String {
    if i.has_bounds() {
        format!("{} – {}", crate::lessons::readable(i.low), crate::lessons::readable(i.high))
    } else {
        "— (one seed)".into()
    }
}

/// A lesson's answer: per variant its label and interval, and the claim's verdict.
type Answer = (Vec<(String, Interval)>, String);
