//! Inputs that crashed, found while fuzzing the notation (`fuzz/`, `cargo xtask fuzz`), kept
//! as tests.

use plyforge_throne::{Cell, Move, ParseMoveError};

/// Coordinates at the ends of i32 overflowed `-q - r` and `abs()` in `Cell::new`: a panic in
/// debug builds, and in release builds an index far outside the board table (a panic too).
#[test]
fn coordinates_at_the_ends_of_i32_are_an_error() {
    for text in [
        "-2147483648,0>0,0",
        "2147483647,5>0,0",
        "0,0>2147483647,2147483647",
        "0,0>-2147483648,-2147483648",
    ] {
        let err = text.parse::<Move>().unwrap_err();
        assert!(
            matches!(err, ParseMoveError::OffBoard { .. }),
            "{text}: {err:?}"
        );
    }
    for (q, r) in [
        (i32::MIN, 0),
        (i32::MAX, 5),
        (i32::MAX, i32::MAX),
        (i32::MIN, i32::MIN),
        (6, -1),
    ] {
        assert_eq!(Cell::new(q, r), None, "({q}, {r})");
    }
    assert!(Cell::new(5, -5).is_some());
}
