//! The facade reader: text → [`Facade`] with diagnostics.
//!
//! One pass over the lines, the way xptools `WED_ResourceMgr::GetFac` reads
//! them: a `TEXTURE` belongs to the wall unless `SHADER_ROOF` came before
//! it; type-1 wall properties belong to the last `WALL`; type-2 directives
//! nest floor → segment → mesh by order, never by recursion. Mesh vertices
//! are not kept (only their count and box), and the meshes' declared counts
//! are summed against [`Limits::max_mesh_elements`] before anything is
//! read into them.

use super::{
    Facade, FacadeLod, Floor, Mesh, Panel, Part, RoofWindow, Segment, Wall, WallRule, codes,
};
use crate::diag::{Diagnostic, Refused};
use crate::limits::Limits;
use crate::xptext::{self, ArgCodes, Args, Checked, Line};

const ARGS: ArgCodes = ArgCodes {
    missing: codes::MISSING_ARG,
    not_number: codes::NOT_A_NUMBER,
    not_finite: codes::NOT_FINITE,
    out_of_range: codes::OUT_OF_RANGE,
};

/// Reads a facade; `name` names the file in the refusal. Warnings are
/// dropped: [`check`] returns them.
pub fn read(bytes: &[u8], name: &str, limits: &Limits) -> Result<Facade, Refused> {
    check(bytes, limits).into_result(name)
}

/// Reads a facade, returning its text, the model (unless the header is
/// wrong) and every diagnostic.
pub fn check(bytes: &[u8], limits: &Limits) -> Checked<Facade> {
    xptext::check_with(
        bytes,
        super::VERSIONS,
        "FACADE",
        codes::HEADER,
        |text, h, diags| {
            let mut r = Reader {
                limits,
                diags: Vec::new(),
                fac: Facade {
                    version: h.version,
                    ring: true,
                    two_sided: false,
                    graded: false,
                    draped: false,
                    textures: Default::default(),
                    lods: Vec::new(),
                    floors_min: 1.0,
                    floors_max: 999.0,
                    floors: Vec::new(),
                    objects: Vec::new(),
                    roof_scale: None,
                    roof_window: None,
                    doubled: false,
                    no_roof_mesh: false,
                    scrapers: 0,
                    scraper_objects: Vec::new(),
                },
                roof_shader: false,
                tex_scale: [1.0, 1.0],
                declared: 0,
                object_refs: Vec::new(),
                newer_warned: false,
                curved: false,
            };
            diags.extend(xptext::each_line(text, h.body, |line| r.line(line)));
            r.finish(diags)
        },
    )
}

/// Directives X-Plane reads whose arguments agkit does not need.
const KNOWN: &[&str] = &[
    "HARD_ROOF",
    "HARD_WALL",
    "NO_BLEND",
    "LAYER_GROUP",
    "LAYER_GROUP_DRAPED",
    "SPECULAR",
    "BUMP_LEVEL",
    "NORMAL_METALNESS",
    "WEATHER",
    "NO_ALPHA",
    "DITHER_ALPHA",
    "TWO_SIDED_ROOF",
    "NO_WALL_MESH",
    "FACADE_SCRAPER_PAD",
    "CAP_HEIGHT",
    "SEGMENT_HARD",
    "ROOF_HARD",
    "TEXTURE_MODULATOR",
    "DECAL_LIB",
];

/// Directives of type-2 facades (version 1000).
const TYPE2: &[&str] = &[
    "FLOOR",
    "SEGMENT",
    "SEGMENT_CURVED",
    "MESH",
    "VERTEX",
    "IDX",
    "ATTACH_DRAPED",
    "ATTACH_GRADED",
    "SPELLING",
    "WALL_RULE",
    "ROOF_HEIGHT",
    "ROOF_OBJ",
    "ROOF_OBJ_HEADING",
    "OBJ",
    "NO_ROOF_MESH",
];

