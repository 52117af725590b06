//! The multi-cluster readings: every decision [Iosup08] leaves open that changes results, as a scenario key with
//! named values, the default first. Each is documented in docs/model.md, "Readings", with the sentence it rests
//! on and the evidence for and against it.

use crate::readings::Reading;

/// The readings of the multi-cluster family, in the order of docs/model.md.
pub const READINGS: &[Reading] = &[
    Reading {
        key: "workload.calibration",
        values: &[("minutes", "\"minutes\""), ("seconds", "\"seconds\"")],
        rests_on: "\"Our workloads have between 20,000 and 175,000 tasks\" (§4.2): the whole platform's count \
                   (minutes) or each stream's (seconds)",
    },
    Reading {
        key: "workload.normal_param",
        values: &[("variance", "\"variance\""), ("sd", "\"sd\"")],
        rests_on: "Table 3 prints N(2.73, 6.1) for the ART without saying whether 6.1 is a variance or a standard \
                   deviation; \"the task-selection policy has an important impact … for loads of 50% and higher\" \
                   (§5.4) rules out readings under which no task waits",
    },
    Reading {
        key: "workload.submission_period",
        values: &[("30_days", "2592000"), ("1_day", "86400")],
        rests_on: "\"one month-long traces\" (§4.2, of the real traces); \"Our workloads have between 20,000 and \
                   175,000 tasks\" (§4.2), which a month under the default runtime reading exceeds",
    },
    Reading {
        key: "architecture.monitoring_period",
        values: &[("60_s", "60"), ("exact", "0"), ("300_s", "300")],
        rests_on: "\"The information about the number of free processors is gathered periodically by a monitoring \
                   service\" (§2.2); no period is given",
    },
    Reading {
        key: "workload.load_split",
        values: &[("equal", "\"equal\""), ("capacity", "\"capacity\"")],
        rests_on: "\"the parameter values of the average system\" (§4.2); \"sep-c cannot complete all tasks\" at 50% \
                   (§5.5) rules capacity out",
    },
    Reading {
        key: "workload.streams",
        values: &[("per_cluster", "\"per_cluster\""), ("global", "\"global\"")],
        rests_on: "\"Each of the 20 clusters … receives an independent stream of jobs\" (§4.2)",
    },
    Reading {
        key: "platform.preset",
        values: &[("das2_g5k", "\"das2_g5k\""), ("uniform20", "\"uniform20\"")],
        rests_on: "\"a total of 20 clusters and over 3500 processors … between 1.0 and 1.75\" (§4.1); the paper lists \
                   no clusters",
    },
    Reading {
        key: "architecture.eligible_set",
        values: &[("dispatched", "\"dispatched\""), ("completed", "\"completed\"")],
        rests_on: "\"Only after all the tasks in the schedule are completed is a new eligible set generated\" (§2.2)",
    },
    Reading {
        key: "architecture.fcondor_move",
        values: &[("task", "\"task\""), ("bot", "\"bot\"")],
        rests_on: "\"A user keeps submitting tasks to the same RM while that RM starts the tasks immediately; \
                   when tasks start to be queued, the user will switch to another RM, in round-robin order\" \
                   (§2.2): the unit a user submits (a task or a whole BoT) is left open; a queued task stays put",
    },
    Reading {
        key: "policy_options.dfplt_unranked",
        values: &[("first", "\"first\""), ("reference", "\"reference\""), ("last", "\"last\"")],
        rests_on: "\"On the completion of a task, the performance of the resource … is (re-)computed, and the \
                   resource receives a performance rank\" (§2.4): a cluster with no completed task has none",
    },
    Reading {
        key: "policy_options.wqr_nx",
        values: &[("replicas", "\"replicas\""), ("copies", "\"copies\"")],
        rests_on: "\"The number of replicas is appended to name of the scheduling policy, e.g., WQR-1 replicates \
                   tasks once\" (§2.4); the figures name WQR4x: n replicas, or n copies in all, for every WQRnx",
    },
    Reading {
        key: "policy_options.prio_order",
        values: &[("rank", "\"rank\""), ("cluster", "\"cluster\"")],
        rests_on: "\"each user in the system has a unique priority\" (§2.3); no order is given",
    },
    Reading {
        key: "horizon",
        values: &[("after_30_days", "null"), ("drain", "315360000")],
        rests_on: "the paper does not say when a run stops; \"they complete only 44% and 53% of the tasks\" (§5.5) \
                   needs a stop",
    },
    Reading {
        key: "architecture.site_policy",
        values: &[("scenario", "\"scenario\""), ("fcfs", "\"fcfs\"")],
        rests_on: "\"Each RM in the system executes the same scheduling procedure\" (§2.2) against \"all sites employ \
                   the FCFS policy, without backfilling\" (§4.3), for the sites' RMs of sep-c and fcondor",
    },
    Reading {
        key: "policy_options.rr_ring",
        values: &[("platform", "\"platform\""), ("speed", "\"speed\"")],
        rests_on: "RR, WQR (U, U) and STFR (U, K) know no resource performance (§2.4, Table 1), and \"in round-robin \
                   order\" names no order of the clusters",
    },
    Reading {
        key: "workload.task_runtime_law",
        values: &[("lognormal", "\"lognormal\""), ("gamma", "\"gamma\""), ("normal", "\"normal\"")],
        rests_on:
            "ART, fitted after \"a base-two logarithmic transformation\", and RTV, \"the variance of runtimes of \
                   the tasks belonging to the same BoT\" (§3.5); the law of a task's runtime is not stated",
    },
    Reading {
        key: "inaccuracy_on",
        values: &[("estimate", "\"estimate\""), ("runtime", "\"runtime\"")],
        rests_on:
            "\"for each task runtime estimation we sample the estimation inaccuracy E … the task runtime is set to \
                   max(R + (E/100) × R, 1), where R is the actual task runtime\" (§5.3)",
    },
];
