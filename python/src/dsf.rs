//! `agkit.dsf`: X-Plane DSF tiles (binary, plain or 7z) and DSF2Text.

use crate::error::{Class, Error, detached};
use crate::source::Source;
use agkit::dsf::{self, Entity};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A decoded DSF tile: properties, definition tables, point pools, rasters
/// and the command stream's objects, polygons, terrain patches and network
/// chains.
#[pyclass(frozen, name = "Dsf", module = "agkit.dsf")]
pub struct Dsf {
    inner: Arc<dsf::Dsf>,
    name: String,
}

/// Reads a DSF's bytes, naming `name` in the error.
fn decode(name: &str, bytes: &[u8]) -> Result<dsf::Dsf, Error> {
    dsf::read(bytes)
        .map_err(|e| Error::at_offset(Class::Parse, name, e.offset, e.code(), e.message()))
}

/// The tile a `source` argument names: a `Dsf` as it is, else read from a
/// path or bytes (with the GIL released).
fn tile(py: Python<'_>, source: &Bound<'_, PyAny>) -> PyResult<(Arc<dsf::Dsf>, String)> {
    if let Ok(d) = source.cast::<Dsf>() {
        let d = d.get();
        return Ok((d.inner.clone(), d.name.clone()));
    }
    let src = Source::extract(source)?;
    let name = src.name();
    let model = detached(py, || decode(&name, &src.bytes()?))?;
    Ok((Arc::new(model), name))
}

/// Reads a DSF tile (plain or 7z-compressed) from a path or its `bytes`.
///
/// Raises `agkit.ParseError` with the byte `offset` and `code` (`DSF001`…)
/// when the file is not a readable DSF, `OSError` when it cannot be read.
#[pyfunction]
pub fn dsf_read(py: Python<'_>, source: &Bound<'_, PyAny>) -> PyResult<Dsf> {
    let (inner, name) = tile(py, source)?;
    Ok(Dsf { inner, name })
}

/// The DSF2Text (DSFTool's text form) of a tile: a `Dsf`, a path or bytes.
#[pyfunction]
pub fn dsf_to_text(py: Python<'_>, source: &Bound<'_, PyAny>) -> PyResult<String> {
    let (inner, name) = tile(py, source)?;
    to_text(py, &inner, Some(name))
}

/// Builds a binary DSF from DSF2Text (a path, the text, or its bytes) or
/// from a `Dsf`, and returns its bytes; with `output`, also writes them
/// there (atomically: a temporary file renamed into place).
///
/// `RASTER_DATA` files named in a text are read relative to the text
/// file's folder. Raises `agkit.ParseError` (`DSF030`, with the `line`) for
/// a text DSFTool would refuse or for a file of another kind (a binary DSF:
/// pass `agkit.dsf.read(path)` instead), `agkit.BuildError` (`DSF031`, with
/// the `line` where the entity begins when built from a text) for a model
/// that cannot be written.
#[pyfunction]
#[pyo3(signature = (source, output=None))]
pub fn dsf_build<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    output: Option<PathBuf>,
) -> PyResult<Bound<'py, PyBytes>> {
    let bytes = if let Ok(d) = source.cast::<Dsf>() {
        let d = d.get();
        let (model, name) = (&d.inner, &d.name);
        detached(py, || build(name, model, &dsf::BuildOptions::default()))?
    } else {
        let src = Source::extract(source)?;
        let name = src.name();
        detached(py, || {
            let bytes = src.bytes()?;
            // A binary DSF, an image … would read as text without a
            // command and build an empty tile: refused for what it is.
            use agkit::check::Contents;
            if let Some(why) = Contents::of(&bytes).refusal("DSF2Text", &[Contents::DsfText]) {
                return Err(Error::plain(Class::Parse, Some(&name), why));
            }
            let text = String::from_utf8_lossy(&bytes);
            let base = src.path().and_then(Path::parent).unwrap_or(Path::new(""));
            // As `agkit dsf build` reads them: beside the text, bounded.
            let mut files = dsf::text::RasterFiles::new(base, &agkit::limits::Limits::default());
            let mut load = |file: &str| files.load(file);
            let (model, mut opts) = dsf::from_text(&text, &mut load)
                .map_err(|e| Error::at_line(Class::Parse, &name, e.line, "DSF030", e.message))?;
            // Grouped and stripped, as `agkit dsf build` writes a text.
            (opts.group, opts.strip) = (true, true);
            dsf::build(&model, &opts).map_err(|e| {
                // At the line where the refused entity begins, as the CLI
                // reports it.
                match e.entity.and_then(|i| dsf::text::entity_span(&text, i)) {
                    Some(span) => {
                        let line = text[..span.start].matches('\n').count() + 1;
                        Error::at_line(Class::Build, &name, line, "DSF031", e.message)
                    }
                    None => Error::coded(Class::Build, &name, "DSF031", e.to_string()),
                }
            })
        })?
    };
    if let Some(out) = output {
        detached(py, || {
            agkit::fsutil::write_atomic(&out, &bytes).map_err(|e| Error::io(&out, e))
        })?;
    }
    Ok(PyBytes::new(py, &bytes))
}

