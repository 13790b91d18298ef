//! The AGP engine: orientation for every ROTATION and a few headings (both
//! frames), anchor, CROP_POLY, GROUND_PT, show levels, determinism, the
//! lon/lat round trip, and every AGP of the corpus.

use agkit::geom::LocalFrame;
use agkit::place::{self, FrameConvention, Params, Use};
use agkit::xp::model::*;
use proptest::prelude::*;

fn lined<T>(value: T, line: usize) -> Lined<T> {
    Lined { value, line }
}

fn obj(at: Px, heading: f64, mode: ObjMode, show: Option<[i64; 2]>, line: usize) -> Annotation {
    Annotation {
        kind: AnnotationKind::Object(ObjectAnn {
            mode,
            at,
            heading,
            index: 0,
            show,
        }),
        line,
    }
}

fn tile(rect: [f64; 4], rotation: i64, anns: Vec<Annotation>) -> Tile {
    Tile {
        id: 0,
        explicit_id: false,
        rect,
        line: 8,
        rotation: Some(lined(rotation, 9)),
        anchor: None,
        ground: None,
        crop_poly: None,
        stop_pts: Vec::new(),
        pivot_lead: None,
        pivot_trail: None,
        annotations: anns,
    }
}

/// TEXTURE_SCALE 100 100, TEXTURE_WIDTH 50: 0.5 m per pixel.
fn asset(tiles: Vec<Tile>) -> Asset {
    Asset {
        kind: Kind::Agp,
        common: Common {
            texture_scale: Some(lined([100.0, 100.0], 4)),
            texture_width: Some(lined(50.0, 5)),
            objects: vec![lined("a.obj".to_string(), 6)],
            facades: vec![lined("b.fac".to_string(), 7)],
            ..Common::default()
        },
        tiles,
        block: None,
        string: None,
        meta: Vec::new(),
        unknown: Vec::new(),
    }
}

/// A tile 0 0 100 100 (centre 50,50 = the anchor) with an object 40 px up
/// from the centre (20 m along texture up, heading 10) and one 40 px right
/// (20 m along texture +x, heading 0).
fn probe(rotation: i64) -> Asset {
    asset(vec![tile(
        [0.0, 0.0, 100.0, 100.0],
        rotation,
        vec![
            obj([50.0, 90.0], 10.0, ObjMode::Draped, None, 10),
            obj([90.0, 50.0], 0.0, ObjMode::Graded, None, 11),
        ],
    )])
}

fn run(a: &Asset, heading: f64, frame: FrameConvention) -> place::Placement {
    let params = Params {
        frame,
        ..Params::default()
    };
    place::place(
        a,
        "probe.agp",
        &Use::Point {
            at: [13.0, 47.5],
            heading,
        },
        &params,
    )
    .expect("places")
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-4
}

fn same_heading(a: f64, b: f64) -> bool {
    let d = (a - b).rem_euclid(360.0);
    !(1e-6..=360.0 - 1e-6).contains(&d)
}

const S35: f64 = 0.573_576_436_351_046; // sin 35°
const C35: f64 = 0.819_152_044_288_992; // cos 35°

/// (ROTATION, DSF heading, texture-up heading U, up object x/y, right object x/y)
/// computed by hand from U = 180 + h − 90 n, up = 20·(sin U, cos U),
/// right = 20·(cos U, −sin U).
/// One hand-computed case.
type Case = (i64, f64, f64, [f64; 2], [f64; 2]);