struct Reader<'a> {
    limits: &'a Limits,
    diags: Vec<Diagnostic>,
    fac: Facade,
    roof_shader: bool,
    /// `TEX_SIZE`: type-1 texture coordinates are divided by it.
    tex_scale: [f64; 2],
    /// Vertices and indices the meshes declared so far.
    declared: u64,
    /// Object indices named by ATTACH and ROOF_OBJ, with where.
    object_refs: Vec<(usize, std::ops::Range<usize>)>,
    newer_warned: bool,
    /// The segment opened last is a `SEGMENT_CURVED`.
    curved: bool,
}

impl<'a> Reader<'a> {
    /// Reads one line; `Ok(false)` stops reading.
    fn line(&mut self, line: Line<'a>) -> Result<bool, Diagnostic> {
        let mut a = Args::new(line, ARGS);
        let kw = a.keyword();
        if self.fac.version == 800 && TYPE2.contains(&kw.text) && !self.newer_warned {
            self.newer_warned = true;
            self.diags.push(Diagnostic::warning(
                codes::NEWER_KEYWORD,
                format!(
                    "`{}` belongs to version 1000 facades but the header says 800; read as 1000 reads it",
                    kw.text
                ),
                kw.span(),
            ));
        }
        match kw.text {
            "SHADER_WALL" => self.roof_shader = false,
            "SHADER_ROOF" => self.roof_shader = true,
            "TEXTURE" | "TEXTURE_LIT" | "TEXTURE_NORMAL" => self.texture(&mut a)?,
            "RING" => self.fac.ring = a.number("0 or 1")? > 0.0,
            "TWO_SIDED" => self.fac.two_sided = a.number("0 or 1")? > 0.0,
            "DOUBLED" => self.fac.doubled = a.number("0 or 1")? > 0.0,
            "BASEMENT_DEPTH" => {
                let depth = a.number("a texture depth")? * self.tex_scale[1];
                if !self.fac.is_type2() {
                    self.type1_wall(line)?.basement = depth;
                }
            }
            "GRADED" => self.fac.graded = true,
            "DRAPED" => self.fac.draped = true,
            "LOD" => {
                let near = a.number("a near distance")?;
                let far = a.number("a far distance")?;
                self.fac.lods.push(FacadeLod {
                    near,
                    far,
                    ..FacadeLod::default()
                });
            }
            "TEX_SIZE" => {
                let w = a.divisor("a width")?;
                let h = a.divisor("a height")?;
                self.tex_scale = [
                    if w != 0.0 { 1.0 / w } else { 1.0 },
                    if h != 0.0 { 1.0 / h } else { 1.0 },
                ];
            }
            "FLOORS_MIN" => self.fac.floors_min = a.number("a floor count")?,
            "FLOORS_MAX" => self.fac.floors_max = a.number("a floor count")?,
            "WALL" => self.wall(&mut a)?,
            "WALL_RULE" => {
                let f = [
                    a.number("a minimum width")?,
                    a.number("a maximum width")?,
                    a.number("a minimum heading")?,
                    a.number("a maximum heading")?,
                ];
                self.wall_rule(line)?.filters.push(f);
            }
            "SCALE" => {
                let s = [a.number("metres across")?, a.number("metres up")?];
                self.type1_wall(line)?.scale = s;
            }
            "ROOF_SLOPE" => {
                let slope = a.number("an angle")?;
                let slant = a.optional_word().is_some_and(|w| w.text == "SLANT");
                let wall = self.type1_wall(line)?;
                wall.roof_slope = slope;
                wall.slant = slant || slope.abs() >= 90.0;
            }
            "BOTTOM" | "MIDDLE" | "TOP" | "LEFT" | "CENTER" | "RIGHT" => {
                let (part, across) = match kw.text {
                    "BOTTOM" => (Part::Bottom, false),
                    "MIDDLE" => (Part::Middle, false),
                    "TOP" => (Part::Top, false),
                    "LEFT" => (Part::Left, true),
                    "CENTER" => (Part::Center, true),
                    _ => (Part::Right, true),
                };
                let k = if across {
                    self.tex_scale[0]
                } else {
                    self.tex_scale[1]
                };
                let range = [a.number("a start")? * k, a.number("an end")? * k];
                let wall = self.type1_wall(line)?;
                let panels = if across {
                    &mut wall.across
                } else {
                    &mut wall.up
                };
                panels.push(Panel { part, range });
            }
            "ROOF" => {
                let st = [
                    a.number("an s coordinate")? * self.tex_scale[0],
                    a.number("a t coordinate")? * self.tex_scale[1],
                ];
                self.type1_lod().roof.push(st);
            }
            "ROOF_SCALE" => {
                let s = a.number("a scale")?;
                match a.optional_number()? {
                    Some(t) if !a.is_empty() => {
                        // Type 1: `ROOF_SCALE s1 t1 s_ctr t_ctr s2 t2 rsx rsy`.
                        let mut n = [0.0; 6];
                        for (v, what) in n.iter_mut().zip(["s", "t", "s", "t", "metres", "metres"])
                        {
                            *v = a.number(what)?;
                        }
                        let [ks, kt] = self.tex_scale;
                        self.fac.roof_window = Some(RoofWindow {
                            st: [s * ks, t * kt, n[2] * ks, n[3] * kt],
                            center: [n[0] * ks, n[1] * kt],
                            metres: [n[4], n[5]],
                        });
                    }
                    t => self.fac.roof_scale = Some([s, t.filter(|t| *t != 0.0).unwrap_or(s)]),
                }
            }
            "FLOOR" => {
                self.curved = false;
                let name = a.rest().map(|w| w.text.to_string()).unwrap_or_default();
                self.fac.floors.push(Floor {
                    name,
                    ..Floor::default()
                });
            }
            "SEGMENT" | "SEGMENT_CURVED" => {
                self.curved = kw.text == "SEGMENT_CURVED";
                let floor = self.floor(line)?;
                let list = if kw.text == "SEGMENT" {
                    &mut floor.segments
                } else {
                    &mut floor.curved
                };
                list.push(Segment::default());
            }
            "MESH" => return self.mesh(line, &mut a),
            "VERTEX" => {
                let v = xptext::vertex(&mut a)?;
                self.mesh_mut(line)?.vertex(v);
            }
            "IDX" => self.mesh_mut(line)?.idx_row(&mut a, codes::INDEX_RANGE)?,
            "ATTACH_DRAPED" | "ATTACH_GRADED" => {
                let w = a.word("an object index")?;
                let idx = object_index(w)?;
                for what in ["x", "y", "z", "a heading"] {
                    a.number(what)?;
                }
                self.object_refs.push((idx, w.span()));
                let seg = self.segment(line)?;
                seg.attached.push(idx);
            }
            "SPELLING" => {
                let mut idx = Vec::new();
                while let Some(w) = a.optional_word() {
                    let v = xptext::finite(w, ARGS, "a segment index")?;
                    let n = self.floor(line)?.segments.len();
                    if v < 0.0 || v.fract() != 0.0 || v >= n as f64 {
                        return Err(Diagnostic::error(
                            codes::SEGMENT_RANGE,
                            format!(
                                "segment `{}` is not one of the floor's {n} segments",
                                w.text
                            ),
                            w.span(),
                        ));
                    }
                    idx.push(v as usize);
                }
                self.wall_rule(line)?.spellings.push(idx);
            }
            "ROOF_HEIGHT" => {
                let mut hs = vec![a.number("a height")?];
                while !a.is_empty() {
                    hs.push(a.number("a height")?);
                }
                self.floor(line)?.roof_heights.extend(hs);
            }
            "ROOF_OBJ" | "ROOF_OBJ_HEADING" => {
                let w = a.word("an object index")?;
                let idx = object_index(w)?;
                a.number("an s coordinate")?;
                a.number("a t coordinate")?;
                self.object_refs.push((idx, w.span()));
                self.floor(line)?;
            }
            "OBJ" => match a.rest() {
                Some(p) => self.fac.objects.push(p.text.to_string()),
                None => return Err(a.missing("an object path")),
            },
            "NO_ROOF_MESH" => self.fac.no_roof_mesh = true,
            "FACADE_SCRAPER" => self.fac.scrapers += 1,
            "FACADE_SCRAPER_MODEL" => {
                if let Some(w) = a.optional_word() {
                    self.fac.scraper_objects.push(w.text.to_string());
                }
                if let Some(w) = a.optional_word().filter(|w| w.text != "-") {
                    self.fac.scraper_objects.push(w.text.to_string());
                }
            }
            "FACADE_SCRAPER_MODEL_OFFSET" => {
                for what in ["x", "z", "a heading"] {
                    a.number(what)?;
                }
                if let Some(w) = a.optional_word() {
                    self.fac.scraper_objects.push(w.text.to_string());
                }
            }
            other
                if KNOWN.contains(&other)
                    || other.starts_with("DECAL")
                    || other.starts_with("NORMAL_DECAL") => {}
            other => self.diags.push(Diagnostic::warning(
                codes::UNKNOWN_DIRECTIVE,
                format!("unknown directive `{other}`: X-Plane ignores the line"),
                kw.span(),
            )),
        }
        Ok(true)
    }

