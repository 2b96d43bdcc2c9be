//! Proofs that a side can never complete.
//!
//! [`may_complete`] over-approximates everything that can still happen to each piece and
//! answers `false` for a player only when some piece of that player provably can never get
//! home. The facts it derives (a piece may stand on a square, may be captured into a hand,
//! may become home) follow the rules with fewer constraints than the real game:
//!
//! - a piece on the board, not home, may stand on every square of its *orbit*: its square and
//!   the squares its successive walks reach, until a walk would land on a square holding a
//!   piece that is home now (such a walk is illegal for ever, since home pieces never move),
//!   until it lands on its own square (then it may become home), or until the orbit closes;
//!   piece 12 may always be walked off the board into Even's hand;
//! - a piece may be captured (go to its owner's hand) on a square `x` of its orbit if another
//!   piece `j` may stand on the square from which a walk of `j` lands on `x`, or if piece `x`
//!   may be in its owner's hand (then placing it captures whatever stands on `x`);
//! - a piece in hand may be placed, so may become home.
//!
//! Every real event of a game from the position is covered by one of these rules applied to
//! facts about earlier events (a walk the real game allows is allowed here too, since the home
//! pieces later are a superset of the home pieces now, and the turn restriction is ignored),
//! so a piece for which "may become home" is not derived never becomes home.

use crate::position::{pieces_of, walk_target, Position, ALL_PIECES};
use search::Player;

/// For each player (index [`crate::ODD`], [`crate::EVEN`]): `false` when it is proved that the
/// player can never have all six pieces home from `pos` on, whatever both sides play; `true`
/// when no such proof was found.
pub fn may_complete(pos: &Position) -> [bool; 2] {
    // Pieces home (bit n), which are also the squares holding a home piece.
    let home = pos.home_mask();
    let on_board = pos.board_mask();
    let mut orbit = [0u16; 13]; // squares (bit s) each non-home board piece may stand on
    let mut in_hand = ALL_PIECES & !on_board; // pieces that may be in hand at some time
    let mut may_home = home | in_hand;
    let mut hits = [0u16; 13]; // squares where a walk of piece j may capture
    let moving = on_board & !home;
    let mut m = moving;
    while m != 0 {
        let k = m.trailing_zeros() as u8;
        m &= m - 1;
        let mut sq = pos.square_of(k).expect("piece on board");
        let mut orb = 1u16 << sq;
        if k == 12 {
            in_hand |= 1 << 12;
            may_home |= 1 << 12;
            orbit[12] = orb;
            continue;
        }
        let mut hit = 0u16;
        loop {
            let t = walk_target(sq, k);
            if home & (1 << t) != 0 {
                break;
            }
            hit |= 1 << t;
            if t == k {
                may_home |= 1 << k;
                break;
            }
            if orb & (1 << t) != 0 {
                break;
            }
            orb |= 1 << t;
            sq = t;
        }
        orbit[k as usize] = orb;
        hits[k as usize] = hit;
    }
    // Captures by walks.
    let mut m = moving & !in_hand;
    while m != 0 {
        let k = m.trailing_zeros() as usize;
        m &= m - 1;
        let others = (1..=12)
            .filter(|&j| j != k)
            .fold(0u16, |acc, j| acc | hits[j]);
        if orbit[k] & others != 0 {
            in_hand |= 1 << k;
        }
    }
    // Captures by placements, to a fixed point: piece k is captured on square x if piece x
    // may be in hand (square x and piece x share the number).
    loop {
        let mut changed = false;
        let mut m = moving & !in_hand;
        while m != 0 {
            let k = m.trailing_zeros() as usize;
            m &= m - 1;
            if orbit[k] & in_hand != 0 {
                in_hand |= 1 << k;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    may_home |= in_hand;
    let can = |p: Player| may_home & pieces_of(p) == pieces_of(p);
    [can(0), can(1)]
}
