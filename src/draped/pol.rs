//! Draped polygons (`.pol`): the texture a DSF polygon is drawn with on
//! the ground, and how large one repeat of it is.
//!
//! What is accepted follows WorldEditor's reader, `WED_ResourceMgr::GetPol`
//! (xptools `src/WEDCore/WED_ResourceMgr.cpp`): the header `A`/`I`, `850`,
//! `DRAPED_POLYGON`; the texture from `TEXTURE` (repeated) or
//! `TEXTURE_NOWRAP` (drawn once), the last of them winning; `SCALE`,
//! `NO_ALPHA`, `LAYER_GROUP` (an offset past ±5 is logged as out of
//! bounds), `SURFACE` (one of six names), `DECAL_LIB`, `TEXTURE_TILE`.
//! `TEXTURE_LIT`, `TEXTURE_LIT_NOWRAP` (written by xptools'
//! `SceneryPackages.cpp`, read by the simulator) and `TEXTURE_NORMAL` name
//! textures too, checked like the base texture.

use super::{Directive, Pol, check_format, lacks};
use crate::diag::Diagnostic;
use crate::kinds::ArtKind;
use crate::limits::Limits;
use crate::xptext::Checked;

crate::diag::rules! {
    HEADER = "POL0001", Error, "the header is not `A`/`I`, `850`, `DRAPED_POLYGON`";
    MISSING_ARG = "POL0002", Error, "a directive has too few arguments";
    NOT_A_NUMBER = "POL0003", Error, "an argument that must be a number is not one";
    NOT_FINITE = "POL0004", Error, "a number is NaN or infinite";
    UNKNOWN_DIRECTIVE = "POL0005", Warning, "unknown directive (X-Plane ignores it)";
    NO_TEXTURE = "POL0006", Warning, "no `TEXTURE` or `TEXTURE_NOWRAP`: the polygon has no texture to draw";
    BAD_SCALE = "POL0007", Warning, "`SCALE` is not positive (agkit draws the texture at its default size)";
    OUT_OF_RANGE = "POL0008", Error, "a number outside the range agkit can draw (beyond ±1e6)";
    LAYER_GROUP = "POL0009", Warning, "a `LAYER_GROUP` without a group name, or with an offset outside -5..5 (WorldEditor logs it as out of bounds)";
    BAD_SURFACE = "POL0010", Warning, "a `SURFACE` other than asphalt, concrete, grass, gravel, dirt or snow (WorldEditor logs it as illegal)";
}

/// The versions the header may name (`GetPol` accepts 850).
pub const VERSIONS: &[u32] = &[850];

/// The surfaces `GetPol` accepts (it compares them as written).
pub const SURFACES: &[&str] = &["asphalt", "concrete", "grass", "gravel", "dirt", "snow"];

/// Directives X-Plane reads whose arguments agkit does not need: those of
/// `GetPol`, Laminar's `.pol` page, and the shader directives real files
/// write (`LOD`, `SPECULAR`, `GLOBAL_specular`).
const KNOWN: &[&str] = &[
    "DECAL_LIB",
    "LOAD_CENTER",
    "TEXTURE_TILE",
    "RUNWAY_TILE",
    "LOD",
    "SPECULAR",
    "GLOBAL_specular",
    "BUMP_LEVEL",
    "NORMAL_METALNESS",
    "NORMAL_TRANSLUCENCY",
    "DITHER_ALPHA",
    "NO_BLEND",
    "NO_SHADOW",
    "TEXTURE_MODULATOR",
];

super::reader!(Polygon, Pol, VERSIONS, unknown: Some(codes::UNKNOWN_DIRECTIVE), known: KNOWN);

/// Reads a `.pol`, returning its text, the model (unless the header is
/// wrong) and every diagnostic.
pub fn check(bytes: &[u8], _limits: &Limits) -> Checked<Pol> {
    check_format(
        bytes,
        &FORMAT,
        |_| Pol::default(),
        line,
        |pol, _, diags| {
            lacks(
                diags,
                pol.texture.is_none(),
                codes::NO_TEXTURE,
                "no `TEXTURE` or `TEXTURE_NOWRAP`: X-Plane has no texture to drape",
            );
        },
    )
}

