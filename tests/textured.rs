//! Textured pictures: tiles drawn with the right cut of their texture,
//! missing art drawn as marked symbols, the embedded images bounded, and
//! the structure of the demo picture held by a snapshot.

use assert_cmd::Command;
use base64::Engine as _;
use std::path::Path;

fn agkit() -> Command {
    Command::cargo_bin("agkit").unwrap()
}

/// A 64 × 64 RGBA texture whose every pixel is told apart: red = 4·x,
/// green = 4·y, blue 200.
fn texture() -> Vec<u8> {
    let mut rgba = Vec::new();
    for y in 0..64u32 {
        for x in 0..64u32 {
            rgba.extend([(4 * x) as u8, (4 * y) as u8, 200, 255]);
        }
    }
    rgba
}

fn write_png(path: &Path, w: u32, h: u32, rgba: &[u8]) {
    let f = std::fs::File::create(path).unwrap();
    let mut enc = png::Encoder::new(std::io::BufWriter::new(f), w, h);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    enc.write_header().unwrap().write_image_data(rgba).unwrap();
}

fn decode_png(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut r = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .unwrap();
    let mut buf = vec![0; r.output_buffer_size().unwrap()];
    let info = r.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    assert_eq!(info.color_type, png::ColorType::Rgba);
    (info.width, info.height, buf)
}

/// An AGP with one 4 m × 4 m tile cut from pixels s 16..48, t 8..40 of
/// `tex.png` (0.125 m a pixel), and `extra` directives after it.
fn agp(dir: &Path, extra: &str) -> std::path::PathBuf {
    write_png(&dir.join("tex.png"), 64, 64, &texture());
    let path = dir.join("a.agp");
    std::fs::write(
        &path,
        format!(
            "A\n1000\nAG_POINT\n\nTEXTURE tex.png\nTEXTURE_SCALE 64 64\nTEXTURE_WIDTH 8\n{extra}\nTILE 16 8 48 40\nROTATION 0\nANCHOR_PT 32 24\n"
        ),
    )
    .unwrap();
    path
}

/// The embedded images of an SVG, decoded.
fn images(svg: &str) -> Vec<(u32, u32, Vec<u8>)> {
    svg.split("href=\"data:image/png;base64,")
        .skip(1)
        .map(|rest| {
            let b64 = &rest[..rest.find('"').unwrap()];
            decode_png(
                &base64::engine::general_purpose::STANDARD
                    .decode(b64)
                    .unwrap(),
            )
        })
        .collect()
}

