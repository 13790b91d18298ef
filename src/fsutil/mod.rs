//! File-system helpers: atomic writes that never leave a half-written file
//! where a later command would read it, and the directory walk that skips
//! what an interrupted write may leave behind.
//!
//! A write goes to a temporary file beside its destination, named
//! [`TEMP_PREFIX`] + random letters (hidden, and with no extension), and is
//! renamed over the destination only once complete. The temporary file is
//! removed on every error path and, once [`remove_temp_files_on_signals`]
//! is installed (the `agkit` command does), on SIGINT, SIGTERM, SIGHUP and
//! SIGQUIT too (SIGPIPE stays ignored, as Rust programs start: a closed
//! pipe is an error the write handles, never an abrupt end); only
//! a process killed outright (SIGKILL, power loss) can leave one, and
//! [`walk`] — which every command that searches a directory uses — never
//! yields it. An output that is a named pipe, a character device or a path
//! naming an open descriptor (`/dev/stdout`) is written straight into
//! ([`Output`]): nothing is ever renamed over a node.
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
#[non_exhaustive]
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

/// Files at least this large are mapped by [`read_input_mapped`] rather
/// than read: a read copies every page out of the page cache into fresh
/// memory the kernel must first zero, which for a 36 MB DSF costs about
/// as much as hashing it.
pub const MAP_AT_LEAST: u64 = 1 << 20;

/// The bytes of an input, as [`read_input_mapped`] holds them.
#[derive(Debug)]
pub enum InputBytes {
    /// Read into memory (standard input, a small file, or a file the
    /// system would not map).
    Read(Vec<u8>),
    /// A regular file mapped read-only.
    Mapped(memmap2::Mmap),
}

impl std::ops::Deref for InputBytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            InputBytes::Read(v) => v,
            InputBytes::Mapped(m) => m,
        }
    }
}

/// [`read_input`], but a regular file of [`MAP_AT_LEAST`] bytes or more
/// (and at most `max`) is mapped read-only instead of read, for the
/// readers that only look at the bytes once (`check`). Standard input, a
/// small file, or one the system will not map is read as
/// [`read_input`] reads it.
///
/// A mapping shows the file as it is on disk while it is held: another
/// program truncating the file meanwhile ends this one with `SIGBUS`, as
/// it would any program that maps its input (ripgrep, git). Only the
/// commands that check a file, and write nothing, read through here.
pub fn read_input_mapped(path: &Path, role: &str, max: u64) -> Result<InputBytes, InputError> {
    if is_stdin(path) {
        return read_input(path, role, max).map(InputBytes::Read);
    }
    let err = |kind| InputError::new(path, role, kind);
    let f = open_gated(path, role, true)?;
    let len = f.metadata().map_err(|e| err(InputErrorKind::Io(e)))?.len();
    if len > max {
        return Err(err(InputErrorKind::TooLarge { len, max }));
    }
    if len >= MAP_AT_LEAST {
        // SAFETY: the map is read-only and private to this process; the
        // file is a regular file (checked on the open handle). A change
        // to the file by another program while the map is held is the
        // one hazard, documented above.
        if let Ok(m) = unsafe { memmap2::MmapOptions::new().map(&f) }
            && m.len() as u64 == len
        {
            return Ok(InputBytes::Mapped(m));
        }
    }
    let mut bytes = Vec::with_capacity(len as usize);
    f.take(max.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| err(InputErrorKind::Io(e)))?;
    capped(path, role, bytes, max).map(InputBytes::Read)
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

/// The signals that end a process and can be caught, on which
/// [`remove_temp_files_on_signals`] removes the temporary files: an
/// interrupt (Ctrl-C), a termination, a closed terminal or dropped ssh
/// session, and a quit (Ctrl-\\). SIGPIPE is not among them: Rust
/// programs start with it ignored, so a write to a pipe nobody reads fails
/// with `BrokenPipe`, which the write's own error path handles (removing
/// its temporary file; a closed standard output ends the command quietly).
#[cfg(unix)]
pub const ENDING_SIGNALS: [i32; 4] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGQUIT];

/// A temporary folder for work files a writer needs beside its output
/// (SQLite's GeoPackage database, built before it is copied to the
/// output), in the system's temporary folder, named [`TEMP_PREFIX`] +
/// random letters. It is removed, with all it holds, when dropped and —
/// like the temporary files of [`write_atomic`] — on the ending signals
/// once [`remove_temp_files_on_signals`] is installed.
pub struct ScratchDir(Option<tempfile::TempDir>);

