//! Fixed-precision decimal text of `f64` values with an exact integer
//! method: the bytes `format!("{x:.N}")` gives, for `N` up to
//! [`MAX_PRECISION`], without std's general float path.
//!
//! A finite `f64` is `m × 2^e` with an integer `m < 2^53`. Its value times
//! `10^N` is then `m × 10^N × 2^e`: for `e ≥ 0` an integer, and for `e < 0`
//! the integer `m × 10^N` (below `2^83`, so it fits a `u128`) shifted right
//! by `-e` bits, rounded half to even on the bits shifted out — std's
//! rounding of the exact value (see the proptest against `format!` in this
//! module's tests). The digits of that integer, with a point `N` places
//! from the right, are the text. Values of `2^98` and more (whose integer
//! would not fit) go to std's formatting, as do precisions above
//! [`MAX_PRECISION`]; neither occurs in a DSF's text, whose largest
//! precision is 9 and whose values are coordinates, metres and indices.

use std::io::Write as _;

/// The largest precision formatted by the integer method (DSF2Text uses
/// 1, 3, 5, 6 and 9).
pub const MAX_PRECISION: usize = 9;

const POW10: [u64; 20] = {
    let mut p = [1u64; 20];
    let mut k = 1;
    while k < 20 {
        p[k] = p[k - 1] * 10;
        k += 1;
    }
    p
};

/// Appends `x` with `prec` digits after the point, as `{x:.prec$}` would
/// print it (`NaN`, `inf`, `-inf`; a minus sign for every negative value
/// and for `-0.0`).
///
/// ```
/// let mut out = Vec::new();
/// agkit::dsf::fixed::push_fixed(&mut out, -2.5, 0);
/// out.push(b' ');
/// agkit::dsf::fixed::push_fixed(&mut out, 0.1, 9);
/// assert_eq!(out, b"-2 0.100000000");
/// ```
pub fn push_fixed(out: &mut Vec<u8>, x: f64, prec: usize) {
    if !x.is_finite() || prec > MAX_PRECISION || x.abs() >= TWO_POW_98 {
        // Writing into a Vec cannot fail.
        let _ = write!(out, "{x:.prec$}");
        return;
    }
    let bits = x.to_bits();
    if bits >> 63 == 1 {
        out.push(b'-');
    }
    let biased = ((bits >> 52) & 0x7FF) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    let (m, e) = if biased == 0 {
        (frac, -1074)
    } else {
        (frac | (1u64 << 52), biased - 1075)
    };
    let scaled = u128::from(m) * u128::from(POW10[prec]);
    let q: u128 = if e >= 0 {
        // Below 2^98 in value, so `m × 2^e × 10^9` is below 2^128.
        scaled << e
    } else {
        let s = -e as u32;
        if s > 100 {
            // scaled < 2^83 is then below half of 2^s: it rounds to 0.
            0
        } else {
            let q = scaled >> s;
            let r = scaled & ((1u128 << s) - 1);
            let half = 1u128 << (s - 1);
            if r > half || (r == half && q & 1 == 1) {
                q + 1
            } else {
                q
            }
        }
    };
    let p = POW10[prec];
    // The integer part and the digits after the point; u64 arithmetic
    // whenever the value fits (all a DSF's text holds).
    let (int, frac) = match u64::try_from(q) {
        Ok(q) => (u128::from(q / p), q % p),
        Err(_) => (q / u128::from(p), (q % u128::from(p)) as u64),
    };
    push_u128(out, int);
    if prec > 0 {
        out.push(b'.');
        let mut digits = [b'0'; MAX_PRECISION + 1];
        let mut v = frac;
        let mut i = prec;
        while i >= 2 {
            let d = (v % 100) as usize;
            v /= 100;
            digits[i - 2..i].copy_from_slice(&PAIRS[2 * d..2 * d + 2]);
            i -= 2;
        }
        if i == 1 {
            digits[0] = b'0' + (v % 10) as u8;
        }
        out.extend_from_slice(&digits[..prec]);
    }
}

/// "00" to "99", two bytes each.
const PAIRS: [u8; 200] = {
    let mut t = [0u8; 200];
    let mut k = 0;
    while k < 100 {
        t[2 * k] = b'0' + (k / 10) as u8;
        t[2 * k + 1] = b'0' + (k % 10) as u8;
        k += 1;
    }
    t
};

const TWO_POW_98: f64 = (1u128 << 98) as f64;

/// Appends the decimal digits of `v`.
pub fn push_u64(out: &mut Vec<u8>, mut v: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    while v >= 100 {
        let d = (v % 100) as usize;
        v /= 100;
        buf[i - 2..i].copy_from_slice(&PAIRS[2 * d..2 * d + 2]);
        i -= 2;
    }
    if v >= 10 {
        let d = v as usize;
        buf[i - 2..i].copy_from_slice(&PAIRS[2 * d..2 * d + 2]);
        i -= 2;
    } else {
        i -= 1;
        buf[i] = b'0' + v as u8;
    }
    out.extend_from_slice(&buf[i..]);
}

