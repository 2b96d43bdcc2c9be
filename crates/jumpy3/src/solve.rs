//! The exact solver: retrograde analysis over every Jumpy3 position with both kings on the
//! board (each side: its king and 0–3 pawns, either side to move).
//!
//! # Values
//! [`Value`] is for the side to move: `Win(n)` means it wins in `n` plies against any defence
//! (its king leaves on ply `n`), `Loss(n)` that the opponent wins in `n` plies however it
//! defends; the winner shortens and the loser lengthens the game. `Draw` means neither side
//! can force a win: with perfect play the game goes on for ever, which the repetition rule
//! (third occurrence of a position) turns into a drawn game. This is the standard semantics of
//! a cyclic game; it agrees with repetition draws because a side that can force a win can force
//! it without repeating a position (the winner follows strictly shorter distances).
//!
//! # Method
//! Pieces leave the board and never return, and a capture keeps every piece on the board, so
//! the positions fall into layers by the pawns left on each side. The table stores positions
//! from the mover's point of view (a Black-to-move position is mirrored to White-to-move), so
//! layer `(a, b)` holds positions whose mover has `a` pawns and whose opponent has `b`. Layers
//! `(a, b)` and `(b, a)` feed each other and are solved together, after every layer with fewer
//! pawns. Inside a pair, distances are settled one ply at a time: positions settled at distance
//! `d − 1` name their predecessors (by generating un-moves), which are re-examined by a forward
//! look at their children, in parallel with rayon; moves that leave the pair (a pawn or the
//! king leaving) are accounted for once, before the first ply.
//!
//! Each position has a perfect index (combinatorial ranking: the two king squares, then the
//! colex ranks of both pawn sets), and its value is one `u16`: `0` draw, odd `n` win in `n`,
//! even `n` loss in `n`. 28,180,560 positions: 56 MB.
//!
//! # Figures (release build, 2 threads)
//! The whole table takes about 9 s of CPU time (the wall time is about half of it on two
//! idle cores, more on a busy machine) and at most 320 MB of memory: the values, plus a
//! counter, an exit note and the frontier's predecessors (bucketed by index, so that the
//! table is visited nearly in order) for the pair of layers being solved.
//!
//! 16,013,534 positions are wins for the side to move, 11,931,499 losses and 235,527 draws;
//! the longest win takes 380 plies. The start position is a win for White in 25 plies (the
//! engine's alpha-beta search proves the same at depth 25).
//!
//! ```no_run
//! use plyforge_jumpy3::{solve::{Table, Value}, Position};
//! let table = Table::build();
//! let value: Value = table.value(&Position::start());
//! println!("start: {value}, line {:?}", table.line(&Position::start()));
//! ```

use std::fmt;
use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU16, AtomicU8, Ordering};
use std::sync::Arc;

use rayon::prelude::*;
use search::{Evaluator, Game, MoveList, Outcome, Scores, MAX_EVAL};

use crate::position::{Move, Position, BLACK, WHITE};

/// The game-theoretic value of a position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Value {
    /// The side to move wins in this many plies (its king leaves on that ply).
    Win(u32),
    /// The side to move loses in this many plies (0: the opponent has already won).
    Loss(u32),
    /// Neither side can force a win.
    Draw,
}

impl Value {
    /// Decodes a table entry.
    fn from_code(code: u16) -> Value {
        match code {
            0 => Value::Draw,
            n if n % 2 == 1 => Value::Win(n as u32),
            n => Value::Loss(n as u32),
        }
    }

    /// The plies to the end, `None` for a draw.
    pub fn distance(self) -> Option<u32> {
        match self {
            Value::Win(n) | Value::Loss(n) => Some(n),
            Value::Draw => None,
        }
    }

    /// The value one ply earlier, for the player who moved into a position of this value.
    pub fn parent(self) -> Value {
        match self {
            Value::Win(n) => Value::Loss(n + 1),
            Value::Loss(n) => Value::Win(n + 1),
            Value::Draw => Value::Draw,
        }
    }

    /// An ordering key: larger is better for the side to move (quick wins, slow losses).
    fn goodness(self) -> i64 {
        match self {
            Value::Win(n) => 1_000_000 - n as i64,
            Value::Draw => 0,
            Value::Loss(n) => -1_000_000 + n as i64,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(n) => write!(f, "win in {n}"),
            Value::Loss(n) => write!(f, "loss in {n}"),
            Value::Draw => write!(f, "draw"),
        }
    }
}

/// `binom(n, k)` for the small numbers used here.
const fn binom(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    let mut r = 1;
    let mut i = 0;
    while i < k {
        r = r * (n - i) / (i + 1);
        i += 1;
    }
    r
}

/// Number of positions of layer `(a, b)`.
const fn layer_len(a: usize, b: usize) -> usize {
    16 * 15 * binom(14, a) * binom(14 - a, b)
}

/// The index range of layer `(a, b)` in the flat table.
fn layer_range(a: usize, b: usize) -> std::ops::Range<usize> {
    OFFSETS[a][b]..OFFSETS[a][b] + layer_len(a, b)
}

/// Start of each layer in the flat table.
const fn layer_offsets() -> [[usize; 4]; 4] {
    let mut out = [[0; 4]; 4];
    let mut total = 0;
    let mut a = 0;
    while a < 4 {
        let mut b = 0;
        while b < 4 {
            out[a][b] = total;
            total += layer_len(a, b);
            b += 1;
        }
        a += 1;
    }
    out
}

