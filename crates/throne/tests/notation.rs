//! Notation: round trips, and parse errors that name the bad field.

use plyforge_throne::{
    Cell, Move, MoveField, NumberField, ParseMoveError, ParsePositionError, Position,
};

const START: &str = "wwwwww/...W.../......../........./........../.........../........../........./......../...B.../bbbbbb b 0 0 0 0 0";
const BOARD: &str = "wwwwww/...W.../......../........./........../.........../........../........./......../...B.../bbbbbb";

fn err(s: &str) -> ParsePositionError {
    s.parse::<Position>()
        .expect_err(&format!("{s:?} should not parse"))
}

fn merr(s: &str) -> ParseMoveError {
    s.parse::<Move>()
        .expect_err(&format!("{s:?} should not parse"))
}

#[test]
fn start_round_trip() {
    let p: Position = START.parse().unwrap();
    assert_eq!(p.to_string(), START);
    assert_eq!(p, Position::start());
    // Extra spaces around fields are tolerated; the output is canonical.
    let q: Position = format!("  {BOARD}  b 0 0 0 0 0 ").parse().unwrap();
    assert_eq!(q, p);
}

#[test]
fn position_errors_name_the_field() {
    assert_eq!(
        err(&format!("{BOARD} b 0 0 0 0")),
        ParsePositionError::FieldCount { found: 6 }
    );
    assert_eq!(err(""), ParsePositionError::FieldCount { found: 0 });
    assert_eq!(
        err("wwwwww/...W.../......../ b 0 0 0 0 0"),
        ParsePositionError::RowCount { found: 4 }
    );
    let long_row = START.replacen("...W...", "...W....", 1);
    assert_eq!(
        err(&long_row),
        ParsePositionError::RowLength {
            r: -4,
            expected: 7,
            found: 8
        }
    );
    let bad = START.replacen("...B...", "...B.x.", 1);
    assert_eq!(
        err(&bad),
        ParsePositionError::BadCell {
            q: 0,
            r: 4,
            found: 'x'
        }
    );
    let two_queens = START.replacen("...B...", "...B..B", 1);
    assert_eq!(
        err(&two_queens),
        ParsePositionError::PieceCount {
            piece: "black queen",
            expected: 1,
            found: 2
        }
    );
    let seven = START.replacen("...B...", "...B..b", 1);
    assert_eq!(
        err(&seven),
        ParsePositionError::PieceCount {
            piece: "black soldier",
            expected: 6,
            found: 7
        }
    );
    let five_white = START.replacen("wwwwww", "wwwww.", 1);
    assert_eq!(
        err(&five_white),
        ParsePositionError::PieceCount {
            piece: "white soldier",
            expected: 6,
            found: 5
        }
    );
    let soldier_on_throne = START
        .replacen("...........", ".....b.....", 1)
        .replacen("bbbbbb b", "bbbbb. b", 1);
    assert_eq!(err(&soldier_on_throne), ParsePositionError::SoldierOnThrone);
    assert_eq!(
        err(&format!("{BOARD} x 0 0 0 0 0")),
        ParsePositionError::SideToMove {
            found: "x".to_string()
        }
    );
    for (i, field) in [
        NumberField::Ply,
        NumberField::BlackPtrap,
        NumberField::BlackQtrap,
        NumberField::WhitePtrap,
        NumberField::WhiteQtrap,
    ]
    .into_iter()
    .enumerate()
    {
        let mut nums = ["0"; 5];
        nums[i] = "-1";
        let s = format!("{BOARD} b {}", nums.join(" "));
        assert_eq!(
            err(&s),
            ParsePositionError::Number {
                field,
                found: "-1".to_string()
            }
        );
    }
    assert_eq!(
        err(&format!("{BOARD} b 301 0 0 0 0")),
        ParsePositionError::Number {
            field: NumberField::Ply,
            found: "301".to_string()
        }
    );
    assert!(format!("{BOARD} b 300 0 0 0 0").parse::<Position>().is_ok());
    assert_eq!(
        err(&format!("{BOARD} b 0 0 0 70000 0")),
        ParsePositionError::Number {
            field: NumberField::WhitePtrap,
            found: "70000".to_string()
        }
    );
}

#[test]
fn position_error_messages_say_where() {
    let cases = [
        (format!("{BOARD} b 0 0 0 0"), "7 space-separated fields"),
        (START.replacen("...W...", "...W....", 1), "row r=-4"),
        (START.replacen("...B...", "...B.x.", 1), "cell 0,4"),
        (START.replacen("...B...", "...B..b", 1), "black soldier"),
        (format!("{BOARD} x 0 0 0 0 0"), "side to move"),
        (format!("{BOARD} b 0 0 0 0 y"), "White's Qtrap"),
        (format!("{BOARD} b z 0 0 0 0"), "ply"),
    ];
    for (s, words) in cases {
        let msg = err(&s).to_string();
        assert!(msg.contains(words), "{msg:?} lacks {words:?}");
    }
}

#[test]
fn moves_round_trip_and_errors() {
    let m: Move = "0,5>1,4".parse().unwrap();
    assert_eq!(
        m,
        Move::Step {
            from: Cell::new(0, 5).unwrap(),
            to: Cell::new(1, 4).unwrap()
        }
    );
    assert_eq!(m.to_string(), "0,5>1,4");
    assert_eq!("pass".parse::<Move>().unwrap(), Move::Pass);
    assert_eq!(Move::Pass.to_string(), "pass");
    assert_eq!(
        " -5,0>5,-5 ".parse::<Move>().unwrap().to_string(),
        "-5,0>5,-5"
    );
    assert_eq!(merr(""), ParseMoveError::Empty);
    assert_eq!(
        merr("0,5"),
        ParseMoveError::MissingArrow {
            found: "0,5".to_string()
        }
    );
    assert_eq!(
        merr("a,5>1,4"),
        ParseMoveError::BadCell {
            field: MoveField::From,
            found: "a,5".to_string()
        }
    );
    assert_eq!(
        merr("0,5>14"),
        ParseMoveError::BadCell {
            field: MoveField::To,
            found: "14".to_string()
        }
    );
    assert_eq!(
        merr("3,3>1,4"),
        ParseMoveError::OffBoard {
            field: MoveField::From,
            q: 3,
            r: 3
        }
    );
    assert_eq!(
        merr("0,5>0,6"),
        ParseMoveError::OffBoard {
            field: MoveField::To,
            q: 0,
            r: 6
        }
    );
    assert!(merr("0,5>0,6").to_string().contains("to-cell 0,6"));
    assert!(merr("Pass").to_string().contains("q,r>q,r or pass"));
    // Every cell pair round-trips.
    for from in Cell::all() {
        for to in Cell::all() {
            let m = Move::Step { from, to };
            assert_eq!(m.to_string().parse::<Move>().unwrap(), m);
        }
    }
}
