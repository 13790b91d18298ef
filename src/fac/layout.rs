//! The choices X-Plane makes for one placed facade, before any geometry:
//! floors and drawn height, the wall of each side, the panels (type 1) or
//! segments (type 2) of each side, the roof and its insets.
//!
//! Each choice is one rule of its own module ([`floors`], [`panels`],
//! [`walls`], [`roof`], [`spelling`]); this one applies them in the order
//! xptools `draw_facade` (`WED_FacadePreview.cpp`) does, except for the
//! wall choice, which follows the simulator ([`walls`]). It is computed
//! once per placed facade, by placement
//! ([`crate::place::PlacedFacade::layout`]), and the placement JSON, the
//! textured picture and the glTF scene all read that [`Layout`].

use super::{Facade, floors, panels, roof, spelling, walls};
use crate::geom::Xy;
use serde::Serialize;

/// The choices for one facade.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Layout {
    /// The height asked (metres).
    pub asked: f64,
    /// The height drawn: type 1, the top of the floors drawn; type 2, the
    /// chosen floor's roof height.
    pub height: f64,
    /// Type 1: the floors drawn ([`floors::for_height`]).
    pub floors: Option<u64>,
    /// Type 2: the index of the floor drawn.
    pub floor: Option<usize>,
    /// Type 2: the name of the floor drawn.
    pub floor_name: Option<String>,
    /// True for a closed ring (a building), false for a chain (a fence).
    pub closed: bool,
    /// Whether a roof is drawn ([`roof::has_roof`] and a closed ring of at
    /// least three points).
    pub roof: bool,
    /// The sides, in the order of the footprint's points.
    pub sides: Vec<Side>,
    /// True when the facade's rules measured [`Layout::height`] (type 1:
    /// its floors; type 2: the floor chosen); false when it has nothing
    /// to measure it by (no walls, no floors).
    pub measured: bool,
}

impl Layout {
    /// The height the facade draws, as its rules give it: type 1, its
    /// whole floors stacked; type 2, the chosen floor's roof height.
    /// `None` when it has nothing to measure it by.
    pub fn drawn_height(&self) -> Option<f64> {
        self.measured.then_some(self.height)
    }

    /// The height a building is built to: [`Layout::drawn_height`], else
    /// the height asked, else 1 m when neither is a positive number.
    pub fn built_height(&self) -> f64 {
        let h = self.drawn_height().unwrap_or(self.asked);
        if h.is_finite() && h > 0.0 { h } else { 1.0 }
    }

    /// The wall each side draws, in side order.
    pub fn walls(&self) -> Vec<WallChoice> {
        self.sides
            .iter()
            .map(|s| WallChoice {
                wall: s.wall,
                name: s.name.clone(),
            })
            .collect()
    }
}

/// The wall one side of a facade draws.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WallChoice {
    /// Its index among the walls (of the nearest level, or of the floor
    /// drawn).
    pub wall: usize,
    /// Its name, when the facade gives one.
    pub name: Option<String>,
}

/// The choices for one side.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Side {
    /// Its length, metres.
    pub length: f64,
    /// The wall it draws (index among the walls of the nearest level, or
    /// of the floor drawn).
    pub wall: usize,
    /// That wall's name, when it has one.
    pub name: Option<String>,
    /// Type 1: the panels across ([`panels::for_length`]) and how they
    /// split ([`panels::split`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub panels: Option<PanelCount>,
    /// Type 2: the segments, left to right ([`spelling::pick`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub segments: Option<Vec<usize>>,
    /// How much the built width is stretched to fill the side (side
    /// length ÷ the width of its panels or segments; 1 is the texture's
    /// own scale).
    pub stretch: f64,
    /// How far the roof is pulled in from this side by a sloped top
    /// panel, metres ([`roof::inset`]).
    pub inset: f64,
}

/// The panels of one side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct PanelCount {
    /// All panels drawn.
    pub total: u64,
    /// From the left end of the list.
    pub left: u64,
    /// Centre panels repeated.
    pub center: u64,
    /// From the right end of the list.
    pub right: u64,
}

/// The number of sides of a footprint of `n` points (its last point not
/// repeating the first): `n` for a ring of three or more, else `n - 1`.
pub fn side_count(n: usize, closed: bool) -> usize {
    if closed && n >= 3 {
        n
    } else {
        n.saturating_sub(1)
    }
}

/// `ring` without a last point repeating the first.
pub fn open(ring: &[Xy]) -> &[Xy] {
    if ring.len() > 1 && ring.first() == ring.last() {
        &ring[..ring.len() - 1]
    } else {
        ring
    }
}

fn length(a: Xy, b: Xy) -> f64 {
    ((b[0] - a[0]).powi(2) + (b[1] - a[1]).powi(2)).sqrt()
}

