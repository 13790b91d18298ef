//! A tiny stroke font (capitals, digits, a little punctuation) so that the
//! PNG, rasterised without font support, still carries its labels.
//!
//! Glyphs live on a grid 4 units wide and 6 tall (baseline 0, y up), as
//! polylines; letters are drawn as capitals. Unknown characters are a small
//! box.

/// Polylines of a glyph: points `x,y` separated by spaces, lines by `|`.
fn glyph(c: char) -> &'static str {
    match c.to_ascii_uppercase() {
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
        ' ' => "",
        _ => "0.5,0 3.5,0 3.5,4 0.5,4 0.5,0",
    }
}

/// Units a glyph advances.
const ADVANCE: f64 = 6.0;

/// Width in pixels of `text` at `size` (pixels per 8 units).
pub fn width(text: &str, size: f64) -> f64 {
    let n = text.chars().count() as f64;
    (n * ADVANCE - 2.0).max(0.0) * size / 8.0
}

/// SVG path data for `text` with its baseline starting at `(x, y)`
/// (picture pixels, y down); capitals are `0.75 × size` tall.
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
        for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,-+()/:_·' ?".chars() {
            for line in glyph(c).split('|').filter(|l| !l.is_empty()) {
                for pt in line.split(' ') {
                    let v: Vec<f64> = pt.split(',').map(|v| v.parse().unwrap()).collect();
                    assert_eq!(v.len(), 2, "{c}: {pt}");
                    assert!(
                        (0.0..=4.0).contains(&v[0]) && (-1.0..=6.0).contains(&v[1]),
                        "{c}"
                    );
                }
            }
        }
        assert!(path("AB", 0.0, 10.0, 8.0).starts_with("M0.00,10.00L0.00,6.00"));
        assert_eq!(width("AB", 8.0), 10.0);
    }
}
