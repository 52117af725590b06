//! The scenario form's scheduling section: BoT selection, task scheduling, runtime estimates and their inaccuracy.

use super::{field, number_input, parse_number};
use crate::family::multi_cluster::policy::predictor::{PredictorInput, PredictorModel};
use crate::family::multi_cluster::policy::scheduling::SchedulingPolicy;
use crate::family::multi_cluster::policy::selection::SelectionPolicy;
use crate::ui::form::apply;
use crate::ui::form::{mc, mcm};
use crate::ui::lab::Lab;
use crate::ui::section::Section;
use leptos::prelude::*;

#[component]
pub(super) fn SchedulingSection() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let sc = lab.scenario;
    let inaccuracy = Memo::new(move |_| sc.with(|s| format!("{}", mc(s).inaccuracy)));
    let replicas = Memo::new(move |_| {
        sc.with(|s| match mc(s).scheduling {
            SchedulingPolicy::Wqr { replicas } => replicas.to_string(),
            _ => "2".to_string(),
        })
    });
    let scheduling_name = Memo::new(move |_| sc.with(|s| mc(s).scheduling.kind()));

    let scheduling_summary = Signal::derive(move || {
        sc.with(|s| format!("{} · {} · inaccuracy {}%", mc(s).selection.name(), mc(s).scheduling, mc(s).inaccuracy))
    });

    let policy_info = move || {
        sc.with(|s| {
            let (r, t) = mc(s).scheduling.information();
            format!("{} Resources: {}; task runtimes: {}.", mc(s).scheduling.description(), r.words(), t.words())
        })
    };

    view! {
        <Section id="sec-scheduling" title="Scheduling" summary=scheduling_summary>
            {field(
                "Task selection (Iosup et al. 2008, §2.3)",
                "Which waiting tasks form the next eligible set, or your own policy written as a script \
                    (docs/policies.md).",
                "selection",
                view! {
                    <select
                        id="selection"
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            apply(
                                lab,
                                "selection",
                                |s| {
                                    mcm(s)?.selection = if v == "script" {
                                        super::super::script_editor::default_selection_script()
                                    } else {
                                        v.parse()?
                                    };
                                    Ok(())
                                },
                            )
                        }
                    >
                        {SelectionPolicy::ALL
                            .iter()
                            .map(|p| {
                                let p = p.clone();
                                view! {
                                    <option
                                        value=p.name()
                                        title=p.description()
                                        selected=move || sc.with(|s| mc(s).selection == p)
                                    >
                                        {format!("{} — {}", p.name(), p.description())}
                                    </option>
                                }
                            })
                            .collect_view()}
                        <option value="script" selected=move || sc.with(|s| mc(s).selection.script().is_some())>
                            "Your own policy (a script)"
                        </option>
                    </select>
                    <super::super::script_editor::SelectionEditor />
                },
            )}
            {field(
                "Task scheduling (Iosup et al. 2008, §2.4, Table 1)",
                "Which eligible task goes to which cluster, and what the policy knows of the resources (their speeds \
                    and free processors) and of the task runtimes: known a priori, from history (earlier tasks), or \
                    unknown (Table 1 writes these K, H and U).",
                "scheduling",
                view! {
                    <select
                        id="scheduling"
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            apply(
                                lab,
                                "scheduling",
                                |s| {
                                    mcm(s)?.scheduling = if v == "script" {
                                        super::super::script_editor::default_script()
                                    } else {
                                        SchedulingPolicy::MENU
                                            .into_iter()
                                            .find(|p| p.kind() == v)
                                            .ok_or_else(|| format!("{v:?}: not a task-scheduling policy"))?
                                    };
                                    Ok(())
                                },
                            )
                        }
                    >
                        {SchedulingPolicy::MENU
                            .into_iter()
                            .map(|policy| {
                                let name = policy.kind();
                                let (_, t) = policy.information();
                                view! {
                                    <option value=name selected=move || scheduling_name.get() == name>
                                        {format!("{name} (runtimes {})", t.words())}
                                    </option>
                                }
                            })
                            .collect_view()}
                        <option value="script" selected=move || scheduling_name.get() == "script">
                            "Your own policy (a script)"
                        </option>
                    </select>
                    <div class="policy-info" id="policy-info">
                        {policy_info}
                    </div>
                    <super::super::script_editor::ScriptEditor />
                },
            )}
            <div class="field" style=move || if scheduling_name.get() == "WQR" { "" } else { "display:none" }>
                <label
                    for="replicas"
                    title="Extra copies per task beyond the original; WQR-1 is RR. The paper's WQR4x is its own menu \
                    entry (four replicas by default; policy_options.wqr_nx)."
                >
                    "WQR replicas"
                </label>
                {number_input(
                    "replicas",
                    "scheduling",
                    "1",
                    replicas,
                    |s, t| {
                        mcm(s)?.scheduling = format!("WQR-{}", t.trim()).parse()?;
                        Ok(())
                    },
                )}
            </div>
            <div class="field" style=move || if scheduling_name.get() == "ECT-P" { "" } else { "display:none" }>
                <label
                    for="predictor"
                    title="The time-series model ECT-P predicts runtimes with (Iosup et al. 2008, Table 4), and its \
                    history: the BoT's own completed tasks (batch) or all of the user's (user)."
                >
                    "Predictor (ECT-P)"
                </label>
                <select
                    id="predictor"
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        apply(
                            lab,
                            "predictor.model",
                            |s| {
                                mcm(s)?.predictor.model = serde_json::from_value(serde_json::Value::String(v))
                                    .map_err(|e| e.to_string())?;
                                Ok(())
                            },
                        )
                    }
                >
                    {PredictorModel::ALL
                        .iter()
                        .map(|m| {
                            let m = *m;
                            let v = serde_json::to_value(m)
                                .ok()
                                .and_then(|v| v.as_str().map(str::to_string))
                                .unwrap_or_default();
                            view! {
                                <option
                                    value=v
                                    title=m.description()
                                    selected=move || sc.with(|s| mc(s).predictor.model == m)
                                >
                                    {m.label()}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
                <select
                    id="predictor-input"
                    aria-label="Predictor history (ECT-P)"
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        apply(
                            lab,
                            "predictor.input",
                            |s| {
                                mcm(s)?.predictor.input = PredictorInput::from_name(&v)
                                    .ok_or_else(|| format!("unknown predictor input {v:?}"))?;
                                Ok(())
                            },
                        )
                    }
                >
                    {PredictorInput::ALL
                        .iter()
                        .map(|&i| {
                            view! {
                                <option value=i.name() selected=move || sc.with(|s| mc(s).predictor.input == i)>
                                    {i.label()}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
            </div>
            {field(
                "Inaccuracy I [%] (Iosup et al. 2008, §5.3)",
                "Each runtime estimate is max(R + (E/100)·R, 1 s) with E uniform in [−I, +I]; ECT, FPLT, DFPLT and \
                    STFR see only estimates. 0 – 10 000%.",
                "inaccuracy",
                number_input(
                    "inaccuracy",
                    "inaccuracy",
                    "100",
                    inaccuracy,
                    |s, t| {
                        mcm(s)?.inaccuracy = parse_number(t, "percent, 0 – 10000")?;
                        Ok(())
                    },
                ),
            )}
        </Section>
    }
}
