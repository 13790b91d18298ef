//! Every agkit error becomes a Python exception here, and nowhere else.
//!
//! The work of a call runs with the GIL released ([`detached`]) and returns
//! an [`Error`]: plain Rust data, made into a Python exception only once the
//! GIL is held again. The exception classes are defined in Python
//! (`agkit/_errors.py`): `agkit.Error` and its subclasses `ParseError`,
//! `BuildError`, `PlaceError`, `CellError`, `SceneryError` and
//! `InternalError`, each
//! carrying `file`, `line`, `column`, `offset`, `code` and `diagnostics`.
//! Failing to read a file raises the `OSError` subclass Python would
//! (`FileNotFoundError`, ...) with its `filename`; a bad argument raises
//! `ValueError`; a panic inside agkit raises `agkit.InternalError` instead
//! of crossing into Python.

use crate::diag::{Diagnostic, records};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyModule};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

/// Which `agkit.Error` subclass to raise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// The input could not be read (`agkit.ParseError`).
    Parse,
    /// A model could not be written (`agkit.BuildError`).
    Build,
    /// The asset could not be placed there (`agkit.PlaceError`).
    Place,
    /// A LOD13 cell name or position is invalid (`agkit.CellError`).
    Cell,
    /// An installation or library folder cannot be used
    /// (`agkit.SceneryError`).
    Scenery,
    /// A bug in agkit (`agkit.InternalError`).
    Internal,
}

impl Class {
    fn name(self) -> &'static str {
        match self {
            Class::Parse => "ParseError",
            Class::Build => "BuildError",
            Class::Place => "PlaceError",
            Class::Cell => "CellError",
            Class::Scenery => "SceneryError",
            Class::Internal => "InternalError",
        }
    }
}

/// The fields of an `agkit.Error`.
#[derive(Debug)]
pub struct Raised {
    class: Class,
    message: String,
    file: Option<String>,
    line: Option<usize>,
    column: Option<usize>,
    offset: Option<u64>,
    code: Option<String>,
    diagnostics: Vec<Diagnostic>,
}

/// An error of one call, not yet a Python exception.
#[derive(Debug)]
pub enum Error {
    /// An `agkit.Error` subclass.
    Agkit(Box<Raised>),
    /// A file could not be read or written.
    Io {
        /// The path.
        file: String,
        /// What the system said.
        error: std::io::Error,
    },
    /// A bad argument (`ValueError`).
    Value(String),
}

impl Error {
    fn agkit(class: Class, file: Option<&str>, message: String) -> Raised {
        Raised {
            class,
            message,
            file: file.map(str::to_string),
            line: None,
            column: None,
            offset: None,
            code: None,
            diagnostics: Vec::new(),
        }
    }

    /// A file that could not be read or written.
    pub fn io(path: &Path, error: std::io::Error) -> Error {
        Error::Io {
            file: path.display().to_string(),
            error,
        }
    }

    /// An input the library's gate refused or could not read: the
    /// operating system's error as it is, anything else (a folder, a pipe,
    /// a device, a file over the cap) as an `OSError` saying why.
    pub fn input(e: agkit::fsutil::InputError) -> Error {
        let reason = pythonic(&e.reason());
        match e.kind {
            agkit::fsutil::InputErrorKind::Io(io) => Error::io(&e.path, io),
            // A folder given as a file: IsADirectoryError, as open() raises.
            agkit::fsutil::InputErrorKind::NotAFile("a directory") => Error::io(
                &e.path,
                std::io::Error::from_raw_os_error(EISDIR).with_reason(reason),
            ),
            _ => Error::io(&e.path, std::io::Error::other(reason)),
        }
    }

    /// A bad argument.
    pub fn value(message: impl Into<String>) -> Error {
        Error::Value(message.into())
    }

    /// A `Class` error at a byte offset with a code (DSF and AGN readers
    /// and writers).
    pub fn at_offset(class: Class, file: &str, offset: u64, code: &str, message: String) -> Error {
        Error::Agkit(Box::new(Raised {
            offset: Some(offset),
            code: Some(code.to_string()),
            ..Error::agkit(
                class,
                Some(file),
                format!("{file} @ byte {offset}: error[{code}]: {message}"),
            )
        }))
    }

