//! A simple evaluation: pawns, and how far they have advanced.

use plyforge_search::{Game, SideToMoveEval};

use crate::board36::FIRST_ROW;

use super::position::Breakthrough;

/// What a pawn is worth by how many rows it has advanced (0 to 4; the fifth wins).
const ADVANCE: [i32; 5] = [0, 3, 8, 16, 32];
/// The squares of each rank, rank 1 (White's first) first.
const RANKS: [u64; 6] = [
    FIRST_ROW,
    FIRST_ROW << 6,
    FIRST_ROW << 12,
    FIRST_ROW << 18,
    FIRST_ROW << 24,
    FIRST_ROW << 30,
];

/// A simple evaluation from the side to move's view: 100 a pawn, and for each pawn more the
/// further it has advanced (3, 8, 16, 32 for one to four ranks).
///
/// ```
/// use example_games::breakthrough::{evaluate, Breakthrough};
/// assert_eq!(evaluate(&Breakthrough::start()), 0);
/// // White's pawn on c3 has advanced one rank more than the one on c2 did: 8 - 3.
/// let p: Breakthrough = "bbbbbb/bbbbbb/....../..w.../ww.www/wwwwww b".parse().unwrap();
/// assert_eq!(evaluate(&p), -5);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct BreakthroughEval;

/// [`BreakthroughEval`]'s value of `p` for the side to move.
#[inline]
pub fn evaluate(p: &Breakthrough) -> i32 {
    let side = |player: usize| {
        let pawns = p.pawns(player);
        let mut v = 100 * pawns.count_ones() as i32;
        for (advanced, value) in ADVANCE.iter().enumerate() {
            let rank = if player == 0 { advanced } else { 5 - advanced };
            v += value * (pawns & RANKS[rank]).count_ones() as i32;
        }
        v
    };
    let me = p.to_move();
    side(me) - side(1 - me)
}

impl SideToMoveEval<Breakthrough> for BreakthroughEval {
    #[inline]
    fn evaluate(&self, p: &Breakthrough) -> i32 {
        evaluate(p)
    }

    fn aspiration_window(&self) -> i32 {
        30
    }
}
