//! The ground of a tile: a base-mesh DSF's terrain patches as a surface to
//! ask for elevation and terrain at any point.
//!
//! [`Surface::from_dsf`] turns every patch's primitives (triangles, strips,
//! fans) into triangles, each with its three vertices (lon, lat, elevation),
//! the patch it came from ([`PatchInfo`]: terrain definition, flags, the
//! texture planes beyond the five of position and normal) and whether that
//! terrain is water. Physical patches (flag 1, DSF notes §3: "physical
//! triangles across all patches must cover the tile exactly once") are
//! indexed in an R*-tree of their bounding boxes; overlay patches (flag 2,
//! drawn over another with a depth offset) are kept for drawing but not
//! asked for ground.
//!
//! **Elevation.** [`Surface::elevation`] finds the physical triangle
//! holding the point and interpolates its vertices' elevations linearly:
//! the plane through the triangle, as xptools' `HeightWithinTri`
//! (`src/XESCore/MeshAlgs.cpp`) computes it for the meshes it writes (the
//! plane in metres east and north; scaling east by the cosine of the
//! latitude does not change a plane's value at a point, so this is the
//! barycentric rule in lon/lat). A point on an edge shared by two triangles
//! gets the same height from either. A vertex whose elevation is the DEM
//! flag -32768 (DSF notes §2.5 and pitfall 19: "take it from the raster")
//! is given the tile's `elevation` raster's value at the vertex, bilinear
//! between samples (post or area centred as the raster's flags say, §4).
//!
//! **Terrain.** [`Surface::terrain_at`] names the terrain definition of the
//! physical triangle holding the point, and whether it is water
//! (`terrain_Water`, the name X-Plane's base meshes give water: xptools'
//! `WED_TerrainLayer.cpp` tests for it, `MeshTool_Create.cpp` writes it).
//!
//! Memory: 88 bytes per triangle plus its texture planes and the tree
//! (about 40 bytes a triangle), every count bounded by the DSF already read
//! ([`crate::dsf::read_with`] under [`Limits`]); a mesh whose triangles pass
//! [`Limits::max_mesh_elements`] is refused before the surface is built.

use crate::dsf::{Dsf, PrimitiveKind, Raster};
use crate::geom::LonLat;
use crate::limits::{LimitExceeded, Limits};
use rstar::{AABB, RTree, RTreeObject};

/// The terrain definition X-Plane's base meshes give water.
pub const WATER: &str = "terrain_Water";

/// The DEM flag of a patch vertex's elevation: "take it from the raster".
pub const DEM_FLAG: f64 = -32768.0;

/// One patch of the mesh, as the triangles made from it refer to it.
#[derive(Debug, Clone, PartialEq)]
pub struct PatchInfo {
    /// Index into [`Surface::terrain_defs`].
    pub def: u32,
    /// The patch's flags (1 physical, 2 overlay).
    pub flags: u8,
    /// Coordinates per vertex in the DSF (≥ 5).
    pub depth: usize,
    /// True when its terrain is water ([`WATER`]).
    pub water: bool,
}

impl PatchInfo {
    /// True for a physical patch (flag 1): the ground things stand on.
    pub fn is_physical(&self) -> bool {
        self.flags & 1 != 0
    }
}

/// One triangle of the mesh.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Triangle {
    /// Its corners: lon, lat (degrees), elevation (metres MSL).
    pub v: [[f64; 3]; 3],
    /// Index into [`Surface::patches`].
    pub patch: u32,
    /// Index into [`Surface::planes`] of its first corner's texture planes
    /// (the values after the five of position and normal, `depth − 5` a
    /// corner, three corners in order).
    pub planes: u32,
}

/// What [`Surface::terrain_at`] finds at a point.
#[derive(Debug, Clone, PartialEq)]
pub struct TerrainAt<'a> {
    /// The terrain definition (`lib/g10/terrain10/grass.ter`,
    /// `terrain_Water`, …).
    pub def: &'a str,
    /// True for water.
    pub water: bool,
    /// The elevation there, metres MSL.
    pub elevation: f64,
    /// Index into [`Surface::triangles`].
    pub triangle: usize,
}

