//! `agkit check` of the real packages (issue 46 item 5, issue 48 item 2):
//! every package of the corpus (a folder holding `Earth nav data` with a
//! DSF) checked as `agkit check PACKAGE` checks it — each DSF's bytes, its
//! definitions resolved as `place` resolves them, and every draped
//! polygon, painted line, object string, terrain type and road network in
//! the corpus checked by its own rules — without an error, but for the DSF
//! the manifest notes as damaged.
//!
//! The corpus's packages hold their DSFs and not their art (the art is
//! under `art/`), so the definitions that are files of the package are
//! found nowhere: each is one `PKG001` warning, which this suite checks
//! against the package's folder read here; the library paths, with no
//! library given, are one `PKG002` note per DSF.

use super::support;
use agkit::check::{FileKind, classify};
use agkit::scenery::Scenery;
use agkit::scenery::package::{self, in_package_layout};
use agkit::scenery::resolve::Conditions;
use std::collections::{BTreeMap, HashSet};
use std::path::PathBuf;

/// Every file below the corpus, by path.
fn corpus_files() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = agkit::fsutil::walk(&support::root())
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(walkdir::DirEntry::into_path)
        .collect();
    v.sort();
    v
}

/// Every draped-kind file of the corpus (by header or extension) checks
/// without an error.
fn draped_files_check(files: &[PathBuf]) -> usize {
    let mut checked = 0;
    let mut failures = Vec::new();
    for f in files {
        let bytes = std::fs::read(f).unwrap();
        if !matches!(classify(f, &bytes), FileKind::Draped(_)) {
            continue;
        }
        checked += 1;
        let (text, diags) = agkit::check::check_bytes(f, &bytes);
        if diags.iter().any(|d| d.is_error()) {
            failures.push(agkit::diag::render_human(
                &f.display().to_string(),
                text.as_deref(),
                &diags,
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    checked
}

#[test]
fn every_package_checks_without_an_error_and_names_each_missing_definition() {
    let files = corpus_files();
    let damaged: HashSet<PathBuf> = support::rows_of(&["dsf"])
        .into_iter()
        .filter(|r| r.note.contains("DAMAGED"))
        .map(|r| r.path)
        .collect();
    let dsfs: Vec<PathBuf> = files
        .iter()
        .filter(|f| {
            in_package_layout(f) && f.extension().is_some_and(|e| e.eq_ignore_ascii_case("dsf"))
        })
        .cloned()
        .collect();
    let dsfs = support::nonempty(dsfs, "package DSF");
    let scenery = Scenery::without_libraries(Conditions::default());
    let checked: HashSet<PathBuf> = files.iter().filter_map(|f| f.canonicalize().ok()).collect();
    let found = scenery.check_definitions(&dsfs, &checked);

    let mut errors = Vec::new();
    let mut per_code: BTreeMap<String, usize> = BTreeMap::new();
    for dsf in &dsfs {
        let bytes = std::fs::read(dsf).unwrap();
        let (_, own) = agkit::check::check_bytes(dsf, &bytes);
        let broken = own.iter().any(|d| d.is_error());
        if broken != damaged.contains(dsf) {
            errors.push(format!("{}: {own:?}", dsf.display()));
        }
        let defs = found.get(dsf).cloned().unwrap_or_default();
        for d in &defs {
            *per_code.entry(d.code.to_string()).or_default() += 1;
            if d.is_error() {
                errors.push(format!("{}: {d:?}", dsf.display()));
            }
        }
        if broken {
            assert!(
                defs.is_empty(),
                "a DSF that does not read has no definitions"
            );
            continue;
        }
        // Each PKG001 names a definition of this DSF that is no file of
        // its package, looked for here with any letter case.
        let dsf_model = agkit::dsf::read(&bytes).unwrap();
        let root = agkit::scenery::context::default_package(dsf);
        let names: Vec<String> = package::definitions(&dsf_model)
            .iter()
            .map(|d| d.to_string())
            .collect();
        for d in defs.iter().filter(|d| d.code == package::codes::MISSING) {
            let named = names
                .iter()
                .find(|n| d.message.starts_with(&format!("{n} is not found")))
                .unwrap_or_else(|| panic!("{}: {}", dsf.display(), d.message));
            let path = named.split_once("` ").unwrap().1;
            let rel = agkit::scenery::library::normalize(path);
            assert!(
                agkit::scenery::resolve::find_file(&root, &rel).is_none(),
                "{}: {path} is in the package",
                dsf.display()
            );
        }
    }
    let draped = draped_files_check(&files);
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    eprintln!(
        "{} package DSFs: {per_code:?}; {draped} draped art files in the corpus",
        dsfs.len()
    );
    // Some package names art of its own that the corpus does not copy
    // beside it, and every airport names Laminar's library.
    assert!(per_code.get(package::codes::MISSING).copied().unwrap_or(0) > 0);
    assert!(
        per_code
            .get(package::codes::NOT_LOOKED_UP)
            .copied()
            .unwrap_or(0)
            > 0
    );
}

/// A package's DSF read twice — once as its own bytes, once for its
/// definitions — gives each missing definition once whichever order the
/// DSFs come in.
#[test]
fn the_definitions_check_does_not_depend_on_the_order_given() {
    let dsfs: Vec<PathBuf> = corpus_files()
        .into_iter()
        .filter(|f| in_package_layout(f))
        .filter(|f| f.extension().is_some_and(|e| e.eq_ignore_ascii_case("dsf")))
        .collect();
    let dsfs = support::nonempty(dsfs, "package DSF");
    let scenery = Scenery::without_libraries(Conditions::default());
    let none = HashSet::new();
    let forward = scenery.check_definitions(&dsfs, &none);
    let mut back = dsfs.clone();
    back.reverse();
    assert_eq!(scenery.check_definitions(&back, &none), forward);
}
