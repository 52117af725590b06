//! The engine behind scripted decisions (Rhai), built with the `scripts` feature: in the CLI and the worker, not in
//! the page's own wasm, which leaves compiling and running a script to the worker.

use super::{ScriptError, LIMITS};
use rhai::{CallFnOptions, Dynamic, Engine, EvalAltResult, FuncArgs, Position, Scope, AST};
use std::cell::Cell;
use std::rc::Rc;

/// The line and column of a position (0 for none).
pub fn line_column(p: Position) -> (u32, u32) {
    let n = |v: Option<usize>| v.map_or(0, |v| u32::try_from(v).unwrap_or(u32::MAX));
    (n(p.line()), n(p.position()))
}

/// A compiled script with its engine, its state (`this` in its functions) and the operations its run has spent.
pub struct Script {
    engine: Engine,
    ast: AST,
    scope: Scope<'static>,
    /// The script's own state, kept between calls: `this` in every function, an object map that starts empty.
    state: Dynamic,
    /// Operations of the calls that have returned, and of the call under way.
    spent: Rc<Cell<u64>>,
    current: Rc<Cell<u64>>,
    /// Operations charged by the built-ins that compare element by element (`meter.rs`), in the call under way.
    charged: Rc<Cell<u64>>,
    source: Rc<str>,
}

impl Script {
    /// Compiles `source` on an engine with the sandbox's limits, after `setup` has registered the family's types
    /// and functions on it.
    pub fn compile(source: &str, setup: impl FnOnce(&mut Engine)) -> Result<Script, ScriptError> {
        if source.len() > LIMITS.source_bytes {
            return Err(ScriptError::new(
                0,
                0,
                format!("the script has {} bytes; at most {} are allowed", source.len(), LIMITS.source_bytes),
            ));
        }
        let spent = Rc::new(Cell::new(0));
        let current = Rc::new(Cell::new(0));
        let charged = Rc::new(Cell::new(0));
        let mut engine = sandbox(spent.clone(), current.clone(), charged.clone());
        setup(&mut engine);
        let ast = engine.compile(source).map_err(|e| {
            let (line, column) = line_column(e.1);
            ScriptError::new(line, column, e.0.to_string())
        })?;
        if ast.iter_functions().any(|f| f.name.starts_with("anon$")) {
            // The packages call a function pointer once per element inside one operation, uncounted: a closure
            // over an array at its limit could hold one call for minutes. Loops do the same work, counted.
            let (line, column) = anonymous_at(source);
            return Err(ScriptError::new(
                line,
                column,
                "anonymous functions (|x| ...) are not available in a policy; write the loop (for x in a { ... })",
            ));
        }
        let state = Dynamic::from_map(rhai::Map::new());
        Ok(Script { engine, ast, scope: Scope::new(), state, spent, current, charged, source: source.into() })
    }

    /// True when the script defines `name` with `params` parameters.
    pub fn defines(&self, name: &str, params: usize) -> bool {
        self.ast.iter_functions().any(|f| f.name == name && f.params.len() == params)
    }

    /// Where the script defines `name` (its `fn` keyword), or (0, 0).
    pub fn position_of(&self, name: &str) -> (u32, u32) {
        for (i, line) in self.source.lines().enumerate() {
            let line = line.split("//").next().unwrap_or("");
            let mut from = 0;
            while let Some(at) = line[from..].find("fn ") {
                let col = from + at;
                let rest = line[col + 3..].trim_start();
                let word_start = col == 0 || !line[..col].ends_with(|c: char| c.is_alphanumeric() || c == '_');
                if word_start && rest.starts_with(name) && rest[name.len()..].trim_start().starts_with('(') {
                    return (i as u32 + 1, col as u32 + 1);
                }
                from = col + 3;
            }
        }
        (0, 0)
    }

    /// Calls the script's function `name` with `this` bound to the script's state. A runtime error, a budget
    /// exceeded or a limit passed comes back with the line and column where it happened.
    pub fn call(&mut self, name: &str, args: impl FuncArgs) -> Result<Dynamic, ScriptError> {
        let mut options = CallFnOptions::new().bind_this_ptr(&mut self.state);
        options.eval_ast = false;
        options.rewind_scope = true;
        let result = self.engine.call_fn_with_options::<Dynamic>(options, &mut self.scope, &self.ast, name, args);
        self.spent.set(self.spent.get() + self.current.replace(0));
        self.charged.set(0);
        result.map_err(|e| {
            let mut e = runtime_error(name, &e);
            // Rhai gives some errors no position (a loop with an empty body): the function's own line, then.
            if e.line == 0 {
                (e.line, e.column) = self.position_of(name);
            }
            e
        })
    }