/// A triangle's box in the index.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Boxed {
    env: AABB<[f64; 2]>,
    index: u32,
}

impl RTreeObject for Boxed {
    type Envelope = AABB<[f64; 2]>;
    fn envelope(&self) -> Self::Envelope {
        self.env
    }
}

/// A base mesh as a surface.
#[derive(Debug, Clone)]
pub struct Surface {
    /// The DSF's terrain definitions (`TERT`), in order.
    pub terrain_defs: Vec<String>,
    /// Every patch, in stream order.
    pub patches: Vec<PatchInfo>,
    /// Every triangle, patch by patch.
    pub triangles: Vec<Triangle>,
    /// The texture planes of every corner ([`Triangle::planes`]).
    pub planes: Vec<f32>,
    tree: RTree<Boxed>,
}

/// Why a DSF is not a surface.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TerrainError {
    /// The DSF has no terrain patches: an overlay, not a base mesh.
    #[error("the DSF has no terrain patches (an overlay, not a base mesh)")]
    NoPatches,
    /// Too many triangles.
    #[error(transparent)]
    Limit(#[from] LimitExceeded),
}

impl Surface {
    /// The surface of `dsf`'s terrain patches; refused when it has none or
    /// more triangles than `limits` allow.
    pub fn from_dsf(dsf: &Dsf, limits: &Limits) -> Result<Surface, TerrainError> {
        let mut count: u64 = 0;
        let mut any = false;
        for p in dsf.patches() {
            any = true;
            for pr in &p.primitives {
                let n = (pr.vertices.len() / p.depth.max(1)) as u64;
                count += match pr.kind {
                    PrimitiveKind::Triangles => n / 3,
                    PrimitiveKind::Strip | PrimitiveKind::Fan => n.saturating_sub(2),
                };
            }
        }
        if !any {
            return Err(TerrainError::NoPatches);
        }
        LimitExceeded::check(
            "terrain triangles of the base mesh (3 corners each)",
            count * 3,
            limits.max_mesh_elements,
        )?;
        let dem = dsf.rasters.iter().find(|r| r.name == "elevation");
        let mut s = Surface {
            terrain_defs: dsf.terrain_defs.clone(),
            patches: Vec::new(),
            triangles: Vec::with_capacity(count as usize),
            planes: Vec::new(),
            tree: RTree::new(),
        };
        let west_south = dsf_corner(dsf);
        for p in dsf.patches() {
            let depth = p.depth.max(5);
            let k = s.patches.len() as u32;
            let water = s
                .terrain_defs
                .get(p.def as usize)
                .is_some_and(|d| d == WATER);
            s.patches.push(PatchInfo {
                def: p.def,
                flags: p.flags,
                depth: p.depth,
                water,
            });
            for pr in &p.primitives {
                let verts: Vec<&[f64]> = pr.vertices.chunks_exact(depth).collect();
                let mut tri = |a: &[f64], b: &[f64], c: &[f64]| {
                    let planes = s.planes.len() as u32;
                    let mut corner = |q: &[f64]| {
                        s.planes.extend(q[5..].iter().map(|&x| x as f32));
                        let mut h = q[2];
                        if h == DEM_FLAG
                            && let (Some(r), Some(ws)) = (dem, west_south)
                        {
                            h = raster_at(r, ws, [q[0], q[1]]).unwrap_or(h);
                        }
                        [q[0], q[1], h]
                    };
                    let v = [corner(a), corner(b), corner(c)];
                    s.triangles.push(Triangle {
                        v,
                        patch: k,
                        planes,
                    });
                };
                match pr.kind {
                    PrimitiveKind::Triangles => {
                        for t in verts.chunks_exact(3) {
                            tri(t[0], t[1], t[2]);
                        }
                    }
                    // A strip's odd triangles turn the other way round: the
                    // winding is kept (b, a, c) so every triangle faces up.
                    PrimitiveKind::Strip => {
                        for i in 2..verts.len() {
                            if i % 2 == 0 {
                                tri(verts[i - 2], verts[i - 1], verts[i]);
                            } else {
                                tri(verts[i - 1], verts[i - 2], verts[i]);
                            }
                        }
                    }
                    PrimitiveKind::Fan => {
                        for i in 2..verts.len() {
                            tri(verts[0], verts[i - 1], verts[i]);
                        }
                    }
                }
            }
        }
        let boxes: Vec<Boxed> = s
            .triangles
            .iter()
            .enumerate()
            .filter(|(_, t)| s.patches[t.patch as usize].is_physical())
            .map(|(i, t)| {
                let xs = t.v.map(|p| p[0]);
                let ys = t.v.map(|p| p[1]);
                let lo = [
                    xs.iter().copied().fold(f64::INFINITY, f64::min),
                    ys.iter().copied().fold(f64::INFINITY, f64::min),
                ];
                let hi = [
                    xs.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                    ys.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                ];
                Boxed {
                    env: AABB::from_corners(lo, hi),
                    index: i as u32,
                }
            })
            .collect();
        s.tree = RTree::bulk_load(boxes);
        Ok(s)
    }

