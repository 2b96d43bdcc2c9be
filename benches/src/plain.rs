//! A plain hand-written alpha-beta, the kind a programmer writes for one game without a
//! library: negamax with principal-variation search, iterative deepening with a full window,
//! a small two-slot transposition table (one slot kept by depth, one always replaced), the
//! table's move first and then the game's own move order, no history or killers. It is the
//! limit a generic library is measured against in `cargo xtask bench` (on the benchmark games
//! a user would write: Connect Four, Othello and Breakthrough).
//!
//! It uses only the rules (`Game`: moves, play, outcome, key) and an evaluation from the side
//! to move's view; none of the engine. Wins score `MATE - plies` from the root, as the
//! engine's do, and the table keeps them relative to the node; table entries are used at
//! their depth or deeper, as every such program does (in games where a position's plies
//! from the root decide its remaining depth, as in Connect Four and Othello, no deeper entry
//! of a position exists within one iteration, so the value is the fixed-depth minimax value;
//! in Breakthrough one can, through captures, but the report checks every value against the
//! engine's, which uses deeper entries only to order moves).

use plyforge::search::{self, Game, MoveList, Outcome, MATE, MAX_EVAL};

/// Bound kinds of the table.
const EXACT: u8 = 0;
const LOWER: u8 = 1;
const UPPER: u8 = 2;

/// One table slot.
#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    value: i32,
    depth: u8,
    bound: u8,
    /// The best move's index in the legal-move list, or `u8::MAX`.
    mv: u8,
}

/// The search of one game `G` with the evaluation `eval` (from the side to move's view).
pub struct Plain<G: Game, F> {
    eval: F,
    table: Vec<[Slot; 2]>,
    /// Nodes visited (every call of the search), all iterations.
    pub nodes: u64,
    _game: std::marker::PhantomData<fn(&G)>,
}

/// A value from the node's view into the table (wins relative to the node).
fn to_table(v: i32, ply: i32) -> i32 {
    if v > MAX_EVAL {
        v + ply
    } else if v < -MAX_EVAL {
        v - ply
    } else {
        v
    }
}

fn from_table(v: i32, ply: i32) -> i32 {
    if v > MAX_EVAL {
        v - ply
    } else if v < -MAX_EVAL {
        v + ply
    } else {
        v
    }
}

impl<G: Game, F: Fn(&G) -> i32> Plain<G, F> {
    /// A search with a table of about `mib` MiB.
    pub fn new(eval: F, mib: usize) -> Self {
        let n = (mib << 20) / std::mem::size_of::<[Slot; 2]>();
        Plain {
            eval,
            table: vec![[Slot::default(); 2]; n.max(1)],
            nodes: 0,
            _game: std::marker::PhantomData,
        }
    }

    /// Forgets the table and the node count.
    pub fn clear(&mut self) {
        self.table
            .iter_mut()
            .for_each(|b| *b = [Slot::default(); 2]);
        self.nodes = 0;
    }

    /// The value of `root` at `depth` for the player to move (iterative deepening from 1),
    /// and the best move.
    pub fn search(&mut self, root: &G, depth: u32) -> (i32, Option<G::Move>) {
        let mut value = 0;
        for d in 1..=depth.max(1) {
            value = self.negamax(root, d as i32, 0, -MATE - 1, MATE + 1);
        }
        let best = self.probe(root.key()).and_then(|s| {
            let moves = root.moves();
            moves.get(s.mv as usize).copied()
        });
        (value, best)
    }

    fn bucket(&self, key: u64) -> usize {
        ((key as u128 * self.table.len() as u128) >> 64) as usize
    }

    fn probe(&self, key: u64) -> Option<Slot> {
        self.table[self.bucket(key)]
            .iter()
            .copied()
            .filter(|s| s.key == key && s.depth > 0)
            .max_by_key(|s| s.depth)
    }

    fn store(&mut self, key: u64, slot: Slot) {
        let i = self.bucket(key);
        let b = &mut self.table[i];
        if b[0].key == key || slot.depth >= b[0].depth {
            b[0] = slot;
        } else {
            b[1] = slot;
        }
    }

    fn negamax(&mut self, pos: &G, depth: i32, ply: i32, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if let Some(o) = pos.outcome() {
            return match o {
                Outcome::Win(p) if p == pos.to_move() => MATE - ply,
                Outcome::Win(_) => -(MATE - ply),
                _ => 0,
            };
        }
        if depth == 0 {
            return (self.eval)(pos);
        }
        let key = pos.key();
        let mut tt_move = u8::MAX;
        if let Some(s) = self.probe(key) {
            tt_move = s.mv;
            if s.depth as i32 >= depth {
                let v = from_table(s.value, ply);
                match s.bound {
                    EXACT => return v,
                    LOWER => alpha = alpha.max(v),
                    _ => beta = beta.min(v),
                }
                if alpha >= beta {
                    return v;
                }
            }
        }
        let mut moves: MoveList<G::Move> = MoveList::new();
        pos.legal_moves(&mut moves);
        // The table's move first, then the game's order.
        let mut order: MoveList<u8> = (0..moves.len() as u8).collect();
        if let Some(i) = order.iter().position(|&i| i == tt_move) {
            order[..=i].rotate_right(1);
        }
        let alpha0 = alpha;
        let mut best = -MATE - 1;
        let mut best_i = order[0];
        let mut child = pos.clone();
        for (k, &i) in order.iter().enumerate() {
            child.clone_from(pos);
            child.play(moves[i as usize]);
            let v = if k == 0 {
                -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha)
            } else {
                let v = -self.negamax(&child, depth - 1, ply + 1, -alpha - 1, -alpha);
                if v > alpha && v < beta {
                    -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha)
                } else {
                    v
                }
            };
            if v > best {
                best = v;
                best_i = i;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let bound = if best <= alpha0 {
            UPPER
        } else if best >= beta {
            LOWER
        } else {
            EXACT
        };
        self.store(
            key,
            Slot {
                key,
                value: to_table(best, ply),
                depth: depth as u8,
                bound,
                mv: best_i,
            },
        );
        best
    }
}

/// Whether two root values agree: equal, or both forced wins or losses (engines that keep
/// no distance to the end report a win without it).
pub fn same_value(a: i32, b: i32) -> bool {
    a == b
        || (a > search::MATE_BOUND && b > search::MATE_BOUND)
        || (a < -search::MATE_BOUND && b < -search::MATE_BOUND)
}
