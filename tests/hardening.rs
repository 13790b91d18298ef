//! Hardening: hostile sizes are refused before allocating, writes are
//! atomic, bulk checks keep going past bad files and report in path order,
//! and generated inputs are clean.
//!
//! Memory is measured with a counting global allocator that keeps the peak
//! of live heap bytes per thread (tests run on several threads; the readers
//! under test are single-threaded).

mod heap_support;

use heap_support::peak_of;
use std::path::Path;
use std::process::Command;

fn le(v: u32) -> [u8; 4] {
    v.to_le_bytes()
}

#[test]
fn agn_of_100_bytes_claiming_a_4_gb_chunk_is_refused_without_allocating() {
    let mut b = Vec::new();
    b.extend_from_slice(b"RIFF");
    b.extend_from_slice(&le(92));
    b.extend_from_slice(b"AGNX");
    b.extend_from_slice(b"GBLD");
    b.extend_from_slice(&le(0xFFFF_FFF0));
    b.extend_from_slice(b"GBLR");
    b.extend_from_slice(&le(0xFFFF_FF00));
    b.resize(100, 0);
    let (r, peak) = peak_of(|| agkit::agn::read(&b));
    let e = r.expect_err("a 4 GB chunk in 100 bytes must be refused");
    assert!(e.offset < 100, "{e}");
    assert!(
        peak < 64 * 1024,
        "peak heap {peak} bytes for a 100-byte file"
    );
    let (d, peak) = peak_of(|| agkit::agn::check_bytes(&b));
    assert!(d.iter().any(|d| d.is_error()));
    assert!(peak < 64 * 1024, "check peak heap {peak} bytes");
}

#[test]
fn agn_polygon_claiming_2_pow_31_vertices_is_refused_without_allocating() {
    let g = agkit::agn::Agn {
        chunks: vec![agkit::agn::Chunk::Preg(agkit::agn::Group {
            children: vec![agkit::agn::Chunk::Prde(agkit::agn::Prde {
                vegetation: agkit::agn::Guid::default(),
                polygons: vec![vec![[0.1, 0.1], [0.2, 0.1], [0.2, 0.2], [0.1, 0.1]]],
            })],
        })],
    };
    let mut b = agkit::agn::write(&g).unwrap();
    // The vertex count is the first i32 after the 16-byte GUID.
    let at = b.windows(4).position(|w| w == b"PRDE").unwrap() + 8 + 16;
    b[at..at + 4].copy_from_slice(&0x7FFF_FFFFu32.to_le_bytes());
    let (r, peak) = peak_of(|| agkit::agn::read(&b));
    assert!(r.is_err());
    assert!(peak < 64 * 1024, "peak heap {peak} bytes");
}

/// A small valid DSF (one AGB polygon) from the generator.
fn small_dsf() -> Vec<u8> {
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    let dsf = agkit::r#gen::dsf_tile(&mut rng, 47, 8, 2);
    agkit::dsf::build(&dsf, &agkit::dsf::BuildOptions::default()).unwrap()
}

