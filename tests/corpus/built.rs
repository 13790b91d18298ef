//! Real facades and objects built as X-Plane builds them (issue 34): every
//! rule on every corpus file it applies to, against the independent
//! transcription in `tests/art_reference` and the measured
//! figures.

use crate::support;
use agkit::fac::{self, floors, layout, panels};
use agkit::limits::Limits;
use agkit::obj::{self, Select};

#[path = "../art_reference/mod.rs"]
mod art_reference;
use art_reference::{lists, ref_floors, ref_height, ref_panels, ref_posed_box};

const INDUSTRIAL: &str =
    "art/leonalessio__osm2xp/osm2xp_additions/xplane/facades/industrial_W2XP_tony1.fac";

fn facade(rel: &str) -> fac::Facade {
    let path = support::file(rel);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    fac::read(&bytes, rel, &Limits::default()).unwrap()
}

#[test]
fn the_osm2xp_industrial_facade_is_built_as_the_reference_measured() {
    let f = facade(INDUSTRIAL);
    let ring = [[0.0, 0.0], [10.0, 0.0], [10.0, 37.0], [0.0, 37.0]];
    for (asked, n, h) in [(10.0, 5, 10.699), (20.0, 9, 19.723)] {
        let l = layout::layout(&f, &ring, asked, None);
        assert_eq!(l.floors, Some(n), "asked {asked}");
        assert!((l.height - h).abs() < 5e-4, "asked {asked}: {}", l.height);
    }
    let l = layout::layout(&f, &ring, 10.0, None);
    let walls: Vec<usize> = l.sides.iter().map(|s| s.wall).collect();
    assert_eq!(walls, [0, 1, 0, 1]);
    assert_eq!(l.sides[1].panels.unwrap().total, 11);
    assert!(l.roof);
    assert_eq!(f.roof_texture(), f.wall_texture());
    // Texture density: metres of wall per texture width and height.
    let per_width = 48.0 * l.sides[1].stretch;
    assert!((44.0..=49.0).contains(&per_width), "{per_width}");
    let g = fac::shape::walls(&f, &ring, &l);
    for q in 0..g.triangles.len() / 2 {
        let (a, c) = (4 * q, 4 * q + 2);
        let dz = g.positions[c][2] - g.positions[a][2];
        let dt = g.uvs[c][1] - g.uvs[a][1];
        assert!((dz / dt - 44.0).abs() < 1e-6, "quad {q}");
    }
    // A roof under which the windows repeat: 11 panels on the long sides.
    assert!(!fac::shape::roof(&f, &ring, &l).triangles.is_empty());
}

#[test]
fn every_type1_corpus_facade_counts_floors_and_panels_as_the_transcription() {
    let mut walls_checked = 0;
    for row in support::nonempty(support::rows_of(&["fac"]), "fac") {
        let bytes = std::fs::read(&row.path).unwrap();
        let Some(f) = fac::check(&bytes, &Limits::default()).value else {
            continue;
        };
        if f.is_type2() {
            continue;
        }
        let Some(lod) = f.lods.first() else { continue };
        for (k, w) in lod.walls.iter().enumerate() {
            let (across, up) = lists(w);
            if w.scale.iter().any(|&s| s <= 0.0) {
                continue;
            }
            walls_checked += 1;
            for len in (1..200).map(|m| m as f64 * 0.75) {
                assert_eq!(
                    panels::for_length(w, len) as i64,
                    ref_panels(&across, w.scale[0], len),
                    "{} wall {k}, side {len} m",
                    row.rel
                );
            }
            if k != 0 || up.is_empty() {
                continue;
            }
            let (min, max) = (f.floors_min as i64, f.floors_max as i64);
            for h in (1..160).map(|m| m as f64 * 0.5) {
                let n = floors::for_height(&f, h).unwrap();
                assert_eq!(
                    n as i64,
                    ref_floors(&up, w.scale[1], w.roof_slope, w.basement, [min, max], h),
                    "{}: {h} m",
                    row.rel
                );
                if !f.slant() && w.basement == 0.0 {
                    let ours = floors::drawn_height(w, n, true, false);
                    let theirs = ref_height(&up, w.scale[1], n as i64);
                    assert!((ours - theirs).abs() < 1e-6, "{}: {n} floors", row.rel);
                }
            }
        }
    }
    assert!(walls_checked > 10, "only {walls_checked} walls");
}

