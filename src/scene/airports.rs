//! An airport's runways, helipads and pavement as shapes on the map and
//! as meshes on the ground, built once for every view: the 3-D scene
//! draws [`mesh`], the pictures fill [`shapes`] with the same colours
//! ([`colour`]).
//!
//! **Shapes** ([`shapes`], lon/lat):
//! - a land runway (`100`) is a rectangle its width wide from one end to
//!   the other (the ends as the file gives them, before displacement):
//!   the part between the two displaced thresholds in its surface's
//!   colour, each displaced part ([`Part::Displaced`]) a lighter shade of
//!   it, and each blast pad ([`Part::BlastPad`], its overrun length beyond
//!   its end) yellow;
//! - a water runway (`101`) the same rectangle, in water's colour;
//! - a helipad (`102`) a rectangle its length along its heading and its
//!   width across, centred on its point;
//! - a pavement (`110`) its rings, bezier curves cut into points as
//!   [`crate::apt::bezier`] cuts them, the first the outline and the
//!   others holes. A surface of code 15 ("transparent") is not drawn.
//!
//! **Meshes** ([`mesh`]): a rectangle is a strip cut every [`STEP`]
//! metres along its length, so that it follows the ground along a long
//! runway; a pavement is its rings triangulated by ear clipping (the
//! triangulation the draped polygons use, [`triangulate_rings`]), holes
//! left empty. Each vertex stands on the ground under it plus a small
//! lift ([`RUNWAY_LIFT`], [`PAVEMENT_LIFT`]).

use crate::apt::{Airport, Runway};
use crate::geom::mesh::triangulate_rings;
use crate::geom::{LocalFrame, LonLat, Mesh, Xy};

/// Longest piece of a runway strip along its length, metres.
pub const STEP: f64 = 25.0;

/// Height of pavement above the ground, metres. X-Plane drapes its
/// airport surfaces on the mesh; agkit sets each vertex on the ground and
/// lifts it this much so that a viewer's depth buffer draws it over the
/// terrain (no z-fighting), under the draped polygons
/// ([`super::draped::DRAPED_Z`]) and every item.
pub const PAVEMENT_LIFT: f64 = 0.02;

/// Height of runways and helipads above the ground, metres: over the
/// pavement they cross, as X-Plane draws runways over taxiways, still
/// under the draped polygons.
pub const RUNWAY_LIFT: f64 = 0.03;

/// What a shape is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Part {
    /// A land runway between its displaced thresholds.
    Runway,
    /// A runway's displaced threshold.
    Displaced,
    /// A runway's blast pad (overrun).
    BlastPad,
    /// A water runway.
    WaterRunway,
    /// A helipad.
    Helipad,
    /// A pavement polygon (taxiway, apron).
    Pavement,
}

impl Part {
    /// Lower-case words (`runway`, `blast pad` …).
    pub fn as_str(self) -> &'static str {
        match self {
            Part::Runway => "runway",
            Part::Displaced => "displaced threshold",
            Part::BlastPad => "blast pad",
            Part::WaterRunway => "water runway",
            Part::Helipad => "helipad",
            Part::Pavement => "pavement",
        }
    }
}

/// One shape of an airport.
#[derive(Debug, Clone, PartialEq)]
pub struct Shape {
    /// What it is.
    pub part: Part,
    /// Its surface code ([`crate::apt::spec::surface_name`]; 13 for a
    /// water runway).
    pub surface: u32,
    /// Its name: the runway's ends (`09/27`), the helipad's designator,
    /// the pavement's description.
    pub name: String,
    /// The line of its row in the apt.dat.
    pub line: usize,
    /// A rectangle ([`Outline::Strip`]) or rings ([`Outline::Rings`]).
    pub outline: Outline,
}

