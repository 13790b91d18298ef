//! The typed model of the three X-Plane autogen text formats (AGP, AGB, AGS).
//!
//! Spec-level plain data: no I/O, no parsing. Every item keeps the 1-based
//! `line` of the directive it came from so that diagnostics and placements
//! (`source_line`) can point back at the file. Values the spec lets an author
//! omit are `Option`s here; the resolved defaults are available through
//! methods (e.g. [`Common::metres_per_pixel`], [`StringProps::crease`]).
//!
//! Pixel coordinates are texture pixels with x to the right and y up, as in
//! the specs (`TILE left bottom right top`).

use serde::Serialize;

/// A pixel position `(x, y)` on the texture.
pub type Px = [f64; 2];

/// Which of the three formats a file is (decided by the header, not the
/// extension).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// `AG_POINT`, an `.agp` file.
    Agp,
    /// `AG_BLOCK`, an `.agb` file.
    Agb,
    /// `AG_STRING`, an `.ags` file.
    Ags,
}

impl Kind {
    /// The header keyword (`AG_POINT`, `AG_BLOCK`, `AG_STRING`).
    pub fn header(self) -> &'static str {
        match self {
            Kind::Agp => "AG_POINT",
            Kind::Agb => "AG_BLOCK",
            Kind::Ags => "AG_STRING",
        }
    }

    /// The usual file extension without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            Kind::Agp => "agp",
            Kind::Agb => "agb",
            Kind::Ags => "ags",
        }
    }
}

/// A value with the line it was read from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Lined<T> {
    /// The value.
    pub value: T,
    /// 1-based source line.
    pub line: usize,
}

/// A whole autogen asset of any of the three kinds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Asset {
    /// Which format.
    pub kind: Kind,
    /// Directives every autogen file may use.
    pub common: Common,
    /// Tiles of an AGP or AGS in file order (empty for AGB, which uses grids).
    pub tiles: Vec<Tile>,
    /// AGB-only data (`Some` exactly when `kind == Agb`).
    pub block: Option<BlockProps>,
    /// AGS-only data (`Some` exactly when `kind == Ags`).
    pub string: Option<StringProps>,
    /// Metadata kept in comments: `#object_wed …`, `#wed_text …`.
    pub meta: Vec<Meta>,
    /// Directives this model does not know, in order, with their text.
    pub unknown: Vec<Unknown>,
}

/// Metadata carried in a whole-line comment that some tools read.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Meta {
    /// The word after `#`, e.g. `object_wed` or `wed_text`.
    pub key: String,
    /// The rest of the line after the key, trimmed.
    pub value: String,
    /// 1-based line.
    pub line: usize,
}

/// A directive the model does not know, kept verbatim.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Unknown {
    /// The first token.
    pub keyword: String,
    /// The remaining tokens joined by single spaces (empty when there are
    /// none): one string per directive, not one per token, so a hostile line
    /// of a million arguments costs its own size once. See [`Unknown::arg_list`].
    pub args: String,
    /// 1-based line.
    pub line: usize,
}

impl Unknown {
    /// The remaining tokens one by one.
    pub fn arg_list(&self) -> impl Iterator<Item = &str> {
        self.args.split(' ').filter(|a| !a.is_empty())
    }
}

