//! A spiky series summarised per window of time, for the charts where raw spikes tell nothing (busy processors,
//! replicas running): each window's mean, minimum and maximum.

/// A series summarised per window: (window middle, mean, min, max) of the points in each of `bins` equal windows
/// over [x0, x1] (windows with no point are left out).
pub fn windows(points: &[(f64, f64)], x0: f64, x1: f64, bins: usize) -> Vec<(f64, f64, f64, f64)> {
    let bins = bins.max(1);
    let w = (x1 - x0) / bins as f64;
    let mut acc = vec![(0.0f64, 0u32, f64::INFINITY, f64::NEG_INFINITY); bins];
    for &(x, y) in points {
        if !(w > 0.0 && y.is_finite()) {
            continue;
        }
        let i = (((x - x0) / w) as usize).min(bins - 1);
        let a = &mut acc[i];
        a.0 += y;
        a.1 += 1;
        a.2 = a.2.min(y);
        a.3 = a.3.max(y);
    }
    acc.iter()
        .enumerate()
        .filter(|(_, a)| a.1 > 0)
        .map(|(i, a)| (x0 + w * (i as f64 + 0.5), a.0 / f64::from(a.1), a.2, a.3))
        .collect()
}

/// A step of a zoomed view: a window over a span, as fractions of it (0 to 1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Zoom {
    /// Half as wide, around its middle.
    In,
    /// Twice as wide, around its middle (never wider than the span).
    Out,
    /// Half a window earlier.
    Earlier,
    /// Half a window later.
    Later,
    /// The whole span.
    All,
}

/// The narrowest window, as a fraction of the span.
pub const NARROWEST: f64 = 1.0 / 256.0;

/// The window after `step`, kept inside [0, 1] at its width (moved, not cut, at an edge).
pub fn zoom(window: (f64, f64), step: Zoom) -> (f64, f64) {
    let (a, b) = window;
    let (mid, w) = ((a + b) / 2.0, b - a);
    let (mid, w) = match step {
        Zoom::In => (mid, (w / 2.0).max(NARROWEST)),
        Zoom::Out => (mid, (w * 2.0).min(1.0)),
        Zoom::Earlier => (mid - w / 2.0, w),
        Zoom::Later => (mid + w / 2.0, w),
        Zoom::All => (0.5, 1.0),
    };
    let a = (mid - w / 2.0).clamp(0.0, 1.0 - w);
    (a, a + w)
}

#[cfg(test)]
mod tests {
    use super::{windows, zoom, Zoom};

    #[test]
    fn windows_keep_mean_min_and_max() {
        // Two windows over [0, 4): 0, 10 in the first (mean 5), 2, 4, 6 in the second (mean 4).
        let pts = [(0.5, 0.0), (1.5, 10.0), (2.5, 2.0), (3.0, 4.0), (3.9, 6.0)];
        assert_eq!(windows(&pts, 0.0, 4.0, 2), vec![(1.0, 5.0, 0.0, 10.0), (3.0, 4.0, 2.0, 6.0)]);
        // An empty window is left out, the last point (x = x1) falls in the last window.
        assert_eq!(windows(&[(0.0, 1.0), (4.0, 3.0)], 0.0, 4.0, 4), vec![(0.5, 1.0, 1.0, 1.0), (3.5, 3.0, 3.0, 3.0)]);
    }

    #[test]
    fn zoom_steps_halve_double_and_move_inside_the_span() {
        let all = (0.0, 1.0);
        assert_eq!(zoom(all, Zoom::In), (0.25, 0.75));
        assert_eq!(zoom((0.25, 0.75), Zoom::Earlier), (0.0, 0.5));
        // At the left edge a step earlier stays there; later moves by half a window.
        assert_eq!(zoom((0.0, 0.5), Zoom::Earlier), (0.0, 0.5));
        assert_eq!(zoom((0.0, 0.5), Zoom::Later), (0.25, 0.75));
        assert_eq!(zoom((0.5, 1.0), Zoom::Later), (0.5, 1.0));
        // Out from a window at the edge is moved back inside: twice 0.5 wide around 0.875 would pass 1.
        assert_eq!(zoom((0.75, 1.0), Zoom::Out), (0.5, 1.0));
        assert_eq!(zoom((0.25, 0.75), Zoom::Out), all);
        assert_eq!(zoom((0.1, 0.2), Zoom::All), all);
        // No narrower than 1/256 of the span, however many steps in.
        let mut w = all;
        for _ in 0..20 {
            w = zoom(w, Zoom::In);
        }
        assert!((w.1 - w.0 - 1.0 / 256.0).abs() < 1e-12, "{w:?}");
    }
}
