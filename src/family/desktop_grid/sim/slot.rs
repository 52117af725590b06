//! What the run loop keeps per event and per machine: its events, a replica's phases and a machine's slot.

#[derive(Clone, Copy, Debug)]
pub(super) enum Ev {
    Arrival(u32),
    Fail(u32),
    Repair(u32),
    Phase {
        m: u32,
        gen: u32,
    },
    /// An asynchronous store of `progress` s of work arrives, unless the replica has ended (`gen` differs).
    Stored {
        m: u32,
        gen: u32,
        progress: f64,
    },
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Phase {
    Idle,
    /// Fetching the best checkpoint before computing.
    Retrieve,
    /// Computing; `completes`: the task ends with this segment.
    Compute {
        completes: bool,
    },
    /// Storing a checkpoint of `progress` s of work.
    Upload {
        progress: f64,
    },
}

/// A machine and the replica it runs.
#[derive(Clone, Debug)]
pub(super) struct Slot {
    pub(super) up: bool,
    pub(super) task: u32,
    pub(super) bot: u32,
    /// Bumped whenever the replica ends, so its pending phase event is recognised as stale.
    pub(super) gen: u32,
    pub(super) phase: Phase,
    /// When the replica started, s.
    pub(super) start: f64,
    /// Work done (s on a machine of power 1) when the current phase began.
    pub(super) progress: f64,
    pub(super) phase_start: f64,
    /// The replica stored a checkpoint better than its task's best: it is not useless ([Anglano09] §IV).
    pub(super) improved: bool,
    /// An asynchronous store is in flight (at most one per replica).
    pub(super) storing: bool,
    pub(super) prev: u32,
    pub(super) next: u32,
    pub(super) free_pos: u32,
    pub(super) up_since: f64,
    pub(super) up_total: f64,
}