/// Directives common to all autogen (agp spec, "Autogen Point Commands", and
/// the shader directives shared with other X-Plane art assets).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Common {
    /// `TEXTURE path`.
    pub texture: Option<Lined<String>>,
    /// `TEXTURE_LIT path`.
    pub texture_lit: Option<Lined<String>>,
    /// `TEXTURE_NORMAL [ratio] path`.
    pub texture_normal: Option<Lined<TextureNormal>>,
    /// `TEXTURE_SCALE width_px height_px`.
    pub texture_scale: Option<Lined<[f64; 2]>>,
    /// `TEXTURE_WIDTH metres`.
    pub texture_width: Option<Lined<f64>>,
    /// `TEXTURE_HEIGHT metres` (when present the pixels need not be square).
    pub texture_height: Option<Lined<f64>>,
    /// `MESH_SHADER …` arguments verbatim.
    pub mesh_shader: Option<Lined<Vec<String>>>,
    /// `DECAL_LIB path` lines.
    pub decal_lib: Vec<Lined<String>>,
    /// `DECAL_PARAMS…` family lines: keyword and numeric arguments.
    pub decal_params: Vec<Lined<DecalParams>>,
    /// `NO_BLEND [cutoff]`.
    pub no_blend: Option<Lined<Option<f64>>>,
    /// `DITHER_ALPHA a b`: a standard-shader option of the base tile (the
    /// AGP specification: "standard shading options apply") that draws its
    /// alpha dithered instead of blended, the two numbers tuning the
    /// dithering; Laminar's XPlaneForExporter writes `DITHER_ALPHA 0.1 0.5`.
    /// Drawing only: placement does not use it.
    pub dither_alpha: Option<Lined<[f64; 2]>>,
    /// `LAYER_GROUP`: group name and offset (either argument order accepted).
    pub layer_group: Option<Lined<LayerGroup>>,
    /// `TILE_LOD metres` (default 20 km).
    pub tile_lod: Option<Lined<f64>>,
    /// `SLOPE_LIMIT min_pitch max_pitch min_roll max_roll`.
    pub slope_limit: Option<Lined<[f64; 4]>>,
    /// `HIDE_TILES` (AGP) or `HIDE_TILE` (AGS) seen.
    pub hide_tiles: Option<usize>,
    /// `OBJECT path` in order; annotations refer to them by index.
    pub objects: Vec<Lined<String>>,
    /// `FACADE path` in order.
    pub facades: Vec<Lined<String>>,
    /// `VEGETATION path` (only one allowed).
    pub vegetation: Option<Lined<String>>,
}

impl Common {
    /// Metres per pixel horizontally and vertically, with the defaults the
    /// simulator's tools use when a directive is missing.
    ///
    /// The specification requires `TEXTURE_SCALE` and `TEXTURE_WIDTH`, but
    /// WorldEditor's autogen reader (`WED_ResourceMgr::GetAGP` in xptools'
    /// `WED_ResourceMgr.cpp`) starts from a texture of 1 × 1 pixels that is
    /// 1 m wide and 1 m high (`tex_s = tex_t = 1`, `tex_x = tex_y = 1`) and
    /// lets each directive replace its part. So:
    ///
    /// - horizontal: `TEXTURE_WIDTH` (default 1 m) over the `TEXTURE_SCALE`
    ///   width (default 1 px);
    /// - vertical: `TEXTURE_HEIGHT` over the `TEXTURE_SCALE` height when
    ///   `TEXTURE_HEIGHT` is given; else square pixels (the horizontal value)
    ///   when `TEXTURE_WIDTH` is given; else 1 m over the height.
    ///
    /// With neither directive one pixel is one metre. `None` only when a
    /// `TEXTURE_SCALE` size it divides by is zero.
    pub fn metres_per_pixel(&self) -> Option<[f64; 2]> {
        let [sw, sh] = self.texture_scale_px();
        if sw == 0.0 {
            return None;
        }
        let width = self.texture_width.as_ref().map_or(1.0, |w| w.value);
        let mx = width / sw;
        let my = match (&self.texture_height, &self.texture_width) {
            (Some(h), _) if sh != 0.0 => h.value / sh,
            (Some(_), _) => return None,
            (None, Some(_)) => mx,
            (None, None) if sh != 0.0 => 1.0 / sh,
            (None, None) => return None,
        };
        Some([mx, my])
    }

    /// The `TEXTURE_SCALE` size in pixels, `[1, 1]` when it is missing (see
    /// [`Common::metres_per_pixel`]).
    pub fn texture_scale_px(&self) -> [f64; 2] {
        self.texture_scale.as_ref().map_or([1.0, 1.0], |s| s.value)
    }

    /// The directives [`Common::metres_per_pixel`] had to default, for
    /// reports: `TEXTURE_SCALE`, `TEXTURE_WIDTH`, both or none.
    pub fn defaulted_scale(&self) -> Vec<&'static str> {
        let mut v = Vec::new();
        if self.texture_scale.is_none() {
            v.push("TEXTURE_SCALE");
        }
        if self.texture_width.is_none() {
            v.push("TEXTURE_WIDTH");
        }
        v
    }

    /// The tile fade distance in metres (`TILE_LOD`, default 20 000).
    pub fn tile_lod_m(&self) -> f64 {
        self.tile_lod.as_ref().map_or(20_000.0, |l| l.value)
    }
}

