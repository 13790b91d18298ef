//! The fast lane: the annotation lines that make up almost all of a large
//! file (`OBJ_DRAPED`, `OBJ_GRADED`, `TREE` with plain numbers and single
//! separators) read straight from the bytes, a word at a time, into the
//! model.
//!
//! A line is taken only when the general reader ([`super::parse`]) would
//! make exactly the same annotation from it and report nothing; anything
//! else (another keyword, indentation, runs of whitespace, a comment, a
//! number in another form, a count the general reader would complain about)
//! is left to the general reader. A property test in [`super::parse`] holds
//! the two to the same model and diagnostics.

use super::model::{AnnotationKind, ObjMode, ObjectAnn, TreeAnn};
use super::num::{Plain, classified, word_digits};
use super::swar::{HIGH, LOW, eq_bytes, low_bytes, lt_bytes, word};

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
        return None;
    };
    let mut args = [Plain::default(); MAX_ARGS];
    let n = numbers(src, at, end, &mut args)?;
    let v = |i: usize| args[i].value();
    let int = |i: usize| args[i].int();
    let kind = match (hot, n) {
        (Hot::Tree, 5) => AnnotationKind::Tree(TreeAnn {
            at: [v(0), v(1)],
            heading: v(2),
            width: v(3),
            layer: int(4)?,
        }),
        (Hot::Draped | Hot::Graded, 4 | 6) => AnnotationKind::Object(ObjectAnn {
            mode: if hot == Hot::Draped {
                ObjMode::Draped
            } else {
                ObjMode::Graded
            },
            at: [v(0), v(1)],
            heading: v(2),
            index: int(3)?,
            show: if n == 6 {
                Some([int(4)?, int(5)?])
            } else {
                None
            },
        }),
        _ => return None,
    };
    let kw = match hot {
        Hot::Draped => "OBJ_DRAPED",
        Hot::Graded => "OBJ_GRADED",
        Hot::Tree => "TREE",
    };
    Some((kind, kw))
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
