//! The board's geometry: 91 cells of a radius-5 hexagon in axial coordinates, computed once at
//! compile time (cell numbering, rings, neighbours, the three axes through each cell).

use std::fmt;

/// Radius of the board: the outermost ring.
pub const RADIUS: i8 = 5;

/// Number of cells: 1 + 6 + 12 + 18 + 24 + 30.
pub const CELLS: usize = 91;

/// A set of cells, one bit per cell index.
pub(crate) type Mask = u128;

/// One cell of the board, numbered 0..91 in notation order: rows `r = -5 ..= 5`, and in each
/// row `q` upward.
///
/// ```
/// use plyforge_throne::Cell;
/// let c = Cell::new(-2, 4).unwrap();
/// assert_eq!((c.q(), c.r(), c.s()), (-2, 4, -2));
/// assert_eq!(c.radius(), 4);
/// assert_eq!(c.grade(), 2);
/// assert_eq!(Cell::THRONE.grade(), 6);
/// assert!(Cell::new(3, 3).is_none()); // s = -6: off the board
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    /// The throne, (0, 0).
    pub const THRONE: Cell = Cell(THRONE_INDEX as u8);

    /// The cell at axial coordinates (q, r), if it is on the board.
    pub fn new(q: i32, r: i32) -> Option<Cell> {
        // In i64: -q - r and abs() overflow i32 at its ends (i32::MIN, 0).
        let (q, r) = (i64::from(q), i64::from(r));
        let s = -q - r;
        let lim = i64::from(RADIUS);
        if q.abs() > lim || r.abs() > lim || s.abs() > lim {
            return None;
        }
        let i = INDEX[(r + lim) as usize][(q + lim) as usize];
        debug_assert!(i != NONE);
        Some(Cell(i))
    }

    /// The cell with this index (0..91), if valid.
    pub fn from_index(index: usize) -> Option<Cell> {
        (index < CELLS).then_some(Cell(index as u8))
    }

    /// The index 0..91 (notation order).
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// Axial q.
    pub fn q(self) -> i32 {
        COORD[self.index()].0 as i32
    }

    /// Axial r.
    pub fn r(self) -> i32 {
        COORD[self.index()].1 as i32
    }

    /// The third cube coordinate, s = −q − r.
    pub fn s(self) -> i32 {
        -self.q() - self.r()
    }

    /// Ring number: max(|q|, |r|, |s|); 0 for the throne, 5 for the outermost ring.
    pub fn radius(self) -> u8 {
        RADIUS_OF[self.index()]
    }

    /// Scoring grade: 6 − radius (1 for the outermost ring, 6 for the throne).
    pub fn grade(self) -> u8 {
        6 - self.radius()
    }

    /// Every cell, in index order.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..CELLS as u8).map(Cell)
    }

    /// The adjacent cells (up to six).
    pub fn neighbours(self) -> impl Iterator<Item = Cell> {
        NEIGH[self.index()]
            .into_iter()
            .filter(|&n| n != NONE)
            .map(Cell)
    }

    pub(crate) fn bit(self) -> Mask {
        1u128 << self.0
    }

    pub(crate) fn raw(self) -> u8 {
        self.0
    }
}

impl fmt::Display for Cell {
    /// `q,r`, as in move notation.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.q(), self.r())
    }
}

pub(crate) const THRONE_INDEX: usize = 45;
const NONE: u8 = u8::MAX;

/// The six directions, as the rules list them.
pub(crate) const DIRS: [(i8, i8); 6] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)];

const fn abs(x: i8) -> i8 {
    if x < 0 {
        -x
    } else {
        x
    }
}

const fn on_board(q: i8, r: i8) -> bool {
    abs(q) <= RADIUS && abs(r) <= RADIUS && abs(-q - r) <= RADIUS
}

const fn radius_of(q: i8, r: i8) -> u8 {
    let (a, b, c) = (abs(q), abs(r), abs(-q - r));
    let m = if a > b { a } else { b };
    (if m > c { m } else { c }) as u8
}

