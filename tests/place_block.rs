//! The AGB block engine: hand-computed layouts, the spec's rules as
//! properties over random quadrilaterals, spelling-set frequencies, CROP,
//! FLIP_180 and determinism.

use agkit::geom::Xy;
use agkit::place::{Params, PlaceError, Placement, TileId, block};
use agkit::xp::model::*;
use proptest::prelude::*;

/// Small builders for AGB assets made in code.
mod build {
    use super::*;

    pub fn band(start: f64, end: f64, slop: Option<f64>, antislop: f64) -> Band {
        Band {
            start,
            end,
            slop,
            antislop,
            line: 0,
        }
    }

    pub fn plain(cuts: &[f64]) -> Vec<Band> {
        cuts.windows(2)
            .map(|w| band(w[0], w[1], None, 0.0))
            .collect()
    }

    pub fn grid(columns: Vec<Band>, rows: Vec<Band>) -> Grid {
        Grid {
            columns,
            rows,
            ..Grid::default()
        }
    }

    /// Sets EDGE_MAX / BEST / MIN from insets `[left, bottom, right, top]`
    /// measured from the grid's outer cuts, written as the texture
    /// rectangles the files hold.
    pub fn edges(mut g: Grid, max: [f64; 4], best: [f64; 4], min: [f64; 4]) -> Grid {
        let (x0, x1) = (g.columns[0].start, g.columns.last().unwrap().end);
        let (y0, y1) = (g.rows[0].start, g.rows.last().unwrap().end);
        let rect = |i: [f64; 4]| {
            Some(Lined {
                value: [x0 + i[0], y0 + i[1], x1 - i[2], y1 - i[3]],
                line: 0,
            })
        };
        g.edge_max = rect(max);
        g.edge_best = rect(best);
        g.edge_min = rect(min);
        g
    }

    pub fn spelling(indices: &[i64], line: usize) -> Spelling {
        Spelling {
            indices: indices.to_vec(),
            name: None,
            line,
        }
    }

    pub fn set(param: i64, line: usize, s: Vec<Spelling>, t: Vec<Spelling>) -> SpellingSet {
        SpellingSet {
            param,
            line,
            height_range: None,
            width_range: None,
            depth_range: None,
            frequency: None,
            use_grid: None,
            spellings_s: s,
            spellings_t: t,
        }
    }

    pub fn asset(scale: [f64; 2], width_m: f64, grids: Vec<Grid>, sets: Vec<SpellingSet>) -> Asset {
        let common = Common {
            texture_scale: Some(Lined {
                value: scale,
                line: 2,
            }),
            texture_width: Some(Lined {
                value: width_m,
                line: 3,
            }),
            objects: vec![Lined {
                value: "house.obj".into(),
                line: 4,
            }],
            ..Common::default()
        };
        Asset {
            kind: Kind::Agb,
            common,
            tiles: vec![],
            block: Some(BlockProps {
                grids,
                spelling_sets: sets,
                ..BlockProps::default()
            }),
            string: None,
            meta: vec![],
            unknown: vec![],
        }
    }

    pub fn obj(x: f64, y: f64, heading: f64, line: usize) -> Annotation {
        Annotation {
            kind: AnnotationKind::Object(ObjectAnn {
                mode: ObjMode::Graded,
                at: [x, y],
                heading,
                index: 0,
                show: None,
            }),
            line,
        }
    }

    pub fn formula(
        x_ratio: f64,
        x_delta: f64,
        y_ratio: f64,
        y_delta: f64,
        line: usize,
    ) -> Annotation {
        Annotation {
            kind: AnnotationKind::GroundFormula(GroundFormula {
                x_ratio,
                x_delta,
                y_ratio,
                y_delta,
            }),
            line,
        }
    }

    pub fn flip(mut a: Asset, on: bool) -> Asset {
        a.block.as_mut().unwrap().flip_180 = on.then_some(1);
        a
    }

    pub fn crop(mut a: Asset, on: bool) -> Asset {
        a.block.as_mut().unwrap().crop = Some(Lined { value: on, line: 1 });
        a
    }
}

use build::*;

fn rect(w: f64, d: f64) -> Vec<Vec<Xy>> {
    vec![vec![[0.0, 0.0], [w, 0.0], [w, d], [0.0, d]]]
}

fn place(a: &Asset, w: &[Vec<Xy>]) -> Placement {
    block::place(a, w, &Params::default()).expect("placed")
}

fn close(a: Xy, b: Xy) -> bool {
    (a[0] - b[0]).abs() < 1e-6 && (a[1] - b[1]).abs() < 1e-6
}

fn assert_ring(got: &[Xy], want: &[Xy]) {
    assert_eq!(got.len(), want.len(), "{got:?} vs {want:?}");
    for (g, w) in got.iter().zip(want) {
        assert!(close(*g, *w), "{got:?} vs {want:?}");
    }
}

/// 0.1 m per pixel; columns 0..100, 100..200 (slop, overlap 20), 200..300;
/// rows 0..100, 100..200, 200..300.
fn simple() -> Asset {
    let cols = vec![
        band(0.0, 100.0, None, 0.0),
        band(100.0, 200.0, Some(20.0), 0.0),
        band(200.0, 300.0, None, 0.0),
    ];
    let mut g = grid(cols, plain(&[0.0, 100.0, 200.0, 300.0]));
    g.annotations = vec![
        obj(160.0, 50.0, 0.0, 20),  // col 1, under col 2 once slop < 60 px
        obj(120.0, 50.0, 90.0, 21), // col 1, visible
        obj(250.0, 150.0, 0.0, 22), // col 2 row 1
        formula(0.5, 0.0, 0.5, 0.0, 23),
    ];
    let sets = vec![set(
        0,
        10,
        vec![
            spelling(&[0, 2], 11),
            spelling(&[0, 1, 2], 12),
            spelling(&[0, 1, 1, 2], 13),
        ],
        vec![spelling(&[0, 1], 14), spelling(&[0, 1, 2], 15)],
    )];
    asset([1024.0, 1024.0], 102.4, vec![g], sets)
}

