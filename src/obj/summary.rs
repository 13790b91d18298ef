//! What `agkit info` says about an object: its bounds, footprint, height,
//! triangle counts, levels of detail, lights and textures.

use super::{Bounds, Lights, Lod, Obj, Select};
use serde::Serialize;
use std::collections::BTreeMap;

/// The summary of one object (`agkit info --format json X.obj`), in the
/// object's own frame (metres; x right, y up, z toward the viewer).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// Always `obj`.
    pub format: &'static str,
    /// The header's version.
    pub version: u32,
    /// The box around the LOD-0 triangles (draped or not), posed (each
    /// animation at its first key), `null` without triangles.
    pub bounds: Option<Bounds>,
    /// The same box at rest: the coordinates as written.
    pub rest_bounds: Option<Bounds>,
    /// The LOD-0 solid triangles seen from above: their convex hull as
    /// `[x, z]` points.
    pub footprint: Vec<[f64; 2]>,
    /// The largest y of the LOD-0 solid triangles, `null` without any.
    pub height: Option<f64>,
    /// LOD-0 solid triangles.
    pub triangles: usize,
    /// LOD-0 draped triangles.
    pub draped_triangles: usize,
    /// LOD-0 solid triangles inside animation blocks.
    pub animated_triangles: usize,
    /// Vertices (`VT`).
    pub vertices: usize,
    /// Indices (`IDX`, `IDX10`).
    pub indices: usize,
    /// The levels of detail.
    pub lods: Vec<Lod>,
    /// `ATTR_LOD_draped`, if given.
    pub lod_draped: Option<f64>,
    /// Animation blocks.
    pub animations: usize,
    /// Lights by kind.
    pub lights: Lights,
    /// Texture paths by directive.
    pub textures: BTreeMap<String, String>,
    /// Errors found (the object is drawn as far as it could be read).
    pub errors: usize,
    /// Warnings found.
    pub warnings: usize,
}

impl Summary {
    /// The summary of `obj`, with the numbers of errors and warnings found
    /// reading it.
    pub fn of(obj: &Obj, errors: usize, warnings: usize) -> Summary {
        let solid = obj.triangle_count(Select::Solid);
        Summary {
            format: "obj",
            version: obj.version,
            bounds: obj.bounds(),
            rest_bounds: obj.rest_bounds(),
            footprint: obj.footprint(),
            height: obj.height(),
            triangles: solid,
            draped_triangles: obj.triangle_count(Select::Draped),
            animated_triangles: solid - obj.triangle_count(Select::Static),
            vertices: obj.vertices.len(),
            indices: obj.indices.len(),
            lods: obj.lods.clone(),
            lod_draped: obj.lod_draped,
            animations: obj.animations,
            lights: obj.lights,
            textures: obj.textures.clone(),
            errors,
            warnings,
        }
    }

    /// A few aligned lines for people.
    pub fn to_human(&self) -> String {
        let mut out = format!("format     OBJ8 (version {})\n", self.version);
        match &self.bounds {
            Some(b) => {
                out += &format!(
                    "bounds     x {:.2} … {:.2}, y {:.2} … {:.2}, z {:.2} … {:.2} m\n",
                    b.min[0], b.max[0], b.min[1], b.max[1], b.min[2], b.max[2]
                )
            }
            None => out += "bounds     none (no triangles)\n",
        }
        if let Some(r) = self.rest_bounds.filter(|r| Some(r) != self.bounds.as_ref()) {
            out += &format!(
                "at rest    x {:.2} … {:.2}, y {:.2} … {:.2}, z {:.2} … {:.2} m\n",
                r.min[0], r.max[0], r.min[1], r.max[1], r.min[2], r.max[2]
            );
        }
        if let Some(h) = self.height {
            out += &format!("height     {h:.2} m\n");
        }
        out += &format!("footprint  {} points\n", self.footprint.len());
        out += &format!(
            "triangles  {} solid ({} animated), {} draped (LOD 0)\n",
            self.triangles, self.animated_triangles, self.draped_triangles
        );
        out += &format!(
            "geometry   {} vertices, {} indices, {} LODs, {} animation blocks\n",
            self.vertices,
            self.indices,
            self.lods.len(),
            self.animations
        );
        out += &format!("lights     {}\n", self.lights.total());
        for (k, v) in &self.textures {
            out += &format!("{:<10} {v}\n", k.to_ascii_lowercase());
        }
        out += &format!(
            "problems   {} errors, {} warnings\n",
            self.errors, self.warnings
        );
        out
    }
}
