//! Durations as people type and read them: `250ms`, `2s`, `1.5s`, `1m`; a bare number means seconds.

use std::time::Duration;

/// Parses a duration such as `250ms`, `2s`, `1.5s`, `1m` or `3` (seconds).
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let (num, scale) = if let Some(n) = t.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = t.strip_suffix("min") {
        (n, 60.0)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = t.strip_suffix('m') {
        (n, 60.0)
    } else {
        (t, 1.0)
    };
    let value: f64 = num
        .trim()
        .parse()
        .map_err(|_| format!("{t:?} is not a duration (examples: 250ms, 2s, 1.5s, 1m)"))?;
    if !value.is_finite() || value < 0.0 || value * scale > 1e9 {
        return Err(format!("{t:?} is not a usable duration"));
    }
    Ok(Duration::from_secs_f64(value * scale))
}

/// A duration for people: `850ms`, `2.35s`, `1m05s`.
pub fn show_duration(d: Duration) -> String {
    let ms = d.as_millis();
    if ms < 1000 {
        format!("{ms}ms")
    } else if ms < 60_000 {
        format!("{:.2}s", d.as_secs_f64())
    } else {
        format!("{}m{:02}s", ms / 60_000, (ms / 1000) % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_duration("2s"), Ok(Duration::from_secs(2)));
        assert_eq!(parse_duration("1.5"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration("1m"), Ok(Duration::from_secs(60)));
        assert!(parse_duration("fast").is_err());
        assert!(parse_duration("-1s").is_err());
        assert_eq!(show_duration(Duration::from_millis(65_000)), "1m05s");
    }
}
