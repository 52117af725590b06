//! The desktop-grid paper figures (Anglano & Canonico 2009, §IV-C, Figs. 2–17) on the page: each bar (a mix and a
//! BoT selection policy) runs in a pool worker through `figures::run_bar`, the code and confidence rule of
//! `bagsim dg-figure` (95% intervals within 2.5% of the mean, seeds added up to a cap); bars grouped per mix, one
//! per policy, "unbounded" for saturated bars.

use crate::family::desktop_grid::bot_selection::BotSelection;
use crate::family::desktop_grid::claims::claims;
use crate::family::desktop_grid::figures::{figures, Bar, BarJob, CiRule, FigurePreset};
use crate::registry::{AnyFigureJob, AnyFigureResult};
use crate::ui::pool::{Job, OnDone, Pool};
use crate::ui::readings::badge;
use crate::ui::Lab;
use leptos::prelude::*;
use std::cell::RefCell;
use std::rc::Rc;

thread_local! {
    /// The workers computing the figure shown; dropping the pool ends them.
    static POOL: RefCell<Option<Pool>> = const { RefCell::new(None) };
}

/// An index a figure can show: name, title, value of a bar (mean, half-width), unit factor, unit, and whether a
/// saturated bar's value is unbounded (turnaround and waiting; the execution makespan of the finished BoTs and the
/// RWT stay numbers).
type Index = (&'static str, &'static str, fn(&Bar) -> (f64, f64), f64, &'static str, bool);

const INDICES: [Index; 4] = [
    ("tt", "Turnaround time (TT)", |b| b.turnaround, 1.0 / 3600.0, "h", true),
    ("ms", "Execution makespan", |b| b.makespan, 1.0 / 3600.0, "h", false),
    ("wt", "Waiting time (WT)", |b| b.waiting, 1.0 / 3600.0, "h", true),
    ("rwt", "Relative wasted time (RWT)", |b| b.rwt, 100.0, "%", false),
];

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// The figure as SVG: one group of bars per mix, one bar per policy, the 95% half-width as a whisker, "unbounded"
/// written on saturated bars and a bar not yet computed left empty.
fn figure_svg(f: &FigurePreset, bars: &[Option<Result<Bar, String>>], index: usize) -> String {
    let (_, title, pick, scale, unit, can_be_unbounded) = INDICES[index];
    let unbounded = |b: &Bar| can_be_unbounded && b.unbounded;
    let (w, h, left, top, bottom) = (760.0, 340.0, 60.0, 40.0, 60.0);
    let plot_h = h - top - bottom;
    let value = |b: &Bar| {
        let (m, hw) = pick(b);
        (m * scale, if hw.is_finite() { hw * scale } else { 0.0 })
    };
    let y_max = bars
        .iter()
        .flatten()
        .flatten()
        .filter(|b| !unbounded(b))
        .map(|b| {
            let (m, hw) = value(b);
            m + hw
        })
        .filter(|v| v.is_finite())
        .fold(0.0, f64::max);
    let y_max = if y_max > 0.0 { y_max * 1.1 } else { 1.0 };
    let y = |v: f64| top + plot_h * (1.0 - (v / y_max).clamp(0.0, 1.0));
    let group_w = (w - left - 10.0) / 4.0;
    let bar_w = group_w / 6.0;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" role=\"img\" \
         aria-label=\"Fig. {}: {} per mix and BoT selection policy\" font-family=\"sans-serif\" font-size=\"12\">\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\
         <text x=\"{left}\" y=\"18\" font-size=\"14\">Fig. {} — {} [{unit}]</text>",
        f.number,
        esc(title),
        f.number,
        esc(title)
    );
    for k in 0..=4 {
        let v = y_max * f64::from(k) / 4.0;
        let yy = y(v);
        s.push_str(&format!(
            "<line x1=\"{left}\" x2=\"{}\" y1=\"{yy:.1}\" y2=\"{yy:.1}\" stroke=\"#ddd\"/>\
             <text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            w - 10.0,
            left - 4.0,
            yy + 4.0,
            if v >= 100.0 { format!("{v:.0}") } else { format!("{v:.2}") }
        ));
    }
    for (g, mix) in f.mixes.iter().enumerate() {
        let gx = left + group_w * g as f64;
        for (p, _) in BotSelection::ALL.iter().enumerate() {
            let x = gx + bar_w * (p as f64 + 0.5);
            let colour = crate::ui::charts::PALETTE[p % crate::ui::charts::PALETTE.len()];
            let fill = format!("rgb({},{},{})", colour.0, colour.1, colour.2);
            match bars.get(g * 5 + p).and_then(Option::as_ref) {
                Some(Ok(b)) if unbounded(b) => s.push_str(&format!(
                    "<rect x=\"{x:.1}\" y=\"{top}\" width=\"{:.1}\" height=\"{plot_h}\" fill=\"none\" stroke=\"{fill}\" \
                     stroke-dasharray=\"4 3\"/><text transform=\"translate({:.1},{:.1}) rotate(-90)\" \
                     font-size=\"11\">unbounded</text>",
                    bar_w * 0.9,
                    x + bar_w * 0.6,
                    top + plot_h - 6.0
                )),
                Some(Ok(b)) => {
                    let (m, hw) = value(b);
                    let (y0, y1) = (y(m), y(0.0));
                    s.push_str(&format!(
                        "<rect x=\"{x:.1}\" y=\"{y0:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{fill}\">\
                         <title>{} {}: {m:.3} ± {hw:.3} {unit} ({} seeds{})</title></rect>",
                        bar_w * 0.9,
                        (y1 - y0).max(0.0),
                        mix.label(),
                        b.policy.label(),
                        b.seeds,
                        if b.cap_hit { ", seed cap reached" } else { "" }
                    ));
                    let cx = x + bar_w * 0.45;
                    s.push_str(&format!(
                        "<line x1=\"{cx:.1}\" x2=\"{cx:.1}\" y1=\"{:.1}\" y2=\"{:.1}\" stroke=\"black\"/>",
                        y(m - hw),
                        y(m + hw)
                    ));
                }
                Some(Err(_)) => s.push_str(&format!(
                    "<text x=\"{x:.1}\" y=\"{:.1}\" font-size=\"11\">failed</text>",
                    top + plot_h - 4.0
                )),
                None => {}
            }
        }
        s.push_str(&format!(
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            gx + group_w / 2.0,
            h - bottom + 18.0,
            mix.label()
        ));
    }
    for (p, policy) in BotSelection::ALL.iter().enumerate() {
        let colour = crate::ui::charts::PALETTE[p % crate::ui::charts::PALETTE.len()];
        let lx = left + 130.0 * p as f64;
        s.push_str(&format!(
            "<rect x=\"{lx}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"rgb({},{},{})\"/>\
             <text x=\"{}\" y=\"{}\">{}</text>",
            h - 22.0,
            colour.0,
            colour.1,
            colour.2,
            lx + 16.0,
            h - 12.0,
            policy.label()
        ));
    }
    s.push_str("</svg>");
    s
}

