//! The fast lane: the annotation lines that make up almost all of a large
//! file (`OBJ_DRAPED`, `OBJ_GRADED`, `TREE` with plain numbers and single
//! separators) read straight from the bytes into the model: bit masks of a
//! line's spaces and digits place its tokens ([`integers`]), and each
//! number is read as one word.
//!
//! A line is taken only when the general reader ([`super::parse`]) would
//! make exactly the same annotation from it and report nothing; anything
//! else (another keyword, indentation, runs of whitespace, a comment, a
//! number in another form, a count the general reader would complain about)
//! is left to the general reader. A property test in [`super::parse`] holds
//! the two to the same model and diagnostics.

use super::model::{AnnotationKind, ObjMode, ObjectAnn, TreeAnn};
use super::num::{Plain, classified, top_digits, word_digits};
use super::swar::{HIGH, LOW, eq_bytes, gather, low_bytes, lt_bytes, word};

/// Most arguments a fast-lane directive takes.
const MAX_ARGS: usize = 6;

/// The directives the fast lane takes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Hot {
    Draped,
    Graded,
    Tree,
}

/// The annotation on the line `src[start..end]` and its keyword, when the
/// line is one the fast lane takes (see the module documentation).
#[inline(always)]
pub(crate) fn annotation(
    src: &[u8],
    start: usize,
    end: usize,
) -> Option<(AnnotationKind, &'static str)> {
    let mut out = None;
    annotation_into(src, start, end, &mut out);
    out
}

/// Where [`annotation_into`] hands an annotation and its keyword.
pub(crate) trait Sink {
    /// Takes the annotation.
    fn take(&mut self, kind: AnnotationKind, keyword: &'static str);
}

impl Sink for Option<(AnnotationKind, &'static str)> {
    #[inline(always)]
    fn take(&mut self, kind: AnnotationKind, keyword: &'static str) {
        *self = Some((kind, keyword));
    }
}

/// [`annotation`] handed to `sink` (inlined with it, so a run of lines goes
/// into the model without a call per line); whether the line is one the
/// fast lane takes.
#[inline(always)]
pub(crate) fn annotation_into(src: &[u8], start: usize, end: usize, sink: &mut impl Sink) -> bool {
    let head = word(src, start);
    // The keyword and one space after it (`ED ` completes `OBJ_DRAP` and
    // `OBJ_GRAD`).
    let ed = || word(src, start + 8) & low_bytes(3) == u64::from_le_bytes(*b"ED \0\0\0\0\0");
    let (hot, at) = if head == u64::from_le_bytes(*b"OBJ_DRAP") && ed() {
        (Hot::Draped, start + 11)
    } else if head == u64::from_le_bytes(*b"OBJ_GRAD") && ed() {
        (Hot::Graded, start + 11)
    } else if head & low_bytes(5) == u64::from_le_bytes(*b"TREE \0\0\0") {
        (Hot::Tree, start + 5)
    } else {
        return false;
    };
    let mut ints = [0u64; MAX_ARGS];
    match integers(src, at, end, &mut ints) {
        // Whole numbers of at most eight digits: exact as i64 and f64.
        Some(n) => build(
            hot,
            n,
            |i| ints[i] as i64 as f64,
            |i| Some(ints[i] as i64),
            sink,
        ),
        None => {
            let mut args = [Plain::default(); MAX_ARGS];
            let Some(n) = numbers(src, at, end, &mut args) else {
                return false;
            };
            build(hot, n, |i| args[i].value(), |i| args[i].int(), sink)
        }
    }
    .is_some()
}

/// Hands `sink` the annotation a `hot` directive with `n` arguments makes
/// (argument `i` read by `v` as a number and by `int` as an integer) and
/// its keyword; `None` for a count the directive does not take or an
/// integer argument that is not one.
#[inline(always)]
fn build(
    hot: Hot,
    n: usize,
    v: impl Fn(usize) -> f64,
    int: impl Fn(usize) -> Option<i64>,
    sink: &mut impl Sink,
) -> Option<()> {
    match (hot, n) {
        (Hot::Tree, 5) => {
            let layer = int(4)?;
            let tree = TreeAnn {
                at: [v(0), v(1)],
                heading: v(2),
                width: v(3),
                layer,
            };
            sink.take(AnnotationKind::Tree(tree), "TREE");
        }
        (Hot::Draped | Hot::Graded, 4 | 6) => {
            let index = int(3)?;
            let show = if n == 6 {
                Some([int(4)?, int(5)?])
            } else {
                None
            };
            let (mode, kw) = if hot == Hot::Draped {
                (ObjMode::Draped, "OBJ_DRAPED")
            } else {
                (ObjMode::Graded, "OBJ_GRADED")
            };
            let object = ObjectAnn {
                mode,
                at: [v(0), v(1)],
                heading: v(2),
                index,
                show,
            };
            sink.take(AnnotationKind::Object(object), kw);
        }
        _ => return None,
    }
    Some(())
}

/// The longest argument text [`integers`] reads from its masks.
const MASK_SPAN: usize = 64;

/// The masks [`integers`] reads a line by, for the 32 bytes of `src` from
/// `at` (zeros past the end): the spaces and the bytes that are a digit or a
/// space, one bit per byte.
///
/// SSE2 (part of every x86-64) compares sixteen bytes at a time.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn masks(src: &[u8], at: usize) -> (u64, u64) {
    use safe_arch::{
        cmp_eq_mask_i8_m128i, cmp_gt_mask_i8_m128i, cmp_lt_mask_i8_m128i, load_unaligned_m128i,
        move_mask_i8_m128i, set_splat_i8_m128i,
    };
    let bytes: [u8; 32] = super::swar::padded(src, at);
    let (space, before_0, after_9) = (
        set_splat_i8_m128i(b' ' as i8),
        set_splat_i8_m128i(b'0' as i8 - 1),
        set_splat_i8_m128i(b'9' as i8 + 1),
    );
    let half = |h: &[u8; 16]| {
        let v = load_unaligned_m128i(h);
        let s = cmp_eq_mask_i8_m128i(v, space);
        let d = cmp_gt_mask_i8_m128i(v, before_0) & cmp_lt_mask_i8_m128i(v, after_9);
        (
            move_mask_i8_m128i(s) as u16 as u64,
            move_mask_i8_m128i(s | d) as u16 as u64,
        )
    };
    let (lo, hi) = bytes.split_at(16);
    let (s0, a0) = half(lo.try_into().unwrap_or(&[0; 16]));
    let (s1, a1) = half(hi.try_into().unwrap_or(&[0; 16]));
    (s0 | s1 << 16, a0 | a1 << 16)
}

