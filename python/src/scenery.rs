//! `agkit.scenery`: an X-Plane installation seen from Python
//! (`Installation`, with `at`, `check`, `resolve` and `place_tile`), and
//! `agkit.place_dsf`, every autogen use of a DSF tile placed with its assets
//! resolved. The library's [`agkit::scenery::Scenery`] does the work; here
//! the arguments and results are translated.

use crate::error::{Class, Error, detached};
use crate::place::Placement;
use agkit::place::Params;
use agkit::place::TilePlacement as LibTilePlacement;
use agkit::place::at::AtReport as LibAtReport;
use agkit::scenery::check::CheckReport as LibCheckReport;
use agkit::scenery::install::InstallError;
use agkit::scenery::resolve::{Conditions, Resolution as LibResolution, Tile};
use agkit::scenery::tile::TileError;
use agkit::scenery::{Scenery as LibScenery, SceneryError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyMapping};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A library error about a scenery as a Python exception: unreadable
/// files and folders are `OSError`s, a folder that is no installation (or
/// no library) an `agkit.SceneryError`, a bad point or radius a
/// `ValueError`.
fn scenery_error(e: SceneryError) -> Error {
    match e {
        SceneryError::Installation(e) => install_error(e, None),
        SceneryError::LibraryFolder { dir, source } => Error::io(&dir, source),
        SceneryError::LibraryFile { dir, source } => install_error(source, Some(&dir)),
        e @ SceneryError::NoLibrary { .. } => {
            let SceneryError::NoLibrary { dir } = &e else {
                unreachable!()
            };
            let dir = dir.display().to_string();
            Error::plain_whole(Class::Scenery, Some(&dir), e.to_string())
        }
        e => Error::plain_whole(Class::Scenery, None, e.to_string()),
    }
}

/// Why `at` could not answer, as a Python exception: a bad point or
/// radius a `ValueError`, the rest as [`scenery_error`] says.
fn at_error(e: agkit::place::at::AtError) -> Error {
    use agkit::place::at::AtError;
    match e {
        AtError::Query(m) => Error::value(m),
        AtError::Scenery(e) => scenery_error(e),
        e => Error::plain_whole(Class::Scenery, None, e.to_string()),
    }
}

/// An installation (or library package) that cannot be opened.
fn install_error(e: InstallError, dir: Option<&Path>) -> Error {
    use agkit::fsutil::InputErrorKind;
    match e {
        InstallError::Io(path, error) => Error::io(&path, error),
        InstallError::Input(i) => match i.kind {
            InputErrorKind::Io(error) => Error::io(&i.path, error),
            _ => {
                let file = i.path.display().to_string();
                let message = InstallError::Input(i).to_string();
                Error::plain_whole(Class::Scenery, Some(&file), message)
            }
        },
        e @ (InstallError::NotAnInstallation(_) | InstallError::NotAFolder(_)) => {
            let (InstallError::NotAnInstallation(p) | InstallError::NotAFolder(p)) = &e else {
                unreachable!()
            };
            let file = dir.unwrap_or(p).display().to_string();
            Error::plain_whole(Class::Scenery, Some(&file), e.to_string())
        }
        // A kind the library adds later (the enum is non-exhaustive).
        e => Error::plain_whole(Class::Scenery, None, e.to_string()),
    }
}

/// A tile that cannot be placed at all: an `OSError` for a file that
/// cannot be read, an `agkit.ParseError` at the byte offset for one that is
/// no DSF agkit reads.
fn tile_error(e: TileError) -> Error {
    match e {
        TileError::Read { source, .. } => Error::input(source),
        TileError::Dsf { path, error, hint } => {
            let mut message = error.message();
            if let Some(h) = hint {
                message.push_str(&format!("; {h}"));
            }
            let file = path.display().to_string();
            Error::at_offset(Class::Parse, &file, error.offset, error.code(), message)
        }
        e @ TileError::Mesh { .. } => Error::value(e.to_string()),
        // A kind the library adds later (the enum is non-exhaustive).
        e => Error::plain_whole(Class::Scenery, None, e.to_string()),
    }
}

/// `drefs=` (a mapping of dataref name to value) and `season=`.
fn conditions(drefs: Option<&Bound<'_, PyAny>>, season: Option<String>) -> PyResult<Conditions> {
    let mut c = Conditions {
        season,
        ..Conditions::default()
    };
    if let Some(d) = drefs {
        let map = d
            .cast::<PyMapping>()
            .map_err(|_| Error::value("drefs must be a mapping of dataref name to number"))?;
        for item in map.items()?.iter() {
            let (name, value): (String, f64) = item.extract().map_err(|_| {
                Error::value("drefs must be a mapping of dataref name (str) to number")
            })?;
            if !value.is_finite() {
                return Err(
                    Error::value(format!("drefs[{name:?}] = {value} is not finite")).into(),
                );
            }
            c.drefs.insert(name, value);
        }
    }
    Ok(c)
}

