//! File-system helpers: atomic writes that never leave a half-written file
//! where a later command would read it, and the directory walk that skips
//! what an interrupted write may leave behind.
//!
//! A write goes to a temporary file beside its destination, named
//! [`TEMP_PREFIX`] + random letters (hidden, and with no extension), and is
//! renamed over the destination only once complete. The temporary file is
//! removed on every error path and, once [`remove_temp_files_on_signals`]
//! is installed (the `agkit` command does), on SIGINT and SIGTERM too; only
//! a process killed outright (SIGKILL, power loss) can leave one, and
//! [`walk`] — which every command that searches a directory uses — never
//! yields it.
//!
//! Inputs go through one gate, [`open_input`] / [`read_input`]: a regular
//! file (symbolic links followed) or standard input read with a byte cap;
//! a directory, named pipe, device or socket is refused by name before
//! anything could block on it. Outputs go through another: once
//! a program calls [`guard_inputs`], no write replaces a file it reads, and
//! [`OutputError`] words what went wrong with an output.

mod guard;

pub use guard::{
    IsInput, OutputError, OutputErrorKind, OutputRole, check_output, declare_input, guard_inputs,
};

use std::ffi::OsStr;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// The path that stands for standard input (and, as an output, for
/// standard output).
pub const STDIN: &str = "-";

/// True when `path` is `-`, standard input.
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == STDIN
}

/// Why an input was not read: the path, what the command wanted it for, and
/// what was wrong with it.
#[derive(Debug, thiserror::Error)]
#[error("{}: {}", self.name(), self.reason())]
pub struct InputError {
    /// The path as given (`-` for standard input).
    pub path: PathBuf,
    /// What the command reads it as (`a DSF tile`, `a rules file`, …).
    pub role: String,
    /// What was wrong.
    pub kind: InputErrorKind,
}

/// What was wrong with an input.
#[derive(Debug)]
pub enum InputErrorKind {
    /// Not a regular file: a directory, a named pipe, a device or a socket
    /// (named), which agkit never reads from, since a read could block or
    /// never end.
    NotAFile(&'static str),
    /// Larger than the cap.
    TooLarge {
        /// The size (at least; reading stops one byte past the cap).
        len: u64,
        /// The cap.
        max: u64,
    },
    /// The operating system's error (no such file, permission denied, …).
    Io(std::io::Error),
}

impl InputError {
    /// The name an input is reported under: `<stdin>` for `-`.
    pub fn name(&self) -> String {
        if is_stdin(&self.path) {
            "<stdin>".into()
        } else {
            self.path.display().to_string()
        }
    }

    /// What was wrong, without the path (for callers naming the file their
    /// own way).
    pub fn reason(&self) -> String {
        match &self.kind {
            InputErrorKind::NotAFile(what) => format!(
                "{what}, not a regular file; {} is read only from a regular file (or `-`, \
                 standard input)",
                self.role
            ),
            InputErrorKind::TooLarge { len, max } => format!(
                "{} of {len} bytes is more than the {max} agkit reads",
                self.role
            ),
            // The operating system's words, then what to do about them.
            InputErrorKind::Io(e) => {
                let hint = match e.kind() {
                    std::io::ErrorKind::NotFound => {
                        "; check the name and the folder (a relative path starts from the \
                         current folder)"
                    }
                    std::io::ErrorKind::PermissionDenied => "; check that you may read it",
                    _ => "",
                };
                format!("cannot read {}: {e}{hint}", self.role)
            }
        }
    }

    fn new(path: &Path, role: &str, kind: InputErrorKind) -> InputError {
        InputError {
            path: path.to_path_buf(),
            role: role.to_string(),
            kind,
        }
    }
}

/// What a file that is not a regular file is, in words.
pub(crate) fn kind_of(ft: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if ft.is_char_device() {
            return "a character device";
        }
        if ft.is_block_device() {
            return "a block device";
        }
        if ft.is_socket() {
            return "a socket";
        }
    }
    if ft.is_dir() {
        "a directory"
    } else if ft.is_file() {
        "a file"
    } else {
        "not a file"
    }
}