/// The choices X-Plane makes for `fac` placed on `ring` (local metres,
/// x east, y north; a repeated last point is ignored) `height` metres
/// tall, with the DSF's `wall_types` per side when it gives them.
pub fn layout(fac: &Facade, ring: &[Xy], height: f64, wall_types: Option<&[i64]>) -> Layout {
    let ring = open(ring);
    let closed = fac.ring && ring.len() >= 3;
    let n = side_count(ring.len(), closed);
    let side_len = |i: usize| length(ring[i], ring[(i + 1) % ring.len()]);
    let mut out = Layout {
        asked: height,
        closed,
        roof: closed && fac.has_roof(),
        ..Layout::default()
    };
    if fac.is_type2() {
        type2(fac, ring, height, wall_types, n, &mut out);
    } else {
        type1(fac, ring, height, wall_types, n, &mut out);
    }
    for (i, s) in out.sides.iter_mut().enumerate() {
        s.length = side_len(i);
    }
    out.measured = if fac.is_type2() {
        out.floor.is_some()
    } else {
        out.floors.is_some()
    };
    out
}

fn type1(
    fac: &Facade,
    ring: &[Xy],
    height: f64,
    given: Option<&[i64]>,
    n: usize,
    out: &mut Layout,
) {
    let Some(lod) = fac.lods.first().filter(|l| !l.walls.is_empty()) else {
        out.height = 0.0;
        return;
    };
    let floors = floors::for_height(fac, height).unwrap_or(0);
    out.floors = Some(floors);
    let choice = walls::choose(&walls::type1_filters(lod), ring, n, given);
    let slant = fac.slant();
    for (i, &w) in choice.iter().enumerate() {
        let wall = &lod.walls[w];
        let len = length(ring[i], ring[(i + 1) % ring.len()]);
        let count = panels::for_length(wall, len);
        let sp = panels::split(wall, count);
        let built = built_width(wall, count);
        out.sides.push(Side {
            wall: w,
            name: wall.name.clone(),
            panels: Some(PanelCount {
                total: sp.total(),
                left: sp.left,
                center: sp.center,
                right: sp.right,
            }),
            stretch: if built > 0.0 { len / built } else { 0.0 },
            inset: if out.roof {
                roof::inset(wall, slant)
            } else {
                0.0
            },
            ..Side::default()
        });
    }
    // The roof sits where the last side's wall ends (`draw_facade` keeps
    // the height of the last wall it builds); without sides, wall 0.
    let wall = &lod.walls[choice.last().copied().unwrap_or(0)];
    out.height = floors::drawn_height(wall, floors, fac.has_roof(), slant);
}

/// The metres `count` panels of `wall` span at the texture's own scale.
fn built_width(wall: &super::Wall, count: u64) -> f64 {
    let sp = panels::split(wall, count);
    let n = wall.across.len();
    let (l, c) = (
        wall.count(super::Part::Left),
        wall.count(super::Part::Center),
    );
    let w = |i: usize| wall.across.get(i).map_or(0.0, |p| p.range[1] - p.range[0]);
    let left: f64 = (0..sp.left as usize).map(w).sum();
    let right: f64 = (n - sp.right as usize..n).map(w).sum();
    let center = if c > 0 {
        let cycle: f64 = (l..l + c).map(w).sum();
        let full = sp.center / c as u64;
        full as f64 * cycle + (l..l + (sp.center % c as u64) as usize).map(w).sum::<f64>()
    } else {
        0.0
    };
    (left + center + right) * wall.scale[0]
}

fn type2(
    fac: &Facade,
    ring: &[Xy],
    height: f64,
    given: Option<&[i64]>,
    n: usize,
    out: &mut Layout,
) {
    // The floor whose roof (its last `ROOF_HEIGHT`, 0 without one) comes
    // closest to the height asked, the first of equals (`draw_facade`).
    let mut best: Option<(usize, f64)> = None;
    for (k, f) in fac.floors.iter().enumerate() {
        let h = f.roof_heights.last().copied().unwrap_or(0.0);
        let cur = best.map_or(-9.9e9, |b| b.1);
        if floors::closer(cur, h, height) {
            best = Some((k, h));
        }
    }
    let Some((k, h)) = best.or(Some((0, 0.0))).filter(|_| !fac.floors.is_empty()) else {
        return;
    };
    let floor = &fac.floors[k];
    out.floor = Some(k);
    out.floor_name = Some(floor.name.clone());
    out.height = if floor.roof_heights.is_empty() {
        // A floor without roofs is as tall as its tallest mesh.
        floor
            .segments
            .iter()
            .flat_map(|s| &s.meshes)
            .filter_map(|m| m.bounds.map(|b| b.max[1]))
            .reduce(f64::max)
            .unwrap_or(h)
    } else {
        h
    };
    if floor.walls.is_empty() {
        return;
    }
    let choice = walls::choose(&walls::type2_filters(floor), ring, n, given);
    for (i, &w) in choice.iter().enumerate() {
        let len = length(ring[i], ring[(i + 1) % ring.len()]);
        let picked = spelling::pick(&spelling::spellings(floor, w), len);
        let width = picked.as_ref().map_or(0.0, |p| p.width);
        out.sides.push(Side {
            wall: w,
            name: floor.walls[w].name.clone(),
            segments: Some(picked.map(|p| p.segments).unwrap_or_default()),
            stretch: if width > 0.0 { len / width } else { 0.0 },
            ..Side::default()
        });
    }
}