#[test]
fn rectangle_exact_tiles() {
    let p = place(&simple(), &rect(25.0, 20.0));
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    let ids: Vec<TileId> = p.tiles.iter().map(|t| t.id.clone()).collect();
    assert_eq!(
        ids,
        vec![
            TileId::Grid(0, 0),
            TileId::Grid(1, 0),
            TileId::Grid(2, 0),
            TileId::Grid(0, 1),
            TileId::Grid(1, 1),
            TileId::Grid(2, 1),
        ]
    );
    // Slop column stretched 50 px (of 80): drawn 70 px, next column 5 m in.
    assert_ring(
        &p.tiles[0].polygon,
        &[[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]],
    );
    assert_ring(
        &p.tiles[1].polygon,
        &[[10.0, 0.0], [17.0, 0.0], [17.0, 10.0], [10.0, 10.0]],
    );
    assert_ring(
        &p.tiles[2].polygon,
        &[[15.0, 0.0], [25.0, 0.0], [25.0, 10.0], [15.0, 10.0]],
    );
    assert_ring(
        &p.tiles[5].polygon,
        &[[15.0, 10.0], [25.0, 10.0], [25.0, 20.0], [15.0, 20.0]],
    );
    assert_ring(
        &p.tiles[1].uv,
        &[[100.0, 0.0], [170.0, 0.0], [170.0, 100.0], [100.0, 100.0]],
    );
    assert_ring(
        &p.tiles[5].uv,
        &[
            [200.0, 100.0],
            [300.0, 100.0],
            [300.0, 200.0],
            [200.0, 200.0],
        ],
    );
    for (k, t) in p.tiles.iter().enumerate() {
        assert_eq!(t.order, k);
        assert_eq!(t.unit, k / 3);
        assert_eq!(t.source_line, 12);
        assert!(!t.hidden);
    }
    // The object at 160 px lies under column 2 (which starts at 150 px).
    let lines: Vec<usize> = p.objects.iter().map(|o| o.source_line).collect();
    assert_eq!(lines, vec![21, 22]);
    assert!(close([p.objects[0].x, p.objects[0].y], [12.0, 5.0]));
    assert_eq!(p.objects[0].heading, 90.0);
    assert_eq!(p.objects[0].tile, 1);
    assert!(close([p.objects[1].x, p.objects[1].y], [20.0, 15.0]));
    assert_eq!(p.objects[1].tile, 5);
    // GROUND_PT_FORMULA after the line-22 object: tile (2,1) only.
    assert!(close(p.tiles[5].ground_point.unwrap(), [12.5, 10.0]));
    assert!(close(p.tiles[2].ground_point.unwrap(), [20.0, 5.0]));
    assert_eq!(p.polygon, rect(25.0, 20.0));
}

#[test]
fn rectangle_flipped_exact_tiles() {
    let p = place(&flip(simple(), true), &rect(25.0, 20.0));
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    // Texture +x runs west, +y south: column 0 at the east end, row 0 on
    // the far side, the first side along the top of the texture.
    assert_eq!(p.tiles[0].id, TileId::Grid(0, 0));
    assert_ring(
        &p.tiles[0].polygon,
        &[[25.0, 20.0], [15.0, 20.0], [15.0, 10.0], [25.0, 10.0]],
    );
    assert_ring(
        &p.tiles[2].polygon,
        &[[10.0, 20.0], [0.0, 20.0], [0.0, 10.0], [10.0, 10.0]],
    );
    assert_ring(
        &p.tiles[5].polygon,
        &[[10.0, 10.0], [0.0, 10.0], [0.0, 0.0], [10.0, 0.0]],
    );
    assert!(close([p.objects[0].x, p.objects[0].y], [13.0, 15.0]));
    assert_eq!(p.objects[0].heading, 270.0);
}

#[test]
fn edges_choose_the_spelling_nearest_best() {
    // Insets 0 / 20 / 40 px: 25 m needs 290 px; only [0 1 1 2] reaches it.
    let mut a = simple();
    let g = &mut a.block.as_mut().unwrap().grids[0];
    *g = edges(g.clone(), [0.0; 4], [20.0; 4], [40.0; 4]);
    let p = block::place(
        &a,
        &rect(25.0, 20.0),
        &Params {
            explain: true,
            ..Params::default()
        },
    )
    .unwrap();
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    assert_eq!(p.tiles[0].source_line, 13);
    // Left edge of the grid 2 m outside the polygon; rows: [0 1] is 200 px,
    // 40 px short of the ideal but inside the EDGE band, so it sits with
    // its bottom edge on the first side (the mean of both sides' best).
    assert!(
        close(p.tiles[0].polygon[0], [-2.0, 0.0]),
        "{:?}",
        p.tiles[0].polygon
    );
    assert!(
        p.explain
            .iter()
            .any(|l| l.contains("chose SPELLING_S line 13")),
        "{:?}",
        p.explain
    );
    assert!(
        p.explain
            .iter()
            .any(|l| l.contains("slop 1 at position 1 stretched"))
    );
}

#[test]
fn too_small_block_is_placed_with_a_warning() {
    let p = place(&simple(), &rect(12.0, 20.0));
    assert_eq!(p.warnings.len(), 1, "{:?}", p.warnings);
    assert!(
        p.warnings[0].message().contains("SPELLING_S"),
        "{:?}",
        p.warnings
    );
    // Closest: [0 2] at 200 px, centred over the 12 m polygon.
    assert!(close(p.tiles[0].polygon[0], [-4.0, 0.0]));
}

#[test]
fn no_usable_spelling_places_nothing() {
    let mut a = simple();
    a.block.as_mut().unwrap().spelling_sets[0].spellings_t = vec![spelling(&[0, 7], 30)];
    let p = place(&a, &rect(25.0, 20.0));
    assert!(p.tiles.is_empty());
    assert!(
        p.warnings.iter().any(|w| w.message().contains("line 30")),
        "{:?}",
        p.warnings
    );
    assert!(
        p.warnings
            .iter()
            .any(|w| w.message().contains("nothing placed")),
        "{:?}",
        p.warnings
    );
}

#[test]
fn polygon_errors() {
    let a = simple();
    let e = block::place(
        &a,
        &[rect(5.0, 5.0)[0].clone(), rect(1.0, 1.0)[0].clone()],
        &Params::default(),
    );
    assert_eq!(
        e.unwrap_err(),
        PlaceError::Polygon(
            "an AGB needs one winding of 4 points; got 2 windings (holes are not permitted)".into()
        )
    );
    let mut cw = rect(5.0, 5.0);
    cw[0].reverse();
    let e = block::place(&a, &cw, &Params::default()).unwrap_err();
    assert!(
        matches!(&e, PlaceError::Polygon(m) if m.contains("clockwise")),
        "{e}"
    );
}

#[test]
fn use_grid_out_of_range_is_an_error() {
    let mut a = simple();
    a.block.as_mut().unwrap().spelling_sets[0].use_grid = Some(Lined { value: 3, line: 9 });
    let e = block::place(&a, &rect(25.0, 20.0), &Params::default()).unwrap_err();
    assert!(
        matches!(&e, PlaceError::Asset(m) if m.contains("grid 3")),
        "{e}"
    );
}

