//! Everything a DSF tile places, not only its autogen: `OBJECT` and
//! `OBJECT_MSL` placements of OBJ8 files, facade, forest and draped
//! polygons, painted lines and object strings, laid out beside the
//! tile's autogen uses ([`super::tile`]) with the same resolution, art
//! cache and limits. [`crate::place::Params::whole_tile`] asks for it;
//! [`super::Scenery::place_tile`] then returns a
//! [`TilePlacement`](super::TilePlacement) whose
//! [`whole`](super::TilePlacement::whole) counts every item per kind.
//!
//! **One placement per definition.** The tile's items are read through
//! [`crate::dsf::features`] (the rows `dsf totext` lists) and grouped by
//! the definition that places them: all the `OBJECT`s of one `.obj` make
//! one [`Placement`] of kind `obj`, all the polygons of one `.fac` one of
//! kind `fac`, and so on for `for`, `pol`, `lin` and `str`, in the order
//! each definition is first used, after the autogen placements. A
//! placement's art ([`Placement::art`]) is then one file (the OBJ, the
//! facade, the forest; a `.str`'s objects), which is what the textured
//! picture and the glTF scene already draw from, and a scene shares one
//! mesh per definition. The local frame of a placement is centred on its
//! first item; lon/lat are the DSF's own (not computed back from the
//! frame), so every object stands exactly where the DSF says.
//!
//! **What each kind becomes** (`docs/placement.md`, "A whole tile"):
//!
//! - objects: a [`PlacedObject`] at the DSF position and heading, mode
//!   `draped` (on the ground), `msl` or `agl` with the DSF's
//!   [`elevation`](PlacedObject::elevation) (an AGL one also as
//!   [`height`](PlacedObject::height)); footprint and height from the OBJ;
//! - facades: a [`PlacedFacade`] on the outer ring, the parameter as its
//!   height and the `wall` plane as its wall types, its drawn height,
//!   walls and roof from the `.fac` (the same rules as autogen facades);
//!   a facade of two points (a fence, a row of roof elements) is placed as
//!   the open line it is;
//! - forests: trees filled at the forest's `SPACING` and `RANDOM`, kept
//!   with the probability of the polygon's density, inside the outer ring
//!   and out of its holes (fill mode 0), along the line (mode 1) or at
//!   each point (mode 2), each picked from the forest's lowest layer;
//!   without the forest, at [`Params::tree_spacing`](crate::place::Params);
//! - draped polygons: a [`PlacedDraped`] with its rings and holes, the UV
//!   planes when the DSF gives them, else the parameter's texture heading
//!   and the `.pol`'s `SCALE`;
//! - painted lines: a [`PlacedLine`] with the `.lin`'s width and texture;
//! - object strings: a [`PlacedLine`] and its objects every `spacing`
//!   metres along it (the parameter), the `.str`'s objects in turn, each
//!   heading along the line plus a draw within its range, moved `OFFSET`
//!   metres to the right.
//!
//! **Nothing is silently dropped.** Road networks (`.net`: Laminar's are
//! not public), beaches (`.bch`), terrain patches, rasters, polygons of
//! any other kind and geometry [`crate::dsf::features`] leaves out are
//! counted per kind in [`WholeTile::counts`] and named with the reason in
//! [`WholeTile::not_drawn`]. Definitions that resolve nowhere are still
//! placed from the DSF's geometry, their items marked
//! [`ArtState::Missing`], and listed in [`WholeTile::unresolved`].

use super::art::{ArtKind, Libraries, Read, facade_textures, forest_textures, object_textures};
use super::context::Scenery;
use super::resolve::Tile;
use super::tile::Unresolved;
use crate::draped::DrapedArt;
use crate::dsf::features::{self, Feature, Geometry, Layer};
use crate::dsf::{Dsf, ElevationMode, Entity};
use crate::geom::{LocalFrame, LonLat, Xy};
use crate::place::art::{Art, ArtFile, ArtState, TextureRole, TreeArt};
use crate::place::{
    Params, PlacedDraped, PlacedFacade, PlacedLine, PlacedObject, PlacedTree, Placement,
    PlacementKind, Rng, Warning,
};
use rand::RngExt;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Most grid points one forest polygon's fill examines; a wider polygon is
/// filled at a wider spacing (with a warning).
pub const MAX_FOREST_POINTS: f64 = 250_000.0;

/// How many items of one kind the tile has, and what became of them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct KindCount {
    /// Rows of this kind in the DSF, as `dsf totext` lists them (a line
    /// or object string counts once per winding).
    pub in_dsf: usize,
    /// Rows laid out (an autogen use placed, an object stood, a polygon
    /// filled, draped or built).
    pub placed: usize,
    /// Rows not drawn (see [`WholeTile::not_drawn`] for why).
    pub not_drawn: usize,
}