/// [`dsf::build`] with its error named.
fn build(name: &str, model: &dsf::Dsf, opts: &dsf::BuildOptions) -> Result<Vec<u8>, Error> {
    dsf::build(model, opts).map_err(|e| Error::coded(Class::Build, name, "DSF031", e.to_string()))
}

/// The autogen uses of a tile (a `Dsf`, a path or bytes) as a GeoJSON
/// FeatureCollection in lon/lat: a Point per `.agp` object, a Polygon per
/// `.agb`/`.ags` polygon (its windings as rings, closed). Properties:
/// `index`, `kind`, `asset` (the definition path), `def`, `heading` (AGP),
/// `param`, `height` and `low` (AGB/AGS).
///
/// `geopandas.GeoDataFrame.from_features(agkit.dsf.autogen(path))` loads
/// them.
#[pyfunction]
pub fn dsf_autogen<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let (inner, _) = tile(py, source)?;
    autogen(py, &inner)
}

/// [`dsf_autogen`] of a decoded tile.
fn autogen<'py>(py: Python<'py>, tile: &dsf::Dsf) -> PyResult<Bound<'py, PyAny>> {
    let fc = detached(py, || {
        let features: Vec<Value> = dsf::autogen_uses(tile)
            .into_iter()
            .enumerate()
            .map(|(i, u)| {
                let geometry = match u.point {
                    Some(p) => json!({"type": "Point", "coordinates": p}),
                    None => {
                        let rings: Vec<Vec<[f64; 2]>> = u
                            .windings
                            .iter()
                            .map(|w| {
                                let mut r = w.clone();
                                if let (Some(&first), Some(&last)) = (w.first(), w.last())
                                    && first != last
                                {
                                    r.push(first);
                                }
                                r
                            })
                            .collect();
                        json!({"type": "Polygon", "coordinates": rings})
                    }
                };
                json!({
                    "type": "Feature",
                    "geometry": geometry,
                    "properties": {
                        "index": i,
                        "kind": u.kind.as_str(),
                        "asset": u.asset,
                        "def": u.def,
                        "heading": u.heading,
                        "param": u.param,
                        "height": u.height,
                        "low": u.low,
                    },
                })
            })
            .collect();
        Ok(json!({"type": "FeatureCollection", "features": features}))
    })?;
    crate::to_py(py, &fc)
}

/// [`dsf::to_text`] with the GIL released.
fn to_text(py: Python<'_>, tile: &dsf::Dsf, source_name: Option<String>) -> PyResult<String> {
    let opts = dsf::TextOptions {
        source_name,
        raster_base: None,
    };
    Ok(detached(py, || Ok(dsf::to_text(tile, &opts)))?)
}

/// Which entities an [`Entities`] iterator yields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Which {
    Objects,
    Polygons,
    Patches,
    Chains,
}

/// An iterator over one kind of entity of a tile, in command-stream order,
/// each as a dict.
#[pyclass(module = "agkit.dsf")]
pub struct Entities {
    tile: Arc<dsf::Dsf>,
    which: Which,
    at: usize,
}

