//! The OBJ8 reader: text → [`Obj`] with diagnostics.
//!
//! One pass over the lines. Tables are sized from `POINT_COUNTS` only after
//! the counts pass [`Limits::max_mesh_elements`], and never beyond what the
//! file's length can hold (a `VT` line takes at least 18 bytes, an index at
//! least 2), so memory follows the input whatever it declares. Animation
//! blocks nest by a counter, never by recursion. Facts on what X-Plane's
//! tools accept come from xptools `XObj8Read` (`src/Obj/XObjReadWrite.cpp`):
//! rows past the declared counts stop the reading; an index past the
//! vertices is an error; unknown directives are skipped.

use super::pose::{self, Pose};
use super::{Draw, DrawKind, Lod, Obj, Vertex, codes};
use crate::diag::{Diagnostic, Refused};
use crate::limits::{LimitExceeded, Limits};
use crate::xptext::{self, ArgCodes, Args, Checked, Line};

const ARGS: ArgCodes = ArgCodes {
    missing: codes::MISSING_ARG,
    not_number: codes::NOT_A_NUMBER,
    not_finite: codes::NOT_FINITE,
    out_of_range: codes::OUT_OF_RANGE,
};

/// Fewest bytes a `VT` line takes (`VT` and 8 one-digit numbers).
const MIN_VT_BYTES: usize = 18;
/// Fewest bytes an index takes (a digit and a separator).
const MIN_INDEX_BYTES: usize = 2;

/// Reads an object; `name` names the file in the refusal. Warnings are
/// dropped: [`check`] returns them.
pub fn read(bytes: &[u8], name: &str, limits: &Limits) -> Result<Obj, Refused> {
    check(bytes, limits).into_result(name)
}

/// Reads an object, returning its text, the model (unless the header is
/// wrong) and every diagnostic.
pub fn check(bytes: &[u8], limits: &Limits) -> Checked<Obj> {
    xptext::check_with(
        bytes,
        super::VERSIONS,
        "OBJ",
        codes::HEADER,
        |text, h, diags| {
            let mut r = Reader::new(text, limits);
            r.obj.version = h.version;
            diags.extend(xptext::each_line(text, h.body, |line| r.line(line)));
            r.finish(diags)
        },
    )
}

/// Directives X-Plane reads whose arguments agkit does not need.
const KNOWN: &[&str] = &[
    "ATTR_reset",
    "ATTR_shade_flat",
    "ATTR_shade_smooth",
    "ATTR_shiny_rat",
    "ATTR_cull",
    "ATTR_no_cull",
    "ATTR_depth",
    "ATTR_no_depth",
    "ATTR_blend",
    "ATTR_no_blend",
    "ATTR_shadow_blend",
    "ATTR_shadow",
    "ATTR_no_shadow",
    "ATTR_hard",
    "ATTR_hard_deck",
    "ATTR_no_hard",
    "ATTR_poly_os",
    "ATTR_ambient_rgb",
    "ATTR_diffuse_rgb",
    "ATTR_difuse_rgb",
    "ATTR_specular_rgb",
    "ATTR_emission_rgb",
    "ATTR_light_level",
    "ATTR_light_level_reset",
    "ATTR_layer_group",
    "ATTR_layer_group_draped",
    "ATTR_solid_camera",
    "ATTR_no_solid_camera",
    "ATTR_draw_enable",
    "ATTR_draw_disable",
    "ATTR_landing_gear",
    "ATTR_rain",
    "GLOBAL_specular",
    "GLOBAL_tint",
    "GLOBAL_no_blend",
    "GLOBAL_shadow_blend",
    "GLOBAL_no_shadow",
    "GLOBAL_cockpit_lit",
    "GLOBAL_luminance",
    "NORMAL_METALNESS",
    "BLEND_GLASS",
    "SPECULAR",
    "BUMP_LEVEL",
    "NO_BLEND",
    "NO_ALPHA",
    "DITHER_ALPHA",
    "TILTED",
    "REQUIRE_WET",
    "REQUIRE_DRY",
    "SLOPE_LIMIT",
    "TEXTURE_TILE",
    "TEXTURE_MODULATOR",
    "LOAD_CENTER",
    "COCKPIT_REGION",
    "PARTICLE_SYSTEM",
    "EMITTER",
    "MAGNET",
    "EXPORT",
    "smoke_black",
    "smoke_white",
];

