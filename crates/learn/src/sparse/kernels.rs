//! The integer network's loops, and the instruction set they run with, chosen at run time.
//!
//! Each loop is written once, as plain Rust in fixed chunks of lanes that the compiler
//! vectorises; on x86-64 the same code is compiled a second time with AVX2 enabled, and
//! [`Simd::detect`] picks that copy when the processor has AVX2. The one loop where the
//! compiler's vectorisation fell well short of the instructions (a view's update fused
//! with the output layer's multiply, `pmaddwd`) is written with AVX2 intrinsics. Every
//! copy computes the same integers (wrapping `i16` sums, exact `i32` dot products), so an
//! evaluation does not depend on the machine that ran it (a test holds them to the
//! definition).
//!
//! `unsafe` is confined here: the calls into the AVX2 copies (each after the processor
//! said it has AVX2, which an [`Avx2Token`] proves) and the intrinsics' loads (each inside
//! its slice, checked once before the loop). The bench (`benches/sparse.rs`) measures
//! what each buys: see the module [`sparse`](super)'s figures.

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
                        Simd::Portable => baseline::$name($($arg),*),
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

        /// The loops as compiled for the target's baseline, each a function of its own:
        /// [`portable`]'s are `#[inline(always)]` (so that [`avx2`]'s copies are compiled
        /// with AVX2), and inlined into the dispatch as well they made every caller a large
        /// function with a costly entry (a fifth of an evaluation's instructions, callgrind).
        mod baseline {
            $(
                /// [`super::portable`]'s loop of the same name, not inlined.
                #[inline(never)]
                pub(super) fn $name($($arg: $ty),*) $(-> $ret)? {
                    super::portable::$name($($arg),*)
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
    fn crelu(sums: &[i16], out: &mut [i16]);
}

/// What one view's update and its share of the output layer read
/// ([`Simd::update_dot`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fused<'a> {
    /// The feature transformer, feature-major (rows of `sums.len()`).
    pub(crate) weights: &'a [i16],
    /// The features whose rows are added.
    pub(crate) added: &'a [u32],
    /// The features whose rows are subtracted.
    pub(crate) removed: &'a [u32],
    /// The output layer's weights from the view's first input on.
    pub(crate) dense: &'a [i16],
    /// The distance between two outputs' rows of `dense`.
    pub(crate) stride: usize,
}

impl Simd {
    /// `out[j] = bias[j] + Σ_i x[i] · weights[j · x.len() + i]` (output-major weights).
    #[inline]
    pub(crate) fn dense(self, x: &[i16], weights: &[i16], bias: &[i32], out: &mut [i32]) {
        match self {
            Simd::Portable => baseline_dense(x, weights, bias, out),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: an `Avx2Token` is made only after `is_x86_feature_detected!("avx2")`
            // said yes, so the processor running this has AVX2.
            #[allow(unsafe_code)]
            Simd::Avx2(_) => unsafe { fused::dense(x, weights, bias, out) },
        }
    }

    /// `sums += Σ rows of added − Σ rows of removed` (wrapping), then
    /// `out[j] += Σ_i clamp(sums[i], 0, 127) · dense[j · stride + i]`: a network without a
    /// second hidden layer is evaluated in this one pass per view.
    #[inline]
    pub(crate) fn update_dot(self, sums: &mut [i16], view: Fused<'_>, out: &mut [i32]) {
        match self {
            Simd::Portable => baseline_update_dot(sums, view, out),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: an `Avx2Token` is made only after `is_x86_feature_detected!("avx2")`
            // said yes, so the processor running this has AVX2.
            #[allow(unsafe_code)]
            Simd::Avx2(_) => unsafe { fused::update_dot(sums, view, out) },
        }
    }
}

/// [`portable::dense`], not inlined (see the dispatch's `baseline`).
#[inline(never)]
fn baseline_dense(x: &[i16], weights: &[i16], bias: &[i32], out: &mut [i32]) {
    portable::dense(x, weights, bias, out)
}

/// [`portable::update_dot`], not inlined (see the dispatch's `baseline`).
#[inline(never)]
fn baseline_update_dot(sums: &mut [i16], view: Fused<'_>, out: &mut [i32]) {
    portable::update_dot(sums, view, out)
}

/// [`Simd::update_dot`] in AVX2's instructions: the compiler's own vectorisation of the
/// portable loop widens the clipped values to 32 bits and packs them back before each
/// `pmaddwd` (about 240 instructions a view of 64 lanes, against about 100 here, counted
/// by callgrind).
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod fused {
    use super::Fused;
    use std::arch::x86_64::{
        __m256i, _mm256_add_epi16, _mm256_add_epi32, _mm256_castsi256_si128,
        _mm256_extracti128_si256, _mm256_loadu_si256, _mm256_madd_epi16, _mm256_max_epi16,
        _mm256_min_epi16, _mm256_set1_epi16, _mm256_setzero_si256, _mm256_storeu_si256,
        _mm256_sub_epi16, _mm_add_epi32, _mm_cvtsi128_si32, _mm_shuffle_epi32,
    };

    /// The sum of the eight `i32` lanes.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn hsum(v: __m256i) -> i32 {
        let s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
        _mm_cvtsi128_si32(s)
    }

    /// `R` registers (16 lanes each) of `sums` from lane `lo` on: updated by the rows,
    /// stored, clipped and multiplied into `out`.
    ///
    /// # Safety
    /// AVX2; `lo + 16 R ≤ sums.len()`; every row index below `weights.len() / sums.len()`;
    /// `j · stride + sums.len() ≤ dense.len()` for every output `j`.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn chunk<const R: usize>(sums: &mut [i16], lo: usize, view: Fused<'_>, out: &mut [i32]) {
        let (weights, dense) = (view.weights, view.dense);
        let width = sums.len();
        let at = sums.as_mut_ptr().add(lo);
        let mut acc = [_mm256_setzero_si256(); R];
        for (r, a) in acc.iter_mut().enumerate() {
            *a = _mm256_loadu_si256(at.add(16 * r).cast());
        }
        for &f in view.added {
            let row = weights.as_ptr().add(f as usize * width + lo);
            for (r, a) in acc.iter_mut().enumerate() {
                *a = _mm256_add_epi16(*a, _mm256_loadu_si256(row.add(16 * r).cast()));
            }
        }
        for &f in view.removed {
            let row = weights.as_ptr().add(f as usize * width + lo);
            for (r, a) in acc.iter_mut().enumerate() {
                *a = _mm256_sub_epi16(*a, _mm256_loadu_si256(row.add(16 * r).cast()));
            }
        }
        let (zero, top) = (_mm256_setzero_si256(), _mm256_set1_epi16(127));
        for (r, a) in acc.iter_mut().enumerate() {
            _mm256_storeu_si256(at.add(16 * r).cast(), *a);
            *a = _mm256_min_epi16(_mm256_max_epi16(*a, zero), top);
        }
        for (j, o) in out.iter_mut().enumerate() {
            let w = dense.as_ptr().add(j * view.stride + lo);
            let mut s = _mm256_setzero_si256();
            for (r, a) in acc.iter().enumerate() {
                s = _mm256_add_epi32(
                    s,
                    _mm256_madd_epi16(*a, _mm256_loadu_si256(w.add(16 * r).cast())),
                );
            }
            *o += hsum(s);
        }
    }

    /// [`super::Simd::dense`] for AVX2 (`pmaddwd` on 16 lanes at a time).
    ///
    /// # Safety
    /// The processor must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn dense(x: &[i16], weights: &[i16], bias: &[i32], out: &mut [i32]) {
        let n = x.len();
        if n % 16 != 0 {
            return super::portable::dense(x, weights, bias, out);
        }
        assert!(
            weights.len() >= out.len() * n && bias.len() >= out.len(),
            "dense weights too short"
        );
        for (j, o) in out.iter_mut().enumerate() {
            let w = weights.as_ptr().add(j * n);
            let mut s = _mm256_setzero_si256();
            for k in (0..n).step_by(16) {
                // SAFETY: k + 16 ≤ n, the lengths of x and of output j's row (checked).
                let (a, b) = unsafe {
                    (
                        _mm256_loadu_si256(x.as_ptr().add(k).cast()),
                        _mm256_loadu_si256(w.add(k).cast()),
                    )
                };
                s = _mm256_add_epi32(s, _mm256_madd_epi16(a, b));
            }
            *o = bias[j] + hsum(s);
        }
    }

    /// [`super::Simd::update_dot`] for AVX2.
    ///
    /// # Safety
    /// The processor must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn update_dot(sums: &mut [i16], view: Fused<'_>, out: &mut [i32]) {
        let width = sums.len();
        if width % 16 != 0 {
            return super::portable::update_dot(sums, view, out);
        }
        // Every load below is inside its slice: checked here, once.
        assert!(
            view.added
                .iter()
                .chain(view.removed)
                .all(|&f| (f as usize + 1) * width <= view.weights.len()),
            "a feature beyond the weights"
        );
        assert!(
            out.is_empty() || (out.len() - 1) * view.stride + width <= view.dense.len(),
            "dense weights too short"
        );
        let mut lo = 0;
        while lo + 64 <= width {
            // SAFETY: AVX2 (this function's contract); lo + 64 ≤ width, rows and outputs
            // checked above.
            unsafe { chunk::<4>(sums, lo, view, out) };
            lo += 64;
        }
        if lo + 32 <= width {
            // SAFETY: as above, with lo + 32 ≤ width: a width of 32 (or what a multiple of
            // 64 leaves) in one pass, each output's sum made once.
            unsafe { chunk::<2>(sums, lo, view, out) };
            lo += 32;
        }
        while lo < width {
            // SAFETY: as above, with lo + 16 ≤ width (width is a multiple of 16).
            unsafe { chunk::<1>(sums, lo, view, out) };
            lo += 16;
        }
    }
}

