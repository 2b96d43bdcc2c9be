//! Boards in colour for a terminal: the facade draws them with each piece of text tagged
//! with a [`Paint`]; here a paint becomes a colour when stdout supports it (owo-colors
//! decides, and honours `NO_COLOR` / `FORCE_COLOR`).

use owo_colors::{OwoColorize, Stream};
pub(crate) use plyforge::draw::Paint;

/// `text` in colour when stdout supports it.
pub(crate) fn paint(text: &str, p: Paint) -> String {
    match p {
        Paint::Red => text
            .if_supports_color(Stream::Stdout, |t| t.bright_red())
            .to_string(),
        Paint::Green => text
            .if_supports_color(Stream::Stdout, |t| t.bright_green())
            .to_string(),
        Paint::Blue => text
            .if_supports_color(Stream::Stdout, |t| t.bright_blue())
            .to_string(),
        Paint::Yellow => text
            .if_supports_color(Stream::Stdout, |t| t.bright_yellow())
            .to_string(),
        Paint::Cyan => text
            .if_supports_color(Stream::Stdout, |t| t.bright_cyan())
            .to_string(),
        Paint::Bold => text
            .if_supports_color(Stream::Stdout, |t| t.bold())
            .to_string(),
        _ => text
            .if_supports_color(Stream::Stdout, |t| t.dimmed())
            .to_string(),
    }
}
