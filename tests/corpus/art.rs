//! Real art: every OBJ8 object, facade, forest, DDS and PNG the manifest
//! lists reads without an error (or with the code its manifest note
//! names), object bounds agree with a scan of the file's `VT` lines done
//! here, footprints lie inside the bounds, and every texture's size agrees
//! with its header's bytes read here.

use super::support::{self, Row};
use agkit::check::{ArtKind, ArtSummary, check_art, summarize_art};
use agkit::diag::Diagnostic;
use agkit::limits::Limits;
use agkit::obj::Select;

/// The diagnostic codes a manifest note names (`OBJ0005`, `TEX0003`, …).
fn noted_codes(row: &Row) -> Vec<String> {
    row.note
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| {
            ["OBJ", "FAC", "FOR", "TEX"].iter().any(|p| {
                w.starts_with(p) && w.len() == 7 && w[3..].bytes().all(|b| b.is_ascii_digit())
            })
        })
        .map(str::to_string)
        .collect()
}

fn kind(format: &str) -> ArtKind {
    match format {
        "obj" => ArtKind::Object,
        "fac" => ArtKind::Facade,
        "for" => ArtKind::Forest,
        _ => ArtKind::Texture,
    }
}

#[test]
fn every_art_file_reads_without_an_error_or_with_the_noted_one() {
    let rows = support::nonempty(
        support::rows_of(&["obj", "fac", "for", "dds", "png"]),
        "art",
    );
    let mut failures = Vec::new();
    for row in &rows {
        let bytes = std::fs::read(&row.path).unwrap_or_else(|e| panic!("{}: {e}", row.rel));
        let (_, diags) = check_art(kind(&row.format.to_ascii_lowercase()), &bytes);
        let errors: Vec<&Diagnostic> = diags.iter().filter(|d| d.is_error()).collect();
        let noted = noted_codes(row);
        let ok = if noted.is_empty() {
            errors.is_empty()
        } else {
            noted.iter().all(|c| diags.iter().any(|d| &d.code == c))
                && errors.iter().all(|d| noted.iter().any(|c| d.code == *c))
        };
        if !ok {
            failures.push(format!("{} (note {:?}): {errors:?}", row.rel, row.note));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} files:\n{}",
        failures.len(),
        rows.len(),
        failures.join("\n")
    );
}

/// The box of every `VT` line's x y z, read here word by word.
fn scan_vt(text: &str) -> Option<([f64; 3], [f64; 3])> {
    let mut b: Option<([f64; 3], [f64; 3])> = None;
    for line in text.split(['\n', '\r']) {
        let mut w = line.split_whitespace();
        if w.next() != Some("VT") {
            continue;
        }
        let p: Vec<f64> = w.take(3).map(|x| x.parse().unwrap()).collect();
        let (lo, hi) = b.get_or_insert(([p[0], p[1], p[2]], [p[0], p[1], p[2]]));
        for i in 0..3 {
            lo[i] = lo[i].min(p[i]);
            hi[i] = hi[i].max(p[i]);
        }
    }
    b
}

