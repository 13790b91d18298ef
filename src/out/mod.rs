//! Outputs: a [`Placement`] as JSON, GeoJSON, GeoPackage, DSF2Text, SVG,
//! PNG and glTF.
//!
//! [`render`] is the one entry the command line, Python and `serve` call:
//! one placement or several (every autogen use of a DSF tile) as one
//! combined result: a JSON array, one
//! FeatureCollection, one GeoPackage, one DSF2Text file, one picture. The
//! GIS formats share one schema of layers and fields ([`layers`]). The
//! formats are described in `docs/placement.md`.

pub mod airport_picture;
pub mod airports;
#[cfg(feature = "arrow")]
pub mod arrow;
pub mod at_picture;
pub mod conflicts;
mod draped_picture;
pub mod draw;
pub mod dsf_text;
pub mod frame;
pub mod geojson;
pub mod gltf;
pub mod gpkg;
pub mod json;
pub mod labels;
pub mod layers;
pub(crate) mod overview;
pub mod png;
mod runways;
pub mod scenery_report;
#[cfg(feature = "arrow")]
pub mod scenery_tables;
mod schematic;
pub mod strokefont;
pub mod svg;
pub mod textured;

use crate::place::Placement;
use std::path::Path;

pub use crate::ground::words::{UnknownName, count, thousands};

/// An output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Format {
    /// The placement model serialized (stable field names).
    Json,
    /// A GeoJSON FeatureCollection in lon/lat ([`geojson`]).
    Geojson,
    /// A GeoPackage, one table per layer ([`gpkg`]).
    Gpkg,
    /// DSF2Text (DSFTool's text form of a DSF) with objects and facades.
    DsfText,
    /// A top-down SVG picture.
    Svg,
    /// The SVG picture rasterised (its words drawn with a built-in stroke
    /// font).
    Png,
    /// A 3-D scene as binary glTF ([`gltf`]).
    Glb,
    /// A 3-D scene as glTF JSON, its data embedded ([`gltf`]).
    Gltf,
}

impl std::str::FromStr for Format {
    type Err = UnknownName;

    /// The format named as the command line names it: `json`, `geojson`,
    /// `gpkg`, `dsf-text`, `svg`, `png`, `glb`, `gltf`.
    ///
    /// ```
    /// use agkit::out::Format;
    /// assert_eq!("dsf-text".parse::<Format>(), Ok(Format::DsfText));
    /// assert!("gif".parse::<Format>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Format, UnknownName> {
        Ok(match s {
            "json" => Format::Json,
            "geojson" => Format::Geojson,
            "gpkg" => Format::Gpkg,
            "dsf-text" => Format::DsfText,
            "svg" => Format::Svg,
            "png" => Format::Png,
            "glb" => Format::Glb,
            "gltf" => Format::Gltf,
            _ => {
                return Err(UnknownName {
                    what: "format",
                    name: s.to_string(),
                    expected: "json, geojson, gpkg, dsf-text, svg, png, glb or gltf",
                });
            }
        })
    }
}

impl Format {
    /// The format a file name asks for by its extension (`.json`,
    /// `.geojson`, `.gpkg`, `.txt`, `.svg`, `.png`, `.glb`, `.gltf`), if
    /// any.
    pub fn from_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        Some(match ext.as_str() {
            "json" => Format::Json,
            "geojson" => Format::Geojson,
            "gpkg" => Format::Gpkg,
            "txt" => Format::DsfText,
            "svg" => Format::Svg,
            "png" => Format::Png,
            "glb" => Format::Glb,
            "gltf" => Format::Gltf,
            _ => return None,
        })
    }
}

