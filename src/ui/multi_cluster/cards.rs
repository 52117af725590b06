//! The multi-cluster result cards, in readable numbers (an NSL of 142 950 as "142 950×"), each with a "?" that opens
//! its entry in the glossary below them (hover shows it too; a tap needs the button).

use super::McPage;
use crate::family::contract::factor_words as nsl_text;
use crate::ui::lab::{fmt_time, Lab};
use leptos::prelude::*;

/// A fraction as a percentage, as every number is shown.
fn percent(v: f64) -> String {
    format!("{}%", crate::words::number_words(100.0 * v))
}

/// The card values, each with a line in words saying what it is over and in what unit: the final report when
/// there is one, else live figures from the stream.
fn card_values(lab: &Lab, mc: McPage) -> [(f64, String, String); 5] {
    if let Some(r) = mc.report.get() {
        let m = &r.metrics;
        let sys = &m.system;
        let n = crate::words::number_words;
        // The utilization the load speaks of, while work was submitted; the drain after it said apart.
        let (util, util_note) = if sys.utilization_submitting.is_finite() {
            let drain = sys.utilization_drain;
            let drain =
                if drain.is_finite() { format!("; the drain after it {}", percent(drain)) } else { String::new() };
            let period = fmt_time(sys.last_submission - sys.first_submission);
            (sys.utilization_submitting, format!("while work was submitted ({period}){drain}"))
        } else {
            (sys.utilization, "over the whole run".to_string())
        };
        let bots = format!("per BoT, over {} finished", n(m.overall.finished as f64));
        return [
            (
                m.tasks.finished_fraction,
                percent(m.tasks.finished_fraction),
                format!("of {} tasks", n(m.tasks.tasks as f64)),
            ),
            (util, percent(util), util_note),
            (
                m.overall.makespan.mean,
                fmt_time(m.overall.makespan.mean),
                format!("{bots}; median {}", fmt_time(m.overall.makespan.p50)),
            ),
            (
                m.overall.nsl.mean,
                nsl_text(m.overall.nsl.mean),
                format!("{bots}; median {}; below 1×: tasks ran side by side", nsl_text(m.overall.nsl.p50)),
            ),
            (
                m.tasks.wait.mean,
                fmt_time(m.tasks.wait.mean),
                format!("per task; median {}", fmt_time(m.tasks.wait.p50)),
            ),
        ];
    }
    mc.repaint.track();
    let p = lab.progress.get();
    mc.live.with_value(|l| {
        let fin = p.as_ref().map_or(f64::NAN, |p| p.header.finished_tasks as f64 / p.header.tasks.max(1) as f64);
        let util = l.current.mean_utilization();
        let (ms, nsl, wait) = l.current.bot_means();
        let show = |v: f64, f: &dyn Fn(f64) -> String| if v.is_nan() { "—".to_string() } else { f(v) };
        let live = || "live: per BoT finished so far".to_string();
        [
            (fin, show(fin, &percent), "live: of the tasks submitted".into()),
            (util, show(util, &percent), "live: over the run so far".into()),
            (ms, show(ms, &fmt_time), live()),
            (nsl, show(nsl, &nsl_text), live()),
            (wait, show(wait, &fmt_time), live()),
        ]
    })
}

/// The glossary: a term, its entry's id, and what it means here.
const GLOSSARY: [(&str, &str, &str); 7] = [
    (
        "BoT",
        "gl-bot",
        "a bag of tasks: independent tasks a user submits together; it is done when its last task ends \
         (Iosup et al. 2008, §2).",
    ),
    (
        "Finished tasks",
        "gl-finished",
        "tasks that ended before the run stopped, over all tasks submitted; unfinished work is never hidden.",
    ),
    (
        "Utilization",
        "gl-utilization",
        "busy processor-seconds over the processor-seconds the platform had while work was submitted (from the \
         first submission to the last), the period the load is set over; the card says the drain after it apart.",
    ),
    (
        "Makespan",
        "gl-makespan",
        "per BoT: the time from its submission to the end of its last task (Iosup et al. 2008, §4.1).",
    ),
    (
        "NSL",
        "gl-nsl",
        "normalized schedule length, per BoT: its makespan over the sum of its tasks' runtimes on the reference \
         processor (Iosup et al. 2008, §4.1). 1× is as long as running its tasks one after another on one free \
         reference processor; below 1× they ran side by side; 100× is a hundred times as long, mostly waiting.",
    ),
    ("Wait", "gl-wait", "per task: the time from its submission to its first start (live: the mean per BoT)."),
    (
        "Load",
        "gl-load",
        "the work submitted over what the platform can do in the same time; at 0.95 the processors would be busy 95% \
         of the time if nothing were lost.",
    ),
];

