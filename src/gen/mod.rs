//! A deterministic generator of realistic input sets for benchmarks, bulk
//! runs and fuzzing.
//!
//! [`generate`] writes, for one seed, the same tree every time:
//!
//! - `text/agp`, `text/agb`, `text/ags`: autogen text files of realistic
//!   sizes (a few KB to a few hundred KB), built on the bundled examples with
//!   extra annotations at random positions inside their tiles;
//! - `dsf/+DD+DDD.dsf`: DSF tiles (built with [`dsf::build`]) holding AGB and
//!   AGS polygons and AGP points;
//! - `basemesh/+DD+DDD.dsf`: base-mesh tiles ([`base_mesh_tile`]: a terrain
//!   mesh with negative elevations and real normals, roads, a raster and
//!   overlay content; over 200,000 triangles each at full scale);
//! - `dense/+47+008.dsf` (full scale only): an overlay of 2,000,000 objects
//!   and 200,000 polygons ([`dense_overlay_tile`]);
//! - beside the text files, the art they name ([`ART`]): the examples'
//!   objects, facades and forests as bundled, and a small texture for
//!   each texture those and the assets name, so that `agkit check` of the
//!   tree finds no problem (issue 48 item 4);
//! - `agn/<cell>an.agn`: AGN files (written with [`agn::write`](fn@crate::agn::write)) of generic
//!   buildings, vegetation polygons and library objects.
//!
//! It also builds the geometry the placement benchmarks need
//! ([`wiggly_comb`]) and the framing the placement fuzz target uses
//! ([`fuzz_case`], [`fuzz_place`]), and the properties the art fuzz
//! targets hold the readers to ([`fuzz_obj_read`], [`fuzz_fac_read`],
//! [`fuzz_for_read`], [`fuzz_texture_decode`]).

use crate::agn::{self, A2ge, A2geRecords, Agn, Cell, Chunk, Gblr, Group, Guid, Prde, Quad, Rect};
use crate::dsf::{
    self, Dsf, ElevationMode, Entity, NetworkChain, Object, Patch, Polygon, Primitive,
    PrimitiveKind, Raster,
};
use crate::geom::{LocalFrame, LonLat, Xy};
use crate::place::{Params, Placement, Use};
use crate::xp::model::Asset;
use rand::{RngExt, SeedableRng};
use std::fmt::Write as _;
use std::io;
use std::path::Path;

type Rng = rand_chacha::ChaCha8Rng;

/// The example AGB every generated block file is built on.
pub const BLOCK_EXAMPLE: &str = include_str!("../../examples/block/city_block.agb");
/// The example AGS every generated string file is built on.
pub const STRING_EXAMPLE: &str = include_str!("../../examples/string/town_edge.ags");
/// The example AGP every generated point file is built on.
pub const POINT_EXAMPLE: &str = include_str!("../../examples/point/plaza.agp");

/// The art the generated text files name, by the folder they are written
/// in (`text/agb`, `text/ags`, `text/agp`): each example's objects, facades
/// and forests, as bundled beside it; their textures (`../art/…`) are in
/// `text/art`. The textures are [`texture_png`]s, not the examples'
/// pictures (which would make the library 0.6 MB larger).
pub const ART: &[(&str, &[(&str, &str)])] = &[
    (
        "text/agb",
        &[
            (
                "corner_house.obj",
                include_str!("../../examples/block/corner_house.obj"),
            ),
            (
                "terrace_house.obj",
                include_str!("../../examples/block/terrace_house.obj"),
            ),
            ("shed.obj", include_str!("../../examples/block/shed.obj")),
            (
                "row_house.fac",
                include_str!("../../examples/block/row_house.fac"),
            ),
            (
                "backyard_trees.for",
                include_str!("../../examples/block/backyard_trees.for"),
            ),
        ],
    ),
    (
        "text/ags",
        &[
            (
                "house_a.obj",
                include_str!("../../examples/string/house_a.obj"),
            ),
            (
                "house_b.obj",
                include_str!("../../examples/string/house_b.obj"),
            ),
            (
                "corner_house.obj",
                include_str!("../../examples/string/corner_house.obj"),
            ),
            ("wing.obj", include_str!("../../examples/string/wing.obj")),
            ("shed.obj", include_str!("../../examples/string/shed.obj")),
            ("fence.fac", include_str!("../../examples/string/fence.fac")),
            (
                "town_trees.for",
                include_str!("../../examples/string/town_trees.for"),
            ),
        ],
    ),
    (
        "text/agp",
        &[
            (
                "fountain.obj",
                include_str!("../../examples/point/fountain.obj"),
            ),
            ("kiosk.obj", include_str!("../../examples/point/kiosk.obj")),
            (
                "lamp_post.obj",
                include_str!("../../examples/point/lamp_post.obj"),
            ),
            ("bench.obj", include_str!("../../examples/point/bench.obj")),
            (
                "shops_low.fac",
                include_str!("../../examples/point/shops_low.fac"),
            ),
            ("hedge.fac", include_str!("../../examples/point/hedge.fac")),
            (
                "plaza_trees.for",
                include_str!("../../examples/point/plaza_trees.for"),
            ),
        ],
    ),
];

/// The textures the generated text files and [`ART`] name, by folder.
pub const TEXTURES: &[(&str, &[&str])] = &[
    ("text/agb", &["city_block.png", "city_block_NML.png"]),
    ("text/ags", &["town_edge.png", "town_edge_LIT.png"]),
    ("text/agp", &["plaza.png", "plaza_LIT.png", "plaza_NML.png"]),
    ("text/art", &["objects.png", "facades.png", "trees.png"]),
];

/// Sides of a [`texture_png`], in pixels (a power of two, as Laminar asks).
pub const TEXTURE_SIDE: u32 = 16;

/// A small PNG standing in for the texture `name`: [`TEXTURE_SIDE`]
/// pixels square, opaque, of one colour drawn from the name (the same name
/// gives the same bytes).
pub fn texture_png(name: &str) -> Vec<u8> {
    let h = name.bytes().fold(0x811c_9dc5u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    });
    let [r, g, b, _] = h.to_le_bytes();
    let pixel = [r / 2 + 64, g / 2 + 64, b / 2 + 64, 255];
    let rgba = pixel.repeat((TEXTURE_SIDE * TEXTURE_SIDE) as usize);
    crate::out::png::encode_rgba(TEXTURE_SIDE, TEXTURE_SIDE, &rgba)
        .expect("a 16 × 16 RGBA image encodes")
}

/// How many files [`ART`] and [`TEXTURES`] hold.
fn art_files() -> usize {
    ART.iter().map(|(_, f)| f.len()).sum::<usize>()
        + TEXTURES.iter().map(|(_, t)| t.len()).sum::<usize>()
}

/// How much to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scale {
    /// A few MB: quick runs and tests.
    Small,
    /// ≥ 100 MB of text, 300 DSF tiles, 10,000 AGN files, two base-mesh
    /// tiles and a dense overlay.
    Full,
}

impl Scale {
    fn counts(self) -> Counts {
        match self {
            Scale::Small => Counts {
                agp: 40,
                agb: 20,
                ags: 20,
                dsf: 6,
                agn: 200,
                meshes: 1,
                mesh_grid: 64,
                dense: None,
            },
            Scale::Full => Counts {
                agp: 3000,
                agb: 1500,
                ags: 1500,
                dsf: 300,
                agn: 10_000,
                meshes: 2,
                mesh_grid: 480,
                dense: Some((2_000_000, 200_000)),
            },
        }
    }
}

