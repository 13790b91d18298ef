//! `--format gpkg`: a GeoPackage (OGC 12-128r18), one table per layer of
//! [`super::layers`].
//!
//! Each layer of [`LAYERS`] is a feature table of its own, with one
//! geometry type (`geom`, WGS 84, EPSG:4326), an integer primary key `fid`
//! and the layer's fields as typed columns (INTEGER, DOUBLE, TEXT,
//! BOOLEAN); its `gpkg_contents` row carries the layer's description
//! (units) and extent. Every layer is written, empty or not, so a file's
//! schema does not depend on what was placed.
//!
//! SQLite needs a file: [`GpkgWriter`] builds the package in a file of its
//! own (a temporary one for [`write_gpkg`]), inside one transaction.
//! Geometries are GeoPackage binary: the 8-byte header (`GP`, version 0,
//! flags, SRS id) and the envelope, then the geometry as WKB (2-D Point,
//! LineString or Polygon, little-endian: three record layouts of the OGC
//! Simple Features spec, written here rather than through a crate whose
//! derive macros would rebuild half the dependency tree).

use super::OutError;
use super::layers::{ALL_LAYERS, FieldType, LAYERS, Row, Shape, Value};
use crate::place::Placement;
use std::ops::Range;
use std::path::Path;

/// The SRS id of WGS 84 longitude/latitude.
const WGS84: i32 = 4326;

/// GeoPackage's `application_id`: `GPKG`.
const APPLICATION_ID: i32 = 0x4750_4B47;

/// The version written (`user_version`): 1.3.0, the newest GDAL 3.6
/// (Debian 12) reads without a warning; the tables written are the same.
const USER_VERSION: i32 = 10300;

impl From<rusqlite::Error> for OutError {
    fn from(e: rusqlite::Error) -> Self {
        OutError::Gpkg(e.to_string())
    }
}

/// A GeoPackage being written: create it, add rows, finish it.
pub struct GpkgWriter {
    conn: rusqlite::Connection,
    /// The layers it holds: a range of [`ALL_LAYERS`].
    layers: Range<usize>,
    /// Per layer: min x, min y, max x, max y of what was added.
    extent: Vec<Option<[f64; 4]>>,
    /// Per layer: features added.
    count: Vec<u64>,
}

/// A column or table name quoted for SQL.
fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

impl GpkgWriter {
    /// Creates the package at `path` (a new file: an existing one is an
    /// error) with every placement layer's table ([`LAYERS`]), empty.
    pub fn create(path: &Path) -> Result<Self, OutError> {
        Self::create_layers(path, 0..LAYERS.len())
    }

    /// Creates the package at `path` with the tables of `layers`, a range
    /// of [`ALL_LAYERS`] (the airport layers are
    /// [`super::airports::LAYER_RANGE`]), empty.
    pub fn create_layers(path: &Path, layers: Range<usize>) -> Result<Self, OutError> {
        if path.exists() {
            return Err(OutError::Gpkg(format!("{} exists", path.display())));
        }
        let conn = rusqlite::Connection::open(path)?;
        conn.execute_batch(&format!(
            "PRAGMA application_id = {APPLICATION_ID};
             PRAGMA user_version = {USER_VERSION};
             BEGIN;
             CREATE TABLE gpkg_spatial_ref_sys (
               srs_name TEXT NOT NULL, srs_id INTEGER NOT NULL PRIMARY KEY,
               organization TEXT NOT NULL, organization_coordsys_id INTEGER NOT NULL,
               definition TEXT NOT NULL, description TEXT);
             CREATE TABLE gpkg_contents (
               table_name TEXT NOT NULL PRIMARY KEY, data_type TEXT NOT NULL,
               identifier TEXT UNIQUE, description TEXT DEFAULT '',
               last_change DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
               min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE, srs_id INTEGER,
               CONSTRAINT fk_gc_r_srs_id FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys(srs_id));
             CREATE TABLE gpkg_geometry_columns (
               table_name TEXT NOT NULL, column_name TEXT NOT NULL,
               geometry_type_name TEXT NOT NULL, srs_id INTEGER NOT NULL,
               z TINYINT NOT NULL, m TINYINT NOT NULL,
               CONSTRAINT pk_geom_cols PRIMARY KEY (table_name, column_name),
               CONSTRAINT uk_gc_table_name UNIQUE (table_name),
               CONSTRAINT fk_gc_tn FOREIGN KEY (table_name) REFERENCES gpkg_contents(table_name),
               CONSTRAINT fk_gc_srs FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys (srs_id));
             INSERT INTO gpkg_spatial_ref_sys VALUES
               ('Undefined cartesian SRS', -1, 'NONE', -1, 'undefined', 'undefined cartesian coordinate reference system'),
               ('Undefined geographic SRS', 0, 'NONE', 0, 'undefined', 'undefined geographic coordinate reference system'),
               ('WGS 84 geodetic', {WGS84}, 'EPSG', 4326, '{WKT}', 'longitude/latitude coordinates in decimal degrees on the WGS 84 spheroid');"
        ))?;
        for l in &ALL_LAYERS[layers.clone()] {
            let mut cols = vec![
                "\"fid\" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL".to_string(),
                format!("\"geom\" {}", l.geometry.name()),
            ];
            cols.extend(l.fields.iter().map(|f| {
                let ty = match f.ty {
                    FieldType::Integer => "INTEGER",
                    FieldType::Real => "DOUBLE",
                    FieldType::Text => "TEXT",
                    FieldType::Boolean => "BOOLEAN",
                };
                format!("{} {ty}", quoted(f.name))
            }));
            conn.execute_batch(&format!(
                "CREATE TABLE {} ({});",
                quoted(l.name),
                cols.join(", ")
            ))?;
            conn.execute(
                "INSERT INTO gpkg_contents (table_name, data_type, identifier, description, srs_id)
                 VALUES (?1, 'features', ?1, ?2, ?3)",
                rusqlite::params![l.name, l.about, WGS84],
            )?;
            conn.execute(
                "INSERT INTO gpkg_geometry_columns VALUES (?1, 'geom', ?2, ?3, 0, 0)",
                rusqlite::params![l.name, l.geometry.name(), WGS84],
            )?;
        }
        Ok(GpkgWriter {
            conn,
            extent: vec![None; layers.len()],
            count: vec![0; layers.len()],
            layers,
        })
    }

