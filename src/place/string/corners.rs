//! Corner tiles: rule matching and the articulated three-tile corner.
//!
//! Corners are visited in DSF winding order and, on each winding, in vertex
//! order starting from the first corner at or after vertex 0. At each corner
//! the rules are tried by `PRIORITY_MARKER_CORNER` group (lower group
//! first; within a group in a seeded random order, so each has the same
//! chance). A rule is used when its conditions hold and at least one tile
//! can be placed (all three for `ATOMIC_SPELLING_CORNER`); otherwise the
//! next rule is tried.
//!
//! Geometry (local metres, `V` the corner vertex, `u_in`/`u_out` the
//! directions of the segments arriving at and leaving `V`):
//!
//! * one tile: its bottom edge lies on the arriving segment and its
//!   bottom-right corner is at `V` (so it covers the last tile-width of the
//!   arriving side). A tile refused by a stop point is slid back along the
//!   arriving side, up to its own width.
//! * three tiles (preceding, middle, trailing): headings `h_in`,
//!   `h_in + Δ/2`, `h_in + Δ` (Δ = the heading change, so both steps are
//!   equal and sum to the turn); the middle tile's `PIVOT_TRAIL_PT` sits on
//!   the preceding tile's `PIVOT_LEAD_PT` and the trailing tile's trail
//!   point on the middle tile's lead point. The chain is then slid along the
//!   arriving segment until the trailing tile's bottom edge lies on the
//!   leaving segment. Missing pivots default to the bottom-left (trail) and
//!   bottom-right (lead) pixel of the tile.
//! * `CORNER_PAIR`, one tile: centred on the single segment between the two
//!   corners, bottom edge on it. Three tiles: the middle one so, the
//!   preceding and trailing joined to it by their pivots and turned by the
//!   first and second corner's own turn (the equal-steps rule cannot hold
//!   for two corners).
//!
//! What a corner takes of its sides is the projection of its placed tiles
//! onto each side's direction from `V` (clamped to the side); edge tiles
//! fill what is left.

use super::sides::{add, dot, left, rotate, scale, sub};
use super::spell::{MAX_SLIDES, step_for};
use super::{Cand, Engine, UnitKind, shuffle, within};
use crate::geom::Xy;
use crate::place::Role;
use crate::xp::model::{CornerKind, CornerRule, Px, StringProps};

/// A corner vertex of a spawning winding.
#[derive(Debug, Clone)]
pub struct Site {
    /// Vertex index in the ring.
    pub vertex: usize,
    /// Position.
    pub pos: Xy,
    /// Turn (degrees, right positive).
    pub turn: f64,
    /// Length of the single segment arriving at the vertex.
    pub len_prev: f64,
    /// Length of the single segment leaving it.
    pub len_next: f64,
    /// Direction of the arriving segment.
    pub dir_in: Xy,
    /// Direction of the leaving segment.
    pub dir_out: Xy,
    /// Index (into `Engine::sides`) of the side ending here.
    pub side_in: usize,
    /// Index of the side starting here.
    pub side_out: usize,
}

/// The kind name of a rule, as written in the file.
pub fn rule_name(r: &CornerRule) -> &'static str {
    match r.kind {
        CornerKind::Corner { .. } => "CORNER",
        CornerKind::Len { .. } => "CORNER_LEN",
        CornerKind::Pair { .. } => "CORNER_PAIR",
        CornerKind::Atomic { .. } => "ATOMIC_SPELLING_CORNER",
    }
}

/// The corner rules by `PRIORITY_MARKER_CORNER` group, lowest first (the
/// order inside a group is drawn per corner).
pub(crate) fn rule_groups(props: &StringProps) -> Vec<Vec<usize>> {
    let mut by: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
    for (i, r) in props.corners.iter().enumerate() {
        by.entry(r.priority).or_default().push(i);
    }
    by.into_values().collect()
}