/// Opens `path` for reading as `role` if it is a regular file (symbolic
/// links followed): anything else — a directory, a named pipe, a device, a
/// socket — is refused by name before it is opened, so no read can block or
/// run without end. The file is opened without waiting (a pipe swapped in
/// after the check cannot hold the open) and checked again once open.
pub fn open_input(path: &Path, role: &str) -> Result<std::fs::File, InputError> {
    open_gated(path, role, true)
}

/// Opens `path` through the same gate as [`open_input`] to look at its
/// first bytes (is it a file the command reads?), without recording it as
/// an input of the run ([`guard_inputs`]): a file only looked at may be
/// the output.
pub fn open_to_sniff(path: &Path, role: &str) -> Result<std::fs::File, InputError> {
    open_gated(path, role, false)
}

/// [`open_input`], recording the file as an input of the run ([`guard`])
/// when `record`.
fn open_gated(path: &Path, role: &str, record: bool) -> Result<std::fs::File, InputError> {
    let err = |kind| InputError::new(path, role, kind);
    let meta = std::fs::metadata(path).map_err(|e| err(InputErrorKind::Io(e)))?;
    if !meta.is_file() {
        return Err(err(InputErrorKind::NotAFile(kind_of(meta.file_type()))));
    }
    let mut o = std::fs::OpenOptions::new();
    o.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut o, libc::O_NONBLOCK);
    let f = o.open(path).map_err(|e| err(InputErrorKind::Io(e)))?;
    let meta = f.metadata().map_err(|e| err(InputErrorKind::Io(e)))?;
    if !meta.is_file() {
        return Err(err(InputErrorKind::NotAFile(kind_of(meta.file_type()))));
    }
    if record {
        guard::record(path, role, &meta);
    }
    Ok(f)
}

/// Reads the whole input `path` as `role`: a regular file ([`read_file`])
/// or, for `-`, standard input, read until it ends or passes `max` bytes
/// (an error: never more than `max + 1` bytes are held).
pub fn read_input(path: &Path, role: &str, max: u64) -> Result<Vec<u8>, InputError> {
    if !is_stdin(path) {
        return read_file(path, role, max);
    }
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .take(max.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| InputError::new(path, role, InputErrorKind::Io(e)))?;
    capped(path, role, bytes, max)
}

/// Reads the regular file `path` ([`open_input`]) as `role`, refusing one
/// of more than `max` bytes before reading it; `-` is a file of that name
/// here, never standard input.
pub fn read_file(path: &Path, role: &str, max: u64) -> Result<Vec<u8>, InputError> {
    read_gated(path, role, max, true)
}

/// Reads a file this run may go on to replace — what an earlier run wrote
/// and this one takes over, such as `overlay build`'s tiles — through the
/// same gate as [`read_file`], without recording it as an input
/// ([`guard_inputs`]).
pub fn read_earlier_output(path: &Path, role: &str, max: u64) -> Result<Vec<u8>, InputError> {
    read_gated(path, role, max, false)
}

/// [`read_file`], recording the file as an input when `record`.
fn read_gated(path: &Path, role: &str, max: u64, record: bool) -> Result<Vec<u8>, InputError> {
    let err = |kind| InputError::new(path, role, kind);
    let f = open_gated(path, role, record)?;
    let len = f.metadata().map_err(|e| err(InputErrorKind::Io(e)))?.len();
    if len > max {
        return Err(err(InputErrorKind::TooLarge { len, max }));
    }
    let mut bytes = Vec::with_capacity(len as usize);
    // A file growing while read stops one byte past the cap.
    f.take(max.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| err(InputErrorKind::Io(e)))?;
    capped(path, role, bytes, max)
}

/// `bytes`, or the error for more than `max` of them.
fn capped(path: &Path, role: &str, bytes: Vec<u8>, max: u64) -> Result<Vec<u8>, InputError> {
    let len = bytes.len() as u64;
    if len > max {
        return Err(InputError::new(
            path,
            role,
            InputErrorKind::TooLarge { len, max },
        ));
    }
    Ok(bytes)
}

/// How the name of every temporary file agkit writes begins: a dot (hidden
/// from listings and from walkers that skip hidden files, such as the
/// previewer's) and a prefix that says whose it is.
pub const TEMP_PREFIX: &str = ".agkit-tmp-";

