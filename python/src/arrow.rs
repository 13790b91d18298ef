//! Tables built in Rust, handed to Python as Arrow (`agkit.ArrowTable`).
//!
//! agkit's library builds the record batch ([`agkit::out::arrow`]); here it
//! is kept as it is and exported through the Arrow PyCapsule interface
//! (`__arrow_c_stream__`, `__arrow_c_schema__`): pyarrow, polars, DuckDB
//! and GeoPandas (`GeoDataFrame.from_arrow`) take the columns' buffers
//! without a copy per row and without a Python object per value.

use crate::error::{Class, Error, detached};
use arrow_array::ffi::FFI_ArrowSchema;
use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{RecordBatch, RecordBatchIterator};
use pyo3::prelude::*;
use pyo3::types::PyCapsule;
use std::path::PathBuf;

/// A table agkit built (one Arrow record batch): typed columns in the
/// documented schema (docs/python.md), geometry as WKB in a `geometry`
/// column tagged `geoarrow.wkb` (EPSG:4326), GeoParquet's `geo` entry in
/// the schema's metadata.
///
/// Any Arrow consumer takes it as it is (`pyarrow.table(t)`,
/// `polars.from_arrow(t)`, `duckdb.arrow(t)`): it implements the Arrow
/// PyCapsule interface. `to_pyarrow()`, `to_pandas()` and
/// `to_geopandas()` are the shortcuts; `write_parquet()` writes it from
/// Rust.
#[pyclass(frozen, module = "agkit", name = "ArrowTable")]
pub struct Table {
    name: String,
    batch: RecordBatch,
}

impl Table {
    /// `batch`, named `name` (a layer, `census`, `placed`).
    pub fn new(name: impl Into<String>, batch: RecordBatch) -> Table {
        Table {
            name: name.into(),
            batch,
        }
    }

    fn has_geometry(&self) -> bool {
        self.batch
            .schema()
            .column_with_name(agkit::out::arrow::GEOMETRY)
            .is_some()
    }
}

#[pymethods]
impl Table {
    /// What the table holds: a layer's name (`objects`, `trees`, …),
    /// `placed` or `census`.
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// The rows.
    #[getter]
    fn num_rows(&self) -> usize {
        self.batch.num_rows()
    }

    /// The column names, in order.
    #[getter]
    fn column_names(&self) -> Vec<String> {
        let schema = self.batch.schema();
        schema.fields().iter().map(|f| f.name().clone()).collect()
    }

    fn __len__(&self) -> usize {
        self.batch.num_rows()
    }

    /// The Arrow C stream of the table (one record batch), in a PyCapsule
    /// named `arrow_array_stream`. `requested_schema` is not applied: the
    /// schema is the documented one.
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = requested_schema;
        let schema = self.batch.schema();
        // The batch's columns are shared (reference-counted buffers), not
        // copied.
        let reader = RecordBatchIterator::new([Ok(self.batch.clone())], schema);
        let stream = FFI_ArrowArrayStream::new(Box::new(reader));
        PyCapsule::new_with_value(py, stream, c"arrow_array_stream")
    }

    /// The Arrow C schema of the table, in a PyCapsule named
    /// `arrow_schema`.
    fn __arrow_c_schema__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        let schema = FFI_ArrowSchema::try_from(self.batch.schema().as_ref())
            .map_err(|e| Error::plain(Class::Internal, None, e.to_string()))?;
        PyCapsule::new_with_value(py, schema, c"arrow_schema")
    }

    /// The table as a `pyarrow.Table` (no copy). Needs pyarrow.
    fn to_pyarrow<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let pa = import(slf.py(), "pyarrow", "pyarrow")?;
        pa.call_method1("table", (slf,))
    }

    /// The table as a pandas DataFrame (`to_pyarrow().to_pandas()`; the
    /// geometry, if any, stays WKB bytes). Needs pyarrow and pandas.
    fn to_pandas<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        Self::to_pyarrow(slf)?.call_method0("to_pandas")
    }

    /// The table as a GeoDataFrame (EPSG:4326), the WKB column read by
    /// shapely in one call (`GeoDataFrame.from_arrow`). Needs geopandas
    /// 1.0 or later and pyarrow; a table without geometry (`census`) is a
    /// `ValueError`.
    fn to_geopandas<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        if !slf.get().has_geometry() {
            return Err(Error::value(format!(
                "the {} table has no geometry: use to_pandas()",
                slf.get().name
            ))
            .into());
        }
        let gpd = import(slf.py(), "geopandas", "geopandas>=1")?;
        gpd.getattr("GeoDataFrame")?
            .call_method1("from_arrow", (slf,))
    }

    /// Writes the table to `path` as Parquet (Snappy), from Rust:
    /// GeoParquet 1.0 when it has a geometry. Written to a temporary file
    /// beside `path`, then renamed.
    fn write_parquet(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        let batch = &self.batch;
        Ok(detached(py, || {
            agkit::out::arrow::write_parquet(std::slice::from_ref(batch), &path)
                .map_err(|e| Error::io(&path, e))
        })?)
    }

    fn __repr__(&self) -> String {
        format!(
            "<agkit.ArrowTable {}: {} row(s), {} column(s)>",
            self.name,
            self.batch.num_rows(),
            self.batch.num_columns()
        )
    }
}

