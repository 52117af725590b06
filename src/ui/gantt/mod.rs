//! "Why did this task wait?" (second module, `split::Part::Gantt`, docs/story.md): the last run's scenario is run
//! again by a worker of this part's own, recording its tape (`bagsim story S.json TASK --tape F`, the same tape);
//! the Gantt view draws every execution over the platform's rows, zooms and pans in time, and shows one lane or all;
//! a click on a task (or its id typed in) tells its story: its arrival, the scheduler's decisions about it, who
//! started while it waited and why, its executions, and its per-task record, the numbers `bagsim run --jobs` writes.

mod draw;

use super::pool::{Job, JobError, OnDone, Pool};
use super::shown;
use super::split::{self, Channel, ToPanels};
use crate::lessons::story::StoryPick;
use crate::lessons::Lesson;
use crate::registry::AnyFigureJob;
use crate::scenario::Scenario;
use crate::stats::csv_number;
use crate::story::{story, Story, Tape};
use crate::words::group_digits;
use draw::Frame;
use leptos::prelude::*;
use std::rc::Rc;
use wasm_bindgen::JsCast;

/// The canvas's id.
const CANVAS: &str = "gantt-canvas";

/// What the canvas shows, for a screen reader.
const CANVAS_LABEL: &str =
    "Gantt view: every execution of a task as a box on its rows over time; click one for its story, or type its id";

/// Executions the first window shows about this many of.
const FIRST_WINDOW: usize = 300;

/// The first window: from the first start to where about `FIRST_WINDOW` executions have started and ended.
fn first_window(tape: &Tape) -> (f64, f64) {
    let t0 = tape.bars.first().map_or(0.0, |b| b.start).min(tape.tasks.first().map_or(0.0, |f| f.arrival));
    let k = tape.bars.len().min(FIRST_WINDOW);
    let t1 = tape.bars[..k].iter().map(|b| b.end).fold(t0, f64::max);
    if t1 > t0 {
        (t0, t1)
    } else {
        (t0, tape.end.max(t0 + 1.0))
    }
}

/// The canvas's width: its box's, else 900 px.
fn canvas_width() -> f64 {
    canvas().map(|c| f64::from(c.client_width())).filter(|&w| w > 50.0).unwrap_or(900.0)
}

fn canvas() -> Option<web_sys::HtmlCanvasElement> {
    web_sys::window()?.document()?.get_element_by_id(CANVAS)?.dyn_into().ok()
}

