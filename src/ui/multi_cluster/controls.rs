//! The scenario form: one control per parameter, each with the paper's definition; bad input is reported at the
//! control and changes nothing else.

use crate::family::multi_cluster::architecture::{Architecture, EligibleSet, FcondorMove};
use crate::family::multi_cluster::platform::{das2_g5k, Cluster, PlatformPreset};
use crate::family::multi_cluster::policy::predictor::{PredictorInput, PredictorModel};
use crate::family::multi_cluster::policy::scheduling::SchedulingPolicy;
use crate::family::multi_cluster::policy::selection::SelectionPolicy;
use crate::scenario::Scenario;
use crate::ui::address::remember;
use crate::ui::form::{apply, error_view};
use crate::ui::form::{mc, mcm};
use crate::ui::lab::Lab;
use crate::ui::section::Section;
use crate::workload::generate::ArrivalPattern;
use crate::workload::generators::Generator;
use crate::workload::model::{Calibration, NormalParam, Preset};
use crate::workload::streams::{LoadSplit, Streams};
use leptos::prelude::*;

fn parse_number(text: &str, what: &str) -> Result<f64, String> {
    let t = text.trim();
    t.parse::<f64>().ok().filter(|v| v.is_finite()).ok_or_else(|| format!("{t:?} is not a number; {what}"))
}

