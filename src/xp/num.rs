//! Number tokens: the decimal forms the text formats use, read the same way
//! `str::parse` reads them, with fast paths for the plain forms that make up
//! almost every token of a real file.
//!
//! A token of at most eight bytes is read as one 64-bit word: its digits are
//! checked and combined a word at a time (no loop over the characters), and
//! anything that is not a plain decimal falls back to the general parser.

use super::swar::{HIGH, LOW, eq_bytes, low_bytes, lt_bytes, word};

/// Powers of ten that are exact in an `f64`.
const POW10: [f64; 16] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
];

/// The value of `digits` when it is a plain decimal without sign or
/// exponent (`12`, `0.5`, `3.`, `.25`) of at most 15 digits: the integer
/// mantissa and the power of ten are both exact in an `f64`, so one division
/// gives the correctly rounded value, the same as `str::parse::<f64>`. `None`
/// for every other form (left to the full parser).
fn plain_decimal(digits: &[u8]) -> Option<f64> {
    if digits.is_empty() || digits.len() > 16 {
        return None;
    }
    let mut mantissa = 0u64;
    let mut n = 0usize;
    let mut point = None;
    for (i, &d) in digits.iter().enumerate() {
        match d {
            b'0'..=b'9' => {
                mantissa = mantissa * 10 + u64::from(d - b'0');
                n += 1;
            }
            b'.' if point.is_none() => point = Some(i),
            _ => return None,
        }
    }
    if n == 0 || n > 15 {
        return None;
    }
    let frac = point.map_or(0, |p| digits.len() - 1 - p);
    Some(mantissa as f64 / POW10[frac])
}

/// `-?[0-9]{1,18}` as an integer (the common case, without the generic
/// parser); `None` for anything else.
fn plain_int(b: &[u8]) -> Option<i64> {
    let (neg, digits) = match b.first() {
        Some(b'-') => (true, &b[1..]),
        _ => (false, b),
    };
    if digits.is_empty() || digits.len() > 18 {
        return None;
    }
    let mut v = 0i64;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        v = v * 10 + i64::from(d - b'0');
    }
    Some(if neg { -v } else { v })
}

/// Parses a number token: decimal forms `1`, `-0`, `1.`, `.5`, `2.000000`,
/// `1e3`. `Err(true)` for NaN/infinity, `Err(false)` for anything else.
pub(crate) fn parse_number(t: &str) -> Result<f64, bool> {
    let b = t.as_bytes();
    // Fast path: short plain integers (most tokens) are exact in f64.
    let (neg, digits) = match b.first() {
        Some(b'-') => (true, &b[1..]),
        _ => (false, b),
    };
    if let Some(v) = plain_decimal(digits) {
        return Ok(if neg { -v } else { v });
    }
    let ok = !b.is_empty()
        && b.iter()
            .all(|&c| c.is_ascii_digit() || matches!(c, b'.' | b'-' | b'+' | b'e' | b'E'));
    if !ok {
        let l = t.trim_start_matches(['+', '-']).to_ascii_lowercase();
        return Err(matches!(l.as_str(), "nan" | "inf" | "infinity"));
    }
    match t.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        Ok(_) => Err(true),
        Err(_) => Err(false),
    }
}

/// The `len` (1 to 8) bytes at `at` in `src` as a little-endian word, the
/// bytes past `len` zero. `None` for longer tokens.
#[inline(always)]
fn word_at(src: &[u8], at: usize, len: usize) -> Option<u64> {
    if len == 0 || len > 8 {
        return None;
    }
    if at + len > src.len() {
        return None;
    }
    Some(word(src, at) & low_bytes(len))
}

/// The value of `len` ASCII digits held in the low bytes of `w` (first digit
/// in the lowest byte).
#[inline(always)]
pub(crate) fn word_digits(w: u64, len: usize) -> u64 {
    // Right-align: the digits move to the top bytes.
    top_digits(w << (8 * (8 - len)), len)
}

