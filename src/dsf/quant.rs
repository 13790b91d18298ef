//! How the builder quantises a plane: closed-form scale and offset for
//! every kind of plane, whatever its sign or range (no search).
//!
//! A 16- or 32-bit pool stores each coordinate as an unsigned integer
//! `raw`, decoded as `raw * scale / max + offset` (`max` = 65535 or
//! 4294967295; scale 0 means the raw integer itself). The builder uses
//! four kinds of plane:
//!
//! * **Boxes** for longitude and latitude (planes 0 and 1 of 16-bit pools):
//!   the pool covers a box of whole cells of `1/n` degree (`n` a power of
//!   two), so scale and offset are exact in `f32` and the box edges —
//!   among them every tile edge — decode exactly ([`cell`], [`poly_box`]).
//! * **Headings** of objects: 0 to 360 (as DSFTool).
//! * **Steps** for every other 16-bit plane ([`step16`]): a power-of-two
//!   step `q` with scale `65535 q` and an offset that is a multiple of `q`,
//!   so every decoded value is exactly `offset + raw * q`. Re-encoding a
//!   decoded value with the same or a finer step gives it back exactly,
//!   which makes a DSF → text → DSF round trip keep its values.
//! * **Ranges** for 32-bit planes ([`range32`]): offset and scale on a
//!   grid of whole units (or coarser for huge values), scale a power of two.
//!
//! Integer planes (wall types, junction IDs) are stored raw with scale 0.
//!
//! Which entities share a pool is decided by [`Window`]s: one per fitted
//! plane of each entity, from its own values ([`box_window`],
//! [`class_window`]); a pool holds only entities with equal windows, so a
//! plane's step is fitted to values within a window at most twice as wide
//! as each entity needs (or its floor).

/// How one plane is quantised.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlaneScale {
    /// Range covered by the plane (0 = raw integers).
    pub scale: f32,
    /// Lowest value.
    pub offset: f32,
}

/// Largest raw value of a 16-bit plane.
pub const MAX16: f64 = 65535.0;
/// Largest raw value of a 32-bit plane.
pub const MAX32: f64 = 4_294_967_295.0;
/// Smallest step of a 16-bit plane: finer than the 9 decimals DSF2Text
/// prints, so text never loses a step; tinier values quantise to 0.
pub const MIN_STEP: f64 = 1.0 / (1u64 << 30) as f64;
/// Largest magnitude any plane may hold (2^50, about 1.1e15; larger values
/// are refused). A value within it quantises to one within it too, so a
/// built tile's text always builds again.
pub const MAX_VALUE: f64 = 1_125_899_906_842_624.0;

/// The smallest power of two at or above `x` (`x` positive and finite).
pub fn pow2_ceil(x: f64) -> f64 {
    debug_assert!(x > 0.0 && x.is_finite());
    let bits = x.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    if exp == 0 {
        // Subnormal: far below every step this module uses.
        return f64::MIN_POSITIVE;
    }
    let e = exp - 1023;
    if bits & ((1u64 << 52) - 1) == 0 {
        2f64.powi(e)
    } else {
        2f64.powi(e + 1)
    }
}

/// The grain an offset near `magnitude` must be a multiple of to be exact
/// in `f32` (24 significant bits), with some room.
fn grain(magnitude: f64) -> f64 {
    if magnitude > 0.0 {
        pow2_ceil(magnitude) * 2f64.powi(-23)
    } else {
        0.0
    }
}

/// Scale and offset of a 16-bit plane holding values in `[min, max]`: the
/// smallest power-of-two step `q` (at least [`MIN_STEP`]) whose grid, from
/// an offset that is a multiple of `q` and exact in `f32`, reaches `max`
/// within 65535 steps. Closed form: at most two candidate steps are
/// checked. `min` and `max` must be finite with `min <= max` and
/// magnitudes at most [`MAX_VALUE`].
pub fn step16(min: f64, max: f64) -> PlaneScale {
    let g = grain(min.abs().max(max.abs()));
    let fits = |q: f64, o: f64| (max - o) / q <= MAX16;
    let make = |q: f64, o: f64| PlaneScale {
        scale: (MAX16 * q) as f32,
        offset: o as f32,
    };
    // Steps finer than the offset grain: the offset is on the grain.
    if g > MIN_STEP {
        let o = (min / g).floor() * g;
        let q = pow2_ceil(((max - o) / MAX16).max(MIN_STEP));
        if q < g && fits(q, o) {
            return make(q, o);
        }
    }
    // Steps at or above the grain: the offset is on the step.
    let span = max - min;
    let mut q = g.max(MIN_STEP);
    if span > 0.0 {
        q = q.max(pow2_ceil(span / MAX16));
    }
    let o = (min / q).floor() * q;
    if fits(q, o) {
        make(q, o)
    } else {
        // Twice the step always fits: (max - o) < span + q <= 65535 * 2q.
        let q = 2.0 * q;
        make(q, (min / q).floor() * q)
    }
}

