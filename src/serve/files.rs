//! What the server may read: the assets, polygon files and DSF tiles under
//! the served PATH (and the art and textures they name there), and nothing
//! else.
//!
//! A client names a file by its path relative to the root, `/`-separated.
//! [`Root::resolve`] refuses absolute paths, `..` and any other component
//! that is not a plain name, then canonicalizes the result (resolving
//! symlinks) and checks that it is still under the canonical root.

use std::path::{Component, Path, PathBuf};
use std::time::SystemTime;

/// Largest file the server reads (assets and polygon files).
pub const MAX_FILE: u64 = 16 * 1024 * 1024;
/// Most files listed (and watched) under a root.
pub const MAX_FILES: usize = 20_000;
/// Default of the most entries (files and folders of any kind) one scan of
/// the tree visits: a folder of millions of files costs a bounded walk, and
/// the listing says where it stopped.
pub const MAX_ENTRIES: usize = 100_000;

/// What a listed file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FileType {
    /// An `.agp`, `.agb` or `.ags` text asset.
    Asset,
    /// A `.geojson` (or `.json`) polygon file.
    Polygon,
    /// A `.dsf` tile, plain or 7z-compressed.
    Dsf,
}

/// The type of a file from its extension.
pub fn file_type(path: &Path) -> Option<FileType> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    match ext.as_str() {
        "agp" | "agb" | "ags" => Some(FileType::Asset),
        "geojson" | "json" => Some(FileType::Polygon),
        "dsf" => Some(FileType::Dsf),
        _ => None,
    }
}

/// One file under the root, as the watcher last saw it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Entry {
    /// Path relative to the root, `/`-separated.
    pub rel: String,
    /// Asset or polygon file.
    pub kind: FileType,
    /// Modification time.
    pub modified: Option<SystemTime>,
    /// Size in bytes.
    pub len: u64,
}

/// Why a path was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The path tries to leave the root or is not a plain relative path.
    Forbidden(String),
    /// No such file (or not one the server serves).
    NotFound(String),
}

/// The served tree: a directory, or a single file in it.
#[derive(Debug, Clone)]
pub struct Root {
    dir: PathBuf,
    only: Option<PathBuf>,
    max_entries: usize,
}

impl Root {
    /// The root for PATH (a directory, or one asset file).
    pub fn new(path: &Path) -> std::io::Result<Root> {
        let canon = path.canonicalize()?;
        if canon.is_dir() {
            Ok(Root {
                dir: canon,
                only: None,
                max_entries: MAX_ENTRIES,
            })
        } else {
            let dir = canon
                .parent()
                .map(Path::to_path_buf)
                .ok_or_else(|| std::io::Error::other("the path has no parent directory"))?;
            Ok(Root {
                dir,
                only: Some(canon),
                max_entries: MAX_ENTRIES,
            })
        }
    }

    /// The canonical directory served.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The same root, its scans visiting at most `n` entries.
    pub fn with_max_entries(mut self, n: usize) -> Root {
        self.max_entries = n;
        self
    }

    /// True when one file (and the polygon files beside it) is served.
    pub fn is_single_file(&self) -> bool {
        self.only.is_some()
    }

    /// Maps a client path to a file under the root, or refuses it.
    pub fn resolve(&self, rel: &str) -> Result<PathBuf, Refusal> {
        self.resolve_kind(
            rel,
            |p| file_type(p).is_some(),
            "an .agp/.agb/.ags/.geojson/.dsf file",
        )
    }

