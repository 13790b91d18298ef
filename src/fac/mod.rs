//! X-Plane facades (`.fac`, versions 800 and 1000): how X-Plane extrudes a
//! polygon into a building, fence or wall.
//!
//! Two kinds share the format (Laminar's facade specification,
//! <https://developer.x-plane.com/article/x-plane-10-facade-fac-file-format-specification/>):
//!
//! - **type 1** (the only kind of version 800, still valid in 1000): per
//!   level of detail (`LOD`), walls cut from the texture (`WALL`, `SCALE`,
//!   `LEFT`/`CENTER`/`RIGHT` panels across, `BOTTOM`/`MIDDLE`/`TOP` floors
//!   up) and a roof (`ROOF` texture points);
//! - **type 2** (version 1000, any `FLOOR`): per floor, wall segments made
//!   of meshes (`SEGMENT`, `MESH`, `VERTEX`, `IDX`), walls choosing
//!   segments by `SPELLING`, and roof heights (`ROOF_HEIGHT`).
//!
//! [`read`](mod@read) turns text into a [`Facade`] with diagnostics (codes
//! `FAC0001`…, the table [`RULES`]); [`Facade::height_range`],
//! [`Facade::wall_texture`] and [`Facade::roof_texture`] are what a
//! placement needs. The reading follows what X-Plane's tools accept
//! (xptools `WED_ResourceMgr::GetFac`), see `docs/art.md`.

use serde::Serialize;
use std::collections::BTreeMap;

pub mod build;
pub mod floors;
mod height;
pub mod layout;
pub mod panels;
pub mod read;
pub mod roof;
pub mod shape;
pub mod shape2;
pub mod spelling;
pub mod summary;
pub mod walls;

pub use read::{check, read};

crate::diag::rules! {
    HEADER = "FAC0001", Error, "the header is not `A`/`I`, `800` or `1000`, `FACADE`";
    MISSING_ARG = "FAC0002", Error, "a directive has too few arguments";
    NOT_A_NUMBER = "FAC0003", Error, "an argument that must be a number is not one";
    NOT_FINITE = "FAC0004", Error, "a number is NaN or infinite";
    UNKNOWN_DIRECTIVE = "FAC0005", Warning, "unknown directive (X-Plane ignores it)";
    OUT_OF_PLACE = "FAC0006", Error, "a directive outside what it belongs to (a wall property before WALL, a MESH before SEGMENT, …)";
    OVER_COUNT = "FAC0007", Warning, "more VERTEX or IDX rows than their MESH declares (the counts only reserve memory)";
    UNDER_COUNT = "FAC0008", Warning, "fewer VERTEX or IDX rows than their MESH declares";
    INDEX_RANGE = "FAC0009", Error, "a mesh index points past the vertices its mesh has so far";
    SEGMENT_RANGE = "FAC0010", Error, "a SPELLING names a segment its floor does not have";
    OBJECT_RANGE = "FAC0011", Error, "an ATTACH or ROOF_OBJ index past the facade's OBJ list";
    TOO_LARGE = "FAC0012", Error, "the meshes declare more vertices and indices than the limit";
    NEWER_KEYWORD = "FAC0013", Warning, "a type-2 (version 1000) directive in a version 800 facade";
    NO_WALLS = "FAC0014", Warning, "the facade has no wall: X-Plane draws nothing but a roof";
    NO_PATH = "FAC0015", Note, "a TEXTURE directive without a file name";
    OUT_OF_RANGE = "FAC0016", Error, "a number outside the range agkit can draw (beyond ±1e6, or a divisor closer to 0 than 1e-3)";
}

/// The versions the header may name (`GetFac` accepts 800 and 1000).
pub const VERSIONS: &[u32] = &[800, 1000];

