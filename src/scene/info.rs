//! What views may show about a node of the scene and about the scene: one
//! typed record per kind of item, serialised once — into the glTF node's
//! `extras` (which the previewer's `web/view3d.js` reads) and wherever a
//! view wants it. The field names are the JSON's.

use crate::place::PlacementKind;
use crate::place::art::ArtState;
use serde::Serialize;

/// A longitude and latitude, in degrees.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Origin {
    /// Longitude.
    pub lon: f64,
    /// Latitude.
    pub lat: f64,
}

impl From<[f64; 2]> for Origin {
    fn from(p: [f64; 2]) -> Origin {
        Origin {
            lon: p[0],
            lat: p[1],
        }
    }
}

/// What a placement is: its asset, kind, seed, origin and the counts of
/// what it places.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlacementInfo<'a> {
    /// The asset placed.
    pub asset: &'a str,
    /// Point, block, string, or what the DSF names.
    pub kind: PlacementKind,
    /// The seed of its random draws.
    pub seed: u64,
    /// Where its local frame is.
    pub origin: Origin,
    /// Objects placed.
    pub objects: usize,
    /// Facades placed.
    pub facades: usize,
    /// Trees placed.
    pub trees: usize,
    /// Draped polygons placed.
    pub draped: usize,
    /// Lines placed.
    pub lines: usize,
}

/// The art a node draws: its path as the asset names it, the file it
/// resolved to (by its name in the scene), and how the lookup went.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ArtInfo<'a> {
    /// The path the asset names.
    pub art: Option<&'a str>,
    /// The file it resolved to, by its name in the scene.
    #[serde(skip_serializing_if = "Skip::skip")]
    pub art_file: Skip<Option<String>>,
    /// How the lookup went ("found", "missing", …, or "not looked up").
    #[serde(skip_serializing_if = "Skip::skip")]
    pub art_state: Skip<&'static str>,
}

/// A field some kinds have and others leave out of their JSON.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Skip<T> {
    /// Written.
    Is(T),
    /// Left out.
    No,
}

impl<T> Skip<T> {
    fn skip(&self) -> bool {
        matches!(self, Skip::No)
    }
}

