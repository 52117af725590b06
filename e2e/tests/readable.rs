//! Charts a person can read and a page that fits a phone (issue #30): the charts' tick labels are round numbers
//! with no float noise, their legends lie below the plot (never on the data); at 360 px the page is no wider than
//! the screen on its first open and with each family shown, and the intro's link opens the lessons.
//!
//! Run with scripts/test-browser.sh (it builds the page first). One browser per test; `--test-threads=1`.

use std::time::Duration;

use e2e::fantoccini::Client;
use e2e::*;

/// The texts of an SVG chart: (x, y, content), in document order.
fn texts(svg: &str) -> Vec<(f64, f64, String)> {
    let mut out = Vec::new();
    for part in svg.split("<text").skip(1) {
        let Some((attrs, rest)) = part.split_once('>') else { continue };
        let content = rest.split("</text>").next().unwrap_or("").trim().to_string();
        let num = |name: &str| -> f64 {
            attrs
                .split(&format!(" {name}=\""))
                .nth(1)
                .and_then(|v| v.split('"').next())
                .and_then(|v| v.parse().ok())
                .unwrap_or(f64::NAN)
        };
        out.push((num("x"), num("y"), content));
    }
    out
}

/// A label with float noise: six or more decimals ("0.30000000000000004", "20.290000").
fn noisy(label: &str) -> bool {
    label.split(['.', ',']).skip(1).any(|frac| frac.chars().take_while(char::is_ascii_digit).count() >= 6)
}

/// The legends' entries: the current run, then the pinned ones.
async fn runs_shown(client: &Client) -> Vec<String> {
    let v = js(client, "return [...document.querySelectorAll('ul.pinned li')].map(e => e.textContent);", vec![]).await;
    v.as_array().map(|a| a.iter().filter_map(|x| x.as_str().map(String::from)).collect()).unwrap_or_default()
}

#[test]
fn the_helpers_see_noise_and_texts() {
    assert!(noisy("0.30000000000000004") && noisy("20.290000") && !noisy("0.25") && !noisy("10 000"));
    let t = texts(r#"<svg><text x="3" y="40.5" dy="0.76em">10 000</text><text y="7" x="1">a</text></svg>"#);
    assert_eq!(t, vec![(3.0, 40.5, "10 000".to_string()), (1.0, 7.0, "a".to_string())]);
}

/// The first open's two runs: every chart's tick labels are free of float noise, and on the time series the runs'
/// legend lies below every other text of the chart (tick labels and axis titles), so it covers no data.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chart_ticks_are_round_and_legends_lie_below_the_plot() {
    with_browser(|client, base| async move {
        client.goto(&base).await.unwrap_or_else(|e| panic!("cannot open {base}: {e}"));
        wait_for(&client, READY_TIMEOUT + 2 * RUN_TIMEOUT, "both first-open runs", || async {
            (status(&client).await == "finished" && runs_shown(&client).await.len() == 2).then_some(())
        })
        .await;
        let labels = runs_shown(&client).await;
        capture_downloads(&client).await;
        for (n, id) in
            ["chart-queue", "chart-util", "chart-nsl-class", "chart-ms-class", "chart-cdf"].iter().enumerate()
        {
            click(&client, &format!("#{id}-svg")).await;
            let (_, svg) = captured_download(&client, n + 1, Duration::from_secs(30)).await;
            let all = texts(&svg);
            assert!(all.len() > 6, "{id}: too few texts in its SVG: {all:?}");
            let bad: Vec<&String> = all.iter().map(|t| &t.2).filter(|t| noisy(t)).collect();
            assert!(bad.is_empty(), "{id}: tick labels with float noise: {bad:?}");
            if n < 2 {
                let is_legend = |t: &str| labels.iter().any(|l| l.trim() == t || l.ends_with(t));
                let legend_top = all.iter().filter(|t| is_legend(&t.2)).map(|t| t.1).fold(f64::INFINITY, f64::min);
                let others_bottom = all.iter().filter(|t| !is_legend(&t.2)).map(|t| t.1).fold(0.0, f64::max);
                assert!(legend_top.is_finite(), "{id}: no legend entry among {all:?} (runs: {labels:?})");
                assert!(
                    legend_top > others_bottom,
                    "{id}: the legend (top {legend_top}) is not below the axes' texts (bottom {others_bottom})"
                );
            }
        }
        js(&client, "document.querySelector('#chart-queue').scrollIntoView();", vec![]).await;
        println!("screenshot: {}", screenshot(&client, "readable-charts-1400.png").await.display());
        client.set_window_size(360, 800).await.expect("a window of 360 × 800");
        js(&client, "document.querySelector('#chart-queue').scrollIntoView();", vec![]).await;
        tokio::time::sleep(Duration::from_millis(500)).await;
        println!("screenshot: {}", screenshot(&client, "readable-charts-360.png").await.display());
    })
    .await;
}

