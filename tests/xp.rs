//! Integration tests of the X-Plane autogen text formats (`agkit::xp`).

use agkit::xp;
use std::path::{Path, PathBuf};

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .map(|e| e.into_path())
        .filter(|p| {
            matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("agp" | "agb" | "ags")
            )
        })
        .collect();
    v.sort();
    v
}

fn corpus() -> Vec<PathBuf> {
    files_under(Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/corpus"
    )))
}

fn examples() -> Vec<PathBuf> {
    files_under(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/examples")))
}

fn render(name: &str, src: &str) -> String {
    agkit::diag::render_human(name, Some(src), &xp::check(src))
}

#[test]
fn corpus_and_examples_parse_without_errors_or_warnings() {
    let files: Vec<PathBuf> = corpus().into_iter().chain(examples()).collect();
    assert!(files.len() >= 40, "found only {} files", files.len());
    for f in files {
        let src = std::fs::read_to_string(&f).unwrap();
        let diags = xp::check(&src);
        assert!(
            diags.is_empty(),
            "{}",
            render(&f.display().to_string(), &src)
        );
        xp::parse(&src).unwrap();
    }
}

fn example(rel: &str) -> String {
    std::fs::read_to_string(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/examples")).join(rel))
        .unwrap()
}

#[test]
fn example_models() {
    for rel in [
        "point/plaza.agp",
        "point/kiosk_cluster.agp",
        "block/city_block.agb",
        "block/city_block_flipped.agb",
        "string/town_edge.ags",
        "string/garden_fence.ags",
    ] {
        let asset = xp::parse(&example(rel)).unwrap();
        insta::assert_json_snapshot!(format!("model_{}", rel.replace(['/', '.'], "_")), asset);
    }
}
