//! Generated worst cases for the art readers and placement (issue 31),
//! shared by `tests/hostile_art.rs` (which asserts what they read to) and
//! `benches/hostile_art.rs` (which times them against a bound). Each was
//! quadratic once: a test per draw call over every level of detail, a scan
//! of the file per diagnostic, a walk over every mesh per `MESH_3D`, the
//! layer's list rebuilt per tree.
#![allow(dead_code)]

use std::fmt::Write;

/// An OBJ of one triangle drawn once in each of `n` levels of detail
/// (`ATTR_LOD` then `TRIS`): 60,000 make 1.4 MB.
pub fn many_lods(n: usize) -> String {
    let mut s = String::from(
        "I\n800\nOBJ\n\nPOINT_COUNTS 3 0 0 3\n\
         VT 0 0 0 0 1 0 0 0\nVT 1 0 0 0 1 0 1 0\nVT 0 1 0 0 1 0 0 1\n\
         IDX 0\nIDX 1\nIDX 2\n",
    );
    for i in 0..n {
        let _ = writeln!(s, "ATTR_LOD {} {}\nTRIS 0 3", i * 10, i * 10 + 10);
    }
    s
}

/// An OBJ repeating `POINT_COUNTS` `n` times (each repeat a warning that
/// names the first one's line): 40,000 make 880 KB.
pub fn repeated_point_counts(n: usize) -> String {
    let mut s = String::from("I\n800\nOBJ\n\n");
    for _ in 0..n {
        s.push_str("POINT_COUNTS 0 0 0 0\n");
    }
    s
}

/// A forest of `n` named meshes and one tree using all of them (`n`
/// `MESH` and `n` `MESH_3D` lines).
pub fn many_meshes(n: usize) -> String {
    let mut s = String::from("A\n1200\nFOREST\n\nTEXTURE trees.png\n");
    for i in 0..n {
        let _ = writeln!(s, "MESH mesh_{i} 0 500 0 0");
    }
    s.push_str("TREE 0 0 64 128 32 100 10 14 2 0 tree\n");
    for i in 0..n {
        let _ = writeln!(s, "MESH_3D mesh_{i}");
    }
    s
}

/// A forest of `rows` trees in layer 0, one metre apart (`SPACING 1 1`),
/// shares 1 % each, heights 5 to 10 m.
pub fn big_forest(rows: usize) -> String {
    let mut s =
        String::from("A\n800\nFOREST\n\nSCALE_X 256\nSCALE_Y 256\nSPACING 1 1\nRANDOM 0 0\n");
    for i in 0..rows {
        let _ = writeln!(s, "TREE 0 0 64 128 32 1 5 10 2 0 tree_{i}");
    }
    s
}

/// An AGS that fills what its one 10 m tile leaves of a polygon with
/// layer 0 of `forest` (a path beside it).
pub fn fill_string(forest: &str) -> String {
    format!(
        "A\n1000\nAG_STRING\n\nTEXTURE park.png\nTEXTURE_SCALE 1000 1000\n\
         TEXTURE_WIDTH 1000\nVEGETATION {forest}\nFILL_LAYER 0\n\n\
         TILE_ID 1\nTILE 0 0 10 10\nCORNER -180 180 1\nSPELLING 1\n"
    )
}

/// A square `side` metres wide around 13.5 E 47.5 N, as lon/lat.
pub fn square(side: f64) -> Vec<[f64; 2]> {
    let frame = agkit::geom::LocalFrame::new([13.5, 47.5]);
    let h = side / 2.0;
    [[-h, -h], [h, -h], [h, h], [-h, h]]
        .iter()
        .map(|&p| frame.to_lonlat(p))
        .collect()
}

/// A forest whose one tree is a 3-D cone of `n` triangles, 10 m tall
/// (its minimum height 8 m), planted every 4 m: 20,000 triangles at full
/// density made the 305-byte tile of issue 46.
pub fn cone_forest(n: usize) -> String {
    let mut f = String::from(
        "A\n800\nFOREST\n\nTEXTURE t.png\nSCALE_X 256\nSCALE_Y 256\nSPACING 4 4\n\
         RANDOM 0 0\n\nSHADER_3D\nTEXTURE t3.png\n",
    );
    let _ = writeln!(f, "MESH cone 0 500 {} {}", n + 1, 3 * n);
    f.push_str("VERTEX 0 10 0  0 1 0  0.5 1  0\n");
    for k in 0..n {
        let a = k as f64 / n as f64 * std::f64::consts::TAU;
        let (s, c) = a.sin_cos();
        let _ = writeln!(
            f,
            "VERTEX {:.4} 0 {:.4}  {c:.4} 0.3 {s:.4}  0.5 0  0",
            2.0 * c,
            2.0 * s
        );
    }
    for k in 0..n {
        let _ = writeln!(f, "IDX 0 {} {}", 1 + k, 1 + (k + 1) % n);
    }
    f.push_str("\nTREE 0 0 64 128 32 100 8 12 2 0 cone\nMESH_3D cone\n");
    f
}