    /// A `Class` error with a code but no position.
    pub fn coded(class: Class, file: &str, code: &str, message: String) -> Error {
        Error::Agkit(Box::new(Raised {
            code: Some(code.to_string()),
            ..Error::agkit(
                class,
                Some(file),
                format!("{file}: error[{code}]: {message}"),
            )
        }))
    }

    /// A `Class` error with neither position nor code.
    pub fn plain(class: Class, file: Option<&str>, message: String) -> Error {
        let message = match file {
            Some(f) => format!("{f}: {message}"),
            None => message,
        };
        Error::Agkit(Box::new(Error::agkit(class, file, message)))
    }

    /// A `Class` error whose message already names the file (a library
    /// error's text).
    pub fn plain_whole(class: Class, file: Option<&str>, message: String) -> Error {
        Error::Agkit(Box::new(Error::agkit(class, file, message)))
    }

    /// A `ParseError` for a file whose diagnostics include errors: the first
    /// error gives the position and code, and every diagnostic is kept.
    pub fn diagnostics(
        file: &str,
        source: Option<&str>,
        diags: &[agkit::diag::Diagnostic],
    ) -> Error {
        let all = records(file, source, diags);
        let Some(first) = all.iter().find(|d| d.severity == "error").cloned() else {
            return Error::plain(Class::Parse, Some(file), "cannot be read".into());
        };
        let more = all.len() - 1;
        let mut message = format!(
            "{}: error[{}]: {}",
            first.location(),
            first.code,
            first.message
        );
        if more > 0 {
            message.push_str(&format!(" (and {more} more diagnostic(s))"));
        }
        Error::Agkit(Box::new(Raised {
            class: Class::Parse,
            message,
            file: Some(file.to_string()),
            line: first.line,
            column: first.column,
            offset: first.offset,
            code: Some(first.code),
            diagnostics: all,
        }))
    }

    /// A `Class` error at a line of a text (DSF2Text): `ParseError` for a
    /// text that does not read, `BuildError` for an entity that cannot be
    /// written.
    pub fn at_line(class: Class, file: &str, line: usize, code: &str, message: String) -> Error {
        Error::Agkit(Box::new(Raised {
            line: Some(line),
            code: Some(code.to_string()),
            ..Error::agkit(
                class,
                Some(file),
                format!("{file}:{line}: error[{code}]: {message}"),
            )
        }))
    }

    /// A `Class` error at a line and column of a text without a code (a
    /// rules file).
    pub fn at_line_col(
        class: Class,
        file: &str,
        line: usize,
        column: usize,
        message: String,
    ) -> Error {
        Error::Agkit(Box::new(Raised {
            line: Some(line),
            column: Some(column),
            ..Error::agkit(
                class,
                Some(file),
                format!("{file}:{line}:{column}: error: {message}"),
            )
        }))
    }

    /// A panic caught inside agkit.
    fn internal(message: String) -> Error {
        Error::plain(
            Class::Internal,
            None,
            format!("agkit failed internally ({message}); please report this with the input"),
        )
    }

    /// The Python exception.
    pub fn into_pyerr(self, py: Python<'_>) -> PyErr {
        match self {
            Error::Value(m) => PyValueError::new_err(pythonic(&m)),
            Error::Io { file, error } => match error.raw_os_error() {
                // OSError(errno, strerror, filename) picks the subclass
                // (FileNotFoundError, PermissionError, ...).
                Some(errno) => {
                    let text = error.to_string();
                    let text = text.trim_end_matches(&format!(" (os error {errno})"));
                    PyOSError::new_err((errno, text.to_string(), file))
                }
                None => match error.get_ref().and_then(|r| r.downcast_ref::<Reasoned>()) {
                    // OSError(errno, why, filename): the subclass of errno
                    // (IsADirectoryError...) saying why in agkit's words.
                    Some(r) => PyOSError::new_err((r.errno, r.reason.clone(), file)),
                    None => {
                        let err =
                            PyOSError::new_err(format!("{file}: {}", pythonic(&error.to_string())));
                        // No errno to pick a subclass by; `filename` all the same.
                        let _ = err.value(py).setattr("filename", file);
                        err
                    }
                },
            },
            Error::Agkit(r) => raise(py, *r).unwrap_or_else(|e| e),
        }
    }
}