/// Scale and offset of a 32-bit plane holding values in `[min, max]`: the
/// offset on a grid of whole units (coarser for values beyond 2^24), the
/// scale the smallest power of two reaching `max` from it (at least one
/// grid unit). Same preconditions as [`step16`].
pub fn range32(min: f64, max: f64) -> PlaneScale {
    let g = grain(min.abs().max(max.abs())).max(1.0);
    let o = (min / g).floor() * g;
    let s = pow2_ceil((max - o).max(g));
    PlaneScale {
        scale: s as f32,
        offset: o as f32,
    }
}

/// The fixed heading plane of objects: 0 to 360 degrees.
pub const HEADING: PlaneScale = PlaneScale {
    scale: 360.0,
    offset: 0.0,
};

/// A raw integer plane (scale 0).
pub const RAW: PlaneScale = PlaneScale {
    scale: 0.0,
    offset: 0.0,
};

/// Quantises `v` to the nearest raw value of `s` (clamped to the plane).
pub fn encode_value(v: f64, s: PlaneScale, wide: bool) -> u32 {
    let max_raw = if wide { MAX32 } else { MAX16 };
    let raw = if s.scale == 0.0 {
        v.round()
    } else {
        ((v - f64::from(s.offset)) * max_raw / f64::from(s.scale)).round()
    };
    raw.clamp(0.0, max_raw) as u32
}

/// A box of whole cells of `1/n` degree: longitudes `[x/n, (x+w)/n]` and
/// latitudes `[y/n, (y+h)/n]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CellBox {
    /// Cells per degree (a power of two).
    pub n: u32,
    /// First cell, west to east.
    pub x: i32,
    /// First cell, south to north.
    pub y: i32,
    /// Cells across.
    pub w: u32,
    /// Cells up.
    pub h: u32,
}

impl CellBox {
    /// The longitude plane's scale and offset.
    pub fn lon(&self) -> PlaneScale {
        self.axis(self.x, self.w)
    }

    /// The latitude plane's scale and offset.
    pub fn lat(&self) -> PlaneScale {
        self.axis(self.y, self.h)
    }

    fn axis(&self, first: i32, cells: u32) -> PlaneScale {
        if self.n == 0 {
            // No box (a pool without points).
            return PlaneScale {
                scale: 1.0,
                offset: 0.0,
            };
        }
        let n = f64::from(self.n);
        PlaneScale {
            scale: (f64::from(cells) / n) as f32,
            offset: (f64::from(first) / n) as f32,
        }
    }
}

/// Which values a fitted plane of a pool may hold together: every entity
/// (object, polygon, patch primitive, network chain) gets one window per
/// fitted plane from its own values, and only entities with the same
/// windows share a pool. The pool's plane is then fitted to the values it
/// holds ([`step16`], [`range32`]), which all lie in the window, so no
/// entity's plane is quantised over a range much wider than its own.
///
/// A window is in closed form from the entity's lowest and highest value;
/// a value decoded from a pool lies in the same window, so a rebuilt tile
/// keeps its pools.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Window {
    /// Integers in 0..=65535, stored raw (scale 0).
    Raw,
    /// `cells` (1 or 2) cells of `2^level` starting at cell `first`: the
    /// values lie in `[first, first + cells] × 2^level`.
    Box {
        /// Base-2 logarithm of the cell.
        level: i16,
        /// First cell.
        first: i64,
        /// Cells across (1 or 2).
        cells: u8,
    },
    /// The values lie within `±2^level`.
    Class {
        /// Base-2 logarithm of the bound.
        level: i16,
    },
    /// Whole units `[lo, hi]`: DSFTool's grid for texture coordinates and
    /// normals ([`units_window`]), scale `hi - lo` and offset `lo`. The
    /// builder keeps that grid when the values lie on it, else takes the
    /// finer of it and a step fitted to the values.
    Units {
        /// Lowest whole unit.
        lo: i32,
        /// Highest whole unit.
        hi: i32,
    },
}

/// Largest magnitude a [`Window::Units`] holds (its bounds are whole
/// numbers exact in `f32`, its step at most `2^17 / 65535`).
pub const MAX_UNITS: f64 = 65536.0;

