//! The table of every diagnostic the X-Plane autogen text checker emits: a
//! stable code, a severity and a one-line summary. `docs/diagnostics.md`
//! documents the same table; a unit test keeps the two in step.

/// At most this many errors, and this many warnings, are kept per file (hostile inputs could
/// otherwise produce one per token).
pub const MAX_DIAGNOSTICS: usize = 1000;

pub use crate::diag::Rule;
use crate::diag::rules;

rules! {
    HEADER_ORIGIN = "AG0001", Error, "line 1 must be `A` or `I`";
    HEADER_VERSION = "AG0002", Error, "line 2 must be the version `1000`";
    HEADER_KIND = "AG0003", Error, "line 3 must be `AG_POINT`, `AG_BLOCK` or `AG_STRING`";
    TOO_FEW_ARGS = "AG0004", Error, "a directive has too few arguments";
    TOO_MANY_ARGS = "AG0005", Warning, "a directive has too many arguments (the extra values are ignored, as X-Plane's readers do)";
    NOT_A_NUMBER = "AG0006", Error, "an argument that must be a number is not one";
    NOT_FINITE = "AG0007", Error, "a number is NaN or infinite";
    NOT_INTEGER = "AG0008", Error, "an argument that must be an integer is not one";
    UNKNOWN_DIRECTIVE = "AG0009", Warning, "unknown directive (kept; X-Plane ignores or rejects it, placement ignores it; the nearest known directive is suggested)";
    WRONG_FORMAT = "AG0010", Error, "directive not valid in this format (e.g. CUT_H in an AGP)";
    DUPLICATE = "AG0011", Warning, "a directive that may appear once appears again; the last one wins";
    TWO_VEGETATION = "AG0012", Error, "more than one VEGETATION";
    NO_TEXTURE_SCALE = "AG0013", Warning, "TEXTURE_SCALE is missing (the spec requires it; the texture is taken as 1 x 1 pixels, as WorldEditor does)";
    NO_TEXTURE_WIDTH = "AG0014", Warning, "TEXTURE_WIDTH is missing (the spec requires it; the texture is taken as 1 m wide, as WorldEditor does)";
    BAD_TEXTURE_SIZE = "AG0015", Error, "TEXTURE_SCALE, TEXTURE_WIDTH or TEXTURE_HEIGHT is not positive";
    NO_TEXTURE = "AG0016", Warning, "no TEXTURE although the tiles are drawn";
    BAD_TILE_LOD = "AG0017", Error, "TILE_LOD is not positive";
    BAD_SLOPE_LIMIT = "AG0018", Error, "SLOPE_LIMIT minimum greater than maximum";
    TREE_WITHOUT_VEGETATION = "AG0019", Error, "TREE, TREE_LINE or FILL_LAYER without VEGETATION";
    OBJECT_INDEX = "AG0020", Error, "object annotation index out of range of the OBJECT list";
    FACADE_INDEX = "AG0021", Error, "facade annotation index out of range of the FACADE list";
    SHOW_LEVEL_RANGE = "AG0022", Error, "object show level outside 1..6";
    SHOW_LEVEL_ORDER = "AG0023", Error, "object show levels lo greater than hi";
    HIDE_SPELLING = "AG0024", Warning, "HIDE_TILES / HIDE_TILE spelled as in the other format";
    NO_TILE = "AG0025", Error, "AGP or AGS without any TILE";
    BEFORE_TILE = "AG0026", Error, "tile property or annotation before any TILE";
    OUTSIDE_TILE = "AG0027", Error, "annotation outside the bounds of its tile";
    BAD_TILE_RECT = "AG0028", Error, "TILE right <= left or top <= bottom";
    ROTATION_RANGE = "AG0029", Warning, "ROTATION outside 0..3";
    CROP_POLY_POINTS = "AG0030", Error, "CROP_POLY with fewer than 3 points";
    CROP_POLY_CONVEX = "AG0031", Error, "CROP_POLY is not convex";
    CROP_POLY_CLOCKWISE = "AG0032", Warning, "CROP_POLY is not clockwise (the spec asks for clockwise; either order is used, reoriented)";
    DUPLICATE_TILE_ID = "AG0033", Error, "two tiles with the same TILE_ID";
    DANGLING_TILE_ID = "AG0034", Warning, "TILE_ID not followed by a TILE";
    POINT_OUTSIDE_TILE = "AG0035", Warning, "ANCHOR_PT, GROUND_PT, STOP_PT or pivot point outside its tile";
    FACADE_POINTS = "AG0036", Error, "facade with fewer than 2 points";
    FACADE_WINDING = "AG0037", Warning, "facade footprint is not clockwise";
    NEGATIVE_SIZE = "AG0038", Error, "facade height or tree width is negative or zero";
    BAD_SCRAPER = "AG0039", Error, "OBJ_SCRAPER min greater than max, or step not positive";
    EMPTY_TREE_LINE = "AG0040", Warning, "TREE_LINE starts and ends at the same point";
    NEGATIVE_LAYER = "AG0041", Error, "forest layer is negative";
    CUTS_ORDER = "AG0042", Error, "cuts are not in increasing order";
    TOO_FEW_CUTS = "AG0043", Error, "fewer than two cuts in a direction";
    SLOP_BEFORE_CUT = "AG0044", Error, "SLOP_H/V before the first cut of its direction";
    AFTER_END_CUTS = "AG0045", Error, "cut, slop or overlap directive after END_CUTS";
    ANN_BEFORE_END_CUTS = "AG0046", Error, "AGB annotation before END_CUTS";
    NO_END_CUTS = "AG0047", Error, "grid without END_CUTS";
    USE_GRID_UNKNOWN = "AG0048", Error, "USE_GRID refers to a grid that does not exist";
    USE_SPELLING_UNKNOWN = "AG0049", Error, "USE_SPELLING names a spelling that was never defined";
    SPELLING_INDEX = "AG0050", Error, "spelling index outside the grid's columns or rows";
    BEFORE_SPELLING_SET = "AG0051", Error, "spelling-set directive before any SPELLING_SET";
    NO_SPELLING_SET = "AG0052", Error, "AGB without any SPELLING_SET";
    EMPTY_SPELLING_SET = "AG0053", Error, "spelling set without SPELLING_S or without SPELLING_T";
    RANGE_ORDER = "AG0054", Error, "a min-max range has min greater than max";
    BAD_FREQUENCY = "AG0055", Error, "FREQUENCY is negative";
    BAD_CROP = "AG0056", Error, "CROP must be 0 or 1";
    BAD_EDGE = "AG0057", Error, "EDGE_MIN/BEST/MAX rectangle is inverted";
    EDGE_NESTING = "AG0058", Warning, "EDGE_MIN is not inside EDGE_BEST, or EDGE_BEST not inside EDGE_MAX";
    FORMULA_WITHOUT_ANN = "AG0059", Error, "GROUND_PT_FORMULA without an annotation before it in its grid";
    SLOP_ON_LAST_CUT = "AG0060", Error, "SLOP or ANTISLOP after the last cut (no band to apply to)";
    DUPLICATE_NAMED_SPELLING = "AG0061", Warning, "DEFINE_SPELLING name defined twice";
    OUTSIDE_GRID = "AG0062", Error, "AGB annotation outside the grid's cuts";
    SPELLING_SET_PARAM = "AG0063", Warning, "SPELLING_SET param outside 0..255";
    SLOP_OVERLAP = "AG0064", Warning, "slop overlap is negative or larger than the slop band";
    UNKNOWN_TILE_ID = "AG0065", Error, "spelling, corner, cap or group names an unknown tile id";
    BAD_GROUP_ID = "AG0066", Error, "GROUP id is not positive";
    ANGLE_ORDER = "AG0067", Error, "corner angle range has min greater than max";
    ORDER_WITHOUT_CORNER = "AG0068", Error, "CORNER_ORDER not after a corner with three tiles";
    ORDER_PERMUTATION = "AG0069", Error, "CORNER_ORDER is not a permutation of 0 1 2";
    CORNER_TILE_COUNT = "AG0070", Error, "corner with a number of tiles other than 1 or 3";
    UNKNOWN_GROUP = "AG0071", Warning, "group condition names a group no GROUP defines";
    BAD_CREASE = "AG0072", Error, "CREASING_ANGLE outside 0..180";
    NO_SPELLING = "AG0073", Warning, "AGS without any SPELLING or ATOMIC_SPELLING";
    PIVOT_MISSING = "AG0074", Warning, "middle tile of a 3-tile corner lacks PIVOT_LEAD_PT or PIVOT_TRAIL_PT";
    EMPTY_PRIORITY = "AG0075", Warning, "priority marker with no rule after it";
    LOWERCASE_KEYWORD = "AG0076", Warning, "directive keyword not in upper case";
    INVALID_UTF8 = "AG0077", Error, "file is not valid UTF-8 text";
    NEGATIVE_LENGTH = "AG0078", Error, "a length range is negative";
    STRAY_BOM = "AG0079", Error, "a byte-order mark (U+FEFF) after the start of the file";
    TEXTURE_PX_RANGE = "AG0080", Error, "TEXTURE_SCALE size outside 1..1,048,576 pixels";
    TEXTURE_M_RANGE = "AG0081", Error, "TEXTURE_WIDTH or TEXTURE_HEIGHT outside 0.01..10,000 metres";
    METRES_PER_PX_RANGE = "AG0082", Error, "metres per pixel outside 0.00001..1,000";
    TILE_SIZE_RANGE = "AG0083", Error, "tile or AGB grid width or height outside 0.01..10,000 metres";
    FAR_OFF_TEXTURE = "AG0084", Error, "a pixel coordinate more than 10 texture sizes off the texture";
}

/// The rule with `code`.
pub fn rule(code: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.code == code)
}
