//! The family contract measured by use: a throw-away family (one M/M/c queue, FCFS) written in this file alone,
//! through `family::contract` and the shared engine, and driven by the same `run_to_report` and budgets as the
//! real families. Its mean wait must agree with the Erlang-C closed form; stepping it in chunks of events or of
//! simulated time must give the same report as one run to the end.

use bagsim::engine::{EventQueue, Rng};
use bagsim::family::contract::{run_to_report, Budget, FamilyRun, Header};
use std::collections::VecDeque;

enum Event {
    Arrival,
    Departure,
}

/// An M/M/c queue: Poisson arrivals at rate λ, c servers, exponential service of rate μ, `jobs` arrivals.
struct MmcRun {
    c: u64,
    lambda: f64,
    mu: f64,
    jobs: u64,
    rng: Rng,
    queue: EventQueue<Event>,
    waiting: VecDeque<f64>,
    busy: u64,
    arrived: u64,
    finished: u64,
    events: u64,
    wait_sum: f64,
    waits_sent: usize,
    waits: Vec<f64>,
}

impl MmcRun {
    fn new(c: u64, lambda: f64, mu: f64, jobs: u64, seed: u64) -> MmcRun {
        let mut run = MmcRun {
            c,
            lambda,
            mu,
            jobs,
            rng: Rng::stream(seed, "mmc"),
            queue: EventQueue::new(),
            waiting: VecDeque::new(),
            busy: 0,
            arrived: 0,
            finished: 0,
            events: 0,
            wait_sum: 0.0,
            waits_sent: 0,
            waits: Vec::new(),
        };
        let first = run.exp(lambda);
        run.queue.schedule(first, Event::Arrival).expect("in the future");
        run
    }

    fn exp(&mut self, rate: f64) -> f64 {
        -libm::log(self.rng.uniform_open0()) / rate
    }

    fn serve(&mut self, now: f64, arrived_at: f64) {
        self.busy += 1;
        self.waits.push(now - arrived_at);
        self.wait_sum += now - arrived_at;
        let service = self.exp(self.mu);
        self.queue.schedule(now + service, Event::Departure).expect("in the future");
    }

    fn one_event(&mut self) {
        let Some((now, event)) = self.queue.pop() else { return };
        self.events += 1;
        match event {
            Event::Arrival => {
                self.arrived += 1;
                if self.arrived < self.jobs {
                    let gap = self.exp(self.lambda);
                    self.queue.schedule(now + gap, Event::Arrival).expect("in the future");
                }
                if self.busy < self.c {
                    self.serve(now, now);
                } else {
                    self.waiting.push_back(now);
                }
            }
            Event::Departure => {
                self.busy -= 1;
                self.finished += 1;
                if let Some(at) = self.waiting.pop_front() {
                    self.serve(now, at);
                }
            }
        }
    }

    fn done(&self) -> bool {
        self.queue.is_empty()
    }
}

/// The report of the throw-away family: jobs and their mean wait.
#[derive(Debug, PartialEq)]
struct MmcReport {
    finished: u64,
    mean_wait: f64,
    events: u64,
}

impl FamilyRun for MmcRun {
    /// The waits of the jobs that started since the previous call.
    type Detail = Vec<f64>;
    type Report = MmcReport;

    fn step(&mut self, budget: Budget) -> bool {
        match budget {
            Budget::Events(n) => {
                for _ in 0..n {
                    if self.done() {
                        break;
                    }
                    self.one_event();
                }
            }
            Budget::Until(t) => {
                while self.queue.peek_key().is_some_and(|(at, _)| at <= t) {
                    self.one_event();
                }
            }
            Budget::ToEnd => {
                while !self.done() {
                    self.one_event();
                }
            }
        }
        self.done()
    }

    fn header(&self) -> Header {
        Header {
            now: self.queue.now(),
            horizon: f64::INFINITY,
            events: self.events,
            tasks: self.jobs,
            finished_tasks: self.finished,
            queued: self.waiting.len() as u64,
            busy: self.busy,
        }
    }

    fn take_detail(&mut self) -> Vec<f64> {
        let new = self.waits[self.waits_sent..].to_vec();
        self.waits_sent = self.waits.len();
        new
    }

    fn report(&self, _wall_s: f64) -> MmcReport {
        MmcReport { finished: self.finished, mean_wait: self.wait_sum / self.finished as f64, events: self.events }
    }
}

/// Erlang C: probability of waiting in M/M/c with offered load a = λ/μ.
fn erlang_c(c: u64, a: f64) -> f64 {
    let mut b = 1.0;
    for k in 1..=c {
        b = a * b / (k as f64 + a * b);
    }
    let c = c as f64;
    c * b / (c - a * (1.0 - b))
}

#[test]
fn a_throw_away_mmc_family_through_the_contract_meets_erlang_c() {
    let (c, mu, rho) = (4u64, 1.0, 0.8);
    let lambda = rho * c as f64 * mu;
    let analytic = erlang_c(c, lambda / mu) / (c as f64 * mu - lambda);
    // Means of independent replications, and their 95% interval; the check allows two half-widths, so that it
    // fails by chance far less often than once in a thousand runs (the seeds are fixed anyway).
    let means: Vec<f64> =
        (0..20).map(|seed| run_to_report(&mut MmcRun::new(c, lambda, mu, 20_000, seed), &|| 0.0).mean_wait).collect();
    let i = bagsim::stats::Interval::of(&means);
    assert!(
        (i.mean - analytic).abs() <= 2.0 * i.half_width,
        "mean wait {} ± {} against Erlang-C {analytic}",
        i.mean,
        i.half_width
    );
}

#[test]
fn chunks_of_events_or_of_time_give_the_same_run_as_one_step() {
    let whole = run_to_report(&mut MmcRun::new(3, 2.4, 1.0, 5_000, 7), &|| 0.0);
    let mut by_events = MmcRun::new(3, 2.4, 1.0, 5_000, 7);
    let mut waits = Vec::new();
    while !by_events.step(Budget::Events(333)) {
        waits.extend(by_events.take_detail());
        let h = by_events.header();
        assert!(h.busy <= 3 && h.finished_tasks <= h.tasks && h.done_fraction() <= 1.0);
    }
    waits.extend(by_events.take_detail());
    assert_eq!(by_events.report(0.0), whole);
    assert_eq!(waits.len() as u64, whole.finished, "every job's wait handed out once");
    let mut by_time = MmcRun::new(3, 2.4, 1.0, 5_000, 7);
    let mut t = 0.0;
    while !by_time.step(Budget::Until(t)) {
        t += 17.5;
    }
    assert_eq!(by_time.report(0.0), whole);
    assert_eq!(by_time.header().done_fraction(), 1.0);
}
