//! The pictures in the documentation are what the documentation's commands
//! draw: for each picture, the `place` command(s) in the same Markdown file
//! that write a file of the picture's name are run, and the result must
//! match the picture pixel for pixel (a channel may differ by a
//! rasteriser's rounding, and a few pixels more, between machines; a
//! missing object marker is some 60 pixels).
//!
//! `AGKIT_UPDATE_IMAGES=1 cargo test --test readme_images` redraws them.

use resvg::tiny_skia::Pixmap;
use std::path::{Path, PathBuf};
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Each picture: the Markdown file showing it and the picture's path.
const PICTURES: [(&str, &str); 2] = [
    ("README.md", "docs/img/demo.png"),
    ("docs/placement.md", "docs/img/plaza.png"),
];

/// The arguments after `place` of every command in `md` that writes a
/// file named `name` (`agkit place …` or `cargo run … -- place …`, in a
/// code block or inline code; a trailing `# comment` is dropped), with
/// the output path left out.
fn commands(md: &str, name: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for line in md.lines() {
        for part in line.split('`') {
            let part = part.split(" #").next().unwrap_or("");
            let words: Vec<&str> = part.split_whitespace().collect();
            let Some(at) = words
                .windows(2)
                .position(|w| (w[0] == "agkit" || w[0] == "--") && w[1] == "place")
            else {
                continue;
            };
            let args = &words[at + 2..];
            let Some(o) = args.iter().position(|&w| w == "-o") else {
                continue;
            };
            let writes = args
                .get(o + 1)
                .is_some_and(|p| Path::new(p).file_name() == Some(name.as_ref()));
            if writes {
                let mut rest: Vec<String> = args[..o].iter().map(|s| s.to_string()).collect();
                rest.extend(args[o + 2..].iter().map(|s| s.to_string()));
                out.push(rest);
            }
        }
    }
    out
}

/// Runs `agkit place ARGS -o OUT` in the repository root.
fn draw(args: &[String], out: &Path) {
    let o = Command::new(env!("CARGO_BIN_EXE_agkit"))
        .current_dir(ROOT)
        .arg("place")
        .args(args)
        .arg("-o")
        .arg(out)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "agkit place {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&o.stderr)
    );
}

/// How many pixels differ in colour by more than a rasteriser's rounding;
/// `None` when the sizes differ.
fn differing(a: &Pixmap, b: &Pixmap) -> Option<usize> {
    if (a.width(), a.height()) != (b.width(), b.height()) {
        return None;
    }
    let n = a
        .data()
        .chunks(4)
        .zip(b.data().chunks(4))
        .filter(|(p, q)| p.iter().zip(*q).any(|(x, y)| x.abs_diff(*y) > 24))
        .count();
    Some(n)
}

#[test]
fn the_documented_pictures_are_what_their_commands_draw() {
    let update = std::env::var_os("AGKIT_UPDATE_IMAGES").is_some();
    let dir = tempfile::tempdir().unwrap();
    for (md_file, picture) in PICTURES {
        let md = std::fs::read_to_string(Path::new(ROOT).join(md_file)).unwrap();
        let md_dir = Path::new(md_file).parent().unwrap();
        let shown = Path::new(picture)
            .strip_prefix(md_dir)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        assert!(
            md.contains(&format!("]({shown})")),
            "{md_file} does not show {shown}"
        );
        let name = Path::new(picture).file_name().unwrap().to_str().unwrap();
        let found = commands(&md, name);
        assert!(
            !found.is_empty(),
            "{md_file} has no `agkit place … -o {name}` command for {picture}"
        );
        assert!(
            found.iter().all(|c| c == &found[0]),
            "{md_file}'s commands drawing {name} disagree: {found:?}"
        );
        let drawn: PathBuf = dir.path().join(name);
        draw(&found[0], &drawn);
        let path = Path::new(ROOT).join(picture);
        if update {
            std::fs::copy(&drawn, &path).unwrap();
            continue;
        }
        let want = Pixmap::load_png(&path).unwrap();
        let got = Pixmap::load_png(&drawn).unwrap();
        let off = differing(&want, &got);
        assert!(
            off.is_some_and(|n| n <= 16),
            "{picture} is not what `agkit place {}` draws ({}); redraw it with \
             AGKIT_UPDATE_IMAGES=1 cargo test --test readme_images",
            found[0].join(" "),
            match off {
                Some(n) => format!("{n} pixels differ"),
                None => "another size".into(),
            }
        );
    }
}

#[test]
fn commands_are_found_in_code_blocks_and_inline_code() {
    let md = "```sh\n\
        cargo run --release -- place --dsf a.dsf --scenery x -o out/demo.png   # the demo\n\
        agkit place b.agp --at 1,2 -o other.png\n\
        ```\n\
        Drawn by `agkit place c.agp --at 3,4 --seed 2 -o demo.png`.\n";
    assert_eq!(
        commands(md, "demo.png"),
        [
            vec!["--dsf", "a.dsf", "--scenery", "x"],
            vec!["c.agp", "--at", "3,4", "--seed", "2"],
        ]
    );
    assert!(commands(md, "plaza.png").is_empty());
    let white = Pixmap::new(4, 4).unwrap();
    let mut dot = white.clone();
    dot.data_mut()[0] = 255;
    assert_eq!(differing(&white, &white), Some(0));
    assert_eq!(differing(&white, &dot), Some(1));
    assert_eq!(differing(&white, &Pixmap::new(4, 5).unwrap()), None);
}
