//! A browser session: chromedriver on a free port, headless Chromium with a fresh profile, and the cleanup that
//! runs however the test body ends.

use crate::server::StaticServer;
use crate::site::{require_dist, snapshot, unique_temp_dir, BASE_PATH};
use fantoccini::{Client, ClientBuilder};
use serde_json::{json, Value};
use std::future::Future;
use std::path::{Path, PathBuf};
use std::time::Duration;
use tokio::net::TcpStream;

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
