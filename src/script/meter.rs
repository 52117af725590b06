//! The built-in functions that compare a script's data element by element, charged one operation per element.
//!
//! Rhai counts one operation for a call to a native function, whatever it does. Most do O(1) work, or copy at
//! most the data limits allow; but `contains` (and `in`), `index_of`, `dedup` and `==`/`!=` on arrays and maps call
//! `==` once per element through Rhai's dispatch, about 1.6 µs each: 16 ms for one `contains` on an array at the
//! limit, so an ordinary-looking loop could hold one call for the better part of an hour inside its operation
//! budget. These versions, registered over the packages' (the engine looks in its own namespace first), do the
//! same comparisons and charge them to the call's budget, so every limit also bounds the time a call takes
//! (docs/policies.md, "Limits").

use rhai::{Array, Dynamic, Engine, EvalAltResult, ImmutableString, Map, NativeCallContext, Position};
use std::cell::Cell;
use std::cmp::Ordering;
use std::rc::Rc;

type Fallible<T> = Result<T, Box<EvalAltResult>>;

/// Registers the charged comparisons on `engine`; each adds the elements it compared to `charged`.
pub fn register(engine: &mut Engine, charged: &Rc<Cell<u64>>) {
    for (name, descending) in [("sort", false), ("sort_desc", true)] {
        let c = charged.clone();
        engine.register_fn(name, move |a: &mut Array| sort(&c, a, descending));
    }
    for (name, descending) in [("order", false), ("order_desc", true)] {
        let c = charged.clone();
        engine.register_fn(name, move |a: &mut Array| -> Fallible<Array> {
            let mut copy = a.clone();
            sort(&c, &mut copy, descending)?;
            Ok(copy)
        });
    }
    // Rhai formats an array or a map by calling `to_debug` on each element through its dispatch (about 0.1 µs an
    // element); the same text, charged.
    for name in ["to_string", "to_debug"] {
        let c = charged.clone();
        engine.register_fn(name, move |a: &mut Array| {
            c.set(c.get() + a.len() as u64);
            format!("{a:?}")
        });
        let c = charged.clone();
        engine.register_fn(name, move |m: &mut Map| {
            c.set(c.get() + m.len() as u64);
            format!("#{m:?}")
        });
    }
    let c = charged.clone();
    engine.register_fn("contains", move |ctx: NativeCallContext, a: &mut Array, v: Dynamic| -> Fallible<bool> {
        Ok(find(&ctx, &c, a, 0, v)? >= 0)
    });
    let c = charged.clone();
    engine.register_fn("index_of", move |ctx: NativeCallContext, a: &mut Array, v: Dynamic| -> Fallible<i64> {
        find(&ctx, &c, a, 0, v)
    });
    let c = charged.clone();
    engine.register_fn(
        "index_of",
        move |ctx: NativeCallContext, a: &mut Array, v: Dynamic, start: i64| -> Fallible<i64> {
            // Rhai's rule: a negative start counts from the end.
            let len = a.len() as i64;
            let from = if start < 0 { (len + start).max(0) } else { start };
            if from >= len {
                return Ok(-1);
            }
            find(&ctx, &c, a, from as usize, v)
        },
    );
    let c = charged.clone();
    engine.register_fn("dedup", move |ctx: NativeCallContext, a: &mut Array| -> Fallible<()> {
        c.set(c.get() + a.len() as u64);
        let mut failed = None;
        a.dedup_by(|x, y| {
            failed.is_none()
                && equal(&ctx, y, x).unwrap_or_else(|e| {
                    failed = Some(e);
                    false
                })
        });
        failed.map_or(Ok(()), Err)
    });
    let c = charged.clone();
    engine.register_fn("==", move |ctx: NativeCallContext, a: &mut Array, b: Array| arrays_equal(&ctx, &c, a, b));
    let c = charged.clone();
    engine.register_fn("!=", move |ctx: NativeCallContext, a: &mut Array, b: Array| {
        arrays_equal(&ctx, &c, a, b).map(|e| !e)
    });
    let c = charged.clone();
    engine.register_fn("==", move |ctx: NativeCallContext, a: &mut Map, b: Map| maps_equal(&ctx, &c, a, b));
    let c = charged.clone();
    engine.register_fn("!=", move |ctx: NativeCallContext, a: &mut Map, b: Map| maps_equal(&ctx, &c, a, b).map(|e| !e));
}

