//! The multi-cluster keys as `bagsim scenario --doc` and the page list them: path, unit, allowed values, meaning.

use crate::family::contract::Param;

/// Every multi-cluster key (the keys every scenario has, `seed` and `family`, are `scenario::COMMON`).
pub const PARAMS: &[Param] = &crate::family::contract::documented([
    Param {
        path: "platform.preset",
        unit: "",
        allowed: "das2_g5k, uniform20",
        meaning: "das2_g5k: DAS-2 + Grid'5000, 20 clusters, 3 674 processors, speeds 1.0–1.75 ([Iosup08] §4.1); \
                  uniform20: 20 clusters of 184 processors at speed 1.41 (the same totals within 0.2%)",
    },
    Param {
        path: "platform.clusters",
        unit: "",
        allowed: "list of {name, processors ≥ 1, speed in (0, 1000]}",
        meaning: "explicit clusters instead of the preset",
    },
    Param { path: "workload.preset", unit: "", allowed: "T1 … T7, Avg", meaning: "row of [Iosup08] Table 3" },
    Param {
        path: "workload.model",
        unit: "",
        allowed: "null or {users, iat, daily_cycle, size, art, rtv}",
        meaning: "a full BoT model replacing the preset",
    },
    Param {
        path: "workload.load",
        unit: "",
        allowed: "0.05 – 0.99 or null",
        meaning: "target offered load Σ runtimes / (Σ speeds × submission period)",
    },
    Param {
        path: "workload.submission_period",
        unit: "s",
        allowed: "60 – 315 360 000",
        meaning: "BoTs arrive in [0, submission period)",
    },
    Param {
        path: "workload.arrival_pattern",
        unit: "",
        allowed: "realistic, all_at_zero, evenly_spread",
        meaning: "[Iosup08] §5.2, Figure 5",
    },
    Param {
        path: "workload.median_size",
        unit: "tasks",
        allowed: "1 – max_size or null",
        meaning: "rescales BoT sizes to this median, keeping their CV",
    },
    Param {
        path: "workload.mean_runtime",
        unit: "s",
        allowed: "1 – 1 048 576 or null",
        meaning: "rescales the ART so the mean task runtime is this",
    },
    Param {
        path: "workload.max_size",
        unit: "tasks",
        allowed: "1 – 1 000 000",
        meaning: "larger BoT sizes are capped",
    },
    Param {
        path: "workload.streams",
        unit: "",
        allowed: "per_cluster, global",
        meaning:
            "per_cluster: each cluster receives its own independent stream with its own users, at the target load \
             share of workload.load_split ([Iosup08] §4.2); global: one stream, user u homed at cluster u mod C",
    },
    Param {
        path: "workload.load_split",
        unit: "",
        allowed: "equal, capacity",
        meaning: "per-cluster streams: equal, each carries the same share of the target load of the whole platform \
                  (the default, docs/model.md); capacity, each carries the target load of its own cluster's capacity",
    },
    Param {
        path: "workload.calibration",
        unit: "",
        allowed: "minutes, seconds",
        meaning: "unit of the model's ART (RTV in its square) and ART bounds: minutes, [1 s, 30 days] (the default; \
                  gives the task counts of [Iosup08] §4.2) or seconds, [1 s, 2^20 s] (the earlier reading)",
    },
    Param {
        path: "workload.normal_param",
        unit: "",
        allowed: "variance, sd",
        meaning: "the second parameter of the preset row's normal laws (Avg ART N(2.73, 6.1)): a variance (default) \
                  or a standard deviation; [Iosup08] does not say (docs/model.md)",
    },
    Param {
        path: "workload.task_runtime_law",
        unit: "",
        allowed: "lognormal, gamma, normal",
        meaning: "the law of a task's runtime given its BoT's ART (mean) and RTV (variance), each task at least 1 s: \
                  lognormal (default), gamma (the earlier law) or normal; [Iosup08] §3.5 states none (docs/model.md)",
    },
    Param {
        path: "workload.trace",
        unit: "",
        allowed: "null or {path, delta, split_parallel, same_user, format}",
        meaning: "replay a trace (SWF or GWF, plain or gzip) instead of the model: its BoTs arrive at its own submit \
                  times with its own run times (docs/traces.md)",
    },
    Param {
        path: "workload.trace.path",
        unit: "",
        allowed: "a file path",
        meaning: "the trace file, relative to the current directory",
    },
    Param {
        path: "workload.trace.delta",
        unit: "s",
        allowed: "0 – 86 400 (default 100)",
        meaning: "Δ of the BoT rule of [Minh10] §II-C, from the previous job of the BoT",
    },
    Param {
        path: "workload.trace.split_parallel",
        unit: "",
        allowed: "true, false (default)",
        meaning: "a job of p processors becomes p sequential tasks; false: such jobs are left out and counted",
    },
    Param {
        path: "workload.trace.same_user",
        unit: "",
        allowed: "true, false (default)",
        meaning: "BoTs by user alone instead of user, group, queue, executable, requested time and processors",
    },
    Param {
        path: "workload.trace.format",
        unit: "",
        allowed: "swf, gwf, batsim, null",
        meaning: "null: from the file name (.swf, .gwf, .json, optionally .gz), else from the content",
    },
    Param {
        path: "workload.generator",
        unit: "",
        allowed: "null, {login_logout: {…}} or {minh_wolters: {…}}",
        meaning: "another workload model instead of the preset/model (docs/workload-models.md); load scales all its \
                  arrival times by one factor, null keeps its own rates; not with workload.trace",
    },
    Param {
        path: "workload.generator.login_logout.users",
        unit: "s⁻¹",
        allowed: "1–10 000 of {name, lambda (0, 10], delta [0, 10], mu (0, 10]}",
        meaning: "[Medernach05] §5: per user Logout→Login at rate lambda, Login→Logout at rate delta, jobs at rate \
                  mu while logged in; default the four Biomed users of Fig. 10",
    },
    Param {
        path: "workload.generator.login_logout.runtime",
        unit: "s",
        allowed: "a distribution {family, …} with a mean > 0",
        meaning: "runtime of each job (one task per BoT); default log-normal with the Biomed mean 5 417 s and \
                  standard deviation 22 942.2 s ([Medernach05] Table 2)",
    },
    Param {
        path: "workload.generator.minh_wolters.delta",
        unit: "s",
        allowed: "0 – 86 400 (default 100)",
        meaning: "[Minh10] Algorithm 1: a job within Δ of the previous job joins its BoT while the BoT is below its \
                  Zipf size",
    },
    Param {
        path: "workload.generator.minh_wolters.iat",
        unit: "s",
        allowed: "a distribution {family, …} with a mean > 0",
        meaning: "gap between successive job arrivals; default exponential, mean 542 s (HPC2N, [Minh10] §VII-B)",
    },
    Param {
        path: "workload.generator.minh_wolters.bot_size.alpha",
        unit: "",
        allowed: "0 – 10 (default 3.01)",
        meaning: "Zipf exponent of BoT sizes ([Minh10] §VI-C; default fitted to the HPC2N excerpt)",
    },
    Param {
        path: "workload.generator.minh_wolters.bot_size.n",
        unit: "tasks",
        allowed: "1 – 1 000 000 (default 5000)",
        meaning: "largest BoT size of the Zipf law",
    },
    Param {
        path: "workload.generator.minh_wolters.runtime",
        unit: "log2 s",
        allowed: "1–20 of {weight ≥ 0, mu −10–40, sigma 0–20}",
        meaning: "mixture of Gaussians of log2(runtime) drawn once per BoT ([Minh10] §VI-A; default fitted to the \
                  HPC2N excerpt); every job of a BoT repeats it",
    },
    Param {
        path: "workload.generator.minh_wolters.users.alpha",
        unit: "",
        allowed: "0 – 10",
        meaning: "Zipf exponent of the BoT's user (not in [Minh10])",
    },
    Param {
        path: "workload.generator.minh_wolters.users.n",
        unit: "",
        allowed: "1 – 1 000 000 (default 1)",
        meaning: "users per stream",
    },
    Param {
        path: "policy_options.dfplt_unranked",
        unit: "",
        allowed: "first, reference, last",
        meaning: "DFPLT: where a cluster with no completed task yet ranks: before every ranked one (default), at \
                  speed 1.0, or after every ranked one",
    },
    Param {
        path: "policy_options.wqr_nx",
        unit: "",
        allowed: "replicas, copies",
        meaning: "what the n of every WQRnx name (WQR4x in the paper's figures) counts: n replicas per task (default, \
                  [Iosup08] §2.4's naming) or n copies in all; read as policy_options.wqr4x too",
    },
    Param {
        path: "policy_options.prio_order",
        unit: "",
        allowed: "rank, cluster",
        meaning: "S-U-Prio: users ranked by their Zipf rank in their stream (default), or every user of cluster 0 \
                  first",
    },
    Param {
        path: "policy_options.rr_ring",
        unit: "",
        allowed: "platform, speed",
        meaning: "RR, WQR and STFR (no resource information, [Iosup08] Table 1) go round the clusters in the \
                  platform's listed order (default) or fastest first",
    },
    Param {
        path: "architecture.kind",
        unit: "",
        allowed: "sep-c, csp, fcondor",
        meaning: "resource-management architecture ([Iosup08] §2.2)",
    },
    Param {
        path: "architecture.monitoring_period",
        unit: "s",
        allowed: "0 – 86 400",
        meaning: "csp: how often free processors are reported (default 60); 0 = exact",
    },
    Param {
        path: "architecture.eligible_set",
        unit: "",
        allowed: "dispatched, completed",
        meaning: "an RM forms its next eligible set once every task of the current one is dispatched (default) or \
                  has finished ([Iosup08] §2.2; docs/model.md, \"Readings\")",
    },
    Param {
        path: "architecture.fcondor_move",
        unit: "",
        allowed: "task, bot",
        meaning: "fcondor: a user moves to the next RM as soon as one of its tasks queues (task, default) or after a \
                  BoT of which some task queued, each BoT going whole to one RM (bot)",
    },
    Param {
        path: "architecture.site_policy",
        unit: "",
        allowed: "scenario, fcfs",
        meaning: "sep-c and fcondor: every site's RM runs the scenario's selection and scheduling (scenario, default, \
                  [Iosup08] §2.2) or S-T and first come first served on any free processor (fcfs, §4.3)",
    },
    Param {
        path: "selection",
        unit: "",
        allowed: "S-T, S-BoT, S-U-Prio, S-U-T, S-U-BoT, S-U-GRR, S-U-RR",
        meaning: "task-selection policy ([Iosup08] §2.3), or your own as {\"script\": \"…\"} or \
                  {\"script_file\": \"p.rhai\"} (docs/policies.md)",
    },
    Param {
        path: "scheduling",
        unit: "",
        allowed: "ECT, FPLT, RR, WQR4x, WQR-n, DFPLT, ECT-P, STFR, FPF",
        meaning: "task-scheduling policy ([Iosup08] §2.4; WQR4x is one of the WQRnx names, n = 2–16, read by \
                  policy_options.wqr_nx), or your own as {\"script\": \"…\"} or \
                  {\"script_file\": \"p.rhai\"} (docs/policies.md)",
    },
    Param {
        path: "predictor.model",
        unit: "",
        allowed: "LastValue, ExpSmooth, Mean, Mean10, AdpExpSmooth, AutoRegress",
        meaning: "ECT-P's runtime predictor ([Iosup08] Table 4)",
    },
    Param {
        path: "predictor.input",
        unit: "",
        allowed: "batch, user",
        meaning: "history the predictor sees ([Iosup08] §3.7)",
    },
    Param {
        path: "inaccuracy",
        unit: "%",
        allowed: "0 – 10 000",
        meaning: "maximum inaccuracy I: max(R + (E/100)·R, 1), E ~ U[−I, I] ([Iosup08] §5.3), on what inaccuracy_on \
                  says",
    },
    Param {
        path: "inaccuracy_on",
        unit: "",
        allowed: "estimate, runtime",
        meaning: "estimate (default): the task runs R, the scheduler sees the perturbed value; runtime: the task runs \
                  the perturbed value, the scheduler sees R, and the load that runs grows (docs/model.md, \
                  \"Inaccuracy\")",
    },
    Param {
        path: "scheduling_period",
        unit: "s",
        allowed: "1 – 86 400",
        meaning: "periodic scheduling pass, when information can be stale",
    },
    Param {
        path: "horizon",
        unit: "s",
        allowed: "1 – 315 360 000 or null",
        meaning: "end of the run; null = submission period + 30 days",
    },
    Param {
        path: "sample_interval",
        unit: "s",
        allowed: "≥ 1 or null",
        meaning: "time-series sampling interval; null = submission period / 720",
    },
]);