/// The loops, in plain Rust (the source of every compiled copy).
pub(crate) mod portable {
    use super::{Fused, LANES};

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
    /// in registers while every row is added; each chunk, updated, goes to `then` with
    /// its first lane.
    #[inline(always)]
    fn walk(
        sums: &mut [i16],
        weights: &[i16],
        added: &[u32],
        removed: &[u32],
        mut then: impl FnMut(usize, &[i16]),
    ) {
        let width = sums.len();
        let mut lo = 0;
        let mut chunks = sums.chunks_exact_mut(LANES);
        for c in &mut chunks {
            let mut acc = [0i16; LANES];
            acc.copy_from_slice(c);
            chunk(&mut acc, weights, width, lo, added, removed);
            c.copy_from_slice(&acc);
            then(lo, &acc);
            lo += LANES;
        }
        let rest = chunks.into_remainder();
        if !rest.is_empty() {
            chunk(rest, weights, width, lo, added, removed);
            then(lo, rest);
        }
    }

    /// `sums += Σ rows of added − Σ rows of removed`.
    #[inline(always)]
    pub(crate) fn update(sums: &mut [i16], weights: &[i16], added: &[u32], removed: &[u32]) {
        walk(sums, weights, added, removed, |_, _| {});
    }

    /// `sums += Σ rows of added − Σ rows of removed`, then
    /// `out[j] += Σ_i clamp(sums[i], 0, 127) · dense[j · stride + i]`: each chunk of
    /// lanes, once updated, is clipped and multiplied while still in registers.
    #[inline(always)]
    pub(crate) fn update_dot(sums: &mut [i16], view: Fused<'_>, out: &mut [i32]) {
        walk(sums, view.weights, view.added, view.removed, |lo, acc| {
            for (j, o) in out.iter_mut().enumerate() {
                let start = j * view.stride + lo;
                *o += acc
                    .iter()
                    .zip(&view.dense[start..start + acc.len()])
                    .map(|(&a, &b)| i32::from(a.clamp(0, 127)) * i32::from(b))
                    .sum::<i32>();
            }
        });
    }