struct Counts {
    agp: usize,
    agb: usize,
    ags: usize,
    dsf: usize,
    agn: usize,
    /// Base-mesh tiles and their vertices per side.
    meshes: usize,
    mesh_grid: usize,
    /// Objects and polygons of the dense overlay tile, if any.
    dense: Option<(usize, usize)>,
}

impl Scale {
    /// How many files [`generate`] writes at this scale.
    pub fn files(self) -> usize {
        let n = self.counts();
        n.agp
            + n.agb
            + n.ags
            + n.dsf
            + n.agn
            + n.meshes
            + usize::from(n.dense.is_some())
            + art_files()
    }
}

/// What [`generate`] wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    /// Autogen text files written.
    pub text_files: usize,
    /// Their total size in bytes.
    pub text_bytes: u64,
    /// Art files written beside them ([`ART`], [`TEXTURES`]).
    pub art_files: usize,
    /// Their total size in bytes.
    pub art_bytes: u64,
    /// DSF tiles written.
    pub dsf_files: usize,
    /// Their total size in bytes.
    pub dsf_bytes: u64,
    /// AGN files written.
    pub agn_files: usize,
    /// Their total size in bytes.
    pub agn_bytes: u64,
}

/// Writes the input set for `seed` at `scale` under `dir` (created if
/// missing). The same seed and scale always give the same bytes.
pub fn generate(seed: u64, dir: &Path, scale: Scale) -> io::Result<Summary> {
    generate_with(seed, dir, scale, &mut || {})
}

/// [`generate`], calling `written` after each of the [`Scale::files`]
/// files (for a progress bar).
pub fn generate_with(
    seed: u64,
    dir: &Path,
    scale: Scale,
    written: &mut dyn FnMut(),
) -> io::Result<Summary> {
    let n = scale.counts();
    let mut s = Summary::default();
    let mut put = |sub: &str, name: String, bytes: &[u8]| -> io::Result<u64> {
        let d = dir.join(sub);
        std::fs::create_dir_all(&d)?;
        crate::fsutil::write_atomic(&d.join(name), bytes)?;
        written();
        Ok(bytes.len() as u64)
    };
    // Each file kind has its own stream so changing one count keeps the rest.
    let mut rng = Rng::seed_from_u64(seed ^ 0xA6B0);
    for i in 0..n.agb {
        let size = rng.random_range(20_000..90_000);
        let text = agb_text(&mut rng, size);
        s.text_bytes += put("text/agb", format!("block_{i:05}.agb"), text.as_bytes())?;
        s.text_files += 1;
    }
    let mut rng = Rng::seed_from_u64(seed ^ 0xA650);
    for i in 0..n.ags {
        let size = rng.random_range(8_000..30_000);
        let text = ags_text(&mut rng, size);
        s.text_bytes += put("text/ags", format!("string_{i:05}.ags"), text.as_bytes())?;
        s.text_files += 1;
    }
    let mut rng = Rng::seed_from_u64(seed ^ 0xA690);
    for i in 0..n.agp {
        let size = rng.random_range(2_000..20_000);
        let text = agp_text(&mut rng, size);
        s.text_bytes += put("text/agp", format!("point_{i:05}.agp"), text.as_bytes())?;
        s.text_files += 1;
    }
    for (dir, files) in ART {
        for (name, text) in *files {
            s.art_bytes += put(dir, (*name).to_string(), text.as_bytes())?;
            s.art_files += 1;
        }
    }
    for (dir, names) in TEXTURES {
        for name in *names {
            s.art_bytes += put(dir, (*name).to_string(), &texture_png(name))?;
            s.art_files += 1;
        }
    }
    let mut rng = Rng::seed_from_u64(seed ^ 0xD5F);
    for i in 0..n.dsf {
        let (lat, lon) = (40 + (i / 30) as i32, -10 + (i % 30) as i32);
        let count = rng.random_range(100..400);
        let dsf = dsf_tile(&mut rng, lat, lon, count);
        let bytes = dsf::build(&dsf, &dsf::BuildOptions::default())
            .map_err(|e| io::Error::other(format!("building a DSF: {e:?}")))?;
        s.dsf_bytes += put("dsf", format!("{lat:+03}{lon:+04}.dsf"), &bytes)?;
        s.dsf_files += 1;
    }
    let mut rng = Rng::seed_from_u64(seed ^ 0xBA5E);
    for i in 0..n.meshes {
        let (lat, lon) = (-34 - i as i32, -58 + i as i32);
        let d = base_mesh_tile(&mut rng, lat, lon, n.mesh_grid, 150);
        let bytes = dsf::build(&d, &dsf::BuildOptions::default())
            .map_err(|e| io::Error::other(format!("building a base mesh: {e:?}")))?;
        s.dsf_bytes += put("basemesh", format!("{lat:+03}{lon:+04}.dsf"), &bytes)?;
        s.dsf_files += 1;
    }
    if let Some((objects, polygons)) = n.dense {
        let mut rng = Rng::seed_from_u64(seed ^ 0xDE45);
        let d = dense_overlay_tile(&mut rng, 47, 8, objects, polygons);
        let bytes = dsf::build(&d, &dsf::BuildOptions::default())
            .map_err(|e| io::Error::other(format!("building the dense overlay: {e:?}")))?;
        s.dsf_bytes += put("dense", "+47+008.dsf".into(), &bytes)?;
        s.dsf_files += 1;
    }
    let mut rng = Rng::seed_from_u64(seed ^ 0xA61);
    for i in 0..n.agn {
        // Cells of a compact patch around 47 N 8 E, one per file.
        let cell = Cell::new(6000 + (i % 100) as u32, 2500 + (i / 100) as u32)
            .map_err(|e| io::Error::other(e.to_string()))?;
        let items = rng.random_range(10..80);
        let bytes =
            agn::write(&agn_file(&mut rng, items)).map_err(|e| io::Error::other(e.to_string()))?;
        s.agn_bytes += put("agn", cell.name(), &bytes)?;
        s.agn_files += 1;
    }
    Ok(s)
}

/// Inserts `lines` after the first line equal to `after`.
fn insert_after(example: &str, after: &str, lines: &str) -> String {
    let mut out = String::with_capacity(example.len() + lines.len() + 1);
    let mut done = false;
    for l in example.lines() {
        out.push_str(l);
        out.push('\n');
        if !done && l.trim() == after {
            out.push_str(lines);
            done = true;
        }
    }
    debug_assert!(done, "anchor line `{after}` is missing from the example");
    out
}

/// Random annotations inside the pixel box `x0..x1 × y0..y1`, about `bytes`
/// long: draped and graded objects (indices `0..objects`) and trees
/// (vegetation layer `layer`).
fn annotations(rng: &mut Rng, bytes: usize, b: [u32; 4], objects: u32, layer: u32) -> String {
    let mut s = String::with_capacity(bytes + 64);
    let [x0, y0, x1, y1] = b;
    while s.len() < bytes {
        let (x, y) = (rng.random_range(x0..x1), rng.random_range(y0..y1));
        let rot = rng.random_range(0..360);
        let _ = match rng.random_range(0..4) {
            0 => writeln!(
                s,
                "OBJ_DRAPED {x} {y} {rot} {}",
                rng.random_range(0..objects)
            ),
            1 => writeln!(
                s,
                "OBJ_GRADED {x} {y} {rot} {}",
                rng.random_range(0..objects)
            ),
            2 => writeln!(
                s,
                "OBJ_DRAPED {x} {y} {rot} {} 1 {}",
                rng.random_range(0..objects),
                rng.random_range(2..7)
            ),
            _ => writeln!(s, "TREE {x} {y} {rot} {} {layer}", rng.random_range(4..12)),
        };
    }
    s
}

