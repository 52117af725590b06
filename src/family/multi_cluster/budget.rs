//! What a multi-cluster run will cost, estimated from its scenario before anything is generated or run
//! (docs/budget.md, "Multi-cluster grid"): its BoTs and tasks (from the load target and the model's mean runtime,
//! else from the model's own rates), the login periods a Login/Logout generator draws, the time series, the users
//! and processors, and the events these take.

use super::config::{McScenario, DAY};
use crate::family::contract::{Driver, Estimate, Part};
use crate::trace::TraceSize;
use crate::workload::generate::MAX_TASKS;
use crate::workload::generators::Generator;
use crate::workload::login_logout::{LoginLogout, MAX_SESSIONS};
use crate::workload::minh_wolters::MinhWolters;
use crate::workload::model::Characteristic;
use crate::workload::streams::{LoadSplit, Streams};

/// Quantiles of a characteristic's expectation (the midpoint rule; cheap enough to run on every edit in the page).
const Q: usize = 256;

/// E[f(value)] of a characteristic by the midpoint rule over `Q` quantiles.
fn expect(c: &Characteristic, f: impl Fn(f64) -> f64) -> f64 {
    (0..Q).map(|i| f(c.value_quantile((i as f64 + 0.5) / Q as f64))).sum::<f64>() / Q as f64
}

/// What one stream of a workload is expected to hold.
#[derive(Clone, Copy, Debug, Default)]
struct Stream {
    bots: f64,
    tasks: f64,
    /// Login periods drawn in all, and by the user who logs in most.
    sessions: f64,
    most_sessions: (f64, usize),
}

/// The capacities the streams are scaled to (one global stream: the platform's).
fn stream_capacities(s: &McScenario, capacities: &[f64]) -> Vec<f64> {
    let total: f64 = capacities.iter().sum();
    match (s.workload.streams, s.workload.load_split) {
        (Streams::Global, _) => vec![total],
        (Streams::PerCluster, LoadSplit::Capacity) => capacities.to_vec(),
        (Streams::PerCluster, LoadSplit::Equal) => vec![total / capacities.len().max(1) as f64; capacities.len()],
    }
}

/// The [Iosup08] model's laws as the estimate needs them: the mean BoT size, and the ART's quantile midpoints in
/// seconds (computed once for every stream).
struct IosupLaws {
    size: f64,
    art: Vec<f64>,
}

impl IosupLaws {
    fn of(s: &McScenario) -> IosupLaws {
        let w = &s.workload;
        let m = w.bot_model();
        let cal = w.calibration;
        let size_scale = w.median_size.map_or(1.0, |t| t / m.size.value_quantile(0.5));
        let max = f64::from(w.max_size);
        let size = expect(&m.size, |v| {
            let v = size_scale * v;
            if v.is_finite() {
                v.round().clamp(1.0, max)
            } else {
                1.0
            }
        });
        let art =
            (0..Q).map(|i| (cal.unit() * m.art.value_quantile((i as f64 + 0.5) / Q as f64)).clamp(1.0, cal.art_max()));
        IosupLaws { size, art: art.collect() }
    }

    /// A stream on `capacity`: with a load target, the tasks that carry its work at the mean task runtime; without,
    /// the BoTs the model's IATs bring in the period (the daily cycle only lowers this).
    fn stream(&self, s: &McScenario, capacity: f64) -> Stream {
        let w = &s.workload;
        let size = self.size;
        let mean = |cap: f64| self.art.iter().map(|&v| v.min(cap)).sum::<f64>() / self.art.len() as f64;
        let (bots, tasks) = match w.load {
            Some(load) => {
                let work = load * capacity * w.submission_period;
                // The runtimes of a stream's BoTs are a small sample of a heavy-tailed law: their mean is that of
                // the law cut where its largest of k BoTs typically lies, the quantile 1 − 1/k (the whole law's mean
                // would count too few tasks); k from the uncut mean first, then from the cut one, three times.
                let mut runtime = w.mean_runtime.unwrap_or_else(|| mean(f64::INFINITY));
                if w.mean_runtime.is_none() {
                    for _ in 0..3 {
                        let k = (work / runtime.max(1.0) / size).max(1.0);
                        let i = (((1.0 - 1.0 / k) * Q as f64) as usize).min(Q - 1);
                        runtime = mean(self.art[i]);
                    }
                }
                let tasks = work / runtime.max(1.0);
                (tasks / size, tasks)
            }
            None => {
                let m = w.bot_model();
                let iat = expect(&m.iat, |v| if v.is_finite() { v.max(0.0) } else { 0.0 });
                let bots = w.submission_period / iat;
                (bots, bots * size)
            }
        };
        Stream { bots, tasks, ..Stream::default() }
    }
}