#[test]
fn antislop_shifts_tiles_back() {
    let cols = vec![
        band(0.0, 100.0, None, 0.0),
        band(100.0, 200.0, None, 10.0),
        band(200.0, 300.0, None, 10.0),
    ];
    let mut g = grid(cols, plain(&[0.0, 100.0]));
    g.annotations = vec![obj(95.0, 50.0, 0.0, 30), obj(105.0, 50.0, 0.0, 31)];
    let sets = vec![set(
        0,
        10,
        vec![spelling(&[0, 1, 2], 11)],
        vec![spelling(&[0], 12)],
    )];
    let a = asset([1000.0, 1000.0], 100.0, vec![g], sets);
    let p = place(&a, &rect(28.0, 10.0));
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    assert_ring(
        &p.tiles[1].polygon,
        &[[9.0, 0.0], [19.0, 0.0], [19.0, 10.0], [9.0, 10.0]],
    );
    assert_ring(
        &p.tiles[2].polygon,
        &[[18.0, 0.0], [28.0, 0.0], [28.0, 10.0], [18.0, 10.0]],
    );
    // 95 px of column 0 is under column 1 (which starts at 90 px).
    let lines: Vec<usize> = p.objects.iter().map(|o| o.source_line).collect();
    assert_eq!(lines, vec![31]);
}

#[test]
fn named_spellings_grids_and_ranges() {
    let g0 = grid(plain(&[0.0, 100.0, 200.0]), plain(&[0.0, 100.0]));
    let g1 = grid(plain(&[0.0, 50.0, 100.0]), plain(&[0.0, 50.0]));
    let mut narrow = set(0, 10, vec![spelling(&[0, 1], 11)], vec![spelling(&[0], 12)]);
    narrow.width_range = Some(Lined {
        value: [0.0, 15.0],
        line: 13,
    });
    let mut named = spelling(&[0, 1, 0, 1], 21);
    named.name = Some("four".into());
    let mut wide = set(0, 20, vec![named], vec![spelling(&[0], 22)]);
    wide.width_range = Some(Lined {
        value: [15.0, 100.0],
        line: 23,
    });
    wide.use_grid = Some(Lined { value: 1, line: 24 });
    let a = asset([1000.0, 1000.0], 100.0, vec![g0, g1], vec![narrow, wide]);
    let p = block::place(
        &a,
        &rect(20.0, 5.0),
        &Params {
            explain: true,
            ..Params::default()
        },
    )
    .unwrap();
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    assert_eq!(p.tiles.len(), 4);
    assert!(p.tiles.iter().all(|t| t.source_line == 21));
    assert!(
        p.explain.iter().any(|l| l.contains("(four)")),
        "{:?}",
        p.explain
    );
    let p = place(&a, &rect(10.0, 10.0));
    assert!(p.tiles.iter().all(|t| t.source_line == 11));
    // A low byte no set has: the first set is the default.
    let p = block::place(
        &a,
        &rect(20.0, 5.0),
        &Params {
            low: 7,
            ..Params::default()
        },
    )
    .unwrap();
    assert!(p.tiles.iter().all(|t| t.source_line == 11));
}

#[test]
fn hide_tiles_marks_tiles_hidden() {
    let mut a = simple();
    a.common.hide_tiles = Some(5);
    let p = place(&a, &rect(25.0, 20.0));
    assert!(!p.tiles.is_empty() && p.tiles.iter().all(|t| t.hidden));
}

#[test]
fn frequencies_are_honoured() {
    // Three sets with weights 1, 2, 5, told apart by their spelling lines.
    let g = grid(plain(&[0.0, 100.0]), plain(&[0.0, 100.0]));
    let mk = |line: usize, w: f64| {
        let mut s = set(
            3,
            line,
            vec![spelling(&[0], line + 1)],
            vec![spelling(&[0], line + 2)],
        );
        s.frequency = Some(Lined {
            value: w,
            line: line + 3,
        });
        s
    };
    let a = asset(
        [100.0, 100.0],
        10.0,
        vec![g],
        vec![mk(10, 1.0), mk(20, 2.0), mk(30, 5.0)],
    );
    let mut counts = [0usize; 3];
    let n = 4000;
    for seed in 0..n {
        let p = block::place(
            &a,
            &rect(10.0, 10.0),
            &Params {
                seed,
                low: 3,
                ..Params::default()
            },
        )
        .unwrap();
        counts[(p.tiles[0].source_line - 11) / 10] += 1;
    }
    let w = [1.0, 2.0, 5.0];
    let chi2: f64 = (0..3)
        .map(|k| {
            let e = n as f64 * w[k] / 8.0;
            (counts[k] as f64 - e).powi(2) / e
        })
        .sum();
    // 2 degrees of freedom: p = 0.001 at 13.82.
    assert!(chi2 < 13.82, "{counts:?} chi² {chi2}");
}

// ------------------------------------------------------------ properties ----

/// 0.05 m per pixel; columns 0..128, 128..256 (slop 16), 256..384
/// (anti-slop 8), 384..512; rows 0..128, 128..256 (slop 16), 256..384;
/// EDGE_MAX 0, EDGE_BEST 16, EDGE_MIN 32 on every side.
fn rich(flipped: bool, cropped: bool) -> Asset {
    let cols = vec![
        band(0.0, 128.0, None, 0.0),
        band(128.0, 256.0, Some(16.0), 0.0),
        band(256.0, 384.0, None, 8.0),
        band(384.0, 512.0, None, 0.0),
    ];
    let rows = vec![
        band(0.0, 128.0, None, 0.0),
        band(128.0, 256.0, Some(16.0), 0.0),
        band(256.0, 384.0, None, 0.0),
    ];
    let mut g = edges(grid(cols, rows), [0.0; 4], [16.0; 4], [32.0; 4]);
    for x in (8..512).step_by(24) {
        for y in (8..384).step_by(24) {
            g.annotations
                .push(obj(x as f64, y as f64, 0.0, 100 + x as usize));
        }
    }
    let mut s = vec![spelling(&[0, 3], 11), spelling(&[0, 1, 3], 12)];
    let mut t = vec![spelling(&[0, 2], 31), spelling(&[0, 1, 2], 32)];
    for k in 1..=6usize {
        let mut v = vec![0i64];
        let mut r = vec![0i64];
        for _ in 0..k {
            v.extend([1, 2]);
            r.extend([1, 2]);
        }
        v.push(3);
        s.push(spelling(&v, 12 + k));
        t.push(spelling(&r, 32 + k));
    }
    let a = asset([1024.0, 1024.0], 51.2, vec![g], vec![set(0, 10, s, t)]);
    crop(flip(a, flipped), cropped)
}

