//! Sanity rules (`AG0080`…`AG0084`): values that parse and are positive but
//! cannot describe real scenery — a texture of a ten-thousandth of a pixel, a
//! pixel a kilometre wide, a tile a million kilometres long, a tile edge a
//! billion pixels off the texture. The placement engines would honour them
//! with gigabytes of tiles or hours of sliding, so validation reports them as
//! errors and [`crate::place::place`] refuses an asset that has one, with the
//! same code and message.
//!
//! The bounds are wide: every real file in the corpus and every example lies
//! far inside them (the corpus has 2–2048 pixel textures, 0.06–25 m per pixel,
//! tiles of 2–64 m, and tiles reaching one texture size off the sheet).
//!
//! Values that are zero or negative are left to `AG0015`; each rule here only
//! looks at what the earlier ones found sane, so one mistake gives one
//! error. A missing `TEXTURE_SCALE` or `TEXTURE_WIDTH` takes the simulator's
//! default ([`Common::metres_per_pixel`](super::model::Common::metres_per_pixel)):
//! tile sizes are checked at the resulting scale, but "off the texture"
//! (`AG0084`) only against a `TEXTURE_SCALE` the file declares.

use super::model::{Asset, Grid, Lined, Px, Tile};
use super::rules::codes as c;
use std::ops::ControlFlow;

/// Least and greatest `TEXTURE_SCALE` size in pixels.
pub const TEXTURE_PX: [f64; 2] = [1.0, 1_048_576.0];
/// Least and greatest `TEXTURE_WIDTH` / `TEXTURE_HEIGHT` in metres.
pub const TEXTURE_M: [f64; 2] = [0.01, 10_000.0];
/// Least and greatest metres per pixel.
pub const METRES_PER_PX: [f64; 2] = [1e-5, 1_000.0];
/// Least and greatest tile (AGP/AGS `TILE`) or grid (AGB, first to last
/// cut) width and height in metres.
pub const TILE_M: [f64; 2] = [0.01, 10_000.0];
/// How many texture sizes a pixel coordinate may lie off the texture.
pub const FAR: f64 = 10.0;

/// One value a sanity rule rejects.
#[derive(Debug, Clone, PartialEq)]
pub struct Absurd {
    /// The rule's code (`AG0080`…).
    pub code: &'static str,
    /// What is wrong and what to do.
    pub message: String,
    /// 1-based line of the directive.
    pub line: usize,
    /// The first and last token of the value on that line (the keyword is
    /// token 0).
    pub tokens: [usize; 2],
}

/// Calls `f` with every absurd value of `asset`, in file order per kind
/// (texture, then tiles or grids), until `f` breaks.
pub fn each(asset: &Asset, f: &mut dyn FnMut(Absurd) -> ControlFlow<()>) {
    let _ = visit(asset, f);
}

/// The first absurd value of `asset`, if any.
pub fn first(asset: &Asset) -> Option<Absurd> {
    let mut found = None;
    each(asset, &mut |a| {
        found = Some(a);
        ControlFlow::Break(())
    });
    found
}

fn outside(v: f64, r: [f64; 2]) -> bool {
    !(v >= r[0] && v <= r[1])
}

/// `1e-7`, `0.0625`, `6.25e8`: short, and exact enough to recognise.
fn num(v: f64) -> String {
    let a = v.abs();
    if a != 0.0 && !(1e-4..1e6).contains(&a) {
        let s = format!("{v:.3e}");
        match s.split_once('e') {
            Some((m, e)) if m.contains('.') => {
                format!("{}e{e}", m.trim_end_matches('0').trim_end_matches('.'))
            }
            _ => s,
        }
    } else {
        format!("{}", (v * 1e4).round() / 1e4)
    }
}

/// Emits findings to the caller's callback.
struct Out<'f> {
    f: &'f mut dyn FnMut(Absurd) -> ControlFlow<()>,
}

