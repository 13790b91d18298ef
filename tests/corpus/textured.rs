//! The textured picture of an asset placing real objects (from
//! `art/` of the corpus, listed as `obj` in MANIFEST.tsv) draws each one's
//! real footprint: one footprint per object, in the same proportions and
//! at the same scale as the footprint placement gives it, which lies
//! inside the OBJ's own bounds (read separately).

use crate::support::{nonempty, rows_of};
use agkit::limits::Limits;

/// Most objects placed (the first of the manifest that have a footprint
/// at least a metre across).
const OBJECTS: usize = 6;

/// The box `[x0, y0, x1, y1]` of points.
fn bbox(points: impl Iterator<Item = [f64; 2]>) -> [f64; 4] {
    points.fold(
        [
            f64::INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NEG_INFINITY,
        ],
        |b, p| {
            [
                b[0].min(p[0]),
                b[1].min(p[1]),
                b[2].max(p[0]),
                b[3].max(p[1]),
            ]
        },
    )
}

/// The points of an SVG path `d="M x,y x,y … Z"`.
fn path_points(line: &str) -> Vec<[f64; 2]> {
    let at = line.find(" d=\"M").unwrap() + 5;
    let d = &line[at..at + line[at..].find('Z').unwrap()];
    d.split(' ')
        .map(|xy| {
            let (x, y) = xy.split_once(',').unwrap();
            [x.parse().unwrap(), y.parse().unwrap()]
        })
        .collect()
}

/// The AGP `agp`, written to `file`, placed with its art at 47.5° N,
/// 13° E, heading 0.
fn place_with_art(file: &std::path::Path, agp: &str, limits: Limits) -> agkit::place::Placement {
    std::fs::write(file, agp).unwrap();
    let asset = agkit::xp::parse(agp).unwrap();
    let art = agkit::scenery::art::ArtStore::new(limits).art_for(file, &asset, None);
    let params = agkit::place::Params {
        art: Some(art),
        ..agkit::place::Params::default()
    };
    let use_ = agkit::place::Use::Point {
        at: [13.0, 47.5],
        heading: 0.0,
    };
    let name = file.file_name().unwrap().to_string_lossy();
    agkit::place::place(&asset, &name, &use_, &params)
        .unwrap_or_else(|e| panic!("{}: {e}", file.display()))
}

/// The textured picture of `ps`, as SVG.
fn textured_svg(ps: &[agkit::place::Placement]) -> String {
    let pic = agkit::out::svg::draw(
        &agkit::out::svg::Sheet::of(ps),
        &agkit::out::svg::Options::default(),
    );
    pic.drawing.to_svg(agkit::out::svg::TextMode::Text)
}

#[test]
fn real_objects_are_drawn_as_their_footprints() {
    let limits = Limits::default();
    let dir = tempfile::tempdir().unwrap();
    let mut chosen = Vec::new();
    for row in nonempty(rows_of(&["obj"]), "obj") {
        let Ok(bytes) = std::fs::read(&row.path) else {
            continue;
        };
        let Ok(obj) = agkit::obj::read(&bytes, &row.rel, &limits) else {
            continue;
        };
        let fp = obj.footprint();
        let b = bbox(fp.iter().copied());
        if fp.len() < 3 || b[2] - b[0] < 1.0 || b[3] - b[1] < 1.0 {
            continue;
        }
        let name = format!("o{}.obj", chosen.len());
        std::fs::write(dir.path().join(&name), &bytes).unwrap();
        chosen.push((name, row.rel.clone(), obj.bounds().unwrap()));
        if chosen.len() == OBJECTS {
            break;
        }
    }
    assert!(!chosen.is_empty(), "no real OBJ has a footprint");
    // One tile 400 m across; the objects 60 m apart along its middle,
    // heading 0 (each OBJ's x east, z south).
    let mut agp = String::from(
        "A\n1000\nAG_POINT\n\nTEXTURE none.png\nTEXTURE_SCALE 400 400\nTEXTURE_WIDTH 400\n",
    );
    for (name, _, _) in &chosen {
        agp.push_str(&format!("OBJECT {name}\n"));
    }
    agp.push_str("TILE 0 0 400 400\nANCHOR_PT 200 200\n");
    for k in 0..chosen.len() {
        agp.push_str(&format!("OBJ_DRAPED {} 200 0 {k}\n", 40 + 60 * k));
    }
    let p = place_with_art(&dir.path().join("real.agp"), &agp, limits);
    assert_eq!(p.objects.len(), chosen.len());
    let ps = [p];
    let svg = textured_svg(&ps);
    let layer = svg
        .split("<g id=\"footprints\"")
        .nth(1)
        .expect("a footprints layer")
        .split("</g>")
        .next()
        .unwrap();
    let paths: Vec<&str> = layer.lines().filter(|l| l.starts_with("<path")).collect();
    assert_eq!(paths.len(), chosen.len(), "one footprint per object");
    let mut scale = None;
    for ((o, path), (name, rel, bounds)) in ps[0].objects.iter().zip(&paths).zip(&chosen) {
        // The placed footprint lies inside the OBJ's bounds (x east, z
        // south, so north is −z).
        let m = bbox(o.footprint.iter().copied());
        let eps = 1e-6;
        assert!(
            m[0] - o.x >= bounds.min[0] - eps
                && m[2] - o.x <= bounds.max[0] + eps
                && m[1] - o.y >= -bounds.max[2] - eps
                && m[3] - o.y <= -bounds.min[2] + eps,
            "{rel} ({name}): footprint {m:?} outside its bounds {bounds:?}"
        );
        // The drawn footprint is that footprint at the picture's scale,
        // the same across and up, and the same for every object.
        let px = bbox(path_points(path).into_iter());
        let (sx, sy) = (
            (px[2] - px[0]) / (m[2] - m[0]),
            (px[3] - px[1]) / (m[3] - m[1]),
        );
        let tol = 1.0 / (m[2] - m[0]).min(m[3] - m[1]);
        assert!(
            (sx - sy).abs() <= tol * sx.max(sy),
            "{rel}: {sx} px/m across, {sy} up"
        );
        let s = *scale.get_or_insert(sx);
        assert!((sx - s).abs() <= tol * s, "{rel}: {sx} px/m, others {s}");
    }
}

