//! `agkit.place` and the `agkit.Placement` it returns.

use crate::asset::Asset;
use crate::error::{Class, Error, detached};
use agkit::geom::LonLat;
use agkit::out::Format;
use agkit::place::{self as engine, FrameConvention, Params, Use};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyMapping, PyString};

/// What one autogen use places: tiles, objects, facades, trees (and, for
/// an AGS, the corners), each in local metres (x east, y north of
/// `origin`) and in lon/lat.
///
/// `__geo_interface__` is its GeoJSON FeatureCollection, so shapely and
/// geopandas take it directly.
#[pyclass(frozen, module = "agkit")]
pub struct Placement {
    inner: engine::Placement,
}

/// Places an autogen asset: what the simulator lays down for it.
///
/// `asset` is an `agkit.Asset` or a source `agkit.read_asset` takes. An AGP
/// goes `at=(lat, lon)` or `at=(lat, lon, heading)` (degrees, heading
/// clockwise from true north); an AGB or AGS goes on `polygon=`: a GeoJSON
/// Polygon (a dict, a Feature, a one-polygon collection, a `.geojson` file's
/// path, or any object with `__geo_interface__` such as a shapely Polygon)
/// or a list of rings of
/// `(lon, lat)` pairs, the first ring the outline and the others holes (for
/// an AGS, the first `spawning` rings spawn tiles).
///
/// `seed` drives every random choice (same inputs and seed, same result);
/// `density` is X-Plane's object density 1..6; `height` is the building
/// height in metres (0 to 1020); `param` is the raw 16-bit DSF polygon
/// parameter (height / 4 in its high byte), instead of `height` and
/// `spawning` (AGS: the number of tile-spawning rings) or `spelling_set`
/// (AGB); `frame` orients an AGP tile: `"wed"` (WorldEditor's preview, as
/// Blender and OverlayEditor show it) or `"spec"` (the AGP spec's
/// sentence), by default the convention `agkit place` uses; `explain`
/// records the engine's decisions in `Placement.explain`; `art` (true by
/// default) reads the objects, facades and forest an asset read from a
/// file names, found beside it: objects get their footprints and heights,
/// trees follow the forest, and what is missing is said in `warnings`.
///
/// Raises `agkit.PlaceError` (also a `ValueError`) when the asset cannot be
/// placed there, `ValueError` for bad arguments.
#[pyfunction]
#[pyo3(signature = (asset, *, at=None, polygon=None, seed=0, density=6, height=None,
    param=None, spawning=None, spelling_set=None, frame=None, explain=false, art=true))]
#[allow(clippy::too_many_arguments)]
pub fn place(
    py: Python<'_>,
    asset: &Bound<'_, PyAny>,
    at: Option<&Bound<'_, PyAny>>,
    polygon: Option<&Bound<'_, PyAny>>,
    seed: u64,
    density: u8,
    height: Option<f64>,
    param: Option<u16>,
    spawning: Option<u8>,
    spelling_set: Option<u8>,
    frame: Option<&str>,
    explain: bool,
    art: bool,
) -> PyResult<Placement> {
    let mut notes = Vec::new();
    let use_ = match (at, polygon) {
        (Some(at), None) => point_use(at)?,
        (None, Some(p)) => Use::Polygon {
            windings: windings(py, p, &mut notes)?,
        },
        _ => {
            return Err(Error::value(
                "give at=(lat, lon[, heading]) for an AGP or polygon=... for an AGB/AGS",
            )
            .into());
        }
    };
    let params = params(
        seed,
        density,
        height,
        param,
        spawning.or(spelling_set),
        frame,
        explain,
    )?;
    let asset = match asset.cast::<Asset>() {
        Ok(a) => a.clone(),
        Err(_) => Bound::new(py, Asset::read(py, asset)?)?,
    };
    let a = asset.get();
    let (model, name) = (&a.model, &a.name);
    let mut inner = detached(py, || {
        let mut params = params;
        if let (true, Some(path)) = (art, &a.path) {
            let scenery = agkit::scenery::Scenery::without_libraries(Default::default());
            params.art = Some(scenery.use_art(path, model, &use_));
        }
        engine::place(model, name, &use_, &params)
            .map_err(|e| Error::plain(Class::Place, Some(name), e.to_string()))
    })?;
    inner.note(&notes, explain);
    Ok(Placement { inner })
}