/// `module`, or an `ImportError` saying what to install.
fn import<'py>(py: Python<'py>, module: &str, install: &str) -> PyResult<Bound<'py, PyModule>> {
    py.import(module).map_err(|e| {
        pyo3::exceptions::PyImportError::new_err(format!(
            "this needs {module}: pip install \"{install}\" ({e})"
        ))
    })
}

/// The layer table named `layer` of `ps` (numbered from 0), or a
/// `ValueError` naming the layers.
pub fn layer_table(
    py: Python<'_>,
    ps: Vec<&agkit::place::Placement>,
    layer: &str,
) -> PyResult<Table> {
    let Some(k) = agkit::out::arrow::layer_index(layer) else {
        return Err(unknown_layer(layer).into());
    };
    let mut batches = detached(py, || Ok(agkit::out::arrow::layer_batches(ps, 0)))?;
    Ok(Table::new(layer, batches.swap_remove(k)))
}

/// Every layer table of `ps` (numbered from 0), by layer name, in
/// [`agkit::out::layers::LAYERS`] order.
pub fn layer_tables<'py>(
    py: Python<'py>,
    ps: Vec<&agkit::place::Placement>,
) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
    let batches = detached(py, || Ok(agkit::out::arrow::layer_batches(ps, 0)))?;
    let out = pyo3::types::PyDict::new(py);
    for (l, b) in agkit::out::layers::LAYERS.iter().zip(batches) {
        out.set_item(l.name, Table::new(l.name, b))?;
    }
    Ok(out)
}

fn unknown_layer(layer: &str) -> Error {
    let names: Vec<&str> = agkit::out::layers::LAYERS.iter().map(|l| l.name).collect();
    Error::value(format!(
        "layer={layer:?}: the layers are {}",
        names.join(", ")
    ))
}

/// An empty table of the schema named `name`: a placement layer
/// (`objects`, `trees`, …), `placed`, `census`, `findings`,
/// `scenery_findings`, `conflicts`, or a DSF table prefixed `dsf.` (`dsf.objects`, …,
/// `dsf.vertices`): the `meta=` of `dask.dataframe.from_map`.
#[pyfunction]
pub fn empty_table(name: &str) -> PyResult<Table> {
    Ok(Table::new(name, empty_batch(name)?))
}

/// The empty batch of the schema named `name` ([`empty_table`]).
fn empty_batch(name: &str) -> Result<RecordBatch, Error> {
    use agkit::out::arrow as a;
    let batch = if let Some(k) = a::layer_index(name) {
        a::layer_batches([], 0).swap_remove(k)
    } else if name == "placed" {
        a::placed_batch([], "", "")
    } else if name == "census" {
        agkit::out::scenery_tables::census_batch(&[])
    } else if name == "findings" {
        a::findings_batch(&[])
    } else if name == "scenery_findings" {
        agkit::out::scenery_tables::findings_batch(&[])
    } else if name == "conflicts" {
        agkit::out::conflicts::conflicts_batch(&Default::default())
    } else if name == "dsf.vertices" {
        a::dsf_vertices_batch(&agkit::dsf::features::Features::default(), "")
    } else if let Some(l) = name.strip_prefix("dsf.").and_then(|n| {
        agkit::dsf::features::Layer::ALL
            .into_iter()
            .find(|l| l.as_str() == n)
    }) {
        a::dsf_batch(&agkit::dsf::features::Features::default(), l, "")
    } else {
        return Err(Error::value(format!(
            "{name:?} is no table: a placement layer, \"placed\", \"census\", \"findings\", \"scenery_findings\", \"conflicts\" or \"dsf.<layer>\" (\"dsf.vertices\" too)"
        )));
    };
    Ok(batch)
}

/// One Parquet file written table after table, from Rust: the tiles of a
/// run (or the part files of a cluster's run) made one file with no more
/// than one of them in memory.
///
/// `schema` names the columns (as `agkit.empty_table` takes it: a
/// placement layer, `"placed"`, `"census"`, `"dsf.<layer>"`); `metadata`
/// adds string entries to the file's metadata (e.g. pandas' `pandas`
/// entry). Snappy-compressed; GeoParquet 1.0 when the schema has a
/// geometry, its `geo` entry listing the geometry types of every row
/// written. The file is a temporary one beside `path` until `close()`
/// renames it into place. As a context manager it is closed at the end of
/// the block, or, when the block raises, removed (`path` left as it was).
#[pyclass(frozen, module = "agkit", name = "ParquetWriter")]
pub struct Writer {
    path: PathBuf,
    sink: std::sync::Mutex<Option<agkit::out::arrow::ParquetSink>>,
}

