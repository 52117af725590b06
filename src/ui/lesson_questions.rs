//! A lesson's questions on the page (docs/lessons.md, "Questions"): each asks for a number, a choice or an order, and
//! is marked against the answer computed from the runs the class just made (`Lesson::check_answer`), never against
//! a number written in the file. A hint and "Show me" on demand. Every attempt is kept in the browser (local storage,
//! one list per lesson), so that a reload finds the progress; "Download my answers" writes them all as one file.

use crate::lessons::class::{AnswersFile, Attempt, VERSION};
use crate::lessons::questions::{Kind, Mark, Response};
use crate::lessons::{self, Lesson};
use gloo_storage::{LocalStorage, Storage};
use leptos::prelude::*;

/// The local-storage key of lesson `id`'s attempts.
fn key(id: &str) -> String {
    format!("bagsim-answers-{id}")
}

/// Lesson `id`'s attempts kept in this browser (none if there are none or they do not read).
pub fn attempts(id: &str) -> Vec<Attempt> {
    LocalStorage::get::<Vec<Attempt>>(key(id)).unwrap_or_default()
}

/// How many of the questions have been answered right at least once.
fn right_count(kept: &[Attempt], questions: usize) -> usize {
    (0..questions).filter(|&q| kept.iter().any(|a| a.question == q && a.mark == Mark::Right)).count()
}

/// Every lesson's attempts as the file "Download my answers" writes.
fn answers_file() -> AnswersFile {
    let lessons = lessons::all()
        .into_iter()
        .filter_map(Result::ok)
        .map(|l| (l.id.clone(), attempts(&l.id)))
        .filter(|(_, a)| !a.is_empty())
        .collect();
    AnswersFile { bagsim_answers: VERSION, lessons }
}

/// The questions of `lesson`, marked against `values` (every run's value in the order of `Lesson::runs`, once
/// all are in).
#[component]
pub fn Questions(lesson: Lesson, values: Signal<Option<Vec<f64>>>) -> impl IntoView {
    if lesson.questions.is_empty() {
        return None;
    }
    let kept = RwSignal::new(attempts(&lesson.id));
    let total = lesson.questions.len();
    let lesson = StoredValue::new(lesson);
    let progress = move || {
        let right = kept.with(|k| right_count(k, total));
        format!("Progress in this lesson: {right} of {total} questions answered right (kept in this browser).")
    };
    let download = move |_| {
        let text = serde_json::to_string_pretty(&answers_file()).unwrap_or_default();
        crate::ui::download::text("bagsim-answers.json", "application/json", &text);
    };
    let items =
        (0..total).map(|i| view! { <QuestionItem lesson=lesson index=i values=values kept=kept /> }).collect_view();
    Some(view! {
        <section class="lesson-questions" id="lesson-questions" aria-labelledby="lesson-questions-title">
            <h3 id="lesson-questions-title">"Questions"</h3>
            <ol>{items}</ol>
            <p id="lesson-progress" aria-live="polite">
                {progress}
            </p>
            <button class="small" id="lesson-answers-download" on:click=download>
                "Download my answers"
            </button>
        </section>
    })
}

