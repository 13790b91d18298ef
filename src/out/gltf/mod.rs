//! Placements as a 3-D scene: glTF 2.0, as a GLB file or a `.gltf` JSON
//! file with its data embedded (Khronos' glTF 2.0 specification,
//! <https://registry.khronos.org/glTF/specs/2.0/glTF-2.0.html>), for
//! Blender's glTF importer and any glTF viewer. `docs/gltf.md` tells what
//! the scene holds.
//!
//! **What it draws**, each placement under a node of its own:
//!
//! - **Ground tiles** (not `HIDE_TILES`/`HIDE_TILE` ones): one textured
//!   polygon each, the tile's outline (its `CROP_POLY` where cropped) with
//!   its texture rectangle as texture coordinates, the asset's `TEXTURE`
//!   embedded; each tile 1 cm above the one drawn before it (at most 1 m)
//!   so overlapping tiles do not flicker.
//! - **Objects**: each OBJ8 once as a mesh (its LOD-0 triangles that are
//!   neither draped nor animated, with its `TEXTURE`), every placed object
//!   a node using that mesh, turned by its heading and raised by its
//!   `height` offset. An object whose OBJ is missing or unreadable is a
//!   red 2 m box, named `missing object …`.
//! - **Facades**: walls extruded from the footprint to the height drawn
//!   ([`crate::place::PlacedFacade::drawn_height`], else the height
//!   asked), textured with the wall's panels of the facade's texture
//!   (type 1; plain colours for type 2 walls), and a flat roof with the
//!   roof texture where the facade draws one.
//! - **Trees**: two crossed vertical quads of the tree's width and height,
//!   textured with the tree's rectangle of the forest's texture, alpha
//!   MASK; plain green where the forest is missing.
//!
//! **Frame.** Metres, right-handed, y up, as glTF defines it: east is +x,
//! north is −z, up is +y; the origin is the first placement's origin,
//! recorded with its longitude and latitude in the scene's `extras`
//! (`{"origin": {"lon", "lat"}, "frame", "placements"}`); other placements
//! are moved to their origins in that frame. OBJ8's own frame (x right,
//! y up, z toward the viewer, i.e. x east and z south at heading 0) is
//! glTF's, so an object's vertices are written as they are and its node
//! turns them by the heading (clockwise from north: a rotation of
//! −heading about +y). OBJ8 texture coordinates run up from the image's
//! bottom, glTF's down from its top: v is written as 1 − t; the same for
//! tile pixels (y up), facade panels and forest rectangles.
//!
//! **Bounds.** Textures are decoded once per file and embedded as PNG up to
//! [`Limits::max_scene_texture_bytes`] together (past it, plain colours
//! and a warning); a scene holding more than
//! [`Limits::max_scene_triangles`] triangles (each mesh counted once) is
//! refused.

mod doc;
mod from_scene;
mod model;

use super::OutError;
use crate::limits::Limits;
use crate::place::Placement;

/// Which container a scene is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Container {
    /// Binary glTF (`.glb`): a JSON chunk and a binary chunk.
    Glb,
    /// `.gltf`: JSON, the binary buffer a base64 `data:` URI.
    Gltf,
}

/// A scene written.
#[derive(Debug, Clone, PartialEq)]
pub struct Written {
    /// The file's bytes.
    pub bytes: Vec<u8>,
    /// Art drawn in plain colours or as boxes, and why (a texture not
    /// found, an OBJ that does not read, the texture bytes spent).
    pub warnings: Vec<String>,
}

/// The placements `ps` as one scene in `container`, within `limits`
/// (built by [`crate::scene::build`], then serialised by [`write()`]).
pub fn write_scene(
    ps: &[Placement],
    container: Container,
    limits: &Limits,
) -> Result<Written, OutError> {
    let mut bytes = Vec::new();
    let warnings = write_scene_to(ps, container, limits, &mut bytes)?;
    Ok(Written { bytes, warnings })
}

/// [`write_scene`] to `w` (see [`write_to`]); the warnings.
pub fn write_scene_to(
    ps: &[Placement],
    container: Container,
    limits: &Limits,
    w: &mut dyn std::io::Write,
) -> Result<Vec<String>, OutError> {
    let scene = crate::scene::build(ps, limits).map_err(|e| OutError::Scene(e.to_string()))?;
    write_to(&scene, container, limits, w)
}

/// The scene `scene` serialised in `container`: its textures decoded and
/// embedded within `limits`; its warnings and those of the textures that
/// could not be embedded.
pub fn write(
    scene: &crate::scene::Scene<'_>,
    container: Container,
    limits: &Limits,
) -> Result<Written, OutError> {
    let mut bytes = Vec::new();
    let warnings = write_to(scene, container, limits, &mut bytes)?;
    Ok(Written { bytes, warnings })
}

/// [`write()`] to `w`: the GLB's buffer goes out from where it was built,
/// never copied into a second file-sized vector. Returns the warnings.
/// Nothing is written when the scene cannot be (a value that is not
/// finite, a file past the format's 4 GiB).
pub fn write_to(
    scene: &crate::scene::Scene<'_>,
    container: Container,
    limits: &Limits,
    w: &mut dyn std::io::Write,
) -> Result<Vec<String>, OutError> {
    let (doc_scene, embedding) = from_scene::convert(scene, limits);
    // The scene leaves out what cannot be written as finite `f32`; this
    // is the last guard, so that no NaN, infinity or null bound is ever
    // written.
    if let Some(what) = doc_scene.not_finite() {
        return Err(OutError::Scene(format!(
            "{what} would be written with a value that is not finite"
        )));
    }
    if let Some(n) = scene.nodes.iter().find(|n| {
        !n.at
            .iter()
            .chain([&n.heading, &n.scale])
            .all(|v| (*v as f32).is_finite())
    }) {
        return Err(OutError::Scene(format!(
            "node {:?} would be written with a value that is not finite",
            scene.name(n)
        )));
    }
    match container {
        Container::Glb => doc::glb(&doc_scene, scene, w)?,
        Container::Gltf => doc::gltf(&doc_scene, scene, w)?,
    }
    Ok(scene.warnings.iter().cloned().chain(embedding).collect())
}

/// `len` bytes as a glTF file's length field: an error when a glTF file
/// cannot be that large.
fn file_size(len: usize) -> Result<u32, OutError> {
    u32::try_from(len).map_err(|_| {
        OutError::Scene(format!(
            "the scene would take {len} bytes, more than a glTF file may"
        ))
    })
}

/// The placements as a GLB file with the default limits (warnings
/// dropped; see [`write_scene`]).
pub fn to_glb(ps: &[Placement]) -> Result<Vec<u8>, OutError> {
    Ok(write_scene(ps, Container::Glb, &Limits::default())?.bytes)
}

/// The placements as a `.gltf` file with the default limits.
pub fn to_gltf(ps: &[Placement]) -> Result<Vec<u8>, OutError> {
    Ok(write_scene(ps, Container::Gltf, &Limits::default())?.bytes)
}
