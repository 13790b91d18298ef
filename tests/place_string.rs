//! The AGS string engine: hand-checked fixtures and property tests.

use agkit::geom::Xy;
use agkit::place::string::place;
use agkit::place::{Params, Placement, Role, TileId};
use agkit::xp::model::*;
use geo::{Contains, Coord, LineString, Point, Polygon};
use proptest::prelude::*;

// ------------------------------------------------------------ builders ----

/// A tile of `w` × `h` metres (1 px = 1 m in these assets) at `x0`.
fn tile(id: i64, x0: f64, w: f64, h: f64) -> Tile {
    Tile {
        id,
        explicit_id: true,
        rect: [x0, 0.0, x0 + w, h],
        line: 100 + id as usize,
        rotation: None,
        anchor: None,
        ground: None,
        crop_poly: None,
        stop_pts: Vec::new(),
        pivot_lead: None,
        pivot_trail: None,
        annotations: Vec::new(),
    }
}

fn with_stop(mut t: Tile, s: f64, y: f64) -> Tile {
    t.stop_pts.push(Lined {
        value: [t.rect[0] + s, y],
        line: 0,
    });
    t
}

fn asset(tiles: Vec<Tile>, props: StringProps) -> Asset {
    Asset {
        kind: Kind::Ags,
        common: Common {
            texture_scale: Some(Lined {
                value: [1000.0, 1000.0],
                line: 3,
            }),
            texture_width: Some(Lined {
                value: 1000.0,
                line: 4,
            }),
            ..Common::default()
        },
        tiles,
        block: None,
        string: Some(props),
        meta: Vec::new(),
        unknown: Vec::new(),
    }
}

fn corner(angle: [f64; 2], tiles: Vec<i64>, line: usize) -> CornerRule {
    CornerRule {
        kind: CornerKind::Corner { angle },
        tiles,
        order: None,
        priority: 0,
        line,
    }
}

fn spelling(tiles: Vec<i64>, line: usize) -> EdgeSpelling {
    EdgeSpelling {
        tiles,
        atomic: None,
        priority: 0,
        line,
    }
}

fn atomic(tiles: Vec<i64>, length: [f64; 2], group: i64, line: usize) -> EdgeSpelling {
    EdgeSpelling {
        tiles,
        atomic: Some(AtomicCond { length, group }),
        priority: 0,
        line,
    }
}

fn square(size: f64) -> Vec<Xy> {
    vec![[0.0, 0.0], [size, 0.0], [size, size], [0.0, size]]
}

fn circle(c: Xy, r: f64, n: usize, ccw: bool) -> Vec<Xy> {
    let mut v: Vec<Xy> = (0..n)
        .map(|i| {
            let a = i as f64 / n as f64 * std::f64::consts::TAU;
            [c[0] + r * a.cos(), c[1] + r * a.sin()]
        })
        .collect();
    if !ccw {
        v.reverse();
    }
    v
}

fn params(seed: u64) -> Params {
    Params {
        seed,
        explain: true,
        ..Params::default()
    }
}

fn geo_poly(windings: &[Vec<Xy>]) -> Polygon<f64> {
    let ring = |w: &Vec<Xy>| {
        LineString::from(
            w.iter()
                .map(|p| Coord { x: p[0], y: p[1] })
                .collect::<Vec<_>>(),
        )
    };
    Polygon::new(ring(&windings[0]), windings[1..].iter().map(ring).collect())
}

fn close(a: Xy, b: Xy) -> bool {
    (a[0] - b[0]).abs() < 1e-6 && (a[1] - b[1]).abs() < 1e-6
}

fn edge_count(p: &Placement, role: Role) -> usize {
    p.tiles.iter().filter(|t| t.role == role).count()
}

/// The invariants every placement must satisfy.
fn assert_invariants(p: &Placement, windings: &[Vec<Xy>]) {
    let poly = geo_poly(windings);
    for (i, t) in p.tiles.iter().enumerate() {
        assert_eq!(t.order, i);
        assert_eq!(t.polygon.len(), t.uv.len());
        for s in &t.stop_points {
            assert!(
                poly.contains(&Point::new(s[0], s[1])),
                "tile {i}: stop point {s:?} outside"
            );
            for later in &p.tiles[i + 1..] {
                let fp = geo_poly(std::slice::from_ref(&later.polygon));
                assert!(
                    !fp.contains(&Point::new(s[0], s[1])),
                    "tile {i}: stop point {s:?} covered by later tile {}",
                    later.order
                );
            }
        }
    }
    let tiles: Vec<Polygon<f64>> = p
        .tiles
        .iter()
        .map(|t| geo_poly(std::slice::from_ref(&t.polygon)))
        .collect();
    for tr in p.trees.iter().filter(|t| t.tile.is_none()) {
        let pt = Point::new(tr.x, tr.y);
        assert!(poly.contains(&pt), "fill tree outside {tr:?}");
        assert!(
            !tiles.iter().any(|t| geo::Intersects::intersects(t, &pt)),
            "fill tree under a tile {tr:?}"
        );
    }
    assert_eq!(p.polygon, windings);
}

// ------------------------------------------------------ hand-checked ----

fn square_asset() -> Asset {
    asset(
        vec![tile(0, 0.0, 10.0, 10.0), tile(1, 10.0, 20.0, 10.0)],
        StringProps {
            corners: vec![corner([-180.0, 0.0], vec![0], 20)],
            spellings: vec![spelling(vec![1], 30)],
            ..StringProps::default()
        },
    )
}

