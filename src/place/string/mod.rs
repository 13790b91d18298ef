//! The AGS (autogen string) engine: tiles along the sides of a polygon.
//!
//! One step per file, in the order they run:
//!
//! 0. [`contours`] — contours chained end to start are assembled into
//!    closed rings; a contour chained to none is a closed ring itself.
//! 1. [`sides`] — the rings are checked (outer counter-clockwise, holes
//!    clockwise) and cut into sides at the vertices whose turn reaches the
//!    crease angle (`CREASING_ANGLE`); every such vertex is a corner.
//! 2. [`corners`] — corner rules (`CORNER`, `CORNER_LEN`, `CORNER_PAIR`,
//!    `ATOMIC_SPELLING_CORNER`, by `PRIORITY_MARKER_CORNER` group) are
//!    matched at each corner of the tile-spawning windings in DSF order and
//!    placed (one tile, or three articulated on their pivot points).
//! 3. [`spell`] — edge spellings (`SPELLING`, `ATOMIC_SPELLING`, by
//!    `PRIORITY_MARKER` group) fill each side between its corner tiles.
//! 4. [`caps`] — a cap (`CAPS`) covers the end of each side's last tile.
//! 5. [`fill`] — `FILL_LAYER` trees flood the uncovered interior.
//!
//! Every tile goes through [`stop`]: it must keep its stop points inside the
//! polygon and out of holes and must not cover stop points placed before
//! it; tiles are slid along their side to satisfy that or skipped.
//! Annotations are then expanded with the shared
//! [`crate::place::annotate`] step. `docs/ags-engine.md` lists
//! every decision where the spec is open.

pub mod caps;
pub mod contours;
pub mod corners;
pub mod fill;
pub mod sides;
pub mod spell;
pub mod stop;

use std::collections::HashMap;

use crate::geom::Xy;
use crate::place::annotate::{self, Affine, Context};
use crate::place::budget::Budget;
use crate::place::{Params, PlaceError, PlacedTile, Placement, PlacementKind, Rng, Role, TileId};
use crate::xp::model::{Asset, Px, StringProps, Tile};
use contours::Assembled;
use geo::Area;
use sides::{Ring, Side};
use stop::{Clipped, Region, StopIndex};

/// Places an AGS on its polygon windings (local metres, DSF order): closed
/// rings (closing vertex implied) and/or open contours chained end to start
/// into closed rings (see [`contours`]).
///
/// Segments of the first `params.low` contours spawn tiles (0 means all of
/// them); the rest only constrain (stop points, fill). The outer ring is
/// found by geometry (the counter-clockwise ring; holes are clockwise and
/// inside it), so it may come after holes in DSF order.
///
/// Bounded by `params.limits`: a polygon whose spawning sides would take
/// more edge tiles than a placement may have (their length over the
/// narrowest tile of a spelling) is refused before anything is placed, and
/// the run stops with [`PlaceError::Limit`] when what it places or tries
/// passes a limit.
pub fn place(
    asset: &Asset,
    windings: &[Vec<Xy>],
    params: &Params,
) -> Result<Placement, PlaceError> {
    crate::place::sane(asset)?;
    let props = asset
        .string
        .as_ref()
        .ok_or_else(|| PlaceError::Asset("not an AG_STRING asset".into()))?;
    let (mpp, defaulted) = crate::place::scale(asset)?;
    let (rings, outer) = check_windings(windings)?;
    let mut eng = Engine::new(asset, props, mpp, params, windings, rings, outer);
    eng.edge_tiles_fit()?;
    eng.run();
    let mut out = eng.finish(windings)?;
    if usize::from(params.low) > windings.len() {
        out.warnings.insert(
            0,
            format!(
                "{} tile-spawning contours asked (the DSF parameter's low byte) but the \
                 polygon has {}: all of them spawn",
                params.low,
                windings.len()
            )
            .into(),
        );
    }
    if let Some(w) = defaulted {
        out.warnings.insert(0, w);
    }
    Ok(out)
}

/// Checks that `windings` (local metres, DSF order) are a polygon an AGS
/// can be placed on, as [`place`] checks it before placing anything: its
/// contours close into rings of three or more vertices, one outer ring
/// counter-clockwise and the holes clockwise inside it
/// ([`PlaceError::Polygon`] says what is wrong otherwise).
pub fn check_polygon(windings: &[Vec<Xy>]) -> Result<(), PlaceError> {
    check_windings(windings).map(|_| ())
}