/// Why an output could not be made.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OutError {
    /// Serialization failed.
    #[error("cannot serialize: {0}")]
    Json(#[from] serde_json::Error),
    /// Rasterising failed.
    #[error("cannot rasterise: {0}")]
    Png(String),
    /// Writing the output failed.
    #[error("cannot write: {0}")]
    Io(#[from] std::io::Error),
    /// A 3-D scene cannot be made (a limit).
    #[error("cannot make the 3-D scene: {0}")]
    Scene(String),
    /// The format is one picture or one tile and cannot be written in parts.
    #[error("{0} output cannot be streamed; use json, geojson or gpkg")]
    NotStreamable(&'static str),
    /// The GeoPackage (SQLite) could not be written.
    #[error("cannot write the GeoPackage: {0}")]
    Gpkg(String),
}

/// Placements rendered as a piece of a [`Stream`]'s document.
#[derive(Debug, Clone, Default)]
pub struct Part {
    bytes: Vec<u8>,
    items: usize,
    rows: Vec<layers::Row>,
}

/// `Ok` for the formats a [`Stream`] writes (`json`, `geojson`, `gpkg`).
fn streamable(format: Format) -> Result<(), OutError> {
    match format {
        Format::Json | Format::Geojson | Format::Gpkg => Ok(()),
        Format::DsfText => Err(OutError::NotStreamable("dsf-text")),
        Format::Svg => Err(OutError::NotStreamable("svg")),
        Format::Png => Err(OutError::NotStreamable("png")),
        Format::Glb | Format::Gltf => Err(OutError::NotStreamable("a 3-D scene")),
    }
}

/// Renders `ps` as a piece of a streamed `json`, `geojson` or `gpkg`
/// document, the placements numbered from `first` (the count of those
/// before it).
pub fn render_part(ps: &[Placement], first: usize, format: Format) -> Result<Part, OutError> {
    let mut part = Part::default();
    let item = |part: &mut Part| {
        if part.items > 0 {
            part.bytes.extend_from_slice(b",\n");
        }
        part.items += 1;
    };
    match format {
        Format::Json => {
            for p in ps {
                item(&mut part);
                serde_json::to_writer_pretty(&mut part.bytes, p)?;
            }
        }
        Format::Geojson => {
            layers::each_row(ps, first, &mut |r| {
                item(&mut part);
                serde_json::to_writer(&mut part.bytes, &geojson::RowFeature(&r))
            })?;
        }
        Format::Gpkg => {
            part.rows = layers::rows(ps, first);
            part.items = part.rows.len();
        }
        _ => streamable(format)?,
    }
    Ok(part)
}

/// Writes placements that arrive in parts (a bulk run, one tile at a time)
/// as one JSON array, one GeoJSON FeatureCollection or one GeoPackage,
/// without holding them all: memory stays that of one part.
///
/// JSON items are pretty-printed objects; GeoJSON features are one per line;
/// a GeoPackage is built in a temporary file and copied to the writer when
/// finished. Placement numbers (`properties.placement`) run on across parts
/// when each part is rendered from the count of placements before it.
pub struct Stream<W: std::io::Write> {
    w: W,
    format: Format,
    items: usize,
    gpkg: Option<(tempfile::TempDir, gpkg::GpkgWriter)>,
}

impl<W: std::io::Write> Stream<W> {
    /// Starts the document on `w` (`json`, `geojson` or `gpkg` only).
    pub fn new(mut w: W, format: Format) -> Result<Self, OutError> {
        streamable(format)?;
        let mut gpkg = None;
        match format {
            Format::Json => w.write_all(b"[")?,
            Format::Gpkg => {
                let dir = tempfile::tempdir()?;
                let g = gpkg::GpkgWriter::create(&dir.path().join("out.gpkg"))?;
                gpkg = Some((dir, g));
            }
            _ => w.write_all(b"{\"type\":\"FeatureCollection\",\"features\":[")?,
        }
        Ok(Stream {
            w,
            format,
            items: 0,
            gpkg,
        })
    }

    /// Appends a part rendered by [`render_part`] (parts can be rendered
    /// side by side and pushed in order).
    pub fn push_part(&mut self, part: &Part) -> Result<(), OutError> {
        if let Some((_, g)) = &mut self.gpkg {
            for r in &part.rows {
                g.add(r)?;
            }
        } else if part.items > 0 {
            let sep: &[u8] = if self.items == 0 { b"\n" } else { b",\n" };
            self.w.write_all(sep)?;
            self.w.write_all(&part.bytes)?;
        }
        self.items += part.items;
        Ok(())
    }

    /// Closes the document and returns the writer.
    pub fn finish(mut self) -> Result<W, OutError> {
        if let Some((dir, g)) = self.gpkg.take() {
            g.finish()?;
            let mut f = std::fs::File::open(dir.path().join("out.gpkg"))?;
            std::io::copy(&mut f, &mut self.w)?;
            return Ok(self.w);
        }
        let end: &[u8] = match self.format {
            Format::Json => b"\n]\n",
            _ => b"\n]}\n",
        };
        self.w.write_all(end)?;
        Ok(self.w)
    }
}

/// Which placements a result draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Grouping {
    /// The first placement alone (JSON: one object); all of them when
    /// there are none.
    #[default]
    One,
    /// All of them as one result (JSON: an array, GeoJSON features
    /// numbered by placement, one picture, one scene).
    Combined,
}

/// How JSON text of GeoJSON is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Indent {
    /// One feature a line.
    #[default]
    Compact,
    /// Indented, for people.
    Pretty,
}

