//! Painted line (`.lin`) and object string (`.str`) rows: the line with
//! the `.lin`'s width and texture, and a string's objects every `spacing`
//! metres along it (the parameter), the `.str`'s objects in turn, each
//! heading along the line plus a draw within its range, moved `OFFSET`
//! metres to the right.

use super::Laid;
use crate::draped::DrapedArt;
use crate::dsf::features::{Feature, Geometry};
use crate::geom::{LocalFrame, Xy};
use crate::place::{PlacedLine, PlacedObject, Placement, Rng};
use crate::scenery::definition::DefArt;
use rand::RngExt;

/// Lays out one line or string row of `definition` into `p`.
pub(super) fn lay(
    f: &Feature,
    definition: &str,
    art: &DefArt,
    frame: &LocalFrame,
    rng: &mut Rng,
    p: &mut Placement,
    take: &mut dyn FnMut(usize) -> bool,
) -> Laid {
    if !take(1) {
        return Laid::Stopped;
    }
    let Geometry::LineString(mut pts) = f.geometry.clone() else {
        return Laid::Skipped;
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
        asset: definition.to_string(),
        entity: f.entity,
        winding: f.winding.unwrap_or(0),
        points: pts.iter().map(|&q| frame.to_local(q)).collect::<Vec<Xy>>(),
        lonlat: pts,
        closed,
        width,
        spacing: f.spacing,
        art: art.state,
        texture,
        z: None,
        removed_by: None,
    };
    if let Some(DrapedArt::Str(s)) = &art.draped {
        let from = p.objects.len();
        string_objects(&line, s, f.entity, rng, &mut p.objects, take);
        for o in &mut p.objects[from..] {
            [o.lon, o.lat] = frame.to_lonlat([o.x, o.y]);
        }
    }
    p.lines.push(line);
    Laid::Row
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

#[cfg(test)]
mod tests {
    use super::*;

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