/// A stream of Login/Logout users ([Medernach05] §5): jobs at Σ μ P_Login per second of the model's clock; the
/// clock runs to the period (no load target) or until the jobs carry the target work, and the search for it may
/// run the clock to twice that. Each user logs in once per 1/λ + 1/δ of it.
fn login_logout_stream(g: &LoginLogout, load: Option<f64>, capacity: f64, period: f64) -> Stream {
    let runtime = g.runtime.mean().max(1.0);
    let rate: f64 = g.users.iter().map(|u| u.mu * u.p_login()).sum();
    let (clock, jobs) = match load {
        Some(load) => {
            let work = load * capacity * period;
            (2.0 * work / (rate * runtime), work / runtime)
        }
        None => (period, rate * period),
    };
    let mut out = Stream { bots: jobs, tasks: jobs, ..Stream::default() };
    for (i, u) in g.users.iter().enumerate() {
        let n = if u.delta > 0.0 { 1.0 + clock / (1.0 / u.lambda + 1.0 / u.delta) } else { 1.0 };
        // The search doubles the clock from the period: every clock before the last costs its periods again.
        out.sessions += 2.0 * n;
        if n.is_nan() || n > out.most_sessions.0 {
            out.most_sessions = (n, i);
        }
    }
    out
}

/// A stream of [Minh10] Algorithm 1: one job per IAT of the model's clock, a runtime of 2^X per job (X a mixture of
/// Gaussians, E[2^X] = Σ w 2^μ e^{(σ ln 2)²/2}); BoTs at most as many as jobs.
fn minh_wolters_stream(g: &MinhWolters, load: Option<f64>, capacity: f64, period: f64) -> Stream {
    let total: f64 = g.runtime.iter().map(|c| c.weight).sum();
    let ln2 = std::f64::consts::LN_2;
    let runtime: f64 = g
        .runtime
        .iter()
        .map(|c| c.weight / total * libm::exp2(c.mu) * libm::exp(0.5 * (c.sigma * ln2) * (c.sigma * ln2)))
        .sum::<f64>()
        .max(1.0);
    let jobs = match load {
        Some(load) => load * capacity * period / runtime,
        None => period / g.iat.mean().max(0.0),
    };
    Stream { bots: jobs, tasks: jobs, ..Stream::default() }
}

/// Bytes a task, a BoT, a user, a processor and a login period hold, measured on runs (docs/budget.md): a task's
/// runtime, start, end and queue entries; a BoT's marks, predictor and figures; a user's accounts and predictor;
/// a processor's state; a login period and its job times.
const TASK_BYTES: f64 = 48.0;
const BOT_BYTES: f64 = 96.0;
const USER_BYTES: f64 = 200.0;
const PROCESSOR_BYTES: f64 = 48.0;
const SESSION_BYTES: f64 = 48.0;