    /// Operations the run's calls have taken so far.
    pub fn operations(&self) -> u64 {
        self.spent.get()
    }

    /// Calls `name` and takes its value as a decision of type `D` (a type the family registered); any other value
    /// is an error at the function's line that says which decisions are `allowed`.
    pub fn decide<D: std::any::Any + Clone>(
        &mut self,
        name: &str,
        args: impl FuncArgs,
        allowed: &str,
    ) -> Result<D, ScriptError> {
        let v = self.call(name, args)?;
        let got = shown(&v);
        v.try_cast::<D>().ok_or_else(|| {
            let (line, column) = self.position_of(name);
            ScriptError::new(line, column, format!("fn {name} returned {got}, not a decision: {allowed}"))
        })
    }

    /// The value of the script's optional declaration `name()` (no parameters), if it defines one.
    pub fn declared(&mut self, name: &str) -> Result<Option<Dynamic>, ScriptError> {
        if self.defines(name, 0) {
            self.call(name, ()).map(Some)
        } else {
            Ok(None)
        }
    }

    /// The optional declaration `name()` as a boolean, `default` when the script does not define it.
    pub fn declared_bool(&mut self, name: &str, default: bool) -> Result<bool, ScriptError> {
        match self.declared(name)? {
            None => Ok(default),
            Some(v) => v.as_bool().map_err(|_| self.wrong(name, &v, "true or false")),
        }
    }

    /// The optional declaration `name()` as one of the named `choices` (`"fcfs"` → `TaskOrder::Fcfs`), the first
    /// when the script does not define it; another value is refused naming every allowed one.
    pub fn declared_choice<T: Copy>(&mut self, name: &str, choices: &[(&str, T)]) -> Result<T, ScriptError> {
        let Some(v) = self.declared(name)? else { return Ok(choices[0].1) };
        let text = v.clone().into_string().ok();
        match choices.iter().find(|(n, _)| text.as_deref() == Some(*n)) {
            Some(&(_, c)) => Ok(c),
            None => {
                let quoted: Vec<String> = choices.iter().map(|(n, _)| format!("\"{n}\"")).collect();
                let allowed = match quoted.split_last() {
                    Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
                    _ => quoted.join(""),
                };
                Err(self.wrong(name, &v, &allowed))
            }
        }
    }

    /// A declaration that returned a value it may not, at the declaration's line.
    pub fn wrong(&self, name: &str, got: &Dynamic, allowed: &str) -> ScriptError {
        let (line, column) = self.position_of(name);
        ScriptError::new(line, column, format!("fn {name} returned {}; allowed: {allowed}", shown(got)))
    }
}

/// Where the first anonymous function's `|x|` stands (a single `|`, outside comments), or (0, 0) for one without
/// parameters (`|| x`, which reads as the "or" operator).
fn anonymous_at(source: &str) -> (u32, u32) {
    for (i, line) in source.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("").as_bytes();
        let single = |c: usize| code[c] == b'|' && code.get(c + 1) != Some(&b'|') && (c == 0 || code[c - 1] != b'|');
        if let Some(c) = (0..code.len()).find(|&c| single(c)) {
            return (i as u32 + 1, c as u32 + 1);
        }
    }
    (0, 0)
}

/// A value as a message quotes it: its type, and the value when it is short.
pub fn shown(v: &Dynamic) -> String {
    let text = v.to_string();
    if text.len() <= 40 && !v.is_unit() {
        format!("{} {text}", v.type_name())
    } else {
        v.type_name().to_string()
    }
}

/// What `on_progress` ends a call with when the operations charged by comparisons pass the call's budget.
const CALL_BUDGET: &str = "call budget";