impl Out<'_> {
    fn emit(
        &mut self,
        code: &'static str,
        line: usize,
        tokens: [usize; 2],
        message: String,
    ) -> ControlFlow<()> {
        (self.f)(Absurd {
            code,
            message,
            line,
            tokens,
        })
    }
}

fn visit(asset: &Asset, f: &mut dyn FnMut(Absurd) -> ControlFlow<()>) -> ControlFlow<()> {
    let cm = &asset.common;
    let mut out = Out { f };
    // TEXTURE_SCALE: only sizes AG0015 found positive.
    let scale = (cm.texture_scale.as_ref()).filter(|s| s.value.iter().all(|&v| v > 0.0));
    let mut scale_ok = true;
    if let Some(s) = scale {
        for k in 0..2 {
            let v = s.value[k];
            if outside(v, TEXTURE_PX) {
                scale_ok = false;
                out.emit(
                    c::TEXTURE_PX_RANGE,
                    s.line,
                    [k + 1, k + 1],
                    format!(
                        "a texture {} pixels {} cannot hold autogen tiles: TEXTURE_SCALE gives the texture's size, {}..{} pixels",
                        num(v),
                        ["wide", "high"][k],
                        TEXTURE_PX[0],
                        TEXTURE_PX[1]
                    ),
                )?;
            }
        }
    }
    // A non-positive size is AG0015.
    if cm.texture_scale.is_some() && scale.is_none() {
        scale_ok = false;
    }
    // TEXTURE_WIDTH / TEXTURE_HEIGHT in metres (missing: the default).
    let mut metres_ok = [&cm.texture_width, &cm.texture_height]
        .iter()
        .all(|m| m.as_ref().is_none_or(|m| m.value > 0.0));
    for (kw, m) in [
        ("TEXTURE_WIDTH", &cm.texture_width),
        ("TEXTURE_HEIGHT", &cm.texture_height),
    ] {
        let Some(m) = m.as_ref().filter(|m| m.value > 0.0) else {
            continue;
        };
        if outside(m.value, TEXTURE_M) {
            metres_ok = false;
            out.emit(
                c::TEXTURE_M_RANGE,
                m.line,
                [1, 1],
                format!(
                    "{kw} {} m cannot be a texture on the ground: autogen textures span {}..{} m",
                    num(m.value),
                    TEXTURE_M[0],
                    TEXTURE_M[1]
                ),
            )?;
        }
    }
    let Some(mpp) = cm.metres_per_pixel() else {
        return ControlFlow::Continue(());
    };
    if !(scale_ok && metres_ok) {
        return ControlFlow::Continue(());
    }
    let size = cm.texture_scale_px();
    for (k, &m) in mpp.iter().enumerate() {
        if outside(m, METRES_PER_PX) {
            // The directive the ratio comes from: TEXTURE_HEIGHT for the
            // vertical one when given, else TEXTURE_WIDTH.
            let (kw, line) = match (&cm.texture_height, &cm.texture_width, &cm.texture_scale) {
                (Some(h), _, _) if k == 1 => ("TEXTURE_HEIGHT", h.line),
                (_, Some(w), _) => ("TEXTURE_WIDTH", w.line),
                (_, None, Some(s)) => ("TEXTURE_WIDTH (1 m when missing)", s.line),
                _ => continue,
            };
            return out.emit(
                c::METRES_PER_PX_RANGE,
                line,
                [1, 1],
                format!(
                    "{kw} over TEXTURE_SCALE {} px gives {} m per pixel; real textures have {}..{} m per pixel: check both",
                    num(size[k]),
                    num(m),
                    METRES_PER_PX[0],
                    METRES_PER_PX[1]
                ),
            );
        }
    }
    let missing = cm.defaulted_scale();
    let sheet = Sheet {
        size: scale.map(|s| s.value),
        mpp,
        defaulted: if missing.is_empty() {
            String::new()
        } else {
            format!(
                "; no {}, so X-Plane's tools take a 1 × 1 pixel texture 1 m wide",
                missing.join(" or ")
            )
        },
    };
    for t in &asset.tiles {
        sheet.tile(t, &mut out)?;
    }
    for g in asset.block.iter().flat_map(|b| &b.grids) {
        sheet.grid(g, &mut out)?;
    }
    ControlFlow::Continue(())
}