/// The settings of a run, checked.
fn params(
    seed: u64,
    density: u8,
    height: Option<f64>,
    param: Option<u16>,
    low: Option<u8>,
    frame: Option<&str>,
    explain: bool,
) -> Result<Params, Error> {
    if !(1..=6).contains(&density) {
        return Err(Error::value(format!("density {density} is not 1..6")));
    }
    let frame = match frame {
        None => FrameConvention::default(),
        Some("spec") => FrameConvention::Spec,
        Some("wed") => FrameConvention::Wed,
        Some(other) => {
            return Err(Error::value(format!(
                "frame {other:?} is not \"spec\" or \"wed\""
            )));
        }
    };
    let mut p = Params {
        seed,
        density,
        frame,
        explain,
        ..Params::default()
    };
    if let Some(param) = param {
        if height.is_some() || low.is_some() {
            return Err(Error::value(
                "param is the height and the low byte together: give param, or height and spawning/spelling_set",
            ));
        }
        p = p.with_dsf_param(param);
    }
    if let Some(h) = height {
        // As `agkit place --height`: what a DSF parameter can hold.
        if !(0.0..=1020.0).contains(&h) {
            return Err(Error::value(format!(
                "height {h} is not 0 to 1020 m: a DSF stores height / 4 in 8 bits"
            )));
        }
        p.height = h;
    }
    if let Some(low) = low {
        p.low = low;
    }
    Ok(p)
}

/// `at=(lat, lon[, heading])`, or a mapping of `lat`, `lon` and
/// `heading`.
fn point_use(at: &Bound<'_, PyAny>) -> Result<Use, PyErr> {
    const SHAPE: &str = "at must be (lat, lon) or (lat, lon, heading) in degrees, or a dict of lat, lon and heading";
    let v: Vec<f64> = if let Ok(m) = at.cast::<PyMapping>() {
        let get = |k: &str| -> PyResult<Option<f64>> {
            match m.get_item(k) {
                Ok(v) => {
                    Ok(Some(v.extract().map_err(|_| {
                        Error::value(format!("at[{k:?}] is not a number"))
                    })?))
                }
                Err(_) => Ok(None),
            }
        };
        match (get("lat")?, get("lon")?, get("heading")?) {
            (Some(lat), Some(lon), None) => vec![lat, lon],
            (Some(lat), Some(lon), Some(h)) => vec![lat, lon, h],
            _ => return Err(Error::value(SHAPE).into()),
        }
    } else {
        at.extract().map_err(|_| Error::value(SHAPE))?
    };
    let (lat, lon, heading) = match v[..] {
        [lat, lon] => (lat, lon, 0.0),
        [lat, lon, h] => (lat, lon, h),
        _ => return Err(Error::value(SHAPE).into()),
    };
    // Said back in the order given: at=(lat, lon).
    if !(-90.0..=90.0).contains(&lat) || !(-180.0..=180.0).contains(&lon) {
        let swapped = if agkit::geom::orient::swapped_reading(lat, lon).is_some() {
            " (it looks like (lon, lat): at takes (lat, lon))"
        } else {
            ""
        };
        return Err(Error::value(format!(
            "at=({lat}, {lon}) is not a (latitude, longitude) in degrees{swapped}"
        ))
        .into());
    }
    if !heading.is_finite() {
        return Err(Error::value(format!("heading {heading} is not finite")).into());
    }
    Ok(Use::Point {
        at: [lon, lat],
        heading,
    })
}

/// A longitude/latitude inside the world.
fn check_position([lon, lat]: LonLat) -> Result<(), Error> {
    if (-90.0..=90.0).contains(&lat) && (-180.0..=180.0).contains(&lon) {
        Ok(())
    } else {
        Err(Error::value(format!(
            "({lon}, {lat}) is not a (longitude, latitude) in degrees"
        )))
    }
}