/// An AGB of about `bytes` bytes: the city-block example with extra
/// annotations in its first grid.
pub fn agb_text(rng: &mut Rng, bytes: usize) -> String {
    let extra = bytes.saturating_sub(BLOCK_EXAMPLE.len());
    let lines = annotations(rng, extra, [40, 40, 1750, 1000], 3, 0);
    insert_after(BLOCK_EXAMPLE, "TREE_LINE 40 1000 1750 1000 1", &lines)
}

/// An AGS of about `bytes` bytes: the town-edge example with extra
/// annotations in its third tile.
pub fn ags_text(rng: &mut Rng, bytes: usize) -> String {
    let extra = bytes.saturating_sub(STRING_EXAMPLE.len());
    let lines = annotations(rng, extra, [1030, 10, 1530, 500], 5, 1);
    insert_after(STRING_EXAMPLE, "TREE 1280 320 0 9 1", &lines)
}

/// An AGP of about `bytes` bytes: the plaza example with extra annotations
/// in its first variant.
pub fn agp_text(rng: &mut Rng, bytes: usize) -> String {
    let extra = bytes.saturating_sub(POINT_EXAMPLE.len());
    let lines = annotations(rng, extra, [20, 20, 490, 490], 4, 0);
    insert_after(POINT_EXAMPLE, "TREE_LINE 464 96 464 384 1", &lines)
}

/// The bounds of the tile at `lat`, `lon` (first, as X-Plane wants), the
/// planet and the creation agent.
fn tile_properties(lat: i32, lon: i32, agent: &str) -> Vec<(String, String)> {
    vec![
        ("sim/west".into(), lon.to_string()),
        ("sim/south".into(), lat.to_string()),
        ("sim/east".into(), (lon + 1).to_string()),
        ("sim/north".into(), (lat + 1).to_string()),
        ("sim/planet".into(), "earth".into()),
        ("sim/creation_agent".into(), agent.into()),
    ]
}

/// A DSF tile at `lat`, `lon` (south-west corner) with `polygons` AGB
/// rectangles and AGS polygons (4–12 vertices, 30–200 m across) and half as many AGP
/// points.
pub fn dsf_tile(rng: &mut Rng, lat: i32, lon: i32, polygons: usize) -> Dsf {
    let (w, s) = (f64::from(lon), f64::from(lat));
    let mut dsf = Dsf {
        properties: tile_properties(lat, lon, "agkit gen"),
        object_defs: vec!["lib/g10/autogen/plaza.agp".into()],
        polygon_defs: vec![
            "lib/g10/autogen/city_block.agb".into(),
            "lib/g10/autogen/town_edge.ags".into(),
        ],
        ..Dsf::default()
    };
    for _ in 0..polygons {
        let centre = [
            w + rng.random_range(0.01..0.99),
            s + rng.random_range(0.01..0.99),
        ];
        let frame = LocalFrame::new(centre);
        // AGB: a rotated rectangle (one winding of 4 points, as the
        // simulator wants); AGS: a 4–12 sided ring with one spawning contour.
        let def = rng.random_range(0..2u32);
        let k = if def == 0 { 4 } else { rng.random_range(4..13) };
        let r = rng.random_range(15.0..100.0);
        let turn = rng.random_range(0.0..std::f64::consts::FRAC_PI_2);
        let mut ring = Vec::with_capacity(2 * k);
        for j in 0..k {
            let a = turn + std::f64::consts::TAU * j as f64 / k as f64;
            let rr = if def == 0 {
                r
            } else {
                r * rng.random_range(0.8..1.0)
            };
            let p = frame.to_lonlat([rr * a.cos(), rr * a.sin()]);
            ring.extend_from_slice(&p);
        }
        let low = if def == 0 {
            rng.random_range(0..2u16)
        } else {
            1
        };
        let param = (rng.random_range(0..10u16) << 8) | low;
        dsf.entities.push(Entity::Polygon(Polygon {
            def,
            param,
            depth: 2,
            windings: vec![ring],
        }));
    }
    for _ in 0..polygons / 2 {
        dsf.entities.push(Entity::Object(Object {
            def: 0,
            lon: w + rng.random_range(0.0..1.0),
            lat: s + rng.random_range(0.0..1.0),
            heading: f64::from(rng.random_range(0..360)),
            elevation: None,
            mode: ElevationMode::Draped,
        }));
    }
    dsf
}

/// Triangles of the terrain mesh of [`base_mesh_tile`] at `grid` vertices
/// per side: `2 (grid - 1)²`.
pub fn mesh_triangles(grid: usize) -> usize {
    2 * grid.saturating_sub(1).pow(2)
}

/// The synthetic landscape of a base-mesh tile, in metres above sea level
/// at `(x, y)` in 0..1 across the tile: rolling hills, a ridge, and a sea
/// basin below 0 m in the south-west corner.
fn landscape(x: f64, y: f64, phase: f64) -> f64 {
    use std::f64::consts::TAU;
    let hills = 180.0 * (TAU * (1.3 * x + phase)).sin() * (TAU * (0.9 * y - phase)).cos()
        + 60.0 * (TAU * (4.1 * x + 2.7 * y + phase)).sin()
        + 18.0 * (TAU * (11.0 * x - 9.0 * y)).sin();
    let ridge = 900.0 * (-((x - 0.7).powi(2) + (y - 0.65).powi(2)) * 18.0).exp();
    let basin = 260.0 * (-((x * x + y * y) * 9.0)).exp();
    hills + ridge + 250.0 - basin * 2.0
}