const OFFSETS: [[usize; 4]; 4] = layer_offsets();

/// Number of positions in the table.
pub const TABLE_LEN: usize = OFFSETS[3][3] + layer_len(3, 3);

/// Colex rank of every subset of 14 squares with at most 3 members.
const fn colex_ranks() -> [u16; 1 << 14] {
    let mut out = [0u16; 1 << 14];
    let mut mask = 0;
    while mask < (1 << 14) {
        let mut r = 0;
        let mut k = 0;
        let mut i = 0;
        while i < 14 {
            if mask & (1 << i) != 0 {
                k += 1;
                r += binom(i, k);
            }
            i += 1;
        }
        out[mask] = r as u16;
        mask += 1;
    }
    out
}

static COLEX_RANK: [u16; 1 << 14] = colex_ranks();

/// The `k`-subsets of 14 in colex order (`SUBSETS[k][rank]`).
fn subsets() -> &'static [Vec<u16>; 4] {
    static S: std::sync::OnceLock<[Vec<u16>; 4]> = std::sync::OnceLock::new();
    S.get_or_init(|| {
        let mut out: [Vec<u16>; 4] = Default::default();
        for (k, v) in out.iter_mut().enumerate() {
            *v = vec![0; binom(14, k)];
        }
        for mask in 0u32..(1 << 14) {
            let k = mask.count_ones() as usize;
            if k <= 3 {
                out[k][COLEX_RANK[mask as usize] as usize] = mask as u16;
            }
        }
        out
    })
}

/// Squeezes the bits of `set` out of the positions not in `excluded` (software `pext` with the
/// complement of `excluded` as mask).
#[inline(always)]
fn compress(set: u16, excluded: u16) -> u16 {
    let mut out = 0;
    let mut bits = set;
    while bits != 0 {
        let s = bits.trailing_zeros();
        bits &= bits - 1;
        let below = excluded & ((1u16 << s) - 1);
        out |= 1 << (s - below.count_ones());
    }
    out
}

/// Inverse of [`compress`]: spreads `mask` over the squares not in `excluded`.
#[inline(always)]
fn expand(mask: u16, excluded: u16) -> u16 {
    let mut out = 0;
    let mut free = !excluded;
    let mut m = mask;
    let mut pos = 0;
    while m != 0 {
        let sq = free.trailing_zeros();
        free &= free - 1;
        if m & (1 << pos) != 0 {
            out |= 1 << sq;
            m &= !(1 << pos);
        }
        pos += 1;
    }
    out
}

/// The un-moves of a position (at most 4 pieces, each with at most 5).
type Preds = smallvec::SmallVec<[Rel; 20]>;

/// A position from the mover's point of view: `us` moves rightward (to higher squares).
/// Both kings are on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rel {
    us: u16,
    them: u16,
    kings: u16,
}

impl Rel {
    fn from_position(p: &Position) -> Rel {
        if p.to_move() == WHITE {
            Rel {
                us: p.pieces(WHITE),
                them: p.pieces(BLACK),
                kings: p.kings(),
            }
        } else {
            Rel {
                us: p.pieces(BLACK).reverse_bits(),
                them: p.pieces(WHITE).reverse_bits(),
                kings: p.kings().reverse_bits(),
            }
        }
    }

    /// The position with this mover as `side` (`us` moving rightward means White).
    #[cfg(test)]
    fn to_position(self) -> Position {
        Position::from_bits(self.us, self.them, self.kings, WHITE).expect("a valid position")
    }

    /// The same board seen by the other player (who moves next).
    #[inline(always)]
    fn flip(self) -> Rel {
        Rel {
            us: self.them.reverse_bits(),
            them: self.us.reverse_bits(),
            kings: self.kings.reverse_bits(),
        }
    }

    #[inline(always)]
    fn index(self) -> usize {
        let uk_bit = self.us & self.kings;
        let tk_bit = self.them & self.kings;
        let uk = uk_bit.trailing_zeros() as usize;
        let tk = tk_bit.trailing_zeros() as usize;
        let tk_c = tk - (uk < tk) as usize;
        let our_pawns = self.us & !self.kings;
        let their_pawns = self.them & !self.kings;
        let a = our_pawns.count_ones() as usize;
        let b = their_pawns.count_ones() as usize;
        let r1 = COLEX_RANK[compress(our_pawns, self.kings) as usize] as usize;
        let r2 = COLEX_RANK[compress(their_pawns, self.kings | our_pawns) as usize] as usize;
        OFFSETS[a][b] + ((uk * 15 + tk_c) * binom(14, a) + r1) * binom(14 - a, b) + r2
    }