/// `TEXTURE_NORMAL [ratio] path`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TextureNormal {
    /// Optional scale ratio of the normal map.
    pub ratio: Option<f64>,
    /// Path.
    pub path: String,
}

/// One `DECAL_PARAMS`-family directive.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DecalParams {
    /// The keyword (`DECAL_PARAMS`, `DECAL_PARAMS_PROJ`, …).
    pub keyword: String,
    /// Numeric arguments.
    pub values: Vec<f64>,
    /// Trailing non-numeric arguments (a decal texture path).
    pub rest: Vec<String>,
}

/// `LAYER_GROUP`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LayerGroup {
    /// Group name (default `footprints`).
    pub name: String,
    /// Offset within the group.
    pub offset: i64,
}

/// A tile of an AGP or AGS.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Tile {
    /// The tile id: the `TILE_ID` before it, else its index in file order.
    pub id: i64,
    /// True when the id came from an explicit `TILE_ID`.
    pub explicit_id: bool,
    /// `TILE left bottom right top` in pixels.
    pub rect: [f64; 4],
    /// 1-based line of the `TILE` directive.
    pub line: usize,
    /// `ROTATION n`: quarter turns counter-clockwise.
    pub rotation: Option<Lined<i64>>,
    /// `ANCHOR_PT x y`.
    pub anchor: Option<Lined<Px>>,
    /// `GROUND_PT x y`.
    pub ground: Option<Lined<Px>>,
    /// `CROP_POLY x y …` (clockwise, convex).
    pub crop_poly: Option<Lined<Vec<Px>>>,
    /// `STOP_PT s t` (AGS), in order.
    pub stop_pts: Vec<Lined<Px>>,
    /// `PIVOT_LEAD_PT s t` (AGS).
    pub pivot_lead: Option<Lined<Px>>,
    /// `PIVOT_TRAIL_PT s t` (AGS).
    pub pivot_trail: Option<Lined<Px>>,
    /// Annotations following the tile, in file order.
    pub annotations: Vec<Annotation>,
}

impl Tile {
    /// Width and height in pixels.
    pub fn size_px(&self) -> [f64; 2] {
        [self.rect[2] - self.rect[0], self.rect[3] - self.rect[1]]
    }

    /// The centre of the tile rectangle in pixels.
    pub fn centre_px(&self) -> Px {
        [
            (self.rect[0] + self.rect[2]) / 2.0,
            (self.rect[1] + self.rect[3]) / 2.0,
        ]
    }

    /// `ANCHOR_PT`, else the centre.
    pub fn anchor_px(&self) -> Px {
        self.anchor.as_ref().map_or(self.centre_px(), |a| a.value)
    }

    /// `GROUND_PT`, else the centre.
    pub fn ground_px(&self) -> Px {
        self.ground.as_ref().map_or(self.centre_px(), |a| a.value)
    }

    /// `ROTATION`, default 0.
    pub fn rotation_quarters(&self) -> i64 {
        self.rotation.as_ref().map_or(0, |r| r.value)
    }
}

/// Show levels `[lo, hi]` (1..6) of an object annotation.
pub type ShowLevels = [i64; 2];

/// How an annotated object sits vertically.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "mode", rename_all = "lowercase")]
pub enum ObjMode {
    /// `OBJ_DRAPED`: on the terrain under its origin.
    Draped,
    /// `OBJ_GRADED`: at the terrain height of the tile's ground point.
    Graded,
    /// `OBJ_SCRAPER min max step`.
    Scraper {
        /// AGL height below which the object is not raised.
        min: f64,
        /// AGL height above which it is not raised further.
        max: f64,
        /// Raise step in metres.
        step: f64,
    },
    /// `OBJ_DELTA … height_offset …`: graded plus a vertical offset.
    Delta {
        /// Offset in metres.
        height: f64,
    },
}

impl ObjMode {
    /// `draped`, `graded`, `scraper` or `delta`.
    pub fn name(&self) -> &'static str {
        match self {
            ObjMode::Draped => "draped",
            ObjMode::Graded => "graded",
            ObjMode::Scraper { .. } => "scraper",
            ObjMode::Delta { .. } => "delta",
        }
    }
}

