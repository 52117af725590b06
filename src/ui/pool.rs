//! A pool of simulation workers that runs a list of jobs, one per worker at a time and without live data: the page's
//! sweeps and every family's paper figures. A job is a run of a scenario of any family (its `Finished` report is the
//! family's `FamilyRun::report`) or a figure job (`registry::AnyFigureJob`).
//! Scenarios that replay an imported trace need it in every worker: the pool first streams the file to each of its
//! workers, slice by slice as the Workload lab does, and starts that worker's runs once it has imported it.

use super::client::{self, Event};
use crate::protocol::{FromWorker, ToWorker};
use crate::registry::{AnyFigureJob, AnyFigureResult, AnyReport};
use crate::scenario::Scenario;
use crate::trace::Format;
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::{Rc, Weak};

/// A pool's worker: it computes figure jobs, whose results the page's own worker never sends.
type Client = client::Client<AnyFigureResult>;

/// One job.
pub enum Job {
    Run(Box<Scenario>),
    Figure(AnyFigureJob),
}

/// How one job ended.
pub enum Outcome {
    /// The report of the job's family.
    Finished(Box<AnyReport>),
    /// A figure job's result.
    Figure(Box<AnyFigureResult>),
    /// The run failed, or its worker died (the worker is replaced and the pool goes on).
    Failed(JobError),
}

/// Why a job of the pool gave no result.
#[derive(Debug, Clone, PartialEq)]
pub enum JobError {
    /// The worker refused or failed the job, in its own words (a scenario's, a point's or a script's error).
    Failed(String),
    /// The job's worker stopped (a panic, or the browser ended it): why.
    WorkerStopped(String),
    /// A figure job answered with a run's report.
    NotAFigure,
    /// The job's answer was not the kind asked for: what was asked.
    Unexpected(&'static str),
}

impl std::fmt::Display for JobError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            JobError::Failed(m) => f.write_str(m),
            JobError::WorkerStopped(why) => write!(f, "the worker stopped: {why}"),
            JobError::NotAFigure => f.write_str("a figure job gave a run's report"),
            JobError::Unexpected(what) => f.write_str(what),
        }
    }
}

impl std::error::Error for JobError {}

/// This browser could not start a single simulation worker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NoWorker;

impl std::fmt::Display for NoWorker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("This browser could not start a simulation worker.")
    }
}

impl std::error::Error for NoWorker {}

impl Outcome {
    /// A figure job's result, or why there is none.
    pub fn figure(self) -> Result<AnyFigureResult, JobError> {
        match self {
            Outcome::Figure(r) => Ok(*r),
            Outcome::Failed(e) => Err(e),
            Outcome::Finished(_) => Err(JobError::NotAFigure),
        }
    }
}

/// Called once per job, with the job's index in the list given to [`Pool::start`].
pub type OnDone = Rc<dyn Fn(usize, Outcome)>;

/// The trace file the jobs replay: its name (the scenarios' `workload.trace.path`), format and the file itself.
#[derive(Clone)]
pub struct TraceFile {
    pub name: String,
    pub format: Format,
    pub file: gloo_file::File,
}

/// Bytes per slice streamed to a pool worker (as the Workload lab's import).
const SLICE: u64 = 4 << 20;
/// The import id the pool uses in its own workers.
const POOL_IMPORT: u32 = 1;

struct Shared {
    queue: RefCell<VecDeque<(usize, Job)>>,
    workers: RefCell<Vec<Rc<Client>>>,
    on_done: OnDone,
    trace: Option<TraceFile>,
}

/// Running jobs; dropping the pool (or [`Pool::cancel`]) ends its workers.
pub struct Pool {
    shared: Rc<Shared>,
}

/// One worker per core, at most four (more would only share the cores and multiply the memory).
fn pool_size() -> usize {
    web_sys::window().map_or(2.0, |w| w.navigator().hardware_concurrency()).clamp(1.0, 4.0) as usize
}

impl Pool {
    /// Starts the jobs on a pool of workers; `on_done` hears of each job as it ends, in any order.
    pub fn start(jobs: Vec<Job>, on_done: OnDone) -> Result<Pool, NoWorker> {
        Pool::start_with_trace(jobs, on_done, None)
    }