/// Opens the glossary at an entry and moves the focus there (a tap on a card's "?").
fn show_entry(open: RwSignal<bool>, id: &'static str) {
    open.set(true);
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    // Opened at once, not at the next reactive update: a closed <details> cannot take the focus.
    if let Some(details) = document.get_element_by_id("glossary") {
        if let Ok(details) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlDetailsElement>(details) {
            details.set_open(true);
        }
    }
    if let Some(el) = document.get_element_by_id(id) {
        el.scroll_into_view();
        if let Ok(el) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(el) {
            let _ = el.focus();
        }
    }
}

#[component]
pub(crate) fn Cards(mc: McPage) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let values = Memo::new(move |_| card_values(&lab, mc));
    let open = RwSignal::new(false);
    let cards = [
        ("card-finished", "Finished tasks", "gl-finished"),
        ("card-utilization", "Utilization", "gl-utilization"),
        ("card-makespan", "Mean makespan", "gl-makespan"),
        ("card-nsl", "Mean NSL", "gl-nsl"),
        ("card-wait", "Mean wait", "gl-wait"),
    ];
    let help = |entry: &str| GLOSSARY.iter().find(|g| g.1 == entry).map_or("", |g| g.2);
    view! {
        <div class="cards">
            {cards
                .into_iter()
                .enumerate()
                .map(|(i, (id, title, entry))| {
                    view! {
                        <div
                            class="card"
                            id=id
                            title=help(entry)
                            data-value=move || values.with(|v| v[i].0.to_string())
                        >
                            <div class="card-title">
                                {title}
                                <button
                                    class="help"
                                    aria-label=format!("what {title} means")
                                    on:click=move |_| show_entry(open, entry)
                                >
                                    "?"
                                </button>
                            </div>
                            <div class="card-value">{move || values.with(|v| v[i].1.clone())}</div>
                            <div class="card-note">{move || values.with(|v| v[i].2.clone())}</div>
                        </div>
                    }
                })
                .collect_view()}
            <div
                class="card"
                id="card-wall"
                title="wall-clock time the worker spent simulating (not generating the workload or computing the \
                report)"
                data-value=move || mc.report.with(|r| r.as_ref().map_or(String::new(), |r| r.wall_time_s.to_string()))
                data-generate=move || lab.phase_times.get().0.map_or(String::new(), |t| t.to_string())
                data-report=move || lab.phase_times.get().1.map_or(String::new(), |t| t.to_string())
            >
                <div class="card-title">"Wall time"</div>
                <div class="card-value">
                    {move || {
                        mc.report.with(|r| r.as_ref().map_or("—".to_string(), |r| format!("{:.2} s", r.wall_time_s)))
                    }}
                </div>
            </div>
        </div>
        <details
            id="glossary"
            class="glossary"
            prop:open=move || open.get()
            on:toggle=move |ev| open.set(event_target::<web_sys::HtmlDetailsElement>(&ev).open())
        >
            <summary>"What these numbers mean"</summary>
            <dl>
                {GLOSSARY
                    .iter()
                    .map(|&(term, id, meaning)| {
                        view! {
                            <dt id=id tabindex="-1">
                                {term}
                            </dt>
                            <dd>{meaning}</dd>
                        }
                    })
                    .collect_view()}
            </dl>
        </details>
    }
}
