//! Byte tests on 64-bit words (eight bytes at a time, no loop over the
//! bytes): the building blocks of the tokenizer and the number reader; and
//! [`eq_mask64`], one bit per matching byte for 64 bytes at a time (SSE2 on
//! x86-64, through the safe wrappers of `safe_arch`; these word tests
//! elsewhere).
//!
//! A "byte mask" has the high bit of each selected byte set; [`gather`]
//! packs it into one bit per byte.

/// 0x01 in every byte.
pub(crate) const LOW: u64 = 0x0101_0101_0101_0101;
/// 0x80 in every byte.
pub(crate) const HIGH: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `x` that equals `c`.
#[inline(always)]
pub(crate) fn eq_bytes(x: u64, c: u8) -> u64 {
    let y = x ^ (LOW * u64::from(c));
    !(((y & !HIGH) + !HIGH) | y) & HIGH
}

/// The high bit of each byte of `x` below `n` (`n <= 0x80`).
#[inline(always)]
pub(crate) fn lt_bytes(x: u64, n: u8) -> u64 {
    !((x | HIGH) - LOW * u64::from(n)) & !x & HIGH
}

/// The high bit of each byte of `x` that separates tokens: space or
/// 0x09..=0x0D (tab, newline, VT, FF, CR).
#[inline(always)]
pub(crate) fn separator_bytes(x: u64) -> u64 {
    eq_bytes(x, b' ') | (lt_bytes(x, 0x0e) & !lt_bytes(x, 0x09))
}

/// The high bits of a byte mask gathered into eight bits (bit `i` = byte `i`
/// of the little-endian word).
#[inline(always)]
pub(crate) fn gather(m: u64) -> u64 {
    ((m >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56
}

/// The low `n` bytes of a word set (`n <= 8`; all of them from 8 on).
#[inline(always)]
pub(crate) fn low_bytes(n: usize) -> u64 {
    if n >= 8 { !0 } else { (1u64 << (8 * n)) - 1 }
}

/// The eight bytes of `src` from `at` as a little-endian word, zeros past
/// the end.
#[inline(always)]
pub(crate) fn word(src: &[u8], at: usize) -> u64 {
    match src.get(at..at + 8) {
        Some(w) => u64::from_le_bytes(w.try_into().unwrap_or([0; 8])),
        None => u64::from_le_bytes(padded(src, at)),
    }
}

/// The `N` bytes of `src` from `at`, zeros past the end.
#[inline(always)]
pub(crate) fn padded<const N: usize>(src: &[u8], at: usize) -> [u8; N] {
    match src.get(at..at + N) {
        Some(w) => w.try_into().unwrap_or([0; N]),
        None => {
            let mut w = [0u8; N];
            let rest = src.get(at..).unwrap_or_default();
            w[..rest.len()].copy_from_slice(rest);
            w
        }
    }
}

/// Bit `i` set when byte `at + i` of `src` is `c`, for the 64 bytes from
/// `at` (bytes past the end read as zero). SSE2 (part of every x86-64)
/// compares sixteen bytes at a time; elsewhere it goes a word at a time.
#[inline(always)]
pub(crate) fn eq_mask64(src: &[u8], at: usize, c: u8) -> u64 {
    match src.get(at..at + 64) {
        Some(window) => eq_mask_full(window, c),
        None => eq_mask_full(&padded::<64>(src, at), c),
    }
}

/// [`eq_mask64`] of a window of 64 bytes.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn eq_mask_full(window: &[u8], c: u8) -> u64 {
    use safe_arch::{
        cmp_eq_mask_i8_m128i, load_unaligned_m128i, move_mask_i8_m128i, set_splat_i8_m128i,
    };
    let needle = set_splat_i8_m128i(c as i8);
    let mut m = 0;
    for (k, part) in window.chunks_exact(16).enumerate() {
        let v = load_unaligned_m128i(part.try_into().unwrap_or(&[0; 16]));
        m |= (move_mask_i8_m128i(cmp_eq_mask_i8_m128i(v, needle)) as u16 as u64) << (16 * k);
    }
    m
}

/// [`eq_mask64`] of a window of 64 bytes, a word at a time.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
#[inline(always)]
fn eq_mask_words(window: &[u8], c: u8) -> u64 {
    (0..64)
        .step_by(8)
        .map(|i| gather(eq_bytes(word(window, i), c)) << i)
        .fold(0, |m, b| m | b)
}

#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
use eq_mask_words as eq_mask_full;

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Both ways of making the mask agree with a byte loop.
        #[test]
        fn eq_mask64_matches_a_byte_loop(
            src in proptest::collection::vec(prop_oneof![Just(b'\n'), Just(b'a'), any::<u8>()], 0..200),
            at in 0..200usize,
        ) {
            let want = (0..64).fold(0u64, |m, i| {
                m | (u64::from(src.get(at + i) == Some(&b'\n')) << i)
            });
            prop_assert_eq!(eq_mask64(&src, at, b'\n'), want);
            let mut window = [0u8; 64];
            let rest = src.get(at..).unwrap_or_default();
            let n = rest.len().min(64);
            window[..n].copy_from_slice(&rest[..n]);
            prop_assert_eq!(eq_mask_words(&window, b'\n'), want);
        }
    }

    #[test]
    fn byte_tests_match_the_scalar_ones() {
        for c in 0..=255u8 {
            for at in 0..8 {
                let mut w = [b'x'; 8];
                w[at] = c;
                let x = u64::from_le_bytes(w);
                let bit = |b: bool| if b { 1u64 << at } else { 0 };
                assert_eq!(gather(eq_bytes(x, b'.')), bit(c == b'.'), "{c:#x}");
                assert_eq!(gather(lt_bytes(x, 10)), bit(c < 10), "{c:#x}");
                let sep = c == b' ' || (9..=13).contains(&c);
                assert_eq!(gather(separator_bytes(x)), bit(sep), "{c:#x}");
            }
        }
        assert_eq!(word(b"abc", 1), u64::from_le_bytes(*b"bc\0\0\0\0\0\0"));
        assert_eq!(word(b"abc", 3), 0);
        assert_eq!(low_bytes(0), 0);
        assert_eq!(low_bytes(3), 0xff_ffff);
    }
}