/// An `OBJ_*` annotation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ObjectAnn {
    /// Vertical mode and its values.
    pub mode: ObjMode,
    /// Position in pixels.
    pub at: Px,
    /// Clockwise heading offset in degrees.
    pub heading: f64,
    /// Index into [`Common::objects`].
    pub index: i64,
    /// Optional `[lo hi]` show levels.
    pub show: Option<ShowLevels>,
}

/// A `FAC` or `FAC_WALLS` annotation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FacadeAnn {
    /// Index into [`Common::facades`].
    pub index: i64,
    /// Height in metres.
    pub height: f64,
    /// Clockwise footprint in pixels.
    pub points: Vec<Px>,
    /// Per-point wall types (`FAC_WALLS`), else `None`.
    pub walls: Option<Vec<i64>>,
}

/// A `TREE` annotation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TreeAnn {
    /// Position in pixels.
    pub at: Px,
    /// Clockwise heading in degrees.
    pub heading: f64,
    /// Width in metres.
    pub width: f64,
    /// Forest layer.
    pub layer: i64,
}

/// A `TREE_LINE` annotation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TreeLineAnn {
    /// Start in pixels.
    pub from: Px,
    /// End in pixels.
    pub to: Px,
    /// Forest layer.
    pub layer: i64,
}

/// `GROUND_PT_FORMULA x-ratio x-delta y-ratio y-delta` (AGB).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroundFormula {
    /// Blend ratio along the first side.
    pub x_ratio: f64,
    /// Metres along the first side.
    pub x_delta: f64,
    /// Blend ratio across.
    pub y_ratio: f64,
    /// Metres across (counter-clockwise normal).
    pub y_delta: f64,
}

/// One annotation with its source line.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Annotation {
    /// What it places.
    pub kind: AnnotationKind,
    /// 1-based line.
    pub line: usize,
}

/// What an annotation places.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum AnnotationKind {
    /// `OBJ_DRAPED`, `OBJ_GRADED`, `OBJ_SCRAPER`, `OBJ_DELTA`.
    Object(ObjectAnn),
    /// `FAC`, `FAC_WALLS`.
    Facade(FacadeAnn),
    /// `TREE`.
    Tree(TreeAnn),
    /// `TREE_LINE`.
    TreeLine(TreeLineAnn),
    /// `GROUND_PT_FORMULA` (AGB), applying to the annotation before it.
    GroundFormula(GroundFormula),
}

// ---------------------------------------------------------------- AGB ----

/// AGB-wide properties, grids and spelling sets.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct BlockProps {
    /// `CROP 0|1` (default false).
    pub crop: Option<Lined<bool>>,
    /// `FLIP_180` seen (line).
    pub flip_180: Option<usize>,
    /// Grids in order (index = grid number).
    pub grids: Vec<Grid>,
    /// Spelling sets in order; the first is the default.
    pub spelling_sets: Vec<SpellingSet>,
    /// `DEFINE_SPELLING_S name …`.
    pub named_s: Vec<NamedSpelling>,
    /// `DEFINE_SPELLING_T name …`.
    pub named_t: Vec<NamedSpelling>,
}

impl BlockProps {
    /// Whether tiles are cropped to the DSF polygon.
    pub fn crops(&self) -> bool {
        self.crop.as_ref().is_some_and(|c| c.value)
    }
}

/// A named spelling (`DEFINE_SPELLING_S/T`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NamedSpelling {
    /// The name.
    pub name: String,
    /// Column or row indices.
    pub indices: Vec<i64>,
    /// 1-based line.
    pub line: usize,
}

/// One column (from `CUT_H`) or row (from `CUT_V`) of a grid.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Band {
    /// Left (or bottom) pixel: the cut that opened it.
    pub start: f64,
    /// Right (or top) pixel: the next cut.
    pub end: f64,
    /// `Some(overlap_px)` when `SLOP_H/V` made it a slop band: the pixels of
    /// it the next band covers (from the SLOP argument or the last
    /// OVERLAP_H/V, else 0).
    pub slop: Option<f64>,
    /// Anti-slop pixels of a non-slop band (ANTISLOP_H/V after its cut, else
    /// the grid-wide value before the first cut, else 0).
    pub antislop: f64,
    /// Line of the cut that opened it.
    pub line: usize,
}