/// The value of the `len` (1 to 8) ASCII digits in the top bytes of `w`
/// (first digit lowest; the bytes below them are ignored), combined
/// pairwise in three multiplications.
#[inline(always)]
pub(crate) fn top_digits(w: u64, len: usize) -> u64 {
    let mut v = (w ^ (LOW * u64::from(b'0'))) & (!0u64 << (64 - 8 * len));
    v = (v.wrapping_mul(10) + (v >> 8)) & 0x00ff_00ff_00ff_00ff;
    v = (v.wrapping_mul(100) + (v >> 16)) & 0x0000_ffff_0000_ffff;
    (v.wrapping_mul(10_000) + (v >> 32)) & 0xffff_ffff
}

/// A plain number token read from a word (see [`word_plain`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Plain {
    /// A leading `-`.
    pub neg: bool,
    /// The digits as an integer (the point left out).
    pub digits: u64,
    /// How many digits follow the point (0 without one).
    pub frac: usize,
    /// Whether the token has a decimal point.
    pub point: bool,
    /// The token's length in bytes.
    pub len: usize,
}

impl Plain {
    /// An unsigned whole number of `len` digits.
    #[inline(always)]
    pub fn whole(digits: u64, len: usize) -> Plain {
        Plain {
            neg: false,
            digits,
            frac: 0,
            point: false,
            len,
        }
    }

    /// The value, exactly as [`plain_decimal`] gives it: the integer and
    /// the power of ten are exact, so one division rounds correctly (and
    /// a whole number needs none).
    #[inline(always)]
    pub fn value(self) -> f64 {
        // At most 16 digits: the signed conversion is exact and cheaper.
        let m = self.digits as i64 as f64;
        let v = if self.frac == 0 {
            m
        } else {
            m / POW10[self.frac]
        };
        if self.neg { -v } else { v }
    }

    /// The value as an integer, when there is no decimal point.
    #[inline(always)]
    pub fn int(self) -> Option<i64> {
        let m = self.digits as i64;
        (!self.point).then_some(if self.neg { -m } else { m })
    }
}

/// A plain token (`-?digits`, with at most one `.` when `point` allows it)
/// of `len` bytes in `w`; `None` for any other form.
#[inline(always)]
fn word_plain(w: u64, len: usize, point: bool) -> Option<Plain> {
    let digits = lt_bytes(w ^ (LOW * u64::from(b'0')), 10);
    let (dots, minus) = (eq_bytes(w, b'.'), eq_bytes(w, b'-'));
    let in_token = HIGH & low_bytes(len);
    if (digits | dots | minus) & in_token != in_token {
        return None;
    }
    classified(w, len, dots & in_token, minus & in_token, point)
}

/// [`word_plain`] of a token already known to hold only digits, points
/// (`dots`: their byte mask) and minus signs (`minus`).
#[inline(always)]
pub(crate) fn classified(
    mut w: u64,
    mut len: usize,
    dots: u64,
    minus: u64,
    point: bool,
) -> Option<Plain> {
    let token_len = len;
    // A sign only in front.
    if minus & !0x80 != 0 {
        return None;
    }
    let neg = minus != 0;
    if neg {
        // A leading zero in place of the sign keeps the value.
        w = (w & !0xff) | u64::from(b'0');
    }
    let mut frac = 0;
    if dots != 0 {
        if !point || dots & (dots - 1) != 0 {
            return None;
        }
        let p = dots.trailing_zeros() as usize / 8;
        w = (w & low_bytes(p)) | ((w >> 8) & !low_bytes(p));
        len -= 1;
        frac = len - p;
    }
    if len <= usize::from(neg) {
        return None;
    }
    Some(Plain {
        neg,
        digits: word_digits(w, len),
        frac,
        point: dots != 0,
        len: token_len,
    })
}

/// [`parse_number`] of the token `t` found at byte `at` of `src`: tokens of
/// up to eight bytes in the plain forms are read as one word.
#[inline(always)]
pub(crate) fn number_at(src: &[u8], at: usize, t: &str) -> Result<f64, bool> {
    debug_assert_eq!(src.get(at..at + t.len()), Some(t.as_bytes()));
    if let Some(p) = word_at(src, at, t.len()).and_then(|w| word_plain(w, t.len(), true)) {
        return Ok(p.value());
    }
    slow_number(t)
}

/// The general path of [`number_at`], kept out of line.
#[cold]
#[inline(never)]
fn slow_number(t: &str) -> Result<f64, bool> {
    parse_number(t)
}

