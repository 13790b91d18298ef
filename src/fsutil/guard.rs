//! The output gate: a write never replaces a file the run reads, and an
//! output that cannot be written is explained by its role and a next step.
//!
//! A program turns the record of inputs on with [`guard_inputs`] (the
//! `agkit` command does, first thing). From then on every file opened
//! through the input gate ([`super::open_input`], [`super::read_file`],
//! [`super::read_input`]) is remembered by its identity — device and inode
//! on Unix, so hard links, symbolic links and `./x` versus `x` are all the
//! same file; the canonical path elsewhere — and every atomic write
//! ([`super::write_atomic`], [`super::write_atomic_with`],
//! [`super::write_all_atomic`]) refuses a destination that is one of them,
//! both before it starts and again just before the rename (a streamed
//! output may read its inputs while it is written). The refusal is an
//! [`std::io::Error`] carrying an [`IsInput`]; [`OutputError::new`] turns
//! it, like any other write error, into words.
//!
//! A library that embeds agkit and never calls [`guard_inputs`] keeps no
//! record and is refused nothing. [`check_output`] compares an output with
//! inputs not read yet, so a command can refuse before any work.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// A file's identity.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Id {
    /// Device and inode.
    #[cfg(unix)]
    Inode(u64, u64),
    /// The canonical path (where there are no inodes to compare).
    #[cfg(not(unix))]
    Path(PathBuf),
}

/// The identity of the file `meta` describes, found at `path`.
fn id_of(path: &Path, meta: &std::fs::Metadata) -> Option<Id> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let _ = path;
        Some(Id::Inode(meta.dev(), meta.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        path.canonicalize().ok().map(Id::Path)
    }
}

/// An input read: the path it was given as and its role.
#[derive(Debug, Clone)]
struct Input {
    path: PathBuf,
    role: String,
}

/// The inputs read so far, once [`guard_inputs`] has turned the record on.
static INPUTS: std::sync::Mutex<Option<HashMap<Id, Input>>> = std::sync::Mutex::new(None);

fn inputs() -> std::sync::MutexGuard<'static, Option<HashMap<Id, Input>>> {
    INPUTS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Turns on the record of inputs: from now on no atomic write of this
/// process replaces a file it has read through the input gate (see the
/// module documentation). For programs; idempotent.
pub fn guard_inputs() {
    inputs().get_or_insert_default();
}

/// Records the file `meta` describes as an input read as `role`, when the
/// record is on (the first role a file was read as is kept).
pub(super) fn record(path: &Path, role: &str, meta: &std::fs::Metadata) {
    let mut g = inputs();
    let Some(map) = g.as_mut() else {
        return;
    };
    if let Some(id) = id_of(path, meta) {
        map.entry(id).or_insert_with(|| Input {
            path: path.to_path_buf(),
            role: role.to_string(),
        });
    }
}

/// Records `path` as an input of the run before it is read (when the
/// record is on, and the file exists), so that no write replaces it even
/// before its turn comes: for commands that read many inputs one after
/// another, each with its own output.
pub fn declare_input(path: &Path, role: &str) {
    if let Ok(meta) = std::fs::metadata(path) {
        record(path, role, &meta);
    }
}

/// A write refused because its destination is an input of the run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}, {role} this run reads", input.display())]
pub struct IsInput {
    /// The input, as it was given.
    pub input: PathBuf,
    /// What it was read as.
    pub role: String,
}

/// The input the existing file at `path` is (symbolic links followed), by
/// identity, if the record is on and it has been read.
pub(super) fn input_at(path: &Path) -> Option<IsInput> {
    let g = inputs();
    let map = g.as_ref()?;
    let meta = std::fs::metadata(path).ok()?;
    let input = map.get(&id_of(path, &meta)?)?;
    Some(IsInput {
        input: input.path.clone(),
        role: input.role.clone(),
    })
}

