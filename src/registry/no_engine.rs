//! A build without the script engine (the page's own wasm; `--no-default-features`) reads a scripted scenario of
//! every family and refuses to run it with a message naming the key, never a panic. Run with
//! `cargo test --no-default-features --lib without_the_engine`.

use super::run_any;
use super::Scenario;

#[test]
fn without_the_engine_every_scripted_key_is_an_error() {
    let cases = [
        (
            r#"{"workload": {"submission_period": 3600}, "selection": {"script": "fn select(v) { all_tasks() }"}}"#,
            "selection.script",
        ),
        (
            r#"{"workload": {"submission_period": 3600}, "scheduling": {"script": "fn choose(e, v) { wait() }"}}"#,
            "scheduling.script",
        ),
        (
            concat!(
                r#"{"family": "desktop_grid", "desktop_grid": {"bots": 3, "bot_selection": {"script": "fn "#,
                r#"select(v) { idle() }"}}}"#
            ),
            "desktop_grid.bot_selection.script",
        ),
        (
            r#"{"family": "data_grid", "data_grid": {"jobs": 20, "scheme": {"script": "fn choose(v) { site(0) }"}}}"#,
            "data_grid.scheme.script",
        ),
    ];
    for (text, field) in cases {
        let s = Scenario::from_json(text).unwrap_or_else(|e| panic!("{field}: the scenario reads: {e}"));
        let e = run_any(&s).map(|_| ()).expect_err(field);
        assert_eq!(e.field, field, "{e}");
        assert!(e.message.contains("no script engine"), "{field}: {e}");
    }
}