#[pymethods]
impl Entities {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        while let Some(e) = self.tile.entities.get(self.at) {
            self.at += 1;
            let t = &self.tile;
            let d = PyDict::new(py);
            match (self.which, e) {
                (Which::Objects, Entity::Object(o)) => {
                    d.set_item("def", o.def)?;
                    d.set_item("asset", t.object_defs.get(o.def as usize))?;
                    d.set_item("lon", o.lon)?;
                    d.set_item("lat", o.lat)?;
                    d.set_item("heading", o.heading)?;
                    d.set_item("elevation", o.elevation)?;
                    d.set_item(
                        "mode",
                        match o.mode {
                            dsf::ElevationMode::Draped => "draped",
                            dsf::ElevationMode::Msl => "msl",
                            dsf::ElevationMode::Agl => "agl",
                        },
                    )?;
                }
                (Which::Polygons, Entity::Polygon(p)) => {
                    d.set_item("def", p.def)?;
                    d.set_item("asset", t.polygon_defs.get(p.def as usize))?;
                    d.set_item("param", p.param)?;
                    d.set_item("depth", p.depth)?;
                    let rings = PyList::empty(py);
                    for k in 0..p.windings.len() {
                        rings.append(points(py, p.points(k))?)?;
                    }
                    d.set_item("windings", rings)?;
                }
                (Which::Patches, Entity::Patch(p)) => {
                    d.set_item("def", p.def)?;
                    d.set_item("terrain", t.terrain_defs.get(p.def as usize))?;
                    d.set_item("flags", p.flags)?;
                    d.set_item("lod_near", p.lod_near)?;
                    d.set_item("lod_far", p.lod_far)?;
                    d.set_item("depth", p.depth)?;
                    let prims = PyList::empty(py);
                    for prim in &p.primitives {
                        let pd = PyDict::new(py);
                        pd.set_item(
                            "kind",
                            match prim.kind {
                                dsf::PrimitiveKind::Triangles => "triangles",
                                dsf::PrimitiveKind::Strip => "strip",
                                dsf::PrimitiveKind::Fan => "fan",
                            },
                        )?;
                        pd.set_item(
                            "vertices",
                            points(py, prim.vertices.chunks_exact(p.depth.max(1)))?,
                        )?;
                        prims.append(pd)?;
                    }
                    d.set_item("primitives", prims)?;
                }
                (Which::Chains, Entity::Network(c)) => {
                    d.set_item("def", c.def)?;
                    d.set_item("network", t.network_defs.get(c.def as usize))?;
                    d.set_item("subtype", c.subtype)?;
                    d.set_item("depth", c.depth)?;
                    d.set_item("points", points(py, c.points())?)?;
                }
                _ => continue,
            }
            return Ok(Some(d));
        }
        Ok(None)
    }
}

/// Points (each a slice of its planes) as a list of tuples.
fn points<'py, 'a>(
    py: Python<'py>,
    pts: impl Iterator<Item = &'a [f64]>,
) -> PyResult<Bound<'py, PyList>> {
    let out = PyList::empty(py);
    for p in pts {
        out.append(PyTuple::new(py, p)?)?;
    }
    Ok(out)
}

impl Dsf {
    fn entities(&self, which: Which) -> Entities {
        Entities {
            tile: self.inner.clone(),
            which,
            at: 0,
        }
    }
}

#[pymethods]
impl Dsf {
    /// The file name, or `<bytes>`.
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// `PROP` name/value pairs in file order (names may repeat, e.g.
    /// `sim/exclude_obj`).
    #[getter]
    fn properties(&self) -> Vec<(String, String)> {
        self.inner.properties.clone()
    }

    /// The value of the first property called `name`, or `None`.
    fn property(&self, name: &str) -> Option<&str> {
        self.inner.property(name)
    }

    /// `TERT`: terrain definitions.
    #[getter]
    fn terrain_defs(&self) -> Vec<String> {
        self.inner.terrain_defs.clone()
    }

    /// `OBJT`: object definitions (`.obj`, `.agp`).
    #[getter]
    fn object_defs(&self) -> Vec<String> {
        self.inner.object_defs.clone()
    }

    /// `POLY`: polygon definitions (`.fac .for .pol .agb .ags` ...).
    #[getter]
    fn polygon_defs(&self) -> Vec<String> {
        self.inner.polygon_defs.clone()
    }

    /// `NETW`: network definitions.
    #[getter]
    fn network_defs(&self) -> Vec<String> {
        self.inner.network_defs.clone()
    }

    /// `DEMN`: raster layer names.
    #[getter]
    fn raster_defs(&self) -> Vec<String> {
        self.inner.raster_defs.clone()
    }

    /// True when the file was a 7z archive holding the DSF.
    #[getter]
    fn compressed(&self) -> bool {
        self.inner.compressed
    }

