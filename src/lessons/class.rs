//! A class's answers (docs/lessons.md, "Teacher's view"): the file "Download my answers" writes, one per student
//! (`bagsim-answers.json`, which the student renames to their name), read and checked, and summed up per lesson —
//! per student and question the final mark and the number of attempts, the questions each student ends right, and
//! the question most missed. Plain functions over the files, so the page's teacher's view and the native tests
//! compute the same.
//!
//! **Most missed** is the question that the most students who tried it *never answered right* (none of their
//! attempts marked right); a student who was wrong first and right later has not missed it. Equal counts: the first
//! question in the lesson.

use super::questions::{Mark, Response};
use super::Lesson;
use serde::{Deserialize, Serialize};

/// The version the file writes in `bagsim_answers`, and the only one read.
pub const VERSION: u32 = 1;

/// A file larger than this is not read (a class's file is a few kilobytes).
pub const MAX_BYTES: f64 = 5e6;

/// One answer a student gave to question `question` (from 0) and how it was marked.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Attempt {
    pub question: usize,
    pub response: Response,
    pub mark: Mark,
}

/// The file "Download my answers" writes: every lesson's attempts in one browser.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AnswersFile {
    /// What the file is, for whoever opens it: [`VERSION`].
    pub bagsim_answers: u32,
    /// Per lesson id, its attempts in the order they were given.
    pub lessons: Vec<(String, Vec<Attempt>)>,
}

/// Why a file is not read as a student's answers; each says what is wrong for the teacher.
#[derive(Clone, Debug, PartialEq)]
pub enum ReadError {
    /// Larger than [`MAX_BYTES`]: its size in bytes.
    TooLarge(f64),
    /// The browser could not read the file: why.
    Unreadable(String),
    /// Not JSON: the parser's message.
    NotJson(String),
    /// JSON, but not of the file's shape: why, with the line and column.
    Shape(String),
    /// `bagsim_answers` is not [`VERSION`]: the value found.
    Version(String),
    /// A lesson id this page does not have, and the ids it has.
    UnknownLesson { id: String, ids: String },
    /// An attempt at a question the lesson does not have (from 0), and how many it has.
    NoQuestion { lesson: String, question: usize, questions: usize },
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::TooLarge(bytes) => {
                write!(f, "{:.1} MB is too large for a file of answers (at most 5 MB)", bytes / 1e6)
            }
            ReadError::Unreadable(why) => write!(f, "could not be read ({why})"),
            ReadError::NotJson(why) => {
                write!(f, "not JSON ({why}); a student's file is the bagsim-answers.json their page writes")
            }
            ReadError::Shape(why) => write!(f, "not a file of answers ({why})"),
            ReadError::Version(v) => write!(f, "bagsim_answers is {v}, not {VERSION}: not a file this page reads"),
            ReadError::UnknownLesson { id, ids } => {
                write!(f, "lesson {id:?} is not one of this page's lessons ({ids})")
            }
            ReadError::NoQuestion { lesson, question, questions } => write!(
                f,
                "lesson {lesson:?} has {questions} question{}, the file answers question {}",
                if *questions == 1 { "" } else { "s" },
                question + 1
            ),
        }
    }
}

impl std::error::Error for ReadError {}

/// The answers in `text`, checked against `lessons`: JSON of the file's shape, version [`VERSION`], every lesson
/// one of them and every question one of its lesson's.
pub fn read(text: &str, lessons: &[Lesson]) -> Result<AnswersFile, ReadError> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| ReadError::NotJson(e.to_string()))?;
    // A later version is said as such, before its shape is judged against this one's.
    match value.get("bagsim_answers") {
        Some(v) if v.as_u64() != Some(VERSION.into()) => return Err(ReadError::Version(v.to_string())),
        _ => {}
    }
    // From the text (the reader local storage's attempts go through, so the page carries one), not the value.
    let file: AnswersFile = serde_json::from_str(text).map_err(|e| ReadError::Shape(e.to_string()))?;
    for (id, attempts) in &file.lessons {
        let Some(lesson) = lessons.iter().find(|l| &l.id == id) else {
            let ids: Vec<&str> = lessons.iter().map(|l| l.id.as_str()).collect();
            return Err(ReadError::UnknownLesson { id: id.clone(), ids: ids.join(", ") });
        };
        let questions = lesson.questions.len();
        if let Some(a) = attempts.iter().find(|a| a.question >= questions) {
            return Err(ReadError::NoQuestion { lesson: id.clone(), question: a.question, questions });
        }
    }
    Ok(file)
}