/// An engine with the sandbox's limits and deterministic functions only.
fn sandbox(spent: Rc<Cell<u64>>, current: Rc<Cell<u64>>, charged: Rc<Cell<u64>>) -> Engine {
    static SEED: std::sync::Once = std::sync::Once::new();
    // Rhai seeds its function hashes from a value fixed when it was compiled unless told; a fixed seed makes a
    // script's lookups the same in every build and target. Set once per process, before any engine exists (an
    // error means some other code set one first, which changes no result: hashes only look functions up).
    SEED.call_once(|| {
        let _ = rhai::config::hashing::set_hashing_seed(Some([0x6261_6773, 0x696d_3331, 0x7363_7269, 0x7074_7331]));
    });
    // Rhai's standard packages but the bit fields, blobs and the longer string functions a policy has no use for
    // (they weigh on the worker's wasm), and but Rhai's language-core package: its `sleep` blocks the thread (a
    // script could stop a run, a sweep point or the page's worker for as long as it asks), its `exit` ends a call
    // with a value that is no decision, and the rest (`tag`, `take`, `parse_json`, function metadata) is of no use
    // to a policy. `eval` is off too: a policy's code is the script it shows. What stays is listed and held by
    // `the_sandbox_keeps_only_its_listed_functions` below.
    use rhai::packages::{
        ArithmeticPackage, BasicArrayPackage, BasicFnPackage, BasicIteratorPackage, BasicMapPackage, BasicMathPackage,
        BasicStringPackage, LogicPackage, Package,
    };
    let mut engine = Engine::new_raw();
    for module in [
        ArithmeticPackage::new().as_shared_module(),
        BasicStringPackage::new().as_shared_module(),
        BasicIteratorPackage::new().as_shared_module(),
        BasicFnPackage::new().as_shared_module(),
        LogicPackage::new().as_shared_module(),
        BasicMathPackage::new().as_shared_module(),
        BasicArrayPackage::new().as_shared_module(),
        BasicMapPackage::new().as_shared_module(),
    ] {
        engine.register_global_module(module);
    }
    engine.disable_symbol("eval");
    // Function pointers too (`Fn("name")` and the closures refused in `compile`): `map`, `filter`, `sort_by` and
    // the like call one per element inside one operation, uncounted. A policy writes the loop instead.
    engine.disable_symbol("Fn");
    super::meter::register(&mut engine, &charged);
    engine
        .set_max_operations(LIMITS.ops_per_call)
        .set_max_string_size(LIMITS.string_bytes)
        .set_max_array_size(LIMITS.array_len)
        .set_max_map_size(LIMITS.map_len)
        .set_max_call_levels(LIMITS.call_levels)
        .set_max_expr_depths(LIMITS.expr_depth, LIMITS.expr_depth)
        .set_max_variables(1_000)
        .set_max_functions(1_000)
        .set_strict_variables(true)
        .set_fail_on_invalid_map_property(false)
        .on_print(|_| {})
        .on_debug(|_, _, _| {})
        .on_progress(move |ops| {
            // Rhai's own count stops a call at `ops_per_call`; the elements the comparisons charged count too.
            let ops = ops + charged.get();
            current.set(ops);
            if ops > LIMITS.ops_per_call {
                Some(Dynamic::from(CALL_BUDGET))
            } else {
                (spent.get() + ops > LIMITS.ops_per_run).then(|| Dynamic::from("run budget"))
            }
        });
    // Rhai evaluates `**` on floats with the platform's powf (glibc natively, Rust's port in wasm32); `pow` is
    // libm's everywhere.
    engine.disable_symbol("**");
    engine.disable_symbol("**=");
    register_math(&mut engine);
    engine
}

/// The transcendental functions, from `libm` (identical bits natively and in wasm32), over Rhai's (std's).
fn register_math(engine: &mut Engine) {
    type Unary = fn(f64) -> f64;
    let unary: [(&str, Unary); 15] = [
        ("exp", libm::exp),
        ("ln", libm::log),
        ("log", libm::log10),
        ("sin", libm::sin),
        ("cos", libm::cos),
        ("tan", libm::tan),
        ("asin", libm::asin),
        ("acos", libm::acos),
        ("atan", libm::atan),
        ("sinh", libm::sinh),
        ("cosh", libm::cosh),
        ("tanh", libm::tanh),
        ("asinh", libm::asinh),
        ("acosh", libm::acosh),
        ("atanh", libm::atanh),
    ];
    for (name, f) in unary {
        engine.register_fn(name, f);
    }
    engine.register_fn("hypot", libm::hypot);
    engine.register_fn("log", |x: f64, base: f64| libm::log(x) / libm::log(base));
    engine.register_fn("atan", libm::atan2);
    engine.register_fn("pow", libm::pow);
    engine.register_fn("pow", |x: f64, y: i64| libm::pow(x, y as f64));
    engine.register_fn("pow", |x: i64, y: f64| libm::pow(x as f64, y));
    engine.register_fn("pow", |x: i64, y: i64| libm::pow(x as f64, y as f64));
}

