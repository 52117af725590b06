//! The pinned golden figures and the scenarios they were pinned on. tests/sim/determinism.rs checks them natively;
//! tests/web.rs includes this file and holds wasm32 (headless Chromium) to the very same pins, so a re-pin here is
//! a re-pin on both platforms. Changing a pin is a deliberate act with a reason in the commit.

use bagsim::scenario::McScenario;
use bagsim::workload::model::NormalParam;
use bagsim::workload::streams::{LoadSplit, Streams};
use bagsim::workload::task_law::TaskRuntimeLaw;

/// (bots, tasks, finished tasks, events), mean makespan, mean NSL.
pub type Golden = ((u64, u64, u64, u64), f64, f64);

/// A day at 90% load under the default readings.
pub fn small(seed: u64) -> McScenario {
    let mut s = McScenario { seed, ..Default::default() };
    s.workload.submission_period = 86400.0;
    s.workload.load = Some(0.9);
    s
}

/// Three days at 90% under the readings in force before this version's defaults (Table 3's normal read with a
/// standard deviation, exact monitoring, gamma runtimes within a BoT): the scenario every earlier golden figure was
/// pinned on.
pub fn earlier(seed: u64) -> McScenario {
    let mut s = McScenario { seed, ..Default::default() };
    s.workload.submission_period = 3.0 * 86400.0;
    s.workload.load = Some(0.9);
    s.workload.normal_param = NormalParam::Sd;
    s.workload.task_runtime_law = TaskRuntimeLaw::Gamma;
    s.architecture.monitoring_period = 0.0;
    s
}

/// Every pin with its scenario and a name for messages: the defaults (re-pinned when the default within-BoT law
/// became lognormal, `workload.task_runtime_law`), the gamma law on the same day (the default before), and the
/// earlier readings, the capacity load split and the earlier global-seconds default on three days.
pub fn cases() -> Vec<(&'static str, McScenario, Golden)> {
    let mut gamma = small(3);
    gamma.workload.task_runtime_law = TaskRuntimeLaw::Gamma;
    let mut capacity = earlier(3);
    capacity.workload.load_split = LoadSplit::Capacity;
    let mut global = earlier(3);
    global.workload.streams = Streams::Global;
    global.workload.calibration = bagsim::workload::model::Calibration::Seconds;
    vec![
        ("defaults", small(3), GOLDEN),
        ("gamma law", gamma, GOLDEN_GAMMA),
        ("earlier readings", earlier(3), GOLDEN_EARLIER),
        ("capacity split", capacity, GOLDEN_CAPACITY),
        ("global streams, seconds", global, GOLDEN_GLOBAL_SECONDS),
    ]
}

pub const GOLDEN: Golden = ((43289, 228107, 228107, 307778), 20297.1211287161, 1341.263875016381);
pub const GOLDEN_GAMMA: Golden = ((44112, 232879, 232879, 302098), 16840.573519863647, 3367.174959590074);
pub const GOLDEN_EARLIER: Golden = ((2650, 14066, 14066, 16716), 60061.17084847014, 0.26286498782058526);
pub const GOLDEN_CAPACITY: Golden = ((2696, 14669, 14669, 17365), 56198.28616077489, 0.2633282784583765);
pub const GOLDEN_GLOBAL_SECONDS: Golden = ((37650, 197908, 197908, 235558), 4158.911460454823, 0.26711327451288175);