#[test]
fn dsf_claiming_a_pool_of_2_pow_32_points_is_refused_without_allocating() {
    let mut b = small_dsf();
    assert!(agkit::dsf::read(&b).is_ok());
    // Atom ids are stored as little-endian u32, so `POOL` reads `LOOP`.
    let at = b
        .windows(4)
        .position(|w| w == b"LOOP")
        .expect("a POOL atom")
        + 8;
    b[at..at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    let (r, peak) = peak_of(|| agkit::dsf::read(&b));
    let e = r.expect_err("2^32 points in a few hundred bytes must be refused");
    assert!(e.to_string().contains("points"), "{e}");
    assert!(
        peak < 16 * b.len() + 64 * 1024,
        "peak heap {peak} bytes for a {}-byte file",
        b.len()
    );
}

#[test]
fn dsf_atom_claiming_4_gb_is_refused_without_allocating() {
    let mut b = small_dsf();
    // The first atom's length follows its id at byte 12.
    b[16..20].copy_from_slice(&0xFFFF_FFF0u32.to_le_bytes());
    let (r, peak) = peak_of(|| agkit::dsf::check_bytes(&b));
    assert!(r.iter().any(|d| d.is_error()), "{r:?}");
    assert!(peak < 16 * b.len() + 64 * 1024, "peak heap {peak}");
}

#[test]
fn text_line_of_one_million_tokens_stays_proportional_to_the_input() {
    let mut src = String::from("A\n1000\nAG_POINT\n\nTEXTURE_SCALE");
    for _ in 0..1_000_000 {
        src.push_str(" 7");
    }
    src.push('\n');
    let (diags, peak) = peak_of(|| agkit::xp::check(&src));
    assert!(
        diags.iter().any(|d| d.is_error()),
        "1M arguments must be an error"
    );
    eprintln!(
        "1M-token line: input {} bytes, peak heap {} bytes ({:.1}x)",
        src.len(),
        peak,
        peak as f64 / src.len() as f64
    );
    assert!(
        peak < 40 * src.len(),
        "peak heap {peak} bytes for {} input bytes",
        src.len()
    );
}

#[test]
fn write_atomic_failure_keeps_the_old_target_and_leaves_no_temp_file() {
    let dir = tempfile::tempdir().unwrap();
    // The target is a non-empty directory: the final rename must fail.
    let target = dir.path().join("out.agb");
    std::fs::create_dir(&target).unwrap();
    std::fs::write(target.join("keep"), b"old").unwrap();
    let e = agkit::fsutil::write_atomic(&target, b"new content");
    assert!(e.is_err(), "renaming a file over a directory must fail");
    assert_eq!(std::fs::read(target.join("keep")).unwrap(), b"old");
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        left,
        vec![std::ffi::OsString::from("out.agb")],
        "temp files left"
    );
}

#[test]
fn write_atomic_into_a_missing_directory_fails_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("no/such/dir/out.agn");
    assert!(agkit::fsutil::write_atomic(&target, b"x").is_err());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn write_atomic_replaces_whole_files_only() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("a.agp");
    std::fs::write(&p, b"old old old").unwrap();
    agkit::fsutil::write_atomic(&p, b"new").unwrap();
    assert_eq!(std::fs::read(&p).unwrap(), b"new");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn cli_modules_write_outputs_only_through_write_atomic() {
    let cli = concat!(env!("CARGO_MANIFEST_DIR"), "/src/cli");
    let files: Vec<std::path::PathBuf> = walkdir::WalkDir::new(cli)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .collect();
    assert!(files.len() > 10, "{files:?}");
    for p in files {
        let text = std::fs::read_to_string(&p).unwrap();
        for bad in ["fs::write(", "File::create(", "OpenOptions::new("] {
            assert!(
                !text.contains(bad),
                "{} writes with {bad} instead of agkit::fsutil::write_atomic",
                p.display()
            );
        }
    }
}

fn agkit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_agkit"))
}

fn generate_small(dir: &Path) -> agkit::r#gen::Summary {
    agkit::r#gen::generate(1, dir, agkit::r#gen::Scale::Small).unwrap()
}