#[test]
fn square_block_corners_and_edges() {
    let w = vec![square(100.0)];
    let p = place(&square_asset(), &w, &params(1)).unwrap();
    assert_eq!(p.corners.len(), 4);
    for c in &p.corners {
        assert!((c.turn + 90.0).abs() < 1e-9);
    }
    assert_eq!(edge_count(&p, Role::Corner), 4);
    // Each side: 10 m taken at each end by the corners, 80 m = 4 × 20 m.
    assert_eq!(edge_count(&p, Role::Edge), 16);
    // The first corner is at vertex 0: bottom on the arriving side (0,100)→(0,0),
    // bottom-right corner on the vertex, extending east into the block.
    let c0 = &p.tiles[0];
    assert_eq!(c0.role, Role::Corner);
    assert_eq!(c0.id, TileId::Num(0));
    assert_eq!(c0.source_line, 20);
    let want = [[0.0, 10.0], [0.0, 0.0], [10.0, 0.0], [10.0, 10.0]];
    for (a, b) in c0.polygon.iter().zip(want) {
        assert!(close(*a, b), "{:?}", c0.polygon);
    }
    assert_eq!(
        c0.uv,
        vec![[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]]
    );
    // The first edge tile of side 0 starts at x = 10 on y = 0.
    let e = p.tiles.iter().find(|t| t.role == Role::Edge).unwrap();
    assert!(close(e.polygon[0], [10.0, 0.0]) && close(e.polygon[1], [30.0, 0.0]));
    assert!(close(e.polygon[2], [30.0, 10.0]));
    assert_eq!(e.source_line, 30);
    // Units: one per corner and per spelling.
    let mut units: Vec<usize> = p.tiles.iter().map(|t| t.unit).collect();
    units.dedup();
    assert_eq!(units.len(), 20);
    assert_invariants(&p, &w);
    assert!(
        p.explain
            .iter()
            .any(|l| l.contains("CORNER line 20 placed"))
    );
}

#[test]
fn orientation_errors_name_the_winding() {
    let a = square_asset();
    let mut cw = square(10.0);
    cw.reverse();
    let e = place(&a, &[cw], &params(0)).unwrap_err().to_string();
    assert!(e.contains("winding 1 (the outer ring) is clockwise"), "{e}");
    let hole = vec![[2.0, 2.0], [4.0, 2.0], [4.0, 4.0]];
    let e = place(&a, &[square(10.0), hole], &params(0))
        .unwrap_err()
        .to_string();
    assert!(e.contains("winding 2 (a hole) is counter-clockwise"), "{e}");
    let e = place(&a, &[vec![[0.0, 0.0], [1.0, 0.0], [1.0, 0.0]]], &params(0))
        .unwrap_err()
        .to_string();
    assert!(e.contains("fewer than 3"), "{e}");
    let mut no_scale = a.clone();
    no_scale.common.texture_scale = None;
    assert!(place(&no_scale, &[square(10.0)], &params(0)).is_err());
}

#[test]
fn l_shape_reflex_corner() {
    let l = vec![
        [0.0, 0.0],
        [100.0, 0.0],
        [100.0, 50.0],
        [50.0, 50.0],
        [50.0, 100.0],
        [0.0, 100.0],
    ];
    let a = asset(
        vec![
            tile(0, 0.0, 10.0, 10.0),
            tile(1, 10.0, 20.0, 10.0),
            tile(2, 30.0, 5.0, 5.0),
        ],
        StringProps {
            corners: vec![
                corner([-180.0, -45.0], vec![0], 20),
                corner([45.0, 180.0], vec![2], 21),
            ],
            spellings: vec![spelling(vec![1], 30)],
            ..StringProps::default()
        },
    );
    let w = vec![l];
    let p = place(&a, &w, &params(3)).unwrap();
    let turns: Vec<f64> = p.corners.iter().map(|c| c.turn.round()).collect();
    assert_eq!(turns, vec![-90.0, -90.0, -90.0, 90.0, -90.0, -90.0]);
    let reflex: Vec<_> = p.tiles.iter().filter(|t| t.id == TileId::Num(2)).collect();
    assert_eq!(reflex.len(), 1);
    assert_eq!(reflex[0].source_line, 21);
    // Arriving side (100,50)→(50,50) heads west: the tile ends at (50,50).
    assert!(
        close(reflex[0].polygon[1], [50.0, 50.0]),
        "{:?}",
        reflex[0].polygon
    );
    assert_eq!(edge_count(&p, Role::Corner), 6);
    assert_invariants(&p, &w);
}

#[test]
fn crease_angle_left_and_right() {
    // A turn of 40° left and one of 40° right.
    let w = vec![vec![
        [0.0, 0.0],
        [100.0, 0.0],
        [100.0 + 76.6, 64.3],
        [76.6 + 100.0 - 64.3 * 0.0, 64.3 + 100.0],
        [0.0, 100.0],
    ]];
    let mut a = square_asset();
    a.string.as_mut().unwrap().creasing_angle = Some(Lined {
        value: [45.0, 30.0],
        line: 2,
    });
    let p = place(&a, &w, &params(0)).unwrap();
    for c in &p.corners {
        if c.turn < 0.0 {
            assert!(-c.turn >= 45.0, "{c:?}");
        } else {
            assert!(c.turn >= 30.0, "{c:?}");
        }
    }
    // Vertex 1 turns 40° left: no corner there.
    assert!(!p.corners.iter().any(|c| close([c.x, c.y], [100.0, 0.0])));
}