/// A base-mesh tile at `lat`, `lon` (south-west corner), as a global
/// scenery tile is made: a terrain mesh of `grid × grid` vertices (see
/// [`mesh_triangles`]; 318 gives over 200,000 triangles) whose elevations
/// go below sea level in a basin and whose normals follow the slopes,
/// split into blocks of 16 × 16 cells drawn as triangle strips (edge
/// blocks as loose triangles, peaks as fans), one patch per terrain type
/// (water below 0 m, then grass, forest and rock by height), plus an
/// overlay patch of depth 7 with texture coordinates; a road network of
/// chains with junctions and shape points; an `elevation` raster; and the
/// AGP/AGB/AGS content of [`dsf_tile`] (`polygons` polygons).
pub fn base_mesh_tile(rng: &mut Rng, lat: i32, lon: i32, grid: usize, polygons: usize) -> Dsf {
    let grid = grid.max(2);
    let mut dsf = dsf_tile(rng, lat, lon, polygons);
    dsf.properties = tile_properties(lat, lon, "agkit gen (base mesh)");
    dsf.terrain_defs = ["water", "grass", "forest", "rock", "shore_overlay"]
        .iter()
        .map(|t| format!("lib/g10/terrain10/{t}.ter"))
        .collect();
    dsf.network_defs = vec!["lib/g10/roads.net".into()];
    dsf.raster_defs = vec!["elevation".into()];
    let (w, s) = (f64::from(lon), f64::from(lat));
    let phase = rng.random_range(0.0..1.0);
    let last = (grid - 1) as f64;
    let height = |i: usize, j: usize| landscape(i as f64 / last, j as f64 / last, phase);
    // Metres per grid step east and north (for the normals).
    let step_y = 111_320.0 / last;
    let step_x = step_y * (s + 0.5).to_radians().cos();
    let vertex = |i: usize, j: usize| -> [f64; 5] {
        let h = height(i, j);
        let dx =
            (height((i + 1).min(grid - 1), j) - height(i.saturating_sub(1), j)) / (2.0 * step_x);
        let dy =
            (height(i, (j + 1).min(grid - 1)) - height(i, j.saturating_sub(1))) / (2.0 * step_y);
        let len = (dx * dx + 1.0 + dy * dy).sqrt();
        // X points east, Z south (DSF notes §2.5).
        [
            w + i as f64 / last,
            s + j as f64 / last,
            h,
            -dx / len,
            dy / len,
        ]
    };
    let terrain = |h: f64, i: usize, j: usize| -> u32 {
        let wobble = 40.0 * ((i * 7 + j * 13) % 11) as f64 / 11.0;
        if h < 0.0 {
            0
        } else if h + wobble < 280.0 {
            1
        } else if h + wobble < 600.0 {
            2
        } else {
            3
        }
    };
    // Blocks of 16 x 16 cells, grouped by terrain.
    const BLOCK: usize = 16;
    let cells = grid - 1;
    let mut by_terrain: Vec<Vec<Primitive>> = vec![Vec::new(); 4];
    let mut bj = 0;
    while bj < cells {
        let mut bi = 0;
        while bi < cells {
            let (i1, j1) = ((bi + BLOCK).min(cells), (bj + BLOCK).min(cells));
            let (ci, cj) = ((bi + i1) / 2, (bj + j1) / 2);
            let t = terrain(height(ci, cj), ci, cj) as usize;
            let edge = bi == 0 || bj == 0 || i1 == cells || j1 == cells;
            let prims = &mut by_terrain[t];
            if edge {
                // Loose triangles, 85 per primitive.
                let mut v = Vec::new();
                for j in bj..j1 {
                    for i in bi..i1 {
                        // Two counter-clockwise triangles split by the
                        // south-west to north-east diagonal.
                        for tri in [
                            [(i, j), (i + 1, j), (i + 1, j + 1)],
                            [(i, j), (i + 1, j + 1), (i, j + 1)],
                        ] {
                            for (x, y) in tri {
                                v.extend_from_slice(&vertex(x, y));
                            }
                        }
                        if v.len() >= 5 * 3 * 84 {
                            prims.push(Primitive {
                                kind: PrimitiveKind::Triangles,
                                vertices: std::mem::take(&mut v),
                            });
                        }
                    }
                }
                if !v.is_empty() {
                    prims.push(Primitive {
                        kind: PrimitiveKind::Triangles,
                        vertices: v,
                    });
                }
            } else {
                // One strip per row of cells (north vertex first, so the
                // triangles are counter-clockwise).
                for j in bj..j1 {
                    let mut v = Vec::with_capacity(5 * 2 * (i1 - bi + 1));
                    for i in bi..=i1 {
                        v.extend_from_slice(&vertex(i, j + 1));
                        v.extend_from_slice(&vertex(i, j));
                    }
                    prims.push(Primitive {
                        kind: PrimitiveKind::Strip,
                        vertices: v,
                    });
                }
            }
            bi = i1;
        }
        bj = (bj + BLOCK).min(cells);
    }
    for (t, prims) in by_terrain.into_iter().enumerate() {
        if !prims.is_empty() {
            dsf.entities.push(Entity::Patch(Patch {
                def: t as u32,
                flags: 1,
                lod_near: 0.0,
                lod_far: -1.0,
                depth: 5,
                primitives: prims,
            }));
        }
    }
    // An overlay patch (depth 7: s, t) of fans around a few grid points.
    let mut fans = Vec::new();
    for _ in 0..12 {
        let (ci, cj) = (rng.random_range(1..grid - 1), rng.random_range(1..grid - 1));
        let ring = [
            (1, 0),
            (1, 1),
            (0, 1),
            (-1, 1),
            (-1, 0),
            (-1, -1),
            (0, -1),
            (1, -1),
            (1, 0),
        ];
        let mut v = Vec::new();
        for (di, dj) in std::iter::once((0, 0)).chain(ring) {
            let (i, j) = ((ci as i64 + di) as usize, (cj as i64 + dj) as usize);
            v.extend_from_slice(&vertex(i, j));
            v.extend_from_slice(&[(di + 1) as f64 / 2.0, (dj + 1) as f64 / 2.0]);
        }
        fans.push(Primitive {
            kind: PrimitiveKind::Fan,
            vertices: v,
        });
    }
    dsf.entities.push(Entity::Patch(Patch {
        def: 4,
        flags: 2,
        lod_near: 0.0,
        lod_far: 20_000.0,
        depth: 7,
        primitives: fans,
    }));
    // Roads: polylines across the tile with a junction every few points.
    let mut node = 1u32;
    for _ in 0..40 {
        let (mut x, mut y) = (rng.random_range(0.05..0.95), rng.random_range(0.05..0.95));
        let dir = rng.random_range(0.0..std::f64::consts::TAU);
        let mut points = Vec::new();
        let n = rng.random_range(20..120);
        for k in 0..n {
            let junction = k == 0 || k + 1 == n || k % 9 == 0;
            let h = landscape(x, y, phase).max(0.0);
            points.extend_from_slice(&[
                w + x,
                s + y,
                h,
                if junction { f64::from(node) } else { 0.0 },
            ]);
            if junction {
                node += 1;
            }
            let turn = dir + rng.random_range(-0.3..0.3);
            x = (x + 0.004 * turn.cos()).clamp(0.0, 1.0);
            y = (y + 0.004 * turn.sin()).clamp(0.0, 1.0);
        }
        dsf.entities.push(Entity::Network(NetworkChain {
            def: 0,
            subtype: rng.random_range(1..6),
            depth: 4,
            points,
        }));
    }
    // The elevation raster: 16-bit signed, post-centred, south row first.
    let side = 201u32;
    let mut data = Vec::with_capacity((side * side * 2) as usize);
    for j in 0..side {
        for i in 0..side {
            let h = landscape(
                f64::from(i) / f64::from(side - 1),
                f64::from(j) / f64::from(side - 1),
                phase,
            );
            data.extend_from_slice(&(h.round() as i16).to_le_bytes());
        }
    }
    dsf.rasters.push(Raster {
        name: "elevation".into(),
        version: 1,
        bpp: 2,
        flags: 1 | 4,
        width: side,
        height: side,
        scale: 1.0,
        offset: 0.0,
        data,
    });
    dsf
}

/// The bundled demo tile (`examples/dsf/autogen_demo.txt`: an AGP, an AGB
/// and an AGS naming the example assets by their paths in `examples/`).
pub const DEMO_TILE_TEXT: &str = include_str!("../../examples/dsf/autogen_demo.txt");

/// A busy autogen tile: the demo tile's three uses `copies` times over, on
/// a grid of 0.004° × 0.003° steps north-east of the demo's own (52 × 52
/// copies stay inside tile +47+013). Placed with `--scenery examples`,
/// 2,667 copies are 8,001 uses holding about 400,000 items, a DSF of
/// about 190 KB: the picture benchmark's input (`benches/picture.rs`).
pub fn busy_demo_tile(copies: usize) -> io::Result<Vec<u8>> {
    let (demo, opts) = dsf::from_text(DEMO_TILE_TEXT, &mut no_raster)
        .map_err(|e| io::Error::other(format!("the demo tile: {e}")))?;
    let side = (copies as f64).sqrt().ceil().max(1.0) as usize;
    let mut dsf = Dsf {
        entities: Vec::with_capacity(demo.entities.len() * copies),
        ..demo.clone()
    };
    for i in 0..copies {
        let (dx, dy) = (0.004 * (i % side) as f64, 0.003 * (i / side) as f64);
        for e in &demo.entities {
            dsf.entities.push(match e {
                Entity::Object(o) => Entity::Object(Object {
                    lon: o.lon + dx,
                    lat: o.lat + dy,
                    ..o.clone()
                }),
                Entity::Polygon(p) => {
                    let depth = p.depth.max(1);
                    let windings = (p.windings.iter())
                        .map(|w| {
                            w.chunks(depth)
                                .flat_map(|pt| {
                                    pt.iter().enumerate().map(|(k, v)| match k {
                                        0 => v + dx,
                                        1 => v + dy,
                                        _ => *v,
                                    })
                                })
                                .collect()
                        })
                        .collect();
                    Entity::Polygon(Polygon {
                        windings,
                        ..p.clone()
                    })
                }
                other => other.clone(),
            });
        }
    }
    dsf::build(&dsf, &opts).map_err(|e| io::Error::other(format!("building the busy tile: {e:?}")))
}