/// A student's name: the file's name without its extension (`alice.json` → `alice`).
pub fn student_name(file_name: &str) -> String {
    let name = file_name.trim();
    match name.rsplit_once('.') {
        Some((stem, _)) if !stem.trim().is_empty() => stem.trim().to_string(),
        _ => name.to_string(),
    }
}

/// Whether the file still has the name the page gave it (`bagsim-answers.json`, or a browser's
/// `bagsim-answers (1).json`): its student is not named.
pub fn not_renamed(name: &str) -> bool {
    name.starts_with("bagsim-answers")
}

/// Adds a student's answers to the class, in place of a student of the same name; true when one was replaced.
pub fn add(class: &mut Vec<(String, AnswersFile)>, name: String, file: AnswersFile) -> bool {
    match class.iter_mut().find(|(n, _)| *n == name) {
        Some(s) => {
            s.1 = file;
            true
        }
        None => {
            class.push((name, file));
            false
        }
    }
}

/// One student's attempts at one question.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cell {
    pub attempts: usize,
    /// The mark of the last attempt (the final mark); None when not tried.
    pub last: Option<Mark>,
    /// Some attempt was marked right.
    pub ever_right: bool,
}

impl Cell {
    /// The final mark in words: "Right", "Wrong", "Not resolved" or "not tried".
    pub fn word(&self) -> &'static str {
        match self.last {
            Some(Mark::Right) => "Right",
            Some(Mark::Wrong) => "Wrong",
            Some(Mark::NotResolved) => "Not resolved",
            None => "not tried",
        }
    }
}

/// One student's row of a lesson's table.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub student: String,
    /// Per question of the lesson, in its order.
    pub cells: Vec<Cell>,
    /// The questions whose final mark is right.
    pub right: usize,
}

/// The question most missed: its index (from 0), how many students never answered it right, of how many tried it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Missed {
    pub question: usize,
    pub never_right: usize,
    pub tried: usize,
}

/// A lesson's table for the class.
#[derive(Clone, Debug, PartialEq)]
pub struct LessonSummary {
    pub id: String,
    pub title: String,
    /// The questions' prompts, in order (Q1, Q2, …).
    pub prompts: Vec<String>,
    /// Every student of the class, by name.
    pub rows: Vec<Row>,
    /// None when every student who tried a question answered it right at some attempt.
    pub most_missed: Option<Missed>,
}

impl LessonSummary {
    /// "Most missed: Q2 (“…”), 5 of the 7 students who tried it never answered it right."
    pub fn missed_sentence(&self) -> String {
        let Some(m) = self.most_missed else {
            return "Most missed: none; every student who tried a question answered it right at least once.".into();
        };
        let prompt = self.prompts.get(m.question).map(String::as_str).unwrap_or_default();
        let who = if m.tried == 1 {
            "the one student who tried it never answered it right".to_string()
        } else {
            format!("{} of the {} students who tried it never answered it right", m.never_right, m.tried)
        };
        format!("Most missed: Q{} (“{prompt}”), {who}.", m.question + 1)
    }
}

