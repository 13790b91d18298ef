//! The installation model: which scenery packages exist and in what
//! priority order the simulator loads them.
//!
//! [`Installation::open`] takes the X-Plane folder (it holds `Custom
//! Scenery`) or a `Custom Scenery` folder alone, and orders the packages as
//! X-Plane does:
//!
//! 1. packs in `Custom Scenery` that `scenery_packs.ini` does not list, in
//!    alphabetical order: the simulator adds new packs to the top of the
//!    file when it starts;
//! 2. the packs of `scenery_packs.ini`, top first (`SCENERY_PACK_DISABLED`
//!    ones are kept, marked disabled); `*GLOBAL_AIRPORTS*` stands for
//!    `Global Scenery/Global Airports` (X-Plane 12) or `Custom
//!    Scenery/Global Airports` (X-Plane 11). Without the file, every pack
//!    of `Custom Scenery` in alphabetical order (the order X-Plane writes
//!    into a new file, and the only order before X-Plane 10.10);
//! 3. the packs of `Resources/default scenery`, then those of `Global
//!    Scenery` (the base meshes), alphabetically: everything in `Custom
//!    Scenery` outranks the scenery that ships with the simulator.

use super::packs::{self, GLOBAL_AIRPORTS, PacksIni};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// Where a package's rank comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    /// A line of `scenery_packs.ini`.
    Ini {
        /// 1-based line.
        line: usize,
    },
    /// A `Custom Scenery` folder the ini does not list (ranked first).
    NotListed,
    /// A `Custom Scenery` folder ranked alphabetically (no ini).
    Alphabetical,
    /// `Resources/default scenery`.
    Default,
    /// `Global Scenery`.
    Global,
}

/// One scenery package.
#[derive(Debug, Clone, PartialEq)]
pub struct Package {
    /// The folder name (`*GLOBAL_AIRPORTS*` for the placeholder).
    pub name: String,
    /// The folder.
    pub path: PathBuf,
    /// Rank: 0 is the highest priority.
    pub priority: usize,
    /// False when disabled in `scenery_packs.ini`.
    pub enabled: bool,
    /// Where the rank comes from.
    pub origin: Origin,
    /// True when the folder exists.
    pub exists: bool,
}

impl Package {
    /// The package's `library.txt`, when it has one: anything of that
    /// name, so that one which is a folder, a pipe or a dangling link is
    /// reported as unreadable rather than passed over.
    pub fn library_file(&self) -> Option<PathBuf> {
        let f = self.path.join("library.txt");
        std::fs::symlink_metadata(&f).is_ok().then_some(f)
    }
}

/// Why an installation could not be opened.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum InstallError {
    /// The folder is not an X-Plane or Custom Scenery folder.
    #[error(
        "{0}: not an X-Plane folder (no `Custom Scenery` in it) nor a Custom Scenery folder \
         (no `scenery_packs.ini` and no scenery package in it)"
    )]
    NotAnInstallation(PathBuf),
    /// A file was given where a folder is wanted.
    #[error("{0}: a file, not a folder; give the X-Plane folder or its Custom Scenery folder")]
    NotAFolder(PathBuf),
    /// A folder could not be read.
    #[error("{0}: {1}")]
    Io(PathBuf, std::io::Error),
    /// A file could not be read: missing, not a regular file, or larger
    /// than agkit reads.
    #[error(transparent)]
    Input(#[from] crate::fsutil::InputError),
}

/// An X-Plane installation's scenery packages in priority order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Installation {
    /// The X-Plane folder (the parent of `Custom Scenery`).
    pub root: PathBuf,
    /// The `Custom Scenery` folder.
    pub custom: PathBuf,
    /// Every package, highest priority first (disabled ones included).
    pub packages: Vec<Package>,
    /// `scenery_packs.ini`, when there is one.
    pub ini: Option<PacksIni>,
    /// Its path.
    pub ini_path: PathBuf,
}