/// `(lat, lon)` in degrees, inside the world.
fn lat_lon(v: (f64, f64), what: &str) -> Result<(f64, f64), Error> {
    let (lat, lon) = v;
    if (-90.0..=90.0).contains(&lat) && (-180.0..=180.0).contains(&lon) {
        Ok((lat, lon))
    } else {
        Err(Error::value(format!(
            "{what} ({lat}, {lon}) is not a (latitude, longitude) in degrees"
        )))
    }
}

/// The engine settings of a tile: `seed` and `density` (1..6), the rest as
/// `agkit place --dsf` has them.
fn tile_params(seed: u64, density: u8) -> Result<Params, Error> {
    if !(1..=6).contains(&density) {
        return Err(Error::value(format!("density {density} is not 1..6")));
    }
    Ok(Params {
        seed,
        density,
        ..Params::default()
    })
}

/// Where the paths a DSF names resolve: a scenery `package` (the package
/// every DSF belongs to; by default each DSF's own, the folder above
/// `Earth nav data`) and its `library` folders in order (a library package,
/// or a Custom Scenery folder of them), with the simulator's assumed state
/// (`drefs`: dataref values for `REGION_DREF`; `season`: e.g. `"sum"`).
/// `Installation` is the same for a whole X-Plane installation.
///
/// One value serves many tiles (and threads): library files and autogen
/// assets are read once.
///
/// Raises `agkit.SceneryError` when a library folder holds no
/// `library.txt`, `OSError` when one cannot be read.
#[pyclass(subclass, frozen, module = "agkit.scenery")]
pub struct Scenery {
    scenery: Arc<LibScenery>,
    conditions: Conditions,
}

impl Scenery {
    fn open(
        py: Python<'_>,
        open: impl FnOnce(Conditions) -> Result<LibScenery, SceneryError> + Send,
        drefs: Option<&Bound<'_, PyAny>>,
        season: Option<String>,
    ) -> PyResult<Scenery> {
        let conditions = conditions(drefs, season)?;
        let c = conditions.clone();
        let scenery = detached(py, || open(c).map_err(scenery_error))?;
        Ok(Scenery {
            scenery: Arc::new(scenery),
            conditions,
        })
    }
}

#[pymethods]
impl Scenery {
    #[new]
    #[pyo3(signature = (package=None, library=Vec::new(), *, drefs=None, season=None))]
    fn new(
        py: Python<'_>,
        package: Option<PathBuf>,
        library: Vec<PathBuf>,
        drefs: Option<&Bound<'_, PyAny>>,
        season: Option<String>,
    ) -> PyResult<Scenery> {
        let open = |c| LibScenery::packages(package.as_deref(), &library, c);
        Scenery::open(py, open, drefs, season)
    }

    /// What to warn about: libraries that could not be read (left out), a
    /// season no library names.
    #[getter]
    fn warnings(&self) -> Vec<String> {
        let s = &self.scenery;
        let mut out: Vec<String> = (s.load_errors().iter())
            .map(|e| format!("{}: {}", e.package, e.error))
            .collect();
        out.extend(s.season_warning());
        out
    }

    /// The package a DSF belongs to: `(name, folder)`.
    fn package_of(&self, dsf: PathBuf) -> (String, String) {
        let (name, folder) = self.scenery.package_of(&dsf);
        (name, folder.display().to_string())
    }

    /// What the library path `path` resolves to at the tile holding
    /// `tile=(lat, lon)`: the files the simulator picks from, the package
    /// and export line of each, the rule that made them win and why every
    /// other export lost (`agkit scenery resolve --format json`). With
    /// `dsf`, as that DSF names it: a file of its package first.
    #[pyo3(signature = (path, *, tile, dsf=None))]
    fn resolve(
        &self,
        py: Python<'_>,
        path: &str,
        tile: (f64, f64),
        dsf: Option<PathBuf>,
    ) -> PyResult<Resolution> {
        let (lat, lon) = lat_lon(tile, "tile")?;
        let s = &self.scenery;
        let tile = Tile::of(lon, lat);
        let inner = detached(py, || {
            Ok(match &dsf {
                Some(d) => s.resolve_in(d, path, tile),
                None => s.resolve(path, tile),
            })
        })?;
        Ok(Resolution { inner })
    }

    /// Places every autogen use of the DSF at `dsf`, its assets resolved
    /// here (`agkit place --dsf DSF` with `--scenery`/`--library`, or
    /// `--xplane`); use `i` gets the seed `seed XOR i`.
    #[pyo3(signature = (dsf, seed=0, *, density=6))]
    fn place_tile(
        &self,
        py: Python<'_>,
        dsf: PathBuf,
        seed: u64,
        density: u8,
    ) -> PyResult<TilePlacement> {
        let params = tile_params(seed, density)?;
        place(py, &self.scenery, &dsf, &params)
    }