/// The number of tile-spawning contours (the first ones): the DSF
/// parameter's low byte, 0 meaning all.
fn spawning(low: u8, contours: usize) -> usize {
    match low {
        0 => contours,
        k => usize::from(k).min(contours),
    }
}

/// Checks every contour, assembles the rings ([`contours`]) and finds the
/// outer ring by geometry, not by position: a tile cut may write spawning
/// holes before the outer ring's cut contour (see `docs/ags-engine.md`).
/// The outer ring is the one counter-clockwise ring (the largest one when
/// several are); every other ring is a hole: clockwise and inside the outer
/// ring. Returns the rings in DSF order and the outer ring's index. Winding
/// and contour numbers in messages are 1-based.
fn check_windings(windings: &[Vec<Xy>]) -> Result<(Vec<Assembled>, usize), PlaceError> {
    if windings.is_empty() {
        return Err(PlaceError::Polygon("the polygon has no windings".into()));
    }
    for (i, w) in windings.iter().enumerate() {
        if let Some(p) = w.iter().find(|p| !(p[0].is_finite() && p[1].is_finite())) {
            return Err(PlaceError::Polygon(format!(
                "winding {} has a non-finite vertex {p:?}",
                i + 1
            )));
        }
    }
    let rings = contours::assemble(windings)?;
    let mut areas = Vec::with_capacity(rings.len());
    for a in &rings {
        let area = stop::footprint(&a.ring.pts).signed_area();
        if area == 0.0 || !area.is_finite() {
            return Err(PlaceError::Polygon(format!("{} has no area", a.label())));
        }
        areas.push(area);
    }
    reversed_rings(&rings, &areas)?;
    let largest = |ccw: bool| {
        (0..rings.len())
            .filter(|&i| (areas[i] > 0.0) == ccw)
            .max_by(|&a, &b| areas[a].abs().total_cmp(&areas[b].abs()))
    };
    let Some(outer) = largest(true) else {
        let big = largest(false).unwrap_or(0);
        let what = if rings.len() == 1 {
            "the outer ring"
        } else {
            "the outer ring, the largest"
        };
        return Err(PlaceError::Polygon(format!(
            "{} ({what}) is clockwise; it must be counter-clockwise",
            rings[big].label()
        )));
    };
    if rings.len() > 1 {
        let region = Region::new(std::slice::from_ref(&rings[outer].ring.pts));
        for (i, a) in rings.iter().enumerate() {
            if i == outer {
                continue;
            }
            let out = a
                .ring
                .pts
                .iter()
                .find(|&&p| region.locate(p) == Some(false));
            match (areas[i] > 0.0, out) {
                (true, None) => {
                    return Err(PlaceError::Polygon(format!(
                        "{} (a hole) is counter-clockwise; holes must be clockwise",
                        a.label()
                    )));
                }
                (true, Some(_)) => {
                    return Err(PlaceError::Polygon(format!(
                        "{} and {} are both counter-clockwise and one is not inside the other; \
                         a polygon has one outer ring (counter-clockwise) and holes inside it \
                         (clockwise)",
                        rings[outer.min(i)].label(),
                        rings[outer.max(i)].label()
                    )));
                }
                (false, Some(p)) => {
                    return Err(PlaceError::Polygon(format!(
                        "{} (a hole) has the vertex ({:.2}, {:.2}) outside the outer ring ({}); \
                         holes must lie inside it",
                        a.label(),
                        p[0],
                        p[1],
                        rings[outer].label()
                    )));
                }
                (false, None) => {}
            }
        }
    }
    Ok((rings, outer))
}

