//! The shared random-play check (`search::conformance`), with Jumpy3's own invariants at
//! every position: the mirror image, `after`, and the noisy moves.

use plyforge_jumpy3::search::conformance::{random_play, RandomPlay};
use plyforge_jumpy3::search::{DrawKind, Game, MoveList, Outcome};
use plyforge_jumpy3::{Move, Position, BLACK, WHITE};

#[test]
fn random_games_keep_every_invariant_and_end() {
    let stats = random_play(
        |_| Position::start(),
        &RandomPlay::new(500, 0x9E37_79B9_7F4A_7C15),
        |record, moves| {
            let p = *record.position();
            assert_eq!(p.to_string().parse::<Position>().unwrap(), p);
            assert_eq!(p.mirror().mirror(), p);
            assert!(moves.len() <= 4);
            for &m in moves {
                // The mirror image plays the mirrored move to the mirrored position.
                let mirrored = Move::new(17 - m.square()).unwrap();
                assert_eq!(p.mirror().after(mirrored), p.after(m).mirror());
            }
            // Noisy moves: exactly the captures and the king leaving.
            let mut noisy = MoveList::new();
            p.noisy_moves(&mut noisy);
            let expected: Vec<Move> = p
                .moves()
                .iter()
                .copied()
                .filter(|&m| {
                    let c = p.after(m);
                    let them = 1 - p.to_move();
                    c.outcome().is_some() || c.pieces(them) != p.pieces(them)
                })
                .collect();
            assert_eq!(noisy.to_vec(), expected, "{p}");
        },
    );
    // Random play reaches every kind of end, and no other.
    let (white, black) = (
        stats.count(Outcome::Win(WHITE)),
        stats.count(Outcome::Win(BLACK)),
    );
    let repetition = stats.count(Outcome::Draw(DrawKind::Repetition));
    assert!(
        white > 0 && black > 0 && repetition > 0,
        "{white} {black} {repetition}"
    );
    assert_eq!(white + black + repetition, 500, "{:?}", stats.ended);
}