/// Items of one definition (or one kind of content) that are not drawn,
/// and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NotDrawn {
    /// The kind (`net`, `bch`, `terrain`, `raster`, `obj` …).
    pub kind: String,
    /// The definition path (empty for terrain and rasters).
    pub definition: String,
    /// How many.
    pub items: usize,
    /// Why.
    pub why: String,
}

/// What placing the whole tile found, beside its placements.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct WholeTile {
    /// Per kind (the definition's extension; `terrain`, `raster` for the
    /// base mesh), the tile's rows and what became of them.
    pub counts: BTreeMap<String, KindCount>,
    /// What is not drawn, per definition and reason.
    pub not_drawn: Vec<NotDrawn>,
    /// Definitions (other than autogen) that resolve nowhere, counted per
    /// path with the rows that name them; their rows are still placed,
    /// without art.
    pub unresolved: Unresolved,
}

impl WholeTile {
    /// Rows counted in the DSF, all kinds.
    pub fn in_dsf(&self) -> usize {
        self.counts.values().map(|c| c.in_dsf).sum()
    }

    /// Adds another tile's counts (a folder of tiles).
    pub fn merge(&mut self, other: WholeTile) {
        for (k, c) in other.counts {
            let e = self.counts.entry(k).or_default();
            e.in_dsf += c.in_dsf;
            e.placed += c.placed;
            e.not_drawn += c.not_drawn;
        }
        for n in other.not_drawn {
            self.name(&n.kind, &n.definition, n.items, n.why);
        }
        self.unresolved.merge(other.unresolved);
    }

    /// Rows not drawn, all kinds.
    pub fn not_drawn_items(&self) -> usize {
        self.counts.values().map(|c| c.not_drawn).sum()
    }

    fn mark_not_drawn(&mut self, kind: &str, definition: &str, items: usize, why: String) {
        if items == 0 {
            return;
        }
        self.counts.entry(kind.to_string()).or_default().not_drawn += items;
        self.name(kind, definition, items, why);
    }

    /// Names what is not drawn without counting its rows (a string whose
    /// line is placed but whose objects are not).
    fn name(&mut self, kind: &str, definition: &str, items: usize, why: String) {
        match self
            .not_drawn
            .iter_mut()
            .find(|n| n.kind == kind && n.definition == definition && n.why == why)
        {
            Some(n) => n.items += items,
            None => self.not_drawn.push(NotDrawn {
                kind: kind.to_string(),
                definition: definition.to_string(),
                items,
                why,
            }),
        }
    }
}

/// One definition's rows, in order.
struct Group<'a> {
    kind: PlacementKind,
    definition: &'a str,
    rows: Vec<&'a Feature>,
}

/// The art of one definition, as placement reads it.
#[derive(Default)]
struct DefArt {
    /// For `Placement::art` (OBJ, facade, forest, a `.str`'s objects).
    art: Option<Arc<Art>>,
    /// The state of the definition's own file (`None`: art not looked up).
    state: Option<ArtState>,
    /// A `.pol`, `.lin` or `.str`, when read.
    draped: Option<DrapedArt>,
    /// Why the definition's own file could not be read (file, line and
    /// reason), when it could not.
    why: Option<String>,
}

/// The draped format a whole tile's definition of `kind` is read as (its
/// extension's: `.pol`, `.lin`, `.str`).
fn draped_kind(kind: PlacementKind) -> crate::draped::DrapedKind {
    use crate::draped::DrapedKind;
    match kind {
        PlacementKind::Lin => DrapedKind::Line,
        PlacementKind::Str => DrapedKind::String,
        _ => DrapedKind::Polygon,
    }
}