/// The class's table per lesson, for every lesson of `lessons` (in their order) that some student tried: a row
/// per student (by name), a cell per question.
pub fn summary(class: &[(String, AnswersFile)], lessons: &[Lesson]) -> Vec<LessonSummary> {
    let mut students: Vec<&(String, AnswersFile)> = class.iter().collect();
    students.sort_by(|a, b| a.0.to_lowercase().cmp(&b.0.to_lowercase()).then_with(|| a.0.cmp(&b.0)));
    lessons
        .iter()
        .filter(|l| class.iter().any(|(_, f)| attempts_at(f, &l.id).next().is_some()))
        .map(|l| {
            let n = l.questions.len();
            let rows: Vec<Row> = students
                .iter()
                .map(|(name, file)| {
                    let mut cells = vec![Cell::default(); n];
                    for a in attempts_at(file, &l.id) {
                        if let Some(c) = cells.get_mut(a.question) {
                            c.attempts += 1;
                            c.last = Some(a.mark);
                            c.ever_right |= a.mark == Mark::Right;
                        }
                    }
                    let right = cells.iter().filter(|c| c.last == Some(Mark::Right)).count();
                    Row { student: name.clone(), cells, right }
                })
                .collect();
            let most_missed = (0..n)
                .map(|q| {
                    let tried = rows.iter().filter(|r| r.cells[q].attempts > 0).count();
                    let never_right = rows.iter().filter(|r| r.cells[q].attempts > 0 && !r.cells[q].ever_right).count();
                    Missed { question: q, never_right, tried }
                })
                .filter(|m| m.never_right > 0)
                // The first of the largest: `max_by_key` keeps the last.
                .rev()
                .max_by_key(|m| m.never_right);
            let prompts = l.questions.iter().map(|q| q.prompt.clone()).collect();
            LessonSummary { id: l.id.clone(), title: l.title.clone(), prompts, rows, most_missed }
        })
        .collect()
}

