//! Terrain types (`.ter`): the textures a DSF's base-mesh patches are drawn
//! with.
//!
//! agkit does not draw terrain; it checks a `.ter` and the textures it
//! names. The header is `A`/`I`, `800`, `TERRAIN` (what xptools writes:
//! `SceneryPackages.cpp`, `MeshTool_Create.cpp`). Textures come from
//! `BASE_TEX`, `LIT_TEX`, `BORDER_TEX` and `COMPOSITE_TEX`, each also
//! spelt with `_NOWRAP` (drawn once, not repeated), and from `NORMAL_TEX`
//! and `TEXTURE_NORMAL` (`[ratio] path`); `PROJECTED` gives the metres one
//! repeat of the base texture covers. The other directives those tools
//! write (`LOAD_CENTER`, `AUTO_VARY`, `COMPOSITE_PARAMS`, `DECAL_LIB` …)
//! are accepted without being read.

use super::{Directive, Ter, check_format, lacks};
use crate::diag::Diagnostic;
use crate::kinds::ArtKind;
use crate::limits::Limits;
use crate::xptext::Checked;

crate::diag::rules! {
    HEADER = "TER0001", Error, "the header is not `A`/`I`, `800`, `TERRAIN`";
    MISSING_ARG = "TER0002", Error, "a directive has too few arguments";
    NOT_A_NUMBER = "TER0003", Error, "an argument that must be a number is not one";
    NOT_FINITE = "TER0004", Error, "a number is NaN or infinite";
    UNKNOWN_DIRECTIVE = "TER0005", Warning, "unknown directive (X-Plane ignores it)";
    NO_TEXTURE = "TER0006", Warning, "no `BASE_TEX` or `BASE_TEX_NOWRAP`: the terrain has no texture to draw";
    OUT_OF_RANGE = "TER0007", Error, "a number outside the range agkit can draw (beyond ±1e6)";
    BAD_PROJECTION = "TER0008", Warning, "`PROJECTED` is not positive";
}

/// The versions the header may name.
pub const VERSIONS: &[u32] = &[800];

/// The directives naming a texture (each also with `_NOWRAP`).
const TEXTURES: &[&str] = &["BASE_TEX", "LIT_TEX", "BORDER_TEX", "COMPOSITE_TEX"];

/// Directives xptools' terrain writers and real terrain files write, whose
/// arguments agkit does not need.
const KNOWN: &[&str] = &[
    "LOAD_CENTER",
    "LOAD_CENTER_BORDER",
    "NO_ALPHA",
    "WET",
    "NO_SHADOW",
    "DECAL_LIB",
    "AUTO_VARY",
    "AUTO_HEADING",
    "AUTO_SLOPE",
    "AUTO_SLOPE_HEADING",
    "AUTO_SLOPE_HILL",
    "AUTO_SLOPE_CLIFF",
    "TEXTURE_TILE",
    "COMPOSITE_PROJECTED",
    "COMPOSITE_PARAMS",
    "COMPOSITE_NOISE",
    "COMPOSITE_BORDERS",
    "GLOBAL_specular",
    "NORMAL_METALNESS",
    "SPECULAR",
    "BUMP_LEVEL",
    "DITHER_ALPHA",
    "NO_BLEND",
];

super::reader!(Terrain, Ter, VERSIONS, unknown: Some(codes::UNKNOWN_DIRECTIVE), known: KNOWN);

/// Reads a `.ter`, returning its text, the model (unless the header is
/// wrong) and every diagnostic.
pub fn check(bytes: &[u8], _limits: &Limits) -> Checked<Ter> {
    check_format(
        bytes,
        &FORMAT,
        |_| Ter::default(),
        line,
        |t, _, diags| {
            lacks(
                diags,
                t.base.is_none(),
                codes::NO_TEXTURE,
                "no `BASE_TEX` or `BASE_TEX_NOWRAP`: the terrain has no texture to draw",
            );
        },
    )
}

fn line(t: &mut Ter, d: &mut Directive<'_, '_>) -> Result<bool, Diagnostic> {
    let kw = d.keyword().text;
    let base = kw.strip_suffix("_NOWRAP").unwrap_or(kw);
    if TEXTURES.contains(&base) {
        let path = d.path(ArtKind::Texture, &mut t.names)?;
        if base == "BASE_TEX" {
            t.base = Some(path);
        }
        return Ok(true);
    }
    match kw {
        "NORMAL_TEX" | "TEXTURE_NORMAL" => {
            d.args.skip_ratio();
            d.path(ArtKind::Texture, &mut t.names)?;
        }
        "PROJECTED" => {
            let p = d.pair(["metres across", "metres along"])?;
            if p.iter().any(|v| *v <= 0.0) {
                d.warn(
                    codes::BAD_PROJECTION,
                    format!(
                        "`PROJECTED {} {}` must be positive: one repeat of the texture covers that many metres",
                        p[0], p[1]
                    ),
                );
            }
            t.projected = Some(p);
        }
        _ => return Ok(false),
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_texture_spelling_is_named() {
        let text = "A\r\n800\r\nTERRAIN\r\n\r\nLOAD_CENTER 46.5 6.3 107640 4096\r\nBASE_TEX_NOWRAP ../textures/a.dds\r\nLIT_TEX l.png\r\nBORDER_TEX b.png\r\nCOMPOSITE_TEX_NOWRAP c.png\r\nNORMAL_TEX 2.0 n.png\r\nPROJECTED 500 500\r\nWET\r\n";
        let t = read(text.as_bytes(), "a.ter", &Limits::default()).unwrap();
        assert_eq!(t.base.as_deref(), Some("../textures/a.dds"));
        let named: Vec<&str> = t.names.iter().map(|n| n.path.as_str()).collect();
        assert_eq!(
            named,
            ["../textures/a.dds", "l.png", "b.png", "c.png", "n.png"]
        );
        assert_eq!(t.projected, Some([500.0, 500.0]));
        let c = check(text.as_bytes(), &Limits::default());
        assert!(c.diagnostics.is_empty(), "{:?}", c.diagnostics);
    }
}