    fn from_index(index: usize) -> Rel {
        let mut a = 3;
        let mut b = 3;
        'find: for aa in (0..4).rev() {
            for bb in (0..4).rev() {
                if OFFSETS[aa][bb] <= index {
                    a = aa;
                    b = bb;
                    break 'find;
                }
            }
        }
        let mut local = index - OFFSETS[a][b];
        let n2 = binom(14 - a, b);
        let r2 = local % n2;
        local /= n2;
        let n1 = binom(14, a);
        let r1 = local % n1;
        local /= n1;
        let tk_c = local % 15;
        let uk = local / 15;
        let tk = tk_c + (tk_c >= uk) as usize;
        let kings = (1u16 << uk) | (1u16 << tk);
        let subsets = subsets();
        let our_pawns = expand(subsets[a][r1], kings);
        let their_pawns = expand(subsets[b][r2], kings | our_pawns);
        Rel {
            us: our_pawns | (1 << uk),
            them: their_pawns | (1 << tk),
            kings,
        }
    }

    /// The mover's move of the piece on `from` (rightward): the board after it, from the
    /// mover's point of view still, or `None` if the mover's king left (the mover wins).
    #[inline(always)]
    fn advance(self, from: u32) -> Option<Rel> {
        let occ = self.us | self.them;
        let bit = 1u16 << from;
        let king = self.kings & bit != 0;
        let to: Option<u32> = if from == 15 {
            None
        } else if occ & (bit << 1) == 0 {
            Some(from + 1)
        } else {
            let beyond = !occ & (0xFFFFu16 << (from + 1) << 1);
            (beyond != 0).then(|| beyond.trailing_zeros())
        };
        let mut us = self.us & !bit;
        let mut kings = self.kings & !bit;
        let mut them = self.them;
        match to {
            None if king => return None,
            None => {}
            Some(j) => {
                us |= 1 << j;
                if king {
                    kings |= 1 << j;
                }
                if j == from + 2 && them & (bit << 1) != 0 {
                    let c = bit << 1;
                    let empty = !(us | them);
                    let k = 1u16 << (15 - empty.leading_zeros());
                    them = (them & !c) | k;
                    if kings & c != 0 {
                        kings = (kings & !c) | k;
                    }
                }
            }
        }
        Some(Rel { us, them, kings })
    }

    /// Every position (mover's point of view) whose mover, moving a piece without it leaving
    /// the board, produces `self` — where `self` is seen by that same mover (before the flip).
    fn unmoves(self, out: &mut Preds) {
        let occ = self.us | self.them;
        let empty = !occ;
        let mut pieces = self.us;
        while pieces != 0 {
            let j = pieces.trailing_zeros();
            pieces &= pieces - 1;
            if j == 0 {
                continue;
            }
            let jb = 1u16 << j;
            let king = self.kings & jb != 0;
            let put = |us: u16, kings: u16, i: u32| -> (u16, u16) {
                let us = (us & !jb) | (1 << i);
                let kings = if king {
                    (kings & !jb) | (1 << i)
                } else {
                    kings
                };
                (us, kings)
            };
            if empty & (jb >> 1) != 0 {
                // (a) a step from j - 1.
                let (us, kings) = put(self.us, self.kings, j - 1);
                out.push(Rel {
                    us,
                    them: self.them,
                    kings,
                });
                // (c) a capture jump from i = j - 2 over the square j - 1, now empty.
                if j >= 2 {
                    let i = j - 2;
                    let ib = 1u16 << i;
                    let c = jb >> 1;
                    let above_j = 0xFFFFu16 << j << 1;
                    if self.them & ib != 0 && empty & above_j == 0 {
                        // The captured piece landed behind the jumper, on i.
                        let z_king = self.kings & ib != 0;
                        let (us, kings) = put(self.us, self.kings & !ib, i);
                        let them = (self.them & !ib) | c;
                        let kings = if z_king { kings | c } else { kings };
                        out.push(Rel { us, them, kings });
                    } else if empty & ib != 0 {
                        // The captured piece landed on k > j, above every other empty square.
                        let others = empty & !c;
                        let top = 15 - others.leading_zeros(); // others includes i
                        let lowest_k = top.max(j) + 1;
                        if lowest_k < 16 {
                            let mut cands = self.them & (0xFFFFu16 << lowest_k);
                            while cands != 0 {
                                let k = cands.trailing_zeros();
                                cands &= cands - 1;
                                let kb = 1u16 << k;
                                let z_king = self.kings & kb != 0;
                                let (us, kings) = put(self.us, self.kings & !kb, i);
                                let them = (self.them & !kb) | c;
                                let kings = if z_king { kings | c } else { kings };
                                out.push(Rel { us, them, kings });
                            }
                        }
                    }
                }
            } else {
                // (b) a jump without capture from i, the highest empty square below j - 1,
                // over the occupied squares i + 1 ..= j - 1.
                let below = empty & (jb >> 1).wrapping_sub(1);
                if below != 0 {
                    let i = 15 - below.leading_zeros();
                    if j - i > 2 || self.us & (1 << (i + 1)) != 0 {
                        let (us, kings) = put(self.us, self.kings, i);
                        out.push(Rel {
                            us,
                            them: self.them,
                            kings,
                        });
                    }
                }
            }
        }
    }
}

/// The layers solved together: `(a, b)` and `(b, a)` (one layer when `a == b`), whose
/// positions move into each other.
fn layers_of_pair(a: usize, b: usize) -> Vec<(usize, usize)> {
    if a == b {
        vec![(a, a)]
    } else {
        vec![(a, b), (b, a)]
    }
}

/// The solved table: a value for every position with both kings on the board.
pub struct Table {
    values: Vec<u16>,
    max_pawns: usize,
}

impl fmt::Debug for Table {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Table")
            .field("positions", &self.values.len())
            .field("max_pawns", &self.max_pawns)
            .finish()
    }
}

/// Counts of a table's values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Positions solved.
    pub positions: u64,
    /// Wins for the side to move.
    pub wins: u64,
    /// Losses for the side to move.
    pub losses: u64,
    /// Draws.
    pub draws: u64,
    /// The longest distance to the end.
    pub longest: u32,
}

const MAGIC: &[u8; 8] = b"JUMPY3TB";