/// The outline of a shape, lon/lat.
#[derive(Debug, Clone, PartialEq)]
pub enum Outline {
    /// A rectangle from one end to the other: `[start right, end right,
    /// end left, start left]` (counter-clockwise), and its length in
    /// metres.
    Strip([LonLat; 4], f64),
    /// Rings: the outline, then holes.
    Rings(Vec<Vec<LonLat>>),
}

impl Outline {
    /// Every corner of the outline (a strip's four, each ring's points).
    pub fn points(&self) -> Vec<LonLat> {
        match self {
            Outline::Strip(q, _) => q.to_vec(),
            Outline::Rings(rs) => rs.iter().flatten().copied().collect(),
        }
    }
}

impl Shape {
    /// Its rings, lon/lat: the rectangle's four corners, or the rings.
    pub fn rings(&self) -> Vec<Vec<LonLat>> {
        match &self.outline {
            Outline::Strip(q, _) => vec![q.to_vec()],
            Outline::Rings(r) => r.clone(),
        }
    }

    /// Triangles its mesh has ([`mesh`]): two a piece of a strip; for
    /// rings, what ear clipping gives a polygon of `n` points and `h`
    /// holes, `n + 2h − 2`.
    pub fn triangles(&self) -> usize {
        match &self.outline {
            Outline::Strip(_, len) => 2 * pieces(*len),
            Outline::Rings(r) => {
                let n: usize = r.iter().map(Vec::len).sum();
                (n + 2 * r.len().saturating_sub(1)).saturating_sub(2)
            }
        }
    }

    /// Its lift above the ground ([`RUNWAY_LIFT`], [`PAVEMENT_LIFT`]).
    pub fn lift(&self) -> f64 {
        match self.part {
            Part::Pavement => PAVEMENT_LIFT,
            _ => RUNWAY_LIFT,
        }
    }
}

/// Pieces a strip of `len` metres is cut into: one per [`STEP`], at least
/// one.
fn pieces(len: f64) -> usize {
    if len.is_finite() && len > 0.0 {
        ((len / STEP).ceil() as usize).clamp(1, 10_000)
    } else {
        1
    }
}

/// The colour of surface `code`, sRGB `0xRRGGBB`, by the surface table of
/// the apt.dat specification ([`crate::apt::spec::surface_name`]):
/// asphalt dark grey, concrete light grey, grass green, dirt brown, gravel
/// grey-brown, dry lakebed sand, water blue, snow white.
pub fn colour(code: u32) -> u32 {
    match crate::apt::spec::surface_name(code) {
        "asphalt" => 0x3a3a3c,
        "concrete" => 0xa9a9a2,
        "grass" => 0x5f8a3a,
        "dirt" => 0x8a6a48,
        "gravel" => 0x9a9080,
        "dry lakebed" => 0xd2c6a4,
        "water" => 0x4a78a8,
        "snow or ice" => 0xf0f2f5,
        _ => 0x7a7a7a,
    }
}

/// The colour of a shape: its surface's, a displaced threshold a lighter
/// shade of it, a blast pad yellow.
pub fn shape_colour(s: &Shape) -> u32 {
    match s.part {
        Part::BlastPad => 0xb8a23a,
        Part::Displaced => {
            let c = colour(s.surface);
            let up = |v: u32| (v + (255 - v) / 3).min(255);
            (up(c >> 16) << 16) | (up((c >> 8) & 0xff) << 8) | up(c & 0xff)
        }
        _ => colour(s.surface),
    }
}

/// The rectangle from `a + u·from` to `a + u·to` (metres along the unit
/// direction `u` in frame `f`), `half` metres each side.
fn strip(f: &LocalFrame, a: Xy, u: Xy, from: f64, to: f64, half: f64) -> Outline {
    let left = [-u[1], u[0]];
    let at = |t: f64, s: f64| {
        f.to_lonlat([a[0] + u[0] * t + left[0] * s, a[1] + u[1] * t + left[1] * s])
    };
    Outline::Strip(
        [at(from, -half), at(to, -half), at(to, half), at(from, half)],
        to - from,
    )
}