    /// As [`Pool::start`]; with `trace`, each worker imports it before its first run.
    pub fn start_with_trace(jobs: Vec<Job>, on_done: OnDone, trace: Option<TraceFile>) -> Result<Pool, NoWorker> {
        let shared = Rc::new(Shared {
            queue: RefCell::new(jobs.into_iter().enumerate().collect()),
            workers: RefCell::new(Vec::new()),
            on_done,
            trace,
        });
        let size = pool_size().min(shared.queue.borrow().len()).max(1);
        for _ in 0..size {
            // The handler holds the pool and its own client weakly: the pool owns the clients, and a cycle would keep
            // the workers alive after the pool is dropped.
            let weak_shared = Rc::downgrade(&shared);
            let me: Rc<RefCell<Weak<Client>>> = Rc::new(RefCell::new(Weak::new()));
            let me2 = me.clone();
            let in_flight: Rc<Cell<Option<usize>>> = Rc::new(Cell::new(None));
            // The worker's panic message says more than the error event that follows it.
            let panicked: Rc<RefCell<Option<String>>> = Rc::new(RefCell::new(None));
            // Bytes of the trace sent to this worker so far.
            let sent: Rc<Cell<u64>> = Rc::new(Cell::new(0));
            let handler: Rc<dyn Fn(Event<AnyFigureResult>)> = Rc::new(move |ev: Event<AnyFigureResult>| {
                let (Some(shared), Some(client)) = (weak_shared.upgrade(), me2.borrow().upgrade()) else { return };
                let ours = |run_id: u32| in_flight.get().is_some_and(|i| i as u32 + 1 == run_id);
                match ev {
                    Event::Message(FromWorker::Ready) => match &shared.trace {
                        // A new worker (also one replacing a dead one) first imports the trace.
                        Some(t) => {
                            sent.set(0);
                            client.send(&ToWorker::ImportBegin {
                                import_id: POOL_IMPORT,
                                name: t.name.clone(),
                                format: t.format,
                                size: t.file.size(),
                            });
                            send_slice(&shared, &client, &sent, &in_flight);
                        }
                        None => next(&shared, &client, &in_flight),
                    },
                    Event::Message(FromWorker::ImportProgress { import_id: POOL_IMPORT, .. }) => {
                        send_slice(&shared, &client, &sent, &in_flight);
                    }
                    // Imported, or not: the runs go ahead, and without the trace each fails with the worker's reason.
                    Event::Message(FromWorker::Imported { import_id: POOL_IMPORT, .. })
                    | Event::Message(FromWorker::ImportFailed { import_id: POOL_IMPORT, .. }) => {
                        next(&shared, &client, &in_flight)
                    }
                    Event::Message(FromWorker::Finished { run_id, report, .. }) if ours(run_id) => {
                        if let Some(job) = in_flight.take() {
                            (shared.on_done)(job, Outcome::Finished(report));
                        }
                        next(&shared, &client, &in_flight);
                    }
                    Event::Message(FromWorker::FigureDone { job_id, result }) if ours(job_id) => {
                        if let Some(job) = in_flight.take() {
                            (shared.on_done)(
                                job,
                                result
                                    .map_or_else(|e| Outcome::Failed(JobError::Failed(e.to_string())), Outcome::Figure),
                            );
                        }
                        next(&shared, &client, &in_flight);
                    }
                    Event::Message(FromWorker::Failed { run_id, message }) if ours(run_id) || run_id == 0 => {
                        if let Some(job) = in_flight.take() {
                            (shared.on_done)(job, Outcome::Failed(JobError::Failed(message)));
                        }
                        next(&shared, &client, &in_flight);
                    }
                    Event::Message(FromWorker::Panicked { message }) => *panicked.borrow_mut() = Some(message),
                    // The client has replaced the worker; the replacement's Ready takes the next job.
                    Event::Died(why) => {
                        let why = panicked.borrow_mut().take().unwrap_or(why);
                        if let Some(job) = in_flight.take() {
                            (shared.on_done)(job, Outcome::Failed(JobError::WorkerStopped(why.to_string())));
                        }
                    }
                    _ => {}
                }
            });
            match Client::new(handler) {
                Ok(client) => {
                    *me.borrow_mut() = Rc::downgrade(&client);
                    shared.workers.borrow_mut().push(client);
                }
                Err(_) if shared.workers.borrow().is_empty() => {
                    return Err(NoWorker);
                }
                Err(_) => break,
            }
        }
        Ok(Pool { shared })
    }

    /// Drops the jobs not started and ends the workers (their runs are lost; nothing more is reported).
    pub fn cancel(&self) {
        self.shared.queue.borrow_mut().clear();
        for w in self.shared.workers.borrow_mut().drain(..) {
            w.terminate();
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        self.cancel();
    }
}

/// Sends the worker the next job, if any.
fn next(shared: &Shared, client: &Client, in_flight: &Cell<Option<usize>>) {
    let job = shared.queue.borrow_mut().pop_front();
    if let Some((i, job)) = job {
        in_flight.set(Some(i));
        let id = i as u32 + 1;
        client.send(&match job {
            Job::Run(scenario) => ToWorker::Run { run_id: id, scenario, speed: None, live: false },
            Job::Figure(job) => ToWorker::Figure { job_id: id, job: Box::new(job) },
        });
    }
}

/// Reads the next slice of the trace and sends it to `client`; after the last, ends the import. A slice that cannot
/// be read cancels the import (a truncated trace is never replayed) and the worker's runs go ahead without it, each
/// failing with the worker's reason.
fn send_slice(shared: &Rc<Shared>, client: &Rc<Client>, sent: &Rc<Cell<u64>>, in_flight: &Rc<Cell<Option<usize>>>) {
    let Some(t) = &shared.trace else { return };
    let (offset, size) = (sent.get(), t.file.size());
    if offset >= size {
        client.send(&ToWorker::ImportEnd { import_id: POOL_IMPORT });
        return;
    }
    let end = (offset + SLICE).min(size);
    sent.set(end);
    let blob: gloo_file::Blob = t.file.slice(offset, end).into();
    let (client, shared, in_flight) = (Rc::downgrade(client), Rc::downgrade(shared), in_flight.clone());
    wasm_bindgen_futures::spawn_local(async move {
        let bytes = gloo_file::futures::read_as_bytes(&blob).await;
        let (Some(client), Some(shared)) = (client.upgrade(), shared.upgrade()) else { return };
        match bytes {
            Ok(bytes) => client.send(&ToWorker::ImportChunk { import_id: POOL_IMPORT, bytes }),
            Err(_) => {
                client.send(&ToWorker::ImportCancel { import_id: POOL_IMPORT });
                next(&shared, &client, &in_flight);
            }
        }
    });
}