    /// The MD5 footer: `"valid"`, `"mismatch"` or `"not_checked"`.
    #[getter]
    fn md5(&self) -> &'static str {
        match self.inner.md5 {
            dsf::Md5Status::Valid => "valid",
            dsf::Md5Status::Mismatch { .. } => "mismatch",
            dsf::Md5Status::NotChecked => "not_checked",
        }
    }

    /// How many objects, polygons, patches, chains, pools (16- and
    /// 32-bit) and rasters the tile holds.
    #[getter]
    fn counts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let t = &self.inner;
        let d = PyDict::new(py);
        d.set_item("objects", t.objects().count())?;
        d.set_item("polygons", t.polygons().count())?;
        d.set_item("patches", t.patches().count())?;
        d.set_item("chains", t.chains().count())?;
        d.set_item("pools", t.pools.len())?;
        d.set_item("pools32", t.pools32.len())?;
        d.set_item("rasters", t.rasters.len())?;
        Ok(d)
    }

    /// The objects in stream order: dicts of `def`, `asset` (its
    /// definition), `lon`, `lat`, `heading`, `elevation` and `mode`
    /// (`draped`, `msl`, `agl`).
    fn objects(&self) -> Entities {
        self.entities(Which::Objects)
    }

    /// The polygons in stream order: dicts of `def`, `asset`, `param`,
    /// `depth` and `windings` (lists of point tuples, `depth` values each:
    /// lon, lat, ...).
    fn polygons(&self) -> Entities {
        self.entities(Which::Polygons)
    }

    /// The terrain patches in stream order: dicts of `def`, `terrain`,
    /// `flags`, `lod_near`, `lod_far`, `depth` and `primitives` (each a
    /// `kind` — triangles, strip, fan — and its `vertices`).
    fn patches(&self) -> Entities {
        self.entities(Which::Patches)
    }

    /// The network chains in stream order: dicts of `def`, `network`,
    /// `subtype`, `depth` and `points`.
    fn chains(&self) -> Entities {
        self.entities(Which::Chains)
    }

    /// Every object as one row `(def, lon, lat, heading)` of a numpy
    /// array. Needs numpy.
    fn object_array<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let flat: Vec<f64> = self
            .inner
            .objects()
            .flat_map(|o| [f64::from(o.def), o.lon, o.lat, o.heading])
            .collect();
        crate::numpy_rows(py, flat.len() / 4, 4, flat)
    }

    /// The point pools: dicts of `index`, `wide` (a 32-bit pool), `offset`
    /// (of the atom in the file), `count` and `depth` (planes per point).
    #[getter]
    fn pools<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        let t = &self.inner;
        for (wide, pools) in [(false, &t.pools), (true, &t.pools32)] {
            for (i, p) in pools.iter().enumerate() {
                let d = PyDict::new(py);
                d.set_item("index", i)?;
                d.set_item("wide", wide)?;
                d.set_item("offset", p.offset)?;
                d.set_item("count", p.count)?;
                d.set_item("depth", p.depth())?;
                out.append(d)?;
            }
        }
        Ok(out)
    }

    /// The decoded points of pool `index` (of the 32-bit pools with
    /// `wide=True`) as a numpy array of `count` rows and `depth` columns.
    /// Needs numpy.
    #[pyo3(signature = (index, *, wide=false))]
    fn pool_points<'py>(
        &self,
        py: Python<'py>,
        index: usize,
        wide: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let pools = if wide {
            &self.inner.pools32
        } else {
            &self.inner.pools
        };
        let Some(pool) = pools.get(index) else {
            return Err(pyo3::exceptions::PyIndexError::new_err(format!(
                "pool {index} does not exist ({} {}-bit pools)",
                pools.len(),
                if wide { 32 } else { 16 }
            )));
        };
        let flat = detached(py, || {
            let mut flat = Vec::with_capacity(pool.count * pool.depth());
            for i in 0..pool.count {
                pool.point_into(i, &mut flat);
            }
            Ok(flat)
        })?;
        crate::numpy_rows(py, pool.count, pool.depth(), flat)
    }

    /// The raster layers: dicts of `name`, `version`, `bpp`, `flags`,
    /// `width`, `height`, `scale`, `offset` and `data` (the raw
    /// little-endian samples, first row south).
    #[getter]
    fn rasters<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        for r in &self.inner.rasters {
            let d = PyDict::new(py);
            d.set_item("name", &r.name)?;
            d.set_item("version", r.version)?;
            d.set_item("bpp", r.bpp)?;
            d.set_item("flags", r.flags)?;
            d.set_item("width", r.width)?;
            d.set_item("height", r.height)?;
            d.set_item("scale", r.scale)?;
            d.set_item("offset", r.offset)?;
            d.set_item("data", PyBytes::new(py, &r.data))?;
            out.append(d)?;
        }
        Ok(out)
    }

    /// The tile's objects, polygons, lines, facades, forests and network
    /// chains as typed tables (`agkit.dsf.Tables`): one row per entity
    /// with a geometry valid by construction, in lon/lat (EPSG:4326).
    fn tables<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let raw = self.features(py)?;
        let tables = py.import("agkit.dsf")?.getattr("_tables")?;
        tables.call1((raw, &self.name))
    }

    /// One table of the tile (`objects`, `polygons`, `lines`, `facades`,
    /// `forests`, `chains`, `vertices`) as an `agkit.ArrowTable` built in
    /// Rust: the columns of `agkit.dsf.SCHEMAS[layer]` and `geometry`
    /// (WKB), the rows of `tables()[layer]`.
    #[pyo3(signature = (layer="objects"))]
    fn to_arrow(&self, py: Python<'_>, layer: &str) -> PyResult<crate::arrow::Table> {
        let l = dsf::features::Layer::ALL
            .into_iter()
            .find(|l| l.as_str() == layer);
        if l.is_none() && layer != "vertices" {
            return Err(Error::value(format!(
                "layer={layer:?}: the tables are objects, polygons, lines, facades, forests, chains, vertices"
            ))
            .into());
        }
        let tile: &dsf::Dsf = &self.inner;
        let name = &self.name;
        let batch = detached(py, || {
            let f = dsf::features::features(tile);
            Ok(match l {
                Some(l) => agkit::out::arrow::dsf_batch(&f, l, name),
                None => agkit::out::arrow::dsf_vertices_batch(&f, name),
            })
        })?;
        Ok(crate::arrow::Table::new(layer, batch))
    }

    /// The raw features (`agkit.dsf.Tables` is made from them): a dict of
    /// `tile`, `features` (rows with a GeoJSON `geometry`, `planes` and
    /// `extra`) and `notes`.
    fn features<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let tile: &dsf::Dsf = &self.inner;
        let f = detached(py, || Ok(dsf::features::features(tile)))?;
        crate::to_py(py, &f)
    }

    /// Every feature of `tables()` as one GeoJSON FeatureCollection
    /// (a `layer` property says which table).
    #[getter]
    fn __geo_interface__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.tables(py)?.getattr("__geo_interface__")
    }

    /// `tables().to_geopandas()`: one GeoDataFrame of every feature
    /// (EPSG:4326). Needs geopandas.
    fn to_geopandas<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.tables(py)?.call_method0("to_geopandas")
    }

    /// The autogen uses as a GeoJSON FeatureCollection (see
    /// `agkit.dsf.autogen`).
    fn autogen<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        autogen(py, &self.inner)
    }

    /// The tile as DSF2Text; `source_name` is printed in its header.
    #[pyo3(signature = (source_name=None))]
    fn to_text(&self, py: Python<'_>, source_name: Option<String>) -> PyResult<String> {
        to_text(py, &self.inner, source_name)
    }

    /// The tile written again as a binary DSF, its entities in their order
    /// (pools rebuilt from the entities in a `divisions` × `divisions`
    /// grid, 1..64).
    #[pyo3(signature = (divisions=32))]
    fn build<'py>(&self, py: Python<'py>, divisions: u32) -> PyResult<Bound<'py, PyBytes>> {
        let (model, name) = (&self.inner, &self.name);
        let opts = dsf::BuildOptions {
            divisions,
            ..dsf::BuildOptions::default()
        };
        let bytes = detached(py, || build(name, model, &opts))?;
        Ok(PyBytes::new(py, &bytes))
    }

    fn __repr__(&self) -> String {
        let t = &self.inner;
        format!(
            "<agkit.dsf.Dsf {:?}: {} object(s), {} polygon(s), {} patch(es)>",
            self.name,
            t.objects().count(),
            t.polygons().count(),
            t.patches().count()
        )
    }
}