/// The "Paper figures" panel of the desktop-grid family.
#[component]
pub fn DgFigures(lab: Lab) -> impl IntoView {
    let all = figures();
    let chosen = RwSignal::new(2u32);
    let index = RwSignal::new(0usize);
    let cap = RwSignal::new(CiRule::default().max_seeds);
    let bars: RwSignal<Vec<Option<Result<Bar, String>>>> = RwSignal::new(Vec::new());
    let shown_figure = RwSignal::new(None::<u32>);
    let status = RwSignal::new(String::new());
    let cap_error = RwSignal::new(String::new());
    let start = move |_| {
        let Some(f) = figures().into_iter().find(|f| f.number == chosen.get_untracked()) else { return };
        let base = lab.scenario.with_untracked(|s| s.desktop_grid.clone().unwrap_or_default());
        let rule = CiRule { max_seeds: cap.get_untracked(), ..CiRule::default() };
        let jobs: Vec<Job> = f
            .mixes
            .iter()
            .flat_map(|&mix| BotSelection::ALL.iter().map(move |&policy| (mix, policy)))
            .map(|(mix, policy)| {
                let bar = BarJob { figure: f.number, mix, policy, base: base.clone(), rule };
                Job::Figure(AnyFigureJob::DesktopGrid(Box::new(bar)))
            })
            .collect();
        let n = jobs.len();
        bars.set(vec![None; n]);
        shown_figure.set(Some(f.number));
        status.set(format!("0 of {n} bars computed…"));
        let on_done: OnDone = Rc::new(move |i, outcome| {
            let r = outcome.figure().map(|AnyFigureResult::DesktopGrid(bar)| *bar);
            bars.update(|b| {
                if let Some(slot) = b.get_mut(i) {
                    *slot = Some(r);
                }
            });
            let (done, failed) = bars.with_untracked(|b| {
                (b.iter().filter(|x| x.is_some()).count(), b.iter().filter(|x| matches!(x, Some(Err(_)))).count())
            });
            let failed = if failed > 0 { format!(" ({failed} failed)") } else { String::new() };
            if done == n {
                status.set(format!("finished: {n} bars{failed}"));
                // Ends the workers after this handler returns.
                leptos::task::spawn_local(async {
                    POOL.with(|p| p.borrow_mut().take());
                });
            } else {
                status.set(format!("{done} of {n} bars computed…{failed}"));
            }
        });
        POOL.with(|p| *p.borrow_mut() = None);
        match Pool::start(jobs, on_done) {
            Ok(pool) => POOL.with(|p| *p.borrow_mut() = Some(pool)),
            Err(e) => status.set(e),
        }
    };
    let cancel = move |_| {
        POOL.with(|p| p.borrow_mut().take());
        status.set("cancelled".into());
    };
    let svg = move || {
        let n = shown_figure.get()?;
        let f = figures().into_iter().find(|f| f.number == n)?;
        Some(bars.with(|b| figure_svg(&f, b, index.get())))
    };
    let csv_rows = move || {
        bars.with(|b| {
            b.iter()
                .flatten()
                .flatten()
                .map(|b| {
                    let (_, _, pick, scale, unit, can_be_unbounded) = INDICES[index.get()];
                    let (m, hw) = pick(b);
                    let value = if can_be_unbounded && b.unbounded {
                        "unbounded".to_string()
                    } else {
                        format!("{:.3} ± {:.3} {unit}", m * scale, hw * scale)
                    };
                    view! {
                        <tr data-mix=b.mix.name() data-policy=b.policy.name() data-mean=m.to_string()
                            data-seeds=b.seeds.to_string() data-unbounded=b.unbounded.to_string()>
                            <td>{b.mix.label()}</td><td>{b.policy.label()}</td><td>{value}</td>
                            <td>{b.seeds}{if b.cap_hit { " (cap)" } else { "" }}</td>
                            <td>{format!("{} ({} of {} seeds)", b.saturation.label(), b.saturated_seeds, b.seeds)}</td></tr>
                    }
                })
                .collect_view()
        })
    };
    let findings = move || {
        let n = shown_figure.get()?;
        let f = figures().into_iter().find(|f| f.number == n)?;
        let done: Vec<Bar> =
            bars.with(|b| b.iter().all(Option::is_some).then(|| b.iter().flatten().flatten().cloned().collect()))?;
        let rows = claims(&f, &done)
            .into_iter()
            .map(|c| {
                view! {
                    <tr data-verdict=c.verdict.label()>
                        <td class="quote"><q>{c.paper}</q></td><td>{c.ours}</td>
                        <td><span class=badge(c.verdict)>{c.verdict.label()}</span></td>
                    </tr>
                }
            })
            .collect_view();
        Some(view! {
            <table class="readings-table" id="dg-figure-claims">
                <caption>"Paper and bagsim: the findings of §IV-C this figure can test"</caption>
                <thead><tr><th>"The paper reports"</th><th>"bagsim"</th><th>"Verdict"</th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
        })
    };
    view! {
        <details class="dg-figures" id="dg-figures">
            <summary>"Paper figures (Anglano & Canonico 2009, §IV-C)"</summary>
            <p class="help">"Each bar is a task mix and a BoT selection policy on the figure's configuration, with the other settings of the controls (number of BoTs, checkpoints, …). Seeds are added until every 95% confidence interval is within 2.5% of its mean, as in the paper, up to the cap; a bar is \"unbounded\" when the 95% interval of its seeds' queue growth lies above one BoT in ten (" <a href="docs/desktop_grid.html#saturation-of-a-bar-a-test-over-the-seeds" target="_blank">"docs/desktop_grid: Saturation"</a> "), and its execution makespan is still shown. The same code as " <code>"bagsim dg-figure"</code> "."</p>
            <div class="field">
                <label for="dg-figure">"Figure"</label>
                <select id="dg-figure" on:change=move |ev| { if let Ok(n) = event_target_value(&ev).parse() { chosen.set(n) } }>
                    {all.iter().map(|f| view! { <option value=f.number.to_string()>{format!("Fig. {}: {}", f.number, f.title)}</option> }).collect_view()}
                </select>
            </div>
            <div class="field">
                <label for="dg-figure-index">"Index shown"</label>
                <select id="dg-figure-index" on:change=move |ev| {
                    let v = event_target_value(&ev);
                    if let Some(i) = INDICES.iter().position(|x| x.0 == v) { index.set(i) }
                }>
                    {INDICES.iter().map(|x| view! { <option value=x.0>{x.1}</option> }).collect_view()}
                </select>
            </div>
            <div class="field">
                <label for="dg-figure-cap">"Most seeds per bar"</label>
                <input type="number" id="dg-figure-cap" min="3" max="30" step="1" prop:value=move || cap.get().to_string()
                    on:change=move |ev| {
                        match event_target_value(&ev).trim().parse::<usize>() {
                            Ok(v) if (3..=30).contains(&v) => { cap.set(v); cap_error.set(String::new()) }
                            _ => cap_error.set("a whole number from 3 to 30 (the paper's rule needs at least 3 seeds)".into()),
                        }
                    }/>
                <div class="field-error" data-field="dg-figure-cap">{move || cap_error.get()}</div>
            </div>
            <button id="dg-figure-run" on:click=start>"Run figure"</button>
            " "
            <button id="dg-figure-cancel" class="small" on:click=cancel>"Cancel"</button>
            <p id="dg-figure-status" aria-live="polite">{move || status.get()}</p>
            <div class="dg-figure-svg" id="dg-figure-svg" inner_html=move || svg().unwrap_or_default()></div>
            <table class="dg-figure-table">
                <caption>"The bars as numbers (mean ± 95% half-width)"</caption>
                <thead><tr><th>"Mix"</th><th>"Policy"</th><th>"Value"</th><th>"Seeds"</th><th>"Saturation (seeds saturated)"</th></tr></thead>
                <tbody>{csv_rows}</tbody>
            </table>
            {findings}
            <super::readings::DgReadings figure=chosen lab=lab cap=cap/>
        </details>
    }
}
