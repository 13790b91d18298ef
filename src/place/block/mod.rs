//! The block engine: an AGB's grid fitted to its 4-point DSF polygon.
//!
//! Steps, one module each:
//! 1. `measure`: check the polygon (one counter-clockwise winding of four
//!    points) and measure the block in the frame of its first side;
//! 2. `choose`: draw the spelling set (low byte, ranges, `FREQUENCY`);
//! 3. `fit`: per axis, pick the spelling whose assembled run puts the
//!    polygon sides between `EDGE_MIN` and `EDGE_MAX`, nearest `EDGE_BEST`,
//!    and size its slop bands;
//! 4. `lay`: the tiles, their annotations (overlap removal) and
//!    `ground` points, optionally cut by `crop`.
//!
//! The grid's texture axes: without `FLIP_180` texture +x runs along the
//! first side and +y into the polygon; with it both are reversed (a 180°
//! turn), so the first side lies along the top of the texture running right
//! to left. See `docs/agb-engine.md` for every rule and decision.

mod choose;
mod crop;
mod fit;
mod ground;
mod lay;
mod measure;

use crate::geom::Xy;
use crate::place::budget::Budget;
use crate::place::{Params, PlaceError, Placement, PlacementKind, rng};
use crate::xp::model::{Asset, Band, Grid, Spelling};
use fit::{AxisFit, Insets, Sides};

/// How far off a block may be from the closest spelling and still be
/// placed: when no spelling of an axis fits, the closest one is placed (with
/// a warning) only if the length the block needs is within `1/MAX_MISFIT`×
/// to `MAX_MISFIT`× of the spelling's length range; otherwise nothing is
/// placed and the warning says why.
pub const MAX_MISFIT: f64 = 3.0;

/// The most tiles one block may lay (columns × rows of the chosen
/// spellings); a block that would need more places nothing, with a warning.
pub const MAX_TILES: usize = 65_536;

/// Checks that `windings` (local metres) are a polygon an AGB can be
/// placed on, as [`place`] checks it before placing anything: one
/// counter-clockwise winding of four distinct points that does not cross
/// itself ([`PlaceError::Polygon`] says what is wrong otherwise).
pub fn check_polygon(windings: &[Vec<Xy>]) -> Result<(), PlaceError> {
    measure::measure(windings).map(|_| ())
}