#[test]
fn animated_corpus_objects_are_posed_at_their_first_key() {
    let mut posed = 0;
    for row in support::nonempty(support::rows_of(&["obj"]), "obj") {
        let bytes = std::fs::read(&row.path).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        if !text.contains("ANIM_") {
            continue;
        }
        let Some(o) = obj::check(&bytes, &Limits::default()).value else {
            continue;
        };
        let Some(want) = ref_posed_box(&text) else {
            continue;
        };
        if o.triangle_count(Select::All) == 0 {
            continue;
        }
        let b = o.bounds().unwrap();
        let agree = (0..3).all(|k| {
            let tol = 1e-6 * (1.0 + want.0[k].abs().max(want.1[k].abs()));
            (b.min[k] - want.0[k]).abs() < tol && (b.max[k] - want.1[k]).abs() < tol
        });
        assert!(agree, "{}: {b:?} against {want:?}", row.rel);
        posed += 1;
    }
    assert!(posed >= 3, "only {posed} animated objects");
}

#[test]
fn the_national_guard_lights_stand_where_their_animations_put_them() {
    let rel = "art/kdegonge__PANC-Anchorage/AlexS_Assets/National-Guard-Lights.obj";
    let bytes = std::fs::read(support::file(rel)).unwrap();
    let o = obj::read(&bytes, rel, &Limits::default()).unwrap();
    let area = |fp: &[[f64; 2]]| -> f64 {
        let n = fp.len();
        (0..n)
            .map(|i| fp[i][0] * fp[(i + 1) % n][1] - fp[(i + 1) % n][0] * fp[i][1])
            .sum::<f64>()
            .abs()
            / 2.0
    };
    // The figures: 264,694 m² posed against 126,810 m² at rest.
    let posed = area(&o.footprint());
    assert!((posed - 264_694.0).abs() < 264_694.0 * 0.005, "{posed}");
    let rest: Vec<[f64; 2]> = o
        .rest_corners(Select::Solid)
        .map(|p| [p[0], p[2]])
        .collect();
    let rest_hull = geo_hull_area(&rest);
    assert!(
        (rest_hull - 126_810.0).abs() < 126_810.0 * 0.005,
        "{rest_hull}"
    );
}

/// The area of the convex hull of `pts`, by a monotone chain written here.
fn geo_hull_area(pts: &[[f64; 2]]) -> f64 {
    let mut p = pts.to_vec();
    p.sort_by(|a, b| a[0].total_cmp(&b[0]).then(a[1].total_cmp(&b[1])));
    p.dedup();
    if p.len() < 3 {
        return 0.0;
    }
    let cross = |o: [f64; 2], a: [f64; 2], b: [f64; 2]| {
        (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
    };
    let mut hull: Vec<[f64; 2]> = Vec::new();
    for pass in 0..2 {
        let start = hull.len();
        let iter: Box<dyn Iterator<Item = &[f64; 2]>> = if pass == 0 {
            Box::new(p.iter())
        } else {
            Box::new(p.iter().rev())
        };
        for &q in iter {
            while hull.len() >= start + 2
                && cross(hull[hull.len() - 2], hull[hull.len() - 1], q) <= 0.0
            {
                hull.pop();
            }
            hull.push(q);
        }
        hull.pop();
    }
    let n = hull.len();
    (0..n)
        .map(|i| hull[i][0] * hull[(i + 1) % n][1] - hull[(i + 1) % n][0] * hull[i][1])
        .sum::<f64>()
        .abs()
        / 2.0
}
