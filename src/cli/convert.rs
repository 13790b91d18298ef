//! `agkit convert agn PATH… [--map MAP.toml] -o SCENERY_DIR`

use super::output::{EXIT_INPUT, EXIT_OK};
use agkit::convert::{agn, map::Map};
use std::path::PathBuf;

/// Subcommands of `agkit convert`.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Convert FSX/P3D AGN cells into an X-Plane DSF overlay.
    Agn(AgnArgs),
}

/// Arguments of `agkit convert agn`.
#[derive(Debug, clap::Args)]
pub struct AgnArgs {
    /// AGN files, or folders searched for `*.agn`.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// A map (TOML) laid over the bundled default map.
    #[arg(long)]
    pub map: Option<PathBuf>,
    /// Scenery folder to write `Earth nav data/…` and the report into.
    #[arg(short, long)]
    pub output: PathBuf,
}

/// Runs an `agkit convert` subcommand.
pub fn run(cmd: Command) -> u8 {
    match cmd {
        Command::Agn(a) => convert_agn(a),
    }
}

fn convert_agn(a: AgnArgs) -> u8 {
    if let Some(p) = a.paths.iter().find(|p| !p.exists()) {
        return super::output::fail(format!("{}: no such file or directory", p.display()));
    }
    if let Err(code) = super::output::check_output(
        &a.output,
        agkit::fsutil::OutputRole::Folder,
        &a.paths.iter().map(|p| p.as_path()).collect::<Vec<_>>(),
    ) {
        return code;
    }
    let map = match &a.map {
        None => Map::bundled(),
        Some(p) => {
            let text = match super::output::read_text(p, "a mapping file (TOML)") {
                Ok(t) => t,
                Err(code) => return code,
            };
            match Map::bundled().overlaid(&text) {
                Ok(m) => m,
                Err(e) => {
                    eprintln!("error: {}:{e}", p.display());
                    return EXIT_INPUT;
                }
            }
        }
    };
    let inputs = match agn::read_inputs(&a.paths) {
        Ok(i) => i,
        Err(errors) => {
            for e in &errors {
                eprintln!("error: {e}");
            }
            eprintln!("{} problem(s); nothing was written", errors.len());
            return if errors.iter().any(|e| e.unreadable) {
                super::output::EXIT_USAGE
            } else {
                EXIT_INPUT
            };
        }
    };
    let cells: Vec<_> = inputs.into_iter().map(|(_, c, agn)| (c, agn)).collect();
    let bar = super::output::progress_bar(cells.len(), "cells");
    let tick = || bar.inc(1);
    let agent = format!("agkit {}", env!("CARGO_PKG_VERSION"));
    let out = agn::convert_cells(&cells, &map, &agent, &tick);
    bar.finish_and_clear();
    let report = serde_json::to_string_pretty(&out.report).unwrap_or_default() + "\n";
    let written = match agkit::overlay::build::write_tiles(
        &out.tiles,
        &a.output,
        "convert-report.json",
        report.as_bytes(),
    ) {
        Ok(w) => w,
        Err(e) => return super::output::fail(e),
    };
    let r = &out.report;
    println!("{} cell(s) converted", r.cells);
    for (kind, n) in &r.converted {
        println!("  {kind}: {n} record(s) converted");
    }
    for (why, n) in &r.skipped {
        println!("  skipped {n} × {why}");
    }
    if !r.unmapped.is_empty() {
        let total: usize = r.unmapped.iter().map(|u| u.count).sum();
        println!("  {total} record(s) left unmapped (not written); map them with a --map file:");
    }
    for u in &r.unmapped {
        println!(
            "  unmapped {} {}: {} record(s) → add {}",
            u.kind, u.guid, u.count, u.map_key
        );
    }
    println!(
        "wrote {} tile(s) and {}",
        r.tiles.len(),
        written
            .last()
            .map(|p| p.display().to_string())
            .unwrap_or_default()
    );
    EXIT_OK
}