    /// The placed objects, facades and trees of the DSF at `dsf` (as
    /// `place_tile`) as one `agkit.ArrowTable` of the columns of
    /// `agkit.distributed.PLACED_COLUMNS` and `geometry` (WKB), built in
    /// Rust: `tile` is the DSF's file name without extension, `dsf` is
    /// `name` (by default the path given).
    #[pyo3(signature = (dsf, seed=0, *, density=6, name=None))]
    fn placed_table(
        &self,
        py: Python<'_>,
        dsf: PathBuf,
        seed: u64,
        density: u8,
        name: Option<String>,
    ) -> PyResult<crate::arrow::Table> {
        let params = tile_params(seed, density)?;
        let s = &self.scenery;
        let batch = detached(py, || {
            let placed = s.place_tile(&dsf, &params).map_err(tile_error)?;
            let tile = stem(&dsf);
            let name = name.unwrap_or_else(|| dsf.display().to_string());
            Ok(agkit::out::arrow::placed_batch(
                &placed.placements,
                &tile,
                &name,
            ))
        })?;
        Ok(crate::arrow::Table::new("placed", batch))
    }

    /// The autogen census of the DSF at `dsf` as one `agkit.ArrowTable`
    /// of the columns of `agkit.distributed.CENSUS_COLUMNS`, built in
    /// Rust: one row per autogen use, each asset resolved here (as
    /// `resolve(asset, tile=…, dsf=dsf)` at its first use); `dsf` is `name`
    /// (by default the path given).
    #[pyo3(signature = (dsf, *, name=None))]
    fn census_table(
        &self,
        py: Python<'_>,
        dsf: PathBuf,
        name: Option<String>,
    ) -> PyResult<crate::arrow::Table> {
        let s = &self.scenery;
        let batch = detached(py, || {
            let name = name.unwrap_or_else(|| dsf.display().to_string());
            let rows = s.census(&dsf, &name).map_err(tile_error)?;
            Ok(agkit::out::scenery_tables::census_batch(&rows))
        })?;
        Ok(crate::arrow::Table::new("census", batch))
    }

    fn __repr__(&self) -> String {
        let n = self.scenery.index().packages.len();
        format!("<agkit.scenery.Scenery: {n} library package(s)>")
    }
}

/// An X-Plane installation: its scenery packages in the simulator's
/// priority order (`scenery_packs.ini`), every `library.txt` read, and the
/// simulator's assumed state (dataref values for `REGION_DREF`, the
/// season for seasonal exports). A `Scenery`, so `resolve` and
/// `place_tile` work across the installation.
///
/// `path` is the X-Plane folder or its Custom Scenery folder; `package`
/// makes every DSF placed or resolved through it a file of that package
/// (`agkit place --dsf --scenery DIR --xplane PATH`); `drefs` maps
/// dataref names to values (conditions on datarefs not given are assumed
/// to hold, and said so); `season` is e.g. `"sum"` or `"win"`.
///
/// Raises `agkit.SceneryError` when the folder is no installation,
/// `OSError` when it cannot be read.
#[pyclass(extends = Scenery, frozen, module = "agkit.scenery")]
pub struct Installation {
    path: PathBuf,
}

#[pymethods]
impl Installation {
    #[new]
    #[pyo3(signature = (path, *, package=None, drefs=None, season=None))]
    fn new(
        py: Python<'_>,
        path: PathBuf,
        package: Option<PathBuf>,
        drefs: Option<&Bound<'_, PyAny>>,
        season: Option<String>,
    ) -> PyResult<PyClassInitializer<Installation>> {
        let open =
            |c| LibScenery::installation(&path, c).map(|s| s.with_package(package.as_deref()));
        let base = Scenery::open(py, open, drefs, season)?;
        Ok(PyClassInitializer::from(base).add_subclass(Installation { path }))
    }

    /// The folder as given.
    #[getter]
    fn path(&self) -> String {
        self.path.display().to_string()
    }

