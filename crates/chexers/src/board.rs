//! Board geometry: the 37 hexes, their axial coordinates, neighbour and jump tables, exit
//! hexes and distances, all computed at compile time.
//!
//! Hexes are numbered 0..37 in the order of the position notation: rows r = −3 … 3, each row
//! from its smallest q upward. A set of hexes is a `u64` bitboard with bit `i` for hex `i`.

use std::fmt;

use search::Player;

/// Number of hexes on the board.
pub const CELLS: usize = 37;

/// Bitboard of every hex.
pub const ALL: u64 = (1u64 << CELLS) - 1;

/// Marker for "no hex" in the tables.
pub(crate) const NONE: u8 = u8::MAX;

/// The six neighbour steps (dq, dr), in the rules' order.
pub const STEPS: [(i8, i8); 6] = [(-1, 0), (0, -1), (1, -1), (1, 0), (0, 1), (-1, 1)];

/// A hex of the board; every value of this type is on the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Hex(u8);

const fn on_board(q: i8, r: i8) -> bool {
    // In i16: -q - r overflows i8 for coordinates far off the board (82, 61).
    let (q, r) = (q as i16, r as i16);
    let s = -q - r;
    q >= -3 && q <= 3 && r >= -3 && r <= 3 && s >= -3 && s <= 3
}

/// Smallest q of row r.
const fn row_start(r: i8) -> i8 {
    if r < 0 {
        -3 - r
    } else {
        -3
    }
}

/// Number of hexes in row r.
pub(crate) const fn row_len(r: i8) -> usize {
    (7 - if r < 0 { -r } else { r }) as usize
}

const fn build_coords() -> [(i8, i8); CELLS] {
    let mut out = [(0i8, 0i8); CELLS];
    let mut i = 0;
    let mut r = -3i8;
    while r <= 3 {
        let mut q = row_start(r);
        let mut n = 0;
        while n < row_len(r) {
            out[i] = (q, r);
            i += 1;
            q += 1;
            n += 1;
        }
        r += 1;
    }
    out
}

/// Axial coordinates (q, r) of each hex index.
pub(crate) const COORDS: [(i8, i8); CELLS] = build_coords();

const fn build_index() -> [[u8; 7]; 7] {
    let mut out = [[NONE; 7]; 7];
    let mut i = 0;
    while i < CELLS {
        let (q, r) = COORDS[i];
        out[(q + 3) as usize][(r + 3) as usize] = i as u8;
        i += 1;
    }
    out
}

/// Hex index by `[q + 3][r + 3]`, or [`NONE`] off the board.
const INDEX: [[u8; 7]; 7] = build_index();

/// The index of hex `(q, r)`, or [`NONE`] off the board.
pub(crate) const fn index_of(q: i8, r: i8) -> u8 {
    if on_board(q, r) {
        INDEX[(q + 3) as usize][(r + 3) as usize]
    } else {
        NONE
    }
}

const fn build_steps(distance: i8) -> [[u8; 6]; CELLS] {
    let mut out = [[NONE; 6]; CELLS];
    let mut i = 0;
    while i < CELLS {
        let (q, r) = COORDS[i];
        let mut d = 0;
        while d < 6 {
            let (dq, dr) = STEPS[d];
            out[i][d] = index_of(q + dq * distance, r + dr * distance);
            d += 1;
        }
        i += 1;
    }
    out
}

/// `NEIGHBOUR[hex][dir]`: the adjacent hex in direction `dir`, or [`NONE`].
pub(crate) const NEIGHBOUR: [[u8; 6]; CELLS] = build_steps(1);
const fn build_neighbour_masks() -> [u64; CELLS] {
    let mut out = [0u64; CELLS];
    let mut i = 0;
    while i < CELLS {
        let mut d = 0;
        while d < 6 {
            let n = NEIGHBOUR[i][d];
            if n != NONE {
                out[i] |= 1u64 << n;
            }
            d += 1;
        }
        i += 1;
    }
    out
}

