//! Means with 95% intervals as a bar chart in SVG, written by hand so that the CLI and the page draw the same bytes
//! for a paper figure of bars: groups side by side (a mix, a setting), one bar per series (a policy, a scheme), the
//! half-width as a whisker. A bar may be unbounded (a dashed frame: the mean grows with the run), failed, or not
//! computed yet (left empty). Knows no family: each family's figure code fills a `Bars`.

use std::fmt::Write;

/// The colours of the series, in order: the page's palette (Okabe–Ito), so a figure reads the same as its charts.
pub const COLOURS: [(u8, u8, u8); 8] = [
    (0, 114, 178),
    (213, 94, 0),
    (0, 158, 115),
    (204, 121, 167),
    (230, 159, 0),
    (86, 180, 233),
    (0, 0, 0),
    (120, 120, 120),
];

/// One bar.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    /// A mean and its 95% interval's bounds (NaN: no interval), in the chart's unit (empty: the title names it);
    /// `note` is its tooltip's tail (e.g. "5 seeds").
    Value {
        mean: f64,
        low: f64,
        high: f64,
        note: String,
    },
    Unbounded,
    Failed,
    Missing,
}

/// A chart: `cells[g * series.len() + s]` is series `s` in group `g`.
pub struct Bars {
    pub title: String,
    pub unit: String,
    pub groups: Vec<String>,
    pub series: Vec<String>,
    pub cells: Vec<Cell>,
}

const W: f64 = 760.0;
const H: f64 = 340.0;
const LEFT: f64 = 60.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 60.0;

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

impl Bars {
    /// The chart's SVG element, `W` × `H`.
    pub fn svg(&self) -> String {
        let plot_h = H - TOP - BOTTOM;
        let n = self.series.len().max(1);
        let y_max = self
            .cells
            .iter()
            .filter_map(|c| match c {
                Cell::Value { mean, high, .. } => Some(if high.is_finite() { mean.max(*high) } else { *mean }),
                _ => None,
            })
            .filter(|v| v.is_finite())
            .fold(0.0, f64::max);
        let y_max = if y_max > 0.0 { y_max * 1.1 } else { 1.0 };
        let y = |v: f64| TOP + plot_h * (1.0 - (v / y_max).clamp(0.0, 1.0));
        let group_w = (W - LEFT - 10.0) / self.groups.len().max(1) as f64;
        let bar_w = group_w / (n + 1) as f64;
        let mut s = String::new();
        let _ = write!(
            s,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {W} {H}\" width=\"{W}\" height=\"{H}\" \
             role=\"img\" aria-label=\"{}\" font-family=\"sans-serif\" font-size=\"12\"><rect width=\"100%\" \
             height=\"100%\" fill=\"white\"/><text x=\"{LEFT}\" y=\"18\" font-size=\"14\">{}{}</text>",
            esc(&self.title),
            esc(&self.title),
            if self.unit.is_empty() { String::new() } else { format!(" [{}]", esc(&self.unit)) }
        );
        let ticks = super::ticks::Ticks::linear(0.0, y_max, 5);
        for &v in &ticks.values {
            let yy = y(v);
            let _ = write!(
                s,
                "<line x1=\"{LEFT}\" x2=\"{}\" y1=\"{yy:.1}\" y2=\"{yy:.1}\" stroke=\"#ddd\"/><text x=\"{}\" \
                 y=\"{:.1}\" text-anchor=\"end\">{}</text>",
                W - 10.0,
                LEFT - 4.0,
                yy + 4.0,
                ticks.label(v)
            );
        }
        for (g, group) in self.groups.iter().enumerate() {
            let gx = LEFT + group_w * g as f64;
            for (k, name) in self.series.iter().enumerate() {
                let x = gx + bar_w * (k as f64 + 0.5);
                let (r, gr, b) = COLOURS[k % COLOURS.len()];
                let fill = format!("rgb({r},{gr},{b})");
                match self.cells.get(g * n + k) {
                    Some(Cell::Unbounded) => {
                        let _ = write!(
                            s,
                            "<rect x=\"{x:.1}\" y=\"{TOP}\" width=\"{:.1}\" height=\"{plot_h}\" fill=\"none\" \
                             stroke=\"{fill}\" stroke-dasharray=\"4 3\"/><text transform=\"translate({:.1},{:.1}) \
                             rotate(-90)\" font-size=\"11\">unbounded</text>",
                            bar_w * 0.9,
                            x + bar_w * 0.6,
                            TOP + plot_h - 6.0
                        );
                    }
                    Some(Cell::Value { mean, low, high, note }) if mean.is_finite() => {
                        let (y0, y1) = (y(*mean), y(0.0));
                        let (lo, hi, range) = if low.is_finite() && high.is_finite() {
                            (*low, *high, format!(" (95%: {low:.3} – {high:.3})"))
                        } else {
                            (*mean, *mean, String::new())
                        };
                        let _ = write!(
                            s,
                            "<rect x=\"{x:.1}\" y=\"{y0:.1}\" width=\"{:.1}\" height=\"{:.1}\" \
                             fill=\"{fill}\"><title>{} {}: {mean:.3}{range} {} ({})</title></rect>",
                            bar_w * 0.9,
                            (y1 - y0).max(0.0),
                            esc(group),
                            esc(name),
                            esc(&self.unit),
                            esc(note)
                        );
                        let cx = x + bar_w * 0.45;
                        let _ = write!(
                            s,
                            "<line x1=\"{cx:.1}\" x2=\"{cx:.1}\" y1=\"{:.1}\" y2=\"{:.1}\" stroke=\"black\"/>",
                            y(lo),
                            y(hi)
                        );
                    }
                    Some(Cell::Failed) => {
                        let _ = write!(
                            s,
                            "<text x=\"{x:.1}\" y=\"{:.1}\" font-size=\"11\">failed</text>",
                            TOP + plot_h - 4.0
                        );
                    }
                    _ => {}
                }
            }
            let _ = write!(
                s,
                "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
                gx + group_w / 2.0,
                H - BOTTOM + 18.0,
                esc(group)
            );
        }
        let legend_w = (W - LEFT) / n as f64;
        for (k, name) in self.series.iter().enumerate() {
            let (r, g, b) = COLOURS[k % COLOURS.len()];
            let lx = LEFT + legend_w * k as f64;
            let _ = write!(
                s,
                "<rect x=\"{lx:.1}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"rgb({r},{g},{b})\"/><text x=\"{:.1}\" \
                 y=\"{}\">{}</text>",
                H - 22.0,
                lx + 16.0,
                H - 12.0,
                esc(name)
            );
        }
        s.push_str("</svg>");
        s
    }
}