/// A `data-*` attribute of two numbers ("a b").
async fn pair(client: &Client, css: &str, name: &str) -> (f64, f64) {
    let v = attr(client, css, name).await.unwrap_or_default();
    let mut it = v.split(' ').filter_map(|x| x.parse::<f64>().ok());
    match (it.next(), it.next()) {
        (Some(a), Some(b)) => (a, b),
        _ => panic!("{css} has no {name} of two numbers: {v:?}"),
    }
}

async fn press(client: &Client, key: char) {
    use e2e::fantoccini::actions::{InputSource, KeyAction, KeyActions};
    let keys =
        KeyActions::new("keyboard".into()).then(KeyAction::Down { value: key }).then(KeyAction::Up { value: key });
    client.perform_actions(keys).await.unwrap_or_else(|e| panic!("cannot press {key:?}: {e}"));
}

/// Waits until the Gantt view's window is `want` (days, to a millionth of the span).
async fn window_is(client: &Client, want: (f64, f64), span: f64, what: &str) {
    wait_for(client, Duration::from_secs(10), what, || async {
        let w = pair(client, "#dd-gantt", "data-window").await;
        ((w.0 - want.0).abs() < span * 1e-6 && (w.1 - want.1).abs() < span * 1e-6).then_some(())
    })
    .await;
}

/// The data grid's default run: busy processors are drawn as a band per window (pale fill in site 1's colour), and
/// the Gantt view zooms in and out and moves in time with its buttons and with keys on the focused chart.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn data_grid_busy_band_and_gantt_zoom() {
    with_browser(|client, base| async move {
        open_ready(&client, &base).await;
        set_control(&client, "#family", "data_grid").await;
        wait_enabled(&client, "#run", READY_TIMEOUT).await;
        click(&client, "#run").await;
        wait_status(&client, &["finished"], RUN_TIMEOUT).await;
        // Site 1's colour (0, 114, 178) at 10% over white (five sites' bands overlap): the min–max band.
        let band = colour_pixels(&client, "#dd-chart-busy", [230, 241, 247]).await;
        assert!(band > 500, "no min–max band on the busy-processor chart ({band} pixels of its fill)");

        let (t0, t1) = pair(&client, "#dd-gantt", "data-span").await;
        let span = t1 - t0;
        assert!(span > 1.0, "the Gantt view spans {span} days");
        window_is(&client, (t0, t1), span, "the whole span at first").await;
        click(&client, "#dd-gantt-in").await;
        window_is(&client, (t0 + span / 4.0, t1 - span / 4.0), span, "half the span after +").await;
        click(&client, "#dd-gantt-in").await;
        window_is(&client, (t0 + 3.0 * span / 8.0, t1 - 3.0 * span / 8.0), span, "a quarter after + +").await;
        js(
            &client,
            "document.querySelector('#dd-gantt').scrollIntoView(); document.querySelector('#dd-gantt').focus();",
            vec![],
        )
        .await;
        press(&client, '\u{E014}').await; // ArrowRight
        window_is(&client, (t0 + 0.5 * span, t1 - 0.25 * span), span, "an eighth later after →").await;
        let shot = screenshot(&client, "readable-gantt-zoomed.png").await;
        println!("screenshot: {}", shot.display());
        press(&client, '-').await;
        window_is(&client, (t0 + 0.375 * span, t1 - 0.125 * span), span, "half the span after −").await;
        press(&client, '0').await;
        window_is(&client, (t0, t1), span, "the whole span after 0").await;
        js(&client, "document.querySelector('#dd-chart-busy').scrollIntoView();", vec![]).await;
        println!("screenshot: {}", screenshot(&client, "readable-data-grid-charts.png").await.display());
    })
    .await;
}