/// Prefixes of directive families X-Plane reads whose arguments agkit does
/// not need (manipulators, cockpit devices, decals).
const KNOWN_PREFIXES: &[&str] = &[
    "ATTR_manip_",
    "ATTR_axis_",
    "ATTR_cockpit",
    "ATTR_no_cockpit",
    "DECAL",
    "NORMAL_DECAL",
];

/// Animation directives that are only meaningful inside a block.
const ANIM: &[&str] = &[
    "ANIM_rotate",
    "ANIM_trans",
    "ANIM_hide",
    "ANIM_show",
    "ANIM_rotate_begin",
    "ANIM_rotate_key",
    "ANIM_rotate_end",
    "ANIM_trans_begin",
    "ANIM_trans_key",
    "ANIM_trans_end",
    "ANIM_keyframe_loop",
];

/// An open `ANIM_trans_begin`/`ANIM_rotate_begin` table: the rotation
/// axis (`None` for a move) and its first key's value.
type KeyTable = (Option<[f64; 3]>, Option<[f64; 3]>);

struct Reader<'a> {
    text: &'a str,
    limits: &'a Limits,
    diags: Vec<Diagnostic>,
    obj: Obj,
    counts_at: Option<usize>,
    /// The line of the first `POINT_COUNTS`, once a repeat needs it.
    first_counts_line: Option<usize>,
    draped: bool,
    /// Open `ANIM_begin` lines, innermost last (offsets only).
    open: Vec<usize>,
    /// Spans of the `TRIS`/`LINES`/`LIGHTS` commands, beside `obj.draws`.
    draw_spans: Vec<std::ops::Range<usize>>,
    /// The pose now (animations at their first key), and the poses saved
    /// by the open `ANIM_begin`s.
    pose: Pose,
    saved: Vec<Pose>,
    /// An open key table: `(rotation axis or None for a move, first key)`.
    table: Option<KeyTable>,
}

impl<'a> Reader<'a> {
    fn new(text: &'a str, limits: &'a Limits) -> Self {
        let obj = Obj {
            lods: vec![Lod::default()],
            ..Obj::default()
        };
        Reader {
            text,
            limits,
            diags: Vec::new(),
            obj,
            counts_at: None,
            first_counts_line: None,
            draped: false,
            open: Vec::new(),
            draw_spans: Vec::new(),
            pose: pose::IDENTITY,
            saved: Vec::new(),
            table: None,
        }
    }

    /// The index of the pose now in `obj.poses` (`None` for the identity).
    fn pose_index(&mut self) -> Option<usize> {
        if self.pose == pose::IDENTITY {
            return None;
        }
        let poses = &mut self.obj.poses;
        if poses.last() != Some(&self.pose) {
            poses.push(self.pose);
        }
        Some(poses.len() - 1)
    }