const fn build_coords() -> ([(i8, i8); CELLS], [[u8; 11]; 11]) {
    let mut coord = [(0i8, 0i8); CELLS];
    let mut index = [[NONE; 11]; 11];
    let mut n = 0;
    let mut r = -RADIUS;
    while r <= RADIUS {
        let mut q = -RADIUS;
        while q <= RADIUS {
            if on_board(q, r) {
                coord[n] = (q, r);
                index[(r + RADIUS) as usize][(q + RADIUS) as usize] = n as u8;
                n += 1;
            }
            q += 1;
        }
        r += 1;
    }
    assert!(n == CELLS);
    (coord, index)
}

const COORDS_AND_INDEX: ([(i8, i8); CELLS], [[u8; 11]; 11]) = build_coords();
pub(crate) const COORD: [(i8, i8); CELLS] = COORDS_AND_INDEX.0;
const INDEX: [[u8; 11]; 11] = COORDS_AND_INDEX.1;

const fn index_of(q: i8, r: i8) -> u8 {
    if on_board(q, r) {
        INDEX[(r + RADIUS) as usize][(q + RADIUS) as usize]
    } else {
        NONE
    }
}

const fn build_radius() -> [u8; CELLS] {
    let mut out = [0u8; CELLS];
    let mut i = 0;
    while i < CELLS {
        out[i] = radius_of(COORD[i].0, COORD[i].1);
        i += 1;
    }
    out
}

const RADIUS_OF: [u8; CELLS] = build_radius();

const fn build_neigh() -> [[u8; 6]; CELLS] {
    let mut out = [[NONE; 6]; CELLS];
    let mut i = 0;
    while i < CELLS {
        let mut d = 0;
        while d < 6 {
            out[i][d] = index_of(COORD[i].0 + DIRS[d].0, COORD[i].1 + DIRS[d].1);
            d += 1;
        }
        i += 1;
    }
    out
}

/// Neighbour in each of [`DIRS`], or `NONE`.
const NEIGH: [[u8; 6]; CELLS] = build_neigh();

/// Cells a soldier on each cell may step to (if empty): adjacent, one ring in or on its own
/// ring, never the throne.
pub(crate) const SOLDIER_STEPS: [Mask; CELLS] = build_steps(false);
/// Cells a queen on each cell may step to (if empty): as a soldier, plus the throne.
pub(crate) const QUEEN_STEPS: [Mask; CELLS] = build_steps(true);

const fn build_steps(queen: bool) -> [Mask; CELLS] {
    let mut out = [0u128; CELLS];
    let mut i = 0;
    while i < CELLS {
        let mut d = 0;
        while d < 6 {
            let n = NEIGH[i][d];
            if n != NONE
                && RADIUS_OF[n as usize] <= RADIUS_OF[i]
                && (queen || n as usize != THRONE_INDEX)
            {
                out[i] |= 1u128 << n;
            }
            d += 1;
        }
        i += 1;
    }
    out
}

/// Cells one ring further in that a soldier on each cell could step to.
pub(crate) const SOLDIER_INWARD: [Mask; CELLS] = build_inward(false);
/// Cells one ring further in that a queen on each cell could step to (the throne included).
pub(crate) const QUEEN_INWARD: [Mask; CELLS] = build_inward(true);

const fn build_inward(queen: bool) -> [Mask; CELLS] {
    let steps = build_steps(queen);
    let mut out = [0u128; CELLS];
    let mut i = 0;
    while i < CELLS {
        let mut j = 0;
        while j < CELLS {
            if steps[i] & (1u128 << j) != 0 && RADIUS_OF[j] < RADIUS_OF[i] {
                out[i] |= 1u128 << j;
            }
            j += 1;
        }
        i += 1;
    }
    out
}

/// For each cell, the three axes through it as two-cell masks (the cells on both sides);
/// 0 where the cell lies on the board's edge for that axis.
pub(crate) const AXES: [[Mask; 3]; CELLS] = build_axes();

