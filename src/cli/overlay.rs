//! `agkit overlay build FEATURES.geojson --rules RULES.toml -o SCENERY_DIR`

use super::output::{self, EXIT_INPUT, EXIT_OK};
use agkit::overlay::{self, BuildOptions, Rules, build::OverlayError};
use clap::ValueEnum;
use std::path::{Path, PathBuf};

/// Preview picture format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Preview {
    /// One SVG per tile.
    Svg,
    /// One SVG and one PNG per tile.
    Png,
}

/// Subcommands of `agkit overlay`.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Build DSF overlay tiles placing autogen on GeoJSON features.
    Build(BuildArgs),
}

/// Arguments of `agkit overlay build`.
#[derive(Debug, clap::Args)]
pub struct BuildArgs {
    /// GeoJSON FeatureCollection (lon/lat polygons and points).
    pub features: PathBuf,
    /// Rules file (TOML, see docs/overlay.md).
    #[arg(long)]
    pub rules: PathBuf,
    /// Scenery folder to write `Earth nav data/…` and the report into.
    #[arg(short, long)]
    pub output: PathBuf,
    /// Also write a picture per tile into SCENERY_DIR/preview (`svg`, the
    /// default, or `png` for SVG and PNG).
    #[arg(long, value_enum, num_args = 0..=1, default_missing_value = "svg")]
    pub preview: Option<Preview>,
    /// Skip invalid features (reported) instead of failing, and only warn
    /// about rule properties no feature has.
    #[arg(long)]
    pub lenient: bool,
}

/// Runs an `agkit overlay` subcommand.
pub fn run(cmd: Command) -> u8 {
    match cmd {
        Command::Build(a) => build(a),
    }
}

fn build(a: BuildArgs) -> u8 {
    let rules_text = match output::read_text(&a.rules, "a rules file (TOML)") {
        Ok(t) => t,
        Err(c) => return c,
    };
    let rules = match Rules::parse(&rules_text) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {}:{e}", a.rules.display());
            return EXIT_INPUT;
        }
    };
    let text = match output::read_text(&a.features, "GeoJSON") {
        Ok(t) => t,
        Err(c) => return c,
    };
    let features = match overlay::read_features(&text) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {}: {e}", a.features.display());
            return EXIT_INPUT;
        }
    };
    let opts = BuildOptions {
        lenient: a.lenient,
        ..BuildOptions::default()
    };
    let mut built = match overlay::build_overlay(&features, &rules, &opts) {
        Ok(o) => o,
        Err(OverlayError::Invalid(list)) => {
            for m in &list {
                eprintln!("error: {}: {m}", a.features.display());
            }
            eprintln!(
                "{} problem(s); nothing was written (use --lenient to skip invalid features)",
                list.len()
            );
            return EXIT_INPUT;
        }
        Err(e) => return output::fail(e),
    };
    // The tiles are encoded once and read back: the placement engine runs
    // on the uses as written (as `place --dsf` of the tile reads them) for
    // every use whose rule names a local copy of the asset
    // (`preview_file`): its warnings (an asset that does not fit its
    // polygon, …) go into the report, its result into the previews, all
    // before anything is written. One tile's placements are held at a
    // time, and none without previews.
    let encoded = match built.encode() {
        Ok(e) => e,
        // A use no DSF can hold is the input's fault, not an I/O failure.
        Err(e) => {
            eprintln!("error: {}: {e}", a.features.display());
            return EXIT_INPUT;
        }
    };
    let as_written = match built.read_back(&encoded) {
        Ok(o) => o,
        Err(e) => return output::fail(e),
    };
    let base = a.rules.parent().unwrap_or(Path::new("."));
    let (assets, mut notes) = overlay::preview::load_assets(&rules, base);
    let mut previews = Vec::new();
    let dir = a.output.join("preview");
    for &tile in as_written.tiles.keys() {
        let Some(kind) = a.preview else {
            overlay::preview::tile_warnings(&as_written, tile, &assets, &mut notes);
            continue;
        };
        let ps = overlay::preview::place_tile(&as_written, tile, &assets, &mut notes);
        let mut formats = vec![(false, "svg")];
        if kind == Preview::Png {
            formats.push((true, "png"));
        }
        for (png, ext) in formats {
            match overlay::preview::render(tile, &ps, png, &mut notes) {
                Ok(bytes) => previews.push((dir.join(format!("{tile}.{ext}")), bytes)),
                Err(e) => return output::fail(format!("preview of {tile}: {e}")),
            }
        }
    }
    notes.sort();
    notes.dedup();
    built.report.warnings.extend(notes);
    // Previews, tiles and the report in one all-or-nothing step (the report
    // last: its presence marks a complete run).
    let n_previews = previews.len();
    let written = match overlay::write_encoded_overlay(&mut built, encoded, &a.output, previews) {
        Ok(w) => w,
        Err(e) => return output::fail(e),
    };
    let r = &built.report;
    println!(
        "{} feature(s): {} used, {} skipped",
        r.features,
        r.used,
        r.skipped
            .iter()
            .map(|s| s.feature)
            .collect::<std::collections::BTreeSet<_>>()
            .len()
    );
    for s in &r.skipped {
        let id =
            s.id.as_deref()
                .map(|i| format!(" (id {i:?})"))
                .unwrap_or_default();
        let tile = s
            .tile
            .as_deref()
            .map(|t| format!(" in {t}"))
            .unwrap_or_default();
        println!("  skipped feature {}{id}{tile}: {}", s.feature, s.reason);
    }
    for (asset, n) in &r.placed {
        println!("  placed {n} × {asset}");
    }
    for w in &r.warnings {
        println!("  warning: {w}");
    }
    println!(
        "wrote {} tile(s){} and {}",
        r.tiles.len(),
        if n_previews == 0 {
            String::new()
        } else {
            format!(", {n_previews} preview file(s)")
        },
        written
            .last()
            .map(|p| p.display().to_string())
            .unwrap_or_default()
    );
    EXIT_OK
}
