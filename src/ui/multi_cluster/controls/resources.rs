//! The scenario form's resource-management section: the architecture, its eligible set and monitoring, the periodic
//! pass.

use super::{field, number_input, parse_number};
use crate::family::multi_cluster::architecture::{Architecture, EligibleSet, FcondorMove};
use crate::ui::form::{apply, error_view};
use crate::ui::form::{mc, mcm};
use crate::ui::lab::Lab;
use crate::ui::section::Section;
use leptos::prelude::*;

#[component]
pub(super) fn ResourcesSection() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let sc = lab.scenario;
    let monitoring = Memo::new(move |_| sc.with(|s| format!("{}", mc(s).architecture.monitoring_period)));
    let period = Memo::new(move |_| sc.with(|s| format!("{}", mc(s).scheduling_period)));
    let is_csp = Memo::new(move |_| sc.with(|s| mc(s).architecture.kind == Architecture::Csp));

    let resources_summary = Signal::derive(move || {
        sc.with(|s| {
            let monitoring =
                if mc(s).architecture.kind == Architecture::Csp && mc(s).architecture.monitoring_period > 0.0 {
                    format!(", monitoring {} s", mc(s).architecture.monitoring_period)
                } else {
                    String::new()
                };
            format!("{}{monitoring} · periodic pass {} s", mc(s).architecture.kind.name(), mc(s).scheduling_period)
        })
    });

    view! {
        <Section id="sec-resources" title="Resource management" summary=resources_summary>
            {field(
                "Architecture (Iosup et al. 2008, §2.2)",
                "sep-c: each user submits to its home cluster only; csp: a global queue over all clusters, fed by a \
                    monitoring service; fcondor: a user moves to the next cluster when its tasks start to queue.",
                "architecture.kind",
                view! {
                    <select
                        id="architecture"
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            apply(
                                lab,
                                "architecture.kind",
                                |s| {
                                    mcm(s)?.architecture.kind = v.parse()?;
                                    Ok(())
                                },
                            )
                        }
                    >
                        {Architecture::ALL
                            .iter()
                            .map(|a| {
                                let a = *a;
                                view! {
                                    <option
                                        value=a.name()
                                        title=a.description()
                                        selected=move || sc.with(|s| mc(s).architecture.kind == a)
                                    >
                                        {a.name()}
                                    </option>
                                }
                            })
                            .collect_view()}
                    </select>
                },
            )}
            {field(
                "New eligible set (a reading)",
                "\"Only after all the tasks in the schedule are completed is a new eligible set generated\" (§2.2). \
                    Dispatched: once every task of the set has been sent to a processor (the default); completed: once \
                    every one has finished. docs/model.md, Readings.",
                "architecture.eligible_set",
                view! {
                    <select
                        id="eligible-set"
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            apply(
                                lab,
                                "architecture.eligible_set",
                                |s| {
                                    mcm(s)?.architecture.eligible_set = serde_json::from_value(
                                            serde_json::Value::String(v),
                                        )
                                        .map_err(|e| e.to_string())?;
                                    Ok(())
                                },
                            )
                        }
                    >
                        {EligibleSet::ALL
                            .into_iter()
                            .map(|m| {
                                view! {
                                    <option
                                        value=m.name()
                                        selected=move || sc.with(|s| mc(s).architecture.eligible_set == m)
                                    >
                                        {match m {
                                            EligibleSet::Dispatched => "When dispatched (default)",
                                            EligibleSet::Completed => "When completed",
                                        }}
                                    </option>
                                }
                            })
                            .collect_view()}
                    </select>
                },
            )}
            {field(
                "fcondor moves (a reading)",
                "When an fcondor user moves to the next cluster: as soon as one of its tasks queues (task, the \
                    default), or after a BoT sent whole to one cluster of which some task queued (BoT).",
                "architecture.fcondor_move",
                view! {
                    <select
                        id="fcondor-move"
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            apply(
                                lab,
                                "architecture.fcondor_move",
                                |s| {
                                    mcm(s)?.architecture.fcondor_move = serde_json::from_value(
                                            serde_json::Value::String(v),
                                        )
                                        .map_err(|e| e.to_string())?;
                                    Ok(())
                                },
                            )
                        }
                    >
                        {FcondorMove::ALL
                            .into_iter()
                            .map(|m| {
                                view! {
                                    <option
                                        value=m.name()
                                        selected=move || sc.with(|s| mc(s).architecture.fcondor_move == m)
                                    >
                                        {match m {
                                            FcondorMove::Task => "Task by task (default)",
                                            FcondorMove::Bot => "BoT by BoT",
                                        }}
                                    </option>
                                }
                            })
                            .collect_view()}
                    </select>
                },
            )}
            <div class="field" style=move || if is_csp.get() { "" } else { "display:none" }>
                <label
                    for="monitoring-period"
                    title="How often the monitoring service reports free processors to the global RM; 0 = always exact."
                >
                    "Monitoring period [s] (csp)"
                </label>
                {number_input(
                    "monitoring-period",
                    "architecture.monitoring_period",
                    "10",
                    monitoring,
                    |s, t| {
                        mcm(s)?.architecture.monitoring_period = parse_number(t, "seconds, 0 – 86400")?;
                        Ok(())
                    },
                )}
                <div class="help">"0 = exact information; larger values let you study stale information."</div>
                {error_view("architecture.monitoring_period")}
            </div>
            {field(
                "Periodic pass [s]",
                "RMs also schedule periodically; it matters only when information is stale (csp monitoring).",
                "scheduling_period",
                number_input(
                    "scheduling-period",
                    "scheduling_period",
                    "10",
                    period,
                    |s, t| {
                        mcm(s)?.scheduling_period = parse_number(t, "seconds, 1 – 86400")?;
                        Ok(())
                    },
                ),
            )}
        </Section>
    }
}