/// A near-rectangle `w × d` with its far corners moved, turned by `angle`
/// and moved to `at`.
fn quad(w: f64, d: f64, j: [f64; 4], angle: f64, at: Xy) -> Vec<Vec<Xy>> {
    let local = [[0.0, 0.0], [w, 0.0], [w + j[0], d + j[1]], [j[2], d + j[3]]];
    let (s, c) = angle.sin_cos();
    vec![
        local
            .iter()
            .map(|p| [at[0] + c * p[0] - s * p[1], at[1] + s * p[0] + c * p[1]])
            .collect(),
    ]
}

/// Block coordinates (along the first side, across it) of a point.
fn to_block(w: &[Xy], p: Xy) -> Xy {
    let d = [w[1][0] - w[0][0], w[1][1] - w[0][1]];
    let l = (d[0] * d[0] + d[1] * d[1]).sqrt();
    let u = [d[0] / l, d[1] / l];
    let q = [p[0] - w[0][0], p[1] - w[0][1]];
    [q[0] * u[0] + q[1] * u[1], -q[0] * u[1] + q[1] * u[0]]
}

fn inside(w: &[Xy], p: Xy, eps: f64) -> bool {
    (0..4).all(|i| {
        let a = w[i];
        let b = w[(i + 1) % 4];
        let e = [b[0] - a[0], b[1] - a[1]];
        let l = (e[0] * e[0] + e[1] * e[1]).sqrt();
        e[0] * (p[1] - a[1]) - e[1] * (p[0] - a[0]) >= -eps * l
    })
}

fn quads() -> impl Strategy<Value = Vec<Vec<Xy>>> {
    (
        15.0..60.0f64,
        12.0..40.0f64,
        prop::array::uniform4(-1.2..1.2f64),
        -3.2..3.2f64,
        (-500.0..500.0f64, -500.0..500.0f64),
    )
        .prop_map(|(w, d, j, a, at)| quad(w, d, j, a, [at.0, at.1]))
}

/// Grid extent in block coordinates, pixels: [s_min, t_min, s_max, t_max].
fn extent_px(p: &Placement, w: &[Xy]) -> [f64; 4] {
    let mut e = [
        f64::INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NEG_INFINITY,
    ];
    for t in &p.tiles {
        for &v in &t.polygon {
            let b = to_block(w, v);
            e[0] = e[0].min(b[0] / 0.05);
            e[1] = e[1].min(b[1] / 0.05);
            e[2] = e[2].max(b[0] / 0.05);
            e[3] = e[3].max(b[1] / 0.05);
        }
    }
    e
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn sides_lie_between_edge_min_and_max(w in quads(), flipped in any::<bool>()) {
        let p = place(&rich(flipped, false), &w);
        prop_assert!(!p.tiles.is_empty());
        if p.warnings.is_empty() {
            let e = extent_px(&p, &w[0]);
            let tol = 1e-6;
            for (k, &v) in w[0].iter().enumerate() {
                let b = to_block(&w[0], v);
                let (bs, bt) = (b[0] / 0.05, b[1] / 0.05);
                // Vertices 0,3 on the low-s side, 1,2 on the high-s side; 0,1
                // on the first side, 2,3 on the far side.
                let ds = if k == 0 || k == 3 { bs - e[0] } else { e[2] - bs };
                let dt = if k <= 1 { bt - e[1] } else { e[3] - bt };
                prop_assert!((-tol..=32.0 + tol).contains(&ds), "vertex {k}: {ds} px from the s edge");
                prop_assert!((-tol..=32.0 + tol).contains(&dt), "vertex {k}: {dt} px from the t edge");
            }
        }
    }

    #[test]
    fn no_gaps_and_slop_within_bounds(w in quads()) {
        let p = place(&rich(false, false), &w);
        let tol = 1e-6;
        let span = |t: &agkit::place::PlacedTile| {
            let b: Vec<Xy> = t.polygon.iter().map(|&v| to_block(&w[0], v)).collect();
            let f = |k: usize, g: fn(f64, f64) -> f64| b.iter().map(|x| x[k]).fold(b[0][k], g) / 0.05;
            [f(0, f64::min), f(1, f64::min), f(0, f64::max), f(1, f64::max)]
        };
        for pair in p.tiles.windows(2) {
            let (a, b) = (span(&pair[0]), span(&pair[1]));
            if pair[0].unit == pair[1].unit {
                prop_assert!(b[0] <= a[2] + tol, "gap between {:?} and {:?}", pair[0].id, pair[1].id);
                if let (TileId::Grid(1, _), TileId::Grid(next, _)) = (&pair[0].id, &pair[1].id) {
                    // The slop column's stretch: where the next column starts
                    // before its anti-slop.
                    let anti = if *next == 2 { 8.0 } else { 0.0 };
                    let stretch = b[0] + anti - a[0];
                    prop_assert!(stretch >= -tol && stretch <= 128.0 - 16.0 + tol, "stretch {stretch}");
                    let drawn = a[2] - a[0];
                    prop_assert!(drawn >= 16.0 - tol && drawn <= 128.0 + tol, "drawn {drawn}");
                }
            } else {
                prop_assert_eq!(pair[1].unit, pair[0].unit + 1);
                prop_assert!(b[1] <= a[3] + tol, "gap between rows {} and {}", pair[0].unit, pair[1].unit);
            }
        }
    }

    #[test]
    fn crop_keeps_tiles_inside(w in quads(), flipped in any::<bool>()) {
        let p = place(&rich(flipped, true), &w);
        if p.warnings.is_empty() {
            prop_assert!(!p.tiles.is_empty());
            for t in &p.tiles {
                prop_assert_eq!(t.polygon.len(), t.uv.len());
                for &v in &t.polygon {
                    prop_assert!(inside(&w[0], v, 1e-6), "{:?} at {:?} outside", t.id, v);
                }
            }
            for o in &p.objects {
                prop_assert!(inside(&w[0], [o.x, o.y], 1e-6));
            }
        }
    }

    #[test]
    fn flip_is_the_unflipped_grid_on_the_reversed_far_side(
        w in 15.0..60.0f64, d in 12.0..40.0f64, skew in -1.0..1.0f64, a in -3.2..3.2f64,
    ) {
        // A parallelogram: rolling it by two vertices makes its far side,
        // run the other way, the first side.
        let p = quad(w, d, [skew, 0.0, skew, 0.0], a, [3.0, -7.0]);
        let q = &p[0];
        let rolled = vec![vec![q[2], q[3], q[0], q[1]]];
        let f = place(&rich(true, false), &p);
        let u = place(&rich(false, false), &rolled);
        prop_assert_eq!(f.tiles.len(), u.tiles.len());
        prop_assert_eq!(&f.warnings, &u.warnings);
        for (x, y) in f.tiles.iter().zip(&u.tiles) {
            prop_assert_eq!(&x.id, &y.id);
            for (a, b) in x.polygon.iter().zip(&y.polygon) {
                prop_assert!(close(*a, *b), "{:?} {:?}", x.polygon, y.polygon);
            }
            for (a, b) in x.uv.iter().zip(&y.uv) {
                prop_assert!(close(*a, *b));
            }
        }
        prop_assert_eq!(f.objects.len(), u.objects.len());
        for (a, b) in f.objects.iter().zip(&u.objects) {
            prop_assert!(close([a.x, a.y], [b.x, b.y]));
            prop_assert!((a.heading - b.heading).abs() < 1e-6);
        }
    }

    #[test]
    fn deterministic_and_turns_with_the_polygon(w in quads(), seed in any::<u64>()) {
        let params = Params { seed, ..Params::default() };
        let c1 = block::place(&rich(true, true), &w, &params).unwrap();
        let c2 = block::place(&rich(true, true), &w, &params).unwrap();
        prop_assert_eq!(&c1, &c2);
        let a = rich(false, false);
        let p1 = block::place(&a, &w, &params).unwrap();
        // Turning the polygon about the origin turns the whole placement.
        let (s, c) = 0.7f64.sin_cos();
        let turn = |p: Xy| [c * p[0] - s * p[1], s * p[0] + c * p[1]];
        let tw = vec![w[0].iter().map(|&p| turn(p)).collect::<Vec<_>>()];
        let p3 = block::place(&a, &tw, &params).unwrap();
        prop_assert_eq!(p1.tiles.len(), p3.tiles.len());
        for (x, y) in p1.tiles.iter().zip(&p3.tiles) {
            prop_assert_eq!(x.polygon.len(), y.polygon.len());
            for (a, b) in x.polygon.iter().zip(&y.polygon) {
                prop_assert!((turn(*a)[0] - b[0]).abs() < 1e-5 && (turn(*a)[1] - b[1]).abs() < 1e-5);
            }
        }
    }
}

