//! The page in front of a class (issue #10): axe-core finds no accessibility violation in any state a class sees;
//! at 820 px the results come before the controls; collapsing a section of the form keeps every value; projector
//! mode opened by link shows one chart at a time and steps through them with the arrow keys.
//!
//! Run with scripts/test-browser.sh (it builds the page first). axe-core comes from npm, pinned in
//! package-lock.json (`npm ci`, which scripts/setup.sh runs).

use std::time::Duration;

use e2e::fantoccini::actions::{InputSource, KeyAction, KeyActions};
use e2e::fantoccini::key::Key;
use e2e::fantoccini::Client;
use e2e::*;
use serde_json::{json, Value};

fn assert_no_violations(v: &[String], when: &str) {
    assert!(v.is_empty(), "axe-core finds violations {when}:\n  {}", v.join("\n  "));
}

/// The ids of the charts that are displayed (not `display: none`).
async fn visible_charts(client: &Client) -> Vec<String> {
    let v = js(
        client,
        "return [...document.querySelectorAll('#charts figure.chart canvas')].filter(c => c.getClientRects().length > 0
            && getComputedStyle(c.closest('figure')).display !== 'none').map(c => c.id);",
        vec![],
    )
    .await;
    v.as_array().map(|a| a.iter().filter_map(|x| x.as_str().map(String::from)).collect()).unwrap_or_default()
}

async fn press(client: &Client, key: Key) {
    let k: char = key.into();
    let keys = KeyActions::new("keyboard".into()).then(KeyAction::Down { value: k }).then(KeyAction::Up { value: k });
    client.perform_actions(keys).await.unwrap_or_else(|e| panic!("cannot press {key:?}: {e}"));
}

/// Every input and select of the scenario form, by position, with its id and value.
async fn form_values(client: &Client) -> Value {
    js(
        client,
        "return [...document.querySelectorAll('aside.controls input, aside.controls select')].map(e => [e.id || \
         e.className, e.value]);",
        vec![],
    )
    .await
}

/// The default view, a run in progress, the numbers of every chart, the sweep opened, and projector mode.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn axe_finds_no_violations_in_any_state() {
    with_browser(|client, base| async move {
        open_ready(&client, &base).await;
        let mut all = Vec::new();
        all.extend(axe_violations(&client, "on the default view").await);

        // A run slowed to a day per second, so that it is still running while axe looks.
        set_control(&client, "#submission-days", "3").await;
        set_control(&client, "#load", "0.5").await;
        set_control(&client, "#speed", "3").await;
        click(&client, "#run").await;
        wait_status(&client, &["running"], RUN_TIMEOUT).await;
        all.extend(axe_violations(&client, "during a run").await);
        assert_eq!(status(&client).await, "running", "the run ended before axe had looked at it");
        set_control(&client, "#speed", "0").await;
        wait_status(&client, &["finished"], RUN_TIMEOUT).await;

        // Every chart's numbers: the plotted values as tables.
        for (id, _) in CHART_IDS {
            click(&client, &format!("#{id}-numbers-toggle")).await;
            let rows = js(
                &client,
                "return document.querySelectorAll(arguments[0] + ' tbody tr').length;",
                vec![json!(format!("#{id}-numbers"))],
            )
            .await;
            assert!(rows.as_u64().unwrap_or(0) > 0, "#{id}'s numbers show no rows after a run");
        }
        // The class chart's table holds exactly what it plots: one row per size class with finished BoTs.
        let classes =
            js(&client, "return document.querySelectorAll('#chart-nsl-class-numbers tbody tr').length;", vec![]).await;
        let table_rows =
            js(&client, "return document.querySelectorAll('#class-table tbody tr').length - 1;", vec![]).await;
        println!("class chart numbers: {classes} rows; class table: {table_rows} classes");
        assert!(classes.as_u64() <= table_rows.as_u64(), "more classes in the numbers than in the report");
        all.extend(axe_violations(&client, "after a run, every chart's numbers shown").await);
        let shot = screenshot(&client, "classroom-numbers.png").await;
        println!("screenshot: {}", shot.display());

        js(&client, "document.querySelector('details.sweep').open = true; return true;", vec![]).await;
        all.extend(axe_violations(&client, "with the sweep open").await);

        click(&client, "#present").await;
        all.extend(axe_violations(&client, "in projector mode").await);
        assert_no_violations(&all, "(see above)");
    })
    .await;
}