fn spec_cases() -> Vec<Case> {
    vec![
        (0, 0.0, 180.0, [0.0, -20.0], [-20.0, 0.0]),
        (0, 90.0, 270.0, [-20.0, 0.0], [0.0, 20.0]),
        (
            0,
            215.0,
            35.0,
            [20.0 * S35, 20.0 * C35],
            [20.0 * C35, -20.0 * S35],
        ),
        (1, 0.0, 90.0, [20.0, 0.0], [0.0, -20.0]),
        (1, 90.0, 180.0, [0.0, -20.0], [-20.0, 0.0]),
        (
            1,
            215.0,
            305.0,
            [-20.0 * C35, 20.0 * S35],
            [20.0 * S35, 20.0 * C35],
        ),
        (2, 0.0, 0.0, [0.0, 20.0], [20.0, 0.0]),
        (2, 90.0, 90.0, [20.0, 0.0], [0.0, -20.0]),
        (
            2,
            215.0,
            215.0,
            [-20.0 * S35, -20.0 * C35],
            [-20.0 * C35, 20.0 * S35],
        ),
        (3, 0.0, 270.0, [-20.0, 0.0], [0.0, 20.0]),
        (3, 90.0, 0.0, [0.0, 20.0], [20.0, 0.0]),
        (
            3,
            215.0,
            125.0,
            [20.0 * C35, -20.0 * S35],
            [-20.0 * S35, -20.0 * C35],
        ),
    ]
}

#[test]
fn spec_frame_rotation_and_heading() {
    for (n, h, up, want_up, want_right) in spec_cases() {
        let p = run(&probe(n), h, FrameConvention::Spec);
        let (a, b) = (&p.objects[0], &p.objects[1]);
        assert!(
            close(a.x, want_up[0]) && close(a.y, want_up[1]),
            "ROTATION {n} heading {h}: up object at {},{} want {want_up:?}",
            a.x,
            a.y
        );
        assert!(
            close(b.x, want_right[0]) && close(b.y, want_right[1]),
            "ROTATION {n} heading {h}: right object at {},{} want {want_right:?}",
            b.x,
            b.y
        );
        assert!(same_heading(a.heading, up + 10.0), "{n} {h}: {}", a.heading);
        assert!(same_heading(b.heading, up), "{n} {h}: {}", b.heading);
    }
}

#[test]
fn spec_rotation_zero_puts_bottom_edge_north() {
    let p = run(&probe(0), 0.0, FrameConvention::Spec);
    let t = &p.tiles[0];
    // Rectangle corners l,b r,b r,t l,t → the bottom edge (first two) is
    // the northern one, and left is east.
    assert_eq!(t.uv[0], [0.0, 0.0]);
    assert!(close(t.polygon[0][0], 25.0) && close(t.polygon[0][1], 25.0));
    assert!(close(t.polygon[1][0], -25.0) && close(t.polygon[1][1], 25.0));
    assert!(close(t.polygon[2][0], -25.0) && close(t.polygon[2][1], -25.0));
}

#[test]
fn wed_frame_agrees_for_odd_and_flips_even_rotations() {
    // WED: U = h + 90 n.
    for (n, h, up_spec, _, _) in spec_cases() {
        let up_wed = (h + 90.0 * n as f64).rem_euclid(360.0);
        let p = run(&probe(n), h, FrameConvention::Wed);
        let a = &p.objects[0];
        let u = up_wed.to_radians();
        assert!(
            close(a.x, 20.0 * u.sin()) && close(a.y, 20.0 * u.cos()),
            "wed {n} {h}: {},{}",
            a.x,
            a.y
        );
        assert!(same_heading(a.heading, up_wed + 10.0));
        let diff = (up_wed - up_spec).rem_euclid(360.0);
        if n % 2 == 1 {
            assert!(diff.abs() < 1e-9, "odd n agree");
        } else {
            assert!((diff - 180.0).abs() < 1e-9, "even n differ by 180");
        }
    }
    // Heading 0, no rotation: texture up is north in WED.
    let p = run(&probe(0), 0.0, FrameConvention::Wed);
    assert!(close(p.objects[0].x, 0.0) && close(p.objects[0].y, 20.0));
    // WED's frame is the default.
    let default = place::point::place(&probe(0), 0.0, &Params::default()).unwrap();
    assert_eq!(
        default,
        place::point::place(
            &probe(0),
            0.0,
            &Params {
                frame: FrameConvention::Wed,
                ..Params::default()
            }
        )
        .unwrap()
    );
}

