//! End-to-end test support for the bagsim page: a static server that mounts the built page (`dist/`) under a
//! sub-path, a chromedriver per session, headless Chromium with a fresh profile, and helpers that read the page's
//! DOM contract (ids, `data-value` attributes) through WebDriver.
//!
//! Every session ends the same way, even when the test body panics: the WebDriver session is closed, chromedriver is
//! killed (with its process group), any Chromium still using the session's private profile is killed by pid, the
//! profile is deleted, and only then is the panic resumed. A leaked headless Chromium would otherwise hold the test's
//! stdout open and hang the shell (STACK.md, pitfall 6).

use std::future::Future;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use fantoccini::{Client, ClientBuilder};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

pub use fantoccini;

/// The sub-path the page is built for (`trunk build --public-url /bagsim/`) and served under.
pub const BASE_PATH: &str = "/bagsim/";

/// How long a page may take to load and announce that its worker is ready.
pub const READY_TIMEOUT: Duration = Duration::from_secs(60);

const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const CHROMIUM: &str = "/usr/bin/chromium";

/// The Chromium flags every session uses (STACK.md, plus headless and a fixed window).
const CHROMIUM_FLAGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--window-size=1400,1000",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    // a hidden or occluded headless tab must not have its timers throttled while the worker runs
    "--disable-background-timer-throttling",
    "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
];

// ---------------------------------------------------------------------------------------------------------------
// Paths

/// The workspace root (the parent of this crate).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("e2e sits inside the workspace").to_path_buf()
}

/// The built page: `$BAGSIM_DIST`, else `<workspace root>/dist`.
pub fn dist_dir() -> PathBuf {
    match std::env::var_os("BAGSIM_DIST") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => workspace_root().join("dist"),
    }
}

/// The built page, or a panic that says how to build it. Never lets a test pass without the page.
pub fn require_dist() -> PathBuf {
    let dist = dist_dir();
    let index = dist.join("index.html");
    let html = std::fs::read_to_string(&index).unwrap_or_else(|e| {
        panic!(
            "the built page is missing: cannot read {} ({e}).\n\
             Build it and run the browser tests with scripts/test-browser.sh \
             (it runs `trunk build --release --public-url {BASE_PATH}` first), \
             or point BAGSIM_DIST at a directory built that way.",
            index.display()
        )
    });
    assert!(
        html.contains(&format!("href=\"{BASE_PATH}\"")) || html.contains(&format!("\"{BASE_PATH}")),
        "{} was not built for the sub-path {BASE_PATH}: run scripts/test-browser.sh \
         (trunk build --release --public-url {BASE_PATH})",
        index.display()
    );
    dist
}

/// A private copy of a directory under /tmp, deleted on drop.
pub struct Snapshot {
    pub path: PathBuf,
}

impl Drop for Snapshot {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// Copies the built page to a private directory, so that a `trunk build` that replaces dist/ while a test runs (the
/// page's author may be rebuilding) cannot change the files under the test.
pub fn snapshot(dist: &Path) -> Snapshot {
    fn copy(from: &Path, to: &Path) -> std::io::Result<()> {
        std::fs::create_dir_all(to)?;
        for entry in std::fs::read_dir(from)? {
            let entry = entry?;
            let target = to.join(entry.file_name());
            if entry.file_type()?.is_dir() {
                copy(&entry.path(), &target)?;
            } else {
                std::fs::copy(entry.path(), target)?;
            }
        }
        Ok(())
    }
    let path = unique_temp_dir("bagsim-e2e-dist");
    copy(dist, &path).unwrap_or_else(|e| panic!("cannot copy {} to {}: {e}", dist.display(), path.display()));
    let snap = Snapshot { path };
    assert!(
        snap.path.join("index.html").is_file(),
        "{} changed while it was copied (a trunk build running?): try again",
        dist.display()
    );
    snap
}

/// Where tests put screenshots: `<target dir>/e2e/`.
pub fn artifact_dir() -> PathBuf {
    let target = match std::env::var_os("CARGO_TARGET_DIR") {
        Some(t) if !t.is_empty() => PathBuf::from(t),
        _ => workspace_root().join("target"),
    };
    let dir = target.join("e2e");
    std::fs::create_dir_all(&dir).expect("create target/e2e");
    dir
}

// ---------------------------------------------------------------------------------------------------------------
// Static server

/// A static file server on 127.0.0.1 that serves `root` under `base` (e.g. `/bagsim/`) and answers 404 everywhere
/// else, so that an asset URL that ignores the sub-path fails the tests as it would on GitHub Pages.
pub struct StaticServer {
    pub addr: SocketAddr,
    task: tokio::task::JoinHandle<()>,
}

impl StaticServer {
    /// Binds a free port and serves in the background on the current tokio runtime.
    pub async fn start(root: PathBuf, base: &str) -> StaticServer {
        assert!(base.starts_with('/') && base.ends_with('/'), "base path must start and end with '/': {base}");
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind the static server");
        let addr = listener.local_addr().expect("server address");
        let base = base.to_string();
        let task = tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else { continue };
                let (root, base) = (root.clone(), base.clone());
                tokio::spawn(async move {
                    let _ = serve_connection(stream, &root, &base).await;
                });
            }
        });
        StaticServer { addr, task }
    }

    /// `http://127.0.0.1:PORT` (no trailing slash).
    pub fn origin(&self) -> String {
        format!("http://{}", self.addr)
    }
}

