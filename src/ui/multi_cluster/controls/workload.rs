//! The scenario form's workload section: the generator, the preset of Table 3 of [Iosup08], load, length, arrivals and
//! streams.

use super::{field, fmt_opt, number_input, optional_number, parse_number};
use crate::ui::form::apply;
use crate::ui::form::{mc, mcm};
use crate::ui::lab::Lab;
use crate::ui::section::Section;
use crate::workload::generate::ArrivalPattern;
use crate::workload::generators::Generator;
use crate::workload::model::{Calibration, NormalParam, Preset};
use crate::workload::streams::{LoadSplit, Streams};
use leptos::prelude::*;

#[component]
pub(super) fn WorkloadSection() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let sc = lab.scenario;
    let seed = Memo::new(move |_| sc.with(|s| mc(s).seed.to_string()));
    let load = Memo::new(move |_| sc.with(|s| fmt_opt(mc(s).workload.load)));
    let days = Memo::new(move |_| sc.with(|s| format!("{}", mc(s).workload.submission_period / 86_400.0)));
    let median = Memo::new(move |_| sc.with(|s| fmt_opt(mc(s).workload.median_size)));
    let runtime = Memo::new(move |_| sc.with(|s| fmt_opt(mc(s).workload.mean_runtime.map(|r| r / 60.0))));
    let max_size = Memo::new(move |_| sc.with(|s| mc(s).workload.max_size.to_string()));

    let workload_summary = Signal::derive(move || {
        sc.with(|s| {
            let source = match (&mc(s).workload.trace, &mc(s).workload.model, &mc(s).workload.generator) {
                (Some(t), _, _) => format!("trace {}", t.path),
                (None, Some(_), _) => "fitted model".to_string(),
                (None, None, Some(g)) => {
                    if g.name() == "login_logout" { "Login/Logout (Medernach 2005)" } else { "Minh & Wolters 2010" }
                        .to_string()
                }
                (None, None, None) => format!("Table 3 {}", mc(s).workload.preset.name()),
            };
            let load = mc(s).workload.load.map_or("native load".to_string(), |l| format!("load {l}"));
            format!("{source} · {load} · {} days · seed {}", mc(s).workload.submission_period / 86_400.0, mc(s).seed)
        })
    });

    view! {
        <Section id="sec-workload" title="Workload" summary=workload_summary>
            {move || {
                sc.with(|s| {
                    let text = match (&mc(s).workload.trace, &mc(s).workload.model) {
                        (Some(t), _) => {
                            format!(
                                "The trace {} is replayed (BoTs by Δ = {} s); the model settings below are not used.",
                                t.path,
                                t.delta,
                            )
                        }
                        (None, Some(_)) => {
                            "A model row from the Workload lab replaces the preset (runtimes in seconds).".to_string()
                        }
                        (None, None) => return None,
                    };
                    let source = if mc(s).workload.trace.is_some() { "trace" } else { "model" };
                    Some(
                        view! {
                            <div class="workload-source" id="workload-source" data-source=source>
                                {text}
                                " "
                                <button
                                    class="small"
                                    id="workload-source-clear"
                                    on:click=move |_| apply(
                                        lab,
                                        "workload",
                                        |s| {
                                            mcm(s)?.workload.trace = None;
                                            mcm(s)?.workload.model = None;
                                            Ok(())
                                        },
                                    )
                                >
                                    "Back to the preset"
                                </button>
                            </div>
                        },
                    )
                })
            }}
            {field(
                "Workload model",
                "Table 3: the BoT model of Iosup et al. 2008 (the preset below). Login/Logout: users logging in and \
                    out and submitting jobs while logged in, the four fitted Biomed users (Medernach 2005 §5, Fig. \
                    10). Minh & Wolters 2010: BoTs with Zipf sizes and one runtime each (Algorithm 1). The load, \
                    period and streams below apply to all three; docs/workload-models.md.",
                "workload.generator",
                view! {
                    <select
                        id="generator"
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            apply(
                                lab,
                                "workload.generator",
                                |s| {
                                    mcm(s)?.workload.generator = if v == "table3" {
                                        None
                                    } else {
                                        Some(
                                            Generator::default_named(&v)
                                                .ok_or_else(|| format!("unknown workload model {v:?}"))?,
                                        )
                                    };
                                    if mcm(s)?.workload.generator.is_some() {
                                        mcm(s)?.workload.trace = None;
                                        mcm(s)?.workload.model = None;
                                    }
                                    Ok(())
                                },
                            )
                        }
                    >
                        <option value="table3" selected=move || sc.with(|s| mc(s).workload.generator.is_none())>
                            "Table 3 BoT model (Iosup et al. 2008)"
                        </option>
                        {Generator::NAMES
                            .iter()
                            .map(|&(name, label)| {
                                view! {
                                    <option
                                        value=name
                                        selected=move || {
                                            sc.with(|s| {
                                                mc(s).workload.generator.as_ref().is_some_and(|g| g.name() == name)
                                            })
                                        }
                                    >
                                        {label}
                                    </option>
                                }
                            })
                            .collect_view()}
                    </select>
                },
            )}
            <crate::ui::login_logout::LoginLogoutEditor />
            {field(
                "Preset (Iosup et al. 2008, Table 3)",
                "A row of Table 3: T1 DAS-2, T2 Grid'5000, T3 NGS, T4 AuverGrid, T5 SHARCNET, T6 LCG, T7 NorduGrid, \
                    Avg the average system (§3.1).",
                "workload.preset",
                view! {
                    <select
                        id="preset"
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            apply(
                                lab,
                                "workload.preset",
                                |s| {
                                    mcm(s)?.workload.preset = v.parse()?;
                                    mcm(s)?.workload.model = None;
                                    mcm(s)?.workload.trace = None;
                                    mcm(s)?.workload.generator = None;
                                    Ok(())
                                },
                            )
                        }
                    >
                        {Preset::ALL
                            .iter()
                            .map(|p| {
                                let p = *p;
                                view! {
                                    <option value=p.name() selected=move || sc.with(|s| mc(s).workload.preset == p)>
                                        {format!("{} — {}", p.name(), p.system())}
                                    </option>
                                }
                            })
                            .collect_view()}
                    </select>
                },
            )}
            {field(
                "Load",
                "Target offered load: Σ task runtimes / (Σ processor speeds × submission period), 0.05–0.99 (§4.2; the \
                    paper sweeps 0.20–0.95).",
                "workload.load",
                number_input(
                    "load",
                    "workload.load",
                    "0.05",
                    load,
                    |s, t| {
                        mcm(s)?.workload.load = optional_number(t, "the load is a fraction, 0.05–0.99")?;
                        Ok(())
                    },
                ),
            )}
            {field(
                "Submission period [days]",
                "BoTs arrive during this period; the run goes on for 30 more days at most (see docs/model.md).",
                "workload.submission_period",
                number_input(
                    "submission-days",
                    "workload.submission_period",
                    "1",
                    days,
                    |s, t| {
                        mcm(s)?.workload.submission_period = parse_number(t, "days")? * 86_400.0;
                        Ok(())
                    },
                ),
            )}
            {field(
                "Arrival pattern",
                "Realistic: peak-hour IATs and the daily cycle; All at T=0: extreme burstiness; Evenly spread: equal \
                    IATs (§5.2, Fig. 5).",
                "workload.arrival_pattern",
                view! {
                    <select
                        id="arrival-pattern"
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            apply(
                                lab,
                                "workload.arrival_pattern",
                                |s| {
                                    mcm(s)?.workload.arrival_pattern = serde_json::from_value(
                                            serde_json::Value::String(v),
                                        )
                                        .map_err(|e| e.to_string())?;
                                    Ok(())
                                },
                            )
                        }
                    >
                        {[
                            (ArrivalPattern::Realistic, "realistic", "Realistic"),
                            (ArrivalPattern::AllAtZero, "all_at_zero", "All at T=0"),
                            (ArrivalPattern::EvenlySpread, "evenly_spread", "Evenly spread"),
                        ]
                            .into_iter()
                            .map(|(p, v, name)| {
                                view! {
                                    <option value=v selected=move || sc.with(|s| mc(s).workload.arrival_pattern == p)>
                                        {name}
                                    </option>
                                }
                            })
                            .collect_view()}
                    </select>
                },
            )}
            {field(
                "Streams",
                "Per cluster: each cluster receives its own independent stream with its own users, scaled as the load \
                    split says (Iosup et al. 2008, §4.2). Global: one stream for the platform, user u homed at cluster \
                    u mod C.",
                "workload.streams",
                view! {
                    <select
                        id="streams"
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            apply(
                                lab,
                                "workload.streams",
                                |s| {
                                    mcm(s)?.workload.streams = serde_json::from_value(serde_json::Value::String(v))
                                        .map_err(|e| e.to_string())?;
                                    Ok(())
                                },
                            )
                        }
                    >
                        {Streams::ALL
                            .into_iter()
                            .map(|m| {
                                view! {
                                    <option value=m.name() selected=move || sc.with(|s| mc(s).workload.streams == m)>
                                        {match m {
                                            Streams::PerCluster => "One per cluster (the paper)",
                                            Streams::Global => "One global stream",
                                        }}
                                    </option>
                                }
                            })
                            .collect_view()}
                    </select>
                },
            )}
            {field(
                "Runtime unit (a reading)",
                "Table 3 gives log2 of the task runtimes without a unit or bounds. Minutes, ART ≤ 30 days (the \
                    default) or seconds, ART ≤ 2^20 s. docs/model.md, Which runtime reading.",
                "workload.calibration",
                view! {
                    <select
                        id="calibration"
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            apply(
                                lab,
                                "workload.calibration",
                                |s| {
                                    mcm(s)?.workload.calibration = serde_json::from_value(serde_json::Value::String(v))
                                        .map_err(|e| e.to_string())?;
                                    Ok(())
                                },
                            )
                        }
                    >
                        {Calibration::ALL
                            .into_iter()
                            .map(|m| {
                                view! {
                                    <option
                                        value=m.name()
                                        selected=move || sc.with(|s| mc(s).workload.calibration == m)
                                    >
                                        {match m {
                                            Calibration::Minutes => "Minutes, ART ≤ 30 days (default)",
                                            Calibration::Seconds => "Seconds, ART ≤ 2^20 s",
                                        }}
                                    </option>
                                }
                            })
                            .collect_view()}
                    </select>
                },
            )}
            {field(
                "Normal law's second parameter (a reading)",
                "Table 3 writes the ART as N(2.73, 6.1) without saying whether 6.1 is a variance or a standard \
                    deviation. Variance (the default): tasks of about 29 minutes on average, and queues form from 70% \
                    load. Standard deviation: a mean of 27 hours carried by rare tasks of weeks, and no task ever \
                    waits under csp (docs/model.md).",
                "workload.normal_param",
                view! {
                    <select
                        id="normal-param"
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            apply(
                                lab,
                                "workload.normal_param",
                                |s| {
                                    mcm(s)?.workload.normal_param = serde_json::from_value(serde_json::Value::String(v))
                                        .map_err(|e| e.to_string())?;
                                    Ok(())
                                },
                            )
                        }
                    >
                        {NormalParam::ALL
                            .into_iter()
                            .map(|m| {
                                view! {
                                    <option
                                        value=m.name()
                                        selected=move || sc.with(|s| mc(s).workload.normal_param == m)
                                    >
                                        {match m {
                                            NormalParam::Variance => "Variance (default)",
                                            NormalParam::Sd => "Standard deviation",
                                        }}
                                    </option>
                                }
                            })
                            .collect_view()}
                    </select>
                },
            )}
            {field(
                "Load split (a reading)",
                "How the per-cluster streams share the target load. Equal: every stream carries the same share of the \
                    platform's load (the default: Iosup et al. 2008 §5.5 says sep-c cannot complete all tasks from 50% \
                    load, impossible if each cluster ran at the load of its own capacity). Capacity: each stream \
                    carries the load of its own cluster. docs/model.md, Readings.",
                "workload.load_split",
                view! {
                    <select
                        id="load-split"
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            apply(
                                lab,
                                "workload.load_split",
                                |s| {
                                    mcm(s)?.workload.load_split = serde_json::from_value(serde_json::Value::String(v))
                                        .map_err(|e| e.to_string())?;
                                    Ok(())
                                },
                            )
                        }
                    >
                        {LoadSplit::ALL
                            .into_iter()
                            .map(|m| {
                                view! {
                                    <option value=m.name() selected=move || sc.with(|s| mc(s).workload.load_split == m)>
                                        {match m {
                                            LoadSplit::Equal => "Equal shares (default)",
                                            LoadSplit::Capacity => "In proportion to capacity",
                                        }}
                                    </option>
                                }
                            })
                            .collect_view()}
                    </select>
                },
            )}
            {field(
                "Median BoT size",
                "Rescales BoT sizes to this median keeping their coefficient of variation (§5.2, Fig. 6: 10–50). \
                    Empty: the preset's.",
                "workload.median_size",
                number_input(
                    "median-size",
                    "workload.median_size",
                    "1",
                    median,
                    |s, t| {
                        mcm(s)?.workload.median_size = optional_number(t, "tasks")?;
                        Ok(())
                    },
                ),
            )}
            {field(
                "Mean task runtime [min]",
                "Rescales the average task runtime (§5.2, Fig. 7: 3 min – 3 h). Empty: the preset's.",
                "workload.mean_runtime",
                number_input(
                    "mean-runtime",
                    "workload.mean_runtime",
                    "1",
                    runtime,
                    |s, t| {
                        mcm(s)?.workload.mean_runtime = optional_number(t, "minutes")?.map(|m| m * 60.0);
                        Ok(())
                    },
                ),
            )}
            {field(
                "Largest BoT",
                "BoT sizes above this are capped.",
                "workload.max_size",
                number_input(
                    "max-size",
                    "workload.max_size",
                    "1",
                    max_size,
                    |s, t| {
                        let v = parse_number(t, "tasks")?;
                        if v < 1.0 || v.fract() != 0.0 {
                            return Err(format!("{v} is not a whole number of tasks ≥ 1").into());
                        }
                        mcm(s)?.workload.max_size = v.min(u32::MAX as f64) as u32;
                        Ok(())
                    },
                ),
            )}
            {field(
                "Seed",
                "Seed of every random stream: the same seed gives the same workload under every policy.",
                "seed",
                number_input(
                    "seed",
                    "seed",
                    "1",
                    seed,
                    |s, t| {
                        mcm(s)?.seed = t
                            .trim()
                            .parse::<u64>()
                            .map_err(|_| format!("{:?} is not a whole number 0 – 18446744073709551615", t.trim()))?;
                        Ok(())
                    },
                ),
            )}

        </Section>
    }
}
