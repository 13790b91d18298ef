//! Issue 51 item 0: a base mesh is written watertight. A vertex shared by
//! triangles in different patches (and so, often, different pools) comes
//! back at one position: every patch pool is one cell of `DIVISIONS`, so
//! all of them quantise on one grid.

use agkit::dsf::{self, BuildOptions};

mod dsf_support;
use dsf_support::{cracks, ortho_mesh_text};

/// The text built as `agkit dsf build` and `dsftool --text2dsf` build it
/// (grouped, stripped), read back.
fn built(text: &str) -> (dsf::Dsf, dsf::Dsf) {
    let (m, mut o) = dsf::from_text(text, &mut |_| Err("no rasters".into())).unwrap();
    o.group = true;
    o.strip = true;
    let back = dsf::read(&dsf::build(&m, &o).unwrap()).unwrap();
    (m, back)
}

/// Issue 51: on an Ortho4XP-shaped mesh (DIVISIONS 8, 101 × 101 grid),
/// 683 of 10,201 shared vertices came back at two positions 1.9–3.8e-6°
/// apart, tile-edge vertices among them. Now none does.
#[test]
fn an_ortho_mesh_of_101_by_101_with_divisions_8_has_no_crack() {
    let (m, back) = built(&ortho_mesh_text(101, 8, 7));
    let (cracked, total, unpaired) = cracks(&m, &back, 1e-4);
    assert_eq!(total, 101 * 101);
    assert_eq!(unpaired, 0);
    assert_eq!(
        cracked, 0,
        "{cracked} of {total} vertices come back at two positions"
    );
}

#[test]
fn every_divisions_and_the_default_give_no_crack() {
    for divisions in [1, 2, 4, 8, 16, 32, 64] {
        let (m, back) = built(&ortho_mesh_text(41, divisions, u64::from(divisions)));
        let (cracked, total, unpaired) = cracks(&m, &back, 1e-3);
        assert_eq!(
            (cracked, unpaired),
            (0, 0),
            "DIVISIONS {divisions}: {total} vertices"
        );
    }
    // A text without DIVISIONS (agkit's default, 32).
    let text = ortho_mesh_text(41, 8, 3).replace("DIVISIONS 8\n", "");
    let (m, back) = built(&text);
    assert_eq!(cracks(&m, &back, 1e-3).0, 0);
}

/// Patch pools are single cells of DIVISIONS (DSFTool's), never boxes of
/// two: the issue saw pools spanning two divisions where the text asked
/// for 8.
#[test]
fn patch_pools_are_single_cells_of_the_divisions_asked_for() {
    let (m, _) = built(&ortho_mesh_text(61, 8, 11));
    let bytes = dsf::build(
        &m,
        &BuildOptions {
            divisions: 8,
            group: true,
            strip: true,
        },
    )
    .unwrap();
    let d = dsf::read(&bytes).unwrap();
    assert!(!d.pools.is_empty());
    for p in &d.pools {
        assert_eq!(
            p.planes[0].scale, 0.125,
            "lon plane of a pool: {:?}",
            p.planes[0].scale
        );
        assert_eq!(p.planes[1].scale, 0.125);
    }
}

/// A base mesh DSFTool wrote keeps its normals exactly: values on
/// DSFTool's -1..1 grid (as its text prints them) stay on it, and a vertex
/// shared by two pools keeps one normal.
#[test]
fn normals_on_dsftools_grid_come_back_exactly_and_once() {
    let mut text = String::new();
    for line in ortho_mesh_text(41, 8, 5).lines() {
        match line.strip_prefix("PATCH_VERTEX ") {
            Some(rest) => {
                let v: Vec<f64> = rest.split(' ').map(|x| x.parse().unwrap()).collect();
                // Normals snapped to DSFTool's grid: -1 + raw * 2 / 65535.
                let snap = |x: f64| -1.0 + ((x + 1.0) * 65535.0 / 2.0).round() * 2.0 / 65535.0;
                text += &format!(
                    "PATCH_VERTEX {:.9} {:.9} {:.9} {:.9} {:.9}\n",
                    v[0],
                    v[1],
                    v[2],
                    snap(v[3]),
                    snap(v[4])
                );
            }
            None => text += &format!("{line}\n"),
        }
    }
    let (m, back) = built(&text);
    // The vertex's place in the 41 × 41 grid.
    let grid = |v: &[f64]| {
        (
            ((v[0] - 13.0) * 40.0).round() as i64,
            ((v[1] - 47.0) * 40.0).round() as i64,
        )
    };
    let want: std::collections::HashMap<(i64, i64), (f64, f64)> = m
        .patches()
        .flat_map(|p| {
            p.primitives
                .iter()
                .flat_map(move |pr| pr.vertices.chunks_exact(p.depth))
        })
        .map(|v| (grid(v), (v[3], v[4])))
        .collect();
    let mut n = 0;
    for p in back.patches() {
        for v in p
            .primitives
            .iter()
            .flat_map(|pr| pr.vertices.chunks_exact(p.depth))
        {
            let (nx, nz) = want[&grid(v)];
            assert!(
                (v[3] - nx).abs() < 1e-9 && (v[4] - nz).abs() < 1e-9,
                "{v:?}"
            );
            n += 1;
        }
    }
    assert!(n > 0);
}
