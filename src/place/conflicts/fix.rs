//! Writing the fix of a conflict report: the overlay package of
//! [`super::fix_tiles`] put on disk, and where its line goes in
//! `scenery_packs.ini` (`agkit scenery conflicts --fix DIR`, Python's
//! `Installation.conflicts(fix=…)`).

use super::{ConflictReport, fix_tiles};
use std::path::{Path, PathBuf};

/// What [`write_fix`] wrote.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct FixWritten {
    /// The package folder.
    pub dir: PathBuf,
    /// The DSFs written, relative to the package (empty when the report
    /// holds nothing an exclusion fixes: then nothing is written).
    pub dsfs: Vec<String>,
    /// Exclusions in them.
    pub exclusions: usize,
    /// The `scenery_packs.ini` line that enables the package.
    pub line: String,
    /// The package whose line it goes above (the highest-priority package
    /// whose items it excludes), when there is one.
    pub above: Option<String>,
    /// True when `dir` is in the installation's Custom Scenery folder (else
    /// it must be moved there first).
    pub in_custom_scenery: bool,
}

/// Refuses a fix folder that holds anything, or is not a folder: a fix
/// writes a new package and never mixes into an old one.
pub fn check_fix_folder(dir: &Path) -> Result<(), String> {
    match std::fs::read_dir(dir) {
        Ok(mut entries) => {
            if entries.next().is_some() {
                return Err(format!(
                    "{}: a fix writes a new package and this folder is not empty; \
                     name a folder that does not exist yet",
                    dir.display()
                ));
            }
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(_) if dir.exists() => Err(format!(
            "{}: not a folder; name a folder that does not exist yet",
            dir.display()
        )),
        Err(e) => Err(format!("{}: {e}", dir.display())),
    }
}

/// Writes the overlay package excluding what `report` found
/// ([`fix_tiles`]: each DSF built and read back) into `dir`, which must
/// not exist yet or be empty ([`check_fix_folder`]); `custom` is the
/// installation's Custom Scenery folder, for the `scenery_packs.ini` line.
/// Each DSF is written to a temporary file and renamed; on an error the
/// DSFs already written are removed again.
pub fn write_fix(
    dir: &Path,
    report: &ConflictReport,
    custom: Option<&Path>,
) -> Result<FixWritten, String> {
    check_fix_folder(dir)?;
    let tiles = fix_tiles(report)?;
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| dir.display().to_string());
    let mut written: Vec<PathBuf> = Vec::new();
    let undo = |written: &[PathBuf]| {
        for p in written {
            let _ = std::fs::remove_file(p);
        }
    };
    for t in &tiles {
        let path = dir.join(&t.path);
        let made = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .map_err(|e| format!("{}: {e}", path.display()))
            .and_then(|()| {
                crate::fsutil::write_atomic(&path, &t.bytes)
                    .map_err(|e| format!("{}: {e}", path.display()))
            });
        if let Err(e) = made {
            undo(&written);
            return Err(e);
        }
        written.push(path);
    }
    let inside = !tiles.is_empty()
        && custom.is_some_and(|c| {
            let (Ok(d), Ok(c)) = (dir.canonicalize(), c.canonicalize()) else {
                return false;
            };
            d.parent() == Some(c.as_path())
        });
    let line = if inside {
        format!("SCENERY_PACK Custom Scenery/{name}/")
    } else {
        format!("SCENERY_PACK {}/", dir.display())
    };
    Ok(FixWritten {
        dir: dir.to_path_buf(),
        dsfs: tiles.iter().map(|t| t.path.clone()).collect(),
        exclusions: tiles.iter().map(|t| t.exclusions).sum(),
        line,
        above: report.fix_above.clone(),
        in_custom_scenery: inside,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fix_folder_must_be_new_or_empty_and_a_folder() {
        let d = tempfile::tempdir().unwrap();
        assert!(check_fix_folder(&d.path().join("new")).is_ok());
        assert!(check_fix_folder(d.path()).is_ok(), "empty");
        std::fs::write(d.path().join("f"), b"x").unwrap();
        let e = check_fix_folder(d.path()).unwrap_err();
        assert!(e.contains("not empty"), "{e}");
        let e = check_fix_folder(&d.path().join("f")).unwrap_err();
        assert!(e.contains("not a folder"), "{e}");
    }

    #[test]
    fn an_empty_report_writes_nothing() {
        let d = tempfile::tempdir().unwrap();
        let w = write_fix(&d.path().join("fix"), &ConflictReport::default(), None).unwrap();
        assert!(w.dsfs.is_empty());
        assert_eq!(w.exclusions, 0);
        assert!(!d.path().join("fix").exists());
    }
}