impl From<Error> for PyErr {
    fn from(e: Error) -> PyErr {
        Python::attach(|py| e.into_pyerr(py))
    }
}

/// `EISDIR`, the errno of a folder given where a file is read.
const EISDIR: i32 = 21;

/// An operating-system error number with agkit's reason for it.
#[derive(Debug)]
struct Reasoned {
    errno: i32,
    reason: String,
}

impl std::fmt::Display for Reasoned {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.reason)
    }
}

impl std::error::Error for Reasoned {}

/// An `io::Error` of an errno, saying why in agkit's words.
trait WithReason {
    fn with_reason(self, reason: String) -> std::io::Error;
}

impl WithReason for std::io::Error {
    fn with_reason(self, reason: String) -> std::io::Error {
        let errno = self.raw_os_error().unwrap_or(0);
        std::io::Error::new(self.kind(), Reasoned { errno, reason })
    }
}

/// The library's messages speak to the command line's users, naming its
/// flags; Python users give arguments. Each phrase naming a flag, said the
/// Python way (the one place this is done: every `agkit.Error` and
/// `OSError` message passes here).
const PYTHONIC: &[(&str, &str)] = &[
    (
        "give --at LAT,LON[,HEADING] for an .agp or --polygon FILE.geojson for an .agb/.ags",
        "give at=(lat, lon[, heading]) for an .agp or polygon= for an .agb/.ags",
    ),
    (
        "give --at LAT,LON[,HEADING]",
        "give at=(lat, lon[, heading])",
    ),
    (
        "give --polygon FILE.geojson",
        "give polygon= (GeoJSON, a shapely Polygon, or a list of rings of (lon, lat))",
    ),
    (" (or `-`, standard input)", ""),
    (
        "(--library DIR or --xplane DIR)",
        "(library= or installation=)",
    ),
    ("(--library or --xplane)", "(library= or installation=)"),
    (
        "give --library or --xplane",
        "give library= or installation=",
    ),
    (
        "(--format json or geojson has every item)",
        "(render(\"json\") or \"geojson\" has every item)",
    ),
    (
        "choose one with --a2ge-record-size 16|24",
        "choose one with a2ge_record_size=16 or 24",
    ),
    ("pass --cell NAME", "pass cell="),
    ("--dref ", "drefs: "),
    ("--season ", "season "),
];

/// `message` with the command line's flags said as Python arguments.
pub fn pythonic(message: &str) -> String {
    let mut out = message.to_string();
    for (cli, py) in PYTHONIC {
        if out.contains(cli) {
            out = out.replace(cli, py);
        }
    }
    out
}

/// The module defining the exception classes.
fn errors_module(py: Python<'_>) -> PyResult<&Bound<'_, PyModule>> {
    static MODULE: PyOnceLock<Py<PyModule>> = PyOnceLock::new();
    MODULE
        .get_or_try_init(py, || py.import("agkit._errors").map(Bound::unbind))
        .map(|m| m.bind(py))
}

/// Builds the exception instance of `r` (`Err` only when even that fails,
/// with the reason).
fn raise(py: Python<'_>, r: Raised) -> Result<PyErr, PyErr> {
    let class = errors_module(py)?.getattr(r.class.name())?;
    let kw = PyDict::new(py);
    kw.set_item("file", r.file)?;
    kw.set_item("line", r.line)?;
    kw.set_item("column", r.column)?;
    kw.set_item("offset", r.offset)?;
    kw.set_item("code", r.code)?;
    kw.set_item("diagnostics", r.diagnostics)?;
    let value = class.call((pythonic(&r.message),), Some(&kw))?;
    Ok(PyErr::from_value(value))
}

/// Runs `work` with the GIL released; a panic inside it becomes
/// `agkit.InternalError`.
pub fn detached<T, F>(py: Python<'_>, work: F) -> Result<T, Error>
where
    F: FnOnce() -> Result<T, Error> + Send,
    T: Send,
{
    py.detach(|| {
        catch_unwind(AssertUnwindSafe(work)).unwrap_or_else(|payload| {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".into());
            Err(Error::internal(what))
        })
    })
}