/// What views may show about one node, by the kind of item it draws
/// (`"item"` in the JSON).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "item", rename_all = "lowercase")]
pub enum NodeInfo<'a> {
    /// A whole placement (its node holds its items).
    Placement {
        /// The placement.
        #[serde(flatten)]
        placement: PlacementInfo<'a>,
        /// Its index in the scene.
        index: usize,
    },
    /// The ground tiles of a placement, merged.
    Ground {
        /// The asset placed.
        asset: &'a str,
        /// The placement's index.
        index: usize,
        /// The asset lines of the tiles drawn.
        source_lines: Vec<usize>,
        /// Its height: the ground, 0.
        height: f64,
        /// The ground texture.
        #[serde(flatten)]
        art: ArtInfo<'a>,
        /// Tiles drawn.
        tiles: usize,
    },
    /// One object.
    Object {
        /// The asset placed.
        asset: &'a str,
        /// The object's index in its placement.
        index: usize,
        /// The asset line that placed it.
        source_line: usize,
        /// The object's own height, when its art is read.
        height: Option<f64>,
        /// The height it stands at.
        base: f64,
        /// Its heading, degrees.
        heading: f64,
        /// How its height is taken.
        mode: &'a str,
        /// Its art.
        #[serde(flatten)]
        art: ArtInfo<'a>,
    },
    /// One facade.
    Facade {
        /// The asset placed.
        asset: &'a str,
        /// The facade's index in its placement.
        index: usize,
        /// The asset line that placed it.
        source_line: usize,
        /// The height drawn.
        height: f64,
        /// The height asked for.
        asked_height: f64,
        /// The floor chosen.
        floor: Option<&'a str>,
        /// Its art.
        #[serde(flatten)]
        art: ArtInfo<'a>,
        /// How it is drawn when not as walls.
        #[serde(skip_serializing_if = "Option::is_none")]
        drawn: Option<&'static str>,
    },
    /// The trees of a placement, merged.
    Trees {
        /// The asset placed.
        asset: &'a str,
        /// The placement's index.
        index: usize,
        /// The asset lines of the trees.
        source_lines: Vec<usize>,
        /// The tallest tree.
        height: f64,
        /// Trees drawn.
        trees: usize,
        /// The forest.
        #[serde(flatten)]
        art: ArtInfo<'a>,
    },
    /// One tree.
    Tree {
        /// The asset placed.
        asset: &'a str,
        /// The tree's index in its placement.
        index: usize,
        /// The asset line that placed it.
        source_line: usize,
        /// Its height.
        height: f64,
        /// Its width.
        width: f64,
        /// Its kind in the forest.
        tree: Option<&'a str>,
        /// The forest.
        #[serde(flatten)]
        art: ArtInfo<'a>,
    },
    /// One draped polygon.
    Draped {
        /// The asset placed.
        asset: &'a str,
        /// The polygon's index in its placement.
        index: usize,
        /// The DSF entity.
        entity: usize,
        /// Its holes.
        holes: usize,
        /// How its texture is laid: "planes" (the DSF's) or "scale".
        uv: &'static str,
        /// Its texture heading, degrees.
        heading: Option<f64>,
        /// Its art.
        #[serde(flatten)]
        art: ArtInfo<'a>,
        /// The texture.
        texture: Option<&'a str>,
    },
    /// One painted line.
    Line {
        /// The asset placed.
        asset: &'a str,
        /// The line's index in its placement.
        index: usize,
        /// The DSF entity.
        entity: usize,
        /// The winding of the entity.
        winding: usize,
        /// A closed line.
        closed: bool,
        /// Its width drawn, metres.
        width: f64,
        /// Its art.
        #[serde(flatten)]
        art: ArtInfo<'a>,
        /// The texture.
        texture: Option<&'a str>,
    },
    /// An autogen use not placed, drawn at its point.
    Unplaced {
        /// The asset named.
        asset: &'a str,
        /// The placement's index.
        index: usize,
        /// Its kind.
        kind: PlacementKind,
        /// Why it is not placed.
        why: Option<&'a str>,
    },
    /// One airport of the tile: its runways, helipads and pavement.
    Airport {
        /// Its ID.
        icao: &'a str,
        /// Its name.
        name: &'a str,
        /// The apt.dat it was taken from.
        file: String,
        /// Its header row's line there.
        line: usize,
        /// Each shape drawn, with its row's line.
        parts: Vec<AirportPart>,
        /// Triangles drawn.
        triangles: usize,
    },
    /// The terrain under the placements, from the ground they stand on.
    Terrain {
        /// The ground, in words (the mesh file, an airport's elevation, or
        /// flat).
        ground: Option<String>,
        /// Triangles drawn.
        triangles: usize,
        /// The elevation the scene's z = 0 stands for, metres.
        datum: f64,
    },
}

/// One shape of an airport node ([`crate::scene::airports::Shape`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AirportPart {
    /// What it is: `runway`, `displaced threshold`, `blast pad`, `water
    /// runway`, `helipad`, `pavement`.
    pub part: &'static str,
    /// The runway's ends (`09/27`), the helipad's designator or the
    /// pavement's description.
    pub name: String,
    /// Its surface, in words.
    pub surface: &'static str,
    /// `file:line` of its row.
    pub source: String,
}

/// What views may show about the scene: the origin, the frame, the
/// placements drawn.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SceneInfo<'a> {
    /// Always "agkit".
    pub generator: &'static str,
    /// The scene's origin.
    pub origin: Origin,
    /// The axes, in words.
    pub frame: &'static str,
    /// The placements drawn.
    pub placements: Vec<PlacementInfo<'a>>,
}

/// The words of an art lookup's state, "not looked up" when none was.
pub fn state_words(s: Option<ArtState>) -> &'static str {
    s.map_or("not looked up", ArtState::describe)
}
