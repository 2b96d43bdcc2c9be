//! Race distances: the fewest actions a player needs to make its exits with its own pieces
//! alone on the board, stepping, jumping over its own pieces (a jump moves a piece two hexes
//! in one action, so pieces that leapfrog each other race twice as fast) and exiting.
//!
//! The values come from a table of every set of at most [`RACE_PIECES`] pieces and every
//! number of exits up to their count, computed once (on first use, in a few tens of
//! milliseconds) by a shortest-path search from the ends backwards. The board's three-fold
//! symmetry maps every player onto Red, so one table serves all three.
//!
//! Without the other players' pieces this is a *solitaire* distance: other pieces can block
//! a path, and a piece can jump over an opponent's piece too (converting it). It is exact
//! once nobody else stands in the way, and it measures a player's tempo better than the
//! distances of its pieces to the exit edge, which ignore leapfrogging.

use std::sync::OnceLock;

use search::Game;

use crate::action::Move;
use crate::board::{
    hex_distance, index_of, Bits, CELLS, COORDS, DISTANCE, EXIT_HEXES, LANDING, NEIGHBOUR, NONE,
};
use crate::position::{Position, EXITS_TO_WIN, PLAYERS};

/// The most pieces of one player the table covers; of a player with more pieces on the
/// board, [`race_actions`] counts its [`RACE_PIECES`] pieces closest to the exit edge.
pub const RACE_PIECES: usize = 4;

