//! The worst case of each of the sandbox's limits (docs/policies.md, "Limits"): a call that holds its data at a limit
//! and works on it until the call's budget ends it. Each must stop with the budget's message; the time each takes is
//! printed (`cargo test --release --test sim script_limits -- --nocapture`) and quoted in docs/policies.md, not
//! asserted. Before the budget charged comparisons, one `contains` on an array at the limit took 16 ms and counted as
//! one operation, and pushing to an array took time quadratic in its length.

use bagsim::script::{Script, LIMITS};
use std::time::Instant;

/// `prepare` builds the data (within the budget), then `work` runs in a loop until the budget stops the call.
fn worst(name: &str, prepare: &str, work: &str) {
    // Functions a case defines stand at the top level, the rest in the call.
    let (top, prepare) = prepare.split_once("<>").unwrap_or(("", prepare));
    let source = format!("{top}\nfn f() {{ {prepare}\n loop {{ {work} }} }}");
    let mut s = Script::compile(&source, |_| {}).unwrap_or_else(|e| panic!("{name}: {e}"));
    let t = Instant::now();
    let e = s.call("f", ()).expect_err(name);
    eprintln!("{name:<44} {:>7.3} s  ({e})", t.elapsed().as_secs_f64());
    let budget = format!("took more than {} operations (the budget of one call)", LIMITS.ops_per_call);
    assert!(e.message.contains(&budget), "{name}: {e}");
}

/// An array of `n` integers, made in few operations.
fn array(n: usize) -> String {
    format!("let a = []; a.pad({n}, 0); let b = a;")
}

#[test]
fn every_limit_ends_a_call_at_its_budget() {
    let n = LIMITS.array_len - 10;
    worst("array at its limit, pushed and popped", &array(n), "a.push(0); a.pop();");
    worst(
        "array at its limit in the state, pushed",
        &format!("{} this.a = a;", array(n)),
        "this.a.push(0); this.a.pop();",
    );
    worst("copy of an array at its limit", &array(n), "let c = a;");
    worst("reverse of an array at its limit", &array(n), "a.reverse();");
    worst("an array at its limit as text", &array(n), "let t = a.to_string();");
    worst("an array at its limit in a string", &array(n), "let t = `${a}`;");
    worst("two arrays at half the limit joined", &array(n / 2), "let c = a + b;");
    worst("contains on an array at its limit", &array(n), "let r = a.contains(-1);");
    worst("`in` on an array at its limit", &array(n), "let r = -1 in a;");
    worst("index_of on an array at its limit", &array(n), "let r = a.index_of(-1);");
    worst("== on two arrays at their limit", &array(n / 2), "let r = a == b;");
    worst("dedup of an array at its limit", &array(n), "let c = b; c.dedup();");
    worst("sort of an array at its limit", &format!("{} a[0] = 1;", array(n)), "let c = a; c.sort();");
    worst("order of an array at its limit", &format!("{} a[0] = 1;", array(n)), "let c = a.order_desc();");
    let m = LIMITS.map_len - 10;
    let map = format!("let m = #{{}}; for i in 0..{m} {{ m[i.to_string()] = i; }} let k = m;");
    worst("map at its limit, set and removed", &map, "m.x = 1; m.remove(\"x\");");
    worst("== on two maps at their limit", &map, "let r = m == k;");
    worst("keys of a map at its limit", &map, "let r = m.keys();");
    worst("a map at its limit as text", &map, "let r = m.to_json();");
    let string = "let s = \"a\"; for i in 0..15 { s += s; }";
    worst("string at its limit, copied and extended", string, "let t = s; t += \"b\";");
    let deep = "fn g(d) { if d > 0 { g(d - 1) } else { 0 } } <>";
    worst("a function called per element", &format!("fn id(x) {{ x }} <> {}", array(n)), "for x in a { id(x); }");
    worst("calls nested to their limit", deep, &format!("g({});", LIMITS.call_levels - 2));
}

#[test]
fn function_pointers_are_refused_where_they_are_written() {
    // `map`, `filter`, `sort_by` and the like call a function pointer once per element inside one operation.
    let e = Script::compile("fn f(a) {\n  a.map(|x| x + 1)\n}", |_| {}).err().expect("a closure");
    assert_eq!((e.line, e.column), (2, 9), "{e}");
    assert!(e.message.contains("anonymous functions"), "{e}");
    let e = Script::compile("fn f(a) { a.map(Fn(\"abs\")) }", |_| {}).err().expect("Fn");
    assert_eq!(e.line, 1, "{e}");
    assert!(Script::compile("fn f(a, b) { a || b | 1 == 1 }", |_| {}).is_ok(), "`||` and `|` stay operators");
}

#[test]
fn charged_comparisons_give_rhai_s_answers() {
    let source = r#"fn f() {
        let a = [1, 2, 2, 3, [4, 5]]; let b = [1, 2, 2, 3, [4, 5]]; let m = #{x: [1], y: 2};
        let r = [a.contains(3), a.contains(9), a.index_of(2), a.index_of(2, 2), a.index_of(2, -1), a == b, a != b,
                 [4, 5] in a, "x" in a, m == #{x: [1], y: 2}, m != #{x: [1], y: 3}, m == #{x: [1], z: 2}];
        a.dedup();
        let s = [3, 1, 2]; s.sort(); let d = ["b", "c", "a"]; d.sort_desc(); let f = [2.5, -1.0]; f.sort();
        [r, a, s, d, f, [3, 1].order(), [true, false].order_desc(), [1, "x", [2.5, ()], #{b: 'c'}].to_string(),
         `${#{a: [1, true]}}`]
    }"#;
    let mut s = Script::compile(source, |_| {}).unwrap();
    let got = s.call("f", ()).unwrap().to_string();
    let want = "[[true, false, 1, 2, -1, true, false, true, false, true, true, false], [1, 2, 3, [4, 5]], \
                [1, 2, 3], [\"c\", \"b\", \"a\"], [-1.0, 2.5], [1, 3], [true, false], \
                \"[1, \\\"x\\\", [2.5, ()], #{\\\"b\\\": 'c'}]\", \"#{\\\"a\\\": [1, true]}\"]";
    assert_eq!(got, want);
    let e = Script::compile("fn f() { let a = [1, \"x\"]; a.sort(); }", |_| {}).unwrap().call("f", ()).unwrap_err();
    assert!(e.message.contains("elements of different types cannot be sorted"), "{e}");
}
