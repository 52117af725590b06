//! The desktop-grid family's controls ([Anglano09]): the grid and its availability, the workload, the BoT-selection
//! policy (or a script), replication and checkpointing.

use crate::family::desktop_grid::availability::AvailabilityLevel;
use crate::family::desktop_grid::config::{CheckpointStore, Heterogeneity, LongIdleRule};
use crate::family::desktop_grid::policy::{BotPolicy, BotSelection};
use crate::family::desktop_grid::workload::Mix;
use crate::family::desktop_grid::DgConfig;
use crate::registry::Family;
use crate::scenario::Scenario;
use crate::script::ScriptSource;
use crate::ui::form::Refused;
use crate::ui::form::{number, number_field, parse, select_field, Ctl};
use crate::ui::script_box::{policy_field, PolicyKey};
use leptos::prelude::*;

/// The BoT-selection scripts a user starts from ([Anglano09]'s RR-NRF written as a script).
pub(super) const BOT_SELECTION_EXAMPLES: [(&str, &str); 1] =
    [("RR-NRF", include_str!("../../../examples/policies/rr_nrf.rhai"))];

/// The scenario's desktop-grid section to change; one of its controls used while another family is shown
/// (they are hidden then) is refused.
pub(super) fn dg(s: &mut Scenario) -> Result<&mut DgConfig, Refused> {
    let family = s.family().name();
    s.desktop_grid_mut().map(|d| &mut d.desktop_grid).ok_or(Refused::OtherFamily { setting: "desktop_grid", family })
}

/// The scenario's desktop-grid section, or its defaults while another family is shown.
pub(super) fn cfg_of(s: &Scenario) -> DgConfig {
    s.desktop_grid().map(|d| d.desktop_grid.clone()).unwrap_or_default()
}

