//! Step 3: fitting one axis — a spelling (the columns or rows it lists, in
//! order) is assembled into a run of bands whose length can vary only
//! through its slop bands, and the run is sized and shifted so that the two
//! polygon sides crossing this axis fall between `EDGE_MIN` and `EDGE_MAX`,
//! as near `EDGE_BEST` as possible.
//!
//! Everything here is in texture pixels of the *assembled* grid ("A-space"):
//! 0 is the grid's left (or bottom) edge, `length` its right (or top) edge.
//!
//! Assembly rules, band by band, with a cursor starting at 0:
//! - a non-slop band starts at `cursor − antislop` (the first band ignores
//!   its anti-slop: there is nothing to overlap), is drawn at full size and
//!   moves the cursor to its end;
//! - a slop band starts at the cursor, moves it by its stretch
//!   `e ∈ [0, size − overlap]` and is drawn `e + overlap` long (backing under
//!   the next band's soft edge), or `e` long when it is the last band.
//!
//! So a spelling's length ranges from `min` (every slop band at 0) to
//! `min + Σ(size − overlap)`. The slack a fit needs is shared between the
//! slop bands in proportion to their capacity.

use crate::xp::model::Band;

/// Per-side insets of one axis in pixels from the assembled grid's edges;
/// index 0 is the low side (left / bottom), 1 the high side (right / top).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Insets {
    /// `EDGE_MAX`: the smallest insets (largest acceptable rectangle).
    pub max: [f64; 2],
    /// `EDGE_BEST`.
    pub best: [f64; 2],
    /// `EDGE_MIN`: the largest insets (closest the boundary may come to the
    /// content).
    pub min: [f64; 2],
}

impl Insets {
    /// Normalises author values: per side `max ≤ min`, `best` clamped
    /// between them.
    pub fn normalised(max: [f64; 2], best: [f64; 2], min: [f64; 2]) -> Self {
        let mut out = Insets { max, best, min };
        for k in 0..2 {
            let (a, b) = (max[k].min(min[k]), max[k].max(min[k]));
            out.max[k] = a;
            out.min[k] = b;
            out.best[k] = best[k].clamp(a, b);
        }
        out
    }
}

/// The extents, along this axis, of the two polygon sides that cross it,
/// relative to the DSF polygon's vertex 0 (pixels).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Sides {
    /// `[min, max]` of the low side.
    pub lo: [f64; 2],
    /// `[min, max]` of the high side.
    pub hi: [f64; 2],
}

/// A run's length range.
pub(crate) fn length_range(bands: &[Band], spelling: &[usize]) -> (f64, f64) {
    let mut min = 0.0;
    let mut cap = 0.0;
    for (k, &b) in spelling.iter().enumerate() {
        let band = &bands[b];
        match band.slop {
            Some(ov) => cap += slop_capacity(band, ov),
            None => {
                min += band.size().max(0.0);
                if k > 0 {
                    min -= band.antislop.max(0.0);
                }
            }
        }
    }
    (min, min + cap)
}

/// How far a slop band can stretch: `size − overlap`, never negative.
pub(crate) fn slop_capacity(band: &Band, overlap: f64) -> f64 {
    (band.size() - overlap.max(0.0)).max(0.0)
}

/// The result of fitting one spelling on one axis.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct AxisFit {
    /// Assembled length in pixels.
    pub length: f64,
    /// A-space position of the polygon's vertex 0 on this axis.
    pub offset: f64,
    /// The length EDGE_BEST asks for.
    pub ideal: f64,
    /// `|length − ideal|` in pixels.
    pub error: f64,
    /// True when both sides lie between EDGE_MIN and EDGE_MAX.
    pub feasible: bool,
}

const EPS: f64 = 1e-7;

fn mid(r: [f64; 2]) -> f64 {
    (r[0] + r[1]) / 2.0
}

/// Fits a run whose length may be anything in `range`.
///
/// The ideal length puts the midpoints of both sides on their EDGE_BEST
/// lines. The lengths for which an offset exists that keeps both sides
/// between their EDGE_MIN and EDGE_MAX lines form a window; the ideal is
/// projected into that window and then into `range` (when the two
/// intersect: a feasible fit), else into `range` alone. The offset is the
/// mean of the two sides' best offsets, clamped to the feasible offsets.
pub(crate) fn fit_axis(sides: &Sides, ins: &Insets, range: (f64, f64)) -> AxisFit {
    let [a, b] = sides.lo;
    let [c, d] = sides.hi;
    let ideal = ins.best[0] + ins.best[1] + (mid(sides.hi) - mid(sides.lo));
    let window = (
        ins.max[0] + ins.max[1] + d - a,
        ins.min[0] + ins.min[1] + c - b,
    );
    let sides_fit =
        b - a <= ins.min[0] - ins.max[0] + EPS && d - c <= ins.min[1] - ins.max[1] + EPS;
    let lo = window.0.max(range.0);
    let hi = window.1.min(range.1);
    let feasible = sides_fit && lo <= hi + EPS;
    let length = if feasible {
        ideal.clamp(lo, hi.max(lo))
    } else {
        ideal.clamp(range.0, range.1)
    };
    let target = ((ins.best[0] - mid(sides.lo)) + (length - ins.best[1] - mid(sides.hi))) / 2.0;
    let olo = (ins.max[0] - a).max(length - ins.min[1] - c);
    let ohi = (ins.min[0] - b).min(length - ins.max[1] - d);
    let offset = if olo <= ohi {
        target.clamp(olo, ohi)
    } else {
        target
    };
    AxisFit {
        length,
        offset,
        ideal,
        error: (length - ideal).abs(),
        feasible,
    }
}