/// The diagnosis of a polygon whose rings all wind the other way round (as
/// GIS data often does): the largest ring clockwise, with every
/// counter-clockwise ring inside it. Without it the engine would take a
/// counter-clockwise hole for the outer ring and report the real outer
/// ring as a hole outside it.
fn reversed_rings(rings: &[Assembled], areas: &[f64]) -> Result<(), PlaceError> {
    let Some(big) = (0..rings.len()).max_by(|&a, &b| areas[a].abs().total_cmp(&areas[b].abs()))
    else {
        return Ok(());
    };
    if areas[big] > 0.0 || areas.iter().all(|&a| a < 0.0) {
        return Ok(());
    }
    let region = Region::new(std::slice::from_ref(&rings[big].ring.pts));
    let inside = |i: usize| {
        rings[i]
            .ring
            .pts
            .iter()
            .all(|&p| region.locate(p) != Some(false))
    };
    if (0..rings.len()).all(|i| i == big || (areas[i] > 0.0 && inside(i))) {
        return Err(PlaceError::Polygon(format!(
            "every ring winds the other way round: {} (the outer ring, the largest) is \
             clockwise and the holes inside it are counter-clockwise; X-Plane winds the outer \
             ring counter-clockwise and holes clockwise (GIS data often the reverse): reverse \
             every ring",
            rings[big].label()
        )));
    }
    Ok(())
}

/// A tile ready to be placed: where its pixels go and what it covers.
#[derive(Debug, Clone)]
pub(crate) struct Cand {
    /// Index into `Asset::tiles`.
    pub tile: usize,
    /// Pixels → local metres.
    pub map: Affine,
    /// Outline, counter-clockwise, local metres.
    pub poly: Vec<Xy>,
    /// Pixels of the outline.
    pub uv: Vec<Px>,
    /// Stop points, local metres.
    pub stops: Vec<Xy>,
}

/// Why a tile could not go where it was tried.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Refusal {
    /// A stop point lies outside the polygon or in a hole.
    StopOutside(Xy),
    /// The tile covers a stop point placed before it.
    CoversStop(Xy),
    /// No part of the tile is inside the polygon (it has no stop points
    /// and lies in a hole or outside the outer ring).
    Outside,
    /// The run's budget is spent (the placement fails).
    Spent,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::StopOutside(p) => write!(
                f,
                "stop point ({:.2}, {:.2}) would be outside the polygon or in a hole",
                p[0], p[1]
            ),
            Refusal::CoversStop(p) => write!(
                f,
                "it would cover the stop point ({:.2}, {:.2}) of an earlier tile",
                p[0], p[1]
            ),
            Refusal::Outside => write!(f, "it would lie wholly in a hole or outside the polygon"),
            Refusal::Spent => write!(f, "the placement's budget is spent"),
        }
    }
}

/// What kind of unit a group of tiles is (for SHARE_Y and the output).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum UnitKind {
    Corner,
    Spelling,
    AtomicSpelling,
    Cap,
}

/// The engine's state while placing.
pub(crate) struct Engine<'a> {
    pub asset: &'a Asset,
    pub props: &'a StringProps,
    pub mpp: [f64; 2],
    pub params: &'a Params,
    pub rng: Rng,
    /// The closed rings assembled from the contours, in DSF order of their
    /// lowest contour (the outer ring is `rings[outer]`).
    pub rings: Vec<Ring>,
    /// Per ring, per segment: whether it comes from a tile-spawning contour.
    pub spawn: Vec<Vec<bool>>,
    /// Per ring: how messages name it (`winding 2`, `the ring of contours
    /// 1, 3`).
    pub labels: Vec<String>,
    /// The spawning sides of all rings, ring by ring.
    pub sides: Vec<Side>,
    /// Per side: metres taken by corner tiles at its start and its end.
    pub taken: Vec<[f64; 2]>,
    /// Per side: where the last edge tile ends, and the free end.
    pub last_edge: Vec<Option<(f64, f64)>>,
    pub region: Region,
    pub stops: StopIndex,
    pub tile_index: HashMap<i64, usize>,
    pub out: Placement,
    /// Pixel map and `Asset::tiles` index of every placed tile.
    pub maps: Vec<(usize, Affine)>,
    pub units: usize,
    /// Number of contours (DSF windings).
    pub contours: usize,
    /// Number of tile-spawning contours (the first ones).
    pub spawning: usize,
    /// Index into `rings` of the outer ring (the others are holes).
    pub outer: usize,
    /// Placed tiles cut at the polygon's rings.
    pub clipped: usize,
    warned: std::collections::HashSet<String>,
    /// What the run may still place and try.
    pub budget: Budget,
}

