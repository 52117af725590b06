//! Workload views in the page, for an imported trace or a scenario's generated workload: burstiness by the normalized
//! entropy of Minh & Wolters 2010 §V, arrivals over time and per 30-minute slot, the BoT size histogram (log–log),
//! the task runtime CDF and the users' shares against their Zipf fit. The numbers come from
//! `workload::views` in the worker, the same code as `bagsim generate|trace --views`; this file only draws them.

use super::axes::{self, Entry, Ticks};
use super::charts::{Pen, PALETTE};
use crate::workload::burstiness::{scale_label, JobsBurstiness, Temporal};
use crate::workload::views::WorkloadViews;
use leptos::prelude::*;
use plotters::prelude::*;

/// The backend of the views: SVG, its texts measured without a page layout.
pub(super) type Svg<'a> = super::measured::Measured<SVGBackend<'a>>;

/// How a drawing into an SVG string ended (its errors are the SVG writer's).
pub(super) type SvgResult = Result<(), DrawingAreaErrorKind<std::io::Error>>;

const W: u32 = 420;
const H: u32 = 260;

fn fmt_entropy(t: &Temporal) -> String {
    match (t.entropy, t.poisson) {
        (Some(e), Some(p)) => format!("{e:.3} ({p:.3})"),
        (Some(e), None) => format!("{e:.3}"),
        _ => "—".into(),
    }
}