/// The DSF windings of `polygon=` (see [`place`]); GeoJSON rings wound
/// the other way round are reversed, a note per ring added to `notes`
/// (a list of rings is taken as the DSF windings it is).
fn windings(
    py: Python<'_>,
    polygon: &Bound<'_, PyAny>,
    notes: &mut Vec<String>,
) -> PyResult<Vec<Vec<LonLat>>> {
    let geo = if polygon.hasattr("__geo_interface__")? && !polygon.is_instance_of::<PyDict>() {
        Some(polygon.getattr("__geo_interface__")?)
    } else if polygon.cast::<PyMapping>().is_ok() {
        Some(polygon.clone())
    } else {
        None
    };
    // A path (str or os.PathLike): a GeoJSON file, as `agkit place
    // --polygon FILE` reads it.
    let file: Option<std::path::PathBuf> =
        if polygon.is_instance_of::<PyString>() || polygon.hasattr("__fspath__")? {
            Some(polygon.extract()?)
        } else {
            None
        };
    let text = match (file.as_deref(), &geo) {
        (Some(path), _) => Some(detached(py, || {
            std::fs::read_to_string(path).map_err(|e| Error::io(path, e))
        })?),
        (None, Some(g)) => {
            let json: serde_json::Value = pythonize::depythonize(g)?;
            Some(json.to_string())
        }
        (None, None) => None,
    };
    let rings: Vec<Vec<LonLat>> = match text {
        Some(text) => {
            let named = file.as_deref().map(|p| format!("{}: ", p.display()));
            let mut polys = detached(py, || {
                agkit::out::geojson::read_polygons(&text).map_err(|e| {
                    Error::value(format!("polygon: {}{e}", named.unwrap_or_default()))
                })
            })?;
            if polys.len() != 1 {
                return Err(Error::value(format!(
                    "polygon holds {} polygons: place them one at a time",
                    polys.len()
                ))
                .into());
            }
            polys.remove(0)
        }
        None => polygon.extract().map_err(|_| {
            Error::value(
                "polygon must be GeoJSON (a dict, a .geojson path or an object with __geo_interface__) or a list of rings of (lon, lat)",
            )
        })?,
    };
    if rings.first().is_none_or(|r| r.is_empty()) {
        return Err(Error::value("polygon has no vertices").into());
    }
    for (k, ring) in rings.iter().enumerate() {
        for (i, &[lon, lat]) in ring.iter().enumerate() {
            if let Some(reading) = agkit::geom::orient::swapped_reading(lat, lon) {
                return Err(Error::value(format!(
                    "polygon ring {k} vertex {i} is ({lon}, {lat}): latitude {lat} is off the world; \
                     the vertices look like (lat, lon) ({reading} read the other way round), \
                     but polygon takes (lon, lat) as GeoJSON does"
                ))
                .into());
            }
            check_position([lon, lat])?;
        }
    }
    // Either winding is taken, as GIS tools and the command line take it:
    // the outer ring made counter-clockwise, the holes clockwise.
    let mut rings = rings;
    notes.extend(agkit::geom::orient::gis_rings(&mut rings));
    Ok(rings)
}

/// The placed items as records, each with its `kind`.
fn push_records<'py, T: serde::Serialize>(
    py: Python<'py>,
    out: &Bound<'py, PyList>,
    kind: &str,
    items: &[T],
) -> PyResult<()> {
    for item in items {
        let d = crate::to_py(py, item)?;
        d.set_item("kind", kind)?;
        out.append(d)?;
    }
    Ok(())
}

impl From<engine::Placement> for Placement {
    fn from(inner: engine::Placement) -> Placement {
        Placement { inner }
    }
}

impl Placement {
    /// The library's placement.
    pub(crate) fn inner(&self) -> &engine::Placement {
        &self.inner
    }
}