/// `ADJACENT[hex]`: the set of the hex's neighbours.
pub(crate) const ADJACENT: [u64; CELLS] = build_neighbour_masks();
/// The number of steps between two hexes.
pub(crate) const fn hex_distance(a: usize, b: usize) -> u32 {
    let (q, r) = COORDS[a];
    let (q2, r2) = COORDS[b];
    let (dq, dr) = ((q2 - q) as i32, (r2 - r) as i32);
    let ds = -dq - dr;
    let m = if dq.abs() > dr.abs() {
        dq.abs()
    } else {
        dr.abs()
    };
    (if m > ds.abs() { m } else { ds.abs() }) as u32
}

/// `LANDING[hex][dir]`: the hex two steps away in direction `dir` (where a jump lands), or [`NONE`].
pub(crate) const LANDING: [[u8; 6]; CELLS] = build_steps(2);

const fn build_exit_masks() -> [u64; 3] {
    let mut out = [0u64; 3];
    let mut i = 0;
    while i < CELLS {
        let (q, r) = COORDS[i];
        let s = -q - r;
        if q == 3 {
            out[0] |= 1 << i;
        }
        if r == 3 {
            out[1] |= 1 << i;
        }
        if s == 3 {
            out[2] |= 1 << i;
        }
        i += 1;
    }
    out
}

/// The exit hexes of each player: Red q = 3, Green r = 3, Blue s = −q − r = 3.
pub const EXIT_HEXES: [u64; 3] = build_exit_masks();

const fn build_distance() -> [[u8; CELLS]; 3] {
    let mut out = [[0u8; CELLS]; 3];
    let mut i = 0;
    while i < CELLS {
        let (q, r) = COORDS[i];
        let s = -q - r;
        out[0][i] = (3 - q) as u8;
        out[1][i] = (3 - r) as u8;
        out[2][i] = (3 - s) as u8;
        i += 1;
    }
    out
}

/// `DISTANCE[player][hex]`: steps from the hex to the player's exit edge (0 on an exit hex).
pub(crate) const DISTANCE: [[u8; CELLS]; 3] = build_distance();

/// Start hexes of each player.
pub(crate) const START: [[(i8, i8); 4]; 3] = [
    [(-3, 0), (-3, 1), (-3, 2), (-3, 3)],
    [(0, -3), (1, -3), (2, -3), (3, -3)],
    [(3, 0), (2, 1), (1, 2), (0, 3)],
];

impl Hex {
    /// The hex at axial coordinates (q, r), or `None` when that is off the board.
    pub const fn new(q: i8, r: i8) -> Option<Hex> {
        let i = index_of(q, r);
        if i == NONE {
            None
        } else {
            Some(Hex(i))
        }
    }

    /// The hex with index `i` (0..37, notation order), or `None`.
    pub const fn from_index(i: usize) -> Option<Hex> {
        if i < CELLS {
            Some(Hex(i as u8))
        } else {
            None
        }
    }

    /// Index 0..37 in notation order (rows r = −3 … 3, q ascending).
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Axial q.
    pub const fn q(self) -> i8 {
        COORDS[self.0 as usize].0
    }

    /// Axial r.
    pub const fn r(self) -> i8 {
        COORDS[self.0 as usize].1
    }

    /// The third cube coordinate, s = −q − r.
    pub const fn s(self) -> i8 {
        -self.q() - self.r()
    }

    /// The single-bit bitboard of this hex.
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// The hex one step away in direction `dir` (index into [`STEPS`]), if on the board.
    pub fn neighbour(self, dir: usize) -> Option<Hex> {
        match NEIGHBOUR[self.index()][dir] {
            NONE => None,
            i => Some(Hex(i)),
        }
    }

    /// The direction (index into [`STEPS`]) from `self` to `other` if `other` is `distance`
    /// steps away along a straight line (distance 1: a move, 2: a jump).
    pub fn direction_to(self, other: Hex, distance: i8) -> Option<usize> {
        let (dq, dr) = (other.q() - self.q(), other.r() - self.r());
        STEPS
            .iter()
            .position(|&(sq, sr)| sq * distance == dq && sr * distance == dr)
    }

