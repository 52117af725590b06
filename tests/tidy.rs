//! The house rules a reader relies on, kept by a test rather than by prose (as rust-analyzer keeps its own in
//! `xtask/src/tidy.rs`). Each rule is a function from a file's path and text to the places that break it, and
//! each is shown to fail on a planted violation (the unit tests at the end).
//!
//! Every rule holds everywhere, with no exception and no list of known places: no source file over 600 lines; every
//! Rust module opens with a `//!` doc; no line over 120 characters (inside `view!` too); no family named by a Rust
//! path outside its own folders and the registries (in the page, by its `Family` variant either); no
//! `thread_local!` in `src/ui` (the page's state lives in signals and context); no `Result<_, String>` outside
//! tests (errors have types); no paper cited by its seed number ("000 §…") and no path into the developers' shared
//! folder in anything a user reads.

use std::fs;
use std::path::{Path, PathBuf};

/// The longest file a reader takes in one sitting.
const MAX_LINES: usize = 600;
/// rustfmt's `max_width` (rustfmt.toml); rustfmt cannot break `view!` bodies and long string literals itself.
const MAX_WIDTH: usize = 120;
/// The families, by their module names.
const FAMILIES: [&str; 3] = ["multi_cluster", "desktop_grid", "data_grid"];
/// The families' variants of `registry::Family`, in the order of [`FAMILIES`].
const VARIANTS: [&str; 3] = ["MultiCluster", "DesktopGrid", "DataGrid"];

/// One place that breaks a rule.
#[derive(Debug, Clone, PartialEq)]
struct Violation {
    rule: &'static str,
    path: String,
    line: usize,
    what: String,
}

fn violation(rule: &'static str, path: &str, line: usize, what: impl Into<String>) -> Violation {
    Violation { rule, path: path.to_string(), line, what: what.into() }
}

// ---------------------------------------------------------------------------------------------------------------
// The rules
// ---------------------------------------------------------------------------------------------------------------

/// No source file over `MAX_LINES` lines.
fn file_length(path: &str, text: &str) -> Vec<Violation> {
    let n = text.lines().count();
    if n > MAX_LINES {
        vec![violation("file-length", path, n, format!("{n} lines, more than {MAX_LINES}: split it along a seam"))]
    } else {
        Vec::new()
    }
}

/// Every module opens with a `//!` doc (inner attributes such as `#![cfg(…)]` may come first).
fn module_doc(path: &str, text: &str) -> Vec<Violation> {
    let first = text.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with("#!["));
    match first {
        Some(l) if l.starts_with("//!") => Vec::new(),
        _ => vec![violation("module-doc", path, 1, "the module does not open with a `//!` doc saying what it is for")],
    }
}

/// No line over `MAX_WIDTH` characters (counted in characters, as an editor shows them).
fn line_width(path: &str, text: &str) -> Vec<Violation> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.chars().count() > MAX_WIDTH)
        .map(|(i, l)| violation("line-width", path, i + 1, format!("{} characters", l.chars().count())))
        .collect()
}

/// No `thread_local!` in the page (`src/ui`): its state goes through Leptos's context.
fn ui_thread_local(path: &str, text: &str) -> Vec<Violation> {
    if !path.starts_with("src/ui/") {
        return Vec::new();
    }
    code_lines(text)
        .filter(|(_, code)| code.contains("thread_local!"))
        .map(|(i, _)| violation("ui-thread-local", path, i, "thread_local! in the page"))
        .collect()
}

/// Where a family may be named by a Rust path: its own folders, the registries (the library's, and the page's list
/// `src/ui/families.rs`) and the declarations of modules.
fn may_name_family(path: &str, family: &str) -> bool {
    path.starts_with(&format!("src/family/{family}/"))
        || path.starts_with(&format!("src/ui/{family}/"))
        || path.starts_with("src/registry/")
        || path == "src/family/mod.rs"
        || path == "src/lib.rs"
        || path == "src/ui/mod.rs"
        || path == "src/ui/families.rs"
        || path.starts_with("tests/")
        || path.starts_with("benches/")
        || path.starts_with("e2e/")
}

/// No family named by a Rust path (`family::data_grid`, `data_grid::Site`) outside the places above: the shared
/// parts know no family. In the page (`src/ui`), whose shell asks each family through its `PageFamily`, not by
/// its `Family` variant either (`Family::DataGrid`). Scenario keys in strings (`"data_grid.sites"`) and comments
/// are not paths.
fn family_named(path: &str, text: &str) -> Vec<Violation> {
    let mut out = Vec::new();
    for (i, code) in code_lines(text) {
        for (family, variant) in FAMILIES.into_iter().zip(VARIANTS) {
            if may_name_family(path, family) {
                continue;
            }
            let as_path = [format!("{family}::"), format!("::{family}")];
            let as_variant = path.starts_with("src/ui/") && contains_word(&code, &format!("Family::{variant}"));
            if as_path.iter().any(|p| contains_word(&code, p)) || as_variant {
                out.push(violation("family-named", path, i, format!("names {family} outside its folders")));
            }
        }
    }
    out
}