/// The innermost error of a call, where it happened and what it says.
fn runtime_error(name: &str, e: &EvalAltResult) -> ScriptError {
    let inner = e.unwrap_inner();
    let (line, column) = line_column(inner.position());
    let what = match inner {
        EvalAltResult::ErrorTooManyOperations(_) => call_budget(name),
        EvalAltResult::ErrorTerminated(token, _)
            if token.clone().into_string().ok().as_deref() == Some(CALL_BUDGET) =>
        {
            call_budget(name)
        }
        EvalAltResult::ErrorTerminated(..) => format!(
            "the script's calls took more than {} operations in this run (the budget of a run)",
            LIMITS.ops_per_run
        ),
        EvalAltResult::ErrorStackOverflow(_) => {
            format!("fn {name}: calls nested deeper than {} (endless recursion?)", LIMITS.call_levels)
        }
        EvalAltResult::ErrorDataTooLarge(what, _) => format!(
            "fn {name}: {what} over the limit (strings {} bytes, arrays {} elements, maps {} properties)",
            LIMITS.string_bytes, LIMITS.array_len, LIMITS.map_len
        ),
        EvalAltResult::ErrorFunctionNotFound(f, _) if f.starts_with(name) && line == 0 => {
            format!("the script defines no fn {f}")
        }
        other => format!("fn {name}: {}", without_position(other)),
    };
    ScriptError::new(line, column, rhai_type_names(&what))
}

fn call_budget(name: &str) -> String {
    format!("fn {name} took more than {} operations (the budget of one call)", LIMITS.ops_per_call)
}

/// Rhai's messages name some of its built-in types as Rust does (`&str | ImmutableString | String`,
/// `rhai::Array`); a script's author knows them as Rhai's `type_of` names them (`string`, `array`; `i64` and `f64`
/// are Rhai's own names).
fn rhai_type_names(text: &str) -> String {
    text.replace("&str | ImmutableString | String", "string")
        .replace("ImmutableString", "string")
        .replace("rhai::Array", "array")
        .replace("rhai::Map", "map")
}

