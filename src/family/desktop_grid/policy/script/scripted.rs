//! The scripted BoT selection itself, on the Rhai engine (the `scripts` feature).

use super::super::{BotView, SelectBag};
use crate::script::Refused;
use crate::script::{line_column, Script, ScriptError};
use crate::workload::Workload;
use rhai::{Array, Dynamic, Engine, EvalAltResult, NativeCallContext};
use std::cell::RefCell;
use std::rc::Rc;

/// What a script decided, and where in the script it said so.
#[derive(Clone, Copy, Debug)]
struct Decision {
    bot: Option<i64>,
    line: u32,
    column: u32,
}

/// A BoT in the queue as the script sees it.
#[derive(Clone, Copy, Debug, Default)]
struct Row {
    id: u32,
    pending: u32,
    running: u32,
    unreplicated: u32,
    candidates: u32,
    /// The longest time a candidate task of the BoT has been without a running replica, s (with idle times).
    idle: f64,
}

/// The view a script reads, copied in at each decision (O(BoTs in the queue), no allocation once sized).
#[derive(Default)]
struct ViewData {
    now: f64,
    /// RepThresh (u32::MAX: unlimited).
    thresh: u32,
    /// The script declared `uses_idle_times()`: the pool keeps them and `idle` is filled in.
    idle_times: bool,
    /// Arrival and size of every BoT of the workload.
    arrival: Vec<f64>,
    size: Vec<u32>,
    /// The BoTs in the queue (arrived, not finished), oldest first (ids are in arrival order).
    rows: Vec<Row>,
}

impl ViewData {
    fn fill(&mut self, view: &BotView) {
        self.now = view.now;
        self.rows.clear();
        let (pool, now, idle_times) = (view.pool, view.now, self.idle_times);
        self.rows.extend(pool.active.iter().map(|&b| {
            let candidates = pool.candidates(b);
            Row {
                id: b,
                pending: pool.pending(b),
                running: pool.running(b),
                unreplicated: pool.unreplicated(b),
                candidates,
                idle: if idle_times && candidates > 0 { pool.longest_idle(b, now) } else { f64::NAN },
            }
        }));
    }

    /// BoT `b`'s index in the workload, or why it is not one.
    fn bot(&self, b: i64) -> Result<usize, Refused> {
        usize::try_from(b).ok().filter(|&i| i < self.size.len()).ok_or(Refused::OutOfRange {
            what: "BoT",
            index: b,
            len: self.size.len(),
            holder: "workload",
        })
    }

    /// BoT `b`'s row, or why it is not in the queue.
    fn row(&self, b: i64) -> Result<&Row, Refused> {
        let i = self.bot(b)?;
        match self.rows.binary_search_by_key(&(i as u32), |r| r.id) {
            Ok(at) => Ok(&self.rows[at]),
            Err(_) if self.arrival[i] > self.now => {
                Err(format!("BoT {b} is not in the queue: it arrives at {} s", self.arrival[i]).into())
            }
            Err(_) => Err(format!("BoT {b} is not in the queue: it has finished").into()),
        }
    }
}

/// The script's handle on the view (`view` in `select`).
#[derive(Clone)]
struct View(Rc<RefCell<ViewData>>);

type Fallible<T> = Result<T, Box<EvalAltResult>>;

/// A per-BoT field of the view.
fn field(v: &mut View, b: i64, f: fn(&Row) -> u32) -> Fallible<i64> {
    let d = v.0.borrow();
    Ok(i64::from(f(d.row(b)?)))
}