#[test]
fn crop_cuts_the_overhang_of_a_trapezoid() {
    // 30 m first side, far side 28 m long 1 m in from each end: the EDGE
    // bands let the grid overhang, CROP cuts it back to the polygon.
    let w = vec![vec![[0.0, 0.0], [30.0, 0.0], [29.0, 20.0], [1.0, 20.0]]];
    let open = place(&rich(false, false), &w);
    let cut = place(&rich(false, true), &w);
    assert!(
        open.warnings.is_empty() && cut.warnings.is_empty(),
        "{:?}",
        cut.warnings
    );
    assert_eq!(open.tiles.len(), cut.tiles.len());
    let outside = |p: &Placement| {
        p.tiles
            .iter()
            .filter(|t| t.polygon.iter().any(|&v| !inside(&w[0], v, 1e-6)))
            .count()
    };
    assert!(outside(&open) > 0);
    assert_eq!(outside(&cut), 0);
    // A cut corner tile gets texture coordinates for its new vertices.
    let t = &cut.tiles[0];
    assert_eq!(t.polygon.len(), t.uv.len());
    assert!(t.uv.iter().all(|uv| (0.0..=128.0 + 1e-9).contains(&uv[0])));
    assert!(cut.objects.len() < open.objects.len());
    assert!(cut.objects.iter().all(|o| inside(&w[0], [o.x, o.y], 1e-9)));
}

#[test]
fn placed_through_place_place_on_lon_lat() {
    use agkit::geom::LocalFrame;
    use agkit::place::Use;
    let frame = LocalFrame::new([10.0, 50.0]);
    let ll: Vec<[f64; 2]> = rect(25.0, 20.0)[0]
        .iter()
        .map(|&p| frame.to_lonlat(p))
        .collect();
    let mut closed = ll.clone();
    closed.push(ll[0]);
    let p = agkit::place::place(
        &simple(),
        "simple.agb",
        &Use::Polygon {
            windings: vec![closed],
        },
        &Params::default(),
    )
    .unwrap();
    assert_eq!(p.kind, agkit::place::PlacementKind::Agb);
    assert_eq!(p.tiles.len(), 6);
    assert_eq!(p.polygon[0].len(), 4);
    assert!(close(p.tiles[2].polygon[1], [25.0, 0.0]));
    let back = frame.to_lonlat([25.0, 0.0]);
    assert!((p.tiles[2].lonlat[1][0] - back[0]).abs() < 1e-9);
    assert!((p.objects[0].lat - frame.to_lonlat([12.0, 5.0])[1]).abs() < 1e-9);
}

#[test]
fn explain_snapshot() {
    let mut a = simple();
    let g = &mut a.block.as_mut().unwrap().grids[0];
    *g = edges(g.clone(), [0.0; 4], [20.0; 4], [40.0; 4]);
    let w = vec![vec![[0.0, 0.0], [25.0, 0.0], [24.0, 21.0], [0.5, 20.0]]];
    let p = block::place(
        &a,
        &w,
        &Params {
            explain: true,
            ..Params::default()
        },
    )
    .unwrap();
    let mut text = p.explain.join("\n");
    for w in &p.warnings {
        text.push_str("\nwarning: ");
        text.push_str(&w.to_string());
    }
    insta::assert_snapshot!(text);
}

// ------------------------------------------------------ text fixtures ----

