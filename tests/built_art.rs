//! Facades, objects and trees built as X-Plane builds them (issue 34), on
//! small crafted files: each rule against figures worked out here by an
//! independent transcription of the reference's arithmetic (xptools
//! `WED_FacadePreview.cpp`, written again below in another shape, not
//! agkit's code), the measured cases, and properties.

use agkit::fac::{self, Facade, floors, layout, panels, walls};
use agkit::limits::Limits;
use agkit::obj;
use proptest::prelude::*;

fn facade(text: &str) -> Facade {
    fac::read(text.as_bytes(), "test.fac", &Limits::default()).unwrap()
}

/// The osm2xp `industrial_W2XP_tony1.fac` walls (the issue's
/// `industrial.fac`), as the corpus has it.
const INDUSTRIAL: &str = "A\n800\nFACADE\nTEXTURE texture.png\nRING 1\nTWO_SIDED 0\n\
LOD 0.000000 6000\nTEX_SIZE 1024 1024\nFLOORS_MIN 1\n\
ROOF_SCALE 0 1024 138 941 567 873 24 10\n\
WALL 0 15\nSCALE 48 44\nBOTTOM 676 747\nMIDDLE 747 806\nMIDDLE 806 852\nTOP    852 866\nCENTER 294 352\n\
WALL 15 1000\nSCALE 48 44\nBOTTOM 676 747\nMIDDLE 747 806\nMIDDLE 806 852\nTOP    852 866\n\
LEFT 0 71\nCENTER 71 141\nCENTER 141 210\nCENTER 210 284\nRIGHT 284 354\n";

mod art_reference;
use art_reference::{Panels, lists, ref_floors, ref_height, ref_panels};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-3
}

// ---- The measured cases ----------------------------------------

#[test]
fn heights_round_to_whole_floors_as_the_reference_measured() {
    let f = facade(INDUSTRIAL);
    // Asked 10 m: 5 floors, 10.699 m; asked 20 m: 9 floors, 19.723 m.
    for (asked, n, h) in [(10.0, 5, 10.699), (20.0, 9, 19.723)] {
        assert_eq!(floors::for_height(&f, asked), Some(n));
        let ring = [[0.0, 0.0], [10.0, 0.0], [10.0, 37.0], [0.0, 37.0]];
        let l = layout::layout(&f, &ring, asked, None);
        assert_eq!(l.floors, Some(n));
        assert!((l.height - h).abs() < 5e-4, "{asked}: {}", l.height);
    }
}

#[test]
fn a_37_m_side_takes_11_panels_of_wall_1() {
    let f = facade(INDUSTRIAL);
    let ring = [[0.0, 0.0], [10.0, 0.0], [10.0, 37.0], [0.0, 37.0]];
    let l = layout::layout(&f, &ring, 10.0, None);
    let w: Vec<usize> = l.sides.iter().map(|s| s.wall).collect();
    assert_eq!(w, [0, 1, 0, 1]);
    let p = l.sides[1].panels.unwrap();
    assert_eq!(p.total, 11);
    assert_eq!((p.left, p.center, p.right), (4, 3, 4));
    // Metres of wall per texture width: SCALE x times the stretch, near 48.
    let per_texture = 48.0 * l.sides[1].stretch;
    assert!((44.0..=49.0).contains(&per_texture), "{per_texture}");
    // DSF wall types override the filters.
    let given = layout::layout(&f, &ring, 10.0, Some(&[1, 1, 1, 1]));
    assert!(given.sides.iter().all(|s| s.wall == 1));
}

#[test]
fn roof_scale_alone_gives_a_roof_with_the_wall_texture() {
    let f = facade(INDUSTRIAL);
    assert!(f.has_roof());
    assert_eq!(f.roof_texture(), Some("texture.png"));
    let no_roof = facade(&INDUSTRIAL.replace("ROOF_SCALE 0 1024 138 941 567 873 24 10\n", ""));
    assert!(!no_roof.has_roof());
    assert_eq!(no_roof.roof_texture(), None);
}

