//! Inputs found by the fuzz targets (`fuzz/`, `cargo xtask fuzz`) that crashed, kept as tests.

use plyforge_chexers::board::Hex;
use plyforge_chexers::{Move, ParseMoveError, Position};

/// `notation_chexers`, crash-c4a5dd47…: coordinates far off the board overflowed `-q - r`
/// (in i8) in the board test, a panic in debug builds.
#[test]
fn coordinates_far_off_the_board_are_an_error() {
    // The fuzzer's input, `POSITION\nMOVE`: the move text is `MOVE 82 61\nMOVE 88`, whose
    // words make four coordinates.
    let input = ".bb./...../.../..g.../...../.... g 4,3,2 61\nMOVE 82 61\nMOVE 88";
    let (pos, mv) = input.split_once('\n').unwrap();
    assert!(pos.parse::<Position>().is_err());
    assert!(matches!(
        mv.parse::<Move>(),
        Err(ParseMoveError::OffBoard { q: 82, r: 61, .. })
    ));
    for text in [
        "MOVE 82 61 0 0",
        "JUMP 0 0 127 127",
        "EXIT -128 -128",
        "EXIT 127 -128",
    ] {
        let err = text.parse::<Move>().unwrap_err();
        assert!(
            matches!(err, ParseMoveError::OffBoard { .. }),
            "{text}: {err:?}"
        );
        assert!(err.to_string().contains("is not on the board"), "{err}");
    }
    for (q, r) in [(82, 61), (127, 127), (-128, -128), (-128, 127), (4, -1)] {
        assert_eq!(Hex::new(q, r), None, "({q}, {r})");
    }
    assert!(Hex::new(3, -3).is_some());
}
