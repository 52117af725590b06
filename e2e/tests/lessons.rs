//! A lesson on the built page (dist/) in headless Chromium: opened by its link, a prediction written, run in the
//! page's workers, its answer equals `bagsim lesson` (the same library code run natively) and its explanation shows;
//! the prediction stays after a reload; axe-core finds no violation with the lesson open.
//!
//! In projector mode the arrow keys step through a lesson's parts one at a time, the run part runs it, and a link
//! opens a lesson at a given part.
//!
//! Run with scripts/test-browser.sh (it builds the page first). One browser per test; `--test-threads=1`.

use std::time::Duration;

use bagsim::lessons;
use bagsim::registry::run_any;
use e2e::fantoccini::actions::{InputSource, KeyAction, KeyActions};
use e2e::fantoccini::key::Key;
use e2e::fantoccini::Client;
use e2e::*;
use serde_json::{json, Value};

/// The answer of lesson `id` per variant, as `bagsim lesson ID` computes it (the same library code, natively).
fn native_answer(id: &str) -> Vec<f64> {
    lessons::find(id).unwrap().means(&native_values(id))
}

/// Every run's number of lesson `id`, natively.
fn native_values(id: &str) -> Vec<f64> {
    let lesson = lessons::find(id).unwrap();
    lesson.runs().unwrap().iter().map(|(_, _, s)| lesson.value(&run_any(s).unwrap()).unwrap()).collect()
}

/// The answer the page shows, per variant (the rows' `data-value`).
async fn page_answer(client: &Client) -> Vec<f64> {
    let rows = js(
        client,
        "return [...document.querySelectorAll('#lesson-answer tbody tr')].map(r => r.dataset.value);",
        vec![],
    )
    .await;
    rows.as_array().unwrap().iter().map(|v| v.as_str().unwrap().parse::<f64>().unwrap()).collect()
}

fn assert_same(page: &[f64], native: &[f64]) {
    println!("lesson answer: page {page:?}, native {native:?}");
    assert_eq!(page.len(), native.len());
    for (p, n) in page.iter().zip(native) {
        assert!(p.to_bits() == n.to_bits(), "page {p} vs native {n}");
    }
}