    /// Adds one row to its layer's table (which this package must hold).
    pub fn add(&mut self, row: &Row) -> Result<(), OutError> {
        let l = row.layer();
        let Some(k) = row
            .layer
            .checked_sub(self.layers.start)
            .filter(|&k| k < self.layers.len())
        else {
            return Err(OutError::Gpkg(format!(
                "a {} row for a package without that layer",
                l.name
            )));
        };
        let names: Vec<String> = l.fields.iter().map(|f| quoted(f.name)).collect();
        let marks: Vec<String> = (2..=l.fields.len() + 1).map(|i| format!("?{i}")).collect();
        let sql = format!(
            "INSERT INTO {} (\"geom\", {}) VALUES (?1, {})",
            quoted(l.name),
            names.join(", "),
            marks.join(", ")
        );
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let geom = blob(&row.shape)?;
        stmt.raw_bind_parameter(1, geom.as_ref().map(|(b, _)| b))?;
        for (i, v) in row.values.iter().enumerate() {
            let k = i + 2;
            match v {
                Value::Null => stmt.raw_bind_parameter(k, rusqlite::types::Null)?,
                Value::Int(n) => stmt.raw_bind_parameter(k, n)?,
                Value::Real(x) => stmt.raw_bind_parameter(k, x)?,
                Value::Text(t) => stmt.raw_bind_parameter(k, t.as_ref())?,
                Value::Bool(b) => stmt.raw_bind_parameter(k, b)?,
            }
        }
        stmt.raw_execute()?;
        if let Some((_, e)) = geom {
            let ext = &mut self.extent[k];
            *ext = Some(match *ext {
                None => e,
                Some(a) => [
                    a[0].min(e[0]),
                    a[1].min(e[1]),
                    a[2].max(e[2]),
                    a[3].max(e[3]),
                ],
            });
        }
        self.count[k] += 1;
        Ok(())
    }

    /// Adds the rows of `ps`, the placements numbered from `first`.
    pub fn add_placements(&mut self, ps: &[Placement], first: usize) -> Result<(), OutError> {
        super::layers::each_row(ps, first, &mut |r| self.add(&r))
    }

    /// Writes each layer's extent and commits.
    pub fn finish(self) -> Result<(), OutError> {
        for (l, ext) in ALL_LAYERS[self.layers.clone()].iter().zip(&self.extent) {
            if let Some([x0, y0, x1, y1]) = ext {
                self.conn.execute(
                    "UPDATE gpkg_contents SET min_x = ?2, min_y = ?3, max_x = ?4, max_y = ?5
                     WHERE table_name = ?1",
                    rusqlite::params![l.name, x0, y0, x1, y1],
                )?;
            }
        }
        self.conn.execute_batch("COMMIT;")?;
        self.conn.close().map_err(|(_, e)| OutError::from(e))
    }

    /// Features added so far, per layer it holds (in [`ALL_LAYERS`] order).
    pub fn counts(&self) -> &[u64] {
        &self.count
    }
}