#[pymethods]
impl Placement {
    /// `agp`, `agb` or `ags` for an autogen use; `obj`, `fac`, `for`,
    /// `pol`, `lin` or `str` for a definition of a whole DSF tile.
    #[getter]
    fn kind(&self) -> &'static str {
        self.inner.kind.as_str()
    }

    /// The asset's name (its path as given).
    #[getter]
    fn asset(&self) -> &str {
        &self.inner.asset
    }

    /// The seed the random choices were drawn from.
    #[getter]
    fn seed(&self) -> u64 {
        self.inner.seed
    }

    /// `(lon, lat)` of the local frame's origin: the AGP point, or the first
    /// vertex of the polygon.
    #[getter]
    fn origin(&self) -> (f64, f64) {
        let [lon, lat] = self.inner.origin;
        (lon, lat)
    }

    /// The polygon's rings in local metres (empty for an AGP).
    #[getter]
    fn polygon<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::to_py(py, &self.inner.polygon)
    }

    /// Placed tiles in draw order, as dicts.
    #[getter]
    fn tiles<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::to_py(py, &self.inner.tiles)
    }

    /// Placed objects (OBJ path, mode, x, y, lon, lat, heading, height,
    /// show levels, source line), as dicts.
    #[getter]
    fn objects<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::to_py(py, &self.inner.objects)
    }

    /// Placed facades, as dicts.
    #[getter]
    fn facades<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::to_py(py, &self.inner.facades)
    }

    /// Placed trees, as dicts.
    #[getter]
    fn trees<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::to_py(py, &self.inner.trees)
    }

    /// Vertices treated as corners (AGS), as dicts.
    #[getter]
    fn corners<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::to_py(py, &self.inner.corners)
    }

    /// Problems met while placing (each with its diagnostic codes in
    /// brackets, when it has any).
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.inner
            .warnings
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    /// The warnings as dicts, the message apart from the diagnostic codes
    /// it reports: `{"message": str, "codes": [str, ...]}` (`codes` empty
    /// when no rule reports it), in the order of `warnings`.
    #[getter]
    fn warning_details<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let list = pyo3::types::PyList::empty(py);
        for w in &self.inner.warnings {
            let d = pyo3::types::PyDict::new(py);
            d.set_item("message", w.message())?;
            d.set_item("codes", w.codes().to_vec())?;
            list.append(d)?;
        }
        Ok(list.into_any())
    }

    /// How the input was taken where it was not as a DSF stores it: a
    /// GeoJSON outer ring wound clockwise (or a hole counter-clockwise)
    /// reversed, with where the polygon would lie were its numbers lat,lon.
    #[getter]
    fn notes(&self) -> Vec<String> {
        self.inner.notes.clone()
    }

    /// The engine's decisions (with `explain=True`).
    #[getter]
    fn explain(&self) -> Vec<String> {
        self.inner.explain.clone()
    }

    /// The placement as a dict: the JSON of `agkit place --format json`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::to_py(py, &self.inner)
    }

    /// Every placed tile, object, facade and tree as one flat record (a
    /// dict with its `kind`), ready for `pandas.DataFrame`.
    pub(crate) fn to_records<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        let p = &self.inner;
        push_records(py, &out, "tile", &p.tiles)?;
        push_records(py, &out, "object", &p.objects)?;
        push_records(py, &out, "facade", &p.facades)?;
        push_records(py, &out, "tree", &p.trees)?;
        Ok(out)
    }

    /// The GeoJSON FeatureCollection of `agkit place --format geojson`: one
    /// feature per tile, object, facade and tree, in lon/lat.
    fn to_geojson<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let p = &self.inner;
        let features = detached(py, || {
            agkit::out::geojson::features(std::slice::from_ref(p), 0)
                .map_err(|e| Error::plain(Class::Internal, Some(&p.asset), e.to_string()))
        })?;
        let fc = PyDict::new(py);
        fc.set_item("type", "FeatureCollection")?;
        fc.set_item("features", crate::to_py(py, &features)?)?;
        Ok(fc)
    }

    /// The GeoJSON FeatureCollection (`to_geojson()`), for shapely,
    /// geopandas and any reader of the geo interface.
    #[getter]
    fn __geo_interface__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.to_geojson(py)
    }

    /// One GIS layer of the placement (`objects`, `obj_points`,
    /// `facades`, `fences`, `trees`, `tiles`, `uses`, `use_points`) as an
    /// `agkit.ArrowTable` built in Rust: the rows and fields of
    /// `to_geojson()` for that layer, geometry as WKB.
    #[pyo3(signature = (layer="objects"))]
    fn to_arrow(&self, py: Python<'_>, layer: &str) -> PyResult<crate::arrow::Table> {
        crate::arrow::layer_table(py, vec![&self.inner], layer)
    }

    /// Every GIS layer of the placement as an `agkit.ArrowTable`, by
    /// layer name (empty layers included).
    fn layers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        crate::arrow::layer_tables(py, vec![&self.inner])
    }

    /// A numpy array of the placed objects or trees, one row each:
    /// `(lon, lat, heading)`, or `(x, y, heading)` in local metres with
    /// `local=True`. Needs numpy.
    #[pyo3(signature = (what="objects", *, local=false))]
    fn array<'py>(&self, py: Python<'py>, what: &str, local: bool) -> PyResult<Bound<'py, PyAny>> {
        let p = &self.inner;
        let rows: Vec<[f64; 3]> = match what {
            "objects" => p
                .objects
                .iter()
                .map(|o| {
                    if local {
                        [o.x, o.y, o.heading]
                    } else {
                        [o.lon, o.lat, o.heading]
                    }
                })
                .collect(),
            "trees" => p
                .trees
                .iter()
                .map(|t| {
                    if local {
                        [t.x, t.y, t.heading]
                    } else {
                        [t.lon, t.lat, t.heading]
                    }
                })
                .collect(),
            other => {
                return Err(Error::value(format!(
                    "what={other:?}: arrays are made of \"objects\" or \"trees\""
                ))
                .into());
            }
        };
        crate::numpy_rows(py, rows.len(), 3, rows.concat())
    }

    /// The placement drawn or written as `agkit place --format FORMAT
    /// --style STYLE` would: `"json"`, `"geojson"`, `"dsf-text"`, `"svg"`
    /// or `"png"`; pictures `"textured"` (the art itself, the default) or
    /// `"schematic"` (symbols).
    #[pyo3(signature = (format, *, style="textured"))]
    fn render<'py>(
        &self,
        py: Python<'py>,
        format: &str,
        style: &str,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let style: agkit::out::svg::PictureStyle = style
            .parse()
            .map_err(|e: agkit::out::UnknownName| Error::value(e.to_string()))?;
        let format: Format = format
            .parse()
            .map_err(|e: agkit::out::UnknownName| Error::value(e.to_string()))?;
        let opts = agkit::out::RenderOptions {
            style,
            ..agkit::out::RenderOptions::new(format)
        };
        let p = &self.inner;
        let bytes = detached(py, || {
            agkit::out::render(std::slice::from_ref(p), &opts)
                .map(|r| r.bytes)
                .map_err(|e| Error::plain(Class::Build, Some(&p.asset), e.to_string()))
        })?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// The placement as a 3-D scene: glTF 2.0 binary (GLB) bytes, as
    /// `agkit place -o scene.glb` writes it (ground tiles, objects, facades
    /// and trees drawn with the art the placement followed).
    fn to_gltf<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let p = &self.inner;
        let bytes = detached(py, || {
            agkit::out::render(
                std::slice::from_ref(p),
                &agkit::out::RenderOptions::new(Format::Glb),
            )
            .map(|r| r.bytes)
            .map_err(|e| Error::plain(Class::Build, Some(&p.asset), e.to_string()))
        })?;
        Ok(PyBytes::new(py, &bytes))
    }

    fn __repr__(&self) -> String {
        let p = &self.inner;
        format!(
            "<agkit.Placement {} {:?}: {} tile(s), {} object(s), {} facade(s), {} tree(s)>",
            p.kind,
            p.asset,
            p.tiles.len(),
            p.objects.len(),
            p.facades.len(),
            p.trees.len()
        )
    }
}