impl ScratchDir {
    /// A new, empty scratch folder.
    pub fn new() -> std::io::Result<ScratchDir> {
        // Created and registered under the lock (see `LIVE`).
        let mut g = live();
        let dir = tempfile::Builder::new().prefix(TEMP_PREFIX).tempdir()?;
        g.get_or_insert_default().insert(dir.path().to_path_buf());
        Ok(ScratchDir(Some(dir)))
    }

    /// Where it is.
    pub fn path(&self) -> &Path {
        self.0.as_ref().map_or(Path::new(""), |d| d.path())
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        if let Some(dir) = self.0.take() {
            let path = dir.path().to_path_buf();
            drop(dir);
            forget(&path);
        }
    }
}

/// Removes the temporary file or scratch folder at `p`.
fn remove_temp(p: &Path) {
    if std::fs::remove_file(p).is_err() {
        let _ = std::fs::remove_dir_all(p);
    }
}

/// Removes every temporary file agkit is writing now, for a program about
/// to end without unwinding (`std::process::exit`), which runs no
/// destructor. The writes they belong to fail from here on.
pub fn remove_temp_files_now() {
    let g = live();
    for p in g.iter().flatten() {
        remove_temp(p);
    }
}

/// Installs a handler for the ending signals ([`ENDING_SIGNALS`]: SIGINT,
/// SIGTERM, SIGHUP, SIGQUIT) that removes every temporary file agkit is
/// writing, then ends the process with the shell's status for the signal
/// (128 + its number: 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP, 131
/// for SIGQUIT). For programs (the `agkit` command calls it
/// first thing); a library embedding agkit keeps its own signal handling
/// unless it calls this. A no-op where there are no such signals.
pub fn remove_temp_files_on_signals() -> std::io::Result<()> {
    #[cfg(unix)]
    {
        let mut signals = signal_hook::iterator::Signals::new(ENDING_SIGNALS)?;
        std::thread::Builder::new()
            .name("agkit-signals".into())
            .spawn(move || {
                if let Some(sig) = signals.forever().next() {
                    // Held until the process ends: no new file can start.
                    let g = live();
                    for p in g.iter().flatten() {
                        remove_temp(p);
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
    let mut out = Output::open(path, guarded)?;
    let mut w = std::io::BufWriter::new(out.file());
    let done = fill(&mut w)?;
    w.flush()?;
    drop(w);
    out.commit()?;
    Ok(done)
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

/// Where a write to an output path goes, by what the path names.
#[derive(Debug, PartialEq, Eq)]
enum Dest {
    /// A regular file, or nothing yet: written beside it and renamed over
    /// it (the end of the chain of symbolic links, so a link stays a link).
    Replace(PathBuf),
    /// A named pipe or a character device: written straight into it, as
    /// Laminar's DSFTool does (`DSFTool --dsf2text x.dsf /dev/null`);
    /// renaming a file over it would replace the node.
    Into(PathBuf),
    /// A path that names one of the process's open descriptors
    /// (`/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`):
    /// written into that descriptor, at its offset, whatever it is open on.
    Descriptor(i32),
}

/// The descriptor a path names lexically (made absolute, links not
/// followed): `/dev/stdin`, `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`,
/// `/proc/self/fd/N`, `/proc/thread-self/fd/N` and `/proc/PID/fd/N` for
/// this process's PID. Following these links by hand would end at names
/// such as `pipe:[1234]`, which are no files.
fn descriptor_named(path: &Path) -> Option<i32> {
    let abs = std::path::absolute(path).ok()?;
    let parts: Vec<&OsStr> = abs
        .components()
        .filter_map(|c| match c {
            std::path::Component::Normal(n) => Some(n),
            _ => None,
        })
        .collect();
    let num = |s: &OsStr| s.to_str()?.parse::<i32>().ok().filter(|n| *n >= 0);
    match parts.as_slice() {
        [d, n] if *d == "dev" => match n.to_str()? {
            "stdin" => Some(0),
            "stdout" => Some(1),
            "stderr" => Some(2),
            _ => None,
        },
        [d, f, n] if *d == "dev" && *f == "fd" => num(n),
        [p, who, f, n] if *p == "proc" && *f == "fd" => {
            let ours = *who == "self"
                || *who == "thread-self"
                || num(who).is_some_and(|pid| pid as u32 == std::process::id());
            if ours { num(n) } else { None }
        }
        _ => None,
    }
}

/// An output that is a node agkit never writes into (a directory, a
/// socket, a block device), carried in the [`std::io::Error`] so that
/// [`OutputError::new`] can name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{0}, not a regular file, named pipe or character device")]
pub struct NotWritable(pub &'static str);

/// Where a write to `path` goes ([`Dest`]), following symbolic links one
/// by one so that a link to `/dev/stdout` is seen for what it is. A
/// directory is an `IsADirectory` error; a socket or block device a
/// [`NotWritable`] one.
fn destination(path: &Path) -> std::io::Result<Dest> {
    let mut p = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        if let Some(fd) = descriptor_named(&p) {
            return Ok(Dest::Descriptor(fd));
        }
        let meta = match std::fs::symlink_metadata(&p) {
            Ok(m) => m,
            // Nothing there yet (or no way to tell): a new file, whose
            // write says what is wrong.
            Err(_) => return Ok(Dest::Replace(p)),
        };
        let ft = meta.file_type();
        if ft.is_symlink() {
            let to = std::fs::read_link(&p)?;
            // A relative link is relative to the link's folder; joining
            // an absolute one replaces the folder.
            p = p.parent().map_or_else(|| to.clone(), |dir| dir.join(&to));
            continue;
        }
        if ft.is_file() {
            return Ok(Dest::Replace(p));
        }
        if ft.is_dir() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::IsADirectory,
                "is a directory",
            ));
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            if ft.is_fifo() || ft.is_char_device() {
                return Ok(Dest::Into(p));
            }
        }
        return Err(std::io::Error::other(NotWritable(kind_of(ft))));
    }
    Err(std::io::Error::other("too many levels of symbolic links"))
}

/// One output being written, chosen by what its path names: a temporary
/// file beside a regular file (or a new one), renamed over it by
/// [`Output::commit`]; or, for a named pipe, a character device or a
/// path naming an open descriptor (`/dev/stdout`), the node itself,
/// written into directly. A directory, socket or block device is refused
/// ([`NotWritable`]); nothing is ever renamed over a node.
///
/// Dropped before `commit`, a temporary file is removed and the output is
/// left as it was; what went into a pipe or device is gone to its reader.
/// Once [`guard_inputs`] is on, an output that is a file the run reads is
/// refused, when opened and again before the rename.
pub struct Output {
    sink: Sink,
    guarded: bool,
}

enum Sink {
    /// A temporary file, and the file it replaces.
    Temp(Live, PathBuf),
    /// The node itself.
    Direct(std::fs::File),
}

impl Output {
    /// Opens the output `path` ([`Output`]), refusing an input of the run.
    pub fn create(path: &Path) -> std::io::Result<Output> {
        Output::open(path, true)
    }

    fn open(path: &Path, guarded: bool) -> std::io::Result<Output> {
        let sink = match destination(path)? {
            Dest::Replace(target) => {
                if guarded {
                    guard::refuse_input(&target)?;
                }
                Sink::Temp(new_temp(&parent_dir(&target))?, target)
            }
            Dest::Into(node) => Sink::Direct(open_node(&node)?),
            Dest::Descriptor(fd) => Sink::Direct(duplicate(fd)?),
        };
        if let (Sink::Direct(f), true) = (&sink, guarded) {
            guard::refuse_meta(&f.metadata()?)?;
        }
        Ok(Output { sink, guarded })
    }

    /// True when the output is written straight into a pipe, a device or
    /// an open descriptor (nothing to rename, nothing to take back).
    pub fn is_direct(&self) -> bool {
        matches!(self.sink, Sink::Direct(_))
    }

    /// The file to write into (unbuffered: wrap it in a `BufWriter`).
    pub fn file(&mut self) -> &mut std::fs::File {
        match &mut self.sink {
            Sink::Temp(t, _) => t.file().as_file_mut(),
            Sink::Direct(f) => f,
        }
    }

    /// Finishes the output: a temporary file gets the permissions of the
    /// file it replaces (or a new file's default), is synced to disk and
    /// renamed into place; a node is only closed.
    pub fn commit(self) -> std::io::Result<()> {
        match self.sink {
            Sink::Direct(f) => {
                drop(f);
                Ok(())
            }
            Sink::Temp(mut tmp, target) => {
                settle(&mut tmp, &target)?;
                if self.guarded {
                    // A streamed output may have read it while written.
                    guard::refuse_input(&target)?;
                }
                // Swapped for a node while written: never renamed over.
                if let Ok(m) = std::fs::symlink_metadata(&target)
                    && !m.is_file()
                    && !m.file_type().is_symlink()
                {
                    return Err(std::io::Error::other(NotWritable(kind_of(m.file_type()))));
                }
                tmp.persist(&target)
            }
        }
    }
}

/// Opens the named pipe or character device `node` to write into it
/// (never created, never truncated), and checks once open that it still
/// is one: a regular file swapped in meanwhile is not written over.
fn open_node(node: &Path) -> std::io::Result<std::fs::File> {
    let mut o = std::fs::OpenOptions::new();
    o.write(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut o, libc::O_NOCTTY);
    let f = o.open(node)?;
    let ft = f.metadata()?.file_type();
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() || ft.is_char_device() {
            return Ok(f);
        }
    }
    Err(std::io::Error::other(NotWritable(kind_of(ft))))
}

/// A copy of the process's descriptor `fd`, as a file to write into.
#[cfg(unix)]
fn duplicate(fd: i32) -> std::io::Result<std::fs::File> {
    use std::os::fd::FromRawFd;
    // SAFETY: `dup` takes any integer; a new descriptor it returns is
    // ours alone, owned by the `File` from here on.
    let copy = unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 0) };
    if copy < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: `copy` is a fresh descriptor nobody else owns.
    Ok(unsafe { std::fs::File::from_raw_fd(copy) })
}