/// Places an AGB on its 4-point polygon (local metres, counter-clockwise).
///
/// Errors: a polygon that is not one counter-clockwise winding of four
/// points ([`PlaceError::Polygon`]); an asset without grids, spelling sets,
/// texture scale, or whose set names a grid that does not exist
/// ([`PlaceError::Asset`]). A block no spelling fits is placed with the
/// closest spelling and a warning when it is within [`MAX_MISFIT`] of it;
/// a block further off, a set without usable spellings or a layout of more
/// than [`MAX_TILES`] tiles places nothing, with a warning. What the tiles
/// and their annotations place and cost is bounded by [`Params::limits`]
/// ([`PlaceError::Limit`] past it).
pub fn place(
    asset: &Asset,
    windings: &[Vec<Xy>],
    params: &Params,
) -> Result<Placement, PlaceError> {
    crate::place::sane(asset)?;
    let block = measure::measure(windings)?;
    let props = asset
        .block
        .as_ref()
        .ok_or_else(|| PlaceError::Asset("not an AGB: it has no grids".into()))?;
    let (mpp, defaulted) = crate::place::scale(asset)?;
    let mut out = Placement {
        kind: PlacementKind::Agb,
        polygon: windings.to_vec(),
        warnings: defaulted.into_iter().collect(),
        ..Placement::default()
    };
    let flip = props.flip_180.is_some();
    // Formats only when asked.
    macro_rules! explain {
        ($out:expr, $($arg:tt)*) => {
            if params.explain {
                $out.explain.push(format!($($arg)*));
            }
        };
    }
    explain!(
        out,
        "block: first side {:.3} m, width {:.3} m, depth {:.3} m, height {} m, low byte {}, FLIP_180 {}, CROP {}",
        block.first_side,
        block.width,
        block.depth,
        params.height,
        params.low,
        if flip { "on" } else { "off" },
        if props.crops() { "on" } else { "off" },
    );

    let mut rng = rng(params.seed);
    let measures = choose::Measures {
        low: params.low,
        height: params.height,
        width: block.width,
        depth: block.depth,
    };
    let choice = choose::choose(props, &measures, &mut rng)
        .ok_or_else(|| PlaceError::Asset("the AGB has no SPELLING_SET".into()))?;
    let set = &props.spelling_sets[choice.index];
    if choice.candidates.is_empty() {
        out.warnings
            .push(choose::no_match(props, &measures, set.line).into());
    }
    if params.explain {
        let list: Vec<String> = choice
            .candidates
            .iter()
            .map(|&i| {
                let s = &props.spelling_sets[i];
                format!("#{i} (line {}, weight {})", s.line, s.weight())
            })
            .collect();
        let line = if choice.candidates.is_empty() {
            format!(
                "spelling set: none matches low byte {} and the ranges; using the first, #0 (line {})",
                params.low, set.line
            )
        } else {
            format!(
                "spelling set: candidates {}; chose #{} (line {})",
                list.join(", "),
                choice.index,
                set.line
            )
        };
        out.explain.push(line);
    }
    let gi = set.grid();
    let grid = usize::try_from(gi)
        .ok()
        .and_then(|g| props.grids.get(g))
        .ok_or_else(|| {
            PlaceError::Asset(format!(
                "the spelling set at line {} uses grid {gi} but the AGB has {} grid(s)",
                set.line,
                props.grids.len()
            ))
        })?;

    let ins = insets(grid);
    let sides = sides(&block, flip, mpp);
    let axes = [
        ("columns", "SPELLING_S", &grid.columns, &set.spellings_s),
        ("rows", "SPELLING_T", &grid.rows, &set.spellings_t),
    ];
    let mut fits: Vec<lay::AxisRun> = Vec::with_capacity(2);
    for (k, (what, keyword, bands, spellings)) in axes.into_iter().enumerate() {
        let usable = usable_spellings(bands, spellings, what, keyword, gi, &mut out.warnings);
        if usable.is_empty() {
            out.warnings.push(format!(
                "the spelling set at line {} has no usable {keyword} for grid {gi}; nothing placed",
                set.line
            ).into());
            return Ok(out);
        }
        let mut best: Option<(usize, AxisFit, (f64, f64))> = None;
        for (n, (sp, idx)) in usable.iter().enumerate() {
            let range = fit::length_range(bands, idx);
            let f = fit::fit_axis(&sides[k], &ins[k], range);
            explain!(
                out,
                "{what}: {keyword} line {} {:?}{} spans {:.1}..{:.1} px; needs {:.1} px; fit error {:.2} px ({:.3} m){}",
                sp.line,
                sp.indices,
                sp.name
                    .as_ref()
                    .map(|n| format!(" ({n})"))
                    .unwrap_or_default(),
                range.0,
                range.1,
                f.ideal,
                f.error,
                f.error * mpp[k],
                if f.feasible {
                    ""
                } else {
                    "; outside EDGE_MIN..EDGE_MAX"
                },
            );
            let better = match &best {
                None => true,
                Some((_, b, _)) => {
                    (f.feasible && !b.feasible)
                        || (f.feasible == b.feasible && f.error < b.error - 1e-9)
                }
            };
            if better {
                best = Some((n, f, range));
            }
        }
        let Some((n, f, range)) = best else {
            return Ok(out);
        };
        let (sp, idx) = &usable[n];
        let misfit = misfit(f.ideal, range);
        if misfit > MAX_MISFIT {
            out.warnings.push(format!(
                "the block needs {:.2} m of {what} but the closest {keyword} of the spelling set at line {}, line {}, spans {:.2}..{:.2} m: {} (more than {MAX_MISFIT}× off); nothing placed",
                f.ideal * mpp[k],
                set.line,
                sp.line,
                range.0 * mpp[k],
                range.1 * mpp[k],
                if f.ideal < range.0 {
                    "the block is too small"
                } else {
                    "the block is too large"
                },
            ).into());
            return Ok(out);
        }
        if !f.feasible {
            out.warnings.push(format!(
                "no {keyword} of the spelling set at line {} keeps the polygon between EDGE_MIN and EDGE_MAX; placed the closest, line {}, {:.2} m off",
                set.line,
                sp.line,
                f.error * mpp[k]
            ).into());
        }
        let run = fit::lay_run(bands, idx, f.length);
        explain!(
            out,
            "{what}: chose {keyword} line {}: {:.2} px ({:.3} m), fit error {:.2} px ({:.3} m)",
            sp.line,
            f.length,
            f.length * mpp[k],
            f.error,
            f.error * mpp[k]
        );
        for (pos, l) in run.iter().enumerate() {
            if let Some(e) = l.stretch {
                let b = &bands[l.band];
                let cap = fit::slop_capacity(b, b.slop.unwrap_or(0.0));
                explain!(
                    out,
                    "{what}: slop {} at position {pos} stretched {:.2} px of at most {:.2} px",
                    l.band,
                    e,
                    cap
                );
            }
        }
        fits.push(lay::AxisRun {
            fit: f,
            run,
            line: sp.line,
        });
    }
    let (Some(t_run), Some(s_run)) = (fits.pop(), fits.pop()) else {
        return Ok(out);
    };
    let count = s_run.run.len().saturating_mul(t_run.run.len());
    if count > MAX_TILES {
        out.warnings.push(format!(
            "the chosen spellings (SPELLING_S line {}, SPELLING_T line {}) lay {} × {} = {count} tiles, more than the {MAX_TILES} one block may have; nothing placed",
            s_run.line,
            t_run.line,
            s_run.run.len(),
            t_run.run.len()
        ).into());
        return Ok(out);
    }
    let budget = Budget::new(&params.limits);
    lay::lay(
        &mut out,
        &lay::Input {
            asset,
            grid,
            block: &block,
            flip,
            mpp,
            ins: &ins,
            s: &s_run,
            t: &t_run,
            crop: props.crops(),
            params,
            budget: &budget,
        },
        &mut rng,
    );
    budget.finish()?;
    Ok(out)
}