/// A tile (+47+013) naming its definitions `objects` and `blocks`: one
/// object of each of `objects` (0.0004° apart from 13.5° E, 47.5° N) and
/// one autogen block (a 0.0008° square, north of them) of each of
/// `blocks`. Names are taken as they are, whatever they hold: the input of
/// the tests and the benchmark of long and odd names in pictures
/// (`tests/picture_text.rs`, `benches/picture.rs`).
pub fn named_tile(objects: &[String], blocks: &[String]) -> io::Result<Vec<u8>> {
    let objects_at = (0..objects.len()).map(|i| {
        Entity::Object(Object {
            def: i as u32,
            lon: 13.5 + i as f64 * 0.0004,
            lat: 47.5,
            heading: 0.0,
            elevation: None,
            mode: ElevationMode::Draped,
        })
    });
    let blocks_at = (0..blocks.len()).map(|i| {
        let (w, s, d) = (13.5 + i as f64 * 0.001, 47.501, 0.0008);
        Entity::Polygon(Polygon {
            def: i as u32,
            param: 0,
            depth: 2,
            windings: vec![vec![w, s, w + d, s, w + d, s + d, w, s + d]],
        })
    });
    let bounds = [("west", 13), ("south", 47), ("east", 14), ("north", 48)];
    let dsf = Dsf {
        properties: (bounds.iter())
            .map(|(k, v)| (format!("sim/{k}"), v.to_string()))
            .collect(),
        object_defs: objects.to_vec(),
        polygon_defs: blocks.to_vec(),
        entities: objects_at.chain(blocks_at).collect(),
        ..Dsf::default()
    };
    dsf::build(&dsf, &Default::default())
        .map_err(|e| io::Error::other(format!("building the named tile: {e:?}")))
}
/// The polygon definitions of [`dense_overlay_tile`] that are AGS files
/// (`lib/g10/polygons/p0.ags` … `p2.ags`).
const DENSE_AGS: std::ops::Range<u32> = 3..6;

/// A dense overlay tile at `lat`, `lon`: `objects` objects of 40
/// definitions and `polygons` AGB/AGS/facade/forest polygons of 12
/// definitions, clustered around towns, in the mixed order a naive writer
/// would list them (what `dsf build` groups). 2,000,000 and 200,000 make
/// a DSF2Text of about 150 MB. Each AGS polygon's parameter says one
/// spawning winding, or all (the `p0.ags` … `p2.ags` definitions), as `check`
/// wants of it.
pub fn dense_overlay_tile(
    rng: &mut Rng,
    lat: i32,
    lon: i32,
    objects: usize,
    polygons: usize,
) -> Dsf {
    let (w, s) = (f64::from(lon), f64::from(lat));
    let mut properties = tile_properties(lat, lon, "agkit gen (dense overlay)");
    properties.push(("sim/overlay".into(), "1".into()));
    let mut dsf = Dsf {
        properties,
        object_defs: (0..40)
            .map(|k| format!("lib/g10/objects/building_{k:02}.obj"))
            .collect(),
        polygon_defs: ["agb", "ags", "fac", "for"]
            .iter()
            .flat_map(|e| (0..3).map(move |k| format!("lib/g10/polygons/p{k}.{e}")))
            .collect(),
        ..Dsf::default()
    };
    let towns: Vec<[f64; 3]> = (0..60)
        .map(|_| {
            [
                rng.random_range(0.05..0.95),
                rng.random_range(0.05..0.95),
                rng.random_range(0.005..0.05),
            ]
        })
        .collect();
    let near = |rng: &mut Rng| {
        let t = towns[rng.random_range(0..towns.len())];
        let (a, r) = (
            rng.random_range(0.0..std::f64::consts::TAU),
            t[2] * rng.random_range(0.0f64..1.0).sqrt(),
        );
        [
            w + (t[0] + r * a.cos()).clamp(0.0, 1.0),
            s + (t[1] + r * a.sin()).clamp(0.0, 1.0),
        ]
    };
    let every = (objects / polygons.max(1)).max(1);
    let mut made = 0;
    for k in 0..objects {
        let p = near(rng);
        dsf.entities.push(Entity::Object(Object {
            def: rng.random_range(0..40),
            lon: p[0],
            lat: p[1],
            heading: rng.random_range(0.0..360.0),
            elevation: None,
            mode: ElevationMode::Draped,
        }));
        if k % every == 0 && made < polygons {
            made += 1;
            let c = near(rng);
            let frame = LocalFrame::new(c);
            let def = rng.random_range(0..12u32);
            let n = if def < 3 { 4 } else { rng.random_range(4..13) };
            let r = rng.random_range(10.0..60.0);
            let ring: Vec<f64> = (0..n)
                .flat_map(|j| {
                    let a = std::f64::consts::TAU * j as f64 / n as f64;
                    frame.to_lonlat([r * a.cos(), r * a.sin()])
                })
                .collect();
            // An AGS's low byte counts its tile-spawning windings: this
            // one has one, so 0 (all) or 1 (`check` warns past that,
            // DSF023). The draw is the same for every kind, so the tile
            // keeps its other bytes.
            let drawn: u16 = rng.random_range(0..2048);
            let param = if DENSE_AGS.contains(&def) {
                (drawn & 0xFF00) | (drawn & 1)
            } else {
                drawn
            };
            dsf.entities.push(Entity::Polygon(Polygon {
                def,
                param,
                depth: 2,
                windings: vec![ring],
            }));
        }
    }
    dsf
}

fn guid(rng: &mut Rng) -> Guid {
    let mut g = [0u8; 16];
    for b in &mut g {
        *b = rng.random();
    }
    Guid(g)
}

/// Centre-based cell coordinates (−0.5..0.5) safely inside the cell.
fn centre_xy(rng: &mut Rng) -> (f32, f32) {
    (rng.random_range(-0.45..0.45), rng.random_range(-0.45..0.45))
}