impl Scenery {
    /// Lays out every item of `dsf` that is not autogen (see the module
    /// docs) and counts every kind, autogen ones from `placements`
    /// (already placed, one per use).
    pub(crate) fn place_rest(
        &self,
        path: &Path,
        dsf: &Dsf,
        tile: Tile,
        params: &Params,
        placements: &mut Vec<Placement>,
    ) -> WholeTile {
        let feats = features::features(dsf);
        let mut whole = WholeTile::default();
        for f in &feats.features {
            whole.counts.entry(f.kind.clone()).or_default().in_dsf += 1;
        }
        for p in placements.iter() {
            whole.counts.entry(p.kind.to_string()).or_default().placed += 1;
        }
        // Autogen uses not placed (their asset resolves nowhere, has
        // errors, or the engine refused it).
        for kind in PlacementKind::ALL.into_iter().filter(|k| k.is_autogen()) {
            if let Some(c) = whole.counts.get(kind.as_str()).copied()
                && c.in_dsf > c.placed
            {
                whole.mark_not_drawn(
                    kind.as_str(),
                    "",
                    c.in_dsf - c.placed,
                    "autogen uses not placed: their asset resolves nowhere, has errors, or the \
                     engine refused it (the tile's unresolved, assets and warnings say which)"
                        .into(),
                );
            }
        }
        // A facade of two points is an open facade (a fence, a row of roof
        // elements): `features` leaves it out as a ring, it is placed here
        // as the line it is.
        let mut open_facades: Vec<Feature> = Vec::new();
        // Rows `features` left out (their geometry is not valid) are rows
        // of the DSF not drawn; a hole it dropped is named, not counted.
        for n in &feats.notes {
            let (kind, def) = entity_def(dsf, n.entity);
            if kind == "fac"
                && let Some(f) = open_facade(dsf, n.entity, &def)
            {
                whole.counts.entry(kind).or_default().in_dsf += 1;
                open_facades.push(f);
                continue;
            }
            if n.message.contains("left out") {
                whole.counts.entry(kind.clone()).or_default().in_dsf += 1;
                whole.mark_not_drawn(&kind, &def, 1, n.message.clone());
            } else {
                whole.name(&kind, &def, 1, n.message.clone());
            }
        }
        let patches = dsf
            .entities
            .iter()
            .filter(|e| matches!(e, Entity::Patch(_)))
            .count();
        whole.counts.entry("terrain".into()).or_default().in_dsf += patches;
        whole.mark_not_drawn(
            "terrain",
            "",
            patches,
            "terrain patches (the base mesh) are not drawn".into(),
        );
        whole.counts.entry("raster".into()).or_default().in_dsf += dsf.rasters.len();
        whole.mark_not_drawn(
            "raster",
            "",
            dsf.rasters.len(),
            "raster layers (elevation, sea level …) are not drawn".into(),
        );
        whole.counts.retain(|_, c| *c != KindCount::default());

        // Group the rows by definition, first use first.
        let mut groups: Vec<Group> = Vec::new();
        let mut at: BTreeMap<(PlacementKind, &str), usize> = BTreeMap::new();
        let mut rows: Vec<&Feature> = feats.features.iter().chain(&open_facades).collect();
        rows.sort_by_key(|f| f.entity);
        for f in rows {
            let kind = match (f.layer, f.kind.as_str()) {
                (Layer::Objects, "agp") | (Layer::Polygons, "agb" | "ags") => continue,
                (Layer::Chains, _) => {
                    whole.mark_not_drawn(
                        "net",
                        &f.definition,
                        1,
                        "road networks need Laminar's .net, which is not public".into(),
                    );
                    continue;
                }
                // The kinds a whole tile lays out besides autogen.
                (_, k) => match k.parse::<PlacementKind>() {
                    Ok(k) if !k.is_autogen() => k,
                    _ => {
                        let why = match k {
                            "bch" => "beaches are not drawn".to_string(),
                            "" => "a definition without an extension is not drawn".to_string(),
                            k => format!("a .{k} is not a kind agkit draws"),
                        };
                        whole.mark_not_drawn(k, &f.definition, 1, why);
                        continue;
                    }
                },
            };
            let i = *at.entry((kind, f.definition.as_str())).or_insert_with(|| {
                groups.push(Group {
                    kind,
                    definition: &f.definition,
                    rows: Vec::new(),
                });
                groups.len() - 1
            });
            groups[i].rows.push(f);
        }

        let resolved = self.resolve_all(path, tile, groups.iter().map(|g| g.definition));
        let (_, root) = self.package_of(path);
        let index = self.index_for(&root);
        let libs = (self.install().is_some() || !index.packages.is_empty()).then(|| Libraries {
            index: &index,
            tile: Some(tile),
            conditions: self.conditions(),
        });
        let first_seed = placements.len();
        let mut left = params
            .limits
            .max_placed_items
            .saturating_sub(placements.iter().map(Placement::items).sum());
        for (k, g) in groups.iter().enumerate() {
            let seed = crate::place::tile::use_seed(params.seed, first_seed + k);
            let r = &resolved[g.definition];
            let file = r.pick(seed).map(|c| c.file.clone());
            if file.is_none() {
                whole
                    .unresolved
                    .add(g.definition, g.rows.len(), self.why_unresolved(path, r));
            }
            let art = if self.reads_art() {
                let how = match &file {
                    Some(_) => r.rule.clone(),
                    None => self.why_unresolved(path, r),
                };
                self.def_art(g, file.as_deref(), &how, libs.as_ref(), params)
            } else {
                DefArt::default()
            };
            let origin = first_point(&g.rows[0].geometry);
            let mut p = Placement {
                kind: g.kind,
                asset: g.definition.to_string(),
                origin,
                seed,
                art: art.art.clone(),
                ..Placement::default()
            };
            let frame = LocalFrame::new(origin);
            let before = left;
            let placed = lay(g, &art, &frame, params, seed, &mut p, &mut left);
            if let Some(a) = &art.art {
                crate::place::art::apply(&mut p, a);
            }
            for o in &mut p.objects {
                o.footprint_lonlat = o.footprint.iter().map(|&q| frame.to_lonlat(q)).collect();
            }
            if let (Some(state), None) = (art.state, &art.art)
                && state != ArtState::Found
            {
                p.warnings.push(Warning::coded(
                    format!(
                        "{}: {}{}; its {} placed without it",
                        g.definition,
                        state.describe(),
                        art.why
                            .as_ref()
                            .map(|w| format!(" ({w})"))
                            .unwrap_or_default(),
                        crate::ground::words::count(g.rows.len(), "item"),
                    ),
                    state.codes(),
                ));
            }
            whole.counts.entry(g.kind.to_string()).or_default().placed += placed;
            if placed < g.rows.len() {
                let why = if left == 0 && before > 0 {
                    format!(
                        "the tile passed the limit of {} placed items",
                        params.limits.max_placed_items
                    )
                } else {
                    "nothing to place (see the placement's warnings)".to_string()
                };
                whole.mark_not_drawn(g.kind.as_str(), g.definition, g.rows.len() - placed, why);
            }
            if g.kind == PlacementKind::Str && art.draped.is_none() {
                // Its lines are placed (and counted); its objects are not.
                whole.name(
                    PlacementKind::Str.as_str(),
                    g.definition,
                    g.rows.len(),
                    "the .str was not read, so its objects are not laid (its lines are)".into(),
                );
            }
            placements.push(p);
        }
        whole
    }

