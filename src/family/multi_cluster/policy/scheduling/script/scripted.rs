//! The scripted task-scheduling policy itself, on the Rhai engine (the `scripts` feature).

use super::super::MAX_REPLICAS;
use super::{Choice, Estimate, ResourceView, TaskOrder, TaskScheduling};
use crate::script::Refused;
use crate::script::{line_column, Script, ScriptError};
use rhai::{Array, Dynamic, Engine, EvalAltResult, NativeCallContext};
use std::cell::RefCell;
use std::rc::Rc;

/// What a script decided, and where in the script it said so.
#[derive(Clone, Copy, Debug)]
struct Decision {
    choice: Decided,
    line: u32,
    column: u32,
}

#[derive(Clone, Copy, Debug)]
enum Decided {
    Start(i64),
    Reserve(i64),
    Wait,
}

impl std::fmt::Display for Decided {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Decided::Start(c) => write!(f, "start({c})"),
            Decided::Reserve(c) => write!(f, "reserve({c})"),
            Decided::Wait => f.write_str("wait()"),
        }
    }
}

/// The view a script reads (`ResourceView`, copied in at each decision: O(clusters), no allocation once sized).
#[derive(Default)]
struct ViewData {
    now: f64,
    speed: Vec<f64>,
    managed: Vec<u32>,
    /// Managed clusters with a free processor, fastest first.
    free: Vec<u32>,
    free_count: Vec<u32>,
    queued: Vec<u32>,
    /// Per cluster, when the script uses end estimates (NaN for clusters it does not manage).
    free_at: Vec<f64>,
    uses_end_estimates: bool,
}

impl ViewData {
    fn fill(&mut self, view: &ResourceView) {
        self.now = view.now;
        if self.speed.is_empty() {
            self.speed.extend_from_slice(view.speed);
            self.managed.extend_from_slice(view.managed);
            self.free_at.resize(view.speed.len(), f64::NAN);
        }
        self.free.clear();
        self.free.extend(view.free.iter());
        self.free_count.clear();
        self.free_count.extend_from_slice(view.free_count);
        self.queued.clear();
        self.queued.extend_from_slice(view.queued);
        if self.uses_end_estimates {
            for &c in view.managed {
                self.free_at[c as usize] = (view.free_at)(c);
            }
        }
    }

    fn cluster(&self, c: i64) -> Result<usize, Refused> {
        usize::try_from(c).ok().filter(|&i| i < self.speed.len()).ok_or(Refused::OutOfRange {
            what: "cluster",
            index: c,
            len: self.speed.len(),
            holder: "platform",
        })
    }
}

/// The script's handle on the view (`view` in `choose`).
#[derive(Clone)]
struct View(Rc<RefCell<ViewData>>);

fn ints(v: &[u32]) -> Array {
    v.iter().map(|&c| Dynamic::from_int(i64::from(c))).collect()
}

/// Registers the view's fields and the decisions on a script's engine.
fn register(engine: &mut Engine) {
    engine
        .register_type_with_name::<View>("View")
        .register_get("now", |v: &mut View| v.0.borrow().now)
        .register_get("clusters", |v: &mut View| v.0.borrow().speed.len() as i64)
        .register_get("managed", |v: &mut View| ints(&v.0.borrow().managed))
        .register_get("free", |v: &mut View| ints(&v.0.borrow().free))
        .register_fn("fastest_free", |v: &mut View| v.0.borrow().free.first().map_or(-1, |&c| i64::from(c)))
        .register_fn("speed", |v: &mut View, c: i64| -> Result<f64, Box<EvalAltResult>> {
            let d = v.0.borrow();
            Ok(d.speed[d.cluster(c)?])
        })
        .register_fn("free_count", |v: &mut View, c: i64| -> Result<i64, Box<EvalAltResult>> {
            let d = v.0.borrow();
            Ok(i64::from(d.free_count[d.cluster(c)?]))
        })
        .register_fn("queued", |v: &mut View, c: i64| -> Result<i64, Box<EvalAltResult>> {
            let d = v.0.borrow();
            Ok(i64::from(d.queued[d.cluster(c)?]))
        })
        .register_fn("free_at", |v: &mut View, c: i64| -> Result<f64, Box<EvalAltResult>> {
            let d = v.0.borrow();
            let i = d.cluster(c)?;
            if !d.uses_end_estimates {
                return Err("free_at needs the end estimates: define fn uses_end_estimates() { true }".into());
            }
            let t = d.free_at[i];
            if t.is_nan() {
                return Err(format!("free_at({c}): cluster {c} is not managed by this resource manager").into());
            }
            Ok(t)
        });
    let at = |ctx: &NativeCallContext, choice| {
        let (line, column) = line_column(ctx.call_position());
        Decision { choice, line, column }
    };
    engine
        .register_type_with_name::<Decision>("Decision")
        .register_fn("start", move |ctx: NativeCallContext, c: i64| at(&ctx, Decided::Start(c)))
        .register_fn("reserve", move |ctx: NativeCallContext, c: i64| at(&ctx, Decided::Reserve(c)))
        .register_fn("wait", move |ctx: NativeCallContext| at(&ctx, Decided::Wait));
}