/// `BINOMIAL[n][k]` for `n ≤ 37`, `k ≤ 4`.
const fn binomials() -> [[u32; RACE_PIECES + 1]; CELLS + 1] {
    let mut out = [[0u32; RACE_PIECES + 1]; CELLS + 1];
    let mut n = 0;
    while n <= CELLS {
        out[n][0] = 1;
        let mut k = 1;
        while k <= RACE_PIECES {
            out[n][k] = if n == 0 {
                0
            } else {
                out[n - 1][k - 1] + out[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    out
}

const BINOMIAL: [[u32; RACE_PIECES + 1]; CELLS + 1] = binomials();

/// The rank of a set of `k = set.count_ones()` hexes among all `k`-sets (colex order).
#[inline]
fn rank(set: u64) -> usize {
    let mut r = 0;
    for (i, c) in Bits(set).enumerate() {
        r += BINOMIAL[c][i + 1];
    }
    r as usize
}

/// `ROTATE[player][hex]`: the hex in Red's frame (the rotation of the board that takes the
/// player's exit edge to Red's).
const fn rotations() -> [[u8; CELLS]; 3] {
    let mut out = [[0u8; CELLS]; 3];
    let mut i = 0;
    while i < CELLS {
        let (q, r) = COORDS[i];
        let s = -q - r;
        out[0][i] = i as u8;
        out[1][i] = index_of(r, s); // (q, r, s) -> (r, s, q): r = 3 becomes q = 3
        out[2][i] = index_of(s, q); // (q, r, s) -> (s, q, r): s = 3 becomes q = 3
        i += 1;
    }
    out
}

const ROTATE: [[u8; CELLS]; 3] = rotations();

/// The set `set` of `player`'s pieces in Red's frame.
#[inline]
fn to_red(player: usize, set: u64) -> u64 {
    if player == 0 {
        return set;
    }
    let mut out = 0;
    for c in Bits(set) {
        out |= 1u64 << ROTATE[player][c];
    }
    out
}

/// The table: `layers[k][n - 1][rank]` = the fewest actions for `n` exits from a set of `k`
/// pieces (`1 ≤ n ≤ k ≤ 4`), in Red's frame.
struct Table {
    layers: Vec<Vec<Vec<u8>>>,
}

/// Every `k`-set of hexes, in any order.
fn sets(k: usize) -> Vec<u64> {
    fn go(from: usize, k: usize, acc: u64, out: &mut Vec<u64>) {
        if k == 0 {
            out.push(acc);
            return;
        }
        for c in from..CELLS {
            go(c + 1, k - 1, acc | 1u64 << c, out);
        }
    }
    let mut out = Vec::with_capacity(BINOMIAL[CELLS][k] as usize);
    go(0, k, 0, &mut out);
    out
}

/// The sets one step or jump away from `set` (the same number of pieces), into `out`.
fn moves(set: u64, out: &mut Vec<u64>) {
    out.clear();
    for c in Bits(set) {
        for d in 0..6 {
            let n = NEIGHBOUR[c][d];
            if n == NONE {
                continue;
            }
            let target = if set & (1u64 << n) == 0 {
                n
            } else {
                let l = LANDING[c][d];
                if l == NONE || set & (1u64 << l) != 0 {
                    continue;
                }
                l
            };
            out.push(set & !(1u64 << c) | 1u64 << target);
        }
    }
}

const UNSEEN: u8 = u8::MAX;

impl Table {
    fn build() -> Table {
        let exits = EXIT_HEXES[0];
        let mut layers: Vec<Vec<Vec<u8>>> = vec![Vec::new()];
        let mut next = Vec::new();
        for k in 1..=RACE_PIECES {
            let all = sets(k);
            let size = all.len();
            let mut by_need = Vec::with_capacity(k);
            for n in 1..=k {
                // Each set's best value through an exit now; then unit steps inside the layer
                // (steps and jumps can be undone, so the layer's graph is undirected and a
                // set's value is the least of `exit value + distance` over the layer).
                let mut dist = vec![UNSEEN; size];
                let mut buckets: Vec<Vec<u32>> = Vec::new();
                for &set in &all {
                    let mut best = UNSEEN;
                    for c in Bits(set & exits) {
                        let rest = set & !(1u64 << c);
                        let after = if n == 1 {
                            0
                        } else {
                            layers[k - 1][n - 2][rank(rest)]
                        };
                        best = best.min(after.saturating_add(1));
                    }
                    if best != UNSEEN {
                        let r = rank(set);
                        dist[r] = best;
                        if buckets.len() <= best as usize {
                            buckets.resize(best as usize + 1, Vec::new());
                        }
                        buckets[best as usize].push(r as u32);
                    }
                }
                let by_rank: Vec<u64> = {
                    let mut v = vec![0u64; size];
                    for &set in &all {
                        v[rank(set)] = set;
                    }
                    v
                };
                let mut v = 0;
                while v < buckets.len() {
                    let mut i = 0;
                    while i < buckets[v].len() {
                        let r = buckets[v][i] as usize;
                        i += 1;
                        if dist[r] as usize != v {
                            continue;
                        }
                        moves(by_rank[r], &mut next);
                        for &m in &next {
                            let mr = rank(m);
                            if dist[mr] as usize > v + 1 {
                                dist[mr] = (v + 1) as u8;
                                if buckets.len() <= v + 1 {
                                    buckets.resize(v + 2, Vec::new());
                                }
                                buckets[v + 1].push(mr as u32);
                            }
                        }
                    }
                    v += 1;
                }
                debug_assert!(dist.iter().all(|&d| d != UNSEEN));
                by_need.push(dist);
            }
            layers.push(by_need);
        }
        Table { layers }
    }
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(Table::build)
}

/// The `RACE_PIECES` pieces of `set` closest to `player`'s exit edge (ties to the lower
/// hex index), or `set` itself when it has no more.
#[inline]
fn closest(player: usize, set: u64) -> u64 {
    if set.count_ones() as usize <= RACE_PIECES {
        return set;
    }
    let mut out = 0u64;
    let mut left = RACE_PIECES;
    for d in 0..=6u8 {
        for c in Bits(set) {
            if DISTANCE[player][c] == d {
                out |= 1u64 << c;
                left -= 1;
                if left == 0 {
                    return out;
                }
            }
        }
    }
    out
}

/// The fewest actions in which `player` makes `exits` exits with the pieces `pieces` (a set
/// of hexes, bit `i` for hex `i`) alone on the board, or `None` when it has fewer pieces than
/// that. With more than [`RACE_PIECES`] pieces, the race of its [`RACE_PIECES`] pieces
/// closest to the exit edge (the others could only help, as stepping stones).
///
/// ```
/// use plyforge_chexers::{race_actions, Position};
/// // Red's four pieces at the start, alone: 4 exits need 18 actions with leapfrogs, against
/// // 28 in single steps (6 steps and an exit each).
/// let start = Position::start();
/// assert_eq!(race_actions(0, start.pieces(0), 4), Some(18));
/// assert_eq!(race_actions(0, start.pieces(0), 0), Some(0));
/// assert_eq!(race_actions(0, 0, 1), None);
/// ```
pub fn race_actions(player: usize, pieces: u64, exits: u32) -> Option<u32> {
    if exits == 0 {
        return Some(0);
    }
    let set = closest(player, pieces);
    let k = set.count_ones() as usize;
    if (exits as usize) > k || exits > EXITS_TO_WIN as u32 {
        return None;
    }
    let red = to_red(player, set);
    Some(table().layers[k][exits as usize - 1][rank(red)] as u32)
}

/// The fewest actions `player` needs to win alone on the board from `pos` (its exits still
/// needed, with its pieces), or `None` when it owns fewer pieces than it still needs.
pub fn race_to_win(pos: &Position, player: usize) -> Option<u32> {
    let need = (EXITS_TO_WIN as u32).saturating_sub(pos.exits(player));
    race_actions(player, pos.pieces(player), need)
}

/// The player who wins the race from `pos`, if nobody can stop it: by the race table
/// ([`crate::race_to_win`], each player alone on the board) it makes its fourth exit
/// first, the turn order counted (the player to move first), and no other player's piece
/// can reach one of its pieces and jump it before then: a piece `d` steps away needs at
/// least `⌈(d − 1) / 2⌉` actions to stand beside it (two steps an action at best) and
/// one more to jump, and its player has fewer actions than that before the leader's
/// last exit. (Its pieces move too, toward their exits; a piece standing in their way is
/// not counted.) `None` when the leader can be reached.
///
/// ```
/// use plyforge_chexers::{race_leader, Position};
/// // At the start everyone's race is 18 actions long: plenty of time to meet.
/// assert_eq!(race_leader(&Position::start()), None);
/// ```
pub fn race_leader(pos: &Position) -> Option<usize> {
    if pos.outcome().is_some() {
        return None;
    }
    let first = pos.to_move();
    let offset = |p: usize| ((p + PLAYERS - first) % PLAYERS) as u32;
    // The ply (from now) of each player's fourth exit, alone on the board.
    let finish = |p: usize| -> Option<u32> {
        let r = race_to_win(pos, p)?;
        Some(offset(p) + PLAYERS as u32 * r.saturating_sub(1))
    };
    let times = [finish(0), finish(1), finish(2)];
    // Players' offsets differ, so the times never tie.
    let leader = (0..PLAYERS)
        .filter(|&p| times[p].is_some())
        .min_by_key(|&p| times[p])?;
    let end = times[leader]?;
    let own = pos.pieces(leader);
    for q in (0..PLAYERS).filter(|&q| q != leader) {
        // q's actions before the leader's last exit.
        let actions = if offset(q) < end {
            (end - offset(q) - 1) / PLAYERS as u32 + 1
        } else {
            0
        };
        for o in Bits(pos.pieces(q)) {
            for c in Bits(own) {
                if (hex_distance(o, c) - 1).div_ceil(2) < actions {
                    return None;
                }
            }
        }
    }
    Some(leader)
}

/// The race table's move for the race leader: when the player to move leads the race
/// ([`race_leader`]), a legal move that wins at once, else the move after
/// which its race by the race table ([`crate::race_to_win`]) is shortest and it still
/// leads (the first such in the order of [`Game::legal_moves`]). An action takes one
/// action off the race at best with its own pieces alone; a jump over another player's
/// piece, which converts it, can take more. `None` otherwise (no leader, another
/// leader, or every move losing the lead).
///
/// ```
/// use plyforge_chexers::{race_move, Position};
/// // Red, alone in front, three exits made: it exits.
/// let pos: Position = "..../...../....gr/b....../....../...../g... r 3,0,0 30".parse().unwrap();
/// assert_eq!(race_move(&pos).unwrap().to_string(), "EXIT 3 -1");
/// assert_eq!(race_move(&Position::start()), None);
/// ```
pub fn race_move(pos: &Position) -> Option<Move> {
    let me = pos.to_move();
    if race_leader(pos) != Some(me) {
        return None;
    }
    let mut best: Option<(u32, Move)> = None;
    for m in pos.moves() {
        let mut child = pos.clone();
        child.play(m);
        if child.outcome().is_some() {
            return Some(m);
        }
        if race_leader(&child) != Some(me) {
            continue;
        }
        if let Some(r) = race_to_win(&child, me) {
            match best {
                Some((b, _)) if b <= r => {}
                _ => best = Some((r, m)),
            }
        }
    }
    best.map(|(_, m)| m)
}