impl Band {
    /// Size in pixels.
    pub fn size(&self) -> f64 {
        self.end - self.start
    }
}

/// A grid (`SUB_GRID` … `END_CUTS` … annotations).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Grid {
    /// Line of `SUB_GRID` (None for an implicit first grid).
    pub line: Option<usize>,
    /// The raw `CUT_H` pixel values in order.
    pub cuts_h: Vec<Lined<f64>>,
    /// The raw `CUT_V` pixel values in order.
    pub cuts_v: Vec<Lined<f64>>,
    /// Columns (one fewer than `cuts_h`), left to right.
    pub columns: Vec<Band>,
    /// Rows (one fewer than `cuts_v`), bottom to top.
    pub rows: Vec<Band>,
    /// `END_CUTS` line.
    pub end_cuts: Option<usize>,
    /// `EDGE_MIN left bottom right top` (pixels).
    pub edge_min: Option<Lined<[f64; 4]>>,
    /// `EDGE_BEST left bottom right top` (pixels).
    pub edge_best: Option<Lined<[f64; 4]>>,
    /// `EDGE_MAX left bottom right top` (pixels).
    pub edge_max: Option<Lined<[f64; 4]>>,
    /// Annotations on the whole grid (pixels), in file order.
    pub annotations: Vec<Annotation>,
}

/// One spelling (`SPELLING_S/T` or `USE_SPELLING_S/T` resolved).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Spelling {
    /// Column or row indices in order.
    pub indices: Vec<i64>,
    /// The name when it came from `USE_SPELLING_*`.
    pub name: Option<String>,
    /// 1-based line.
    pub line: usize,
}

/// An AGB spelling set.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SpellingSet {
    /// `SPELLING_SET param` (matches the DSF parameter's low byte).
    pub param: i64,
    /// 1-based line of `SPELLING_SET`.
    pub line: usize,
    /// `HEIGHT_RANGE min max` metres.
    pub height_range: Option<Lined<[f64; 2]>>,
    /// `WIDTH_RANGE min max` metres.
    pub width_range: Option<Lined<[f64; 2]>>,
    /// `DEPTH_RANGE min max` metres.
    pub depth_range: Option<Lined<[f64; 2]>>,
    /// `FREQUENCY ratio` (default 1).
    pub frequency: Option<Lined<f64>>,
    /// `USE_GRID index` (default 0).
    pub use_grid: Option<Lined<i64>>,
    /// Column spellings in order.
    pub spellings_s: Vec<Spelling>,
    /// Row spellings in order.
    pub spellings_t: Vec<Spelling>,
}

impl SpellingSet {
    /// The frequency weight (default 1).
    pub fn weight(&self) -> f64 {
        self.frequency.as_ref().map_or(1.0, |f| f.value)
    }

    /// The grid index (default 0).
    pub fn grid(&self) -> i64 {
        self.use_grid.as_ref().map_or(0, |g| g.value)
    }
}

// ---------------------------------------------------------------- AGS ----

/// AGS-wide properties and selection rules.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct StringProps {
    /// `CREASING_ANGLE left right` degrees.
    pub creasing_angle: Option<Lined<[f64; 2]>>,
    /// `FILL_LAYER layer`.
    pub fill_layer: Option<Lined<i64>>,
    /// `SHARE_Y` seen (line).
    pub share_y: Option<usize>,
    /// `GROUP id tile…` in order.
    pub groups: Vec<Group>,
    /// Corner rules in file order.
    pub corners: Vec<CornerRule>,
    /// Edge spellings in file order.
    pub spellings: Vec<EdgeSpelling>,
    /// `CAPS` lines in order.
    pub caps: Vec<Lined<Vec<i64>>>,
}

impl StringProps {
    /// Crease angles `[left, right]` in degrees (default 30, 30).
    pub fn crease(&self) -> [f64; 2] {
        self.creasing_angle
            .as_ref()
            .map_or([30.0, 30.0], |c| c.value)
    }