const fn build_axes() -> [[Mask; 3]; CELLS] {
    let mut out = [[0u128; 3]; CELLS];
    let mut i = 0;
    while i < CELLS {
        let mut a = 0;
        while a < 3 {
            // DIRS come in opposite pairs: (0,1), (2,3), (4,5).
            let x = NEIGH[i][2 * a];
            let y = NEIGH[i][2 * a + 1];
            if x != NONE && y != NONE {
                out[i][a] = (1u128 << x) | (1u128 << y);
            }
            a += 1;
        }
        i += 1;
    }
    out
}

/// For each cell `c` and direction `d`, the cell two steps away (the far end of a sandwich of
/// the neighbour in direction `d`), or `NONE`.
pub(crate) const FAR: [[u8; 6]; CELLS] = build_far();

const fn build_far() -> [[u8; 6]; CELLS] {
    let mut out = [[NONE; 6]; CELLS];
    let mut i = 0;
    while i < CELLS {
        let mut d = 0;
        while d < 6 {
            out[i][d] = index_of(COORD[i].0 + 2 * DIRS[d].0, COORD[i].1 + 2 * DIRS[d].1);
            d += 1;
        }
        i += 1;
    }
    out
}

pub(crate) const fn neighbour(cell: usize, dir: usize) -> Option<usize> {
    let n = NEIGH[cell][dir];
    if n == NONE {
        None
    } else {
        Some(n as usize)
    }
}

pub(crate) const fn far(cell: usize, dir: usize) -> Option<usize> {
    let n = FAR[cell][dir];
    if n == NONE {
        None
    } else {
        Some(n as usize)
    }
}

const fn ring_mask(radius: u8) -> Mask {
    let mut m = 0u128;
    let mut i = 0;
    while i < CELLS {
        if RADIUS_OF[i] == radius {
            m |= 1u128 << i;
        }
        i += 1;
    }
    m
}

/// The six cells around the throne.
pub(crate) const RING1: Mask = ring_mask(1);
/// The outermost ring, where released soldiers go.
pub(crate) const RING5: Mask = ring_mask(5);
/// Every cell.
pub(crate) const ALL: Mask = (1u128 << CELLS) - 1;
/// The throne.
pub(crate) const THRONE_BIT: Mask = 1u128 << THRONE_INDEX;

/// Iterates over the cell indices of a mask, lowest first.
pub(crate) fn cells(mut m: Mask) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(i)
        }
    })
}

/// `true` if the cell is sandwiched along some axis by cells of `enemy`.
#[inline]
pub(crate) fn sandwiched(cell: usize, enemy: Mask) -> bool {
    let a = &AXES[cell];
    (a[0] != 0 && enemy & a[0] == a[0])
        || (a[1] != 0 && enemy & a[1] == a[1])
        || (a[2] != 0 && enemy & a[2] == a[2])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ring_sizes_and_throne() {
        let sizes: Vec<u32> = (0..=5).map(|r| ring_mask(r).count_ones()).collect();
        assert_eq!(sizes, vec![1, 6, 12, 18, 24, 30]);
        assert_eq!(Cell::new(0, 0), Some(Cell::THRONE));
        assert_eq!(Cell::new(0, -5).unwrap().index(), 0);
        assert_eq!(Cell::new(-5, 5).unwrap().index(), 85);
    }

    #[test]
    fn steps_stay_on_ring_or_go_in() {
        for c in Cell::all() {
            let steps: Vec<usize> = cells(QUEEN_STEPS[c.index()]).collect();
            for &s in &steps {
                let t = Cell(s as u8);
                assert!(t.radius() == c.radius() || t.radius() + 1 == c.radius());
            }
            // Every ring cell has exactly two neighbours on its own ring.
            if c.radius() > 0 {
                let same = steps
                    .iter()
                    .filter(|&&s| Cell(s as u8).radius() == c.radius())
                    .count();
                assert_eq!(same, 2, "{c}");
            } else {
                assert!(steps.is_empty());
            }
        }
        assert_eq!(
            SOLDIER_STEPS[Cell::new(1, 0).unwrap().index()] & THRONE_BIT,
            0
        );
        assert_ne!(
            QUEEN_STEPS[Cell::new(1, 0).unwrap().index()] & THRONE_BIT,
            0
        );
    }
}