/// True for the file name of one of agkit's temporary files.
pub fn is_temp_name(name: &OsStr) -> bool {
    name.as_encoded_bytes().starts_with(TEMP_PREFIX.as_bytes())
}

/// Walks `dir` recursively (sorted by file name, symbolic links not
/// followed), skipping agkit's temporary files ([`is_temp_name`]), so a
/// write killed half-way is never taken for an input.
pub fn walk(dir: &Path) -> impl Iterator<Item = walkdir::Result<walkdir::DirEntry>> + use<> {
    walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !is_temp_name(e.file_name()))
}

/// The temporary files being written now, for the signal handler to
/// remove. A file is added while this lock is held to create it, so the
/// handler — which takes the lock and keeps it until the process ends —
/// sees every file there is.
static LIVE: std::sync::Mutex<Option<std::collections::HashSet<PathBuf>>> =
    std::sync::Mutex::new(None);

fn live() -> std::sync::MutexGuard<'static, Option<std::collections::HashSet<PathBuf>>> {
    LIVE.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A temporary file registered in [`LIVE`]: removed, and taken out of it,
/// when dropped; renamed into place by [`Live::persist`].
struct Live(Option<tempfile::NamedTempFile>);

impl Live {
    fn file(&mut self) -> &mut tempfile::NamedTempFile {
        // Only `persist` and `drop` take the file, and both consume.
        self.0.as_mut().expect("a live temporary file")
    }

    fn persist(mut self, target: &Path) -> std::io::Result<()> {
        let Some(tmp) = self.0.take() else {
            return Ok(());
        };
        let path = tmp.path().to_path_buf();
        // On failure the file comes back in the error and is removed when
        // it is dropped, before the path leaves the registry.
        let done = tmp.persist(target).map(drop).map_err(|e| e.error);
        forget(&path);
        done
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        if let Some(tmp) = self.0.take() {
            let path = tmp.path().to_path_buf();
            drop(tmp);
            forget(&path);
        }
    }
}

/// Takes `path` out of the registry of live temporary files.
fn forget(path: &Path) {
    if let Some(set) = live().as_mut() {
        set.remove(path);
    }
}

/// Installs a handler for SIGINT and SIGTERM that removes every temporary
/// file agkit is writing, then ends the process with the shell's status
/// for the signal (130 for SIGINT, 143 for SIGTERM). For programs (the
/// `agkit` command calls it first thing); a library embedding agkit keeps
/// its own signal handling unless it calls this. A no-op where there are
/// no such signals.
pub fn remove_temp_files_on_signals() -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGINT, SIGTERM};
        let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM])?;
        std::thread::Builder::new()
            .name("agkit-signals".into())
            .spawn(move || {
                if let Some(sig) = signals.forever().next() {
                    // Held until the process ends: no new file can start.
                    let g = live();
                    for p in g.iter().flatten() {
                        let _ = std::fs::remove_file(p);
                    }
                    std::process::exit(128 + sig);
                }
            })?;
    }
    Ok(())
}

/// Writes `bytes` to `path` atomically: a temporary file in the same folder is
/// written, flushed and then renamed over `path`.
///
/// If anything fails the original file (if any) is untouched and no
/// temporary file is left. When `path` is a symbolic link, the file it
/// points to is replaced and the link stays a link. A replaced file keeps
/// its permissions; a new file gets the usual `0666` less the process umask
/// (temporary files are created `0600`, which would otherwise leak into
/// every output). Errors are the operating system's, without the temporary
/// file's name: the caller names `path`.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomic_with(path, |w| w.write_all(bytes))
}

/// Like [`write_atomic`], but `fill` streams the content into the temporary
/// file (buffered), so the output never has to be held in memory. If `fill`
/// fails, the temporary file is removed and `path` is untouched.
///
/// Once [`guard_inputs`] is on, a `path` that is a file the run has read is
/// refused (an error carrying an [`IsInput`]), before the write and again
/// before the rename.
pub fn write_atomic_with<T>(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<T>,
) -> std::io::Result<T> {
    write_guarded(path, fill, true)
}

