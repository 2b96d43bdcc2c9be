//! Actions and their text form, as the course referee logs them.

use std::fmt;
use std::str::FromStr;

use crate::board::Hex;

/// One action: the text forms are `MOVE q1 r1 q2 r2`, `JUMP q1 r1 q2 r2`, `EXIT q r`, `PASS`.
///
/// The notation only guarantees that the hexes are on the board; whether a `MOVE` goes to an
/// adjacent hex, a `JUMP` two hexes along a line, and so on, is a question of legality
/// ([`Game::why_illegal`](search::Game::why_illegal)).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// Step from the first hex to an adjacent empty hex.
    Move(Hex, Hex),
    /// Jump from the first hex over an adjacent occupied hex to the empty hex beyond it.
    Jump(Hex, Hex),
    /// Leave the board from one of the mover's exit hexes.
    Exit(Hex),
    /// No action (only when there is no other).
    Pass,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Move(a, b) => write!(f, "MOVE {} {} {} {}", a.q(), a.r(), b.q(), b.r()),
            Move::Jump(a, b) => write!(f, "JUMP {} {} {} {}", a.q(), a.r(), b.q(), b.r()),
            Move::Exit(a) => write!(f, "EXIT {} {}", a.q(), a.r()),
            Move::Pass => f.write_str("PASS"),
        }
    }
}

/// Why a text is not an action.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseMoveError {
    /// The text is empty.
    Empty,
    /// The first word is not `MOVE`, `JUMP`, `EXIT` or `PASS`.
    UnknownKind(String),
    /// The action has the wrong number of coordinates.
    FieldCount {
        /// The action word.
        kind: &'static str,
        /// Coordinates it takes.
        expected: usize,
        /// Coordinates found.
        found: usize,
    },
    /// A coordinate is not a whole number.
    BadNumber {
        /// Which coordinate (`q1`, `r1`, `q2`, `r2`, `q`, `r`).
        field: &'static str,
        /// The text found there.
        text: String,
    },
    /// The coordinates name no hex of the board.
    OffBoard {
        /// Which hex (`from`, `to`, `hex`).
        field: &'static str,
        /// Its q.
        q: i64,
        /// Its r.
        r: i64,
    },
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseMoveError::Empty => f.write_str("empty action"),
            ParseMoveError::UnknownKind(w) => write!(
                f,
                "unknown action {w:?} (expected MOVE, JUMP, EXIT or PASS)"
            ),
            ParseMoveError::FieldCount {
                kind,
                expected,
                found,
            } => write!(f, "{kind} takes {expected} coordinates, found {found}"),
            ParseMoveError::BadNumber { field, text } => {
                write!(f, "coordinate {field} is not a number: {text:?}")
            }
            ParseMoveError::OffBoard { field, q, r } => {
                write!(f, "{field} hex ({q}, {r}) is not on the board")
            }
        }
    }
}

impl std::error::Error for ParseMoveError {}

fn hex(
    words: &[&str],
    fq: &'static str,
    fr: &'static str,
    field: &'static str,
) -> Result<Hex, ParseMoveError> {
    let num = |text: &str, f: &'static str| {
        text.parse::<i64>().map_err(|_| ParseMoveError::BadNumber {
            field: f,
            text: text.to_string(),
        })
    };
    let q = num(words[0], fq)?;
    let r = num(words[1], fr)?;
    let off = ParseMoveError::OffBoard { field, q, r };
    let (Ok(q8), Ok(r8)) = (i8::try_from(q), i8::try_from(r)) else {
        return Err(off);
    };
    Hex::new(q8, r8).ok_or(off)
}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Parses the referee's text form. Words are separated by whitespace; the action word is
    /// upper case as in the referee's logs.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let words: Vec<&str> = s.split_whitespace().collect();
        let Some((&kind, args)) = words.split_first() else {
            return Err(ParseMoveError::Empty);
        };
        let (name, expected): (&'static str, usize) = match kind {
            "MOVE" => ("MOVE", 4),
            "JUMP" => ("JUMP", 4),
            "EXIT" => ("EXIT", 2),
            "PASS" => ("PASS", 0),
            other => return Err(ParseMoveError::UnknownKind(other.to_string())),
        };
        if args.len() != expected {
            return Err(ParseMoveError::FieldCount {
                kind: name,
                expected,
                found: args.len(),
            });
        }
        Ok(match name {
            "PASS" => Move::Pass,
            "EXIT" => Move::Exit(hex(args, "q", "r", "hex")?),
            _ => {
                let a = hex(&args[..2], "q1", "r1", "from")?;
                let b = hex(&args[2..], "q2", "r2", "to")?;
                if name == "MOVE" {
                    Move::Move(a, b)
                } else {
                    Move::Jump(a, b)
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(q: i8, r: i8) -> Hex {
        Hex::new(q, r).unwrap()
    }

    #[test]
    fn text_forms_round_trip() {
        for (text, mv) in [
            ("MOVE -3 1 -2 0", Move::Move(h(-3, 1), h(-2, 0))),
            ("JUMP 0 -3 -2 -1", Move::Jump(h(0, -3), h(-2, -1))),
            ("EXIT 3 0", Move::Exit(h(3, 0))),
            ("PASS", Move::Pass),
        ] {
            assert_eq!(text.parse::<Move>(), Ok(mv));
            assert_eq!(mv.to_string(), text);
        }
    }

    #[test]
    fn errors_name_the_field() {
        assert_eq!("".parse::<Move>(), Err(ParseMoveError::Empty));
        assert_eq!(
            "STEP 0 0 1 0".parse::<Move>(),
            Err(ParseMoveError::UnknownKind("STEP".into()))
        );
        assert_eq!(
            "move 0 0 1 0".parse::<Move>(),
            Err(ParseMoveError::UnknownKind("move".into()))
        );
        assert_eq!(
            "MOVE 0 0 1".parse::<Move>(),
            Err(ParseMoveError::FieldCount {
                kind: "MOVE",
                expected: 4,
                found: 3
            })
        );
        assert_eq!(
            "PASS 1".parse::<Move>(),
            Err(ParseMoveError::FieldCount {
                kind: "PASS",
                expected: 0,
                found: 1
            })
        );
        assert_eq!(
            "JUMP 0 x 1 0".parse::<Move>(),
            Err(ParseMoveError::BadNumber {
                field: "r1",
                text: "x".into()
            })
        );
        assert_eq!(
            "MOVE 0 0 3 3".parse::<Move>(),
            Err(ParseMoveError::OffBoard {
                field: "to",
                q: 3,
                r: 3
            })
        );
        assert_eq!(
            "EXIT 300 0".parse::<Move>(),
            Err(ParseMoveError::OffBoard {
                field: "hex",
                q: 300,
                r: 0
            })
        );
        let msg = "MOVE 0 0 3 3".parse::<Move>().unwrap_err().to_string();
        assert!(msg.contains("to hex (3, 3)"), "{msg}");
    }
}