/// An AGN file with about `items` buildings, vegetation polygons and
/// library objects.
pub fn agn_file(rng: &mut Rng, items: usize) -> Agn {
    let buildings = (0..items)
        .map(|_| {
            let (x, y) = centre_xy(rng);
            let (dx, dy) = (rng.random_range(0.002..0.01), 0.0);
            Quad {
                x,
                y,
                dx,
                dy,
                ox: 0.0,
                oy: rng.random_range(0.002..0.01),
            }
        })
        .collect();
    let polygons = (0..items / 8 + 1)
        .map(|_| {
            let (x, y) = (rng.random_range(0.05..0.9), rng.random_range(0.05..0.9));
            let r = rng.random_range(0.01..0.04);
            let mut v: Vec<[f32; 2]> = (0..6)
                .map(|j| {
                    let a = std::f32::consts::TAU * j as f32 / 6.0;
                    [x + r * a.cos(), y + r * a.sin()]
                })
                .collect();
            v.push(v[0]);
            v
        })
        .collect();
    let objects = (0..items / 4 + 1)
        .map(|_| {
            let (x, y) = centre_xy(rng);
            Rect {
                x,
                y,
                dx: 0.001,
                dy: 0.0,
            }
        })
        .collect();
    Agn {
        chunks: vec![
            Chunk::Vers(agn::Vers {
                version: agn::DEFAULT_VERSION,
            }),
            Chunk::Gbld(Group {
                children: vec![Chunk::Gblr(Gblr {
                    roof: Guid::default(),
                    buildings,
                })],
            }),
            Chunk::Preg(Group {
                children: vec![Chunk::Prde(Prde {
                    vegetation: guid(rng),
                    polygons,
                })],
            }),
            Chunk::Agn2(Group {
                children: vec![Chunk::A2ge(A2ge {
                    object: guid(rng),
                    records: A2geRecords::Short(objects),
                })],
            }),
        ],
    }
}

/// A counter-clockwise "comb" polygon of about `n` vertices in local metres:
/// teeth 40 m wide with 40 m gaps, vertices every 20 m along their long
/// sides with up to ±3 m of sideways wiggle. The area stays compact (about
/// 13 km across at 100k vertices) while the outline grows with `n`.
pub fn wiggly_comb(seed: u64, n: usize) -> Vec<Xy> {
    let mut rng = Rng::seed_from_u64(seed);
    let per_side = (n as f64).sqrt().ceil().max(2.0) as usize;
    let teeth = (n / (2 * per_side)).max(1);
    let len = per_side as f64 * 20.0;
    let mut wiggle = |x: f64| x + rng.random_range(-3.0..3.0);
    let mut ring = vec![[0.0, -40.0], [teeth as f64 * 80.0 - 40.0, -40.0]];
    for t in (0..teeth).rev() {
        let (left, right) = (t as f64 * 80.0, t as f64 * 80.0 + 40.0);
        // Up the right side, down the left side.
        for j in 0..per_side {
            ring.push([wiggle(right), j as f64 * 20.0]);
        }
        ring.push([right, len]);
        ring.push([left, len]);
        for j in (1..per_side).rev() {
            ring.push([wiggle(left), j as f64 * 20.0]);
        }
        if t > 0 {
            ring.push([left, 0.0]);
            ring.push([left - 40.0, 0.0]);
        }
    }
    ring
}

/// Turns local metres into lon/lat around 8 E 47 N.
pub fn to_lonlat(ring: &[Xy]) -> Vec<LonLat> {
    let frame = LocalFrame::new([8.0, 47.0]);
    ring.iter().map(|&p| frame.to_lonlat(p)).collect()
}

/// One placement run decoded from fuzzer bytes by [`fuzz_case`].
#[derive(Debug, Clone)]
pub struct FuzzCase {
    /// The parsed asset.
    pub asset: Asset,
    /// Where it is placed.
    pub use_: Use,
    /// The run's settings.
    pub params: Params,
}

/// Where the extension block of [`fuzz_case`] may put the polygon's local
/// frame (lon, lat): ordinary places, the antimeridian, near the poles, and
/// off the Earth (which placement must refuse).
const FUZZ_ORIGINS: [[f64; 2]; 8] = [
    [8.0, 47.0],
    [179.9995, 0.0],
    [-179.9995, -60.0],
    [0.0, 89.9995],
    [13.0, -89.9995],
    [190.0, 10.0],
    [0.0, 91.0],
    [f64::NAN, 0.0],
];

/// Tree spacings (metres) the extension block may choose.
const FUZZ_SPACINGS: [f64; 8] = [10.0, 0.1, 1e-9, 1000.0, 0.0, -1.0, f64::NAN, 1e300];

/// The limits the fuzz target places under: tight, as a server would pass,
/// so that a run stays well inside libFuzzer's time and memory limits
/// whatever it is fed — a run that does not is a finding.
pub fn fuzz_limits() -> crate::limits::Limits {
    crate::limits::Limits {
        max_placed_items: 100_000,
        max_work: 1_000_000,
        max_mesh_elements: 1_000_000,
        max_texture_pixels: 1 << 20,
        ..crate::limits::Limits::default()
    }
}

/// Reads `n` little-endian i16 pairs (decimetres) from the front of
/// `bytes`, each scaled by `scale`; the rest.
fn fuzz_ring(bytes: &[u8], n: usize, scale: f64) -> Option<(Vec<Xy>, &[u8])> {
    let (coords, rest) = bytes.split_at_checked(4 * n)?;
    let ring = coords
        .chunks_exact(4)
        .map(|c| {
            let x = i16::from_le_bytes([c[0], c[1]]);
            let y = i16::from_le_bytes([c[2], c[3]]);
            [f64::from(x) / 10.0 * scale, f64::from(y) / 10.0 * scale]
        })
        .collect();
    Some((ring, rest))
}

/// Decodes fuzzer bytes into a placement run, or `None` when they do not
/// make one (too short, or the asset text does not parse).
///
/// Layout: byte 0 the DSF parameter's low byte, byte 1 the height byte
/// (and the AGP heading), byte 2 the seed, byte 3 the vertex count `n`
/// (3 + byte), then `n` pairs of little-endian i16 in decimetres (local
/// metres around 8 E 47 N), then the asset text (lossy UTF-8).
///
/// Between the pairs and the text an extension block may come, marked by
/// a byte `0xFF` (which no asset text starts with): a byte of flags (bits
/// 0–3 the number of further windings, bit 4 "place the model read
/// leniently", i.e. even with errors), a byte choosing the coordinate scale
/// (×10^(b % 7)), the frame's origin (one of eight, b % 8: 8 E 47 N, the
/// antimeridian, near either pole, off the Earth) and a
/// byte choosing the density (1 + b % 6) and the tree spacing
/// (one of eight from 10 m to NaN, b / 32); then each further winding as a count byte
/// and its pairs. Every run places under [`fuzz_limits`].
pub fn fuzz_case(data: &[u8]) -> Option<FuzzCase> {
    let (head, rest) = data.split_at_checked(4)?;
    let n = 3 + usize::from(head[3]);
    let (first, mut rest) = fuzz_ring(rest, n, 1.0)?;
    let mut windings = vec![first];
    let (mut origin, mut lenient) = (FUZZ_ORIGINS[0], false);
    let mut params = Params {
        seed: u64::from(head[2]),
        limits: fuzz_limits(),
        ..Params::default()
    }
    .with_dsf_param(u16::from(head[1]) << 8 | u16::from(head[0]));
    if let [0xFF, flags, scale, at, knobs, more @ ..] = rest {
        let scale = 10f64.powi(i32::from(*scale % 7));
        windings[0].iter_mut().flatten().for_each(|v| *v *= scale);
        origin = FUZZ_ORIGINS[usize::from(*at % 8)];
        lenient = flags & 0x10 != 0;
        params.density = 1 + knobs % 6;
        params.tree_spacing = FUZZ_SPACINGS[usize::from(knobs / 32)];
        rest = more;
        for _ in 0..(flags & 0x0F) {
            let (count, more) = rest.split_first()?;
            let (ring, more) = fuzz_ring(more, 3 + usize::from(*count), scale)?;
            windings.push(ring);
            rest = more;
        }
    }
    let text = String::from_utf8_lossy(rest);
    let asset = if lenient {
        crate::xp::parse_lenient(&text).0?
    } else {
        crate::xp::parse(&text).ok()?
    };
    let frame = LocalFrame::new(origin);
    let use_ = match asset.kind {
        crate::xp::model::Kind::Agp => Use::Point {
            at: origin,
            heading: f64::from(head[1]) * 360.0 / 256.0,
        },
        _ => Use::Polygon {
            windings: windings
                .iter()
                .map(|w| w.iter().map(|&p| frame.to_lonlat(p)).collect())
                .collect(),
        },
    };
    Some(FuzzCase {
        asset,
        use_,
        params,
    })
}