    /// `sums = bias + Σ rows of active`.
    #[inline(always)]
    pub(crate) fn refresh(sums: &mut [i16], bias: &[i16], weights: &[i16], active: &[u32]) {
        sums.copy_from_slice(bias);
        update(sums, weights, active, &[]);
    }

    /// `out[i] = clamp(sums[i], 0, 127)`.
    #[inline(always)]
    pub(crate) fn crelu(sums: &[i16], out: &mut [i16]) {
        for (o, &s) in out.iter_mut().zip(sums) {
            *o = s.clamp(0, 127);
        }
    }

    /// `Σ x[i] · w[i]` in `i32`: a plain reduction, which the compiler turns into x86's
    /// `pmaddwd` (pairs of `i16` products summed into `i32` lanes). Activations are at
    /// most 127 and weights at most 128 in size, so no sum wraps.
    #[inline(always)]
    fn dot(x: &[i16], w: &[i16]) -> i32 {
        x.iter()
            .zip(w)
            .map(|(&a, &b)| i32::from(a) * i32::from(b))
            .sum()
    }

    /// `out[j] = bias[j] + Σ_i x[i] · weights[j · x.len() + i]` (output-major weights).
    #[inline(always)]
    pub(crate) fn dense(x: &[i16], weights: &[i16], bias: &[i32], out: &mut [i32]) {
        let n = x.len();
        for (j, (o, &b)) in out.iter_mut().zip(bias).enumerate() {
            *o = b + dot(x, &weights[j * n..(j + 1) * n]);
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
            let dense: Vec<i16> = (0..3 * width)
                .map(|_| i16::from(rng.next() as i8))
                .collect();
            let mut results = Vec::new();
            for &simd in &sets {
                let mut sums = vec![0i16; width];
                simd.refresh(&mut sums, &bias, &weights, &active);
                simd.update(&mut sums, &weights, &added, &removed);
                let mut act = vec![0i16; width];
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
                assert_eq!(act[h], s.clamp(0, 127));
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
