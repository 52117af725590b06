//! The scenario form: one control per parameter, each with the paper's definition; bad input is reported at the
//! control and changes nothing else.

mod platform;
mod resources;
mod scheduling;
mod workload;

use crate::scenario::Scenario;
use crate::ui::address::remember;
use crate::ui::form::Refused;
use crate::ui::form::{apply, error_view};
use crate::ui::lab::Lab;
use leptos::prelude::*;

crate::ui::form::refused_from!(crate::family::multi_cluster::platform::PlatformError);

fn parse_number(text: &str, what: &str) -> Result<f64, Refused> {
    let t = text.trim();
    t.parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| Refused::Rule(format!("{t:?} is not a number; {what}")))
}

fn optional_number(text: &str, what: &str) -> Result<Option<f64>, Refused> {
    if text.trim().is_empty() {
        Ok(None)
    } else {
        parse_number(text, what).map(Some)
    }
}

/// The id of the control that sets the scenario field `path` (its label's `for`).
fn control_id(path: &str) -> &'static str {
    match path {
        "workload.generator" => "generator",
        "workload.preset" => "preset",
        "workload.load" => "load",
        "workload.submission_period" => "submission-days",
        "workload.arrival_pattern" => "arrival-pattern",
        "workload.streams" => "streams",
        "workload.calibration" => "calibration",
        "workload.normal_param" => "normal-param",
        "workload.load_split" => "load-split",
        "architecture.eligible_set" => "eligible-set",
        "architecture.fcondor_move" => "fcondor-move",
        "workload.median_size" => "median-size",
        "workload.mean_runtime" => "mean-runtime",
        "workload.max_size" => "max-size",
        "architecture.kind" => "architecture",
        "selection" => "selection",
        "scheduling" => "scheduling",
        "inaccuracy" => "inaccuracy",
        "scheduling_period" => "scheduling-period",
        "platform" => "platform-preset",
        _ => "seed",
    }
}

/// A labelled control with its help text and its error line.
fn field(label: &'static str, help: &'static str, path: &'static str, input: impl IntoView) -> impl IntoView {
    view! {
        <div class="field">
            <label title=help for=control_id(path)>
                {label}
            </label>
            {input}
            <div class="help">{crate::ui::form::help_text(help)}</div>
            {error_view(path)}
        </div>
    }
}

fn number_input(
    id: &'static str,
    path: &'static str,
    step: &'static str,
    value: Memo<String>,
    edit: fn(&mut Scenario, &str) -> Result<(), Refused>,
) -> impl IntoView {
    let lab = expect_context::<Lab>();
    view! {
        <input
            type="number"
            id=id
            step=step
            prop:value=move || value.get()
            on:change=move |ev| {
                let text = event_target_value(&ev);
                apply(lab, path, |s| edit(s, &text))
            }
        />
    }
}

fn fmt_opt(v: Option<f64>) -> String {
    v.map_or(String::new(), |v| format!("{v}"))
}

#[component]
pub fn Controls() -> impl IntoView {
    let lab = expect_context::<Lab>();
    // The workload's section is built with the panel; the others follow one per task (the platform's table of
    // clusters is the largest part of the page), so that none holds the page for long while it loads.
    let built = RwSignal::new(1u8);
    for k in 2..=4 {
        set_timeout(move || built.set(k), std::time::Duration::ZERO);
    }
    let at = move |k: u8| move || built.get() >= k;

    view! {
        <workload::WorkloadSection />
        <Show when=at(2)>
            <resources::ResourcesSection />
        </Show>
        <Show when=at(3)>
            <scheduling::SchedulingSection />
        </Show>
        <Show when=at(4)>
            <platform::PlatformSection />
        </Show>
        <button
            class="small"
            id="reset"
            on:click=move |_| {
                lab.errors.set(Default::default());
                remember(lab, &Scenario::default());
                lab.scenario.set(Scenario::default());
            }
        >
            "Reset all to defaults"
        </button>
    }
}