/// The page's width at the phone's size: (document scrollWidth, viewport width, the elements that reach past the
/// viewport's right edge while their parent does not and no box around them scrolls: what makes the page too wide).
/// Every section is laid out (`content-visibility` off) and every `<details>` opened first, so that nothing hidden
/// escapes the measure.
async fn widths(client: &Client) -> (f64, f64, Vec<String>) {
    let v = js(
        client,
        "if (!document.getElementById('all-visible')) document.head.insertAdjacentHTML('beforeend',
             '<style id=\"all-visible\">* { content-visibility: visible !important; }</style>');
         document.querySelectorAll('details').forEach(d => { d.open = true; });
         const w = document.documentElement.clientWidth;
         const name = e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + \
             (e.className && e.className.baseVal === undefined && e.className ? \
             '.' + e.className.split(' ').join('.') : '');
         const scrolls = e => { for (let a = e.parentElement; a && a !== document.body; a = a.parentElement)
             if (getComputedStyle(a).overflowX !== 'visible') return true; return false; };
         const out = [];
         for (const e of document.querySelectorAll('body *')) {
             const r = e.getBoundingClientRect();
             const p = e.parentElement && e.parentElement.getBoundingClientRect();
             if (r.width > 0 && r.right > w + 0.5 && (!p || p.right <= w + 0.5) && !scrolls(e)) \
                 out.push(name(e) + ' right ' + Math.round(r.right));
         }
         return [document.documentElement.scrollWidth, w, out.slice(0, 15)];",
        vec![],
    )
    .await;
    let a = v.as_array().cloned().unwrap_or_default();
    let culprits = a.get(2).and_then(|c| c.as_array().cloned()).unwrap_or_default();
    (
        a.first().and_then(|x| x.as_f64()).unwrap_or(f64::NAN),
        a.get(1).and_then(|x| x.as_f64()).unwrap_or(f64::NAN),
        culprits.iter().filter_map(|c| c.as_str().map(String::from)).collect(),
    )
}

async fn assert_fits(client: &Client, when: &str) {
    // Layout after the details opened.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (scroll, viewport, culprits) = widths(client).await;
    println!("{when}: scrollWidth {scroll} px in a viewport of {viewport} px");
    assert!(viewport <= 360.0, "{when}: the viewport is {viewport} px wide, not a phone's");
    assert!(
        scroll <= viewport,
        "{when}: the page is {scroll} px wide in a {viewport} px viewport; too wide: {culprits:?}"
    );
}