    /// The physical triangle holding `p` and its barycentric weights, when
    /// the mesh covers `p`.
    pub fn locate(&self, p: LonLat) -> Option<(usize, [f64; 3])> {
        // A point exactly on an edge is in both triangles: the first found
        // wins, and both give the same height there.
        const EPS: f64 = -1e-12;
        self.tree
            .locate_in_envelope_intersecting(&AABB::from_point(p))
            .filter_map(|b| {
                let t = &self.triangles[b.index as usize];
                let w = barycentric(t, p)?;
                (w.iter().all(|&x| x >= EPS)).then_some((b.index as usize, w))
            })
            .min_by_key(|&(i, _)| i)
    }

    /// The physical triangles whose boxes meet the box `lo`–`hi` (lon,
    /// lat), in mesh order: the mesh of a bounded area.
    pub fn triangles_within(&self, lo: LonLat, hi: LonLat) -> Vec<usize> {
        let mut v: Vec<usize> = self
            .tree
            .locate_in_envelope_intersecting(&AABB::from_corners(lo, hi))
            .map(|b| b.index as usize)
            .collect();
        v.sort_unstable();
        v
    }

    /// The elevation of the ground at `p` (metres MSL): the plane of the
    /// physical triangle holding it (see the module's docs); `None` off the
    /// mesh.
    pub fn elevation(&self, p: LonLat) -> Option<f64> {
        let (i, w) = self.locate(p)?;
        let t = &self.triangles[i];
        Some(w[0] * t.v[0][2] + w[1] * t.v[1][2] + w[2] * t.v[2][2])
    }

    /// The terrain at `p`: the physical triangle's definition, water or
    /// not, and the elevation there; `None` off the mesh.
    pub fn terrain_at(&self, p: LonLat) -> Option<TerrainAt<'_>> {
        let (i, w) = self.locate(p)?;
        let t = &self.triangles[i];
        let patch = &self.patches[t.patch as usize];
        Some(TerrainAt {
            def: self
                .terrain_defs
                .get(patch.def as usize)
                .map_or("", String::as_str),
            water: patch.water,
            elevation: w[0] * t.v[0][2] + w[1] * t.v[1][2] + w[2] * t.v[2][2],
            triangle: i,
        })
    }

    /// The texture planes of corner `k` (0–2) of triangle `t` (`depth − 5`
    /// values: a patch's s/t coordinates, when it has them).
    pub fn corner_planes(&self, t: usize, k: usize) -> &[f32] {
        let tri = &self.triangles[t];
        let n = self.patches[tri.patch as usize].depth.saturating_sub(5);
        let start = tri.planes as usize + k * n;
        &self.planes[start..start + n]
    }

    /// The lowest and highest elevation of the mesh's corners.
    pub fn elevation_range(&self) -> Option<[f64; 2]> {
        let mut r: Option<[f64; 2]> = None;
        for t in &self.triangles {
            for v in &t.v {
                r = Some(match r {
                    None => [v[2], v[2]],
                    Some([lo, hi]) => [lo.min(v[2]), hi.max(v[2])],
                });
            }
        }
        r
    }
}

