//! The shared random-play check (`search::conformance`) with Throne's own invariants at every
//! step: the prisoner counters follow the board, `why_illegal` agrees with the move list on
//! every move of the side's pieces, prisoners are released first, and every game ends by the
//! limit.

use plyforge_throne::players::{Greedy, RandomPlayer};
use plyforge_throne::search::conformance::{play_checked, RandomPlay, RandomPlayStats};
use plyforge_throne::search::rng::XorShift64Star;
use plyforge_throne::search::{Game, Outcome, Record};
use plyforge_throne::{Cell, Move, Piece, Position, MAX_PLIES};

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
    let mover = before.to_move();
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

fn check_legality_agrees(p: &Position, rng: &mut XorShift64Star) {
    let legal = p.moves();
    // Every (from, to) pair from the side's own pieces, and a sample of the rest.
    let own: Vec<Cell> = Cell::all()
        .filter(|&c| matches!(p.piece_at(c), Some((o, _)) if o == p.to_move()))
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

/// Plays `games` games from the start with `choose(game, position)`, checking every step.
fn play_out(
    games: usize,
    seed: u64,
    mut choose: impl FnMut(usize, &Position) -> Move,
) -> RandomPlayStats {
    let mut rng = XorShift64Star::seeded(seed);
    let mut previous: Option<Position> = None;
    let game = std::cell::Cell::new(0);
    play_checked(
        |i| {
            game.set(i);
            Position::start()
        },
        &RandomPlay::new(games, seed),
        |record, _, _| choose(game.get(), record.position()),
        |record: &Record<Position>, legal| {
            let pos = record.position();
            if let (Some(before), Some(&mv)) = (&previous, record.moves().last()) {
                check_step(before, mv, pos);
            }
            previous = (record.result().is_none()).then(|| pos.clone());
            match record.result() {
                Some(_) => assert!(pos.ply() <= MAX_PLIES),
                None => assert!(pos.ply() < MAX_PLIES),
            }
            if pos.ply() % 7 == 0 && record.result().is_none() {
                check_legality_agrees(pos, &mut rng);
            }
            // With prisoners, only releases (or the forced pass) are listed.
            if !pos.prisoners(pos.to_move()).is_empty() {
                assert!(legal.iter().all(|m| match m {
                    Move::Step { from, .. } => pos.is_imprisoned(*from),
                    Move::Pass => legal.len() == 1,
                }));
            }
            if let Some(o) = record.result() {
                if pos.ply() < MAX_PLIES {
                    assert!(
                        matches!(o, Outcome::Win(_)),
                        "early end must be a throne win/loss"
                    );
                }
            }
        },
    )
}

#[test]
fn random_games_end_by_the_limit_with_consistent_state() {
    let mut prisoners_seen = 0;
    let mut players: Vec<RandomPlayer> = (0..24).map(RandomPlayer::new).collect();
    let stats = play_out(24, 0x5eed_1234_abcd_0001, |g, p| {
        if !p.prisoners(p.to_move()).is_empty() {
            prisoners_seen += 1;
        }
        players[g].choose(p).expect("game not over")
    });
    assert_eq!(stats.games, 24);
    assert!(prisoners_seen > 0, "random games should take prisoners");
    eprintln!("random: {:?}", stats.ended);
}

#[test]
fn greedy_games_end_by_the_limit_with_consistent_state() {
    let mut players: Vec<[Greedy; 2]> = (0..6u64)
        .map(|g| [Greedy::new(2 * g), Greedy::new(2 * g + 1)])
        .collect();
    let stats = play_out(6, 0x5eed_1234_abcd_0002, |g, p| {
        players[g][p.to_move()].choose(p).expect("game not over")
    });
    assert_eq!(stats.games, 6);
}