/// An edit's error as an `agkit.Error`: `ParseError` (with the byte
/// `offset`) for an input that cannot be read, `BuildError` for a result
/// refused (`code` `DSF-EDIT-empty`, `-bounds`, `-inconsistent`, `-raster`,
/// `-arguments`), naming the input it is in.
fn edit_error(names: &[String], e: dsf::EditError) -> Error {
    let name = e
        .input
        .and_then(|k| names.get(k))
        .cloned()
        .unwrap_or_else(|| "the result".into());
    let code = format!("DSF-EDIT-{}", e.kind.name());
    match (e.kind, e.offset) {
        (dsf::EditErrorKind::Read, Some(at)) => {
            Error::at_offset(Class::Parse, &name, at, &code, e.message)
        }
        _ => Error::coded(Class::Build, &name, &code, e.message),
    }
}

/// Packs `bytes` as 7z when `compress`, writes them to `output` when
/// given (atomically), and returns them.
fn edited<'py>(
    py: Python<'py>,
    bytes: Vec<u8>,
    output: Option<PathBuf>,
    compress: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let bytes = detached(py, || {
        let bytes = if compress {
            let name = output
                .as_deref()
                .map_or_else(|| "tile.dsf".to_string(), dsf::pack::entry_name);
            dsf::pack_7z(&bytes, &name).map_err(|e| Error::Value(e.to_string()))?
        } else {
            bytes
        };
        if let Some(out) = &output {
            agkit::fsutil::write_atomic(out, &bytes).map_err(|e| Error::io(out, e))?;
        }
        Ok(bytes)
    })?;
    Ok(PyBytes::new(py, &bytes))
}

