//! The data-grid family's controls ([Liu10]): the sites, the workload, the metascheduling scheme (or a script), the
//! local policy and the data settings.

use crate::family::data_grid::policy::SchemePolicy;
use crate::family::data_grid::DdConfig;
use crate::registry::Family;
use crate::scenario::Scenario;
use crate::script::ScriptSource;
use crate::ui::form::Refused;
use crate::ui::form::{number, number_field, parse, select_field, Ctl};
use crate::ui::lab::Lab;
use crate::ui::script_box::{policy_field, PolicyKey};
use leptos::prelude::*;

/// The metascheduling scripts a user starts from ([Liu10]'s finish_time_data_aware written as a script).
pub(super) const SCHEME_EXAMPLES: [(&str, &str); 1] =
    [("finish_time_data_aware", include_str!("../../../examples/policies/finish_time_data_aware.rhai"))];

/// The scenario's data-grid section to change; one of its controls used while another family is shown
/// (they are hidden then) is refused.
pub(super) fn dg(s: &mut Scenario) -> Result<&mut DdConfig, Refused> {
    let family = s.family().name();
    s.data_grid_mut().map(|d| &mut d.data_grid).ok_or(Refused::OtherFamily { setting: "data_grid", family })
}

/// The scenario's data-grid section, or its defaults while another family is shown.
pub(super) fn cfg_of(s: &Scenario) -> DdConfig {
    s.data_grid().map(|d| d.data_grid.clone()).unwrap_or_default()
}

/// A list of whole numbers written "130, 64, 64".
fn parse_sites(text: &str) -> Result<Vec<u32>, Refused> {
    text.split(',').map(|p| parse::<u32>(p, "processors per site, e.g. 130, 64, 64, 128, 32")).collect()
}