#[test]
fn curved_shoreline_many_short_segments() {
    let w = vec![circle([0.0, 0.0], 300.0, 2000, true)];
    let a = square_asset();
    let p = place(&a, &w, &params(5)).unwrap();
    assert!(p.corners.is_empty());
    assert_eq!(edge_count(&p, Role::Corner), 0);
    let perim = std::f64::consts::TAU * 300.0;
    let n = edge_count(&p, Role::Edge);
    assert_eq!(n, (perim / 20.0).floor() as usize, "{n}");
    // Tiles ride the chord: both bottom corners lie on the circle (within
    // the sagitta of a 0.94 m segment), and the tile points inward.
    for t in &p.tiles {
        for q in &t.polygon[..2] {
            let r = q[0].hypot(q[1]);
            assert!((r - 300.0).abs() < 0.01, "{r}");
        }
        assert!(t.polygon[2][0].hypot(t.polygon[2][1]) < 300.0);
    }
    assert_invariants(&p, &w);
}

#[test]
fn lake_hole_drops_tiles_whose_stop_points_fall_in_it() {
    // 200 × 60 block; a lake close to the south side. The spelling's stop
    // point is 8 m deep: tiles over the lake cannot keep it out.
    let lake = vec![[80.0, 5.0], [80.0, 20.0], [120.0, 20.0], [120.0, 5.0]];
    let w = vec![
        vec![[0.0, 0.0], [200.0, 0.0], [200.0, 60.0], [0.0, 60.0]],
        lake,
    ];
    let a = asset(
        vec![with_stop(tile(1, 0.0, 10.0, 10.0), 5.0, 8.0)],
        StringProps {
            spellings: vec![spelling(vec![1], 30)],
            creasing_angle: Some(Lined {
                value: [179.0, 179.0],
                line: 2,
            }),
            ..StringProps::default()
        },
    );
    let p = place(
        &a,
        &w,
        &Params {
            low: 1,
            ..params(2)
        },
    )
    .unwrap();
    assert_invariants(&p, &w);
    assert!(
        p.warnings.iter().any(|m| m.contains("dropped")),
        "{:?}",
        p.warnings
    );
    // No tile's stop point is between x = 80 and 120 at y = 8.
    for t in &p.tiles {
        let s = t.stop_points[0];
        assert!(!(s[0] > 80.0 && s[0] < 120.0 && s[1] > 5.0 && s[1] < 20.0));
    }
    // Only the outer winding spawned (low = 1): no tile around the lake.
    assert!(p.tiles.iter().all(|t| t.polygon[0][1] < 1e-6
        || t.polygon[0][0] > 199.9
        || t.polygon[0][1] > 59.9
        || t.polygon[0][0] < 0.1));
    // With low = 0 (all windings), the lake shore gets tiles too.
    let all = place(&a, &w, &params(2)).unwrap();
    assert!(all.tiles.len() > p.tiles.len());
    assert_invariants(&all, &w);
}

#[test]
fn atomic_spelling_is_all_or_nothing_and_slides() {
    let lake = vec![[30.0, 5.0], [30.0, 12.0], [34.0, 12.0], [34.0, 5.0]];
    let w = vec![
        vec![[0.0, 0.0], [100.0, 0.0], [100.0, 50.0], [0.0, 50.0]],
        lake,
    ];
    let a = asset(
        vec![
            with_stop(tile(1, 0.0, 10.0, 10.0), 5.0, 8.0),
            with_stop(tile(2, 10.0, 10.0, 10.0), 5.0, 8.0),
        ],
        StringProps {
            spellings: vec![atomic(vec![1, 2], [0.0, 1000.0], 0, 40)],
            creasing_angle: Some(Lined {
                value: [179.0, 179.0],
                line: 2,
            }),
            ..StringProps::default()
        },
    );
    let p = place(
        &a,
        &w,
        &Params {
            low: 1,
            ..params(9)
        },
    )
    .unwrap();
    assert_invariants(&p, &w);
    let mut by_unit = std::collections::BTreeMap::<usize, usize>::new();
    for t in &p.tiles {
        *by_unit.entry(t.unit).or_default() += 1;
    }
    assert!(by_unit.values().all(|&n| n == 2), "{by_unit:?}");
    assert!(
        p.explain
            .iter()
            .any(|l| l.contains("slid") && !l.contains("slid 0.0")),
        "{:#?}",
        p.explain
    );
}

#[test]
fn atomic_spelling_length_and_group() {
    // Side segments: 100 m (south) and 40 m (east).
    let w = vec![square_rect(100.0, 40.0)];
    let a = asset(
        vec![
            tile(1, 0.0, 10.0, 5.0),
            tile(2, 10.0, 10.0, 5.0),
            tile(3, 20.0, 10.0, 5.0),
        ],
        StringProps {
            groups: vec![Group {
                id: 7,
                tiles: vec![2],
                line: 5,
            }],
            spellings: vec![
                atomic(vec![2], [90.0, 110.0], 0, 40), // long sides only
                atomic(vec![3], [0.0, 1000.0], 7, 41), // only after tile 2 (or first)
                spelling(vec![1], 42),
            ],
            ..StringProps::default()
        },
    );
    let p = place(&a, &w, &params(4)).unwrap();
    assert_invariants(&p, &w);
    for (i, t) in p.tiles.iter().enumerate() {
        let along_x = (t.polygon[1][1] - t.polygon[0][1]).abs() < 1e-9;
        if t.id == TileId::Num(2) {
            assert!(along_x, "tile 2 on a short side");
        }
        if t.id == TileId::Num(3) && i > 0 {
            let prev = &p.tiles[i - 1];
            let first_of_side =
                !close(prev.polygon[1], t.polygon[0]) && prev.polygon[1] != t.polygon[0];
            assert!(
                prev.id == TileId::Num(2) || first_of_side,
                "{:?} before 3",
                prev.id
            );
        }
    }
    assert!(p.explain.iter().any(|l| l.contains("not in group 7")));
    assert!(
        p.explain
            .iter()
            .any(|l| l.contains("segment 40.0 m not in [90, 110]"))
    );
}

