//! What a function reads: a file path, the file's bytes, or its text.
//!
//! One rule for every function that takes a "source": `bytes` (or
//! `bytearray`) are the file's content; an `os.PathLike` is a path; a `str`
//! is the file's text when it holds a line break (every autogen, DSF2Text
//! and JSON file has several lines) and a path otherwise; an open file
//! object (anything with `read()`, binary or text) is read to its end and
//! named by its `name`.

use crate::error::Error;
use pyo3::prelude::*;
use pyo3::pybacked::{PyBackedBytes, PyBackedStr};
use pyo3::types::{PyByteArray, PyBytes, PyString};
use std::borrow::Cow;
use std::path::PathBuf;

/// A source taken from a Python argument; `Send`, so it can be read with
/// the GIL released.
pub enum Source {
    /// A file to read.
    Path(PathBuf),
    /// The content itself.
    Bytes(PyBackedBytes),
    /// The content as text.
    Text(PyBackedStr),
    /// What an open file object held, and its name.
    Stream {
        /// The object's `name` (or `<stream>`).
        name: String,
        /// Its content.
        data: Vec<u8>,
    },
}

impl Source {
    /// Takes a source from `obj` (see the module documentation).
    pub fn extract(obj: &Bound<'_, PyAny>) -> PyResult<Source> {
        if obj.is_instance_of::<PyBytes>() || obj.is_instance_of::<PyByteArray>() {
            return Ok(Source::Bytes(obj.extract().map_err(PyErr::from)?));
        }
        if obj.is_instance_of::<PyString>() {
            let s: PyBackedStr = obj.extract()?;
            return Ok(if s.contains('\n') {
                Source::Text(s)
            } else {
                Source::Path(PathBuf::from(&*s))
            });
        }
        if let Ok(p) = obj.extract::<PathBuf>() {
            return Ok(Source::Path(p));
        }
        if obj.hasattr("read")? {
            return Source::stream(obj);
        }
        Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "expected a path (str or os.PathLike), bytes, text or an open file, not {}",
            obj.get_type().name()?
        )))
    }

    /// An open file object read to its end (binary, or text as UTF-8),
    /// no more than agkit reads from a file.
    fn stream(obj: &Bound<'_, PyAny>) -> PyResult<Source> {
        let max = agkit::limits::Limits::default().max_input_bytes;
        let name = obj
            .getattr("name")
            .ok()
            .and_then(|n| n.extract::<PathBuf>().ok())
            .map_or_else(|| "<stream>".to_string(), |p| p.display().to_string());
        let got = obj.call_method1("read", (max.saturating_add(1),))?;
        let data: Vec<u8> = if got.is_instance_of::<PyString>() {
            got.extract::<String>()?.into_bytes()
        } else if let Ok(b) = got.extract::<PyBackedBytes>() {
            b.to_vec()
        } else {
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "{name}: read() gave {}, not bytes or str",
                got.get_type().name()?
            )));
        };
        if data.len() as u64 > max {
            return Err(Error::value(format!(
                "{name}: more than the {max} bytes agkit reads from a file"
            ))
            .into());
        }
        Ok(Source::Stream { name, data })
    }

    /// The name errors and diagnostics use: the path, `<bytes>` or `<text>`.
    pub fn name(&self) -> String {
        match self {
            Source::Path(p) => p.display().to_string(),
            Source::Bytes(_) => "<bytes>".into(),
            Source::Text(_) => "<text>".into(),
            Source::Stream { name, .. } => name.clone(),
        }
    }

    /// The path, when the source is a file.
    pub fn path(&self) -> Option<&std::path::Path> {
        match self {
            Source::Path(p) => Some(p),
            _ => None,
        }
    }

    /// The content (a file is read here: call it with the GIL released).
    pub fn bytes(&self) -> Result<Cow<'_, [u8]>, Error> {
        match self {
            // The library's input gate: a regular file, capped; a folder,
            // pipe or device is refused by name before it could block.
            Source::Path(p) => {
                let max = agkit::limits::Limits::default().max_input_bytes;
                agkit::fsutil::read_file(p, "a file", max)
                    .map(Cow::Owned)
                    .map_err(Error::input)
            }
            Source::Bytes(b) => Ok(Cow::Borrowed(b)),
            Source::Text(s) => Ok(Cow::Borrowed(s.as_bytes())),
            Source::Stream { data, .. } => Ok(Cow::Borrowed(data)),
        }
    }
}