impl<'a> Engine<'a> {
    fn new(
        asset: &'a Asset,
        props: &'a StringProps,
        mpp: [f64; 2],
        params: &'a Params,
        windings: &[Vec<Xy>],
        assembled: Vec<Assembled>,
        outer: usize,
    ) -> Engine<'a> {
        let mut tile_index = HashMap::new();
        for (i, t) in asset.tiles.iter().enumerate() {
            tile_index.entry(t.id).or_insert(i);
        }
        let spawning = spawning(params.low, windings.len());
        let spawn = assembled
            .iter()
            .map(|a| a.owner.iter().map(|&c| c < spawning).collect())
            .collect();
        let labels = assembled.iter().map(Assembled::label).collect();
        let rings: Vec<Ring> = assembled.into_iter().map(|a| a.ring).collect();
        let region = Region::new(&rings.iter().map(|r| r.pts.clone()).collect::<Vec<_>>());
        Engine {
            asset,
            props,
            mpp,
            params,
            rng: crate::place::rng(params.seed),
            rings,
            spawn,
            labels,
            sides: Vec::new(),
            taken: Vec::new(),
            last_edge: Vec::new(),
            region,
            stops: StopIndex::default(),
            tile_index,
            out: Placement {
                kind: PlacementKind::Ags,
                ..Placement::default()
            },
            maps: Vec::new(),
            units: 0,
            contours: windings.len(),
            spawning,
            outer,
            clipped: 0,
            warned: Default::default(),
            budget: Budget::new(&params.limits),
        }
    }

    fn run(&mut self) {
        let crease = self.props.crease();
        if self.params.explain {
            self.out.explain.push(format!(
                "{} winding(s) in {} ring(s), outer ring {}, {} spawning tiles; crease angles {}° left, {}° right",
                self.contours,
                self.rings.len(),
                self.labels[self.outer],
                self.spawning,
                crease[0],
                crease[1]
            ));
        }
        self.check_rules();
        // Corners of every ring; the spawning sides; the corner sites
        // (vertex, side in, side out) between two spawning sides.
        let mut site_lists: Vec<Option<Vec<(usize, usize, usize)>>> = Vec::new();
        for (w, ring) in self.rings.iter().enumerate() {
            let n = ring.len();
            let cs = ring.corners(crease);
            let mut is_corner = vec![false; n];
            for &v in &cs {
                is_corner[v] = true;
                self.out.corners.push(crate::place::PlacedCorner {
                    x: ring.pts[v][0],
                    y: ring.pts[v][1],
                    turn: ring.turns[v],
                });
            }
            let spawn = &self.spawn[w];
            if !spawn.iter().any(|&s| s) {
                site_lists.push(None);
                continue;
            }
            // Sides break at corners and where spawning parts begin or end.
            let breaks: Vec<usize> = (0..n)
                .filter(|&v| is_corner[v] || spawn[(v + n - 1) % n] != spawn[v])
                .collect();
            let all = sides::sides(w, ring, &breaks);
            let mut index = Vec::with_capacity(all.len());
            for s in all {
                if spawn[s.start] {
                    index.push(Some(self.sides.len()));
                    self.sides.push(s);
                } else {
                    index.push(None);
                }
            }
            let m = breaks.len();
            let sites = (0..m)
                .filter(|&k| is_corner[breaks[k]])
                .filter_map(|k| Some((breaks[k], index[(k + m - 1) % m]?, index[k]?)))
                .collect();
            site_lists.push(Some(sites));
        }
        self.taken = vec![[0.0, 0.0]; self.sides.len()];
        self.last_edge = vec![None; self.sides.len()];
        let groups = corners::rule_groups(self.props);
        for (w, sites) in site_lists.iter().enumerate() {
            if let Some(sites) = sites {
                corners::place_winding(self, w, sites, &groups);
            }
        }
        for s in 0..self.sides.len() {
            spell::fill_side(self, s);
        }
        let caps = caps::usable(self);
        for s in 0..self.sides.len() {
            caps::cap_side(self, s, &caps);
        }
        let clipped = self.clipped;
        if clipped > 0 {
            self.explain(|| format!("clipping: {clipped} tile(s) cut at a hole or the outer ring"));
        }
        fill::fill(self);
    }

    /// Annotates the placed tiles; the placement, or the limit the run
    /// passed.
    fn finish(mut self, windings: &[Vec<Xy>]) -> Result<Placement, PlaceError> {
        // Annotations, in draw order.
        let maps = std::mem::take(&mut self.maps);
        let mut dropped = 0usize;
        for (i, (t, map)) in maps.iter().enumerate() {
            // The point tests of the tile before this one.
            if !self.budget.work(self.region.take_work()) {
                break;
            }
            let tile = &self.asset.tiles[*t];
            // Objects, facades and trees only inside the polygon: not in a
            // hole, not past the outer ring (a tile may overhang either).
            let region = &self.region;
            let out_of_polygon = std::cell::Cell::new(0usize);
            let keep = |px: Px| {
                let inside = region.contains(map.apply(px));
                if !inside {
                    out_of_polygon.set(out_of_polygon.get() + 1);
                }
                inside
            };
            let ctx = Context {
                common: &self.asset.common,
                map: *map,
                base_heading: annotate::normalize_heading(map.up_heading() + 180.0),
                block_height: self.params.height,
                density: self.params.density,
                tree_spacing: self.params.tree_spacing,
                trees: self.params.tree_art(),
                keep: &keep,
            };
            let facades = self.out.facades.len();
            annotate::annotate(
                &mut self.out,
                i,
                &tile.annotations,
                &ctx,
                &mut self.rng,
                &self.budget,
            );
            // A facade is kept whole or not at all: every corner inside.
            let mut new = self.out.facades.split_off(facades);
            let before = new.len();
            new.retain(|f| f.polygon.iter().all(|&p| region.contains(p)));
            dropped += out_of_polygon.get() + before - new.len();
            self.out.facades.append(&mut new);
        }
        if dropped > 0 {
            self.explain(|| {
                format!("annotations: {dropped} left out, outside the polygon or in a hole")
            });
        }
        self.budget.finish()?;
        self.out.polygon = windings.to_vec();
        Ok(self.out)
    }

    /// Refuses a polygon whose spawning sides would take more edge tiles
    /// than the limits allow: their length over the narrowest tile of a
    /// spelling (a bound on what the edge step can lay), before anything is
    /// placed.
    fn edge_tiles_fit(&self) -> Result<(), PlaceError> {
        let narrowest = (self.props.spellings.iter())
            .flat_map(|s| &s.tiles)
            .filter_map(|&id| self.tile(id))
            .map(|t| self.size_m(t)[0])
            .filter(|w| *w > 1e-6 && w.is_finite())
            .fold(f64::INFINITY, f64::min);
        if !narrowest.is_finite() {
            return Ok(());
        }
        let sides: f64 = (self.rings.iter().zip(&self.spawn))
            .flat_map(|(ring, spawn)| {
                (0..ring.len())
                    .filter(|&i| spawn[i])
                    .map(|i| ring.seg_len(i))
            })
            .sum();
        let tiles = sides / narrowest;
        let limit = self.params.limits.max_placed_items;
        if tiles > limit as f64 {
            return Err(PlaceError::Limit(crate::limits::LimitExceeded {
                what: format!(
                    "edge tiles along {sides:.0} m of spawning sides at {narrowest:.3} m (the narrowest spelling tile)"
                ),
                needed: tiles.min(u64::MAX as f64) as u64,
                limit: limit as u64,
            }));
        }
        Ok(())
    }

    /// The `Asset::tiles` index of tile id `id`.
    pub fn tile(&self, id: i64) -> Option<usize> {
        self.tile_index.get(&id).copied()
    }

    /// Tile width and height in metres.
    pub fn size_m(&self, t: usize) -> [f64; 2] {
        let s = self.asset.tiles[t].size_px();
        [s[0] * self.mpp[0], s[1] * self.mpp[1]]
    }

    /// The width in metres of a list of tile ids, or why it cannot be used.
    pub fn resolve(&self, ids: &[i64]) -> Result<(Vec<usize>, f64), String> {
        let mut v = Vec::with_capacity(ids.len());
        let mut w = 0.0;
        for &id in ids {
            let t = self
                .tile(id)
                .ok_or_else(|| format!("tile {id} is not defined"))?;
            let s = self.size_m(t);
            if !(s[0] > 1e-6 && s[1] > 0.0 && s[0].is_finite() && s[1].is_finite()) {
                return Err(format!("tile {id} has no width or height"));
            }
            w += s[0];
            v.push(t);
        }
        if v.is_empty() {
            return Err("no tiles".into());
        }
        Ok((v, w))
    }

    /// The candidate of tile `t` whose bottom-left pixel goes to `origin`
    /// with texture +x along `dir`.
    pub fn cand_at(&self, t: usize, origin: Xy, dir: Xy) -> Cand {
        let r = self.asset.tiles[t].rect;
        self.cand(t, Affine::from_frame([r[0], r[1]], origin, dir, self.mpp))
    }

    /// The candidate of tile `t` under pixel map `map` (its outline's
    /// vertices are charged as work).
    pub fn cand(&self, t: usize, map: Affine) -> Cand {
        let tile: &Tile = &self.asset.tiles[t];
        let crop = tile.crop_poly.as_ref().map_or(0, |c| c.value.len());
        self.budget.work((4 + crop + tile.stop_pts.len()) as u64);
        let uv: Vec<Px> = match &tile.crop_poly {
            Some(c) if c.value.len() >= 3 => {
                let mut v = c.value.clone();
                // CROP_POLY is clockwise on the texture; outlines are
                // counter-clockwise.
                if stop::footprint(&v).signed_area() < 0.0 {
                    v.reverse();
                }
                v
            }
            _ => {
                let r = tile.rect;
                vec![[r[0], r[1]], [r[2], r[1]], [r[2], r[3]], [r[0], r[3]]]
            }
        };
        Cand {
            tile: t,
            map,
            poly: uv.iter().map(|&p| map.apply(p)).collect(),
            uv,
            stops: tile.stop_pts.iter().map(|s| map.apply(s.value)).collect(),
        }
    }

    /// Checks a candidate against the polygon and the stop points placed so
    /// far, plus those of `pending` tiles of the same unit placed before it.
    /// Charges the work (one, plus the ring segments visited); a candidate
    /// checked once the budget is spent is refused as [`Refusal::Spent`].
    pub fn check(&self, c: &Cand, pending: &[Cand]) -> Result<(), Refusal> {
        if self.budget.spent() {
            return Err(Refusal::Spent);
        }
        let r = self.check_unbilled(c, pending);
        if !self.budget.work(1 + self.region.take_work()) {
            return Err(Refusal::Spent);
        }
        r
    }

    fn check_unbilled(&self, c: &Cand, pending: &[Cand]) -> Result<(), Refusal> {
        if let Some(&p) = c.stops.iter().find(|&&p| !self.region.contains(p)) {
            return Err(Refusal::StopOutside(p));
        }
        if let Some(p) = self.stops.covered_by(&c.poly) {
            return Err(Refusal::CoversStop(p));
        }
        // A tile with a stop point inside has a part inside.
        if c.stops.is_empty() && self.region.clip(&c.poly) == Clipped::Outside {
            return Err(Refusal::Outside);
        }
        if !pending.is_empty() {
            let fp = stop::footprint(&c.poly);
            for q in pending.iter().flat_map(|p| p.stops.iter()) {
                if geo::Contains::contains(&fp, &geo::Point::new(q[0], q[1])) {
                    return Err(Refusal::CoversStop(*q));
                }
            }
        }
        Ok(())
    }

    /// A new unit number.
    pub fn new_unit(&mut self) -> usize {
        self.units += 1;
        self.units - 1
    }

    /// Whether the budget is spent: the run stops (and fails).
    pub fn full(&self) -> bool {
        self.budget.spent()
    }

    /// Places the tiles of one unit, in the given order (none when they
    /// would pass the budget's items).
    pub fn commit(&mut self, tiles: Vec<Cand>, role: Role, kind: UnitKind, line: usize) -> usize {
        let unit = self.new_unit();
        if !self.budget.items(tiles.len()) {
            return unit;
        }
        let share = self.props.share_y.is_some()
            && matches!(kind, UnitKind::AtomicSpelling | UnitKind::Corner);
        let mut shared: Option<Xy> = None;
        for c in tiles {
            let tile = &self.asset.tiles[c.tile];
            let own = c.map.apply(tile.ground_px());
            let ground = if share {
                *shared.get_or_insert(own)
            } else {
                own
            };
            self.stops.insert(&c.stops);
            // Drawn only inside the polygon: cut at holes and the outer ring.
            let (polygon, uv) = match self.region.clip(&c.poly) {
                Clipped::Part(ring) => {
                    self.clipped += 1;
                    let uv = ring.iter().map(|&p| to_px(&c.map, p)).collect();
                    (ring, uv)
                }
                Clipped::Whole | Clipped::Outside => (c.poly, c.uv),
            };
            let order = self.out.tiles.len();
            self.out.tiles.push(PlacedTile {
                id: TileId::Num(tile.id),
                polygon,
                lonlat: Vec::new(),
                uv,
                order,
                hidden: self.asset.common.hide_tiles.is_some(),
                role,
                unit,
                source_line: line,
                stop_points: c.stops,
                ground_point: Some(ground),
                z: None,
            });
            self.maps.push((c.tile, c.map));
        }
        unit
    }

    /// Records an explanation line (only with `--explain`; after
    /// [`MAX_NOTES`] lines one more says that the rest is left out).
    pub fn explain(&mut self, msg: impl FnOnce() -> String) {
        if self.params.explain {
            note(&mut self.out.explain, msg);
        }
    }

    /// Records a warning (after [`MAX_NOTES`] of them one more says that
    /// the rest is left out).
    pub fn warn(&mut self, msg: impl FnOnce() -> String) {
        note(&mut self.out.warnings, msg);
    }

    /// Records a warning once.
    pub fn warn_once(&mut self, msg: String) {
        if self.warned.len() < MAX_NOTES && self.warned.insert(msg.clone()) {
            self.warn(|| msg);
        }
    }

    /// Warns once about every rule that names an undefined or empty tile.
    fn check_rules(&mut self) {
        let mut msgs = Vec::new();
        for r in &self.props.corners {
            if let Err(e) = self.resolve(&r.tiles) {
                msgs.push(format!(
                    "{} line {}: {e}; the rule is never used",
                    corners::rule_name(r),
                    r.line
                ));
            }
        }
        for s in &self.props.spellings {
            if let Err(e) = self.resolve(&s.tiles) {
                msgs.push(format!("spelling line {}: {e}; it is never used", s.line));
            }
        }
        for c in &self.props.caps {
            for &id in &c.value {
                if let Err(e) = self.resolve(&[id]) {
                    msgs.push(format!("CAPS line {}: {e}; it is never used", c.line));
                }
            }
        }
        for m in msgs {
            self.warn_once(m);
        }
    }

    /// A short name of side `s` for explanations.
    pub fn side_name(&self, s: usize) -> String {
        let side = &self.sides[s];
        let label = &self.labels[side.winding];
        if side.closed {
            format!("{label} (no corners, {:.1} m around)", side.len())
        } else {
            format!(
                "{label} side {}→{} ({:.1} m, {} segment{})",
                side.start,
                side.end,
                side.len(),
                side.segments(),
                if side.segments() == 1 { "" } else { "s" }
            )
        }
    }
}