#[test]
fn anchor_point_goes_to_the_dsf_point() {
    let mut a = probe(2);
    a.tiles[0].anchor = Some(lined([0.0, 0.0], 12));
    // ROTATION 2, heading 90 (spec): U = 90, up = east, right = south.
    // The centre pixel (50,50) is 25 m right and 25 m up of the anchor.
    let p = run(&a, 90.0, FrameConvention::Spec);
    let c = &p.objects[0]; // pixel (50,90): 25 m right, 45 m up
    assert!(close(c.x, 45.0) && close(c.y, -25.0), "{} {}", c.x, c.y);
    // The anchor corner (0,0) of the tile is at the origin.
    let t = &p.tiles[0];
    assert_eq!(t.uv[0], [0.0, 0.0]);
    assert!(close(t.polygon[0][0], 0.0) && close(t.polygon[0][1], 0.0));
}

#[test]
fn crop_poly_replaces_the_rectangle() {
    let mut a = probe(2);
    // Clockwise triangle as the spec asks; the result is counter-clockwise.
    a.tiles[0].crop_poly = Some(lined(vec![[0.0, 0.0], [0.0, 100.0], [100.0, 0.0]], 12));
    let p = run(&a, 0.0, FrameConvention::Spec);
    let t = &p.tiles[0];
    assert_eq!(t.polygon.len(), 3);
    assert_eq!(t.uv, vec![[100.0, 0.0], [0.0, 100.0], [0.0, 0.0]]);
    // ROTATION 2, heading 0: texture as drawn, north up, centre at origin.
    let want = [[25.0, -25.0], [-25.0, 25.0], [-25.0, -25.0]];
    for (got, want) in t.polygon.iter().zip(want) {
        assert!(close(got[0], want[0]) && close(got[1], want[1]), "{got:?}");
    }
    let area: f64 = (0..3)
        .map(|i| {
            let (a, b) = (t.polygon[i], t.polygon[(i + 1) % 3]);
            a[0] * b[1] - b[0] * a[1]
        })
        .sum();
    assert!(area > 0.0, "counter-clockwise");
}

#[test]
fn ground_point_default_and_explicit() {
    let p = run(&probe(2), 0.0, FrameConvention::Spec);
    let g = p.tiles[0].ground_point.unwrap();
    assert!(close(g[0], 0.0) && close(g[1], 0.0), "centre = anchor");
    let mut a = probe(0);
    a.tiles[0].ground = Some(lined([100.0, 100.0], 12));
    // ROTATION 0, heading 0 (spec): texture turned 180°; the top right
    // pixel is 25 m south-west.
    let p = run(&a, 0.0, FrameConvention::Spec);
    let g = p.tiles[0].ground_point.unwrap();
    assert!(close(g[0], -25.0) && close(g[1], -25.0), "{g:?}");
}

#[test]
fn show_levels_thin_objects() {
    let a = asset(vec![tile(
        [0.0, 0.0, 100.0, 100.0],
        0,
        vec![obj([10.0, 10.0], 0.0, ObjMode::Draped, Some([2, 4]), 10)],
    )]);
    let count = |density: u8| {
        (0..300)
            .filter(|&seed| {
                let params = Params {
                    seed,
                    density,
                    ..Params::default()
                };
                let p = place::point::place(&a, 0.0, &params).unwrap();
                !p.objects.is_empty()
            })
            .count()
    };
    assert_eq!(count(1), 0);
    assert_eq!(count(4), 300);
    assert_eq!(count(6), 300);
    let two = count(2);
    let three = count(3);
    assert!((60..140).contains(&two), "1/3 at level 2: {two}");
    assert!((160..240).contains(&three), "2/3 at level 3: {three}");
}