/// Charts one under the other in one SVG document (a figure of several indices).
pub fn stack(charts: &[Bars]) -> String {
    let height = H * charts.len() as f64;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {W} {height}\" width=\"{W}\" height=\"{height}\">"
    );
    for (i, c) in charts.iter().enumerate() {
        // A nested <svg> is placed by its x and y.
        s.push_str(&c.svg().replacen("<svg ", &format!("<svg x=\"0\" y=\"{}\" ", H * i as f64), 1));
    }
    s.push_str("</svg>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chart(cells: Vec<Cell>) -> Bars {
        Bars {
            title: "T <&>".into(),
            unit: "h".into(),
            groups: vec!["a".into(), "b".into()],
            series: vec!["x".into(), "y".into()],
            cells,
        }
    }

    fn value(mean: f64, half_width: f64) -> Cell {
        Cell::Value { mean, low: mean - half_width, high: mean + half_width, note: "2 seeds".into() }
    }

    #[test]
    fn every_kind_of_bar_is_drawn_as_itself() {
        let s = chart(vec![value(10.0, 1.0), Cell::Unbounded, Cell::Failed, Cell::Missing]).svg();
        assert_eq!(s.matches("<title>").count(), 1, "{s}");
        assert!(s.contains("a x: 10.000 (95%: 9.000 – 11.000) h (2 seeds)"), "{s}");
        assert_eq!(s.matches(">unbounded<").count(), 1);
        assert_eq!(s.matches(">failed<").count(), 1);
        assert!(s.contains("T &lt;&amp;&gt;") && !s.contains("T <&>"));
        // The axis reaches 10% above the highest whisker (11 × 1.1 = 12.1), its ticks are round: 0, 5, 10.
        let ticks: Vec<&str> = s.split("text-anchor=\"end\">").skip(1).map(|t| &t[..t.find('<').unwrap()]).collect();
        assert_eq!(ticks, ["0", "5", "10"], "{s}");
    }

    #[test]
    fn a_chart_of_no_value_has_an_axis_and_no_number_that_is_not_one() {
        let s = chart(vec![value(f64::NAN, f64::NAN), Cell::Missing, Cell::Missing, Cell::Missing]).svg();
        assert!(!s.contains("NaN") && !s.contains("inf"), "{s}");
        assert!(s.contains(">0.2<") && s.contains(">1.0<"), "{s}");
    }

    #[test]
    fn stacked_charts_are_placed_one_under_the_other() {
        let s = stack(&[chart(vec![Cell::Missing; 4]), chart(vec![Cell::Missing; 4])]);
        assert!(s.contains("<svg x=\"0\" y=\"0\" ") && s.contains(&format!("<svg x=\"0\" y=\"{H}\" ")), "{s}");
        assert_eq!(s.matches("<svg").count(), 3);
    }
}