#[test]
fn generated_small_set_is_clean_and_deterministic() {
    let a = tempfile::tempdir().unwrap();
    let s = generate_small(a.path());
    assert!(s.text_files >= 60 && s.text_bytes > 1_000_000, "{s:?}");
    assert!(s.dsf_files >= 5 && s.agn_files >= 200, "{s:?}");
    // Every generated file parses without errors or warnings, and the art
    // the assets name is written beside them (issue 48 item 4).
    assert!(s.art_files >= 20, "{s:?}");
    let o = agkit()
        .args(["check", "--format", "json"])
        .arg(a.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let json: Vec<serde_json::Value> = serde_json::from_slice(&o.stdout).unwrap();
    assert!(
        json.is_empty(),
        "generated inputs have diagnostics: {json:?}"
    );
    let stderr = String::from_utf8_lossy(&o.stderr);
    let n = s.text_files + s.art_files + s.dsf_files + s.agn_files;
    assert!(
        stderr.contains(&format!("checked {n} files: 0 errors")),
        "{stderr}"
    );
    // Text files parse into models too, and DSF tiles list their autogen.
    for e in walkdir::WalkDir::new(a.path()) {
        let e = e.unwrap();
        let p = e.path();
        match p.extension().and_then(|x| x.to_str()) {
            Some("agp" | "agb" | "ags") => {
                let t = std::fs::read_to_string(p).unwrap();
                agkit::xp::parse(&t).unwrap_or_else(|d| panic!("{}: {d:?}", p.display()));
            }
            Some("dsf") => {
                let d = agkit::dsf::read(&std::fs::read(p).unwrap()).unwrap();
                assert!(agkit::dsf::autogen_uses(&d).len() >= 100);
            }
            Some("agn") => {
                let b = std::fs::read(p).unwrap();
                let m = agkit::agn::read(&b).unwrap();
                assert_eq!(agkit::agn::write(&m).unwrap(), b);
            }
            _ => {}
        }
    }
    // Same seed, same bytes.
    let b = tempfile::tempdir().unwrap();
    assert_eq!(generate_small(b.path()), s);
    for sub in ["text/agb/block_00007.agb", "dsf/+40-005.dsf", "agn"] {
        let (x, y) = (a.path().join(sub), b.path().join(sub));
        if x.is_file() {
            assert_eq!(
                std::fs::read(&x).unwrap(),
                std::fs::read(&y).unwrap(),
                "{sub}"
            );
        }
    }
}

#[test]
fn bulk_check_reports_bad_files_in_path_order_and_keeps_going() {
    let d = tempfile::tempdir().unwrap();
    let ok = agkit::r#gen::POINT_EXAMPLE;
    for i in 0..40 {
        std::fs::write(d.path().join(format!("f{i:02}.agp")), ok).unwrap();
    }
    std::fs::write(d.path().join("f13.agp"), "A\n1000\nAG_POINT\nTILE 0 0\n").unwrap();
    std::fs::write(d.path().join("f31.agn"), b"RIFF\xff\xff\xff\x7fAGNX").unwrap();
    std::fs::write(d.path().join("f07.dsf"), b"XPLNEDSF\x01\x00\x00\x00").unwrap();
    let run = |threads: &str| {
        agkit()
            .env("RAYON_NUM_THREADS", threads)
            .args(["check", "--format", "json"])
            .arg(d.path())
            .output()
            .unwrap()
    };
    let one = run("1");
    let two = run("2");
    assert_eq!(one.status.code(), Some(1));
    assert_eq!(one.stdout, two.stdout, "output depends on the thread count");
    let json: serde_json::Value = serde_json::from_slice(&two.stdout).unwrap();
    let files: Vec<String> = json
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            d["file"]
                .as_str()
                .unwrap()
                .rsplit('/')
                .next()
                .unwrap()
                .to_string()
        })
        .collect();
    let mut sorted = files.clone();
    sorted.sort();
    assert_eq!(files, sorted);
    for bad in ["f07.dsf", "f13.agp", "f31.agn"] {
        assert!(
            files.iter().any(|f| f == bad),
            "{bad} missing from {files:?}"
        );
    }
    let stderr = String::from_utf8_lossy(&two.stderr);
    assert!(stderr.contains("checked 42 files"), "{stderr}");
    assert!(stderr.contains("(3 files failed)"), "{stderr}");
    // Piped stderr: no progress bar drawing.
    assert!(
        !stderr.contains('\r') && !stderr.contains("\x1b["),
        "{stderr:?}"
    );
    // Human output: same order, one report per bad file.
    let h = agkit().arg("check").arg(d.path()).output().unwrap();
    let out = String::from_utf8_lossy(&h.stdout);
    let pos = |n: &str| out.find(n).unwrap_or_else(|| panic!("{n} not in {out}"));
    assert!(pos("f07.dsf") < pos("f13.agp") && pos("f13.agp") < pos("f31.agn"));
}

#[test]
fn bulk_check_of_an_unreadable_file_still_checks_the_rest() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("a.agp"), agkit::r#gen::POINT_EXAMPLE).unwrap();
    // A dangling symlink with a known extension cannot be read.
    std::os::unix::fs::symlink(d.path().join("gone"), d.path().join("b.agb")).unwrap();
    std::fs::write(d.path().join("c.agp"), "A\n1000\nAG_POINT\nBOGUS 1\n").unwrap();
    let o = agkit().arg("check").arg(d.path()).output().unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stdout.contains("c.agp"), "{stdout}");
    // The symlink is not a regular file, so walkdir skips it or reading it
    // fails; either way the other files were checked.
    assert!(stderr.contains("checked"), "{stderr}");
    assert_ne!(o.status.code(), Some(0));
}

// Hostile repetition. Each input below is large enough that the quadratic
// loops these files once hit (a search over every earlier annotation or
// spelling per line) would run for minutes; linear, each checks in well
// under a second. The assertions are on what is reported, not on time.