/// Draws into an SVG string; a drawing error leaves a message instead of a chart.
pub(super) fn svg(draw: impl FnOnce(&DrawingArea<Svg<'_>, plotters::coord::Shift>) -> SvgResult) -> String {
    svg_sized((W, H), draw)
}

/// [`svg`] at another size.
pub(super) fn svg_sized(
    size: (u32, u32),
    draw: impl FnOnce(&DrawingArea<Svg<'_>, plotters::coord::Shift>) -> SvgResult,
) -> String {
    let mut out = String::new();
    let result = {
        let root = super::measured::Measured::new(SVGBackend::with_string(&mut out, size)).into_drawing_area();
        root.fill(&WHITE).and_then(|()| draw(&root)).and_then(|()| root.present())
    };
    match result {
        Ok(()) => out,
        Err(e) => format!("<p class=\"field-error\">cannot draw: {e}</p>"),
    }
}

fn bars(title: &str, x_label: &str, y_label: &str, values: &[u64], x_of: impl Fn(usize) -> f64, width: f64) -> String {
    let pen = Pen::svg();
    let max = values.iter().copied().max().unwrap_or(0).max(1) as f64;
    let n = values.len().max(1);
    let (x0, x1, y1) = (x_of(0), x_of(n - 1) + width, max * 1.05);
    let (xt, yt) = (Ticks::linear(x0, x1, axes::fit(pen, W)), Ticks::linear(0.0, y1, axes::fit(pen, H)));
    svg(|root| {
        let mut chart = axes::builder(root, pen, title, yt.widest())
            .build_cartesian_2d(axes::lin(x0, x1, &xt), axes::lin(0.0, y1, &yt))?;
        axes::mesh(&mut chart, pen, (x_label, &|v| xt.label(*v)), (y_label, &|v| yt.label(*v)))?;
        chart.draw_series(values.iter().enumerate().map(|(i, &v)| {
            let x = x_of(i);
            Rectangle::new([(x, 0.0), (x + width * 0.9, v as f64)], RGBColor(31, 119, 180).filled())
        }))?;
        Ok(())
    })
}

/// A named line of (x, y) points, in the palette's colour, dash and marker of its index.
type Series<'a> = (&'a str, Vec<(f64, f64)>);

/// Points on log–log axes (values ≤ 0 are left out), one label per decade; the names below the plot.
fn loglog(title: &str, x_label: &str, y_label: &str, series: &[Series]) -> String {
    let pen = Pen::svg();
    let pts = series.iter().flat_map(|s| s.1.iter()).filter(|p| p.0 > 0.0 && p.1 > 0.0);
    let (mut x0, mut x1, mut y0, mut y1) = (f64::INFINITY, 0.0f64, f64::INFINITY, 0.0f64);
    for &(x, y) in pts {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y0 = y0.min(y);
        y1 = y1.max(y);
    }
    if !x0.is_finite() {
        return "<p class=\"help\">nothing to draw</p>".into();
    }
    let (x1, y1) = (x1.max(x0 * 2.0), y1.max(y0 * 2.0));
    let (xt, yt) = (Ticks::log(x0, x1, axes::fit(pen, W)), Ticks::log(y0, y1, axes::fit(pen, H)));
    svg(|root| {
        let entries: Vec<Entry> = if series.len() > 1 {
            series.iter().enumerate().map(|(i, s)| Entry { label: s.0.to_string(), colour: i, marker: true }).collect()
        } else {
            Vec::new()
        };
        let area = axes::legend_below(root, pen, &entries)?;
        let mut chart = axes::builder(&area, pen, title, yt.widest())
            .build_cartesian_2d(axes::log(x0, x1, &xt), axes::log(y0, y1, &yt))?;
        axes::mesh(&mut chart, pen, (x_label, &|v| xt.label(*v)), (y_label, &|v| yt.label(*v)))?;
        for (i, (_, points)) in series.iter().enumerate() {
            let points: Vec<(f64, f64)> = points.iter().copied().filter(|p| p.0 > 0.0 && p.1 > 0.0).collect();
            axes::draw_line(&mut chart, pen, points.clone(), i)?;
            let c = PALETTE[i % PALETTE.len()];
            chart.draw_series(points.iter().map(|&p| Circle::new(p, 2, c.filled())))?;
        }
        Ok(())
    })
}

/// The CDF on a log x axis and a linear y axis.
fn cdf(v: &WorkloadViews) -> String {
    let pen = Pen::svg();
    let points: Vec<(f64, f64)> = v.runtime_cdf.iter().map(|p| (p.runtime.max(1e-3), p.fraction)).collect();
    let (x0, x1) = (points.first().map_or(1.0, |p| p.0), points.last().map_or(10.0, |p| p.0));
    let x1 = x1.max(x0 * 10.0);
    let (xt, yt) = (Ticks::log(x0, x1, axes::fit(pen, W)), Ticks::linear(0.0, 1.0, axes::fit(pen, H)));
    svg(|root| {
        let mut chart = axes::builder(root, pen, "Task runtime CDF", yt.widest())
            .build_cartesian_2d(axes::log(x0, x1, &xt), axes::lin(0.0, 1.0, &yt))?;
        axes::mesh(&mut chart, pen, ("runtime [s]", &|v| xt.label(*v)), ("fraction of tasks", &|v| yt.label(*v)))?;
        axes::draw_line(&mut chart, pen, points, 0)?;
        Ok(())
    })
}

/// Chart `i` (of [`CHARTS`]) as SVG.
fn chart(v: &WorkloadViews, i: usize) -> String {
    match i {
        0 => {
            let width = v.arrivals.width;
            let days = width / 86_400.0;
            bars(
                "Tasks arriving over time",
                &format!("time [days]; bins of {}", scale_label(width)),
                "tasks",
                &v.arrivals.tasks,
                move |i| i as f64 * days,
                days,
            )
        }
        1 => bars(
            "BoTs per 30-minute slot of the day",
            "hour of the day",
            "BoTs",
            &v.daily.bots,
            |i| i as f64 / 2.0,
            0.5,
        ),
        2 => {
            let sizes: Vec<(f64, f64)> =
                v.sizes.iter().filter(|b| b.bots > 0).map(|b| (f64::from(b.low), b.density)).collect();
            loglog("BoT sizes (log–log)", "BoT size (bin start)", "BoTs per size value", &[("BoTs", sizes)])
        }
        3 => cdf(v),
        _ => {
            let observed: Vec<(f64, f64)> = v.users.ranks.iter().map(|u| (f64::from(u.rank), u.share)).collect();
            let fitted: Vec<(f64, f64)> =
                v.users.ranks.iter().filter_map(|u| u.zipf.map(|z| (f64::from(u.rank), z))).collect();
            let zipf_label = v.users.fit.as_ref().map_or("Zipf fit".to_string(), |f| f.notation());
            loglog(
                "Users' share of the BoTs",
                "user rank",
                "share of BoTs",
                &[("observed", observed), (zipf_label.as_str(), fitted)],
            )
        }
    }
}

/// How many charts [`chart`] draws.
const CHARTS: usize = 5;

/// Where the chain of chart drawings stands.
#[derive(Clone, Copy)]
struct Chain {
    views: Signal<Option<WorkloadViews>>,
    charts: RwSignal<Vec<String>>,
    /// Bumped for new views: a chain of older views stops.
    generation: RwSignal<u64>,
    /// The longest a chart took to draw and show, ms (the browser benchmark reads it).
    slowest: RwSignal<f64>,
}

/// Draws chart `i` in a task of its own, then schedules the next: all five in one task would hold the main thread
/// for over 50 ms.
fn draw_chain(c: Chain, mine: u64, i: usize) {
    if i >= CHARTS {
        return;
    }
    set_timeout(
        move || {
            if c.generation.get_untracked() != mine {
                return;
            }
            let t0 = crate::ui::lab::now_ms();
            if let Some(svg) = c.views.with_untracked(|v| v.as_ref().map(|v| chart(v, i))) {
                c.charts.update(|all| all.push(svg));
                let ms = crate::ui::lab::now_ms() - t0;
                c.slowest.update(|m| *m = m.max(ms));
                draw_chain(c, mine, i + 1);
            }
        },
        std::time::Duration::ZERO,
    );
}

/// The window's property of the views shown under `id`, and the event fired when they change.
fn key(id: &str) -> (String, &'static str) {
    (format!("bagsimViews:{id}"), "bagsim-views")
}

/// The page's side: hands the second module, which draws them (`lazy.rs`), the views to show under `id`, now and
/// whenever they change.
pub fn publish(id: &'static str, views: Signal<Option<WorkloadViews>>, jobs: Signal<Option<JobsBurstiness>>) {
    Effect::new(move |_| {
        let data = views.with(|v| jobs.with(|j| serde_wasm_bindgen::to_value(&(v, j))));
        if let Ok(data) = data {
            super::split::window::post_value(&key(id).0, key(id).1, &data);
        }
    });
}

/// The second module's side: the views the page shows under `id`, kept in step.
#[allow(clippy::type_complexity)]
pub fn mirror(id: &'static str) -> (Signal<Option<WorkloadViews>>, Signal<Option<JobsBurstiness>>) {
    let read = move || {
        serde_wasm_bindgen::from_value::<(Option<WorkloadViews>, Option<JobsBurstiness>)>(
            super::split::window::read_value(&key(id).0),
        )
        .unwrap_or((None, None))
    };
    let (v, j) = read();
    let (views, jobs) = (RwSignal::new(v), RwSignal::new(j));
    super::split::window::listen(key(id).1, move || {
        let (v, j) = read();
        if views.with_untracked(|x| *x != v) {
            views.set(v);
        }
        if jobs.with_untracked(|x| *x != j) {
            jobs.set(j);
        }
    });
    (views.into(), jobs.into())
}

/// The burstiness table, the charts' SVG, and the data the test reads (`data-*`).
#[component]
pub fn ViewsPanel(
    views: Signal<Option<WorkloadViews>>,
    jobs: Signal<Option<JobsBurstiness>>,
    id: &'static str,
) -> impl IntoView {
    let c =
        Chain { views, charts: RwSignal::new(Vec::new()), generation: RwSignal::new(0), slowest: RwSignal::new(0.0) };
    let (charts, slowest) = (c.charts, c.slowest);
    Effect::new(move |_| {
        views.track();
        let mine = c.generation.get_untracked() + 1;
        c.generation.set(mine);
        c.charts.set(Vec::new());
        draw_chain(c, mine, 0);
    });
    move || {
        views.with(|v| {
            v.as_ref().map(|v| {
                let j = jobs.get();
                let rows: Vec<(String, String, String, String)> = v
                    .burstiness
                    .iter()
                    .map(|b| {
                        let trace_jobs = j
                            .as_ref()
                            .and_then(|j| j.temporal.iter().find(|t| t.interval == b.interval))
                            .map_or("".to_string(), fmt_entropy);
                        (scale_label(b.interval), fmt_entropy(&b.tasks), fmt_entropy(&b.bots), trace_jobs)
                    })
                    .collect();
                let has_jobs = j.is_some();
                let spatial = j.as_ref().and_then(|j| j.spatial.entropy).map(|e| {
                    let s = &j.as_ref().expect("jobs").spatial;
                    format!(
                        "Spatial burstiness of the trace's jobs: {e:.3} (N = {} processors, {} widths used).",
                        s.max_processors, s.widths
                    )
                });
                view! {
                    <div
                        class="views"
                        id=id
                        data-bots=v.bots.to_string()
                        data-tasks=v.tasks.to_string()
                        data-chart-ms=move || format!("{:.1}", slowest.get())
                    >
                        <h3>"Burstiness (normalized entropy, Minh & Wolters 2010 Eq. 4)"</h3>
                        <p class="help">
                            "1 = arrivals spread evenly over the intervals of length T, 0 = all in one. In \
                                parentheses, what as many arrivals from a Poisson process (no burstiness) give over \
                                the same intervals: with few arrivals per interval even a Poisson process stays below \
                                1."
                        </p>
                        <table class="mini burstiness">
                            <thead>
                                <tr>
                                    <th>"T"</th>
                                    <th>"tasks"</th>
                                    <th>"BoTs"</th>
                                    {has_jobs.then(|| view! { <th>"trace jobs"</th> })}
                                </tr>
                            </thead>
                            <tbody>
                                {rows
                                    .into_iter()
                                    .map(|(t, a, b, c)| {
                                        view! {
                                            <tr data-t=t.clone()>
                                                <td>{t.clone()}</td>
                                                <td>{a}</td>
                                                <td>{b}</td>
                                                {has_jobs.then(|| view! { <td>{c}</td> })}
                                            </tr>
                                        }
                                    })
                                    .collect_view()}
                            </tbody>
                        </table>
                        {spatial.map(|s| view! { <p class="help">{s}</p> })}
                        <div class="views-charts">
                            {move || {
                                charts.get().into_iter().map(|svg| view! { <div inner_html=svg></div> }).collect_view()
                            }}
                        </div>
                    </div>
                }
            })
        })
    }
}
