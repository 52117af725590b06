//! Projector mode (a button, or `?present=1` in a link): large type, thick lines, one chart at a time at full
//! width, stepped through with the arrow keys, the cards always in view. With a lesson (`?present=1&lesson=ID`, or
//! the lesson's "Present this lesson"), the arrow keys step through the lesson's parts instead (`lessons.rs`).

use crate::ui::lab::Lab;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// A lesson's parts, in the order a class goes through them (`lessons.rs` draws them): element id and name.
pub const LESSON_PARTS: [(&str, &str); 5] = [
    ("lesson-part-question", "Question"),
    ("lesson-part-prediction", "Your prediction"),
    ("lesson-part-run", "Run the experiment"),
    ("lesson-part-answer", "The answer next to the prediction"),
    ("lesson-part-explanation", "Why"),
];

/// Whether projector mode is on, and which chart it shows.
#[derive(Clone, Copy)]
pub struct Present {
    pub on: RwSignal<bool>,
    pub index: RwSignal<usize>,
    /// The lesson projector mode steps through, and the part of it shown (0-based, `LESSON_PARTS`); None: the
    /// charts.
    pub lesson: RwSignal<Option<(String, usize)>>,
    lab: Lab,
}

impl Present {
    /// Reads `?present=1` from the page's address, applies the mode to the document and listens to the arrow keys.
    /// Each family's page lists the charts it steps through (`PageFamily::charts`).
    pub fn start(lab: Lab) -> Present {
        let wanted = web_sys::window()
            .and_then(|w| w.location().search().ok())
            .and_then(|s| web_sys::UrlSearchParams::new_with_str(&s).ok())
            .and_then(|p| p.get("present"))
            .is_some_and(|v| v == "1");
        let p = Present { on: RwSignal::new(wanted), index: RwSignal::new(0), lesson: RwSignal::new(None), lab };
        // Another family shows its own charts from the first.
        Effect::new(move |_| {
            lab.scenario.with(|s| s.family());
            p.index.set(0);
        });
        Effect::new(move |_| {
            let on = p.on.get();
            if let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
                let _ = root.class_list().toggle_with_force("present", on);
            }
            super::shown::projector_changed();
            // Leaving projector mode leaves the lesson's steps too.
            if !on {
                p.lesson.set(None);
            }
            on
        });
        Effect::new(move |_| {
            let (on, lesson) = (p.on.get(), p.lesson.get());
            let suffix = match (on, &lesson) {
                (false, _) => String::new(),
                (true, None) => "&present=1".into(),
                (true, Some((id, part))) => {
                    format!("&present=1&lesson={}&step={}", js_sys::encode_uri_component(id), part + 1)
                }
            };
            if let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
                let _ = root.class_list().toggle_with_force("lesson-present", on && lesson.is_some());
            }
            lab.address_extra.set(suffix);
            // The address keeps the mode while it is on, so a reload or a copied link stays in it.
            super::address::remember(lab, &lab.scenario.get_untracked());
        });
        let on_key = move |ev: &web_sys::Event| {
            let Some(ev) = ev.dyn_ref::<web_sys::KeyboardEvent>() else { return };
            if !p.on.get_untracked() || ev.alt_key() || ev.ctrl_key() || ev.meta_key() {
                return;
            }
            // Arrow keys keep their meaning inside form controls.
            let in_control = ev
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .is_some_and(|e| matches!(e.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA"));
            if in_control {
                return;
            }
            match ev.key().as_str() {
                "ArrowRight" | "PageDown" => {
                    ev.prevent_default();
                    p.step_any(1);
                }
                "ArrowLeft" | "PageUp" => {
                    ev.prevent_default();
                    p.step_any(-1);
                }
                "Escape" => p.on.set(false),
                _ => {}
            }
        };
        // The page listens for its whole life: the listener is never removed. Not passive (gloo's default), so
        // that `prevent_default` keeps PageDown and the arrows from scrolling the page as well.
        if let Some(w) = web_sys::window() {
            let options = gloo_events::EventListenerOptions::enable_prevent_default();
            gloo_events::EventListener::new_with_options(&w, "keydown", options, on_key).forget();
        }
        p
    }

    /// The charts of the family shown.
    pub fn list(self) -> Vec<(&'static str, &'static str)> {
        self.lab.families.of(self.lab.scenario.with(|s| s.family())).charts()
    }

    /// Whether chart `i` of the family shown is the one projector mode shows.
    pub fn is_current(self, i: usize) -> bool {
        self.index.get() == i
    }

    /// Steps the lesson's parts when it steps through a lesson, else the charts.
    fn step_any(self, by: i32) {
        if self.lesson.with_untracked(Option::is_some) {
            self.step_lesson(by);
        } else {
            self.step(by);
        }
    }

    /// Shows the lesson's next (`+1`) or previous (`-1`) part; no wrapping: the first part and the last stay.
    pub fn step_lesson(self, by: i32) {
        let last = LESSON_PARTS.len() as i32 - 1;
        self.lesson.update(|l| {
            if let Some((_, part)) = l {
                *part = (*part as i32 + by).clamp(0, last) as usize;
            }
        });
    }

    /// Shows the next (`+1`) or previous (`-1`) chart, wrapping around.
    pub fn step(self, by: i32) {
        let n = self.list().len().max(1) as i32;
        self.index.update(|i| *i = ((*i as i32 + by).rem_euclid(n)) as usize);
        // Bring the chart shown into view (below the cards, which stay at the top): the stepper of the family
        // shown, whose id starts with its prefix.
        let prefix = self.lab.families.of(self.lab.scenario.with_untracked(|s| s.family())).prefix();
        if let Some(stepper) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id(&format!("{prefix}chart-prev")))
            .and_then(|b| b.parent_element())
        {
            stepper.scroll_into_view();
        }
    }
}

/// The projector-mode button of the run bar.
#[component]
pub fn PresentButton() -> impl IntoView {
    let p = expect_context::<Present>();
    view! {
        <button
            id="present"
            aria-pressed=move || p.on.get().to_string()
            title="Large type, thick lines, one chart at a time (arrow keys step through them); also ?present=1 in a \
            link"
            on:click=move |_| p.on.update(|o| *o = !*o)
        >
            {move || if p.on.get() { "Leave projector mode" } else { "Projector mode" }}
        </button>
    }
}

/// Previous / next and which chart is shown, in projector mode.
#[component]
pub fn ChartStepper(#[prop(optional)] prefix: &'static str) -> impl IntoView {
    let p = expect_context::<Present>();
    view! {
        <nav class="stepper" aria-label="charts" hidden=move || !p.on.get()>
            <button id=format!("{prefix}chart-prev") on:click=move |_| p.step(-1)>
                "◀ Previous chart"
            </button>
            <span id=format!("{prefix}chart-position") aria-live="polite">
                {move || {
                    let list = p.list();
                    let i = p.index.get().min(list.len().saturating_sub(1));
                    list.get(i).map_or(String::new(), |c| format!("Chart {} of {}: {}", i + 1, list.len(), c.1))
                }}
            </span>
            <button id=format!("{prefix}chart-next") on:click=move |_| p.step(1)>
                "Next chart ▶"
            </button>
            <span class="hint">"(or the ← → keys)"</span>
        </nav>
    }
}