    /// Finds and reads the art of one definition resolved to `file`.
    fn def_art(
        &self,
        g: &Group,
        file: Option<&Path>,
        how: &str,
        libs: Option<&Libraries>,
        params: &Params,
    ) -> DefArt {
        let missing = |state: ArtState| DefArt {
            state: Some(state),
            ..DefArt::default()
        };
        let Some(file) = file else {
            let mut d = missing(ArtState::Missing);
            let art = match g.kind {
                PlacementKind::Obj => Art {
                    objects: vec![art_file(g.definition, None, how, None::<Arc<_>>)],
                    ..Art::default()
                },
                PlacementKind::Fac => Art {
                    facades: vec![art_file(g.definition, None, how, None::<Arc<_>>)],
                    ..Art::default()
                },
                PlacementKind::For => Art {
                    forest: Some(art_file(g.definition, None, how, None::<Arc<_>>)),
                    ..Art::default()
                },
                _ => return d,
            };
            d.art = Some(Arc::new(art));
            return d;
        };
        let read = |kind: ArtKind| self.art().read(file, kind);
        let failed = |r: &Read| match r {
            Read::Failed(why) => Some(why.clone()),
            _ => None,
        };
        match g.kind {
            PlacementKind::Obj => {
                let r = read(ArtKind::Object);
                let value = match &*r {
                    Read::Object(s) => Some(Arc::clone(s)),
                    _ => None,
                };
                let how = failed(&r).unwrap_or_else(|| how.to_string());
                let mut a = art_file(g.definition, Some(file), &how, value);
                if let Some(o) = a.get() {
                    a.textures = self.art().textures(file, object_textures(o), libs);
                }
                DefArt {
                    state: Some(a.state),
                    art: Some(Arc::new(Art {
                        objects: vec![a],
                        ..Art::default()
                    })),
                    draped: None,
                    why: None,
                }
            }
            PlacementKind::Fac => {
                let r = read(ArtKind::Facade);
                let value = match &*r {
                    Read::Facade(s) => Some(Arc::clone(s)),
                    _ => None,
                };
                let how = failed(&r).unwrap_or_else(|| how.to_string());
                let mut a = art_file(g.definition, Some(file), &how, value);
                if let Some(fac) = a.get() {
                    a.textures = self.art().textures(file, facade_textures(fac), libs);
                }
                DefArt {
                    state: Some(a.state),
                    art: Some(Arc::new(Art {
                        facades: vec![a],
                        ..Art::default()
                    })),
                    draped: None,
                    why: None,
                }
            }
            PlacementKind::For => {
                let r = read(ArtKind::Forest);
                let value = match &*r {
                    Read::Forest(s) => Some(Arc::clone(s)),
                    _ => None,
                };
                let how = failed(&r).unwrap_or_else(|| how.to_string());
                let mut a = art_file(g.definition, Some(file), &how, value);
                if let Some(f) = a.get() {
                    a.textures = self.art().textures(file, forest_textures(f), libs);
                }
                DefArt {
                    state: Some(a.state),
                    art: Some(Arc::new(Art {
                        forest: Some(a),
                        ..Art::default()
                    })),
                    draped: None,
                    why: None,
                }
            }
            _ => match crate::draped::read(file, draped_kind(g.kind), &params.limits) {
                // The reason (file, line and why) goes with the state, so
                // the placement's warning says why it is unreadable.
                Err(why) => DefArt {
                    why: Some(why),
                    ..missing(ArtState::Invalid)
                },
                Ok(d) => {
                    // A string's objects are the placement's art, found
                    // beside the .str or in the libraries.
                    let art = match &d {
                        DrapedArt::Str(s) => Arc::new(Art {
                            objects: s
                                .objects
                                .iter()
                                .map(|o| self.art().object_file(file, &o.path, libs))
                                .collect(),
                            ..Art::default()
                        }),
                        // A .pol or .lin is the placement's art with its
                        // texture, which the views draw with.
                        _ => {
                            let names = match &d {
                                DrapedArt::Pol(p) => {
                                    p.texture.clone().map(|t| (TextureRole::Draped, t))
                                }
                                DrapedArt::Lin(l) => {
                                    l.texture.clone().map(|t| (TextureRole::Line, t))
                                }
                                _ => None,
                            };
                            let mut a =
                                art_file(g.definition, Some(file), how, Some(Arc::new(d.clone())));
                            a.textures =
                                self.art().textures(file, names.into_iter().collect(), libs);
                            Arc::new(Art {
                                draped: Some(a),
                                ..Art::default()
                            })
                        }
                    };
                    let art = Some(art);
                    DefArt {
                        art,
                        state: Some(ArtState::Found),
                        draped: Some(d),
                        why: None,
                    }
                }
            },
        }
    }
}