    /// Every package, highest priority first, disabled ones included: its
    /// `name`, `path`, `priority` (0 is the highest), `enabled` (the
    /// simulator loads it), `exists`, `library` (it has a `library.txt`)
    /// and `origin` (where its rank comes from).
    #[getter]
    fn packages<'py>(slf: PyRef<'py, Self>, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        let Some(inst) = slf.as_super().scenery.install() else {
            return Ok(out);
        };
        for p in &inst.packages {
            let d = PyDict::new(py);
            d.set_item("name", &p.name)?;
            d.set_item("path", p.path.display().to_string())?;
            d.set_item("priority", p.priority)?;
            d.set_item("enabled", p.enabled && p.exists)?;
            d.set_item("exists", p.exists)?;
            d.set_item("library", p.library_file().is_some())?;
            d.set_item("origin", crate::to_py(py, &p.origin)?)?;
            out.append(d)?;
        }
        Ok(out)
    }

    /// Every item the enabled packages place within `radius` metres of
    /// (`lat`, `lon`), resolved as the simulator resolves it (package,
    /// DSF, definition, resolved file, rule, `excluded_by`); with
    /// `autogen`, what each autogen use places (seeded by `seed`) follows
    /// it. The same answer as `agkit scenery at LAT,LON --format json`.
    #[pyo3(signature = (lat, lon, radius=200.0, *, seed=0, density=6, autogen=true))]
    #[allow(clippy::too_many_arguments)]
    fn at(
        slf: PyRef<'_, Self>,
        py: Python<'_>,
        lat: f64,
        lon: f64,
        radius: f64,
        seed: u64,
        density: u8,
        autogen: bool,
    ) -> PyResult<AtReport> {
        let (lat, lon) = lat_lon((lat, lon), "the point")?;
        let params = tile_params(seed, density)?;
        let s = &slf.as_super().scenery;
        let inner = detached(py, || {
            s.at(lat, lon, radius, &params, autogen).map_err(at_error)
        })?;
        Ok(AtReport { inner })
    }

    /// What the enabled packages place on the runways, helipads and
    /// pavement of the installation's airports, who placed it and the
    /// exclusion that removes it: the report of `agkit scenery conflicts`.
    /// `tile` (lat, lon), `airport` (an ID) or `bbox` (west, south, east,
    /// north) narrows the airports looked at (at most one of them); with
    /// `fix`, the overlay package excluding what was found is written into
    /// that folder (new or empty) and described by `ConflictReport.fix`.
    #[pyo3(signature = (*, tile=None, airport=None, bbox=None, seed=0, density=6, autogen=true, fix=None))]
    #[allow(clippy::too_many_arguments)]
    fn conflicts(
        slf: PyRef<'_, Self>,
        py: Python<'_>,
        tile: Option<(f64, f64)>,
        airport: Option<String>,
        bbox: Option<(f64, f64, f64, f64)>,
        seed: u64,
        density: u8,
        autogen: bool,
        fix: Option<PathBuf>,
    ) -> PyResult<ConflictReport> {
        use agkit::place::conflicts::{ConflictOptions, Scope};
        let scope = match (tile, airport, bbox) {
            (None, None, None) => Scope::All,
            (Some(t), None, None) => {
                let (lat, lon) = lat_lon(t, "the tile")?;
                Scope::Tile(agkit::dsf::Tile::of(lon, lat))
            }
            (None, Some(id), None) => Scope::Airport(id.trim().to_string()),
            (None, None, Some((w, s, e, n))) => {
                let ok = w < e
                    && s < n
                    && (-180.0..=180.0).contains(&w)
                    && (-180.0..=180.0).contains(&e)
                    && (-90.0..=90.0).contains(&s)
                    && (-90.0..=90.0).contains(&n);
                if !ok {
                    return Err(Error::value(format!(
                        "bbox ({w}, {s}, {e}, {n}): west < east and south < north, in range"
                    ))
                    .into());
                }
                Scope::Bbox([w, s, e, n])
            }
            _ => return Err(Error::value("give at most one of tile, airport and bbox").into()),
        };
        let opts = ConflictOptions {
            scope,
            params: tile_params(seed, density)?,
            expand_autogen: autogen,
        };
        let s = &slf.as_super().scenery;
        let (inner, written) = detached(py, || {
            if let Some(dir) = &fix {
                agkit::place::conflicts::fix::check_fix_folder(dir)
                    .map_err(|e| Error::value(format!("fix: {e}")))?;
            }
            let r = s.conflicts(&opts).map_err(|e| match e {
                agkit::place::conflicts::ConflictError::Scenery(e) => scenery_error(e),
                e => Error::plain_whole(Class::Scenery, None, e.to_string()),
            })?;
            let w = match &fix {
                Some(dir) => Some(
                    agkit::place::conflicts::fix::write_fix(
                        dir,
                        &r,
                        s.install().map(|i| i.custom.as_path()),
                    )
                    .map_err(|e| Error::io(dir, std::io::Error::other(e)))?,
                ),
                None => None,
            };
            Ok::<_, Error>((r, w))
        })?;
        Ok(ConflictReport { inner, written })
    }

    /// What in the installation does not resolve or is misconfigured: the
    /// findings of `agkit scenery check` (each with its code, `SCN001`…).
    fn check(slf: PyRef<'_, Self>, py: Python<'_>) -> PyResult<CheckReport> {
        let s = &slf.as_super().scenery;
        let inner = detached(py, || s.check(&|| {}).map_err(scenery_error))?;
        Ok(CheckReport { inner })
    }

    fn __repr__(slf: PyRef<'_, Self>) -> String {
        let n = (slf.as_super().scenery.install()).map_or(0, |i| i.packages.len());
        format!(
            "<agkit.scenery.Installation {:?}: {n} package(s)>",
            slf.path
        )
    }
}

