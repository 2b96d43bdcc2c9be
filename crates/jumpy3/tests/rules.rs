//! One test per rule of the crate's README, on hand-built positions, plus notation and errors.

use plyforge_jumpy3::search::{DrawKind, Game, MoveList, Outcome, Record};
use plyforge_jumpy3::{Move, ParseMoveError, ParsePositionError, Position, BLACK, WHITE};

fn pos(s: &str) -> Position {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn mv(n: u8) -> Move {
    Move::new(n).expect("a square")
}

/// The position after playing the piece on `square` (checked legal).
fn after(s: &str, square: u8) -> Position {
    let p = pos(s);
    assert_eq!(p.why_illegal(mv(square)), None, "{s} {square}");
    let c = p.after(mv(square));
    assert_eq!(c.key(), c.recompute_key());
    c
}

fn moves(p: &Position) -> Vec<u8> {
    let mut m = MoveList::new();
    p.legal_moves(&mut m);
    m.iter().map(|m| m.square()).collect()
}

#[test]
fn start_position_and_first_moves() {
    let p = Position::start();
    assert_eq!(p.to_string(), "Wwww........bbbB w");
    assert_eq!(p, pos("Wwww........bbbB w"));
    assert_eq!(p.to_move(), WHITE);
    assert_eq!(moves(&p), [1, 2, 3, 4]);
    assert_eq!(p.outcome(), None);
}

#[test]
fn a_piece_steps_to_an_empty_square_ahead() {
    assert_eq!(
        after("Wwww........bbbB w", 4).to_string(),
        "Www.w.......bbbB b"
    );
    // Black steps leftward.
    assert_eq!(
        after("Www.w.......bbbB b", 13).to_string(),
        "Www.w......b.bbB w"
    );
}

#[test]
fn kings_and_pawns_move_alike() {
    assert_eq!(
        after("W..............B w", 1).to_string(),
        ".W.............B b"
    );
    assert_eq!(
        after("w.W............B w", 1).to_string(),
        ".wW............B b"
    );
}

#[test]
fn a_blocked_piece_jumps_to_the_first_empty_square() {
    // Over three own pieces: nothing is sent anywhere.
    assert_eq!(
        after("Wwww........bbbB w", 1).to_string(),
        ".wwwW.......bbbB b"
    );
    // Over exactly one own piece: nothing is sent.
    assert_eq!(
        after("Ww.............B w", 1).to_string(),
        ".wW............B b"
    );
    // Over several pieces, the last one Black's: nothing is sent.
    assert_eq!(
        after("Wwb............B w", 1).to_string(),
        ".wbW...........B b"
    );
    // Over two Black pieces: nothing is sent.
    assert_eq!(
        after("Wbb............B w", 1).to_string(),
        ".bbW...........B b"
    );
}

#[test]
fn jumping_over_exactly_one_enemy_piece_sends_it_to_the_far_empty_square() {
    // White jumps the pawn on 2; it goes to the rightmost empty square (15).
    assert_eq!(
        after("Wb.............B w", 1).to_string(),
        "..W...........bB b"
    );
    // The enemy king can be sent back too.
    assert_eq!(
        after(".WB............. w", 2).to_string(),
        "...W...........B b"
    );
    // Black jumps White's pawn on 2; it goes to the leftmost empty square, which is the
    // square Black jumped from (computed after the jumper moved).
    assert_eq!(
        after(".wB............W b", 3).to_string(),
        "B.w............W w"
    );
}

#[test]
fn the_far_square_is_computed_after_the_jumper_moved() {
    // Every square right of the landing square is full: the only empty squares are left of
    // the jumper, and the jumper's own square (10) is the rightmost empty one.
    assert_eq!(
        after("........wWb.wwbB w", 10).to_string(),
        "........wb.WwwbB b"
    );
    // Mirror image for Black.
    let p = pos("........wWb.wwbB w").mirror();
    assert_eq!(p.to_string(), "Wwbb.wBb........ b");
    assert_eq!(
        after("Wwbb.wBb........ b", 7).to_string(),
        "WwbbB.wb........ w"
    );
    assert_eq!(p.after(mv(7)), pos("........wb.WwwbB b").mirror());
}

#[test]
fn a_piece_on_the_last_square_leaves_the_board() {
    let c = after("W.....B........w w", 16);
    assert_eq!(c.to_string(), "W.....B......... b");
    assert_eq!(c.pawns(WHITE), 0);
    assert_eq!(c.outcome(), None);
    let c = after("b.....W........B b", 1);
    assert_eq!(c.to_string(), "......W........B w");
}

#[test]
fn a_piece_with_no_empty_square_ahead_jumps_off_the_board() {
    let c = after("B..W........wbbb w", 13);
    assert_eq!(c.to_string(), "B..W.........bbb b");
    assert_eq!(c.outcome(), None);
}

#[test]
fn a_side_wins_the_moment_its_king_leaves() {
    let c = after("B.............Wb w", 15);
    assert_eq!(c.outcome(), Some(Outcome::Win(WHITE)));
    assert_eq!(moves(&c), Vec::<u8>::new());
    let c = after("B..Www....b.b... b", 1);
    assert_eq!(c.outcome(), Some(Outcome::Win(BLACK)));
    assert!(c
        .why_illegal(mv(4))
        .unwrap()
        .reason()
        .contains("game is over"));
    let c = after("..w..wB..w.b.bbW w", 16);
    assert_eq!(c.outcome(), Some(Outcome::Win(WHITE)));
}

#[test]
fn a_side_always_has_a_move_and_only_its_own_pieces_move() {
    let p = pos(".W..wbbwbw.B.... w");
    assert_eq!(moves(&p), [2, 5, 8, 10]);
    assert_eq!(
        p.why_illegal(mv(6)).unwrap().reason(),
        "square 6 holds a Black piece, but White is to move"
    );
    assert!(p
        .why_illegal(mv(1))
        .unwrap()
        .reason()
        .contains("square 1 is empty"));
    let b = pos(".W..wbbwbw.B.... b");
    assert_eq!(moves(&b), [6, 7, 9, 12]);
}

#[test]
fn the_third_occurrence_of_a_position_draws() {
    // A cycle: play seeded random games from the start until a position comes back.
    fn find_cycle(mut seed: u64) -> Option<(Vec<Move>, Vec<Move>)> {
        let mut p = Position::start();
        let mut seen: Vec<(Position, usize)> = vec![(p, 0)];
        let mut played: Vec<Move> = Vec::new();
        loop {
            let mut ms = MoveList::new();
            p.legal_moves(&mut ms);
            if ms.is_empty() {
                return None;
            }
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let m = ms[(seed >> 33) as usize % ms.len()];
            p.play(m);
            played.push(m);
            if let Some(&(_, at)) = seen.iter().find(|(q, _)| *q == p) {
                return Some((played[..at].to_vec(), played[at..].to_vec()));
            }
            seen.push((p, played.len()));
        }
    }
    let (prefix, cycle) = (1..1000).find_map(find_cycle).expect("random games repeat");
    let mut record = Record::new(Position::start());
    for &m in &prefix {
        record.play(m).unwrap();
    }
    let repeated = *record.position();
    for round in 0..2 {
        for (n, &m) in cycle.iter().enumerate() {
            assert_eq!(record.result(), None, "round {round}, move {n}");
            record.play(m).unwrap();
        }
    }
    // The position has now occurred three times: a draw, whatever the position says.
    assert_eq!(*record.position(), repeated);
    assert_eq!(repeated.outcome(), None);
    assert_eq!(record.occurrences(), 3);
    assert_eq!(record.result(), Some(Outcome::Draw(DrawKind::Repetition)));
    assert!(record.play(cycle[0]).is_err());
    assert_eq!(
        repeated.repetition_rule(),
        Some((3, Outcome::Draw(DrawKind::Repetition)))
    );
}

#[test]
fn the_key_includes_the_side_to_move() {
    let w = pos("W.b.....w.....bB w");
    let b = pos("W.b.....w.....bB b");
    assert_ne!(w.key(), b.key());
    assert_eq!(w.key(), w.recompute_key());
    assert_eq!(w.repetition_key(), w.key());
}

#[test]
fn notation_accepts_x_and_round_trips() {
    let p = pos("WwwwxxxxxxxxbbbB w");
    assert_eq!(p, Position::start());
    assert_eq!(p.to_string(), "Wwww........bbbB w");
    for n in 1..=16u8 {
        let m: Move = n.to_string().parse().unwrap();
        assert_eq!(m.square(), n);
        assert_eq!(m.to_string(), n.to_string());
    }
}

#[test]
fn bad_positions_name_the_problem() {
    let err = |s: &str| s.parse::<Position>().unwrap_err();
    assert_eq!(
        err("Wwww.......bbbB w"),
        ParsePositionError::WrongLength { found: 15 }
    );
    assert_eq!(
        err("Wwww.........bbbB w"),
        ParsePositionError::WrongLength { found: 17 }
    );
    assert_eq!(
        err("Wwww...?....bbbB w"),
        ParsePositionError::BadCharacter {
            square: 8,
            found: '?'
        }
    );
    assert_eq!(
        err("WwwW........bbbB w"),
        ParsePositionError::TooManyKings {
            side: WHITE,
            count: 2
        }
    );
    assert_eq!(
        err("Wwww.......bbbbB w"),
        ParsePositionError::TooManyPawns {
            side: BLACK,
            count: 4
        }
    );
    assert_eq!(err("www.........bbb. w"), ParsePositionError::NoKings);
    assert_eq!(
        err("Wwww........bbbB x"),
        ParsePositionError::BadSide("x".into())
    );
    assert_eq!(err("Wwww........bbbB"), ParsePositionError::MissingSide);
    // The messages say where.
    assert!(err("Wwww...?....bbbB w").to_string().contains("square 8"));
    assert!(err("Wwww........bbbB q")
        .to_string()
        .contains("side to move"));
    assert!(err("WwwW........bbbB w")
        .to_string()
        .contains("White has 2 kings"));
}

#[test]
fn bad_moves_name_the_problem() {
    assert_eq!("".parse::<Move>().unwrap_err(), ParseMoveError::Empty);
    assert_eq!(
        "0".parse::<Move>().unwrap_err(),
        ParseMoveError::OutOfRange("0".into())
    );
    assert_eq!(
        "17".parse::<Move>().unwrap_err(),
        ParseMoveError::OutOfRange("17".into())
    );
    // The message quotes what was typed, however long.
    let long = "99999999999999999999999";
    let err = long.parse::<Move>().unwrap_err();
    assert_eq!(err, ParseMoveError::OutOfRange(long.into()));
    assert_eq!(
        err.to_string(),
        format!("square {long} is off the board (1..16)")
    );
    assert_eq!(
        "0017".parse::<Move>().unwrap_err().to_string(),
        "square 0017 is off the board (1..16)"
    );
    assert_eq!(
        "a3".parse::<Move>().unwrap_err(),
        ParseMoveError::NotANumber("a3".into())
    );
    assert!("99999999999999999999999".parse::<Move>().is_err());
}

#[test]
fn a_position_after_one_king_left_is_over() {
    let p = pos("..w.b...b..b.B.. b");
    assert_eq!(p.outcome(), Some(Outcome::Win(WHITE)));
    assert!(moves(&p).is_empty());
}

#[test]
fn notation_corpora() {
    for line in include_str!("data/positions-valid.txt").lines() {
        if line.starts_with('#') {
            continue;
        }
        assert_eq!(pos(line).to_string(), line);
    }
    for line in include_str!("data/positions-invalid.txt").lines() {
        if line.starts_with('#') {
            continue;
        }
        let (text, kind) = line.split_once('\t').expect("text TAB kind");
        let err = text.parse::<Position>().unwrap_err();
        let got = format!("{err:?}");
        assert!(got.starts_with(kind), "{text:?}: {got}, expected {kind}");
        assert!(!err.to_string().is_empty());
    }
}