fn square_rect(w: f64, h: f64) -> Vec<Xy> {
    vec![[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]]
}

#[test]
fn caps_cover_the_end_of_each_side() {
    let w = vec![square_rect(95.0, 95.0)];
    let a = asset(
        vec![
            tile(1, 0.0, 20.0, 10.0),
            tile(5, 20.0, 4.0, 4.0),
            tile(6, 30.0, 8.0, 4.0),
        ],
        StringProps {
            spellings: vec![spelling(vec![1], 30)],
            caps: vec![Lined {
                value: vec![5, 6],
                line: 50,
            }],
            ..StringProps::default()
        },
    );
    let p = place(&a, &w, &params(0)).unwrap();
    assert_invariants(&p, &w);
    // 95 m sides: four 20 m tiles, a 15 m gap; no cap is that wide → the
    // widest (8 m) starts at the last tile's end.
    let caps: Vec<_> = p.tiles.iter().filter(|t| t.role == Role::Cap).collect();
    assert_eq!(caps.len(), 4);
    assert!(
        caps.iter()
            .all(|c| c.id == TileId::Num(6) && c.source_line == 50)
    );
    assert!(
        close(caps[0].polygon[0], [80.0, 0.0]),
        "{:?}",
        caps[0].polygon
    );
    // Caps come after every edge tile.
    let first_cap = p.tiles.iter().position(|t| t.role == Role::Cap).unwrap();
    assert!(p.tiles[first_cap..].iter().all(|t| t.role == Role::Cap));
    // A 82 m side leaves 2 m: the narrowest cap at least as wide (4 m) ends
    // at the side's end, overlapping the last tile.
    let w2 = vec![square_rect(82.0, 82.0)];
    let p = place(&a, &w2, &params(0)).unwrap();
    let cap = p.tiles.iter().find(|t| t.role == Role::Cap).unwrap();
    assert_eq!(cap.id, TileId::Num(5));
    assert!(close(cap.polygon[1], [82.0, 0.0]), "{:?}", cap.polygon);
}

fn pivot(mut t: Tile, trail: Px, lead: Px) -> Tile {
    t.pivot_trail = Some(Lined {
        value: trail,
        line: 0,
    });
    t.pivot_lead = Some(Lined {
        value: lead,
        line: 0,
    });
    t
}

#[test]
fn articulated_corner_pivots_and_order() {
    let w = vec![square(100.0)];
    let mut rule = corner([-180.0, 0.0], vec![10, 11, 12], 20);
    rule.order = Some(Lined {
        value: [2, 1, 0],
        line: 21,
    });
    let a = asset(
        vec![
            pivot(tile(10, 0.0, 10.0, 10.0), [0.0, 0.0], [10.0, 0.0]),
            pivot(tile(11, 10.0, 6.0, 10.0), [10.0, 0.0], [16.0, 0.0]),
            pivot(tile(12, 20.0, 10.0, 10.0), [20.0, 0.0], [30.0, 0.0]),
        ],
        StringProps {
            corners: vec![rule],
            share_y: Some(7),
            ..StringProps::default()
        },
    );
    let p = place(&a, &w, &params(0)).unwrap();
    assert_invariants(&p, &w);
    assert_eq!(p.tiles.len(), 12);
    // Order 2 1 0: trailing, middle, preceding.
    let ids: Vec<_> = p.tiles[..3].iter().map(|t| t.id.clone()).collect();
    assert_eq!(ids, vec![TileId::Num(12), TileId::Num(11), TileId::Num(10)]);
    let (t2, t1, t0) = (&p.tiles[0], &p.tiles[1], &p.tiles[2]);
    // Lead of each on the trail of the next (bottom corners here).
    assert!(
        close(t0.polygon[1], t1.polygon[0]),
        "{:?} {:?}",
        t0.polygon,
        t1.polygon
    );
    assert!(close(t1.polygon[1], t2.polygon[0]));
    // Headings: preceding along the arriving side, middle at half the turn,
    // trailing along the leaving side; the corner at vertex 0 arrives
    // heading south and leaves heading east.
    let dir = |t: &agkit::place::PlacedTile| {
        let d = [
            t.polygon[1][0] - t.polygon[0][0],
            t.polygon[1][1] - t.polygon[0][1],
        ];
        d[1].atan2(d[0]).to_degrees()
    };
    assert!((dir(t0) + 90.0).abs() < 1e-6);
    assert!((dir(t1) + 45.0).abs() < 1e-6);
    assert!(dir(t2).abs() < 1e-6);
    // Preceding bottom on x = 0, trailing bottom on y = 0.
    assert!(t0.polygon[0][0].abs() < 1e-6 && t0.polygon[1][0].abs() < 1e-6);
    assert!(t2.polygon[0][1].abs() < 1e-6 && t2.polygon[1][1].abs() < 1e-6);
    // SHARE_Y: the corner's tiles share the first placed tile's ground point.
    assert_eq!(t1.ground_point, t2.ground_point);
    assert_eq!(t0.ground_point, t2.ground_point);
    assert_eq!(t0.unit, t2.unit);
}