/// WGS 84 as OGC WKT (the definition GeoPackage's own table lists).
const WKT: &str = "GEOGCS[\"WGS 84\",DATUM[\"WGS_1984\",SPHEROID[\"WGS 84\",6378137,298.257223563,AUTHORITY[\"EPSG\",\"7030\"]],AUTHORITY[\"EPSG\",\"6326\"]],PRIMEM[\"Greenwich\",0,AUTHORITY[\"EPSG\",\"8901\"]],UNIT[\"degree\",0.0174532925199433,AUTHORITY[\"EPSG\",\"9122\"]],AXIS[\"Latitude\",NORTH],AXIS[\"Longitude\",EAST],AUTHORITY[\"EPSG\",\"4326\"]]";

/// A GeoPackage geometry blob and its envelope (min x, min y, max x, max y).
type Blob = (Vec<u8>, [f64; 4]);

/// A shape as GeoPackage binary with its envelope; `None` for no geometry.
fn blob(shape: &Shape) -> Result<Option<Blob>, OutError> {
    let rings: Vec<&[[f64; 2]]> = match shape {
        Shape::None => return Ok(None),
        Shape::Point(p) => vec![std::slice::from_ref(p)],
        Shape::LineString(l) => vec![l.as_slice()],
        Shape::Polygon(rs) => rs.iter().map(Vec::as_slice).collect(),
    };
    let n: usize = rings.iter().map(|r| r.len()).sum();
    let mut e = [
        f64::INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NEG_INFINITY,
    ];
    for [x, y] in rings.iter().copied().flatten() {
        e = [e[0].min(*x), e[1].min(*y), e[2].max(*x), e[3].max(*y)];
    }
    let point = matches!(shape, Shape::Point(_));
    let mut b = Vec::with_capacity(48 + 16 * n + 4 * rings.len());
    // GeoPackage binary header (OGC 12-128r18, 2.1.3): magic, version 0
    // (version 1 of the format), flags: little-endian (bit 0) and, except
    // for a point (whose envelope is itself), the envelope
    // [minx, maxx, miny, maxy] (code 1 in bits 1-3); then the SRS id.
    b.extend_from_slice(b"GP");
    b.push(0);
    b.push(if point { 0b0000_0001 } else { 0b0000_0011 });
    b.extend_from_slice(&WGS84.to_le_bytes());
    if !point {
        for v in [e[0], e[2], e[1], e[3]] {
            b.extend_from_slice(&v.to_le_bytes());
        }
    }
    // The geometry as ISO WKB (2-D), little-endian: byte order 1, the type
    // (1 Point, 2 LineString, 3 Polygon), then the counts and coordinates.
    let count = |b: &mut Vec<u8>, k: usize| -> Result<(), OutError> {
        let k = u32::try_from(k)
            .map_err(|_| OutError::Gpkg("a geometry of over 2^32 points".into()))?;
        b.extend_from_slice(&k.to_le_bytes());
        Ok(())
    };
    let coords = |b: &mut Vec<u8>, pts: &[[f64; 2]]| {
        for [x, y] in pts {
            b.extend_from_slice(&x.to_le_bytes());
            b.extend_from_slice(&y.to_le_bytes());
        }
    };
    b.push(1);
    match shape {
        Shape::None => {}
        Shape::Point(p) => {
            b.extend_from_slice(&1u32.to_le_bytes());
            coords(&mut b, std::slice::from_ref(p));
        }
        Shape::LineString(l) => {
            b.extend_from_slice(&2u32.to_le_bytes());
            count(&mut b, l.len())?;
            coords(&mut b, l);
        }
        Shape::Polygon(rs) => {
            b.extend_from_slice(&3u32.to_le_bytes());
            count(&mut b, rs.len())?;
            for r in rs {
                count(&mut b, r.len())?;
                coords(&mut b, r);
            }
        }
    }
    Ok(Some((b, e)))
}

/// All placements as a GeoPackage written to `w`: built in a scratch
/// folder (SQLite writes files, not streams; the folder goes on every
/// error and ending signal, [`crate::fsutil::ScratchDir`]), then copied.
pub fn write_gpkg(ps: &[Placement], w: &mut dyn std::io::Write) -> Result<(), OutError> {
    let dir = crate::fsutil::ScratchDir::new()?;
    let path = dir.path().join("out.gpkg");
    let mut g = GpkgWriter::create(&path)?;
    g.add_placements(ps, 0)?;
    g.finish()?;
    std::io::copy(&mut std::fs::File::open(&path)?, w)?;
    Ok(())
}

/// All placements as GeoPackage bytes ([`write_gpkg`]).
pub fn to_gpkg(ps: &[Placement]) -> Result<Vec<u8>, OutError> {
    let mut v = Vec::new();
    write_gpkg(ps, &mut v)?;
    Ok(v)
}
