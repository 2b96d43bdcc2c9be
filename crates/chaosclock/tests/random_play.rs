//! Random games to the end through `search::Record`, checking the contract at every step.

use chaosclock::search::{Game, Outcome, Record};
use chaosclock::{Move, Position};

struct XorShift(u64);
impl XorShift {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

#[test]
fn random_games_end_and_keep_the_contract() {
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let mut results = [0usize; 4];
    let mut plies = 0;
    for game in 0..300u64 {
        let start = if game % 3 == 0 {
            Position::start()
        } else {
            Position::random(game)
        };
        let mut rec = Record::new(start);
        let mut steps = 0;
        while rec.result().is_none() {
            let p = rec.position().clone();
            assert_eq!(p.key(), p.recompute_key(), "{p}");
            // Display -> FromStr: the notation has no pass flag, everything else survives.
            let text = p.to_string();
            let back: Position = text.parse().expect("own notation parses");
            assert_eq!(back.to_string(), text);
            assert_eq!(back.board(), p.board());
            assert_eq!(back.to_move(), p.to_move());
            assert_eq!(back.last_moved(), p.last_moved());
            if !p.after_pass() {
                assert_eq!(back, p);
            }
            let moves = rec.legal_moves();
            assert!(!moves.is_empty(), "{p}: no moves before the end");
            assert_eq!(moves.last(), Some(&Move::Pass));
            for &m in &moves {
                assert_eq!(m.to_string().parse::<Move>(), Ok(m));
                assert_eq!(p.why_illegal(m), None, "{p} {m}");
            }
            // Passes are rare so that games get somewhere.
            let m = if moves.len() > 1 && rng.below(20) != 0 {
                moves[rng.below(moves.len() - 1)]
            } else {
                Move::Pass
            };
            rec.play(m).expect("legal");
            steps += 1;
            assert!(steps < 100_000, "game {game} does not end");
        }
        plies += steps;
        assert!(rec.legal_moves().is_empty());
        let i = match rec.result().expect("over") {
            Outcome::Win(0) => 0,
            Outcome::Win(_) => 1,
            Outcome::BothWin => 2,
            Outcome::BothLose | Outcome::Draw(_) => 3,
        };
        results[i] += 1;
    }
    assert!(plies > 3000, "{plies} plies");
    assert!(results.iter().all(|&n| n > 0), "results {results:?}");
}
