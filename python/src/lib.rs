//! `agkit._agkit`: the agkit library seen from Python.
//!
//! A thin layer over the pure-Rust `agkit` crate, which knows nothing of
//! Python (the model is huggingface/tokenizers' `bindings/python`). Each
//! function takes its Python arguments, calls agkit's library with the GIL
//! released ([`error::detached`]) and hands back plain Python data: records
//! as dicts and lists through serde ([`to_py`]), large coordinate sets as
//! numpy arrays on request ([`numpy_rows`]). Every error becomes a Python
//! exception in [`error`] alone.
//!
//! The Python package `agkit` (`python/agkit/`) re-exports these names:
//! `agkit.read_asset`, `check`, `fmt`, `place`, `place_dsf`;
//! `agkit.dsf.read`, `to_text`, `build`, `autogen`; `agkit.agn.read`,
//! `write`, `cell_name`, `cell_bounds`; `agkit.scenery.Installation`;
//! `agkit.overlay.build`. Its `.pyi` stubs give the types.

mod agn;
mod arrow;
mod asset;
mod diag;
mod dsf;
mod error;
mod overlay;
mod place;
mod scenery;
mod source;

use pyo3::prelude::*;

/// A serde value as Python data (maps → dict, sequences → list, fixed-size
/// arrays → tuple).
pub(crate) fn to_py<'py, T: serde::Serialize + ?Sized>(
    py: Python<'py>,
    value: &T,
) -> PyResult<Bound<'py, PyAny>> {
    Ok(pythonize::pythonize(py, value)?)
}

/// A JSON text agkit wrote as Python data (`json.loads`): for the views
/// whose JSON form is the stable interface (AGN's f32 values appear as the
/// JSON view prints them, e.g. `0.1`, not as the f32's exact binary value).
pub(crate) fn from_json<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    static LOADS: pyo3::sync::PyOnceLock<Py<PyAny>> = pyo3::sync::PyOnceLock::new();
    let loads = LOADS.import(py, "json", "loads")?;
    loads.call1((text,))
}

/// A numpy float64 array of `rows` × `cols` from row-major values; numpy is
/// imported first, so its absence is an `ImportError` saying what to
/// install.
pub(crate) fn numpy_rows<'py>(
    py: Python<'py>,
    rows: usize,
    cols: usize,
    flat: Vec<f64>,
) -> PyResult<Bound<'py, PyAny>> {
    use numpy::IntoPyArray;
    if let Err(e) = py.import("numpy") {
        return Err(pyo3::exceptions::PyImportError::new_err(format!(
            "this returns a numpy array: install numpy (pip install numpy) ({e})"
        )));
    }
    let array = numpy::ndarray::Array2::from_shape_vec((rows, cols), flat)
        .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
    Ok(array.into_pyarray(py).into_any())
}

/// Panics inside agkit's guard: the test that a panic reaches Python as
/// `agkit.InternalError` (and only so).
#[pyfunction]
fn _panic_for_tests(py: Python<'_>) -> PyResult<()> {
    Ok(error::detached(py, || -> Result<(), error::Error> {
        panic!("a deliberate panic (agkit._agkit._panic_for_tests)")
    })?)
}

/// The extension module.
#[pymodule]
fn _agkit(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<diag::Diagnostic>()?;
    m.add_class::<arrow::Table>()?;
    m.add_class::<arrow::Writer>()?;
    m.add_class::<asset::Asset>()?;
    m.add_class::<place::Placement>()?;
    m.add_class::<dsf::Dsf>()?;
    m.add_class::<dsf::Entities>()?;
    m.add_class::<agn::Agn>()?;
    m.add_class::<scenery::Scenery>()?;
    m.add_class::<scenery::Installation>()?;
    m.add_class::<scenery::AtReport>()?;
    m.add_class::<scenery::CheckReport>()?;
    m.add_class::<scenery::ConflictReport>()?;
    m.add_class::<scenery::Resolution>()?;
    m.add_class::<scenery::TilePlacement>()?;
    m.add_function(wrap_pyfunction!(asset::read_asset, m)?)?;
    m.add_function(wrap_pyfunction!(asset::check, m)?)?;
    m.add_function(wrap_pyfunction!(asset::check_table, m)?)?;
    m.add_function(wrap_pyfunction!(asset::fmt, m)?)?;
    m.add_function(wrap_pyfunction!(place::place, m)?)?;
    m.add_function(wrap_pyfunction!(scenery::place_dsf, m)?)?;
    m.add_function(wrap_pyfunction!(overlay::overlay_build, m)?)?;
    m.add_function(wrap_pyfunction!(dsf::dsf_read, m)?)?;
    m.add_function(wrap_pyfunction!(dsf::dsf_to_text, m)?)?;
    m.add_function(wrap_pyfunction!(dsf::dsf_build, m)?)?;
    m.add_function(wrap_pyfunction!(dsf::dsf_extract_overlay, m)?)?;
    m.add_function(wrap_pyfunction!(dsf::dsf_rasters, m)?)?;
    m.add_function(wrap_pyfunction!(dsf::dsf_filter, m)?)?;
    m.add_function(wrap_pyfunction!(dsf::dsf_merge, m)?)?;
    m.add_function(wrap_pyfunction!(dsf::dsf_props, m)?)?;
    m.add_function(wrap_pyfunction!(dsf::dsf_autogen, m)?)?;
    m.add_function(wrap_pyfunction!(agn::agn_read, m)?)?;
    m.add_function(wrap_pyfunction!(agn::agn_write, m)?)?;
    m.add_function(wrap_pyfunction!(agn::cell_name, m)?)?;
    m.add_function(wrap_pyfunction!(agn::cell_bounds, m)?)?;
    m.add_function(wrap_pyfunction!(arrow::empty_table, m)?)?;
    m.add_function(wrap_pyfunction!(_panic_for_tests, m)?)?;
    Ok(())
}
