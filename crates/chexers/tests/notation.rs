//! Notation corpora: valid positions round-trip; invalid ones fail naming the field at fault.

use plyforge_chexers::{Move, ParseMoveError, ParsePositionError, Position};

#[test]
fn valid_positions_round_trip() {
    for text in [
        "gggg/...../....../r.....b/r....b/r...b/r..b r 0,0,0 0",
        "..../.gb../....../......b/..b..b/.b..b/..b. b 0,4,0 740",
        "..../...../....../....rr./rrr.../...../.... r 3,1,3 768",
        "rrrr/rrrrr/rrr.../......./....../...../.... r 0,0,0 3",
        "gggg/...../....../......b/.....b/....b/...b r 0,1,0 3",
        "..../...../....../r....../....../...../.... g 4,0,0 10",
    ] {
        let p: Position = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(p.to_string(), text);
    }
    // Whitespace between fields is tolerated on input; output uses single spaces.
    let p: Position = "  gggg/...../....../r.....b/r....b/r...b/r..b   r 0,0,0   0 "
        .parse()
        .unwrap();
    assert_eq!(p, Position::start());
}

#[test]
fn invalid_positions_name_the_field() {
    use ParsePositionError::*;
    let cases: Vec<(&str, ParsePositionError, &str)> = vec![
        ("", FieldCount { found: 0 }, "position:"),
        (
            "gggg/...../....../r.....b/r....b/r...b/r..b r 0,0,0",
            FieldCount { found: 3 },
            "position:",
        ),
        (
            "gggg/...../....../r.....b/r....b/r...b r 0,0,0 0",
            RowCount { found: 6 },
            "board:",
        ),
        (
            "gggg/...../......./r.....b/r....b/r...b/r..b r 0,0,0 0",
            RowLength {
                r: -1,
                expected: 6,
                found: 7,
            },
            "board: row r=-1",
        ),
        (
            "gggg/...../....../r..x..b/r....b/r...b/r..b r 0,0,0 0",
            BadHex {
                q: 0,
                r: 0,
                found: 'x',
            },
            "board: hex (0, 0)",
        ),
        (
            "gggg/...../....../r.....b/r....b/r...b/r..b R 0,0,0 0",
            ToMove("R".into()),
            "player to move:",
        ),
        (
            "gggg/...../....../r.....b/r....b/r...b/r..b r 0,0 0",
            Exits("0,0".into()),
            "exits:",
        ),
        (
            "gggg/...../....../r.....b/r....b/r...b/r..b r 0,a,0 0",
            Exits("0,a,0".into()),
            "exits:",
        ),
        (
            "..../...../....../......./....../...../.... r 0,5,0 0",
            ExitCount {
                player: "g",
                count: 5,
            },
            "exits: g has 5",
        ),
        (
            "..../...../....../......./....../...../.... r 4,4,0 0",
            TwoWinners,
            "exits:",
        ),
        (
            "gggg/...../....../r.....b/r....b/r...b/r..b r 0,0,0 -1",
            Turns("-1".into()),
            "turns:",
        ),
        (
            "gggg/...../....../r.....b/r....b/r...b/r..b r 0,0,0 771",
            TurnsBeyondLimit(771),
            "turns:",
        ),
        (
            "gggg/...../....../r.....b/r....b/r...b/r..b g 0,0,0 0",
            TurnMismatch {
                to_move: "g",
                turns: 0,
            },
            "player to move:",
        ),
        (
            "gggg/...../....../r.....b/r....b/r...b/r..b r 1,0,0 0",
            TooManyPieces { count: 13 },
            "board:",
        ),
        // Impossible positions: no pieces and no exits; more exits than
        // turns taken; a winner that was not the last to move.
        (
            "..../...../....../......./....../...../.... r 0,0,0 0",
            EmptyBoard,
            "board: no piece",
        ),
        (
            "..../...../....../......./....../...../.... g 0,0,0 1",
            EmptyBoard,
            "board: no piece",
        ),
        (
            "..../...../....../r....../....../...../.... g 4,0,0 1",
            ExitsBeyondTurns {
                player: "r",
                exits: 4,
                taken: 1,
            },
            "exits: r has 4 exits but has taken only 1 turns",
        ),
        (
            "gggg/...../....../......b/.....b/....b/...b r 0,2,0 3",
            ExitsBeyondTurns {
                player: "g",
                exits: 2,
                taken: 1,
            },
            "exits:",
        ),
        (
            "..../...../....../r....../....../...../.... b 4,0,0 11",
            WinnerNotLast {
                winner: "r",
                to_move: "b",
            },
            "player to move: r has 4 exits",
        ),
    ];
    for (text, err, prefix) in cases {
        let got = text.parse::<Position>();
        assert_eq!(got, Err(err.clone()), "{text}");
        let msg = err.to_string();
        assert!(
            msg.starts_with(prefix),
            "{msg:?} should start with {prefix:?}"
        );
    }
}

#[test]
fn actions_corpus() {
    for text in [
        "MOVE -3 1 -2 0",
        "JUMP 3 -3 3 -1",
        "EXIT 0 -3",
        "PASS",
        "MOVE 0 0 3 0",
    ] {
        let m: Move = text.parse().unwrap();
        assert_eq!(m.to_string(), text);
    }
    let bad: Vec<(&str, ParseMoveError)> = vec![
        ("", ParseMoveError::Empty),
        ("   ", ParseMoveError::Empty),
        ("HOP 0 0", ParseMoveError::UnknownKind("HOP".into())),
        (
            "EXIT 0",
            ParseMoveError::FieldCount {
                kind: "EXIT",
                expected: 2,
                found: 1,
            },
        ),
        (
            "MOVE 0 0 1 0 2",
            ParseMoveError::FieldCount {
                kind: "MOVE",
                expected: 4,
                found: 5,
            },
        ),
        (
            "MOVE 0 0 1.5 0",
            ParseMoveError::BadNumber {
                field: "q2",
                text: "1.5".into(),
            },
        ),
        (
            "JUMP -4 0 -2 0",
            ParseMoveError::OffBoard {
                field: "from",
                q: -4,
                r: 0,
            },
        ),
        (
            "EXIT 2 2",
            ParseMoveError::OffBoard {
                field: "hex",
                q: 2,
                r: 2,
            },
        ),
    ];
    for (text, err) in bad {
        assert_eq!(text.parse::<Move>(), Err(err), "{text:?}");
    }
}
