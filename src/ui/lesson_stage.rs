//! The lessons' panel lives in the page's second module (`lazy.rs`); projector mode, the lesson it steps through
//! and the lab it opens a scenario in are the page's. This is what passes between them, through the window
//! (`shown.rs`): the page publishes the stage (projector mode on or off, the lesson and part shown) and what the
//! address asked for when it opened; the panel asks the page to change the stage or to open a scenario.

use super::lab::Lab;
use super::present::{Present, LESSON_PARTS as PARTS};
use super::shown;
use crate::registry::Scenario;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// The lesson asked for by the address (`?lesson=ID`, read once when the page opens) and the part `&step=K` asks
/// for (0-based), or why that step cannot be shown.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Requested {
    pub id: String,
    pub part: Result<Option<usize>, String>,
}

/// What the address asks for: `?lesson=ID[&step=K]`.
pub fn requested() -> Option<Requested> {
    let search = web_sys::window()?.location().search().ok()?;
    let params = web_sys::UrlSearchParams::new_with_str(&search).ok()?;
    let id = params.get("lesson")?;
    let part = match params.get("step") {
        None => Ok(None),
        Some(k) => match k.trim().parse::<usize>() {
            Ok(k) if (1..=PARTS.len()).contains(&k) => Ok(Some(k - 1)),
            _ => Err(format!(
                "The link's step {k:?} is not a step of a lesson; allowed 1–{}. The lesson opens at its question.",
                PARTS.len()
            )),
        },
    };
    Some(Requested { id, part })
}

/// Projector mode, and the lesson it steps through with the part shown (0-based).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
struct State {
    on: bool,
    lesson: Option<(String, usize)>,
}

/// What the lessons' panel asks of the page.
#[derive(Debug, Serialize, Deserialize)]
enum Ask {
    /// Projector mode on or off.
    Projector(bool),
    /// Step through this lesson from this part, or stop stepping.
    Lesson(Option<(String, usize)>),
    /// The next (+1) or previous (−1) part.
    Step(i32),
    /// "Write your own policy": this scenario (JSON) in the lab, then the script box `box_id` brought into view.
    Open { scenario: String, box_id: String },
    /// A message for the lab's lesson field.
    Refused(String),
}

/// The window's properties and events: the stage (page → panel), what the address asked for (page → panel, read
/// once), and an ask (panel → page).
const STATE: (&str, &str) = ("bagsimStage", "bagsim-stage");
const ASKED: &str = "bagsimLessonAsked";
const ASK: (&str, &str) = ("bagsimAsk", "bagsim-ask");

/// The page's side: publishes the stage while the page lives and `asked` once, and does what the panel asks.
pub fn serve(present: Present, lab: Lab, asked: Option<Requested>) {
    if let Ok(json) = serde_json::to_string(&asked) {
        shown::post(ASKED, "", &json);
    }
    Effect::new(move |_| {
        let state = State { on: present.on.get(), lesson: present.lesson.get() };
        if let Ok(json) = serde_json::to_string(&state) {
            shown::post(STATE.0, STATE.1, &json);
        }
    });
    shown::listen(ASK.1, move || {
        let Some(ask) = shown::read(ASK.0).and_then(|t| serde_json::from_str::<Ask>(&t).ok()) else { return };
        let refuse = |e: String| {
            lab.errors.update(|m| {
                m.insert("lesson".into(), e);
            })
        };
        match ask {
            Ask::Projector(on) => present.on.set(on),
            Ask::Lesson(lesson) => present.lesson.set(lesson),
            Ask::Step(by) => present.step_lesson(by),
            Ask::Refused(e) => refuse(e),
            Ask::Open { scenario, box_id } => match Scenario::from_json(&scenario) {
                Ok(s) => {
                    super::family_switch::open_scenario(lab, s);
                    set_timeout(
                        move || {
                            let doc = web_sys::window().and_then(|w| w.document());
                            if let Some(e) = doc.and_then(|d| d.get_element_by_id(&box_id)) {
                                e.scroll_into_view();
                            }
                        },
                        std::time::Duration::from_millis(50),
                    );
                }
                Err(e) => refuse(e.to_string()),
            },
        }
    });
}

/// The panel's side: the stage as the page has it, kept in step, and the way to ask for another.
#[derive(Clone, Copy)]
pub struct Stage {
    state: RwSignal<State>,
}

impl Stage {
    /// The stage as the page published it, followed from then on.
    pub fn mirror() -> Stage {
        let read = || shown::read(STATE.0).and_then(|t| serde_json::from_str::<State>(&t).ok()).unwrap_or_default();
        let state = RwSignal::new(read());
        shown::listen(STATE.1, move || {
            let next = read();
            if state.with_untracked(|s| *s != next) {
                state.set(next);
            }
        });
        Stage { state }
    }

    /// What the address asked for when the page opened (`?lesson=ID&step=K`).
    pub fn asked() -> Option<Requested> {
        shown::read(ASKED).and_then(|t| serde_json::from_str(&t).ok()).flatten()
    }

    /// Whether projector mode is on (untracked).
    pub fn on_untracked(self) -> bool {
        self.state.with_untracked(|s| s.on)
    }

    /// The lesson projector mode steps through and the part shown (tracked).
    pub fn lesson(self) -> Option<(String, usize)> {
        self.state.with(|s| s.lesson.clone())
    }

    /// Whether projector mode steps through a lesson (untracked).
    pub fn has_lesson_untracked(self) -> bool {
        self.state.with_untracked(|s| s.lesson.is_some())
    }

    fn ask(self, ask: &Ask) {
        if let Ok(json) = serde_json::to_string(ask) {
            shown::post(ASK.0, ASK.1, &json);
        }
    }

    pub fn set_projector(self, on: bool) {
        self.ask(&Ask::Projector(on));
    }

    pub fn set_lesson(self, lesson: Option<(String, usize)>) {
        self.ask(&Ask::Lesson(lesson));
    }

    pub fn step(self, by: i32) {
        self.ask(&Ask::Step(by));
    }

    /// Opens `scenario` in the lab and brings the script box `box_id` into view.
    pub fn open(self, scenario: &Scenario, box_id: &str) {
        match serde_json::to_string(scenario) {
            Ok(scenario) => self.ask(&Ask::Open { scenario, box_id: box_id.into() }),
            Err(e) => self.refuse(e.to_string()),
        }
    }

    /// Says `e` at the lab's lesson field.
    pub fn refuse(self, e: String) {
        self.ask(&Ask::Refused(e));
    }
}
