//! A 64-bit digest of bytes (FNV-1a): what names a file's content or a run's settings in the
//! ids of match files, training runs and networks. Not cryptographic: it tells apart files
//! and settings made by mistake, not by an adversary.

/// The 64-bit FNV-1a digest of `bytes`.
///
/// ```
/// use plyforge::digest::fnv1a;
/// assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
/// assert_ne!(fnv1a(b"net"), fnv1a(b"nets"));
/// ```
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}