/// A position whose value in a table does not follow from its children's
/// ([`Table::verify`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Inconsistency {
    /// The position.
    pub position: Position,
    /// Its value in the table.
    pub value: Value,
    /// The value of its mirror image in the table.
    pub mirrored: Value,
    /// The value its children's values give.
    pub children: Value,
}

impl std::fmt::Display for Inconsistency {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: table says {} (mirrored: {}), children say {}",
            self.position, self.value, self.mirrored, self.children
        )
    }
}

impl std::error::Error for Inconsistency {}

impl Table {
    /// Solves every position (both kings on the board, up to three pawns a side), in parallel
    /// on the current rayon pool (see the module's figures for time and memory).
    pub fn build() -> Table {
        Table::build_up_to(3)
    }

    /// Solves the positions with at most `max_pawns` pawns on each side (a closed sub-game:
    /// pawns never return); positions with more pawns are left as draws and
    /// [`Table::value`] panics on them. `max_pawns` above 3 counts as 3.
    pub fn build_up_to(max_pawns: usize) -> Table {
        let max_pawns = max_pawns.min(3);
        let values: Vec<AtomicU16> = (0..TABLE_LEN).map(|_| AtomicU16::new(0)).collect();
        for total in 0..=2 * max_pawns {
            for a in 0..=max_pawns {
                let b = match total.checked_sub(a) {
                    Some(b) if b <= max_pawns && a <= b => b,
                    _ => continue,
                };
                solve_pair(&values, a, b);
            }
        }
        let values = values.into_iter().map(AtomicU16::into_inner).collect();
        Table { values, max_pawns }
    }

    /// The most pawns per side this table covers (3 for a full table).
    pub fn max_pawns(&self) -> usize {
        self.max_pawns
    }

    /// Whether the table covers `p`.
    pub fn covers(&self, p: &Position) -> bool {
        p.pawns(WHITE) as usize <= self.max_pawns && p.pawns(BLACK) as usize <= self.max_pawns
    }

    /// The value of `p` for the side to move. A finished game is `Loss(0)` for the side to
    /// move (the side that just moved has won).
    ///
    /// # Panics
    /// If the table does not cover `p` (see [`Table::build_up_to`]).
    pub fn value(&self, p: &Position) -> Value {
        if let Some(Outcome::Win(w)) = p.outcome() {
            return if w == p.to_move() {
                Value::Win(0)
            } else {
                Value::Loss(0)
            };
        }
        assert!(
            self.covers(p),
            "position {p} has more pawns than the table covers"
        );
        Value::from_code(self.values[Rel::from_position(p).index()])
    }

    /// The moves that keep the value: the quickest wins, the slowest losses, or the moves that
    /// keep a draw; in square order. Empty once the game is over.
    pub fn best_moves(&self, p: &Position) -> Vec<Move> {
        let mut moves = MoveList::new();
        p.legal_moves(&mut moves);
        let scored: Vec<(Move, i64)> = moves
            .iter()
            .map(|&m| (m, self.value(&p.after(m)).parent().goodness()))
            .collect();
        let best = scored.iter().map(|s| s.1).max();
        scored
            .into_iter()
            .filter(|s| Some(s.1) == best)
            .map(|s| s.0)
            .collect()
    }

    /// A perfect-play line from `p`: the first of the [`best moves`](Table::best_moves) at each
    /// ply, to the end of the game. For a drawn position the line stops when it reaches a
    /// position for the third time (a repetition draw).
    pub fn line(&self, p: &Position) -> Vec<Move> {
        let mut line = Vec::new();
        let mut record = search::Record::new(*p);
        while record.result().is_none() {
            let Some(&m) = self.best_moves(record.position()).first() else {
                break;
            };
            line.push(m);
            record.play(m).expect("a best move is legal");
        }
        line
    }

    /// Checks the table against the rules, position by position, in parallel: every value
    /// must follow from its children's by the minimax rule (a win in `n` has a child lost in
    /// `n − 1` and none lost sooner; a loss in `n` has only children won, the slowest in
    /// `n − 1`; a draw has no lost child and a child not won). Such a locally consistent
    /// table is the game's unique solution (by induction on the distance), so this is an
    /// independent proof of the table, relying only on [`Position`]'s rules and the index.
    /// Returns the first inconsistent position found.
    pub fn verify(&self) -> Result<(), Inconsistency> {
        self.ranges().try_for_each(|range| {
            range.into_par_iter().try_for_each(|i| {
                let r = Rel::from_index(i);
                let p = Position::from_bits(r.us, r.them, r.kings, WHITE)
                    .expect("an index names a position");
                let expected = self.value_from_children(&p);
                let mirrored = self.value(&p.mirror());
                let got = Value::from_code(self.values[i]);
                if got != expected || mirrored != got {
                    Err(Inconsistency {
                        position: p,
                        value: got,
                        mirrored,
                        children: expected,
                    })
                } else {
                    Ok(())
                }
            })
        })
    }

    /// The value of `p` by the minimax rule from the table's values of its children.
    pub fn value_from_children(&self, p: &Position) -> Value {
        let mut moves = MoveList::new();
        p.legal_moves(&mut moves);
        if moves.is_empty() {
            return self.value(p);
        }
        moves
            .iter()
            .map(|&m| self.value(&p.after(m)).parent())
            .max_by_key(|v| v.goodness())
            .expect("a position in play has a move")
    }