const CHART_IDS: [(&str, ()); 5] =
    [("chart-queue", ()), ("chart-util", ()), ("chart-nsl-class", ()), ("chart-ms-class", ()), ("chart-cdf", ())];

/// At 820 px the run bar and the cards are on the first screen, above the first control.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_820_px_the_results_come_before_the_controls() {
    with_browser(|client, base| async move {
        client.set_window_size(820, 1000).await.expect("a window of 820 × 1000");
        open_ready(&client, &base).await;
        let v = js(
            &client,
            "const top = s => document.querySelector(s).getBoundingClientRect().top + scrollY;
             return { width: innerWidth, height: innerHeight, run: top('#run'), cards: top('#card-nsl'),
                      charts: top('#chart-queue'), control: top('aside.controls select, aside.controls input') };",
            vec![],
        )
        .await;
        println!("at 820 px: {v}");
        let n = |k: &str| v[k].as_f64().unwrap_or(f64::NAN);
        assert!(n("width") <= 820.0, "the window is not 820 px wide: {v}");
        assert!(n("run") < n("control"), "the run bar is not above the first control: {v}");
        assert!(
            n("cards") < n("control") && n("charts") < n("control"),
            "cards and charts are not above the controls: {v}"
        );
        assert!(n("cards") < n("height"), "the cards are not on the first screen: {v}");
        let shot = screenshot(&client, "classroom-820.png").await;
        println!("screenshot: {}", shot.display());

        // Wide again: the controls are beside the results, the run bar on the first screen.
        client.set_window_size(1400, 1000).await.expect("a window of 1400 × 1000");
        let wide = js(
            &client,
            "return document.querySelector('aside.controls').getBoundingClientRect().left < \
             document.querySelector('#run').getBoundingClientRect().left;",
            vec![],
        )
        .await;
        assert_eq!(wide, json!(true), "at 1400 px the controls should be left of the results");
    })
    .await;
}

/// Collapsing and expanding every section (and resizing the window meanwhile) keeps every value; a collapsed
/// section shows its values on one line.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn collapsing_a_section_keeps_every_value() {
    with_browser(|client, base| async move {
        open_ready(&client, &base).await;
        set_control(&client, "#load", "0.7").await;
        set_control(&client, "#seed", "42").await;
        set_control(&client, "#submission-days", "3").await;
        set_control(&client, "#architecture", "sep-c").await;
        set_control(&client, "#scheduling", "ECT").await;
        set_control(&client, "#inaccuracy", "50").await;
        set_control(&client, "#platform-preset", "custom").await;
        let before = form_values(&client).await;
        let scenario = scenario_in_url(&client).await;
        let sections = ["#sec-workload", "#sec-resources", "#sec-scheduling", "#sec-platform"];
        for s in sections {
            click(&client, &format!("{s} > summary")).await;
        }
        let state = js(
            &client,
            "return [...document.querySelectorAll('details.section')].map(d => [d.id, d.open, \
             d.querySelector('.section-summary').textContent]);",
            vec![],
        )
        .await;
        println!("collapsed: {state}");
        for d in state.as_array().expect("sections") {
            assert_eq!(d[1], json!(false), "{} did not collapse", d[0]);
        }
        let line = |i: usize| state[i][2].as_str().unwrap_or_default().to_string();
        assert!(line(0).contains("load 0.7") && line(0).contains("seed 42"), "workload summary: {}", line(0));
        assert!(line(1).contains("sep-c"), "resource management summary: {}", line(1));
        assert!(line(2).contains("ECT") && line(2).contains("50%"), "scheduling summary: {}", line(2));
        assert!(line(3).contains("custom"), "platform summary: {}", line(3));
        let hidden = js(&client, "return !document.querySelector('#load').checkVisibility();", vec![]).await;
        assert_eq!(hidden, json!(true), "a collapsed section's controls should be hidden");
        let shot = screenshot(&client, "classroom-collapsed.png").await;
        println!("screenshot: {}", shot.display());

        client.set_window_size(820, 1000).await.expect("820 px");
        tokio::time::sleep(Duration::from_millis(200)).await;
        client.set_window_size(1400, 1000).await.expect("1400 px");
        for s in sections {
            click(&client, &format!("{s} > summary")).await;
        }
        let after = form_values(&client).await;
        assert_eq!(before, after, "the form's values changed when its sections collapsed and opened");
        assert_eq!(scenario_in_url(&client).await, scenario, "the scenario changed");
        // Collapsed, a control can still be set (tests and scripts do): its value reaches the scenario.
        click(&client, "#sec-workload > summary").await;
        set_control(&client, "#load", "0.6").await;
        assert_eq!(scenario_in_url(&client).await.multi_cluster().unwrap().workload.load, Some(0.6));
    })
    .await;
}