/// `Err` carrying an [`IsInput`] when the open file `meta` describes is a
/// recorded input (an output written into a descriptor or a node).
pub(super) fn refuse_meta(meta: &std::fs::Metadata) -> std::io::Result<()> {
    let g = inputs();
    let Some(map) = g.as_ref() else {
        return Ok(());
    };
    match id_of(Path::new(""), meta).and_then(|id| map.get(&id)) {
        Some(input) => Err(std::io::Error::other(IsInput {
            input: input.path.clone(),
            role: input.role.clone(),
        })),
        None => Ok(()),
    }
}

/// `Err` carrying an [`IsInput`] when `path` is a recorded input.
pub(super) fn refuse_input(path: &Path) -> std::io::Result<()> {
    match input_at(path) {
        Some(is) => Err(std::io::Error::other(is)),
        None => Ok(()),
    }
}

/// What an output is to the command that writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputRole {
    /// One file (`-o FILE`).
    File,
    /// A folder written into (`-o DIR`).
    Folder,
}

impl OutputRole {
    fn words(self) -> &'static str {
        match self {
            OutputRole::File => "the output file",
            OutputRole::Folder => "the output folder",
        }
    }
}

/// Why an output was not written: the path, its role and what was wrong,
/// worded with a next step.
#[derive(Debug, thiserror::Error)]
#[error("{}: {}", path.display(), self.reason())]
pub struct OutputError {
    /// The output as given.
    pub path: PathBuf,
    /// A file, or a folder written into.
    pub role: OutputRole,
    /// What was wrong.
    pub kind: OutputErrorKind,
}

