//! What the pictures of runs share (the tuning run's panels, the training run's loss
//! curve): SVG text and axis ticks.

/// Text safe inside SVG.
pub(crate) fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// An axis tick's value, rounded to what the axis's span `span` can tell apart (two
/// significant digits of the span).
pub(crate) fn tick(v: f64, span: f64) -> String {
    let decimals = if span > 0.0 && span.is_finite() {
        (1.0 - span.log10().floor()).clamp(0.0, 6.0) as usize
    } else {
        0
    };
    let text = format!("{v:.decimals$}");
    if text
        .trim_start_matches('-')
        .chars()
        .all(|c| c == '0' || c == '.')
    {
        "0".to_string()
    } else {
        text
    }
}

/// Round axis ticks from `lo` to at least `hi`: multiples of a step of 1, 2 or 5 times a
/// power of ten chosen so that about `count` ticks cover the range, the last one at or
/// above `hi` (so the axis ends on a round number, not on the data's maximum).
pub(crate) fn nice_ticks(lo: f64, hi: f64, count: usize) -> Vec<f64> {
    let span = (hi - lo).max(f64::MIN_POSITIVE);
    let rough = span / count.max(1) as f64;
    let power = 10f64.powf(rough.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|&s| s >= rough)
        .unwrap_or(10.0 * power);
    let first = (lo / step).floor();
    let last = (hi / step).ceil().max(first + 1.0);
    (0..=(last - first) as usize)
        .map(|k| (first + k as f64) * step)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nice_ticks_are_round_and_cover_the_range() {
        // Shown as the plots show them: to the digits the step tells apart.
        let shown = |t: Vec<f64>| {
            let step = t[1] - t[0];
            t.iter().map(|&v| tick(v, step * 10.0)).collect::<Vec<_>>()
        };
        assert_eq!(shown(nice_ticks(0.0, 0.41, 4)), ["0", "0.2", "0.4", "0.6"]);
        assert_eq!(
            shown(nice_ticks(0.0, 0.45, 8)),
            ["0", "0.1", "0.2", "0.3", "0.4", "0.5"]
        );
        assert_eq!(
            shown(nice_ticks(1.0, 20.0, 4)),
            ["0", "5", "10", "15", "20"]
        );
        assert_eq!(
            shown(nice_ticks(1.0, 3.0, 4)),
            ["1.0", "1.5", "2.0", "2.5", "3.0"]
        );
        assert_eq!(nice_ticks(0.0, 0.0, 4).len(), 2);
    }
}
