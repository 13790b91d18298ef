//! Autogen text assets (AGP, AGB, AGS): `agkit.read_asset`, `agkit.check`,
//! `agkit.fmt` and the `agkit.Asset` class.

use crate::diag::{Diagnostic, records};
use crate::error::{Error, detached};
use crate::source::Source;
use agkit::xp::{self, model};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use std::path::Path;
use std::sync::Arc;

/// A parsed autogen asset (`.agp`, `.agb` or `.ags`) with no errors; its
/// warnings are in `warnings`.
#[pyclass(frozen, module = "agkit")]
pub struct Asset {
    /// The model (shared with the placements made from it).
    pub model: Arc<model::Asset>,
    /// The file name, or `<bytes>` / `<text>`.
    pub name: String,
    /// The file, when read from one: the art it names is found beside it.
    pub path: Option<std::path::PathBuf>,
    warnings: Vec<Diagnostic>,
}

/// Parses one asset's bytes: the model and its warnings, or a `ParseError`
/// with every diagnostic when there are errors.
pub fn parse(name: &str, bytes: &[u8]) -> Result<(model::Asset, Vec<Diagnostic>), Error> {
    // A DSF, an AGN, an image …: what it is, not its bytes quoted as text.
    if let Some(d) = agkit::check::not_autogen_text(bytes) {
        return Err(Error::diagnostics(name, None, &[d]));
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => match xp::parse_lenient(text) {
            (Some(a), diags) if !diags.iter().any(|d| d.is_error()) => {
                Ok((a, records(name, Some(text), &diags)))
            }
            (_, diags) => Err(Error::diagnostics(name, Some(text), &diags)),
        },
        // check_bytes reports where the bad UTF-8 is (AG0077).
        Err(_) => {
            let (text, diags) = xp::check_bytes(bytes);
            Err(Error::diagnostics(name, Some(&text), &diags))
        }
    }
}

impl Asset {
    /// Reads an asset from a Python source argument, with the GIL released.
    pub fn read(py: Python<'_>, source: &Bound<'_, PyAny>) -> PyResult<Asset> {
        let src = Source::extract(source)?;
        let name = src.name();
        let (model, warnings) = detached(py, || parse(&name, &src.bytes()?))?;
        Ok(Asset {
            model: Arc::new(model),
            name,
            path: src.path().map(Path::to_path_buf),
            warnings,
        })
    }
}

/// Reads an autogen asset (`.agp`, `.agb`, `.ags`).
///
/// `source` is a path, the file's `bytes`, or its text (a `str` with a line
/// break). Raises `agkit.ParseError` (with every diagnostic) when the file
/// has errors, `OSError` when it cannot be read.
#[pyfunction]
pub fn read_asset(py: Python<'_>, source: &Bound<'_, PyAny>) -> PyResult<Asset> {
    Asset::read(py, source)
}

/// Checks a file as `agkit check` does: an autogen text file, a DSF tile,
/// an AGN file, or X-Plane art (an object, facade, forest, PNG or DDS
/// texture), told apart by their first bytes, then the extension.
///
/// `source` is a path, the file's `bytes`, or its text. Returns every
/// diagnostic (errors and warnings) in file order; an empty list means the
/// file is clean. Raises only when the file cannot be read.
#[pyfunction]
pub fn check(py: Python<'_>, source: &Bound<'_, PyAny>) -> PyResult<Vec<Diagnostic>> {
    Ok(findings(py, source)?
        .into_iter()
        .map(Diagnostic::from)
        .collect())
}

/// The diagnostics of `agkit.check(source)` as an `agkit.ArrowTable`
/// named `findings`, built in Rust: one row per diagnostic, in file order,
/// the columns the records of `agkit check --format json` have (`file`,
/// `line`, `column`, `offset`, `severity`, `code`, `message`; missing
/// values null). Raises only when the file cannot be read.
#[pyfunction]
pub fn check_table(py: Python<'_>, source: &Bound<'_, PyAny>) -> PyResult<crate::arrow::Table> {
    let rows = findings(py, source)?;
    let batch = agkit::out::arrow::findings_batch(&rows);
    Ok(crate::arrow::Table::new("findings", batch))
}

/// What `agkit check` finds in `source` (a path, bytes or text), as its
/// JSON records.
fn findings(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
) -> PyResult<Vec<agkit::diag::JsonDiagnostic>> {
    let src = Source::extract(source)?;
    let name = src.name();
    Ok(detached(py, || {
        let bytes = src.bytes()?;
        let path = src.path().unwrap_or(Path::new(""));
        // As `agkit check` does: the art a file names is checked beside it.
        let scenery = agkit::scenery::Scenery::without_libraries(Default::default());
        let (text, diags) = scenery.check_bytes(
            path,
            &bytes,
            if src.path().is_some() {
                agkit::scenery::ArtCheck::Named
            } else {
                agkit::scenery::ArtCheck::Skipped
            },
        );
        Ok(agkit::diag::to_json(&name, text.as_deref(), &diags))
    })?)
}