const AGB_GRID: &str = "A\n1000\nAG_BLOCK\nTEXTURE_SCALE 1024 1024\nTEXTURE_WIDTH 10\nOBJECT a.obj\nCUT_H 0\nCUT_H 10\nCUT_V 0\nCUT_V 10\nEND_CUTS\n";

fn codes(diags: &[agkit::diag::Diagnostic], code: &str) -> usize {
    diags.iter().filter(|d| d.code == code).count()
}

#[test]
fn two_hundred_thousand_formulas_then_annotations_check_in_linear_time() {
    let n = 200_000;
    let mut src = String::from(AGB_GRID);
    src.push_str(&"GROUND_PT_FORMULA 1 0 1 0\n".repeat(n));
    src.push_str(&"OBJ_DRAPED 1 1 0 0\nGROUND_PT_FORMULA 1 0 1 0\n".repeat(n));
    src.push_str("SPELLING_SET 0\nSPELLING_T 0\nSPELLING_S 0\n");
    let (asset, diags) = agkit::xp::parse_lenient(&src);
    let grid = &asset.expect("an AGB").block.expect("block").grids[0];
    assert_eq!(grid.annotations.len(), 3 * n);
    // Only the formulas before the first object have nothing to apply to
    // (capped at the per-file limit).
    assert_eq!(
        codes(&diags, "AG0059"),
        agkit::xp::parse::MAX_DIAGNOSTICS.min(n)
    );
    let first_object = src.find("OBJ_DRAPED").expect("an object");
    assert!(
        diags.iter().filter(|d| d.code == "AG0059").all(
            |d| matches!(&d.location, agkit::diag::Location::Span(r) if r.start < first_object)
        )
    );
}

#[test]
fn two_hundred_thousand_named_spellings_resolve_in_linear_time() {
    let n = 200_000;
    let mut src = String::from(AGB_GRID);
    for i in 0..n {
        src.push_str(&format!("DEFINE_SPELLING_S n{i} {}\n", i % 2));
    }
    // A redefinition: the first definition stays in force.
    src.push_str("DEFINE_SPELLING_S n7 0\n");
    src.push_str("SPELLING_SET 0\nSPELLING_T 0\n");
    for i in (0..n).rev() {
        src.push_str(&format!("USE_SPELLING_S n{i}\n"));
    }
    src.push_str("USE_SPELLING_S nowhere\n");
    let (asset, diags) = agkit::xp::parse_lenient(&src);
    let b = asset.expect("an AGB").block.expect("block");
    let uses = &b.spelling_sets[0].spellings_s;
    assert_eq!(uses.len(), n + 1);
    // Every use got the indices of its (first) definition.
    for (k, u) in uses[..n].iter().enumerate() {
        let i = n - 1 - k;
        assert_eq!(u.indices, vec![(i % 2) as i64], "n{i}");
    }
    assert_eq!(codes(&diags, "AG0061"), 1, "one duplicate definition");
    assert_eq!(codes(&diags, "AG0049"), 1, "one unknown name");
}

#[test]
fn two_hundred_thousand_repeats_of_one_spelling_name_warn_up_to_the_cap() {
    let n = 200_000;
    let mut src = String::from(AGB_GRID);
    src.push_str(&"DEFINE_SPELLING_S same 0\n".repeat(n));
    src.push_str("SPELLING_SET 0\nSPELLING_T 0\n");
    src.push_str(&"USE_SPELLING_S other\n".repeat(n));
    let diags = agkit::xp::check(&src);
    let cap = agkit::xp::parse::MAX_DIAGNOSTICS;
    assert_eq!(codes(&diags, "AG0061"), cap);
    assert_eq!(codes(&diags, "AG0049"), cap);
}

#[test]
fn unknown_directive_of_one_million_arguments_is_stored_once() {
    let mut src =
        String::from("A\n1000\nAG_POINT\nTEXTURE_SCALE 8 8\nTEXTURE_WIDTH 8\nTILE 0 0 8 8\nFOO");
    for _ in 0..1_000_000 {
        src.push_str(" 7");
    }
    src.push('\n');
    let (parsed, peak) = peak_of(|| agkit::xp::parse_lenient(&src));
    let unknown = &parsed.0.expect("an AGP").unknown[0];
    assert_eq!(unknown.keyword, "FOO");
    assert_eq!(unknown.arg_list().count(), 1_000_000);
    assert_eq!(unknown.args.len(), 2 * 1_000_000 - 1);
    // The document's copy of the text, the token buffer of the line (24
    // bytes a token, up to twice that while it grows) and the joined
    // arguments: about 16 times the input. A `String` per argument added
    // another 40 bytes or more a token (over 20 times the input) on top.
    assert!(
        peak < 20 * src.len(),
        "peak heap {peak} bytes for {} input bytes",
        src.len()
    );
}