    /// The index ranges of the layers this table covers.
    fn ranges(&self) -> impl Iterator<Item = std::ops::Range<usize>> {
        let m = self.max_pawns;
        (0..=m).flat_map(move |a| (0..=m).map(move |b| layer_range(a, b)))
    }

    /// Counts of wins, losses and draws among the solved positions.
    pub fn stats(&self) -> Stats {
        let mut s = Stats::default();
        for range in self.ranges() {
            {
                for &v in &self.values[range] {
                    s.positions += 1;
                    match Value::from_code(v) {
                        Value::Win(n) => {
                            s.wins += 1;
                            s.longest = s.longest.max(n);
                        }
                        Value::Loss(n) => {
                            s.losses += 1;
                            s.longest = s.longest.max(n);
                        }
                        Value::Draw => s.draws += 1,
                    }
                }
            }
        }
        s
    }

    /// Writes the table: a header (magic, format and rules versions, pawns, length, a
    /// checksum of the values), then every value as a little-endian `u16`. The file is
    /// written beside `path` and renamed into place, so a reader never sees half a table.
    pub fn save(&self, path: impl AsRef<Path>) -> io::Result<()> {
        let path = path.as_ref();
        let tmp = path.with_extension(format!("tmp-{}", std::process::id()));
        let written = (|| {
            let mut f = io::BufWriter::new(std::fs::File::create(&tmp)?);
            f.write_all(MAGIC)?;
            f.write_all(&FORMAT_VERSION.to_le_bytes())?;
            f.write_all(&RULES_VERSION.to_le_bytes())?;
            f.write_all(&(self.max_pawns as u32).to_le_bytes())?;
            f.write_all(&(self.values.len() as u64).to_le_bytes())?;
            f.write_all(&checksum(&self.values).to_le_bytes())?;
            for chunk in self.values.chunks(1 << 16) {
                let bytes: Vec<u8> = chunk.iter().flat_map(|v| v.to_le_bytes()).collect();
                f.write_all(&bytes)?;
            }
            f.into_inner().map_err(|e| e.into_error())?.sync_all()
        })();
        match written {
            Ok(()) => std::fs::rename(&tmp, path),
            Err(e) => {
                let _ = std::fs::remove_file(&tmp);
                Err(e)
            }
        }
    }

    /// Reads a table written by [`Table::save`], checking its header and checksum: a file of
    /// another format or rules version, of the wrong size, or whose values do not match the
    /// checksum is an [`io::ErrorKind::InvalidData`] error naming what is wrong.
    pub fn load(path: impl AsRef<Path>) -> io::Result<Table> {
        let bad = |what: String| io::Error::new(io::ErrorKind::InvalidData, what);
        let bytes = std::fs::read(path)?;
        let header = MAGIC.len() + 4 + 4 + 4 + 8 + 8;
        if bytes.len() < header || &bytes[..MAGIC.len()] != MAGIC {
            return Err(bad("not a jumpy3 table (bad magic)".to_string()));
        }
        let field = |at: usize, n: usize| -> u64 {
            let mut v = [0u8; 8];
            v[..n].copy_from_slice(&bytes[at..at + n]);
            u64::from_le_bytes(v)
        };
        let at = MAGIC.len();
        let (format, rules) = (field(at, 4), field(at + 4, 4));
        if format != u64::from(FORMAT_VERSION) || rules != u64::from(RULES_VERSION) {
            return Err(bad(format!(
                "jumpy3 table of format {format}, rules {rules}: this program writes format \
                 {FORMAT_VERSION}, rules {RULES_VERSION} (stale: solve again)"
            )));
        }
        let max_pawns = field(at + 8, 4) as usize;
        let len = field(at + 12, 8);
        let sum = field(at + 20, 8);
        if max_pawns > 3 || len != TABLE_LEN as u64 || bytes.len() != header + TABLE_LEN * 2 {
            return Err(bad(format!(
                "jumpy3 table: wrong size ({} bytes, {len} values, {max_pawns} pawns)",
                bytes.len()
            )));
        }
        if checksum_bytes(&bytes[header..]) != sum {
            return Err(bad("jumpy3 table: checksum mismatch (corrupt)".to_string()));
        }
        let values: Vec<u16> = bytes[header..]
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect();
        Ok(Table { values, max_pawns })
    }

    /// The full table from `path` if it holds a good one, else solved (about 9 s of CPU
    /// time) and saved there for the next time; the folders of `path` are created where
    /// missing. A stale or corrupt file is replaced. Returns the table and whether it was
    /// solved now. An error only when the file cannot be written.
    pub fn load_or_build(path: impl AsRef<Path>) -> io::Result<(Table, bool)> {
        Table::load_or_build_up_to(path, 3)
    }

    /// [`Table::load_or_build`] for a table of at least `max_pawns` pawns a side (a file
    /// with more is taken as it is).
    pub fn load_or_build_up_to(
        path: impl AsRef<Path>,
        max_pawns: usize,
    ) -> io::Result<(Table, bool)> {
        let path = path.as_ref();
        match Table::load(path) {
            Ok(t) if t.max_pawns >= max_pawns.min(3) => return Ok((t, false)),
            _ => {}
        }
        let (table, saved) = Table::build_and_save(path, max_pawns);
        saved.map(|()| (table, true))
    }

