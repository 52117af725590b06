//! The desktop-grid readings: the decisions [Anglano09] leaves open that change results, as scenario keys with
//! named values, the default first (docs/desktop_grid.md, "Readings").

use crate::readings::Reading;

/// The readings of the desktop-grid family.
pub const READINGS: &[Reading] = &[
    Reading {
        key: "desktop_grid.checkpoint_store",
        values: &[("async", "\"async\""), ("blocking", "\"blocking\"")],
        rests_on: "the paper gives the checkpoint transfer time but not whether computing stops during a store",
    },
    Reading {
        key: "desktop_grid.fcfs_share",
        values: &[("rep_thresh", "\"rep_thresh\""), ("one_replica", "\"one_replica\"")],
        rests_on:
            "FCFS-Share: \"if the first BoT in FCFS order has no longer pending tasks, a machine … is allocated to \
                   the BoT that comes next\" (§III-C)",
    },
    Reading {
        key: "desktop_grid.weibull_shape",
        values: &[("0.7", "0.7"), ("1.0", "1.0"), ("0.5", "0.5")],
        rests_on: "Weibull times to failure whose shapes [Anglano09] takes from its reference [35] but does not print \
                   (Table II gives the MTTF only)",
    },
    Reading {
        key: "desktop_grid.checkpoint_period",
        values: &[("30_min", "1800"), ("1_hour", "3600"), ("10_min", "600")],
        rests_on: "the paper checkpoints periodically but gives no period",
    },
    Reading {
        key: "desktop_grid.transfer_time",
        values: &[("paper", "[240.0, 720.0]"), ("none", "[0.0, 0.0]")],
        rests_on: "checkpoint transfers take U[240, 720] s (§IV-C); none isolates their cost",
    },
    Reading {
        key: "desktop_grid.long_idle",
        values: &[("accumulated", "\"accumulated\""), ("unreplicated", "\"unreplicated\"")],
        rests_on: "LongIdle: \"the total amount of time in which the task has had no running replicas\" (§III-C)",
    },
    Reading {
        key: "desktop_grid.bots",
        values: &[("200", "200"), ("1000", "1000")],
        rests_on: "the paper gives no run length; saturation is judged on the run",
    },
];