impl Drop for StaticServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The content type of a file, by extension.
pub fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "txt" | "csv" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// The file a request path names, or None (→ 404): outside `base`, `..` segments, or not a file.
fn resolve(root: &Path, base: &str, path: &str) -> Option<PathBuf> {
    let path = path.split(['?', '#']).next().unwrap_or("");
    let rest = if path == base.trim_end_matches('/') { "" } else { path.strip_prefix(base)? };
    let rest = percent_decode(rest)?;
    let mut file = root.to_path_buf();
    for seg in rest.split('/') {
        match seg {
            "" | "." => {}
            ".." => return None,
            s if s.contains('\\') => return None,
            s => file.push(s),
        }
    }
    if file.is_dir() {
        file.push("index.html");
    }
    file.is_file().then_some(file)
}

fn percent_decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = std::str::from_utf8(b.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

async fn serve_connection(mut stream: TcpStream, root: &Path, base: &str) -> std::io::Result<()> {
    // One request per connection (Connection: close) keeps this server tiny; Chromium copes.
    let mut head = Vec::new();
    let mut buf = [0u8; 4096];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = stream.read(&mut buf).await?;
        if n == 0 || head.len() > 64 * 1024 {
            return Ok(());
        }
        head.extend_from_slice(&buf[..n]);
    }
    let head = String::from_utf8_lossy(&head);
    let mut parts = head.lines().next().unwrap_or("").split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let (status, ctype, body) = if method != "GET" && method != "HEAD" {
        ("405 Method Not Allowed", "text/plain; charset=utf-8", b"method not allowed\n".to_vec())
    } else {
        match resolve(root, base, target) {
            Some(file) => match tokio::fs::read(&file).await {
                Ok(bytes) => ("200 OK", content_type(&file), bytes),
                Err(_) => ("404 Not Found", "text/plain; charset=utf-8", b"not found\n".to_vec()),
            },
            None => ("404 Not Found", "text/plain; charset=utf-8", b"not found\n".to_vec()),
        }
    };
    let header = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\nCache-Control: no-store\r\n\
         Connection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(header.as_bytes()).await?;
    if method != "HEAD" {
        stream.write_all(&body).await?;
    }
    stream.shutdown().await
}

/// The status code and body of a plain HTTP GET (for checking the server itself, e.g. 404 outside the base).
pub async fn http_get(addr: SocketAddr, path: &str) -> (u16, Vec<u8>) {
    let mut s = TcpStream::connect(addr).await.expect("connect to the static server");
    let req = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    s.write_all(req.as_bytes()).await.expect("send request");
    let mut resp = Vec::new();
    s.read_to_end(&mut resp).await.expect("read response");
    let end = resp.windows(4).position(|w| w == b"\r\n\r\n").expect("a complete HTTP response head");
    let head = String::from_utf8_lossy(&resp[..end]);
    let code = head.split_whitespace().nth(1).and_then(|c| c.parse().ok()).expect("a status code");
    (code, resp[end + 4..].to_vec())
}

// ---------------------------------------------------------------------------------------------------------------
// Browser session

/// A free TCP port on 127.0.0.1 (bound, then released).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port()
}

/// The processes and files of one browser session; `Drop` kills and removes them, whatever happened.
struct Session {
    chromedriver: Option<tokio::process::Child>,
    profile: PathBuf,
}

impl Session {
    fn cleanup(&mut self) {
        if let Some(mut child) = self.chromedriver.take() {
            if let Some(pid) = child.id() {
                // chromedriver runs in its own process group: kill the whole group (chromedriver and, usually,
                // the Chromium it started).
                let _ = std::process::Command::new("kill").args(["-KILL", "--", &format!("-{pid}")]).status();
            }
            let _ = child.start_kill();
        }
        // Chromium may have left the group: kill every process that uses this session's private profile.
        let marker = format!("--user-data-dir={}", self.profile.display());
        for pid in pids_with_arg(&marker) {
            let _ = std::process::Command::new("kill").args(["-KILL", &pid.to_string()]).status();
        }
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.cleanup();
    }
}

/// The pids of the processes whose command line contains `arg` exactly (Linux /proc).
fn pids_with_arg(arg: &str) -> Vec<u32> {
    let Ok(dir) = std::fs::read_dir("/proc") else { return Vec::new() };
    let me = std::process::id();
    dir.filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str().and_then(|n| n.parse::<u32>().ok()))
        .filter(|&pid| pid != me)
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .map(|c| c.split(|&b| b == 0).any(|a| a == arg.as_bytes()))
                .unwrap_or(false)
        })
        .collect()
}

