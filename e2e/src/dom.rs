//! Reading and driving the page, everything through small scripts (robust to re-rendering).

use crate::site::artifact_dir;
use fantoccini::Client;
use serde_json::{json, Value};
use std::future::Future;
use std::path::PathBuf;
use std::time::Duration;

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
            "const d = (window.__bagsimDownloads || [])[arguments[0]]; return d && d.text !== null ? [d.name, d.text] \
             : null;",
            vec![json!(n - 1)],
        )
        .await;
        v.as_array()
            .map(|a| (a[0].as_str().unwrap_or_default().to_string(), a[1].as_str().unwrap_or_default().to_string()))
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
            .map(e => (e.getAttribute('data-field') || '?') + ': ' + \
                e.textContent.trim()).filter(s => !s.endsWith(': '));
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
             return 'no option ' + JSON.stringify(arguments[1]) + ' among ' + \
                 JSON.stringify([...e.options].map(o => o.value));
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
