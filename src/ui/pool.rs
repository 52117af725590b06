//! A pool of simulation workers that runs a list of scenarios, one run per worker at a time and without live data:
//! the page's sweeps and paper figures. Each worker's `Finished` report is `run::report_without_predictors`.

use super::client::{Client, Event};
use crate::protocol::{FromWorker, ToWorker};
use crate::run::Report;
use crate::scenario::Scenario;
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::{Rc, Weak};

/// How one job ended.
pub enum Outcome {
    Finished(Box<Report>),
    /// The run failed, or its worker died (the worker is replaced and the pool goes on).
    Failed(String),
}

/// Called once per job, with the job's index in the list given to [`Pool::start`].
pub type OnDone = Rc<dyn Fn(usize, Outcome)>;

struct Shared {
    queue: RefCell<VecDeque<(usize, Scenario)>>,
    workers: RefCell<Vec<Rc<Client>>>,
    on_done: OnDone,
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
    pub fn start(jobs: Vec<Scenario>, on_done: OnDone) -> Result<Pool, String> {
        let shared = Rc::new(Shared {
            queue: RefCell::new(jobs.into_iter().enumerate().collect()),
            workers: RefCell::new(Vec::new()),
            on_done,
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
            let handler: Rc<dyn Fn(Event)> = Rc::new(move |ev: Event| {
                let (Some(shared), Some(client)) = (weak_shared.upgrade(), me2.borrow().upgrade()) else { return };
                let ours = |run_id: u32| in_flight.get().is_some_and(|i| i as u32 + 1 == run_id);
                match ev {
                    Event::Message(FromWorker::Ready) => next(&shared, &client, &in_flight),
                    Event::Message(FromWorker::Finished { run_id, report, .. }) if ours(run_id) => {
                        if let Some(job) = in_flight.take() {
                            (shared.on_done)(job, Outcome::Finished(report));
                        }
                        next(&shared, &client, &in_flight);
                    }
                    Event::Message(FromWorker::Failed { run_id, message }) if ours(run_id) || run_id == 0 => {
                        if let Some(job) = in_flight.take() {
                            (shared.on_done)(job, Outcome::Failed(message));
                        }
                        next(&shared, &client, &in_flight);
                    }
                    Event::Message(FromWorker::Panicked { message }) => *panicked.borrow_mut() = Some(message),
                    // The client has replaced the worker; the replacement's Ready takes the next job.
                    Event::Died(why) => {
                        let why = panicked.borrow_mut().take().unwrap_or(why);
                        if let Some(job) = in_flight.take() {
                            (shared.on_done)(job, Outcome::Failed(format!("the worker stopped: {why}")));
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
                    return Err("This browser could not start a simulation worker.".into());
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
    if let Some((i, scenario)) = job {
        in_flight.set(Some(i));
        client.send(&ToWorker::Run { run_id: i as u32 + 1, scenario: Box::new(scenario), speed: None, live: false });
    }
}