#[test]
fn the_walls_are_built_panel_by_panel_with_the_texture_density_of_scale() {
    let f = facade(INDUSTRIAL);
    let ring = [[0.0, 0.0], [37.0, 0.0], [37.0, 10.0], [0.0, 10.0]];
    let l = layout::layout(&f, &ring, 10.0, None);
    let g = fac::shape::walls(&f, &ring, &l);
    // Side 0 (37 m, wall 1): left run of 4, 3 centre panels (one cycle),
    // right run of 4, times 4 bands (bottom 2, top 2, the roof edge: 5
    // floors as bottom 2, top 2, edge 1): 3 runs × 3 bands.
    let quads = g.triangles.len() / 2;
    assert!(quads > 4, "{quads}");
    // Vertical density: every quad spans (t1 - t0) × 44 m of texture.
    for q in 0..quads {
        let [a, _, c, _] = [4 * q, 4 * q + 1, 4 * q + 2, 4 * q + 3];
        let dz = g.positions[c][2] - g.positions[a][2];
        let dt = g.uvs[c][1] - g.uvs[a][1];
        assert!((dz - dt * 44.0).abs() < 1e-6, "quad {q}: {dz} m for {dt}");
    }
    let top = g.positions.iter().map(|p| p[2]).fold(0.0, f64::max);
    assert!((top - l.height).abs() < 1e-9);
    let roof = fac::shape::roof(&f, &ring, &l);
    assert_eq!(roof.triangles.len(), 2);
    assert!(
        roof.positions
            .iter()
            .all(|p| (p[2] - l.height).abs() < 1e-9)
    );
}

#[test]
fn a_sloped_top_pulls_the_roof_in_by_tan_slope_times_its_height() {
    // familysloped1.fac's wall: ROOF_SLOPE 67, top panel 0.247620–0.280823
    // of a 35 m texture.
    let f = facade(
        "A\n800\nFACADE\nTEXTURE t.png\nRING 1\nLOD 0 20000\n\
ROOF 0.007751 0.261292\nROOF 0.011658 0.487854\nROOF 0.238220 0.491760\nROOF 0.238220 0.261292\n\
WALL 0 40\nSCALE 37.5 35\nROOF_SLOPE 67\nCENTER 0 0.196716\nRIGHT 0.196716 0.250122\n\
BOTTOM 0 0.088440\nMIDDLE 0.088440 0.159729\nMIDDLE 0.159729 0.247620\nTOP 0.247620 0.280823\n",
    );
    let ring = [[0.0, 0.0], [20.0, 0.0], [20.0, 12.0], [0.0, 12.0]];
    let l = layout::layout(&f, &ring, 8.0, None);
    let want = 67f64.to_radians().tan() * (0.280823 - 0.247620) * 35.0;
    assert!(l.sides.iter().all(|s| (s.inset - want).abs() < 1e-9));
    let roof = fac::shape::roof(&f, &ring, &l);
    let xs: Vec<f64> = roof.positions.iter().map(|p| p[0]).collect();
    let lo = xs.iter().copied().fold(f64::INFINITY, f64::min);
    assert!((lo - want).abs() < 1e-9, "{lo} against {want}");
    // The roof-edge quads lean: their tops lie inside the footprint.
    let g = fac::shape::walls(&f, &ring, &l);
    let top_xs: Vec<f64> = g
        .positions
        .iter()
        .filter(|p| (p[2] - l.height).abs() < 1e-9)
        .map(|p| p[0])
        .collect();
    assert!(
        top_xs
            .iter()
            .all(|&x| x >= want - 1e-9 && x <= 20.0 - want + 1e-9)
    );
}