/// Rewrites the input `path` in place, atomically ([`write_atomic`]): the
/// one write allowed to replace a file the run has read (`fmt
/// --in-place`).
pub fn rewrite_input(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_guarded(path, |w| w.write_all(bytes), false)
}

/// [`write_atomic_with`], refusing an input of the run when `guarded`.
fn write_guarded<T>(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<T>,
    guarded: bool,
) -> std::io::Result<T> {
    let target = write_target(path)?;
    if guarded {
        guard::refuse_input(&target)?;
    }
    let (tmp, out) = temp_beside(&target, &parent_dir(&target), fill)?;
    if guarded {
        // A streamed output may have read it while being written.
        guard::refuse_input(&target)?;
    }
    tmp.persist(&target)?;
    Ok(out)
}

/// The folder a file is in (`.` for a bare file name).
fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Most symbolic links followed from one path (Linux's own limit).
const MAX_LINKS: usize = 40;

/// The file a write to `path` replaces: `path` itself or, when it is a
/// symbolic link, the file the chain of links ends at (which need not exist
/// yet), so that writing through a link keeps the link.
fn write_target(path: &Path) -> std::io::Result<PathBuf> {
    let mut p = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = std::fs::read_link(&p)?;
                // A relative link is relative to the link's folder; joining
                // an absolute one replaces the folder.
                p = p.parent().map_or_else(|| to.clone(), |dir| dir.join(&to));
            }
            _ => return Ok(p),
        }
    }
    Err(std::io::Error::other("too many levels of symbolic links"))
}

/// A temporary file in `dir` holding what `fill` wrote (buffered), with the
/// permissions `path` has (or a new file's default) and synced to disk,
/// ready to be renamed over `path`. Dropped on an error, it is removed.
fn temp_beside<T>(
    path: &Path,
    dir: &Path,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<T>,
) -> std::io::Result<(Live, T)> {
    // `make_in` passes the opener's error on as it is; `tempfile_in` would
    // add the temporary name to it, which means nothing to the user.
    let tmp = tempfile::Builder::new()
        .prefix(TEMP_PREFIX)
        .make_in(dir, |p| {
            let mut o = std::fs::OpenOptions::new();
            o.write(true).create_new(true);
            #[cfg(unix)]
            std::os::unix::fs::OpenOptionsExt::mode(&mut o, 0o600);
            // Created and registered under the lock (see `LIVE`).
            let mut g = live();
            let f = o.open(p)?;
            g.get_or_insert_default().insert(p.to_path_buf());
            Ok(f)
        })?;
    let mut tmp = Live(Some(tmp));
    let mut w = std::io::BufWriter::new(tmp.file().as_file_mut());
    let out = fill(&mut w)?;
    w.flush()?;
    drop(w);
    let perms = std::fs::metadata(path)
        .map(|m| m.permissions())
        .ok()
        .or_else(default_permissions);
    if let Some(perms) = perms {
        tmp.file().as_file().set_permissions(perms)?;
    }
    tmp.file().as_file().sync_all()?;
    Ok((tmp, out))
}

/// Writes several files as one step: every file is first written in full to
/// a temporary file beside its destination (creating missing folders), and
/// only when all of them are written are they renamed into place. A
/// destination that is a symbolic link is written through, as by
/// [`write_atomic`].
///
/// If writing any of them fails, no destination is touched, the temporary
/// files are removed, and so are the folders this call created (when empty).
/// Only a failure of a rename itself (rare: the temporary file is already in
/// the destination's folder) can leave the earlier files of the list
/// replaced. Once [`guard_inputs`] is on, a destination that is a file the
/// run has read fails the whole step before anything is renamed.
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
    for ((tmp, target), (path, _)) in staged.into_iter().zip(files) {
        tmp.persist(&target).map_err(|e| (path.clone(), e))?;
    }
    Ok(())
}