#[test]
fn random_tile_is_deterministic_for_a_seed() {
    let tiles: Vec<Tile> = (0..4)
        .map(|i| {
            let mut t = tile([0.0, 0.0, 100.0, 100.0], 0, Vec::new());
            t.id = i;
            t.line = 10 + i as usize;
            t
        })
        .collect();
    let a = asset(tiles);
    let pick = |seed| {
        let params = Params {
            seed,
            ..Params::default()
        };
        place::point::place(&a, 0.0, &params).unwrap().tiles[0].source_line
    };
    for seed in 0..20 {
        assert_eq!(pick(seed), pick(seed));
    }
    let distinct: std::collections::BTreeSet<_> = (0..40).map(pick).collect();
    assert_eq!(distinct.len(), 4, "every tile gets picked for some seed");
}

#[test]
fn hide_tiles_and_delta_height() {
    let mut a = asset(vec![tile(
        [-5.0, -5.0, 5.0, 5.0],
        0,
        vec![obj(
            [0.0, 0.0],
            0.0,
            ObjMode::Delta { height: 2.32 },
            None,
            10,
        )],
    )]);
    a.common.hide_tiles = Some(3);
    let p = run(&a, 0.0, FrameConvention::Spec);
    assert!(p.tiles[0].hidden);
    let o = &p.objects[0];
    assert_eq!(o.mode, "delta");
    assert_eq!(o.height, 2.32);
    assert!(close(o.x, 0.0) && close(o.y, 0.0));
    assert!(close(o.lon, 13.0) && close(o.lat, 47.5));
}

#[test]
fn tree_line_is_expanded() {
    let a = asset(vec![tile(
        [0.0, 0.0, 100.0, 100.0],
        2,
        vec![Annotation {
            kind: AnnotationKind::TreeLine(TreeLineAnn {
                from: [0.0, 50.0],
                to: [100.0, 50.0],
                layer: 1,
            }),
            line: 10,
        }],
    )]);
    // 50 m long at 10 m spacing: 6 trees, from x = -25 to 25.
    let p = run(&a, 0.0, FrameConvention::Spec);
    assert_eq!(p.trees.len(), 6);
    assert!(close(p.trees[0].x, -25.0) && close(p.trees[5].x, 25.0));
    assert!(p.trees.iter().all(|t| close(t.y, 0.0) && t.layer == 1));
    // Each 0.6 × the spacing wide.
    assert!(p.trees.iter().all(|t| close(t.width, 6.0)));
}

/// A missing TEXTURE_SCALE or TEXTURE_WIDTH takes WorldEditor's default (a
/// 1 × 1 pixel texture 1 m wide and high) with a warning; a zero scale and
/// an asset without tiles are errors, never panics.
#[test]
fn missing_scale_or_width_takes_the_simulators_default() {
    // The probe's object 40 px above the anchor, at `mpp` metres per pixel.
    let north = |a: &Asset| {
        let p = place::point::place(a, 0.0, &Params::default()).unwrap();
        let o = &p.objects[0];
        assert!(close(o.x, 0.0), "{o:?}");
        (o.y / 40.0, p.warnings)
    };
    let (mpp, warnings) = north(&probe(0));
    assert!(close(mpp, 0.5) && warnings.is_empty());
    let mut a = probe(0);
    a.common.texture_scale = None;
    let (mpp, warnings) = north(&a);
    assert!(close(mpp, 50.0), "TEXTURE_WIDTH 50 over 1 pixel: {mpp}");
    assert!(warnings[0].message().starts_with("no TEXTURE_SCALE:"));
    assert_eq!(warnings[0].codes(), ["AG0013"]);
    assert!(
        warnings[0].to_string().ends_with(" [AG0013]"),
        "{}",
        warnings[0]
    );
    a.common.texture_width = None;
    let (mpp, warnings) = north(&a);
    assert!(close(mpp, 1.0), "1 px = 1 m: {mpp}");
    assert!(
        warnings[0]
            .message()
            .starts_with("no TEXTURE_SCALE or TEXTURE_WIDTH"),
        "{warnings:?}"
    );
    // One warning reports both rules.
    assert_eq!(warnings[0].codes(), ["AG0013", "AG0014"]);
    assert!(
        warnings[0].to_string().ends_with(" [AG0013, AG0014]"),
        "{}",
        warnings[0]
    );
    let mut a = probe(0);
    a.common.texture_width = None;
    let (mpp, warnings) = north(&a);
    assert!(close(mpp, 0.01), "1 m over 100 pixels: {mpp}");
    assert_eq!(warnings[0].code(), Some("AG0014"));
    a.common.texture_scale = Some(lined([0.0, 100.0], 4));
    let e = place::point::place(&a, 0.0, &Params::default()).unwrap_err();
    assert!(e.to_string().contains("metres per pixel"), "{e}");
    let mut a = probe(0);
    a.tiles.clear();
    assert!(place::point::place(&a, 0.0, &Params::default()).is_err());
}