async fn wait_lesson_finished(client: &Client) {
    wait_for(client, Duration::from_secs(120), "#lesson-status finished", || async {
        let s = text(client, "#lesson-status").await.unwrap_or_default();
        s.starts_with("finished").then_some(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lesson_runs_from_question_to_explanation_with_the_native_numbers() {
    let native = native_answer("load");
    with_browser(|client, base| async move {
        let url = format!("{base}?lesson=load");
        open_ready(&client, &url).await;
        let question = text(&client, "#lesson-question").await.unwrap_or_default();
        assert!(question.contains("mean wait"), "the lesson's question is not shown: {question:?}");
        set_control(&client, "#lesson-prediction", "it doubles at each step").await;
        click(&client, "#lesson-run").await;
        wait_lesson_finished(&client).await;
        assert_same(&page_answer(&client).await, &native);
        // The claim's verdict on the intervals, as `bagsim lesson load` prints it.
        let verdict = lessons::find("load").unwrap().verdict(&native_values("load")).sentence();
        assert!(verdict.starts_with("The claim holds"), "{verdict}");
        assert_eq!(text(&client, "#lesson-verdict").await.as_deref(), Some(verdict.as_str()));
        let why = text(&client, "#lesson-explanation").await.unwrap_or_default();
        assert!(why.contains("load / (1 − load)"), "no explanation: {why:?}");
        let violations = axe_violations(&client, "with a lesson open").await;
        assert!(violations.is_empty(), "axe-core with a lesson open:\n  {}", violations.join("\n  "));
        js(&client, "document.querySelector('#lessons').scrollIntoView(); return true;", vec![]).await;
        println!("screenshot: {}", screenshot(&client, "lesson.png").await.display());
        // The prediction is kept in this browser.
        open_ready(&client, &url).await;
        let kept = prop(&client, "#lesson-prediction", "value").await;
        assert_eq!(kept, serde_json::json!("it doubles at each step"));
    })
    .await;
}

/// A lesson's question marks a student's answers against the runs just made: a wrong number is marked wrong, the
/// hint shows, the number `bagsim lesson load` computes is marked right; the progress is kept over a reload and is in
/// the file "Download my answers" writes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_question_is_marked_against_the_runs_and_the_progress_is_kept() {
    let lesson = lessons::find("load").unwrap();
    let values = native_values("load");
    let answer = lesson.answers(&values).remove(1).unwrap();
    let Some(lessons::questions::Response::Number(right)) = answer.correct else { panic!("{answer:?}") };
    with_browser(|client, base| async move {
        let url = format!("{base}?lesson=load");
        open_ready(&client, &url).await;
        wait_for(&client, Duration::from_secs(60), "#lesson-q2-answer", || async {
            exists(&client, "#lesson-q2-answer").await.then_some(())
        })
        .await;
        click(&client, "#lesson-run").await;
        wait_lesson_finished(&client).await;
        set_control(&client, "#lesson-q2-answer", &format!("{}", right * 3.0)).await;
        click(&client, "#lesson-q2-check").await;
        let mark = text(&client, "#lesson-q2-mark").await.unwrap_or_default();
        assert!(mark.starts_with("Wrong"), "three times the answer is not marked wrong: {mark:?}");
        click(&client, "#lesson-q2-hint").await;
        let hint_hidden = js(&client, "return document.querySelector('#lesson-q2-hint-text').hidden;", vec![]).await;
        assert_eq!(hint_hidden, json!(false), "the hint is not shown");
        set_control(&client, "#lesson-q2-answer", &format!("{right}")).await;
        click(&client, "#lesson-q2-check").await;
        let mark = text(&client, "#lesson-q2-mark").await.unwrap_or_default();
        assert!(mark.starts_with("Right"), "bagsim lesson's answer {right} is not marked right: {mark:?}");
        let progress = text(&client, "#lesson-progress").await.unwrap_or_default();
        assert!(progress.contains("1 of 2"), "progress after one right answer: {progress:?}");
        js(&client, "document.querySelector('#lesson-questions').scrollIntoView(); return true;", vec![]).await;
        println!("screenshot: {}", screenshot(&client, "lesson-questions.png").await.display());
        let violations = axe_violations(&client, "with a lesson's questions answered").await;
        assert!(violations.is_empty(), "axe-core with questions answered:\n  {}", violations.join("\n  "));
        // A reload finds the progress, and the file of answers holds both attempts.
        open_ready(&client, &url).await;
        wait_for(&client, Duration::from_secs(60), "#lesson-progress", || async {
            text(&client, "#lesson-progress").await.filter(|p| p.contains("1 of 2"))
        })
        .await;
        capture_downloads(&client).await;
        click(&client, "#lesson-answers-download").await;
        let (name, text) = captured_download(&client, 1, Duration::from_secs(10)).await;
        assert_eq!(name, "bagsim-answers.json");
        let file: serde_json::Value = serde_json::from_str(&text).unwrap();
        let load = file["lessons"].as_array().unwrap().iter().find(|l| l[0] == "load").expect("no lesson load");
        let marks: Vec<&str> = load[1].as_array().unwrap().iter().map(|a| a["mark"].as_str().unwrap()).collect();
        assert_eq!(marks, ["wrong", "right"], "{file}");
        the_teachers_view_reads_the_file(&client, &text).await;
    })
    .await;
}

/// Gives the teacher's view `files` (name, text): picked in its file input, or dropped on its drop zone.
async fn give_teacher(client: &Client, files: &[(&str, &str)], drop: bool) {
    let script = "const dt = new DataTransfer();
        for (const [name, text] of arguments[0]) dt.items.add(new File([text], name, {type: 'application/json'}));
        document.querySelector('#teacher').open = true;
        if (arguments[1]) {
            document.querySelector('#teacher-drop').dispatchEvent(
                new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));
        } else {
            const input = document.querySelector('#teacher-files');
            input.files = dt.files;
            input.dispatchEvent(new Event('change', {bubbles: true}));
        }
        return true;";
    js(client, script, vec![json!(files), json!(drop)]).await;
}

/// A student's row in lesson load's class table: per question (mark, attempts), and the right count.
async fn teacher_row(client: &Client, student: &str) -> Value {
    let script = "const r = document.querySelector(`#teacher-table-load tr[data-student='${arguments[0]}']`);
        return r && [[...r.querySelectorAll('td[data-mark]')].map(td => [td.dataset.mark, +td.dataset.attempts]),
                     +r.querySelector('td[data-right]').dataset.right];";
    js(client, script, vec![json!(student)]).await
}

/// The teacher's view reads the student's file (as alice.json, picked), then a second student's (bob: the wrong
/// attempt only) and a broken file dropped together: the class table shows both students' final marks and
/// attempts, the most missed question is named, the broken file is listed and takes nothing away.
async fn the_teachers_view_reads_the_file(client: &Client, alice: &str) {
    let mut bob: Value = serde_json::from_str(alice).unwrap();
    for l in bob["lessons"].as_array_mut().unwrap() {
        l[1].as_array_mut().unwrap().retain(|a| a["mark"] != "right");
    }
    let bob = bob.to_string();
    give_teacher(client, &[("alice.json", alice)], false).await;
    wait_for(client, Duration::from_secs(10), "alice in the class table", || async {
        teacher_row(client, "alice").await.as_array().map(|_| ())
    })
    .await;
    give_teacher(client, &[("bob.json", &bob), ("broken.json", "{\"bagsim_answers\": 1, \"lessons\": [")], true).await;
    wait_for(client, Duration::from_secs(10), "bob and the broken file", || async {
        let errors = text(client, "#teacher-errors").await.unwrap_or_default();
        (teacher_row(client, "bob").await.is_array() && !errors.is_empty()).then_some(())
    })
    .await;
    assert_eq!(teacher_row(client, "alice").await, json!([[["none", 0], ["right", 2]], 1]), "alice's row");
    assert_eq!(teacher_row(client, "bob").await, json!([[["none", 0], ["wrong", 1]], 0]), "bob's row");
    let missed = text(client, "#teacher-missed-load").await.unwrap_or_default();
    assert!(
        missed.starts_with("Most missed: Q2 (“")
            && missed.ends_with("1 of the 2 students who tried it never answered it right."),
        "{missed:?}"
    );
    let errors = text(client, "#teacher-errors").await.unwrap_or_default();
    assert!(errors.contains("broken.json: not JSON"), "the broken file is not listed: {errors:?}");
    assert_eq!(text(client, "#teacher-count").await.as_deref(), Some("2 students loaded."));
    let violations = axe_violations(client, "with the teacher's view of two students").await;
    assert!(violations.is_empty(), "axe-core with the teacher's view:\n  {}", violations.join("\n  "));
    js(client, "document.querySelector('#teacher').scrollIntoView(); return true;", vec![]).await;
    println!("screenshot: {}", screenshot(client, "teacher.png").await.display());
    client.set_window_size(360, 800).await.expect("a phone's width");
    js(client, "document.querySelector('#teacher').scrollIntoView(); return true;", vec![]).await;
    println!("screenshot: {}", screenshot(client, "teacher-phone.png").await.display());
    client.set_window_size(1400, 1000).await.expect("the desktop width again");
    // A file named like a student loaded replaces that student, with a note; Clear empties the view.
    give_teacher(client, &[("bob.json", alice)], true).await;
    wait_for(client, Duration::from_secs(10), "bob replaced", || async {
        text(client, "#teacher-notes").await.filter(|n| n.contains("bob.json replaced the answers of \"bob\""))
    })
    .await;
    assert_eq!(teacher_row(client, "bob").await, json!([[["none", 0], ["right", 2]], 1]), "bob's row replaced");
    assert_eq!(text(client, "#teacher-errors").await.unwrap_or_default(), "", "the errors of the files before");
    click(client, "#teacher-clear").await;
    assert!(!exists(client, "#teacher-table-load").await, "Clear leaves the class table");
}

async fn press(client: &Client, key: Key) {
    let k: char = key.into();
    let keys = KeyActions::new("keyboard".into()).then(KeyAction::Down { value: k }).then(KeyAction::Up { value: k });
    client.perform_actions(keys).await.unwrap_or_else(|e| panic!("cannot press {key:?}: {e}"));
}

/// The ids of the lesson's parts that are displayed.
async fn shown_parts(client: &Client) -> Vec<String> {
    let v = js(
        client,
        "return [...document.querySelectorAll('.lesson-steps > li')].filter(li => li.getClientRects().length > \
         0).map(li => li.id);",
        vec![],
    )
    .await;
    v.as_array().map(|a| a.iter().filter_map(|x| x.as_str().map(String::from)).collect()).unwrap_or_default()
}

/// Projector mode by link steps through a lesson, one part per key press: the question, the prediction, the run
/// (which runs it), the answer next to the prediction with `bagsim lesson`'s numbers, the explanation. A link
/// opens a lesson at a given part; a step that is not one is said.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn projector_mode_steps_through_a_lesson_with_the_arrow_keys() {
    let native = native_answer("load");
    with_browser(|client, base| async move {
        open_ready(&client, &format!("{base}?present=1&lesson=load")).await;
        let classes = js(&client, "return document.documentElement.className;", vec![]).await;
        let classes = classes.as_str().unwrap_or_default().to_string();
        assert!(classes.contains("present") && classes.contains("lesson-present"), "html class: {classes:?}");
        let main_shown =
            js(&client, "return document.querySelector('#run').getClientRects().length > 0;", vec![]).await;
        assert_eq!(main_shown, json!(false), "the simulator is shown beside the lesson in projector mode");
        let parts = ["question", "prediction", "run", "answer", "explanation"].map(|p| format!("lesson-part-{p}"));
        assert_eq!(shown_parts(&client).await, [parts[0].clone()], "the lesson does not open at its question alone");
        let (_, search) = location(&client).await;
        assert!(search.ends_with("&present=1&lesson=load&step=1"), "the address does not hold the step: {search}");
        press(&client, Key::Right).await;
        assert_eq!(shown_parts(&client).await, [parts[1].clone()], "→ from the question");
        set_control(&client, "#lesson-prediction", "it grows tenfold").await;
        press(&client, Key::Right).await;
        assert_eq!(shown_parts(&client).await, [parts[2].clone()], "→ from the prediction");
        // Reaching the run runs the lesson, with no click.
        wait_lesson_finished(&client).await;
        press(&client, Key::Right).await;
        assert_eq!(shown_parts(&client).await, [parts[3].clone()], "→ from the run");
        assert_same(&page_answer(&client).await, &native);
        assert_eq!(text(&client, "#lesson-your-prediction").await.as_deref(), Some("it grows tenfold"));
        let position = text(&client, "#lesson-position").await.unwrap_or_default();
        assert!(position.starts_with("Part 4 of 5"), "{position:?}");
        println!("screenshot: {}", screenshot(&client, "lesson-present-answer.png").await.display());
        press(&client, Key::Right).await;
        assert_eq!(shown_parts(&client).await, [parts[4].clone()], "→ from the answer");
        let why = text(&client, "#lesson-explanation").await.unwrap_or_default();
        assert!(why.contains("load / (1 − load)"), "no explanation: {why:?}");
        press(&client, Key::Right).await;
        assert_eq!(shown_parts(&client).await, [parts[4].clone()], "→ after the last part leaves it");
        press(&client, Key::Left).await;
        assert_eq!(shown_parts(&client).await, [parts[3].clone()], "← steps back");
        let violations = axe_violations(&client, "stepping through a lesson in projector mode").await;
        assert!(violations.is_empty(), "axe-core in a lesson's projector mode:\n  {}", violations.join("\n  "));
        press(&client, Key::Escape).await;
        assert_eq!(shown_parts(&client).await, parts, "leaving projector mode shows every part");

        // A link at the explanation: the lesson runs by itself and shows its last part with the native numbers.
        open_ready(&client, &format!("{base}?present=1&lesson=load&step=5")).await;
        assert_eq!(shown_parts(&client).await, [parts[4].clone()], "?step=5 does not open at the explanation");
        wait_lesson_finished(&client).await;
        let why = text(&client, "#lesson-explanation").await.unwrap_or_default();
        assert!(why.contains("load / (1 − load)"), "no explanation after the run: {why:?}");
        press(&client, Key::Left).await;
        assert_same(&page_answer(&client).await, &native);
        println!("screenshot: {}", screenshot(&client, "lesson-present-link.png").await.display());

        // A step that is not one is said, and the lesson opens at its question.
        open_ready(&client, &format!("{base}?lesson=load&step=9")).await;
        let alert = text(&client, "#lessons [role=alert]").await.unwrap_or_default();
        assert!(alert.contains("step \"9\"") && alert.contains("allowed 1–5"), "{alert:?}");
    })
    .await;
}