    /// Steps from this hex to `player`'s exit edge (0 on an exit hex of that player).
    pub fn distance_to_exit(self, player: Player) -> u32 {
        DISTANCE[player][self.index()] as u32
    }

    /// True if this is one of `player`'s exit hexes.
    pub const fn is_exit_for(self, player: Player) -> bool {
        EXIT_HEXES[player] & self.bit() != 0
    }

    pub(crate) const fn raw(i: u8) -> Hex {
        Hex(i)
    }
}

impl fmt::Debug for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.q(), self.r())
    }
}

impl fmt::Display for Hex {
    /// `(q, r)`, as the referee prints coordinates.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.q(), self.r())
    }
}

/// Iterates over the hexes of a bitboard, lowest index first.
pub(crate) struct Bits(pub(crate) u64);

impl Iterator for Bits {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            None
        } else {
            let i = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            Some(i)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thirty_seven_hexes_each_once() {
        let mut seen = std::collections::HashSet::new();
        for q in -5..=5 {
            for r in -5..=5 {
                if let Some(h) = Hex::new(q, r) {
                    assert_eq!((h.q(), h.r()), (q, r));
                    assert!(seen.insert(h.index()));
                }
            }
        }
        assert_eq!(seen.len(), CELLS);
        assert_eq!(Hex::new(3, 3), None);
        assert_eq!(Hex::new(-3, -1), None);
        assert_eq!(Hex::new(4, 0), None);
    }

    #[test]
    fn notation_order_is_rows_then_q() {
        assert_eq!(COORDS[0], (0, -3));
        assert_eq!(COORDS[3], (3, -3));
        assert_eq!(COORDS[4], (-1, -2));
        assert_eq!(COORDS[15], (-3, 0));
        assert_eq!(COORDS[21], (3, 0));
        assert_eq!(COORDS[36], (0, 3));
    }

    #[test]
    fn neighbour_counts() {
        // Corners have 3 neighbours, other edge hexes 4, the 19 inner hexes 6.
        let counts: Vec<usize> = (0..CELLS)
            .map(|i| NEIGHBOUR[i].iter().filter(|&&n| n != NONE).count())
            .collect();
        assert_eq!(counts.iter().filter(|&&c| c == 3).count(), 6);
        assert_eq!(counts.iter().filter(|&&c| c == 4).count(), 12);
        assert_eq!(counts.iter().filter(|&&c| c == 6).count(), 19);
        // The centre reaches 6 landings, a corner 3.
        let centre = Hex::new(0, 0).unwrap().index();
        assert_eq!(LANDING[centre].iter().filter(|&&n| n != NONE).count(), 6);
        let corner = Hex::new(-3, 0).unwrap().index();
        assert_eq!(LANDING[corner].iter().filter(|&&n| n != NONE).count(), 3);
    }

    #[test]
    fn exits_are_the_rules_hexes() {
        let hexes = |m: u64| -> Vec<(i8, i8)> { Bits(m).map(|i| COORDS[i]).collect() };
        let mut red = hexes(EXIT_HEXES[0]);
        red.sort();
        assert_eq!(red, vec![(3, -3), (3, -2), (3, -1), (3, 0)]);
        let mut green = hexes(EXIT_HEXES[1]);
        green.sort();
        assert_eq!(green, vec![(-3, 3), (-2, 3), (-1, 3), (0, 3)]);
        let mut blue = hexes(EXIT_HEXES[2]);
        blue.sort();
        assert_eq!(blue, vec![(-3, 0), (-2, -1), (-1, -2), (0, -3)]);
        // Every start hex is 6 steps from its owner's exit edge.
        for (p, start) in START.iter().enumerate() {
            for &(q, r) in start {
                assert_eq!(Hex::new(q, r).unwrap().distance_to_exit(p), 6);
            }
        }
    }
}