/// The shapes of land runway `r` (module docs).
fn runway_shapes(r: &Runway, out: &mut Vec<Shape>) {
    let f = LocalFrame::new(r.ends[0].at);
    let b = f.to_local(r.ends[1].at);
    let len = b[0].hypot(b[1]);
    if !(len.is_finite() && len > 0.0 && r.width_m.is_finite() && r.width_m > 0.0) {
        return;
    }
    let u = [b[0] / len, b[1] / len];
    let half = r.width_m / 2.0;
    let name = format!("{}/{}", r.ends[0].number, r.ends[1].number);
    let ok = |v: f64| if v.is_finite() && v > 0.0 { v } else { 0.0 };
    let d0 = ok(r.ends[0].displaced_m).min(len);
    let d1 = ok(r.ends[1].displaced_m).min(len - d0);
    let mut push = |part, from: f64, to: f64| {
        if to - from > 1e-3 {
            out.push(Shape {
                part,
                surface: r.surface,
                name: name.clone(),
                line: r.line,
                outline: strip(&f, [0.0, 0.0], u, from, to, half),
            });
        }
    };
    push(Part::Runway, d0, len - d1);
    push(Part::Displaced, 0.0, d0);
    push(Part::Displaced, len - d1, len);
    push(Part::BlastPad, -ok(r.ends[0].overrun_m), 0.0);
    push(Part::BlastPad, len, len + ok(r.ends[1].overrun_m));
}

/// Every shape of airport `a`, in drawing order: pavement first, then
/// runways and helipads over it. A surface of code 15 (transparent) is
/// left out.
pub fn shapes(a: &Airport) -> Vec<Shape> {
    let mut out = Vec::new();
    for p in &a.pavements {
        let rings: Vec<Vec<LonLat>> = p
            .rings
            .iter()
            .map(crate::apt::bezier::points)
            .filter(|r| r.len() >= 3)
            .collect();
        if rings.is_empty() || p.surface == 15 {
            continue;
        }
        out.push(Shape {
            part: Part::Pavement,
            surface: p.surface,
            name: p.name.clone(),
            line: p.line,
            outline: Outline::Rings(rings),
        });
    }
    for r in a.runways.iter().filter(|r| r.surface != 15) {
        runway_shapes(r, &mut out);
    }
    for w in &a.water_runways {
        let f = LocalFrame::new(w.ends[0].at);
        let b = f.to_local(w.ends[1].at);
        let len = b[0].hypot(b[1]);
        if len.is_finite() && len > 0.0 && w.width_m.is_finite() && w.width_m > 0.0 {
            out.push(Shape {
                part: Part::WaterRunway,
                surface: 13,
                name: format!("{}/{}", w.ends[0].number, w.ends[1].number),
                line: w.line,
                outline: strip(
                    &f,
                    [0.0, 0.0],
                    [b[0] / len, b[1] / len],
                    0.0,
                    len,
                    w.width_m / 2.0,
                ),
            });
        }
    }
    for h in a.helipads.iter().filter(|h| h.surface != 15) {
        let ok = |v: f64| v.is_finite() && v > 0.0;
        if !(ok(h.length_m) && ok(h.width_m) && h.heading.is_finite()) {
            continue;
        }
        let f = LocalFrame::new(h.at);
        let (sin, cos) = h.heading.to_radians().sin_cos();
        // Heading clockwise from north: along is (sin, cos) east, north.
        let u = [sin, cos];
        let a0 = [-u[0] * h.length_m / 2.0, -u[1] * h.length_m / 2.0];
        out.push(Shape {
            part: Part::Helipad,
            surface: h.surface,
            name: h.designator.clone(),
            line: h.line,
            outline: strip(&f, a0, u, 0.0, h.length_m, h.width_m / 2.0),
        });
    }
    out
}

