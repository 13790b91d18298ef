//! `agkit dsf extract-overlay | rasters | filter | merge | props`: the
//! library's binary edits ([`agkit::dsf::edit`]) on files, each written
//! through a temporary file (plain, or 7z with `--7z`), never over an
//! input.

use super::common::refuse_overwrite;
use crate::cli::output::{self, EXIT_INPUT};
use agkit::dsf::edit::{self, EditError};
use agkit::limits::Limits;
use std::path::{Path, PathBuf};

/// Where and how an edit's result is written.
#[derive(Debug, Clone, clap::Args)]
pub struct OutArgs {
    /// Output DSF file (never one of the inputs).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Write the DSF 7z-compressed, as Laminar ships its tiles (X-Plane
    /// and DSFTool read both forms).
    #[arg(long = "7z")]
    pub seven_z: bool,
}

/// Reads one input DSF, or the exit status after saying why not.
fn input(path: &Path) -> Result<Vec<u8>, u8> {
    output::read_file(path, "a DSF tile")
}

/// Reports an edit's error: the input it is in (and the byte), its kind.
fn report(inputs: &[&Path], e: &EditError) -> u8 {
    let file = e
        .input
        .and_then(|k| inputs.get(k))
        .map_or_else(String::new, |p| format!("{}: ", p.display()));
    eprintln!("error[DSF-EDIT-{}]: {file}{}", e.kind.name(), e.message);
    EXIT_INPUT
}

/// Writes an edit's result (packed with `--7z`).
pub fn write(out: &OutArgs, bytes: Vec<u8>) -> u8 {
    let bytes = if out.seven_z {
        match agkit::dsf::pack_7z(&bytes, &agkit::dsf::pack::entry_name(&out.output)) {
            Ok(b) => b,
            Err(e) => return output::fail(e),
        }
    } else {
        bytes
    };
    output::write_output(Some(&out.output), &bytes, &output::bytes_written(&bytes))
}

/// Runs `job` on the inputs' bytes and writes its result.
fn run(
    inputs: &[&Path],
    out: &OutArgs,
    job: impl FnOnce(&[Vec<u8>]) -> Result<Vec<u8>, EditError>,
) -> u8 {
    for i in inputs {
        if let Err(c) = refuse_overwrite(i, &out.output) {
            return c;
        }
    }
    let mut bytes = Vec::new();
    for i in inputs {
        match input(i) {
            Ok(b) => bytes.push(b),
            Err(c) => return c,
        }
    }
    match job(&bytes) {
        Ok(b) => {
            drop(bytes);
            write(out, b)
        }
        Err(e) => report(inputs, &e),
    }
}

/// `agkit dsf extract-overlay`.
pub fn extract_overlay(tile: &Path, opts: &edit::OverlayOptions, out: &OutArgs) -> u8 {
    run(&[tile], out, |b| {
        edit::extract_overlay(&b[0], opts, &Limits::default())
    })
}

/// `agkit dsf rasters`.
pub fn rasters(tile: &Path, from: Option<&Path>, edits: &edit::RasterEdits, out: &OutArgs) -> u8 {
    let mut inputs = vec![tile];
    inputs.extend(from);
    run(&inputs, out, |b| {
        edit::rasters(
            &b[0],
            b.get(1).map(Vec::as_slice),
            edits,
            &Limits::default(),
        )
    })
}

/// `agkit dsf filter`: `polygon` is a GeoJSON file of the area.
pub fn filter(
    tile: &Path,
    mut sel: edit::Selection,
    bbox: Option<&str>,
    polygon: Option<&Path>,
    out: &OutArgs,
) -> u8 {
    if let Some(b) = bbox {
        let v: Vec<f64> = b.split(',').filter_map(|x| x.trim().parse().ok()).collect();
        if v.len() != 4 || v[0] > v[2] || v[1] > v[3] {
            return output::fail(format!(
                "--bbox {b:?} is not WEST,SOUTH,EAST,NORTH (degrees, west <= east, south <= north)"
            ));
        }
        sel.area = Some(edit::Area::Box([v[0], v[1], v[2], v[3]]));
    }
    if let Some(p) = polygon {
        let text = match output::read_file(p, "a GeoJSON polygon") {
            Ok(t) => String::from_utf8_lossy(&t).into_owned(),
            Err(c) => return c,
        };
        match edit::Area::from_geojson(&text) {
            Ok(a) => sel.area = Some(a),
            Err(e) => {
                eprintln!("error: {}: {e}", p.display());
                return EXIT_INPUT;
            }
        }
    }
    run(&[tile], out, |b| {
        edit::filter(&b[0], &sel, &Limits::default())
    })
}

/// `agkit dsf merge`.
pub fn merge(tiles: &[PathBuf], out: &OutArgs) -> u8 {
    let inputs: Vec<&Path> = tiles.iter().map(PathBuf::as_path).collect();
    run(&inputs, out, |b| {
        let refs: Vec<&[u8]> = b.iter().map(Vec::as_slice).collect();
        edit::merge(&refs, &Limits::default())
    })
}

/// `agkit dsf props`: `set` holds `NAME=VALUE` items.
pub fn props(tile: &Path, set: &[String], unset: &[String], out: &OutArgs) -> u8 {
    let mut edits = edit::PropertyEdits {
        unset: unset.to_vec(),
        ..Default::default()
    };
    for s in set {
        match s.split_once('=') {
            Some((n, v)) => edits.set.push((n.to_string(), v.to_string())),
            None => return output::fail(format!("--set {s:?} is not NAME=VALUE")),
        }
    }
    run(&[tile], out, |b| {
        edit::props(&b[0], &edits, &Limits::default())
    })
}
