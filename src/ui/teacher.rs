//! The teacher's view (docs/lessons.md, "Teacher's view"), under the lessons in the page's second module: the class's
//! answer files (each the `bagsim-answers.json` of one student, renamed to the student's name), dropped or picked
//! many at once, summed up per lesson by `lessons::class` — a table of every student's final mark per question with
//! the attempts, and the question most missed. A file that does not read is listed with why, and takes nothing away
//! from the class already loaded; a file named like a student already loaded replaces that student's answers.

use crate::lessons::class::{self, AnswersFile, Cell, LessonSummary, ReadError};
use crate::lessons::questions::Mark;
use crate::lessons::{self, Lesson};
use leptos::prelude::*;

/// The students loaded, each with their answers.
type Class = Vec<(String, AnswersFile)>;

/// What the last files given said: the ones that did not read (file name, why) and notes on the ones that did.
#[derive(Clone, Default)]
struct Said {
    errors: Vec<(String, ReadError)>,
    notes: Vec<String>,
}

/// Reads the files dropped or picked into the class; what they say replaces what the files before said.
fn take_files(
    files: web_sys::FileList,
    lessons: StoredValue<Vec<Lesson>>,
    students: RwSignal<Class>,
    said: RwSignal<Said>,
) {
    said.set(Said::default());
    for i in 0..files.length() {
        let Some(file) = files.get(i) else { continue };
        let file_name = file.name();
        if file.size() > class::MAX_BYTES {
            said.update(|s| s.errors.push((file_name, ReadError::TooLarge(file.size()))));
            continue;
        }
        let file = gloo_file::File::from(file);
        leptos::task::spawn_local(async move {
            let read = match gloo_file::futures::read_as_text(&file).await {
                Ok(text) => lessons.with_value(|l| class::read(&text, l)),
                Err(e) => Err(ReadError::Unreadable(e.to_string())),
            };
            let answers = match read {
                Ok(a) => a,
                Err(e) => return said.update(|s| s.errors.push((file_name, e))),
            };
            let name = class::student_name(&file_name);
            let mut replaced = false;
            students.update(|c| replaced = class::add(c, name.clone(), answers));
            said.update(|s| {
                if class::not_renamed(&file_name) {
                    s.notes.push(format!(
                        "{file_name} still has the name the page gives it: it is shown as the student \"{name}\"; \
                         ask its student to rename it to their own name."
                    ));
                }
                if replaced {
                    s.notes.push(format!("{file_name} replaced the answers of \"{name}\" loaded before."));
                }
            });
        });
    }
}