/// What [`render`] makes and how.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RenderOptions {
    /// The format.
    pub format: Format,
    /// The style of pictures (`svg`, `png`).
    pub style: svg::PictureStyle,
    /// Bounds of the 3-D scene and of pictures.
    pub limits: crate::limits::Limits,
    /// One placement or all of them.
    pub grouping: Grouping,
    /// GeoJSON's layout.
    pub indent: Indent,
}

impl RenderOptions {
    /// `format` with the defaults: textured pictures, default limits, the
    /// first placement alone, compact GeoJSON.
    pub fn new(format: Format) -> RenderOptions {
        RenderOptions {
            format,
            style: svg::PictureStyle::default(),
            limits: crate::limits::Limits::default(),
            grouping: Grouping::default(),
            indent: Indent::default(),
        }
    }
}

/// What a render said beside its bytes.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Said {
    /// Notes for people (a picture that is an overview, tiles filled flat).
    pub notes: Vec<String>,
    /// Warnings (art a 3-D scene drew in plain colours or as boxes, items
    /// left out).
    pub warnings: Vec<String>,
}

/// A render: its bytes and what it said.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Rendered {
    /// The file's bytes.
    pub bytes: Vec<u8>,
    /// Its notes and warnings.
    pub said: Said,
}

/// The one render entry: `ps` in `opts.format`, as bytes, with the notes
/// and warnings of the render. The command line, Python and `serve` call
/// this (or [`render_to`]) and only translate.
///
/// ```
/// use agkit::out::{Format, RenderOptions, render};
/// let r = render(&[], &RenderOptions::new(Format::Json)).unwrap();
/// assert_eq!(r.bytes, b"[]\n");
/// ```
pub fn render(ps: &[Placement], opts: &RenderOptions) -> Result<Rendered, OutError> {
    let mut bytes = Vec::new();
    let said = render_to(ps, opts, &mut bytes)?;
    Ok(Rendered { bytes, said })
}

