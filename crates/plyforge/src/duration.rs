//! Durations as people type and read them: `250ms`, `2s`, `1.5s`, `1m`; a bare number means seconds.

use std::fmt;
use std::time::Duration;

/// A text that is not a duration [`parse_duration`] takes.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DurationError {
    /// Not a number with a unit.
    NotADuration {
        /// The text given.
        text: String,
    },
    /// A number, but negative, not finite, or beyond 10^9 seconds.
    OutOfRange {
        /// The text given.
        text: String,
    },
}

impl fmt::Display for DurationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DurationError::NotADuration { text } => write!(
                f,
                "{text:?} is not a duration (examples: 250ms, 2s, 1.5s, 1m)"
            ),
            DurationError::OutOfRange { text } => write!(f, "{text:?} is not a usable duration"),
        }
    }
}

impl std::error::Error for DurationError {}

/// Parses a duration such as `250ms`, `2s`, `1.5s`, `1m` or `3` (seconds).
pub fn parse_duration(text: &str) -> Result<Duration, DurationError> {
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
        .map_err(|_| DurationError::NotADuration {
            text: t.to_string(),
        })?;
    if !value.is_finite() || value < 0.0 || value * scale > 1e9 {
        return Err(DurationError::OutOfRange {
            text: t.to_string(),
        });
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
