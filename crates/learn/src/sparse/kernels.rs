//! The integer network's loops, and the instruction set they run with, chosen at run time.
//!
//! Each loop is written once, as plain Rust in fixed chunks of lanes that the compiler
//! vectorises ([`portable`]); on x86-64 the same code is compiled a second time with AVX2
//! enabled, and [`Simd::detect`] picks that copy when the processor has AVX2. Both copies
//! compute the same integers (wrapping `i16` sums, exact `i32` dot products), so an
//! evaluation does not depend on the machine that ran it.

/// Lanes of `i16` a chunk of the accumulator holds while every changed row is added to it
/// (128 bytes: four AVX2 registers, eight SSE2 ones).
const LANES: usize = 64;

/// The instruction set the loops run with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Simd {
    /// The loops as compiled for the target's baseline (on x86-64, SSE2: still vectorised
    /// by the compiler, 8 `i16` lanes a register).
    Portable,
    /// The same loops compiled with AVX2 (16 `i16` lanes a register); only ever made by
    /// [`Simd::detect`] or [`Simd::avx2`] on a processor that has AVX2.
    #[cfg(target_arch = "x86_64")]
    Avx2(Avx2Token),
}

/// Proof that the processor running this program has AVX2: made only after asking it.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Avx2Token(());

impl Simd {
    /// The best instruction set of this processor.
    pub fn detect() -> Simd {
        Simd::avx2().unwrap_or(Simd::Portable)
    }

    /// AVX2, when this processor has it.
    pub fn avx2() -> Option<Simd> {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            return Some(Simd::Avx2(Avx2Token(())));
        }
        None
    }

    /// Its name, for reports: `portable` or `avx2`.
    pub fn name(self) -> &'static str {
        match self {
            Simd::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2(_) => "avx2",
        }
    }
}