/// An art file of a definition: found and read (`value`), found and not
/// read (`how` says why), or not found.
fn art_file<T>(path: &str, file: Option<&Path>, how: &str, value: Option<Arc<T>>) -> ArtFile<T> {
    let state = match (file, &value) {
        (None, _) => ArtState::Missing,
        (Some(_), None) => ArtState::Invalid,
        (Some(_), Some(_)) => ArtState::Found,
    };
    ArtFile {
        path: path.to_string(),
        file: file.map(PathBuf::from),
        state,
        how: how.to_string(),
        value,
        textures: Vec::new(),
    }
}

/// Entity `i` as an open facade, when it is a facade polygon whose outer
/// ring has two distinct points: a line, its `wall` plane kept.
fn open_facade(dsf: &Dsf, i: usize, definition: &str) -> Option<Feature> {
    let Some(Entity::Polygon(p)) = dsf.entities.get(i) else {
        return None;
    };
    if p.windings.is_empty() {
        return None;
    }
    let wall = matches!(p.depth, 3 | 5);
    let mut line: Vec<LonLat> = Vec::new();
    let mut extra = Vec::new();
    for q in p.points(0) {
        let ll = [q[0], q[1]];
        if !(ll[0].is_finite() && ll[1].is_finite()) || line.last() == Some(&ll) {
            continue;
        }
        line.push(ll);
        if wall {
            extra.push(q.get(2).copied().unwrap_or(0.0));
        }
    }
    (line.len() == 2).then(|| Feature {
        layer: Layer::Facades,
        entity: i,
        def: p.def,
        definition: definition.to_string(),
        kind: "fac".into(),
        geometry: Geometry::LineString(line),
        param: Some(p.param),
        heading: None,
        elevation: None,
        mode: None,
        height: Some(f64::from(p.param)),
        winding: None,
        closed: Some(false),
        density: None,
        fill_mode: None,
        spacing: None,
        subtype: None,
        junctions: None,
        planes: if wall { vec!["wall"] } else { Vec::new() },
        extra,
    })
}

/// The kind and definition of entity `i` (for rows `features` left out).
fn entity_def(dsf: &Dsf, i: usize) -> (String, String) {
    let def = match dsf.entities.get(i) {
        Some(Entity::Object(o)) => dsf.object_defs.get(o.def as usize),
        Some(Entity::Polygon(p)) => dsf.polygon_defs.get(p.def as usize),
        Some(Entity::Network(c)) => {
            return (
                "net".into(),
                dsf.network_defs
                    .get(c.def as usize)
                    .cloned()
                    .unwrap_or_default(),
            );
        }
        _ => None,
    }
    .cloned()
    .unwrap_or_default();
    let kind = def
        .rsplit(['/', '\\'])
        .next()
        .and_then(|n| n.rsplit_once('.'))
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    (kind, def)
}

/// The first point of a geometry.
fn first_point(g: &Geometry) -> LonLat {
    match g {
        Geometry::Point(p) => *p,
        Geometry::LineString(l) => l.first().copied().unwrap_or([0.0, 0.0]),
        Geometry::Polygon(r) => r
            .first()
            .and_then(|r| r.first())
            .copied()
            .unwrap_or([0.0, 0.0]),
    }
}

/// The rings of a geometry without their closing points (a line is one
/// ring, open).
fn rings(g: &Geometry) -> Vec<Vec<LonLat>> {
    match g {
        Geometry::Point(p) => vec![vec![*p]],
        Geometry::LineString(l) => vec![l.clone()],
        Geometry::Polygon(rs) => rs
            .iter()
            .map(|r| {
                let mut r = r.clone();
                if r.len() > 1 && r.first() == r.last() {
                    r.pop();
                }
                r
            })
            .collect(),
    }
}

