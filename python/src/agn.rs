//! `agkit.agn`: FSX/P3D AGN files and LOD13 cells.

use crate::error::{Class, Error, detached};
use crate::source::Source;
use agkit::agn::{self, Cell};
use pyo3::exceptions::PyAttributeError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::path::PathBuf;
use std::sync::Arc;

/// An AGN file: its chunks in file order (lossless: writing it back gives
/// the same bytes) and, when known, the LOD13 cell it covers.
#[pyclass(frozen, name = "Agn", module = "agkit.agn")]
pub struct Agn {
    inner: Arc<agn::Agn>,
    cell: Option<Cell>,
    name: String,
}

/// A `CellError` of the library's message.
fn cell_error(e: agn::cell::CellError) -> Error {
    Error::plain(Class::Cell, None, e.0)
}

/// Reads an AGN file from a path or its `bytes`. The cell is taken from the
/// file name when it is one (`001332223121112an.agn`).
///
/// `a2ge_record_size` (16 or 24) forces the size of `A2GE` records when
/// their payload divides by both. Raises `agkit.ParseError` with the byte
/// `offset` and `code` (`AGN0xx`), `OSError` when the file cannot be read.
#[pyfunction]
#[pyo3(signature = (source, *, a2ge_record_size=None))]
pub fn agn_read(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    a2ge_record_size: Option<usize>,
) -> PyResult<Agn> {
    if a2ge_record_size.is_some_and(|s| s != 16 && s != 24) {
        return Err(Error::value("a2ge_record_size must be 16 or 24").into());
    }
    let src = Source::extract(source)?;
    let name = src.name();
    let opts = agn::ReadOptions { a2ge_record_size };
    let model = detached(py, || {
        agn::read_with(&src.bytes()?, &opts).map_err(|e| read_error(&name, e, Class::Parse))
    })?;
    let cell = src
        .path()
        .and_then(|p| Cell::from_name(&p.to_string_lossy()).ok());
    Ok(Agn {
        inner: Arc::new(model),
        cell,
        name,
    })
}

/// An AGN reader or writer error.
fn read_error(name: &str, e: agn::Error, class: Class) -> Error {
    Error::at_offset(class, name, e.offset, e.code, e.message)
}

/// Writes an AGN file and returns its bytes; with `output`, also writes
/// them there (atomically).
///
/// `agn` is an `Agn`, or a dict: the JSON view (`Agn.to_dict()`, `agkit agn
/// dump --format json`) or the GeoJSON view (`Agn.to_geojson()`). Raises
/// `agkit.ParseError` for a dict that is neither, `agkit.BuildError` for
/// values an AGN cannot hold.
#[pyfunction]
#[pyo3(signature = (agn, output=None))]
pub fn agn_write<'py>(
    py: Python<'py>,
    agn: &Bound<'py, PyAny>,
    output: Option<PathBuf>,
) -> PyResult<Bound<'py, PyBytes>> {
    let (model, name) = match agn.cast::<Agn>() {
        Ok(a) => (a.get().inner.clone(), a.get().name.clone()),
        Err(_) => {
            let json: serde_json::Value = pythonize::depythonize(agn)?;
            let name = "<dict>";
            let model = detached(py, || {
                let geo = json.get("type").and_then(|t| t.as_str()) == Some("FeatureCollection");
                let text = json.to_string();
                let model = if geo {
                    agn::geojson::from_geojson(&text, None).map(|(m, _)| m)
                } else {
                    agn::json::from_json(&text)
                };
                model.map_err(|e| Error::plain(Class::Parse, Some(name), e))
            })?;
            (Arc::new(model), name.to_string())
        }
    };
    let bytes = detached(py, || {
        let bytes = agn::write(&model).map_err(|e| read_error(&name, e, Class::Build))?;
        if let Some(out) = &output {
            agkit::fsutil::write_atomic(out, &bytes).map_err(|e| Error::io(out, e))?;
        }
        Ok(bytes)
    })?;
    Ok(PyBytes::new(py, &bytes))
}

