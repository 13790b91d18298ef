//! Where the real files are, and the rows of the corpus manifest.

use std::path::{Path, PathBuf};

/// The folder named by the environment variable `var`, else `default`
/// (relative to the repository); a test that needs it fails here, with the
/// path it looked for, when it is missing.
fn folder(var: &str, default: &str, what: &str) -> PathBuf {
    let dir = match std::env::var_os(var) {
        Some(v) if !v.is_empty() => PathBuf::from(v),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join(default),
    };
    assert!(
        dir.is_dir(),
        "the real-file suite needs {what} at {} (set {var} to another folder); \
         it is missing, so this test cannot run and fails rather than pass vacuously",
        dir.display()
    );
    dir
}

/// The corpus of real files (`AGKIT_CORPUS`, default `../shared/corpus`).
pub fn root() -> PathBuf {
    let dir = folder(
        "AGKIT_CORPUS",
        "../shared/corpus",
        "the corpus of real files",
    );
    assert!(
        dir.join("MANIFEST.tsv").is_file(),
        "{} has no MANIFEST.tsv: not the corpus the real-file suite reads",
        dir.display()
    );
    dir
}

/// The published format texts (`AGKIT_SPECS`, default `../shared/specs`).
pub fn specs() -> PathBuf {
    folder(
        "AGKIT_SPECS",
        "../shared/specs",
        "the format specifications",
    )
}

/// A path inside the corpus, which must exist.
pub fn file(rel: &str) -> PathBuf {
    let p = root().join(rel);
    assert!(p.exists(), "the corpus has no {}", p.display());
    p
}

/// One row of `MANIFEST.tsv`.
#[derive(Debug, Clone)]
pub struct Row {
    /// The file, inside the corpus.
    pub path: PathBuf,
    /// The path relative to the corpus (`local_path`).
    pub rel: String,
    /// The repository it came from (`owner/name`).
    #[allow(dead_code)] // for messages naming a file's origin
    pub repo: String,
    /// The `format` column (`dsf`, `agp`, `library`, `obj`, …).
    pub format: String,
    /// The `note` column (empty when none).
    pub note: String,
}

/// Every row of `MANIFEST.tsv`, in its order.
pub fn rows() -> Vec<Row> {
    let root = root();
    let manifest = std::fs::read_to_string(root.join("MANIFEST.tsv"))
        .unwrap_or_else(|e| panic!("{}: {e}", root.join("MANIFEST.tsv").display()));
    let mut lines = manifest.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split('\t').collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .unwrap_or_else(|| panic!("MANIFEST.tsv has no column {name}: {header:?}"))
    };
    let (path, repo, format, note) = (col("local_path"), col("repo"), col("format"), col("note"));
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let get = |i: usize| f.get(i).copied().unwrap_or_default().to_string();
            Row {
                path: root.join(get(path)),
                rel: get(path),
                repo: get(repo),
                format: get(format),
                note: get(note),
            }
        })
        .collect()
}

/// The rows whose `format` is one of `formats` (case-insensitive).
pub fn rows_of(formats: &[&str]) -> Vec<Row> {
    rows()
        .into_iter()
        .filter(|r| formats.iter().any(|f| r.format.eq_ignore_ascii_case(f)))
        .collect()
}

/// The files whose `format` is one of `formats`, in manifest order.
pub fn files_of(formats: &[&str]) -> Vec<PathBuf> {
    rows_of(formats).into_iter().map(|r| r.path).collect()
}

/// Asserts the manifest lists at least one file of `format`, so that a
/// test over "every file of a kind" cannot pass on none.
pub fn nonempty<T>(v: Vec<T>, format: &str) -> Vec<T> {
    assert!(
        !v.is_empty(),
        "MANIFEST.tsv lists no {format} file: the test would check nothing"
    );
    v
}
