//! A busy tile placed with its art and without (issue 27: with art within
//! 1.5× of without).
//!
//! `cargo bench --bench art`: writes into a temporary folder a package
//! holding the art fixtures of `tests/fixtures/placeart` (an AGP with
//! objects, facades, a tree and a tree line; an AGS whose fill follows a
//! forest of two layers) and one DSF placing the AGP at `POINTS` points and
//! the AGS over `POLYGONS` squares of 200 m; then places that tile as
//! `agkit place --dsf` does ([`Scenery::place_tile`]), with a fresh scenery
//! per run so that every run reads the art once, as one command does:
//! with art (`Scenery::with_art(true)`: footprints, facade heights, trees
//! from the forest) and without (`--no-art`). Each figure is the best of
//! `REPEATS` runs of this thread's CPU time (the machine is shared); the bench exits 1
//! when the ratio passes `TARGET`.
//!
//! Then (issue 34) a tile of 1,000 uses (`SMALL_POINTS` AGP and
//! `POLYGONS` AGS uses) placed with art is written as one glTF scene
//! (`.glb`: every facade built panel by panel with its roof, every object
//! and tree meshed) and as its placement JSON; the bench exits 1 when the
//! glTF takes more than `GLTF_TARGET` times the JSON.

use agkit::place::Params;
use agkit::scenery::Scenery;
use std::path::Path;
use std::time::{Duration, Instant};

const REPEATS: usize = 5;
/// AGP uses on the tile.
const POINTS: usize = 2000;
/// AGS uses on the tile.
const POLYGONS: usize = 200;
/// The largest time with art, as a multiple of the time without.
const TARGET: f64 = 1.5;
/// AGP uses on the 1,000-use tile written as glTF and JSON.
const SMALL_POINTS: usize = 800;
/// The largest time of the glTF, as a multiple of the JSON's.
const GLTF_TARGET: f64 = 2.0;

/// CPU time of this thread, to the nanosecond (the scheduler's own count,
/// `/proc/thread-self/schedstat`), where it can be read.
fn cpu_now() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    Some(Duration::from_nanos(
        stat.split_whitespace().next()?.parse().ok()?,
    ))
}

/// The best of `REPEATS` runs of `f`: CPU time when it can be read (the
/// machine is shared: other work does not count), else wall time.
fn best(mut f: impl FnMut()) -> Duration {
    (0..REPEATS)
        .map(|_| {
            let (c0, t0) = (cpu_now(), Instant::now());
            f();
            let wall = t0.elapsed();
            match (c0, cpu_now()) {
                (Some(a), Some(b)) => b - a,
                _ => wall,
            }
        })
        .min()
        .unwrap()
}

/// The package: the fixtures under `autogen/`, their textures under
/// `art/`, and the busy tile.
fn package(dir: &Path, points: usize) -> std::path::PathBuf {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    for (from, to) in [("placeart", "autogen"), ("art", "art")] {
        std::fs::create_dir_all(dir.join(to)).unwrap();
        for e in std::fs::read_dir(fixtures.join(from)).unwrap() {
            let e = e.unwrap();
            if e.file_type().unwrap().is_file() {
                std::fs::copy(e.path(), dir.join(to).join(e.file_name())).unwrap();
            }
        }
    }
    let mut text = String::from(
        "I\n800 written by agkit\nDSF2TEXT\n\nDIVISIONS 32\nPROPERTY sim/west 13\n\
         PROPERTY sim/south 47\nPROPERTY sim/east 14\nPROPERTY sim/north 48\n\
         PROPERTY sim/overlay 1\nOBJECT_DEF autogen/village.agp\n\
         POLYGON_DEF autogen/park.ags\n",
    );
    // Points on a 50 × 40 grid 0.004° apart; squares of 200 m (0.0018°
    // of latitude, 0.0027° of longitude) on a 20 × 10 grid 0.03° apart.
    for i in 0..points {
        let (lon, lat) = (
            13.05 + (i % 50) as f64 * 0.004,
            47.05 + (i / 50) as f64 * 0.004,
        );
        text.push_str(&format!(
            "OBJECT 0 {lon:.9} {lat:.9} {:.3}\n",
            (i * 37 % 360) as f64
        ));
    }
    for i in 0..POLYGONS {
        let (lon, lat) = (13.3 + (i % 20) as f64 * 0.03, 47.3 + (i / 20) as f64 * 0.03);
        let (dx, dy) = (0.0027, 0.0018);
        text.push_str(&format!(
            "BEGIN_POLYGON 0 1 2\nBEGIN_WINDING\nPOLYGON_POINT {lon:.9} {lat:.9}\n\
             POLYGON_POINT {:.9} {lat:.9}\nPOLYGON_POINT {:.9} {:.9}\n\
             POLYGON_POINT {lon:.9} {:.9}\nEND_WINDING\nEND_POLYGON\n",
            lon + dx,
            lon + dx,
            lat + dy,
            lat + dy
        ));
    }
    let (dsf, opts) = agkit::dsf::from_text(&text, &mut |_| Err("no rasters".into())).unwrap();
    let file = dir.join(format!("Earth nav data/+40+010/+47+013-{points}.dsf"));
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, agkit::dsf::build(&dsf, &opts).unwrap()).unwrap();
    file
}

