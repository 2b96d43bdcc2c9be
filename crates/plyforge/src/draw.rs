//! Boards as text for a terminal: every piece of text is tagged with a [`Paint`], and the
//! front end decides what a paint looks like (`arena` uses colours when stdout is a
//! terminal; [`plain`] leaves the text as it is).

/// The role of a piece of text on a drawn board, for a front end to colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Paint {
    /// First player's pieces (three-player games).
    Red,
    /// Second player's pieces (three-player games).
    Green,
    /// Third player's pieces (three-player games).
    Blue,
    /// Light pieces.
    Yellow,
    /// Dark pieces.
    Cyan,
    /// Empty cells, frames and coordinates.
    Dim,
    /// Highlights.
    Bold,
}

/// The painter that leaves text as it is.
///
/// ```
/// use plyforge::draw::{plain, Paint};
/// assert_eq!(plain("x", Paint::Red), "x");
/// ```
pub fn plain(text: &str, _: Paint) -> String {
    text.to_string()
}

/// A hexagonal board of this radius in axial coordinates, rows `r = -radius ..= radius`, each
/// row from its smallest `q`; `cell(q, r)` gives the (one-character) content and its paint.
/// Each row carries its coordinates on the right.
pub fn hex_board(
    radius: i32,
    cell: impl Fn(i32, i32) -> (char, Paint),
    paint: &dyn Fn(&str, Paint) -> String,
) -> String {
    let mut out = String::new();
    let rows: Vec<(i32, i32, i32)> = (-radius..=radius)
        .map(|r| {
            let q0 = (-radius).max(-radius - r);
            let q1 = radius.min(radius - r);
            (r, q0, q1)
        })
        .collect();
    let margin = 2usize;
    let frame = |s: &str| paint(s, Paint::Dim);
    for (i, &(r, q0, q1)) in rows.iter().enumerate() {
        let n = (q1 - q0 + 1) as usize;
        let indent = margin + 2 * r.unsigned_abs() as usize;
        // The border above this row.
        if r <= 0 {
            out.push_str(&" ".repeat(indent));
            out.push_str(&frame(&" / \\".repeat(n)));
        } else {
            out.push_str(&" ".repeat(indent - 2));
            out.push_str(&frame(&" \\ /".repeat(n + 1)));
        }
        out.push('\n');
        // The cells.
        out.push_str(&" ".repeat(indent));
        for q in q0..=q1 {
            let (c, p) = cell(q, r);
            out.push_str(&frame("| "));
            out.push_str(&paint(&c.to_string(), p));
            out.push(' ');
        }
        out.push_str(&frame("|"));
        let pad = 2 * r.unsigned_abs() as usize + 3;
        out.push_str(&" ".repeat(pad));
        out.push_str(&frame(&format!("r={r:<2} q={q0}..{q1}")));
        out.push('\n');
        if i + 1 == rows.len() {
            out.push_str(&" ".repeat(indent));
            out.push_str(&frame(&" \\ /".repeat(n)));
            out.push('\n');
        }
    }
    out
}

/// The cells of a hexagonal board of this radius written as a notation's board field: rows
/// `r = -radius ..= radius` separated by `/`, each from its smallest `q`, one character a
/// cell. The function gives the character of cell `(q, r)` (`?` where the text has none), for
/// [`hex_board`].
#[cfg(any(feature = "chexers", feature = "throne"))]
pub(crate) fn hex_cells(field: &str, radius: i32) -> impl Fn(i32, i32) -> char + '_ {
    let rows: Vec<Vec<char>> = field.split('/').map(|r| r.chars().collect()).collect();
    move |q, r| {
        let q0 = (-radius).max(-radius - r);
        rows.get((r + radius) as usize)
            .and_then(|row| row.get((q - q0) as usize))
            .copied()
            .unwrap_or('?')
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_board_shape() {
        let board = hex_board(
            1,
            |q, r| {
                if (q, r) == (0, 0) {
                    ('x', Paint::Bold)
                } else {
                    ('.', Paint::Dim)
                }
            },
            &plain,
        );
        let lines: Vec<&str> = board.lines().collect();
        // 3 rows of cells, 4 borders.
        assert_eq!(lines.len(), 7);
        assert!(lines[3].contains("| . | x | . |"), "{board}");
        assert!(lines[1].contains("| . | . |"));
        // Cells of neighbouring rows interlock: the vertex of the upper row's border sits
        // above the boundary between cells.
        assert_eq!(
            lines[1].find('|').unwrap() + 2,
            lines[3].find('|').unwrap() + 4
        );
    }
}