fn place(asset: &Path, args: &[&str]) -> (String, String) {
    let out = agkit()
        .arg("place")
        .arg(asset)
        .args(["--at", "47.5,13.0,0", "--format", "svg"])
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn a_tiles_cut_is_its_texture_rectangle() {
    let dir = tempfile::tempdir().unwrap();
    let a = agp(dir.path(), "");
    let (svg, _) = place(&a, &[]);
    let imgs = images(&svg);
    assert_eq!(imgs.len(), 1, "one cut");
    let (w, h, rgba) = &imgs[0];
    // Close up, a texture pixel covers many picture pixels: the cut is
    // the rectangle itself, pixel for pixel. s 16..48 is x 16..48; t
    // 8..40 counted up from the bottom is y 24..56 counted down.
    assert_eq!((*w, *h), (32, 32));
    let src = texture();
    for y in 0..32usize {
        for x in 0..32usize {
            let at = (y * 32 + x) * 4;
            let from = ((24 + y) * 64 + 16 + x) * 4;
            assert_eq!(&rgba[at..at + 4], &src[from..from + 4], "pixel {x},{y}");
        }
    }
    assert!(svg.contains("<clipPath id=\"cut0\">"), "cut to the tile");
    assert!(svg.contains("tile (its texture)"));
    // The schematic style draws no image.
    let (plain, _) = place(&a, &["--style", "schematic"]);
    assert!(!plain.contains("<image") && plain.contains("<g id=\"tiles\""));
}

#[test]
fn a_textured_png_shows_the_texture() {
    let dir = tempfile::tempdir().unwrap();
    let a = agp(dir.path(), "");
    let out = agkit()
        .arg("place")
        .arg(&a)
        .args(["--at", "47.5,13.0,0", "--format", "png"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let (_, _, rgba) = decode_png(&out.stdout);
    // Pixels of the texture: blue 200, red and green from the cut.
    let textured = rgba
        .chunks(4)
        .filter(|p| p[2].abs_diff(200) <= 2 && p[0] >= 60 && p[1] >= 90)
        .count();
    assert!(textured > 50_000, "{textured} texture pixels");
}

#[test]
fn missing_art_is_drawn_as_marked_symbols() {
    let dir = tempfile::tempdir().unwrap();
    let a = agp(
        dir.path(),
        "OBJECT gone.obj\nFACADE gone.fac\nVEGETATION gone.for\n",
    );
    // The texture goes missing too.
    std::fs::remove_file(dir.path().join("tex.png")).unwrap();
    let mut text = std::fs::read_to_string(&a).unwrap();
    text.push_str("OBJ_DRAPED 32 24 0 0\nFAC 0 6 18 10 46 10 46 20 18 20\nTREE 40 30 0 3 0\n");
    std::fs::write(&a, text).unwrap();
    let (svg, _) = place(&a, &[]);
    assert!(!svg.contains("<image"), "nothing to texture with");
    let marks = svg
        .split("<g id=\"art-missing\"")
        .nth(1)
        .expect("the marks")
        .split("</g>")
        .next()
        .unwrap();
    // The tile's outline, the object's ring, and the tree's.
    assert!(marks.matches("<path").count() >= 1, "{marks}");
    assert!(marks.matches("<circle").count() >= 1, "{marks}");
    assert!(svg.contains(
        r##"<g id="art-missing" fill="none" stroke="#c2185b" stroke-width="1.6" stroke-dasharray="4 3">"##
    ));
    assert!(svg.contains("art missing: drawn as symbol"));
    // The symbols themselves are the schematic's.
    assert!(svg.contains("<g id=\"tiles\"") && svg.contains("<g id=\"objects\""));
    // Without art looked up, nothing is marked.
    let (bare, _) = place(&a, &["--no-art"]);
    assert!(!bare.contains("art-missing"));
}

#[test]
fn embedded_images_are_capped_and_past_it_tiles_are_flat() {
    let dir = tempfile::tempdir().unwrap();
    let a = agp(dir.path(), "");
    let text = std::fs::read_to_string(&a).unwrap();
    let asset = agkit::xp::parse(&text).unwrap();
    let art = agkit::scenery::art::ArtStore::new(agkit::limits::Limits::default())
        .art_for(&a, &asset, None);
    let params = agkit::place::Params {
        art: Some(art),
        ..agkit::place::Params::default()
    };
    let use_ = agkit::place::Use::Point {
        at: [13.0, 47.5],
        heading: 0.0,
    };
    let p = agkit::place::place(&asset, "a.agp", &use_, &params).unwrap();
    let ps = [p];
    let scene = agkit::out::svg::Sheet::of(&ps);
    let roomy = agkit::out::svg::draw(&scene, &agkit::out::svg::Options::default());
    assert!(roomy.textures.is_none());
    let tight = agkit::out::svg::Options {
        limits: agkit::limits::Limits {
            max_picture_image_bytes: 100,
            ..agkit::limits::Limits::default()
        },
        ..agkit::out::svg::Options::default()
    };
    let pic = agkit::out::svg::draw(&scene, &tight);
    let note = pic.textures.expect("the note");
    assert!(note.contains("1 tile drawn in flat colour"), "{note}");
    let svg = pic.drawing.to_svg(agkit::out::svg::TextMode::Text);
    assert!(!svg.contains("<image"));
    assert!(svg.contains("1 tile in flat colour (image budget spent)"));
    // The flat colour is the cut's mean: red 4·31.5, green 4·39.5.
    assert!(svg.contains("fill=\"#7e9ec8\""), "{svg}");
}

/// The demo picture's structure: its layers and images (their data as a
/// hash), line by line, without coordinates; each clipped use of an
/// image (a tile, a draped polygon, a roof) as the image it draws.
#[test]
fn the_demo_pictures_structure() {
    let out = agkit()
        .args([
            "place",
            "--dsf",
            "examples/dsf/autogen_demo.dsf",
            "--scenery",
            "examples",
            "--format",
            "svg",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let svg = String::from_utf8(out.stdout).unwrap();
    let mut lines = Vec::new();
    for line in svg.lines() {
        if let Some(rest) = line.strip_prefix("<g id=\"") {
            lines.push(format!("layer {}", &rest[..rest.find('"').unwrap()]));
        } else if line.starts_with("<defs><image") {
            let at = line.find("base64,").unwrap() + 7;
            let data = &line[at..line[at..].find('"').unwrap() + at];
            let size: Vec<&str> = line.split('"').skip(3).step_by(2).take(2).collect();
            let hash: String = md5::Md5::digest(data.as_bytes())
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            lines.push(format!("image {}x{} {hash}", size[0], size[1]));
        } else if line.starts_with("<g clip-path=") {
            let at = line.find("href=\"#").unwrap() + 7;
            let id = &line[at..at + line[at..].find('"').unwrap()];
            lines.push(format!("  drawn with {id}"));
        }
    }
    insta::assert_snapshot!(lines.join("\n"));
}

use md5::Digest as _;