/// The value of plane `name` at point `i` of a row.
fn plane(f: &Feature, name: &str, i: usize) -> Option<f64> {
    let k = f.planes.iter().position(|p| *p == name)?;
    f.extra
        .get(i * f.planes.len() + k)
        .copied()
        .filter(|v| v.is_finite())
}

/// Lays out one definition's rows into `p`, at most `left` items; the
/// rows laid out.
fn lay(
    g: &Group,
    art: &DefArt,
    frame: &LocalFrame,
    params: &Params,
    seed: u64,
    p: &mut Placement,
    left: &mut usize,
) -> usize {
    let mut take = |n: usize| -> bool {
        if *left >= n {
            *left -= n;
            true
        } else {
            *left = 0;
            false
        }
    };
    let local = |r: &[LonLat]| -> Vec<Xy> { r.iter().map(|&q| frame.to_local(q)).collect() };
    let mut rng = crate::place::rng(seed);
    let mut laid = 0;
    // Facade holes: not drawn (X-Plane's facades have none), counted.
    let mut fac_holes = (0usize, 0usize);
    for f in &g.rows {
        match g.kind {
            PlacementKind::Obj => {
                let Geometry::Point(ll) = f.geometry else {
                    continue;
                };
                if !take(1) {
                    break;
                }
                let [x, y] = frame.to_local(ll);
                let (mode, height) = match f.mode {
                    Some(ElevationMode::Msl) => ("msl", 0.0),
                    Some(ElevationMode::Agl) => ("agl", f.elevation.unwrap_or(0.0)),
                    _ => ("draped", 0.0),
                };
                p.objects.push(PlacedObject {
                    asset: g.definition.to_string(),
                    index: 0,
                    mode: mode.into(),
                    x,
                    y,
                    lon: ll[0],
                    lat: ll[1],
                    heading: crate::place::annotate::normalize_heading(f.heading.unwrap_or(0.0)),
                    height,
                    elevation: f.elevation.filter(|_| mode != "draped"),
                    entity: Some(f.entity),
                    ..PlacedObject::default()
                });
                laid += 1;
            }
            PlacementKind::Fac => {
                if !take(1) {
                    break;
                }
                let mut rs = rings(&f.geometry);
                if rs.len() > 1 {
                    fac_holes.0 += 1;
                    fac_holes.1 += rs.len() - 1;
                }
                let outer = rs.swap_remove(0);
                let n = outer.len();
                let walls: Option<Vec<i64>> = f.planes.contains(&"wall").then(|| {
                    (0..n)
                        .map(|i| plane(f, "wall", i).unwrap_or(0.0) as i64)
                        .collect()
                });
                p.facades.push(PlacedFacade {
                    asset: g.definition.to_string(),
                    height: f.height.unwrap_or(0.0),
                    polygon: local(&outer),
                    lonlat: outer,
                    walls,
                    entity: Some(f.entity),
                    ..PlacedFacade::default()
                });
                laid += 1;
            }
            PlacementKind::Pol => {
                if !take(1) {
                    break;
                }
                let rs = rings(&f.geometry);
                let uv = (f.planes.contains(&"u") && f.planes.contains(&"v")).then(|| {
                    let mut i = 0;
                    rs.iter()
                        .map(|r| {
                            r.iter()
                                .map(|_| {
                                    let q = [
                                        plane(f, "u", i).unwrap_or(0.0),
                                        plane(f, "v", i).unwrap_or(0.0),
                                    ];
                                    i += 1;
                                    q
                                })
                                .collect()
                        })
                        .collect()
                });
                let heading = match (f.param, &uv) {
                    (Some(param), None) if param != u16::MAX => Some(pol_heading(param)),
                    _ => None,
                };
                let (texture, scale) = match &art.draped {
                    Some(DrapedArt::Pol(pol)) => (pol.texture.clone(), pol.scale),
                    _ => (None, None),
                };
                p.draped.push(PlacedDraped {
                    asset: g.definition.to_string(),
                    entity: f.entity,
                    rings: rs.iter().map(|r| local(r)).collect(),
                    lonlat: rs,
                    uv,
                    heading,
                    art: art.state,
                    texture,
                    scale,
                });
                laid += 1;
            }
            PlacementKind::Lin | PlacementKind::Str => {
                if !take(1) {
                    break;
                }
                let Geometry::LineString(mut pts) = f.geometry.clone() else {
                    continue;
                };
                let closed = f.closed == Some(true);
                if closed && pts.len() > 1 && pts.first() == pts.last() {
                    pts.pop();
                }
                let (width, texture) = match &art.draped {
                    Some(DrapedArt::Lin(l)) => (l.width(), l.texture.clone()),
                    _ => (None, None),
                };
                let line = PlacedLine {
                    asset: g.definition.to_string(),
                    entity: f.entity,
                    winding: f.winding.unwrap_or(0),
                    points: local(&pts),
                    lonlat: pts,
                    closed,
                    width,
                    spacing: f.spacing,
                    art: art.state,
                    texture,
                };
                if let Some(DrapedArt::Str(s)) = &art.draped {
                    let from = p.objects.len();
                    string_objects(&line, s, f.entity, &mut rng, &mut p.objects, &mut take);
                    for o in &mut p.objects[from..] {
                        [o.lon, o.lat] = frame.to_lonlat([o.x, o.y]);
                    }
                }
                p.lines.push(line);
                laid += 1;
            }
            PlacementKind::For => {
                let forest = art.art.as_deref().and_then(Art::forest);
                let trees = forest.map(|forest| TreeArt { forest, seed });
                if !forest_trees(f, frame, trees, params, &mut rng, p, &mut take) {
                    break;
                }
                laid += 1;
            }
            _ => {}
        }
    }
    if fac_holes.0 > 0 {
        p.warnings.push(format!(
            "{}: {} with {} hole(s) drawn from their outer ring only (X-Plane's facades have no holes: WorldEditor refuses them)",
            g.definition,
            crate::ground::words::count(fac_holes.0, "facade"),
            fac_holes.1
        ).into());
    }
    laid
}

