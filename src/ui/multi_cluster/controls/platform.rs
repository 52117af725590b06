//! The scenario form's platform section: the preset of DAS-2 and Grid'5000 or a table of clusters, edited in place.

use super::{field, parse_number};
use crate::family::multi_cluster::platform::{das2_g5k, Cluster, PlatformPreset};
use crate::scenario::Scenario;
use crate::ui::form::apply;
use crate::ui::form::Refused;
use crate::ui::form::{mc, mcm};
use crate::ui::lab::Lab;
use crate::ui::section::Section;
use leptos::prelude::*;

#[component]
pub(super) fn PlatformSection() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let sc = lab.scenario;
    let custom_platform = Memo::new(move |_| sc.with(|s| mc(s).platform.preset.is_none()));
    let preset_is = move |p: PlatformPreset| sc.with(|s| mc(s).platform.preset == Some(p));
    let clusters = Memo::new(move |_| sc.with(|s| mc(s).platform.clusters().unwrap_or_default()));

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

    view! {
        <Section id="sec-platform" title="Platform" summary=platform_summary>
            {field(
                "Clusters",
                "DAS-2 + Grid'5000: 20 clusters, 3 674 processors, speeds 1.0–1.75 (Iosup et al. 2008, §4.1; \
                    documented preset); or 20 equal clusters with the same totals, a reading under which the two load \
                    splits coincide. A task of reference runtime R runs R / speed seconds.",
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
                                                                            "cluster {}: {:?} is not a whole number of \
                                                                                processors ≥ 1",
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
    }
}

fn edit_cluster(
    s: &mut Scenario,
    i: usize,
    f: impl FnOnce(&mut Cluster) -> Result<(), Refused>,
) -> Result<(), Refused> {
    let mut c = mc(s).platform.clusters()?;
    if let Some(cl) = c.get_mut(i) {
        f(cl)?;
    }
    mcm(s)?.platform.clusters = Some(c);
    mcm(s)?.platform.preset = None;
    Ok(())
}