/// A facade.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Facade {
    /// The header's version, 800 or 1000.
    pub version: u32,
    /// `RING`: a closed ring (a building) rather than an open chain (a
    /// fence); default true.
    pub ring: bool,
    /// `TWO_SIDED`: walls drawn from both sides; default false.
    pub two_sided: bool,
    /// `GRADED`: the facade follows the terrain (version 1000).
    pub graded: bool,
    /// `DRAPED`: the facade is draped onto the terrain (version 1000).
    pub draped: bool,
    /// Texture paths by role, as written: `wall`, `roof` (after
    /// `SHADER_ROOF`), `wall_lit`, `roof_lit`, `wall_normal`,
    /// `roof_normal`. Before any `SHADER_ROOF` a `TEXTURE` is the wall's.
    pub textures: BTreeMap<String, String>,
    /// Type 1: the levels of detail with their walls and roof.
    pub lods: Vec<FacadeLod>,
    /// Type 1: `FLOORS_MIN` (default 1).
    pub floors_min: f64,
    /// Type 1: `FLOORS_MAX` (default 999: no limit).
    pub floors_max: f64,
    /// Type 2: the floors.
    pub floors: Vec<Floor>,
    /// Type 2: the objects (`OBJ`) segments and roofs attach, by index.
    pub objects: Vec<String>,
    /// Type 2: `ROOF_SCALE s t`, metres per texture.
    pub roof_scale: Option<[f64; 2]>,
    /// Type 1: `ROOF_SCALE s1 t1 s_ctr t_ctr s2 t2 rsx rsy`, the roof's
    /// texture window and the metres it spans (a roof of its own: xptools
    /// `WED_ResourceMgr::GetFac` sets `has_roof` for it).
    pub roof_window: Option<RoofWindow>,
    /// `DOUBLED`: every wall quad is also drawn facing inwards.
    pub doubled: bool,
    /// Type 2: `NO_ROOF_MESH`.
    pub no_roof_mesh: bool,
    /// `FACADE_SCRAPER` rules (counted; the skyscraper objects are in
    /// [`Facade::scraper_objects`]).
    pub scrapers: usize,
    /// Objects `FACADE_SCRAPER_MODEL` names.
    pub scraper_objects: Vec<String>,
}

/// One type-1 level of detail.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct FacadeLod {
    /// Nearest distance, metres.
    pub near: f64,
    /// Farthest distance, metres.
    pub far: f64,
    /// The walls, in file order: X-Plane picks for each side of the
    /// polygon the first whose width range holds the side's length.
    pub walls: Vec<Wall>,
    /// `ROOF s t` texture points (fractions of the texture).
    pub roof: Vec<[f64; 2]>,
}

/// A type-1 `ROOF_SCALE`: the part of the texture the roof uses and how
/// many metres it spans, centred on a point of the window.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RoofWindow {
    /// `s1 t1 s2 t2`: the window's corners, fractions of the texture
    /// (after `TEX_SIZE`); `t1` may exceed `t2` (a flipped window).
    pub st: [f64; 4],
    /// `s_ctr t_ctr`: the point of the window at the roof's centre.
    pub center: [f64; 2],
    /// `rsx rsy`: metres the window spans across and up.
    pub metres: [f64; 2],
}

/// One type-1 wall.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Wall {
    /// Shortest side, metres, this wall is chosen for.
    pub min_width: f64,
    /// Longest side, metres.
    pub max_width: f64,
    /// The heading range (degrees) the wall is chosen for, when given.
    pub headings: Option<[f64; 2]>,
    /// The wall's name, when given.
    pub name: Option<String>,
    /// `SCALE x y`: metres the whole texture spans across and up.
    pub scale: [f64; 2],
    /// `ROOF_SLOPE`: degrees the top floor leans in.
    pub roof_slope: f64,
    /// `ROOF_SLOPE … SLANT`: the texture follows the slope.
    pub slant: bool,
    /// `BASEMENT_DEPTH` (fraction of the texture below ground, after
    /// `TEX_SIZE`).
    pub basement: f64,
    /// `LEFT`/`CENTER`/`RIGHT` panels across, in file order.
    pub across: Vec<Panel>,
    /// `BOTTOM`/`MIDDLE`/`TOP` floors up, in file order.
    pub up: Vec<Panel>,
}

/// Which part of a type-1 wall a panel is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Part {
    /// `LEFT`.
    Left,
    /// `CENTER` (repeated to fill the width).
    Center,
    /// `RIGHT`.
    Right,
    /// `BOTTOM`.
    Bottom,
    /// `MIDDLE` (repeated to fill the height).
    Middle,
    /// `TOP`.
    Top,
}

/// One panel: a band of the texture (fractions, after `TEX_SIZE`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Panel {
    /// Which part.
    pub part: Part,
    /// Start and end of the band.
    pub range: [f64; 2],
}

impl Wall {
    /// How many panels of `part` the wall has.
    pub fn count(&self, part: Part) -> usize {
        self.across
            .iter()
            .chain(&self.up)
            .filter(|p| p.part == part)
            .count()
    }
}