proptest! {
    #[test]
    fn every_placed_point_round_trips(lat in -80.0f64..80.0, lon in -179.0f64..179.0,
                                      heading in 0.0f64..360.0, n in 0i64..4) {
        let mut a = probe(n);
        a.tiles[0].annotations.push(Annotation {
            kind: AnnotationKind::Facade(FacadeAnn {
                index: 0, height: 10.0,
                points: vec![[10.0, 10.0], [10.0, 20.0], [20.0, 20.0]], walls: None }),
            line: 12,
        });
        let p = place::place(&a, "x.agp", &Use::Point { at: [lon, lat], heading },
                             &Params::default()).unwrap();
        let frame = LocalFrame::new([lon, lat]);
        let mut pts: Vec<([f64; 2], [f64; 2])> = Vec::new();
        for o in &p.objects { pts.push(([o.x, o.y], [o.lon, o.lat])); }
        for t in &p.tiles { pts.extend(t.polygon.iter().copied().zip(t.lonlat.iter().copied())); }
        for f in &p.facades { pts.extend(f.polygon.iter().copied().zip(f.lonlat.iter().copied())); }
        prop_assert!(pts.len() >= 9);
        for (xy, ll) in pts {
            let back = frame.to_local(ll);
            prop_assert!((back[0] - xy[0]).abs() < 1e-6 && (back[1] - xy[1]).abs() < 1e-6,
                         "{:?} -> {:?} -> {:?}", xy, ll, back);
        }
    }
}

proptest! {
    /// The lon/lat of a placed position is where the local metres say, on
    /// the real ellipsoid: Karney's geodesic (geographiclib, through `geo`)
    /// from the DSF point to it has the length and bearing of the local
    /// vector to within a centimetre, kilometres away. (Up to 4 km: the
    /// probe's tile is 2.5 × that, and a tile may be 10 km at most, AG0083.)
    #[test]
    fn lonlat_is_true_to_a_centimetre_kilometres_away(lat in -80.0f64..80.0,
                                                     lon in -179.0f64..179.0,
                                                     heading in 0.0f64..360.0,
                                                     km in 0.5f64..4.0) {
        use geo::{Bearing, Distance, Geodesic, Point};
        let mut a = probe(0);
        // 40 px from the centre = `km` kilometres.
        a.common.texture_width = Some(lined(km * 1000.0 / 40.0 * 100.0, 5));
        let p = place::place(&a, "x.agp", &Use::Point { at: [lon, lat], heading },
                             &Params::default()).unwrap();
        let origin = Point::new(lon, lat);
        prop_assert_eq!(p.objects.len(), 2);
        for o in &p.objects {
            let d = o.x.hypot(o.y);
            prop_assert!((d - km * 1000.0).abs() < 1e-6);
            let there = Point::new(o.lon, o.lat);
            let s = Geodesic.distance(origin, there);
            prop_assert!((s - d).abs() < 0.01, "distance {} m for {} m", s, d);
            let az = Geodesic.bearing(origin, there);
            let want = o.x.atan2(o.y).to_degrees().rem_euclid(360.0);
            let mut dz = (az - want).rem_euclid(360.0);
            if dz > 180.0 { dz -= 360.0; }
            prop_assert!((dz.to_radians() * d).abs() < 0.01,
                         "bearing {} for {} at {} m", az, want, d);
        }
    }
}