/// A DSF's file name without its extension (`+47+013`).
fn stem(dsf: &Path) -> String {
    dsf.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Places a tile through `scenery`, with the GIL released.
fn place(
    py: Python<'_>,
    scenery: &LibScenery,
    dsf: &Path,
    params: &Params,
) -> PyResult<TilePlacement> {
    let inner = detached(py, || scenery.place_tile(dsf, params).map_err(tile_error))?;
    TilePlacement::new(py, inner)
}

/// Places every autogen use of the DSF tile at `path`, each asset resolved
/// as the simulator resolves it: a file of the DSF's package first, then
/// the libraries.
///
/// The paths resolve in `scenery` (the package the DSF belongs to; by
/// default the folder above `Earth nav data`) and the `library` folders in
/// order (a library package, or a Custom Scenery folder of them), or
/// across a whole `installation` (an `agkit.scenery.Installation` or its
/// folder) in the simulator's order. Use `i` of the tile is placed with
/// the seed `seed XOR i`. The same placements as `agkit place --dsf PATH
/// --format json` with the same options.
///
/// With `whole_tile=True`, everything the tile places is laid out, not
/// only its autogen: objects, facade, forest and draped polygons, lines and
/// object strings, one placement per definition after the autogen uses
/// (`agkit place --dsf PATH --all`); `TilePlacement.whole` then counts
/// every kind and names what is not drawn, and every item is set on the
/// ground (`mesh=`: a base-mesh DSF or a folder holding the tile's; else
/// found as X-Plane does, else an airport's elevation, else flat 0), which
/// each placement's `ground` names.
///
/// Raises `OSError` when the tile cannot be read, `agkit.ParseError` when
/// it is no DSF, `agkit.SceneryError` when a folder is no installation or
/// library.
#[pyfunction]
#[pyo3(signature = (path, *, scenery=None, library=Vec::new(), installation=None, seed=0, density=6, whole_tile=false, mesh=None))]
#[allow(clippy::too_many_arguments)]
pub fn place_dsf(
    py: Python<'_>,
    path: PathBuf,
    scenery: Option<PathBuf>,
    library: Vec<PathBuf>,
    installation: Option<&Bound<'_, PyAny>>,
    seed: u64,
    density: u8,
    whole_tile: bool,
    mesh: Option<PathBuf>,
) -> PyResult<TilePlacement> {
    let params = Params {
        whole_tile,
        mesh,
        ..tile_params(seed, density)?
    };
    let opened: Arc<LibScenery> = match installation {
        None => Arc::new(detached(py, || {
            LibScenery::packages(scenery.as_deref(), &library, Conditions::default())
                .map_err(scenery_error)
        })?),
        Some(_) if !library.is_empty() => {
            return Err(Error::value(
                "give library folders or an installation, not both (an installation has its libraries)",
            )
            .into());
        }
        Some(i) => {
            let (dir, cond, open) = match i.cast::<Installation>() {
                Ok(inst) => {
                    let base = inst.as_super().get();
                    let dir = inst.get().path.clone();
                    (
                        dir,
                        base.conditions.clone(),
                        Some(Arc::clone(&base.scenery)),
                    )
                }
                Err(_) => (
                    i.extract::<PathBuf>().map_err(|_| {
                        Error::value("installation must be an agkit.scenery.Installation or a path")
                    })?,
                    Conditions::default(),
                    None,
                ),
            };
            match (open, &scenery) {
                (Some(s), None) => s,
                _ => Arc::new(detached(py, || {
                    LibScenery::installation(&dir, cond)
                        .map(|s| s.with_package(scenery.as_deref()))
                        .map_err(scenery_error)
                })?),
            }
        }
    };
    place(py, &opened, &path, &params)
}

/// What `Installation.at` found: the installation's `packages` and the
/// `items` near the point (dicts, as `agkit scenery at --format json`),
/// with the `warnings` met. `__geo_interface__` is the GeoJSON of
/// `agkit scenery at --format geojson` (one feature per item).
#[pyclass(frozen, module = "agkit.scenery")]
pub struct AtReport {
    inner: LibAtReport,
}

#[pymethods]
impl AtReport {
    /// Every package of the installation, highest priority first.
    #[getter]
    fn packages<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::to_py(py, &self.inner.packages)
    }

    /// The items within the radius, by package priority, DSF and stream
    /// order (what an autogen item places follows it): `package`, `dsf`,
    /// `kind`, `definition`, `resolved` (`package` and `file`, or `None`),
    /// `lon`, `lat`, `excluded_by`, `rule`, ...
    #[getter]
    fn items<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::to_py(py, &self.inner.items)
    }

    /// Problems met (unreadable DSFs, assets that could not be placed).
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.inner.warnings.clone()
    }

    /// `{"packages": [...], "items": [...]}`: the JSON of `agkit scenery at
    /// --format json`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::to_py(py, &self.inner)
    }

    /// The GeoJSON FeatureCollection of `agkit scenery at --format
    /// geojson`: one feature per item (a Point, LineString or Polygon in
    /// lon/lat), its fields as properties.
    fn to_geojson<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let r = &self.inner;
        let text = detached(py, || {
            agkit::out::scenery_report::at_geojson(r)
                .map_err(|e| Error::plain(Class::Internal, None, e.to_string()))
        })?;
        crate::from_json(py, &String::from_utf8_lossy(&text))
    }

    /// The GeoJSON FeatureCollection (`to_geojson()`), for shapely,
    /// geopandas and any reader of the geo interface.
    #[getter]
    fn __geo_interface__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.to_geojson(py)
    }

    fn __len__(&self) -> usize {
        self.inner.items.len()
    }

    fn __repr__(&self) -> String {
        let r = &self.inner;
        let [lon, lat] = r.center;
        format!(
            "<agkit.scenery.AtReport lat {lat} lon {lon}, radius {} m: {} item(s)>",
            r.radius_m,
            r.items.len()
        )
    }
}