    fn texture(&mut self, a: &mut Args<'a>) -> Result<(), Diagnostic> {
        let kw = a.keyword().text;
        if kw == "TEXTURE_NORMAL" {
            a.skip_ratio();
        }
        let role = match (kw, self.roof_shader) {
            ("TEXTURE", false) => "wall",
            ("TEXTURE", true) => "roof",
            ("TEXTURE_LIT", false) => "wall_lit",
            ("TEXTURE_LIT", true) => "roof_lit",
            (_, false) => "wall_normal",
            (_, true) => "roof_normal",
        };
        match a.rest() {
            Some(p) => {
                self.fac.textures.insert(role.into(), p.text.to_string());
            }
            None => self.diags.push(Diagnostic::new(
                crate::diag::Severity::Note,
                codes::NO_PATH,
                format!("`{kw}` names no file"),
                crate::diag::Location::Span(a.line().span()),
            )),
        }
        Ok(())
    }

    fn wall(&mut self, a: &mut Args<'a>) -> Result<(), Diagnostic> {
        self.roof_shader = false;
        let min_width = a.number("a minimum width")?;
        let max_width = a.number("a maximum width")?;
        let mut headings = None;
        if let Some(lo) = a.optional_number()? {
            let hi = a.number("a maximum heading")?;
            headings = Some([lo, hi]);
        }
        let name = a.rest().map(|w| w.text.to_string());
        if let Some(floor) = self.fac.floors.last_mut() {
            let [lo, hi] = headings.unwrap_or([0.0, 360.0]);
            floor.walls.push(WallRule {
                filters: vec![[min_width, max_width, lo, hi]],
                name,
                spellings: Vec::new(),
            });
        } else {
            self.type1_lod().walls.push(Wall {
                min_width,
                max_width,
                headings,
                name,
                ..Wall::default()
            });
        }
        Ok(())
    }

