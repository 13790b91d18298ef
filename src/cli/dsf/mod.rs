//! `agkit dsf totext|build|autogen|extract-overlay|rasters|filter|merge|props …`:
//! [`totext`], [`build`], [`autogen`] and the binary edits of [`edit`],
//! sharing the readers and messages of [`common`].

use crate::cli::output;
use std::path::PathBuf;

mod autogen;
pub(super) mod build;
pub(super) mod common;
pub(super) mod edit;
mod totext;

/// Subcommands of `agkit dsf`.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Write DSFs (plain or 7z) as DSF2Text (DSFTool's text form).
    ///
    /// One file without `-o` goes to standard output; one file with `-o`
    /// goes to that file (or into it, if it is a directory). Several files,
    /// or a directory (searched for `*.dsf`), give one `<name>.dsf.txt` per
    /// DSF: next to it, or into the `-o` directory (keeping the layout below
    /// a directory argument). Every file is tried; the exit status is
    /// non-zero if any failed.
    Totext {
        /// DSF files or directories holding DSF files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Output text file, or output directory for several DSFs. Rasters
        /// are written beside each text as `<text>.<layer>.raw`.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Build a binary DSF from DSF2Text.
    ///
    /// Entities are grouped as DSFTool groups them (by filter, kind,
    /// definition and pool), so they read back in that order, and loose
    /// terrain triangles are joined into strips, as DSFTool does.
    Build {
        /// The DSF2Text file.
        input: PathBuf,
        /// Output DSF file.
        #[arg(short, long)]
        output: PathBuf,
        /// Write the DSF 7z-compressed, as Laminar ships its tiles.
        #[arg(long = "7z")]
        seven_z: bool,
    },
    /// The overlay of a tile, as Ortho4XP extracts it: polygons and roads
    /// with `sim/overlay 1`, no terrain, rasters, objects or filters.
    ///
    /// Binary in, binary out, in one pass: the kept coordinates are the
    /// tile's, bit for bit. Ortho4XP's rules (src/O4_Overlay_Utils.py):
    /// polygon definition 0 (beaches in the Global and HD sceneries) is
    /// left out unless `--exclude-polygon` says otherwise.
    ExtractOverlay {
        /// The tile (plain or 7z DSF).
        tile: PathBuf,
        /// Polygon definitions to leave out (Ortho4XP's ovl_exclude_pol):
        /// an index, a text the path contains, or !TEXT for paths without
        /// it; `none` keeps all. Default 0.
        #[arg(long = "exclude-polygon", value_name = "ITEM")]
        exclude_polygon: Vec<String>,
        /// Road subtypes to leave out (Ortho4XP's ovl_exclude_net); `*`
        /// leaves out every network.
        #[arg(long = "exclude-road", value_name = "SUBTYPE")]
        exclude_road: Vec<String>,
        /// Keep objects too (Ortho4XP's overlays hold none).
        #[arg(long)]
        objects: bool,
        #[command(flatten)]
        out: edit::OutArgs,
    },
    /// Copy, replace or drop raster layers (X-Plane 12 seasons, sound,
    /// elevation), as AutoOrtho's "Add Native Seasons" does.
    ///
    /// With `--from` and no `--layer`, the layers AutoOrtho copies: names
    /// holding spr, win, fal, sum, soundscape or elevation. The tiles'
    /// bounds must agree; pools and commands are kept as they are.
    Rasters {
        /// The tile to change.
        tile: PathBuf,
        /// The tile to copy layers from (a Global Scenery DSF).
        #[arg(long)]
        from: Option<PathBuf>,
        /// A layer to copy (replacing the tile's of that name).
        #[arg(long = "layer", value_name = "NAME")]
        layer: Vec<String>,
        /// A layer of the tile to drop.
        #[arg(long = "drop", value_name = "NAME")]
        drop: Vec<String>,
        #[command(flatten)]
        out: edit::OutArgs,
    },
    /// Keep or drop entities by kind, definition, box or polygon.
    ///
    /// KIND is object, polygon, patch, network or any; PATTERN matches the
    /// definition path with * and ?. With `--bbox`/`--polygon`, the rules
    /// apply to entities with a point in the area (objects point by point,
    /// patches primitive by primitive); with an area and no rule, what is
    /// in the area is kept.
    Filter {
        /// The tile.
        tile: PathBuf,
        /// Keep only what matches KIND[:PATTERN] (repeatable).
        #[arg(long, value_name = "KIND[:PATTERN]")]
        keep: Vec<agkit::dsf::edit::Rule>,
        /// Drop what matches KIND[:PATTERN] (repeatable).
        #[arg(long, value_name = "KIND[:PATTERN]")]
        drop: Vec<agkit::dsf::edit::Rule>,
        /// The area as WEST,SOUTH,EAST,NORTH degrees.
        #[arg(long, value_name = "W,S,E,N", allow_hyphen_values = true)]
        bbox: Option<String>,
        /// The area as a GeoJSON file (Polygon or MultiPolygon).
        #[arg(long, value_name = "FILE")]
        polygon: Option<PathBuf>,
        #[command(flatten)]
        out: edit::OutArgs,
    },
    /// Merge several overlays of one tile into one, definitions renumbered.
    Merge {
        /// The tiles (same bounds).
        #[arg(required = true, num_args = 1..)]
        tiles: Vec<PathBuf>,
        #[command(flatten)]
        out: edit::OutArgs,
    },
    /// Set and unset properties (exclusions among them).
    Props {
        /// The tile.
        tile: PathBuf,
        /// NAME=VALUE to set (sim/exclude_* and sim/filter/aptid are added).
        #[arg(long, value_name = "NAME=VALUE")]
        set: Vec<String>,
        /// NAME (every property of that name) or NAME=VALUE to remove.
        #[arg(long, value_name = "NAME[=VALUE]")]
        unset: Vec<String>,
        #[command(flatten)]
        out: edit::OutArgs,
    },
    /// List every autogen use (.agp points, .agb/.ags polygons) in a DSF.
    Autogen {
        /// The DSF file.
        file: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t = autogen::Format::Text)]
        format: autogen::Format,
    },
}

