//! Random games to the end through `search::Record`, checking the invariants at every step.

use jumpy3::search::{DrawKind, Game, MoveList, Outcome, Record};
use jumpy3::{Move, Position};

struct Xorshift(u64);

impl Xorshift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
}

#[test]
fn random_games_keep_every_invariant_and_end() {
    let mut rng = Xorshift(0x9E37_79B9_7F4A_7C15);
    let (mut white, mut black, mut repetition) = (0, 0, 0);
    for _ in 0..500 {
        let mut record = Record::new(Position::start());
        let mut plies = 0;
        loop {
            let p = *record.position();
            assert_eq!(p.key(), p.recompute_key(), "{p}");
            let text = p.to_string();
            assert_eq!(text.parse::<Position>().unwrap(), p);
            assert_eq!(p.mirror().mirror(), p);
            let mut moves = MoveList::new();
            p.legal_moves(&mut moves);
            if let Some(result) = record.result() {
                match result {
                    Outcome::Win(0) => white += 1,
                    Outcome::Win(_) => black += 1,
                    Outcome::Draw(DrawKind::Repetition) => repetition += 1,
                    other => panic!("unexpected result {other:?}"),
                }
                break;
            }
            assert!(!moves.is_empty(), "no move in {p}");
            assert!(moves.len() <= 4);
            for &m in &moves {
                assert_eq!(m.to_string().parse::<Move>().unwrap(), m);
                assert_eq!(p.why_illegal(m), None);
                // The search's way to make a child, into a slot holding another position.
                let mut slot = p.mirror();
                slot.play_from(&p, m);
                assert_eq!(slot, p.after(m), "{p} {m}");
                // The mirror image plays the mirrored move to the mirrored position.
                let mirrored = Move::new(17 - m.square()).unwrap();
                assert_eq!(p.mirror().after(mirrored), p.after(m).mirror());
            }
            // Noisy moves: exactly the captures and the king leaving.
            let mut noisy = MoveList::new();
            p.noisy_moves(&mut noisy);
            let expected: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| {
                    let c = p.after(m);
                    let them = 1 - p.to_move();
                    c.outcome().is_some() || c.pieces(them) != p.pieces(them)
                })
                .collect();
            assert_eq!(noisy.to_vec(), expected, "{p}");
            let m = moves[(rng.next() % moves.len() as u64) as usize];
            record.play(m).unwrap();
            plies += 1;
            assert!(plies < 100_000, "the game does not end");
        }
    }
    // Random play reaches every kind of end.
    assert!(
        white > 0 && black > 0 && repetition > 0,
        "{white} {black} {repetition}"
    );
}
