//! Painted lines (`.lin`): the strip of texture a DSF line is painted
//! with.
//!
//! What is accepted follows WorldEditor's reader, `WED_ResourceMgr::GetLin`
//! (xptools `src/WEDCore/WED_ResourceMgr.cpp`): the header `A`/`I`, `850`,
//! `LINE_PAINT`; the texture from `TEXTURE` (the only spelling `GetLin`
//! takes; `TEXTURE_NORMAL` names a normal map, written by WorldEditor's
//! own line export), `SCALE`, `TEX_WIDTH` (1024 when not given, as in
//! `GetLin`), `TEX_HEIGHT`, `S_OFFSET`, `START_CAP`, `END_CAP`, `ALIGN`,
//! `PREVIEW_RGB`, `LAYER_GROUP` (an offset past ±5 is logged as out of
//! bounds) and `DECAL_LIB`. `GetLin` refuses a line without an `S_OFFSET`
//! layer: it has nothing to paint.

use super::{Cap, Directive, Lin, LineLayer, MAX_LINE_LAYERS, check_format, lacks};
use crate::diag::Diagnostic;
use crate::kinds::ArtKind;
use crate::limits::Limits;
use crate::xptext::Checked;

crate::diag::rules! {
    HEADER = "LIN0001", Error, "the header is not `A`/`I`, `850`, `LINE_PAINT`";
    MISSING_ARG = "LIN0002", Error, "a directive has too few arguments";
    NOT_A_NUMBER = "LIN0003", Error, "an argument that must be a number is not one";
    NOT_FINITE = "LIN0004", Error, "a number is NaN or infinite";
    UNKNOWN_DIRECTIVE = "LIN0005", Warning, "unknown directive (X-Plane ignores it)";
    NO_LAYER = "LIN0006", Warning, "no `S_OFFSET` layer: WorldEditor refuses the line, which has nothing to paint";
    NO_TEXTURE = "LIN0007", Warning, "no `TEXTURE`: the line has no texture to paint";
    OUT_OF_RANGE = "LIN0008", Error, "a number outside the range agkit can draw (beyond ±1e6)";
    BAD_WIDTH = "LIN0009", Error, "`TEX_WIDTH` is not positive (the `S_OFFSET` columns are divided by it)";
    TOO_MANY = "LIN0010", Error, "more `S_OFFSET` layers than agkit reads (4,096)";
    LAYER_GROUP = "LIN0011", Warning, "a `LAYER_GROUP` without a group name, or with an offset outside -5..5 (WorldEditor logs it as out of bounds)";
}

/// The versions the header may name (`GetLin` accepts 850).
pub const VERSIONS: &[u32] = &[850];

/// The `TEX_WIDTH` a line without one is read with (`GetLin`'s).
pub const DEFAULT_TEX_WIDTH: f64 = 1024.0;

/// Directives X-Plane reads whose arguments agkit does not need: those of
/// `GetLin`, and the shader directives real files write.
const KNOWN: &[&str] = &[
    "TEX_HEIGHT",
    "START_CAP",
    "END_CAP",
    "ALIGN",
    "PREVIEW_RGB",
    "DECAL_LIB",
    "LOD",
    "MIRROR",
    "SURFACE",
    "NO_ALPHA",
    "SPECULAR",
    "GLOBAL_specular",
    "BUMP_LEVEL",
    "NORMAL_METALNESS",
    "DITHER_ALPHA",
    "NO_BLEND",
    "TEXTURE_LIT",
];

super::reader!(Line, Lin, VERSIONS, unknown: Some(codes::UNKNOWN_DIRECTIVE), known: KNOWN);