/// Registers the view's fields and the decisions on a script's engine.
fn register(engine: &mut Engine) {
    let ids = |d: &ViewData, keep: fn(&Row) -> bool| -> Array {
        d.rows.iter().filter(|r| keep(r)).map(|r| Dynamic::from_int(i64::from(r.id))).collect()
    };
    engine
        .register_type_with_name::<View>("View")
        .register_get("now", |v: &mut View| v.0.borrow().now)
        .register_get("rep_thresh", |v: &mut View| {
            let t = v.0.borrow().thresh;
            if t == u32::MAX {
                -1
            } else {
                i64::from(t)
            }
        })
        .register_get("bots", move |v: &mut View| ids(&v.0.borrow(), |_| true))
        .register_get("ready", move |v: &mut View| ids(&v.0.borrow(), |r| r.candidates > 0))
        .register_get("norun", move |v: &mut View| ids(&v.0.borrow(), |r| r.running == 0))
        .register_fn("arrival", |v: &mut View, b: i64| -> Fallible<f64> {
            let d = v.0.borrow();
            Ok(d.arrival[d.bot(b)?])
        })
        .register_fn("tasks", |v: &mut View, b: i64| -> Fallible<i64> {
            let d = v.0.borrow();
            Ok(i64::from(d.size[d.bot(b)?]))
        })
        .register_fn("pending", |v: &mut View, b: i64| field(v, b, |r| r.pending))
        .register_fn("done", |v: &mut View, b: i64| -> Fallible<i64> {
            let d = v.0.borrow();
            let r = d.row(b)?;
            Ok(i64::from(d.size[r.id as usize] - r.pending))
        })
        .register_fn("running", |v: &mut View, b: i64| field(v, b, |r| r.running))
        .register_fn("unreplicated", |v: &mut View, b: i64| field(v, b, |r| r.unreplicated))
        .register_fn("candidates", |v: &mut View, b: i64| field(v, b, |r| r.candidates))
        .register_fn("longest_idle", |v: &mut View, b: i64| -> Fallible<f64> {
            let d = v.0.borrow();
            let r = d.row(b)?;
            if !d.idle_times {
                return Err("longest_idle needs the idle times: define fn uses_idle_times() { true }".into());
            }
            if r.candidates == 0 {
                return Err(format!(
                    "longest_idle({b}): BoT {b} has no candidate task (view.ready lists those that do)"
                )
                .into());
            }
            Ok(r.idle)
        });
    let at = |ctx: &NativeCallContext, bot| {
        let (line, column) = line_column(ctx.call_position());
        Decision { bot, line, column }
    };
    engine
        .register_type_with_name::<Decision>("Decision")
        .register_fn("bot", move |ctx: NativeCallContext, b: i64| at(&ctx, Some(b)))
        .register_fn("idle", move |ctx: NativeCallContext| at(&ctx, None));
}

/// A BoT selection policy that asks a script.
pub struct ScriptedBotSelection {
    script: Script,
    view: View,
    /// Set once the script fails or decides the impossible; the policy then names no BoT.
    failure: Option<ScriptError>,
}

impl ScriptedBotSelection {
    /// Compiles the script for a run of `workload` under RepThresh `thresh`.
    pub fn new(source: &str, workload: &Workload, thresh: u32) -> Result<ScriptedBotSelection, ScriptError> {
        let mut script = Script::compile(source, register)?;
        if !script.defines("select", 1) {
            return Err(ScriptError::new(
                0,
                0,
                "the script defines no fn select(view), which names the BoT a free machine serves (docs/policies.md)",
            ));
        }
        let idle_times = script.declared_bool("uses_idle_times", false)?;
        let data = ViewData {
            thresh,
            idle_times,
            arrival: workload.bots.iter().map(|b| b.arrival).collect(),
            size: workload.bots.iter().map(|b| b.size).collect(),
            ..ViewData::default()
        };
        Ok(ScriptedBotSelection { script, view: View(Rc::new(RefCell::new(data))), failure: None })
    }

    /// Checks a decision against the view: the BoT the simulation serves, or why it cannot.
    fn check(&self, d: Decision) -> Result<Option<u32>, Refused> {
        let Some(b) = d.bot else { return Ok(None) };
        let v = self.view.0.borrow();
        let row = v.row(b)?;
        if row.candidates == 0 {
            return Err(format!(
                "BoT {b} has no task with fewer than RepThresh ({}) running replicas; view.ready lists those that do",
                v.thresh
            )
            .into());
        }
        Ok(Some(row.id))
    }
}

impl SelectBag for ScriptedBotSelection {
    fn select(&mut self, view: &BotView) -> Option<u32> {
        if self.failure.is_some() {
            return None;
        }
        self.view.0.borrow_mut().fill(view);
        let decided = self.script.decide::<Decision>("select", (self.view.clone(),), "bot(b) or idle()");
        let e = match decided.map(|d| (d, self.check(d))) {
            Ok((_, Ok(choice))) => return choice,
            Ok((d, Err(why))) => {
                let what = d.bot.map_or("idle()".to_string(), |b| format!("bot({b})"));
                ScriptError::new(d.line, d.column, format!("fn select decided {what}: {why}"))
            }
            Err(e) => e,
        };
        self.failure = Some(ScriptError { sim_time: Some(view.now), ..e });
        None
    }

    fn failure(&self) -> Option<&ScriptError> {
        self.failure.as_ref()
    }

    fn uses_idle_times(&self) -> bool {
        self.view.0.borrow().idle_times
    }
}