/// Refuses an `output` that is one of the sources' files (by identity:
/// through a link or another spelling too), a folder, or a file in a
/// folder that does not exist, before any work: an edit never writes over
/// its input.
fn check_out(output: Option<&PathBuf>, srcs: &[&Source]) -> Result<(), Error> {
    let Some(out) = output else {
        return Ok(());
    };
    let inputs: Vec<&std::path::Path> = srcs.iter().filter_map(|s| s.path()).collect();
    agkit::fsutil::check_output(out, agkit::fsutil::OutputRole::File, &inputs)
        .map_err(|e| Error::Value(e.to_string()))
}

/// The bytes and names of some sources (paths or bytes).
fn sources(list: &[Bound<'_, PyAny>]) -> PyResult<Vec<Source>> {
    list.iter().map(|s| Source::extract(s)).collect()
}

/// Ortho4XP's overlay extraction of a tile (a path or bytes, plain or 7z),
/// binary to binary: polygons and roads with `sim/overlay 1`; no terrain,
/// rasters, objects (unless `objects`) or filters. `exclude_polygons`
/// (default `["0"]`, Ortho4XP's) lists indices, texts a definition path
/// contains, or `!text`; `exclude_roads` road subtypes (`"*"`: all).
/// Returns the DSF's bytes (7z with `compress`), written to `output` too
/// when given.
#[pyfunction]
#[pyo3(signature = (source, output=None, exclude_polygons=None, exclude_roads=None, objects=false, compress=false))]
pub fn dsf_extract_overlay<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    output: Option<PathBuf>,
    exclude_polygons: Option<Vec<String>>,
    exclude_roads: Option<Vec<String>>,
    objects: bool,
    compress: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let src = Source::extract(source)?;
    let mut opts = dsf::edit::OverlayOptions {
        exclude_roads: exclude_roads.unwrap_or_default(),
        objects,
        ..Default::default()
    };
    if let Some(p) = exclude_polygons {
        opts.exclude_polygons = p;
    }
    check_out(output.as_ref(), &[&src])?;
    let names = [src.name()];
    let bytes = detached(py, || {
        let b = src.bytes()?;
        dsf::edit::extract_overlay(&b, &opts, &agkit::limits::Limits::default())
            .map_err(|e| edit_error(&names, e))
    })?;
    edited(py, bytes, output, compress)
}