/// An error's text without Rhai's " (line L, position C)" suffix (the position is given apart).
fn without_position(e: &EvalAltResult) -> String {
    let text = e.to_string();
    match text.rfind(" (line ") {
        Some(at) if text.ends_with(')') => text[..at].to_string(),
        _ => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::inline_files;

    fn script(source: &str) -> Script {
        Script::compile(source, |_| {}).unwrap()
    }

    /// Every function a script can call, by name (operators and the math of `register_math` included): none of
    /// them waits, blocks, ends the caller or reads anything but its arguments. A name added to the sandbox (a Rhai
    /// upgrade, a package registered) fails this test until it is read and listed here.
    const KEPT: &str =
        "! != % * ** + += - / < <= == > >= E PI abs acos acosh all append asin asinh atan atanh bits ceiling \
        chars chop clear contains cos cosh debug dedup drain end exp extract fill_with filter find find_map \
        floor for_each fraction get hypot index_of insert int is_anonymous is_empty is_even is_exclusive \
        is_finite is_inclusive is_infinite is_nan is_odd is_zero keys len ln log map max min mixin name \
        order order_by order_desc pad parse_float parse_int pop pow print push range reduce reduce_rev \
        remove retain reverse round set shift sign sin sinh some sort sort_by sort_desc splice split sqrt \
        start tan tanh to_binary to_debug to_degrees to_float to_hex to_int to_json to_octal to_radians \
        to_string truncate values zip";

    #[test]
    fn the_sandbox_keeps_only_its_listed_functions() {
        let engine = sandbox(Rc::new(Cell::new(0)), Rc::new(Cell::new(0)), Rc::new(Cell::new(0)));
        let mut names: Vec<String> = engine
            .gen_fn_signatures(true)
            .iter()
            .map(|s| s.split('(').next().unwrap_or(s).trim_start_matches("get$").trim_start_matches("set$").into())
            .collect();
        names.sort();
        names.dedup();
        let kept: Vec<&str> = KEPT.split_whitespace().collect();
        let added: Vec<&String> = names.iter().filter(|n| !kept.contains(&n.as_str())).collect();
        let gone: Vec<&&str> = kept.iter().filter(|k| !names.iter().any(|n| n == *k)).collect();
        assert!(added.is_empty() && gone.is_empty(), "not listed: {added:?}; listed but gone: {gone:?}");
        for name in ["sleep", "exit", "parse_json", "timestamp", "get_fn_metadata_list", "take", "tag"] {
            assert!(!names.iter().any(|n| n == name), "{name} is in the sandbox");
        }
    }

    #[test]
    fn a_script_cannot_wait_end_its_caller_or_eval() {
        for (source, what) in [
            ("fn f() { sleep(1e20); 1 }", "Function not found: sleep"),
            ("fn f() { sleep(3600); 1 }", "Function not found: sleep"),
            ("fn f() { exit(3) }", "Function not found: exit"),
            ("fn f() { parse_json(\"{}\") }", "Function not found: parse_json"),
        ] {
            let e = script(source).call("f", ()).unwrap_err();
            assert!(e.message.contains(what), "{source}: {e}");
        }
        assert!(Script::compile("fn f() { eval(\"1\") }", |_| {}).is_err());
    }

    #[test]
    fn errors_name_types_as_rhai_does() {
        let e = script("fn f() { let s = \"a\"; s.foo(1, \"b\", []) }").call("f", ()).unwrap_err();
        assert!(e.message.contains("foo (string, i64, string, array)"), "{e}");
    }

    #[test]
    fn a_syntax_error_has_its_line_and_column() {
        let e = Script::compile("fn choose(a, b) {\n  let x = ;\n}", |_| {}).err().unwrap();
        assert_eq!((e.line, e.column), (2, 11), "{e}");
        assert!(e.to_string().starts_with("line 2, column 11: "), "{e}");
    }

    #[test]
    fn state_is_kept_between_calls() {
        let mut s = script("fn next() { this.n = (this.n ?? 0) + 1; this.n }");
        assert_eq!(s.call("next", ()).unwrap().as_int().unwrap(), 1);
        assert_eq!(s.call("next", ()).unwrap().as_int().unwrap(), 2);
        assert!(s.operations() > 0);
    }

    #[test]
    fn math_is_libm() {
        let mut s = script("fn f(x) { [exp(x), ln(x), sin(x), pow(x, 0.3), log(x), atan(x, 2.0), hypot(x, 2.0)] }");
        let a = s.call("f", (1.7_f64,)).unwrap().into_array().unwrap();
        let want = [libm::exp(1.7), libm::log(1.7), libm::sin(1.7), libm::pow(1.7, 0.3), libm::log10(1.7)];
        for (got, want) in a.iter().zip(want) {
            assert_eq!(got.as_float().unwrap().to_bits(), want.to_bits());
        }
        assert_eq!(a[5].as_float().unwrap().to_bits(), libm::atan2(1.7, 2.0).to_bits());
        assert_eq!(a[6].as_float().unwrap().to_bits(), libm::hypot(1.7, 2.0).to_bits());
        let e = Script::compile("fn f(x) { x ** 2.0 }", |_| {}).err().unwrap();
        assert_eq!(e.line, 1, "{e}");
    }

    #[test]
    fn an_endless_loop_stops_at_the_call_budget() {
        // Rhai gives a budget's error the position of the outermost call: the line of the function called.
        let mut s = script("\nfn f() {\n  loop { }\n}");
        let e = s.call("f", ()).unwrap_err();
        assert_eq!(e.line, 2, "{e}");
        assert!(e.message.contains("operations"), "{e}");
    }

    #[test]
    fn script_files_are_inlined() {
        let text = r#"{"seed": 2, "scheduling": {"script_file": "p.rhai"}}"#;
        let out =
            inline_files(text, &mut |p| Ok::<_, String>(format!("// {p}\nfn choose(e, v) {{ wait() }}"))).unwrap();
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["scheduling"]["script"], "// p.rhai\nfn choose(e, v) { wait() }");
        let plain = r#"{"seed": 2,   "scheduling": "FPLT"}"#;
        assert_eq!(inline_files(plain, &mut |_| -> Result<String, String> { unreachable!() }).unwrap(), plain);
        let e = inline_files(text, &mut |p| Err(format!("{p}: no such file"))).unwrap_err();
        assert_eq!(e, "p.rhai: no such file");
    }

    #[test]
    fn the_position_of_a_function() {
        let s = script("// fn choose( in a comment\nfn order() { \"fcfs\" }\n  fn choose(e, v) { 1 }");
        assert_eq!(s.position_of("order"), (2, 1));
        assert_eq!(s.position_of("choose"), (3, 3));
        assert_eq!(s.position_of("missing"), (0, 0));
    }
}