/// The data-grid controls.
#[component]
pub fn DdControls() -> impl IntoView {
    let lab = expect_context::<Lab>();
    use crate::family::data_grid::{BackfillRule, Estimates, LocalPolicy, Scheme, Walltime};
    view! {
        <div class="dg-panel" id="dd-controls">
            <p class="help">
                "Rigid parallel jobs of a real log sent by a metascheduler to five sites, each running FCFS with \
                    advance reservations and conservative backfilling (or EASY backfilling, or plain FCFS); half of \
                    the jobs first need input data moved to the site, as in Liu et al. 2010, §III–IV."
            </p>
            <p class="help" id="dd-log">
                "The jobs come from the HPC2N log (Seth, HPC2N, Sweden, 2002), bundled with bagsim; the paper used the \
                    CTC and SDSC logs, which are not bundled, so numbers differ from the paper's figures. "
                <a href="hpc2n.swf" download="hpc2n.swf">
                    "Download the log"
                </a>
                "."
            </p>
            {policy_field(
                Ctl {
                    id: "dd-scheme",
                    label: "Metascheduling scheme",
                    help: "Earliest start, data ignored (start_time_no_data_aware in a scenario file): the site that \
                        can start the job first; the job moves its own data on its processors. Earliest finish, data \
                        moved on the job's processors (finish_time_no_overlap): the site that can finish it first \
                        counting the transfer, which still runs on its processors. Earliest finish, data moved while \
                        the job queues (finish_time_data_aware): the site that finishes it first, the data moving from \
                        dispatch on, while the job waits in the queue (§IV). Or your own scheme written as a script \
                        (docs/policies.md)",
                    path: "data_grid.scheme",
                },
                PolicyKey {
                    family: Family::DataGrid,
                    key: "scheme",
                    choices: (&Scheme::ALL, Scheme::name, |v| v.label().to_string()),
                    builtin: |s| cfg_of(s).scheme.builtin(),
                    script: |s| cfg_of(s).scheme.script().map(str::to_string),
                    set_builtin: |s, v| {
                        dg(s)?.scheme = v.into();
                        Ok(())
                    },
                    set_script: |s, text| {
                        dg(s)?.scheme = SchemePolicy::Script(ScriptSource::new(text));
                        Ok(())
                    },
                    examples: &SCHEME_EXAMPLES,
                    script_id: "dd-scheme-script",
                    box_id: "dd-scheme-script-editor",
                },
            )}
            {select_field(
                Ctl {
                    id: "dd-local-policy",
                    label: "Local scheduler of each site",
                    help: "conservative: every queued job holds a reservation, and a job may start early only where it \
                        delays none (the paper's, §IV-A); easy: only the first queued job holds one, and a later job \
                        starts now if it does not delay that one; fcfs: jobs start in the order they reached the site",
                    path: "data_grid.local_policy",
                },
                (&LocalPolicy::ALL, LocalPolicy::name, |v| v.name().to_string()),
                |s| cfg_of(s).local_policy,
                |s, v| {
                    dg(s)?.local_policy = v;
                    Ok(())
                },
            )}
            {number_field(
                Ctl {
                    id: "dd-depth",
                    label: "Backfill depth",
                    help: "queued jobs a site's scheduler considers per pass (Slurm's bf_max_job_test); 0: all, as in \
                        the paper",
                    path: "data_grid.backfill_depth",
                },
                "10",
                |s| cfg_of(s).backfill_depth.to_string(),
                |s, t| {
                    dg(s)?.backfill_depth = parse(t, "a whole number of jobs, 0 for all")?;
                    Ok(())
                },
            )}
            {select_field(
                Ctl {
                    id: "dd-backfill",
                    label: "Backfill rule",
                    help: "data_aware: a job whose data is still arriving may take a hole that holds its remaining \
                        transfer and its computation (§III); data_arrived: only jobs whose data has arrived, or that \
                        need none",
                    path: "data_grid.backfill_rule",
                },
                (&BackfillRule::ALL, BackfillRule::name, |v| v.name().to_string()),
                |s| cfg_of(s).backfill_rule,
                |s, v| {
                    dg(s)?.backfill_rule = v;
                    Ok(())
                },
            )}
            {number_field(
                Ctl {
                    id: "dd-share",
                    label: "Share of jobs with data",
                    help: "the fraction of jobs that need input data moved (0.5 in the paper; Fig. 9 varies it)",
                    path: "data_grid.data_share",
                },
                "0.1",
                |s| cfg_of(s).data_share.to_string(),
                |s, t| {
                    dg(s)?.data_share = number(t, "a fraction between 0 and 1")?;
                    Ok(())
                },
            )}
            {number_field(
                Ctl {
                    id: "dd-data-max",
                    label: "Largest data size [GB]",
                    help: "sizes are uniform from 10 MB to this (10 GB or 800 GB in the paper)",
                    path: "data_grid.data_mb",
                },
                "10",
                |s| (cfg_of(s).data_mb[1] / 1000.0).to_string(),
                |s, t| {
                    dg(s)?.data_mb[1] = number(t, "gigabytes, e.g. 10 or 800")? * 1000.0;
                    Ok(())
                },
            )}
            {number_field(
                Ctl {
                    id: "dd-factor",
                    label: "Runtime factor (load)",
                    help: "every runtime and estimate multiplied by this: 1 is the log's load, 3 the paper's high load \
                        (§IV-A)",
                    path: "data_grid.runtime_factor",
                },
                "1",
                |s| cfg_of(s).runtime_factor.to_string(),
                |s, t| {
                    dg(s)?.runtime_factor = number(t, "a factor such as 1 or 3")?;
                    Ok(())
                },
            )}
            {select_field(
                Ctl {
                    id: "dd-estimates",
                    label: "Runtime estimates",
                    help: "requested: the log's requested time, as users give it; accurate: the actual runtime (Fig. \
                        7)",
                    path: "data_grid.estimates",
                },
                (&Estimates::ALL, Estimates::name, |v| v.name().to_string()),
                |s| cfg_of(s).estimates,
                |s, v| {
                    dg(s)?.estimates = v;
                    Ok(())
                },
            )}
            {select_field(
                Ctl {
                    id: "dd-walltime",
                    label: "Job past its request",
                    help: "run_to_log: the job runs to its logged time, its request raised to it (the site then knows \
                        its runtime); kill: stopped at its requested time, as batch systems do, the site seeing only \
                        requests",
                    path: "data_grid.walltime",
                },
                (&Walltime::ALL, Walltime::name, |v| v.name().to_string()),
                |s| cfg_of(s).walltime,
                |s, v| {
                    dg(s)?.walltime = v;
                    Ok(())
                },
            )}
            <div class="field">
                <label for="dd-sites" title="processors of each site">
                    "Sites (processors each)"
                </label>
                <input
                    id="dd-sites"
                    prop:value=move || {
                        lab.scenario.with(|s| cfg_of(s).sites.iter().map(u32::to_string).collect::<Vec<_>>().join(", "))
                    }
                    on:change=move |ev| {
                        let text = event_target_value(&ev);
                        crate::ui::form::apply(
                            lab,
                            "data_grid.sites",
                            |s| {
                                dg(s)?.sites = parse_sites(&text)?;
                                Ok(())
                            },
                        )
                    }
                />
                <div class="help">"130, 64, 64, 128, 32 in the paper (§IV-A)"</div>
                {crate::ui::form::error_view("data_grid.sites")}
            </div>
            <div class="field">
                <label for="dd-trace" title="the workload log the jobs come from">
                    "Log"
                </label>
                <input
                    id="dd-trace"
                    prop:value=move || lab.scenario.with(|s| cfg_of(s).trace)
                    on:change=move |ev| {
                        let text = event_target_value(&ev);
                        crate::ui::form::apply(
                            lab,
                            "data_grid.trace",
                            |s| {
                                dg(s)?.trace = text.trim().to_string();
                                Ok(())
                            },
                        )
                    }
                />
                <div class="help">
                    "hpc2n.swf (bundled), or the file name of a log loaded in the multi-cluster family's Workload lab"
                </div>
                {crate::ui::form::error_view("data_grid.trace")}
            </div>
            {number_field(
                Ctl {
                    id: "dd-jobs",
                    label: "Jobs",
                    help: "how many consecutive jobs of the log the run takes (5 000 in the paper; the bundled log has \
                        3 170)",
                    path: "data_grid.jobs",
                },
                "100",
                |s| cfg_of(s).jobs.to_string(),
                |s, t| {
                    dg(s)?.jobs = parse(t, "a whole number of jobs")?;
                    Ok(())
                },
            )}
            {number_field(
                Ctl {
                    id: "dd-seed",
                    label: "Seed",
                    help: "the seed of the data and bandwidth draws: the same seed gives the same run under every \
                        scheme",
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
