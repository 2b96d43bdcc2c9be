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