/// What `Installation.check` found: `findings` (dicts with `severity`,
/// `code`, `package`, `message`, `details`) and `stats`, as `agkit scenery
/// check --format json`.
#[pyclass(frozen, module = "agkit.scenery")]
pub struct CheckReport {
    inner: LibCheckReport,
}

#[pymethods]
impl CheckReport {
    /// The findings, most serious first, then by code.
    #[getter]
    fn findings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::to_py(py, &self.inner.findings)
    }

    /// What was checked: packages, libraries, exports, DSFs, definitions.
    #[getter]
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::to_py(py, &self.inner.stats)
    }

    /// True when a finding is an error (something cannot resolve or be
    /// read): `agkit scenery check` exits 1.
    #[getter]
    fn has_errors(&self) -> bool {
        self.inner.has_errors()
    }

    /// `{"findings": [...], "stats": {...}}`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::to_py(py, &self.inner)
    }

    /// The findings as an `agkit.ArrowTable` named `scenery_findings`,
    /// built in Rust: one row per finding, in order, the keys of `agkit
    /// scenery check --format json`'s findings as columns (`severity`,
    /// `code`, `package` — null for none —, `message`, and `details`, a
    /// list of strings).
    fn to_arrow(&self) -> crate::arrow::Table {
        let batch = agkit::out::scenery_tables::findings_batch(&self.inner.findings);
        crate::arrow::Table::new("scenery_findings", batch)
    }

    fn __repr__(&self) -> String {
        format!(
            "<agkit.scenery.CheckReport: {} finding(s)>",
            self.inner.findings.len()
        )
    }
}

/// What `Installation.conflicts` found, as `agkit scenery conflicts
/// --format json`: `findings` (items on airport features, each with its
/// package, DSF, definition, feature, apt.dat line, depth and `fix`),
/// `missing_exclusions`, `doubles`, `order`, `excluded`, `airports`, `warnings`, and the fix
/// package written (`fix`). `to_arrow()` is the table `conflicts`;
/// `__geo_interface__` the GeoJSON of `--format geojson`.
#[pyclass(frozen, module = "agkit.scenery")]
pub struct ConflictReport {
    inner: agkit::place::conflicts::ConflictReport,
    written: Option<agkit::place::conflicts::fix::FixWritten>,
}