/// Barycentric weights of `p` in `t` (lon/lat), `None` for a degenerate
/// triangle.
fn barycentric(t: &Triangle, p: LonLat) -> Option<[f64; 3]> {
    let [a, b, c] = t.v;
    let d = (b[1] - c[1]) * (a[0] - c[0]) + (c[0] - b[0]) * (a[1] - c[1]);
    if d == 0.0 {
        return None;
    }
    let w0 = ((b[1] - c[1]) * (p[0] - c[0]) + (c[0] - b[0]) * (p[1] - c[1])) / d;
    let w1 = ((c[1] - a[1]) * (p[0] - c[0]) + (a[0] - c[0]) * (p[1] - c[1])) / d;
    Some([w0, w1, 1.0 - w0 - w1])
}

/// The tile's south-west corner from its `sim/west` and `sim/south`.
fn dsf_corner(dsf: &Dsf) -> Option<LonLat> {
    let w = dsf.property("sim/west")?.trim().parse().ok()?;
    let s = dsf.property("sim/south")?.trim().parse().ok()?;
    Some([w, s])
}

/// The raster's value at `p` in the tile whose south-west corner is `ws`:
/// bilinear between the four samples around it; `None` for a format agkit
/// does not decode.
fn raster_at(r: &Raster, ws: LonLat, p: LonLat) -> Option<f64> {
    let (w, h) = (r.width as usize, r.height as usize);
    let bpp = r.bpp as usize;
    if w == 0 || h == 0 || r.data.len() < w * h * bpp {
        return None;
    }
    let post = r.flags & 4 != 0;
    let (fx, fy) = (p[0] - ws[0], p[1] - ws[1]);
    let (x, y) = if post {
        (fx * (w - 1) as f64, fy * (h - 1) as f64)
    } else {
        (fx * w as f64 - 0.5, fy * h as f64 - 0.5)
    };
    let sample = |i: usize, j: usize| -> Option<f64> {
        let o = (j * w + i) * bpp;
        let b = &r.data[o..o + bpp];
        let v = match (r.flags & 3, bpp) {
            (0, 4) => f64::from(f32::from_le_bytes(b.try_into().ok()?)),
            (1, 1) => f64::from(b[0] as i8),
            (1, 2) => f64::from(i16::from_le_bytes(b.try_into().ok()?)),
            (1, 4) => f64::from(i32::from_le_bytes(b.try_into().ok()?)),
            (2 | 3, 1) => f64::from(b[0]),
            (2 | 3, 2) => f64::from(u16::from_le_bytes(b.try_into().ok()?)),
            (2 | 3, 4) => f64::from(u32::from_le_bytes(b.try_into().ok()?)),
            _ => return None,
        };
        Some(v * f64::from(r.scale) + f64::from(r.offset))
    };
    let clamp = |v: f64, n: usize| v.clamp(0.0, (n - 1) as f64);
    let (x, y) = (clamp(x, w), clamp(y, h));
    let (i0, j0) = (x.floor() as usize, y.floor() as usize);
    let (i1, j1) = ((i0 + 1).min(w - 1), (j0 + 1).min(h - 1));
    let (tx, ty) = (x - i0 as f64, y - j0 as f64);
    let lo = sample(i0, j0)? * (1.0 - tx) + sample(i1, j0)? * tx;
    let hi = sample(i0, j1)? * (1.0 - tx) + sample(i1, j1)? * tx;
    Some(lo * (1.0 - ty) + hi * ty)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dsf::{Entity, Patch, Primitive};

    /// A 2 × 2 cell mesh of the tile +47+013 whose height is `x·100 + y·10`
    /// metres at grid point (x, y); the west half grass, the east half
    /// water.
    fn mesh() -> Dsf {
        let mut d = Dsf::overlay(13, 47);
        d.properties.retain(|(k, _)| k != "sim/overlay");
        d.terrain_defs = vec!["grass.ter".into(), WATER.into()];
        let h = |x: f64, y: f64| x * 100.0 + y * 10.0;
        for (def, x0) in [(0u32, 0usize), (1, 1)] {
            let mut v = Vec::new();
            for y in 0..2 {
                let (x, y) = (x0 as f64 * 0.5, y as f64 * 0.5);
                let q = |dx: f64, dy: f64| {
                    [
                        13.0 + x + dx,
                        47.0 + y + dy,
                        h(x + dx, y + dy),
                        0.0,
                        0.0,
                        x + dx,
                        y + dy,
                    ]
                };
                for c in [
                    q(0.0, 0.0),
                    q(0.5, 0.0),
                    q(0.5, 0.5),
                    q(0.0, 0.0),
                    q(0.5, 0.5),
                    q(0.0, 0.5),
                ] {
                    v.extend(c);
                }
            }
            d.entities.push(Entity::Patch(Patch {
                def,
                flags: 1,
                lod_near: 0.0,
                lod_far: -1.0,
                depth: 7,
                primitives: vec![Primitive {
                    kind: PrimitiveKind::Triangles,
                    vertices: v,
                }],
            }));
        }
        d
    }

    #[test]
    fn elevation_is_the_plane_of_the_triangle_and_terrain_its_patch() {
        let s = Surface::from_dsf(&mesh(), &Limits::default()).unwrap();
        assert_eq!(s.triangles.len(), 8);
        for (p, want) in [
            ([13.25, 47.25], 27.5),
            ([13.0, 47.0], 0.0),
            ([13.9, 47.3], 93.0),
            ([13.5, 47.5], 55.0),
        ] {
            let h = s.elevation(p).unwrap();
            assert!((h - want).abs() < 1e-9, "{p:?}: {h} ≠ {want}");
        }
        assert_eq!(s.terrain_at([13.2, 47.7]).unwrap().def, "grass.ter");
        let w = s.terrain_at([13.7, 47.2]).unwrap();
        assert!(w.water && w.def == WATER);
        assert!(s.elevation([12.9, 47.5]).is_none(), "off the mesh");
        assert_eq!(s.corner_planes(0, 1), [0.5, 0.0]);
        assert_eq!(s.elevation_range(), Some([0.0, 110.0]));
    }

    #[test]
    fn an_overlay_is_not_a_surface_and_a_limit_is_kept() {
        let o = Dsf::overlay(13, 47);
        assert!(matches!(
            Surface::from_dsf(&o, &Limits::default()),
            Err(TerrainError::NoPatches)
        ));
        let tight = Limits {
            max_mesh_elements: 10,
            ..Limits::default()
        };
        assert!(matches!(
            Surface::from_dsf(&mesh(), &tight),
            Err(TerrainError::Limit(_))
        ));
    }

    #[test]
    fn the_dem_flag_takes_the_raster() {
        let mut d = mesh();
        for e in &mut d.entities {
            if let Entity::Patch(p) = e {
                for pr in &mut p.primitives {
                    for v in pr.vertices.chunks_exact_mut(7) {
                        v[2] = DEM_FLAG;
                    }
                }
            }
        }
        // A post-centred 2 × 2 i16 raster: 0 west, 200 east.
        let data: Vec<u8> = [0i16, 200, 0, 200]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        d.raster_defs = vec!["elevation".into()];
        d.rasters = vec![Raster {
            name: "elevation".into(),
            version: 1,
            bpp: 2,
            flags: 4 | 1,
            width: 2,
            height: 2,
            scale: 1.0,
            offset: 0.0,
            data,
        }];
        let s = Surface::from_dsf(&d, &Limits::default()).unwrap();
        let h = s.elevation([13.25, 47.6]).unwrap();
        assert!((h - 50.0).abs() < 1e-9, "{h}");
    }
}
