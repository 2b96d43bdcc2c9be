//! Random games to the end through `search::Record`, checking at every step the key against a
//! full recomputation, the notation round trip of the position and of every legal move, that
//! a game goes on exactly while there are legal moves, that the prisoner counters follow the
//! board, that `why_illegal` agrees with the move list, and that every game ends by the limit.

use search::{Game, Outcome, Record};
use throne::players::{Greedy, RandomPlayer};
use throne::{Cell, Move, Piece, Position, MAX_PLIES};

/// A seeded xorshift, so that no `rand` crate is needed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Enemy pieces of the mover that stand imprisoned, as (soldiers, queen) cells.
fn imprisoned_of(p: &Position, player: usize) -> Vec<(Cell, Piece)> {
    Cell::all()
        .filter_map(|c| match p.piece_at(c) {
            Some((owner, kind)) if owner == player && p.is_imprisoned(c) => Some((c, kind)),
            _ => None,
        })
        .collect()
}

fn check_step(before: &Position, mv: Move, after: &Position) {
    assert_eq!(
        after.key(),
        after.recompute_key(),
        "key after {mv} in {before}"
    );
    let text = after.to_string();
    let parsed: Position = text.parse().expect("round trip parses");
    assert_eq!(&parsed, after);
    assert_eq!(parsed.key(), after.key());
    // Counters: the mover gains one per enemy piece imprisoned now and not before.
    let mover = before.side_to_move();
    let was = imprisoned_of(before, 1 - mover);
    let now = imprisoned_of(after, 1 - mover);
    let new: Vec<_> = now.iter().filter(|x| !was.contains(x)).collect();
    let soldiers = new.iter().filter(|(_, k)| *k == Piece::Soldier).count() as u32;
    let queens = new.iter().filter(|(_, k)| *k == Piece::Queen).count() as u32;
    assert_eq!(
        after.ptrap(mover),
        before.ptrap(mover) + soldiers,
        "{before} {mv}"
    );
    assert_eq!(
        after.qtrap(mover),
        before.qtrap(mover) + queens,
        "{before} {mv}"
    );
    assert_eq!(after.ptrap(1 - mover), before.ptrap(1 - mover));
    assert_eq!(after.qtrap(1 - mover), before.qtrap(1 - mover));
    // The mover never stands imprisoned after his own move unless he passed with prisoners.
    if mv != Move::Pass {
        if let Move::Step { to, .. } = mv {
            assert!(!after.is_imprisoned(to), "{mv} self-imprisons in {before}");
        }
    }
    assert_eq!(after.ply(), before.ply() + 1);
}

fn check_legality_agrees(p: &Position, rng: &mut Rng) {
    let legal = p.legal_moves();
    // Every (from, to) pair from the side's own pieces, and a sample of the rest.
    let own: Vec<Cell> = Cell::all()
        .filter(|&c| matches!(p.piece_at(c), Some((o, _)) if o == p.side_to_move()))
        .collect();
    for &from in &own {
        for to in Cell::all() {
            let mv = Move::Step { from, to };
            assert_eq!(
                p.why_illegal(mv).is_none(),
                legal.contains(&mv),
                "{mv} in {p}: {:?}",
                p.why_illegal(mv)
            );
        }
    }
    for _ in 0..50 {
        let from = Cell::from_index(rng.below(91)).unwrap();
        let to = Cell::from_index(rng.below(91)).unwrap();
        let mv = Move::Step { from, to };
        assert_eq!(
            p.why_illegal(mv).is_none(),
            legal.contains(&mv),
            "{mv} in {p}"
        );
    }
    assert_eq!(
        p.why_illegal(Move::Pass).is_none(),
        legal.contains(&Move::Pass)
    );
}

fn play_out(mut choose: impl FnMut(&Position) -> Move, rng: &mut Rng) -> (Outcome, u32) {
    let mut record = Record::new(Position::start());
    loop {
        let pos = record.position().clone();
        let legal = record.legal_moves();
        match record.result() {
            Some(o) => {
                assert!(legal.is_empty());
                assert!(pos.legal_moves().is_empty());
                assert!(pos.ply() <= MAX_PLIES);
                return (o, pos.ply());
            }
            None => {
                assert!(!legal.is_empty(), "no move in {pos}");
                assert!(pos.ply() < MAX_PLIES);
            }
        }
        for m in &legal {
            let text = m.to_string();
            assert_eq!(text.parse::<Move>().unwrap(), *m);
        }
        if pos.ply() % 7 == 0 {
            check_legality_agrees(&pos, rng);
        }
        // With prisoners, only releases (or the forced pass) are listed.
        if !pos.prisoners(pos.side_to_move()).is_empty() {
            assert!(legal.iter().all(|m| match m {
                Move::Step { from, .. } => pos.is_imprisoned(*from),
                Move::Pass => legal.len() == 1,
            }));
        }
        let mv = choose(&pos);
        record.play(mv).expect("legal move");
        check_step(&pos, mv, record.position());
    }
}

#[test]
fn random_games_end_by_the_limit_with_consistent_state() {
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let mut endings = [0u32; 3];
    let mut prisoners_seen = 0;
    for g in 0..24u64 {
        let mut player = RandomPlayer::new(g);
        let mut seen = 0;
        let (o, plies) = play_out(
            |p| {
                if !p.prisoners(p.side_to_move()).is_empty() {
                    seen += 1;
                }
                player.choose(p).expect("game not over")
            },
            &mut rng,
        );
        prisoners_seen += seen;
        if plies < MAX_PLIES {
            assert!(
                matches!(o, Outcome::Win(_)),
                "early end must be a throne win/loss"
            );
        }
        endings[match o {
            Outcome::Win(0) => 0,
            Outcome::Win(_) => 1,
            _ => 2,
        }] += 1;
    }
    assert!(prisoners_seen > 0, "random games should take prisoners");
    eprintln!(
        "random: black {} white {} draws {}",
        endings[0], endings[1], endings[2]
    );
}

#[test]
fn greedy_games_end_by_the_limit_with_consistent_state() {
    let mut rng = Rng(0x5eed_1234_abcd_0002);
    for g in 0..6u64 {
        let mut a = Greedy::new(2 * g);
        let mut b = Greedy::new(2 * g + 1);
        let (_, plies) = play_out(
            |p| {
                if p.side_to_move() == 0 {
                    a.choose(p).expect("game not over")
                } else {
                    b.choose(p).expect("game not over")
                }
            },
            &mut rng,
        );
        assert!(plies <= MAX_PLIES);
    }
}