/// A scheduling policy that asks a script.
pub struct ScriptedScheduling {
    script: Script,
    view: View,
    order: TaskOrder,
    estimate: Estimate,
    uses_end_estimates: bool,
    max_replicas: u32,
    observes: bool,
    /// Set once the script fails or decides the impossible; the policy then only waits.
    failure: Option<ScriptError>,
}

impl ScriptedScheduling {
    /// Compiles the script and asks it what it declares (its task order, estimate, end estimates, replicas).
    pub fn new(source: &str) -> Result<ScriptedScheduling, ScriptError> {
        let mut script = Script::compile(source, register)?;
        if !script.defines("choose", 2) {
            return Err(ScriptError::new(
                0,
                0,
                "the script defines no fn choose(estimate, view), which places each task (docs/policies.md)",
            ));
        }
        let order = script.declared_choice(
            "order",
            &[
                ("fcfs", TaskOrder::Fcfs),
                ("largest_first", TaskOrder::LargestFirst),
                ("shortest_first", TaskOrder::ShortestFirst),
            ],
        )?;
        let estimate = script.declared_choice(
            "estimate",
            &[("known", Estimate::Known), ("predicted", Estimate::Predicted), ("none", Estimate::None)],
        )?;
        let uses_end_estimates = script.declared_bool("uses_end_estimates", false)?;
        let max_replicas = match script.declared("max_replicas")? {
            None => 0,
            Some(v) => v
                .as_int()
                .ok()
                .and_then(|n| u32::try_from(n).ok())
                .filter(|&n| n <= MAX_REPLICAS)
                .ok_or_else(|| script.wrong("max_replicas", &v, &format!("an integer 0 to {MAX_REPLICAS}")))?,
        };
        let observes = script.defines("observe_completion", 3);
        let data = ViewData { uses_end_estimates, ..ViewData::default() };
        Ok(ScriptedScheduling {
            script,
            view: View(Rc::new(RefCell::new(data))),
            order,
            estimate,
            uses_end_estimates,
            max_replicas,
            observes,
            failure: None,
        })
    }

    /// Checks a decision against the view; the choice the simulation carries out, or why it cannot.
    fn check(&self, d: Decision) -> Result<Choice, Refused> {
        let v = self.view.0.borrow();
        let managed = |c: i64| -> Result<u32, Refused> {
            let i = v.cluster(c)? as u32;
            if v.managed.contains(&i) {
                Ok(i)
            } else {
                let list: Vec<String> = v.managed.iter().map(u32::to_string).collect();
                Err(format!("cluster {c} is not managed by this resource manager (it manages {})", list.join(", "))
                    .into())
            }
        };
        match d.choice {
            Decided::Wait => Ok(Choice::Wait),
            Decided::Start(c) => {
                let i = managed(c)?;
                if v.free.contains(&i) {
                    Ok(Choice::Start(i))
                } else {
                    Err(format!("cluster {c} has no free processor; reserve(c) queues a task there, wait() waits")
                        .into())
                }
            }
            Decided::Reserve(c) => {
                let i = managed(c)?;
                if !self.uses_end_estimates {
                    Err("reserve needs the clusters' queues: define fn uses_end_estimates() { true }".into())
                } else if v.free.contains(&i) && v.queued[i as usize] == 0 {
                    Err(format!("cluster {c} has a free processor and no queue; start({c}) starts the task now").into())
                } else {
                    Ok(Choice::Reserve(i))
                }
            }
        }
    }

    fn fail(&mut self, mut e: ScriptError, now: Option<f64>) {
        e.sim_time = now;
        self.failure = Some(e);
    }
}

impl TaskScheduling for ScriptedScheduling {
    fn order(&self) -> TaskOrder {
        self.order
    }

    fn choose(&mut self, estimate: f64, view: &ResourceView) -> Choice {
        if self.failure.is_some() {
            return Choice::Wait;
        }
        self.view.0.borrow_mut().fill(view);
        let allowed = "start(c), reserve(c) or wait()";
        let decided = self.script.decide::<Decision>("choose", (estimate, self.view.clone()), allowed);
        match decided.map(|d| (d, self.check(d))) {
            Ok((_, Ok(choice))) => choice,
            Ok((d, Err(why))) => {
                let e = ScriptError::new(d.line, d.column, format!("fn choose decided {}: {why}", d.choice));
                self.fail(e, Some(view.now));
                Choice::Wait
            }
            Err(e) => {
                self.fail(e, Some(view.now));
                Choice::Wait
            }
        }
    }

    fn max_replicas(&self) -> u32 {
        self.max_replicas
    }

    fn estimate(&self) -> Estimate {
        self.estimate
    }

    fn uses_end_estimates(&self) -> bool {
        self.uses_end_estimates
    }

    fn observe_completion(&mut self, cluster: u32, estimate: f64, elapsed: f64) {
        if self.observes && self.failure.is_none() {
            if let Err(e) = self.script.call("observe_completion", (i64::from(cluster), estimate, elapsed)) {
                self.fail(e, None);
            }
        }
    }

    fn failure(&self) -> Option<&ScriptError> {
        self.failure.as_ref()
    }
}