#[test]
fn object_bounds_agree_with_a_scan_of_the_vt_lines() {
    let lim = Limits::default();
    let mut with_triangles = 0;
    for row in support::nonempty(support::rows_of(&["obj"]), "obj") {
        let bytes = std::fs::read(&row.path).unwrap();
        let c = agkit::obj::check(&bytes, &lim);
        let o = c.value.unwrap_or_else(|| panic!("{}: no model", row.rel));
        let scan = scan_vt(&String::from_utf8_lossy(&bytes));
        // Every vertex, as the file's VT lines give them.
        let all = agkit::geom::Box3::of(o.vertices.iter().map(|v| v.position));
        assert_eq!(all.map(|b| (b.min, b.max)), scan, "{}", row.rel);
        // At rest (the coordinates as written) the box lies within the
        // VT lines' box; posed, it moves with the animations (checked in
        // `built.rs`).
        let Some(b) = o.rest_bounds() else {
            assert_eq!(o.triangle_count(Select::All), 0, "{}", row.rel);
            continue;
        };
        let posed = o.bounds().unwrap();
        with_triangles += 1;
        let (lo, hi) = scan.unwrap();
        for i in 0..3 {
            assert!(
                lo[i] <= b.min[i] && b.max[i] <= hi[i],
                "{}: {b:?} outside {lo:?} {hi:?}",
                row.rel
            );
        }
        for p in o.footprint() {
            assert!(
                posed.contains([p[0], posed.min[1], p[1]], 1e-9),
                "{}: {p:?} outside {posed:?}",
                row.rel
            );
        }
        if let Some(h) = o.height() {
            assert!(h <= posed.max[1], "{}", row.rel);
        }
        // What `agkit info` prints: bounds and a footprint for every object
        // with solid triangles.
        let ArtSummary::Obj(s) = summarize_art(ArtKind::Object, &bytes).unwrap() else {
            panic!("{}", row.rel)
        };
        assert_eq!(s.bounds, Some(posed));
        assert_eq!(s.rest_bounds, Some(b));
        assert_eq!(
            s.footprint.is_empty(),
            o.triangle_count(Select::Solid) == 0,
            "{}",
            row.rel
        );
    }
    assert!(with_triangles > 0, "no real object has triangles");
}

/// Width and height from a texture's header bytes, read here.
fn header_size(bytes: &[u8]) -> (u32, u32) {
    let be = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    let le = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    if bytes.starts_with(b"\x89PNG") {
        assert_eq!(&bytes[12..16], b"IHDR");
        (be(16), be(20))
    } else {
        assert!(bytes.starts_with(b"DDS "));
        (le(16), le(12))
    }
}

#[test]
fn texture_sizes_agree_with_their_header_bytes() {
    let lim = Limits::default();
    for row in support::nonempty(support::rows_of(&["dds", "png"]), "texture") {
        let bytes = std::fs::read(&row.path).unwrap();
        let (w, h) = header_size(&bytes);
        let info = agkit::texture::probe(&bytes).unwrap_or_else(|e| panic!("{}: {e}", row.rel));
        assert_eq!((info.width, info.height), (w, h), "{}", row.rel);
        if noted_codes(&row).is_empty() {
            let img =
                agkit::texture::decode(&bytes, &lim).unwrap_or_else(|e| panic!("{}: {e}", row.rel));
            assert_eq!((img.width, img.height), (w, h), "{}", row.rel);
            assert_eq!(img.rgba.len(), w as usize * h as usize * 4, "{}", row.rel);
        }
    }
}

#[test]
fn facades_and_forests_give_what_placement_needs() {
    let lim = Limits::default();
    for row in support::nonempty(support::rows_of(&["fac"]), "fac") {
        let f = agkit::fac::check(&std::fs::read(&row.path).unwrap(), &lim)
            .value
            .unwrap_or_else(|| panic!("{}", row.rel));
        if let Some(h) = f.height_range() {
            assert!(
                h.min.is_finite() && h.max.is_none_or(|m| m >= h.min),
                "{}: {h:?}",
                row.rel
            );
        }
        if let Some(t) = f.roof_texture() {
            assert!(!t.is_empty(), "{}", row.rel);
        }
    }
    for row in support::nonempty(support::rows_of(&["for"]), "for") {
        let f = agkit::forest::check(&std::fs::read(&row.path).unwrap(), &lim)
            .value
            .unwrap_or_else(|| panic!("{}", row.rel));
        assert!(f.spacing.iter().all(|s| s.is_finite()), "{}", row.rel);
        for layer in f.layers() {
            let trees = f.layer(layer);
            assert!(!trees.is_empty());
            assert!(f.height_range(layer).is_some(), "{}", row.rel);
            if trees.iter().any(|t| t.percentage > 0.0) {
                assert_eq!(f.pick(layer, 0.5).unwrap().layer, layer);
            }
        }
    }
}