/// The canonical form of an autogen text (what `agkit fmt` writes): the
/// same content, comments kept, whitespace and number spelling made
/// uniform. Idempotent. Raises `agkit.ParseError` when the text has errors.
#[pyfunction]
pub fn fmt(py: Python<'_>, text: PyBackedStr) -> PyResult<String> {
    Ok(detached(py, || {
        let diags = xp::check(&text);
        if diags.iter().any(|d| d.is_error()) {
            return Err(Error::diagnostics("<text>", Some(&text), &diags));
        }
        Ok(xp::Document::parse(&text).to_canonical())
    })?)
}

#[pymethods]
impl Asset {
    /// `agp`, `agb` or `ags` (from the header, not the extension).
    #[getter]
    fn kind(&self) -> &'static str {
        self.model.kind.extension()
    }

    /// The file name, or `<bytes>` / `<text>`.
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// The warnings found while reading (never errors: those raise).
    #[getter]
    fn warnings(&self) -> Vec<Diagnostic> {
        self.warnings.clone()
    }

    /// Tiles of an AGP or AGS in file order (rectangles in pixels,
    /// anchor, rotation, crop polygon, stop points, annotations...), as
    /// dicts; empty for an AGB.
    #[getter]
    fn tiles<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::to_py(py, &self.model.tiles)
    }

    /// Grids of an AGB (cuts, columns, rows, edges, annotations), as dicts;
    /// empty for an AGP or AGS.
    #[getter]
    fn grids<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let none: &[model::Grid] = &[];
        let grids = self.model.block.as_ref().map_or(none, |b| &b.grids);
        crate::to_py(py, &grids)
    }

    /// Spelling sets of an AGB or edge spellings of an AGS, as dicts; empty
    /// for an AGP.
    #[getter]
    fn spellings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match (&self.model.block, &self.model.string) {
            (Some(b), _) => crate::to_py(py, &b.spelling_sets),
            (_, Some(s)) => crate::to_py(py, &s.spellings),
            _ => crate::to_py(py, &[] as &[model::EdgeSpelling]),
        }
    }

    /// Corner rules of an AGS, as dicts; empty otherwise.
    #[getter]
    fn corners<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let none: &[model::CornerRule] = &[];
        let corners = self.model.string.as_ref().map_or(none, |s| &s.corners);
        crate::to_py(py, &corners)
    }

    /// The `OBJECT` paths in order (annotations refer to them by index).
    #[getter]
    fn objects(&self) -> Vec<String> {
        lined(&self.model.common.objects)
    }

    /// The `FACADE` paths in order.
    #[getter]
    fn facades(&self) -> Vec<String> {
        lined(&self.model.common.facades)
    }

    /// The `VEGETATION` path, if any.
    #[getter]
    fn vegetation(&self) -> Option<String> {
        self.model
            .common
            .vegetation
            .as_ref()
            .map(|v| v.value.clone())
    }

    /// The `TEXTURE` path, if any.
    #[getter]
    fn texture(&self) -> Option<String> {
        self.model.common.texture.as_ref().map(|v| v.value.clone())
    }

    /// Metres per texture pixel `(x, y)`; a missing `TEXTURE_SCALE` or
    /// `TEXTURE_WIDTH` takes the simulator's default (1 px = 1 m without
    /// both); `None` only for a zero scale.
    #[getter]
    fn metres_per_pixel(&self) -> Option<(f64, f64)> {
        self.model.common.metres_per_pixel().map(|[x, y]| (x, y))
    }

    /// What `agkit info --format json` reports: counts of tiles, grids,
    /// spellings, corners, annotations, the assets used, diagnostics.
    #[getter]
    fn summary<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let s = xp::summary::of_asset(&self.model, self.warnings.len(), 0);
        crate::to_py(py, &s)
    }

    /// The whole typed model as a dict (every directive with its line).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::to_py(py, &*self.model)
    }

    /// The model written back as canonical autogen text.
    fn to_text(&self, py: Python<'_>) -> PyResult<String> {
        let model = &self.model;
        Ok(detached(py, || Ok(xp::write::to_string(model)))?)
    }

    fn __repr__(&self) -> String {
        format!(
            "<agkit.Asset {} {:?}: {} tile(s), {} object path(s)>",
            self.kind(),
            self.name,
            self.model.tiles.len(),
            self.model.common.objects.len()
        )
    }
}

/// The values of lined paths.
fn lined(v: &[model::Lined<String>]) -> Vec<String> {
    v.iter().map(|l| l.value.clone()).collect()
}