/// A phone, 360 px wide: the intro's link opens the lessons while the first open still holds them back, and the page
/// is never wider than the screen: on its first open, and with each family shown.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_phone_sees_the_whole_page_and_finds_the_lessons() {
    with_browser(|client, base| async move {
        client.set_window_size(360, 800).await.expect("a window of 360 × 800");
        client.goto(&base).await.unwrap_or_else(|e| panic!("cannot open {base}: {e}"));
        // As soon as the page has replaced its skeleton (the first open's runs have only begun).
        wait_for(&client, READY_TIMEOUT, "the page", || async { exists(&client, "#run").await.then_some(()) }).await;
        click(&client, "#to-lessons").await;
        wait_for(&client, Duration::from_secs(20), "the lessons open and in view", || async {
            let v = js(
                &client,
                "const d = document.getElementById('lessons'); if (!d) return false;
                 const r = d.getBoundingClientRect(); return d.open && r.top < window.innerHeight && r.bottom > 0;",
                vec![],
            )
            .await;
            (v == serde_json::json!(true)).then_some(())
        })
        .await;
        assert!(exists(&client, "#lesson-question").await, "the opened lessons show no question");
        println!("screenshot: {}", screenshot(&client, "phone-lessons.png").await.display());

        wait_for(&client, READY_TIMEOUT + 2 * RUN_TIMEOUT, "both first-open runs", || async {
            (status(&client).await == "finished" && runs_shown(&client).await.len() == 2).then_some(())
        })
        .await;
        js(&client, "window.scrollTo(0, 0);", vec![]).await;
        println!("screenshot: {}", screenshot(&client, "phone-first-open.png").await.display());
        assert_fits(&client, "the first open").await;
        // The charts as a phone draws them: larger type on a canvas shown smaller than it is drawn.
        js(&client, "document.querySelector('#chart-util').scrollIntoView();", vec![]).await;
        println!("screenshot: {}", screenshot(&client, "phone-charts.png").await.display());
        for (family, marker, note) in [
            ("desktop_grid", "#dg-chart-replicas", "#not-modelled-dg"),
            ("data_grid", "#dd-gantt", "#not-modelled-dd"),
            ("multi_cluster", "#chart-queue", "#not-modelled-mc"),
        ] {
            set_control(&client, "#family", family).await;
            wait_for(&client, Duration::from_secs(10), family, || async {
                exists(&client, marker).await.then_some(())
            })
            .await;
            js(&client, "window.scrollTo(0, 0);", vec![]).await;
            println!("screenshot: {}", screenshot(&client, &format!("phone-{family}.png")).await.display());
            assert_fits(&client, &format!("the {family} family")).await;
            // What the family does not model, under its controls (docs/limits.md).
            let said = text(&client, note).await.unwrap_or_default();
            assert!(
                said.starts_with("Not modelled:") && said.contains("docs/limits"),
                "{family}: {note} says {said:?}"
            );
            js(&client, &format!("document.querySelector('{note}').scrollIntoView();"), vec![]).await;
            println!(
                "screenshot: {}",
                screenshot(&client, &format!("phone-{family}-not-modelled.png")).await.display()
            );
        }
        // The size-class table, which pushed the page to 474 px: it scrolls inside its own box now.
        js(&client, "document.querySelector('#class-table').scrollIntoView();", vec![]).await;
        println!("screenshot: {}", screenshot(&client, "phone-class-table.png").await.display());
        // Two desktop-grid runs, one pinned: the legend and the comparison table stay within the screen.
        set_control(&client, "#family", "desktop_grid").await;
        set_control(&client, "#dg-bots", "8").await;
        run_to_the_end(&client).await;
        click(&client, "#dg-pin").await;
        set_control(&client, "#dg-seed", "5").await;
        run_to_the_end(&client).await;
        assert!(exists(&client, "#dg-pinned-compare").await, "no comparison after pinning");
        assert_fits(&client, "two desktop-grid runs, one pinned").await;
        js(&client, "document.querySelector('#dg-results .pinned').scrollIntoView();", vec![]).await;
        println!("screenshot: {}", screenshot(&client, "phone-dg-pinned.png").await.display());
    })
    .await;
}

/// Keyboard: the first Tab from the top of the page reaches a "Skip to Run" link, and Enter on it puts the focus on
/// Run, which Enter then presses (issue #45: 32 Tab presses from the top to Run before).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_tab_and_enter_reach_run() {
    with_browser(|client, base| async move {
        open_ready(&client, &base).await;
        js(&client, "document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0);", vec![]).await;
        let body = client.find(e2e::fantoccini::Locator::Css("body")).await.expect("a body");
        body.send_keys("\u{E004}").await.expect("Tab");
        let first =
            js(&client, "return document.activeElement.className + '|' + document.activeElement.textContent", vec![])
                .await;
        assert_eq!(first.as_str(), Some("skip-link|Skip to Run"), "the first Tab reaches {first:?}");
        println!("screenshot: {}", screenshot(&client, "skip-link.png").await.display());
        let link = client.find(e2e::fantoccini::Locator::Css(".skip-link")).await.expect("the skip link");
        link.send_keys("\u{E007}").await.expect("Enter");
        let focused = js(&client, "return document.activeElement.id", vec![]).await;
        assert_eq!(focused.as_str(), Some("run"), "Enter on the skip link focuses {focused:?}");
        // The same at a phone's width, on the page opened afresh (Tab goes on from where the focus last was).
        client.set_window_size(360, 800).await.expect("a phone's width");
        open_ready(&client, &base).await;
        js(&client, "document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0);", vec![]).await;
        let body = client.find(e2e::fantoccini::Locator::Css("body")).await.expect("a body");
        body.send_keys("\u{E004}").await.expect("Tab");
        let first = js(&client, "return document.activeElement.className", vec![]).await;
        assert_eq!(first.as_str(), Some("skip-link"), "the first Tab at 360 px reaches {first:?}");
        println!("screenshot: {}", screenshot(&client, "skip-link-360.png").await.display());
    })
    .await;
}