/// Reads a text file of at most `max` bytes (lossy UTF-8) through the input
/// gate ([`crate::fsutil::read_input`]): a directory, pipe or device of
/// that name is refused, never read.
pub(crate) fn read_text(path: &Path, role: &str, max: u64) -> Result<String, InstallError> {
    let bytes = crate::fsutil::read_input(path, role, max)?;
    Ok(match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}

/// The sub-folders of `dir` (not hidden), sorted by name; none when `dir`
/// cannot be read.
fn subfolders(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    v.sort_by_key(|p| folder_name(p).to_lowercase());
    v
}

/// The last component of a path, lossy.
pub fn folder_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| p.display().to_string())
}

/// The child of `dir` called `name`, compared without case (`Earth nav
/// data` is spelt several ways), preferring the exact spelling.
pub fn child_ci(dir: &Path, name: &str) -> Option<PathBuf> {
    let exact = dir.join(name);
    if exact.exists() {
        return Some(exact);
    }
    std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .find(|e| same_name(&e.file_name(), name))
        .map(|e| e.path())
}

/// True when the folder entry `entry` is `name` in any letter case, as
/// [`child_ci`] compares them (ASCII letters only; a name that is not
/// UTF-8 compared as its lossy form).
pub fn same_name(entry: &std::ffi::OsStr, name: &str) -> bool {
    entry.to_string_lossy().eq_ignore_ascii_case(name)
}

impl Installation {
    /// The X-Plane folder whose `Custom Scenery` holds `path` (a package,
    /// or a file or folder in one): the folder above `Custom Scenery` when
    /// it has a `Resources` folder, as every X-Plane folder does. `None`
    /// when `path` is in no installation.
    pub fn holding(path: &Path) -> Option<PathBuf> {
        let abs = std::path::absolute(path).ok()?;
        let custom = abs.ancestors().find(|a| {
            a.file_name()
                .is_some_and(|n| n.eq_ignore_ascii_case("Custom Scenery"))
        })?;
        let root = custom.parent()?;
        child_ci(root, "Resources")
            .filter(|r| r.is_dir())
            .map(|_| root.to_path_buf())
    }
}

/// Every `.dsf` file under `dir` (any depth, extension in any case),
/// sorted by path.
pub fn dsf_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = crate::fsutil::walk(dir)
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(walkdir::DirEntry::into_path)
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("dsf")))
        .collect();
    v.sort();
    v
}

/// True when a folder looks like a scenery package.
fn is_package(dir: &Path) -> bool {
    dir.join("library.txt").is_file()
        || child_ci(dir, "Earth nav data").is_some()
        || dir.join("apt.dat").is_file()
}

impl Installation {
    /// Opens the X-Plane folder or `Custom Scenery` folder `dir`.
    pub fn open(dir: &Path) -> Result<Installation, InstallError> {
        match std::fs::metadata(dir) {
            Err(e) => return Err(InstallError::Io(dir.to_path_buf(), e)),
            Ok(m) if !m.is_dir() => return Err(InstallError::NotAFolder(dir.to_path_buf())),
            Ok(_) => {}
        }
        let (root, custom) = if let Some(c) = child_ci(dir, "Custom Scenery").filter(|c| c.is_dir())
        {
            (dir.to_path_buf(), c)
        } else if dir.join("scenery_packs.ini").is_file()
            || subfolders(dir).iter().any(|p| is_package(p))
        {
            // `Custom Scenery` given from the X-Plane folder has the empty
            // parent, which is `.`, not `..` (that is the parent of `.`).
            let root = dir
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .map_or_else(|| dir.join(".."), Path::to_path_buf);
            (root, dir.to_path_buf())
        } else {
            return Err(InstallError::NotAnInstallation(dir.to_path_buf()));
        };
        let ini_path = custom.join("scenery_packs.ini");
        // Anything of that name is read through the gate: a folder or a
        // pipe called scenery_packs.ini is an error naming it.
        let ini = if std::fs::symlink_metadata(&ini_path).is_ok() {
            Some(packs::parse(&read_text(
                &ini_path,
                "scenery_packs.ini",
                packs::MAX_INI_BYTES,
            )?))
        } else {
            None
        };
        let mut inst = Installation {
            root,
            custom,
            packages: Vec::new(),
            ini,
            ini_path,
        };
        inst.rank();
        Ok(inst)
    }