/// A new, empty directory under the temp dir whose name starts with `prefix`.
fn unique_temp_dir(prefix: &str) -> PathBuf {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("{prefix}-{}-{n}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    dir
}

/// A fresh, empty Chromium profile directory under /tmp.
fn fresh_profile() -> PathBuf {
    unique_temp_dir("bagsim-e2e-chrome")
}

/// Starts chromedriver on a free port and waits until it accepts connections.
async fn spawn_chromedriver() -> (tokio::process::Child, u16) {
    let exe = std::env::var("CHROMEDRIVER").unwrap_or_else(|_| CHROMEDRIVER.to_string());
    let port = free_port();
    let mut cmd = tokio::process::Command::new(&exe);
    cmd.arg(format!("--port={port}"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .stdin(std::process::Stdio::null())
        .kill_on_drop(true)
        .process_group(0);
    let child = cmd.spawn().unwrap_or_else(|e| panic!("cannot start {exe}: {e} (install chromium-driver)"));
    for _ in 0..200 {
        if TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
            return (child, port);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{exe} did not listen on port {port} within 10 s");
}

/// The WebDriver capabilities of a session with the given profile.
pub fn capabilities(profile: &Path) -> serde_json::Map<String, Value> {
    let binary = std::env::var("CHROMIUM").unwrap_or_else(|_| CHROMIUM.to_string());
    let mut args: Vec<String> = CHROMIUM_FLAGS.iter().map(|s| s.to_string()).collect();
    args.push(format!("--user-data-dir={}", profile.display()));
    let caps = json!({
        "browserName": "chrome",
        "goog:chromeOptions": { "binary": binary, "args": args },
        "goog:loggingPrefs": { "browser": "ALL" },
    });
    caps.as_object().expect("an object").clone()
}

/// Serves the built page under [`BASE_PATH`], starts headless Chromium, and runs `body(client, base_url)` with
/// `base_url` = `http://127.0.0.1:PORT/bagsim/`. Afterwards — also when the body panics or times out — it closes
/// the WebDriver session and kills chromedriver and Chromium, then resumes the body's panic.
pub async fn with_browser<F, Fut>(body: F)
where
    F: FnOnce(Client, String) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let dist = snapshot(&require_dist());
    with_browser_serving(dist.path.clone(), Duration::from_secs(15 * 60), |client, server| {
        body(client, format!("{}{BASE_PATH}", server.origin()))
    })
    .await
}

/// Like [`with_browser`] for any directory and overall time limit; the body also gets the server (for its address).
pub async fn with_browser_serving<F, Fut>(root: PathBuf, limit: Duration, body: F)
where
    F: FnOnce(Client, &StaticServer) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let server = StaticServer::start(root, BASE_PATH).await;
    let profile = fresh_profile();
    let (child, port) = spawn_chromedriver().await;
    let mut session = Session { chromedriver: Some(child), profile };

    let connect = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(capabilities(&session.profile))
        .connect(&format!("http://127.0.0.1:{port}"))
        .await;
    let client = match connect {
        Ok(c) => c,
        Err(e) => {
            session.cleanup();
            panic!("cannot open a Chromium session through chromedriver: {e}");
        }
    };

    let mut task = tokio::spawn(body(client.clone(), &server));
    let outcome = tokio::time::timeout(limit, &mut task).await;
    if outcome.is_err() {
        task.abort();
    }

    let _ = tokio::time::timeout(Duration::from_secs(20), client.close()).await;
    session.cleanup();
    drop(server);

    match outcome {
        Ok(Ok(())) => {}
        Ok(Err(e)) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
        Ok(Err(e)) => panic!("the test body did not complete: {e}"),
        Err(_) => panic!("the test body did not finish within {limit:?}"),
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Reading and driving the page (everything through small scripts: robust to re-rendering)

/// Runs a script and returns its value; panics with the script on a WebDriver error.
pub async fn js(client: &Client, script: &str, args: Vec<Value>) -> Value {
    client.execute(script, args).await.unwrap_or_else(|e| panic!("script failed: {e}\n{script}"))
}

/// Replaces the page's downloads by captures: every file the page offers (an `<a download>` clicked, with a blob or
/// data URL) is kept in `window.__bagsimDownloads` as {name, text} instead of being saved. Blobs are caught at
/// `URL.createObjectURL`, because the page revokes the URL as soon as the click returns.
pub async fn capture_downloads(client: &Client) {
    js(
        client,
        r#"
        if (window.__bagsimDownloads) return true;
        window.__bagsimDownloads = [];
        const blobs = new Map();
        const create = URL.createObjectURL.bind(URL);
        URL.createObjectURL = (b) => { const u = create(b); blobs.set(u, b); return u; };
        HTMLAnchorElement.prototype.click = function () {
            if (!this.download) return;
            const entry = { name: this.download, text: null };
            window.__bagsimDownloads.push(entry);
            const blob = blobs.get(this.href);
            if (blob) { blob.text().then((t) => { entry.text = t; }); }
            else { entry.text = this.href; }
        };
        return true;
        "#,
        vec![],
    )
    .await;
}

/// Waits for the `n`-th captured download (1-based; see `capture_downloads`) and returns its (name, text).
pub async fn captured_download(client: &Client, n: usize, timeout: Duration) -> (String, String) {
    wait_for(client, timeout, &format!("download #{n}"), || async {
        let v = js(
            client,
            "const d = (window.__bagsimDownloads || [])[arguments[0]]; return d && d.text !== null ? [d.name, d.text] : null;",
            vec![json!(n - 1)],
        )
        .await;
        v.as_array().map(|a| {
            (a[0].as_str().unwrap_or_default().to_string(), a[1].as_str().unwrap_or_default().to_string())
        })
    })
    .await
}

/// Whether an element matching `css` exists.
pub async fn exists(client: &Client, css: &str) -> bool {
    js(client, "return document.querySelector(arguments[0]) !== null;", vec![json!(css)]).await == json!(true)
}

/// The text content of the element (trimmed), or None when there is none.
pub async fn text(client: &Client, css: &str) -> Option<String> {
    let v = js(
        client,
        "const e = document.querySelector(arguments[0]); return e ? e.textContent.trim() : null;",
        vec![json!(css)],
    )
    .await;
    v.as_str().map(str::to_string)
}

/// An attribute of the element, or None.
pub async fn attr(client: &Client, css: &str, name: &str) -> Option<String> {
    let v = js(
        client,
        "const e = document.querySelector(arguments[0]); return e ? e.getAttribute(arguments[1]) : null;",
        vec![json!(css), json!(name)],
    )
    .await;
    v.as_str().map(str::to_string)
}

/// A property of the element as JSON (null when there is no element).
pub async fn prop(client: &Client, css: &str, name: &str) -> Value {
    js(
        client,
        "const e = document.querySelector(arguments[0]); return e ? e[arguments[1]] : null;",
        vec![json!(css), json!(name)],
    )
    .await
}

/// The `#status` text.
pub async fn status(client: &Client) -> String {
    text(client, "#status").await.unwrap_or_else(|| "<no #status element>".into())
}

/// Whether the element exists and is not disabled.
pub async fn is_enabled(client: &Client, css: &str) -> bool {
    prop(client, css, "disabled").await == json!(false)
}

/// `#progress` as (value, max).
pub async fn progress(client: &Client) -> (f64, f64) {
    let v = js(
        client,
        "const p = document.querySelector('#progress'); return p ? [Number(p.value), Number(p.max)] : null;",
        vec![],
    )
    .await;
    let a = v.as_array().unwrap_or_else(|| panic!("no #progress element"));
    (a[0].as_f64().unwrap_or(f64::NAN), a[1].as_f64().unwrap_or(f64::NAN))
}

/// `location.href` and `location.search`.
pub async fn location(client: &Client) -> (String, String) {
    let v = js(client, "return [location.href, location.search];", vec![]).await;
    (v[0].as_str().unwrap_or("").to_string(), v[1].as_str().unwrap_or("").to_string())
}

/// A short description of the page for failure messages: status, banner, field errors.
pub async fn describe(client: &Client) -> String {
    let v = js(
        client,
        "const t = s => { const e = document.querySelector(s); return e ? e.textContent.trim() : null; };
         const errs = [...document.querySelectorAll('.field-error')]
            .map(e => (e.getAttribute('data-field') || '?') + ': ' + e.textContent.trim()).filter(s => !s.endsWith(': '));
         const run = document.querySelector('#run');
         return { status: t('#status'), banner: t('#banner-error'), field_errors: errs,
                  run_disabled: run ? run.disabled : null, url: location.href };",
        vec![],
    )
    .await;
    v.to_string()
}

/// chromedriver's legacy log endpoint (`POST /session/{id}/se/log`), for the browser console.
#[derive(Debug)]
struct BrowserLog;

impl fantoccini::wd::WebDriverCompatibleCommand for BrowserLog {
    fn endpoint(&self, base: &url::Url, session: Option<&str>) -> Result<url::Url, url::ParseError> {
        base.join(&format!("session/{}/se/log", session.unwrap_or("")))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        (http::Method::POST, Some(json!({ "type": "browser" }).to_string()))
    }
}

/// The browser console's messages since the previous call, one line each (empty if the driver has none).
pub async fn console_log(client: &Client) -> Vec<String> {
    let Ok(v) = client.issue_cmd(BrowserLog).await else { return Vec::new() };
    v.as_array()
        .map(|a| {
            a.iter()
                .map(|e| format!("[{}] {}", e["level"].as_str().unwrap_or("?"), e["message"].as_str().unwrap_or("")))
                .collect()
        })
        .unwrap_or_default()
}

/// Polls `cond` every 100 ms until it returns Some, or panics after `timeout` with `what` and the page state.
pub async fn wait_for<T, F, Fut>(client: &Client, timeout: Duration, what: &str, mut cond: F) -> T
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Option<T>>,
{
    let start = tokio::time::Instant::now();
    loop {
        if let Some(v) = cond().await {
            return v;
        }
        if start.elapsed() > timeout {
            panic!(
                "timed out after {timeout:?} waiting for {what}; page: {}\nbrowser console:\n{}",
                describe(client).await,
                console_log(client).await.join("\n")
            );
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Waits until `#status` is one of `want`; panics early on `failed` (unless wanted) with the page state.
pub async fn wait_status(client: &Client, want: &[&str], timeout: Duration) -> String {
    let what = format!("#status in {want:?}");
    wait_for(client, timeout, &what, || async {
        let s = status(client).await;
        if want.contains(&s.as_str()) {
            return Some(s);
        }
        if s == "failed" {
            panic!(
                "the run failed while waiting for {what}; page: {}\nbrowser console:\n{}",
                describe(client).await,
                console_log(client).await.join("\n")
            );
        }
        None
    })
    .await
}

/// Waits until the element exists and is enabled.
pub async fn wait_enabled(client: &Client, css: &str, timeout: Duration) {
    wait_for(client, timeout, &format!("{css} to be enabled"), || async { is_enabled(client, css).await.then_some(()) })
        .await
}

/// Sets an input's or select's value and fires `input` and `change` (bubbling), as a user edit would. Panics when
/// the element is missing or (for a select) has no such option.
pub async fn set_control(client: &Client, css: &str, value: &str) {
    let v = js(
        client,
        "const e = document.querySelector(arguments[0]);
         if (!e) return 'missing';
         if (e.tagName === 'SELECT' && ![...e.options].some(o => o.value === arguments[1]))
             return 'no option ' + JSON.stringify(arguments[1]) + ' among ' + JSON.stringify([...e.options].map(o => o.value));
         e.focus();
         e.value = arguments[1];
         e.dispatchEvent(new Event('input', { bubbles: true }));
         e.dispatchEvent(new Event('change', { bubbles: true }));
         e.blur();
         return 'ok';",
        vec![json!(css), json!(value)],
    )
    .await;
    assert_eq!(v, json!("ok"), "cannot set {css} to {value:?}");
}

/// The current values of controls, by selector.
pub async fn control_values(client: &Client, selectors: &[&str]) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    for css in selectors {
        out.push((css.to_string(), prop(client, css, "value").await.as_str().map(str::to_string)));
    }
    out
}

/// Clicks an element through WebDriver (a real click: fails if the element is hidden or covered).
pub async fn click(client: &Client, css: &str) {
    let e =
        client.find(fantoccini::Locator::Css(css)).await.unwrap_or_else(|e| panic!("cannot find {css} to click: {e}"));
    e.click().await.unwrap_or_else(|e| panic!("cannot click {css}: {e}"));
}

/// Waits until the multi-cluster charts are drawn: the page draws them one per task and marks `#charts` with
/// `data-drawing` meanwhile.
pub async fn charts_drawn(client: &Client) {
    wait_for(client, Duration::from_secs(30), "the charts to be drawn (#charts[data-drawing])", || async {
        let drawing = js(client, "return !!document.querySelector('#charts[data-drawing]');", vec![]).await;
        (drawing == json!(false)).then_some(())
    })
    .await
}

/// The number of pixels of a canvas that are neither white nor transparent (getImageData), once the charts are
/// drawn.
pub async fn non_white_pixels(client: &Client, css: &str) -> u64 {
    charts_drawn(client).await;
    let v = js(
        client,
        "const c = document.querySelector(arguments[0]);
         if (!c || !c.getContext) return -1;
         if (c.width === 0 || c.height === 0) return 0;
         const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
         let n = 0;
         for (let i = 0; i < d.length; i += 4)
             if (d[i + 3] > 0 && (d[i] < 250 || d[i + 1] < 250 || d[i + 2] < 250)) n++;
         return n;",
        vec![json!(css)],
    )
    .await;
    let n = v.as_i64().unwrap_or(-1);
    assert!(n >= 0, "no canvas {css}");
    n as u64
}

/// Pixels of the canvas within 12 of `rgb` in every channel (the lines of one run's colour).
pub async fn colour_pixels(client: &Client, css: &str, rgb: [u8; 3]) -> u64 {
    charts_drawn(client).await;
    let v = js(
        client,
        "const [c, r, g, b] = [document.querySelector(arguments[0]), ...arguments[1]];
         if (!c || !c.getContext) return -1;
         const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
         let n = 0;
         for (let i = 0; i < d.length; i += 4)
             if (Math.abs(d[i] - r) <= 12 && Math.abs(d[i + 1] - g) <= 12 && Math.abs(d[i + 2] - b) <= 12) n++;
         return n;",
        vec![json!(css), json!(rgb)],
    )
    .await;
    let n = v.as_i64().unwrap_or(-1);
    assert!(n >= 0, "no canvas {css}");
    n as u64
}

/// Main-thread latency: the time from scheduling a `setTimeout(0)` to its callback, ms.
pub async fn main_thread_latency_ms(client: &Client) -> f64 {
    let v = client
        .execute_async(
            "const cb = arguments[arguments.length - 1]; const t = performance.now();
             setTimeout(() => cb(performance.now() - t), 0);",
            vec![],
        )
        .await
        .unwrap_or_else(|e| panic!("execute_async failed: {e}"));
    v.as_f64().unwrap_or(f64::NAN)
}

/// Saves a PNG screenshot under `<target>/e2e/<name>` and returns its path.
pub async fn screenshot(client: &Client, name: &str) -> PathBuf {
    let png = client.screenshot().await.unwrap_or_else(|e| panic!("screenshot failed: {e}"));
    let path = artifact_dir().join(name);
    std::fs::write(&path, png).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    path
}

// ---------------------------------------------------------------------------------------------------------------
// Figures

/// The summary cards' `data-value`s, as text (exactly what the page printed).
#[derive(Clone, Debug, PartialEq)]
pub struct Cards {
    pub finished: String,
    pub utilization: String,
    pub makespan: String,
    pub nsl: String,
    pub wait: String,
    pub wall: String,
}

/// The card ids and the names used in messages.
pub const CARD_IDS: [(&str, &str); 6] = [
    ("#card-finished", "finished fraction"),
    ("#card-utilization", "utilization"),
    ("#card-makespan", "mean makespan"),
    ("#card-nsl", "mean NSL"),
    ("#card-wait", "mean task wait"),
    ("#card-wall", "wall time"),
];

/// Reads the cards; a missing card or attribute reads as `<missing>`.
pub async fn cards(client: &Client) -> Cards {
    let mut v = Vec::new();
    for (id, _) in CARD_IDS {
        v.push(attr(client, id, "data-value").await.unwrap_or_else(|| "<missing>".into()));
    }
    Cards {
        finished: v[0].clone(),
        utilization: v[1].clone(),
        makespan: v[2].clone(),
        nsl: v[3].clone(),
        wait: v[4].clone(),
        wall: v[5].clone(),
    }
}

impl Cards {
    /// The five simulated figures (not the wall time) with their names.
    pub fn figures(&self) -> [(&'static str, &str); 5] {
        [
            ("#card-finished", &self.finished),
            ("#card-utilization", &self.utilization),
            ("#card-makespan", &self.makespan),
            ("#card-nsl", &self.nsl),
            ("#card-wait", &self.wait),
        ]
    }
}

/// The five simulated figures of a native report, in [`Cards::figures`] order.
pub fn report_figures(r: &bagsim::run::Report) -> [(&'static str, f64); 5] {
    [
        ("#card-finished", r.metrics.tasks.finished_fraction),
        ("#card-utilization", r.metrics.system.utilization),
        ("#card-makespan", r.metrics.overall.makespan.mean),
        ("#card-nsl", r.metrics.overall.nsl.mean),
        ("#card-wait", r.metrics.tasks.wait.mean),
    ]
}

/// Parses a card value as f64 (None if it is not a number).
pub fn parse_figure(s: &str) -> Option<f64> {
    s.trim().parse::<f64>().ok()
}

/// Bit-for-bit equality, with NaN equal to NaN.
pub fn same_f64(a: f64, b: f64) -> bool {
    a == b || (a.is_nan() && b.is_nan())
}

/// The mismatches between the page's cards and a native report: one line each, empty when all are exact.
pub fn compare_with_native(cards: &Cards, report: &bagsim::run::Report) -> Vec<String> {
    let mut bad = Vec::new();
    for ((id, page), (_, native)) in cards.figures().into_iter().zip(report_figures(report)) {
        match parse_figure(page) {
            Some(p) if same_f64(p, native) => {}
            Some(p) => bad.push(format!("{id}: page data-value={page} ({p:e}) native={native} ({native:e})")),
            None => bad.push(format!("{id}: page data-value={page:?} is not a number; native={native}")),
        }
    }
    bad
}

// ---------------------------------------------------------------------------------------------------------------
// Links

const B64URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Base64url without padding (RFC 4648 §5).
pub fn base64url(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, &b)| n | (u32::from(b) << (16 - 8 * i)));
        for i in 0..=chunk.len() {
            out.push(B64URL[((n >> (18 - 6 * i)) & 63) as usize] as char);
        }
    }
    out
}

/// The `?scenario=` parameter of a scenario: base64url of its JSON.
pub fn scenario_param(s: &bagsim::scenario::Scenario) -> String {
    base64url(serde_json::to_string(s).expect("a scenario serializes").as_bytes())
}

// ---------------------------------------------------------------------------------------------------------------
// Steps the page tests share

/// A run of a small scenario takes well under a second natively; this bounds a slow, loaded machine.
pub const RUN_TIMEOUT: Duration = Duration::from_secs(120);

/// Opens `url` and waits until the worker is ready. A first open (a fresh profile, no link) would run the
/// first-open scenarios at once, so `url` gets `autorun=0` unless it says otherwise: the tests start from the
/// defaults, ready (the first open has its own test).
pub async fn open_ready(client: &Client, url: &str) {
    let url = without_autorun(url);
    client.goto(&url).await.unwrap_or_else(|e| panic!("cannot open {url}: {e}"));
    wait_status(client, &["ready"], READY_TIMEOUT).await;
}

/// `url` with `autorun=0` added, unless it has an `autorun` parameter already.
pub fn without_autorun(url: &str) -> String {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    if query.split('&').any(|kv| kv == "autorun" || kv.starts_with("autorun=")) {
        return url.to_string();
    }
    match query {
        "" => format!("{path}?autorun=0"),
        q => format!("{path}?{q}&autorun=0"),
    }
}

/// The scenario the page keeps in its URL (`?scenario=`), decoded; panics if there is none or it is damaged.
pub async fn scenario_in_url(client: &Client) -> bagsim::scenario::Scenario {
    let (href, search) = location(client).await;
    let param = search
        .trim_start_matches('?')
        .split('&')
        .find_map(|kv| kv.strip_prefix("scenario="))
        .unwrap_or_else(|| panic!("the page's URL has no ?scenario= parameter: {href}"));
    bagsim::share::from_link(param)
        .unwrap_or_else(|e| panic!("the scenario in the page's URL is not valid: {e}: {href}"))
}

/// Clicks #run once it is enabled and waits for `finished`; returns the cards.
pub async fn run_to_the_end(client: &Client) -> Cards {
    wait_enabled(client, "#run", READY_TIMEOUT).await;
    click(client, "#run").await;
    wait_status(client, &["finished"], RUN_TIMEOUT).await;
    cards(client).await
}

/// Asserts that the page's figures equal the native run's exactly, printing both.
pub fn assert_matches_native(cards: &Cards, scenario: &bagsim::scenario::Scenario, context: &str) {
    let native = bagsim::run::run(&scenario.multi_cluster).expect("the scenario runs natively");
    for ((id, page), (_, n)) in cards.figures().into_iter().zip(report_figures(&native)) {
        println!("{context}: {id}: page {page}  native {n}");
    }
    println!("{context}: #card-wall: page {}  native {}", cards.wall, native.wall_time_s);
    let bad = compare_with_native(cards, &native);
    assert!(
        bad.is_empty(),
        "{context}: the page's figures differ from the native run of the same scenario \
         (determinism: they must be equal bit for bit):\n  {}\nscenario: {}",
        bad.join("\n  "),
        serde_json::to_string(scenario).unwrap()
    );
    let wall = parse_figure(&cards.wall);
    assert!(
        wall.is_some_and(|w| w.is_finite() && w >= 0.0),
        "{context}: #card-wall data-value={:?} is not a wall time in seconds",
        cards.wall
    );
}

// ---------------------------------------------------------------------------------------------------------------
// Paper figures

/// The CSV of a paper figure computed natively with the library code the page and `bagsim reproduce` use: every run
/// of `figure.runs(seeds)` through `reproduce::run_point`; a failed run is recorded as the CLI records it.
pub fn native_figure(
    id: bagsim::family::multi_cluster::figures::FigureId,
    seeds: u32,
) -> bagsim::family::multi_cluster::figures::FigureResult {
    let figure = id.figure();
    // The page's default: one day of submissions (figures::PAGE_PERIODS).
    let base = bagsim::family::multi_cluster::figures::base_of_period(
        bagsim::family::multi_cluster::figures::PAGE_PERIODS[0].0,
    );
    let runs = figure.runs_on(&base, 1..=seeds);
    let mut result = bagsim::family::multi_cluster::figures::FigureResult::new(figure, seeds);
    for spec in &runs {
        match bagsim::family::multi_cluster::figures::run_point(&spec.scenario) {
            Ok(r) => result.add(spec, r),
            Err(e) => result.failures.push(format!("{} seed {}: {e}", result.figure.series[spec.series], spec.seed)),
        }
    }
    result
}

/// The `#paper-status` counters: (done, total, failed).
pub async fn paper_counts(client: &Client) -> (usize, usize, usize) {
    let n = |v: Option<String>| v.and_then(|s| s.parse().ok()).unwrap_or(usize::MAX);
    (
        n(attr(client, "#paper-status", "data-done").await),
        n(attr(client, "#paper-status", "data-total").await),
        n(attr(client, "#paper-status", "data-failed").await),
    )
}

/// Picks a paper figure (`fig3` … `fig11`) and a number of seeds, presses Run, waits until every run is in, and
/// returns the page's CSV (`#paper-csv`) and the wall-clock seconds from the click to the last run. Panics when a run
/// fails or the figure does not finish within `timeout`.
pub async fn run_paper_figure(client: &Client, figure: &str, seeds: u32, timeout: Duration) -> (String, f64) {
    set_control(client, "#paper-figure", figure).await;
    set_control(client, "#paper-seeds", &seeds.to_string()).await;
    wait_enabled(client, "#paper-run", READY_TIMEOUT).await;
    let t0 = std::time::Instant::now();
    click(client, "#paper-run").await;
    wait_for(client, timeout, &format!("{figure}: #paper-status data-done == data-total"), || async {
        let (done, total, failed) = paper_counts(client).await;
        if failed > 0 && failed != usize::MAX {
            panic!("{figure}: {failed} run(s) failed: {:?}", text(client, ".paper-failed").await);
        }
        (done == total && total > 0 && total != usize::MAX).then_some(())
    })
    .await;
    let elapsed = t0.elapsed().as_secs_f64();
    let csv = js(client, "const e = document.querySelector('#paper-csv'); return e ? e.textContent : null;", vec![])
        .await
        .as_str()
        .unwrap_or_else(|| panic!("no #paper-csv"))
        .to_string();
    (csv, elapsed)
}

/// The longest an axe-core pass may take.
pub const AXE_TIMEOUT: Duration = Duration::from_secs(180);

/// Injects the pinned axe-core into the page (once) and returns the violations it finds in the whole document,
/// as "rule: help (n nodes: selectors)" lines.
pub async fn axe_violations(client: &Client, when: &str) -> Vec<String> {
    let path = workspace_root().join("node_modules/axe-core/axe.min.js");
    let source = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}; run scripts/setup.sh (npm ci)", path.display()));
    js(
        client,
        "if (!window.axe) { const s = document.createElement('script'); s.textContent = arguments[0]; document.head.appendChild(s); }
         return !!window.axe;",
        vec![serde_json::json!(source)],
    )
    .await;
    // axe walks the whole document; with every chart's numbers shown as tables it takes many seconds on a busy
    // 2-core machine, beyond WebDriver's default 30 s for a script. The time it took is printed below.
    let timeouts = fantoccini::wd::TimeoutConfiguration::new(Some(AXE_TIMEOUT), None, None);
    client.update_timeouts(timeouts).await.unwrap_or_else(|e| panic!("cannot set the script timeout: {e}"));
    let started = std::time::Instant::now();
    let result = client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             axe.run(document, { resultTypes: ['violations'] })
                .then(r => done(r.violations.map(v => v.id + ': ' + v.help + ' (' + v.nodes.length + ' nodes: '
                    + v.nodes.slice(0, 4).map(n => n.target.join(' ')).join(', ') + ')')))
                .catch(e => done(['axe failed: ' + e]));",
            vec![],
        )
        .await
        .unwrap_or_else(|e| panic!("axe.run failed ({when}): {e}"));
    let v: Vec<String> =
        result.as_array().map(|a| a.iter().filter_map(|x| x.as_str().map(String::from)).collect()).unwrap_or_default();
    println!("axe, {when}: {} violations ({:.1} s)", v.len(), started.elapsed().as_secs_f64());
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64url_matches_rfc4648_and_the_project_encoder() {
        for (plain, coded) in [("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foobar", "Zm9vYmFy")] {
            assert_eq!(base64url(plain.as_bytes()), coded);
        }
        assert_eq!(base64url(&[0xfb, 0xff]), "-_8");
        let s = bagsim::scenario::Scenario::default();
        assert_eq!(scenario_param(&s), bagsim::share::to_link(&s));
    }

    #[test]
    fn server_paths_stay_under_the_base() {
        let root = std::env::temp_dir().join(format!("bagsim-e2e-resolve-{}", std::process::id()));
        std::fs::create_dir_all(root.join("sub")).unwrap();
        std::fs::write(root.join("index.html"), "x").unwrap();
        std::fs::write(root.join("a.wasm"), "x").unwrap();
        assert_eq!(resolve(&root, "/b/", "/b/"), Some(root.join("index.html")));
        assert_eq!(resolve(&root, "/b/", "/b"), Some(root.join("index.html")));
        assert_eq!(resolve(&root, "/b/", "/b/?scenario=x"), Some(root.join("index.html")));
        assert_eq!(resolve(&root, "/b/", "/b/a.wasm"), Some(root.join("a.wasm")));
        assert_eq!(resolve(&root, "/b/", "/a.wasm"), None);
        assert_eq!(resolve(&root, "/b/", "/index.html"), None);
        assert_eq!(resolve(&root, "/b/", "/b/../index.html"), None);
        assert_eq!(resolve(&root, "/b/", "/b/sub/"), None);
        assert_eq!(content_type(Path::new("x.wasm")), "application/wasm");
        assert_eq!(content_type(Path::new("x.js")), "text/javascript; charset=utf-8");
        std::fs::remove_dir_all(&root).unwrap();
    }
}
