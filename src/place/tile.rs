//! One autogen use of a DSF tile, placed: the seeding rule every face
//! shares.
//!
//! A tile is placed use by use, in the order [`crate::dsf::autogen_uses`]
//! lists them (the DSF's command order). Use `i` of a tile placed with
//! seed `s` draws every random choice from the seed [`use_seed`]`(s, i)` =
//! `s XOR i`: the pick among a library path's alternatives
//! ([`crate::scenery::resolve::Resolution::pick`]) and every choice of the
//! engine. Its [`Placement::seed`] is that seed, so `agkit place ASSET
//! --seed N` on the same polygon or point reproduces the use alone.
//!
//! `agkit place --dsf`, [`crate::scenery::Scenery::place_tile`] (and so the
//! Python binding), the overlay preview ([`crate::overlay::preview`]) and
//! `agkit scenery at` all place a use through [`place_use`], so the same
//! tile and seed give the same placement everywhere.

use super::{Params, PlaceError, Placement, Use};
use crate::dsf::autogen::AutogenUse;
use crate::xp::model::Asset;

/// The seed of use `index` (0-based, in [`crate::dsf::autogen_uses`]
/// order) of a tile placed with `seed`: `seed XOR index`. Distinct uses of
/// one tile get distinct seeds; seed 0 gives use `i` the seed `i`.
pub fn use_seed(seed: u64, index: usize) -> u64 {
    seed ^ index as u64
}

/// Where a DSF puts the asset of `u`: its point and heading (AGP) or its
/// windings (AGB, AGS).
pub fn dsf_use(u: &AutogenUse) -> Use {
    match u.point {
        Some(at) => Use::Point {
            at,
            heading: u.heading.unwrap_or(0.0),
        },
        None => Use::Polygon {
            windings: u.windings.clone(),
        },
    }
}

/// The settings use `index` of a tile is placed with: `params` with the
/// seed of [`use_seed`] and the use's DSF parameter (height and low byte)
/// when it has one.
pub fn use_params(params: &Params, index: usize, u: &AutogenUse) -> Params {
    let mut p = params.clone();
    p.seed = use_seed(params.seed, index);
    if let Some(param) = u.param {
        p = p.with_dsf_param(param);
    }
    p
}

/// Places `asset` on use `index` of a tile ([`use_params`],
/// [`dsf_use`]), named by the path the DSF gives.
pub fn place_use(
    asset: &Asset,
    u: &AutogenUse,
    index: usize,
    params: &Params,
) -> Result<Placement, PlaceError> {
    super::place(asset, &u.asset, &dsf_use(u), &use_params(params, index, u))
}

/// Use `u` of a tile as a placement of nothing, for the views to draw
/// where the DSF puts it (its point, or its polygon's windings in local
/// metres of its first point) when it could not be placed: `why` says why
/// ([`Placement::unplaced`]). No engine runs; nothing is invented for it.
pub fn unplaced(u: &AutogenUse, why: impl Into<String>) -> Placement {
    let origin = u
        .point
        .or_else(|| u.windings.first().and_then(|w| w.first().copied()))
        .unwrap_or_default();
    let frame = crate::geom::LocalFrame::new(origin);
    Placement {
        kind: u.kind.into(),
        asset: u.asset.clone(),
        origin,
        polygon: u
            .windings
            .iter()
            .map(|w| w.iter().map(|&p| frame.to_local(p)).collect())
            .collect(),
        unplaced: Some(why.into()),
        ..Placement::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dsf::autogen::AutogenKind;

    fn block(param: Option<u16>) -> AutogenUse {
        AutogenUse {
            kind: AutogenKind::Agb,
            asset: "a.agb".into(),
            def: 0,
            point: None,
            heading: None,
            windings: vec![vec![[13.0, 47.0], [13.001, 47.0], [13.001, 47.001]]],
            param,
            height: None,
            low: None,
        }
    }

    #[test]
    fn each_use_of_a_tile_has_its_own_seed() {
        assert_eq!(use_seed(0, 5), 5);
        assert_eq!(use_seed(7, 0), 7);
        let seeds: std::collections::HashSet<u64> = (0..1000).map(|i| use_seed(42, i)).collect();
        assert_eq!(seeds.len(), 1000);
    }

    #[test]
    fn the_use_brings_its_seed_and_parameter() {
        let base = Params {
            seed: 3,
            height: 99.0,
            ..Params::default()
        };
        let p = use_params(&base, 6, &block(Some((5 << 8) | 2)));
        assert_eq!((p.seed, p.height, p.low), (3 ^ 6, 20.0, 2));
        let p = use_params(&base, 1, &block(None));
        assert_eq!((p.seed, p.height, p.low), (2, 99.0, 0));
        let point = AutogenUse {
            kind: AutogenKind::Agp,
            point: Some([13.0, 47.0]),
            heading: Some(90.0),
            windings: Vec::new(),
            ..block(None)
        };
        assert_eq!(
            dsf_use(&point),
            Use::Point {
                at: [13.0, 47.0],
                heading: 90.0
            }
        );
        assert!(matches!(dsf_use(&block(None)), Use::Polygon { windings } if windings.len() == 1));
    }
}
