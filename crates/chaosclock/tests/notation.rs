//! The notation: positions `b1,…,b12;P;L` with defaults, moves `wN`/`pN`/`pass`, and parse
//! errors that name the bad field.

use plyforge_chaosclock::search::Game;
use plyforge_chaosclock::{Field, Move, ParseMoveError, ParsePositionError, Position, EVEN, ODD};

#[test]
fn positions_round_trip() {
    for s in [
        "8,6,1,11,9,10,12,7,4,2,3,5;1;0",
        "4,3,11,0,5,6,0,0,0,2,0,0;0;12",
        "0,0,0,0,0,0,0,0,0,0,0,0;1;0",
        "1,2,3,4,5,6,7,8,9,10,11,12;0;0",
    ] {
        let p: Position = s.parse().unwrap();
        assert_eq!(p.to_string(), s);
    }
}

#[test]
fn fields_may_be_left_out() {
    let full: Position = "8,6,1,11,9,10,12,7,4,2,3,5;1;0".parse().unwrap();
    let no_last: Position = "8,6,1,11,9,10,12,7,4,2,3,5;1".parse().unwrap();
    let board_only: Position = "8,6,1,11,9,10,12,7,4,2,3,5".parse().unwrap();
    assert_eq!(no_last, full);
    assert_eq!(board_only, full);
    assert_eq!(board_only.to_move(), EVEN);
    let odd: Position = "8,6,1,11,9,10,12,7,4,2,3,5;0".parse().unwrap();
    assert_eq!(odd.to_move(), ODD);
    assert_eq!(odd.last_moved(), 0);
    let spaced: Position = " 8, 6,1,11,9,10,12,7,4,2,3,5 ; 1 ; 0 ".parse().unwrap();
    assert_eq!(spaced, full);
}

fn err(s: &str) -> ParsePositionError {
    s.parse::<Position>().expect_err(s)
}

#[test]
fn position_errors_name_the_field() {
    assert_eq!(err(""), ParsePositionError::Empty);
    assert_eq!(err("1,2,3;1;0"), ParsePositionError::BoardCount(3));
    assert_eq!(
        err("1,2,3,4,5,6,7,8,9,10,11,12,0;1;0"),
        ParsePositionError::BoardCount(13)
    );
    assert_eq!(
        err("1,2,3,4,5,6,7,8,9,10,11,12;1;0;0"),
        ParsePositionError::TooManyFields(4)
    );
    assert_eq!(
        err("1,2,3,4,5,6,7,8,9,10,11,13;1;0"),
        ParsePositionError::PieceOutOfRange {
            square: 12,
            value: 13
        }
    );
    assert_eq!(
        err("1,2,3,4,5,6,7,8,9,10,11,1;1;0"),
        ParsePositionError::PieceTwice {
            piece: 1,
            first: 1,
            second: 12
        }
    );
    assert_eq!(
        err("1,2,x,4,5,6,7,8,9,10,11,12;1;0"),
        ParsePositionError::NotANumber {
            field: Field::Board,
            square: 3,
            text: "x".into()
        }
    );
    assert_eq!(
        err("1,2,-3,4,5,6,7,8,9,10,11,12;1;0"),
        ParsePositionError::NotANumber {
            field: Field::Board,
            square: 3,
            text: "-3".into()
        }
    );
    assert_eq!(
        err("1,2,3,4,5,6,7,8,9,10,11,12;2;0"),
        ParsePositionError::BadSide("2".into())
    );
    assert_eq!(
        err("1,2,3,4,5,6,7,8,9,10,11,12;;0"),
        ParsePositionError::BadSide("".into())
    );
    assert_eq!(
        err("1,2,3,4,5,6,7,8,9,10,11,12;1;13"),
        ParsePositionError::LastOutOfRange(13)
    );
    assert_eq!(
        err("1,2,3,4,5,6,7,8,9,10,11,12;1;y"),
        ParsePositionError::NotANumber {
            field: Field::Last,
            square: 0,
            text: "y".into()
        }
    );
    // The piece moved last (6) is in a hand, which no move leaves it in.
    assert_eq!(
        err("8,0,1,11,9,10,12,7,4,2,3,5;1;6"),
        ParsePositionError::LastNotOnBoard(6)
    );
    assert!(err("8,0,1,11,9,10,12,7,4,2,3,5;1;6")
        .to_string()
        .contains("piece 6 is not on the board"));
    // Piece 12 walks off the board: it may have moved last from a hand.
    assert!("8,0,1,11,9,10,0,7,4,2,3,5;1;12".parse::<Position>().is_ok());
    assert!("8,0,1,11,9,10,12,7,4,2,3,5;1;8".parse::<Position>().is_ok());
    assert_eq!(
        err("1,2,3,4,5,6,7,8,9,10,11,99999999999;1;0"),
        ParsePositionError::NotANumber {
            field: Field::Board,
            square: 12,
            text: "99999999999".into()
        }
    );
}

#[test]
fn position_error_messages_say_where() {
    let m = err("1,2,3,4,5,6,7,8,9,10,11,1;1;0").to_string();
    assert!(
        m.contains("piece 1") && m.contains("squares 1 and 12"),
        "{m}"
    );
    let m = err("1,2,3;1;0").to_string();
    assert!(m.contains("board") && m.contains("3 squares"), "{m}");
    let m = err("1,2,3,4,5,6,7,8,9,10,11,12;7;0").to_string();
    assert!(m.contains("side to move"), "{m}");
    let m = err("1,2,3,4,5,6,7,8,9,10,11,12;1;20").to_string();
    assert!(m.contains("last moved piece"), "{m}");
}

#[test]
fn moves_round_trip_and_errors() {
    for s in ["w1", "w12", "p2", "p11", "pass"] {
        assert_eq!(s.parse::<Move>().unwrap().to_string(), s);
    }
    assert_eq!("w7".parse::<Move>(), Ok(Move::Walk(7)));
    assert_eq!("p12".parse::<Move>(), Ok(Move::Place(12)));
    assert_eq!("".parse::<Move>(), Err(ParseMoveError::Empty));
    for bad in ["w0", "w13", "p", "w+3", "w-1", "pabc", "passs", "w3é"] {
        assert_eq!(
            bad.parse::<Move>(),
            Err(ParseMoveError::BadPiece(bad.into())),
            "{bad}"
        );
    }
    for bad in ["x3", "W3", "é3", "3"] {
        assert_eq!(
            bad.parse::<Move>(),
            Err(ParseMoveError::UnknownKind(bad.into())),
            "{bad}"
        );
    }
}

#[test]
fn every_legal_move_round_trips() {
    let mut moves = plyforge_chaosclock::search::MoveList::new();
    Position::start().legal_moves(&mut moves);
    assert_eq!(moves.len(), 13, "twelve walks and the pass");
    for m in moves {
        assert_eq!(m.to_string().parse::<Move>(), Ok(m));
    }
}