/// Places the corners of ring `w` at `cs`: (vertex, index of the side
/// ending there, index of the side starting there), in vertex order — the
/// corners whose both sides spawn tiles. `groups` are the rules by
/// priority ([`rule_groups`]).
pub(crate) fn place_winding(
    eng: &mut Engine,
    w: usize,
    cs: &[(usize, usize, usize)],
    groups: &[Vec<usize>],
) {
    let m = cs.len();
    let label = eng.labels[w].clone();
    if m == 0 {
        eng.explain(|| format!("{label}: no corners"));
        return;
    }
    let ring = &eng.rings[w];
    let n = ring.len();
    let sites: Vec<Site> = cs
        .iter()
        .map(|&(v, side_in, side_out)| Site {
            vertex: v,
            pos: ring.pts[v],
            turn: ring.turns[v],
            len_prev: ring.seg_len((v + n - 1) % n),
            len_next: ring.seg_len(v),
            dir_in: ring.seg_dir((v + n - 1) % n),
            dir_out: ring.seg_dir(v),
            side_in,
            side_out,
        })
        .collect();
    let mut prev: Option<Vec<i64>> = None;
    let mut placed = vec![false; m];
    let mut k = 0;
    while k < m {
        if eng.full() {
            return;
        }
        let site = &sites[k];
        // The corner a CORNER_PAIR would take too: the next one, when a
        // single segment leads to it and it has no tile yet (the last corner
        // may pair with the first one).
        let j = (k + 1) % m;
        let next =
            Some(&sites[j]).filter(|s| m > 1 && !placed[j] && s.vertex == (site.vertex + 1) % n);
        let mut order = Vec::new();
        for g in groups {
            let mut g = g.clone();
            shuffle(&mut g, &mut eng.rng);
            order.extend(g);
        }
        // One unit per rule weighed here (those that reach the geometry
        // pay for their candidates too).
        if !eng.budget.work(order.len() as u64) {
            return;
        }
        let mut used = None;
        for ri in order {
            let rule = &eng.props.corners[ri];
            match try_rule(eng, rule, site, next, prev.as_deref()) {
                Ok(ids) => {
                    eng.explain(|| {
                        format!(
                            "{label} corner at vertex {} (turn {:.1}°): {} line {} placed tiles {:?}",
                            site.vertex,
                            site.turn,
                            rule_name(rule),
                            rule.line,
                            ids
                        )
                    });
                    used = Some((ids, matches!(rule.kind, CornerKind::Pair { .. })));
                    break;
                }
                Err(why) => eng.explain(|| {
                    format!(
                        "{label} corner at vertex {} (turn {:.1}°): {} line {} refused: {why}",
                        site.vertex,
                        site.turn,
                        rule_name(rule),
                        rule.line
                    )
                }),
            }
        }
        match used {
            Some((ids, pair)) => {
                prev = Some(ids);
                placed[k] = true;
                if pair {
                    placed[j] = true;
                    k += 1;
                }
                k += 1;
            }
            None => {
                eng.explain(|| {
                    format!(
                        "{label} corner at vertex {} (turn {:.1}°): no corner tile",
                        site.vertex, site.turn
                    )
                });
                k += 1;
            }
        }
    }
}

