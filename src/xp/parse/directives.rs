//! The table of every directive of the autogen text formats: its name, the
//! formats that take it and the handler that reads its line. The reader
//! dispatches by a keyword's index in the table, the nearest-keyword
//! suggestion and [`KEYWORDS`](super::KEYWORDS) read the names from it,
//! and the writer spells directives through [`name`] (checked against the
//! table when it compiles).

use super::{Args, Builder};
use super::{annotation, common, draw, grid, spelling, string, tile};

/// Reads one directive line into the builder.
pub(super) type Handler = fn(&mut Builder<'_>, &Args<'_, '_>);

/// The formats that take a directive: (AGP, AGB, AGS).
pub(crate) type Formats = (bool, bool, bool);

/// Every format.
const ALL: Formats = (true, true, true);
/// AGP and AGS, the formats of tiles.
const POINT_STRING: Formats = (true, false, true);
/// AGB only.
const BLOCK: Formats = (false, true, false);
/// AGS only.
const STRING: Formats = (false, false, true);

/// One directive of the table.
pub(crate) struct Directive {
    /// The keyword, upper case.
    pub(crate) name: &'static str,
    /// The formats that take it.
    pub(crate) formats: Formats,
    /// Reads its line (called only in a format that takes it).
    pub(super) handler: Handler,
}

/// A table entry.
const fn d(name: &'static str, formats: Formats, handler: Handler) -> Directive {
    Directive {
        name,
        formats,
        handler,
    }
}

/// Every directive, sorted by name (the order of
/// [`KEYWORDS`](super::KEYWORDS) and of the suggestion's tie-break).
pub(crate) const DIRECTIVES: &[Directive] = &[
    d("ANCHOR_PT", POINT_STRING, tile::anchor_pt),
    d("ANTISLOP_H", BLOCK, grid::antislop),
    d("ANTISLOP_V", BLOCK, grid::antislop),
    d("ATOMIC_SPELLING", STRING, string::atomic_spelling),
    d(
        "ATOMIC_SPELLING_CORNER",
        STRING,
        string::atomic_spelling_corner,
    ),
    d("CAPS", STRING, string::caps),
    d("CORNER", STRING, string::corner_plain),
    d("CORNER_LEN", STRING, string::corner_len),
    d("CORNER_ORDER", STRING, string::corner_order),
    d("CORNER_PAIR", STRING, string::corner_pair),
    d("CREASING_ANGLE", STRING, string::creasing_angle),
    d("CROP", BLOCK, grid::crop),
    d("CROP_POLY", POINT_STRING, tile::crop_poly),
    d("CUT_H", BLOCK, grid::cut),
    d("CUT_V", BLOCK, grid::cut),
    d("DECAL", ALL, draw::decal),
    d("DECAL_KEYED", ALL, draw::decal),
    d("DECAL_LIB", ALL, common::decal_lib),
    d("DECAL_PARAMS", ALL, draw::decal),
    d("DECAL_PARAMS_PROJ", ALL, draw::decal),
    d("DECAL_PARAMS_RGBA", ALL, draw::decal),
    d("DECAL_RGBA", ALL, draw::decal),
    d("DEFINE_SPELLING_S", BLOCK, spelling::define_spelling),
    d("DEFINE_SPELLING_T", BLOCK, spelling::define_spelling),
    d("DEPTH_RANGE", BLOCK, spelling::depth_range),
    d("DITHER_ALPHA", ALL, common::dither_alpha),
    d("EDGE_BEST", BLOCK, grid::edge_best),
    d("EDGE_MAX", BLOCK, grid::edge_max),
    d("EDGE_MIN", BLOCK, grid::edge_min),
    d("END_CUTS", BLOCK, grid::end_cuts),
    d("FAC", ALL, annotation::fac),
    d("FACADE", ALL, common::facade),
    d("FAC_WALLS", ALL, annotation::fac_walls),
    d("FILL_LAYER", STRING, string::fill_layer),
    d("FLIP_180", BLOCK, grid::flip_180),
    d("FREQUENCY", BLOCK, spelling::frequency),
    d("GROUND_PT", POINT_STRING, tile::ground_pt),
    d("GROUND_PT_FORMULA", BLOCK, annotation::ground_pt_formula),
    d("GROUP", STRING, string::group),
    d("HEIGHT_RANGE", BLOCK, spelling::height_range),
    d("HIDE_TILE", ALL, draw::hide_tiles),
    d("HIDE_TILES", ALL, draw::hide_tiles),
    d("LAYER_GROUP", ALL, draw::layer_group),
    d("MESH_SHADER", ALL, draw::mesh_shader),
    d("NO_BLEND", ALL, draw::no_blend),
    d("OBJECT", ALL, common::object),
    d("OBJ_DELTA", ALL, annotation::obj_delta),
    d("OBJ_DRAPED", ALL, annotation::obj_draped),
    d("OBJ_GRADED", ALL, annotation::obj_graded),
    d("OBJ_SCRAPER", ALL, annotation::obj_scraper),
    d("OVERLAP_H", BLOCK, grid::overlap),
    d("OVERLAP_V", BLOCK, grid::overlap),
    d("PIVOT_LEAD_PT", STRING, tile::pivot_lead_pt),
    d("PIVOT_TRAIL_PT", STRING, tile::pivot_trail_pt),
    d("PRIORITY_MARKER", STRING, string::priority_marker),
    d(
        "PRIORITY_MARKER_CORNER",
        STRING,
        string::priority_marker_corner,
    ),
    d("ROTATION", POINT_STRING, tile::rotation),
    d("SHARE_Y", STRING, string::share_y),
    d("SLOPE_LIMIT", ALL, draw::slope_limit),
    d("SLOP_H", BLOCK, grid::slop),
    d("SLOP_V", BLOCK, grid::slop),
    d("SPELLING", STRING, string::spelling),
    d("SPELLING_S", BLOCK, spelling::spelling_st),
    d("SPELLING_SET", BLOCK, spelling::spelling_set),
    d("SPELLING_T", BLOCK, spelling::spelling_st),
    d("STOP_PT", STRING, tile::stop_pt),
    d("SUB_GRID", BLOCK, grid::sub_grid),
    d("TEXTURE", ALL, common::texture),
    d("TEXTURE_HEIGHT", ALL, common::texture_height),
    d("TEXTURE_LIT", ALL, common::texture_lit),
    d("TEXTURE_NORMAL", ALL, common::texture_normal),
    d("TEXTURE_SCALE", ALL, common::texture_scale),
    d("TEXTURE_WIDTH", ALL, common::texture_width),
    d("TILE", POINT_STRING, tile::tile),
    d("TILE_ID", POINT_STRING, tile::tile_id),
    d("TILE_LOD", ALL, common::tile_lod),
    d("TREE", ALL, annotation::tree),
    d("TREE_LINE", ALL, annotation::tree_line),
    d("USE_GRID", BLOCK, spelling::use_grid),
    d("USE_SPELLING_S", BLOCK, spelling::use_spelling),
    d("USE_SPELLING_T", BLOCK, spelling::use_spelling),
    d("VEGETATION", ALL, common::vegetation),
    d("WIDTH_RANGE", BLOCK, spelling::width_range),
];

/// The names of [`DIRECTIVES`], in its order.
pub(super) const NAMES: [&str; DIRECTIVES.len()] = {
    let mut out = [""; DIRECTIVES.len()];
    let mut i = 0;
    while i < DIRECTIVES.len() {
        out[i] = DIRECTIVES[i].name;
        i += 1;
    }
    out
};

/// The index in [`DIRECTIVES`] of the directive named exactly `name`; a
/// name that is not in the table fails the build where this is evaluated
/// in a constant.
pub(crate) const fn index(name: &str) -> usize {
    let name = name.as_bytes();
    let mut i = 0;
    'next: while i < DIRECTIVES.len() {
        let k = DIRECTIVES[i].name.as_bytes();
        if k.len() == name.len() {
            let mut j = 0;
            while j < k.len() {
                if k[j] != name[j] {
                    i += 1;
                    continue 'next;
                }
                j += 1;
            }
            return i;
        }
        i += 1;
    }
    panic!("not a directive of the table")
}

/// The table's spelling of the directive `name` (see [`index`]): what the
/// writer and the checker emit, so that every name they spell is one the
/// reader knows.
pub(crate) const fn name(name: &str) -> &'static str {
    DIRECTIVES[index(name)].name
}
