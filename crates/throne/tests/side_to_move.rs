//! A side to move that disagrees with the parity of the ply count.
//!
//! Such positions are accepted (74 of the 200 shared Throne vectors have them, and the
//! conformance tool must keep agreeing on every vector); instead each side's moves are counted
//! back from the side to move, so that neither side ever gets a 151st move.

use plyforge_throne::search::Game as _;
use plyforge_throne::{Move, Position, BLACK, WHITE};
use search::{DrawKind, Outcome, Record};

const START_BOARD: &str = "wwwwww/...W.../......../........./........../.........../........../........./......../...B.../bbbbbb";

#[test]
fn black_to_move_at_ply_299_has_one_move_left_and_a_pass_ends_the_game() {
    // In a game from the start, ply 299 is White's; here Black is to move.
    let p: Position = format!("{START_BOARD} b 299 0 0 0 0").parse().unwrap();
    assert_eq!(p.to_move(), BLACK);
    assert_eq!(p.moves_left(BLACK), 1);
    assert_eq!(p.moves_left(WHITE), 0);
    assert_eq!(p.outcome(), None);
    let mut record = Record::new(p);
    // Black's pass is its 150th move; the limit ends the game on equal scores (the start
    // board mirrors itself), and nobody moves a 151st time.
    let result = record.play(Move::Pass).unwrap();
    assert_eq!(result, Some(Outcome::Draw(DrawKind::Score)));
    assert_eq!(record.position().ply(), 300);
    assert!(record.legal_moves().is_empty());
    assert_eq!(record.position().moves_left(BLACK), 0);
    assert_eq!(record.position().moves_left(WHITE), 0);
}

#[test]
fn white_to_move_at_ply_0_counts_from_white() {
    // The start board with White to move at ply 0: White's moves are listed, 150 each.
    let p: Position = format!("{START_BOARD} w 0 0 0 0 0").parse().unwrap();
    assert_eq!(p.to_move(), WHITE);
    assert_eq!((p.moves_left(WHITE), p.moves_left(BLACK)), (150, 150));
    let mut q = p.clone();
    q.play(Move::Pass);
    assert_eq!(q.to_move(), BLACK);
    assert_eq!((q.moves_left(WHITE), q.moves_left(BLACK)), (149, 150));
}

#[test]
fn no_side_gets_a_151st_move_whatever_the_parity() {
    for (side, ply) in [
        ("b", 0),
        ("w", 0),
        ("b", 1),
        ("w", 1),
        ("b", 150),
        ("w", 151),
    ] {
        let p: Position = format!("{START_BOARD} {side} {ply} 0 0 0 0")
            .parse()
            .unwrap();
        let mut record = Record::new(p);
        let mut made = [0u32; 2];
        while record.result().is_none() {
            made[record.position().to_move()] += 1;
            record.play(Move::Pass).unwrap();
        }
        assert!(made[0] <= 150 && made[1] <= 150, "{side} {ply}: {made:?}");
        assert_eq!(record.position().ply(), 300, "{side} {ply}");
    }
}
