//! What the two 6×6 games share: two players' pieces as 36-bit boards (bit `row * 6 +
//! column`), and their Zobrist numbers and key.

use plyforge_search::rng::splitmix64;

/// The cells of the board.
pub(crate) const BOARD: u64 = (1 << 36) - 1;
/// The first column (bits 0, 6, …, 30) and the last.
pub(crate) const FIRST_COLUMN: u64 = 0x041041041;
pub(crate) const LAST_COLUMN: u64 = FIRST_COLUMN << 5;
/// The row of bits 0 to 5 and the row of bits 30 to 35.
pub(crate) const FIRST_ROW: u64 = 0x3f;
pub(crate) const LAST_ROW: u64 = 0x3f << 30;

/// Zobrist numbers of a 6×6 game, one per player and cell, from `seed`.
pub(crate) const fn zobrist(seed: u64) -> [[u64; 36]; 2] {
    let mut z = [[0u64; 36]; 2];
    let mut i = 0;
    while i < 72 {
        z[i / 36][i % 36] = splitmix64(seed + i as u64);
        i += 1;
    }
    z
}

/// The key of two players' pieces `bits` with the numbers `z`, and `second` (the number of
/// the second player to move, or 0).
pub(crate) fn key(z: &[[u64; 36]; 2], bits: [u64; 2], second: u64) -> u64 {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_is_the_pieces_numbers_and_the_side() {
        let z = zobrist(7);
        assert_eq!(key(&z, [0b1, 0], 0), z[0][0]);
        assert_eq!(key(&z, [0b1, 0b100], 9), z[0][0] ^ z[1][2] ^ 9);
        assert_ne!(z[0][0], z[1][0]);
    }

    #[test]
    fn the_masks() {
        assert_eq!(BOARD.count_ones(), 36);
        assert_eq!(FIRST_COLUMN.count_ones(), 6);
        assert_eq!(FIRST_COLUMN & FIRST_ROW, 1);
        assert_eq!(LAST_COLUMN & LAST_ROW, 1 << 35);
    }
}