#[test]
fn atomic_corner_falls_back_to_another_corner() {
    // A hole right at the inside of vertex 0 catches the atomic corner's
    // middle stop point; the plain corner takes over there.
    let hole = vec![[2.5, 2.5], [2.5, 4.5], [4.5, 4.5], [4.5, 2.5]];
    let w = vec![square(100.0), hole];
    let a = asset(
        vec![
            tile(10, 0.0, 10.0, 10.0),
            with_stop(tile(11, 10.0, 6.0, 10.0), 3.0, 2.0),
            tile(12, 20.0, 10.0, 10.0),
            tile(0, 40.0, 3.0, 3.0),
        ],
        StringProps {
            corners: vec![
                CornerRule {
                    kind: CornerKind::Atomic {
                        len1: [0.0, 1e9],
                        angle: [-180.0, 0.0],
                        len2: [0.0, 1e9],
                        group: 0,
                    },
                    tiles: vec![10, 11, 12],
                    order: None,
                    priority: 0,
                    line: 20,
                },
                CornerRule {
                    priority: 1,
                    ..corner([-180.0, 0.0], vec![0], 22)
                },
            ],
            ..StringProps::default()
        },
    );
    let p = place(
        &a,
        &w,
        &Params {
            low: 1,
            ..params(0)
        },
    )
    .unwrap();
    assert_invariants(&p, &w);
    let at0: Vec<_> = p
        .tiles
        .iter()
        .filter(|t| t.unit == p.tiles[0].unit)
        .collect();
    assert_eq!(at0.len(), 1);
    assert_eq!(at0[0].source_line, 22);
    assert!(
        p.explain
            .iter()
            .any(|l| l.contains("ATOMIC_SPELLING_CORNER line 20 refused: atomic"))
    );
    // The three other corners use the atomic rule (3 tiles each).
    assert_eq!(p.tiles.iter().filter(|t| t.source_line == 20).count(), 9);
}

#[test]
fn corner_len_group_and_pair() {
    // Rectangle 100 × 30: short sides 30 m.
    let w = vec![square_rect(100.0, 30.0)];
    let a = asset(
        vec![
            tile(0, 0.0, 5.0, 5.0),
            tile(1, 10.0, 5.0, 5.0),
            tile(2, 20.0, 20.0, 8.0),
            tile(3, 50.0, 4.0, 4.0),
        ],
        StringProps {
            groups: vec![Group {
                id: 3,
                tiles: vec![1],
                line: 5,
            }],
            corners: vec![
                // After a 100 m side into a 30 m side.
                CornerRule {
                    kind: CornerKind::Len {
                        len1: [90.0, 110.0],
                        angle: [-100.0, -80.0],
                        len2: [20.0, 40.0],
                        group: 0,
                    },
                    tiles: vec![1],
                    order: None,
                    priority: 0,
                    line: 20,
                },
                // Only after a corner of group 3.
                CornerRule {
                    kind: CornerKind::Len {
                        len1: [0.0, 1e9],
                        angle: [-100.0, -80.0],
                        len2: [0.0, 1e9],
                        group: 3,
                    },
                    tiles: vec![0],
                    order: None,
                    priority: 1,
                    line: 21,
                },
                CornerRule {
                    priority: 2,
                    ..corner([-180.0, 0.0], vec![3], 22)
                },
            ],
            ..StringProps::default()
        },
    );
    let p = place(&a, &w, &params(0)).unwrap();
    assert_invariants(&p, &w);
    let lines: Vec<usize> = p
        .tiles
        .iter()
        .filter(|t| t.role == Role::Corner)
        .map(|t| t.source_line)
        .collect();
    // Vertex 0 arrives on a 30 m side: not LEN(20); first corner → LEN(21)
    // with group 3 allowed. Vertex 1 (100 → 30): LEN(20). Vertex 2 (30 →
    // 100): after a group-3 corner → 21. Vertex 3: 100 → 30 → 20.
    assert_eq!(lines, vec![21, 20, 21, 20]);

    // CORNER_PAIR over the 30 m ends.
    let mut b = a.clone();
    b.string.as_mut().unwrap().corners = vec![CornerRule {
        kind: CornerKind::Pair {
            angle1: [-100.0, -80.0],
            length: [20.0, 40.0],
            angle2: [-100.0, -80.0],
            group: 0,
        },
        tiles: vec![2],
        order: None,
        priority: 0,
        line: 30,
    }];
    let p = place(&b, &w, &params(0)).unwrap();
    assert_invariants(&p, &w);
    let pairs: Vec<_> = p.tiles.iter().filter(|t| t.role == Role::Corner).collect();
    assert_eq!(pairs.len(), 2, "{:#?}", p.explain);
    // The 20 m tile centred on the east side x = 100, y 5..25.
    assert!(
        close(pairs[0].polygon[0], [100.0, 5.0]) && close(pairs[0].polygon[1], [100.0, 25.0]),
        "{:?}",
        pairs[0].polygon
    );
}

#[test]
fn priority_markers_order_spellings() {
    let w = vec![square_rect(100.0, 100.0)];
    let mut a = asset(
        vec![tile(1, 0.0, 10.0, 5.0), tile(2, 10.0, 10.0, 5.0)],
        StringProps {
            spellings: vec![
                spelling(vec![1], 30),
                EdgeSpelling {
                    priority: 1,
                    ..spelling(vec![2], 31)
                },
            ],
            ..StringProps::default()
        },
    );
    let p = place(&a, &w, &params(0)).unwrap();
    assert!(p.tiles.iter().all(|t| t.id == TileId::Num(1)));
    // Same priority: both appear.
    a.string.as_mut().unwrap().spellings[1].priority = 0;
    let p = place(&a, &w, &params(0)).unwrap();
    assert!(p.tiles.iter().any(|t| t.id == TileId::Num(1)));
    assert!(p.tiles.iter().any(|t| t.id == TileId::Num(2)));
}

