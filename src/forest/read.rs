//! The forest reader: text → [`Forest`] with diagnostics.
//!
//! One pass over the lines. A `TREE` takes its columns in order (s t w h
//! offset percentage min-height max-height quads layer) and the rest of the
//! line as its name, which real files often leave out; X-Plane 12's `TREE2`
//! has two more numbers before the quads (read and not kept, as
//! WorldEditor reads them). 3-D meshes keep only their counts and box; their
//! declared counts are summed against [`Limits::max_mesh_elements`].

use super::{Forest, Group, Tree, TreeMesh, codes};
use crate::diag::{Diagnostic, Location, Refused, Severity};
use crate::limits::Limits;
use crate::xptext::{self, ArgCodes, Args, Checked, Line, MeshBlock};

const ARGS: ArgCodes = ArgCodes {
    missing: codes::MISSING_ARG,
    not_number: codes::NOT_A_NUMBER,
    not_finite: codes::NOT_FINITE,
    out_of_range: codes::OUT_OF_RANGE,
};

/// Reads a forest; `name` names the file in the refusal. Warnings are
/// dropped: [`check`] returns them.
pub fn read(bytes: &[u8], name: &str, limits: &Limits) -> Result<Forest, Refused> {
    check(bytes, limits).into_result(name)
}

/// Reads a forest, returning its text, the model (unless the header is
/// wrong) and every diagnostic.
pub fn check(bytes: &[u8], limits: &Limits) -> Checked<Forest> {
    xptext::check_with(
        bytes,
        super::VERSIONS,
        "FOREST",
        codes::HEADER,
        |text, h, diags| {
            let mut r = Reader {
                limits,
                diags: Vec::new(),
                forest: Forest {
                    version: h.version,
                    textures: Default::default(),
                    scale: [256.0, 256.0],
                    spacing: [30.0, 30.0],
                    random: [0.0, 0.0],
                    lod: None,
                    trees: Vec::new(),
                    groups: Vec::new(),
                    meshes: Vec::new(),
                    skip_surfaces: Vec::new(),
                    noise: Default::default(),
                    index: Default::default(),
                },
                shader_3d: false,
                declared: 0,
                mesh_refs: Vec::new(),
            };
            diags.extend(xptext::each_line(text, h.body, |line| r.line(line)));
            r.finish(diags)
        },
    )
}

/// Directives X-Plane reads whose arguments agkit does not need.
const KNOWN: &[&str] = &[
    "NO_SHADOW",
    "NO_BLEND",
    "SPECULAR",
    "BUMP_LEVEL",
    "NORMAL_METALNESS",
    "NORMAL_TRANSLUCENCY",
    "BLEND_HASH",
    "SHADOW_BLEND",
    "DITHER_ALPHA",
    "NO_ALPHA",
    "WIND_BEND",
    "WIND_SPEED",
    "TEXTURE_MODULATOR",
];

struct Reader<'a> {
    limits: &'a Limits,
    diags: Vec<Diagnostic>,
    forest: Forest,
    shader_3d: bool,
    declared: u64,
    /// `MESH_3D` names with where they are.
    mesh_refs: Vec<(String, std::ops::Range<usize>)>,
}

impl<'a> Reader<'a> {
    fn line(&mut self, line: Line<'a>) -> Result<bool, Diagnostic> {
        let mut a = Args::new(line, ARGS);
        let kw = a.keyword();
        match kw.text {
            "SHADER_2D" => self.shader_3d = false,
            "SHADER_3D" => self.shader_3d = true,
            "TEXTURE" | "TEXTURE_NORMAL" => {
                if kw.text == "TEXTURE_NORMAL" {
                    a.skip_ratio();
                }
                let role = match (kw.text, self.shader_3d) {
                    ("TEXTURE", false) => "texture",
                    ("TEXTURE", true) => "texture_3d",
                    (_, false) => "normal",
                    (_, true) => "normal_3d",
                };
                match a.rest() {
                    Some(p) => {
                        self.forest.textures.insert(role.into(), p.text.to_string());
                    }
                    None => self.diags.push(Diagnostic::new(
                        Severity::Note,
                        codes::NO_PATH,
                        format!("`{}` names no file", kw.text),
                        Location::Span(line.span()),
                    )),
                }
            }
            "SCALE_X" => self.forest.scale[0] = a.divisor("a texture width")?,
            "SCALE_Y" => self.forest.scale[1] = a.divisor("a texture height")?,
            "SPACING" => {
                let s = [a.number("metres across")?, a.number("metres along")?];
                if s[0] <= 0.0 || s[1] <= 0.0 {
                    self.diags.push(Diagnostic::warning(
                        codes::BAD_SPACING,
                        format!("SPACING {} {} must be positive", s[0], s[1]),
                        line.span(),
                    ));
                }
                self.forest.spacing = s;
            }
            "RANDOM" => {
                self.forest.random = [a.number("metres across")?, a.number("metres along")?]
            }
            "LOD" => self.forest.lod = Some(a.number("a distance")?),
            "SKIP_SURFACE" => match a.rest() {
                Some(w) => self.forest.skip_surfaces.push(w.text.to_string()),
                None => return Err(a.missing("a surface name")),
            },
            "DENSITY_PARAMS" | "CHOICE_PARAMS" | "HEIGHT_PARAMS" => {
                let mut v = Vec::new();
                while !a.is_empty() && v.len() < 16 {
                    v.push(a.number("a wavelength or amplitude")?);
                }
                self.forest.noise.insert(kw.text.to_string(), v);
            }
            "GROUP" => {
                let layer = a.number("a layer")?;
                let percentage = a.number("a percentage")?;
                self.forest.groups.push(Group { layer, percentage });
            }
            "TREE" | "TREE2" => self.tree(line, &mut a)?,
            "Y_QUAD" => self.last_tree(line)?.y_quads += 1,
            "MESH_3D" => {
                let w = a.word("a mesh name")?;
                self.mesh_refs.push((w.text.to_string(), w.span()));
                self.last_tree(line)?.meshes.push(w.text.to_string());
            }
            "MESH" => return self.mesh(line, &mut a),
            "VERTEX" => {
                let v = xptext::vertex(&mut a)?;
                self.last_mesh(line)?.vertex(v);
            }
            "IDX" => self.last_mesh(line)?.idx_row(&mut a, codes::INDEX_RANGE)?,
            other if KNOWN.contains(&other) => {}
            other => self.diags.push(Diagnostic::warning(
                codes::UNKNOWN_DIRECTIVE,
                format!("unknown directive `{other}`: X-Plane ignores the line"),
                kw.span(),
            )),
        }
        Ok(true)
    }