fn line(pol: &mut Pol, d: &mut Directive<'_, '_>) -> Result<bool, Diagnostic> {
    match d.keyword().text {
        kw @ ("TEXTURE" | "TEXTURE_NOWRAP") => {
            pol.texture = Some(d.path(ArtKind::Texture, &mut pol.names)?);
            pol.wrap = kw == "TEXTURE";
        }
        "TEXTURE_LIT" | "TEXTURE_LIT_NOWRAP" => {
            d.path(ArtKind::Texture, &mut pol.names)?;
        }
        "TEXTURE_NORMAL" => {
            d.args.skip_ratio();
            d.path(ArtKind::Texture, &mut pol.names)?;
        }
        "SCALE" => {
            let s = d.pair(["metres across", "metres along"])?;
            if s.iter().any(|v| *v <= 0.0) {
                d.warn(
                    codes::BAD_SCALE,
                    format!(
                        "`SCALE {} {}` must be positive: one repeat of the texture covers that many metres (agkit draws it at its default size)",
                        s[0], s[1]
                    ),
                );
            }
            pol.scale = Some(s);
        }
        "NO_ALPHA" => pol.no_alpha = true,
        "LAYER_GROUP" => layer_group(d, codes::LAYER_GROUP)?,
        "SURFACE" => {
            let w = d.args.word("a surface name")?;
            if !SURFACES.contains(&w.text) {
                d.warn(
                    codes::BAD_SURFACE,
                    format!(
                        "`SURFACE {}` is not one of {} (WorldEditor logs it as illegal; the names are compared as written)",
                        w.text,
                        SURFACES.join(", ")
                    ),
                );
            }
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// `LAYER_GROUP name [offset]`: the offset, when given, within ±5 (as
/// `GetPol` and `GetLin` check it); warnings with `code`. A line without
/// the name is a warning, not a refusal: `GetPol` reads an empty name and
/// draws the polygon (a real `.pol` ends in such a line).
pub(crate) fn layer_group(d: &mut Directive<'_, '_>, code: &'static str) -> Result<(), Diagnostic> {
    if d.args.optional_word().is_none() {
        d.warn(
            code,
            "`LAYER_GROUP` names no layer group (WorldEditor reads an empty name)".into(),
        );
        return Ok(());
    }
    if let Some(offset) = d.args.optional_number()?
        && offset.trunc().abs() > 5.0
    {
        d.warn(
            code,
            format!(
                "`LAYER_GROUP` offset {offset} is outside -5..5 (WorldEditor logs it as out of bounds)"
            ),
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pol(text: &str) -> Pol {
        read(text.as_bytes(), "a.pol", &Limits::default()).unwrap()
    }

    #[test]
    fn keeps_texture_and_scale() {
        let p =
            pol("A\n850\nDRAPED_POLYGON\n\n# c\nTEXTURE ../tex/apt.png\nSCALE 500 250\nNO_ALPHA\n");
        assert_eq!(p.texture.as_deref(), Some("../tex/apt.png"));
        assert!(p.wrap);
        assert_eq!(p.scale, Some([500.0, 250.0]));
        assert!(p.no_alpha);
    }

    /// Issue 46 item 5: a `.pol` whose texture line is `TEXTURE_NOWRAP`
    /// was drawn in a plain colour ("names no texture"); WorldEditor's
    /// `GetPol` takes it as the polygon's texture.
    #[test]
    fn texture_nowrap_is_the_polygons_texture() {
        let p = pol(
            "I\n850\nDRAPED_POLYGON\nLAYER_GROUP beaches -1\nTEXTURE_NOWRAP ../textures/ortho.dds\nSCALE 1 1\nLOAD_CENTER 47.1 13.2 1024 4096\nDECAL_LIB lib/g10/decals/maquify_1_green_key.dcl\n",
        );
        assert_eq!(p.texture.as_deref(), Some("../textures/ortho.dds"));
        assert!(!p.wrap);
        let c = check(
            b"A\n850\nDRAPED_POLYGON\nTEXTURE_NOWRAP o.dds\n",
            &Limits::default(),
        );
        assert!(c.diagnostics.is_empty(), "{:?}", c.diagnostics);
        // The last texture line wins, as in GetPol.
        let p = pol("A\n850\nDRAPED_POLYGON\nTEXTURE_NOWRAP a.dds\nTEXTURE b.png\n");
        assert_eq!((p.texture.as_deref(), p.wrap), (Some("b.png"), true));
    }

    /// Issue 46 item 5: `SCALE nan` made the `.pol` "unreadable" with no
    /// reason; the refusal names the file, the line and why.
    #[test]
    fn scale_nan_is_refused_with_its_line() {
        let e = read(
            b"A\n850\nDRAPED_POLYGON\nTEXTURE a.png\nSCALE nan 5\n",
            "p.pol",
            &Limits::default(),
        )
        .unwrap_err();
        let s = e.to_string();
        assert!(s.starts_with("p.pol:5:7: error[POL0004]: "), "{s}");
        assert!(s.contains("`nan`"), "{s}");
    }

    #[test]
    fn wed_bounds_are_warnings() {
        let c = check(
            b"A\n850\nDRAPED_POLYGON\nTEXTURE a.png\nLAYER_GROUP markings +10\nSURFACE Concrete\nSCALE 0 5\n",
            &Limits::default(),
        );
        let codes: Vec<&str> = c.diagnostics.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(codes, ["POL0009", "POL0010", "POL0007"]);
        assert!(!c.has_errors());
        // A real .pol (csb3-xplane-scenary) ends in a bare `LAYER_GROUP `.
        let c = check(
            b"A\n850\nDRAPED_POLYGON\n\nTEXTURE g.dds\nSCALE 5.000000 5.000000\nLAYER_GROUP ",
            &Limits::default(),
        );
        assert!(!c.has_errors(), "{:?}", c.diagnostics);
        assert_eq!(c.diagnostics[0].code, "POL0009");
    }
}