#[test]
fn fill_layer_trees_avoid_tiles_and_holes() {
    let hole = circle([50.0, 50.0], 15.0, 24, false);
    let w = vec![square(100.0), hole];
    let mut a = square_asset();
    a.string.as_mut().unwrap().fill_layer = Some(Lined { value: 2, line: 6 });
    let p = place(
        &a,
        &w,
        &Params {
            low: 1,
            tree_spacing: 4.0,
            ..params(8)
        },
    )
    .unwrap();
    assert_invariants(&p, &w);
    let fill: Vec<_> = p.trees.iter().filter(|t| t.tile.is_none()).collect();
    // Interior 80 × 80 minus the lake: about (6400 − 707) / 16 ≈ 356 trees.
    assert!((250..450).contains(&fill.len()), "{}", fill.len());
    assert!(fill.iter().all(|t| t.layer == 2 && t.source_line == 0));
}

#[test]
fn huge_fill_is_bounded_with_a_warning() {
    let w = vec![square(50_000.0)];
    let mut a = square_asset();
    a.string.as_mut().unwrap().fill_layer = Some(Lined { value: 0, line: 6 });
    a.string.as_mut().unwrap().spellings.clear();
    a.string.as_mut().unwrap().corners.clear();
    let p = place(&a, &w, &params(0)).unwrap();
    assert!(
        p.trees.len() <= 250_000 && p.trees.len() > 100_000,
        "{}",
        p.trees.len()
    );
    assert!(p.warnings.iter().any(|m| m.contains("too large to fill")));
}

#[test]
fn annotations_follow_the_tiles() {
    let mut a = square_asset();
    a.common.objects.push(Lined {
        value: "house.obj".into(),
        line: 7,
    });
    a.tiles[1].annotations.push(Annotation {
        kind: AnnotationKind::Object(ObjectAnn {
            mode: ObjMode::Graded,
            at: [20.0, 5.0],
            heading: 0.0,
            index: 0,
            show: None,
        }),
        line: 60,
    });
    a.common.hide_tiles = Some(8);
    let w = vec![square(100.0)];
    let p = place(&a, &w, &params(0)).unwrap();
    assert_eq!(p.objects.len(), 16);
    let first = p.tiles.iter().position(|t| t.role == Role::Edge).unwrap();
    let o = p.objects.iter().find(|o| o.tile == first).unwrap();
    // Tile 1 spans pixels 10..30: pixel (20, 5) is 10 m along, 5 m in.
    assert!(close([o.x, o.y], [20.0, 5.0]), "{o:?}");
    // Objects face the street (the tile's bottom edge): south here.
    assert!((o.heading - 180.0).abs() < 1e-9, "{}", o.heading);
    assert_eq!(o.asset, "house.obj");
    assert!(p.tiles.iter().all(|t| t.hidden));
}

#[test]
fn deterministic_for_a_seed() {
    let w = vec![circle([0.0, 0.0], 200.0, 300, true)];
    let mut a = square_asset();
    a.string
        .as_mut()
        .unwrap()
        .spellings
        .push(spelling(vec![0, 1], 31));
    a.string.as_mut().unwrap().fill_layer = Some(Lined { value: 1, line: 6 });
    let p1 = place(&a, &w, &params(42)).unwrap();
    let p2 = place(&a, &w, &params(42)).unwrap();
    assert_eq!(p1, p2);
    let p3 = place(&a, &w, &params(43)).unwrap();
    assert_ne!(p1.tiles, p3.tiles);
}

// ---------------------------------------------------- property tests ----

/// A star-shaped simple polygon (counter-clockwise) with a star-shaped
/// hole around the same centre (clockwise).
fn star(radii: &[f64], jitter: &[f64], hole: Option<f64>) -> Vec<Vec<Xy>> {
    let n = radii.len();
    let outer: Vec<Xy> = (0..n)
        .map(|i| {
            let a = (i as f64 + 0.8 * jitter[i]) / n as f64 * std::f64::consts::TAU;
            [radii[i] * a.cos(), radii[i] * a.sin()]
        })
        .collect();
    let mut w = vec![outer];
    if let Some(r) = hole {
        w.push(circle([0.0, 0.0], r, 7, false));
    }
    w
}