#[test]
fn one_thousand_errors_on_a_line_of_a_million_tokens_render_without_quoting_it() {
    let mut src =
        String::from("A\n1000\nAG_STRING\nTEXTURE_SCALE 8 8\nTEXTURE_WIDTH 8\nTILE 0 0 8 8\nCAPS");
    for _ in 0..1_000_000 {
        src.push_str(" x");
    }
    src.push('\n');
    let diags = agkit::xp::check(&src);
    let cap = agkit::xp::parse::MAX_DIAGNOSTICS;
    assert_eq!(codes(&diags, "AG0006"), cap);
    let human = agkit::diag::render_human("f.ags", Some(&src), &diags);
    assert!(human.len() < 200 * diags.len(), "{} bytes", human.len());
    assert!(
        human.contains("--> f.ags:7:6 (a line of"),
        "{}",
        &human[..400]
    );
    let json = agkit::diag::to_json("f.ags", Some(&src), &diags);
    let cols: Vec<_> = json
        .iter()
        .filter(|j| j.code == "AG0006")
        .map(|j| (j.line, j.column))
        .collect();
    assert_eq!(cols[0], (Some(7), Some(6)));
    assert_eq!(cols[1], (Some(7), Some(8)));
    assert_eq!(cols[cap - 1], (Some(7), Some(6 + 2 * (cap - 1))));
}

/// `agkit place` with the bundled scenery package.
fn place(args: &[&std::ffi::OsStr]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_agkit"))
        .arg("place")
        .args(args)
        .args(["--scenery", "examples"])
        .output()
        .unwrap()
}

