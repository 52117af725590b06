//! The simulation worker's entry point (wasm32 only): runs scenarios in chunks and streams progress to the page.

#[cfg(target_arch = "wasm32")]
fn main() {
    worker::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {}

#[cfg(target_arch = "wasm32")]
mod worker {
    use bagsim::family::contract::{Budget, FamilyRun};
    use bagsim::protocol::{FromWorker, Progress, ToWorker, ViewsError};
    use bagsim::registry::{AnyReport, AnyRun};
    use bagsim::run;
    use bagsim::trace::{Parser, Trace};
    use std::cell::RefCell;
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

    /// Wall-clock budget of one chunk, ms: small enough that Pause and Cancel are answered at once.
    const CHUNK_MS: f64 = 40.0;
    /// Demo speed: one tick of simulated time every this many ms.
    const TICK_MS: i32 = 50;

    /// The run in progress, of any family: the worker drives it through the family contract only.
    struct Current {
        run_id: u32,
        run: AnyRun,
        live: bool,
        paused: bool,
        speed: Option<f64>,
        demo_clock: f64,
        chunk: u64,
        wall: f64,
        /// While the run goes as fast as it can, never paused or slowed: the events its estimate gave and the
        /// seconds it took to generate its workload, to time this tab (`SECONDS_PER_EVENT`).
        timing: Option<(f64, f64)>,
    }

    thread_local! {
        static CURRENT: RefCell<Option<Current>> = const { RefCell::new(None) };
        /// The last finished run and the report it sent, kept for the exports.
        static LAST: RefCell<Option<(u32, AnyRun, AnyReport)>> = const { RefCell::new(None) };
        static YIELD_PORT: RefCell<Option<web_sys::MessagePort>> = const { RefCell::new(None) };
        static TIMER_PENDING: RefCell<bool> = const { RefCell::new(false) };
        /// An import in progress: its id, the name it will have, the parser, and when it began (ms).
        static IMPORT: RefCell<Option<(u32, String, Parser, f64)>> = const { RefCell::new(None) };
        /// The imported trace and its name: runs whose `workload.trace.path` is that name replay it.
        static TRACE: RefCell<Option<(String, Trace)>> = const { RefCell::new(None) };
        /// This tab's speed, from the last run timed: its wall time (generation, simulation and report, the three
        /// the page shows) over the events its estimate gave. The estimate is an upper bound; a rate taken against
        /// the same bound carries its slack.
        static SECONDS_PER_EVENT: RefCell<Option<f64>> = const { RefCell::new(None) };
    }

    /// `f` of the name and size of the trace this worker holds, if any.
    fn with_imported<T>(f: impl FnOnce(Option<(&str, &bagsim::trace::TraceSize)>) -> T) -> T {
        TRACE.with(|t| f(t.borrow().as_ref().map(|(name, trace)| (name.as_str(), &trace.report.size))))
    }

    /// The estimate of `scenario` on the trace this worker holds, as the page shows it before Run.
    fn estimated(scenario: &bagsim::scenario::Scenario) -> (String, bool) {
        let spe = SECONDS_PER_EVENT.with(|s| *s.borrow());
        with_imported(|imported| bagsim::registry::before_run(scenario, imported, spe))
    }

    fn scope() -> DedicatedWorkerGlobalScope {
        js_sys::global().unchecked_into()
    }

    fn now_ms() -> f64 {
        scope().performance().map_or(0.0, |p| p.now())
    }

    fn post(msg: &FromWorker) {
        match serde_wasm_bindgen::to_value(msg) {
            Ok(v) => {
                let _ = scope().post_message(&v);
            }
            Err(e) => web_sys::console::error_1(&format!("bagsim worker: cannot encode a message: {e}").into()),
        }
    }

    pub fn start() {
        // Log the panic to the console, and tell the page why this worker is about to die (the error event the page
        // then gets says only "unreachable").
        std::panic::set_hook(Box::new(|info| {
            console_error_panic_hook::hook(info);
            let message = match info.payload().downcast_ref::<&str>() {
                Some(s) => s.to_string(),
                None => info.payload().downcast_ref::<String>().cloned().unwrap_or_else(|| info.to_string()),
            };
            post(&FromWorker::Panicked { message });
        }));
        // The worker listens for its whole life: the listener is never dropped.
        gloo_events::EventListener::new(&scope(), "message", |ev| {
            let Some(ev) = ev.dyn_ref::<MessageEvent>() else { return };
            match serde_wasm_bindgen::from_value::<ToWorker>(ev.data()) {
                Ok(m) => handle(m),
                Err(e) => post(&FromWorker::Failed { run_id: 0, message: format!("unreadable message: {e}") }),
            }
        })
        .forget();
        open_yield_channel();
        post(&FromWorker::Ready);
    }

    fn same_run(run_id: u32) -> bool {
        CURRENT.with(|c| c.borrow().as_ref().is_some_and(|c| c.run_id == run_id))
    }

    fn handle(m: ToWorker) {
        match m {
            ToWorker::Run { run_id, scenario, speed, live } => {
                CURRENT.with(|c| *c.borrow_mut() = None);
                let t0 = now_ms();
                let built = TRACE.with(|t| {
                    let t = t.borrow();
                    AnyRun::build(&scenario, t.as_ref().map(|(name, trace)| (name.as_str(), trace)))
                });
                match built {
                    Err(e) => post(&FromWorker::Failed { run_id, message: bagsim::registry::refusal(&e) }),
                    Ok(run) => {
                        let generate_s = (now_ms() - t0) / 1000.0;
                        post(&FromWorker::Started { run_id, start: run.start(), generate_s });
                        let events = with_imported(|imported| {
                            bagsim::registry::estimate_imported(&scenario, imported).map_or(f64::NAN, |e| e.events)
                        });
                        let timing =
                            (speed.is_none() && events.is_finite() && events > 0.0).then_some((events, generate_s));
                        CURRENT.with(|c| {
                            *c.borrow_mut() = Some(Current {
                                run_id,
                                run,
                                live,
                                paused: false,
                                speed,
                                demo_clock: 0.0,
                                chunk: 20_000,
                                wall: 0.0,
                                timing,
                            })
                        });
                        schedule(0);
                    }
                }
            }
            ToWorker::Pause { run_id } => {
                if same_run(run_id) {
                    CURRENT.with(|c| {
                        c.borrow_mut().as_mut().map(|c| {
                            c.paused = true;
                            c.timing = None;
                        })
                    });
                    post(&FromWorker::Paused { run_id });
                }
            }
            ToWorker::Resume { run_id } => {
                if same_run(run_id) {
                    CURRENT.with(|c| c.borrow_mut().as_mut().map(|c| c.paused = false));
                    schedule(0);
                }
            }
            ToWorker::Cancel { run_id } => {
                if same_run(run_id) {
                    CURRENT.with(|c| *c.borrow_mut() = None);
                    post(&FromWorker::Cancelled { run_id });
                }
            }
            ToWorker::Speed { run_id, speed } => {
                if same_run(run_id) {
                    CURRENT.with(|c| {
                        if let Some(c) = c.borrow_mut().as_mut() {
                            c.speed = speed;
                            c.demo_clock = c.run.header().now;
                            c.timing = None;
                        }
                    });
                }
            }
            ToWorker::Estimate { scenario } => {
                let (line, over) = estimated(&scenario);
                post(&FromWorker::Estimated { line, over });
            }
            ToWorker::ExportBots { run_id } => {
                let csv = LAST
                    .with(|l| l.borrow().as_ref().filter(|(id, ..)| *id == run_id).map(|(_, run, _)| run.rows_csv()));
                match csv {
                    Some(Some(csv)) => post(&FromWorker::BotsCsv { run_id, csv }),
                    Some(None) => {
                        post(&FromWorker::Failed { run_id, message: "this family has no per-BoT CSV".into() })
                    }
                    None => post(&FromWorker::Failed { run_id, message: "that run is no longer kept".into() }),
                }
            }
            ToWorker::ExportReport { run_id } => {
                let json = LAST.with(|l| {
                    l.borrow()
                        .as_ref()
                        .filter(|(id, ..)| *id == run_id)
                        .map(|(_, run, report)| run.full_report(report.clone()).to_json())
                });
                match json {
                    Some(Ok(json)) => post(&FromWorker::ReportJson { run_id, json }),
                    Some(Err(e)) => {
                        post(&FromWorker::Failed { run_id, message: format!("cannot write the report: {e}") })
                    }
                    None => post(&FromWorker::Failed { run_id, message: "that run is no longer kept".into() }),
                }
            }
            ToWorker::ImportBegin { import_id, name, format, size: _ } => {
                IMPORT.with(|i| *i.borrow_mut() = Some((import_id, name, Parser::new(format), now_ms())));
            }
            ToWorker::ImportChunk { import_id, bytes } => import_chunk(import_id, &bytes),
            ToWorker::ImportEnd { import_id } => import_end(import_id),
            ToWorker::ImportCancel { import_id } => IMPORT.with(|i| {
                let mut i = i.borrow_mut();
                if i.as_ref().is_some_and(|(id, ..)| *id == import_id) {
                    *i = None;
                }
            }),
            ToWorker::TraceBots { import_id, rule, fit } => trace_bots(import_id, rule, fit),
            ToWorker::ScenarioViews { request_id, scenario } => {
                let (result, fit) = match scenario.as_multi_cluster().and_then(run::prepare) {
                    Err(e) => (Err(ViewsError::Scenario(e.clone())), Err(ViewsError::Scenario(e))),
                    Ok(p) => {
                        let w = &p.generated.workload;
                        let views = bagsim::workload::views::views(w).map(Box::new).map_err(ViewsError::Data);
                        let fit = bagsim::workload::fit_workload::fit_workload_with_candidates(w)
                            .map(Box::new)
                            .map_err(ViewsError::Data);
                        (views, fit)
                    }
                };
                post(&FromWorker::Views { request_id, result, fit });
            }
            ToWorker::Figure { job_id, job } => {
                let result = TRACE.with(|t| {
                    let t = t.borrow();
                    job.run(&|| now_ms() / 1000.0, t.as_ref().map(|(name, trace)| (name.as_str(), trace)))
                });
                let result = result.map(Box::new);
                post(&FromWorker::FigureDone { job_id, result });
            }
            ToWorker::CheckScript { check_id, family, key, source } => {
                post(&FromWorker::ScriptChecked {
                    check_id,
                    error: family.check_script(&key, &source).err().map(|e| e.to_string()),
                });
            }
            ToWorker::Crash => panic!("crash requested by the page (fault injection)"),
        }
    }

    /// Parses the next bytes of the import and says how far it got; a corrupt gzip ends the import.
    fn import_chunk(import_id: u32, bytes: &[u8]) {
        let answer = IMPORT.with(|i| {
            let mut guard = i.borrow_mut();
            let (id, _, parser, _) = guard.as_mut().filter(|(id, ..)| *id == import_id)?;
            let id = *id;
            Some(match parser.push(bytes) {
                Ok(()) => {
                    let r = parser.report();
                    FromWorker::ImportProgress {
                        import_id: id,
                        bytes: r.input_bytes,
                        lines: r.lines,
                        jobs: r.jobs,
                        skipped: r.skipped,
                    }
                }
                Err(e) => {
                    *guard = None;
                    FromWorker::ImportFailed { import_id: id, message: e.to_string() }
                }
            })
        });
        if let Some(m) = answer {
            post(&m);
        }
    }

    /// Ends the import: the trace replaces the previous one, or the previous one stays and the page hears why.
    fn import_end(import_id: u32) {
        let Some((id, name, parser, t0)) = IMPORT.with(|i| {
            let mut i = i.borrow_mut();
            if i.as_ref().is_some_and(|(id, ..)| *id == import_id) {
                i.take()
            } else {
                None
            }
        }) else {
            return;
        };
        match parser.finish() {
            Ok(trace) => {
                let report = Box::new(trace.report.clone());
                TRACE.with(|t| *t.borrow_mut() = Some((name.clone(), trace)));
                post(&FromWorker::Imported { import_id: id, name, report, import_s: (now_ms() - t0) / 1000.0 });
            }
            Err(e) => post(&FromWorker::ImportFailed { import_id: id, message: e.to_string() }),
        }
    }

    /// The imported trace's BoTs under `rule`, and with `with_fit` the model row fitted to them.
    fn trace_bots(import_id: u32, rule: bagsim::trace::bots::BotRule, with_fit: bool) {
        let answer = TRACE.with(|t| {
            let t = t.borrow();
            let Some((_, trace)) = t.as_ref() else {
                return FromWorker::ImportFailed { import_id, message: "no trace is imported".into() };
            };
            if let Err(e) = rule.validate() {
                return FromWorker::ImportFailed { import_id, message: e.to_string() };
            }
            match bagsim::trace::bots::extract(trace, &rule) {
                Err(e) => FromWorker::ImportFailed { import_id, message: e.to_string() },
                Ok(e) => {
                    let fitted =
                        with_fit.then(|| bagsim::workload::fit_workload::fit_workload_with_candidates(&e.workload));
                    let (fit, fit_error, candidates) = match fitted {
                        None => (None, None, None),
                        Some(Ok((f, c))) => (Some(Box::new(f)), None, Some(Box::new(c))),
                        Some(Err(err)) => (None, Some(err.to_string()), None),
                    };
                    let views =
                        with_fit.then(|| bagsim::workload::views::views(&e.workload).ok()).flatten().map(Box::new);
                    let jobs = with_fit.then(|| trace.burstiness().ok()).flatten().map(Box::new);
                    FromWorker::TraceBots {
                        import_id,
                        rule,
                        report: Box::new(e.report),
                        fit,
                        fit_error,
                        views,
                        jobs,
                        candidates,
                    }
                }
            }
        });
        post(&answer);
    }

    /// Runs the next chunk after `delay_ms`. With no delay, through a message to ourselves: the page's messages
    /// (Pause, Cancel) still get through between chunks, and there is none of the 4 ms that browsers add to
    /// repeated zero-delay timers.
    fn schedule(delay_ms: i32) {
        let pending = TIMER_PENDING.with(|p| std::mem::replace(&mut *p.borrow_mut(), true));
        if pending {
            return;
        }
        if delay_ms == 0
            && YIELD_PORT.with(|p| p.borrow().as_ref().is_some_and(|p| p.post_message(&JsValue::NULL).is_ok()))
        {
            return;
        }
        let cb = Closure::once_into_js(run_scheduled_chunk);
        let _ = scope().set_timeout_with_callback_and_timeout_and_arguments_0(cb.unchecked_ref(), delay_ms);
    }

    fn run_scheduled_chunk() {
        TIMER_PENDING.with(|p| *p.borrow_mut() = false);
        chunk();
    }

    /// The channel `schedule` yields through: port 1 runs a chunk on each message, port 2 is where they are sent.
    fn open_yield_channel() {
        let Ok(channel) = web_sys::MessageChannel::new() else { return };
        gloo_events::EventListener::new(&channel.port1(), "message", |_| run_scheduled_chunk()).forget();
        // A port listened to with addEventListener delivers nothing until started (onmessage starts it implicitly).
        channel.port1().start();
        YIELD_PORT.with(|p| *p.borrow_mut() = Some(channel.port2()));
    }

    /// Runs one chunk of the current run, of any family: n events as fast as possible, with n adapted so that a
    /// chunk takes about CHUNK_MS, or up to the demo clock moved by `speed` simulated seconds per second. Posts
    /// what is new, and yields to the event loop so that messages get through.
    fn chunk() {
        let next = CURRENT.with(|c| {
            let mut guard = c.borrow_mut();
            let cur = guard.as_mut()?;
            if cur.paused {
                return None;
            }
            let t0 = now_ms();
            let done = match cur.speed {
                None => cur.run.step(Budget::Events(cur.chunk)),
                Some(v) => {
                    cur.demo_clock += v * f64::from(TICK_MS) / 1000.0;
                    cur.run.step(Budget::Until(cur.demo_clock))
                }
            };
            let dt = now_ms() - t0;
            cur.wall += dt / 1000.0;
            if cur.speed.is_none() && dt > 0.0 {
                let scaled = (cur.chunk as f64 * CHUNK_MS / dt).clamp(1_000.0, 5_000_000.0) as u64;
                cur.chunk = (cur.chunk + scaled) / 2;
            }
            post_progress(cur);
            if let Some(e) = done.then(|| cur.run.failure()).flatten() {
                // A scripted policy failed: the run has no report.
                post(&FromWorker::Failed { run_id: cur.run_id, message: e.to_string() });
                guard.take();
                None
            } else if done {
                let t0 = now_ms();
                let report = cur.run.report(cur.wall);
                let report_s = (now_ms() - t0) / 1000.0;
                if let Some((events, generate_s)) = cur.timing {
                    let total = generate_s + cur.wall + report_s;
                    SECONDS_PER_EVENT.with(|s| *s.borrow_mut() = (total > 0.0).then_some(total / events));
                }
                let sent = Box::new(report.clone().lean());
                post(&FromWorker::Finished { run_id: cur.run_id, report: sent, report_s });
                let finished = guard.take().expect("current run");
                LAST.with(|l| *l.borrow_mut() = Some((finished.run_id, finished.run, report)));
                None
            } else {
                Some(if cur.speed.is_some() { TICK_MS } else { 0 })
            }
        });
        if let Some(delay) = next {
            schedule(delay);
        }
    }

    fn post_progress(cur: &mut Current) {
        let mut header = cur.run.header();
        if cur.speed.is_some() {
            header.now = cur.demo_clock.max(header.now);
        }
        header.now = header.now.min(header.horizon);
        let detail = cur.live.then(|| cur.run.take_detail());
        post(&FromWorker::Progress(Box::new(Progress { run_id: cur.run_id, header, wall: cur.wall, detail })));
    }
}