/// `?present=1` opens projector mode: one chart at full width, stepped with the arrow keys, the cards in view.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn projector_mode_by_link_steps_through_the_charts_with_the_arrow_keys() {
    with_browser(|client, base| async move {
        let mut s = bagsim::scenario::Scenario::default();
        s.multi_cluster_mut().unwrap().workload.submission_period = 3.0 * bagsim::scenario::DAY;
        let url = format!("{base}?scenario={}&present=1", scenario_param(&s));
        open_ready(&client, &url).await;
        let on = js(&client, "return document.documentElement.classList.contains('present');", vec![]).await;
        assert_eq!(on, json!(true), "?present=1 did not turn projector mode on");
        assert_eq!(visible_charts(&client).await, ["chart-queue"], "projector mode should show the first chart alone");
        // The address keeps the mode, so a reload or "Copy link" stays in it.
        let (_, search) = location(&client).await;
        assert!(search.contains("scenario=") && search.ends_with("&present=1"), "{search}");
        run_to_the_end(&client).await;
        let width = js(
            &client,
            "const r = document.querySelector('#chart-queue').getBoundingClientRect(); return r.width / innerWidth;",
            vec![],
        )
        .await;
        assert!(width.as_f64().unwrap_or(0.0) > 0.9, "the chart is not at full width: {width}");
        assert!(non_white_pixels(&client, "#chart-queue").await > 1000, "the chart was not drawn");
        let shot = screenshot(&client, "classroom-present.png").await;
        println!("screenshot: {}", shot.display());

        let mut seen = Vec::new();
        for _ in 0..4 {
            press(&client, Key::Right).await;
            let v = visible_charts(&client).await;
            assert_eq!(v.len(), 1, "projector mode shows {v:?}");
            seen.push(v[0].clone());
        }
        assert_eq!(
            seen,
            ["chart-util", "chart-nsl-class", "chart-ms-class", "chart-cdf"],
            "→ steps through the charts"
        );
        assert!(non_white_pixels(&client, "#chart-cdf").await > 1000, "the CDF chart was not drawn");
        let shot = screenshot(&client, "classroom-present-cdf.png").await;
        println!("screenshot: {}", shot.display());
        press(&client, Key::Right).await;
        assert_eq!(visible_charts(&client).await, ["chart-queue"], "→ after the last chart wraps to the first");
        press(&client, Key::Left).await;
        assert_eq!(visible_charts(&client).await, ["chart-cdf"], "← steps back");
        // PageDown steps to the next chart as → does, and does not also scroll the page a screen down: the key
        // listener is not passive, so its preventDefault holds (a passive one logs "Unable to preventDefault inside
        // passive event listener"). A step brings the chart's stepper into view, so both scroll alike.
        let scrolled_by = |key: Key| {
            let client = client.clone();
            async move {
                js(&client, "window.scrollTo(0, 0); return true;", vec![]).await;
                press(&client, key).await;
                let v = visible_charts(&client).await;
                (v, js(&client, "return window.scrollY;", vec![]).await.as_f64())
            }
        };
        let (by_arrow, arrow_y) = scrolled_by(Key::Right).await;
        press(&client, Key::Left).await;
        let (by_page, page_y) = scrolled_by(Key::PageDown).await;
        assert_eq!(by_arrow, ["chart-queue"], "→ steps to the next chart");
        assert_eq!(by_page, ["chart-queue"], "PageDown steps as → does");
        assert_eq!(page_y, arrow_y, "PageDown scrolled the page beyond the step's own scroll");
        press(&client, Key::PageUp).await;
        let log = console_log(&client).await;
        println!("console: {log:?}");
        let noisy = |l: &&String| l.contains("passive event listener") || l.contains("deprecated parameters");
        assert!(!log.iter().any(|l| noisy(&l)), "console warnings: {log:?}");
        // The cards stay in view when the page is scrolled.
        js(&client, "window.scrollTo(0, document.body.scrollHeight); return true;", vec![]).await;
        let top = js(
            &client,
            "const r = document.querySelector('#card-nsl').getBoundingClientRect(); return r.top >= 0 && r.bottom <= \
             innerHeight;",
            vec![],
        )
        .await;
        assert_eq!(top, json!(true), "the cards are not in view after scrolling");
        // Escape leaves projector mode; every chart is back.
        press(&client, Key::Escape).await;
        assert_eq!(visible_charts(&client).await.len(), 5, "leaving projector mode should show every chart");
        let (_, search) = location(&client).await;
        assert!(!search.contains("present=1"), "the address still asks for projector mode: {search}");
    })
    .await;
}

