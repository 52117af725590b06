//! The data against every candidate fit (Iosup et al. 2008 §3.1): per characteristic, the empirical CDF and the CDF
//! of each of the six fitted families, with their KS D in a table (the charts' text alternative) and in the legend.
//! The curves come from `workload::fit_workload` in the worker, the same code as `bagsim trace --candidates`; this
//! file only draws them.

use super::axes::{self, Entry, Ticks};
use super::chart_style::Pen;
use crate::workload::fit::notation;
use crate::workload::fit_workload::{CandidateCurves, FitCandidates};
use leptos::prelude::*;

/// One characteristic's chart as SVG: the data's CDF in black, each fitted family in its colour and dash.
pub fn chart(c: &CandidateCurves) -> String {
    let pen = Pen::svg();
    let (Some(&x0), Some(&x1)) = (c.x.first(), c.x.last()) else {
        return "<p class=\"help\">no data</p>".into();
    };
    let (x0, x1) = if x1 > x0 { (x0, x1) } else { (x0 - 1.0, x0 + 1.0) };
    let pad = (x1 - x0) * 0.03;
    let (lo, hi) = (x0 - pad, x1 + pad);
    let (xt, yt) = (Ticks::linear(lo, hi, axes::fit(pen, 420)), Ticks::linear(0.0, 1.0, 5));
    // The legend (seven entries) below the plot: a taller chart than the views'.
    super::views::svg_sized((420, 340), |root| {
        let mut entries: Vec<Entry> = c
            .candidates
            .iter()
            .enumerate()
            .filter_map(|(i, k)| {
                let f = k.fit.as_ref()?;
                let label = format!("{}{} D={:.3}", if k.best { "★ " } else { "" }, k.family.name(), f.ks);
                Some(Entry { label, colour: i, marker: false })
            })
            .collect();
        // The data: the palette's black (index 6, which no family of the six uses), in its dash.
        entries.push(Entry { label: format!("data (n = {})", c.n), colour: 6, marker: false });
        let area = axes::legend_below(root, pen, &entries)?;
        let title = format!("{}: data and every fit", c.characteristic);
        let mut chart = axes::builder(&area, pen, &title, yt.widest())
            .build_cartesian_2d(axes::lin(lo, hi, &xt), axes::lin(0.0, 1.0, &yt))?;
        axes::mesh(&mut chart, pen, (c.axis.as_str(), &|v| xt.label(*v)), ("CDF", &|v| yt.label(*v)))?;
        for (i, k) in c.candidates.iter().enumerate() {
            if k.fit.is_none() {
                continue;
            }
            // The runs' palette and dashes (colour-blind safe, told apart without colour too), one per family.
            let points: Vec<(f64, f64)> = c.x.iter().copied().zip(k.cdf.iter().copied()).collect();
            axes::draw_line(&mut chart, pen, points, i)?;
        }
        // The data last, on top: a step at each point (right-continuous empirical CDF).
        let mut steps = Vec::with_capacity(2 * c.x.len());
        let mut prev = 0.0;
        for (&x, &y) in c.x.iter().zip(&c.empirical) {
            steps.push((x, prev));
            steps.push((x, y));
            prev = y;
        }
        axes::draw_line(&mut chart, pen, steps, 6)
    })
}

/// Draws chart `i` in a task of its own, then the next: five charts in one task could hold the main thread > 50 ms.
fn draw_chain(candidates: Signal<Option<FitCandidates>>, charts: RwSignal<Vec<String>>, gen: RwSignal<u64>, mine: u64) {
    set_timeout(
        move || {
            if gen.get_untracked() != mine {
                return;
            }
            let i = charts.with_untracked(Vec::len);
            let svg = candidates.with_untracked(|c| c.as_ref().and_then(|c| c.characteristics.get(i).map(chart)));
            if let Some(svg) = svg {
                charts.update(|all| all.push(svg));
                draw_chain(candidates, charts, gen, mine);
            }
        },
        std::time::Duration::ZERO,
    );
}

/// Every candidate of every characteristic: a table of notation and KS D (the selected family marked) and a chart
/// of the data against each fit.
#[component]
pub fn CandidatesPanel(candidates: Signal<Option<FitCandidates>>, id: &'static str) -> impl IntoView {
    let charts = RwSignal::new(Vec::<String>::new());
    let gen = RwSignal::new(0u64);
    Effect::new(move |_| {
        candidates.track();
        let mine = gen.get_untracked() + 1;
        gen.set(mine);
        charts.set(Vec::new());
        draw_chain(candidates, charts, gen, mine);
    });
    move || {
        candidates.with(|c| {
            c.as_ref().map(|c| {
                let blocks = c
                    .characteristics
                    .iter()
                    .enumerate()
                    .map(|(i, ch)| {
                        let rows = ch
                            .candidates
                            .iter()
                            .map(|k| {
                                let (dist, d) = match &k.fit {
                                    Some(f) => (notation(&f.dist), format!("{:.4}", f.ks)),
                                    None => (format!("not fitted: {}", k.error.as_deref().unwrap_or("")), "—".into()),
                                };
                                let family = format!("{}{}", if k.best { "★ " } else { "" }, k.family.name());
                                view! {
                                    <tr class:best=k.best data-family=k.family.name() data-d=d.clone()>
                                        <td>{family}</td>
                                        <td>{dist}</td>
                                        <td>{d.clone()}</td>
                                    </tr>
                                }
                            })
                            .collect_view();
                        view! {
                            <div class="candidate-block">
                                <table class="mini candidates" data-characteristic=ch.characteristic.clone()>
                                    <caption>{format!("{} ({} observations)", ch.characteristic, ch.n)}</caption>
                                    <thead>
                                        <tr>
                                            <th scope="col">"family"</th>
                                            <th scope="col">"fitted"</th>
                                            <th scope="col">"KS D"</th>
                                        </tr>
                                    </thead>
                                    <tbody>{rows}</tbody>
                                </table>
                                <div
                                    class="candidate-chart"
                                    inner_html=move || charts.with(|c| c.get(i).cloned().unwrap_or_default())
                                ></div>
                            </div>
                        }
                    })
                    .collect_view();
                view! {
                    <details class="candidates-panel" id=id data-characteristics=c.characteristics.len().to_string()>
                        <summary>"Every candidate fit: the data against each family (Iosup et al. 2008 §3.1)"</summary>
                        <p class="help">
                            "For each characteristic, the six families fitted by maximum likelihood and their \
                                Kolmogorov–Smirnov distance D to the data; ★ marks the lowest D, the one in the row \
                                above. The black dashed step line is the data's CDF."
                        </p>
                        {blocks}
                    </details>
                }
            })
        })
    }
}