/// A texture sheet whose size and scale passed the rules above.
struct Sheet {
    /// `TEXTURE_SCALE` in pixels, when the file declares it (a missing one
    /// is the 1-pixel default, which no real coordinate keeps to).
    size: Option<[f64; 2]>,
    mpp: [f64; 2],
    /// What [`Sheet::size`] adds when the scale is a default.
    defaulted: String,
}

impl Sheet {
    /// Whether coordinate `v` on axis `k` lies [`FAR`] sizes off the sheet.
    fn far_on(&self, k: usize, v: f64) -> bool {
        self.size
            .is_some_and(|size| v < -FAR * size[k] || v > (FAR + 1.0) * size[k])
    }

    fn far(&self, p: Px) -> bool {
        self.far_on(0, p[0]) || self.far_on(1, p[1])
    }

    fn far_message(&self, what: &str, values: &[f64]) -> String {
        let shown: Vec<String> = values.iter().map(|&v| num(v)).collect();
        let size = self.size.unwrap_or([1.0, 1.0]);
        format!(
            "{what} {} lies more than {FAR} texture sizes ({} × {} px) off the texture: check the numbers",
            shown.join(" "),
            num(size[0]),
            num(size[1])
        )
    }

    /// AG0084 for a point directive far off the sheet.
    fn point(&self, kw: &str, p: &Lined<Px>, out: &mut Out) -> ControlFlow<()> {
        if self.far(p.value) {
            out.emit(
                c::FAR_OFF_TEXTURE,
                p.line,
                [1, 2],
                self.far_message(kw, &p.value),
            )?;
        }
        ControlFlow::Continue(())
    }

    /// AG0083 when a positive extent of `px` pixels on axis `k` is out of
    /// [`TILE_M`] in metres.
    fn size(
        &self,
        k: usize,
        px: f64,
        what: &str,
        line: usize,
        tokens: [usize; 2],
        out: &mut Out,
    ) -> ControlFlow<()> {
        let m = px * self.mpp[k];
        if px > 0.0 && outside(m, TILE_M) {
            out.emit(
                c::TILE_SIZE_RANGE,
                line,
                tokens,
                format!(
                    "{what} {} m {} ({} px at {} m per pixel{}); it must be {}..{} m",
                    num(m),
                    ["wide", "high"][k],
                    num(px),
                    num(self.mpp[k]),
                    self.defaulted,
                    TILE_M[0],
                    TILE_M[1]
                ),
            )?;
        }
        ControlFlow::Continue(())
    }

    fn tile(&self, t: &Tile, out: &mut Out) -> ControlFlow<()> {
        let r = t.rect;
        if self.far([r[0], r[1]]) || self.far([r[2], r[3]]) {
            out.emit(
                c::FAR_OFF_TEXTURE,
                t.line,
                [1, 4],
                self.far_message("TILE", &r),
            )?;
        }
        for (k, px) in t.size_px().into_iter().enumerate() {
            // A zero or inverted rectangle is AG0028.
            self.size(k, px, "this tile is", t.line, [1, 4], out)?;
        }
        let points = [
            ("ANCHOR_PT", &t.anchor),
            ("GROUND_PT", &t.ground),
            ("PIVOT_LEAD_PT", &t.pivot_lead),
            ("PIVOT_TRAIL_PT", &t.pivot_trail),
        ];
        for (kw, p) in points {
            if let Some(p) = p {
                self.point(kw, p, out)?;
            }
        }
        for s in &t.stop_pts {
            self.point("STOP_PT", s, out)?;
        }
        if let Some(cp) = &t.crop_poly
            && let Some(k) = cp.value.iter().position(|&p| self.far(p))
        {
            let tok = 1 + 2 * k;
            let msg = self.far_message("CROP_POLY point", &cp.value[k]);
            out.emit(c::FAR_OFF_TEXTURE, cp.line, [tok, tok + 1], msg)?;
        }
        ControlFlow::Continue(())
    }

