//! Everything a DSF tile places, not only its autogen: `OBJECT` and
//! `OBJECT_MSL` placements of OBJ8 files, facade, forest and draped
//! polygons, painted lines and object strings, laid out beside the
//! tile's autogen uses ([`crate::place::tile`]) with the same resolution, art
//! cache and limits. [`crate::place::Params::whole_tile`] asks for it;
//! [`crate::scenery::Scenery::place_tile`] then returns a
//! [`TilePlacement`](crate::place::TilePlacement) whose
//! [`whole`](crate::place::TilePlacement::whole) counts every item per kind.
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
//! - objects: a [`PlacedObject`](crate::place::PlacedObject) at the DSF position and heading, mode
//!   `draped` (on the ground), `msl` or `agl` with the DSF's
//!   [`elevation`](crate::place::PlacedObject::elevation) (an AGL one also as
//!   [`height`](crate::place::PlacedObject::height)); footprint and height from the OBJ;
//! - facades: a [`PlacedFacade`](crate::place::PlacedFacade) on the outer ring, the parameter as its
//!   height and the `wall` plane as its wall types, its drawn height,
//!   walls and roof from the `.fac` (the same rules as autogen facades);
//!   a facade of two points (a fence, a row of roof elements) is placed as
//!   the open line it is;
//! - forests: trees filled at the forest's `SPACING` and `RANDOM`, kept
//!   with the probability of the polygon's density, inside the outer ring
//!   and out of its holes (fill mode 0), along the line (mode 1) or at
//!   each point (mode 2), each picked from the forest's lowest layer;
//!   without the forest, at [`Params::tree_spacing`](crate::place::Params);
//! - draped polygons: a [`PlacedDraped`](crate::place::PlacedDraped) with its rings and holes, the UV
//!   planes when the DSF gives them, else the parameter's texture heading
//!   and the `.pol`'s `SCALE`;
//! - painted lines: a [`PlacedLine`](crate::place::PlacedLine) with the `.lin`'s width and texture;
//! - object strings: a [`PlacedLine`](crate::place::PlacedLine) and its objects every `spacing`
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
//!
//! **One file per kind.** `objects.rs`, `facades.rs`, `draped.rs`, `lines.rs`
//! (painted lines and object strings) and `forests.rs` each lay out one
//! row of their kind; this file groups the rows, resolves and reads each
//! definition's art (through the resolver's
//! `scenery::definition`) and counts what became of them.

mod draped;
mod facades;
mod forests;
mod lines;
mod objects;

pub use draped::pol_heading;
pub use forests::MAX_FOREST_POINTS;

use crate::dsf::features::{self, Feature, Geometry, Layer};
use crate::dsf::{Dsf, Entity};
use crate::geom::{LocalFrame, LonLat};
use crate::place::art::{Art, ArtState, TreeArt};
use crate::place::{Params, Placement, PlacementKind, Warning};
use crate::scenery::Scenery;
use crate::scenery::art::Libraries;
use crate::scenery::definition::{DefArt, DefKind};
use crate::scenery::resolve::Tile;
use crate::scenery::tile::Unresolved;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

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

/// What a whole tile's definition of `kind` is read as (its extension's).
fn def_kind(kind: PlacementKind) -> DefKind {
    use crate::draped::DrapedKind;
    match kind {
        PlacementKind::Obj => DefKind::Object,
        PlacementKind::Fac => DefKind::Facade,
        PlacementKind::For => DefKind::Forest,
        PlacementKind::Lin => DefKind::Draped(DrapedKind::Line),
        PlacementKind::Str => DefKind::Draped(DrapedKind::String),
        _ => DefKind::Draped(DrapedKind::Polygon),
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
                self.definition_art(
                    def_kind(g.kind),
                    g.definition,
                    file.as_deref(),
                    &how,
                    libs.as_ref(),
                    &params.limits,
                )
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
pub(super) fn rings(g: &Geometry) -> Vec<Vec<LonLat>> {
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
pub(super) fn plane(f: &Feature, name: &str, i: usize) -> Option<f64> {
    let k = f.planes.iter().position(|p| *p == name)?;
    f.extra
        .get(i * f.planes.len() + k)
        .copied()
        .filter(|v| v.is_finite())
}

/// What laying out one row did.
enum Laid {
    /// The row was laid out.
    Row,
    /// The row is not of the kind's geometry: nothing laid.
    Skipped,
    /// The item limit stopped the tile.
    Stopped,
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
    let mut rng = crate::place::rng(seed);
    let mut laid = 0;
    // Facade holes: not drawn (X-Plane's facades have none), counted.
    let mut fac_holes = (0usize, 0usize);
    for f in &g.rows {
        let row = match g.kind {
            PlacementKind::Obj => objects::lay(f, g.definition, frame, p, &mut take),
            PlacementKind::Fac => {
                facades::lay(f, g.definition, frame, p, &mut fac_holes, &mut take)
            }
            PlacementKind::Pol => draped::lay(f, g.definition, art, frame, p, &mut take),
            PlacementKind::Lin | PlacementKind::Str => {
                lines::lay(f, g.definition, art, frame, &mut rng, p, &mut take)
            }
            PlacementKind::For => {
                let forest = art.art.as_deref().and_then(Art::forest);
                let trees = forest.map(|forest| TreeArt { forest, seed });
                forests::lay(f, frame, trees, params, &mut rng, p, &mut take)
            }
            _ => Laid::Skipped,
        };
        match row {
            Laid::Row => laid += 1,
            Laid::Skipped => {}
            Laid::Stopped => break,
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