/// Runs an `agkit dsf` subcommand.
pub fn run(cmd: Command) -> u8 {
    match cmd {
        Command::Totext { files, output } => {
            totext::totext_all(&files, output::output_file(output).as_deref())
        }
        Command::Build {
            input,
            output,
            seven_z,
        } => build::build(&input, &output, seven_z),
        Command::ExtractOverlay {
            tile,
            exclude_polygon,
            exclude_road,
            objects,
            out,
        } => {
            let mut opts = agkit::dsf::edit::OverlayOptions {
                exclude_roads: exclude_road,
                objects,
                ..Default::default()
            };
            if !exclude_polygon.is_empty() {
                opts.exclude_polygons = exclude_polygon
                    .into_iter()
                    .filter(|x| !x.eq_ignore_ascii_case("none"))
                    .collect();
            }
            edit::extract_overlay(&tile, &opts, &out)
        }
        Command::Rasters {
            tile,
            from,
            layer,
            drop,
            out,
        } => {
            let edits = agkit::dsf::edit::RasterEdits {
                layers: layer,
                drop,
            };
            edit::rasters(&tile, from.as_deref(), &edits, &out)
        }
        Command::Filter {
            tile,
            keep,
            drop,
            bbox,
            polygon,
            out,
        } => {
            let sel = agkit::dsf::edit::Selection {
                keep,
                drop,
                area: None,
            };
            edit::filter(&tile, sel, bbox.as_deref(), polygon.as_deref(), &out)
        }
        Command::Merge { tiles, out } => edit::merge(&tiles, &out),
        Command::Props {
            tile,
            set,
            unset,
            out,
        } => edit::props(&tile, &set, &unset, &out),
        Command::Autogen { file, format } => autogen::autogen(&file, format),
    }
}