    /// The table of at most `max_pawns` pawns a side, solved now (about 9 s of CPU time for
    /// the full one) and saved to `path` (its folders created where missing). The table
    /// comes back whether or not the file could be written, with the result of writing it:
    /// a caller that cannot keep it on disk still has it in memory.
    ///
    /// ```
    /// use plyforge_jumpy3::solve::Table;
    /// let folder = std::env::temp_dir().join(format!("plyforge-doc-{}", std::process::id()));
    /// let (table, saved) = Table::build_and_save(folder.join("small.table"), 1);
    /// assert!(saved.is_ok());
    /// assert_eq!(Table::load(folder.join("small.table")).unwrap().stats(), table.stats());
    /// // Where it cannot be written, the table still comes back (a file is not a folder).
    /// let (kept, saved) = Table::build_and_save(folder.join("small.table").join("x"), 1);
    /// assert!(saved.is_err());
    /// assert_eq!(kept.max_pawns(), 1);
    /// std::fs::remove_dir_all(&folder).unwrap();
    /// ```
    pub fn build_and_save(path: impl AsRef<Path>, max_pawns: usize) -> (Table, io::Result<()>) {
        let path = path.as_ref();
        let table = Table::build_up_to(max_pawns);
        let folder = path.parent().filter(|d| !d.as_os_str().is_empty());
        let saved = folder
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| table.save(path));
        (table, saved)
    }
}

/// The table file's format version: bump when the file layout changes.
const FORMAT_VERSION: u32 = 2;
/// The rules' version: bump when a rule or the position indexing changes, so that tables
/// solved under the old ones are solved again.
const RULES_VERSION: u32 = 1;

/// A checksum of the values' little-endian bytes: four interleaved lanes of a 64-bit
/// FNV-style multiply-xor over 8-byte words (four lanes, so that the multiplications do not
/// wait for each other), folded with SplitMix64. It catches a torn or damaged file, not an
/// attack.
fn checksum_bytes(bytes: &[u8]) -> u64 {
    const PRIME: u64 = 0x0100_0000_01b3;
    let mut lanes = [0xcbf2_9ce4_8422_2325_u64; 4];
    let mut words = bytes.chunks_exact(32);
    for block in &mut words {
        for (lane, w) in lanes.iter_mut().zip(block.chunks_exact(8)) {
            let word = u64::from_le_bytes(w.try_into().expect("8 bytes"));
            *lane = (*lane ^ word).wrapping_mul(PRIME);
        }
    }
    let mut h = lanes
        .iter()
        .fold(bytes.len() as u64, |h, &l| search::rng::splitmix64(h ^ l));
    for &b in words.remainder() {
        h = (h ^ u64::from(b)).wrapping_mul(PRIME);
    }
    search::rng::splitmix64(h)
}

/// [`checksum_bytes`] of the values as the file holds them.
fn checksum(values: &[u16]) -> u64 {
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    checksum_bytes(&bytes)
}

/// The exit info value of a position that can never be lost (a move leaving the pair
/// wins or draws).
const NEVER_LOST: u16 = u16::MAX;

/// What a position's moves say before the pair is solved: the number of its moves that stay
/// in the pair, and its exit info: the ply at which the moves leaving the pair win it (odd),
/// or, if none wins and all of them lose, the ply at which the slowest of them loses (even; 0
/// when there is no such move), or [`NEVER_LOST`] if one of them draws.
fn first_look(values: &[AtomicU16], r: Rel, a: usize) -> (u8, u16) {
    let mut inside = 0;
    let mut win: u16 = u16::MAX;
    let mut loss: u16 = 0;
    let mut draw_exit = false;
    let mut bits = r.us;
    while bits != 0 {
        let from = bits.trailing_zeros();
        bits &= bits - 1;
        match r.advance(from) {
            None => win = 1,
            Some(c) if (c.us & !c.kings).count_ones() as usize == a => inside += 1,
            Some(c) => match values[c.flip().index()].load(Ordering::Relaxed) {
                0 => draw_exit = true,
                v if v % 2 == 0 => win = win.min(v + 1),
                v => loss = loss.max(v + 1),
            },
        }
    }
    let info = if win != u16::MAX {
        win
    } else if draw_exit {
        NEVER_LOST
    } else {
        loss
    };
    (inside, info)
}

/// The pair of layers `(a, b)` and `(b, a)` being solved: its positions numbered locally,
/// layer after layer, with each position's counter of moves not yet known to lose and its
/// note on the moves leaving the pair (from the first look).
struct Pair {
    ranges: Vec<std::ops::Range<usize>>,
    size: usize,
    counters: Vec<AtomicU8>,
    exit_info: Vec<u16>,
}

impl Pair {
    /// The pair, with the first look at every position (all lower layers being solved).
    fn new(values: &[AtomicU16], a: usize, b: usize) -> Pair {
        let layers = layers_of_pair(a, b);
        let ranges: Vec<std::ops::Range<usize>> =
            layers.iter().map(|&(x, y)| layer_range(x, y)).collect();
        let size: usize = ranges.iter().map(|r| r.len()).sum();
        let looks: Vec<(u8, u16)> = layers
            .iter()
            .flat_map(|&(x, y)| {
                layer_positions(x, y)
                    .map(|r| first_look(values, r, x))
                    .collect::<Vec<_>>()
            })
            .collect();
        Pair {
            ranges,
            size,
            counters: looks.iter().map(|l| AtomicU8::new(l.0)).collect(),
            exit_info: looks.iter().map(|l| l.1).collect(),
        }
    }

    /// The local number of the table index `i` (a position of the pair).
    fn local(&self, i: usize) -> usize {
        let mut base = 0;
        for range in &self.ranges {
            if range.contains(&i) {
                return base + i - range.start;
            }
            base += range.len();
        }
        unreachable!("a predecessor lies in the pair")
    }

