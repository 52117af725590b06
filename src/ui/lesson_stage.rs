//! The lessons' panel lives in the page's second module (`lazy.rs`); projector mode, the lesson it steps through
//! and the lab it opens a scenario in are the page's. This is what passes between them, through the window
//! as messages (`split::message`): the page tells the stage (projector mode on or off, the lesson and part shown)
//! and what the address asked for when it opened; the panel asks the page to change the stage or to open a
//! scenario.

use super::lab::Lab;
use super::present::{Present, LESSON_PARTS as PARTS};
pub use super::split::stage::{NoSuchStep, Requested, StageState};
use super::split::{self, Channel, ToPage as Ask, ToPanels};
use crate::registry::Scenario;
use leptos::prelude::*;

/// What the address asks for: `?lesson=ID[&step=K]`.
pub fn requested() -> Option<Requested> {
    let search = web_sys::window()?.location().search().ok()?;
    let params = web_sys::UrlSearchParams::new_with_str(&search).ok()?;
    let id = params.get("lesson")?;
    let part = match params.get("step") {
        None => Ok(None),
        Some(k) => match k.trim().parse::<usize>() {
            Ok(k) if (1..=PARTS.len()).contains(&k) => Ok(Some(k - 1)),
            _ => Err(NoSuchStep { step: k, parts: PARTS.len() }),
        },
    };
    Some(Requested { id, part })
}

/// The page's side: publishes the stage while the page lives and `asked` once, and does what the panel asks.
pub fn serve(present: Present, lab: Lab, asked: Option<Requested>) {
    split::tell(&ToPanels::LessonAsked(asked));
    Effect::new(move |_| {
        split::tell(&ToPanels::Stage(StageState { on: present.on.get(), lesson: present.lesson.get() }));
    });
    split::listen(Channel::Ask, move || {
        let Some(ask) = split::last::<Ask>(Channel::Ask) else { return };
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
    state: RwSignal<StageState>,
}

impl Stage {
    /// The stage as the page published it, followed from then on.
    pub fn mirror() -> Stage {
        let read = || match split::last(Channel::Stage) {
            Some(ToPanels::Stage(s)) => s,
            _ => StageState::default(),
        };
        let state = RwSignal::new(read());
        split::listen(Channel::Stage, move || {
            let next = read();
            if state.with_untracked(|s| *s != next) {
                state.set(next);
            }
        });
        Stage { state }
    }

    /// What the address asked for when the page opened (`?lesson=ID&step=K`).
    pub fn asked() -> Option<Requested> {
        match split::last(Channel::LessonAsked) {
            Some(ToPanels::LessonAsked(asked)) => asked,
            _ => None,
        }
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
        split::ask(ask);
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
