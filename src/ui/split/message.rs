//! What passes between the page's two modules (`split/mod.rs`). They share no memory: a message is written as JSON
//! into a property of the window, one property per [`Channel`], and the channel's event is fired on the window;
//! the listeners of both modules run before `post` returns. A channel keeps its last message, so a part mounted
//! later reads the page's state as it is now.
//!
//! [`ToPanels`] is what the page tells the parts (the state they follow), [`ToPage`] what a part asks of the page.
//! Two enums rather than one so that each module carries the writer of one and the reader of the other only.

use super::stage::{Requested, StageState};
use crate::registry::Scenario;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use wasm_bindgen::JsValue;

/// Page → parts: the state the parts follow.
#[derive(Debug, Serialize, Deserialize)]
pub enum ToPanels {
    /// The scenario the page shows (after every change).
    Shown(#[serde(with = "scenario_text")] Box<Scenario>),
    /// Whether every control of the form holds an accepted value (a sweep is not started otherwise).
    FormOk(bool),
    /// Projector mode and the lesson it steps through.
    Stage(StageState),
    /// The lesson the address asked for when the page opened (written once).
    LessonAsked(Option<Requested>),
    /// The scenario of the run started last (its per-task records are made from it).
    Ran(#[serde(with = "scenario_text")] Box<Scenario>),
}

/// Part → page: what a part asks of the page.
#[derive(Debug, Serialize, Deserialize)]
pub enum ToPage {
    /// Projector mode on or off.
    Projector(bool),
    /// Step through this lesson from this part, or stop stepping.
    Lesson(Option<(String, usize)>),
    /// The next (+1) or previous (−1) part of the lesson.
    Step(i32),
    /// "Write your own policy": this scenario (JSON, which the page checks and refuses with a message) in the lab,
    /// then the script box `box_id` brought into view.
    Open { scenario: String, box_id: String },
    /// A message for the lab's lesson field.
    Refused(String),
}

/// Where a message goes: the window's property that keeps the last one, and the event fired after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channel {
    Shown,
    FormOk,
    Stage,
    LessonAsked,
    Ran,
    Ask,
}

impl ToPanels {
    pub fn channel(&self) -> Channel {
        match self {
            ToPanels::Shown(_) => Channel::Shown,
            ToPanels::FormOk(_) => Channel::FormOk,
            ToPanels::Stage(_) => Channel::Stage,
            ToPanels::LessonAsked(_) => Channel::LessonAsked,
            ToPanels::Ran(_) => Channel::Ran,
        }
    }
}

impl Channel {
    /// The window's property and event.
    pub fn names(self) -> (&'static str, &'static str) {
        match self {
            Channel::Shown => ("bagsimShown", "bagsim-shown"),
            Channel::FormOk => ("bagsimFormOk", "bagsim-form-ok"),
            Channel::Stage => ("bagsimStage", "bagsim-stage"),
            Channel::LessonAsked => ("bagsimLessonAsked", "bagsim-lesson-asked"),
            Channel::Ran => ("bagsimRan", "bagsim-ran"),
            Channel::Ask => ("bagsimAsk", "bagsim-ask"),
        }
    }

    /// Fires the channel's event without a new message (its listeners read the last one again).
    pub fn ping(self) {
        if let (Some(window), Ok(e)) = (web_sys::window(), web_sys::Event::new(self.names().1)) {
            let _ = window.dispatch_event(&e);
        }
    }
}

/// The page's side: writes `m` on its channel and fires the channel's event.
pub fn tell(m: &ToPanels) {
    post(m.channel(), m);
}

/// A part's side: writes `m` on [`Channel::Ask`] and fires its event.
pub fn ask(m: &ToPage) {
    post(Channel::Ask, m);
}

fn post(channel: Channel, m: &impl Serialize) {
    let (key, _) = channel.names();
    if let (Some(window), Ok(json)) = (web_sys::window(), serde_json::to_string(m)) {
        let _ = js_sys::Reflect::set(&window, &JsValue::from_str(key), &JsValue::from_str(&json));
        channel.ping();
    }
}

/// The last message on `channel`, if there is one and it reads.
pub fn last<M: DeserializeOwned>(channel: Channel) -> Option<M> {
    let window = web_sys::window()?;
    let text = js_sys::Reflect::get(&window, &JsValue::from_str(channel.names().0)).ok()?.as_string()?;
    serde_json::from_str(&text).ok()
}

/// Calls `f` after every message on `channel` (and every [`Channel::ping`]), for the page's life.
pub fn listen(channel: Channel, f: impl FnMut() + 'static) {
    super::window::listen(channel.names().1, f);
}

/// A scenario crosses as its JSON text and is read back through `Scenario::from_json`, the reader of every scenario
/// file (its checks included).
mod scenario_text {
    use crate::registry::Scenario;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(s: &Scenario, out: S) -> Result<S::Ok, S::Error> {
        let json = serde_json::to_string(s).map_err(serde::ser::Error::custom)?;
        out.serialize_str(&json)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(input: D) -> Result<Box<Scenario>, D::Error> {
        let json = String::deserialize(input)?;
        Scenario::from_json(&json).map(Box::new).map_err(serde::de::Error::custom)
    }
}
