//! Real `library.txt`, `scenery_packs.ini` and DSF overlays: every one
//! parses; what each holds is checked against the file's own text, counted
//! another way, so that a file added to the corpus is checked without any
//! test having to know about it.

use super::support;
use agkit::scenery::library::{self, ExportKind};
use agkit::scenery::resolve::{Conditions, LibraryIndex, Tile};

/// The lines of `text` (as X-Plane splits them: CR, LF or CRLF) whose first
/// word is an export directive this reader knows.
fn export_lines(text: &str) -> usize {
    text.split(['\n', '\r'])
        .filter(|l| {
            let word = l.split_whitespace().next().unwrap_or("");
            word.starts_with("EXPORT")
        })
        .count()
}

/// Every real library.txt parses: a valid header, exports kept in order,
/// each the export line it came from, each inside its own package. The
/// exports read are the file's export lines but those the reader reports
/// as ignored (LIB002: an EXPORT naming no file); every diagnostic says
/// that X-Plane ignores its line, and points at a line of the file.
#[test]
fn corpus_libraries_all_parse() {
    let files = support::nonempty(support::files_of(&["library"]), "library");
    for f in &files {
        let text = String::from_utf8_lossy(&std::fs::read(f).unwrap()).into_owned();
        let lib = library::parse(&text);
        let name = f.display();
        assert!(!lib.header_rejected(), "{name}: {:?}", lib.diagnostics);
        assert!(!lib.exports.is_empty(), "{name}");
        for e in &lib.exports {
            assert!(!e.leaves_package(), "{name}:{}", e.line);
            assert!(!e.virtual_path.is_empty() && !e.real_path.is_empty());
            assert!(text[e.span.clone()].trim_start().starts_with("EXPORT"));
        }
        let lines = text.split(['\n', '\r']).count();
        let mut ignored_exports = 0;
        for d in &lib.diagnostics {
            assert!(
                d.message.contains("ignore"),
                "{name}: {} {}",
                d.code,
                d.message
            );
            if let agkit::diag::Location::Span(s) = &d.location {
                let line = library::line_col(&text, s.start).0;
                assert!(line >= 1 && line <= lines, "{name}: line {line}");
                if d.code == "LIB002" {
                    ignored_exports += 1;
                }
            }
        }
        assert_eq!(
            lib.exports.len() + ignored_exports,
            export_lines(&text),
            "{name}"
        );
    }
}

/// The authors' real mistakes, each reported at its line.
#[test]
fn corpus_library_mistakes_are_reported_at_their_lines() {
    let base = "aussig__X-Plane-Backup-Library/libraries";
    for (lib, code, line, says) in [
        ("ALES", "LIB004", 602, "unknown directive `-----"),
        (
            "Headwind Radio Towers",
            "LIB004",
            38,
            "`A` repeats a header line",
        ),
        (
            "Headwind Radio Towers",
            "LIB004",
            40,
            "`LIBRARY` repeats a header line",
        ),
        (
            "OB South American Vegetation",
            "LIB004",
            8,
            "unknown directive `VEGETATION`",
        ),
        (
            "Parking Stands and Signs",
            "LIB002",
            216,
            "names no file after the virtual path",
        ),
    ] {
        let f = support::file(&format!("{base}/{lib}/library.txt"));
        let text = String::from_utf8_lossy(&std::fs::read(&f).unwrap()).into_owned();
        let found = library::parse(&text).diagnostics.iter().any(|d| {
            let at = match &d.location {
                agkit::diag::Location::Span(s) => library::line_col(&text, s.start).0,
                _ => 0,
            };
            d.code == code && at == line && d.message.contains(says)
        });
        assert!(found, "{lib}: no {code} at line {line} ({says})");
    }
}

/// The directives X-Plane's libraries use all occur in the corpus and are
/// read as such.
#[test]
fn corpus_libraries_use_every_directive() {
    let mut kinds = std::collections::HashSet::new();
    let (mut rects, mut bitmaps, mut drefs, mut all, mut status) = (0, 0, 0, 0, 0);
    for f in support::nonempty(support::files_of(&["library"]), "library") {
        let lib = library::parse(&String::from_utf8_lossy(&std::fs::read(&f).unwrap()));
        for e in &lib.exports {
            kinds.insert(e.kind);
            status += usize::from(e.status != library::Status::Public);
        }
        for r in &lib.regions {
            rects += r.rects.len();
            bitmaps += r.bitmaps.len();
            drefs += r.drefs.len();
            all += usize::from(r.all);
        }
    }
    for k in [
        ExportKind::Export,
        ExportKind::ExportExclude,
        ExportKind::ExportExtend,
        ExportKind::ExportBackup,
    ] {
        assert!(kinds.contains(&k), "{k:?}");
    }
    assert!(rects >= 1 && bitmaps >= 1 && drefs >= 1 && all >= 1 && status > 0);
}