#[cfg(not(unix))]
fn duplicate(_fd: i32) -> std::io::Result<std::fs::File> {
    Err(std::io::Error::new(
        std::io::ErrorKind::Unsupported,
        "no descriptors to write into here",
    ))
}

/// A new temporary file in `dir`, registered for the signal handler.
fn new_temp(dir: &Path) -> std::io::Result<Live> {
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
    Ok(Live(Some(tmp)))
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
        let target = match destination(path).map_err(|e| (path.clone(), e))? {
            Dest::Replace(t) => t,
            // One of a set of files written as one step is never a pipe
            // or a device: its write could not be taken back.
            Dest::Into(_) | Dest::Descriptor(_) => {
                let what = std::fs::metadata(path).map_or("not a file", |m| kind_of(m.file_type()));
                return Err((path.clone(), std::io::Error::other(NotWritable(what))));
            }
        };
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
        let tmp = write_temp(&target, &dir, bytes).map_err(|e| (path.clone(), e))?;
        staged.push((tmp, target));
    }
    Ok(staged)
}

/// A temporary file in `dir` holding `bytes`, with the permissions
/// `target` has (or a new file's default) and synced to disk.
fn write_temp(target: &Path, dir: &Path, bytes: &[u8]) -> std::io::Result<Live> {
    let mut tmp = new_temp(dir)?;
    tmp.file().as_file_mut().write_all(bytes)?;
    settle(&mut tmp, target)?;
    Ok(tmp)
}