/// Tries one rule at `site` (`next` is the following corner when it ends
/// the single segment leaving `site`). On success returns the placed tile
/// ids; a refusal says why when the run explains (it is empty otherwise:
/// most rules are refused at most corners, and nobody reads why).
fn try_rule(
    eng: &mut Engine,
    rule: &CornerRule,
    site: &Site,
    next: Option<&Site>,
    prev: Option<&[i64]>,
) -> Result<Vec<i64>, String> {
    let say = eng.params.explain;
    let why = |msg: &dyn Fn() -> String| if say { msg() } else { String::new() };
    let group_ok = |g: i64| -> Result<(), String> {
        match prev {
            _ if g == 0 => Ok(()),
            None => Ok(()),
            Some(ids) if ids.iter().any(|&t| eng.props.in_group(g, t)) => Ok(()),
            Some(ids) => Err(why(&|| {
                format!("the previous corner {ids:?} is not in group {g}")
            })),
        }
    };
    let angle_ok = |t: f64, r: [f64; 2], what: &str| -> Result<(), String> {
        if within(t, r) {
            Ok(())
        } else {
            Err(why(&|| {
                format!("{what}turn {t:.1}° not in [{}, {}]", r[0], r[1])
            }))
        }
    };
    let len_ok = |l: f64, r: [f64; 2], what: &str| -> Result<(), String> {
        if within(l, r) {
            Ok(())
        } else {
            Err(why(&|| {
                format!("{what} segment {l:.1} m not in [{}, {}]", r[0], r[1])
            }))
        }
    };
    let mut atomic = false;
    let mut pair_with = None;
    match &rule.kind {
        CornerKind::Corner { angle } => angle_ok(site.turn, *angle, "")?,
        CornerKind::Len {
            len1,
            angle,
            len2,
            group,
        }
        | CornerKind::Atomic {
            len1,
            angle,
            len2,
            group,
        } => {
            atomic = matches!(rule.kind, CornerKind::Atomic { .. });
            len_ok(site.len_prev, *len1, "previous")?;
            angle_ok(site.turn, *angle, "")?;
            len_ok(site.len_next, *len2, "next")?;
            group_ok(*group)?;
        }
        CornerKind::Pair {
            angle1,
            length,
            angle2,
            group,
        } => {
            let Some(nx) = next else {
                return Err("the next corner is not at the end of a single segment".into());
            };
            angle_ok(site.turn, *angle1, "first ")?;
            len_ok(site.len_next, *length, "middle")?;
            angle_ok(nx.turn, *angle2, "second ")?;
            group_ok(*group)?;
            pair_with = Some(nx);
        }
    }
    if rule.tiles.len() != 1 && rule.tiles.len() != 3 {
        return Err(format!("{} tiles (1 or 3 expected)", rule.tiles.len()));
    }
    let (ts, _) = eng.resolve(&rule.tiles)?;
    let cands = match pair_with {
        None => corner_pose(eng, &ts, site),
        Some(nx) => pair_pose(eng, &ts, site, nx),
    };
    let order = rule.placement_order();
    let single = ts.len() == 1 && pair_with.is_none();
    let mut placed: Vec<Cand> = Vec::new();
    let mut why = Vec::new();
    for &i in &order {
        let Some(c) = cands.get(i) else { continue };
        let tries: Vec<Cand> = if single {
            slides(eng, c, site)
        } else {
            vec![c.clone()]
        };
        let mut ok = None;
        let mut last_err = None;
        for t in tries {
            match eng.check(&t, &placed) {
                Ok(()) => {
                    ok = Some(t);
                    break;
                }
                Err(e) => last_err = Some(e),
            }
        }
        match ok {
            Some(t) => placed.push(t),
            None => {
                let e = last_err.map_or_else(String::new, |e| e.to_string());
                if atomic {
                    return Err(format!(
                        "atomic: tile {} cannot be placed ({e})",
                        rule.tiles[i]
                    ));
                }
                why.push(format!("tile {} dropped: {e}", rule.tiles[i]));
            }
        }
    }
    if placed.is_empty() {
        return Err(format!("no tile could be placed ({})", why.join("; ")));
    }
    for w in why {
        eng.warn(|| {
            format!(
                "corner at ({:.1}, {:.1}), {} line {}: {w}",
                site.pos[0],
                site.pos[1],
                rule_name(rule),
                rule.line
            )
        });
    }
    // What the corner takes of its sides.
    let all: Vec<Xy> = placed.iter().flat_map(|c| c.poly.iter().copied()).collect();
    let (last_site, far_side) = match pair_with {
        Some(nx) => {
            eng.taken[site.side_out] = [f64::INFINITY, f64::INFINITY];
            (nx, nx.side_out)
        }
        None => (site, site.side_out),
    };
    let back = project(&all, site.pos, scale(site.dir_in, -1.0));
    let fwd = project(&all, last_site.pos, last_site.dir_out);
    eng.taken[site.side_in][1] = eng.taken[site.side_in][1].max(back);
    eng.taken[far_side][0] = eng.taken[far_side][0].max(fwd);
    let ids: Vec<i64> = placed.iter().map(|c| eng.asset.tiles[c.tile].id).collect();
    eng.commit(placed, Role::Corner, UnitKind::Corner, rule.line);
    Ok(ids)
}

/// How far along `dir` from `from` the points reach (≥ 0).
fn project(pts: &[Xy], from: Xy, dir: Xy) -> f64 {
    pts.iter()
        .map(|&p| dot(sub(p, from), dir))
        .fold(0.0, f64::max)
}

/// The single-tile corner slid back along the arriving side in steps, up to
/// its width (the unslid pose first; at most [`MAX_SLIDES`] steps).
fn slides(eng: &Engine, c: &Cand, site: &Site) -> Vec<Cand> {
    let w = eng.size_m(c.tile)[0];
    let step = step_for(w);
    let n = ((w / step).floor() as usize).min(MAX_SLIDES);
    (0..=n)
        .map(|k| {
            let mut m = c.map;
            let d = scale(site.dir_in, -(k as f64) * step);
            m.0[2] += d[0];
            m.0[5] += d[1];
            eng.cand(c.tile, m)
        })
        .collect()
}