/// Every real facade of the corpus (`fac` in MANIFEST.tsv) placed by an
/// AGP over a pentagon and drawn as the textured picture: the placement
/// and the picture never fail, and each closed facade whose roof texture
/// was found has its roof drawn from it, as images cut to the roof, or
/// its colour counted in the picture's note (or a single `ROOF` point's
/// texel colour). Several real roofs are drawn as images.
#[test]
fn real_facade_roofs_are_drawn_with_their_roof_texture() {
    use agkit::place::art::TextureRole;
    let limits = Limits::default();
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().canonicalize().unwrap();
    // From the temporary folder up to `/`: X-Plane follows no absolute
    // path, so the AGP names each facade relative to itself.
    let up = "../".repeat(base.components().count() - 1);
    let (mut placed, mut as_images, mut roofed) = (0, 0, 0);
    for (k, row) in nonempty(rows_of(&["fac"]), "fac").iter().enumerate() {
        let Ok(full) = row.path.canonicalize() else {
            continue;
        };
        let rel = format!("{up}{}", full.strip_prefix("/").unwrap().display());
        let agp = format!(
            "A\n1000\nAG_POINT\nTEXTURE none.png\nTEXTURE_SCALE 1024 1024\nTEXTURE_WIDTH 64\n\
             FACADE {rel}\nTILE 0 0 1024 1024\nANCHOR_PT 512 512\n\
             FAC 0 12 100 100 100 700 600 700 800 400 600 100\n"
        );
        let p = place_with_art(&base.join(format!("f{k}.agp")), &agp, limits);
        placed += 1;
        let art = p.art.clone().unwrap();
        let fac_file = &art.facades[0];
        let roof_texture = fac_file
            .texture(TextureRole::Roof)
            .and_then(|t| t.found.as_ref())
            .filter(|h| h.decode().is_ok());
        let closed = fac_file.get().is_some_and(|f| f.ring);
        let ps = [p];
        let svg = textured_svg(&ps);
        if roof_texture.is_none() || !closed || ps[0].facades[0].roof != Some(true) {
            continue;
        }
        roofed += 1;
        let layer = svg
            .split("<g id=\"roofs\"")
            .nth(1)
            .unwrap_or_else(|| panic!("{}: no roofs layer", row.rel))
            .split("</g>\n<g id=")
            .next()
            .unwrap();
        let images = layer.matches("<g clip-path=").count();
        as_images += usize::from(images > 0);
        let one_point = fac_file
            .get()
            .unwrap()
            .lods
            .first()
            .is_some_and(|l| l.roof.len() == 1);
        assert!(
            images > 0 || svg.contains("facade roof") || one_point,
            "{}: its roof texture is neither drawn nor counted",
            row.rel
        );
    }
    assert!(placed >= 20, "only {placed} real facades placed");
    assert!(
        as_images >= 5 && roofed >= as_images,
        "{as_images} of {roofed} real textured roofs drawn as images"
    );
}
