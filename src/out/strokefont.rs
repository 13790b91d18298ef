//! A tiny stroke font (printable ASCII: capitals, lower case, digits and
//! punctuation, plus `·`, `°`, `×`, `…` and U+FFFD `�`) so that the PNG,
//! rasterised without font support, still carries its labels, and paths
//! print as written.
//!
//! Glyphs live on a grid 4 units wide and 6 tall (baseline 0, y up; lower
//! case is 4 tall, descenders reach −2), as polylines. Other characters are
//! a small box.

/// The box drawn for a character the font does not have.
const BOX: &str = "0.5,0 3.5,0 3.5,4 0.5,4 0.5,0";

/// Polylines of a glyph: points `x,y` separated by spaces, lines by `|`.
fn glyph(c: char) -> &'static str {
    match c {
        'A' => "0,0 0,4 2,6 4,4 4,0|0,3 4,3",
        'B' => "0,0 0,6 3,6 4,5 4,4 3,3 0,3|3,3 4,2 4,1 3,0 0,0",
        'C' => "4,6 1,6 0,5 0,1 1,0 4,0",
        'D' => "0,0 0,6 3,6 4,5 4,1 3,0 0,0",
        'E' => "4,6 0,6 0,0 4,0|0,3 3,3",
        'F' => "4,6 0,6 0,0|0,3 3,3",
        'G' => "4,5 3,6 1,6 0,5 0,1 1,0 3,0 4,1 4,3 2,3",
        'H' => "0,0 0,6|4,0 4,6|0,3 4,3",
        'I' => "1,6 3,6|2,6 2,0|1,0 3,0",
        'J' => "4,6 4,1 3,0 1,0 0,1",
        'K' => "0,0 0,6|4,6 0,2|1,3 4,0",
        'L' => "0,6 0,0 4,0",
        'M' => "0,0 0,6 2,3 4,6 4,0",
        'N' => "0,0 0,6 4,0 4,6",
        'O' => "1,0 0,1 0,5 1,6 3,6 4,5 4,1 3,0 1,0",
        'P' => "0,0 0,6 3,6 4,5 4,4 3,3 0,3",
        'Q' => "1,0 0,1 0,5 1,6 3,6 4,5 4,1 3,0 1,0|2,2 4,0",
        'R' => "0,0 0,6 3,6 4,5 4,4 3,3 0,3|2,3 4,0",
        'S' => "4,5 3,6 1,6 0,5 0,4 1,3 3,3 4,2 4,1 3,0 1,0 0,1",
        'T' => "0,6 4,6|2,6 2,0",
        'U' => "0,6 0,1 1,0 3,0 4,1 4,6",
        'V' => "0,6 2,0 4,6",
        'W' => "0,6 1,0 2,3 3,0 4,6",
        'X' => "0,0 4,6|0,6 4,0",
        'Y' => "0,6 2,3 4,6|2,3 2,0",
        'Z' => "0,6 4,6 0,0 4,0",
        'a' => "4,4 4,0|4,3 3,4 1,4 0,3 0,1 1,0 3,0 4,1",
        'b' => "0,6 0,0|0,3 1,4 3,4 4,3 4,1 3,0 1,0 0,1",
        'c' => "4,3.5 3,4 1,4 0,3 0,1 1,0 3,0 4,0.5",
        'd' => "4,6 4,0|4,3 3,4 1,4 0,3 0,1 1,0 3,0 4,1",
        'e' => "0,2 4,2 4,3 3,4 1,4 0,3 0,1 1,0 3.5,0",
        'f' => "3.5,6 2.5,6 1.5,5 1.5,0|0,4 3.5,4",
        'g' => "4,4 4,-1 3,-2 1,-2 0,-1.5|4,3 3,4 1,4 0,3 0,1 1,0 3,0 4,1",
        'h' => "0,6 0,0|0,3 1,4 3,4 4,3 4,0",
        'i' => "1,4 2,4 2,0|1,0 3,0|2,5.4 2,6",
        'j' => "2,4 3,4 3,-1 2,-2 1,-2|3,5.4 3,6",
        'k' => "0,6 0,0|4,4 0,1.5|1.4,2.4 4,0",
        'l' => "1,6 2,6 2,0|1,0 3,0",
        'm' => "0,0 0,4|0,3 1,4 2,3 2,0|2,3 3,4 4,3 4,0",
        'n' => "0,0 0,4|0,3 1,4 3,4 4,3 4,0",
        'o' => "1,0 0,1 0,3 1,4 3,4 4,3 4,1 3,0 1,0",
        'p' => "0,4 0,-2|0,3 1,4 3,4 4,3 4,1 3,0 1,0 0,1",
        'q' => "4,4 4,-2|4,3 3,4 1,4 0,3 0,1 1,0 3,0 4,1",
        'r' => "0,4 0,0|0,2.5 1.5,4 3,4 4,3.5",
        's' => "4,3.5 3,4 1,4 0,3.2 1,2 3,2 4,0.8 3,0 1,0 0,0.5",
        't' => "1.5,6 1.5,1 2.5,0 3.5,0 4,0.5|0,4 3.5,4",
        'u' => "0,4 0,1 1,0 3,0 4,1|4,4 4,0",
        'v' => "0,4 2,0 4,4",
        'w' => "0,4 1,0 2,2.5 3,0 4,4",
        'x' => "0,0 4,4|0,4 4,0",
        'y' => "0,4 2,0|4,4 1,-2",
        'z' => "0,4 4,4 0,0 4,0",
        '0' => "1,0 0,1 0,5 1,6 3,6 4,5 4,1 3,0 1,0|0,1 4,5",
        '1' => "1,5 2,6 2,0|1,0 3,0",
        '2' => "0,5 1,6 3,6 4,5 4,4 0,0 4,0",
        '3' => "0,5 1,6 3,6 4,5 4,4 3,3 4,2 4,1 3,0 1,0 0,1|1,3 3,3",
        '4' => "3,0 3,6 0,2 4,2",
        '5' => "4,6 0,6 0,3 3,3 4,2 4,1 3,0 0,0",
        '6' => "4,5 3,6 1,6 0,5 0,1 1,0 3,0 4,1 4,2 3,3 0,3",
        '7' => "0,6 4,6 1,0",
        '8' => "1,3 0,4 0,5 1,6 3,6 4,5 4,4 3,3 1,3 0,2 0,1 1,0 3,0 4,1 4,2 3,3",
        '9' => "0,1 1,0 3,0 4,1 4,5 3,6 1,6 0,5 0,4 1,3 4,3",
        '.' => "1.8,0 2.2,0",
        ',' => "2,0.5 1,-1",
        '-' => "1,3 3,3",
        '+' => "2,1 2,5|0,3 4,3",
        '(' => "3,6 2,5 2,1 3,0",
        ')' => "1,6 2,5 2,1 1,0",
        '/' => "0,0 4,6",
        ':' => "2,1 2,1.4|2,4 2,4.4",
        '_' => "0,-1 4,-1",
        '·' => "1.8,3 2.2,3",
        '\'' => "2,6 2,4.5",
        '"' => "1.3,6 1.3,4.5|2.7,6 2.7,4.5",
        '!' => "2,6 2,2|2,0 2,0.4",
        '?' => "0,5 1,6 3,6 4,5 4,4 2,2.5 2,1.6|2,0 2,0.4",
        '#' => "1,0 1.5,6|2.5,0 3,6|0,2 4,2|0,4 4,4",
        '$' => "4,4.8 3,5.3 1,5.3 0,4.3 1,3 3,3 4,1.7 3,0.7 1,0.7 0,1.2|2,6 2,0",
        '%' => "0,0 4,6|0.5,6 0.5,5|3.5,1 3.5,0",
        '&' => "4,0 1,4 1,5 2,6 3,5 3,4 0,2 0,1 1,0 2,0 4,2",
        '*' => "2,2 2,5|0.6,4.3 3.4,2.7|0.6,2.7 3.4,4.3",
        ';' => "2,4 2,4.4|2,0.5 1,-1",
        '<' => "4,5 0,3 4,1",
        '=' => "0,2 4,2|0,4 4,4",
        '>' => "0,5 4,3 0,1",
        '@' => "3,2 3,4 1.5,4 1,3 1,2.5 1.5,2 3,2 4,2.5 4,5 3,6 1,6 0,5 0,1 1,0 4,0",
        '[' => "3,6 2,6 2,0 3,0",
        '\\' => "0,6 4,0",
        ']' => "1,6 2,6 2,0 1,0",
        '^' => "1,4 2,6 3,4",
        '`' => "1.5,6 2.5,5",
        '{' => "3,6 2,5 2,3.5 1,3 2,2.5 2,1 3,0",
        '|' => "2,-1 2,6",
        '}' => "1,6 2,5 2,3.5 3,3 2,2.5 2,1 1,0",
        '~' => "0,3 1,4 3,2 4,3",
        '°' => "1.5,6 2.5,6 2.5,5 1.5,5 1.5,6",
        '×' => "0.5,1 3.5,4|0.5,4 3.5,1",
        '…' => "0.4,0 0.8,0|1.8,0 2.2,0|3.2,0 3.6,0",
        // U+FFFD, what a picture writes for a character XML forbids: a
        // diamond with a question mark, as fonts draw it.
        '\u{FFFD}' => "2,6 4,3 2,0 0,3 2,6|1.3,4 2,4.7 2.7,4 2,3.2 2,2.4|2,1.2 2,1.6",
        ' ' => "",
        _ => BOX,
    }
}