impl Writer {
    /// The open sink, or a `ValueError` once closed.
    fn with<T>(
        &self,
        work: impl FnOnce(&mut agkit::out::arrow::ParquetSink) -> std::io::Result<T>,
    ) -> Result<T, Error> {
        let mut guard = self.sink.lock().map_err(|_| poisoned())?;
        let Some(sink) = guard.as_mut() else {
            return Err(Error::value(format!(
                "the ParquetWriter of {} is closed",
                self.path.display()
            )));
        };
        work(sink).map_err(|e| self.error(e))
    }

    /// The sink, taken out (`None` once closed).
    fn take(&self) -> Result<Option<agkit::out::arrow::ParquetSink>, Error> {
        Ok(self.sink.lock().map_err(|_| poisoned())?.take())
    }

    fn error(&self, e: std::io::Error) -> Error {
        if e.kind() == std::io::ErrorKind::InvalidInput {
            Error::value(format!("{}: {e}", self.path.display()))
        } else {
            Error::io(&self.path, e)
        }
    }
}

fn poisoned() -> Error {
    Error::plain(
        Class::Internal,
        None,
        "a ParquetWriter's lock was poisoned".to_string(),
    )
}

#[pymethods]
impl Writer {
    #[new]
    #[pyo3(signature = (path, schema, metadata=None))]
    fn new(
        py: Python<'_>,
        path: PathBuf,
        schema: &str,
        metadata: Option<std::collections::BTreeMap<String, String>>,
    ) -> PyResult<Writer> {
        let empty = empty_batch(schema)?;
        let meta: Vec<(String, String)> = metadata.unwrap_or_default().into_iter().collect();
        let sink = detached(py, || {
            agkit::out::arrow::ParquetSink::create(&path, empty.schema(), &meta)
                .map_err(|e| Error::io(&path, e))
        })?;
        Ok(Writer {
            path,
            sink: std::sync::Mutex::new(Some(sink)),
        })
    }

    /// Appends the rows of `table` (an `agkit.ArrowTable` of the writer's
    /// columns; other columns are a `ValueError`).
    fn write(&self, py: Python<'_>, table: PyRef<'_, Table>) -> PyResult<()> {
        let batch = &table.batch;
        Ok(detached(py, || self.with(|s| s.write(batch)))?)
    }

    /// Appends every row of the Parquet file at `path` (one of the
    /// writer's columns, e.g. a part `ArrowTable.write_parquet` wrote):
    /// its row groups are copied as they are stored, not decoded again;
    /// only its geometry column is read, for the `geo` entry. A file of
    /// other columns is a `ValueError` naming it.
    fn append_file(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        Ok(detached(py, || self.with(|s| s.append_file(&path)))?)
    }

    /// The rows written so far.
    #[getter]
    fn rows(&self) -> PyResult<usize> {
        Ok(self.with(|s| Ok(s.rows()))?)
    }

    /// Completes the file and renames it into place: the rows written.
    /// `metadata` adds string entries to the file's metadata, as the
    /// constructor's does (what is known only at the end, such as the
    /// tiles a part holds).
    #[pyo3(signature = (metadata=None))]
    fn close(
        &self,
        py: Python<'_>,
        metadata: Option<std::collections::BTreeMap<String, String>>,
    ) -> PyResult<usize> {
        let Some(sink) = self.take()? else {
            return Err(Error::value(format!(
                "the ParquetWriter of {} is closed",
                self.path.display()
            ))
            .into());
        };
        let meta: Vec<(String, String)> = metadata.unwrap_or_default().into_iter().collect();
        Ok(detached(py, || {
            sink.finish_with(&meta).map_err(|e| self.error(e))
        })?)
    }

    /// Drops what was written (the temporary file removed, `path` left as
    /// it was); nothing once closed.
    fn abort(&self) -> PyResult<()> {
        drop(self.take()?);
        Ok(())
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __exit__(
        &self,
        py: Python<'_>,
        kind: Option<Bound<'_, PyAny>>,
        value: Option<Bound<'_, PyAny>>,
        traceback: Option<Bound<'_, PyAny>>,
    ) -> PyResult<bool> {
        let _ = (value, traceback);
        let open = self.sink.lock().map(|g| g.is_some()).unwrap_or(false);
        if kind.is_some() {
            self.abort()?;
        } else if open {
            self.close(py, None)?;
        }
        Ok(false)
    }

    fn __repr__(&self) -> String {
        let open = self.sink.lock().map(|g| g.is_some()).unwrap_or(false);
        format!(
            "<agkit.ParquetWriter {} ({})>",
            self.path.display(),
            if open { "open" } else { "closed" }
        )
    }
}