/// The window DSFTool's writer gives a texture-coordinate or normal plane
/// whose values (of one entity) lie in `[min, max]`: the whole units
/// around them and around `[base_lo, base_hi]` (`[0, 1]` for texture
/// coordinates, `[-1, 1]` for normals). xptools `DSFLibWrite.cpp`,
/// `DSFFileWriterImp::EndPolygon`, starts a UV polygon's `st_extent` at
/// 0..1, widens it to the points and rounds it out to whole numbers
/// (`floor`/`ceil`); `BeginPatch` gives patch normals -1..1 and the planes
/// past them 0..1. The pool's scale is then `hi - lo` over 65535 steps, as
/// DSFTool's, so values DSFTool wrote come back on the same grid, exactly.
/// `None` for values beyond ±[`MAX_UNITS`] (left to [`class_window`]).
pub fn units_window(min: f64, max: f64, base_lo: i32, base_hi: i32) -> Option<Window> {
    if !(min.abs() <= MAX_UNITS && max.abs() <= MAX_UNITS) {
        return None;
    }
    let lo = (min.floor() as i32).min(base_lo);
    let hi = (max.ceil() as i32).max(base_hi).max(lo + 1);
    Some(Window::Units { lo, hi })
}

impl Window {
    /// The scale and offset a [`Window::Units`] fixes (`None` for the
    /// other windows, whose planes are fitted to their values).
    pub fn fixed_scale(&self) -> Option<PlaneScale> {
        match *self {
            Window::Units { lo, hi } => Some(PlaneScale {
                scale: (hi - lo) as f32,
                offset: lo as f32,
            }),
            _ => None,
        }
    }
}

/// The base-2 logarithm of [`pow2_ceil`]`(x)`, `x` positive and finite.
fn log2_ceil(x: f64) -> i32 {
    let p = pow2_ceil(x);
    ((p.to_bits() >> 52) & 0x7ff) as i32 - 1023
}

/// The box window of a plane whose values (of one entity) lie in
/// `[min, max]`, as [`poly_box`] chooses lon/lat boxes: the finest cell of
/// `2^level` (`level` at least `floor`) at least as wide as `max - min`,
/// the box being the one or two cells the values touch. The pool then
/// spans at most two such cells: a step within 4 times the entity's own,
/// or within `2^(floor - 14)` for an entity narrower than a cell of
/// `2^floor`. Values as for [`step16`].
pub fn box_window(min: f64, max: f64, floor: i32) -> Window {
    let span = max - min;
    let level = if span > 0.0 {
        log2_ceil(span).max(floor)
    } else {
        floor
    };
    let w = 2f64.powi(level);
    let first = (min / w).floor();
    let last = (max / w).ceil().max(first + 1.0);
    Window::Box {
        level: level as i16,
        first: first as i64,
        cells: (last - first).min(2.0) as u8,
    }
}

/// The class window of a plane whose values (of one entity) lie in
/// `[min, max]`: the least `2^level` (at least `2^floor`) bounding their
/// magnitude. Values of one magnitude share pools whatever their sign
/// (normals, texture coordinates, elevations); the pool spans at most
/// `±2^level`.
pub fn class_window(min: f64, max: f64, floor: i32) -> Window {
    let m = min.abs().max(max.abs());
    let level = if m > 0.0 {
        log2_ceil(m).max(floor)
    } else {
        floor
    };
    Window::Class {
        level: level as i16,
    }
}

/// True when `v` is an integer a raw 16-bit plane holds (0..=65535).
pub fn is_raw16(v: f64) -> bool {
    v.fract() == 0.0 && (0.0..=MAX16).contains(&v)
}

/// Largest longitude or latitude magnitude the builder accepts (anything
/// beyond is not on Earth, and larger values would not be exact in a
/// pool's `f32` offset).
pub const MAX_DEGREES: f64 = 32768.0;

/// The cell of `1/n` degree holding the point (`n` a power of two); a point
/// on a cell edge belongs to the cell east or north of it.
pub fn cell(lon: f64, lat: f64, n: u32) -> CellBox {
    let f = f64::from(n);
    CellBox {
        n,
        x: (lon * f).floor() as i32,
        y: (lat * f).floor() as i32,
        w: 1,
        h: 1,
    }
}

/// True when the point lies in `b`, edges included.
pub fn in_box(b: &CellBox, lon: f64, lat: f64) -> bool {
    let n = f64::from(b.n);
    let (x0, y0) = (f64::from(b.x) / n, f64::from(b.y) / n);
    let (x1, y1) = (
        f64::from(b.x + b.w as i32) / n,
        f64::from(b.y + b.h as i32) / n,
    );
    (x0..=x1).contains(&lon) && (y0..=y1).contains(&lat)
}