    /// Whether `tile` is in group `group` (group 0 matches nothing).
    pub fn in_group(&self, group: i64, tile: i64) -> bool {
        self.groups
            .iter()
            .any(|g| g.id == group && g.tiles.contains(&tile))
    }

    /// All cap tile ids, in order of appearance, without repeats.
    pub fn cap_tiles(&self) -> Vec<i64> {
        let mut v = Vec::new();
        for c in &self.caps {
            for &t in &c.value {
                if !v.contains(&t) {
                    v.push(t);
                }
            }
        }
        v
    }
}

/// `GROUP id tile…`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Group {
    /// Group id (positive).
    pub id: i64,
    /// Member tile ids.
    pub tiles: Vec<i64>,
    /// 1-based line.
    pub line: usize,
}

/// An inclusive range `[min, max]`.
pub type Range2 = [f64; 2];

/// Which corner directive, with its conditions.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum CornerKind {
    /// `CORNER angle_min angle_max`.
    Corner {
        /// Turn range in degrees.
        angle: Range2,
    },
    /// `CORNER_LEN len1 angle len2 group`.
    Len {
        /// Previous segment length range, metres.
        len1: Range2,
        /// Turn range.
        angle: Range2,
        /// Next segment length range.
        len2: Range2,
        /// Group the previous corner must be in (0 = any).
        group: i64,
    },
    /// `CORNER_PAIR angle1 length angle2 group`.
    Pair {
        /// First corner's turn range.
        angle1: Range2,
        /// Length range of the side between.
        length: Range2,
        /// Second corner's turn range.
        angle2: Range2,
        /// Group condition.
        group: i64,
    },
    /// `ATOMIC_SPELLING_CORNER len1 angle len2 group`.
    Atomic {
        /// Previous segment length range.
        len1: Range2,
        /// Turn range.
        angle: Range2,
        /// Next segment length range.
        len2: Range2,
        /// Group condition.
        group: i64,
    },
}

/// One corner rule.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CornerRule {
    /// Directive and conditions.
    pub kind: CornerKind,
    /// One tile id or three (preceding, middle, trailing).
    pub tiles: Vec<i64>,
    /// `CORNER_ORDER` after it: the placement order of the three tiles.
    pub order: Option<Lined<[i64; 3]>>,
    /// Priority group: 0 before the first `PRIORITY_MARKER_CORNER`, then 1,
    /// 2, … — lower numbers are tried first.
    pub priority: usize,
    /// 1-based line.
    pub line: usize,
}

impl CornerRule {
    /// The order the tiles are placed in (default middle, preceding,
    /// trailing = `[1, 0, 2]`; a single tile is `[0]`).
    pub fn placement_order(&self) -> Vec<usize> {
        if self.tiles.len() != 3 {
            return (0..self.tiles.len()).collect();
        }
        match &self.order {
            Some(o) => o.value.iter().map(|&i| i.clamp(0, 2) as usize).collect(),
            None => vec![1, 0, 2],
        }
    }
}

/// An edge spelling (`SPELLING` or `ATOMIC_SPELLING`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EdgeSpelling {
    /// Tile ids in order.
    pub tiles: Vec<i64>,
    /// `Some` for `ATOMIC_SPELLING`: side length range and group.
    pub atomic: Option<AtomicCond>,
    /// Priority group: 0 before the first `PRIORITY_MARKER`, then 1, 2, …
    pub priority: usize,
    /// 1-based line.
    pub line: usize,
}

/// The conditions of an `ATOMIC_SPELLING`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AtomicCond {
    /// Side (single segment) length range, metres.
    pub length: Range2,
    /// Group the previous tile must be in (0 = any).
    pub group: i64,
}

impl Asset {
    /// The tile with id `id` (AGP/AGS).
    pub fn tile(&self, id: i64) -> Option<&Tile> {
        self.tiles.iter().find(|t| t.id == id)
    }

    /// Number of `OBJ_*` annotations over all tiles and grids.
    pub fn annotations(&self) -> impl Iterator<Item = &Annotation> {
        let grid_anns = self
            .block
            .iter()
            .flat_map(|b| b.grids.iter().flat_map(|g| g.annotations.iter()));
        self.tiles
            .iter()
            .flat_map(|t| t.annotations.iter())
            .chain(grid_anns)
    }
}