/// Reads a `.lin`, returning its text, the model (unless the header is
/// wrong) and every diagnostic. A line without `TEX_WIDTH` is read with
/// [`DEFAULT_TEX_WIDTH`].
pub fn check(bytes: &[u8], _limits: &Limits) -> Checked<Lin> {
    let mut cap = Cap::new(MAX_LINE_LAYERS, codes::TOO_MANY, "`S_OFFSET` layers", "lin");
    check_format(
        bytes,
        &FORMAT,
        |_| Lin::default(),
        |lin, d| line(lin, d, &mut cap),
        |lin, _, diags| {
            lacks(
                diags,
                lin.layers.is_empty(),
                codes::NO_LAYER,
                "no `S_OFFSET` layer: the line has nothing to paint (WorldEditor refuses it)",
            );
            lacks(
                diags,
                lin.texture.is_none(),
                codes::NO_TEXTURE,
                "no `TEXTURE`: the line has no texture to paint",
            );
            lin.tex_width.get_or_insert(DEFAULT_TEX_WIDTH);
        },
    )
}

fn line(lin: &mut Lin, d: &mut Directive<'_, '_>, cap: &mut Cap) -> Result<bool, Diagnostic> {
    match d.keyword().text {
        "TEXTURE" => lin.texture = Some(d.path(ArtKind::Texture, &mut lin.names)?),
        "TEXTURE_NORMAL" => {
            d.args.skip_ratio();
            d.path(ArtKind::Texture, &mut lin.names)?;
        }
        "SCALE" => lin.scale = Some(d.pair(["metres across", "metres along"])?),
        "TEX_WIDTH" => {
            let w = d.args.number("a width in pixels")?;
            if w <= 0.0 {
                return Err(Diagnostic::error(
                    codes::BAD_WIDTH,
                    format!(
                        "`TEX_WIDTH {w}` must be positive: the `S_OFFSET` columns are divided by it"
                    ),
                    d.line().span(),
                ));
            }
            lin.tex_width = Some(w);
        }
        "S_OFFSET" => {
            if !cap.admits(lin.layers.len(), d)? {
                return Ok(true);
            }
            let layer = d
                .args
                .integer("a layer", i64::from(i32::MIN), i64::from(i32::MAX))?;
            let s = [
                d.args.number("a left column")?,
                d.args.number("a middle column")?,
                d.args.number("a right column")?,
            ];
            lin.layers.push(LineLayer { layer, s });
        }
        "LAYER_GROUP" => super::pol::layer_group(d, codes::LAYER_GROUP)?,
        _ => return Ok(false),
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn width_is_the_widest_layer() {
        let l = read(
            b"A\n850\nLINE_PAINT\nTEXTURE l.png\nSCALE 20 100\nTEX_WIDTH 1024\nS_OFFSET 0 0 25 51.2\nS_OFFSET 1 100 150 202.4\n",
            "a.lin",
            &Limits::default(),
        )
        .unwrap();
        assert!((l.width().unwrap() - 2.0).abs() < 1e-9);
        let (s, scale) = l.window().unwrap();
        assert_eq!(s, [100.0 / 1024.0, 150.0 / 1024.0, 202.4 / 1024.0]);
        assert_eq!(scale, [20.0, 100.0]);
    }

    #[test]
    fn tex_width_defaults_as_in_wed() {
        let l = read(
            b"A\n850\nLINE_PAINT\nTEXTURE placeholder.png\nSCALE 0.01 0.01\nS_OFFSET 0 0.25 0.75 1\n",
            "p.lin",
            &Limits::default(),
        )
        .unwrap();
        assert_eq!(l.tex_width, Some(DEFAULT_TEX_WIDTH));
    }

    #[test]
    fn too_many_layers_say_the_limit() {
        let mut t = String::from("A\n850\nLINE_PAINT\nTEXTURE l.png\n");
        for _ in 0..=MAX_LINE_LAYERS {
            t.push_str("S_OFFSET 0 0 1 2\n");
        }
        t.push_str("S_OFFSET 0 0 1 2\n");
        let e = read(t.as_bytes(), "big.lin", &Limits::default()).unwrap_err();
        assert_eq!(
            e.diagnostics.len(),
            1,
            "one error for the layers past the limit"
        );
        let s = e.to_string();
        assert!(s.contains("LIN0010") && s.contains("4,096"), "{s}");
        assert!(
            s.starts_with(&format!("big.lin:{}:", 5 + MAX_LINE_LAYERS)),
            "{s}"
        );
    }
}