/// Parses `tests/fixtures/agb/<name>`.
fn fixture(name: &str) -> (Asset, String) {
    let path = format!("{}/tests/fixtures/agb/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("fixture");
    let asset = agkit::xp::parse(&text).unwrap_or_else(|d| panic!("{name}: {d:?}"));
    (asset, text)
}

/// 1-based line of the first line of `text` equal to `wanted`.
fn line_of(text: &str, wanted: &str) -> usize {
    text.lines().position(|l| l.trim() == wanted).expect(wanted) + 1
}

fn same_layout(a: &Placement, b: &Placement) {
    assert_eq!(a.tiles.len(), b.tiles.len());
    for (x, y) in a.tiles.iter().zip(&b.tiles) {
        assert_eq!(x.id, y.id);
        assert_ring(&x.polygon, &y.polygon);
        assert_ring(&x.uv, &y.uv);
        assert_eq!(x.unit, y.unit);
    }
    assert_eq!(a.objects.len(), b.objects.len());
    for (x, y) in a.objects.iter().zip(&b.objects) {
        assert!(close([x.x, x.y], [y.x, y.y]));
        assert_eq!(x.heading, y.heading);
    }
}

#[test]
fn simple_fixture_is_the_hand_computed_layout() {
    let (a, text) = fixture("simple.agb");
    let p = place(&a, &rect(25.0, 20.0));
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    same_layout(&p, &place(&simple(), &rect(25.0, 20.0)));
    let line = line_of(&text, "SPELLING_S 0 1 2");
    assert!(p.tiles.iter().all(|t| t.source_line == line));
    assert_eq!(
        p.objects[0].source_line,
        line_of(&text, "OBJ_GRADED 120 50 90 0")
    );
    assert!(close(p.tiles[5].ground_point.unwrap(), [12.5, 10.0]));
    let (f, _) = fixture("flip.agb");
    same_layout(
        &place(&f, &rect(25.0, 20.0)),
        &place(&flip(simple(), true), &rect(25.0, 20.0)),
    );
}

fn grid_of(p: &Placement) -> usize {
    // Grid 1 of city.agb lives at texture x 512..768.
    usize::from(
        p.tiles
            .iter()
            .all(|t| t.uv.iter().all(|uv| uv[0] >= 512.0 - 1e-6)),
    )
}

#[test]
fn city_frequencies_pick_grids_three_to_one() {
    let (a, _) = fixture("city.agb");
    let n = 2000u64;
    let mut counts = [0usize; 2];
    for seed in 0..n {
        let p = block::place(
            &a,
            &rect(30.0, 20.0),
            &Params {
                seed,
                ..Params::default()
            },
        )
        .unwrap();
        assert!(!p.tiles.is_empty());
        counts[grid_of(&p)] += 1;
    }
    let e = [n as f64 * 0.75, n as f64 * 0.25];
    let chi2: f64 = (0..2)
        .map(|k| (counts[k] as f64 - e[k]).powi(2) / e[k])
        .sum();
    // 1 degree of freedom: p = 0.001 at 10.83.
    assert!(chi2 < 10.83, "{counts:?} chi² {chi2}");
}

#[test]
fn city_low_byte_height_and_default_set() {
    let (a, text) = fixture("city.agb");
    let tall = Params {
        low: 2,
        height: 40.0,
        ..Params::default()
    };
    let p = block::place(&a, &rect(30.0, 20.0), &tall).unwrap();
    assert_eq!(grid_of(&p), 1);
    let line = line_of(&text, "SPELLING_S 0 1 0 1 0 1 0 1");
    assert!(p.tiles.iter().all(|t| t.source_line == line));
    // Too low for set 2's HEIGHT_RANGE: no candidate, the first set.
    let low = Params {
        low: 2,
        height: 8.0,
        explain: true,
        ..Params::default()
    };
    let p = block::place(&a, &rect(30.0, 20.0), &low).unwrap();
    assert_eq!(grid_of(&p), 0);
    assert!(
        p.explain.iter().any(|l| l.contains("none matches")),
        "{:?}",
        p.explain
    );
}

#[test]
fn city_named_spelling_crop_and_ground_point() {
    let (a, text) = fixture("city.agb");
    // 27 m needs 572 px of columns: only the named spelling `long` fits.
    let w = vec![vec![[0.0, 0.0], [27.0, 0.0], [26.5, 20.0], [0.4, 19.6]]];
    let p = (0..50)
        .map(|seed| {
            block::place(
                &a,
                &w,
                &Params {
                    seed,
                    explain: true,
                    ..Params::default()
                },
            )
            .unwrap()
        })
        .find(|p| grid_of(p) == 0)
        .expect("grid 0 is drawn three times in four");
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    assert!(
        p.explain.iter().any(|l| l.contains("(long)")),
        "{:?}",
        p.explain
    );
    let line = line_of(&text, "USE_SPELLING_S long");
    assert!(p.tiles.iter().all(|t| t.source_line == line));
    for t in &p.tiles {
        for &v in &t.polygon {
            assert!(inside(&w[0], v, 1e-6), "{:?} {v:?}", t.id);
        }
    }
    let centre = [
        (0.0 + 27.0 + 26.5 + 0.4) / 4.0,
        (0.0 + 0.0 + 20.0 + 19.6) / 4.0,
    ];
    let t00: Vec<_> = p
        .tiles
        .iter()
        .filter(|t| t.id == TileId::Grid(0, 0))
        .collect();
    assert_eq!(t00.len(), 1);
    assert!(
        close(t00[0].ground_point.unwrap(), centre),
        "{:?}",
        t00[0].ground_point
    );
    assert!(
        p.objects
            .iter()
            .any(|o| o.asset == "shop.obj" && o.mode == "graded")
    );
}

#[test]
fn xp_example_city_block_places() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/block/city_block.agb");
    let text = std::fs::read_to_string(path).expect("example");
    let a = agkit::xp::parse(&text).expect("parses");
    // 0.0625 m per pixel: `short` spans 47.75..54.75 m, `shallow` 55.6..62.6 m.
    let w = rect(50.0, 58.0);
    let mut clean = 0;
    for seed in 0..20 {
        let p = block::place(
            &a,
            &w,
            &Params {
                seed,
                ..Params::default()
            },
        )
        .unwrap();
        assert!(!p.tiles.is_empty());
        assert!(!p.objects.is_empty());
        if p.warnings.is_empty() {
            clean += 1;
        }
    }
    assert!(clean > 0);
}

// ------------------------------------------- misfits, caps, odd polygons ----

#[test]
fn a_block_within_max_misfit_is_placed_with_a_warning() {
    // simple()'s column spellings span 20..36 m: 7 m is 2.9× too small and
    // 100 m 2.8× too large, both within MAX_MISFIT = 3.
    assert_eq!(block::MAX_MISFIT, 3.0);
    for w in [7.0, 100.0] {
        let p = place(&simple(), &rect(w, 20.0));
        assert!(!p.tiles.is_empty(), "{w} m: nothing placed");
        assert_eq!(p.warnings.len(), 1, "{:?}", p.warnings);
        assert!(
            p.warnings[0].message().contains("placed the closest"),
            "{:?}",
            p.warnings
        );
    }
}