/// One type-2 floor.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Floor {
    /// `FLOOR name`.
    pub name: String,
    /// `SEGMENT`s, by index.
    pub segments: Vec<Segment>,
    /// `SEGMENT_CURVED`s, by index.
    pub curved: Vec<Segment>,
    /// The wall choice rules, in file order.
    pub walls: Vec<WallRule>,
    /// `ROOF_HEIGHT` values (metres), in file order.
    pub roof_heights: Vec<f64>,
}

/// One type-2 segment: meshes and attached objects.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Segment {
    /// The meshes.
    pub meshes: Vec<Mesh>,
    /// Objects attached (`ATTACH_DRAPED`, `ATTACH_GRADED`): indices into
    /// [`Facade::objects`].
    pub attached: Vec<usize>,
}

/// One type-2 mesh: what its rows hold (the mesh type and reader facades
/// share with forests).
pub use crate::xptext::MeshBlock as Mesh;

/// One type-2 wall choice rule.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct WallRule {
    /// `[min width, max width, min heading, max heading]` of `WALL` and
    /// each `WALL_RULE`: the wall is chosen when any one holds.
    pub filters: Vec<[f64; 4]>,
    /// The wall's name, when given.
    pub name: Option<String>,
    /// `SPELLING`s: segment indices left to right.
    pub spellings: Vec<Vec<usize>>,
}

/// The heights a facade can have, metres.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct HeightRange {
    /// The lowest.
    pub min: f64,
    /// The highest; `None` when only the placement limits it (a type-1
    /// facade with repeated middle floors and no `FLOORS_MAX`).
    pub max: Option<f64>,
}

impl Facade {
    /// True for a type-2 facade (any `FLOOR`).
    pub fn is_type2(&self) -> bool {
        !self.floors.is_empty()
    }

    /// The wall texture (`TEXTURE` outside the roof shader).
    pub fn wall_texture(&self) -> Option<&str> {
        self.textures.get("wall").map(String::as_str)
    }

    /// True when the facade draws a roof: type 1 with `ROOF` points or a
    /// `ROOF_SCALE`, type 2 with roof heights and no `NO_ROOF_MESH` (the
    /// rule and its reference: [`roof::has_roof`]).
    pub fn has_roof(&self) -> bool {
        roof::has_roof(self)
    }

    /// True when a sloped top panel keeps its texture upright (`ROOF_SLOPE
    /// … SLANT`, or a slope of ±90° or more, on any wall): its height is
    /// then the panel's times the cosine of the slope, and the roof inset
    /// uses the sine (xptools `GetFac` keeps this one flag per facade,
    /// `tex_correct_slope`).
    pub fn slant(&self) -> bool {
        self.lods.iter().flat_map(|l| &l.walls).any(|w| w.slant)
    }

    /// The roof texture: the roof shader's `TEXTURE`, else the wall
    /// texture when the facade has a roof (as WorldEditor draws it).
    pub fn roof_texture(&self) -> Option<&str> {
        match self.textures.get("roof") {
            Some(t) => Some(t),
            None if self.has_roof() => self.wall_texture(),
            None => None,
        }
    }

    /// The heights the facade can take: for type 2, the top roof height of
    /// each floor (or, without roofs, the tallest segment mesh); for type
    /// 1, the height of its first wall (nearest level) built with
    /// `FLOORS_MIN` and `FLOORS_MAX` floors, as X-Plane stacks bottom,
    /// middle and top floors. `None` when there is nothing to measure.
    pub fn height_range(&self) -> Option<HeightRange> {
        if self.is_type2() {
            height::type2(self)
        } else {
            height::type1(self)
        }
    }

    /// The walls of the nearest type-1 level, or of type-2 floor 0, as
    /// `(name, min width, max width)`: the wall choice rules.
    pub fn wall_choices(&self) -> Vec<(Option<&str>, f64, f64)> {
        if let Some(f) = self.floors.first() {
            f.walls
                .iter()
                .map(|w| {
                    let f0 = w.filters.first().copied().unwrap_or_default();
                    (w.name.as_deref(), f0[0], f0[1])
                })
                .collect()
        } else {
            self.lods
                .first()
                .map(|l| {
                    l.walls
                        .iter()
                        .map(|w| (w.name.as_deref(), w.min_width, w.max_width))
                        .collect()
                })
                .unwrap_or_default()
        }
    }
}