/// Gives the written temporary file `tmp` the permissions of `target`
/// (or a new file's default: temporary files are created `0600`) and
/// syncs it to disk, ready to be renamed over `target`.
fn settle(tmp: &mut Live, target: &Path) -> std::io::Result<()> {
    let perms = std::fs::metadata(target)
        .map(|m| m.permissions())
        .ok()
        .or_else(default_permissions);
    if let Some(perms) = perms {
        tmp.file().as_file().set_permissions(perms)?;
    }
    tmp.file().as_file().sync_all()
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
    fn a_large_file_is_mapped_a_small_one_read_and_both_give_its_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let big = dir.path().join("big.dsf");
        let bytes: Vec<u8> = (0..MAP_AT_LEAST + 7)
            .map(|i| (i * 31 % 251) as u8)
            .collect();
        std::fs::write(&big, &bytes).unwrap();
        let m = read_input_mapped(&big, "a DSF tile", u64::MAX).unwrap();
        assert!(matches!(m, InputBytes::Mapped(_)), "{:?}", m.len());
        assert_eq!(&*m, &bytes[..]);
        // One byte under the threshold: read.
        let small = dir.path().join("small.dsf");
        std::fs::write(&small, &bytes[..MAP_AT_LEAST as usize - 1]).unwrap();
        let r = read_input_mapped(&small, "a DSF tile", u64::MAX).unwrap();
        assert!(matches!(r, InputBytes::Read(_)));
        assert_eq!(&*r, &bytes[..MAP_AT_LEAST as usize - 1]);
        // The cap holds before anything is mapped.
        let e = read_input_mapped(&big, "a DSF tile", MAP_AT_LEAST).unwrap_err();
        assert!(matches!(e.kind, InputErrorKind::TooLarge { .. }), "{e}");
        // An empty file is read, not mapped (a map of 0 bytes is refused).
        let empty = dir.path().join("empty.dsf");
        std::fs::write(&empty, b"").unwrap();
        assert!(read_input_mapped(&empty, "x", 9).unwrap().is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn the_mapped_gate_refuses_pipes_devices_and_folders_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("x.dsf");
        let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
        for (p, what) in [
            (fifo.as_path(), "a named pipe (FIFO)"),
            (Path::new("/dev/zero"), "a character device"),
            (dir.path(), "a directory"),
        ] {
            let e = read_input_mapped(p, "a DSF tile", u64::MAX).unwrap_err();
            assert!(
                matches!(e.kind, InputErrorKind::NotAFile(w) if w == what),
                "{p:?}: {e}"
            );
        }
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
    fn mkfifo(path: &Path) {
        let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0, "{path:?}");
    }

    /// A character device node at `path` with the numbers of `/dev/null`
    /// (1, 3) or `/dev/full` (1, 7), made in a temporary folder: `false`
    /// when this user may not make device nodes (only root may).
    #[cfg(target_os = "linux")]
    fn mknod_char(path: &Path, minor: u32) -> bool {
        let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        let r = unsafe { libc::mknod(c.as_ptr(), libc::S_IFCHR | 0o666, libc::makedev(1, minor)) };
        if r != 0 {
            let e = std::io::Error::last_os_error();
            assert_eq!(e.kind(), std::io::ErrorKind::PermissionDenied, "{e}");
            // SAFETY: no arguments.
            assert_ne!(unsafe { libc::geteuid() }, 0, "root may make nodes: {e}");
            return false;
        }
        true
    }

    #[cfg(unix)]
    fn file_type(path: &Path) -> std::fs::FileType {
        std::fs::symlink_metadata(path).unwrap().file_type()
    }

    #[cfg(unix)]
    #[test]
    fn a_named_pipe_is_written_into_and_stays_a_pipe() {
        use std::os::unix::fs::FileTypeExt;
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("out.txt");
        mkfifo(&fifo);
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read(fifo).unwrap())
        };
        let text: Vec<u8> = (0..200_000u32).flat_map(|i| i.to_le_bytes()).collect();
        write_atomic(&fifo, &text).unwrap();
        assert_eq!(reader.join().unwrap(), text, "the reader got every byte");
        assert!(file_type(&fifo).is_fifo(), "still a pipe");
        assert_eq!(names_in(dir.path()), ["out.txt"], "no temporary file");
        // Through a symbolic link too; the link stays a link.
        let link = dir.path().join("link.txt");
        std::os::unix::fs::symlink("out.txt", &link).unwrap();
        let reader = std::thread::spawn(move || std::fs::read(fifo).unwrap());
        write_atomic(&link, b"through the link").unwrap();
        assert_eq!(reader.join().unwrap(), b"through the link");
        assert!(file_type(&link).is_symlink());
        assert_eq!(names_in(dir.path()), ["link.txt", "out.txt"]);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_character_device_is_written_into_and_never_replaced() {
        use std::os::unix::fs::FileTypeExt;
        let dir = tempfile::tempdir().unwrap();
        let null = dir.path().join("null");
        let full = dir.path().join("full");
        if !mknod_char(&null, 3) || !mknod_char(&full, 7) {
            eprintln!("not root: device nodes cannot be made here; run as root to test this");
            return;
        }
        let big = vec![b'x'; 1 << 20];
        write_atomic(&null, &big).unwrap();
        assert!(file_type(&null).is_char_device(), "still the device");
        // A device that fails its writes fails the output: no success.
        let e = write_atomic(&full, &big).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::StorageFull, "{e}");
        assert!(file_type(&full).is_char_device());
        // A set of files written as one step takes no device.
        let (failed, e) = write_all_atomic(&[(null.clone(), b"x".to_vec())]).unwrap_err();
        assert_eq!(failed, null);
        let words = OutputError::new(&null, OutputRole::File, e).to_string();
        assert!(
            words.contains("a character device where the output file"),
            "{words}"
        );
        assert!(file_type(&null).is_char_device());
        assert_eq!(names_in(dir.path()), ["full", "null"], "no temporary file");
    }

    #[cfg(unix)]
    #[test]
    fn sockets_and_folders_are_refused_by_name_and_left_as_they_are() {
        use std::os::unix::fs::FileTypeExt;
        let dir = tempfile::tempdir().unwrap();
        let sock = dir.path().join("s.png");
        let _listener = std::os::unix::net::UnixListener::bind(&sock).unwrap();
        let e = write_atomic(&sock, b"x").unwrap_err();
        let words = OutputError::new(&sock, OutputRole::File, e).to_string();
        assert!(
            words.contains("a socket where the output file should go")
                && words.contains("never over another node"),
            "{words}"
        );
        assert!(file_type(&sock).is_socket());
        let e = check_output(&sock, OutputRole::File, &[]).unwrap_err();
        assert!(
            matches!(e.kind, OutputErrorKind::NotWritable("a socket")),
            "{e}"
        );
        let sub = dir.path().join("sub");
        std::fs::create_dir(&sub).unwrap();
        let e = write_atomic(&sub, b"x").unwrap_err();
        let e = OutputError::new(&sub, OutputRole::File, e);
        assert!(matches!(e.kind, OutputErrorKind::IsFolder), "{e}");
        assert!(sub.is_dir());
        assert_eq!(names_in(dir.path()), ["s.png", "sub"]);
        // A pipe and a device pass the check before any work.
        let fifo = dir.path().join("p");
        mkfifo(&fifo);
        check_output(&fifo, OutputRole::File, &[]).unwrap();
    }

    #[test]
    fn paths_that_name_descriptors_are_told_apart() {
        let pid = std::process::id();
        for (p, fd) in [
            ("/dev/stdout", Some(1)),
            ("/dev/stderr", Some(2)),
            ("/dev/stdin", Some(0)),
            ("/dev/fd/7", Some(7)),
            ("/dev/./fd/7", Some(7)),
            ("/proc/self/fd/3", Some(3)),
            ("/proc/thread-self/fd/4", Some(4)),
            (&format!("/proc/{pid}/fd/5"), Some(5)),
            (&format!("/proc/{}/fd/5", pid + 1), None),
            ("/dev/fd/x", None),
            ("/dev/fd/-1", None),
            ("/dev/null", None),
            ("/tmp/stdout", None),
            ("stdout", None),
        ] {
            assert_eq!(descriptor_named(Path::new(p)), fd, "{p}");
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_path_naming_a_descriptor_writes_into_it() {
        use std::io::Read;
        use std::os::fd::FromRawFd;
        let mut fds = [0; 2];
        // SAFETY: a two-element array for the pipe's ends.
        assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
        // SAFETY: fresh descriptors, owned from here on.
        let (mut r, w) = unsafe {
            (
                std::fs::File::from_raw_fd(fds[0]),
                std::fs::File::from_raw_fd(fds[1]),
            )
        };
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("out.txt");
        std::os::unix::fs::symlink(format!("/proc/self/fd/{}", fds[1]), &link).unwrap();
        for p in [
            PathBuf::from(format!("/dev/fd/{}", fds[1])),
            PathBuf::from(format!("/proc/self/fd/{}", fds[1])),
            link.clone(),
        ] {
            write_atomic(&p, b"abc").unwrap();
        }
        drop(w);
        let mut got = String::new();
        r.read_to_string(&mut got).unwrap();
        assert_eq!(got, "abcabcabc");
        assert!(file_type(&link).is_symlink());
        assert_eq!(names_in(dir.path()), ["out.txt"]);
        // A descriptor that is not open is the system's error.
        let e = write_atomic(Path::new("/dev/fd/1000000"), b"x").unwrap_err();
        assert_eq!(e.raw_os_error(), Some(libc::EBADF), "{e}");
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