#[test]
fn a_block_beyond_max_misfit_is_refused_with_the_reason() {
    for (w, why, line) in [
        (6.0, "too small", "line 11"),
        (110.0, "too large", "line 13"),
        (1.0e6, "too large", "line 13"),
    ] {
        let p = place(&simple(), &rect(w, 20.0));
        assert!(p.tiles.is_empty() && p.objects.is_empty(), "{w} m placed");
        assert_eq!(p.warnings.len(), 1, "{:?}", p.warnings);
        let m = p.warnings[0].message();
        for part in [why, line, "nothing placed", "SPELLING_S", "3×"] {
            assert!(m.contains(part), "{w} m: `{part}` missing in {m}");
        }
    }
    // The rows too: simple()'s row spellings span 20..30 m.
    let p = place(&simple(), &rect(25.0, 95.0));
    assert!(p.tiles.is_empty());
    assert!(
        p.warnings[0].message().contains("SPELLING_T"),
        "{:?}",
        p.warnings
    );
}

#[test]
fn more_than_max_tiles_is_refused() {
    // One 1 px column and row, spelt 300 times each: 90 000 tiles.
    let g = grid(plain(&[0.0, 1.0]), plain(&[0.0, 1.0]));
    let many = vec![0i64; 300];
    let sets = vec![set(
        0,
        10,
        vec![spelling(&many, 11)],
        vec![spelling(&many, 12)],
    )];
    let a = asset([1024.0, 1024.0], 102.4, vec![g.clone()], sets);
    let p = place(&a, &rect(30.0, 30.0));
    assert!(p.tiles.is_empty());
    assert_eq!(p.warnings.len(), 1, "{:?}", p.warnings);
    assert!(
        p.warnings[0].message().contains("90000 tiles")
            && p.warnings[0].message().contains("65536"),
        "{:?}",
        p.warnings
    );
    // 200 × 200 is under the cap and placed.
    let few = vec![0i64; 200];
    let sets = vec![set(
        0,
        10,
        vec![spelling(&few, 11)],
        vec![spelling(&few, 12)],
    )];
    let a = asset([1024.0, 1024.0], 102.4, vec![g], sets);
    let p = place(&a, &rect(20.0, 20.0));
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    assert_eq!(p.tiles.len(), 40_000);
}

#[test]
fn a_grid_with_many_cuts_takes_memory_only_for_annotated_tiles() {
    // 100 000 × 100 000 texture tiles; one annotation; a 2 × 2 spelling.
    let cuts: Vec<f64> = (0..=100_000).map(f64::from).collect();
    let mut g = grid(plain(&cuts), plain(&cuts));
    g.annotations = vec![obj(1.5, 0.5, 0.0, 9)];
    let sets = vec![set(
        0,
        10,
        vec![spelling(&[0, 1], 11)],
        vec![spelling(&[0, 1], 12)],
    )];
    let a = asset([1024.0, 1024.0], 102.4, vec![g], sets);
    let p = place(&a, &rect(0.2, 0.2));
    assert_eq!(p.tiles.len(), 4);
    assert_eq!(p.objects.len(), 1);
}

#[test]
fn repeated_vertices_are_a_polygon_error() {
    let w = vec![vec![[0.0, 0.0], [25.0, 0.0], [25.0, 20.0], [25.0, 20.0]]];
    let e = block::place(&simple(), &w, &Params::default()).unwrap_err();
    assert!(
        matches!(&e, PlaceError::Polygon(m) if m.contains("zero-length side")),
        "{e}"
    );
}

/// simple() with three sets told apart by DEPTH_RANGE.
fn by_depth() -> Asset {
    let mut a = simple();
    let b = a.block.as_mut().unwrap();
    let base = b.spelling_sets[0].clone();
    b.spelling_sets = [
        (40usize, [0.0, 15.0]),
        (50, [15.0, 25.0]),
        (60, [25.0, 99.0]),
    ]
    .into_iter()
    .map(|(line, range)| {
        let mut s = base.clone();
        s.line = line;
        s.depth_range = Some(Lined { value: range, line });
        for (k, sp) in s.spellings_s.iter_mut().enumerate() {
            sp.line = line + 1 + k;
        }
        s
    })
    .collect();
    a
}

#[test]
fn depth_range_filters_on_the_depth_normal_to_the_first_side() {
    let a = by_depth();
    let explain = Params {
        explain: true,
        ..Params::default()
    };
    let chosen = |w: &Vec<Vec<Xy>>| {
        let p = block::place(&a, w, &explain).unwrap();
        let line = p
            .explain
            .iter()
            .find(|l| l.starts_with("spelling set:"))
            .cloned()
            .unwrap_or_default();
        (p, line)
    };
    let (_, l) = chosen(&rect(25.0, 20.0));
    assert!(l.contains("chose #1 (line 50)"), "{l}");
    // A trapezoid 20 m deep with legs leaning in: the depth is 20 m, not the
    // 20.6 m the slanted legs measure.
    let trap = vec![vec![[0.0, 0.0], [30.0, 0.0], [25.0, 20.0], [5.0, 20.0]]];
    let (_, l) = chosen(&trap);
    assert!(l.contains("chose #1 (line 50)"), "{l}");
    // Skewed 26 m: the far side 26 m from the first side, shifted 8 m along it.
    let skew = vec![vec![[0.0, 0.0], [25.0, 0.0], [33.0, 26.0], [8.0, 26.0]]];
    let (p, l) = chosen(&skew);
    assert!(l.contains("chose #2 (line 60)"), "{l}");
    assert!(p.explain[0].contains("depth 26.000 m"), "{}", p.explain[0]);
    // So skewed that no normal to the first side meets the far side: still
    // the 12 m between them.
    let lean = vec![vec![[0.0, 0.0], [25.0, 0.0], [70.0, 12.0], [45.0, 12.0]]];
    let (p, l) = chosen(&lean);
    assert!(l.contains("chose #0 (line 40)"), "{l}");
    assert!(p.explain[0].contains("depth 12.000 m"), "{}", p.explain[0]);
}

