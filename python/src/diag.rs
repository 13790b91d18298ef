//! `agkit.Diagnostic`: one problem found in an input, as `agkit check`
//! reports it (the record of `agkit check --format json`).

use agkit::diag::JsonDiagnostic;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// One problem found in an input: where (file, 1-based line and column for
/// text, byte offset for binary files), how bad (`error`, `warning`,
/// `note`), a stable code (`AG0012`, `DSF010`, `AGN004`, ...) and what to do.
#[pyclass(frozen, eq, get_all, skip_from_py_object, module = "agkit")]
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnostic {
    /// The file as given (`<bytes>` or `<text>` for content passed directly).
    pub file: String,
    /// 1-based line (text files), else `None`.
    pub line: Option<usize>,
    /// 1-based column in characters (text files), else `None`.
    pub column: Option<usize>,
    /// Byte offset (binary files), else `None`.
    pub offset: Option<u64>,
    /// `error`, `warning` or `note`.
    pub severity: String,
    /// Stable code.
    pub code: String,
    /// What is wrong.
    pub message: String,
}

impl From<JsonDiagnostic> for Diagnostic {
    fn from(d: JsonDiagnostic) -> Self {
        Diagnostic {
            file: d.file,
            line: d.line,
            column: d.column,
            offset: d.offset,
            severity: d.severity.as_str().to_string(),
            code: d.code,
            message: d.message,
        }
    }
}

impl Diagnostic {
    /// Where it is: `file:line:column`, `file @ byte N` or `file`.
    pub fn location(&self) -> String {
        match (self.line, self.column, self.offset) {
            (Some(l), Some(c), _) => format!("{}:{l}:{c}", self.file),
            (_, _, Some(o)) => format!("{} @ byte {o}", self.file),
            _ => self.file.clone(),
        }
    }
}

#[pymethods]
impl Diagnostic {
    /// True for an error (the simulator would reject or misread the input).
    #[getter]
    fn is_error(&self) -> bool {
        self.severity == "error"
    }

    /// The record as a `dict` (the keys of `agkit check --format json`).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("file", &self.file)?;
        d.set_item("line", self.line)?;
        d.set_item("column", self.column)?;
        d.set_item("offset", self.offset)?;
        d.set_item("severity", &self.severity)?;
        d.set_item("code", &self.code)?;
        d.set_item("message", &self.message)?;
        Ok(d)
    }

    fn __str__(&self) -> String {
        format!(
            "{}: {}[{}]: {}",
            self.location(),
            self.severity,
            self.code,
            self.message
        )
    }

    fn __repr__(&self) -> String {
        format!(
            "Diagnostic({:?}, {:?}, {:?})",
            self.location(),
            self.code,
            self.message
        )
    }
}

/// The diagnostics of one file as Python records (`source` is the text that
/// spans point into, when the file is text).
pub fn records(
    file: &str,
    source: Option<&str>,
    diags: &[agkit::diag::Diagnostic],
) -> Vec<Diagnostic> {
    agkit::diag::to_json(file, source, diags)
        .into_iter()
        .map(Diagnostic::from)
        .collect()
}
