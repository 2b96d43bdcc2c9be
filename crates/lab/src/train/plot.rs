//! The loss curve of a training run (`OUT.loss.svg`): the mean loss on the training
//! positions and on the held-out ones after each epoch. A plain SVG file.

use std::fmt::Write as _;

use crate::svg::{escape, tick};

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 360.0;
const LEFT: f64 = 80.0;
const RIGHT: f64 = 150.0;
const TOP: f64 = 50.0;
const BOTTOM: f64 = 50.0;

/// The picture of `losses` (training, held out) by epoch.
pub(crate) fn loss_curve(title: &str, losses: &[(f64, f64)]) -> String {
    let values: Vec<f64> = losses
        .iter()
        .flat_map(|&(t, h)| [t, h])
        .filter(|v| v.is_finite())
        .collect();
    let hi = values.iter().copied().fold(0.0f64, f64::max).max(1e-9) * 1.05;
    let (w, h) = (WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM);
    let n = losses.len().max(2) as f64 - 1.0;
    let x = |i: usize| LEFT + w * i as f64 / n;
    let y = |v: f64| TOP + h * (1.0 - v / hi);
    let mut svg = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif"><rect width="100%" height="100%" fill="white"/><text x="{LEFT}" y="28" font-size="15">{}</text>"##,
        escape(title)
    );
    // Axes with five ticks on each.
    let _ = write!(
        svg,
        r##"<path d="M{LEFT},{TOP} V{} H{}" stroke="#333" fill="none"/>"##,
        TOP + h,
        LEFT + w
    );
    for k in 0..=4 {
        let v = hi * k as f64 / 4.0;
        let _ = write!(
            svg,
            r##"<text x="{}" y="{:.1}" font-size="12" text-anchor="end">{}</text><path d="M{},{:.1} h{w}" stroke="#eee"/>"##,
            LEFT - 6.0,
            y(v) + 4.0,
            tick(v, hi),
            LEFT,
            y(v)
        );
        let e = (n * k as f64 / 4.0).round() as usize;
        let _ = write!(
            svg,
            r##"<text x="{:.1}" y="{}" font-size="12" text-anchor="middle">{}</text>"##,
            x(e),
            TOP + h + 18.0,
            e + 1
        );
    }
    let _ = write!(
        svg,
        r##"<text x="{:.1}" y="{}" font-size="12" text-anchor="middle">epoch</text><text x="18" y="{:.1}" font-size="12" transform="rotate(-90 18 {:.1})" text-anchor="middle">mean squared error</text>"##,
        LEFT + w / 2.0,
        HEIGHT - 10.0,
        TOP + h / 2.0,
        TOP + h / 2.0
    );
    for (k, (name, colour)) in [("training", "#1f77b4"), ("held out", "#d62728")]
        .into_iter()
        .enumerate()
    {
        let points: Vec<String> = losses
            .iter()
            .enumerate()
            .map(|(i, &(t, hd))| {
                let v = if k == 0 { t } else { hd };
                format!("{:.1},{:.1}", x(i), y(v))
            })
            .collect();
        let _ = write!(
            svg,
            r##"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2"/><text x="{}" y="{}" font-size="13" fill="{colour}">{name}</text>"##,
            points.join(" "),
            LEFT + w + 12.0,
            TOP + 20.0 + 20.0 * k as f64
        );
    }
    if let Some(&(t, hd)) = losses.last() {
        let _ = write!(
            svg,
            r##"<text x="{}" y="{}" font-size="12">last: {}</text><text x="{}" y="{}" font-size="12">held: {}</text>"##,
            LEFT + w + 12.0,
            TOP + 80.0,
            tick(t, t.abs().max(1e-9) / 100.0),
            LEFT + w + 12.0,
            TOP + 98.0,
            tick(hd, hd.abs().max(1e-9) / 100.0)
        );
    }
    svg.push_str("</svg>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_curve_has_both_lines_and_rounded_ticks() {
        let svg = loss_curve("t & u", &[(0.5, 0.6), (0.3, 0.45), (0.2, 0.41)]);
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert!(svg.contains("t &amp; u"));
        assert!(!svg.contains("0.6300000"), "ticks are rounded");
    }
}