/// openSAM's library: every exported .agp (the files the corpus keeps)
/// resolves inside the package, at the demo airport's tile, through an
/// installation holding the package.
#[test]
fn opensam_exports_resolve_inside_their_package() {
    let lib_dir = support::file("hotbso__openSAM/openSAM-pkg/openSAM_Library");
    let mut index = LibraryIndex::default();
    index.push(LibraryIndex::load_package(&lib_dir, 0).unwrap());
    let tile = Tile {
        west: 13,
        south: 47,
    };
    let exports = index.packages[0].library.exports.clone();
    let agps: Vec<_> = exports
        .iter()
        .filter(|e| e.real_path.ends_with(".agp"))
        .collect();
    assert!(!agps.is_empty());
    for e in agps {
        let r = index.resolve(&e.virtual_path, tile, &Conditions::default());
        assert!(
            r.is_resolved(),
            "{}: {}",
            e.virtual_path,
            r.why_unresolved()
        );
        for c in r.usable() {
            assert!(c.file.starts_with(&lib_dir), "{}", c.file.display());
        }
    }
    // REGION_DREF opensam/SAM_Library_installed == 0: assumed, reported.
    let sam = index.resolve(
        "SAM3_Library/marshaller/marshaller.agp",
        tile,
        &Conditions::default(),
    );
    assert!(sam.is_resolved());
}

/// Every real scenery_packs.ini parses without a diagnostic and without
/// duplicate lines; its entries are its `SCENERY_PACK` lines, counted
/// another way.
#[test]
fn corpus_scenery_packs_parse() {
    for f in support::nonempty(support::files_of(&["scenery_packs"]), "scenery_packs") {
        let text = std::fs::read_to_string(&f).unwrap();
        let ini = agkit::scenery::packs::parse(&text);
        assert!(
            ini.diagnostics.is_empty(),
            "{}: {:?}",
            f.display(),
            ini.diagnostics
        );
        assert!(agkit::scenery::packs::duplicates(&ini).is_empty());
        let words: Vec<&str> = text
            .lines()
            .filter_map(|l| l.split_whitespace().next())
            .collect();
        let listed = words
            .iter()
            .filter(|w| w.starts_with("SCENERY_PACK"))
            .count();
        let disabled = words
            .iter()
            .filter(|w| **w == "SCENERY_PACK_DISABLED")
            .count();
        assert_eq!(ini.entries.len(), listed, "{}", f.display());
        assert_eq!(
            ini.entries.iter().filter(|e| !e.enabled).count(),
            disabled,
            "{}",
            f.display()
        );
        let global = text
            .lines()
            .filter(|l| l.starts_with("SCENERY_PACK"))
            .position(|l| l.contains("*GLOBAL_AIRPORTS*"));
        assert_eq!(
            ini.entries.iter().position(|e| e.is_global_airports()),
            global,
            "{}",
            f.display()
        );
    }
}

/// The real overlays' exclusion properties all parse, one zone each, every
/// zone overlapping its tile and its polygon (WED 2.7) inside the tile.
#[test]
fn corpus_overlays_exclusions() {
    for row in support::nonempty(support::rows_of(&["dsf"]), "dsf") {
        let Ok(dsf) = agkit::dsf::read(&std::fs::read(&row.path).unwrap()) else {
            assert!(row.note.contains("DAMAGED"), "{}", row.rel);
            continue;
        };
        let props = dsf
            .properties
            .iter()
            .filter(|(n, _)| n.starts_with("sim/exclude_"))
            .count();
        let (zones, problems) = agkit::scenery::exclude::exclusions(&dsf);
        assert!(problems.is_empty(), "{}: {problems:?}", row.rel);
        assert_eq!(zones.len(), props, "{}", row.rel);
        let prop = |n: &str| -> f64 { dsf.property(n).unwrap().parse().unwrap() };
        let (w, so, e, n) = (
            prop("sim/west"),
            prop("sim/south"),
            prop("sim/east"),
            prop("sim/north"),
        );
        for z in &zones {
            assert!(z.bbox[0] <= e && z.bbox[2] >= w && z.bbox[1] <= n && z.bbox[3] >= so);
            for p in z.polygon.iter().flatten() {
                assert!((w..=e).contains(&p[0]) && (so..=n).contains(&p[1]), "{p:?}");
            }
        }
    }
    // openSAM's demo airport (WED 2.7) writes the polygon form, clipped to
    // the tile while its box is not: the polygon decides.
    let sam = agkit::dsf::read(
        &std::fs::read(support::file(
            "hotbso__openSAM/openSAM-pkg/openSAM_Library/dev-tools/OSJW_openSAM_demo_airport/Earth nav data/+40+010/+47+013.dsf",
        ))
        .unwrap(),
    )
    .unwrap();
    let (zones, _) = agkit::scenery::exclude::exclusions(&sam);
    assert_eq!(zones.len(), 8);
    assert!(
        zones
            .iter()
            .all(|z| z.polygon.as_ref().map(Vec::len) == Some(5))
    );
    assert_eq!(zones[0].airport.as_deref(), Some("OSJW"));
    assert!(
        zones[0].contains([13.012216754, 47.800907912]),
        "the marshaller's point"
    );
    assert!(
        !zones[0].contains([12.998, 47.79]),
        "inside the box, outside the polygon"
    );
}