#[test]
fn a_box_in_a_static_anim_trans_is_posed_at_its_first_key() {
    let text = "A\n800\nOBJ\nPOINT_COUNTS 8 0 0 36\n\
VT -1 0 -1 0 1 0 0 0\nVT 1 0 -1 0 1 0 0 0\nVT 1 0 1 0 1 0 0 0\nVT -1 0 1 0 1 0 0 0\n\
VT -1 2 -1 0 1 0 0 0\nVT 1 2 -1 0 1 0 0 0\nVT 1 2 1 0 1 0 0 0\nVT -1 2 1 0 1 0 0 0\n\
IDX10 0 1 2 0 2 3 4 5 6 4\nIDX10 6 7 0 1 5 0 5 4 1 2\nIDX10 6 1 6 5 2 3 7 2 7 6\nIDX 3\nIDX 0\nIDX 4\nIDX 3\nIDX 4\nIDX 7\n\
ANIM_begin\nANIM_trans 20 0 10 20 0 10 0 0 none\nTRIS 0 36\nANIM_end\n";
    let o = obj::read(text.as_bytes(), "box.obj", &Limits::default()).unwrap();
    let b = o.bounds().unwrap();
    assert_eq!((b.min[0], b.max[0]), (19.0, 21.0));
    assert_eq!((b.min[2], b.max[2]), (9.0, 11.0));
    let r = o.rest_bounds().unwrap();
    assert_eq!((r.min[0], r.max[0]), (-1.0, 1.0));
    // A rotation of 90° about y at the first key, then the move: keyed
    // tables use their first row.
    let keyed = text.replace(
        "ANIM_trans 20 0 10 20 0 10 0 0 none\n",
        "ANIM_trans_begin none\nANIM_trans_key 0 20 0 10\nANIM_trans_key 1 99 0 99\nANIM_trans_end\n\
ANIM_rotate_begin 0 1 0 none\nANIM_rotate_key 0 90\nANIM_rotate_key 1 0\nANIM_rotate_end\n",
    );
    let o = obj::read(keyed.as_bytes(), "box.obj", &Limits::default()).unwrap();
    let b = o.bounds().unwrap();
    assert!(
        (b.min[0] - 19.0).abs() < 1e-9 && (b.max[2] - 11.0).abs() < 1e-9,
        "{b:?}"
    );
}

// ---- Properties ----------------------------------------------------------

/// A type-1 facade of random panels.
fn arb_facade() -> impl Strategy<Value = (String, Panels, Panels)> {
    let sizes = |n| prop::collection::vec(0.02f64..0.3, n);
    (
        sizes(1..3usize),
        sizes(0..4usize),
        sizes(0..3usize),
        sizes(0..3usize),
        sizes(0..4usize),
        sizes(1..3usize),
        1.0f64..80.0,
        1.0f64..60.0,
        prop::bool::ANY,
    )
        .prop_map(|(b, m, t, l, c, r, sx, sy, roof)| {
            let mut text = format!(
                "A\n800\nFACADE\nTEXTURE t.png\nLOD 0 1000\n{}WALL 0 10000\nSCALE {sx} {sy}\n",
                if roof {
                    "ROOF 0 0\nROOF 1 0\nROOF 1 1\n"
                } else {
                    ""
                }
            );
            let mut up = Vec::new();
            let mut across = Vec::new();
            let mut at = 0.0;
            for (k, list) in [('B', &b), ('M', &m), ('T', &t)] {
                for &s in list {
                    let name = match k {
                        'B' => "BOTTOM",
                        'M' => "MIDDLE",
                        _ => "TOP",
                    };
                    text += &format!("{name} {at} {}\n", at + s);
                    at += s;
                    up.push((k, s));
                }
            }
            at = 0.0;
            for (k, list) in [('L', &l), ('C', &c), ('R', &r)] {
                for &s in list {
                    let name = match k {
                        'L' => "LEFT",
                        'C' => "CENTER",
                        _ => "RIGHT",
                    };
                    text += &format!("{name} {at} {}\n", at + s);
                    at += s;
                    across.push((k, s));
                }
            }
            (text, up, across)
        })
}