/// [`masks`] a word at a time, where SSE2 is not there.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
#[inline(always)]
fn masks_swar(src: &[u8], at: usize) -> (u64, u64) {
    let (mut spaces, mut allowed) = (0, 0);
    for i in (0..32).step_by(8) {
        let w = word(src, at + i);
        let space = eq_bytes(w, b' ');
        let digit = lt_bytes(w ^ (LOW * u64::from(b'0')), 10);
        spaces |= gather(space) << i;
        allowed |= gather(space | digit) << i;
    }
    (spaces, allowed)
}

#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
use masks_swar as masks;

/// Reads `src[at..end]` into `ints` when it is nothing but unsigned whole
/// numbers of at most eight digits, each followed by one space (the last by
/// the end of the line): the form of almost every annotation line. Their
/// count, or `None` for anything else (left to [`numbers`]).
///
/// Two bit masks of the whole text are made first ([`masks`]): its spaces
/// and the bytes that are a digit or a space. Every token's place then
/// follows from the space mask alone, so the tokens are read
/// independently of one another instead of each waiting for the length of
/// the one before it; each is read as the word that ends with it, its
/// digits in the top bytes.
#[inline(always)]
fn integers(src: &[u8], at: usize, end: usize, ints: &mut [u64; MAX_ARGS]) -> Option<usize> {
    let n = end - at;
    if n == 0 || n > MASK_SPAN || at < 8 {
        return None;
    }
    let (mut spaces, mut allowed) = masks(src, at);
    if n > 32 {
        let (s, a) = masks(src, at + 32);
        spaces |= s << 32;
        allowed |= a << 32;
    }
    let within = if n < 64 { (1u64 << n) - 1 } else { !0 };
    let spaces = spaces & within;
    // Only digits and single spaces, neither first nor last.
    if allowed & within != within
        || spaces & (spaces >> 1) != 0
        || spaces & 1 != 0
        || spaces >> (n - 1) != 0
    {
        return None;
    }
    let count = spaces.count_ones() as usize + 1;
    if count > MAX_ARGS {
        return None;
    }
    let mut from = 0;
    let mut rest = spaces;
    for int in ints.iter_mut().take(count) {
        let to = if rest == 0 {
            n
        } else {
            rest.trailing_zeros() as usize
        };
        let len = to - from;
        if len > 8 {
            return None;
        }
        *int = top_digits(word(src, at + to - 8), len);
        from = to + 1;
        rest &= rest.wrapping_sub(1);
    }
    Some(count)
}

/// Reads the plain number tokens of `src[at..end]`, each followed by one
/// space (or the end of the line), into `args`; their count, or `None` when
/// a token is not a plain number of at most eight bytes, another separator
/// or two in a row follow one, or there are more than [`MAX_ARGS`].
#[inline(always)]
fn numbers(src: &[u8], mut at: usize, end: usize, args: &mut [Plain; MAX_ARGS]) -> Option<usize> {
    let mut n = 0;
    while at < end {
        if n == MAX_ARGS {
            return None;
        }
        let w = word(src, at);
        let digits = lt_bytes(w ^ (LOW * u64::from(b'0')), 10);
        let len = ((!digits & HIGH).trailing_zeros() as usize / 8).min(end - at);
        let next = at + len;
        // Most tokens are unsigned integers that end at one space or at the
        // end of the line: nothing more to check.
        let p = if len > 0 && (next >= end || src[next] == b' ') {
            Plain::whole(word_digits(w, len), len)
        } else {
            // Otherwise the token runs over digits, points and minus signs.
            let (dots, minus) = (eq_bytes(w, b'.'), eq_bytes(w, b'-'));
            let stop = !(digits | dots | minus) & HIGH;
            let len = (stop.trailing_zeros() as usize / 8).min(end - at);
            let next = at + len;
            // It must end at one space or at the end of the line (so a
            // ninth byte, a letter or a tab sends the line to the general
            // reader).
            if len == 0 || (next < end && src[next] != b' ') {
                return None;
            }
            let in_token = HIGH & low_bytes(len);
            classified(
                w & low_bytes(len),
                len,
                dots & in_token,
                minus & in_token,
                true,
            )?
        };
        args[n] = p;
        n += 1;
        at += p.len + 1;
    }
    Some(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The SSE2 masks and the word-at-a-time ones agree on every byte,
        /// also past the end of the source.
        #[test]
        fn masks_agree(src in proptest::collection::vec(any::<u8>(), 0..80), at in 0..80usize) {
            let mut src = src;
            // Mostly the bytes that matter.
            for (i, b) in src.iter_mut().enumerate() {
                if i % 3 != 0 {
                    *b = b"0123456789 .-\t"[usize::from(*b) % 14];
                }
            }
            prop_assert_eq!(masks(&src, at), masks_swar(&src, at));
        }
    }
}