/// A file's attempts at lesson `id` (a lesson listed twice counts both lists).
fn attempts_at<'a>(file: &'a AnswersFile, id: &'a str) -> impl Iterator<Item = &'a Attempt> {
    file.lessons.iter().filter(move |(l, _)| l == id).flat_map(|(_, a)| a)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lessons() -> Vec<Lesson> {
        super::super::all().into_iter().map(Result::unwrap).collect()
    }

    fn attempt(question: usize, mark: Mark) -> Attempt {
        Attempt { question, response: Response::Number(1.0), mark }
    }

    fn file(load: Vec<Attempt>) -> AnswersFile {
        AnswersFile { bagsim_answers: VERSION, lessons: vec![("load".into(), load)] }
    }

    #[test]
    fn the_file_the_page_writes_reads_back() {
        let text = r#"{"bagsim_answers": 1, "lessons": [["load", [
            {"question": 1, "response": {"number": 85000.0}, "mark": "wrong"},
            {"question": 1, "response": {"number": 28377.0}, "mark": "right"}]]]}"#;
        let f = read(text, &lessons()).unwrap();
        assert_eq!(f.lessons[0].1[1].mark, Mark::Right);
        let again = serde_json::to_string_pretty(&f).unwrap();
        assert_eq!(read(&again, &lessons()).unwrap(), f);
        assert!(again.starts_with("{\n  \"bagsim_answers\": 1,\n  \"lessons\": ["), "{again}");
    }

    #[test]
    fn a_file_that_does_not_read_says_what_is_wrong() {
        let ls = lessons();
        let e = read("hello", &ls).unwrap_err();
        assert!(matches!(e, ReadError::NotJson(_)) && e.to_string().starts_with("not JSON"), "{e}");
        let e = read(r#"{"bagsim_answers": 1, "lessons": {}}"#, &ls).unwrap_err();
        assert!(matches!(e, ReadError::Shape(_)) && e.to_string().contains("expected a sequence"), "{e}");
        let e = read(r#"{"lessons": []}"#, &ls).unwrap_err();
        assert!(e.to_string().contains("bagsim_answers"), "{e}");
        let e = read(r#"{"bagsim_answers": 2, "lessons": []}"#, &ls).unwrap_err();
        assert_eq!(e, ReadError::Version("2".into()));
        assert!(e.to_string().starts_with("bagsim_answers is 2, not 1"), "{e}");
        let e = read(r#"{"bagsim_answers": 1, "lessons": [["cooking", []]]}"#, &ls).unwrap_err();
        assert!(matches!(&e, ReadError::UnknownLesson { id, ids } if id == "cooking" && ids.contains("load")), "{e}");
        let e = read(
            r#"{"bagsim_answers": 1, "lessons": [["load", [
                {"question": 2, "response": {"number": 1}, "mark": "right"}]]]}"#,
            &ls,
        )
        .unwrap_err();
        assert_eq!(e.to_string(), "lesson \"load\" has 2 questions, the file answers question 3");
    }

    #[test]
    fn a_student_is_named_by_the_file() {
        assert_eq!(student_name("alice.json"), "alice");
        assert_eq!(student_name("Ana Lima.v2.json"), "Ana Lima.v2");
        assert_eq!(student_name("bob"), "bob");
        assert_eq!(student_name(".json"), ".json");
        assert!(not_renamed("bagsim-answers (1).json") && !not_renamed("alice.json"));
    }

    #[test]
    fn a_student_of_the_same_name_replaces_the_one_before() {
        let mut class = Vec::new();
        assert!(!add(&mut class, "alice".into(), file(vec![attempt(0, Mark::Wrong)])));
        assert!(!add(&mut class, "bob".into(), file(vec![])));
        assert!(add(&mut class, "alice".into(), file(vec![attempt(0, Mark::Right)])));
        assert_eq!(class.len(), 2);
        assert_eq!(class[0].1.lessons[0].1[0].mark, Mark::Right);
    }

    #[test]
    fn the_class_table_holds_the_final_marks_and_the_most_missed_question() {
        let class = vec![
            ("bob".to_string(), file(vec![attempt(1, Mark::Wrong), attempt(0, Mark::Right), attempt(1, Mark::Wrong)])),
            ("alice".to_string(), file(vec![attempt(1, Mark::Wrong), attempt(1, Mark::Right)])),
            // Right once, then wrong: the final mark is wrong, but the question was not missed.
            ("carol".to_string(), file(vec![attempt(1, Mark::Right), attempt(1, Mark::NotResolved)])),
            ("dan".to_string(), AnswersFile { bagsim_answers: VERSION, lessons: vec![] }),
        ];
        let s = summary(&class, &lessons());
        assert_eq!(s.len(), 1, "only the lessons someone tried");
        let load = &s[0];
        assert_eq!((load.id.as_str(), load.prompts.len()), ("load", 2));
        let names: Vec<&str> = load.rows.iter().map(|r| r.student.as_str()).collect();
        assert_eq!(names, ["alice", "bob", "carol", "dan"]);
        let words = |r: &Row| r.cells.iter().map(|c| (c.word(), c.attempts)).collect::<Vec<_>>();
        assert_eq!(words(&load.rows[0]), [("not tried", 0), ("Right", 2)]);
        assert_eq!(words(&load.rows[1]), [("Right", 1), ("Wrong", 2)]);
        assert_eq!(words(&load.rows[2]), [("not tried", 0), ("Not resolved", 2)]);
        assert_eq!(words(&load.rows[3]), [("not tried", 0), ("not tried", 0)]);
        let right: Vec<usize> = load.rows.iter().map(|r| r.right).collect();
        assert_eq!(right, [1, 1, 0, 0]);
        assert_eq!(load.most_missed, Some(Missed { question: 1, never_right: 1, tried: 3 }));
        let sentence = load.missed_sentence();
        assert!(sentence.starts_with("Most missed: Q2 (“"), "{sentence}");
        assert!(sentence.ends_with("”), 1 of the 3 students who tried it never answered it right."), "{sentence}");
    }

    #[test]
    fn equal_counts_name_the_first_question_and_none_missed_says_so() {
        let class = vec![
            ("a".to_string(), file(vec![attempt(0, Mark::Wrong)])),
            ("b".to_string(), file(vec![attempt(1, Mark::Wrong)])),
        ];
        let s = summary(&class, &lessons());
        assert_eq!(s[0].most_missed, Some(Missed { question: 0, never_right: 1, tried: 1 }));
        assert!(s[0].missed_sentence().ends_with("the one student who tried it never answered it right."));
        let all_right = vec![("a".to_string(), file(vec![attempt(0, Mark::Wrong), attempt(0, Mark::Right)]))];
        let s = summary(&all_right, &lessons());
        assert_eq!(s[0].most_missed, None);
        assert!(s[0].missed_sentence().starts_with("Most missed: none"));
    }
}