    /// The table index of the local number `n`.
    fn global(&self, n: usize) -> usize {
        let mut n = n;
        for range in &self.ranges {
            if n < range.len() {
                return range.start + n;
            }
            n -= range.len();
        }
        unreachable!("n is below the pair's size")
    }

    /// Events fixed in advance, by ply: wins by a move leaving the pair, and losses of
    /// positions all of whose moves leave the pair.
    fn fixed_events(&self) -> Vec<Vec<Rel>> {
        let event = |n: usize| -> u16 {
            match self.exit_info[n] {
                NEVER_LOST => 0,
                e if e % 2 == 1 => e,
                e if self.counters[n].load(Ordering::Relaxed) == 0 => e,
                _ => 0,
            }
        };
        let events: Vec<(u16, Rel)> = (0..self.size)
            .into_par_iter()
            .filter_map(|n| {
                let e = event(n);
                (e != 0).then(|| (e, Rel::from_index(self.global(n))))
            })
            .collect();
        let mut pending: Vec<Vec<Rel>> = Vec::new();
        for (e, r) in events {
            schedule(&mut pending, e, r);
        }
        pending
    }

    /// The predecessors of the positions settled at `d − 1` (`frontier`), settled now: each
    /// predecessor of a lost position is won at `d`; each predecessor of a won one counts
    /// down its moves, and is lost at `d` when none is left (or at its exit note's ply,
    /// when its slowest move leaving the pair loses later). Returns each settled position
    /// with its ply. The predecessors are bucketed by index (`shift`, `buckets`) so that the
    /// table is visited nearly in order (the random accesses otherwise dominate the time).
    fn settle(
        &self,
        values: &[AtomicU16],
        frontier: &[Rel],
        d: u16,
        shift: u32,
        buckets: usize,
    ) -> Vec<(Rel, u16)> {
        let parents_win = d % 2 == 1;
        let preds: Vec<(u32, Rel)> = frontier
            .par_iter()
            .flat_map_iter(|r| {
                let mut preds = Preds::new();
                r.flip().unmoves(&mut preds);
                preds.into_iter().map(|p| (p.index() as u32, p))
            })
            .collect();
        let preds = bucket_by_index(preds, |i| self.local(i as usize) >> shift, buckets);
        let settle_at = |i: usize, p: Rel| {
            values[i]
                .compare_exchange(0, d, Ordering::Relaxed, Ordering::Relaxed)
                .ok()
                .map(|_| (p, d))
        };
        preds
            .par_iter()
            .filter_map(|&(i, p)| {
                let i = i as usize;
                let n = self.local(i);
                if parents_win {
                    if values[i].load(Ordering::Relaxed) != 0 {
                        return None;
                    }
                    settle_at(i, p)
                } else if self.counters[n].fetch_sub(1, Ordering::Relaxed) == 1 {
                    match self.exit_info[n] {
                        // A draw or a win leaving the pair: never lost.
                        e if e == NEVER_LOST || e % 2 == 1 => None,
                        e if e <= d => settle_at(i, p),
                        e => Some((p, e)),
                    }
                } else {
                    None
                }
            })
            .collect()
    }
}

/// Files `r` under the ply `e` at which it is settled.
fn schedule(pending: &mut Vec<Vec<Rel>>, e: u16, r: Rel) {
    let e = e as usize;
    if pending.len() <= e {
        pending.resize_with(e + 1, Vec::new);
    }
    pending[e].push(r);
}

/// Solves the layers `(a, b)` and `(b, a)`, all lower layers being solved.
///
/// Ply by ply: at ply `d`, the positions settled at `d − 1` are all lost (d odd) or all won
/// (d even) for their mover. Each predecessor of a lost one is won at `d`; each predecessor of
/// a won one counts down its moves not yet known to lose, and is lost at `d` when none is left
/// (or later, when its slowest move leaving the pair loses). Moves leaving the pair were
/// looked at once before ply 1 ([`Pair::new`], [`Pair::fixed_events`]).
fn solve_pair(values: &[AtomicU16], a: usize, b: usize) {
    let pair = Pair::new(values, a, b);
    let mut pending = pair.fixed_events();
    // Buckets of about 16 Ki positions (32 KiB of values) for visiting the table in order.
    let shift = (pair.size.max(1) >> 14).max(1).ilog2();
    let buckets = (pair.size >> shift) + 1;
    let mut frontier: Vec<Rel> = Vec::new();
    let mut d: u16 = 1;
    while !frontier.is_empty() || (d as usize) < pending.len() {
        let scheduled = pending.get_mut(d as usize).map(std::mem::take);
        let mut next: Vec<Rel> = scheduled
            .unwrap_or_default()
            .into_par_iter()
            .filter(|r| {
                values[r.index()]
                    .compare_exchange(0, d, Ordering::Relaxed, Ordering::Relaxed)
                    .is_ok()
            })
            .collect();
        for (r, e) in pair.settle(values, &frontier, d, shift, buckets) {
            if e == d {
                next.push(r);
            } else {
                schedule(&mut pending, e, r);
            }
        }
        frontier = next;
        d = d.checked_add(1).expect("distances fit in u16");
    }
}