/// The pool box of a polygon whose points span `[w, e] × [s, n]` degrees,
/// as DSFTool chooses it: the finest level `1/k` (k a power of two, at
/// most `n`) whose cell is at least as large as the span, the box being
/// the cells of that level the span touches (one or two across, or more
/// for polygons wider than a degree). A span on a single grid line gets
/// the cell on its east or north side.
pub fn poly_box(w: f64, s: f64, e: f64, north: f64, n: u32) -> CellBox {
    let extent = (e - w).max(north - s);
    let mut k = n.max(1);
    if extent > 0.0 {
        let fit = (1.0 / extent).floor();
        while k > 1 && f64::from(k) > fit {
            k /= 2;
        }
    }
    let f = f64::from(k);
    let x0 = (w * f).floor();
    let y0 = (s * f).floor();
    let x1 = (e * f).ceil().max(x0 + 1.0);
    let y1 = (north * f).ceil().max(y0 + 1.0);
    CellBox {
        n: k,
        x: x0 as i32,
        y: y0 as i32,
        w: (x1 - x0) as u32,
        h: (y1 - y0) as u32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(raw: u32, s: PlaneScale, wide: bool) -> f64 {
        crate::dsf::decode(raw, s.scale, s.offset, wide)
    }

    /// Every value of `[min, max]` (sampled) encodes within half a step and
    /// the ends within range.
    fn covers(min: f64, max: f64, s: PlaneScale, wide: bool) {
        let top = if wide { MAX32 } else { MAX16 };
        let step = f64::from(s.scale) / top;
        for k in 0..=64 {
            let v = min + (max - min) * f64::from(k) / 64.0;
            let back = decode(encode_value(v, s, wide), s, wide);
            assert!(
                (back - v).abs() <= step * 0.5 + v.abs() * 1e-15 + 1e-300,
                "{v} -> {back} with {s:?}"
            );
        }
    }

    #[test]
    fn steps_straddling_zero_and_every_sign_cover_their_range() {
        for (a, b) in [
            (-0.25, 0.3),
            (-1.0, 1.0),
            (-32768.0, 2000.0),
            (-1e-12, 1e-12),
            (0.0, 0.0),
            (5.0, 5.0),
            (-7.5, -7.5),
            (-1e15, 1e15),
            (1e15, 1e15),
            (123.456, 123.457),
            (-0.1, 0.0),
            (12.9, 13.0),
        ] {
            let s = step16(a, b);
            assert!(s.scale > 0.0, "{a} {b}");
            covers(a, b, s, false);
            let s = range32(a, b);
            assert!(s.scale > 0.0, "{a} {b}");
            covers(a, b, s, true);
        }
    }

    #[test]
    fn step_values_decode_exactly_and_survive_re_encoding() {
        let s = step16(-0.25, 0.3);
        let q = f64::from(s.scale) / MAX16;
        assert_eq!(q, 2f64.powi(-16));
        assert_eq!(s.offset, -0.25);
        for raw in [0u32, 1, 777, 65535] {
            let v = decode(raw, s, false);
            assert_eq!(v, -0.25 + f64::from(raw) * q);
            assert_eq!(encode_value(v, s, false), raw);
            // A finer step (a narrower range around the decoded values)
            // reproduces them exactly too.
            let t = step16(v, 0.3);
            assert_eq!(decode(encode_value(v, t, false), t, false), v);
        }
    }

    #[test]
    fn boxes_make_tile_edges_exact() {
        let c = cell(13.0, 47.99, 32);
        assert_eq!((c.x, c.y), (13 * 32, 47 * 32 + 31));
        let (lon, lat) = (c.lon(), c.lat());
        assert_eq!(decode(encode_value(13.0, lon, false), lon, false), 13.0);
        assert_eq!(decode(encode_value(48.0, lat, false), lat, false), 48.0);
        // A polygon straddling a 1/8-degree line uses a two-cell box.
        let b = poly_box(12.12, 47.5, 12.13, 47.51, 32);
        assert_eq!((b.n, b.w, b.h), (32, 2, 1));
        // A polygon wider than a degree gets whole degrees.
        let b = poly_box(12.5, 47.5, 14.2, 47.6, 32);
        assert_eq!((b.n, b.x, b.w), (1, 12, 3));
        // A vertical segment on a grid line: one cell east of it.
        let b = poly_box(12.5, 47.5, 12.5, 47.6, 32);
        assert_eq!((b.w, b.lon().offset), (1, 12.5));
    }

    /// The lowest and highest value a window admits.
    fn bounds(w: Window) -> (f64, f64) {
        match w {
            Window::Raw => (0.0, MAX16),
            Window::Box {
                level,
                first,
                cells,
            } => {
                let c = 2f64.powi(level.into());
                (first as f64 * c, (first + i64::from(cells)) as f64 * c)
            }
            Window::Class { level } => {
                let m = 2f64.powi(level.into());
                (-m, m)
            }
            Window::Units { lo, hi } => (f64::from(lo), f64::from(hi)),
        }
    }

    #[test]
    fn units_windows_are_dsftools_whole_unit_extents() {
        // xptools EndPolygon: st_extent starts at 0..1, widened, floor/ceil.
        assert_eq!(
            units_window(0.2, 0.7, 0, 1),
            Some(Window::Units { lo: 0, hi: 1 })
        );
        assert_eq!(
            units_window(-2.0, 44.3, 0, 1),
            Some(Window::Units { lo: -2, hi: 45 })
        );
        assert_eq!(
            units_window(-0.3, 0.3, -1, 1),
            Some(Window::Units { lo: -1, hi: 1 })
        );
        assert_eq!(units_window(0.0, 1e9, 0, 1), None);
        let s = Window::Units { lo: -2, hi: 45 }.fixed_scale().unwrap();
        assert_eq!((s.scale, s.offset), (47.0, -2.0));
        assert_eq!(Window::Class { level: 0 }.fixed_scale(), None);
    }

    #[test]
    fn windows_hold_their_values_and_are_at_most_twice_as_wide_as_needed() {
        let cases = [
            (39.1356, 39.1371, -5),
            (0.0, 1.0, -5),
            (0.0, 0.0, -5),
            (0.2, 0.45, -5),
            (-0.01, 0.01, -5),
            (-1e12, 1e12, -5),
            (7.3e11, 7.3e11, -5),
            (-1e-10, 1e-10, -5),
            (0.999_999, 1.000_001, 0),
            (-32768.0, 9000.0, 10),
        ];
        for (lo, hi, floor) in cases {
            for w in [box_window(lo, hi, floor), class_window(lo, hi, floor)] {
                let (a, b) = bounds(w);
                assert!(a <= lo && hi <= b, "{lo} {hi} {w:?}");
                // A box needs the span, a class the magnitude.
                let need = match w {
                    Window::Class { .. } => lo.abs().max(hi.abs()),
                    _ => hi - lo,
                };
                let least = 2f64.powi(floor).max(pow2_ceil(need.max(f64::MIN_POSITIVE)));
                assert!(
                    b - a <= 2.0 * least,
                    "{lo} {hi} {w:?}: {} > 2 × {least}",
                    b - a
                );
            }
        }
        // Control points of one cell of 1/32 degree share its window;
        // texture coordinates have another.
        let c = box_window(39.1301, 39.1399, -5);
        assert_eq!(c, box_window(39.1256, 39.1561, -5));
        assert_ne!(c, box_window(0.0, 1.0, -5));
        assert_eq!(
            c,
            Window::Box {
                level: -5,
                first: (39.13 * 32.0) as i64,
                cells: 1
            }
        );
        // Normals and texture coordinates of a patch share one class.
        assert_eq!(class_window(-1.0, 1.0, 0), class_window(0.0, 0.25, 0));
        assert_ne!(class_window(-1.0, 1.0, 0), class_window(39.1, 39.2, 0));
    }

    #[test]
    fn windows_keep_a_value_decoded_from_their_pool() {
        // A value quantised onto a pool fitted inside the window stays in
        // it, so a rebuilt tile keeps its pools.
        for (lo, hi) in [(39.1301, 39.1399), (0.0, 1.0), (-0.7, 0.3), (5.0, 5.0)] {
            let w = box_window(lo, hi, -5);
            let s = step16(lo, hi);
            let back =
                |v: f64| crate::dsf::decode(encode_value(v, s, false), s.scale, s.offset, false);
            assert_eq!(box_window(back(lo), back(hi), -5), w, "{lo} {hi}");
            let c = class_window(lo, hi, 0);
            assert_eq!(class_window(back(lo), back(hi), 0), c, "{lo} {hi}");
        }
    }

    #[test]
    fn pow2_ceil_is_exact() {
        assert_eq!(pow2_ceil(1.0), 1.0);
        assert_eq!(pow2_ceil(1.000_000_1), 2.0);
        assert_eq!(pow2_ceil(0.75), 1.0);
        assert_eq!(pow2_ceil(3e-10), 2f64.powi(-31));
    }
}
