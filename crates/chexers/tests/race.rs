//! The race table (`race_actions`) against its definition: a breadth-first search over the
//! rules' own positions, where one player is alone on the board (the others, without
//! pieces, pass), for the fewest of its actions to make a number of exits.

use std::collections::{HashSet, VecDeque};

use plyforge_chexers::search::rng::XorShift64Star as Rng;
use plyforge_chexers::search::Game;
use plyforge_chexers::{race_actions, race_to_win, Hex, Position, RACE_PIECES};

const ROWS: [usize; 7] = [4, 5, 6, 7, 6, 5, 4];

/// The position with `player`'s pieces on the hexes of `set` (bit `i`: hex `i` of the
/// notation's order), nobody else's, `player` to move.
fn alone(player: usize, set: u64, exits: u32) -> Position {
    let letter = ['r', 'g', 'b'][player];
    let mut rows = Vec::new();
    let mut i = 0;
    for len in ROWS {
        let mut row = String::new();
        for _ in 0..len {
            row.push(if set & (1u64 << i) != 0 { letter } else { '.' });
            i += 1;
        }
        rows.push(row);
    }
    let mut counts = [0; 3];
    counts[player] = exits;
    // Enough turns behind for the exits, with `player` to move.
    let turns = 3 * 4 + player as u32;
    let text = format!(
        "{} {letter} {},{},{} {turns}",
        rows.join("/"),
        counts[0],
        counts[1],
        counts[2]
    );
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The fewest actions of `player` to make `exits` exits from `pos` by the rules, the other
/// players passing: breadth-first over the player's moves.
fn by_search(pos: &Position, player: usize, exits: u32) -> Option<u32> {
    let goal = pos.exits(player) + exits;
    let mut seen = HashSet::new();
    let mut queue = VecDeque::new();
    seen.insert((pos.pieces(player), pos.exits(player)));
    queue.push_back((pos.clone(), 0u32));
    while let Some((p, d)) = queue.pop_front() {
        if p.exits(player) >= goal {
            return Some(d);
        }
        for m in p.moves() {
            let mut next = p.clone();
            next.play(m);
            // The two others, without pieces, pass (unless the game ended).
            while next.outcome().is_none() && next.to_move() != player {
                let forced = next.moves();
                assert_eq!(forced.len(), 1, "{next}");
                next.play(forced[0]);
            }
            if seen.insert((next.pieces(player), next.exits(player))) {
                queue.push_back((next, d + 1));
            }
        }
    }
    None
}

fn random_set(rng: &mut Rng, k: usize) -> u64 {
    let mut set = 0u64;
    while (set.count_ones() as usize) < k {
        set |= 1u64 << rng.below(37);
    }
    set
}

#[test]
fn the_table_equals_a_search_over_the_rules() {
    let mut rng = Rng::seeded(28);
    let mut checked = 0;
    for k in 1..=RACE_PIECES {
        let samples = if k == RACE_PIECES { 2 } else { 4 };
        for _ in 0..samples {
            for player in 0..3 {
                let set = random_set(&mut rng, k);
                for n in 1..=k as u32 {
                    let pos = alone(player, set, 4 - n);
                    assert_eq!(
                        race_actions(player, set, n),
                        by_search(&pos, player, n),
                        "{pos}: {n} exits"
                    );
                    assert_eq!(race_to_win(&pos, player), race_actions(player, set, n));
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 50);
}

#[test]
fn the_start_with_leapfrogs_and_the_three_players_alike() {
    let start = Position::start();
    for p in 0..3 {
        // Alone, four pieces leapfrogging make four exits in 18 actions, against 28 in
        // single steps (6 steps and an exit each); one piece needs its 6 steps and the exit.
        assert_eq!(race_actions(p, start.pieces(p), 4), Some(18));
        assert_eq!(race_actions(p, start.pieces(p), 1), Some(7));
        assert_eq!(race_actions(p, start.pieces(p), 0), Some(0));
        let pos = alone(p, start.pieces(p), 0);
        assert_eq!(by_search(&pos, p, 2), race_actions(p, start.pieces(p), 2));
    }
}

#[test]
fn fewer_pieces_than_exits_has_no_race_and_more_pieces_count_the_closest_four() {
    let hex = |q, r| Hex::new(q, r).unwrap().bit();
    assert_eq!(race_actions(0, hex(0, 0), 2), None);
    assert_eq!(race_actions(0, 0, 1), None);
    // Red on an exit hex: one action.
    assert_eq!(race_actions(0, hex(3, -1), 1), Some(1));
    // Five pieces: the one far behind (distance 6) is left out, the four on the exit edge
    // exit in four actions.
    let edge = hex(3, -3) | hex(3, -2) | hex(3, -1) | hex(3, 0);
    assert_eq!(race_actions(0, edge | hex(-3, 1), 4), Some(4));
    assert_eq!(
        race_actions(0, edge | hex(-3, 1), 4),
        race_actions(0, edge, 4)
    );
}