/// How many times too short or too long a spelling of length range `range`
/// is for a block that needs `ideal` pixels (1 inside the range; infinite
/// when the block needs no length at all but the spelling has some).
fn misfit(ideal: f64, range: (f64, f64)) -> f64 {
    if ideal < range.0 {
        if ideal > 0.0 {
            range.0 / ideal
        } else {
            f64::INFINITY
        }
    } else if ideal > range.1 {
        if range.1 > 0.0 {
            ideal / range.1
        } else {
            f64::INFINITY
        }
    } else {
        1.0
    }
}

/// Spellings whose indices all name bands of the grid, with the indices as
/// `usize`; the others are reported and skipped.
fn usable_spellings<'a>(
    bands: &[Band],
    spellings: &'a [Spelling],
    what: &str,
    keyword: &str,
    grid: i64,
    warnings: &mut Vec<crate::place::Warning>,
) -> Vec<(&'a Spelling, Vec<usize>)> {
    let mut out = Vec::new();
    for sp in spellings {
        let idx: Option<Vec<usize>> = sp
            .indices
            .iter()
            .map(|&i| usize::try_from(i).ok().filter(|&i| i < bands.len()))
            .collect();
        match idx {
            Some(idx) if !idx.is_empty() => out.push((sp, idx)),
            Some(_) => {
                warnings.push(format!("{keyword} at line {} is empty; skipped", sp.line).into())
            }
            None => warnings.push(
                format!(
                    "{keyword} at line {} names {what} outside grid {grid}, which has {}; skipped",
                    sp.line,
                    bands.len()
                )
                .into(),
            ),
        }
    }
    out
}

/// The EDGE_* insets of a grid per axis (`[x, y]`), pixels inward from the
/// assembled grid's edges.
///
/// `EDGE_x left bottom right top` is a rectangle on the texture sheet, in
/// the grid's own pixels like `TILE`; its distances from the grid's outer
/// cuts (`left − first CUT_H`, `bottom − first CUT_V`, `last CUT_H − right`,
/// `last CUT_V − top`) are applied to the edges of the assembled grid.
/// Missing rectangles: `EDGE_MAX` defaults to `EDGE_BEST`, else the grid
/// edge; `EDGE_MIN` to `EDGE_BEST`, else `EDGE_MAX`; `EDGE_BEST` to the
/// middle of `EDGE_MIN` and `EDGE_MAX`.
fn insets(grid: &Grid) -> [Insets; 2] {
    let (x0, x1) = bounds(&grid.columns);
    let (y0, y1) = bounds(&grid.rows);
    let get = |e: &Option<crate::xp::model::Lined<[f64; 4]>>| {
        e.as_ref().map(|l| {
            let r = l.value;
            let v = [r[0] - x0, r[1] - y0, x1 - r[2], y1 - r[3]];
            v.map(|v| if v.is_finite() { v } else { 0.0 })
        })
    };
    let best_given = get(&grid.edge_best);
    let max = get(&grid.edge_max).or(best_given).unwrap_or([0.0; 4]);
    let min = get(&grid.edge_min).or(best_given).unwrap_or(max);
    let best = best_given.unwrap_or_else(|| std::array::from_fn(|k| (min[k] + max[k]) / 2.0));
    // [left, bottom, right, top] → x: (left, right), y: (bottom, top).
    let axis = |lo: usize, hi: usize| {
        Insets::normalised([max[lo], max[hi]], [best[lo], best[hi]], [min[lo], min[hi]])
    };
    [axis(0, 2), axis(1, 3)]
}

/// The first and last cut of a list of bands.
fn bounds(bands: &[Band]) -> (f64, f64) {
    match (bands.first(), bands.last()) {
        (Some(a), Some(b)) => (a.start, b.end),
        _ => (0.0, 0.0),
    }
}

/// The polygon sides crossing each texture axis, in pixels relative to
/// vertex 0 of the polygon (texture directions: reversed under FLIP_180).
fn sides(block: &measure::Block, flip: bool, mpp: [f64; 2]) -> [Sides; 2] {
    let sign = if flip { -1.0 } else { 1.0 };
    let r: Vec<Xy> = block
        .q
        .iter()
        .map(|q| [sign * q[0] / mpp[0], sign * q[1] / mpp[1]])
        .collect();
    let extent = |a: Xy, b: Xy, k: usize| [a[k].min(b[k]), a[k].max(b[k])];
    let pair = |s1: [f64; 2], s2: [f64; 2]| {
        if s1[0] + s1[1] <= s2[0] + s2[1] {
            Sides { lo: s1, hi: s2 }
        } else {
            Sides { lo: s2, hi: s1 }
        }
    };
    // Along x: the sides 3→0 and 1→2; along y: 0→1 and 2→3.
    [
        pair(extent(r[3], r[0], 0), extent(r[1], r[2], 0)),
        pair(extent(r[0], r[1], 1), extent(r[2], r[3], 1)),
    ]
}