/// [`plain_int`] of the token `t` found at byte `at` of `src`, a word at a
/// time for tokens of up to eight bytes.
#[inline(always)]
pub(crate) fn int_at(src: &[u8], at: usize, t: &str) -> Option<i64> {
    debug_assert_eq!(src.get(at..at + t.len()), Some(t.as_bytes()));
    match word_at(src, at, t.len()) {
        Some(w) => word_plain(w, t.len(), false)?.int(),
        None => slow_int(t),
    }
}

/// The general path of [`int_at`], kept out of line.
#[cold]
#[inline(never)]
fn slow_int(t: &str) -> Option<i64> {
    plain_int(t.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// `t` placed in a buffer with `before` and `after` around it, so the
    /// word load reads past it (or cannot, at the end).
    fn at_in(t: &str, before: &str, after: &str) -> (Vec<u8>, usize) {
        let mut b = before.as_bytes().to_vec();
        let at = b.len();
        b.extend_from_slice(t.as_bytes());
        b.extend_from_slice(after.as_bytes());
        (b, at)
    }

    proptest! {
        /// The word paths give exactly what the general parsers give, for
        /// every short token over the characters numbers are made of.
        #[test]
        fn word_paths_equal_the_general_parsers(
            t in "[-+.0-9eE x]{1,10}",
            before in "[ 0-9a-z]{0,3}",
            after in "[ 0-9.-]{0,9}",
        ) {
            let (b, at) = at_in(&t, &before, &after);
            let n = number_at(&b, at, &t).map(f64::to_bits);
            prop_assert_eq!(n, parse_number(&t).map(f64::to_bits), "{:?}", t);
            prop_assert_eq!(int_at(&b, at, &t), plain_int(t.as_bytes()), "{:?}", t);
        }
    }

    proptest! {
        #[test]
        fn fast_decimals_equal_the_std_parser(
            int in "-?[0-9]{0,9}",
            frac in proptest::option::of("[0-9]{0,9}"),
        ) {
            let t = match &frac {
                Some(f) => format!("{int}.{f}"),
                None => int.clone(),
            };
            let ours = parse_number(&t);
            match t.parse::<f64>() {
                Ok(v) => prop_assert_eq!(ours.map(f64::to_bits), Ok(v.to_bits()), "{}", t),
                Err(_) => prop_assert_eq!(ours, Err(false), "{}", t),
            }
        }
    }

    #[test]
    fn numbers() {
        for (t, v) in [
            ("1", 1.0),
            ("-0", 0.0),
            ("1.", 1.0),
            (".5", 0.5),
            ("2.000000", 2.0),
            ("1e3", 1000.0),
            ("+2", 2.0),
        ] {
            assert_eq!(parse_number(t), Ok(v), "{t}");
        }
        for t in ["nan", "NaN", "inf", "-inf", "Infinity", "1e999"] {
            assert_eq!(parse_number(t), Err(true), "{t}");
        }
        for t in ["", "x", "1,5", "0x10", "1..2", "-", "e"] {
            assert_eq!(parse_number(t), Err(false), "{t}");
        }
    }

    #[test]
    fn words() {
        let cases: &[(&str, Result<f64, bool>, Option<i64>)] = &[
            ("0", Ok(0.0), Some(0)),
            ("-0", Ok(-0.0), Some(0)),
            ("12345678", Ok(12_345_678.0), Some(12_345_678)),
            ("-1234567", Ok(-1_234_567.0), Some(-1_234_567)),
            ("1.", Ok(1.0), None),
            (".5", Ok(0.5), None),
            ("-.25", Ok(-0.25), None),
            ("0.1", Ok(0.1), None),
            ("-", Err(false), None),
            (".", Err(false), None),
            ("-.", Err(false), None),
            ("1.2.3", Err(false), None),
            ("1-2", Err(false), None),
            ("--1", Err(false), None),
            ("1e3", Ok(1000.0), None),
            ("123456789", Ok(123_456_789.0), Some(123_456_789)),
        ];
        for &(t, n, i) in cases {
            for after in ["", " 9", "\n", "99999999"] {
                let (b, at) = at_in(t, "x ", after);
                assert_eq!(
                    number_at(&b, at, t).map(f64::to_bits),
                    n.map(f64::to_bits),
                    "{t:?}"
                );
                assert_eq!(int_at(&b, at, t), i, "{t:?}");
            }
        }
    }
}