#[pymethods]
impl ConflictReport {
    /// Items of other packages on the airports' runways, helipads and
    /// pavement (`CNF001`–`CNF004`, `CNF006`), as dicts.
    #[getter]
    fn findings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::to_py(py, &self.inner.findings)
    }

    /// Airport packages that exclude nothing over their airport while
    /// lower packages place there (`CNF005`).
    #[getter]
    fn missing_exclusions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::to_py(py, &self.inner.missing_exclusions)
    }

    /// What two packages both place over one airport (`CNF007`), and a
    /// lower copy of an airport still placing there (`CNF008`), as dicts:
    /// `package`, `lower`, `kinds`, `items`, `area_m2`, `bbox`, `fix`, ….
    #[getter]
    fn doubles<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::to_py(py, &self.inner.doubles)
    }

    /// `scenery check`'s pack-order findings on the airports' tiles
    /// (`SCN011`), as dicts: `package`, `dsf`, `tile`, `mesh`,
    /// `airports`, `airport_package`, `message`.
    #[getter]
    fn order<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::to_py(py, &self.inner.order)
    }

    /// Items on airport features that a higher exclusion already removes.
    #[getter]
    fn excluded<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::to_py(py, &self.inner.excluded)
    }

    /// The airports looked at: `id`, `name`, `package`, `apt_file`,
    /// `features`, `items`, `at`.
    #[getter]
    fn airports<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::to_py(py, &self.inner.airports)
    }

    /// Problems met (unreadable DSFs or apt.dat files, airports too wide).
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.inner.warnings.clone()
    }

    /// The fix package written (`dir`, `dsfs`, `exclusions`, `line` for
    /// scenery_packs.ini, `above`, `in_custom_scenery`), or `None` when
    /// no `fix=` folder was given.
    #[getter]
    fn fix<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::to_py(py, &self.written)
    }

    /// True when a finding is an error: `agkit scenery conflicts` exits 1.
    #[getter]
    fn has_errors(&self) -> bool {
        self.inner.has_errors()
    }

    /// The JSON of `agkit scenery conflicts --format json`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::to_py(py, &self.inner)
    }

    /// The findings as an `agkit.ArrowTable` named `conflicts`, built in
    /// Rust: one row per finding, the `cnf_items` layer's columns of the
    /// GeoPackage (`airport`, `code`, `severity`, `package`, `dsf`,
    /// `kind`, `asset`, …, `depth`, `lon`, `lat`, `fix_prop`, `advice`)
    /// and `geometry` (the deepest point, WKB, EPSG:4326).
    fn to_arrow(&self) -> crate::arrow::Table {
        let batch = agkit::out::conflicts::conflicts_batch(&self.inner);
        crate::arrow::Table::new("conflicts", batch)
    }

    /// The GeoJSON of `agkit scenery conflicts --format geojson`: the
    /// airports' runways, pavement, boundaries and lines, then the
    /// findings (`cnf_items`, `cnf_fixes`, `cnf_missing`), each feature
    /// with its `layer`.
    fn to_geojson<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let r = &self.inner;
        let text = detached(py, || {
            let mut out = Vec::new();
            agkit::out::conflicts::write_geojson(r, false, &mut out)
                .map_err(|e| Error::plain(Class::Internal, None, e.to_string()))?;
            Ok::<_, Error>(out)
        })?;
        crate::from_json(py, &String::from_utf8_lossy(&text))
    }

    /// The GeoJSON FeatureCollection (`to_geojson()`).
    #[getter]
    fn __geo_interface__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.to_geojson(py)
    }

    fn __len__(&self) -> usize {
        self.inner.findings.len()
            + self.inner.missing_exclusions.len()
            + self.inner.doubles.len()
            + self.inner.order.len()
    }

    fn __repr__(&self) -> String {
        let r = &self.inner;
        format!(
            "<agkit.scenery.ConflictReport: {} airport(s), {} finding(s), {} missing exclusion(s), {} double(s), {} order problem(s)>",
            r.airports.len(),
            r.findings.len(),
            r.missing_exclusions.len(),
            r.doubles.len(),
            r.order.len()
        )
    }
}

/// What a library path resolves to at one tile (`Installation.resolve`).
#[pyclass(frozen, module = "agkit.scenery")]
pub struct Resolution {
    inner: LibResolution,
}

#[pymethods]
impl Resolution {
    /// The path as asked.
    #[getter]
    fn path(&self) -> &str {
        &self.inner.path
    }

    /// The tile: `(south, west)`, the latitude and longitude of its
    /// south-west corner.
    #[getter]
    fn tile(&self) -> (i32, i32) {
        (self.inner.tile.south, self.inner.tile.west)
    }

    /// True when a file the simulator can use exists.
    #[getter]
    fn is_resolved(&self) -> bool {
        self.inner.is_resolved()
    }

    /// The files the simulator picks from that exist.
    #[getter]
    fn files(&self) -> Vec<String> {
        (self.inner.usable())
            .map(|c| c.file.display().to_string())
            .collect()
    }

    /// `local`, `library`, `backup` or `nothing`: where the winners come
    /// from.
    #[getter]
    fn source<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::to_py(py, &self.inner.source)
    }

    /// Why the winners won (or why nothing did), in words.
    #[getter]
    fn rule(&self) -> &str {
        &self.inner.rule
    }

    /// The candidate files (package, priority, file, export line and
    /// directive, weight, whether it exists), as dicts.
    #[getter]
    fn candidates<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::to_py(py, &self.inner.candidates)
    }

    /// Exports that do not count here, each with `why`.
    #[getter]
    fn shadowed<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::to_py(py, &self.inner.shadowed)
    }

    /// The JSON of `agkit scenery resolve --format json`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::to_py(py, &self.inner)
    }

    fn __repr__(&self) -> String {
        format!(
            "<agkit.scenery.Resolution {:?}: {} file(s)>",
            self.inner.path,
            self.inner.usable().count()
        )
    }
}

/// Every autogen use of one DSF tile, placed (`agkit.place_dsf`,
/// `Installation.place_tile`): `placements` (one `agkit.Placement` per
/// placed use, in use order), the uses whose asset resolved nowhere
/// (`unresolved`), those the engine refused (`warnings`) and the asset
/// files with errors or warnings (`assets`).
///
/// Iterating gives the placements; `__geo_interface__` is the GeoJSON of
/// `agkit place --dsf --format geojson`.
#[pyclass(frozen, module = "agkit")]
pub struct TilePlacement {
    placements: Vec<Py<Placement>>,
    lib: LibTilePlacement,
}

impl TilePlacement {
    fn new(py: Python<'_>, mut lib: LibTilePlacement) -> PyResult<TilePlacement> {
        let placements = std::mem::take(&mut lib.placements)
            .into_iter()
            .map(|p| Py::new(py, Placement::from(p)))
            .collect::<PyResult<_>>()?;
        Ok(TilePlacement { placements, lib })
    }
}