/// Frames `text` (an asset) and a ring (local metres) as [`fuzz_case`]
/// input: seeds for the fuzz corpus and regression tests.
pub fn fuzz_input(low: u8, height: u8, seed: u8, ring: &[Xy], text: &str) -> Vec<u8> {
    let mut out = vec![low, height, seed];
    push_ring(&mut out, ring);
    out.extend_from_slice(text.as_bytes());
    out
}

/// The extension block of [`fuzz_case`]: everything but the windings it
/// adds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FuzzExtension {
    /// Place the model read leniently (with its errors).
    pub lenient: bool,
    /// Coordinates × 10^(scale % 7).
    pub scale: u8,
    /// Index into the origins (mod 8): 0 is 8 E 47 N.
    pub origin: u8,
    /// Density (1 + knobs % 6) and tree spacing (knobs / 32).
    pub knobs: u8,
}

/// [`fuzz_input`] with the extension block: further windings (up to 15,
/// local metres before scaling) and its settings.
pub fn fuzz_input_ext(
    head: [u8; 3],
    windings: &[Vec<Xy>],
    ext: FuzzExtension,
    text: &str,
) -> Vec<u8> {
    let mut out = head.to_vec();
    let (first, more) = windings
        .split_first()
        .map_or((&[][..], &[][..]), |(f, m)| (f.as_slice(), m));
    push_ring(&mut out, first);
    let more = &more[..more.len().min(15)];
    out.extend_from_slice(&[
        0xFF,
        more.len() as u8 | if ext.lenient { 0x10 } else { 0 },
        ext.scale,
        ext.origin,
        ext.knobs,
    ]);
    for w in more {
        let n = w.len().clamp(3, 258);
        out.push((n - 3) as u8);
        push_pairs(&mut out, w, n);
    }
    out.extend_from_slice(text.as_bytes());
    out
}

/// A count byte (3 + byte vertices) and the pairs of `ring`.
fn push_ring(out: &mut Vec<u8>, ring: &[Xy]) {
    let n = ring.len().clamp(3, 258);
    out.push((n - 3) as u8);
    push_pairs(out, ring, n);
}

/// `n` vertices of `ring` (padded with the origin) as i16 decimetres.
fn push_pairs(out: &mut Vec<u8>, ring: &[Xy], n: usize) {
    for i in 0..n {
        let p = ring.get(i).copied().unwrap_or([0.0, 0.0]);
        for v in p {
            let d = (v * 10.0).round().clamp(-32768.0, 32767.0) as i16;
            out.extend_from_slice(&d.to_le_bytes());
        }
    }
}

/// Runs one fuzz case through [`crate::place::place`] and checks what the
/// placement fuzz target holds it to: no panic, every coordinate finite,
/// no more items than [`fuzz_limits`] allow, and a polygon refused before
/// any engine runs when [`crate::place::check_use`] refuses it. True when a
/// placement was made.
///
/// # Panics
/// When a property does not hold (that is the finding).
pub fn fuzz_place(case: &FuzzCase) -> bool {
    let checked = crate::place::check_use(&case.use_, &case.params.limits);
    match crate::place::place(&case.asset, "fuzz", &case.use_, &case.params) {
        Ok(p) => {
            assert!(
                checked.is_ok(),
                "placed a use check_use refuses: {checked:?}"
            );
            assert!(placement_is_finite(&p), "non-finite output: {p:?}");
            assert!(
                p.items() <= case.params.limits.max_placed_items,
                "{} items",
                p.items()
            );
            true
        }
        Err(_) => false,
    }
}

/// What the `dsf_read` fuzz target holds any bytes to: reading and checking
/// never panic; a tile that reads converts to DSF2Text, lists its autogen
/// uses, and goes back through the text reader and the builder; and the raw
/// command parser's commands encode back to the very bytes they came from.
///
/// # Panics
/// When a property does not hold (that is the finding).
pub fn fuzz_dsf_read(data: &[u8]) {
    let _ = crate::dsf::check_bytes(data);
    if let Ok(dsf) = crate::dsf::read(data) {
        let text = crate::dsf::to_text(&dsf, &crate::dsf::TextOptions::default());
        let _ = crate::dsf::autogen_uses(&dsf);
        if let Ok((model, opts)) = crate::dsf::from_text(&text, &mut no_raster)
            && let Ok(bytes) = crate::dsf::build(&model, &opts)
        {
            let _ = crate::dsf::read(&bytes);
        }
    }
    if let Ok(cmds) = crate::dsf::cmd::parse_all(data, 0) {
        let cmds: Vec<_> = cmds.into_iter().map(|(_, c)| c).collect();
        let encoded = crate::dsf::cmd::encode_all(&cmds).expect("parsed commands encode");
        assert_eq!(encoded, data, "commands do not encode back to their bytes");
    }
}

/// What the `dsf_build` fuzz target holds any DSF2Text to: parsing and
/// building end with a model or an error; a model that builds, kept in
/// order or grouped and stripped as `dsf build` writes it, reads back with
/// as many objects, polygons, patches and chains, and the text of what was
/// built parses and builds again.
///
/// # Panics
/// When a property does not hold (that is the finding).
pub fn fuzz_dsf_build(data: &[u8]) {
    use crate::dsf::{self, BuildOptions, Dsf, Entity};
    // Objects, polygons, patches and chains.
    let census = |d: &Dsf| {
        let mut c = [0usize; 4];
        for e in &d.entities {
            match e {
                Entity::Filter(_) => {}
                Entity::Object(_) => c[0] += 1,
                Entity::Polygon(_) => c[1] += 1,
                Entity::Patch(_) => c[2] += 1,
                Entity::Network(_) => c[3] += 1,
            }
        }
        c
    };
    let text = String::from_utf8_lossy(data);
    let Ok((model, opts)) = dsf::from_text(&text, &mut no_raster) else {
        return;
    };
    for group in [false, true] {
        let opts = BuildOptions {
            group,
            strip: group,
            ..opts
        };
        let Ok(bytes) = dsf::build(&model, &opts) else {
            continue;
        };
        let back = dsf::read(&bytes).expect("a built DSF reads");
        assert_eq!(census(&back), census(&model), "entities lost or made");
        let t = dsf::to_text(&back, &dsf::TextOptions::default());
        let (again, o) = dsf::from_text(&t, &mut no_raster).expect("its text parses");
        dsf::build(&again, &o).expect("and builds again");
    }
}

/// What the `obj_read` fuzz target holds any bytes to: reading never
/// panics; an object read has its footprint inside its bounds (seen from
/// above), finite derived values, and a summary that serializes; a file
/// without errors reads with [`crate::obj::read()`] too.
///
/// # Panics
/// When a property does not hold (that is the finding).
pub fn fuzz_obj_read(data: &[u8]) {
    let limits = fuzz_limits();
    let c = crate::obj::check(data, &limits);
    let errors = c.has_errors();
    if let Some(o) = &c.value {
        let fp = o.footprint();
        match o.bounds() {
            Some(b) => {
                for p in &fp {
                    assert!(
                        b.contains([p[0], b.min[1], p[1]], 1e-9),
                        "footprint point {p:?} outside {b:?}"
                    );
                }
            }
            None => assert!(fp.is_empty(), "a footprint without bounds"),
        }
        assert!(o.height().is_none_or(f64::is_finite));
        let summary = crate::obj::summary::Summary::of(o, 0, 0);
        serde_json::to_string(&summary).expect("the summary serializes");
        let _ = summary.to_human();
    }
    assert_eq!(
        crate::obj::read(data, "fuzz.obj", &limits).is_ok(),
        c.value.is_some() && !errors,
        "read and check disagree"
    );
}