#[test]
fn place_over_a_tree_of_tiles_streams_every_tile_and_survives_a_bad_one() {
    let demo = Path::new("examples/dsf/autogen_demo.dsf");
    let dir = tempfile::tempdir().unwrap();
    for sub in ["a", "b/c"] {
        std::fs::create_dir_all(dir.path().join(sub)).unwrap();
        std::fs::copy(demo, dir.path().join(sub).join("+47+013.dsf")).unwrap();
    }
    std::fs::write(dir.path().join("b/bad.dsf"), b"XPLNEDSF\x01\0\0\0junk").unwrap();
    let one = |format: &str| {
        let o = place(&[
            "--dsf".as_ref(),
            demo.as_os_str(),
            "--format".as_ref(),
            format.as_ref(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap()
    };
    let many = |format: &str, out: &Path| {
        place(&[
            "--dsf".as_ref(),
            dir.path().as_os_str(),
            "--format".as_ref(),
            format.as_ref(),
            "-o".as_ref(),
            out.as_os_str(),
        ])
    };

    // JSON: the placements of both good tiles, in path order, each equal to
    // the single-tile run; the bad tile is reported and skipped, exit 1.
    let out = dir.path().join("all.json");
    let o = many("json", &out);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("bad.dsf"), "{err}");
    assert!(
        err.contains("from 3 tiles") && err.contains("1 tile with errors"),
        "{err}"
    );
    let single = one("json");
    let single = single.as_array().unwrap();
    assert!(!single.is_empty());
    let all: serde_json::Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    let all = all.as_array().unwrap();
    assert_eq!(all.len(), 2 * single.len());
    for (i, p) in all.iter().enumerate() {
        assert_eq!(p, &single[i % single.len()]);
    }

    // GeoJSON: one collection, placement numbers running on across tiles.
    let out = dir.path().join("all.geojson");
    let o = many("geojson", &out);
    assert_eq!(o.status.code(), Some(1));
    let single = one("geojson");
    let single = single["features"].as_array().unwrap();
    let all: serde_json::Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(all["type"], "FeatureCollection");
    let all = all["features"].as_array().unwrap();
    assert_eq!(all.len(), 2 * single.len());
    let uses = single
        .iter()
        .filter_map(|f| f["properties"]["placement"].as_u64())
        .max()
        .unwrap()
        + 1;
    for (i, f) in all.iter().enumerate() {
        let g = &single[i % single.len()];
        assert_eq!(f["geometry"], g["geometry"]);
        let shift = if i < single.len() { 0 } else { uses };
        assert_eq!(
            f["properties"]["placement"].as_u64().unwrap(),
            g["properties"]["placement"].as_u64().unwrap() + shift
        );
    }

    // A picture of a whole tree is refused, and the old output is kept.
    let o = many("svg", &out);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot be streamed"));
    assert_eq!(
        serde_json::from_slice::<serde_json::Value>(&std::fs::read(&out).unwrap()).unwrap()
            ["features"]
            .as_array()
            .unwrap()
            .len(),
        2 * single.len()
    );
}

#[test]
fn centimetre_tiles_around_ten_kilometres_are_refused_without_allocating_them() {
    // The smallest tile the sanity rules allow (1 cm) along the sides of a
    // 9.9 km square: 3,960,000 edge tiles, more than a placement may have.
    let text = "A\n1000\nAG_STRING\nTEXTURE t.png\nTEXTURE_SCALE 1024 1024\n\
                TEXTURE_WIDTH 10.24\nHIDE_TILE\nTILE 0 0 1 8\nSPELLING 0\n";
    let asset = agkit::xp::parse(text).unwrap();
    let frame = agkit::geom::LocalFrame::new([13.0, 47.5]);
    let side = 9_900.0;
    let ring = [[0.0, 0.0], [side, 0.0], [side, side], [0.0, side]];
    let use_ = agkit::place::Use::Polygon {
        windings: vec![ring.iter().map(|&p| frame.to_lonlat(p)).collect()],
    };
    let params = agkit::place::Params::default();
    let (r, peak) = peak_of(|| agkit::place::place(&asset, "cm.ags", &use_, &params));
    match r {
        Err(agkit::place::PlaceError::Limit(l)) => {
            assert!(l.what.starts_with("edge tiles along 39600 m"), "{l:?}");
            assert!((3_959_000..=3_960_000).contains(&l.needed), "{l:?}");
        }
        other => panic!("{other:?}"),
    }
    assert!(peak < 1 << 20, "peak {peak} bytes");
}

#[test]
fn a_large_placement_answered_by_the_previewer_costs_about_its_text_once() {
    // Centimetre tiles with an object and a tree each along an 80 m
    // ring: 8,000 tiles, 24,000 items, a placement answer of ~7 MB. The
    // answer was once built as a `serde_json::Value` first, which alone
    // took six times the text.
    let dir = tempfile::tempdir().unwrap();
    let text = "A\n1000\nAG_STRING\nTEXTURE t.png\nTEXTURE_SCALE 1024 1024\n\
                TEXTURE_WIDTH 10.24\nOBJECT a.obj\nVEGETATION t.for\nTILE 0 0 1 1\n\
                OBJ_GRADED 0.5 0.5 0 0\nTREE 0.5 0.5 0 7 1\nSPELLING 0\n";
    std::fs::write(dir.path().join("cm.ags"), text).unwrap();
    let server = agkit::serve::Server::bind(&agkit::serve::Config::new(dir.path())).unwrap();
    let shared = server.shared();
    let body = r#"{"asset":"cm.ags","polygon":{"local":[[[0,0],[20,0],[20,20],[0,20]]]}}"#;
    let req = agkit::serve::http::Request {
        method: "POST".into(),
        path: "/api/place".into(),
        raw_path: "/api/place".into(),
        query: Vec::new(),
        headers: Vec::new(),
        body: body.as_bytes().to_vec(),
    };
    let (r, peak) = peak_of(|| agkit::serve::api::route(&shared, &req));
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let v: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
    let tiles = v["placement"]["tiles"].as_array().unwrap().len();
    assert!(tiles > 7_000, "{tiles}");
    let len = r.body.len();
    assert!(len > 5 << 20, "{len}");
    assert!(peak < 3 * len, "peak {peak} bytes for an answer of {len}");
}

#[test]
fn geojson_of_a_large_placement_is_written_without_holding_every_feature() {
    // 8,000 centimetre tiles with an object and a tree each: 24,000
    // features. They were once all built as values before the text was
    // written, which took over three times the text.
    let text = "A\n1000\nAG_STRING\nTEXTURE t.png\nTEXTURE_SCALE 1024 1024\n\
                TEXTURE_WIDTH 10.24\nOBJECT a.obj\nVEGETATION t.for\nTILE 0 0 1 1\n\
                OBJ_GRADED 0.5 0.5 0 0\nTREE 0.5 0.5 0 7 1\nSPELLING 0\n";
    let asset = agkit::xp::parse(text).unwrap();
    let frame = agkit::geom::LocalFrame::new([13.0, 47.5]);
    let ring = [[0.0, 0.0], [20.0, 0.0], [20.0, 20.0], [0.0, 20.0]];
    let use_ = agkit::place::Use::Polygon {
        windings: vec![ring.iter().map(|&p| frame.to_lonlat(p)).collect()],
    };
    let p = agkit::place::place(&asset, "cm.ags", &use_, &Default::default()).unwrap();
    assert!(p.items() > 20_000, "{}", p.items());
    let format = agkit::out::Format::Geojson;
    let (bytes, peak) = peak_of(|| agkit::out::render_one(&p, format).unwrap());
    let fc: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(
        fc["features"].as_array().unwrap().len(),
        p.items() + 1,
        "one per item and one for the use"
    );
    // The text, and the room it grows in.
    assert!(
        peak < 5 * bytes.len() / 2,
        "peak {peak} for {} bytes",
        bytes.len()
    );
    // A part of a streamed collection: one feature per line. Both are
    // compact now, so a part is about the whole text; it grows in no more
    // room than the whole does.
    let ps = [p];
    let (_, part_peak) = peak_of(|| agkit::out::render_part(&ps, 0, format).unwrap());
    assert!(
        part_peak < 5 * bytes.len() / 2,
        "peak {part_peak} for a part of a {}-byte text",
        bytes.len()
    );
    // Written out (as `place -o` does), neither is held whole: the same
    // bytes, for a small part of the memory.
    for format in [format, agkit::out::Format::Json] {
        let mut written = Vec::new();
        let opts = agkit::out::RenderOptions::new(format);
        agkit::out::render_to(&ps, &opts, &mut written).unwrap();
        assert_eq!(written, agkit::out::render_one(&ps[0], format).unwrap());
        let (r, peak) = peak_of(|| agkit::out::render_to(&ps, &opts, &mut std::io::sink()));
        r.unwrap();
        assert!(
            peak < written.len() / 8,
            "{format:?}: peak {peak} for {} bytes",
            written.len()
        );
    }
}

#[test]
fn overlay_warnings_without_previews_hold_one_placement_at_a_time() {
    // 200 commercial areas in one tile, each given the example's string
    // asset: the warnings are the same whether the placements are kept
    // (for a preview) or not, and not keeping them costs a fraction.
    use agkit::overlay::{self, BuildOptions, Rules};
    let gis = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/gis");
    let rules = Rules::parse(&std::fs::read_to_string(gis.join("RULES.toml")).unwrap()).unwrap();
    let features: Vec<serde_json::Value> = (0..200)
        .map(|k| {
            let (lon, lat) = (
                13.1 + 0.004 * (k % 20) as f64,
                47.5 + 0.003 * (k / 20) as f64,
            );
            let ring = [
                [0.0, 0.0],
                [0.0025, 0.0],
                [0.0025, 0.0015],
                [0.0, 0.0015],
                [0.0, 0.0],
            ]
            .map(|[x, y]| [lon + x, lat + y]);
            serde_json::json!({"type": "Feature", "properties": {"landuse": "commercial"},
                               "geometry": {"type": "Polygon", "coordinates": [ring]}})
        })
        .collect();
    let doc = serde_json::json!({"type": "FeatureCollection", "features": features});
    let features = overlay::read_features(&doc.to_string()).unwrap();
    let opts = BuildOptions {
        lenient: true,
        ..BuildOptions::default()
    };
    let built = overlay::build_overlay(&features, &rules, &opts).unwrap();
    let (assets, _) = overlay::preview::load_assets(&rules, &gis);
    let &tile = built.tiles.keys().next().unwrap();
    assert_eq!(built.tiles.len(), 1);
    let mut kept_warnings = Vec::new();
    let (kept, kept_peak) =
        peak_of(|| overlay::preview::place_tile(&built, tile, &assets, &mut kept_warnings));
    assert_eq!(kept.len(), 200);
    assert!(kept.iter().all(|p| !p.tiles.is_empty()));
    let mut warnings = Vec::new();
    let ((), peak) =
        peak_of(|| overlay::preview::tile_warnings(&built, tile, &assets, &mut warnings));
    assert_eq!(warnings, kept_warnings);
    assert!(peak * 20 < kept_peak, "{peak} bytes, {kept_peak} kept");
}
