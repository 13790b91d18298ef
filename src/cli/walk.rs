//! The files a command reads under the folders it is given.

use super::output::EXIT_INPUT;
use std::path::{Path, PathBuf};

/// Expands `paths`: a folder into the files under it that `keep` accepts
/// (in path order), a file or `-` as it is. A missing path is exit 2; a
/// folder holding no such file is exit 1, the message naming the folder
/// and `what` was looked for, so that a run on nothing never passes as a
/// clean one.
pub fn gather(
    paths: &[PathBuf],
    keep: impl Fn(&Path) -> bool,
    what: &str,
) -> Result<Vec<PathBuf>, u8> {
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut found: Vec<PathBuf> = agkit::fsutil::walk(p)
                .filter_map(Result::ok)
                .filter(|e| e.file_type().is_file())
                .map(|e| e.into_path())
                .filter(|f| keep(f))
                .collect();
            if found.is_empty() {
                eprintln!(
                    "error: {}: no {what} under this folder, so nothing is done; name \
                     another folder or the files themselves",
                    p.display()
                );
                return Err(EXIT_INPUT);
            }
            found.sort();
            files.extend(found);
        } else if p.exists() || super::output::is_stdin(p) {
            files.push(p.clone());
        } else {
            return Err(super::output::fail(format!(
                "{}: no such file or folder; check the name and the folder (a relative path \
                 starts from the current folder)",
                p.display()
            )));
        }
    }
    Ok(files)
}