/// The mesh of shape `s` in `frame` (metres, z up), facing up, each vertex
/// at `ground(lon/lat)` plus the shape's lift; [`Shape::triangles`]
/// triangles at most (a ring whose triangulation fails has none).
pub fn mesh(s: &Shape, frame: &LocalFrame, ground: &dyn Fn(LonLat) -> f64) -> Mesh {
    let lift = s.lift();
    let mut m = Mesh::default();
    let up = [0.0, 0.0, 1.0];
    let vertex = |m: &mut Mesh, ll: LonLat| {
        let [x, y] = frame.to_local(ll);
        m.vertex([x, y, ground(ll) + lift], up, [0.0, 0.0])
    };
    match &s.outline {
        Outline::Strip(q, len) => {
            let k = pieces(*len);
            let lerp =
                |a: LonLat, b: LonLat, t: f64| [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
            let mut prev: Option<(u32, u32)> = None;
            for i in 0..=k {
                let t = i as f64 / k as f64;
                let right = vertex(&mut m, lerp(q[0], q[1], t));
                let left = vertex(&mut m, lerp(q[3], q[2], t));
                if let Some((r0, l0)) = prev {
                    m.triangles.push([r0, right, left]);
                    m.triangles.push([r0, left, l0]);
                }
                prev = Some((right, left));
            }
        }
        Outline::Rings(rings) => {
            let local: Vec<Vec<Xy>> = rings
                .iter()
                .map(|r| r.iter().map(|&q| frame.to_local(q)).collect())
                .collect();
            let (points, tris) = triangulate_rings(&local);
            let base = m.positions.len() as u32;
            for p in &points {
                let ll = frame.to_lonlat(*p);
                m.vertex([p[0], p[1], ground(ll) + lift], up, [0.0, 0.0]);
            }
            for t in tris.chunks_exact(3) {
                if t.iter().any(|&k| k >= points.len()) {
                    continue;
                }
                let (a, b, c) = (points[t[0]], points[t[1]], points[t[2]]);
                let area = (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]);
                let [i, j, k] = [t[0], t[1], t[2]].map(|v| base + v as u32);
                m.triangles
                    .push(if area >= 0.0 { [i, j, k] } else { [i, k, j] });
            }
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    const APT: &str = "I\n1100 x\n\n1 100 0 0 XTST Test\n\
        100 30 1 0 0.25 0 0 0 09 47.0 13.0 100 60 0 0 0 0 27 47.0 13.01 0 0 0 0 0 0\n99\n";

    #[test]
    fn a_runway_is_its_length_between_the_ends_with_its_pads_beside() {
        let f = crate::apt::read(APT.as_bytes(), "apt.dat", &Default::default()).unwrap();
        let s = shapes(&f.airports[0]);
        let parts: Vec<Part> = s.iter().map(|s| s.part).collect();
        assert_eq!(parts, [Part::Runway, Part::Displaced, Part::BlastPad]);
        let len = f.airports[0].runways[0].length_m();
        let Outline::Strip(_, body) = s[0].outline else {
            panic!()
        };
        assert!((body - (len - 100.0)).abs() < 1e-6, "{body}");
        let frame = LocalFrame::new([13.0, 47.0]);
        let m = mesh(&s[0], &frame, &|_| 10.0);
        assert_eq!(m.triangles.len(), s[0].triangles());
        assert!(
            m.positions
                .iter()
                .all(|p| (p[2] - 10.0 - RUNWAY_LIFT).abs() < 1e-12)
        );
        // 30 m wide: every vertex 15 m off the centre line (about y = 0:
        // a parallel bends a few centimetres in the local frame).
        assert!(m.positions.iter().all(|p| (p[1].abs() - 15.0).abs() < 0.1));
        // The blast pad lies west of the first end.
        let Outline::Strip(q, _) = s[2].outline else {
            panic!()
        };
        assert!(q.iter().all(|p| p[0] <= 13.0 + 1e-7), "{q:?}");
    }
}