/// The items grouped by `bucket(item.0)` (a counting sort), in bucket order.
fn bucket_by_index(
    items: Vec<(u32, Rel)>,
    bucket: impl Fn(u32) -> usize,
    buckets: usize,
) -> Vec<(u32, Rel)> {
    if items.len() < 4096 {
        return items;
    }
    let mut start = vec![0usize; buckets + 1];
    for x in &items {
        start[bucket(x.0) + 1] += 1;
    }
    for k in 1..start.len() {
        start[k] += start[k - 1];
    }
    let filler = (
        0,
        Rel {
            us: 0,
            them: 0,
            kings: 0,
        },
    );
    let mut out = vec![filler; items.len()];
    for x in items {
        let b = bucket(x.0);
        out[start[b]] = x;
        start[b] += 1;
    }
    out
}

/// Every position of layer `(a, b)` in index order, in parallel.
fn layer_positions(a: usize, b: usize) -> impl ParallelIterator<Item = Rel> {
    (0..16 * 15usize).into_par_iter().flat_map_iter(move |kp| {
        let uk = kp / 15;
        let tk_c = kp % 15;
        let tk = tk_c + (tk_c >= uk) as usize;
        let kings = (1u16 << uk) | (1u16 << tk);
        let subsets = subsets();
        subsets[a].iter().flat_map(move |&m1| {
            let ours = expand(m1, kings);
            subsets[b][..binom(14 - a, b)].iter().map(move |&m2| {
                let theirs = expand(m2, kings | ours);
                Rel {
                    us: ours | (1 << uk),
                    them: theirs | (1 << tk),
                    kings,
                }
            })
        })
    })
}

/// An evaluator that reads the solved table: with it, a search of depth 1 plays perfectly.
/// Positions the table does not cover fall back to [`crate::DefaultEval`].
#[derive(Clone, Debug)]
pub struct TableEval {
    /// The solved table.
    pub table: Arc<Table>,
}

impl TableEval {
    /// The evaluator over `table`.
    pub fn new(table: Arc<Table>) -> TableEval {
        TableEval { table }
    }
}

impl Evaluator<Position> for TableEval {
    fn evaluate(&self, p: &Position) -> Scores {
        if !self.table.covers(p) {
            return crate::DefaultEval::default().evaluate(p);
        }
        let v = match self.table.value(p) {
            Value::Win(n) => MAX_EVAL - n as i32,
            Value::Loss(n) => -MAX_EVAL + n as i32,
            Value::Draw => 0,
        };
        let white = if p.to_move() == WHITE { v } else { -v };
        [white, -white, 0]
    }
}

/// The perfect move in `p` by the table (the first best move), `None` if the game is over.
pub fn perfect_move(table: &Table, p: &Position) -> Option<Move> {
    table.best_moves(p).first().copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lcg(state: &mut u64) -> u64 {
        *state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *state >> 33
    }

    #[test]
    fn index_round_trips_on_every_layer_sample() {
        let mut s = 7u64;
        for _ in 0..200_000 {
            let i = (lcg(&mut s) as usize) % TABLE_LEN;
            let r = Rel::from_index(i);
            assert_eq!(r.index(), i);
            assert_eq!(r.us & r.them, 0);
            assert_eq!((r.us & r.kings).count_ones(), 1);
            assert_eq!((r.them & r.kings).count_ones(), 1);
        }
        // Every index of the small layers.
        for i in 0..OFFSETS[1][2] {
            assert_eq!(Rel::from_index(i).index(), i);
        }
    }

    #[test]
    fn advance_agrees_with_the_rules() {
        let mut s = 11u64;
        for _ in 0..50_000 {
            let i = (lcg(&mut s) as usize) % TABLE_LEN;
            let r = Rel::from_index(i);
            let p = r.to_position();
            let mut bits = r.us;
            while bits != 0 {
                let from = bits.trailing_zeros();
                bits &= bits - 1;
                let child = p.after(Move::new(from as u8 + 1).unwrap());
                match r.advance(from) {
                    None => assert_eq!(child.outcome(), Some(Outcome::Win(WHITE))),
                    Some(c) => {
                        assert_eq!(c.us, child.pieces(WHITE));
                        assert_eq!(c.them, child.pieces(BLACK));
                        assert_eq!(c.kings, child.kings());
                        assert_eq!(Rel::from_position(&child), c.flip());
                    }
                }
            }
        }
    }

    #[test]
    fn unmoves_are_exactly_the_inverse_of_moves() {
        let mut s = 3u64;
        let mut preds = Preds::new();
        for _ in 0..100_000 {
            let i = (lcg(&mut s) as usize) % TABLE_LEN;
            let r = Rel::from_index(i);
            // Every child that stays on the board lists r among its un-moves.
            let mut bits = r.us;
            while bits != 0 {
                let from = bits.trailing_zeros();
                bits &= bits - 1;
                if let Some(c) = r.advance(from) {
                    if c.us.count_ones() == r.us.count_ones() {
                        preds.clear();
                        c.unmoves(&mut preds);
                        assert!(preds.contains(&r), "{r:?} -> {c:?}: {preds:?}");
                    }
                }
            }
            // Every un-move of r leads back to r by some move.
            preds.clear();
            r.unmoves(&mut preds);
            for p in &preds {
                assert_eq!(p.us.count_ones(), r.us.count_ones());
                let mut found = false;
                let mut bits = p.us;
                while bits != 0 {
                    let from = bits.trailing_zeros();
                    bits &= bits - 1;
                    found |= p.advance(from) == Some(r);
                }
                assert!(found, "{p:?} does not lead to {r:?}");
            }
        }
    }
}