proptest! {
    #[test]
    fn floor_and_panel_counts_agree_with_the_transcription(
        (text, up, across) in arb_facade(), h in 0.5f64..300.0, len in 0.1f64..400.0
    ) {
        let f = facade(&text);
        let w = &f.lods[0].walls[0];
        // The panels as read back (the text rounds their sizes).
        let (read_across, read_up) = lists(w);
        prop_assert_eq!(read_across.len(), across.len());
        prop_assert_eq!(read_up.len(), up.len());
        let (across, up) = (read_across, read_up);
        let n = floors::for_height(&f, h).unwrap();
        prop_assert_eq!(n as i64, ref_floors(&up, w.scale[1], 0.0, 0.0, [1, 999], h));
        prop_assert_eq!(panels::for_length(w, len) as i64, ref_panels(&across, w.scale[0], len));
        if f.has_roof() {
            prop_assert!(close(floors::drawn_height(w, n, true, false), ref_height(&up, w.scale[1], n as i64)));
        }
    }

    #[test]
    fn panel_counts_cover_each_side_within_one_panel((text, _up, across) in arb_facade(), len in 0.1f64..400.0) {
        // Only repeated centre panels can fill a side of any length.
        prop_assume!(across.iter().any(|p| p.0 == 'C'));
        let f = facade(&text);
        let ring = [[0.0, 0.0], [len, 0.0], [len, 5.0], [0.0, 5.0]];
        let l = layout::layout(&f, &ring, 10.0, None);
        let w = &f.lods[0].walls[0];
        let widest = across.iter().map(|p| p.1).fold(0.0, f64::max) * w.scale[0];
        let s = &l.sides[0];
        let built = s.length / s.stretch;
        prop_assert!((built - len).abs() <= widest + 1e-9, "{} m of panels on {} m", built, len);
        // The runs the mesh draws hold exactly the panels counted, and
        // fill the side.
        let p = s.panels.unwrap();
        let runs = panels::runs(w, p.total, 100_000).unwrap();
        prop_assert_eq!(runs.iter().map(|r| r.panels).sum::<u64>(), p.total);
        prop_assert_eq!(runs.first().unwrap().x[0], 0.0);
        prop_assert_eq!(runs.last().unwrap().x[1], 1.0);
    }

    #[test]
    fn drawn_heights_are_whole_floors_within_the_range(
        (text, _up, _a) in arb_facade(), h in 0.0f64..500.0, lo in 1u64..5, extra in 0u64..30
    ) {
        let ring = [[0.0, 0.0], [20.0, 0.0], [20.0, 20.0], [0.0, 20.0]];
        let text = text.replace("LOD 0 1000\n", &format!("LOD 0 1000\nFLOORS_MIN {lo}\nFLOORS_MAX {}\n", lo + extra));
        let f = facade(&text);
        let l = layout::layout(&f, &ring, h, None);
        let n = l.floors.unwrap();
        prop_assert!((lo..=lo + extra).contains(&n), "{} floors outside {}..={}", n, lo, lo + extra);
        // The height drawn is that whole number of floors, stacked.
        let w = &f.lods[0].walls[l.sides.last().unwrap().wall];
        let stack = floors::stack(w, n, f.has_roof(), false, 1_000_000).unwrap();
        prop_assert!(close(l.height, stack.last().map_or(0.0, |b| b.z[1])));
        let s = floors::split(w, n, f.has_roof());
        prop_assert!(s.floors() == n || w.count(fac::Part::Middle) == 0);
    }

    #[test]
    fn wall_choice_is_the_first_admitting_filter(lens in prop::collection::vec(0.5f64..60.0, 3..8)) {
        let f = facade(INDUSTRIAL);
        // A ring whose sides have the given lengths is not needed: the
        // choice per side only reads lengths and headings.
        let filters = walls::type1_filters(&f.lods[0]);
        for &len in &lens {
            let want = if len <= 15.0 { 0 } else { 1 };
            prop_assert_eq!(walls::pick(&filters, len, 0.0), want);
        }
    }
}