    fn tree(&mut self, line: Line<'a>, a: &mut Args<'a>) -> Result<(), Diagnostic> {
        let mut v = [0.0f64; 8];
        let what = [
            "s",
            "t",
            "a width",
            "a height",
            "an offset",
            "a percentage",
            "a minimum height",
            "a maximum height",
        ];
        for (x, what) in v.iter_mut().zip(what) {
            *x = a.number(what)?;
        }
        if a.keyword().text == "TREE2" {
            a.number("a number")?;
            a.number("a number")?;
        }
        let whole = |a: &mut Args<'a>, what: &str| -> Result<u32, Diagnostic> {
            let w = a.word(what)?;
            let n = xptext::finite(w, ARGS, what)?;
            if n < 0.0 || n.fract() != 0.0 || n > u32::MAX as f64 {
                return Err(Diagnostic::error(
                    codes::BAD_LAYER,
                    format!(
                        "{what} must be a whole number of 0 or more, not `{}`",
                        w.text
                    ),
                    w.span(),
                ));
            }
            Ok(n as u32)
        };
        let quads = whole(a, "a quad count")?;
        let layer = whole(a, "a layer")?;
        let name = a.rest().map(|w| w.text.to_string());
        let tree = Tree {
            s: v[0],
            t: v[1],
            w: v[2],
            h: v[3],
            offset: v[4],
            percentage: v[5],
            min_height: v[6],
            max_height: v[7],
            quads,
            layer,
            name,
            group: self.forest.groups.len().checked_sub(1),
            meshes: Vec::new(),
            y_quads: 0,
        };
        if !tree.is_drawn() {
            self.diags.push(Diagnostic::warning(
                codes::EMPTY_TREE,
                format!("a tree {} wide and {} high is never drawn", tree.w, tree.h),
                line.span(),
            ));
        }
        if tree.min_height > tree.max_height {
            self.diags.push(Diagnostic::warning(
                codes::HEIGHT_ORDER,
                format!(
                    "minimum height {} is above the maximum {}",
                    tree.min_height, tree.max_height
                ),
                line.span(),
            ));
        }
        self.forest.trees.push(tree);
        Ok(())
    }

    fn mesh(&mut self, line: Line<'a>, a: &mut Args<'a>) -> Result<bool, Diagnostic> {
        let name = a.word("a mesh name")?.text.to_string();
        let lod = [a.number("a near distance")?, a.number("a far distance")?];
        let v = a.integer("a vertex count", 0, u32::MAX as i64)? as u64;
        let i = a.integer("an index count", 0, u32::MAX as i64)? as u64;
        let limit = self.limits.max_mesh_elements;
        match MeshBlock::declared(line, [v, i], &mut self.declared, limit, codes::TOO_LARGE) {
            Ok(mesh) => self.forest.meshes.push(TreeMesh { name, lod, mesh }),
            Err(d) => {
                self.diags.push(d);
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn last_tree(&mut self, line: Line<'a>) -> Result<&mut Tree, Diagnostic> {
        self.forest
            .trees
            .last_mut()
            .ok_or_else(|| xptext::out_of_place(codes::OUT_OF_PLACE, line, "a TREE"))
    }

    fn last_mesh(&mut self, line: Line<'a>) -> Result<&mut MeshBlock, Diagnostic> {
        self.forest
            .meshes
            .last_mut()
            .map(|m| &mut m.mesh)
            .ok_or_else(|| xptext::out_of_place(codes::OUT_OF_PLACE, line, "a MESH"))
    }

    /// The forest, its own diagnostics appended to `diags`.
    fn finish(mut self, diags: &mut Vec<Diagnostic>) -> Forest {
        // The names once, in a set: a lookup per MESH_3D through every
        // MESH would be quadratic in a file of many of both.
        let names: std::collections::HashSet<&str> =
            self.forest.meshes.iter().map(|m| m.name.as_str()).collect();
        for (name, span) in std::mem::take(&mut self.mesh_refs) {
            if !names.contains(name.as_str()) {
                self.diags.push(Diagnostic::error(
                    codes::UNKNOWN_MESH,
                    format!("no MESH is named `{name}`"),
                    span,
                ));
            }
        }
        if !self.forest.trees.iter().any(Tree::is_drawn) {
            self.diags.push(Diagnostic::new(
                Severity::Warning,
                codes::NO_TREES,
                "the forest has no tree X-Plane draws",
                Location::File,
            ));
        }
        diags.append(&mut self.diags);
        self.forest
    }
}