fn main() {
    let dir = tempfile::tempdir().unwrap();
    let tile = package(dir.path(), POINTS);
    let params = Params::default();
    let place = |art: bool| {
        let scenery = Scenery::without_libraries(Default::default()).with_art(art);
        scenery.place_tile(&tile, &params).unwrap()
    };
    let (plain, with) = (place(false), place(true));
    let count = |t: &agkit::place::TilePlacement| {
        t.placements.iter().fold([0usize; 3], |[o, f, tr], p| {
            [o + p.objects.len(), f + p.facades.len(), tr + p.trees.len()]
        })
    };
    let [o, f, t] = count(&with);
    let footprints: usize = with
        .placements
        .iter()
        .map(|p| p.objects.iter().filter(|o| !o.footprint.is_empty()).count())
        .sum();
    let [po, pf, pt] = count(&plain);
    println!(
        "busy tile: {POINTS} AGP + {POLYGONS} AGS uses; with art {o} objects ({footprints} with a \
         footprint), {f} facades, {t} trees; without {po} objects, {pf} facades, {pt} trees"
    );
    let without = best(|| {
        std::hint::black_box(place(false));
    });
    let art = best(|| {
        std::hint::black_box(place(true));
    });
    let ratio = art.as_secs_f64() / without.as_secs_f64();
    println!(
        "place --dsf busy tile: without art {:.1} ms, with art {:.1} ms: {ratio:.2}× \
         (target ≤ {TARGET}×)",
        without.as_secs_f64() * 1e3,
        art.as_secs_f64() * 1e3
    );
    let gltf_ratio = gltf_against_json(dir.path());
    if ratio > TARGET {
        eprintln!("the busy tile with art takes {ratio:.2}× its time without (> {TARGET}×)");
        std::process::exit(1);
    }
    if gltf_ratio > GLTF_TARGET {
        eprintln!(
            "the glTF of the 1,000-use tile takes {gltf_ratio:.2}× its JSON (> {GLTF_TARGET}×)"
        );
        std::process::exit(1);
    }
}

/// The 1,000-use tile, placed with art once, written as `.glb` and as
/// JSON (all placements in one document, as `place --dsf -o` writes
/// them): the glTF's time as a multiple of the JSON's.
fn gltf_against_json(dir: &Path) -> f64 {
    use agkit::out::{Format, Grouping, RenderOptions};
    let tile = package(dir, SMALL_POINTS);
    let scenery = Scenery::without_libraries(Default::default()).with_art(true);
    let placed = scenery.place_tile(&tile, &Params::default()).unwrap();
    let uses = placed.placements.len();
    let [o, f, t] = placed.placements.iter().fold([0usize; 3], |[o, f, t], p| {
        [o + p.objects.len(), f + p.facades.len(), t + p.trees.len()]
    });
    let write = |format: Format| {
        let mut opts = RenderOptions::new(format);
        opts.grouping = Grouping::Combined;
        agkit::out::render(&placed.placements, &opts).unwrap()
    };
    let (json, glb) = (write(Format::Json), write(Format::Glb));
    let json_time = best(|| {
        std::hint::black_box(write(Format::Json));
    });
    let glb_time = best(|| {
        std::hint::black_box(write(Format::Glb));
    });
    let ratio = glb_time.as_secs_f64() / json_time.as_secs_f64();
    println!(
        "1,000-use tile ({uses} placements: {o} objects, {f} facades, {t} trees): JSON {:.1} ms ({:.1} MB), glTF {:.1} ms ({:.1} MB): \
         {ratio:.2}× (target ≤ {GLTF_TARGET}×)",
        json_time.as_secs_f64() * 1e3,
        json.bytes.len() as f64 / 1e6,
        glb_time.as_secs_f64() * 1e3,
        glb.bytes.len() as f64 / 1e6,
    );
    ratio
}
