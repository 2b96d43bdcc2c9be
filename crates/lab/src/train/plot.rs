//! The loss curve of a training run (`OUT.loss.svg`): the mean loss on the training
//! positions and on the held-out ones after each epoch. A plain SVG file.

use std::fmt::Write as _;

use crate::svg::{escape, nice_ticks, tick};

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 360.0;
const LEFT: f64 = 80.0;
const RIGHT: f64 = 150.0;
const TOP: f64 = 50.0;
const BOTTOM: f64 = 50.0;

/// The picture of `losses` (training, and held out where positions were held out) by
/// epoch: round ticks on both axes, the held-out line only where there is one.
pub(crate) fn loss_curve(title: &str, losses: &[(f64, Option<f64>)]) -> String {
    let values: Vec<f64> = losses
        .iter()
        .flat_map(|&(t, h)| [Some(t), h])
        .flatten()
        .filter(|v| v.is_finite())
        .collect();
    let top = values.iter().copied().fold(0.0f64, f64::max).max(1e-9);
    let y_ticks = nice_ticks(0.0, top, 4);
    let hi = *y_ticks.last().expect("ticks");
    let (w, h) = (WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM);
    let epochs = losses.len().max(2);
    // Epoch 1 at the left edge, the last at the right.
    let x = |epoch: f64| LEFT + w * (epoch - 1.0) / (epochs as f64 - 1.0);
    let y = |v: f64| TOP + h * (1.0 - v / hi);
    let mut svg = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif"><rect width="100%" height="100%" fill="white"/><text x="{LEFT}" y="28" font-size="15">{}</text>"##,
        escape(title)
    );
    let _ = write!(
        svg,
        r##"<path d="M{LEFT},{TOP} V{} H{}" stroke="#333" fill="none"/>"##,
        TOP + h,
        LEFT + w
    );
    let step = y_ticks[1] - y_ticks[0];
    for &v in &y_ticks {
        let _ = write!(
            svg,
            r##"<text x="{}" y="{:.1}" font-size="12" text-anchor="end">{}</text><path d="M{},{:.1} h{w}" stroke="#eee"/>"##,
            LEFT - 6.0,
            y(v) + 4.0,
            tick(v, step * 10.0),
            LEFT,
            y(v)
        );
    }
    // Whole epochs, a round step apart (1 is where the axis starts, labelled or not).
    let round = nice_ticks(1.0, epochs as f64, 4);
    let epoch_ticks: Vec<f64> = if round[1] - round[0] < 1.0 {
        (1..=epochs).map(|e| e as f64).collect()
    } else {
        round
            .into_iter()
            .filter(|&e| e >= 1.0 && e <= epochs as f64)
            .collect()
    };
    for e in epoch_ticks {
        let _ = write!(
            svg,
            r##"<text x="{:.1}" y="{}" font-size="12" text-anchor="middle">{e}</text>"##,
            x(e),
            TOP + h + 18.0,
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
    lines(&mut svg, losses, &x, &y, LEFT + w + 12.0);
    svg.push_str("</svg>\n");
    svg
}

/// The training and held-out lines (a line only where it has points), their legend at
/// `legend_x`, and the last values.
fn lines(
    svg: &mut String,
    losses: &[(f64, Option<f64>)],
    x: &dyn Fn(f64) -> f64,
    y: &dyn Fn(f64) -> f64,
    legend_x: f64,
) {
    let lines: [(&str, &str, Vec<Option<f64>>); 2] = [
        (
            "training",
            "#1f77b4",
            losses.iter().map(|&(t, _)| Some(t)).collect(),
        ),
        (
            "held out",
            "#d62728",
            losses.iter().map(|&(_, h)| h).collect(),
        ),
    ];
    let mut legend = 0.0;
    for (name, colour, values) in lines {
        let points: Vec<String> = values
            .iter()
            .enumerate()
            .filter_map(|(i, v)| v.map(|v| format!("{:.1},{:.1}", x(i as f64 + 1.0), y(v))))
            .collect();
        if points.is_empty() {
            continue;
        }
        let _ = write!(
            svg,
            r##"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2"/><text x="{}" y="{}" font-size="13" fill="{colour}">{name}</text>"##,
            points.join(" "),
            legend_x,
            TOP + 20.0 + legend
        );
        legend += 20.0;
    }
    if let Some(&(t, hd)) = losses.last() {
        let last = |v: f64| tick(v, v.abs().max(1e-9) / 100.0);
        let _ = write!(
            svg,
            r##"<text x="{}" y="{}" font-size="12">last: {}</text><text x="{}" y="{}" font-size="12">held: {}</text>"##,
            legend_x,
            TOP + 80.0,
            last(t),
            legend_x,
            TOP + 98.0,
            hd.map_or("none held out".to_string(), last)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_curve_has_both_lines_and_rounded_ticks() {
        let svg = loss_curve(
            "t & u",
            &[(0.5, Some(0.6)), (0.3, Some(0.45)), (0.2, Some(0.41))],
        );
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert!(svg.contains("t &amp; u"));
        assert!(!svg.contains("0.6300000"), "ticks are rounded");
        // The y axis ends on a round tick, at or above the largest loss.
        assert!(
            svg.contains(">0.6</text>") && svg.contains(">0.2</text>"),
            "{svg}"
        );
        assert!(!svg.contains(">0.63<"), "{svg}");
        // Three epochs: each labelled once.
        let epochs: Vec<&str> = svg.split("text-anchor=\"middle\">").skip(1).collect();
        assert_eq!(
            epochs.iter().filter(|t| t.starts_with("2<")).count(),
            1,
            "{svg}"
        );
    }

    #[test]
    fn epochs_are_ticked_a_round_step_apart_and_nothing_held_out_draws_no_line() {
        let losses: Vec<(f64, Option<f64>)> =
            (0..20).map(|i| (0.4 - f64::from(i) * 0.01, None)).collect();
        let svg = loss_curve("t", &losses);
        let epochs: Vec<&str> = svg
            .split("text-anchor=\"middle\">")
            .skip(1)
            .map(|t| t.split('<').next().unwrap())
            .filter(|t| t.parse::<u32>().is_ok())
            .collect();
        assert_eq!(epochs, ["5", "10", "15", "20"]);
        assert_eq!(svg.matches("<polyline").count(), 1, "no held-out line");
        assert!(svg.contains("none held out"));
        assert!(
            svg.contains(">0.4</text>") && svg.contains(">0.1</text>"),
            "{svg}"
        );
    }
}
