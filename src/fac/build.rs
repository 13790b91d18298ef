//! A facade built on a footprint: first its [`Layout`] (the choices:
//! height drawn, floor, the wall of each side, roof or not), then its
//! [`FacadeMesh`] (walls and roof as plain [`Mesh`]es).
//!
//! Placement fills [`crate::place::PlacedFacade`] from the layout, and
//! every view draws the mesh built from that same layout, so the placement
//! JSON, the pictures and the 3-D scene agree on every side.
//!
//! The rules are X-Plane's, each in a module of its own and listed with
//! its reference in `docs/art.md`: [`super::layout`] applies them
//! (floors for the height, the wall of each side by its filters or the
//! DSF's types, panels or segments per side, the roof and its insets);
//! [`super::shape`] (type 1: panel by panel, floor by floor, the leaning
//! roof edge, the inset roof) and [`super::shape2`] (type 2: segment
//! meshes by spelling, the flat roof) build the geometry. A facade whose
//! `.fac` was not read gets no building: the 3-D scene draws its ring as
//! an outline on the ground ([`crate::scene`]), inventing no walls or roof.

use super::Facade;
use crate::geom::Xy;
use crate::geom::mesh::Mesh;

use super::layout::Layout;

/// A facade's geometry: walls drawn with its wall texture, the roof with
/// its roof texture.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FacadeMesh {
    /// The walls.
    pub walls: Mesh,
    /// The roof (empty when none is drawn).
    pub roof: Mesh,
    /// True for a closed ring (a building): walls face out and are seen
    /// from outside only; false for a fence, whose walls are seen from
    /// both sides.
    pub closed: bool,
}

/// The walls and roof of `fac` on the footprint `ring` (local metres), as
/// `layout` chose them.
pub fn mesh(fac: &Facade, ring: &[Xy], plan: &Layout) -> FacadeMesh {
    let (walls, roof) = if fac.is_type2() {
        (
            super::shape2::walls(fac, ring, plan),
            super::shape2::roof(fac, ring, plan),
        )
    } else {
        (
            super::shape::walls(fac, ring, plan),
            super::shape::roof(fac, ring, plan),
        )
    };
    FacadeMesh {
        walls: if fac.is_type2() {
            triangles(&walls)
        } else {
            quads(&walls)
        },
        roof: triangles(&roof),
        closed: plan.closed,
    }
}

/// A mesh of the quads of `g` (four vertices each, as
/// [`super::shape::Geometry::quad`] adds them), each with its own normal.
fn quads(g: &super::shape::Geometry) -> Mesh {
    let mut m = Mesh::default();
    for (p, st) in g.positions.chunks_exact(4).zip(g.uvs.chunks_exact(4)) {
        m.quad([p[0], p[1], p[2], p[3]], [st[0], st[1], st[2], st[3]]);
    }
    m
}

/// A mesh of the triangles of `g`, each vertex's normal the sum of its
/// triangles' (area-weighted).
fn triangles(g: &super::shape::Geometry) -> Mesh {
    Mesh::smooth(&g.positions, &g.uvs, &g.triangles)
}
