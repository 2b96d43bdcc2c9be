//! Every rule of the crate's README on a hand-built position.

use plyforge_chaosclock::search::{Game, MoveList, Outcome, Record};
use plyforge_chaosclock::{Move, Position, EVEN, ODD};

fn pos(s: &str) -> Position {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn mv(s: &str) -> Move {
    s.parse().unwrap()
}

fn legal(p: &Position) -> Vec<String> {
    let mut m = MoveList::new();
    p.legal_moves(&mut m);
    m.iter().map(|m| m.to_string()).collect()
}

fn after(p: &str, m: &str) -> Position {
    let p = pos(p);
    assert_eq!(p.why_illegal(mv(m)), None, "{p} {m}");
    p.after(mv(m))
}

#[test]
fn a_walk_goes_n_squares_clockwise_and_wraps() {
    // Piece 5 on square 10 goes to square 3 (10 + 5 = 15 = 3 on the clock).
    let p = after("1,2,0,4,0,6,7,8,9,5,11,12;0;0", "w5");
    assert_eq!(p.piece_at(3), Some(5));
    assert_eq!(p.piece_at(10), None);
    assert_eq!(p.to_string(), "1,2,5,4,0,6,7,8,9,0,11,12;1;5");
}

#[test]
fn either_side_may_walk_either_colour() {
    let p = pos("1,2,0,4,0,6,7,8,9,5,11,12;1;0");
    assert!(legal(&p).contains(&"w5".to_string()), "Even walks Odd's 5");
    let p = pos("1,0,3,0,5,6,7,8,0,4,11,12;0;0");
    assert!(legal(&p).contains(&"w4".to_string()), "Odd walks Even's 4");
    assert_eq!(p.after(mv("w4")).piece_at(2), Some(4));
}

#[test]
fn a_walk_captures_into_the_owners_hand() {
    // Odd walks 3 from square 6 to square 9, capturing Odd's own 11: Odd's hand.
    let p = after("1,2,0,4,5,3,7,8,11,10,0,12;0;0", "w3");
    assert_eq!(p.piece_at(9), Some(3));
    assert_eq!(p.hand(ODD), vec![9, 11]);
    assert_eq!(p.to_move(), EVEN, "a walk never earns an extra move");
    // Even walks 3 capturing Even's 6: it goes to Even's hand.
    let p = after("1,2,0,4,5,3,7,8,6,10,11,12;1;0", "w3");
    assert_eq!(p.hand(EVEN), vec![6]);
    assert_eq!(p.hand(ODD), vec![9]);
    assert_eq!(
        p.to_move(),
        ODD,
        "capturing the opponent's piece by a walk: no extra move"
    );
}

#[test]
fn a_walk_onto_a_home_piece_is_illegal() {
    // Piece 2 on square 5 would land on square 7, where 7 is home.
    let p = pos("1,0,3,4,2,6,7,8,9,10,11,12;1;0");
    assert!(!legal(&p).contains(&"w2".to_string()));
    let why = p.why_illegal(mv("w2")).unwrap();
    assert!(
        why.reason().contains("square 7") && why.reason().contains("home"),
        "{why}"
    );
}

#[test]
fn home_pieces_never_move() {
    let p = pos("1,0,3,4,2,6,7,8,9,10,11,12;1;0");
    let why = p.why_illegal(mv("w7")).unwrap();
    assert!(why.reason().contains("home"), "{why}");
    assert!(!legal(&p).iter().any(|m| m == "w7" || m == "w1"));
}

#[test]
fn a_piece_landing_on_its_own_square_becomes_home() {
    // Piece 4 on square 12 goes to square 4 and is home.
    let p = after("1,2,3,0,5,6,7,8,9,10,11,4;1;0", "w4");
    assert!(p.is_home(4));
    assert_eq!(p.to_move(), ODD);
}

#[test]
fn the_piece_the_opponent_just_walked_may_not_be_walked() {
    let p = after("1,2,0,4,0,6,7,0,9,5,11,12;0;0", "w5");
    // 5 now on square 3 (its walk would reach the empty square 8); Even may not walk it now.
    assert!(!legal(&p).contains(&"w5".to_string()));
    assert!(p
        .why_illegal(mv("w5"))
        .unwrap()
        .reason()
        .contains("previous move"));
    // After a pass the restriction is gone.
    let q = p.after(Move::Pass);
    assert!(legal(&q).contains(&"w5".to_string()));
}

#[test]
fn the_restriction_does_not_hold_after_an_extra_move() {
    // Odd walked 8 (L = 8); Even places 4 capturing Odd's 9 and moves again: 8 may be walked.
    let p = pos("1,2,3,9,5,6,7,0,0,10,11,8;1;8");
    assert!(!legal(&p).contains(&"w8".to_string()));
    let q = p.after(mv("p4"));
    assert_eq!(q.to_move(), EVEN);
    assert_eq!(q.hand(ODD), vec![9]);
    assert!(
        legal(&q).contains(&"w8".to_string()),
        "{q}: {:?}",
        legal(&q)
    );
}

#[test]
fn piece_12_walks_off_the_board_into_evens_hand() {
    for side in ["0", "1"] {
        let p = after(&format!("1,2,3,4,0,12,7,8,9,10,11,0;{side};0"), "w12");
        assert_eq!(p.square_of(12), None);
        assert_eq!(p.hand(EVEN), vec![6, 12]);
        assert_eq!(p.hand(ODD), vec![5]);
        assert_eq!(p.last_moved(), 12);
    }
}

#[test]
fn placing_puts_a_hand_piece_on_its_home_square() {
    let p = pos("1,2,3,4,0,6,7,8,9,10,11,0;0;0");
    assert_eq!(p.hand(ODD), vec![5]);
    assert_eq!(p.hand(EVEN), vec![12]);
    assert_eq!(legal(&p), vec!["p5", "pass"]);
    let why = p.why_illegal(mv("p12")).unwrap();
    assert!(why.reason().contains("not Odd's piece"), "{why}");
    let why = p.why_illegal(mv("p3")).unwrap();
    assert!(why.reason().contains("not in Odd's hand"), "{why}");
    let q = p.after(mv("p5"));
    assert!(q.is_home(5));
    assert_eq!(q.to_move(), EVEN);
}

#[test]
fn capturing_an_opponents_piece_by_placing_gives_another_move() {
    // Odd places 5 on square 5, capturing Even's 2 (into Even's hand): Odd moves again.
    let p = after("0,12,3,4,2,0,7,0,0,10,0,0;0;12", "p5");
    assert_eq!(p.to_move(), ODD);
    assert_eq!(p.hand(EVEN), vec![2, 6, 8]);
    assert_eq!(p.to_string(), "0,12,3,4,5,0,7,0,0,10,0,0;0;5");
}

#[test]
fn capturing_an_own_piece_by_placing_gives_no_extra_move() {
    // Even places 6 capturing its own 10 (the sample game's fifth move).
    let p = after("4,3,7,11,5,10,12,0,0,2,0,0;1;7", "p6");
    assert_eq!(p.to_move(), ODD);
    assert_eq!(p.to_string(), "4,3,7,11,5,6,12,0,0,2,0,0;0;6");
}

#[test]
fn a_pass_is_always_legal_and_two_in_succession_lose_both() {
    let p = pos("1,2,4,9,5,6,7,8,3,10,11,12;1;9");
    assert_eq!(legal(&p), vec!["pass"]);
    let q = p.after(Move::Pass);
    assert!(q.after_pass());
    assert_eq!(q.outcome(), None);
    let r = q.after(Move::Pass);
    assert_eq!(r.outcome(), Some(Outcome::BothLose));
    assert!(legal(&r).is_empty());
    // A pass, a move, a pass: not in succession.
    let p = pos("1,2,0,4,0,6,7,8,9,5,11,12;0;0");
    let q = p.after(Move::Pass).after(mv("w5")).after(Move::Pass);
    assert_eq!(q.outcome(), None);
}

#[test]
fn a_parsed_position_does_not_follow_a_pass() {
    let p = pos("1,2,3,4,5,6,7,8,9,10,12,11;1;0");
    assert!(!p.after_pass());
    assert_eq!(p.after(Move::Pass).outcome(), None);
}

#[test]
fn completing_with_the_move_wins() {
    // Even places 4 capturing Odd's 1: Even is complete and moves again: Even wins.
    let p = after("0,2,0,1,5,6,0,8,0,10,7,12;1;7", "p4");
    assert_eq!(p.outcome(), Some(Outcome::Win(EVEN)));
    // Even walks Odd's 11 home (capturing 12): Odd is complete and to move: Odd wins.
    let p = after("1,2,3,4,5,6,7,8,9,10,12,11;1;0", "w11");
    assert_eq!(p.outcome(), Some(Outcome::Win(ODD)));
}

#[test]
fn the_opponent_of_a_complete_side_makes_one_last_move() {
    // Odd completes by placing 9; Even (one piece short) gets one last move.
    let p = after("1,2,3,4,5,6,7,8,0,10,11,0;0;0", "p9");
    assert!(p.complete(ODD));
    assert_eq!(p.outcome(), None);
    assert_eq!(p.to_move(), EVEN);
    // Completing too: both win.
    assert_eq!(p.after(mv("p12")).outcome(), Some(Outcome::BothWin));
    // A pass instead: Odd wins.
    assert_eq!(p.after(Move::Pass).outcome(), Some(Outcome::Win(ODD)));
    // Even two pieces short: whatever it does, Odd wins.
    let p = after("1,2,3,4,5,6,7,8,0,0,11,0;0;0", "p9");
    for m in legal(&p) {
        assert_eq!(p.after(mv(&m)).outcome(), Some(Outcome::Win(ODD)), "{m}");
    }
}

#[test]
fn a_capturing_placement_as_the_last_move_gives_no_further_move() {
    // Odd complete; Even's last move places 12 capturing its own 10: no further move and,
    // Even being incomplete, Odd wins. (Even cannot capture Odd's pieces: they are home.)
    let p = pos("1,2,3,4,5,6,7,8,9,0,11,10;1;0");
    assert!(p.complete(ODD));
    let q = p.after(mv("p12"));
    assert_eq!(q.to_move(), ODD);
    assert_eq!(q.outcome(), Some(Outcome::Win(ODD)));
}

#[test]
fn hands_follow_from_the_board() {
    let p = pos("0,0,3,4,5,9,7,1,8,0,11,12;0;1");
    assert_eq!(p.hand(ODD), Vec::<u8>::new());
    assert_eq!(p.hand(EVEN), vec![2, 6, 10]);
}

#[test]
fn the_second_occurrence_of_a_position_ends_the_game_both_losing() {
    // Even's 6 walks 3 -> 9 -> 3 while Odd passes; the position after Even's first walk
    // comes back after the fifth move.
    let start = pos("1,2,6,4,5,0,7,8,0,10,11,12;1;0");
    let mut rec = Record::new(start);
    for (i, m) in ["w6", "pass", "w6", "pass"].iter().enumerate() {
        assert_eq!(rec.play(mv(m)), Ok(None), "move {i}");
    }
    assert_eq!(rec.play(mv("w6")), Ok(Some(Outcome::BothLose)));
    assert_eq!(rec.occurrences(), 2);
}

#[test]
fn the_pass_flag_is_part_of_the_repetition_identity() {
    let p = pos("1,2,6,4,5,0,7,8,0,10,11,12;1;0");
    let after_pass = p.after(Move::Pass).after(Move::Pass);
    assert_eq!(after_pass.outcome(), Some(Outcome::BothLose));
    let q = p.after(Move::Pass);
    let same_board: Position = q.to_string().parse().unwrap();
    assert_eq!(q.board(), same_board.board());
    assert_ne!(q.key(), same_board.key());
    assert_ne!(q.repetition_key(), same_board.repetition_key());
    assert_ne!(q.code(), same_board.code());
}

#[test]
fn a_restriction_that_removes_no_move_is_not_part_of_the_identity() {
    // L = 7 names a home piece (as after placing 7): nothing is restricted.
    let a = pos("1,2,6,4,5,0,7,8,0,10,11,12;0;7");
    let b = pos("1,2,6,4,5,0,7,8,0,10,11,12;0;0");
    assert_eq!(a.restriction(), 0);
    assert_eq!(a.repetition_key(), b.repetition_key());
    assert_eq!(a.code(), b.code());
    // L = 6, which could walk: restricted, a different position.
    let c = pos("1,2,6,4,5,0,7,8,0,10,11,12;0;6");
    assert_eq!(c.restriction(), 6);
    assert_ne!(c.repetition_key(), b.repetition_key());
}

#[test]
fn keys_are_maintained_incrementally() {
    let mut p = Position::start();
    for m in ["w5", "w3", "w4", "w7", "p6", "w11", "w12", "pass", "pass"] {
        p.play(mv(m));
        assert_eq!(p.key(), p.recompute_key(), "after {m}");
    }
}

#[test]
fn the_sample_start_and_random_starts() {
    let s = Position::start();
    assert_eq!(s.to_string(), "8,6,1,11,9,10,12,7,4,2,3,5;1;0");
    assert_eq!(s.to_move(), EVEN);
    for seed in 0..200 {
        let r = Position::random(seed);
        assert_eq!(r, Position::random(seed), "deterministic");
        assert_eq!(r.to_move(), EVEN);
        assert_eq!(r.last_moved(), 0);
        let mut seen = [false; 13];
        for sq in 1..=12u8 {
            let p = r.piece_at(sq).unwrap_or(0);
            assert!(p != 0 && p != sq, "seed {seed}: {r} is not a derangement");
            assert!(!seen[p as usize]);
            seen[p as usize] = true;
        }
    }
    assert_ne!(Position::random(1), Position::random(2));
}