/// Rhai's `sort()`: an array of one type among integers, floats, characters, strings, booleans and `()`, in
/// ascending (or descending) order; charged n·⌈log₂ n⌉ operations, a comparison sort's worst case.
fn sort(charged: &Cell<u64>, a: &mut Array, descending: bool) -> Fallible<()> {
    let n = a.len() as u64;
    if n <= 1 {
        return Ok(());
    }
    charged.set(charged.get() + n * u64::from(64 - (n - 1).leading_zeros()));
    let not_sortable = |what: String| Err(EvalAltResult::ErrorFunctionNotFound(what, Position::NONE).into());
    let first = a[0].type_id();
    if a.iter().any(|v| v.type_id() != first) {
        return not_sortable("elements of different types cannot be sorted".into());
    }
    let key: fn(&Dynamic, &Dynamic) -> Ordering = if a[0].is_int() {
        |x, y| x.as_int().unwrap_or(0).cmp(&y.as_int().unwrap_or(0))
    } else if a[0].is_float() {
        |x, y| x.as_float().unwrap_or(0.0).partial_cmp(&y.as_float().unwrap_or(0.0)).unwrap_or(Ordering::Equal)
    } else if a[0].is_char() {
        |x, y| x.as_char().unwrap_or('\0').cmp(&y.as_char().unwrap_or('\0'))
    } else if a[0].is_string() {
        |x, y| {
            let (x, y) = (x.clone().cast::<ImmutableString>(), y.clone().cast::<ImmutableString>());
            x.as_str().cmp(y.as_str())
        }
    } else if a[0].is_bool() {
        |x, y| x.as_bool().unwrap_or(false).cmp(&y.as_bool().unwrap_or(false))
    } else if a[0].is_unit() {
        return Ok(());
    } else {
        return not_sortable(format!("elements of {} cannot be sorted", a[0].type_name()));
    };
    if descending {
        a.sort_by(|x, y| key(y, x));
    } else {
        a.sort_by(key);
    }
    Ok(())
}

/// The index of the first element from `from` on that equals `v`, or -1; charges the elements compared.
fn find(ctx: &NativeCallContext, charged: &Cell<u64>, a: &mut Array, from: usize, mut v: Dynamic) -> Fallible<i64> {
    for (i, item) in a.iter_mut().enumerate().skip(from) {
        charged.set(charged.get() + 1);
        if equal(ctx, item, &mut v)? {
            return Ok(i as i64);
        }
    }
    Ok(-1)
}

fn arrays_equal(ctx: &NativeCallContext, charged: &Cell<u64>, a: &mut Array, mut b: Array) -> Fallible<bool> {
    if a.len() != b.len() {
        return Ok(false);
    }
    for (x, y) in a.iter_mut().zip(b.iter_mut()) {
        charged.set(charged.get() + 1);
        if !equal(ctx, x, y)? {
            return Ok(false);
        }
    }
    Ok(true)
}

fn maps_equal(ctx: &NativeCallContext, charged: &Cell<u64>, a: &mut Map, mut b: Map) -> Fallible<bool> {
    if a.len() != b.len() {
        return Ok(false);
    }
    for (k, x) in a.iter_mut() {
        charged.set(charged.get() + 1);
        let Some(y) = b.get_mut(k) else { return Ok(false) };
        if !equal(ctx, x, y)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// `a == b` by Rhai's own `==` for the elements' types; values of two types with no `==` between them differ, as in
/// Rhai's packages.
fn equal(ctx: &NativeCallContext, a: &mut Dynamic, b: &mut Dynamic) -> Fallible<bool> {
    match ctx.call_native_fn_raw("==", true, &mut [&mut *a, &mut *b]) {
        Ok(v) => Ok(v.as_bool().unwrap_or(false)),
        Err(e) => match *e {
            EvalAltResult::ErrorFunctionNotFound(ref sig, _) if sig.starts_with("==") && a.type_id() != b.type_id() => {
                Ok(false)
            }
            _ => Err(e),
        },
    }
}