/// The name of the LOD13 cell (AGN file name, e.g.
/// `001332223121112an.agn`) holding a latitude and longitude in degrees.
/// The west and north edges belong to a cell; longitude wraps. Raises
/// `agkit.CellError` (also a `ValueError`) for a latitude outside -90..90 or
/// a non-finite position.
#[pyfunction]
pub fn cell_name(lat: f64, lon: f64) -> PyResult<String> {
    Ok(Cell::containing(lat, lon).map_err(cell_error)?.name())
}

/// The bounds of a LOD13 cell given its AGN file name (a leading folder is
/// ignored): `(west, south, east, north)` in degrees, the order of
/// shapely's `bounds` and `shapely.box`. Raises `agkit.CellError` (also a
/// `ValueError`) for a name that is not a cell.
#[pyfunction]
pub fn cell_bounds(name: &str) -> PyResult<(f64, f64, f64, f64)> {
    let b = Cell::from_name(name).map_err(cell_error)?.bounds();
    Ok((b.west, b.south, b.east, b.north))
}

#[pymethods]
impl Agn {
    /// The file name, or `<bytes>` / `<dict>`.
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// The LOD13 cell's file name when the file name gave it, else `None`.
    #[getter]
    fn cell(&self) -> Option<String> {
        self.cell.map(|c| c.name())
    }

    /// The top-level chunks in file order, as dicts (the JSON view: each has
    /// its `chunk` id; containers have `children`).
    #[getter]
    fn chunks<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.to_dict(py)?.get_item("chunks")
    }

    /// The JSON view as a dict (`format`, `version`, `chunks`): what `agkit
    /// agn dump --format json` prints, values as it prints them;
    /// `agkit.agn.write` takes it back.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let model = &self.inner;
        let text = detached(py, || Ok(agn::json::to_json(model)))?;
        crate::from_json(py, &text)
    }

    /// The text view (`agkit agn dump --format text`).
    fn to_text(&self, py: Python<'_>) -> PyResult<String> {
        let model = &self.inner;
        Ok(detached(py, || Ok(agn::text::to_text(model)))?)
    }

    /// The GeoJSON view: a FeatureCollection in lon/lat, one feature per
    /// record, placed in `cell` (a cell name; default: the file's own).
    #[pyo3(signature = (cell=None))]
    fn to_geojson<'py>(&self, py: Python<'py>, cell: Option<&str>) -> PyResult<Bound<'py, PyAny>> {
        let cell = match (cell, self.cell) {
            (Some(name), _) => Cell::from_name(name).map_err(cell_error)?,
            (None, Some(c)) => c,
            (None, None) => {
                return Err(Error::value(format!(
                    "{}: the cell is not known from the file name: pass cell=\"...an.agn\"",
                    self.name
                ))
                .into());
            }
        };
        let model = &self.inner;
        let text = detached(py, || Ok(agn::geojson::to_geojson_string(model, cell)))?;
        crate::from_json(py, &text)
    }

    /// The GeoJSON view in the file's own cell (absent when the cell is not
    /// known).
    #[getter]
    fn __geo_interface__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        if self.cell.is_none() {
            return Err(PyAttributeError::new_err(
                "__geo_interface__: the cell is not known; use to_geojson(cell=...)",
            ));
        }
        self.to_geojson(py, None)
    }

    /// The AGN bytes (byte for byte the file read, when unchanged); with
    /// `output`, also writes them there (atomically).
    #[pyo3(signature = (output=None))]
    fn write<'py>(
        slf: &Bound<'py, Self>,
        output: Option<PathBuf>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        agn_write(slf.py(), slf.as_any(), output)
    }

    fn __repr__(&self) -> String {
        format!(
            "<agkit.agn.Agn {:?}: {} chunk(s), cell {}>",
            self.name,
            self.inner.chunks.len(),
            self.cell.map_or("unknown".into(), |c| c.name())
        )
    }
}