/// No `Result<_, String>` outside tests: errors at the boundaries are typed.
fn string_errors(path: &str, text: &str) -> Vec<Violation> {
    if path.starts_with("tests/") || path.starts_with("e2e/") || path.ends_with("/tests.rs") {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (i, code) in code_lines(text) {
        if code.trim_start().starts_with("#[cfg(test)]") {
            break; // a file's test module comes last
        }
        let compact: String = code.chars().filter(|c| !c.is_whitespace()).collect();
        if let Some(at) = compact.find("Result<") {
            if compact[at..].contains(",String>") {
                out.push(violation("string-error", path, i, "Result<_, String>: give the error a type"));
            }
        }
    }
    out
}

/// Anything a user reads cites a paper by its author–year key, never by its seed file's number, and never points
/// into the developers' shared folder (it is not part of the project).
fn user_citations(path: &str, text: &str) -> Vec<Violation> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.contains("../shared") || line.contains("/work/shared") {
            out.push(violation("citation", path, i + 1, "points into the developers' shared folder"));
        }
        let bytes = line.as_bytes();
        for at in 0..bytes.len().saturating_sub(4) {
            let before_ok = at == 0 || !bytes[at - 1].is_ascii_alphanumeric();
            let seed = bytes[at] == b'0' && bytes[at + 1] == b'0' && bytes[at + 2].is_ascii_digit();
            let after = &bytes[at + 3..];
            if before_ok && seed && (after.starts_with(" §".as_bytes()) || after.starts_with(b"'s ")) {
                out.push(violation("citation", path, i + 1, "cites a paper by its seed number; use its key"));
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------------------------
// Reading code
// ---------------------------------------------------------------------------------------------------------------

/// The lines of `text` (numbered from 1) with line comments and the insides of string literals blanked out, so
/// that a rule about code does not fire on prose. A rough lexer: enough for this code base (raw strings with
/// hashes and block comments spanning lines are treated as code; none of the rules' patterns appear in them).
fn code_lines(text: &str) -> impl Iterator<Item = (usize, String)> + '_ {
    text.lines().enumerate().map(|(i, line)| (i + 1, strip(line)))
}

fn strip(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut in_string = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if in_string {
            match c {
                '\\' => {
                    chars.next();
                }
                '"' => {
                    in_string = false;
                    out.push('"');
                }
                _ => {}
            }
        } else if c == '"' {
            in_string = true;
            out.push('"');
        } else if c == '/' && chars.peek() == Some(&'/') {
            break;
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether `code` holds `pattern` not glued to an identifier on the side the pattern ends or starts with a word.
fn contains_word(code: &str, pattern: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    code.match_indices(pattern).any(|(at, _)| {
        let before = code[..at].chars().next_back();
        let after = code[at + pattern.len()..].chars().next();
        let starts_word = pattern.starts_with(ident);
        let ends_word = pattern.ends_with(ident);
        (!starts_word || !before.is_some_and(ident)) && (!ends_word || !after.is_some_and(ident))
    })
}

// ---------------------------------------------------------------------------------------------------------------
// The tree
// ---------------------------------------------------------------------------------------------------------------

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The files under `dirs` (relative to the root) whose names end with one of `exts`, as relative paths with `/`.
fn files(dirs: &[&str], exts: &[&str]) -> Vec<String> {
    fn walk(dir: &Path, exts: &[&str], out: &mut Vec<PathBuf>) {
        let Ok(entries) = fs::read_dir(dir) else { return };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                if p.file_name().is_some_and(|n| n == "target" || n == "node_modules") {
                    continue;
                }
                walk(&p, exts, out);
            } else if p.to_str().is_some_and(|s| exts.iter().any(|x| s.ends_with(x))) {
                out.push(p);
            }
        }
    }
    let root = root();
    let mut out = Vec::new();
    for d in dirs {
        let p = root.join(d);
        if p.is_file() {
            out.push(p);
        } else {
            walk(&p, exts, &mut out);
        }
    }
    let mut rel: Vec<String> =
        out.iter().map(|p| p.strip_prefix(&root).unwrap_or(p).to_string_lossy().replace('\\', "/")).collect();
    rel.sort();
    rel
}

fn read(path: &str) -> String {
    fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("tidy: cannot read {path}: {e}"))
}

type Rule = fn(&str, &str) -> Vec<Violation>;

/// Every Rust source of the project: the library, the binaries, the tests, the benchmark and the browser tests.
const RUST: [&str; 5] = ["src", "tests", "benches", "e2e/src", "e2e/tests"];

fn check_all(rules: &[Rule], paths: &[String]) -> Vec<Violation> {
    paths
        .iter()
        .flat_map(|p| {
            let text = read(p);
            rules.iter().flat_map(|r| r(p, &text)).collect::<Vec<_>>()
        })
        .collect()
}

fn report(vs: &[Violation]) -> String {
    vs.iter().map(|v| format!("  {}:{}: [{}] {}\n", v.path, v.line, v.rule, v.what)).collect()
}

#[test]
fn strict_rules_hold_everywhere() {
    let rust = files(&RUST, &[".rs"]);
    assert!(rust.len() > 100, "tidy found only {} Rust files under {:?}", rust.len(), RUST);
    let mut found =
        check_all(&[file_length, module_doc, line_width, family_named, ui_thread_local, string_errors], &rust);
    let prose = files(
        &["README.md", "ARCHITECTURE.md", "DEVELOPERS.md", "docs", "index.html", "src", "e2e", "assets"],
        &[".md", ".html", ".rs", ".js", ".tsv", ".txt"],
    );
    found.extend(check_all(&[user_citations], &prose));
    assert!(found.is_empty(), "house rules broken:\n{}", report(&found));
}

// ---------------------------------------------------------------------------------------------------------------
// Each rule fails on a planted violation
// ---------------------------------------------------------------------------------------------------------------

#[test]
fn a_long_file_is_refused() {
    let ok = "//! doc\n".repeat(MAX_LINES);
    assert!(file_length("src/a.rs", &ok).is_empty());
    let long = ok + "fn f() {}\n";
    assert_eq!(file_length("src/a.rs", &long)[0].rule, "file-length");
}

#[test]
fn a_module_without_a_doc_is_refused() {
    assert!(module_doc("src/a.rs", "#![cfg(test)]\n\n//! What it is.\nfn f() {}\n").is_empty());
    assert_eq!(module_doc("src/a.rs", "// a plain comment\nfn f() {}\n").len(), 1);
    assert_eq!(module_doc("src/a.rs", "").len(), 1);
}

#[test]
fn a_wide_line_is_refused_inside_a_macro_too() {
    let ok = format!("let x = {};\n", "1".repeat(MAX_WIDTH - 9));
    assert_eq!(ok.trim_end().chars().count(), MAX_WIDTH);
    assert!(line_width("src/a.rs", &ok).is_empty());
    let wide = format!("view! {{ <p>{}</p> }}\n", "é".repeat(MAX_WIDTH));
    let v = line_width("src/ui/a.rs", &wide);
    assert_eq!((v.len(), v[0].line), (1, 1));
}

#[test]
fn thread_local_state_in_the_page_is_refused() {
    let planted = "//! doc\nthread_local! { static X: u8 = 0; }\n";
    assert_eq!(ui_thread_local("src/ui/a.rs", planted)[0].line, 2);
    assert!(ui_thread_local("src/engine/a.rs", planted).is_empty(), "only the page's state is meant");
    assert!(ui_thread_local("src/ui/a.rs", "// thread_local! in a comment\n").is_empty());
}

#[test]
fn a_family_named_outside_its_folders_is_refused() {
    let planted = "use crate::family::data_grid::Site;\n";
    assert_eq!(family_named("src/ui/charts.rs", planted)[0].what, "names data_grid outside its folders");
    assert!(family_named("src/family/data_grid/sim/mod.rs", planted).is_empty());
    assert!(family_named("src/ui/data_grid/mod.rs", planted).is_empty());
    assert!(family_named("src/registry/mod.rs", planted).is_empty());
    assert!(family_named("src/ui/families.rs", planted).is_empty());
    // The page's shared parts do not dispatch on a family's variant either; its own folder may.
    let variant = "if family == Family::DataGrid { \"jobs\" } else { \"tasks\" }\n";
    assert_eq!(family_named("src/ui/app.rs", variant)[0].what, "names data_grid outside its folders");
    assert!(family_named("src/ui/data_grid/mod.rs", variant).is_empty());
    assert!(family_named("src/ui/families.rs", variant).is_empty());
    // Scenario keys in strings and words in comments are not paths; nor is a longer name.
    let prose = "let k = \"data_grid.sites\"; // see data_grid::Site\nlet y = big_data_grid::x;\n";
    assert!(family_named("src/ui/charts.rs", prose).is_empty(), "{:?}", family_named("src/ui/charts.rs", prose));
}

#[test]
fn string_errors_are_refused_outside_tests() {
    let planted = "pub fn f() -> Result<u32, String> { Ok(1) }\n";
    assert_eq!(string_errors("src/a.rs", planted).len(), 1);
    assert_eq!(string_errors("src/a.rs", "fn g() -> Result<Vec<(u8, u8)>,\n String> {}\n").len(), 0);
    assert!(string_errors("tests/sim/a.rs", planted).is_empty());
    let in_tests = format!("//! doc\n#[cfg(test)]\nmod tests {{\n{planted}}}\n");
    assert!(string_errors("src/a.rs", &in_tests).is_empty());
    assert!(string_errors("src/a.rs", "fn f() -> Result<(), BadInput> {}\n").is_empty());
}

#[test]
fn a_paper_cited_by_number_or_a_shared_path_is_refused() {
    assert_eq!(user_citations("docs/a.md", "as 000 §5.5 says").len(), 1);
    assert_eq!(user_citations("README.md", "001's turnaround").len(), 1);
    assert_eq!(user_citations("README.md", "see ../shared/SPEC.md").len(), 1);
    assert!(user_citations("README.md", "[Iosup08] §5.5; 1000 §; 2001 §2.1 of Mu'alem").is_empty());
}