    /// An animation directive inside a block: the pose at its first key.
    fn animate(&mut self, kw: &str, a: &mut Args<'a>) -> Result<(), Diagnostic> {
        let xyz = |a: &mut Args<'a>| -> Result<[f64; 3], Diagnostic> {
            Ok([a.number("x")?, a.number("y")?, a.number("z")?])
        };
        let step = match kw {
            "ANIM_trans" => Some(pose::translation(xyz(a)?)),
            "ANIM_rotate" => {
                let axis = xyz(a)?;
                Some(pose::rotation(axis, a.number("an angle")?))
            }
            "ANIM_trans_begin" => {
                self.table = Some((None, None));
                None
            }
            "ANIM_rotate_begin" => {
                self.table = Some((Some(xyz(a)?), None));
                None
            }
            "ANIM_trans_key" | "ANIM_rotate_key" => {
                a.number("a key")?;
                let v = if kw == "ANIM_trans_key" {
                    xyz(a)?
                } else {
                    [a.number("an angle")?, 0.0, 0.0]
                };
                if let Some((_, first @ None)) = &mut self.table {
                    *first = Some(v);
                }
                None
            }
            "ANIM_trans_end" | "ANIM_rotate_end" => match self.table.take() {
                Some((None, Some(d))) => Some(pose::translation(d)),
                Some((Some(axis), Some([angle, ..]))) => Some(pose::rotation(axis, angle)),
                _ => None,
            },
            _ => None,
        };
        if let Some(step) = step {
            self.pose = pose::then(&self.pose, &step);
        }
        Ok(())
    }

    fn line(&mut self, line: Line<'a>) -> Result<bool, Diagnostic> {
        let mut a = Args::new(line, ARGS);
        let kw = a.keyword();
        match kw.text {
            "VT" => {
                if self.obj.vertices.len() as u64 >= self.obj.point_counts[0] {
                    return self.over(line, "VT", 0);
                }
                let v = xptext::vertex(&mut a)?;
                self.obj.vertices.push(Vertex {
                    position: [v[0], v[1], v[2]],
                    normal: [v[3] as f32, v[4] as f32, v[5] as f32],
                    uv: [v[6] as f32, v[7] as f32],
                });
            }
            "IDX" | "IDX10" => {
                let n = if kw.text == "IDX" { 1 } else { 10 };
                if self.obj.indices.len() as u64 + n > self.obj.point_counts[3] {
                    return self.over(line, kw.text, 3);
                }
                let max = self.obj.point_counts[0] as i64 - 1;
                for _ in 0..n {
                    let w = a.word(if n == 1 { "an index" } else { "10 indices" })?;
                    let v = xptext::finite(w, ARGS, "an index")?;
                    if v < 0.0 || v.fract() != 0.0 || v > max as f64 {
                        return Err(Diagnostic::error(
                            codes::INDEX_RANGE,
                            format!(
                                "index `{}` is not a vertex: POINT_COUNTS declares {} (indices 0 to {max})",
                                w.text, self.obj.point_counts[0]
                            ),
                            w.span(),
                        ));
                    }
                    self.obj.indices.push(v as u32);
                }
            }
            "VLINE" | "VLIGHT" => {
                let (slot, have) = if kw.text == "VLINE" {
                    (1, self.obj.line_vertices)
                } else {
                    (2, self.obj.light_vertices)
                };
                if have as u64 >= self.obj.point_counts[slot] {
                    return self.over(line, kw.text, slot);
                }
                for what in ["x", "y", "z", "r", "g", "b"] {
                    a.number(what)?;
                }
                if slot == 1 {
                    self.obj.line_vertices += 1;
                } else {
                    self.obj.light_vertices += 1;
                }
            }
            "POINT_COUNTS" => return self.point_counts(line, &mut a),
            "TRIS" | "LINES" | "LIGHTS" => {
                let offset = a.integer("an offset", 0, u32::MAX as i64)? as u32;
                let count = a.integer("a count", 0, u32::MAX as i64)? as u32;
                let kind = match kw.text {
                    "TRIS" => DrawKind::Tris,
                    "LINES" => DrawKind::Lines,
                    _ => DrawKind::Lights,
                };
                if kind == DrawKind::Tris && !count.is_multiple_of(3) {
                    self.diags.push(Diagnostic::warning(
                        codes::TRIS_NOT_TRIPLES,
                        format!("TRIS count {count} is not a multiple of 3"),
                        line.span(),
                    ));
                }
                let pose = self.pose_index();
                self.obj.draws.push(Draw {
                    kind,
                    offset,
                    count,
                    lod: self.obj.lods.len() - 1,
                    draped: self.draped,
                    animated: !self.open.is_empty(),
                    pose,
                });
                self.draw_spans.push(line.span());
            }
            "TEXTURE"
            | "TEXTURE_LIT"
            | "TEXTURE_NORMAL"
            | "TEXTURE_DRAPED"
            | "TEXTURE_DRAPED_NORMAL" => {
                // A normal map may be preceded by a ratio (as facades
                // write it); the path is the rest of the line.
                if kw.text.ends_with("NORMAL") {
                    a.skip_ratio();
                }
                match a.rest() {
                    Some(p) => {
                        self.obj
                            .textures
                            .insert(kw.text.to_string(), p.text.to_string());
                    }
                    None => self.diags.push(Diagnostic::new(
                        crate::diag::Severity::Note,
                        codes::NO_PATH,
                        format!(
                            "`{}` names no file: the object has no such texture",
                            kw.text
                        ),
                        crate::diag::Location::Span(line.span()),
                    )),
                }
            }
            "TEXTURE_MAP" => {
                // X-Plane 12: `TEXTURE_MAP usage path` (normal, material_gloss, …).
                let usage = a.word("a usage and a file name")?;
                let path = a.rest().ok_or_else(|| a.missing("a file name"))?;
                self.obj
                    .textures
                    .insert(format!("TEXTURE_MAP {}", usage.text), path.text.to_string());
            }
            "ATTR_LOD" => {
                let near = a.number("a near distance")?;
                let far = a.number("a far distance")?;
                if near >= far {
                    self.diags.push(Diagnostic::warning(
                        codes::LOD_ORDER,
                        format!(
                            "ATTR_LOD {near} {far}: the near distance must be below the far one"
                        ),
                        line.span(),
                    ));
                }
                // Attribute state starts afresh in each level.
                self.draped = false;
                let lods = &mut self.obj.lods;
                let last = lods.len() - 1;
                let lod = Lod {
                    near,
                    far,
                    declared: true,
                };
                if lods[last].declared {
                    lods.push(lod);
                } else {
                    lods[last] = lod;
                }
            }
            "ATTR_LOD_draped" => self.obj.lod_draped = Some(a.number("a distance")?),
            "ATTR_draped" => self.draped = true,
            "ATTR_no_draped" => self.draped = false,
            "ANIM_begin" => {
                self.open.push(line.start);
                self.saved.push(self.pose);
                self.obj.animations += 1;
            }
            "ANIM_end" => {
                if let Some(p) = self.saved.pop() {
                    self.pose = p;
                }
                self.table = None;
                if self.open.pop().is_none() {
                    return Err(Diagnostic::error(
                        codes::ANIM_END_UNOPENED,
                        "ANIM_end without an open ANIM_begin",
                        kw.span(),
                    ));
                }
            }
            "LIGHT_NAMED" => self.obj.lights.named += 1,
            "LIGHT_PARAM" => self.obj.lights.param += 1,
            "LIGHT_CUSTOM" => self.obj.lights.custom += 1,
            "LIGHT_SPILL_CUSTOM" => self.obj.lights.spill += 1,
            other if ANIM.contains(&other) => {
                if self.open.is_empty() {
                    self.diags.push(Diagnostic::warning(
                        codes::ANIM_OUTSIDE,
                        format!("`{other}` outside ANIM_begin … ANIM_end animates nothing"),
                        kw.span(),
                    ));
                } else {
                    self.animate(other, &mut a)?;
                }
            }
            other
                if KNOWN.contains(&other)
                    || KNOWN_PREFIXES.iter().any(|p| other.starts_with(p))
                    || other.starts_with("LIGHT_") => {}
            other => self.diags.push(Diagnostic::warning(
                codes::UNKNOWN_DIRECTIVE,
                format!("unknown directive `{other}`: X-Plane ignores the line"),
                kw.span(),
            )),
        }
        Ok(true)
    }

    fn point_counts(&mut self, line: Line<'a>, a: &mut Args<'a>) -> Result<bool, Diagnostic> {
        if let Some(at) = self.counts_at {
            // The first one's line, found once: a file repeating
            // POINT_COUNTS 40,000 times must not be scanned per repeat.
            let text = self.text;
            let first = *self
                .first_counts_line
                .get_or_insert_with(|| crate::diag::LineIndex::new(text).line(at));
            self.diags.push(Diagnostic::warning(
                codes::POINT_COUNTS_AGAIN,
                format!("POINT_COUNTS again (first on line {first}): these counts replace those"),
                line.span(),
            ));
        }
        self.counts_at = Some(line.start);
        let mut c = [0u64; 4];
        for (i, what) in [
            "a vertex count",
            "a line-vertex count",
            "a light-vertex count",
            "an index count",
        ]
        .iter()
        .enumerate()
        {
            c[i] = a.integer(what, 0, u32::MAX as i64)? as u64;
        }
        let total: u64 = c.iter().sum();
        if let Err(e) = LimitExceeded::check(
            "vertices and indices POINT_COUNTS declares",
            total,
            self.limits.max_mesh_elements,
        ) {
            self.diags.push(Diagnostic::error(
                codes::TOO_LARGE,
                e.to_string(),
                line.span(),
            ));
            return Ok(false);
        }
        self.obj.point_counts = c;
        // Reserve what the declared counts need, but never more than the
        // rest of the file could hold.
        let room = self.text.len().saturating_sub(line.start);
        let reserve = |declared: u64, per: usize| (declared as usize).min(room / per);
        let vt = reserve(c[0], MIN_VT_BYTES).saturating_sub(self.obj.vertices.len());
        let idx = reserve(c[3], MIN_INDEX_BYTES).saturating_sub(self.obj.indices.len());
        self.obj.vertices.reserve(vt);
        self.obj.indices.reserve(idx);
        Ok(true)
    }

    fn over(&mut self, line: Line<'a>, what: &str, slot: usize) -> Result<bool, Diagnostic> {
        let declared = self.obj.point_counts[slot];
        let message = if self.counts_at.is_none() {
            format!("{what} before POINT_COUNTS: X-Plane stops reading the object here")
        } else {
            format!(
                "more {what} rows than the {declared} POINT_COUNTS declares: X-Plane stops reading the object here"
            )
        };
        self.diags
            .push(Diagnostic::error(codes::OVER_COUNT, message, line.span()));
        Ok(false)
    }

    /// The object, its own diagnostics appended to `diags`.
    fn finish(mut self, diags: &mut Vec<Diagnostic>) -> Obj {
        let counts = self.obj.point_counts;
        let have = [
            self.obj.vertices.len() as u64,
            self.obj.line_vertices as u64,
            self.obj.light_vertices as u64,
            self.obj.indices.len() as u64,
        ];
        let at = self.counts_at.map(|s| {
            let end = self.text[s..]
                .find(['\n', '\r'])
                .map_or(self.text.len(), |e| s + e);
            s..end
        });
        for (i, what) in ["VT", "VLINE", "VLIGHT", "IDX"].iter().enumerate() {
            if have[i] < counts[i]
                && let Some(span) = at.clone()
            {
                self.diags.push(Diagnostic::warning(
                    codes::UNDER_COUNT,
                    format!(
                        "POINT_COUNTS declares {} {what} but the file has {}",
                        counts[i], have[i]
                    ),
                    span,
                ));
            }
        }
        for (d, span) in self.obj.draws.iter().zip(&self.draw_spans) {
            let (table, len) = match d.kind {
                DrawKind::Lights => ("light vertices", self.obj.light_vertices),
                _ => ("indices", self.obj.indices.len()),
            };
            if d.offset as u64 + d.count as u64 > len as u64 {
                self.diags.push(Diagnostic::error(
                    codes::DRAW_RANGE,
                    format!(
                        "draws {} from {} but the file has {len} {table}",
                        d.count, d.offset
                    ),
                    span.clone(),
                ));
            }
        }
        if let Some(&at) = self.open.first() {
            let end = self.text[at..]
                .find(['\n', '\r'])
                .map_or(self.text.len(), |e| at + e);
            self.diags.push(Diagnostic::error(
                codes::ANIM_UNCLOSED,
                format!(
                    "{} ANIM_begin never closed by ANIM_end (this one is the outermost)",
                    self.open.len()
                ),
                at..end,
            ));
        }
        self.obj.lights.points = self
            .obj
            .draws
            .iter()
            .filter(|d| d.kind == DrawKind::Lights)
            .map(|d| d.count as usize)
            .sum();
        diags.append(&mut self.diags);
        self.obj
    }
}
