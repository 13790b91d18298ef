//! File-system helpers: atomic writes that never leave a half-written file.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path` atomically: a temporary file in the same folder is
/// written, flushed and then renamed over `path`.
///
/// If anything fails the original file (if any) is untouched. A replaced
/// file keeps its permissions; a new file gets the usual `0666` less the
/// process umask (temporary files are created `0600`, which would otherwise
/// leak into every output).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomic_with(path, |w| w.write_all(bytes))
}

/// Like [`write_atomic`], but `fill` streams the content into the temporary
/// file (buffered), so the output never has to be held in memory. If `fill`
/// fails, the temporary file is removed and `path` is untouched.
pub fn write_atomic_with<T>(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<T>,
) -> std::io::Result<T> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let (tmp, out) = temp_beside(path, dir, fill)?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(out)
}

/// A temporary file in `dir` holding what `fill` wrote (buffered), with the
/// permissions `path` has (or a new file's default) and synced to disk,
/// ready to be renamed over `path`.
fn temp_beside<T>(
    path: &Path,
    dir: &Path,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<T>,
) -> std::io::Result<(tempfile::NamedTempFile, T)> {
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    let mut w = std::io::BufWriter::new(tmp.as_file_mut());
    let out = fill(&mut w)?;
    w.flush()?;
    drop(w);
    let perms = std::fs::metadata(path)
        .map(|m| m.permissions())
        .ok()
        .or_else(default_permissions);
    if let Some(perms) = perms {
        tmp.as_file().set_permissions(perms)?;
    }
    tmp.as_file().sync_all()?;
    Ok((tmp, out))
}

/// Writes several files as one step: every file is first written in full to
/// a temporary file beside its destination (creating missing folders), and
/// only when all of them are written are they renamed into place.
///
/// If writing any of them fails, no destination is touched, the temporary
/// files are removed, and so are the folders this call created (when empty).
/// Only a failure of a rename itself (rare: the temporary file is already in
/// the destination's folder) can leave the earlier files of the list
/// replaced.
pub fn write_all_atomic(files: &[(PathBuf, Vec<u8>)]) -> Result<(), (PathBuf, std::io::Error)> {
    let mut created: Vec<PathBuf> = Vec::new();
    let staged = stage(files, &mut created);
    let staged = match staged {
        Ok(s) => s,
        Err(e) => {
            // Deepest first, so nested new folders go too.
            for dir in created.iter().rev() {
                let _ = std::fs::remove_dir(dir);
            }
            return Err(e);
        }
    };
    for (tmp, (path, _)) in staged.into_iter().zip(files) {
        tmp.persist(path).map_err(|e| (path.clone(), e.error))?;
    }
    Ok(())
}

/// Writes each file's bytes to a temporary file beside it; records the
/// folders it had to create in `created` (outermost first).
fn stage(
    files: &[(PathBuf, Vec<u8>)],
    created: &mut Vec<PathBuf>,
) -> Result<Vec<tempfile::NamedTempFile>, (PathBuf, std::io::Error)> {
    let mut staged = Vec::with_capacity(files.len());
    for (path, bytes) in files {
        let dir = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let missing: Vec<PathBuf> = dir
            .ancestors()
            .take_while(|a| !a.as_os_str().is_empty() && !a.exists())
            .map(Path::to_path_buf)
            .collect();
        // Recorded before creating, so a half-made chain goes again too
        // (removing a folder that was never made fails harmlessly).
        created.extend(missing.into_iter().rev());
        std::fs::create_dir_all(&dir).map_err(|e| (dir.clone(), e))?;
        let (tmp, ()) =
            temp_beside(path, &dir, |w| w.write_all(bytes)).map_err(|e| (path.clone(), e))?;
        staged.push(tmp);
    }
    Ok(staged)
}

#[cfg(unix)]
fn default_permissions() -> Option<std::fs::Permissions> {
    use std::os::unix::fs::PermissionsExt;
    // Read the umask by creating a file with the default mode in a fresh
    // temporary directory; fall back to 0644.
    let mode = tempfile::tempdir()
        .and_then(|d| {
            let p = d.path().join("probe");
            std::fs::File::create(&p)?;
            Ok(std::fs::metadata(&p)?.permissions().mode() & 0o777)
        })
        .unwrap_or(0o644);
    Some(std::fs::Permissions::from_mode(mode))
}

#[cfg(not(unix))]
fn default_permissions() -> Option<std::fs::Permissions> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_content_and_leaves_no_temp() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.txt");
        std::fs::write(&p, b"old").unwrap();
        write_atomic(&p, b"new").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"new");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn writes_all_files_or_none() {
        let dir = tempfile::tempdir().unwrap();
        let kept = dir.path().join("kept.txt");
        std::fs::write(&kept, b"old").unwrap();
        // The second destination's folder cannot be created: a file is in
        // the way. Nothing may change, and the new folder `a/b` goes again.
        std::fs::write(dir.path().join("blocker"), b"").unwrap();
        let files = vec![
            (kept.clone(), b"new".to_vec()),
            (dir.path().join("a/b/one.txt"), b"1".to_vec()),
            (dir.path().join("blocker/two.txt"), b"2".to_vec()),
        ];
        let (failed, _) = write_all_atomic(&files).unwrap_err();
        assert_eq!(failed, dir.path().join("blocker"));
        assert_eq!(std::fs::read(&kept).unwrap(), b"old");
        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, ["blocker", "kept.txt"]);

        // Without the blocker every file is written.
        std::fs::remove_file(dir.path().join("blocker")).unwrap();
        write_all_atomic(&files).unwrap();
        for (path, bytes) in &files {
            assert_eq!(&std::fs::read(path).unwrap(), bytes);
        }
    }

    #[cfg(unix)]
    #[test]
    fn keeps_permissions_of_replaced_file_and_is_not_private_when_new() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("kept.txt");
        std::fs::write(&p, b"old").unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o640)).unwrap();
        write_atomic(&p, b"new").unwrap();
        assert_eq!(
            std::fs::metadata(&p).unwrap().permissions().mode() & 0o777,
            0o640
        );
        let q = dir.path().join("new.txt");
        write_atomic(&q, b"x").unwrap();
        let plain = dir.path().join("plain.txt");
        std::fs::write(&plain, b"x").unwrap();
        assert_eq!(
            std::fs::metadata(&q).unwrap().permissions().mode() & 0o777,
            std::fs::metadata(&plain).unwrap().permissions().mode() & 0o777
        );
    }
}