fn lead_px(eng: &Engine, t: usize) -> Px {
    let tile = &eng.asset.tiles[t];
    tile.pivot_lead
        .as_ref()
        .map_or([tile.rect[2], tile.rect[1]], |p| p.value)
}

fn trail_px(eng: &Engine, t: usize) -> Px {
    let tile = &eng.asset.tiles[t];
    tile.pivot_trail
        .as_ref()
        .map_or([tile.rect[0], tile.rect[1]], |p| p.value)
}

fn heading_change(site: &Site) -> f64 {
    -site.turn
}

/// Candidates of a one- or three-tile corner at `site`, in rule order
/// (preceding, middle, trailing).
fn corner_pose(eng: &Engine, ts: &[usize], site: &Site) -> Vec<Cand> {
    use crate::place::annotate::Affine;
    if ts.len() == 1 {
        let w = eng.size_m(ts[0])[0];
        let origin = add(site.pos, scale(site.dir_in, -w));
        return vec![eng.cand_at(ts[0], origin, site.dir_in)];
    }
    let delta = heading_change(site);
    let u0 = site.dir_in;
    let u1 = rotate(u0, delta / 2.0);
    let u2 = rotate(u0, delta);
    let r0 = eng.asset.tiles[ts[0]].rect;
    let m0 = Affine::from_frame([r0[0], r0[1]], site.pos, u0, eng.mpp);
    let m1 = Affine::from_frame(
        trail_px(eng, ts[1]),
        m0.apply(lead_px(eng, ts[0])),
        u1,
        eng.mpp,
    );
    let m2 = Affine::from_frame(
        trail_px(eng, ts[2]),
        m1.apply(lead_px(eng, ts[1])),
        u2,
        eng.mpp,
    );
    // Slide the chain along u0 so the trailing tile's bottom edge lies on the
    // leaving segment's line.
    let r2 = eng.asset.tiles[ts[2]].rect;
    let b2 = m2.apply([r2[0], r2[1]]);
    let n2 = left(u2);
    let f0 = dot(sub(b2, site.pos), n2);
    let k = dot(u0, n2);
    let s = if k.abs() > 1e-6 {
        -f0 / k
    } else {
        -eng.size_m(ts[0])[0]
    };
    let shift = |m: Affine| {
        let mut m = m;
        m.0[2] += s * u0[0];
        m.0[5] += s * u0[1];
        m
    };
    vec![
        eng.cand(ts[0], shift(m0)),
        eng.cand(ts[1], shift(m1)),
        eng.cand(ts[2], shift(m2)),
    ]
}

/// Candidates of a `CORNER_PAIR` spanning the segment from `a` to `b`.
fn pair_pose(eng: &Engine, ts: &[usize], a: &Site, b: &Site) -> Vec<Cand> {
    use crate::place::annotate::Affine;
    let mid = if ts.len() == 1 { ts[0] } else { ts[1] };
    let w = eng.size_m(mid)[0];
    let u = a.dir_out;
    let origin = add(a.pos, scale(u, (a.len_next - w) / 2.0));
    let cm = eng.cand_at(mid, origin, u);
    if ts.len() == 1 {
        return vec![cm];
    }
    let u0 = rotate(u, a.turn);
    let u2 = rotate(u, -b.turn);
    let m0 = Affine::from_frame(
        lead_px(eng, ts[0]),
        cm.map.apply(trail_px(eng, mid)),
        u0,
        eng.mpp,
    );
    let m2 = Affine::from_frame(
        trail_px(eng, ts[2]),
        cm.map.apply(lead_px(eng, mid)),
        u2,
        eng.mpp,
    );
    vec![eng.cand(ts[0], m0), cm, eng.cand(ts[2], m2)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn projection_is_clamped() {
        let pts = [[-3.0, 0.0], [0.0, 2.0]];
        assert_eq!(project(&pts, [0.0, 0.0], [0.0, 1.0]), 2.0);
        assert_eq!(project(&pts, [0.0, 0.0], [0.0, -1.0]), 0.0);
        assert_eq!(project(&pts, [0.0, 0.0], [-1.0, 0.0]), 3.0);
    }
}