/// The Gantt view of the last run (the page tells it when a run starts), else of the scenario shown; with `pick`
/// (a lesson's story), of `scenario` itself, told at the task the lesson picks once the tape is in.
#[component]
pub fn Gantt(scenario: Signal<Scenario>, #[prop(optional)] pick: Option<StoryPick>) -> impl IntoView {
    let pick = StoredValue::new(pick);
    let pool = StoredValue::new_local(None::<Pool>);
    let tape = StoredValue::new_local(None::<Rc<Tape>>);
    let loaded = RwSignal::new(0u32);
    let status = RwSignal::new(String::new());
    let busy = RwSignal::new(false);
    let frame = RwSignal::new(Frame { t0: 0.0, t1: 1.0, lane: None, by_user: false, chosen: None });
    let told = RwSignal::new(None::<Story>);
    let typed = RwSignal::new(String::new());
    // Redraws on a new tape or frame, and when the window's width changes.
    let resized = RwSignal::new(0u32);
    if let Some(w) = web_sys::window() {
        let listener = gloo_events::EventListener::new(&w, "resize", move |_| resized.update(|n| *n += 1));
        // Dropped, and so removed, with this view.
        let _ = StoredValue::new_local(listener);
    }
    Effect::new(move |_| {
        loaded.track();
        resized.track();
        let f = frame.get();
        if let (Some(t), Some(c)) = (tape.get_value(), canvas()) {
            draw::draw(&c, &t, &f, canvas_width());
        }
    });
    let tell = move |task: u32| {
        let Some(t) = tape.get_value() else { return };
        match story(&t, task) {
            Some(s) => {
                frame.update(|f| f.chosen = Some(task));
                told.set(Some(s));
            }
            None => told.set(None),
        }
    };
    let on_click = move |ev: web_sys::MouseEvent| {
        let Some(t) = tape.get_value() else { return };
        let f = frame.get_untracked();
        // The canvas may be drawn wider than it shows (a window made narrower since): back to its own pixels.
        let scale = canvas().map_or(1.0, |c| f64::from(c.width()) / f64::from(c.client_width().max(1)));
        let (px, py) = (f64::from(ev.offset_x()) * scale, f64::from(ev.offset_y()) * scale);
        if let Some(b) = draw::hit(&t, &f, f64::from(canvas().map_or(900, |c| c.width())), px, py) {
            let task = t.bars[b].task;
            typed.set(task.to_string());
            tell(task);
        }
    };
    let zoom = move |factor: f64, around: Option<f64>| {
        frame.update(|f| {
            let c = around.unwrap_or((f.t0 + f.t1) / 2.0);
            let (a, b) = (c - (c - f.t0) * factor, c + (f.t1 - c) * factor);
            if b - a > 1e-6 {
                (f.t0, f.t1) = (a, b);
            }
        })
    };
    let pan = move |by: f64| {
        frame.update(|f| {
            let d = (f.t1 - f.t0) * by;
            (f.t0, f.t1) = (f.t0 + d, f.t1 + d);
        })
    };
    let on_wheel = move |ev: web_sys::WheelEvent| {
        ev.prevent_default();
        let f = frame.get_untracked();
        let scale = canvas().map_or(1.0, |c| f64::from(c.width()) / f64::from(c.client_width().max(1)));
        let width = f64::from(canvas().map_or(900, |c| c.width()));
        let at = draw::time_at(&f, width, f64::from(ev.offset_x()) * scale);
        zoom(if ev.delta_y() > 0.0 { 1.25 } else { 0.8 }, Some(at));
    };
    let whole = move |_| {
        if let Some(t) = tape.get_value() {
            let t0 = t.tasks.first().map_or(0.0, |f| f.arrival).min(t.bars.first().map_or(0.0, |b| b.start));
            frame.update(|f| (f.t0, f.t1) = (t0, t.end.max(t0 + 1.0)));
        }
    };
    let tell_typed = move || {
        let Some(t) = tape.get_value() else { return };
        match typed.get_untracked().trim().parse::<u32>() {
            Ok(task) if (task as usize) < t.tasks.len() => {
                // The window around the task's life.
                let f = &t.tasks[task as usize];
                let end = t.bars_of(task).map(|b| b.end).fold(f.arrival, f64::max);
                let pad = ((end - f.arrival) * 0.5).max(1.0);
                frame.update(|fr| {
                    (fr.t0, fr.t1) = (f.arrival - pad, end + pad);
                    fr.lane = None;
                });
                tell(task);
            }
            _ => {
                told.set(None);
                status.set(format!(
                    "Task: a whole number from 0 to {} (the tape's tasks).",
                    t.tasks.len().saturating_sub(1)
                ));
            }
        }
    };
    let start = move || {
        let s = match split::last(Channel::Ran) {
            Some(ToPanels::Ran(s)) if pick.with_value(Option::is_none) => *s,
            _ => scenario.get_untracked(),
        };
        let trace = shown::trace_file_for(&s);
        busy.set(true);
        status.set("Running the scenario again, recording every task's executions and decisions…".into());
        let on_done: OnDone = Rc::new(move |_, outcome| {
            match outcome.figure().and_then(|r| r.tape().ok_or(JobError::Unexpected("no tape came"))) {
                Ok(t) => {
                    let (t0, t1) = first_window(&t);
                    let cut = if t.cut {
                        format!(
                            " The run is longer than a tape holds: it stops at t = {} s, once {} tasks had arrived.",
                            csv_number(t.end),
                            group_digits(&t.tasks.len().to_string())
                        )
                    } else {
                        String::new()
                    };
                    status.set(format!(
                        "{} executions of {} tasks on {} {}.{cut} Click a task for its story.",
                        // An execution over rows that are not contiguous is several bars.
                        group_digits(&t.bars.iter().filter(|b| !b.continues).count().to_string()),
                        group_digits(&t.tasks.len().to_string()),
                        t.lanes.len(),
                        if t.lanes.len() == 1 { t.words.lane.clone() } else { format!("{}s", t.words.lane) }
                    ));
                    frame.set(Frame { t0, t1, lane: None, by_user: false, chosen: None });
                    told.set(None);
                    let picked = pick.with_value(|p| p.as_ref().and_then(|p| p.task(&t)));
                    tape.set_value(Some(Rc::new(t)));
                    loaded.update(|n| *n += 1);
                    if let Some(task) = picked {
                        typed.set(task.to_string());
                        tell_typed();
                    }
                }
                Err(e) => status.set(format!("No Gantt view: {e}")),
            }
            busy.set(false);
            leptos::task::spawn_local(async move {
                pool.try_update_value(Option::take);
            });
        });
        pool.try_update_value(Option::take);
        match Pool::start_with_trace(vec![Job::Figure(AnyFigureJob::Tape(Box::new(s)))], on_done, trace) {
            Ok(p) => pool.set_value(Some(p)),
            Err(e) => {
                status.set(e.to_string());
                busy.set(false);
            }
        }
    };
    start();
    let lanes = move || {
        loaded.track();
        tape.get_value().map(|t| {
            t.lanes
                .iter()
                .enumerate()
                .map(|(i, l)| view! { <option value=i.to_string()>{format!("{} ({} rows)", l.name, l.rows)}</option> })
                .collect_view()
        })
    };
    let lane_word = move || {
        loaded.track();
        tape.get_value().map(|t| format!("every {}", t.words.lane)).unwrap_or_default()
    };
    view! {
        <div class="gantt" id="gantt">
            <p class="note" role="status" id="gantt-status">
                {move || status.get()}
            </p>
            <div class="compare gantt-tools" hidden=move || loaded.get() == 0>
                <button class="small" id="gantt-zoom-in" on:click=move |_| zoom(0.5, None) aria-label="zoom in">
                    "+"
                </button>
                <button class="small" id="gantt-zoom-out" on:click=move |_| zoom(2.0, None) aria-label="zoom out">
                    "−"
                </button>
                <button class="small" id="gantt-left" on:click=move |_| pan(-0.5) aria-label="earlier">
                    "←"
                </button>
                <button class="small" id="gantt-right" on:click=move |_| pan(0.5) aria-label="later">
                    "→"
                </button>
                <button class="small" id="gantt-whole" on:click=whole>
                    "Whole run"
                </button>
                <label>
                    "Show "
                    <select
                        id="gantt-lane"
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            frame.update(|f| f.lane = v.parse().ok());
                        }
                    >
                        <option value="all">{lane_word}</option>
                        {lanes}
                    </select>
                </label>
                <label>
                    <input
                        type="checkbox"
                        id="gantt-by-user"
                        on:change=move |ev| frame.update(|f| f.by_user = event_target_checked(&ev))
                    />
                    " colour by user"
                </label>
                <label>
                    "Task "
                    <input
                        type="number"
                        id="gantt-task"
                        min="0"
                        step="1"
                        prop:value=move || typed.get()
                        on:input=move |ev| typed.set(event_target_value(&ev))
                        on:keydown=move |ev: web_sys::KeyboardEvent| {
                            if ev.key() == "Enter" {
                                tell_typed();
                            }
                        }
                    />
                </label>
                <button class="small" id="gantt-tell" on:click=move |_| tell_typed()>
                    "Tell its story"
                </button>
                <button class="small" id="gantt-again" disabled=move || busy.get() on:click=move |_| start()>
                    "Run again"
                </button>
            </div>
            <canvas
                id=CANVAS
                class="gantt-canvas"
                role="img"
                aria-label=CANVAS_LABEL
                on:click=on_click
                on:wheel=on_wheel
            ></canvas>
            {move || told.get().map(|s| view! { <StoryView story=s /> })}
        </div>
    }
}