fn optional_number(text: &str, what: &str) -> Result<Option<f64>, String> {
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
    edit: fn(&mut Scenario, &str) -> Result<(), String>,
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
    let sc = lab.scenario;
    let seed = Memo::new(move |_| sc.with(|s| mc(s).seed.to_string()));
    let load = Memo::new(move |_| sc.with(|s| fmt_opt(mc(s).workload.load)));
    let days = Memo::new(move |_| sc.with(|s| format!("{}", mc(s).workload.submission_period / 86_400.0)));
    let median = Memo::new(move |_| sc.with(|s| fmt_opt(mc(s).workload.median_size)));
    let runtime = Memo::new(move |_| sc.with(|s| fmt_opt(mc(s).workload.mean_runtime.map(|r| r / 60.0))));
    let max_size = Memo::new(move |_| sc.with(|s| mc(s).workload.max_size.to_string()));
    let monitoring = Memo::new(move |_| sc.with(|s| format!("{}", mc(s).architecture.monitoring_period)));
    let inaccuracy = Memo::new(move |_| sc.with(|s| format!("{}", mc(s).inaccuracy)));
    let period = Memo::new(move |_| sc.with(|s| format!("{}", mc(s).scheduling_period)));
    let replicas = Memo::new(move |_| {
        sc.with(|s| match mc(s).scheduling {
            SchedulingPolicy::Wqr { replicas } => replicas.to_string(),
            _ => "2".to_string(),
        })
    });
    let is_csp = Memo::new(move |_| sc.with(|s| mc(s).architecture.kind == Architecture::Csp));
    let scheduling_name = Memo::new(move |_| sc.with(|s| mc(s).scheduling.kind()));
    let custom_platform = Memo::new(move |_| sc.with(|s| mc(s).platform.preset.is_none()));
    let preset_is = move |p: PlatformPreset| sc.with(|s| mc(s).platform.preset == Some(p));
    let clusters = Memo::new(move |_| sc.with(|s| mc(s).platform.clusters().unwrap_or_default()));

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
    let scheduling_summary = Signal::derive(move || {
        sc.with(|s| format!("{} · {} · inaccuracy {}%", mc(s).selection.name(), mc(s).scheduling, mc(s).inaccuracy))
    });
    let platform_summary = Signal::derive(move || {
        sc.with(|s| match (mc(s).platform.preset, mc(s).platform.clusters()) {
            (Some(_), Ok(c)) => format!("DAS-2 + Grid'5000, {} clusters", c.len()),
            (None, Ok(c)) => format!(
                "custom, {} clusters, {} processors",
                c.len(),
                c.iter().map(|c| u64::from(c.processors)).sum::<u64>()
            ),
            (_, Err(e)) => e.to_string(),
        })
    });

    let policy_info = move || {
        sc.with(|s| {
            let (r, t) = mc(s).scheduling.information();
            format!("{} Resources: {}; task runtimes: {}.", mc(s).scheduling.description(), r.words(), t.words())
        })
    };

    // The workload's section is built with the panel; the others follow one per task (the platform's table of
    // clusters is the largest part of the page), so that none holds the page for long while it loads.
    let built = RwSignal::new(1u8);
    for k in 2..=4 {
        set_timeout(move || built.set(k), std::time::Duration::ZERO);
    }
    let at = move |k: u8| move || built.get() >= k;

    view! {
        <Section id="sec-workload" title="Workload" summary=workload_summary>
            {move || {
                sc
                    .with(|s| {
                        let text = match (&mc(s).workload.trace, &mc(s).workload.model) {
                            (Some(t), _) => {
                                format!(
                                    "The trace {} is replayed (BoTs by Δ = {} s); the model settings below are not used.",
                                    t.path,
                                    t.delta,
                                )
                            }
                            (None, Some(_)) => {
                                "A model row from the Workload lab replaces the preset (runtimes in seconds)."
                                    .to_string()
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
                "Table 3: the BoT model of Iosup et al. 2008 (the preset below). Login/Logout: users logging in and out and submitting jobs while logged in, the four fitted Biomed users (Medernach 2005 §5, Fig. 10). Minh & Wolters 2010: BoTs with Zipf sizes and one runtime each (Algorithm 1). The load, period and streams below apply to all three; docs/workload-models.md.",
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
                                            sc
                                                .with(|s| {
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
                "A row of Table 3: T1 DAS-2, T2 Grid'5000, T3 NGS, T4 AuverGrid, T5 SHARCNET, T6 LCG, T7 NorduGrid, Avg the average system (§3.1).",
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
                "Target offered load: Σ task runtimes / (Σ processor speeds × submission period), 0.05–0.99 (§4.2; the paper sweeps 0.20–0.95).",
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
                "Realistic: peak-hour IATs and the daily cycle; All at T=0: extreme burstiness; Evenly spread: equal IATs (§5.2, Fig. 5).",
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
                "Per cluster: each cluster receives its own independent stream with its own users, scaled as the load split says (Iosup et al. 2008, §4.2). Global: one stream for the platform, user u homed at cluster u mod C.",
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
                "Table 3 gives log2 of the task runtimes without a unit or bounds. Minutes, ART ≤ 30 days (the default) or seconds, ART ≤ 2^20 s. docs/model.md, Which runtime reading.",
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
                "Table 3 writes the ART as N(2.73, 6.1) without saying whether 6.1 is a variance or a standard deviation. Variance (the default): tasks of about 29 minutes on average, and queues form from 70% load. Standard deviation: a mean of 27 hours carried by rare tasks of weeks, and no task ever waits under csp (docs/model.md).",
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
                "How the per-cluster streams share the target load. Equal: every stream carries the same share of the platform's load (the default: Iosup et al. 2008 §5.5 says sep-c cannot complete all tasks from 50% load, impossible if each cluster ran at the load of its own capacity). Capacity: each stream carries the load of its own cluster. docs/model.md, Readings.",
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
                "Rescales BoT sizes to this median keeping their coefficient of variation (§5.2, Fig. 6: 10–50). Empty: the preset's.",
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
                            return Err(format!("{v} is not a whole number of tasks ≥ 1"));
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

        <Show when=at(2)>
            <Section id="sec-resources" title="Resource management" summary=resources_summary>
                {field(
                    "Architecture (Iosup et al. 2008, §2.2)",
                    "sep-c: each user submits to its home cluster only; csp: a global queue over all clusters, fed by a monitoring service; fcondor: a user moves to the next cluster when its tasks start to queue.",
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
                    "\"Only after all the tasks in the schedule are completed is a new eligible set generated\" (§2.2). Dispatched: once every task of the set has been sent to a processor (the default); completed: once every one has finished. docs/model.md, Readings.",
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
                    "When an fcondor user moves to the next cluster: as soon as one of its tasks queues (task, the default), or after a BoT sent whole to one cluster of which some task queued (BoT).",
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
        </Show>

        <Show when=at(3)>
            <Section id="sec-scheduling" title="Scheduling" summary=scheduling_summary>
                {field(
                    "Task selection (Iosup et al. 2008, §2.3)",
                    "Which waiting tasks form the next eligible set, or your own policy written as a script (docs/policies.md).",
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
                                            super::script_editor::default_selection_script()
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
                        <super::script_editor::SelectionEditor />
                    },
                )}
                {field(
                    "Task scheduling (Iosup et al. 2008, §2.4, Table 1)",
                    "Which eligible task goes to which cluster, and what the policy knows of the resources (their speeds and free processors) and of the task runtimes: known a priori, from history (earlier tasks), or unknown (Table 1 writes these K, H and U).",
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
                                            super::script_editor::default_script()
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
                        <super::script_editor::ScriptEditor />
                    },
                )}
                <div class="field" style=move || if scheduling_name.get() == "WQR" { "" } else { "display:none" }>
                    <label
                        for="replicas"
                        title="Extra copies per task beyond the original; WQR-1 is RR. The paper's WQR4x is its own menu entry (four replicas by default; policy_options.wqr_nx)."
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
                        title="The time-series model ECT-P predicts runtimes with (Iosup et al. 2008, Table 4), and its history: the BoT's own completed tasks (batch) or all of the user's (user)."
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
                    "Each runtime estimate is max(R + (E/100)·R, 1 s) with E uniform in [−I, +I]; ECT, FPLT, DFPLT and STFR see only estimates. 0 – 10 000%.",
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
        </Show>

        <Show when=at(4)>
            <Section id="sec-platform" title="Platform" summary=platform_summary>
                {field(
                    "Clusters",
                    "DAS-2 + Grid'5000: 20 clusters, 3 674 processors, speeds 1.0–1.75 (Iosup et al. 2008, §4.1; documented preset); or 20 equal clusters with the same totals, a reading under which the two load splits coincide. A task of reference runtime R runs R / speed seconds.",
                    "platform",
                    view! {
                        <select
                            id="platform-preset"
                            on:change=move |ev| {
                                let v = event_target_value(&ev);
                                apply(
                                    lab,
                                    "platform",
                                    |s| {
                                        if v == "custom" {
                                            mcm(s)?.platform.clusters = Some(mcm(s)?.platform.clusters()?);
                                            mcm(s)?.platform.preset = None;
                                        } else {
                                            mcm(s)?.platform.preset = Some(
                                                PlatformPreset::from_name(&v)
                                                    .ok_or_else(|| format!("unknown platform {v:?}"))?,
                                            );
                                            mcm(s)?.platform.clusters = None;
                                        }
                                        Ok(())
                                    },
                                )
                            }
                        >
                            {PlatformPreset::ALL
                                .iter()
                                .map(|&p| {
                                    view! {
                                        <option value=p.name() selected=move || preset_is(p)>
                                            {p.label()}
                                        </option>
                                    }
                                })
                                .collect_view()}
                            <option value="custom" selected=move || custom_platform.get()>
                                "custom (edit below)"
                            </option>
                        </select>
                    },
                )}
                <table class="clusters" style=move || if custom_platform.get() { "" } else { "display:none" }>
                    <thead>
                        <tr>
                            <th>"name"</th>
                            <th>"processors"</th>
                            <th>"speed"</th>
                            <th>
                                <span class="visually-hidden">"remove"</span>
                            </th>
                        </tr>
                    </thead>
                    <tbody>
                        {move || {
                            clusters
                                .get()
                                .into_iter()
                                .enumerate()
                                .map(|(i, c)| {
                                    view! {
                                        <tr>
                                            <td>
                                                <input
                                                    class="cluster-name"
                                                    aria-label=format!("name of cluster {}", i + 1)
                                                    prop:value=c.name.clone()
                                                    on:change=move |ev| {
                                                        let v = event_target_value(&ev);
                                                        apply(
                                                            lab,
                                                            "platform",
                                                            |s| edit_cluster(
                                                                s,
                                                                i,
                                                                |c| {
                                                                    c.name = v;
                                                                    Ok(())
                                                                },
                                                            ),
                                                        )
                                                    }
                                                />
                                            </td>
                                            <td>
                                                <input
                                                    class="cluster-processors"
                                                    aria-label=format!("processors of cluster {}", i + 1)
                                                    type="number"
                                                    min="1"
                                                    prop:value=c.processors.to_string()
                                                    on:change=move |ev| {
                                                        let v = event_target_value(&ev);
                                                        apply(
                                                            lab,
                                                            "platform",
                                                            |s| edit_cluster(
                                                                s,
                                                                i,
                                                                |c| {
                                                                    c.processors = v
                                                                        .trim()
                                                                        .parse::<u32>()
                                                                        .map_err(|_| {
                                                                            format!(
                                                                                "cluster {}: {:?} is not a whole number of processors ≥ 1",
                                                                                i + 1,
                                                                                v.trim(),
                                                                            )
                                                                        })?;
                                                                    Ok(())
                                                                },
                                                            ),
                                                        )
                                                    }
                                                />
                                            </td>
                                            <td>
                                                <input
                                                    class="cluster-speed"
                                                    aria-label=format!("speed of cluster {}", i + 1)
                                                    type="number"
                                                    step="0.05"
                                                    prop:value=c.speed.to_string()
                                                    on:change=move |ev| {
                                                        let v = event_target_value(&ev);
                                                        apply(
                                                            lab,
                                                            "platform",
                                                            |s| edit_cluster(
                                                                s,
                                                                i,
                                                                |c| {
                                                                    c.speed = parse_number(&v, "speed in (0, 1000]")?;
                                                                    Ok(())
                                                                },
                                                            ),
                                                        )
                                                    }
                                                />
                                            </td>
                                            <td>
                                                <button
                                                    class="small"
                                                    aria-label=format!("remove cluster {}", i + 1)
                                                    on:click=move |_| apply(
                                                        lab,
                                                        "platform",
                                                        |s| {
                                                            let mut c = mcm(s)?.platform.clusters()?;
                                                            if c.len() > 1 {
                                                                c.remove(i);
                                                            }
                                                            mcm(s)?.platform.clusters = Some(c);
                                                            Ok(())
                                                        },
                                                    )
                                                >
                                                    "×"
                                                </button>
                                            </td>
                                        </tr>
                                    }
                                })
                                .collect_view()
                        }}
                    </tbody>
                </table>
                <div style=move || if custom_platform.get() { "" } else { "display:none" }>
                    <button
                        class="small"
                        on:click=move |_| apply(
                            lab,
                            "platform",
                            |s| {
                                let mut c = mc(s).platform.clusters()?;
                                c.push(Cluster {
                                    name: format!("cluster-{}", c.len() + 1),
                                    processors: 64,
                                    speed: 1.0,
                                });
                                mcm(s)?.platform.clusters = Some(c);
                                Ok(())
                            },
                        )
                    >
                        "+ cluster"
                    </button>
                    <button
                        class="small"
                        on:click=move |_| apply(
                            lab,
                            "platform",
                            |s| {
                                mcm(s)?.platform.clusters = Some(das2_g5k());
                                Ok(())
                            },
                        )
                    >
                        "reset to DAS-2 + Grid'5000"
                    </button>
                </div>
            </Section>
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

fn edit_cluster(s: &mut Scenario, i: usize, f: impl FnOnce(&mut Cluster) -> Result<(), String>) -> Result<(), String> {
    let mut c = mc(s).platform.clusters()?;
    if let Some(cl) = c.get_mut(i) {
        f(cl)?;
    }
    mcm(s)?.platform.clusters = Some(c);
    mcm(s)?.platform.preset = None;
    Ok(())
}
