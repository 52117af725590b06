//! Every key of a data-grid scenario's section with its unit, allowed values and meaning: what `bagsim scenario
//! --doc --family data_grid` prints.

use crate::family::contract::Param;

/// Every key of a data-grid scenario's section (`bagsim scenario --doc --family data_grid`).
pub const PARAMS: &[Param] = &crate::family::contract::documented([
    Param {
        path: "data_grid.sites",
        unit: "processors",
        allowed: "1–64 sites of 1 – 100 000",
        meaning: "processors of each site ([Liu10] §IV-A: 130, 64, 64, 128, 32)",
    },
    Param {
        path: "data_grid.bandwidth_mbit",
        unit: "Mbit/s",
        allowed: "[lo, hi], 0.001 ≤ lo ≤ hi ≤ 10^6",
        meaning: "bandwidth of each transfer, uniform in [lo, hi] (10–100, §IV-A); static during the transfer (§III)",
    },
    Param {
        path: "data_grid.data_share",
        unit: "",
        allowed: "0 – 1",
        meaning: "share of the jobs that need input data moved (0.5, §IV-A; Fig. 9 varies it)",
    },
    Param {
        path: "data_grid.data_mb",
        unit: "MB",
        allowed: "[lo, hi], 0 ≤ lo ≤ hi ≤ 10^9",
        meaning: "input size of a job with data, uniform in [lo, hi] MB of 10^6 bytes ([10, 10 000] or [10, 800 000])",
    },
    Param {
        path: "data_grid.runtime_factor",
        unit: "",
        allowed: "0.01 – 1 000",
        meaning: "runtimes and estimates × this; 3 is the paper's high load (§IV-A)",
    },
    Param {
        path: "data_grid.estimates",
        unit: "",
        allowed: "requested | accurate",
        meaning: "the log's requested time (at least the runtime) or the runtime itself (§IV-C, Fig. 7)",
    },
    Param {
        path: "data_grid.walltime",
        unit: "",
        allowed: "run_to_log | kill",
        meaning:
            "a job whose logged run exceeds its request: runs on (the site reserves the run) or is stopped at its \
             request, the site seeing only the request (requested estimates)",
    },
    Param {
        path: "data_grid.scheme",
        unit: "",
        allowed: "start_time_no_data_aware | finish_time_no_overlap | finish_time_data_aware | {\"script\": \"…\"} | \
                  {\"script_file\": \"p.rhai\"}",
        meaning: "metascheduling scheme (§IV), or your own as a script (docs/policies.md)",
    },
    Param {
        path: "data_grid.backfill_rule",
        unit: "",
        allowed: "data_aware | data_arrived",
        meaning: "may a job whose data is still arriving take a hole (§III); finish_time_data_aware only",
    },
    Param {
        path: "data_grid.local_policy",
        unit: "",
        allowed: "conservative | easy | fcfs",
        meaning: "each site's batch scheduler: conservative backfilling (§IV-A), EASY backfilling, or FCFS",
    },
    Param {
        path: "data_grid.site_policies",
        unit: "",
        allowed: "[] or one of conservative | easy | fcfs per site",
        meaning: "each site's batch scheduler, in the order of data_grid.sites; empty: local_policy at every site",
    },
    Param {
        path: "data_grid.backfill_depth",
        unit: "jobs",
        allowed: "0 – 1 000 000",
        meaning: "queued jobs, the first included, that a site's backfill pass, compression or forecast considers \
                  (Slurm's bf_max_job_test); 0 = all (the paper's)",
    },
    Param {
        path: "data_grid.site_backfill_depths",
        unit: "jobs",
        allowed: "[] or one depth per site",
        meaning: "each site's backfill depth, in the order of data_grid.sites; empty: backfill_depth at every site",
    },
    Param {
        path: "data_grid.dispatch_delay",
        unit: "s",
        allowed: "0 – 86 400",
        meaning: "δ of Eq. 3: time to dispatch a job to a site",
    },
    Param {
        path: "data_grid.jobs",
        unit: "jobs",
        allowed: "1 – 1 000 000",
        meaning: "consecutive jobs of the log a run takes (5 000 in §IV-A; the whole log when shorter)",
    },
    Param {
        path: "data_grid.first_job",
        unit: "",
        allowed: "0 – 2^32−1",
        meaning: "index of the window's first job among the log's jobs",
    },
    Param {
        path: "data_grid.trace",
        unit: "",
        allowed: "hpc2n.swf or a file",
        meaning: "the log: the bundled HPC2N excerpt, a file path (CLI), or a trace loaded in the Workload lab (page)",
    },
    Param {
        path: "data_grid.sample_interval",
        unit: "s",
        allowed: "null or 1 – 10^11",
        meaning: "interval between time-series samples; null = submission span / 1 000, at least 60 s",
    },
]);
