//! Links to scenarios, and the steps the page tests share (open a page ready, run to the end, compare with the
//! native run).

use crate::dom::{click, location, wait_enabled, wait_status};
use crate::figures::{cards, compare_with_native, parse_figure, report_figures, Cards};
use crate::site::READY_TIMEOUT;
use fantoccini::Client;
use std::time::Duration;

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
    let native = bagsim::run::run(scenario.as_multi_cluster().expect("a multi-cluster scenario"))
        .expect("the scenario runs natively");
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
}