    /// Fills [`Installation::packages`] in priority order.
    fn rank(&mut self) {
        let on_disk = subfolders(&self.custom);
        // Packs already ranked, by folder and name without case: a set, not
        // a list searched per pack (installations hold thousands of packs).
        let mut listed: HashSet<(Option<PathBuf>, String)> = HashSet::new();
        let mut out: Vec<Package> = Vec::new();
        let key = |p: &Path| {
            (
                p.parent().map(Path::to_path_buf),
                folder_name(p).to_ascii_lowercase(),
            )
        };
        if let Some(ini) = &self.ini {
            for e in &ini.entries {
                let path = if e.is_global_airports() {
                    self.global_airports()
                } else {
                    self.entry_path(&e.path)
                };
                // The folder in other letter case when only that exists (as
                // Windows and macOS find it; listing packs already matches
                // names without case), not a pack that vanishes.
                let path = match path.parent() {
                    Some(dir) if !path.is_dir() => child_ci(dir, &folder_name(&path))
                        .filter(|p| p.is_dir())
                        .unwrap_or(path),
                    _ => path,
                };
                // A pack listed again is loaded once, where it is first
                // listed (`scenery check` reports the repeat).
                if !listed.insert(key(&path)) {
                    continue;
                }
                out.push(Package {
                    name: if e.is_global_airports() {
                        GLOBAL_AIRPORTS.to_string()
                    } else {
                        folder_name(&path)
                    },
                    exists: path.is_dir(),
                    path,
                    priority: 0,
                    enabled: e.enabled,
                    origin: Origin::Ini { line: e.line },
                });
            }
            let new: Vec<Package> = on_disk
                .iter()
                .filter(|p| !listed.contains(&key(p)))
                .map(|p| Package {
                    name: folder_name(p),
                    path: p.clone(),
                    priority: 0,
                    enabled: true,
                    origin: Origin::NotListed,
                    exists: true,
                })
                .collect();
            out.splice(0..0, new);
        } else {
            out.extend(on_disk.iter().map(|p| Package {
                name: folder_name(p),
                path: p.clone(),
                priority: 0,
                enabled: true,
                origin: Origin::Alphabetical,
                exists: true,
            }));
        }
        let default =
            child_ci(&self.root, "Resources").and_then(|r| child_ci(&r, "default scenery"));
        for (dir, origin) in [
            (default, Origin::Default),
            (child_ci(&self.root, "Global Scenery"), Origin::Global),
        ] {
            let Some(dir) = dir else { continue };
            for p in subfolders(&dir) {
                if out.iter().any(|o| o.path == p) {
                    continue;
                }
                out.push(Package {
                    name: folder_name(&p),
                    path: p,
                    priority: 0,
                    enabled: true,
                    origin,
                    exists: true,
                });
            }
        }
        for (k, p) in out.iter_mut().enumerate() {
            p.priority = k;
        }
        self.packages = out;
    }

    /// A `scenery_packs.ini` path: relative to the X-Plane folder, or
    /// absolute.
    fn entry_path(&self, path: &str) -> PathBuf {
        let p = Path::new(path);
        if p.is_absolute() || path.get(1..3) == Some(":/") {
            return p.to_path_buf();
        }
        // "Custom Scenery/X" relative to the root; when only the Custom
        // Scenery folder was given and its parent has no such folder, look
        // beside the ini.
        let mut parts = path.splitn(2, '/');
        let first = parts.next().unwrap_or("");
        let rest = parts.next().unwrap_or("");
        if first.eq_ignore_ascii_case("Custom Scenery") {
            return self.custom.join(rest);
        }
        self.root.join(path)
    }

    /// Where `*GLOBAL_AIRPORTS*` lives.
    fn global_airports(&self) -> PathBuf {
        let xp12 = child_ci(&self.root, "Global Scenery").map(|g| g.join("Global Airports"));
        let xp11 = self.custom.join("Global Airports");
        match xp12 {
            Some(p) if p.is_dir() => p,
            _ if xp11.is_dir() => xp11,
            Some(p) => p,
            None => self.root.join("Global Scenery").join("Global Airports"),
        }
    }

    /// The enabled packages, highest priority first.
    pub fn enabled(&self) -> impl Iterator<Item = &Package> {
        self.packages.iter().filter(|p| p.enabled && p.exists)
    }