    fn mesh(&mut self, line: Line<'a>, a: &mut Args<'a>) -> Result<bool, Diagnostic> {
        // `MESH group near far vertices indices`; files of older exporters
        // leave the group out. The counts only reserve memory (WorldEditor
        // reads them so), so rows past them are read.
        let mut n = Vec::with_capacity(5);
        while n.len() < 5 {
            match a.optional_word() {
                Some(w) => n.push(xptext::finite(w, ARGS, "a mesh count")?),
                None => break,
            }
        }
        if n.len() < 4 {
            return Err(a.missing("a group, near and far distances, a vertex and an index count"));
        }
        let count = |v: f64| v.clamp(0.0, u32::MAX as f64) as u64;
        let (v, i) = (count(n[n.len() - 2]), count(n[n.len() - 1]));
        let limit = self.limits.max_mesh_elements;
        match Mesh::declared(line, [v, i], &mut self.declared, limit, codes::TOO_LARGE) {
            Ok(mesh) => self.segment(line)?.meshes.push(mesh),
            Err(d) => {
                self.diags.push(d);
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn type1_lod(&mut self) -> &mut FacadeLod {
        if self.fac.lods.is_empty() {
            self.fac.lods.push(FacadeLod::default());
        }
        let n = self.fac.lods.len();
        &mut self.fac.lods[n - 1]
    }

    fn type1_wall(&mut self, line: Line<'a>) -> Result<&mut Wall, Diagnostic> {
        self.fac
            .lods
            .last_mut()
            .and_then(|l| l.walls.last_mut())
            .ok_or_else(|| xptext::out_of_place(codes::OUT_OF_PLACE, line, "a WALL"))
    }

    fn floor(&mut self, line: Line<'a>) -> Result<&mut Floor, Diagnostic> {
        self.fac
            .floors
            .last_mut()
            .ok_or_else(|| xptext::out_of_place(codes::OUT_OF_PLACE, line, "a FLOOR"))
    }

    fn wall_rule(&mut self, line: Line<'a>) -> Result<&mut WallRule, Diagnostic> {
        self.floor(line)?
            .walls
            .last_mut()
            .ok_or_else(|| xptext::out_of_place(codes::OUT_OF_PLACE, line, "a WALL of a FLOOR"))
    }

    fn segment(&mut self, line: Line<'a>) -> Result<&mut Segment, Diagnostic> {
        let curved = self.curved;
        let floor = self.floor(line)?;
        let list = if curved {
            &mut floor.curved
        } else {
            &mut floor.segments
        };
        list.last_mut()
            .ok_or_else(|| xptext::out_of_place(codes::OUT_OF_PLACE, line, "a SEGMENT"))
    }

    fn mesh_mut(&mut self, line: Line<'a>) -> Result<&mut Mesh, Diagnostic> {
        self.segment(line)?
            .meshes
            .last_mut()
            .ok_or_else(|| xptext::out_of_place(codes::OUT_OF_PLACE, line, "a MESH"))
    }

    /// The facade, its own diagnostics appended to `diags`.
    fn finish(mut self, diags: &mut Vec<Diagnostic>) -> Facade {
        for (idx, span) in std::mem::take(&mut self.object_refs) {
            if idx >= self.fac.objects.len() {
                self.diags.push(Diagnostic::error(
                    codes::OBJECT_RANGE,
                    format!(
                        "object {idx} is not one of the facade's {} OBJ lines",
                        self.fac.objects.len()
                    ),
                    span,
                ));
            }
        }
        for f in &self.fac.floors {
            for m in f.segments.iter().chain(&f.curved).flat_map(|s| &s.meshes) {
                let have = [m.vertices as u64, m.indices as u64];
                let code = if have[0] > m.declared[0] || have[1] > m.declared[1] {
                    codes::OVER_COUNT
                } else if have[0] < m.declared[0] || have[1] < m.declared[1] {
                    codes::UNDER_COUNT
                } else {
                    continue;
                };
                self.diags.push(Diagnostic::warning(
                    code,
                    format!(
                        "the MESH declares {} vertices and {} indices but has {} and {}",
                        m.declared[0], m.declared[1], have[0], have[1]
                    ),
                    m.at.clone(),
                ));
            }
        }
        let no_walls = if self.fac.is_type2() {
            self.fac.floors.iter().all(|f| f.walls.is_empty())
        } else {
            self.fac.lods.iter().all(|l| l.walls.is_empty())
        };
        if no_walls {
            self.diags.push(Diagnostic::new(
                crate::diag::Severity::Warning,
                codes::NO_WALLS,
                "the facade has no WALL: X-Plane draws no walls",
                crate::diag::Location::File,
            ));
        }
        diags.append(&mut self.diags);
        self.fac
    }
}

fn object_index(w: xptext::Word<'_>) -> Result<usize, Diagnostic> {
    let v = xptext::finite(w, ARGS, "an object index")?;
    if v < 0.0 || v.fract() != 0.0 || v > u32::MAX as f64 {
        return Err(Diagnostic::error(
            codes::OBJECT_RANGE,
            format!("object index `{}` is not a whole number", w.text),
            w.span(),
        ));
    }
    Ok(v as usize)
}