fn prop_asset(stop_depth: f64) -> Asset {
    let mut c3 = vec![
        pivot(tile(10, 0.0, 6.0, 6.0), [0.0, 0.0], [6.0, 0.0]),
        with_stop(
            pivot(tile(11, 10.0, 4.0, 6.0), [10.0, 0.0], [14.0, 0.0]),
            2.0,
            stop_depth,
        ),
        pivot(tile(12, 20.0, 6.0, 6.0), [20.0, 0.0], [26.0, 0.0]),
    ];
    c3.extend([
        tile(0, 40.0, 5.0, 5.0),
        with_stop(tile(1, 50.0, 12.0, 8.0), 6.0, stop_depth),
        with_stop(tile(2, 70.0, 8.0, 8.0), 4.0, stop_depth),
        tile(3, 80.0, 5.0, 5.0),
        with_stop(tile(4, 90.0, 3.0, 3.0), 1.5, 1.0),
    ]);
    asset(
        c3,
        StringProps {
            groups: vec![
                Group {
                    id: 1,
                    tiles: vec![1, 2],
                    line: 5,
                },
                Group {
                    id: 2,
                    tiles: vec![0, 11],
                    line: 6,
                },
            ],
            corners: vec![
                CornerRule {
                    kind: CornerKind::Atomic {
                        len1: [5.0, 1e9],
                        angle: [-150.0, -20.0],
                        len2: [5.0, 1e9],
                        group: 0,
                    },
                    tiles: vec![10, 11, 12],
                    order: None,
                    priority: 0,
                    line: 20,
                },
                CornerRule {
                    kind: CornerKind::Len {
                        len1: [10.0, 60.0],
                        angle: [-180.0, 180.0],
                        len2: [10.0, 60.0],
                        group: 2,
                    },
                    tiles: vec![0],
                    order: None,
                    priority: 1,
                    line: 21,
                },
                CornerRule {
                    kind: CornerKind::Pair {
                        angle1: [-180.0, 180.0],
                        length: [0.0, 30.0],
                        angle2: [-180.0, 180.0],
                        group: 0,
                    },
                    tiles: vec![3],
                    order: None,
                    priority: 1,
                    line: 22,
                },
                CornerRule {
                    priority: 2,
                    ..corner([-180.0, 180.0], vec![0], 23)
                },
            ],
            spellings: vec![
                atomic(vec![1, 2], [20.0, 1e9], 1, 30),
                atomic(vec![2, 2], [0.0, 1e9], 0, 31),
                spelling(vec![1], 32),
                EdgeSpelling {
                    priority: 1,
                    ..spelling(vec![3], 33)
                },
            ],
            caps: vec![Lined {
                value: vec![4],
                line: 40,
            }],
            fill_layer: Some(Lined { value: 1, line: 41 }),
            ..StringProps::default()
        },
    )
}

fn rule_tiles(a: &Asset, line: usize) -> usize {
    let s = a.string.as_ref().unwrap();
    s.corners
        .iter()
        .find(|r| r.line == line)
        .map(|r| r.tiles.len())
        .or_else(|| {
            s.spellings
                .iter()
                .find(|r| r.line == line)
                .map(|r| r.tiles.len())
        })
        .unwrap_or(1)
}