    /// The package holding `file` (the deepest package folder above it),
    /// by the paths as given, else by their canonical forms (links,
    /// `..`).
    pub fn package_of(&self, file: &Path) -> Option<&Package> {
        let deepest = |root: &dyn Fn(&Package) -> bool| {
            self.packages
                .iter()
                .filter(|p| root(p))
                .max_by_key(|p| p.path.components().count())
        };
        if let Some(p) = deepest(&|p| file.starts_with(&p.path)) {
            return Some(p);
        }
        let file = file.canonicalize().ok()?;
        deepest(&|p| {
            p.path
                .canonicalize()
                .is_ok_and(|root| file.starts_with(&root))
        })
    }

    /// A package's path shown relative to the X-Plane folder when it is
    /// inside it.
    pub fn display_path(&self, p: &Package) -> String {
        let rel = p.path.strip_prefix(&self.root).unwrap_or(&p.path);
        let mut s = rel.display().to_string().replace('\\', "/");
        if !s.ends_with('/') {
            s.push('/');
        }
        s
    }
}

/// A path shown relative to `root` when inside it, with `/`.
pub fn relative(path: &Path, root: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string()
        .replace('\\', "/")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mkdirs(root: &Path, dirs: &[&str]) {
        for d in dirs {
            std::fs::create_dir_all(root.join(d)).unwrap();
        }
    }

    #[test]
    fn orders_as_the_simulator() {
        let t = tempfile::tempdir().unwrap();
        let r = t.path();
        mkdirs(
            r,
            &[
                "Custom Scenery/B Airport/Earth nav data",
                "Custom Scenery/A Lib",
                "Custom Scenery/New Pack",
                "Custom Scenery/Z Mesh",
                "Global Scenery/Global Airports",
                "Global Scenery/X-Plane 12 Global Scenery",
                "Resources/default scenery/1000 autogen",
            ],
        );
        std::fs::write(
            r.join("Custom Scenery/scenery_packs.ini"),
            "I\n1000 Version\nSCENERY\n\nSCENERY_PACK Custom Scenery/b AIRPORT/\n\
             SCENERY_PACK *GLOBAL_AIRPORTS*\nSCENERY_PACK_DISABLED Custom Scenery/A Lib/\n\
             SCENERY_PACK Custom Scenery/Gone/\nSCENERY_PACK Custom Scenery/Z Mesh/\n",
        )
        .unwrap();
        let inst = Installation::open(r).unwrap();
        let names: Vec<(&str, bool, bool)> = inst
            .packages
            .iter()
            .map(|p| (p.name.as_str(), p.enabled, p.exists))
            .collect();
        assert_eq!(
            names,
            [
                ("New Pack", true, true),
                ("B Airport", true, true),
                ("*GLOBAL_AIRPORTS*", true, true),
                ("A Lib", false, true),
                ("Gone", true, false),
                ("Z Mesh", true, true),
                ("1000 autogen", true, true),
                ("X-Plane 12 Global Scenery", true, true),
            ]
        );
        assert_eq!(
            inst.packages[2].path,
            r.join("Global Scenery/Global Airports")
        );
        // Listed in other letter case: the folder on disk, at its line.
        assert_eq!(inst.packages[1].path, r.join("Custom Scenery/B Airport"));
        assert_eq!(inst.packages[1].origin, Origin::Ini { line: 5 });
        assert_eq!(inst.packages[0].origin, Origin::NotListed);
        assert_eq!(inst.packages[6].origin, Origin::Default);
        assert_eq!(inst.enabled().count(), 6);
        // The Custom Scenery folder alone works too.
        let cs = Installation::open(&r.join("Custom Scenery")).unwrap();
        assert_eq!(cs.packages[1].path, r.join("Custom Scenery/B Airport"));
        assert_eq!(
            cs.package_of(&r.join("Custom Scenery/B Airport/Earth nav data"))
                .map(|p| p.name.as_str()),
            Some("B Airport")
        );
    }

    #[test]
    fn thousands_of_packs_rank_once_each() {
        // Ortho4XP makes a pack per tile: installations hold thousands.
        const N: usize = 600;
        let t = tempfile::tempdir().unwrap();
        let cs = t.path().join("Custom Scenery");
        let name = |i: usize| format!("zOrtho4XP_{i:04}");
        for i in 0..N {
            std::fs::create_dir_all(cs.join(name(i))).unwrap();
        }
        // The ini lists the even packs, last first, and one again in
        // other letter case.
        let mut ini = String::from("I\n1000 Version\nSCENERY\n");
        for i in (0..N).rev().filter(|i| i % 2 == 0) {
            ini.push_str(&format!("SCENERY_PACK Custom Scenery/{}/\n", name(i)));
        }
        ini.push_str("SCENERY_PACK custom scenery/ZORTHO4XP_0000/\n");
        std::fs::write(cs.join("scenery_packs.ini"), ini).unwrap();
        let inst = Installation::open(t.path()).unwrap();
        assert!(inst.ini.as_ref().unwrap().diagnostics.is_empty());
        let got: Vec<&str> = inst.packages.iter().map(|p| p.name.as_str()).collect();
        let want: Vec<String> = (0..N)
            .filter(|i| i % 2 == 1)
            .chain((0..N).rev().filter(|i| i % 2 == 0))
            .map(name)
            .collect();
        assert_eq!(got, want);
        assert!(
            inst.packages[..N / 2]
                .iter()
                .all(|p| p.origin == Origin::NotListed)
        );
        assert_eq!(
            inst.packages[N - 1].origin,
            Origin::Ini {
                line: 4 + N / 2 - 1
            }
        );
    }

    /// A pack whose folder name is not UTF-8 (Latin-1 on Linux): the
    /// ini, read lossily, names it with U+FFFD; it is still that folder,
    /// at its line, not a missing pack and an unlisted one.
    #[cfg(unix)]
    #[test]
    fn a_pack_named_in_latin_1_keeps_its_rank() {
        use std::os::unix::ffi::OsStrExt;
        let t = tempfile::tempdir().unwrap();
        let cs = t.path().join("Custom Scenery");
        let cafe = cs.join(std::ffi::OsStr::from_bytes(b"Caf\xe9"));
        mkdirs(t.path(), &["Custom Scenery/A", "Custom Scenery/Z"]);
        std::fs::create_dir_all(&cafe).unwrap();
        std::fs::write(
            cs.join("scenery_packs.ini"),
            b"I\n1000 Version\nSCENERY\nSCENERY_PACK Custom Scenery/Z/\n\
              SCENERY_PACK Custom Scenery/Caf\xe9/\nSCENERY_PACK Custom Scenery/A/\n",
        )
        .unwrap();
        let inst = Installation::open(t.path()).unwrap();
        let got: Vec<(&Path, bool, Origin)> = inst
            .packages
            .iter()
            .map(|p| (p.path.as_path(), p.exists, p.origin))
            .collect();
        assert_eq!(
            got,
            [
                (cs.join("Z").as_path(), true, Origin::Ini { line: 4 }),
                (cafe.as_path(), true, Origin::Ini { line: 5 }),
                (cs.join("A").as_path(), true, Origin::Ini { line: 6 }),
            ]
        );
    }

    #[test]
    fn reads_are_bounded() {
        let t = tempfile::tempdir().unwrap();
        let f = t.path().join("library.txt");
        std::fs::write(&f, vec![b'x'; 100]).unwrap();
        assert_eq!(read_text(&f, "library.txt", 100).unwrap().len(), 100);
        let e = read_text(&f, "library.txt", 99).unwrap_err();
        assert!(
            e.to_string().contains("100 bytes is more than the 99"),
            "{e}"
        );
    }

    #[test]
    fn alphabetical_without_ini_and_refuses_other_folders() {
        let t = tempfile::tempdir().unwrap();
        mkdirs(t.path(), &["b/Earth nav data", "A"]);
        let inst = Installation::open(t.path()).unwrap();
        let names: Vec<&str> = inst.packages.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["A", "b"]);
        assert!(
            inst.packages
                .iter()
                .all(|p| p.origin == Origin::Alphabetical)
        );
        let empty = tempfile::tempdir().unwrap();
        let e = Installation::open(empty.path()).unwrap_err();
        assert!(e.to_string().contains("not an X-Plane folder"), "{e}");
    }
}