/// What was wrong with an output.
#[derive(Debug)]
#[non_exhaustive]
pub enum OutputErrorKind {
    /// It is (or would replace) a file the run reads.
    IsInput(IsInput),
    /// A file was wanted and a folder is there.
    IsFolder,
    /// A folder was wanted and something else is there (named).
    NotFolder(&'static str),
    /// The folder the file goes in does not exist.
    NoFolder(PathBuf),
    /// Something on the way to it is not a folder (`notes.txt/x.png`).
    Blocked {
        /// What is in the way.
        dir: PathBuf,
        /// What it is, in words.
        what: &'static str,
    },
    /// A node agkit never writes into: a socket or a block device (named).
    /// Regular files, named pipes and character devices are written.
    NotWritable(&'static str),
    /// The operating system's error.
    Io(std::io::Error),
}

impl OutputError {
    /// The error for `path` (in `role`) from what the write returned:
    /// an [`IsInput`] refusal, a missing folder, a folder where a file
    /// goes (or the other way round), else the operating system's words.
    pub fn new(path: &Path, role: OutputRole, error: std::io::Error) -> OutputError {
        let payload = error.get_ref();
        let kind = if let Some(is) = payload.and_then(|e| e.downcast_ref::<IsInput>()) {
            OutputErrorKind::IsInput(is.clone())
        } else if let Some(n) = payload.and_then(|e| e.downcast_ref::<super::NotWritable>()) {
            OutputErrorKind::NotWritable(n.0)
        } else {
            match check_shape(path, role) {
                Err(kind) => kind,
                Ok(()) => OutputErrorKind::Io(error),
            }
        };
        OutputError {
            path: path.to_path_buf(),
            role,
            kind,
        }
    }

    /// What was wrong and what to do, without the path.
    pub fn reason(&self) -> String {
        let what = self.role.words();
        match &self.kind {
            OutputErrorKind::IsInput(is) => {
                format!("{what} is {is}, and writing it would replace it; name another output")
            }
            OutputErrorKind::IsFolder => format!(
                "a folder where {what} should go; name a file (inside that folder, or elsewhere)"
            ),
            OutputErrorKind::NotFolder(it) => {
                format!("{it} where {what} should go; name a folder (it is created when missing)")
            }
            OutputErrorKind::NoFolder(dir) => format!(
                "cannot write {what}: the folder {} does not exist; create it first or name \
                 another output",
                dir.display()
            ),
            OutputErrorKind::NotWritable(it) => format!(
                "{it} where {what} should go; agkit writes into a regular file, a named pipe \
                 or a character device, never over another node; name another output"
            ),
            OutputErrorKind::Blocked { dir, what: it } => format!(
                "cannot write {what}: {} is {it}, not a folder; name another output",
                dir.display()
            ),
            OutputErrorKind::Io(e) => {
                let hint = match e.kind() {
                    std::io::ErrorKind::PermissionDenied => {
                        "; check that you may write there, or name another output"
                    }
                    std::io::ErrorKind::StorageFull | std::io::ErrorKind::QuotaExceeded => {
                        "; free some space, or name another output"
                    }
                    std::io::ErrorKind::ReadOnlyFilesystem => {
                        "; the file system is read-only: name another output"
                    }
                    _ => "",
                };
                format!("cannot write {what}: {e}{hint}")
            }
        }
    }
}

/// The folder a file named `path` goes in, when it is not the current one.
fn folder_of(path: &Path) -> Option<&Path> {
    path.parent().filter(|p| !p.as_os_str().is_empty())
}

/// What is wrong with the place an output goes, before anything is
/// written: a folder where a file goes, a missing folder for a file, a
/// file (or pipe, device …) where a folder goes or where one is needed
/// on the way.
fn check_shape(path: &Path, role: OutputRole) -> Result<(), OutputErrorKind> {
    let meta = std::fs::metadata(path);
    match (role, &meta) {
        (OutputRole::File, Ok(m)) if m.is_dir() => return Err(OutputErrorKind::IsFolder),
        (OutputRole::File, Ok(m)) if !writable_node(m.file_type()) => {
            return Err(OutputErrorKind::NotWritable(super::kind_of(m.file_type())));
        }
        (OutputRole::Folder, Ok(m)) if !m.is_dir() => {
            return Err(OutputErrorKind::NotFolder(super::kind_of(m.file_type())));
        }
        _ => {}
    }
    // A file on the way to the output (`notes.txt/x.png`).
    let on_the_way = path
        .ancestors()
        .skip(1)
        .filter(|a| !a.as_os_str().is_empty())
        .find_map(|dir| std::fs::metadata(dir).ok().map(|m| (dir, m)));
    if let Some((dir, m)) = on_the_way
        && !m.is_dir()
    {
        return Err(OutputErrorKind::Blocked {
            dir: dir.to_path_buf(),
            what: super::kind_of(m.file_type()),
        });
    }
    if role == OutputRole::File
        && meta.is_err()
        && let Some(dir) = folder_of(path)
        && !dir.exists()
    {
        return Err(OutputErrorKind::NoFolder(dir.to_path_buf()));
    }
    Ok(())
}

/// True for what an output file may be: a regular file, a named pipe or a
/// character device.
fn writable_node(ft: std::fs::FileType) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() || ft.is_char_device() {
            return true;
        }
    }
    ft.is_file()
}

/// Checks an output before any work: refuses a folder where a file goes
/// (and the other way round), a file whose folder does not exist, and an
/// output that is one of `inputs` (by identity, read yet or not) or an
/// input already read ([`guard_inputs`]).
pub fn check_output(path: &Path, role: OutputRole, inputs: &[&Path]) -> Result<(), OutputError> {
    let err = |kind| OutputError {
        path: path.to_path_buf(),
        role,
        kind,
    };
    check_shape(path, role).map_err(err)?;
    if let Some(is) = input_at(path) {
        return Err(err(OutputErrorKind::IsInput(is)));
    }
    let Ok(out) = std::fs::metadata(path) else {
        return Ok(());
    };
    let Some(out) = id_of(path, &out) else {
        return Ok(());
    };
    for input in inputs {
        let same = std::fs::metadata(input)
            .ok()
            .and_then(|m| id_of(input, &m))
            .is_some_and(|id| id == out);
        if same {
            return Err(err(OutputErrorKind::IsInput(IsInput {
                input: input.to_path_buf(),
                role: "an input".into(),
            })));
        }
    }
    Ok(())
}