/// [`render`] written to `w`: JSON, GeoJSON and DSF2Text are written as
/// they are made, never held whole.
pub fn render_to(
    ps: &[Placement],
    opts: &RenderOptions,
    w: &mut dyn std::io::Write,
) -> Result<Said, OutError> {
    let one = match opts.grouping {
        Grouping::One => ps.first(),
        Grouping::Combined => None,
    };
    let ps = one.map_or(ps, std::slice::from_ref);
    let mut said = Said::default();
    match opts.format {
        Format::Json => {
            // The tables list what was placed: a use not placed is drawn
            // (pictures, 3-D scenes), never a row ([`layers::each_row`]).
            let placed: Vec<&Placement> = ps.iter().filter(|p| !p.is_unplaced()).collect();
            match one {
                Some(p) => serde_json::to_writer_pretty(&mut *w, p)?,
                None => serde_json::to_writer_pretty(&mut *w, &placed)?,
            }
            w.write_all(b"\n")?;
        }
        Format::Geojson => geojson::write_geojson(ps, opts.indent == Indent::Pretty, w)?,
        Format::Gpkg => gpkg::write_gpkg(ps, w)?,
        Format::DsfText => w.write_all(dsf_text::to_dsf_text(ps).as_bytes())?,
        Format::Svg | Format::Png => {
            let o = svg::Options {
                style: opts.style,
                max_items: opts.limits.max_drawn_items,
                limits: opts.limits,
                ..svg::Options::default()
            };
            let (bytes, notes) = picture_with(&svg::Sheet::of(ps), opts.format, &o)?;
            said.notes = notes;
            w.write_all(&bytes)?;
        }
        Format::Glb | Format::Gltf => {
            let container = match opts.format {
                Format::Glb => gltf::Container::Glb,
                _ => gltf::Container::Gltf,
            };
            said.warnings = gltf::write_scene_to(ps, container, &opts.limits, w)?;
        }
    }
    Ok(said)
}

/// Renders one placement with the defaults. JSON is one object (see
/// [`render_all`] for the array form).
pub fn render_one(p: &Placement, format: Format) -> Result<Vec<u8>, OutError> {
    match format {
        Format::Json => json::to_json(p),
        _ => render_all(std::slice::from_ref(p), format),
    }
}

/// Renders several placements as one result: JSON is always an array here
/// (even of one); the other formats combine everything (GeoJSON features
/// carry a `placement` index, the picture uses the first placement's
/// origin as its frame).
pub fn render_all(ps: &[Placement], format: Format) -> Result<Vec<u8>, OutError> {
    match format {
        Format::Json => json::to_json_array(ps),
        Format::Geojson => geojson::to_geojson(ps),
        Format::Gpkg => gpkg::to_gpkg(ps),
        Format::DsfText => Ok(dsf_text::to_dsf_text(ps).into_bytes()),
        Format::Glb => gltf::to_glb(ps),
        Format::Gltf => gltf::to_gltf(ps),
        Format::Svg | Format::Png => picture(&svg::Sheet::of(ps), format),
    }
}

/// The picture of `scene` as SVG or PNG bytes (any other format is taken
/// as SVG) in the default style (textured), bounded as [`svg::draw`]
/// bounds it.
pub fn picture(scene: &svg::Sheet, format: Format) -> Result<Vec<u8>, OutError> {
    picture_with(scene, format, &svg::Options::default()).map(|(bytes, _)| bytes)
}

/// The picture of `scene` as SVG or PNG bytes drawn with `opts` (its text
/// mode follows the format: words as strokes in a PNG), and what it left
/// out or changed, one sentence each for stderr: that it is an overview,
/// that tiles were filled flat, that names were written shortened or with
/// U+FFFD for characters XML does not allow.
pub fn picture_with(
    scene: &svg::Sheet,
    format: Format,
    opts: &svg::Options,
) -> Result<(Vec<u8>, Vec<String>), OutError> {
    let text = match format {
        Format::Png => svg::TextMode::Outlined,
        _ => svg::TextMode::Text,
    };
    let opts = svg::Options { text, ..*opts };
    let picture = svg::draw(scene, &opts);
    let notes = picture
        .overview
        .into_iter()
        .chain(picture.textures)
        .chain(picture.names)
        .collect();
    let svg = picture.drawing.to_svg(text);
    let bytes = match format {
        Format::Png => png::to_png(&svg)?,
        _ => svg.into_bytes(),
    };
    Ok((bytes, notes))
}

/// For a picture (`svg`, `png`) of `ps`: why it is an overview rather than
/// every item, in one sentence for stderr; `None` for the other formats
/// and for pictures that draw every item.
pub fn picture_note(ps: &[Placement], format: Format) -> Option<String> {
    match format {
        Format::Svg | Format::Png => {
            svg::overview_note(&svg::Sheet::of(ps), svg::Options::default().max_items)
        }
        _ => None,
    }
}