/// Writes each file's bytes to a temporary file beside the file it replaces;
/// records the folders it had to create in `created` (outermost first).
fn stage(
    files: &[(PathBuf, Vec<u8>)],
    created: &mut Vec<PathBuf>,
) -> Result<Vec<(Live, PathBuf)>, (PathBuf, std::io::Error)> {
    let mut staged = Vec::with_capacity(files.len());
    for (path, bytes) in files {
        let target = write_target(path).map_err(|e| (path.clone(), e))?;
        guard::refuse_input(&target).map_err(|e| (path.clone(), e))?;
        let dir = parent_dir(&target);
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
            temp_beside(&target, &dir, |w| w.write_all(bytes)).map_err(|e| (path.clone(), e))?;
        staged.push((tmp, target));
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
    fn the_input_gate_reads_regular_files_and_refuses_the_rest_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("a.agp");
        std::fs::write(&f, b"A\n1000\nAG_POINT\n").unwrap();
        assert_eq!(read_input(&f, "an asset", 100).unwrap().len(), 16);
        // The cap: at it is fine, past it is refused before reading.
        assert_eq!(read_file(&f, "an asset", 16).unwrap().len(), 16);
        let e = read_file(&f, "an asset", 15).unwrap_err();
        assert!(matches!(
            e.kind,
            InputErrorKind::TooLarge { len: 16, max: 15 }
        ));
        assert!(e.to_string().contains("an asset of 16 bytes"), "{e}");
        // A folder, named with its role.
        let e = read_input(dir.path(), "a rules file", 100).unwrap_err();
        assert!(matches!(e.kind, InputErrorKind::NotAFile("a directory")));
        let msg = e.to_string();
        assert!(
            msg.starts_with(&dir.path().display().to_string())
                && msg.contains("a directory, not a regular file; a rules file is read"),
            "{msg}"
        );
        // Missing: the operating system's words, after the path.
        let e = read_input(&dir.path().join("none"), "x", 1).unwrap_err();
        assert!(matches!(e.kind, InputErrorKind::Io(_)), "{e}");
    }

    #[cfg(unix)]
    #[test]
    fn pipes_devices_and_sockets_are_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("x.dsf");
        let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
        let sock = dir.path().join("s.agb");
        let _listener = std::os::unix::net::UnixListener::bind(&sock).unwrap();
        let link = dir.path().join("link.dsf");
        std::os::unix::fs::symlink(&fifo, &link).unwrap();
        for (p, what) in [
            (fifo.as_path(), "a named pipe (FIFO)"),
            (link.as_path(), "a named pipe (FIFO)"),
            (sock.as_path(), "a socket"),
            (Path::new("/dev/zero"), "a character device"),
            (Path::new("/dev/null"), "a character device"),
        ] {
            let e = open_input(p, "a DSF tile").unwrap_err();
            assert!(
                matches!(e.kind, InputErrorKind::NotAFile(w) if w == what),
                "{p:?}: {e}"
            );
            let e = read_input(p, "a DSF tile", u64::MAX).unwrap_err();
            assert!(e.to_string().contains(what), "{e}");
        }
        // A link to a regular file is followed.
        std::fs::write(dir.path().join("real"), b"x").unwrap();
        std::os::unix::fs::symlink(dir.path().join("real"), dir.path().join("l2")).unwrap();
        assert_eq!(read_input(&dir.path().join("l2"), "x", 1).unwrap(), b"x");
        // A dangling link is missing.
        std::os::unix::fs::symlink(dir.path().join("gone"), dir.path().join("l3")).unwrap();
        let e = read_input(&dir.path().join("l3"), "x", 1).unwrap_err();
        assert!(matches!(e.kind, InputErrorKind::Io(_)), "{e}");
    }

    #[test]
    fn live_temporary_files_are_registered_until_renamed_or_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("out.dsf");
        let seen = write_atomic_with(&p, |_| {
            Ok(live()
                .iter()
                .flatten()
                .filter(|t| t.parent() == Some(dir.path()))
                .count())
        })
        .unwrap();
        assert_eq!(seen, 1, "registered while written");
        let _ = write_atomic_with(&p, |_| Err::<(), _>(std::io::Error::other("no")));
        assert!(
            live()
                .iter()
                .flatten()
                .all(|t| t.parent() != Some(dir.path()))
        );
    }

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

    fn names_in(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn the_temporary_file_is_hidden_named_for_agkit_and_gone_after() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("out.dsf");
        let seen = write_atomic_with(&p, |w| {
            w.write_all(b"XPLNEDSF")?;
            Ok(names_in(dir.path()))
        })
        .unwrap();
        assert_eq!(seen.len(), 1, "{seen:?}");
        assert!(seen[0].starts_with(TEMP_PREFIX), "{seen:?}");
        assert!(is_temp_name(OsStr::new(&seen[0])));
        assert_eq!(
            Path::new(&seen[0]).extension(),
            None,
            "no extension to match"
        );
        assert_eq!(names_in(dir.path()), ["out.dsf"]);
    }

    #[test]
    fn a_failed_fill_leaves_the_target_and_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.agb");
        std::fs::write(&p, b"old").unwrap();
        let e = write_atomic_with(&p, |w| {
            w.write_all(b"half of it")?;
            Err::<(), _>(std::io::Error::other("the input ended"))
        })
        .unwrap_err();
        assert_eq!(e.to_string(), "the input ended");
        assert_eq!(std::fs::read(&p).unwrap(), b"old");
        assert_eq!(names_in(dir.path()), ["a.agb"]);
    }

    #[test]
    fn errors_never_name_the_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        // A file where the folder should be, and a folder of no files.
        std::fs::write(dir.path().join("blocker"), b"").unwrap();
        let mut targets = vec![dir.path().join("blocker/x.png")];
        if cfg!(target_os = "linux") {
            targets.push(PathBuf::from("/proc/x.png"));
        }
        for p in targets {
            let e = write_atomic(&p, b"x").unwrap_err().to_string();
            assert!(!e.contains(TEMP_PREFIX) && !e.contains(".tmp"), "{e}");
            let (failed, e) = write_all_atomic(&[(p.clone(), b"x".to_vec())]).unwrap_err();
            assert!(!e.to_string().contains(TEMP_PREFIX), "{e}");
            assert!(!failed.to_string_lossy().contains(TEMP_PREFIX));
        }
    }

    #[test]
    fn walk_skips_temporary_files_and_folders() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.ags"), b"").unwrap();
        std::fs::write(dir.path().join(".agkit-tmp-Xy12ab"), b"XPLNEDSF").unwrap();
        std::fs::create_dir(dir.path().join(".agkit-tmp-dir")).unwrap();
        std::fs::write(dir.path().join(".agkit-tmp-dir/b.ags"), b"").unwrap();
        std::fs::write(dir.path().join(".hidden.ags"), b"").unwrap();
        let found: Vec<String> = walk(dir.path())
            .skip(1)
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        // Other hidden files are the caller's business.
        assert_eq!(found, [".hidden.ags", "a.ags"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_is_written_through_and_stays_a_link() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real");
        std::fs::create_dir(&real).unwrap();
        std::fs::write(real.join("a.agb"), b"old").unwrap();
        // Relative, absolute, a chain, and a link to a file not made yet.
        symlink("real/a.agb", dir.path().join("rel.agb")).unwrap();
        symlink(real.join("a.agb"), dir.path().join("abs.agb")).unwrap();
        symlink("rel.agb", dir.path().join("chain.agb")).unwrap();
        symlink("real/new.agb", dir.path().join("dangling.agb")).unwrap();
        for (link, bytes) in [
            ("rel.agb", &b"one"[..]),
            ("abs.agb", b"two"),
            ("chain.agb", b"three"),
        ] {
            write_atomic(&dir.path().join(link), bytes).unwrap();
            assert_eq!(std::fs::read(real.join("a.agb")).unwrap(), bytes, "{link}");
        }
        write_all_atomic(&[(dir.path().join("dangling.agb"), b"four".to_vec())]).unwrap();
        assert_eq!(std::fs::read(real.join("new.agb")).unwrap(), b"four");
        for link in ["rel.agb", "abs.agb", "chain.agb", "dangling.agb"] {
            let m = std::fs::symlink_metadata(dir.path().join(link)).unwrap();
            assert!(m.file_type().is_symlink(), "{link} is still a link");
        }
        assert_eq!(names_in(&real), ["a.agb", "new.agb"]);
        // A loop is an error, not a hang.
        symlink("loop2", dir.path().join("loop1")).unwrap();
        symlink("loop1", dir.path().join("loop2")).unwrap();
        assert!(write_atomic(&dir.path().join("loop1"), b"x").is_err());
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