/// The canvases shown in `container` (a family's results).
async fn visible_in(client: &Client, container: &str) -> Vec<String> {
    let v = js(
        client,
        "return [...document.querySelectorAll(arguments[0] + ' figure.chart canvas')].filter(c => \
         c.getClientRects().length > 0
            && getComputedStyle(c.closest('figure')).display !== 'none').map(c => c.id);",
        vec![json!(container)],
    )
    .await;
    v.as_array().map(|a| a.iter().filter_map(|x| x.as_str().map(String::from)).collect()).unwrap_or_default()
}

/// Projector mode for the desktop-grid and data-grid families: their cards, and their own charts one at a time,
/// drawn after a run and stepped with the arrow keys.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn projector_mode_shows_each_familys_own_charts() {
    with_browser(|client, base| async move {
        open_ready(&client, &base).await;
        for (family, container, cards, shot) in [
            ("desktop_grid", "#dg-results", "#dg-cards", "classroom-present-dg.png"),
            ("data_grid", "#dd-results", "#dd-cards", "classroom-present-dd.png"),
        ] {
            set_control(&client, "#family", family).await;
            if family == "desktop_grid" {
                set_control(&client, "#dg-bots", "30").await;
            }
            run_to_the_end(&client).await;
            click(&client, "#present").await;
            let first = visible_in(&client, container).await;
            assert_eq!(first.len(), 1, "{family}: projector mode shows {first:?}");
            assert!(non_white_pixels(&client, &format!("#{}", first[0])).await > 1000, "{family}: {first:?} not drawn");
            let card =
                js(&client, "return !!document.querySelector(arguments[0] + ' .card');", vec![json!(cards)]).await;
            assert_eq!(card, json!(true), "{family}: no cards in projector mode");
            println!("screenshot: {}", screenshot(&client, shot).await.display());
            press(&client, Key::Right).await;
            let next = visible_in(&client, container).await;
            assert_eq!(next.len(), 1, "{family}: after → projector mode shows {next:?}");
            assert_ne!(next, first, "{family}: → did not step to another chart");
            press(&client, Key::Escape).await;
        }
    })
    .await;
}