/// Appends the decimal digits of `v`, with a minus sign when negative.
pub fn push_i64(out: &mut Vec<u8>, v: i64) {
    if v < 0 {
        out.push(b'-');
    }
    push_u64(out, v.unsigned_abs());
}

fn push_u128(out: &mut Vec<u8>, v: u128) {
    match u64::try_from(v) {
        Ok(v) => push_u64(out, v),
        Err(_) => {
            // At most 10^30: split into a high part and 19 low digits.
            let low = (v % u128::from(POW10[19])) as u64;
            push_u128(out, v / u128::from(POW10[19]));
            let start = out.len();
            push_u64(out, low);
            let n = out.len() - start;
            let pad = 19 - n;
            out.splice(start..start, std::iter::repeat_n(b'0', pad));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn ours(x: f64, prec: usize) -> String {
        let mut v = Vec::new();
        push_fixed(&mut v, x, prec);
        String::from_utf8(v).unwrap()
    }

    fn same(x: f64, prec: usize) {
        assert_eq!(ours(x, prec), format!("{x:.prec$}"), "{x:e} at {prec}");
    }

    #[test]
    fn every_class_matches_std() {
        let specials = [
            0.0,
            -0.0,
            f64::MIN_POSITIVE,
            -f64::MIN_POSITIVE,
            5e-324,
            -5e-324,
            f64::MIN_POSITIVE / 3.0,
            f64::MAX,
            f64::MIN,
            1e300,
            (1u128 << 98) as f64,
            (1u128 << 97) as f64,
            ((1u128 << 98) as f64).next_down(),
            f64::NAN,
            -f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            0.5,
            1.5,
            2.5,
            -2.5,
            0.125,
            0.375,
            -0.0001,
            0.0005,
            0.0015,
            1.0000000005,
            179.9999999995,
            -179.9999999995,
            4_294_967_295.0,
            65535.0,
            0.1,
            1.0 / 3.0,
        ];
        for x in specials {
            for prec in 0..=12 {
                same(x, prec);
            }
        }
    }

    #[test]
    fn ties_at_every_precision_round_half_to_even() {
        // k / 2^j is exact; at precision j-1 and below many are ties.
        for j in 1..=12 {
            for k in 0..200u32 {
                let x = f64::from(k) / f64::from(1u32 << j);
                for prec in 0..=MAX_PRECISION {
                    same(x, prec);
                    same(-x, prec);
                }
            }
        }
    }

    #[test]
    fn integers_print_as_std_prints_them() {
        for v in [0u64, 1, 9, 10, 99, 100, 12345, u64::MAX] {
            let mut out = Vec::new();
            push_u64(&mut out, v);
            assert_eq!(out, v.to_string().as_bytes());
        }
        for v in [0i64, -1, i64::MIN, i64::MAX, -4711] {
            let mut out = Vec::new();
            push_i64(&mut out, v);
            assert_eq!(out, v.to_string().as_bytes());
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]

        #[test]
        fn any_bits_match_std(bits in any::<u64>(), prec in 0usize..=MAX_PRECISION) {
            let x = f64::from_bits(bits);
            prop_assert_eq!(ours(x, prec), format!("{x:.prec$}"));
        }

        #[test]
        fn dsf_sized_values_match_std(x in -200_000.0f64..200_000.0, prec in 0usize..=MAX_PRECISION) {
            prop_assert_eq!(ours(x, prec), format!("{x:.prec$}"));
        }

        #[test]
        fn decoded_pool_values_match_std(
            raw in any::<u16>(),
            scale in -400.0f32..400.0,
            offset in -200.0f32..200.0,
            prec in 0usize..=MAX_PRECISION,
        ) {
            let x = crate::dsf::decode(u32::from(raw), scale, offset, false);
            prop_assert_eq!(ours(x, prec), format!("{x:.prec$}"));
        }

        #[test]
        fn subnormals_and_tiny_values_match_std(m in 0u64..(1u64 << 52), prec in 0usize..=MAX_PRECISION) {
            let x = f64::from_bits(m);
            prop_assert_eq!(ours(x, prec), format!("{x:.prec$}"));
            prop_assert_eq!(ours(-x, prec), format!("{:.prec$}", -x));
        }

        #[test]
        fn large_values_below_the_cut_match_std(e in 52i32..98, m in 0u64..(1u64 << 52)) {
            let x = f64::from_bits(((e as u64 + 1023) << 52) | m);
            prop_assert_eq!(ours(x, 9), format!("{x:.9}"));
        }
    }
}
