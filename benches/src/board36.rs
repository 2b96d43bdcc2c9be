//! What the two 6×6 benchmark games ([`crate::othello`], [`crate::breakthrough`]) share:
//! two players' pieces as 36-bit boards, their Zobrist numbers and key, and the error of a
//! text that is not a position.

use std::fmt;

use plyforge::search::rng::splitmix64;

/// Zobrist numbers of a 6×6 game, one per player and cell, from `seed`.
pub const fn zobrist(seed: u64) -> [[u64; 36]; 2] {
    let mut z = [[0u64; 36]; 2];
    let mut i = 0;
    while i < 72 {
        z[i / 36][i % 36] = splitmix64(seed + i as u64);
        i += 1;
    }
    z
}

/// The key of two players' pieces `bits` (bit `row * 6 + column`) with the numbers `z`,
/// and `second` if the second player is to move.
///
/// ```
/// use benches::board36::{key, zobrist};
/// let z = zobrist(7);
/// assert_eq!(key(&z, [0b1, 0], 0), z[0][0]);
/// assert_eq!(key(&z, [0b1, 0b100], 9), z[0][0] ^ z[1][2] ^ 9);
/// ```
pub fn key(z: &[[u64; 36]; 2], bits: [u64; 2], second: u64) -> u64 {
    let mut k = second;
    for (p, z) in z.iter().enumerate() {
        let mut b = bits[p];
        while b != 0 {
            k ^= z[b.trailing_zeros() as usize];
            b &= b - 1;
        }
    }
    k
}

/// Why a text is not a position of a 6×6 benchmark game (what is wrong, in words).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsePositionError(pub String);

impl fmt::Display for ParsePositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParsePositionError {}
