//! Paths of bezier nodes as points: what pavement, boundaries and lines
//! look like on a map.
//!
//! The curve between two nodes `a` and `b` is the cubic bezier with control
//! points `a`, `a`'s handle, the mirror of `b`'s handle through `b`, and
//! `b`: a node row's control point (112, 114, 116) is the handle towards the
//! next node, and the handle towards the previous one is its reflection
//! through the node (`AptPolygonIterator::operator*` in xptools'
//! `src/XESCore/AptAlgs.cpp` returns `2 · pt − ctrl` for the low handle). A
//! node without one (111, 113, 115) contributes itself as the handle, so
//! that between two plain nodes the curve is the straight segment. A ring
//! (closed by 113 or 114) has a last curve back to its first node.
//!
//! **Subdivision.** Each curved segment is cut into pieces of at most
//! [`PIECE_M`] metres along its control polygon (the polygon of its four
//! points, which is never shorter than the curve), and at least 2 and at
//! most [`MAX_PIECES`] pieces; straight segments are not cut. Points that
//! repeat the one before (a node split into a curve and a corner at one
//! place, as WorldEditor writes sharp corners) are dropped. Lengths are
//! measured on a local equirectangular projection at the segment's first
//! point, enough to choose a piece count.

use super::Path;
use crate::geom::LonLat;

/// Longest piece of a curve, metres along its control polygon.
pub const PIECE_M: f64 = 1.0;

/// Most pieces one curved segment is cut into.
pub const MAX_PIECES: usize = 32;

/// Metres per degree of latitude (mean, spherical earth).
const M_PER_DEG: f64 = 111_195.0;

/// The points of `path`: a ring without its first point repeated, or a line
/// from its first node to its last.
pub fn points(path: &Path) -> Vec<LonLat> {
    let n = path.nodes.len();
    let mut out: Vec<LonLat> = Vec::with_capacity(n * 2);
    let segments = if path.closed { n } else { n.saturating_sub(1) };
    for i in 0..segments {
        let a = &path.nodes[i];
        let b = &path.nodes[(i + 1) % n];
        let p0 = a.at;
        let p1 = a.control.unwrap_or(a.at);
        let p2 = b
            .control
            .map_or(b.at, |c| [2.0 * b.at[0] - c[0], 2.0 * b.at[1] - c[1]]);
        let p3 = b.at;
        push(&mut out, p0);
        if p1 == p0 && p2 == p3 {
            continue;
        }
        let len = dist(p0, p1) + dist(p1, p2) + dist(p2, p3);
        let pieces = ((len / PIECE_M).ceil() as usize).clamp(2, MAX_PIECES);
        for k in 1..pieces {
            push(&mut out, cubic([p0, p1, p2, p3], k as f64 / pieces as f64));
        }
    }
    if let Some(last) = path.nodes.last()
        && !path.closed
    {
        push(&mut out, last.at);
    }
    if path.closed && out.len() > 1 && out.first() == out.last() {
        out.pop();
    }
    out
}

/// The points of each path of `paths` ([`points`]).
pub fn all_points(paths: &[Path]) -> Vec<Vec<LonLat>> {
    paths.iter().map(points).collect()
}

fn push(out: &mut Vec<LonLat>, p: LonLat) {
    if out.last() != Some(&p) {
        out.push(p);
    }
}

/// Metres between two points (local equirectangular).
fn dist(a: LonLat, b: LonLat) -> f64 {
    let k = a[1].to_radians().cos();
    ((b[0] - a[0]) * k * M_PER_DEG).hypot((b[1] - a[1]) * M_PER_DEG)
}

/// The cubic bezier of `p` at `t` (de Casteljau).
fn cubic(p: [LonLat; 4], t: f64) -> LonLat {
    let lerp = |a: LonLat, b: LonLat| [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
    let (a, b, c) = (lerp(p[0], p[1]), lerp(p[1], p[2]), lerp(p[2], p[3]));
    let (d, e) = (lerp(a, b), lerp(b, c));
    lerp(d, e)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apt::Node;

    fn node(code: u32, at: LonLat, control: Option<LonLat>) -> Node {
        Node {
            code,
            at,
            control,
            attributes: vec![],
            line: 0,
        }
    }

    #[test]
    fn plain_nodes_give_their_own_points() {
        let p = Path {
            nodes: vec![
                node(111, [0.0, 0.0], None),
                node(111, [0.001, 0.0], None),
                node(113, [0.001, 0.001], None),
            ],
            closed: true,
            ended: true,
        };
        assert_eq!(points(&p).len(), 3);
        let open = Path {
            closed: false,
            ..p.clone()
        };
        assert_eq!(points(&open).len(), 3);
    }

    #[test]
    fn a_curve_passes_through_its_nodes_and_is_cut_by_length() {
        // A quarter-ish curve of about 100 m: cut into the most pieces.
        let p = Path {
            nodes: vec![
                node(112, [0.0, 0.0], Some([0.0005, 0.0])),
                node(115, [0.001, 0.001], None),
            ],
            closed: false,
            ended: true,
        };
        let pts = points(&p);
        assert_eq!(pts.len(), MAX_PIECES + 1);
        assert_eq!(pts[0], [0.0, 0.0]);
        assert_eq!(*pts.last().unwrap(), [0.001, 0.001]);
        // The handle pulls the curve east first.
        assert!(pts[1][0] > pts[1][1]);
    }

    #[test]
    fn the_incoming_handle_is_the_mirror_of_the_control_point() {
        // b's control points east of b: the curve arrives from the west.
        let p = Path {
            nodes: vec![
                node(111, [0.0, 0.0], None),
                node(116, [0.0, 0.001], Some([0.0005, 0.001])),
            ],
            closed: false,
            ended: true,
        };
        let pts = points(&p);
        let before_last = pts[pts.len() - 2];
        assert!(before_last[0] < 0.0, "{before_last:?}");
    }
}