/// One band as laid in a run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Laid {
    /// Texture band index.
    pub band: usize,
    /// A-space start.
    pub start: f64,
    /// Drawn length in pixels (from the band's texture start).
    pub drawn: f64,
    /// The stretch of a slop band.
    pub stretch: Option<f64>,
}

/// Lays a spelling out at `length` (clamped into its range).
pub(crate) fn lay_run(bands: &[Band], spelling: &[usize], length: f64) -> Vec<Laid> {
    let (min, max) = length_range(bands, spelling);
    let cap = max - min;
    let slack = (length - min).clamp(0.0, cap);
    let share = if cap > 0.0 { slack / cap } else { 0.0 };
    let mut out = Vec::with_capacity(spelling.len());
    let mut cursor: f64 = 0.0;
    for (k, &b) in spelling.iter().enumerate() {
        let band = &bands[b];
        let last = k + 1 == spelling.len();
        match band.slop {
            Some(ov) => {
                let c = slop_capacity(band, ov);
                let e = c * share;
                let drawn = if last {
                    e
                } else {
                    (e + ov.max(0.0)).min(band.size().max(0.0))
                };
                out.push(Laid {
                    band: b,
                    start: cursor,
                    drawn,
                    stretch: Some(e),
                });
                cursor += e;
            }
            None => {
                let back = if k > 0 { band.antislop.max(0.0) } else { 0.0 };
                let start = cursor - back;
                let size = band.size().max(0.0);
                out.push(Laid {
                    band: b,
                    start,
                    drawn: size,
                    stretch: None,
                });
                cursor = start + size;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn band(start: f64, end: f64, slop: Option<f64>, antislop: f64) -> Band {
        Band {
            start,
            end,
            slop,
            antislop,
            line: 1,
        }
    }

    #[test]
    fn lengths_and_laying() {
        let bands = vec![
            band(0.0, 100.0, None, 0.0),
            band(100.0, 200.0, Some(20.0), 0.0),
            band(200.0, 300.0, None, 10.0),
        ];
        let sp = [0, 1, 2];
        assert_eq!(length_range(&bands, &sp), (190.0, 270.0));
        let laid = lay_run(&bands, &sp, 230.0);
        assert_eq!(laid[0].start, 0.0);
        assert_eq!(laid[1].start, 100.0);
        assert_eq!(laid[1].stretch, Some(40.0));
        assert_eq!(laid[1].drawn, 60.0);
        assert_eq!(laid[2].start, 130.0);
        assert_eq!(laid[2].start + laid[2].drawn, 230.0);
    }

    #[test]
    fn exact_fit_without_edges() {
        let ins = Insets::normalised([0.0; 2], [0.0; 2], [0.0; 2]);
        let sides = Sides {
            lo: [0.0, 0.0],
            hi: [250.0, 250.0],
        };
        let f = fit_axis(&sides, &ins, (190.0, 270.0));
        assert!(f.feasible);
        assert_eq!(f.length, 250.0);
        assert_eq!(f.offset, 0.0);
        let f = fit_axis(&sides, &ins, (300.0, 310.0));
        assert!(!f.feasible);
        assert_eq!(f.length, 300.0);
        assert_eq!(f.error, 50.0);
        // The error is split between both sides.
        assert_eq!(f.offset, 25.0);
    }

    #[test]
    fn slanted_sides_use_the_edge_bands() {
        // Left side spans 0..20 px, right side 480..500; EDGE_MAX 0, MIN 40.
        let ins = Insets::normalised([0.0; 2], [20.0; 2], [40.0; 2]);
        let sides = Sides {
            lo: [0.0, 20.0],
            hi: [480.0, 500.0],
        };
        let f = fit_axis(&sides, &ins, (0.0, 1000.0));
        assert!(f.feasible);
        assert_eq!(f.ideal, 520.0);
        assert_eq!(f.length, 520.0);
        assert!(f.offset + 0.0 >= 0.0 && f.offset + 20.0 <= 40.0);
    }
}