/// A draped polygon's texture heading from its parameter: whole degrees
/// plus 360 × (128 × the fraction, rounded down), as WorldEditor writes
/// it.
pub fn pol_heading(param: u16) -> f64 {
    let whole = f64::from(param % 360);
    let frac = f64::from(param / 360) / 128.0;
    whole + frac
}

/// The objects of an object string along `line`: one every `spacing`
/// metres from its start, the string's objects in turn.
fn string_objects(
    line: &PlacedLine,
    s: &crate::draped::Str,
    entity: usize,
    rng: &mut Rng,
    out: &mut Vec<PlacedObject>,
    take: &mut dyn FnMut(usize) -> bool,
) {
    let spacing = line.spacing.unwrap_or(0.0);
    if s.objects.is_empty() || !(spacing.is_finite() && spacing > 0.0) {
        return;
    }
    let mut pts = line.points.clone();
    if line.closed
        && let Some(&first) = pts.first()
    {
        pts.push(first);
    }
    let mut next = 0.0; // distance along the line of the next object
    let mut walked = 0.0;
    let mut k = 0usize;
    for w in pts.windows(2) {
        let (a, b) = (w[0], w[1]);
        let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
        let len = dx.hypot(dy);
        if len <= 0.0 {
            continue;
        }
        let bearing = dx.atan2(dy).to_degrees();
        // Right of travel: (dy, -dx) normalised.
        let right = [dy / len, -dx / len];
        while next <= walked + len {
            if !take(1) {
                return;
            }
            let t = (next - walked) / len;
            let which = k % s.objects.len();
            let o = &s.objects[which];
            let (lo, hi) = (
                o.heading[0].min(o.heading[1]),
                o.heading[0].max(o.heading[1]),
            );
            let turn = lo + rng.random::<f64>() * (hi - lo);
            out.push(PlacedObject {
                asset: o.path.clone(),
                index: which as i64,
                mode: "draped".into(),
                x: a[0] + dx * t + right[0] * s.offset,
                y: a[1] + dy * t + right[1] * s.offset,
                heading: crate::place::annotate::normalize_heading(bearing + turn),
                entity: Some(entity),
                ..PlacedObject::default()
            });
            k += 1;
            next += spacing;
        }
        walked += len;
    }
}

/// True when `p` is inside the rings (even-odd: holes are out).
fn inside(rings: &[Vec<Xy>], p: Xy) -> bool {
    let mut odd = false;
    for r in rings {
        let n = r.len();
        for i in 0..n {
            let (a, b) = (r[i], r[(i + 1) % n]);
            if (a[1] > p[1]) != (b[1] > p[1])
                && p[0] < a[0] + (p[1] - a[1]) / (b[1] - a[1]) * (b[0] - a[0])
            {
                odd = !odd;
            }
        }
    }
    odd
}