/// The desktop-grid controls.
#[component]
pub fn DgControls() -> impl IntoView {
    view! {
        <div class="dg-panel" id="dg-controls">
            <p class="help">
                "Volatile desktop machines that fail and come back; BoTs scheduled by WQR-FT (replication with fault \
                    tolerance and checkpoints), as in Anglano & Canonico 2009, §III–IV."
            </p>
            <p class="help" id="dg-combinations">
                "Which policies run where: the five BoT selection policies below run with WQR-FT on desktop grids \
                    only, and the selection and scheduling policies of Iosup et al. 2008 on multi-cluster grids only. \
                    WQR-FT knows nothing of speeds or runtimes and replaces lost work by replicas and checkpoints; the \
                    multi-cluster policies rely on speeds, runtime estimates and machines that never fail, which a \
                    desktop grid does not give."
            </p>
            {select_field(
                Ctl {
                    id: "dg-availability",
                    label: "Availability level",
                    help: "Table II: High (enterprise desktop grids, about 98% availability), Medium (75%), Low \
                        (volunteer computing, 50%)",
                    path: "desktop_grid.availability",
                },
                (
                    &AvailabilityLevel::ALL,
                    AvailabilityLevel::name,
                    |v| match v {
                        AvailabilityLevel::High => "High-Avail".into(),
                        AvailabilityLevel::Medium => "Med-Avail".into(),
                        AvailabilityLevel::Low => "Low-Avail".into(),
                        AvailabilityLevel::AlwaysUp => "Always up (no failures; not in the paper)".into(),
                    },
                ),
                |s| cfg_of(s).availability,
                |s, v| {
                    dg(s)?.availability = v;
                    Ok(())
                },
            )}
            {select_field(
                Ctl {
                    id: "dg-heterogeneity",
                    label: "Machine heterogeneity",
                    help: "Homogeneous: every machine of power 10; Heterogeneous: powers uniform in [2.3, 17.7]; \
                        machines are added until the total power is 1 000",
                    path: "desktop_grid.heterogeneity",
                },
                (
                    &Heterogeneity::ALL,
                    Heterogeneity::name,
                    |v| match v {
                        Heterogeneity::Homogeneous => "Homogeneous".into(),
                        Heterogeneity::Heterogeneous => "Heterogeneous".into(),
                    },
                ),
                |s| cfg_of(s).heterogeneity,
                |s, v| {
                    dg(s)?.heterogeneity = v;
                    Ok(())
                },
            )}
            {select_field(
                Ctl {
                    id: "dg-mix",
                    label: "Task mix (Table III)",
                    help: "the share of Very Small, Small, Medium and Large tasks in every BoT",
                    path: "desktop_grid.mix",
                },
                (
                    &Mix::ALL,
                    Mix::name,
                    |m| {
                        let [vs, s, md, l] = m.shares();
                        format!("{} (VS {vs}%, S {s}%, M {md}%, L {l}%)", m.label())
                    },
                ),
                |s| cfg_of(s).mix,
                |s, v| {
                    dg(s)?.mix = v;
                    Ok(())
                },
            )}
            {number_field(
                Ctl {
                    id: "dg-load",
                    label: "Load factor L",
                    help: "L = λ · C: the arrival rate of BoTs relative to what the grid can serve (0.5, 0.75, 0.95 in \
                        the paper; Eq. 7)",
                    path: "desktop_grid.load",
                },
                "0.05",
                |s| cfg_of(s).load.to_string(),
                |s, t| {
                    dg(s)?.load = number(t, "the load factor L, e.g. 0.75")?;
                    Ok(())
                },
            )}
            {policy_field(
                Ctl {
                    id: "dg-policy",
                    label: "BoT selection policy",
                    help: "which BoT the next free machine serves (§III-C): FCFS-Excl, FCFS-Share, RR, RR-NRF, \
                        LongIdle, or your own policy written as a script (docs/policies.md)",
                    path: "desktop_grid.bot_selection",
                },
                PolicyKey {
                    family: Family::DesktopGrid,
                    key: "bot_selection",
                    choices: (&BotSelection::ALL, BotSelection::name, |p| p.label().to_string()),
                    builtin: |s| cfg_of(s).bot_selection.builtin(),
                    script: |s| cfg_of(s).bot_selection.script().map(str::to_string),
                    set_builtin: |s, v| {
                        dg(s)?.bot_selection = v.into();
                        Ok(())
                    },
                    set_script: |s, text| {
                        dg(s)?.bot_selection = BotPolicy::Script(ScriptSource::new(text));
                        Ok(())
                    },
                    examples: &BOT_SELECTION_EXAMPLES,
                    script_id: "dg-policy-script",
                    box_id: "dg-policy-script-editor",
                },
            )}
            {number_field(
                Ctl {
                    id: "dg-threshold",
                    label: "Replication threshold (RepThresh)",
                    help: "the most replicas of one task WQR-FT runs at once; empty = 2, unlimited for FCFS-Excl \
                        (§IV-C)",
                    path: "desktop_grid.rep_thresh",
                },
                "1",
                |s| cfg_of(s).rep_thresh.map_or(String::new(), |r| r.to_string()),
                |s, t| {
                    dg(s)?.rep_thresh = if t.trim().is_empty() {
                        None
                    } else {
                        Some(parse(t, "a whole number of replicas, at least 1")?)
                    };
                    Ok(())
                },
            )}
            {number_field(
                Ctl {
                    id: "dg-weibull",
                    label: "Weibull shape of the time to failure",
                    help: "shape of the machines' Weibull time to failure; its scale keeps the mean at the group's \
                        MTTF (Table II)",
                    path: "desktop_grid.weibull_shape",
                },
                "0.05",
                |s| cfg_of(s).weibull_shape.to_string(),
                |s, t| {
                    dg(s)?.weibull_shape = number(t, "a shape such as 0.7")?;
                    Ok(())
                },
            )}
            {number_field(
                Ctl {
                    id: "dg-checkpoint",
                    label: "Checkpoint period [s]",
                    help: "a running replica saves a checkpoint after every this many seconds of its own execution",
                    path: "desktop_grid.checkpoint_period",
                },
                "60",
                |s| cfg_of(s).checkpoint_period.to_string(),
                |s, t| {
                    dg(s)?.checkpoint_period = number(t, "seconds, e.g. 1800")?;
                    Ok(())
                },
            )}
            {select_field(
                Ctl {
                    id: "dg-store",
                    label: "Checkpoint store (a reading)",
                    help: "blocking: the replica stops computing while its checkpoint is stored (U[240, 720] s); \
                        async: it computes on and the checkpoint counts once stored. The paper does not say; \
                        docs/desktop_grid.md, Readings",
                    path: "desktop_grid.checkpoint_store",
                },
                (&CheckpointStore::ALL, CheckpointStore::name, |v| v.name().to_string()),
                |s| cfg_of(s).checkpoint_store,
                |s, v| {
                    dg(s)?.checkpoint_store = v;
                    Ok(())
                },
            )}
            {select_field(
                Ctl {
                    id: "dg-long-idle",
                    label: "LongIdle's idle time (a reading)",
                    help: "accumulated: every candidate task's time without a replica, frozen while it has one; \
                        unreplicated: only tasks without a replica now compete (§III-C)",
                    path: "desktop_grid.long_idle",
                },
                (&LongIdleRule::ALL, LongIdleRule::name, |v| v.name().to_string()),
                |s| cfg_of(s).long_idle,
                |s, v| {
                    dg(s)?.long_idle = v;
                    Ok(())
                },
            )}
            {number_field(
                Ctl {
                    id: "dg-bots",
                    label: "Number of BoTs",
                    help: "how many BoTs the run submits; each holds work of the application size",
                    path: "desktop_grid.bots",
                },
                "1",
                |s| cfg_of(s).bots.to_string(),
                |s, t| {
                    dg(s)?.bots = parse(t, "a whole number of BoTs")?;
                    Ok(())
                },
            )}
            {number_field(
                Ctl {
                    id: "dg-horizon",
                    label: "Horizon [days]",
                    help: "the run stops here at the latest; empty = 4 × the expected submission window",
                    path: "desktop_grid.horizon",
                },
                "1",
                |s| cfg_of(s).horizon.map_or(String::new(), |h| (h / 86_400.0).to_string()),
                |s, t| {
                    dg(s)?.horizon = if t.trim().is_empty() { None } else { Some(number(t, "days")? * 86_400.0) };
                    Ok(())
                },
            )}
            {number_field(
                Ctl {
                    id: "dg-seed",
                    label: "Seed",
                    help: "the seed of every random stream: the same seed gives the same run",
                    path: "seed",
                },
                "1",
                |s| s.seed().to_string(),
                |s, t| {
                    s.set_seed(parse(t, "a whole number ≥ 0")?);
                    Ok(())
                },
            )}
        </div>
    }
}
