//! The data-grid readings: the decisions [Liu10] leaves open that change results, as scenario keys with named
//! values, the default first (docs/data_grid.md).

use crate::readings::Reading;

/// The readings of the data-grid family.
pub const READINGS: &[Reading] = &[
    Reading {
        key: "data_grid.backfill_rule",
        values: &[("data_aware", "\"data_aware\""), ("data_arrived", "\"data_arrived\"")],
        rests_on: "which queued jobs may take a hole before their data has arrived ([Liu10] §III)",
    },
    Reading {
        key: "data_grid.estimates",
        values: &[("requested", "\"requested\""), ("accurate", "\"accurate\"")],
        rests_on: "the schedulers' runtime estimates: the log's requests, or the runtimes ([Liu10] §IV-C)",
    },
    Reading {
        key: "data_grid.walltime",
        values: &[("run_to_log", "\"run_to_log\""), ("kill", "\"kill\"")],
        rests_on: "what becomes of a job that reaches its requested time; [Liu10] §IV-C calls the requests \
                   inaccurate and says nothing of jobs that exceed them",
    },
];