/// A lesson's task story (docs/lessons.md, "A task's story"): what to look for, and on demand the Gantt view of
/// the lesson's run told at the task it picks.
#[component]
pub fn LessonStory(lesson: Lesson) -> impl IntoView {
    let (Some(pick), Some(Ok(s))) = (lesson.story.clone(), lesson.story_scenario()) else { return None };
    let asked = RwSignal::new(false);
    let scenario = Signal::stored(s);
    let what = format!("Tell the story of the task that waited longest under {} (seed 1)", pick.variant);
    let look_for = pick.look_for.clone();
    Some(view! {
        <section class="lesson-story" id="lesson-story" aria-labelledby="lesson-story-title">
            <h3 id="lesson-story-title">"A task's story"</h3>
            <p>"Look for " {look_for}</p>
            <button id="lesson-story-open" hidden=move || asked.get() on:click=move |_| asked.set(true)>
                {what}
            </button>
            {move || asked.get().then(|| view! { <Gantt scenario=scenario pick=pick.clone() /> })}
        </section>
    })
}

/// A task's story and its per-task record.
#[component]
fn StoryView(story: Story) -> impl IntoView {
    let lines = story
        .lines
        .into_iter()
        .map(|l| {
            // Readable here; the record below has every digit.
            let at = l.at.map(|t| {
                let r = format!("{t:.1}");
                let (whole, tenth) = r.split_once('.').unwrap_or((&r, "0"));
                format!("t = {}.{tenth} s", crate::words::group_digits(whole))
            });
            view! {
                <li>
                    {at
                        .map(|a| {
                            view! {
                                <span class="gantt-at">{a}</span>
                                " "
                            }
                        })} {l.text}
                </li>
            }
        })
        .collect_view();
    let record = (!story.record.is_empty()).then(|| {
        let rows = story
            .record
            .into_iter()
            .map(|(k, v)| {
                view! {
                    <tr>
                        <th scope="row">{k.clone()}</th>
                        <td data-col=k>{v}</td>
                    </tr>
                }
            })
            .collect_view();
        view! {
            <table class="gantt-record" id="gantt-record">
                <caption>"Its per-task record (the row of bagsim run --jobs, docs/jobs.md)"</caption>
                <tbody>{rows}</tbody>
            </table>
        }
    });
    view! {
        <section class="gantt-story" id="gantt-story" aria-live="polite" data-task=story.task.to_string()>
            <h3>{story.title}</h3>
            <ol id="gantt-story-lines">{lines}</ol>
            {record}
        </section>
    }
}