/// The estimate of a validated scenario; `trace` is the size of the trace it replays, when it replays one (the
/// trace is imported first: its size is not in the scenario).
pub fn estimate(s: &McScenario, trace: Option<&TraceSize>) -> Estimate {
    let clusters = s.platform.clusters().unwrap_or_default();
    let capacities: Vec<f64> = clusters.iter().map(|c| f64::from(c.processors) * c.speed).collect();
    let processors: f64 = clusters.iter().map(|c| f64::from(c.processors)).sum();
    let w = &s.workload;
    let mut period = w.submission_period;
    let streams = stream_capacities(s, &capacities);
    let n_streams = streams.len() as f64;
    let mut users = 0.0;
    let mut tasks_driver = Driver::new(
        "workload.submission_period",
        "the tasks that carry the load over the submission period: load × capacity × period / mean runtime",
    );
    let mut sessions_part = None;
    let total = if let Some(t) = &w.trace {
        // A trace's users are among its jobs' few distinct names: their memory is left out.
        tasks_driver = Driver::new("workload.trace.path", "the trace's jobs");
        match trace {
            Some(size) => {
                period = size.span().max(60.0);
                let (bots, tasks) =
                    if t.split_parallel { (size.jobs, size.processors) } else { (size.serial_jobs, size.serial_jobs) };
                Stream { bots: bots as f64, tasks: tasks as f64, ..Stream::default() }
            }
            // Not imported yet: the run reads it first and is estimated then.
            None => Stream::default(),
        }
    } else {
        let mut sum = Stream::default();
        let laws = w.generator.is_none().then(|| IosupLaws::of(s));
        for (k, &c) in streams.iter().enumerate() {
            let one = match (&w.generator, &laws) {
                (None, Some(laws)) => laws.stream(s, c),
                (None, None) => Stream::default(),
                (Some(Generator::LoginLogout(g)), _) => login_logout_stream(g, w.load, c, period),
                (Some(Generator::MinhWolters(g)), _) => minh_wolters_stream(g, w.load, c, period),
            };
            sum.bots += one.bots;
            sum.tasks += one.tasks;
            sum.sessions += one.sessions;
            if k == 0 || one.most_sessions.0.is_nan() || one.most_sessions.0 > sum.most_sessions.0 {
                sum.most_sessions = one.most_sessions;
            }
        }
        match &w.generator {
            None => {
                users = f64::from(w.bot_model().users.n) * n_streams;
                if w.load.is_none() {
                    tasks_driver = Driver::new("workload.model.iat", "the BoTs the model's inter-arrival times bring");
                }
            }
            Some(Generator::LoginLogout(g)) => {
                users = g.users.len() as f64 * n_streams;
                let (n, i) = sum.most_sessions;
                // The name as given, cut short: a message never echoes a long value whole.
                let name = g
                    .users
                    .get(i)
                    .map_or(String::new(), |u| format!(" {:?}", u.name.chars().take(40).collect::<String>()));
                let user = Driver::new(
                    format!("workload.generator.login_logout.users[{i}].mu"),
                    format!(
                        "user {i}{name} logs in every 1/lambda + 1/delta s of the model's clock, which runs until the \
                         jobs (mu per second while logged in) carry the load; raise mu or lower the load"
                    ),
                );
                if w.load.is_none() {
                    tasks_driver = Driver::new(
                        "workload.generator.login_logout.users",
                        "the jobs the users submit over the period (mu × P_login each)",
                    );
                }
                sessions_part = Some(Part {
                    what: "login periods",
                    count: n,
                    bytes_each: SESSION_BYTES,
                    driver: user.clone(),
                    most: Some(MAX_SESSIONS as f64),
                });
                // Drawing the periods is work too: one period costs about an event.
                if sum.sessions.is_nan() || sum.sessions > sum.tasks {
                    tasks_driver = user;
                }
            }
            Some(Generator::MinhWolters(g)) => {
                users = f64::from(g.users.n) * n_streams;
                if w.load.is_none() {
                    tasks_driver = Driver::new(
                        "workload.generator.minh_wolters.iat",
                        "the jobs the inter-arrival times bring over the period",
                    );
                }
            }
        }
        sum
    };
    let horizon = s.horizon.unwrap_or(period + 30.0 * DAY);
    let interval = s.sample_interval.unwrap_or((period / 720.0).max(60.0));
    let samples = horizon / interval;
    let copies = 1.0 + f64::from(s.scheduling.build(&s.policy_options).max_replicas());
    let stale = s.architecture.kind == super::architecture::Architecture::Csp && s.architecture.monitoring_period > 0.0;
    let periodic = if stale { horizon / s.scheduling_period + horizon / s.architecture.monitoring_period } else { 0.0 };
    // An arrival per BoT, an end per copy of a task, the periodic passes; drawing a login period costs about an event.
    let events = total.bots + copies * total.tasks + periodic + total.sessions;
    let events_driver = if periodic > copies * total.tasks {
        // The key that drives the passes: the shorter of the two periods (a tiny monitoring_period is named as
        // itself, not as scheduling_period).
        if stale && s.architecture.monitoring_period < s.scheduling_period {
            Driver::new("architecture.monitoring_period", "monitoring refreshes and periodic passes over the horizon")
        } else {
            Driver::new("scheduling_period", "periodic passes and monitoring refreshes over the horizon")
        }
    } else {
        tasks_driver.clone()
    };
    let mut memory = vec![
        Part {
            what: "tasks",
            count: total.tasks,
            bytes_each: TASK_BYTES,
            driver: tasks_driver.clone(),
            most: Some(MAX_TASKS as f64),
        },
        Part { what: "BoTs", count: total.bots, bytes_each: BOT_BYTES, driver: tasks_driver, most: None },
        Part {
            what: "series samples",
            count: samples,
            bytes_each: 96.0 + 8.0 * clusters.len() as f64,
            driver: Driver::new("sample_interval", "one per sample_interval up to the horizon"),
            most: None,
        },
        Part {
            what: "users",
            count: users,
            bytes_each: USER_BYTES,
            driver: Driver::new(
                match &w.generator {
                    None => "workload.model.users.n",
                    Some(Generator::LoginLogout(_)) => "workload.generator.login_logout.users",
                    Some(Generator::MinhWolters(_)) => "workload.generator.minh_wolters.users.n",
                },
                "users per stream × streams",
            ),
            most: None,
        },
        Part {
            what: "processors",
            count: processors,
            bytes_each: PROCESSOR_BYTES,
            driver: Driver::new("platform.clusters", "the platform's processors"),
            most: None,
        },
    ];
    memory.extend(sessions_part);
    Estimate { events, events_driver, memory }
}