/// The trees of one forest row; false when the item limit stopped it.
fn forest_trees(
    f: &Feature,
    frame: &LocalFrame,
    trees: Option<TreeArt>,
    params: &Params,
    rng: &mut Rng,
    p: &mut Placement,
    take: &mut dyn FnMut(usize) -> bool,
) -> bool {
    let density = f.density.unwrap_or(1.0);
    let rs: Vec<Vec<Xy>> = rings(&f.geometry)
        .iter()
        .map(|r| r.iter().map(|&q| frame.to_local(q)).collect())
        .collect();
    let ([mut sx, mut sy], random) = match &trees {
        Some(t) => t.spacing(),
        None => ([params.tree_spacing; 2], [0.0; 2]),
    };
    // The lowest layer that has trees: a DSF forest is not an annotation
    // naming one.
    let layer = trees
        .as_ref()
        .and_then(|t| t.forest.trees.iter().map(|t| t.layer).min())
        .unwrap_or(0);
    let mut points: Vec<Xy> = Vec::new();
    match f.fill_mode.unwrap_or(0) {
        0 => {
            let (mut min, mut max) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
            for q in rs.iter().flatten() {
                for k in 0..2 {
                    min[k] = min[k].min(q[k]);
                    max[k] = max[k].max(q[k]);
                }
            }
            let (w, h) = (max[0] - min[0], max[1] - min[1]);
            if !(w.is_finite() && h.is_finite() && sx > 0.0 && sy > 0.0) {
                return true;
            }
            let n = (w / sx).ceil() * (h / sy).ceil();
            if n > MAX_FOREST_POINTS {
                let k = (n / MAX_FOREST_POINTS).sqrt() * 1.001;
                p.warnings.push(format!(
                    "entity {}: the forest is too large to fill at {sx:.1} × {sy:.1} m spacing; \
                     its trees are {:.1} × {:.1} m apart",
                    f.entity,
                    sx * k,
                    sy * k
                ).into());
                (sx, sy) = (sx * k, sy * k);
            }
            let (nx, ny) = (
                (w / sx).ceil().max(1.0) as usize,
                (h / sy).ceil().max(1.0) as usize,
            );
            for j in 0..ny {
                for i in 0..nx {
                    let jx = (rng.random::<f64>() * 2.0 - 1.0) * random[0];
                    let jy = (rng.random::<f64>() * 2.0 - 1.0) * random[1];
                    let q = [
                        min[0] + (i as f64 + 0.5) * sx + jx,
                        min[1] + (j as f64 + 0.5) * sy + jy,
                    ];
                    if rng.random::<f64>() < density && inside(&rs, q) {
                        points.push(q);
                    }
                }
            }
        }
        1 => {
            let line = &rs[0];
            for w in line.windows(2) {
                let (dx, dy) = (w[1][0] - w[0][0], w[1][1] - w[0][1]);
                let len = dx.hypot(dy);
                let steps = (len / sx).floor().min(MAX_FOREST_POINTS) as usize;
                for s in 0..=steps {
                    let t = if len > 0.0 { s as f64 * sx / len } else { 0.0 };
                    if rng.random::<f64>() < density {
                        points.push([w[0][0] + dx * t, w[0][1] + dy * t]);
                    }
                }
            }
        }
        _ => points.extend(rs.iter().flatten().copied()),
    }
    for q in points {
        if !take(1) {
            return false;
        }
        let heading = crate::place::annotate::normalize_heading(rng.random::<f64>() * 360.0);
        let [lon, lat] = frame.to_lonlat(q);
        let mut tree = PlacedTree {
            x: q[0],
            y: q[1],
            lon,
            lat,
            width: sx,
            layer: i64::from(layer),
            heading,
            entity: Some(f.entity),
            ..PlacedTree::default()
        };
        if let Some(t) = &trees
            && let Some(pick) = t.pick(i64::from(layer), None, rng)
        {
            crate::place::art::set_tree(&mut tree, pick);
        }
        p.trees.push(tree);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pol_heading_decodes_whole_and_fraction() {
        assert_eq!(pol_heading(90), 90.0);
        // 45.5°: 45 + 360 × 64.
        assert_eq!(pol_heading(45 + 360 * 64), 45.5);
    }

    #[test]
    fn holes_are_outside() {
        let outer = vec![[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]];
        let hole = vec![[4.0, 4.0], [4.0, 6.0], [6.0, 6.0], [6.0, 4.0]];
        let rs = vec![outer, hole];
        assert!(inside(&rs, [1.0, 1.0]));
        assert!(!inside(&rs, [5.0, 5.0]));
        assert!(!inside(&rs, [11.0, 5.0]));
    }

    #[test]
    fn strings_lay_objects_every_spacing_to_the_right() {
        let line = PlacedLine {
            points: vec![[0.0, 0.0], [0.0, 25.0]],
            spacing: Some(10.0),
            ..PlacedLine::default()
        };
        let s = crate::draped::Str {
            objects: vec![
                crate::draped::StringObject {
                    heading: [0.0, 0.0],
                    path: "a.obj".into(),
                },
                crate::draped::StringObject {
                    heading: [90.0, 90.0],
                    path: "b.obj".into(),
                },
            ],
            offset: 2.0,
            names: Vec::new(),
        };
        let mut out = Vec::new();
        let mut rng = crate::place::rng(0);
        string_objects(&line, &s, 7, &mut rng, &mut out, &mut |_| true);
        assert_eq!(out.len(), 3);
        assert_eq!((out[1].x, out[1].y), (2.0, 10.0));
        assert_eq!(out[1].asset, "b.obj");
        assert_eq!(out[1].index, 1);
        assert_eq!(out[1].heading, 90.0);
        assert_eq!(out[2].heading, 0.0);
        assert_eq!(out[0].entity, Some(7));
    }
}