    fn grid(&self, g: &Grid, out: &mut Out) -> ControlFlow<()> {
        for (k, cuts) in [(0, &g.cuts_h), (1, &g.cuts_v)] {
            let kw = ["CUT_H", "CUT_V"][k];
            if let Some(cut) = cuts.iter().find(|cut| self.far_on(k, cut.value)) {
                out.emit(
                    c::FAR_OFF_TEXTURE,
                    cut.line,
                    [1, 1],
                    self.far_message(kw, &[cut.value]),
                )?;
            }
            if let (Some(a), Some(b)) = (cuts.first(), cuts.last()) {
                self.size(k, b.value - a.value, "this grid is", b.line, [1, 1], out)?;
            }
        }
        let edges = [
            ("EDGE_MIN", &g.edge_min),
            ("EDGE_BEST", &g.edge_best),
            ("EDGE_MAX", &g.edge_max),
        ];
        for (kw, e) in edges {
            if let Some(e) = e
                && (self.far([e.value[0], e.value[1]]) || self.far([e.value[2], e.value[3]]))
            {
                out.emit(
                    c::FAR_OFF_TEXTURE,
                    e.line,
                    [1, 4],
                    self.far_message(kw, &e.value),
                )?;
            }
        }
        ControlFlow::Continue(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first_of(src: &str) -> Option<Absurd> {
        let (asset, _) = crate::xp::parse_lenient(src);
        first(&asset.unwrap())
    }

    const HEAD: &str = "A\n1000\nAG_POINT\nTEXTURE t.png\n";

    #[test]
    fn the_bounds_are_inclusive_and_sane_files_pass() {
        let ok = format!("{HEAD}TEXTURE_SCALE 1 1048576\nTEXTURE_WIDTH 0.01\nTILE 0 0 1 1\n");
        assert_eq!(first_of(&ok), None);
        let ok =
            format!("{HEAD}TEXTURE_SCALE 5 5\nTEXTURE_WIDTH 10\nTILE -5 -5 5 5\nANCHOR_PT 0 0\n");
        assert_eq!(first_of(&ok), None);
    }

    #[test]
    fn each_rule_fires_on_its_value() {
        let cases = [
            (
                "TEXTURE_SCALE 0.0001 1024\nTEXTURE_WIDTH 128\nTILE 0 0 1 1\n",
                c::TEXTURE_PX_RANGE,
                5,
            ),
            (
                "TEXTURE_SCALE 2048 1024\nTEXTURE_WIDTH 1e9\nTILE 0 0 1 1\n",
                c::TEXTURE_M_RANGE,
                6,
            ),
            (
                "TEXTURE_SCALE 1048576 8\nTEXTURE_WIDTH 0.01\nTILE 0 0 8 8\n",
                c::METRES_PER_PX_RANGE,
                6,
            ),
            (
                "TEXTURE_SCALE 2048 1024\nTEXTURE_WIDTH 128\nTILE 1024 0 1e10 512\n",
                c::FAR_OFF_TEXTURE,
                7,
            ),
            (
                "TEXTURE_SCALE 2048 2048\nTEXTURE_WIDTH 128\nTILE 0 0 2048 0.1\n",
                c::TILE_SIZE_RANGE,
                7,
            ),
        ];
        for (body, code, line) in cases {
            let a = first_of(&format!("{HEAD}{body}")).unwrap_or_else(|| panic!("{code}: nothing"));
            assert_eq!((a.code, a.line), (code, line), "{}", a.message);
        }
    }

    #[test]
    fn numbers_print_short() {
        assert_eq!(num(0.0625), "0.0625");
        assert_eq!(num(6.25e8), "6.25e8");
        assert_eq!(num(1e-7), "1e-7");
        assert_eq!(num(0.0001), "0.0001");
        assert_eq!(num(4.8828125e-6), "4.883e-6");
        assert_eq!(num(2048.0), "2048");
    }
}