/// Each loop of [`portable`] as a method of [`Simd`], running the copy compiled for it.
macro_rules! dispatch {
    ($( $(#[$doc:meta])* fn $name:ident($($arg:ident: $ty:ty),*) $(-> $ret:ty)?; )*) => {
        impl Simd {
            $(
                $(#[$doc])*
                #[inline]
                pub(crate) fn $name(self, $($arg: $ty),*) $(-> $ret)? {
                    match self {
                        Simd::Portable => portable::$name($($arg),*),
                        #[cfg(target_arch = "x86_64")]
                        // SAFETY: an `Avx2Token` is made only after
                        // `is_x86_feature_detected!("avx2")` said yes, so the processor
                        // running this has every instruction `avx2::$name` may use.
                        #[allow(unsafe_code)]
                        Simd::Avx2(_) => unsafe { avx2::$name($($arg),*) },
                    }
                }
            )*
        }

        /// The loops compiled with AVX2 enabled (the same source as [`portable`]'s).
        #[cfg(target_arch = "x86_64")]
        mod avx2 {
            $(
                /// [`super::portable`]'s loop of the same name, compiled for AVX2.
                ///
                /// # Safety
                /// The processor must have AVX2.
                #[allow(unsafe_code)]
                #[target_feature(enable = "avx2")]
                pub(super) unsafe fn $name($($arg: $ty),*) $(-> $ret)? {
                    super::portable::$name($($arg),*)
                }
            )*
        }
    };
}

dispatch! {
    /// `sums += Σ rows of added − Σ rows of removed` (wrapping).
    fn update(sums: &mut [i16], weights: &[i16], added: &[u32], removed: &[u32]);
    /// `sums = bias + Σ rows of active` (wrapping).
    fn refresh(sums: &mut [i16], bias: &[i16], weights: &[i16], active: &[u32]);
    /// `out[i] = clamp(sums[i], 0, 127)`.
    fn crelu(sums: &[i16], out: &mut [u8]);
    /// `out[j] = bias[j] + Σ_i x[i] · weights[j · x.len() + i]`.
    fn dense(x: &[u8], weights: &[i8], bias: &[i32], out: &mut [i32]);
}

/// The loops, in plain Rust (the source of every compiled copy).
pub(crate) mod portable {
    use super::LANES;

    /// Row `f` of a feature-major matrix of rows of `width`.
    #[inline(always)]
    fn row(weights: &[i16], f: u32, width: usize) -> &[i16] {
        let start = f as usize * width;
        &weights[start..start + width]
    }

    /// `acc += Σ rows of added − Σ rows of removed`, for the lanes `lo .. lo + acc.len()`.
    #[inline(always)]
    fn chunk(
        acc: &mut [i16],
        weights: &[i16],
        width: usize,
        lo: usize,
        added: &[u32],
        removed: &[u32],
    ) {
        let n = acc.len();
        for &f in added {
            let r = &row(weights, f, width)[lo..lo + n];
            for (a, w) in acc.iter_mut().zip(r) {
                *a = a.wrapping_add(*w);
            }
        }
        for &f in removed {
            let r = &row(weights, f, width)[lo..lo + n];
            for (a, w) in acc.iter_mut().zip(r) {
                *a = a.wrapping_sub(*w);
            }
        }
    }

    /// `sums += Σ rows of added − Σ rows of removed`, a chunk of [`LANES`] at a time held
    /// in registers while every row is added.
    #[inline(always)]
    pub(crate) fn update(sums: &mut [i16], weights: &[i16], added: &[u32], removed: &[u32]) {
        let width = sums.len();
        let mut lo = 0;
        let mut chunks = sums.chunks_exact_mut(LANES);
        for c in &mut chunks {
            let mut acc = [0i16; LANES];
            acc.copy_from_slice(c);
            chunk(&mut acc, weights, width, lo, added, removed);
            c.copy_from_slice(&acc);
            lo += LANES;
        }
        let rest = chunks.into_remainder();
        if !rest.is_empty() {
            chunk(rest, weights, width, lo, added, removed);
        }
    }

    /// `sums = bias + Σ rows of active`.
    #[inline(always)]
    pub(crate) fn refresh(sums: &mut [i16], bias: &[i16], weights: &[i16], active: &[u32]) {
        sums.copy_from_slice(bias);
        update(sums, weights, active, &[]);
    }

    /// `out[i] = clamp(sums[i], 0, 127)`.
    #[inline(always)]
    pub(crate) fn crelu(sums: &[i16], out: &mut [u8]) {
        for (o, &s) in out.iter_mut().zip(sums) {
            *o = s.clamp(0, 127) as u8;
        }
    }

    /// `Σ x[i] · w[i]` in 16 lanes of `i32`.
    #[inline(always)]
    fn dot(x: &[u8], w: &[i8]) -> i32 {
        const K: usize = 16;
        let mut lanes = [0i32; K];
        let (cx, cw) = (x.chunks_exact(K), w.chunks_exact(K));
        let rest: i32 = cx
            .remainder()
            .iter()
            .zip(cw.remainder())
            .map(|(&a, &b)| i32::from(a) * i32::from(b))
            .sum();
        for (a, b) in cx.zip(cw) {
            for k in 0..K {
                lanes[k] += i32::from(a[k]) * i32::from(b[k]);
            }
        }
        lanes.iter().sum::<i32>() + rest
    }

    /// `out[j] = bias[j] + Σ_i x[i] · weights[j · x.len() + i]` (output-major weights).
    #[inline(always)]
    pub(crate) fn dense(x: &[u8], weights: &[i8], bias: &[i32], out: &mut [i32]) {
        let n = x.len();
        for ((o, &b), w) in out.iter_mut().zip(bias).zip(weights.chunks_exact(n)) {
            *o = b + dot(x, w);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn every_instruction_set_computes_the_same_integers() {
        let mut rng = Rng::new(4);
        let mut sets = vec![Simd::Portable];
        sets.extend(Simd::avx2());
        for width in [1, 17, 64, 100, 256] {
            let weights: Vec<i16> = (0..40 * width).map(|_| rng.next() as i16).collect();
            let bias: Vec<i16> = (0..width).map(|_| rng.next() as i16).collect();
            let active = [3u32, 9, 39];
            let (added, removed) = ([1u32, 7], [9u32, 3, 0]);
            let dense: Vec<i8> = (0..3 * width).map(|_| rng.next() as i8).collect();
            let mut results = Vec::new();
            for &simd in &sets {
                let mut sums = vec![0i16; width];
                simd.refresh(&mut sums, &bias, &weights, &active);
                simd.update(&mut sums, &weights, &added, &removed);
                let mut act = vec![0u8; width];
                simd.crelu(&sums, &mut act);
                let mut out = [0i32; 3];
                simd.dense(&act, &dense, &[1, -2, 3], &mut out);
                results.push((sums, act, out));
            }
            // The straight definitions.
            let (sums, act, out) = &results[0];
            for (h, &s) in sums.iter().enumerate() {
                let mut want = bias[h];
                for f in [39u32, 1, 7] {
                    want = want.wrapping_add(weights[f as usize * width + h]);
                }
                // Feature 0's row comes first.
                want = want.wrapping_sub(weights[h]);
                assert_eq!(s, want, "width {width} lane {h}");
                assert_eq!(i16::from(act[h]), s.clamp(0, 127));
            }
            for (j, &o) in out.iter().enumerate() {
                let want: i32 = [1, -2, 3][j]
                    + (0..width)
                        .map(|i| i32::from(act[i]) * i32::from(dense[j * width + i]))
                        .sum::<i32>();
                assert_eq!(o, want);
            }
            for r in &results[1..] {
                assert_eq!(&r.0, sums);
                assert_eq!(&r.2, out);
            }
        }
    }
}