/// Most warnings, and most explanation lines, one placement records: a
/// long polygon can refuse a tile at every step.
pub const MAX_NOTES: usize = 10_000;

/// Appends `msg()` to `list` unless it holds [`MAX_NOTES`] lines; the line
/// past the cap says that the rest is left out.
fn note<T: From<String>>(list: &mut Vec<T>, msg: impl FnOnce() -> String) {
    match list.len().cmp(&MAX_NOTES) {
        std::cmp::Ordering::Less => list.push(msg().into()),
        std::cmp::Ordering::Equal => {
            list.push(format!("… more left out (at most {MAX_NOTES} are kept)").into())
        }
        std::cmp::Ordering::Greater => {}
    }
}

/// The texture pixel that `map` sends to local point `p`.
fn to_px(map: &Affine, p: Xy) -> Px {
    let [a, b, c, d, e, f] = map.0;
    let det = a * e - b * d;
    let (x, y) = (p[0] - c, p[1] - f);
    [(e * x - b * y) / det, (a * y - d * x) / det]
}

/// Whether `v` lies in the inclusive range `r` (either order).
pub(crate) fn within(v: f64, r: [f64; 2]) -> bool {
    let (lo, hi) = (r[0].min(r[1]), r[0].max(r[1]));
    v >= lo - 1e-9 && v <= hi + 1e-9
}

/// Shuffles in place with the engine's generator (Fisher–Yates).
pub(crate) fn shuffle<T>(v: &mut [T], rng: &mut Rng) {
    use rand::RngExt;
    for i in (1..v.len()).rev() {
        let j = rng.random_range(0..=i);
        v.swap(i, j);
    }
}
