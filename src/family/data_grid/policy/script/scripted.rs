//! The scripted metascheduling scheme itself, on the Rhai engine (the `scripts` feature).

use super::{ChooseSite, SiteOffer, SiteView};
use crate::script::Refused;
use crate::script::{line_column, Script, ScriptError};
use rhai::{Engine, EvalAltResult, NativeCallContext};
use std::cell::RefCell;
use std::rc::Rc;

/// What a script decided, and where in the script it said so.
#[derive(Clone, Copy, Debug)]
struct Decision {
    site: i64,
    line: u32,
    column: u32,
}

/// The view a script reads, copied in at each decision (O(sites), no allocation once sized).
#[derive(Default)]
struct ViewData {
    now: f64,
    dispatch: f64,
    job: i64,
    procs: i64,
    estimate: f64,
    data_mb: f64,
    sites: Vec<SiteOffer>,
}

impl ViewData {
    fn site(&self, k: i64) -> Result<&SiteOffer, Refused> {
        usize::try_from(k).ok().and_then(|i| self.sites.get(i)).ok_or(Refused::OutOfRange {
            what: "site",
            index: k,
            len: self.sites.len(),
            holder: "grid",
        })
    }

    /// Site `k`'s offer, when the job fits there.
    fn fitting(&self, k: i64) -> Result<&SiteOffer, Refused> {
        let s = self.site(k)?;
        if s.fits {
            Ok(s)
        } else {
            Err(format!("the job needs {} processors; site {k} has {}", self.procs, s.processors).into())
        }
    }
}

/// The script's handle on the view (`view` in `choose`).
#[derive(Clone)]
struct View(Rc<RefCell<ViewData>>);

type Fallible<T> = Result<T, Box<EvalAltResult>>;

/// Registers the view's fields and the decision on a script's engine.
fn register(engine: &mut Engine) {
    engine
        .register_type_with_name::<View>("View")
        .register_get("now", |v: &mut View| v.0.borrow().now)
        .register_get("dispatch", |v: &mut View| v.0.borrow().dispatch)
        .register_get("job", |v: &mut View| v.0.borrow().job)
        .register_get("procs", |v: &mut View| v.0.borrow().procs)
        .register_get("estimate", |v: &mut View| v.0.borrow().estimate)
        .register_get("data_mb", |v: &mut View| v.0.borrow().data_mb)
        .register_get("sites", |v: &mut View| v.0.borrow().sites.len() as i64)
        .register_fn("processors", |v: &mut View, k: i64| -> Fallible<i64> {
            Ok(i64::from(v.0.borrow().site(k)?.processors))
        })
        .register_fn("fits", |v: &mut View, k: i64| -> Fallible<bool> { Ok(v.0.borrow().site(k)?.fits) })
        .register_fn("transfer", |v: &mut View, k: i64| -> Fallible<f64> { Ok(v.0.borrow().site(k)?.transfer) })
        .register_fn("queued", |v: &mut View, k: i64| -> Fallible<i64> { Ok(i64::from(v.0.borrow().site(k)?.queued)) })
        .register_fn("busy", |v: &mut View, k: i64| -> Fallible<i64> { Ok(i64::from(v.0.borrow().site(k)?.busy)) })
        .register_fn("start", |v: &mut View, k: i64| -> Fallible<f64> { Ok(v.0.borrow().fitting(k)?.start) })
        .register_fn("finish", |v: &mut View, k: i64| -> Fallible<f64> { Ok(v.0.borrow().fitting(k)?.finish) });
    engine.register_type_with_name::<Decision>("Decision").register_fn("site", |ctx: NativeCallContext, site: i64| {
        let (line, column) = line_column(ctx.call_position());
        Decision { site, line, column }
    });
}

/// A metascheduling scheme that asks a script.
pub struct ScriptedScheme {
    script: Script,
    view: View,
    overlaps: bool,
    /// Set once the script fails or decides the impossible; the scheme then chooses no site.
    failure: Option<ScriptError>,
}

impl ScriptedScheme {
    /// Compiles the script and asks it what it declares (`overlap()`).
    pub fn new(source: &str) -> Result<ScriptedScheme, ScriptError> {
        let mut script = Script::compile(source, register)?;
        if !script.defines("choose", 1) {
            return Err(ScriptError::new(
                0,
                0,
                "the script defines no fn choose(view), which names the site a job goes to (docs/policies.md)",
            ));
        }
        let overlaps = script.declared_bool("overlap", false)?;
        Ok(ScriptedScheme { script, view: View(Rc::new(RefCell::new(ViewData::default()))), overlaps, failure: None })
    }
}

impl ChooseSite for ScriptedScheme {
    fn overlaps(&self) -> bool {
        self.overlaps
    }

    fn choose(&mut self, view: &SiteView) -> Option<usize> {
        if self.failure.is_some() {
            return None;
        }
        {
            let mut d = self.view.0.borrow_mut();
            d.now = view.now;
            d.dispatch = view.dispatch;
            d.job = i64::from(view.job_index);
            d.procs = i64::from(view.job.procs);
            d.estimate = view.job.estimate;
            d.data_mb = view.job.data_mb;
            d.sites.clear();
            d.sites.extend_from_slice(view.sites);
        }
        let decided = self.script.decide::<Decision>("choose", (self.view.clone(),), "site(k)");
        let e = match decided {
            Ok(d) => match self.view.0.borrow().fitting(d.site) {
                Ok(_) => return Some(d.site as usize),
                Err(why) => ScriptError::new(d.line, d.column, format!("fn choose decided site({}): {why}", d.site)),
            },
            Err(e) => e,
        };
        self.failure = Some(ScriptError { sim_time: Some(view.now), ..e });
        None
    }

    fn failure(&self) -> Option<&ScriptError> {
        self.failure.as_ref()
    }
}
