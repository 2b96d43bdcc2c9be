//! The shared random-play check (`search::conformance`), with Chaos Clock's own invariants:
//! the notation keeps everything but the pass flag, and a pass is always the last move.

use plyforge_chaosclock::search::conformance::{play_checked, RandomPlay};
use plyforge_chaosclock::search::{Game, Outcome};
use plyforge_chaosclock::{Move, Position, EVEN, ODD};

#[test]
fn random_games_end_and_keep_the_contract() {
    let stats = play_checked(
        |game| {
            if game % 3 == 0 {
                Position::start()
            } else {
                Position::random(game as u64)
            }
        },
        &RandomPlay::new(300, 0x9E37_79B9_7F4A_7C15),
        // Passes are rare so that games get somewhere.
        |_, moves, rng| {
            if moves.len() > 1 && rng.below(20) != 0 {
                moves[rng.below(moves.len() - 1)]
            } else {
                Move::Pass
            }
        },
        |record, moves| {
            let p = record.position();
            // Display -> FromStr: the notation has no pass flag, everything else survives.
            let back: Position = p.to_string().parse().expect("own notation parses");
            assert_eq!(back.board(), p.board());
            assert_eq!(back.to_move(), p.to_move());
            assert_eq!(back.last_moved(), p.last_moved());
            if !p.after_pass() {
                assert_eq!(&back, p);
            }
            if record.result().is_none() {
                assert_eq!(moves.last(), Some(&Move::Pass));
            }
        },
    );
    assert!(stats.plies > 3000, "{} plies", stats.plies);
    for outcome in [
        Outcome::Win(ODD),
        Outcome::Win(EVEN),
        Outcome::BothWin,
        Outcome::BothLose,
    ] {
        assert!(stats.count(outcome) > 0, "{outcome:?}: {:?}", stats.ended);
    }
}
