//! The page's side of the worker boundary: spawn workers (relative URL, so a sub-path works), send typed
//! messages, receive typed replies, and replace a worker that dies.

use crate::protocol::{FromWorker, NoFigure, ToWorker};
use gloo_events::EventListener;
use serde::de::DeserializeOwned;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{ErrorEvent, MessageEvent, Worker, WorkerOptions, WorkerType};

/// What the page hears from a worker: a message, or that the worker died (and was replaced). `F` is what a figure
/// job's result is read as (`protocol::FromWorker`): none for the page's own worker, `AnyFigureResult` for a pool's.
pub enum Event<F = NoFigure> {
    Message(FromWorker<F>),
    Died(String),
}

/// One simulation worker.
pub struct Client<F = NoFigure> {
    worker: RefCell<Worker>,
    handler: Rc<dyn Fn(Event<F>)>,
    /// The worker's `message` and `error` listeners: dropping them stops listening.
    listeners: RefCell<Vec<EventListener>>,
}

fn spawn() -> Result<Worker, JsValue> {
    let opts = WorkerOptions::new();
    opts.set_type(WorkerType::Classic);
    // Relative to <base href>, so the page works under any sub-path.
    Worker::new_with_options("./worker_loader.js", &opts)
}

impl<F: DeserializeOwned + 'static> Client<F> {
    /// Spawns a worker; `handler` receives its messages (the first is Ready).
    pub fn new(handler: Rc<dyn Fn(Event<F>)>) -> Result<Rc<Client<F>>, JsValue> {
        let client = Rc::new(Client { worker: RefCell::new(spawn()?), handler, listeners: RefCell::new(Vec::new()) });
        Client::attach(&client);
        Ok(client)
    }

    fn attach(this: &Rc<Client<F>>) {
        let handler = this.handler.clone();
        let worker = this.worker.borrow().clone();
        let on_message = EventListener::new(&worker, "message", move |ev| {
            let Some(ev) = ev.dyn_ref::<MessageEvent>() else { return };
            match serde_wasm_bindgen::from_value::<FromWorker<F>>(ev.data()) {
                Ok(m) => handler(Event::Message(m)),
                Err(e) => handler(Event::Died(format!("unreadable message from the worker: {e}"))),
            }
        });
        let weak = Rc::downgrade(this);
        let on_error = EventListener::new(&worker, "error", move |ev| {
            let message = ev.dyn_ref::<ErrorEvent>().map(|e| e.message()).unwrap_or_else(|| "unknown error".into());
            let Some(this) = weak.upgrade() else { return };
            // Listeners of the dead worker are dropped (removed) after this one returns, not while it runs.
            let old = std::mem::take(&mut *this.listeners.borrow_mut());
            this.worker.borrow().terminate();
            match spawn() {
                Ok(w) => {
                    *this.worker.borrow_mut() = w;
                    Client::attach(&this);
                }
                Err(_) => web_sys::console::error_1(&"bagsim: cannot start a new worker".into()),
            }
            (this.handler)(Event::Died(message));
            wasm_bindgen_futures::spawn_local(async move { drop(old) });
        });
        let mut listeners = this.listeners.borrow_mut();
        listeners.push(on_message);
        listeners.push(on_error);
    }
}

impl<F> Client<F> {
    /// Stops the worker at once (a run in progress is lost) and stops listening to it.
    pub fn terminate(&self) {
        self.listeners.borrow_mut().clear();
        self.worker.borrow().terminate();
    }

    /// Posts a message to the worker.
    pub fn send(&self, msg: &ToWorker) {
        match serde_wasm_bindgen::to_value(msg) {
            Ok(v) => {
                if let Err(e) = self.worker.borrow().post_message(&v) {
                    web_sys::console::error_2(&"bagsim: post_message failed".into(), &e);
                }
            }
            Err(e) => web_sys::console::error_1(&format!("bagsim: cannot encode a message: {e}").into()),
        }
    }
}

/// A client nobody holds any more ends its worker: otherwise the worker would go on running (and its handlers
/// would call into dropped closures).
impl<F> Drop for Client<F> {
    fn drop(&mut self) {
        self.terminate();
    }
}