fn turn(a: Xy, v: Xy, b: Xy) -> f64 {
    let (d1, d2) = ([v[0] - a[0], v[1] - a[1]], [b[0] - v[0], b[1] - v[1]]);
    let h1 = d1[1].atan2(d1[0]).to_degrees();
    let h2 = d2[1].atan2(d2[0]).to_degrees();
    let mut d = h1 - h2; // right positive
    while d > 180.0 {
        d -= 360.0;
    }
    while d <= -180.0 {
        d += 360.0;
    }
    d
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn invariants_on_random_polygons(
        radii in prop::collection::vec(60.0f64..200.0, 5..40),
        seed in 0u64..1000,
        hole in prop::option::of(10.0f64..45.0),
        crease in (5.0f64..90.0, 5.0f64..90.0),
        depth in 1.0f64..7.0,
    ) {
        let n = radii.len();
        let jitter: Vec<f64> = (0..n).map(|i| ((i as u64 * 7919 + seed) % 97) as f64 / 97.0).collect();
        let w = star(&radii, &jitter, hole);
        let mut a = prop_asset(depth);
        a.string.as_mut().unwrap().creasing_angle = Some(Lined { value: [crease.0, crease.1], line: 2 });
        let prm = Params { seed, tree_spacing: 8.0, explain: true, ..Params::default() };
        let p = place(&a, &w, &prm).unwrap();
        assert_invariants(&p, &w);

        // Corners exactly where the turn reaches the crease angle.
        let mut want = Vec::new();
        for ring in &w {
            let m = ring.len();
            for i in 0..m {
                let t = turn(ring[(i + m - 1) % m], ring[i], ring[(i + 1) % m]);
                if (t < 0.0 && -t >= crease.0) || (t > 0.0 && t >= crease.1) {
                    want.push((ring[i], t));
                }
            }
        }
        prop_assert_eq!(p.corners.len(), want.len());
        for (c, (v, t)) in p.corners.iter().zip(&want) {
            prop_assert!(close([c.x, c.y], *v));
            prop_assert!((c.turn - t).abs() < 1e-6);
        }

        // Atomic units are whole.
        let mut units = std::collections::BTreeMap::<usize, (usize, usize)>::new();
        for t in &p.tiles {
            units.entry(t.unit).or_insert((t.source_line, 0)).1 += 1;
        }
        for (line, count) in units.values() {
            if [20, 30, 31].contains(line) {
                prop_assert_eq!(*count, rule_tiles(&a, *line));
            }
        }

        // CORNER_LEN / CORNER_PAIR conditions at every corner the engine
        // reports placed (explain: "winding W corner at vertex V (…): NAME
        // line L placed tiles [ids]").
        let seg = |r: &Vec<Xy>, i: usize| {
            let k = r.len();
            let (a, b) = (r[i % k], r[(i + 1) % k]);
            (b[0] - a[0]).hypot(b[1] - a[1])
        };
        let mut prev: Option<(usize, String)> = None;
        let mut placed_corners = 0;
        for l in p.explain.iter().filter(|l| l.contains(" placed tiles ")) {
            let wi: usize = l.split_whitespace().nth(1).unwrap().parse().unwrap();
            let v: usize = l.split("vertex ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
            let line: usize = l.split(" line ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
            let ids = l.split("placed tiles ").nth(1).unwrap().to_string();
            let r = &w[wi - 1];
            let k = r.len();
            if prev.as_ref().is_some_and(|(pw, _)| *pw != wi) {
                prev = None;
            }
            if line == 21 {
                let (l1, l2) = (seg(r, (v + k - 1) % k), seg(r, v));
                prop_assert!((10.0 - 1e-6..=60.0 + 1e-6).contains(&l1), "len1 {}", l1);
                prop_assert!((10.0 - 1e-6..=60.0 + 1e-6).contains(&l2), "len2 {}", l2);
                if let Some((_, pids)) = &prev {
                    // Group 2 = tiles 0 and 11.
                    prop_assert!(pids.contains("[0]") || pids.contains("11"), "group 2 after {}", pids);
                }
            }
            if line == 22 {
                prop_assert!(seg(r, v) <= 30.0 + 1e-6);
            }
            placed_corners += 1;
            prev = Some((wi, ids));
        }
        let corner_units: std::collections::BTreeSet<usize> =
            p.tiles.iter().filter(|t| t.role == Role::Corner).map(|t| t.unit).collect();
        prop_assert_eq!(corner_units.len(), placed_corners);

        // Determinism.
        let again = place(&a, &w, &prm).unwrap();
        prop_assert_eq!(p, again);
    }

    #[test]
    fn atomic_group_condition_without_corners(
        n in 40usize..200,
        r in 80.0f64..300.0,
        seed in 0u64..1000,
    ) {
        // A smooth ring: one closed side, so "previous tile" is the previous
        // edge tile in order.
        let w = vec![circle([0.0, 0.0], r, n, true)];
        let a = prop_asset(3.0);
        let p = place(&a, &w, &Params { seed, ..Params::default() }).unwrap();
        assert_invariants(&p, &w);
        let edges: Vec<_> = p.tiles.iter().filter(|t| t.role == Role::Edge).collect();
        for (i, t) in edges.iter().enumerate() {
            let first_of_unit = i == 0 || edges[i - 1].unit != t.unit;
            if t.source_line == 30 && first_of_unit && i > 0 {
                let prev = &edges[i - 1].id;
                prop_assert!(*prev == TileId::Num(1) || *prev == TileId::Num(2), "prev {:?}", prev);
            }
        }
    }
}

// ------------------------------------------------- fixtures as text ----

fn fixture(name: &str) -> Asset {
    let path = format!("{}/tests/fixtures/ags/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    agkit::xp::parse(&text).unwrap_or_else(|d| panic!("{path}: {d:?}"))
}

#[test]
fn fixture_square_block_matches_the_built_asset() {
    let a = fixture("square_block.ags");
    let w = vec![square(100.0)];
    let p = place(&a, &w, &params(1)).unwrap();
    assert_eq!(edge_count(&p, Role::Corner), 4);
    assert_eq!(edge_count(&p, Role::Edge), 16);
    // Lines are those of the directives in the file.
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/ags/square_block.ags"
    ))
    .unwrap();
    let line_of = |s: &str| text.lines().position(|l| l.starts_with(s)).unwrap() + 1;
    assert!(
        p.tiles
            .iter()
            .filter(|t| t.role == Role::Corner)
            .all(|t| t.source_line == line_of("CORNER "))
    );
    assert!(
        p.tiles
            .iter()
            .filter(|t| t.role == Role::Edge)
            .all(|t| t.source_line == line_of("SPELLING "))
    );
    assert_eq!(p.objects.len(), 16);
    assert!(
        p.objects
            .iter()
            .all(|o| o.asset == "house.obj" && o.mode == "graded")
    );
    assert_invariants(&p, &w);
}

#[test]
fn fixture_lake_shore_with_fill() {
    let a = fixture("lake_shore.ags");
    // A shoreline of 400 short segments around a lake, in a square block.
    let mut lake = circle([150.0, 150.0], 80.0, 400, false);
    lake.push(lake[0]); // a repeated closing vertex is tolerated
    let w = vec![square(300.0), lake];
    let p = place(
        &a,
        &w,
        &Params {
            tree_spacing: 10.0,
            ..params(11)
        },
    )
    .unwrap();
    assert_invariants(&p, &w);
    // The lake shore (no corners: 400 segments turning 0.9° each) gets tiles.
    assert_eq!(p.corners.len(), 4);
    let near_lake = p
        .tiles
        .iter()
        .filter(|t| (t.polygon[0][0] - 150.0).hypot(t.polygon[0][1] - 150.0) < 81.0)
        .count();
    assert!(near_lake > 20, "{near_lake}");
    assert!(p.tiles.iter().any(|t| t.role == Role::Cap));
    assert!(p.trees.iter().filter(|t| t.tile.is_none()).count() > 100);
    assert!(
        p.trees
            .iter()
            .filter(|t| t.tile.is_none())
            .all(|t| t.layer == 3)
    );
}

#[test]
fn example_town_edge_places() {
    let text = include_str!("../examples/string/town_edge.ags");
    let a = agkit::xp::parse(text).unwrap();
    let w = vec![
        square_rect(200.0, 120.0),
        circle([100.0, 60.0], 20.0, 16, false),
    ];
    let p = place(
        &a,
        &w,
        &Params {
            low: 1,
            ..params(5)
        },
    )
    .unwrap();
    assert_invariants(&p, &w);
    assert_eq!(p.corners.len(), 4 + 16 * usize::from(360.0 / 16.0 >= 35.0));
    assert!(edge_count(&p, Role::Corner) >= 4, "{:#?}", p.explain);
    assert!(edge_count(&p, Role::Edge) >= 4, "{:#?}", p.explain);
    assert_eq!(edge_count(&p, Role::Cap), 2);
    // SHARE_Y: every atomic unit shares its first tile's ground point.
    let mut first: std::collections::HashMap<usize, Option<Xy>> = Default::default();
    for t in p.tiles.iter().filter(|t| t.role == Role::Corner) {
        let g = first.entry(t.unit).or_insert(t.ground_point);
        assert_eq!(*g, t.ground_point);
    }
}