#[pymethods]
impl TilePlacement {
    /// The DSF.
    #[getter]
    fn dsf(&self) -> String {
        self.lib.dsf.display().to_string()
    }

    /// The tile: `(south, west)`, the latitude and longitude of its
    /// south-west corner.
    #[getter]
    fn tile(&self) -> (i32, i32) {
        (self.lib.tile.south, self.lib.tile.west)
    }

    /// The package the DSF belongs to.
    #[getter]
    fn package(&self) -> &str {
        &self.lib.package
    }

    /// Autogen uses in the tile.
    #[getter]
    fn uses(&self) -> usize {
        self.lib.uses
    }

    /// One `agkit.Placement` per placed use, in use order.
    #[getter]
    fn placements<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.placements.iter().map(|p| p.clone_ref(py)))
    }

    /// Uses whose asset resolved nowhere: asset path → `uses`, `tiles`
    /// and `why` (where agkit looked).
    #[getter]
    fn unresolved<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::to_py(py, &self.lib.unresolved)
    }

    /// Uses the engine could not place: `index`, `asset`, `message`.
    #[getter]
    fn warnings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::to_py(py, &self.lib.warnings)
    }

    /// The asset files the uses resolved to that have errors or warnings:
    /// `file`, `placeable`, `error`, `diagnostics` (as `agkit check
    /// --format json`).
    #[getter]
    fn assets<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let files: Vec<&agkit::check::asset::AssetFile> =
            self.lib.assets.iter().map(|a| &**a).collect();
        crate::to_py(py, &files)
    }

    /// With `whole_tile=True`: per kind (`obj`, `fac`, `for`, `pol`, `lin`,
    /// `str`, `agp`, `net`, `terrain` …) the rows `in_dsf`, `placed` and
    /// `not_drawn`, what is `not_drawn` and why, and the definitions
    /// `unresolved`, as a dict; else `None`.
    #[getter]
    fn whole<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::to_py(py, &self.lib.whole)
    }

    /// True when an asset file a use resolved to cannot be placed (its uses
    /// are missing): `agkit place --dsf` exits 1.
    #[getter]
    fn has_errors(&self) -> bool {
        self.lib.has_errors()
    }

    /// Every placed tile, object, facade and tree of every placement as
    /// one flat record (a dict with its `kind`, the index of the `use` it
    /// belongs to and that use's `autogen` asset), ready for
    /// `pandas.DataFrame`.
    fn to_records<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        for (i, p) in self.placements.iter().enumerate() {
            for r in p.get().to_records(py)?.iter() {
                r.set_item("use", i)?;
                r.set_item("autogen", p.get().inner().asset.as_str())?;
                out.append(r)?;
            }
        }
        Ok(out)
    }

    /// One GIS layer of every placement of the tile (numbered in use
    /// order, as `to_geojson()` numbers them) as an `agkit.ArrowTable`
    /// built in Rust: the rows and fields of `agkit place --dsf --format
    /// geojson` for that layer, geometry as WKB.
    #[pyo3(signature = (layer="objects"))]
    fn to_arrow(&self, py: Python<'_>, layer: &str) -> PyResult<crate::arrow::Table> {
        let all = self.placements.iter().map(|p| p.get().inner()).collect();
        crate::arrow::layer_table(py, all, layer)
    }

    /// Every GIS layer of the tile as an `agkit.ArrowTable`, by layer name.
    fn layers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let all = self.placements.iter().map(|p| p.get().inner()).collect();
        crate::arrow::layer_tables(py, all)
    }

    /// The GeoJSON FeatureCollection of `agkit place --dsf --format
    /// geojson`: one feature per placed tile, object, facade and tree.
    fn to_geojson<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let all: Vec<&agkit::place::Placement> =
            self.placements.iter().map(|p| p.get().inner()).collect();
        let features = detached(py, || {
            let mut features = Vec::new();
            // Numbered on across the placements, as one collection.
            for (i, p) in all.into_iter().enumerate() {
                features.extend(
                    agkit::out::geojson::features(std::slice::from_ref(p), i)
                        .map_err(|e| Error::plain(Class::Internal, None, e.to_string()))?,
                );
            }
            Ok(features)
        })?;
        let fc = PyDict::new(py);
        fc.set_item("type", "FeatureCollection")?;
        fc.set_item("features", crate::to_py(py, &features)?)?;
        Ok(fc)
    }

    /// The GeoJSON FeatureCollection (`to_geojson()`).
    #[getter]
    fn __geo_interface__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.to_geojson(py)
    }

    fn __len__(&self) -> usize {
        self.placements.len()
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(self.placements(py)?.try_iter()?.into_any())
    }

    fn __repr__(&self) -> String {
        format!(
            "<agkit.TilePlacement {:?}: {} of {} use(s) placed, {} unresolved>",
            self.lib.dsf.display().to_string(),
            self.placements.len(),
            self.lib.uses,
            self.lib.unresolved.uses()
        )
    }
}