    /// Maps a client path to a texture (`.png`, `.dds`) under the root
    /// (the previewer's textured view), or refuses it as [`Root::resolve`]
    /// refuses any other path.
    pub fn resolve_texture(&self, rel: &str) -> Result<PathBuf, Refusal> {
        let texture = |p: &Path| {
            p.extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| e.eq_ignore_ascii_case("png") || e.eq_ignore_ascii_case("dds"))
        };
        self.resolve_kind(rel, texture, "a .png or .dds texture")
    }

    fn resolve_kind(
        &self,
        rel: &str,
        kind: impl Fn(&Path) -> bool,
        noun: &str,
    ) -> Result<PathBuf, Refusal> {
        if rel.is_empty() {
            return Err(Refusal::NotFound("no path given".into()));
        }
        if rel.contains('\\') || rel.contains('\0') || rel.contains(':') {
            return Err(Refusal::Forbidden(format!(
                "{rel}: not a plain relative path"
            )));
        }
        let p = Path::new(rel);
        for c in p.components() {
            match c {
                Component::Normal(_) => {}
                _ => {
                    return Err(Refusal::Forbidden(format!(
                        "{rel}: only plain names below the served folder are allowed"
                    )));
                }
            }
        }
        if !kind(p) {
            return Err(Refusal::NotFound(format!("{rel}: not {noun}")));
        }
        let joined = self.dir.join(p);
        let canon = joined
            .canonicalize()
            .map_err(|_| Refusal::NotFound(format!("{rel}: no such file")))?;
        if !canon.starts_with(&self.dir) {
            return Err(Refusal::Forbidden(format!(
                "{rel}: leads outside the served folder"
            )));
        }
        if let Some(only) = &self.only
            && &canon != only
            && matches!(file_type(&canon), Some(FileType::Asset | FileType::Dsf))
        {
            return Err(Refusal::Forbidden(format!("{rel}: not the served file")));
        }
        if !canon.is_file() {
            return Err(Refusal::NotFound(format!("{rel}: not a file")));
        }
        Ok(canon)
    }

    /// Reads a resolved file's bytes (bounded by [`MAX_FILE`]).
    pub fn read_bytes(&self, rel: &str) -> Result<Vec<u8>, Refusal> {
        let path = self.resolve(rel)?;
        let role = match file_type(&path) {
            Some(FileType::Polygon) => "a polygon file",
            Some(FileType::Dsf) => "a DSF tile",
            _ => "an autogen asset",
        };
        crate::fsutil::read_file(&path, role, MAX_FILE)
            .map_err(|e| Refusal::NotFound(format!("{rel}: {}", e.reason())))
    }

    /// Reads a resolved file as text (lossy for invalid UTF-8, bounded).
    pub fn read(&self, rel: &str) -> Result<String, Refusal> {
        let bytes = self.read_bytes(rel)?;
        Ok(match String::from_utf8(bytes) {
            Ok(s) => s,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        })
    }

    /// Lists the assets, polygon files and DSF tiles under the root, sorted
    /// by path.
    ///
    /// Hidden directories (`.git`, …) are skipped; symlinks are followed only
    /// when they stay inside the root.
    pub fn scan(&self) -> Vec<Entry> {
        self.scan_noting().0
    }

    /// [`Root::scan`], and a note when the listing is cut short: more than
    /// [`MAX_FILES`] files, or more entries under the root than a scan
    /// visits ([`Root::with_max_entries`], [`MAX_ENTRIES`] by default).
    pub fn scan_noting(&self) -> (Vec<Entry>, Option<String>) {
        let mut out = Vec::new();
        if let Some(only) = &self.only {
            if let Some(e) = self.entry(only, true) {
                out.push(e);
            }
            // Polygon files beside a single asset are served too.
            for e in std::fs::read_dir(&self.dir).into_iter().flatten().flatten() {
                let p = e.path();
                if file_type(&p) == Some(FileType::Polygon)
                    && let Some(e) = self.entry(&p, true)
                {
                    out.push(e);
                }
            }
            out.sort();
            return (out, None);
        }
        let walker = walkdir::WalkDir::new(&self.dir)
            .follow_links(false)
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|e| {
                e.depth() == 0 || !e.file_name().to_str().is_some_and(|n| n.starts_with('.'))
            });
        let mut note = None;
        for (seen, e) in walker.filter_map(Result::ok).enumerate() {
            if out.len() >= MAX_FILES {
                note = Some(format!(
                    "more than {MAX_FILES} assets and polygon files under {}: only the first \
                     {MAX_FILES} are listed and watched",
                    self.dir.display()
                ));
                break;
            }
            if seen >= self.max_entries {
                note = Some(format!(
                    "more than {} files and folders under {}: the listing stopped there, and \
                     files past them are neither listed nor watched (serve a smaller folder)",
                    self.max_entries,
                    self.dir.display()
                ));
                break;
            }
            let ft = e.file_type();
            if (ft.is_file() || ft.is_symlink())
                && let Some(entry) = self.entry(e.path(), ft.is_symlink())
            {
                out.push(entry);
            }
        }
        out.sort();
        (out, note)
    }

    /// The entry of a file found under the root. Plain files found by the
    /// walk (which does not follow directory symlinks) are inside by
    /// construction; symlinks are resolved and checked.
    fn entry(&self, path: &Path, resolve: bool) -> Option<Entry> {
        let kind = file_type(path)?;
        let rel_path = path.strip_prefix(&self.dir).ok()?;
        let rel = rel_path
            .components()
            .map(|c| c.as_os_str().to_str())
            .collect::<Option<Vec<_>>>()?
            .join("/");
        let meta = if resolve {
            // Symlinks: only those that stay inside the root.
            let canon = path.canonicalize().ok()?;
            if !canon.starts_with(&self.dir) {
                return None;
            }
            std::fs::metadata(&canon).ok()?
        } else {
            std::fs::symlink_metadata(path).ok()?
        };
        if !meta.is_file() {
            return None;
        }
        Some(Entry {
            rel,
            kind,
            modified: meta.modified().ok(),
            len: meta.len(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_escapes() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.ags"), "x").unwrap();
        let root = Root::new(dir.path()).unwrap();
        assert!(root.resolve("a.ags").is_ok());
        for bad in [
            "../a.ags",
            "/etc/passwd.ags",
            "sub/../../a.ags",
            "./a.ags",
            "..",
            "C:/x.ags",
            "..\\a.ags",
        ] {
            assert!(
                matches!(root.resolve(bad), Err(Refusal::Forbidden(_))),
                "{bad}"
            );
        }
        assert!(matches!(
            root.resolve("missing.ags"),
            Err(Refusal::NotFound(_))
        ));
        assert!(matches!(root.resolve("a.txt"), Err(Refusal::NotFound(_))));
    }

    #[cfg(unix)]
    #[test]
    fn symlink_out_of_root_is_refused_and_not_listed() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.ags"), "x").unwrap();
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("in.ags"), "x").unwrap();
        std::os::unix::fs::symlink(
            outside.path().join("secret.ags"),
            dir.path().join("link.ags"),
        )
        .unwrap();
        std::os::unix::fs::symlink(dir.path().join("in.ags"), dir.path().join("ok.ags")).unwrap();
        let root = Root::new(dir.path()).unwrap();
        assert!(matches!(
            root.resolve("link.ags"),
            Err(Refusal::Forbidden(_))
        ));
        assert!(root.resolve("ok.ags").is_ok());
        let names: Vec<String> = root.scan().into_iter().map(|e| e.rel).collect();
        assert_eq!(names, ["in.ags", "ok.ags"]);
    }
}