/// Copies raster layers from `from_tile` (a Global Scenery tile) into a
/// tile, replacing those of the same name, and drops the layers `drop`.
/// `layers` empty: AutoOrtho's (names holding spr, win, fal, sum,
/// soundscape or elevation). Bounds must agree.
#[pyfunction]
#[pyo3(signature = (source, from_tile=None, layers=None, drop=None, output=None, compress=false))]
pub fn dsf_rasters<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    from_tile: Option<&Bound<'py, PyAny>>,
    layers: Option<Vec<String>>,
    drop: Option<Vec<String>>,
    output: Option<PathBuf>,
    compress: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let src = Source::extract(source)?;
    let from = from_tile.map(Source::extract).transpose()?;
    let edits = dsf::edit::RasterEdits {
        layers: layers.unwrap_or_default(),
        drop: drop.unwrap_or_default(),
    };
    let mut all = vec![&src];
    all.extend(from.as_ref());
    check_out(output.as_ref(), &all)?;
    let mut names = vec![src.name()];
    names.extend(from.as_ref().map(Source::name));
    let bytes = detached(py, || {
        let a = src.bytes()?;
        let b = match &from {
            Some(f) => Some(f.bytes()?),
            None => None,
        };
        dsf::edit::rasters(&a, b.as_deref(), &edits, &agkit::limits::Limits::default())
            .map_err(|e| edit_error(&names, e))
    })?;
    edited(py, bytes, output, compress)
}

/// Keeps or drops entities of a tile: `keep`/`drop` rules `KIND[:PATTERN]`
/// (KIND object, polygon, patch, network or any; PATTERN with `*`, `?`),
/// applied in an area when `bbox` (west, south, east, north) or `polygon`
/// (GeoJSON text) is given.
#[pyfunction]
#[pyo3(signature = (source, keep=None, drop=None, bbox=None, polygon=None, output=None, compress=false))]
#[allow(clippy::too_many_arguments)]
pub fn dsf_filter<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    keep: Option<Vec<String>>,
    drop: Option<Vec<String>>,
    bbox: Option<(f64, f64, f64, f64)>,
    polygon: Option<String>,
    output: Option<PathBuf>,
    compress: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let rules = |v: Option<Vec<String>>| -> Result<Vec<dsf::edit::Rule>, Error> {
        v.unwrap_or_default()
            .iter()
            .map(|r| r.parse().map_err(Error::Value))
            .collect()
    };
    let mut sel = dsf::edit::Selection {
        keep: rules(keep)?,
        drop: rules(drop)?,
        area: bbox.map(|(w, s, e, n)| dsf::edit::Area::Box([w, s, e, n])),
    };
    if let Some(g) = polygon {
        sel.area = Some(dsf::edit::Area::from_geojson(&g).map_err(Error::Value)?);
    }
    let src = Source::extract(source)?;
    check_out(output.as_ref(), &[&src])?;
    let names = [src.name()];
    let bytes = detached(py, || {
        let b = src.bytes()?;
        dsf::edit::filter(&b, &sel, &agkit::limits::Limits::default())
            .map_err(|e| edit_error(&names, e))
    })?;
    edited(py, bytes, output, compress)
}

/// Merges several tiles of one 1° square into one, definitions renumbered.
#[pyfunction]
#[pyo3(signature = (sources_list, output=None, compress=false))]
pub fn dsf_merge<'py>(
    py: Python<'py>,
    sources_list: Vec<Bound<'py, PyAny>>,
    output: Option<PathBuf>,
    compress: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let srcs = sources(&sources_list)?;
    check_out(output.as_ref(), &srcs.iter().collect::<Vec<_>>())?;
    let names: Vec<String> = srcs.iter().map(Source::name).collect();
    let bytes = detached(py, || {
        let mut all = Vec::new();
        for s in &srcs {
            all.push(s.bytes()?);
        }
        let refs: Vec<&[u8]> = all.iter().map(|b| b.as_ref()).collect();
        dsf::edit::merge(&refs, &agkit::limits::Limits::default())
            .map_err(|e| edit_error(&names, e))
    })?;
    edited(py, bytes, output, compress)
}

/// Sets (`set`: name → value pairs; `sim/exclude_*` and
/// `sim/filter/aptid` are added) and unsets (`unset`: names, or
/// `name=value`) a tile's properties.
#[pyfunction]
#[pyo3(signature = (source, set=None, unset=None, output=None, compress=false))]
pub fn dsf_props<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    set: Option<Vec<(String, String)>>,
    unset: Option<Vec<String>>,
    output: Option<PathBuf>,
    compress: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let edits = dsf::edit::PropertyEdits {
        set: set.unwrap_or_default(),
        unset: unset.unwrap_or_default(),
    };
    let src = Source::extract(source)?;
    check_out(output.as_ref(), &[&src])?;
    let names = [src.name()];
    let bytes = detached(py, || {
        let b = src.bytes()?;
        dsf::edit::props(&b, &edits, &agkit::limits::Limits::default())
            .map_err(|e| edit_error(&names, e))
    })?;
    edited(py, bytes, output, compress)
}