/// One question: its prompt, the control its kind asks for, Check, Hint and Show me, and the last mark.
#[component]
fn QuestionItem(
    lesson: StoredValue<Lesson>,
    index: usize,
    values: Signal<Option<Vec<f64>>>,
    kept: RwSignal<Vec<Attempt>>,
) -> impl IntoView {
    let (prompt, hint, labels, kind) = lesson.with_value(|l| {
        let q = &l.questions[index];
        let labels: Vec<String> = l.variants.iter().map(|v| v.label.clone()).collect();
        (q.prompt.clone(), q.hint.clone(), labels, q.kind().ok().map(describe))
    });
    let Some(kind) = kind else { return view! { <li>{prompt}</li> }.into_any() };
    let id = format!("lesson-q{}", index + 1);
    let text = RwSignal::new(String::new());
    let order: RwSignal<Vec<String>> = RwSignal::new(labels.clone());
    let said = RwSignal::new(None::<(Mark, String)>);
    let show_hint = RwSignal::new(false);
    let shown_answer = RwSignal::new(None::<String>);
    let response = move || match kind {
        Shape::Number => text.with_untracked(|t| t.trim().parse::<f64>().ok()).map(Response::Number),
        Shape::Choice => Some(Response::Choice(text.get_untracked())).filter(|r| r != &Response::Choice(String::new())),
        Shape::Order => Some(Response::Order(order.get_untracked())),
    };
    let check = move |_| {
        let Some(v) = values.get_untracked() else {
            said.set(Some((Mark::NotResolved, "Run the experiment first: the answer comes from its runs.".into())));
            return;
        };
        let Some(given) = response() else {
            said.set(Some((Mark::Wrong, "Give an answer first (a number, or one of the choices).".into())));
            return;
        };
        match lesson.with_value(|l| l.check_answer(index, &v, &given)) {
            Ok(c) => {
                kept.update(|k| k.push(Attempt { question: index, response: given, mark: c.mark }));
                let id = lesson.with_value(|l| l.id.clone());
                let _ = LocalStorage::set(key(&id), kept.get_untracked());
                said.set(Some((c.mark, c.sentence)));
            }
            Err(e) => said.set(Some((Mark::NotResolved, e.to_string()))),
        }
    };
    let show_me = move |_| {
        let Some(v) = values.get_untracked() else {
            shown_answer.set(Some("Run the experiment first: the answer comes from its runs.".into()));
            return;
        };
        let words = lesson.with_value(|l| {
            let q = &l.questions[index];
            match l.answers(&v).into_iter().nth(index) {
                Some(Ok(a)) => format!("{} {}", q.answer_words(l, &a), a.explanation),
                Some(Err(e)) => e.to_string(),
                None => String::new(),
            }
        });
        shown_answer.set(Some(words));
    };
    let control = match kind {
        Shape::Number => view! {
            <input
                type="number"
                step="any"
                id=format!("{id}-answer")
                aria-label="your answer"
                prop:value=move || text.get()
                on:input=move |ev| text.set(event_target_value(&ev))
            />
        }
        .into_any(),
        Shape::Choice => {
            let options = labels.iter().map(|l| view! { <option value=l.clone()>{l.clone()}</option> }).collect_view();
            view! {
                <select
                    id=format!("{id}-answer")
                    aria-label="your answer"
                    on:change=move |ev| text.set(event_target_value(&ev))
                >
                    <option value="">"(choose)"</option>
                    {options}
                </select>
            }
            .into_any()
        }
        Shape::Order => view! { <OrderList id=format!("{id}-answer") order=order /> }.into_any(),
    };
    let mark_class = move || match said.get().map(|s| s.0) {
        Some(Mark::Right) => "question-mark right",
        Some(Mark::Wrong) => "question-mark wrong",
        _ => "question-mark",
    };
    view! {
        <li class="lesson-question" id=id.clone()>
            <p>{prompt}</p>
            {control}
            " "
            <button class="small" id=format!("{id}-check") on:click=check>
                "Check"
            </button>
            " "
            <button class="small" id=format!("{id}-hint") on:click=move |_| show_hint.set(true)>
                "Hint"
            </button>
            " "
            <button class="small" id=format!("{id}-show") on:click=show_me>
                "Show me"
            </button>
            <p class="help" id=format!("{id}-hint-text") hidden=move || !show_hint.get()>
                {hint}
            </p>
            <p class=mark_class id=format!("{id}-mark") role="status">
                {move || said.get().map(|(_, s)| s)}
            </p>
            <p class="help" id=format!("{id}-shown")>
                {move || shown_answer.get()}
            </p>
        </li>
    }
    .into_any()
}

/// The control a question's kind asks for.
#[derive(Clone, Copy)]
enum Shape {
    Number,
    Choice,
    Order,
}

fn describe(k: Kind<'_>) -> Shape {
    match k {
        Kind::Number { .. } => Shape::Number,
        Kind::Choice { .. } => Shape::Choice,
        Kind::Order(_) => Shape::Order,
    }
}

/// The variants in the student's order, each movable one place up.
#[component]
fn OrderList(id: String, order: RwSignal<Vec<String>>) -> impl IntoView {
    let row = move |i: usize| {
        let label = move || order.with(|o| o.get(i).cloned().unwrap_or_default());
        view! {
            <li>
                {label} " "
                <button
                    class="small"
                    disabled=move || i == 0
                    aria-label=move || format!("move {} up", label())
                    on:click=move |_| order.update(|o| o.swap(i - 1, i))
                >
                    "↑"
                </button>
            </li>
        }
    };
    let n = order.with_untracked(Vec::len);
    view! {
        <ol class="order-list" id=id>
            {(0..n).map(row).collect_view()}
        </ol>
    }
}