/// The teacher's view: the drop zone and file input, Clear, what the files said, and a table per lesson.
#[component]
pub fn TeacherView() -> impl IntoView {
    let lessons = StoredValue::new(lessons::all().into_iter().filter_map(Result::ok).collect::<Vec<Lesson>>());
    let students: RwSignal<Class> = RwSignal::new(Vec::new());
    let said = RwSignal::new(Said::default());
    let drop = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        if let Some(files) = ev.data_transfer().and_then(|d| d.files()) {
            take_files(files, lessons, students, said);
        }
    };
    let count = move || match students.with(Vec::len) {
        0 => "No student's file loaded yet.".to_string(),
        1 => "1 student loaded.".to_string(),
        n => format!("{n} students loaded."),
    };
    let tables = move || {
        let summaries = students.with(|c| lessons.with_value(|l| class::summary(c, l)));
        summaries.into_iter().map(lesson_table).collect_view()
    };
    view! {
        <details class="teacher" id="teacher">
            <summary>
                <h3 class="teacher-title">"Teacher's view: the class's answer files"</h3>
            </summary>
            <p class="help">
                "Each student clicks “Download my answers” under a lesson's questions and renames the file \
                    bagsim-answers.json to their own name (alice.json): the file's name, without .json, is the \
                    student's name here. Drop all the files here at once, or pick them; more files add students, \
                    and a file named like a student already loaded replaces that student's answers. The files are \
                    read in this browser; nothing is uploaded."
            </p>
            <div
                class="trace-drop teacher-drop"
                id="teacher-drop"
                on:dragover=|ev: web_sys::DragEvent| ev.prevent_default()
                on:drop=drop
            >
                <label for="teacher-files">"Students' answer files (.json)"</label>
                <input
                    type="file"
                    id="teacher-files"
                    multiple
                    accept=".json,application/json"
                    on:change=move |ev| {
                        let input = event_target::<web_sys::HtmlInputElement>(&ev);
                        if let Some(files) = input.files() {
                            take_files(files, lessons, students, said);
                        }
                        input.set_value("");
                    }
                />
                <span class="hint">"or drop them here"</span>
                <button
                    class="small"
                    id="teacher-clear"
                    disabled=move || {
                        students.with(Vec::is_empty) && said.with(|s| s.errors.is_empty() && s.notes.is_empty())
                    }
                    on:click=move |_| {
                        students.set(Vec::new());
                        said.set(Said::default());
                    }
                >
                    "Clear"
                </button>
            </div>
            <p id="teacher-count" aria-live="polite">
                {count}
            </p>
            <ul class="teacher-errors" id="teacher-errors" aria-live="polite">
                {move || {
                    said.get()
                        .errors
                        .into_iter()
                        .map(|(name, e)| {
                            view! {
                                <li class="field-error" data-file=name.clone()>
                                    {format!("{name}: {e}; not loaded.")}
                                </li>
                            }
                        })
                        .collect_view()
                }}
            </ul>
            <ul class="help teacher-notes" id="teacher-notes">
                {move || said.get().notes.into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}
            </ul>
            {tables}
        </details>
    }
}

/// A lesson's class table, its most missed question and its questions in full.
fn lesson_table(s: LessonSummary) -> impl IntoView {
    let n = s.prompts.len();
    let missed = s.missed_sentence();
    let heads = s
        .prompts
        .iter()
        .enumerate()
        .map(|(i, p)| {
            view! {
                <th scope="col" title=p.clone()>
                    {format!("Q{}", i + 1)}
                </th>
            }
        })
        .collect_view();
    let rows = s
        .rows
        .into_iter()
        .map(|r| {
            let cells = r.cells.iter().map(cell).collect_view();
            view! {
                <tr data-student=r.student.clone()>
                    <th scope="row">{r.student.clone()}</th>
                    {cells}
                    <td class="teacher-right" data-right=r.right.to_string()>
                        {format!("{} of {n}", r.right)}
                    </td>
                </tr>
            }
        })
        .collect_view();
    let prompts = s.prompts.into_iter().map(|p| view! { <li>{p}</li> }).collect_view();
    view! {
        <section class="teacher-lesson" aria-label=format!("The class on {}", s.title)>
            <div class="tournament-wrap">
                <table class="readings-table teacher-table" id=format!("teacher-table-{}", s.id)>
                    <caption>{format!("{} (final mark per question, and the attempts)", s.title)}</caption>
                    <thead>
                        <tr>
                            <th scope="col">"Student"</th>
                            {heads}
                            <th scope="col" title="the questions whose final mark is right">
                                "Right"
                            </th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
            <p class="teacher-missed" id=format!("teacher-missed-{}", s.id)>
                {missed}
            </p>
            <ol class="help teacher-prompts" aria-label="the questions">
                {prompts}
            </ol>
        </section>
    }
}

/// A student's final mark at one question, with the number of attempts.
fn cell(c: &Cell) -> impl IntoView {
    // The class (for the colour) and the mark as the answer file writes it (for whoever reads the table).
    let (class, mark) = match c.last {
        Some(Mark::Right) => ("right", "right"),
        Some(Mark::Wrong) => ("wrong", "wrong"),
        Some(Mark::NotResolved) => ("open", "not_resolved"),
        None => ("untried", "none"),
    };
    let attempts = match c.attempts {
        0 => String::new(),
        1 => "1 attempt".into(),
        k => format!("{k} attempts"),
    };
    view! {
        <td class=class data-mark=mark data-attempts=c.attempts.to_string()>
            {c.word()}
            <span class="attempts">{attempts}</span>
        </td>
    }
}