/// What the `fac_read` fuzz target holds any bytes to: reading never
/// panics, and a facade read gives its height range, textures, wall
/// choices and a summary that serializes.
///
/// # Panics
/// When a property does not hold.
pub fn fuzz_fac_read(data: &[u8]) {
    let c = crate::fac::check(data, &fuzz_limits());
    if let Some(f) = &c.value {
        if let Some(h) = f.height_range() {
            assert!(!h.min.is_nan(), "a NaN height from {h:?}");
        }
        let summary = crate::fac::summary::Summary::of(f, 0, 0);
        serde_json::to_string(&summary).expect("the summary serializes");
        let _ = summary.to_human();
    }
}

/// What the `for_read` fuzz target holds any bytes to: reading never
/// panics; every layer picks one of its own trees at any draw.
///
/// # Panics
/// When a property does not hold.
pub fn fuzz_for_read(data: &[u8]) {
    let c = crate::forest::check(data, &fuzz_limits());
    if let Some(f) = &c.value {
        for layer in f.layers() {
            for r in [0.0, 0.5, 0.999_999, 1.0] {
                if let Some(t) = f.pick(layer, r) {
                    assert_eq!(t.layer, layer, "picked a tree of another layer");
                }
            }
        }
        let summary = crate::forest::summary::Summary::of(f, 0, 0);
        serde_json::to_string(&summary).expect("the summary serializes");
        let _ = summary.to_human();
    }
}

/// What the `texture_decode` fuzz target holds any bytes to: probing and
/// decoding never panic; an image decoded has the size its header gives,
/// within the limits, 4 bytes a pixel.
///
/// # Panics
/// When a property does not hold.
pub fn fuzz_texture_decode(data: &[u8]) {
    let limits = fuzz_limits();
    let probed = crate::texture::probe(data);
    if let Ok(img) = crate::texture::decode(data, &limits) {
        let info = probed.expect("a decoded texture probes");
        assert_eq!((img.width, img.height), (info.width, info.height));
        let pixels = img.width as u64 * img.height as u64;
        assert!(pixels <= limits.max_texture_pixels);
        assert_eq!(img.rgba.len() as u64, pixels * 4);
    }
    let _ = crate::texture::check(data, &limits);
}

/// The raster loader of the DSF fuzz properties: no raster files exist.
fn no_raster(_: &str) -> Result<Vec<u8>, String> {
    Err("no rasters".into())
}

/// True when every coordinate, height and heading in `p` is finite.
pub fn placement_is_finite(p: &Placement) -> bool {
    let pts = |v: &[[f64; 2]]| v.iter().flatten().all(|c| c.is_finite());
    p.origin.iter().all(|c| c.is_finite())
        && p.polygon.iter().all(|w| pts(w))
        && p.tiles.iter().all(|t| {
            pts(&t.polygon)
                && pts(&t.lonlat)
                && pts(&t.uv)
                && pts(&t.stop_points)
                && t.ground_point
                    .is_none_or(|g| g.iter().all(|c| c.is_finite()))
        })
        && p.objects.iter().all(|o| {
            [o.x, o.y, o.lon, o.lat, o.heading, o.height]
                .iter()
                .all(|c| c.is_finite())
        })
        && p.facades
            .iter()
            .all(|f| f.height.is_finite() && pts(&f.polygon) && pts(&f.lonlat))
        && p.trees.iter().all(|t| {
            [t.x, t.y, t.lon, t.lat, t.width, t.heading]
                .iter()
                .all(|c| c.is_finite())
        })
        && p.corners
            .iter()
            .all(|c| [c.x, c.y, c.turn].iter().all(|v| v.is_finite()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comb_is_counter_clockwise_and_near_the_asked_size() {
        for n in [1_000, 10_000, 100_000] {
            let ring = wiggly_comb(1, n);
            assert!(
                ring.len() > n * 9 / 10 && ring.len() < n * 11 / 10,
                "{n}: {}",
                ring.len()
            );
            let area: f64 = (0..ring.len())
                .map(|i| {
                    let (a, b) = (ring[i], ring[(i + 1) % ring.len()]);
                    a[0] * b[1] - b[0] * a[1]
                })
                .sum();
            assert!(area > 0.0, "clockwise at {n}");
        }
    }

    #[test]
    fn fuzz_framing_round_trips() {
        let ring = [[0.0, 0.0], [100.0, 0.0], [100.0, 80.0], [0.0, 80.0]];
        let bytes = fuzz_input(1, 2, 3, &ring, BLOCK_EXAMPLE);
        let case = fuzz_case(&bytes).expect("the block example frames");
        assert_eq!(case.params.seed, 3);
        assert_eq!(case.params.low, 1);
        assert_eq!(case.params.height, 8.0);
        match case.use_ {
            Use::Polygon { windings } => assert_eq!(windings[0].len(), 4),
            u => panic!("{u:?}"),
        }
    }

    #[test]
    fn fuzz_extension_frames_holes_scale_origin_and_knobs() {
        let outer = vec![[0.0, 0.0], [100.0, 0.0], [100.0, 80.0], [0.0, 80.0]];
        let hole = vec![[10.0, 10.0], [10.0, 20.0], [20.0, 20.0]];
        let ext = FuzzExtension {
            lenient: true,
            scale: 2,
            origin: 3,
            knobs: 3 * 32 + 4,
        };
        let text = STRING_EXAMPLE.replace("TEXTURE_WIDTH 128", "TEXTURE_WIDTH 1e9");
        let bytes = fuzz_input_ext([0, 0, 9], &[outer, hole.clone(), hole], ext, &text);
        let case = fuzz_case(&bytes).expect("frames");
        assert_eq!((case.params.seed, case.params.density), (9, 5));
        assert_eq!(case.params.tree_spacing, FUZZ_SPACINGS[3]);
        assert_eq!(case.params.limits, fuzz_limits());
        // Read leniently: the absurd width is in the model.
        assert_eq!(case.asset.common.texture_width.as_ref().unwrap().value, 1e9);
        let Use::Polygon { windings } = &case.use_ else {
            panic!("{:?}", case.use_)
        };
        assert_eq!(windings.len(), 3);
        let frame = LocalFrame::new(FUZZ_ORIGINS[3]);
        let far = frame.to_local(windings[0][1]);
        assert!(
            (far[0] - 10_000.0).abs() < 0.1 && far[1].abs() < 0.1,
            "{far:?}"
        );
        // Without the extension the same ring decodes as before.
        let plain = fuzz_input(
            0,
            0,
            9,
            &[[0.0, 0.0], [100.0, 0.0], [100.0, 80.0]],
            STRING_EXAMPLE,
        );
        assert!(fuzz_case(&plain).is_some());
    }

    #[test]
    fn generated_text_has_the_asked_size() {
        let mut rng = Rng::seed_from_u64(7);
        let t = agb_text(&mut rng, 50_000);
        assert!((50_000..51_000).contains(&t.len()), "{}", t.len());
    }
}
