//! The scripted task selection itself, on the Rhai engine (the `scripts` feature).

use super::super::{QueueIndex, Selection, SelectionView, TaskSelection};
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
    AllTasks,
    OldestBot,
    UserTasks(i64),
    UserOldestBot(i64),
    OneTaskPerUser(i64),
}

impl std::fmt::Display for Decided {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Decided::AllTasks => f.write_str("all_tasks()"),
            Decided::OldestBot => f.write_str("oldest_bot()"),
            Decided::UserTasks(u) => write!(f, "user_tasks({u})"),
            Decided::UserOldestBot(u) => write!(f, "user_oldest_bot({u})"),
            Decided::OneTaskPerUser(u) => write!(f, "one_task_per_user({u})"),
        }
    }
}

/// The view a script reads, copied in at each decision (O(waiting users), no allocation once sized).
#[derive(Default)]
struct ViewData {
    /// Users with waiting tasks, ascending id, and the consumption of each, CPU-s.
    users: Vec<u32>,
    consumption: Vec<f64>,
}

impl ViewData {
    /// User `u`'s place in `users`, or why it has no waiting task.
    fn waiting(&self, u: i64) -> Result<usize, Refused> {
        u32::try_from(u)
            .ok()
            .and_then(|u| self.users.binary_search(&u).ok())
            .ok_or_else(|| format!("user {u} has no waiting task at this RM (view.users lists those who do)").into())
    }
}

/// The script's handle on the view (`view` in `select`).
#[derive(Clone)]
struct View(Rc<RefCell<ViewData>>);

/// Registers the view's fields and the decisions on a script's engine.
fn register(engine: &mut Engine) {
    engine
        .register_type_with_name::<View>("View")
        .register_get("users", |v: &mut View| -> Array {
            v.0.borrow().users.iter().map(|&u| Dynamic::from_int(i64::from(u))).collect()
        })
        .register_fn("consumption", |v: &mut View, u: i64| -> Result<f64, Box<EvalAltResult>> {
            let d = v.0.borrow();
            Ok(d.consumption[d.waiting(u)?])
        });
    let at = |ctx: &NativeCallContext, choice| {
        let (line, column) = line_column(ctx.call_position());
        Decision { choice, line, column }
    };
    engine
        .register_type_with_name::<Decision>("Decision")
        .register_fn("all_tasks", move |ctx: NativeCallContext| at(&ctx, Decided::AllTasks))
        .register_fn("oldest_bot", move |ctx: NativeCallContext| at(&ctx, Decided::OldestBot))
        .register_fn("user_tasks", move |ctx: NativeCallContext, u: i64| at(&ctx, Decided::UserTasks(u)))
        .register_fn("user_oldest_bot", move |ctx: NativeCallContext, u: i64| at(&ctx, Decided::UserOldestBot(u)))
        .register_fn("one_task_per_user", move |ctx: NativeCallContext, u: i64| at(&ctx, Decided::OneTaskPerUser(u)));
}

/// A task-selection policy that asks a script.
pub struct ScriptedSelection {
    script: Script,
    view: View,
    index: QueueIndex,
    absorbs: bool,
    /// Set once the script fails or decides the impossible; the policy then selects nothing.
    failure: Option<ScriptError>,
}

impl ScriptedSelection {
    /// Compiles the script and asks it what it declares (its queue index, whether arrivals join the set).
    pub fn new(source: &str) -> Result<ScriptedSelection, ScriptError> {
        let mut script = Script::compile(source, register)?;
        if !script.defines("select", 1) {
            return Err(ScriptError::new(
                0,
                0,
                "the script defines no fn select(view), which forms each eligible set (docs/policies.md)",
            ));
        }
        let index =
            script.declared_choice("index", &[("fifo", QueueIndex::Fifo), ("per_user", QueueIndex::PerUser)])?;
        let absorbs = script.declared_bool("absorbs_arrivals", false)?;
        let view = View(Rc::new(RefCell::new(ViewData::default())));
        Ok(ScriptedSelection { script, view, index, absorbs, failure: None })
    }

    /// Checks a decision against the view and the queue index: the selection the RM carries out, or why not.
    fn check(&self, d: Decided) -> Result<Selection, Refused> {
        let v = self.view.0.borrow();
        let per_user = |what: &str| -> Result<(), Refused> {
            match self.index {
                QueueIndex::PerUser => Ok(()),
                QueueIndex::Fifo => {
                    Err(format!("{what} needs the waiting tasks per user: fn index() {{ \"per_user\" }}").into())
                }
            }
        };
        match d {
            Decided::AllTasks => Ok(Selection::AllTasks),
            Decided::OldestBot => match self.index {
                QueueIndex::Fifo => Ok(Selection::OldestBot),
                QueueIndex::PerUser => {
                    Err("the RM keeps its waiting tasks per user (index \"per_user\"); user_oldest_bot(u) takes a \
                         user's oldest BoT"
                        .into())
                }
            },
            Decided::UserTasks(u) => {
                per_user("user_tasks")?;
                Ok(Selection::UserTasks(v.users[v.waiting(u)?]))
            }
            Decided::UserOldestBot(u) => {
                per_user("user_oldest_bot")?;
                Ok(Selection::UserOldestBot(v.users[v.waiting(u)?]))
            }
            Decided::OneTaskPerUser(after) => {
                per_user("one_task_per_user")?;
                match after {
                    -1 => Ok(Selection::OneTaskPerUser { after: None }),
                    // Below u32::MAX: the RM starts from after + 1.
                    a => u32::try_from(a)
                        .ok()
                        .filter(|&a| a < u32::MAX)
                        .map(|a| Selection::OneTaskPerUser { after: Some(a) })
                        .ok_or_else(|| format!("after = {a}: a user id, or -1 to start from the first user").into()),
                }
            }
        }
    }
}

impl TaskSelection for ScriptedSelection {
    fn select(&mut self, view: &SelectionView) -> Selection {
        if self.failure.is_some() {
            return Selection::Nothing;
        }
        {
            let mut d = self.view.0.borrow_mut();
            d.users.clear();
            d.users.extend(view.waiting_users.iter());
            d.consumption.clear();
            let consumption = view.consumption;
            d.consumption.extend(view.waiting_users.iter().map(|&u| consumption(u)));
        }
        let allowed = "all_tasks(), oldest_bot(), user_tasks(u), user_oldest_bot(u) or one_task_per_user(after)";
        let decided = self.script.decide::<Decision>("select", (self.view.clone(),), allowed);
        let e = match decided.map(|d| (d, self.check(d.choice))) {
            Ok((_, Ok(selection))) => return selection,
            Ok((d, Err(why))) => ScriptError::new(d.line, d.column, format!("fn select decided {}: {why}", d.choice)),
            Err(e) => e,
        };
        self.failure = Some(e);
        Selection::Nothing
    }

    fn index(&self) -> QueueIndex {
        self.index
    }

    fn absorbs_arrivals(&self) -> bool {
        self.absorbs
    }

    fn failure(&self) -> Option<&ScriptError> {
        self.failure.as_ref()
    }
}
