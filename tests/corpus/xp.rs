//! Real AGP/AGB/AGS files and the published format texts: every directive
//! the specifications show is typed and used by an example; every real
//! asset of the corpus parses, round-trips byte for byte and formats
//! stably.

use super::support;
use agkit::xp;
use std::path::{Path, PathBuf};

#[path = "../xp_support/mod.rs"]
mod xp_support;
use xp_support::strip_lines;

/// The bundled example assets.
fn examples() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> =
        walkdir::WalkDir::new(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/examples")))
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

/// Every real asset of the corpus checks without an error (the simulator
/// loads them all; what it tolerates is at most a warning).
#[test]
fn every_corpus_asset_checks_without_errors() {
    for f in support::nonempty(support::files_of(&["agp", "agb", "ags"]), "autogen asset") {
        let src = std::fs::read_to_string(&f).unwrap();
        let diags = xp::check(&src);
        assert!(
            !diags
                .iter()
                .any(|d| d.severity == agkit::diag::Severity::Error),
            "{}",
            agkit::diag::render_human(&f.display().to_string(), Some(&src), &diags)
        );
    }
}

/// Every directive name the three published specifications show in their
/// syntax lines (`KEYWORD args…` at the start of a line), spelled as the
/// specs spell them (`USE_SPELLING_t`, `DEFINE_SPELLING_Trow-index`) and then
/// normalised to upper case with any glued argument cut off.
fn spec_directives() -> std::collections::BTreeSet<String> {
    let dir = support::specs();
    let mut names = std::collections::BTreeSet::new();
    for spec in [
        "agp-autogen-common-and-point.txt",
        "agb-autogen-block.txt",
        "ags-autogen-string.txt",
    ] {
        let text = std::fs::read_to_string(dir.join(spec)).unwrap();
        for line in text.lines() {
            let mut words = line.split_whitespace();
            let Some(first) = words.next() else { continue };
            // A title ("DSF Usage") has a capitalised word next; a syntax
            // line has arguments (`<x pixel>`, `0|1`, `left`, `[pixels]`).
            if words
                .next()
                .is_some_and(|w| w.starts_with(|c: char| c.is_ascii_uppercase()) && w.len() > 1)
            {
                continue;
            }
            if let Some(name) = directive_name(first) {
                names.insert(name);
            }
        }
    }
    names
}

/// `OBJ_DRAPED` → `OBJ_DRAPED`; `USE_SPELLING_t` → `USE_SPELLING_T`;
/// `DEFINE_SPELLING_Trow-index` → `DEFINE_SPELLING_T`; prose → `None`.
fn directive_name(word: &str) -> Option<String> {
    let mut parts = Vec::new();
    for (k, part) in word.split('_').enumerate() {
        let upper: String = part
            .chars()
            .take_while(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
            .collect();
        if !upper.is_empty() {
            parts.push(upper.clone());
            if upper.len() < part.len() {
                break; // an argument glued to the keyword
            }
        } else if k > 0 && part.len() == 1 && part.chars().all(|c| c.is_ascii_lowercase()) {
            parts.push(part.to_ascii_uppercase()); // the spec's `_t`
        } else {
            return None;
        }
    }
    let name = parts.join("_");
    // Single upper-case words of prose ("A", "AG", "DSF", "X-Plane") are not
    // directives; every single-word directive is in the parser's list.
    let known = xp::parse::KEYWORDS.contains(&name.as_str());
    (name.len() >= 3 && (name.contains('_') || known)).then_some(name)
}

#[test]
fn spec_directive_extraction_sees_the_syntax_lines() {
    assert_eq!(
        directive_name("USE_SPELLING_t").as_deref(),
        Some("USE_SPELLING_T")
    );
    assert_eq!(
        directive_name("DEFINE_SPELLING_Trow-index").as_deref(),
        Some("DEFINE_SPELLING_T")
    );
    assert_eq!(directive_name("X-Plane"), None);
    let names = spec_directives();
    // A spot check that the scan is not vacuous: one of each family.
    for kw in [
        "TEXTURE_SCALE",
        "FAC",
        "TREE_LINE",
        "CROP",
        "SLOP_V",
        "CAPS",
        "CORNER_ORDER",
    ] {
        assert!(names.contains(kw), "{kw} not found in {names:?}");
    }
    assert!(
        names.len() >= 60,
        "only {} directives: {names:?}",
        names.len()
    );
}

#[test]
fn every_spec_directive_is_typed_and_used_by_the_examples() {
    let names = spec_directives();
    let mut used = std::collections::HashSet::new();
    for f in examples() {
        let src = std::fs::read_to_string(&f).unwrap();
        let asset = xp::parse(&src).unwrap();
        assert!(
            asset.unknown.is_empty(),
            "{}: {:?}",
            f.display(),
            asset.unknown
        );
        for line in src.lines() {
            if let Some(name) = line.split_whitespace().next().and_then(directive_name) {
                used.insert(name);
            }
        }
    }
    for name in &names {
        assert!(
            xp::parse::KEYWORDS.contains(&name.as_str()),
            "the parser does not know {name}"
        );
        assert!(used.contains(name), "no example uses {name}");
        // Typed, not kept as unknown: in a file of a format that takes it.
        for header in ["AG_POINT", "AG_BLOCK", "AG_STRING"] {
            let src = format!("A\n1000\n{header}\n{name}\n");
            let (asset, diags) = xp::parse_lenient(&src);
            assert!(asset.unwrap().unknown.is_empty(), "{name} in {header}");
            assert!(
                !diags.iter().any(|d| d.code == "AG0009"),
                "{name} is unknown in {header}"
            );
        }
    }
}

#[test]
fn every_corpus_manifest_row_parses_round_trips_and_formats_stably() {
    for f in support::nonempty(support::files_of(&["agp", "agb", "ags"]), "autogen asset") {
        let name = f.display().to_string();
        let bytes = std::fs::read(&f).unwrap_or_else(|e| panic!("{name}: {e}"));
        let src = String::from_utf8(bytes.clone()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let asset = xp::parse(&src)
            .unwrap_or_else(|d| panic!("{}", agkit::diag::render_human(&name, Some(&src), &d)));
        let ext = f
            .extension()
            .and_then(|e| e.to_str())
            .unwrap()
            .to_ascii_lowercase();
        assert_eq!(asset.kind.extension(), ext, "{name}");
        let doc = xp::Document::parse(&src);
        assert_eq!(doc.to_string().as_bytes(), &bytes[..], "{name}");
        let canon = doc.to_canonical();
        assert_eq!(xp::Document::parse(&canon).to_canonical(), canon, "{name}");
        assert_eq!(
            xp::summary::summarize(&src),
            xp::summary::summarize(&canon),
            "{name}"
        );
        let again = xp::parse(&canon).unwrap();
        assert_eq!(
            strip_lines(serde_json::to_value(&asset).unwrap()),
            strip_lines(serde_json::to_value(&again).unwrap()),
            "{name}"
        );
    }
}

/// Every directive keyword a real asset of the corpus writes is one the
/// reader knows (issue 25: `DITHER_ALPHA` from Laminar's XPlaneForExporter
/// was AG0009), and is typed: nothing lands in the model's unknown list.
#[test]
fn every_directive_of_the_corpus_assets_is_known() {
    for f in support::nonempty(support::files_of(&["agp", "agb", "ags"]), "autogen asset") {
        let src = std::fs::read_to_string(&f).unwrap();
        let (asset, diags) = xp::parse_lenient(&src);
        let asset = asset.unwrap_or_else(|| panic!("{}", f.display()));
        assert!(
            asset.unknown.is_empty() && !diags.iter().any(|d| d.code == "AG0009"),
            "{}: {:?}",
            f.display(),
            asset.unknown
        );
        if src
            .lines()
            .any(|l| l.trim_start().starts_with("DITHER_ALPHA"))
        {
            assert!(asset.common.dither_alpha.is_some(), "{}", f.display());
        }
    }
}