/// Units a glyph advances.
const ADVANCE: f64 = 6.0;

/// Width in pixels of `text` at `size` (pixels per 8 units).
pub fn width(text: &str, size: f64) -> f64 {
    chars_width(text.chars().count(), size)
}

/// Width in pixels of `n` characters at `size`: every glyph, the box
/// included, advances the same.
pub fn chars_width(n: usize, size: f64) -> f64 {
    (n as f64 * ADVANCE - 2.0).max(0.0) * size / 8.0
}

/// SVG path data for `text` with its baseline starting at `(x, y)`
/// (picture pixels, y down); capitals are `0.75 × size` tall, lower case
/// `0.5 × size`, descenders `0.25 × size` below the baseline.
pub fn path(text: &str, x: f64, y: f64, size: f64) -> String {
    use std::fmt::Write;
    let u = size / 8.0;
    let mut d = String::new();
    for (i, c) in text.chars().enumerate() {
        let ox = x + i as f64 * ADVANCE * u;
        for line in glyph(c).split('|').filter(|l| !l.is_empty()) {
            for (k, pt) in line.split(' ').enumerate() {
                let mut it = pt.split(',').map(|v| v.parse::<f64>().unwrap_or(0.0));
                let (gx, gy) = (it.next().unwrap_or(0.0), it.next().unwrap_or(0.0));
                let _ = write!(
                    d,
                    "{}{:.2},{:.2}",
                    if k == 0 { 'M' } else { 'L' },
                    ox + gx * u,
                    y - gy * u
                );
            }
        }
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glyphs_parse_and_stay_in_their_cell() {
        for c in (' '..='~').chain("·°×…?\u{FFFD}".chars()) {
            for line in glyph(c).split('|').filter(|l| !l.is_empty()) {
                for pt in line.split(' ') {
                    let v: Vec<f64> = pt.split(',').map(|v| v.parse().unwrap()).collect();
                    assert_eq!(v.len(), 2, "{c}: {pt}");
                    assert!(
                        (0.0..=4.0).contains(&v[0]) && (-2.0..=6.0).contains(&v[1]),
                        "{c}"
                    );
                }
            }
        }
        assert!(path("AB", 0.0, 10.0, 8.0).starts_with("M0.00,10.00L0.00,6.00"));
        assert_eq!(width("AB", 8.0), 10.0);
    }

    #[test]
    fn every_printable_ascii_character_has_its_own_glyph() {
        let mut seen = std::collections::BTreeMap::new();
        for c in ('!'..='~').chain("·°×…\u{FFFD}".chars()) {
            let g = glyph(c);
            assert_ne!(g, BOX, "{c:?} has no glyph");
            assert!(!g.is_empty(), "{c:?} draws nothing");
            if let Some(other) = seen.insert(g, c) {
                panic!("{c:?} and {other:?} share a glyph");
            }
        }
        assert_eq!(glyph(' '), "");
        assert_eq!(glyph('é'), BOX);
        // A path prints as written: lower case is its own shape.
        assert_ne!(
            path("/tmp/nu", 0.0, 10.0, 8.0),
            path("/TMP/NU", 0.0, 10.0, 8.0)
        );
    }
}