#[test]
fn crop_keeps_every_piece_of_a_split_tile() {
    // One 10 m column spelt four times, one 30 m row; a dart whose notch at
    // (20, 15) opens along the first side, so the third column is cut in two.
    let g = grid(plain(&[0.0, 100.0]), plain(&[0.0, 300.0]));
    let sets = vec![set(
        0,
        10,
        vec![spelling(&[0, 0, 0, 0], 11)],
        vec![spelling(&[0], 12)],
    )];
    let a = crop(asset([1024.0, 1024.0], 102.4, vec![g], sets), true);
    let dart = vec![vec![[0.0, 0.0], [40.0, 0.0], [20.0, 15.0], [30.0, 40.0]]];
    let p = place(&a, &dart);
    // The 40 m spelling is centred on the 15 m the block needs: columns at
    // 2.5, 12.5, 22.5, 32.5 .. 42.5 m. The third is cut into a piece under
    // the notch and one above it; the other three stay whole.
    let third = p
        .tiles
        .iter()
        .filter(|t| {
            t.polygon
                .iter()
                .all(|v| (22.5 - 1e-6..=32.5 + 1e-6).contains(&v[0]))
        })
        .count();
    assert_eq!(third, 2, "{:#?}", p.tiles);
    assert_eq!(p.tiles.len(), 5, "{:#?}", p.tiles);
    let area = |r: &[Xy]| {
        let n = r.len();
        (0..n)
            .map(|i| r[i][0] * r[(i + 1) % n][1] - r[(i + 1) % n][0] * r[i][1])
            .sum::<f64>()
            / 2.0
    };
    let total: f64 = p.tiles.iter().map(|t| area(&t.polygon)).sum();
    // The tiles abut without overlap, so together they are the part of the
    // polygon the grid covers: here all of it but the strip beyond the grid.
    assert!(total > 0.0 && total <= area(&dart[0]) + 1e-6, "{total}");
    for t in &p.tiles {
        assert_eq!(t.polygon.len(), t.uv.len());
        assert!(area(&t.polygon) > 0.0);
    }
}

#[test]
fn crop_never_cuts_inside_edge_min() {
    // EDGE_MIN 40 px in from every edge; a 10 m block is too narrow for the
    // 20 m spelling, so the EDGE_MIN rectangle (s from −1 to 11 m) sticks
    // out of the polygon and is kept; the rest of the overhang is cut.
    let mut a = crop(simple(), true);
    let g = &mut a.block.as_mut().unwrap().grids[0];
    *g = edges(g.clone(), [0.0; 4], [20.0; 4], [40.0; 4]);
    let p = place(&a, &rect(10.0, 20.0));
    assert_eq!(p.warnings.len(), 1, "{:?}", p.warnings);
    let xs = p.tiles.iter().flat_map(|t| t.polygon.iter().map(|v| v[0]));
    let (lo, hi) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), x| {
        (l.min(x), h.max(x))
    });
    assert!(
        (lo + 1.0).abs() < 1e-6 && (hi - 11.0).abs() < 1e-6,
        "{lo} {hi}"
    );
    // Without CROP the whole 20 m spelling shows.
    let open = place(&crop(a.clone(), false), &rect(10.0, 20.0));
    let xs = open
        .tiles
        .iter()
        .flat_map(|t| t.polygon.iter().map(|v| v[0]));
    let lo = xs.fold(f64::INFINITY, f64::min);
    assert!((lo + 5.0).abs() < 1e-6, "{lo}");
}

// --------------------------------------------- slop and typo fixtures ----

#[test]
fn slop_fixture_uses_explicit_slop_pixels_and_antislop_v() {
    let (a, text) = fixture("slop.agb");
    let p = place(&a, &rect(25.0, 22.0));
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    let tile = |c: usize, r: usize| {
        p.tiles
            .iter()
            .find(|t| t.id == TileId::Grid(c, r))
            .unwrap_or_else(|| panic!("tile {c},{r}"))
    };
    // Column 1 stretches 50 px and is drawn 50 + 30 (SLOP_H 30, not the
    // OVERLAP_H 16) = 80 px: 10..18 m, texture 100..180.
    assert_ring(
        &tile(1, 0).polygon,
        &[[10.0, 0.0], [18.0, 0.0], [18.0, 10.0], [10.0, 10.0]],
    );
    assert_ring(
        &tile(1, 0).uv,
        &[[100.0, 0.0], [180.0, 0.0], [180.0, 100.0], [100.0, 100.0]],
    );
    assert_ring(
        &tile(2, 0).polygon,
        &[[15.0, 0.0], [25.0, 0.0], [25.0, 10.0], [15.0, 10.0]],
    );
    // Row 1 (SLOP_V, OVERLAP_V 20) stretches 30 px, drawn 50; row 2 is
    // pulled back 10 px by ANTISLOP_V: 12..22 m.
    assert_ring(
        &tile(0, 1).polygon,
        &[[0.0, 10.0], [10.0, 10.0], [10.0, 15.0], [0.0, 15.0]],
    );
    assert_ring(
        &tile(0, 2).polygon,
        &[[0.0, 12.0], [10.0, 12.0], [10.0, 22.0], [0.0, 22.0]],
    );
    let line = line_of(&text, "SPELLING_S 0 1 2");
    assert!(p.tiles.iter().all(|t| t.source_line == line));
    // The object at y 145 lies under the anti-slopped row 2 and is removed.
    let got: Vec<Xy> = p.objects.iter().map(|o| [o.x, o.y]).collect();
    let want = [[5.0, 5.0], [5.0, 12.5], [20.0, 17.0]];
    assert_eq!(got.len(), want.len(), "{got:?}");
    for w in want {
        assert!(got.iter().any(|&g| close(g, w)), "{w:?} not in {got:?}");
    }
}

#[test]
fn typo_fixture_places_with_the_spec_spellings_of_named_spellings() {
    let (a, text) = fixture("typos.agb");
    let p = block::place(
        &a,
        &rect(50.0, 40.0),
        &Params {
            explain: true,
            ..Params::default()
        },
    )
    .unwrap();
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    let line = line_of(&text, "USE_SPELLING_S wide");
    assert!(p.tiles.iter().all(|t| t.source_line == line));
    assert_eq!(p.tiles.len(), 5 * 4);
    let chosen = |what: &str| {
        p.explain
            .iter()
            .find(|l| l.starts_with(&format!("{what}: chose")))
            .cloned()
            .unwrap_or_default()
    };
    assert!(chosen("columns").contains(&format!("line {line}")));
    let t_line = line_of(&text, "USE_SPELLING_t deep");
    assert!(
        chosen("rows").contains(&format!("line {t_line}")),
        "{}",
        chosen("rows")
    );
    assert!(p.explain.iter().any(|l| l.contains("(wide)")));
    assert!(p.explain.iter().any(|l| l.contains("(deep)")));
}

#[test]
fn slop_fixture_explain_and_json_snapshots() {
    // Local metres straight from the engine (no lon/lat round trip), so the
    // JSON holds the exact hand-checkable numbers.
    let (a, _) = fixture("slop.agb");
    let p = block::place(
        &a,
        &rect(25.0, 22.0),
        &Params {
            explain: true,
            ..Params::default()
        },
    )
    .unwrap();
    insta::assert_snapshot!("slop_explain", p.explain.join("\n"));
    let json = agkit::out::render_one(&p, agkit::out::Format::Json).unwrap();
    insta::assert_snapshot!("slop_json", String::from_utf8(json).unwrap());
}
