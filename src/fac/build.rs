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
use serde::Serialize;

/// The choices a facade makes on one footprint.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Layout {
    /// The height asked, metres.
    pub asked: f64,
    /// The height the facade draws, as the rules give it (`None` when the
    /// facade has nothing to measure it by): type 1, its whole floors
    /// stacked; type 2, the chosen floor's roof height.
    pub drawn_height: Option<f64>,
    /// The height the mesh is built to: [`Layout::drawn_height`], else the
    /// height asked, else 1 m when neither is a positive number.
    pub height: f64,
    /// Type 1: the floors stacked.
    pub floors: Option<usize>,
    /// Type 2: the `FLOOR` drawn, by name.
    pub floor: Option<String>,
    /// The wall of each side, in side order (empty when the facade has no
    /// walls).
    pub walls: Vec<WallChoice>,
    /// Panels across each side, in side order (type 1; type 2: the
    /// segments of each side).
    pub panels: Vec<usize>,
    /// Whether a roof is drawn.
    pub roof: bool,
    /// Every choice in detail: per side its length, panels (left, centre,
    /// right) or segments, stretch and roof inset.
    pub plan: super::layout::Layout,
}

/// The wall one side of a facade draws.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WallChoice {
    /// Its index among the walls (of the nearest level, or of the floor
    /// drawn).
    pub wall: usize,
    /// Its name, when the facade gives one.
    pub name: Option<String>,
}

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

/// The layout of `fac` on the footprint `ring` (local metres, as placed)
/// asked `height` metres tall, with the `FAC_WALLS` type of each side.
pub fn layout(fac: &Facade, ring: &[Xy], height: f64, wall_types: Option<&[i64]>) -> Layout {
    let plan = super::layout::layout(fac, ring, height, wall_types);
    let measured = if fac.is_type2() {
        plan.floor.is_some()
    } else {
        plan.floors.is_some()
    };
    let drawn_height = measured.then_some(plan.height);
    let walls = plan
        .sides
        .iter()
        .map(|s| WallChoice {
            wall: s.wall,
            name: s.name.clone(),
        })
        .collect();
    let panels = plan
        .sides
        .iter()
        .map(|s| match (&s.panels, &s.segments) {
            (Some(p), _) => usize::try_from(p.total).unwrap_or(usize::MAX),
            (None, Some(segs)) => segs.len(),
            _ => 0,
        })
        .collect();
    Layout {
        asked: height,
        drawn_height,
        height: drawable(drawn_height.unwrap_or(height)),
        floors: plan
            .floors
            .map(|n| usize::try_from(n).unwrap_or(usize::MAX)),
        floor: plan.floor_name.clone(),
        walls,
        panels,
        roof: plan.roof,
        plan,
    }
}

/// `h` when it is a positive number, else 1 m.
fn drawable(h: f64) -> f64 {
    if h.is_finite() && h > 0.0 { h } else { 1.0 }
}

/// The walls and roof of `fac` on the footprint `ring` (local metres), as
/// `layout` chose them.
pub fn mesh(fac: &Facade, ring: &[Xy], layout: &Layout) -> FacadeMesh {
    let plan = &layout.plan;
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
